#!/bin/bash
# build.sh: builds every testdata program and every golden variant of it for the GPU check,
# on any machine with nvcc (no GPU needed). Binaries link the shared CUDA runtime, so the
# whole set stays small enough to travel to a GPU machine.
#   tests/gpu/build.sh OUTDIR [testdata/NAME.cu ...]   (all programs by default)
set -eu
cd "$(dirname "$0")/../.." || exit
out=$1
shift
programs=("$@")
if [ ${#programs[@]} -eq 0 ]; then
	# (the ones with a host program: kernels that are there only for their goldens do not run)
	for f in testdata/*.cu; do grep -q -E '^int main\(' "$f" && programs+=("$f"); done
fi
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
mkdir -p "$out/bin"
cp "${programs[@]}" "$out/"  # run.sh reads the gpu-runs lines from them
. tests/lib.sh
jobs=()
for f in "${programs[@]}"; do
	name=$(basename "$f" .cu)
	while read -r src v extra; do
		jobs+=("$src:$name.$v:$extra $(nvcc_args "$f")")
	done < <(program_variants "$f" "$out/headers")
done
# a golden that picks its kernel at run time (a tensor-copy launcher, a dependent launch) also
# as a build for sm_80 only, whose PTX the driver compiles on an sm_90 GPU: pipefy's checks of
# the kernel's code must then take the path written for older GPUs (NAME.VARIANT-jit80)
jit=()
for j in "${jobs[@]}"; do
	src=${j%%:*}
	[ "${src#golden/}" != "$src" ] && grep -q -E 'pipefy_sm90_code\(|pipefy_launch_dependent\(' "$src" &&
		jit+=("${j%%:*}:$(echo "$j" | cut -d: -f2)-jit80:$(echo "$j" | cut -d: -f3-)")
done
[ ${#jit[@]} -eq 0 ] || printf '%s\n' "${jit[@]}" | xargs -P "$(nproc)" -I{} sh -c '
	src=${1%%:*} rest=${1#*:}; bin=${rest%%:*} args=${rest#*:}
	"$2" -O3 -std=c++17 $args -cudart shared -gencode arch=compute_80,code=compute_80 \
		-o "$3/bin/$bin" "$src" || echo "build failed: $src" >&2' sh {} "$nvcc" "$out"
# a producer-warp golden (ws) also with its copy helpers trapping in any thread but the
# producer warp's (NAME.ws-producer): its runs show that only that warp issues copies
mkdir -p "$out/producer"
for j in "${jobs[@]}"; do
	src=${j%%:*} rest=${j#*:}
	[ "${src#golden/}" != "$src" ] && grep -q 'const bool pipefy_producer = ' "$src" || continue
	bin=${rest%%:*}-producer
	producer_only_source "$src" "$out/producer/$bin.cu" || { echo "no copy helper to check in $src" >&2; exit 1; }
	jobs+=("$out/producer/$bin.cu:$bin:${rest#*:}")
done
# a persistent-launch golden (queue) also with 4 persistent blocks (NAME.queue-4blocks): each
# block then runs many items of both kernels, and its runs show no wait outlasts its blocks
for j in "${jobs[@]}"; do
	src=${j%%:*} rest=${j#*:}
	[ "${src#golden/}" != "$src" ] && grep -q 'pipefy_launch_queue' "$src" || continue
	jobs+=("$src:${rest%%:*}-4blocks:${rest#*:} -DPIPEFY_QUEUE_BLOCKS=4")
done
# (a golden for sm_90a, whose producer warpgroup hands registers over with setmaxnreg, is built
# for sm_90a instead of sm_90: the H200 then runs that code)
printf '%s\n' "${jobs[@]}" | xargs -P "$(nproc)" -I{} sh -c '
	src=${1%%:*} rest=${1#*:}; bin=${rest%%:*} args=${rest#*:}
	hopper="arch=compute_90,code=sm_90"
	grep -q "pipefy_regs_inc<" "$src" && hopper="arch=compute_90a,code=sm_90a"
	"$2" -O3 -std=c++17 -lineinfo $args -cudart shared \
		-gencode arch=compute_80,code=sm_80 -gencode $hopper \
		-o "$3/bin/$bin" "$src" || echo "build failed: $src" >&2' sh {} "$nvcc" "$out"
echo "built $(ls "$out/bin" | wc -l) binaries in $out/bin"
