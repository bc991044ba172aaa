#!/bin/bash
# build.sh: the benchmark binaries, built the way a user would: pipefy rewrites each plain
# kernel at build time (planned for the H200, sm_90, registers measured with --ptxas), nvcc
# compiles. Per kernel: the original, pipefy's auto choice, each forced variant (ldg, cp.async x2, x3, x4), the
# hand-pipelined reference (bench/hand/), and the load-free ceiling (--variant=no-loads);
# tensor copies (tma x2, x4), bulk copies (bulk x2, x4) and tensor copies from a producer warp
# (ws x2, x4) and cp.async copies from a producer warp (ws-cp.async x2, x4) where every tile is
# a box; KERNELS="k1 k2" builds only those;
# plus cuBLAS. A forced variant pipefy refuses is listed in OUT/refused.txt with the reason.
#   bench/build.sh PIPEFY OUT
set -eu
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1") out=$2
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
mkdir -p "$out/src" "$out/bin"
: >"$out/refused.txt"
kernels=${KERNELS:-hgemm_wmma igemm_wmma sgemm_tiled sgemm_regblock mma_bf16_ptx conv2d_implicit_gemm}
variants=("auto:" "ldg:--variant=ldg" "cp.async-2:--variant=cp.async --stages=2"
	"cp.async-3:--variant=cp.async --stages=3" "cp.async-4:--variant=cp.async --stages=4"
	"tma-2:--variant=tma --stages=2" "tma-4:--variant=tma --stages=4" "bulk-2:--variant=bulk --stages=2"
	"bulk-4:--variant=bulk --stages=4" "ws-2:--variant=ws --stages=2" "ws-4:--variant=ws --stages=4"
	"ws-cp.async-2:--variant=ws-cp.async --stages=2" "ws-cp.async-4:--variant=ws-cp.async --stages=4"
	"no-loads:--variant=no-loads")
jobs=()
for k in $kernels; do
	cp testdata/$k.cu "$out/src/$k.orig.cu"
	cp bench/hand/$k.cu "$out/src/$k.hand.cu"
	jobs+=("$k.orig" "$k.hand")
	for v in "${variants[@]}"; do
		name=${v%%:*} args=${v#*:}
		# shellcheck disable=SC2086
		"$pipefy" --arch=sm_90 --ptxas $args testdata/$k.cu >"$out/src/$k.$name.cu" 2>"$out/src/$k.$name.remarks" || true
		if cmp -s testdata/$k.cu "$out/src/$k.$name.cu"; then
			echo "$k $name: $(grep -h -o 'not pipelined: .*\[' "$out/src/$k.$name.remarks" | head -n 1 | sed 's/ \[$//')" >>"$out/refused.txt"
			rm "$out/src/$k.$name.cu"
		else
			jobs+=("$k.$name")
		fi
	done
done
for k in $kernels; do
	echo "$k $(sed -n 's/.*K-loop pipelined: \([a-z.]*\), \([0-9]*\) stage.*/\1 x\2/p' "$out/src/$k.auto.remarks" | head -n 1 | tr -d ' ')"
done >"$out/auto.txt"
printf '%s\n' "${jobs[@]}" | xargs -P "$(nproc)" -I{} "$nvcc" -O3 -std=c++17 -I testdata -cudart shared \
	-gencode arch=compute_90,code=sm_90 -o "$out/bin/{}" "$out/src/{}.cu"
"$nvcc" -O3 -std=c++17 -I testdata -cudart shared -gencode arch=compute_90,code=sm_90 -o "$out/bin/cublas" \
	bench/cublas.cu -lcublas
echo "built $(ls "$out/bin" | wc -l) benchmark binaries; refused variants: $(wc -l <"$out/refused.txt")"
