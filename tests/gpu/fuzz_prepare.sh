#!/bin/bash
# fuzz_prepare.sh: the sources of `make gpu-fuzz`, made here (pipefy needs libclang): for each
# seed, the generated program and every distinct rewrite pipefy accepts (auto, cp.async, ldg),
# batched 40 programs to a translation unit (each in a namespace of its own, its main renamed)
# so that the GPU machine compiles a few large files instead of thousands of small ones.
# Writes OUT/batchNNN.cu and OUT/manifest.tsv (batch, entry, seed, variant, sizes).
#   tests/gpu/fuzz_prepare.sh PIPEFY OUT FIRST_SEED LAST_SEED
set -eu
cd "$(dirname "$0")/../.."
pipefy=$(realpath "$1") out=$2 first=$3 last=$4
mkdir -p "$out"
rm -f "$out"/batch*.cu "$out/manifest.tsv"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export PIPEFY_CACHE_DIR=${PIPEFY_CACHE_DIR:-$tmp/cache}
n=0 batch=-1
for seed in $(seq "$first" "$last"); do
	p=$tmp/gen$seed.cu
	python3 tests/gen/gen.py "$seed" >"$p"
	sizes=$(sed -n 's|^// gpu-runs: *||p' "$p")
	san=$(sed -n 's|^// gpu-sanitize: *||p' "$p")
	cp "$p" "$tmp/orig.cu"
	vs=(orig)
	for v in auto cp.async ldg; do
		"$pipefy" -q --variant=$v --assume-filename=testdata/gen$seed.cu <"$p" >"$tmp/$v.cu" 2>/dev/null || continue
		cmp -s "$tmp/$v.cu" "$p" && continue
		dup=0
		for o in "${vs[@]}"; do cmp -s "$tmp/$o.cu" "$tmp/$v.cu" && dup=1; done
		[ $dup = 1 ] || vs+=("$v")
	done
	for v in "${vs[@]}"; do
		if [ $((n % 40)) = 0 ]; then
			batch=$((batch + 1))
			f=$(printf '%s/batch%03d.cu' "$out" $batch)
			printf '#include "harness.cuh"\n#include <cuda_pipeline.h>\n#include <cstring>\n' >"$f"
		fi
		entry=g${seed}_${v//./_}
		{
			printf 'namespace %s {\n#define main gen_main\n' "$entry"
			grep -v '^#include' "$tmp/$v.cu"
			printf '#undef main\n}\n#undef TS\n#undef BY\n'
		} >>"$f"
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$batch" "$entry" "$seed" "$v" "$sizes" "$san" >>"$out/manifest.tsv"
		n=$((n + 1))
	done
done
# each batch's main: the entry named by argv[1], with the rest of the arguments
for f in "$out"/batch*.cu; do
	b=$((10#$(basename "$f" .cu | sed 's/batch//')))
	{
		printf 'int main(int argc, char **argv)\n{\n'
		awk -F'\t' -v b="$b" '$1 == b { printf "    if (argc > 1 && strcmp(argv[1], \"%s\") == 0)\n        return %s::gen_main(argc - 1, argv + 1);\n", $2, $2 }' "$out/manifest.tsv"
		printf '    return 2;\n}\n'
	} >>"$f"
done
echo "$(wc -l <"$out/manifest.tsv") programs from seeds $first-$last in $((batch + 1)) batches"
