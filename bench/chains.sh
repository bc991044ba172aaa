#!/bin/bash
# chains.sh: kernel chains end to end (issue 20): testdata/chain_mlp.cu (GEMM -> bias+GELU ->
# GEMM, hidden = ff = 4096) and testdata/chain_softmax.cu (Q K^T -> row softmax, N = 4096, D =
# 128) at M = 16 ... 8192, each built as written, with only its launches overlapped
# (--launches=overlap, and early: the kernel ahead lets the next start after its K-loop; --lines
# keeps the loops as written), with its GEMMs pipelined (cp.async, launches kept) and with both.
# Every build's output is compared with the original's at each size (bit-identical), then timed:
# the median of RUNS (default 20) chains between CUDA events, after three warm-ups.
#   bench/chains.sh build PIPEFY OUT    (here: pipefy and nvcc, no GPU)
#   bench/chains.sh run OUT             (on the GPU machine; rows in OUT/chains.tsv)
set -u
cd "$(dirname "$0")/.." || exit
chains="chain_mlp chain_softmax"
declare -A sizes=([chain_mlp]="16 4096 4096|64 4096 4096|256 4096 4096|1024 4096 4096|4096 4096 4096|8192 4096 4096"
	[chain_softmax]="16 4096 128|64 4096 128|256 4096 128|1024 4096 128|4096 4096 128|8192 4096 128")
if [ "$1" = build ]; then
	pipefy=$(realpath "$2") out=$3
	nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
	mkdir -p "$out/src" "$out/bin"
	jobs=()
	for c in $chains; do
		# the launch statements' lines: only they are in range for the launches-only builds
		lines=$(grep -n '<<<' testdata/$c.cu | cut -d: -f1 | sed -n '1p;$p' | paste -sd:)
		cp testdata/$c.cu "$out/src/$c.orig.cu"
		jobs+=("$c.orig")
		for v in "overlap:--launches=overlap --lines=$lines" "early:--launches=early --lines=$lines" \
			"cp.async:--variant=cp.async" "cp.async+overlap:--variant=cp.async --launches=overlap" \
			"cp.async+early:--variant=cp.async --launches=early"; do
			name=${v%%:*} args=${v#*:}
			# shellcheck disable=SC2086
			"$pipefy" --arch=sm_90 $args testdata/$c.cu >"$out/src/$c.$name.cu" 2>"$out/src/$c.$name.remarks" || exit 1
			jobs+=("$c.$name")
		done
	done
	printf '%s\n' "${jobs[@]}" | xargs -P "$(nproc)" -I{} "$nvcc" -O3 -std=c++17 -I testdata -cudart shared \
		-gencode arch=compute_90,code=sm_90 -o "$out/bin/{}" "$out/src/{}.cu"
	echo "built $(ls "$out/bin" | wc -l) chain binaries"
	exit
fi
out=$2 runs=${RUNS:-20}
: >"$out/chains.tsv"
for c in $chains; do
	IFS='|' read -ra list <<<"${sizes[$c]}"
	for size in "${list[@]}"; do
		orig_sum=""
		for bin in "$out/bin/$c.orig" $(ls "$out/bin/$c".* | grep -v '\.orig$'); do
			v=${bin##*/$c.}
			check=$("$bin" 2>&1 | grep -c ': PASS')
			# shellcheck disable=SC2086
			log=$(PIPEFY_SKIP_REFERENCE=1 PIPEFY_BENCH_RUNS=$runs "$bin" $size 2>&1)
			sum=$(echo "$log" | sed -n 's/^checksum //p' | head -n 1)
			ms=$(echo "$log" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' | head -n 1)
			[ "$v" = orig ] && orig_sum=$sum
			same=identical
			[ -n "$sum" ] && [ "$sum" = "$orig_sum" ] || same=DIFFERENT
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$size" "$v" "${ms:-?}" "$check" "$same" >>"$out/chains.tsv"
		done
	done
done
if command -v column >/dev/null; then column -t -s $'\t' "$out/chains.tsv"; else cat "$out/chains.tsv"; fi
