#!/bin/bash
# regressions.sh: every input the fuzzer once broke pipefy with, held to the fuzz target's
# invariants with the real binary: exit 0 or 1 within 10 s (never a crash or a hang), and a
# changed output has no more clang errors than the input and is left unchanged by a second
# run. `make check-asan` runs this under AddressSanitizer.
#   tests/fuzz/regressions.sh PIPEFY
set -u
cd "$(dirname "$0")/../.." || exit
pipefy=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for f in tests/fuzz/regressions/*; do
	n=$((n + 1))
	# named as the fuzz target names its inputs, so their includes resolve the same way
	timeout 10 "$pipefy" -R --assume-filename=testdata/fuzz-input.cu <"$f" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ $rc != 0 ] && [ $rc != 1 ]; then
		echo "[FAIL] $f: exit $rc"; head -5 "$tmp/err"; fail=$((fail + 1)); continue
	fi
	if ! cmp -s "$f" "$tmp/out"; then
		"$pipefy" -R --assume-filename=testdata/fuzz-input.cu <"$tmp/out" >"$tmp/again" 2>"$tmp/err2"
		if ! cmp -s "$tmp/out" "$tmp/again"; then
			echo "[FAIL] $f: a second run changed the output"; fail=$((fail + 1)); continue
		fi
		# clang's complaints (warnings where tolerated, errors where not): no more than the input's
		before=$(grep -c -E ': (warning|error): ' "$tmp/err") after=$(grep -c -E ': (warning|error): ' "$tmp/err2")
		if [ "$after" -gt "$before" ]; then
			echo "[FAIL] $f: the rewrite added clang errors ($before before, $after after)"; fail=$((fail + 1)); continue
		fi
	fi
	echo "[PASS] $f (exit $rc)"
done
echo "$((n - fail)) of $n pass"
[ $fail = 0 ] && [ $n -gt 0 ]
