#!/bin/bash
# pdl_overlap.sh: pdl_overlap.cu as written, overlapped by pipefy (--launches=early), the same
# without the wait pipefy puts first in `check`, and that again compiled for sm_80 only (PTX the
# driver compiles for the H200; the kernel does not wait, so pipefy_launch_dependent must launch
# ordinarily). The first two must see no unwritten data, the third must (the launches really
# overlap), the fourth must not (the fallback is an ordinary launch).
#   tests/gpu/probes/pdl_overlap.sh build PIPEFY OUTDIR    (here: nvcc, no GPU)
#   tests/gpu/probes/pdl_overlap.sh run OUTDIR [ROUNDS]     (on the GPU machine)
set -u
here=$(dirname "$0")
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
if [ "$1" = build ]; then
	pipefy=$2 out=$3
	mkdir -p "$out"
	"$pipefy" -q --launches=early --arch=sm_90 "$here/pdl_overlap.cu" >"$out/overlap.cu" || exit 1
	grep -q 'pipefy_launch_dependent(check' "$out/overlap.cu" || { echo "pipefy did not overlap the launches"; exit 1; }
	sed '/pipefy_grid_wait(); \/\/ pipefy/d' "$out/overlap.cu" >"$out/no_wait.cu"
	"$nvcc" -O2 -arch=sm_90 -o "$out/as_written" "$here/pdl_overlap.cu" &&
		"$nvcc" -O2 -arch=sm_90 -o "$out/overlap" "$out/overlap.cu" &&
		"$nvcc" -O2 -arch=sm_90 -o "$out/no_wait" "$out/no_wait.cu" &&
		"$nvcc" -O2 -gencode arch=compute_80,code=compute_80 -o "$out/no_wait_sm80" "$out/no_wait.cu"
	exit
fi
out=$2 rounds=${3:-50}
for b in as_written overlap no_wait no_wait_sm80; do
	echo "$b: $("$out/$b" "$rounds")"
done
