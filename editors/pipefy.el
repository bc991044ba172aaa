;;; pipefy.el --- run pipefy on the current buffer  -*- lexical-binding: t -*-
;;
;; (load "path/to/pipefy.el")
;; M-x pipefy-buffer   pipeline every K-loop in the buffer
;; M-x pipefy-loop     pipeline only the loop at point (--lines)
;; On failure the buffer is left as it was and pipefy's messages go to *pipefy*.

(defvar pipefy-command "pipefy" "The pipefy executable.")

(defun pipefy--run (&optional line)
  (let* ((out (generate-new-buffer " *pipefy-out*"))
         (err (make-temp-file "pipefy-err"))
         (args (append (list (concat "--assume-filename=" (or buffer-file-name "stdin.cu")))
                       (when line (list (format "--lines=%d:%d" line line)))))
         (status (apply #'call-process-region (point-min) (point-max) pipefy-command
                        nil (list out err) nil args)))
    (if (eq status 0)
        (let ((pos (point)))
          ;; replace-buffer-contents keeps markers and point where the text did not change
          (replace-buffer-contents out)
          (goto-char pos)
          (message "pipefy: done"))
      (with-current-buffer (get-buffer-create "*pipefy*")
        (erase-buffer)
        (insert-file-contents err))
      (message "pipefy failed (exit %s): see *pipefy*" status))
    (kill-buffer out)
    (delete-file err)
    status))

(defun pipefy-buffer ()
  "Pipeline every K-loop in the current buffer."
  (interactive)
  (pipefy--run))

(defun pipefy-loop ()
  "Pipeline only the K-loop at point."
  (interactive)
  (pipefy--run (line-number-at-pos)))

(provide 'pipefy)
;;; pipefy.el ends here
