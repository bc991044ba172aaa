#!/bin/bash
# lib_selftest.sh: the checks of tests/lib.sh and tests/cli_case.sh can fail. A false condition, a condition whose
# second half is false, and the old slip of passing a condition as several words all count
# as failures.
set -u
cd "$(dirname "$0")/.." || exit
. tests/lib.sh
run() { (pass=0 fail=0; eval "$1" >/dev/null; echo "$pass $fail"); }
want() { # name, got, want
	if [ "$2" = "$3" ]; then echo "[PASS] $1"; else echo "[FAIL] $1: got '$2', want '$3'"; bad=1; fi
}
bad=0
want "a true condition passes" "$(run "expect t '[ 0 = 0 ]'")" "1 0"
want "a false condition fails" "$(run "expect f '[ 0 = 1 ]'")" "0 1"
want "both halves of && are checked" "$(run "expect h '[ 0 = 0 ] && [ x = \"\" ]'")" "0 1"
# shellcheck disable=SC2016
want "the old slip fails instead of passing" "$(run 'expect demo [ 0 = 0 ] && [ x = "" ]')" "0 1"
want "a missing condition fails" "$(run "expect lonely")" "0 1"
# The command-line case runner (tests/cli_case.sh), with echo standing in for pipefy: a case
# that holds passes, and a wrong output, a wrong status or a case expecting nothing fails.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/ok" "$tmp/out" "$tmp/rc" "$tmp/nothing"
for c in ok out rc nothing; do printf 'hello\n' >"$tmp/$c/args"; done
printf 'hello\n' >"$tmp/ok/expected-stdout"
printf 'goodbye\n' >"$tmp/out/expected-stdout"
echo 2 >"$tmp/rc/expected-rc"
case_rc() { tests/cli_case.sh /bin/echo "$tmp/$1" >/dev/null 2>&1; echo $?; }
want "a case that holds passes" "$(case_rc ok)" 0
want "a case whose stdout differs fails" "$(case_rc out)" 1
want "a case whose exit status differs fails" "$(case_rc rc)" 1
want "a case that expects nothing fails" "$(case_rc nothing)" 1
[ $bad = 0 ] && echo "9 passed, 0 failed" || { echo "some checks of expect failed"; exit 1; }
