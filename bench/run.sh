#!/bin/bash
# run.sh: the benchmark, on the GPU machine, over bench/build.sh's output. For each kernel
# and size: every variant first runs at the program's default size against its CPU reference
# (PASS), then at the bench size its output checksum is compared with the original's
# (bit-identical, except the ceiling, which computes on stale tiles, and cuBLAS), then it is
# timed: three warm-ups, the median of RUNS (default 20) launches between CUDA events, all
# in this one run so the ratios compare like with like. Rows go to OUT/bench.tsv.
#   bench/run.sh BUILD OUT        (KERNELS="k1 k2": only those)
set -u
build=$1 out=$2 runs=${RUNS:-20}
mkdir -p "$out"
: >"$out/bench.tsv"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader >"$out/gpu.txt" 2>&1
declare -A sizes=(
	[hgemm_wmma]="4096 4096 4096|8192 8192 8192" [igemm_wmma]="4096 4096 4096|8192 8192 8192"
	[sgemm_tiled]="4096 4096 4096|8192 8192 8192" [sgemm_regblock]="4096 4096 4096|8192 8192 8192"
	[mma_bf16_ptx]="4096 4096 4096|8192 8192 8192" [conv2d_implicit_gemm]="64 128 28 28 128|32 256 14 14 256")
declare -A blas=([hgemm_wmma]=hgemm [igemm_wmma]=igemm [sgemm_tiled]=sgemm [sgemm_regblock]=sgemm [mma_bf16_ptx]=bf16)
for k in ${KERNELS:-hgemm_wmma igemm_wmma sgemm_tiled sgemm_regblock mma_bf16_ptx conv2d_implicit_gemm}; do
	bins=$(ls "$build/bin/$k".* | grep -v '\.orig$')
	IFS='|' read -ra list <<<"${sizes[$k]}"
	for size in "${list[@]}"; do
		orig_sum=""
		for bin in "$build/bin/$k.orig" $bins; do
			v=${bin##*/$k.}
			check=$("$bin" 2>&1 | grep -c ': PASS')
			[ "$v" = no-loads ] && check=n/a
			# shellcheck disable=SC2086
			log=$(PIPEFY_SKIP_REFERENCE=1 PIPEFY_BENCH_RUNS=$runs "$bin" $size 2>&1)
			sum=$(echo "$log" | sed -n 's/^checksum //p' | head -n 1)
			ms=$(echo "$log" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' | head -n 1)
			tf=$(echo "$log" | sed -n 's/.*runs, \([0-9.]*\) TFLOPS.*/\1/p' | head -n 1)
			[ "$v" = orig ] && orig_sum=$sum
			same=identical
			[ "$sum" = "$orig_sum" ] || same=DIFFERENT
			[ "$v" = no-loads ] && same=n/a
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$size" "$v" "${ms:-?}" "${tf:-?}" "$check" "$same" >>"$out/bench.tsv"
		done
		if [ -n "${blas[$k]:-}" ]; then
			# shellcheck disable=SC2086
			log=$(PIPEFY_SKIP_REFERENCE=1 PIPEFY_BENCH_RUNS=$runs "$build/bin/cublas" ${blas[$k]} $size 2>&1)
			check=$("$build/bin/cublas" ${blas[$k]} 2>&1 | grep -c ': PASS')
			ms=$(echo "$log" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' | head -n 1)
			tf=$(echo "$log" | sed -n 's/.*runs, \([0-9.]*\) TFLOPS.*/\1/p' | head -n 1)
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$size" cublas "${ms:-?}" "${tf:-?}" "$check" n/a >>"$out/bench.tsv"
		fi
	done
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv,noheader >>"$out/gpu.txt" 2>&1
if command -v column >/dev/null; then column -t -s $'\t' "$out/bench.tsv"; else cat "$out/bench.tsv"; fi
