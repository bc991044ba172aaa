#!/bin/bash
# ws_producer.sh: does the GPU check's producer-only build (tests/lib.sh producer_only_source)
# see a copy issued outside the producer warp? sgemm_tma's ws golden with the check must run
# and pass; the same with its boxes issued by the kernel's thread 0 instead (the CPU model's
# ws_kernel_thread_issues fault; the sums stay right) must stop at the trap.
#   tests/gpu/probes/ws_producer.sh build OUTDIR    (here: nvcc, no GPU)
#   tests/gpu/probes/ws_producer.sh run OUTDIR      (on the GPU machine)
set -u
cd "$(dirname "$0")/../../.." || exit
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
out=$2
if [ "$1" = build ]; then
	. tests/lib.sh
	mkdir -p "$out"
	producer_only_source golden/sgemm_tma.ws.cu "$out/checked.cu" || exit 1
	sed 's|if (threadIdx.x == pipefy_threads) { // the producer warp.s first thread|if (threadIdx.x == 0) {|' \
		golden/sgemm_tma.ws.cu >"$out/kernel_thread.ws.cu"
	cmp -s golden/sgemm_tma.ws.cu "$out/kernel_thread.ws.cu" && { echo "the fault was not made"; exit 1; }
	producer_only_source "$out/kernel_thread.ws.cu" "$out/kernel_thread.cu" || exit 1
	for b in checked kernel_thread; do
		"$nvcc" -O3 -std=c++17 -I testdata -cudart shared -gencode arch=compute_90,code=sm_90 -o "$out/$b" "$out/$b.cu" || exit 1
	done
	exit
fi
for b in checked kernel_thread; do
	log=$("$out/$b" 256 256 256 2>&1)
	echo "$b: exit $?, $(echo "$log" | grep -c ': PASS') pass, $(echo "$log" | grep -i -m1 -o 'unspecified launch failure\|illegal instruction\|error[^,]*' || echo 'no error')"
done
