#!/bin/bash
# cmake.sh: cmake/Pipefy.cmake in a small CUDA project: configure, build (nvcc, sm_80), and
# check that the pipelined copy is what gets compiled, that a second build does nothing, and
# that touching an included header re-runs pipefy. Exit 77 (skipped) without nvcc.
#   tests/cmake.sh PIPEFY
set -u
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1")
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || { echo "no nvcc at $nvcc: skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

mkdir -p "$tmp/src/include"
cp testdata/nvcc_include_dirs.cu testdata/harness.cuh "$tmp/src/"
cp testdata/include/gemm_config.h "$tmp/src/include/"
cmake -S tests/cmake_project -B "$tmp/build" -DCMAKE_CUDA_COMPILER="$nvcc" -DPIPEFY_EXECUTABLE="$pipefy" \
	-DPIPEFY_SOURCE_DIR="$(pwd)" -DKERNEL_DIR="$tmp/src" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$tmp/configure.log" 2>&1
rc=$?
expect "the project configures" '[ $rc = 0 ]' || cat "$tmp/configure.log"
cmake --build "$tmp/build" >"$tmp/build.log" 2>&1
rc=$?
expect "the project builds" '[ $rc = 0 ]' || tail -20 "$tmp/build.log"
expect "pipefy ran as a pre-build step" 'grep -q "pipefy .*nvcc_include_dirs.cu" "$tmp/build.log"'
expect "the pipelined copy is the golden (target's -I and -D passed, sm_80 planned)" ' cmp -s "$tmp/build/pipefy/nvcc_include_dirs.cu" golden/nvcc_include_dirs.auto.cu'
expect "the pipelined copy is what nvcc compiles" 'grep -q '\''"file": ".*/pipefy/nvcc_include_dirs.cu"'\'' "$tmp/build/compile_commands.json"'
expect "the binary exists" '[ -x "$tmp/build/gemm" ]'
cmake --build "$tmp/build" >"$tmp/again.log" 2>&1
absent() { ! grep -q "$@"; }
expect "a second build runs nothing" 'absent "pipefy \|Building CUDA" "$tmp/again.log"'
sleep 1; touch "$tmp/src/include/gemm_config.h"
cmake --build "$tmp/build" >"$tmp/touched.log" 2>&1
expect "an included header changed: pipefy runs again (depfile)" 'grep -q "pipefy .*nvcc_include_dirs.cu" "$tmp/touched.log"'
echo "$pass passed, $fail failed"
[ $fail = 0 ]
