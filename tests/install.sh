#!/bin/bash
# install.sh: `cmake --install` to a temporary prefix gives a working pipefy, its man page, its
# bash completion and find_package(Pipefy), each used from there.
#   tests/install.sh PIPEFY     (PIPEFY in the build folder to install from)
set -u
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh
p=$tmp/prefix

cmake --install "$(dirname "$pipefy")" --prefix "$p" >"$tmp/install.log" 2>&1; rc=$?
expect "cmake --install --prefix P" '[ $rc = 0 ]' || cat "$tmp/install.log"

# the program, from the prefix and from a folder of its own
mkdir -p "$tmp/work"; cp testdata/sgemm_tiled.cu testdata/harness.cuh "$tmp/work/"
(cd "$tmp/work" && "$p/bin/pipefy" -q sgemm_tiled.cu) >"$tmp/out" 2>"$tmp/err"; rc=$?
expect "the installed pipefy rewrites a kernel as the built one does" '[ $rc = 0 ] && cmp -s "$tmp/out" golden/sgemm_tiled.auto.cu'
expect "the installed pipefy says its version" '"$p/bin/pipefy" --version | grep -q "^pipefy [0-9]"'

# the man page, and the long options of --help in it and in the completion
man=$p/share/man/man1/pipefy.1
MANWIDTH=100 man -l "$man" >"$tmp/man.txt" 2>"$tmp/man.err"; rc=$?
expect "man -l pipefy.1 renders it without a warning" '[ $rc = 0 ] && [ ! -s "$tmp/man.err" ] && grep -q "rewrite tiled CUDA K-loops" "$tmp/man.txt"'
version=$("$p/bin/pipefy" --version | cut -d" " -f2)
expect "the man page's version is the program's ($version)" 'grep -q "^\.TH PIPEFY 1 .* \"pipefy $version\"" "$man"'
MANPATH="$p/share/man" man -w pipefy >"$tmp/where" 2>/dev/null
expect "man finds pipefy under the prefix's share/man" 'grep -q "$p/share/man/man1/pipefy.1" "$tmp/where"'
"$p/bin/pipefy" --help | awk '/^  -/ { print substr($0, 3, 24) }' | grep -o -- '--[A-Za-z][A-Za-z-]*' | sort -u >"$tmp/options"
completion=$p/share/bash-completion/completions/pipefy
missing_man= missing_completion=
while read -r o; do
	grep -q -- "${o//-/\\\\-}" "$man" || missing_man="$missing_man $o"
	grep -q -- "$o" "$completion" || missing_completion="$missing_completion $o"
done <"$tmp/options"
expect "every long option of --help ($(wc -l <"$tmp/options")) is in the man page (missing:${missing_man:- none})" '[ -z "$missing_man" ]'
expect "every long option of --help is in the completion (missing:${missing_completion:- none})" '[ -z "$missing_completion" ]'

# the completion, as bash-completion loads it
complete_line() { # WORDS...: what <TAB> offers after them
	(cd "$tmp/work" && PATH="$p/bin:$PATH" bash -c 'shopt -s extglob; source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pipefy; printf "%s\n" "${COMPREPLY[@]}"' sh "$completion" "$@")
}
expect "completion: --var<TAB> is --variant=" '[ "$(complete_line pipefy --var)" = "--variant=" ]'
expect "completion: --variant=ws<TAB> names the installed pipefy's ws variants" \
	'[ "$(complete_line pipefy --variant=ws | sort | tr "\n" " ")" = "--variant=ws --variant=ws-cp.async " ]'
expect "completion: a file argument offers the .cu files" '[ "$(complete_line pipefy sgemm)" = "sgemm_tiled.cu" ]'

# find_package(Pipefy) from the prefix
with_cuda=OFF
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] && with_cuda=ON
cmake -S tests/install_project -B "$tmp/build" -DCMAKE_PREFIX_PATH="$p" -DKERNEL_DIR="$tmp/work" \
	-DWITH_CUDA=$with_cuda -DCMAKE_CUDA_COMPILER="$nvcc" >"$tmp/configure.log" 2>&1; rc=$?
expect "find_package(Pipefy 0.1 REQUIRED) finds the installed pipefy" \
	'[ $rc = 0 ] && grep -q "^$p/bin/pipefy 0.1" "$tmp/build/found.txt"' || tail -20 "$tmp/configure.log"
cmake --build "$tmp/build" >"$tmp/build.log" 2>&1; rc=$?
expect "the project builds (CUDA: $with_cuda), and pipefy_sources' copy is the rewrite" \
	'[ $rc = 0 ] && cmp -s "$tmp/build/pipefy/sgemm_tiled.cu" golden/sgemm_tiled.auto.cu' || tail -20 "$tmp/build.log"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
