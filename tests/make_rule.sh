#!/bin/bash
# make_rule.sh: README's Makefile pattern rule (tests/make_project/Makefile) on a sample:
# make pipelines and compiles, a second make does nothing, a touched header re-runs pipefy,
# a syntax error passes through pipefy to nvcc, and a failing pipefy fails the build without
# leaving a stale .pipe.cu. Exit 77 without nvcc.
#   tests/make_rule.sh PIPEFY
set -u
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1")
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || { echo "no nvcc at $nvcc: skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh
absent() { ! grep -q "$@"; }
cp tests/make_project/Makefile testdata/sgemm_tiled.cu testdata/harness.cuh "$tmp/"
m() { make -C "$tmp" PIPEFY="$pipefy" NVCC="$nvcc" sgemm.o; }
m >"$tmp/log" 2>&1
rc=$?
expect "make pipelines and compiles" '[ $rc = 0 ] && [ -f "$tmp/sgemm.o" ]'
expect "the .pipe.cu is pipefy's output" 'cmp -s "$tmp/sgemm_tiled.pipe.cu" golden/sgemm_tiled.auto.cu'
m >"$tmp/log2" 2>&1
expect "a second make does nothing" 'absent "pipefy\|nvcc" "$tmp/log2"'
sleep 1; touch "$tmp/harness.cuh"
m >"$tmp/log3" 2>&1
expect "a touched header re-runs pipefy" 'grep -q "pipefy -q sgemm_tiled.cu" "$tmp/log3"'
# a syntax error is nvcc's to report: pipefy warns and passes the file through unchanged
sleep 1; cp "$tmp/sgemm_tiled.cu" "$tmp/good.cu"
sed -i "s/float acc = 0.0f;/float acc = ;/" "$tmp/sgemm_tiled.cu"
m >"$tmp/log4" 2>&1; rc=$?
expect "a syntax error: pipefy warns, passes it through, and nvcc fails make" \
	'[ $rc != 0 ] && grep -q "sgemm_tiled.cu:.*warning: expected expression" "$tmp/log4" && cmp -s "$tmp/sgemm_tiled.cu" "$tmp/sgemm_tiled.pipe.cu" && grep -q "error" "$tmp/log4"'
# a failing pipefy (a file it cannot read as text) fails make, and no .pipe.cu is left
sleep 1; printf '\xff\xfe\x00broken' >"$tmp/sgemm_tiled.cu"; rm -f "$tmp/sgemm_tiled.pipe.cu"
m >"$tmp/log5" 2>&1; rc=$?
expect "a pipefy failure fails make" '[ $rc != 0 ] && grep -q "sgemm_tiled.cu: error" "$tmp/log5"'
expect "and leaves no .pipe.cu behind" '[ ! -e "$tmp/sgemm_tiled.pipe.cu" ]'
echo "$pass passed, $fail failed"
[ $fail = 0 ]
