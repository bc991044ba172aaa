#!/bin/bash
# fuzz_prepare.sh: the sources of `make gpu-fuzz`, made here (pipefy needs libclang): for each
# seed, the generated program and every distinct rewrite pipefy accepts (auto, and every variant
# `pipefy --list-variants` lists, forced as tests/lib.sh's read_variants forces it: the tensor
# copies planned for sm_90; and a chain's launches as one persistent launch, queue),
# batched 40 programs to a translation unit (each in a namespace of its own, its main renamed)
# so that the GPU machine compiles a few large files instead of thousands of small ones.
# Writes OUT/batchNNN.cu and OUT/manifest.tsv (batch, entry, seed, variant, sizes, sanitize size).
#   tests/gpu/fuzz_prepare.sh PIPEFY OUT FIRST_SEED LAST_SEED
set -eu
cd "$(dirname "$0")/../.."
pipefy=$(realpath "$1") out=$2 first=$3 last=$4
mkdir -p "$out"
rm -f "$out"/batch*.cu "$out/manifest.tsv"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export PIPEFY_CACHE_DIR=${PIPEFY_CACHE_DIR:-$tmp/cache}
. tests/lib.sh
read_variants "$pipefy" || { echo "fuzz_prepare.sh: pipefy --list-variants lists nothing" >&2; exit 1; }
# each variant and the arguments that force it, as one word (`cp.async=--variant=cp.async`,
# `tma=--variant=tma,--arch=sm_90`), for the workers (an associative array does not export)
plans="auto=--variant=auto"
for v in "${variant_names[@]}"; do
	a=${variant_args[$v]}
	plans+=" $v=${a// /,}"
done
plans+=" queue=--launches=queue"
# each seed's program and its distinct rewrites, made on every core (SEED_DIR/VARIANT.cu and
# SEED_DIR/variants, in the order of $plans after orig)
one_seed() { # SEED
	local seed=$1 d=$tmp/s$1 v o dup p args vs=(orig)
	mkdir -p "$d"
	python3 tests/gen/gen.py "$seed" >"$d/orig.cu"
	for p in $plans; do
		v=${p%%=*}
		IFS=, read -ra args <<<"${p#*=}"
		# (the two launches of a chain as one persistent launch, where the program has a chain)
		if [ "$v" = queue ]; then
			grep -q '^// gen-expect-launch:' "$d/orig.cu" || continue
		fi
		"$pipefy" -q "${args[@]}" --assume-filename=testdata/gen$seed.cu <"$d/orig.cu" >"$d/$v.cu" 2>/dev/null || continue
		cmp -s "$d/$v.cu" "$d/orig.cu" && continue
		dup=0
		for o in "${vs[@]}"; do cmp -s "$d/$o.cu" "$d/$v.cu" && dup=1; done
		[ $dup = 1 ] || vs+=("$v")
	done
	echo "${vs[*]}" >"$d/variants"
}
export -f one_seed
export pipefy tmp plans
# (the cache built once first, so that parallel runs do not all build it)
one_seed "$first"
seq "$((first + 1))" "$last" | xargs -P "$(nproc)" -I{} bash -c 'one_seed {}'
n=0 batch=-1
for seed in $(seq "$first" "$last"); do
	p=$tmp/s$seed/orig.cu
	sizes=$(sed -n 's|^// gpu-runs: *||p' "$p")
	san=$(sed -n 's|^// gpu-sanitize: *||p' "$p")
	read -ra vs <"$tmp/s$seed/variants"
	for v in "${vs[@]}"; do
		if [ $((n % 40)) = 0 ]; then
			batch=$((batch + 1))
			f=$(printf '%s/batch%03d.cu' "$out" $batch)
			printf '#include "harness.cuh"\n#include <cuda_pipeline.h>\n#include <cuda/pipeline>\n#include <cooperative_groups.h>\n#include <cstring>\n#include <cuda.h>\n#include <cudaTypedefs.h>\n' >"$f"
		fi
		entry=g${seed}_${v//./_}
		{
			printf 'namespace %s {\n#define main gen_main\n' "$entry"
			grep -v '^#include' "$tmp/s$seed/$v.cu"
			printf '#undef main\n}\n#undef TS\n#undef BY\n'
		} >>"$f"
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$batch" "$entry" "$seed" "$v" "$sizes" "$san" >>"$out/manifest.tsv"
		n=$((n + 1))
	done
done
# each batch's main: the entry named by argv[1], with the rest of the arguments; or, with
# --all, every entry at each of its sizes in this one process (`== ENTRY SIZES` before a run's
# output, `== rc N` after it): a CUDA context made once, not once per run
for f in "$out"/batch*.cu; do
	b=$((10#$(basename "$f" .cu | sed 's/batch//')))
	{
		printf 'static const struct { const char *name; int (*main)(int, char **); const char *sizes; } entries[] = {\n'
		awk -F'\t' -v b="$b" '$1 == b { printf "    {\"%s\", %s::gen_main, \"%s\"},\n", $2, $2, $5 }' "$out/manifest.tsv"
		cat <<'MAIN'
};

static int run_all(char *self)
{
    int worst = 0;
    for (const auto &e : entries) {
        char sizes[512];
        snprintf(sizes, sizeof sizes, "%s", e.sizes);
        char *save = nullptr;
        for (char *run = strtok_r(sizes, "|", &save); run; run = strtok_r(nullptr, "|", &save)) {
            char words[128], *wsave = nullptr, *argv[8] = {self};
            int argc = 1;
            snprintf(words, sizeof words, "%s", run);
            for (char *w = strtok_r(words, " ", &wsave); w && argc < 7; w = strtok_r(nullptr, " ", &wsave))
                argv[argc++] = w;
            printf("== %s", e.name);
            for (int i = 1; i < argc; i++)
                printf(" %s", argv[i]);
            printf("\n");
            fflush(stdout);
            int rc = e.main(argc, argv);
            printf("== rc %d\n", rc);
            fflush(stdout);
            worst = rc ? rc : worst;
        }
    }
    return worst;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--all") == 0)
        return run_all(argv[0]);
    for (const auto &e : entries)
        if (argc > 1 && strcmp(argv[1], e.name) == 0)
            return e.main(argc - 1, argv + 1);
    return 2;
}
MAIN
	} >>"$f"
done
echo "$(wc -l <"$out/manifest.tsv") programs from seeds $first-$last in $((batch + 1)) batches"
