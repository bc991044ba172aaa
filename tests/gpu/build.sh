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
printf '%s\n' "${jobs[@]}" | xargs -P "$(nproc)" -I{} sh -c '
	src=${1%%:*} rest=${1#*:}; bin=${rest%%:*} args=${rest#*:}
	"$2" -O3 -std=c++17 -lineinfo $args -cudart shared \
		-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
		-o "$3/bin/$bin" "$src" || echo "build failed: $src" >&2' sh {} "$nvcc" "$out"
echo "built $(ls "$out/bin" | wc -l) binaries in $out/bin"
