#!/bin/bash
# tool-speed.sh: pipefy's wall time against `nvcc --cubin` on the same file, for every bench
# kernel and a 300-line file including mma.h (the harness, the wmma HGEMM and the IGEMM
# kernel in one file, made from testdata/, its #include lines gathered at the top as a
# hand-written file would have them). Median of 10 runs each:
#   nvcc     nvcc --cubin -arch=sm_90
#   first    pipefy with an empty preamble cache (it builds the precompiled header)
#   repeat   pipefy again on the same file (the editor-on-save case)
# Writes the table between the tool-speed markers of bench/RESULTS.md.
#   bench/tool-speed.sh PIPEFY
set -eu
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1")
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
runs=10
{
	echo "// wmma_kernels.cu: fp16 and int8 tensor-core GEMMs with their host harness"
	cat testdata/harness.cuh testdata/hgemm_wmma.cu | grep '^#include <' | sort -u
	sed '/#pragma once/d; /^#include/d' testdata/harness.cuh
	grep -v '^#include' testdata/hgemm_wmma.cu
	echo "// the integer variant, in the same file"
	sed -n '/^#define/p' testdata/igemm_wmma.cu | sed 's/^#define \([A-Z_]*\)/#undef \1\n#define \1/'
	sed -n '/^__global__/,/^}/p' testdata/igemm_wmma.cu
} >"$tmp/wmma_kernels.cu"
cp testdata/harness.cuh "$tmp/"

ms() { # the median wall time in ms of running "$@" $runs times; SETUP (a function) runs before each
	local t=()
	for _ in $(seq $runs); do
		${SETUP:-true}
		local s=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		t+=($((($(date +%s%N) - s) / 1000000)))
	done
	printf '%s\n' "${t[@]}" | sort -n | sed -n "$((runs / 2))p"
}
fresh_cache() { rm -rf "$tmp/cache"; }

rows=()
for f in testdata/hgemm_wmma.cu testdata/igemm_wmma.cu testdata/sgemm_tiled.cu testdata/sgemm_regblock.cu \
	testdata/mma_bf16_ptx.cu testdata/conv2d_implicit_gemm.cu "$tmp/wmma_kernels.cu"; do
	n=$(basename "$f")
	nv=$(ms "$nvcc" --cubin -arch=sm_90 -std=c++17 -I testdata -o "$tmp/x.cubin" "$f")
	first=$(SETUP=fresh_cache PIPEFY_CACHE_DIR=$tmp/cache ms "$pipefy" -q --arch=sm_90 "$f")
	repeat=$(PIPEFY_CACHE_DIR=$tmp/cache ms "$pipefy" -q --arch=sm_90 "$f")
	rows+=("| $n | $(wc -l <"$f") | $nv | $first | $repeat | $(awk "BEGIN{printf \"%.2f\", $repeat/$nv}") | $(awk "BEGIN{printf \"%.2f\", $first/$nv}") |")
	echo "${rows[-1]}"
done

section=$tmp/section.md
{
	echo "<!-- tool-speed: written by bench/tool-speed.sh; do not edit by hand -->"
	echo "## pipefy's own speed"
	echo
	echo "$(date -u +%Y-%m-%d), $(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)), $("$pipefy" --version)."
	echo "Median of $runs runs, wall milliseconds. *first*: empty preamble cache (pipefy precompiles the"
	echo "file's #include lines); *repeat*: the same file again, as an editor's save hook runs it."
	echo "Targets: repeat <= 0.25x nvcc and <= 150 ms."
	echo
	echo "| file | lines | nvcc --cubin | pipefy first | pipefy repeat | repeat / nvcc | first / nvcc |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	printf '%s\n' "${rows[@]}"
	echo "<!-- /tool-speed -->"
} >"$section"
results=bench/RESULTS.md
if grep -q '<!-- tool-speed' "$results"; then
	awk -v f="$section" '/<!-- tool-speed/{while ((getline l < f) > 0) print l; skip=1} !skip{print} /<!-- \/tool-speed -->/{skip=0}' \
		"$results" >"$tmp/r" && cp "$tmp/r" "$results"
else
	{ echo; cat "$section"; } >>"$results"
fi
echo "written to $results"
