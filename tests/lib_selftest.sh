#!/bin/bash
# lib_selftest.sh: the checks of tests/lib.sh can fail. A false condition, a condition whose
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
[ $bad = 0 ] && echo "5 passed, 0 failed" || { echo "some checks of expect failed"; exit 1; }
