#!/bin/bash
# cli_case.sh: one command-line case, the way ctags' Units are written: a folder holding
#   args             pipefy's arguments, one per line (paths relative to the repository root;
#                    blank lines are not arguments)
#   stdin            optional: what standard input reads (otherwise nothing)
#   env              optional: VAR=value lines set for the run
#   expected-stdout  optional: standard output, byte for byte
#   expected-stderr  optional: standard error, byte for byte
#   expected-rc      optional: the exit status (0 when absent)
# At least one expected-* file must be there. Files in the case folder can be named in args
# as @CASE@/NAME. A case runs with a cache folder of its own, or $CLI_CASE_CACHE, which ctest
# gives all cases (the precompiled headers are the same for most: a case's own would build
# them again, about a second each). It runs with a TMPDIR of its own (an env file may set another).
#   tests/cli_case.sh PIPEFY tests/cli/NAME
#   tests/cli_case.sh --update PIPEFY tests/cli/NAME   writes what this run gives into the case's
#                                                      expected-* files that exist (review the diff)
set -u
update=0
[ "${1:-}" = --update ] && update=1 && shift
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1")
case=${2%/}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -f "$case/args" ]; then
	echo "[FAIL] $case: no args file"
	exit 1
fi
if ! ls "$case"/expected-* >/dev/null 2>&1; then
	echo "[FAIL] $case: nothing is expected (no expected-stdout, expected-stderr or expected-rc)"
	exit 1
fi
args=()
while IFS= read -r a || [ -n "$a" ]; do
	[ -n "$a" ] && args+=("${a//@CASE@/$case}")
done <"$case/args"
envs=()
[ -f "$case/env" ] && mapfile -t envs <"$case/env"
stdin=/dev/null
[ -f "$case/stdin" ] && stdin=$case/stdin
# (a TMPDIR of the case's own, before the case's env so that it may name another: --ptxas's
# temporary goes there, and another pipefy on the machine has its own in /tmp)
mkdir "$tmp/tmpdir"
env PIPEFY_CACHE_DIR="${CLI_CASE_CACHE:-$tmp/cache}" TMPDIR="$tmp/tmpdir" "${envs[@]}" "$pipefy" "${args[@]}" <"$stdin" >"$tmp/stdout" 2>"$tmp/stderr"
echo $? >"$tmp/rc"
[ -f "$case/expected-rc" ] || echo 0 >"$tmp/expected-rc"
failed=0
for what in stdout stderr rc; do
	want=$case/expected-$what
	[ "$what" = rc ] && [ ! -f "$want" ] && want=$tmp/expected-rc
	[ -f "$want" ] || continue
	if [ $update = 1 ] && [ -f "$case/expected-$what" ]; then
		cp "$tmp/$what" "$case/expected-$what"
	elif ! cmp -s "$want" "$tmp/$what"; then
		echo "[FAIL] $case: $what differs (expected, then got):"
		diff "$want" "$tmp/$what" | head -n 20
		failed=1
	fi
done
# (whatever it ran, pipefy leaves nothing behind in its TMPDIR: --ptxas's temporary is removed)
if [ -n "$(ls -A "$tmp/tmpdir")" ]; then
	echo "[FAIL] $case: left in its TMPDIR: $(ls -A "$tmp/tmpdir" | head -n 3 | tr '\n' ' ')"
	failed=1
fi
[ $failed = 0 ] && echo "[PASS] $case"
exit $failed
