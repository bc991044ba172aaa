#!/bin/bash
# stress.sh: races that show in some runs only, on the GPU machine, over bench/build.sh's
# output. Each Hopper-copy variant (tma, bulk, ws) and pipefy's auto choice runs at SIZE
# (default 8192³), then REPEAT (default 20) more times onto a poisoned output; every output
# must equal the first byte for byte, and the first must equal the original's. Prints a
# Markdown table; exits 1 when a run differs.
#   bench/stress.sh BUILD [SIZE]      (KERNELS="k1 k2": only those; REPEAT=N)
set -u
build=$1 size=${2:-8192 8192 8192}
status=0
echo "| kernel | variant | size | first run | repeats that differ from it |"
echo "| --- | --- | --- | --- | --- |"
for k in ${KERNELS:-hgemm_wmma igemm_wmma sgemm_tiled mma_bf16_ptx}; do
	ref=$(PIPEFY_SKIP_REFERENCE=1 "$build/bin/$k.orig" $size 2>&1 | sed -n 's/^checksum //p')
	for bin in $(ls "$build/bin/$k".* | grep -E '\.(auto|tma-[0-9]|bulk-[0-9]|ws-[0-9])$'); do
		v=${bin##*/$k.}
		# shellcheck disable=SC2086
		log=$(PIPEFY_SKIP_REFERENCE=1 PIPEFY_REPEAT=${REPEAT:-20} timeout 120 "$bin" $size 2>&1)
		sum=$(echo "$log" | sed -n 's/^checksum //p')
		rep=$(echo "$log" | sed -n 's/^repeat [^:]*: \(.*\) runs differ from the first/\1/p')
		first="the original's"
		[ -n "$sum" ] && [ "$sum" = "$ref" ] || { first="DIFFERENT (${sum:-no checksum})"; status=1; }
		case "$rep" in 0\ of\ *) ;; *) status=1 ;; esac
		echo "| $k | $v | $size | $first | ${rep:-no repeat line} |"
	done
done
exit $status
