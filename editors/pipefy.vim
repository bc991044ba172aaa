" pipefy.vim: run pipefy from Vim, the way clang-format.py is run.
"   :source path/to/pipefy.vim     (or copy it into ~/.vim/plugin/)
"   :Pipefy        pipeline every K-loop in the buffer
"   <Leader>pl     pipeline only the loop under the cursor (--lines)
"   :N,MPipefyLines  only the loops touching lines N..M
" On failure (exit status not 0) the buffer is left as it was and pipefy's message is shown;
" on success stdin mode keeps stderr empty, so nothing else is printed.

if !exists('g:pipefy_command')
  let g:pipefy_command = 'pipefy'
endif

function! s:Pipefy(first, last) abort
  let l:view = winsaveview()
  let l:args = ' --assume-filename=' . shellescape(expand('%:p'))
  if a:first > 0
    let l:args .= ' --lines=' . a:first . ':' . a:last
  endif
  let l:input = getline(1, '$')
  let l:output = systemlist(g:pipefy_command . l:args . ' 2>/dev/null', l:input)
  if v:shell_error != 0
    echohl ErrorMsg
    echo join(systemlist(g:pipefy_command . l:args . ' -q 2>&1 >/dev/null', l:input), "\n")
    echohl None
    return
  endif
  " one undo block of its own: one u takes back the rewrite and nothing the user did before it
  " (no undojoin; setline and the :delete below are one change, made by one command)
  if l:output != l:input
    call setline(1, l:output)
    if line('$') > len(l:output)
      silent execute (len(l:output) + 1) . ',$delete _'
    endif
  endif
  call winrestview(l:view)
endfunction

command! Pipefy call s:Pipefy(0, 0)
command! -range PipefyLines call s:Pipefy(<line1>, <line2>)
nnoremap <silent> <Leader>pl :call <SID>Pipefy(line('.'), line('.'))<CR>
