#!/bin/bash
# editors.sh: the editor integrations in editors/, driven the way each editor runs them:
# Vim in Ex mode (:Pipefy, :PipefyLines), Emacs in batch mode (pipefy-buffer, pipefy-loop),
# and the VS Code task's problem matcher against pipefy's real messages. An editor that is not
# installed is skipped (and said); scripts/bootstrap installs vim and emacs-nox.
#   tests/editors.sh PIPEFY
set -u
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh
cp testdata/sgemm_tiled.cu testdata/multi_kernels.cu testdata/harness.cuh "$tmp/"
cp tests/cli/syntax-error-stdin/stdin "$tmp/syntax_error.cu"
# multi_kernels.cu's second K-loop alone
loop_line=$(grep -n 'for (int k0 = 0' testdata/multi_kernels.cu | sed -n 2p | cut -d: -f1)
"$pipefy" -q --lines="$loop_line:$loop_line" testdata/multi_kernels.cu >"$tmp/one_loop.want"

if command -v vim >/dev/null; then
	v() { vim -N -u NONE -i NONE -Es -c "let g:pipefy_command = '$pipefy'" -c 'source editors/pipefy.vim' "$@"; }
	cp "$tmp/sgemm_tiled.cu" "$tmp/vim.cu"
	v -c 'Pipefy' -c 'wq' "$tmp/vim.cu"
	expect "vim :Pipefy rewrites the buffer" 'cmp -s "$tmp/vim.cu" golden/sgemm_tiled.auto.cu'
	cp "$tmp/multi_kernels.cu" "$tmp/vim_lines.cu"
	v -c "${loop_line}PipefyLines" -c 'wq' "$tmp/vim_lines.cu"
	expect "vim :PipefyLines rewrites the loop under the cursor only" 'cmp -s "$tmp/vim_lines.cu" "$tmp/one_loop.want"'
	cp "$tmp/syntax_error.cu" "$tmp/vim_bad.cu"
	v -c 'Pipefy' -c 'wq' "$tmp/vim_bad.cu" >/dev/null 2>&1
	expect "vim: a failing run leaves the buffer as it was" 'cmp -s "$tmp/vim_bad.cu" "$tmp/syntax_error.cu"'
	# one u undoes :Pipefy and nothing before it (the user's last edit stays); the let ends the
	# edit's undo block, as typing the next command does
	cp "$tmp/sgemm_tiled.cu" "$tmp/vim_undo.cu"
	v -c 'normal! Go// mine' -c 'let &undolevels = &undolevels' -c 'Pipefy' -c 'normal! u' -c 'wq' "$tmp/vim_undo.cu"
	{ cat "$tmp/sgemm_tiled.cu"; echo '// mine'; } >"$tmp/vim_undo.want"
	expect "vim: one u after :Pipefy undoes the rewrite, not the edit before it" 'cmp -s "$tmp/vim_undo.cu" "$tmp/vim_undo.want"'
	cp "$tmp/sgemm_tiled.cu" "$tmp/vim_undo2.cu"
	v -c 'normal! Go// mine' -c 'let &undolevels = &undolevels' -c 'Pipefy' -c 'normal! u' -c 'normal! u' -c 'wq' "$tmp/vim_undo2.cu"
	expect "vim: a second u undoes the edit before :Pipefy" 'cmp -s "$tmp/vim_undo2.cu" "$tmp/sgemm_tiled.cu"'
	# plain Vim as README.md gives it: a usage error still writes the text back
	cp "$tmp/sgemm_tiled.cu" "$tmp/vim_filter.cu"
	vim -N -u NONE -i NONE -Es -c "%!$pipefy --varaint=ldg --assume-filename=% 2>/dev/null" -c 'wq' "$tmp/vim_filter.cu"
	expect "vim: :%!pipefy with a usage error leaves the buffer as it was" 'cmp -s "$tmp/vim_filter.cu" "$tmp/sgemm_tiled.cu"'
else
	echo "[SKIP] vim is not installed"
fi

if command -v emacs >/dev/null; then
	e() { emacs --batch -Q -l editors/pipefy.el --eval "(setq pipefy-command \"$pipefy\")" "$@" >/dev/null 2>&1; }
	cp "$tmp/sgemm_tiled.cu" "$tmp/emacs.cu"
	e --visit "$tmp/emacs.cu" --eval '(progn (pipefy-buffer) (save-buffer))'
	expect "emacs pipefy-buffer rewrites the buffer" 'cmp -s "$tmp/emacs.cu" golden/sgemm_tiled.auto.cu'
	cp "$tmp/multi_kernels.cu" "$tmp/emacs_lines.cu"
	e --visit "$tmp/emacs_lines.cu" --eval "(progn (goto-char (point-min)) (forward-line $((loop_line - 1))) (pipefy-loop) (save-buffer))"
	expect "emacs pipefy-loop rewrites the loop at point only" 'cmp -s "$tmp/emacs_lines.cu" "$tmp/one_loop.want"'
	cp "$tmp/syntax_error.cu" "$tmp/emacs_bad.cu"
	e --visit "$tmp/emacs_bad.cu" --eval '(progn (pipefy-buffer) (save-buffer))'
	expect "emacs: a failing run leaves the buffer as it was" 'cmp -s "$tmp/emacs_bad.cu" "$tmp/syntax_error.cu"'
else
	echo "[SKIP] emacs is not installed"
fi

if command -v python3 >/dev/null; then
	"$pipefy" --dry-run "$(pwd)/testdata/multi_kernels.cu" 2>"$tmp/dry" >/dev/null
	python3 - editors/vscode/tasks.json "$tmp/dry" <<'PY' >"$tmp/matched"
import json, re, sys
text = re.sub(r'^\s*//.*$', '', open(sys.argv[1]).read(), flags=re.M)  # JSON with comments
task = [t for t in json.loads(text)['tasks'] if t['label'] == 'pipefy: dry run'][0]
pattern = task['problemMatcher']['pattern']
for line in open(sys.argv[2]):
    m = re.match(pattern['regexp'], line.rstrip('\n'))
    if m:
        print(m.group(pattern['file']), m.group(pattern['line']), m.group(pattern['severity']))
PY
	expect "the VS Code task's problem matcher finds each loop pipefy would change" ' [ "$(grep -c "multi_kernels.cu [0-9]* warning" "$tmp/matched")" = "$(grep -c '\'': warning: K-loop can be pipelined'\'' "$tmp/dry")" ] && [ -s "$tmp/matched" ]'
	# the severity each of pipefy's lines gets in the Problems panel, as VS Code's problem
	# matcher decides it (problemMatcher.ts, getSeverity): error, warning (or warn) and info
	# name themselves, E/W/I, hint and note too; anything else takes the matcher's own
	# "severity", else Error
	"$pipefy" "$(pwd)/testdata/multi_kernels.cu" "$(pwd)/tests/cli/syntax-error-stdin/stdin" 2>"$tmp/messages" >/dev/null
	python3 - editors/vscode/tasks.json "$tmp/messages" <<'PY' >"$tmp/severities"
import json, re, sys
text = re.sub(r'^\s*//.*$', '', open(sys.argv[1]).read(), flags=re.M)
task = [t for t in json.loads(text)['tasks'] if t['label'] == 'pipefy: this file'][0]
matchers = task['problemMatcher'] if isinstance(task['problemMatcher'], list) else [task['problemMatcher']]
named = {'error': 'error', 'warning': 'warning', 'warn': 'warning', 'info': 'info', 'e': 'error', 'w': 'warning',
         'i': 'info', 'hint': 'info', 'note': 'info'}
for line in open(sys.argv[2]):
    for matcher in matchers:
        pattern = matcher['pattern']
        m = re.match(pattern['regexp'], line.rstrip('\n'))
        if not m:
            continue
        said = m.group(pattern['severity']) if 'severity' in pattern else ''
        sev = named.get(said.lower()) or named.get(said) or matcher.get('severity', 'error')
        kind = re.search(r': (remark|warning|error): ', line).group(1)
        print(kind, sev)
        break
PY
	expect "the VS Code task shows remarks as info, warnings as warnings" \
		'grep -q "^remark info$" "$tmp/severities" && grep -q "^warning warning$" "$tmp/severities" && ! grep -v -e "^remark info$" -e "^warning warning$" -e "^error error$" "$tmp/severities" | grep -q .'
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
