#!/bin/bash
# chains.sh: kernel chains end to end (issue 20): testdata/chain_mlp.cu (GEMM -> bias+GELU ->
# GEMM, hidden = ff = 4096), testdata/chain_softmax.cu (Q K^T -> row softmax, N = 4096, D =
# 128) and testdata/chain_gemm2.cu (GEMM -> GEMM, 4096 wide) at M = 16 ... 8192, each built as
# written, as pipefy's default rewrites it (auto), with only its launches overlapped
# (--launches=overlap, and early: the kernel ahead lets the next start after its K-loop;
# --lines keeps the loops as written), with its GEMMs pipelined (cp.async, launches kept) and
# with both, and as one persistent launch (queue, with
# --ptxas's register cap and without it); and, for the bound on any of them, as written without
# its second launch. Every build's output but that one is compared with the original's at each
# size (bit-identical), then timed:
# the median of RUNS (default 20) chains between CUDA events, after three warm-ups.
#   bench/chains.sh build PIPEFY OUT    (here: pipefy and nvcc, no GPU)
#   bench/chains.sh run OUT             (on the GPU machine; rows in OUT/chains.tsv)
#   CHAINS="chain_softmax" bench/chains.sh ...  those chains only
#   bench/chains.sh report OUT          (bench/CHAINS.md from them: times, and speed-ups over
#                                        the original and over the build without overlap)
set -u
cd "$(dirname "$0")/.." || exit
chains=${CHAINS:-"chain_mlp chain_softmax chain_gemm2"}
declare -A sizes=([chain_mlp]="16 4096 4096|64 4096 4096|256 4096 4096|1024 4096 4096|4096 4096 4096|8192 4096 4096"
	[chain_gemm2]="16 4096 4096|64 4096 4096|256 4096 4096|1024 4096 4096|4096 4096 4096|8192 4096 4096"
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
		for v in "auto:" "overlap:--launches=overlap --lines=$lines" "early:--launches=early --lines=$lines" \
			"cp.async:--variant=cp.async" "cp.async+overlap:--variant=cp.async --launches=overlap" \
			"cp.async+early:--variant=cp.async --launches=early" "queue:--launches=queue --ptxas --lines=$lines" \
			"queue-nocap:--launches=queue --lines=$lines"; do
			name=${v%%:*} args=${v#*:}
			# shellcheck disable=SC2086
			"$pipefy" --arch=sm_90 $args testdata/$c.cu >"$out/src/$c.$name.cu" 2>"$out/src/$c.$name.remarks" || exit 1
			jobs+=("$c.$name")
		done
		# the queue with every item of the second kernel waiting for all of the first, as before
		# the rows were told (what waiting for rows buys, in the same run)
		{ echo '#define PIPEFY_QUEUE_ALL'; cat "$out/src/$c.queue.cu"; } >"$out/src/$c.queue-all.cu"
		jobs+=("$c.queue-all")
		# the bound: the chain as written without its second launch (what hiding the second kernel
		# entirely behind the first could save at most; its output differs, by design)
		second=$(grep -n '<<<' testdata/$c.cu | cut -d: -f1 | sed -n 2p)
		sed "${second}d" testdata/$c.cu >"$out/src/$c.without2.cu"
		jobs+=("$c.without2")
	done
	printf '%s\n' "${jobs[@]}" | xargs -P "$(nproc)" -I{} "$nvcc" -O3 -std=c++17 -I testdata -cudart shared \
		-gencode arch=compute_90,code=sm_90 -o "$out/bin/{}" "$out/src/{}.cu"
	echo "built $(ls "$out/bin" | wc -l) chain binaries"
	exit
fi
if [ "$1" = report ]; then
	out=$2
	echo "# Kernel chains end to end (bench/chains.sh)"
	echo
	cat "$out/env.txt"
	echo
	echo "auto: pipefy's default (\`--arch=sm_90\`, no other option), what a user gets."
	echo "Median of ${RUNS:-20} chains between CUDA events, in ms; in brackets the speed-up over the"
	echo "original (as written), and for the overlapped builds over the same build with its"
	echo "launches kept (overlap, early: the original; cp.async+overlap, cp.async+early: cp.async)."
	echo "Every build's output is bit-identical to the original's at every size (the last column)."
	echo "overlap: --launches=overlap on the launch lines only (the K-loops as written); early: the"
	echo "same with the kernel ahead letting the next start after its K-loop (--launches=early)."
	echo "queue: --launches=queue, the first two launches as one persistent launch (the kernels'"
	echo "bodies as written; a block of the second kernel waits for the rows of blocks of the first"
	echo "whose writes it may read); queue-all: the same build with every block of the second"
	echo "waiting for all of the first (-DPIPEFY_QUEUE_ALL). Both are built with --ptxas: the persistent"
	echo "kernel is held to the registers of the larger kernel; queue-nocap: the queue built without"
	echo "--ptxas (no cap). without 2nd: the chain as written with its second launch deleted (its"
	echo "output differs); in brackets the bound orig / without 2nd: no schedule of the second kernel"
	echo "alongside the first can make the chain faster than leaving the second kernel out."
	awk -F'\t' '
	{ key = $1 "\t" $2; t[key, $3] = $4; if (!(key in seen)) { seen[key] = 1; order[n++] = key }
	  if ($3 != "without2" && ($6 != "identical" || $5 != 1)) bad[key] = bad[key] " " $3 }
	END {
	  nv = split("orig auto overlap early cp.async cp.async+overlap cp.async+early queue queue-all queue-nocap without2", v, " ")
	  last = ""
	  for (i = 0; i < n; i++) {
	    split(order[i], f, "\t")
	    if (f[1] != last) {
	      printf "\n## %s\n\n| size |", f[1]
	      for (j = 1; j <= nv; j++) printf " %s |", v[j] == "without2" ? "without 2nd (bound)" : v[j]
	      printf " outputs |\n|---|"
	      for (j = 1; j <= nv; j++) printf "---|"
	      printf "---|\n"
	      last = f[1]
	    }
	    printf "| %s |", f[2]
	    for (j = 1; j <= nv; j++) {
	      ms = t[order[i], v[j]]
	      base = (j == 6 || j == 7) ? t[order[i], "cp.async"] : t[order[i], "orig"]
	      if (j == 1) printf " %s |", ms
	      else if (j == 5) printf " %s (%.3fx) |", ms, t[order[i], "orig"] / ms
	      else printf " %s (%.3fx) |", ms, base / ms
	    }
	    printf " %s |\n", (order[i] in bad) ? "DIFFERENT or FAIL:" bad[order[i]] : "identical, PASS"
	  }
	}' "$out/chains.tsv"
	exit
fi
out=$2 runs=${RUNS:-20}
: >"$out/chains.tsv"
tests/gpu/env.sh >"$out/env.txt"
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
