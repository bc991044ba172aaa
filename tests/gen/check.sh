#!/bin/bash
# check.sh: generated K-loop programs through pipefy and the CPU block model, without a GPU.
# For each seed: pipefy exits 0 on the program with every variant (`pipefy --list-variants`, as
# seed_variants below picks them: auto, cp.async, ldg, and on seeds 4k tma and seeds 4k+2 bulk,
# for sm_90, whose boxes the generator does not predict; ws and ws-cp.async on every seed under
# `make gen-check`); what it does matches
# the program's `// gen-expect:` (pipelined by both forced variants, or left byte-identical
# with the expected reason; `// gen-expect-VARIANT:` where one differs); a
# second run on its output, with the same variant, changes nothing (auto's on seeds 4k+1,
# every variant's on every fourth, or all with GEN_ALL_RERUNS=1); a program whose K-loop kernel
# hands its output to a second kernel has that launch overlapped (--launches=overlap, sm_90)
# as `// gen-expect-launch:` says, and the two made one persistent launch (--launches=queue) or
# not as `// gen-expect-queue:` says (`refused: RE`, or `not refused for: RE`); and
# the original and every distinct rewrite, built against tests/cpu/pipefy_cpu.h, pass their
# reference with the same checksum at every size, with the block's threads in forward and
# reversed order; and nvcc compiles them all.
#   tests/gen/check.sh PIPEFY FIRST_SEED LAST_SEED
set -u
cd "$(dirname "$0")/../.." || exit
. tests/lib.sh
pipefy=$(realpath "$1") first=$2 last=$3
read_variants "$pipefy" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export PIPEFY_CACHE_DIR=${PIPEFY_CACHE_DIR:-$tmp/cache}
# the CPU harness precompiled once: each program then builds in a third of a second
cpu_pch "$tmp" -O0 || exit 1
# The variants a seed's program is forced through, from `pipefy --list-variants` (read_variants):
# auto, and every variant outside the tensor family (registers, cp.async) on every seed; the
# tensor copies of boxes in turn on even seeds (tma on seeds 4k, bulk on 4k+2), planned for
# sm_90 (the generator does not predict their boxes); those of a producer warp (ws, ws-cp.async:
# named ws*) on every seed under `make gen-check` (GEN_ALL_RERUNS) only: make check's time is
# spent; the block model checks their copies come from the producer warp, to_cpu.py marking the
# program. One a line, in --list-variants' order within each of the three.
seed_variants() { # SEED
	local seed=$1 v boxes=() producers=()
	echo auto
	for v in "${variant_names[@]}"; do
		if [ "${variant_family[$v]}" != tensor ]; then echo "$v"
		elif [[ $v == ws* ]]; then producers+=("$v")
		else boxes+=("$v"); fi
	done
	[ $((seed % 2)) = 0 ] && [ ${#boxes[@]} -gt 0 ] && echo "${boxes[seed / 2 % ${#boxes[@]}]}"
	[ -n "${GEN_ALL_RERUNS:-}" ] && [ ${#producers[@]} -gt 0 ] && printf '%s\n' "${producers[@]}"
	return 0
}
declare -A sums
for seed in $(seq "$first" "$last"); do
	p=$tmp/gen$seed.cu
	python3 tests/gen/gen.py "$seed" >"$p"
	IFS='|' read -ra sizes <<<"$(sed -n 's|^// gpu-runs: *||p' "$p")"
	outs=()
	mapfile -t variants < <(seed_variants "$seed")
	# a kernel launched right after the K-loop kernel: its launch overlapped (sm_90, the loops as
	# auto plans them there) or not, as `// gen-expect-launch:` says
	launch=$(sed -n 's|^// gen-expect-launch: *||p' "$p")
	[ -n "$launch" ] && variants+=(overlap)
	# and the two launches as one persistent launch (make gen-check, or where the program says what
	# --launches=queue must do: `// gen-expect-queue: refused: RE`, or `not refused for: RE`): the
	# block model runs it
	queue=$(sed -n 's|^// gen-expect-queue: *||p' "$p")
	[ -n "$launch" ] && { [ -n "${GEN_ALL_RERUNS:-}" ] || [ -n "$queue" ]; } && variants+=(queue)
	for v in "${variants[@]}"; do
		want=$(sed -n 's|^// gen-expect: *||p' "$p")
		grep -q "^// gen-expect-$v: " "$p" && want=$(sed -n "s|^// gen-expect-$v: *||p" "$p")
		args=(--variant=$v)
		# (sm_90 overlaps launches too: the loops' variants keep them, the overlap variant has them)
		[ "${variant_family[$v]:-}" = tensor ] && args+=(--arch=sm_90 --launches=keep)
		[ $v = overlap ] && args=(--launches=overlap --arch=sm_90)
		[ $v = queue ] && args=(--launches=queue)
		"$pipefy" "${args[@]}" --assume-filename=testdata/gen$seed.cu <"$p" >"$tmp/$v.cu" 2>"$tmp/$v.err" -R; rc=$?
		expect "gen $seed $v: pipefy exits 0" '[ $rc = 0 ]' || { head -n 3 "$tmp/$v.err"; continue; }
		if [ $v = queue ] && [[ $queue == 'refused: '* ]]; then
			re=${queue#refused: }
			expect "gen $seed: the launches not made one persistent launch ($re)" \
				'grep -q -E "remark: launches of .gen_kernel. and .* not made one persistent launch: .*($re)" "$tmp/$v.err" && ! grep -q "run as one persistent launch" "$tmp/$v.err" && ! grep -q pipefy_launch_queue "$tmp/$v.cu"' ||
				grep "remark: launch" "$tmp/$v.err" | head -n 2
		elif [ $v = queue ] && [[ $queue == 'not refused for: '* ]]; then
			re=${queue#not refused for: }
			expect "gen $seed: the launches made one persistent launch, or a reason given, not ($re)" \
				'grep -q -E "remark: launches of .gen_kernel. and .* (run as one persistent launch|not made one persistent launch: )" "$tmp/$v.err" && ! grep -q -E "not made one persistent launch: .*($re)" "$tmp/$v.err"' ||
				grep "remark: launch" "$tmp/$v.err" | head -n 2
		elif [ $v = queue ]; then
			expect "gen $seed: the launches made one persistent launch, or a reason given" \
				'grep -q -E "remark: launches of .gen_kernel. and .* (run as one persistent launch|not made one persistent launch: )" "$tmp/$v.err"' ||
				grep "remark: launch" "$tmp/$v.err" | head -n 2
		elif [ $v = overlap ] && [ "$launch" = overlapped ]; then
			expect "gen $seed: the copy's launch overlapped" 'grep -q "remark: launch overlapped with .gen_kernel. before it" "$tmp/$v.err"' ||
				grep "remark: launch" "$tmp/$v.err" | head -n 2
		elif [ $v = overlap ]; then
			re=${launch#refused: }
			expect "gen $seed: the copy's launch not overlapped ($re)" \
				'grep -q -E "remark: launch not overlapped with .gen_kernel. before it: .*($re)" "$tmp/$v.err" && ! grep -q pipefy_launch_dependent "$tmp/$v.cu"' ||
				grep "remark: launch" "$tmp/$v.err" | head -n 2
		elif [ "${variant_family[$v]:-}" = tensor ] && [ "$want" = pipelined ]; then
			: # a box or not: the remark says which, the block model below checks what it did
		elif [ "$want" = pipelined ]; then
			[ $v = auto ] && ! grep -q "^// gen-expect-auto: " "$p" || expect "gen $seed $v: pipelined, as it may be" \
				'grep -q "K-loop pipelined" "$tmp/$v.err" && ! grep -q "K-loop not pipelined" "$tmp/$v.err"' ||
				grep "remark" "$tmp/$v.err" | head -n 2
		else
			re=${want#refused: }
			expect "gen $seed $v: left alone ($re)" 'cmp -s "$tmp/$v.cu" "$p" && grep -q -E "remark: (K-)?loop not pipelined: .*($re)" "$tmp/$v.err" && ! grep -q "K-loop pipelined" "$tmp/$v.err"' ||
				grep "remark" "$tmp/$v.err" | head -n 2
		fi
		cmp -s "$tmp/$v.cu" "$p" && continue
		dup=0
		for o in "${outs[@]}"; do cmp -s "$tmp/$o.cu" "$tmp/$v.cu" && dup=1; done
		[ $dup = 1 ] || outs+=("$v")
	done
	# (kept for nvcc, below)
	mkdir -p "$tmp/nv"
	cp "$p" "$tmp/nv/g${seed}_orig.cu"
	for v in "${outs[@]}"; do cp "$tmp/$v.cu" "$tmp/nv/g${seed}_${v//./_}.cu"; done
	# a second run on a rewrite, with the variant that made it, changes nothing: auto's on
	# every odd seed, the forced variants' on every fourth (a second run costs as much as the
	# first; `make gen-check` runs them all)
	for v in "${outs[@]}"; do
		[ -n "${GEN_ALL_RERUNS:-}" ] || { [ "$v" = auto ] && [ $((seed % 4)) = 1 ]; } || [ $((seed % 4)) = 0 ] || continue
		again=()
		[ "$v" = auto ] || again=("--variant=$v")
		[ "${variant_family[$v]:-}" = tensor ] && again+=(--arch=sm_90 --launches=keep)
		[ "$v" = overlap ] && again=(--launches=overlap --arch=sm_90)
		[ "$v" = queue ] && again=(--launches=queue)
		"$pipefy" -q "${again[@]}" --assume-filename=testdata/gen$seed.cu <"$tmp/$v.cu" >"$tmp/again.cu" 2>/dev/null; rc=$?
		expect "gen $seed $v: a second run changes nothing" '[ $rc = 0 ] && cmp -s "$tmp/again.cu" "$tmp/$v.cu"'
	done
	# the CPU block model: the original, then each rewrite, at every size, both orders
	srcs=("$p")
	for v in "${outs[@]}"; do srcs+=("$tmp/$v.cu"); done
	sums=()
	run_together "$tmp" -O0 120 "" "$(sed -n 's|^// gpu-runs: *||p' "$p")" "${srcs[@]}" ||
		{ expect "gen $seed: the original and its rewrites build for the block model" 'false'; continue; }
	for s in "${sizes[@]}"; do
		ref=${sums[0|$s|forward]}
		expect "gen $seed orig ($s): passes its reference" '[[ $ref =~ ^[0-9a-f]{16}$ ]]' || echo "    $ref"
		k=0
		for v in orig "${outs[@]}"; do
			for order in forward reverse; do
				[ $v = orig ] && [ $order = forward ] && continue
				got=${sums[$k|$s|$order]}
				expect "gen $seed $v ($s, $order): the original's checksum" '[ "$got" = "$ref" ]' ||
					echo "    got $got, original $ref"
			done
			k=$((k + 1))
		done
	done
done
# nvcc compiles every original and rewrite (to PTX for sm_80: cp.async), as one translation unit with
# each program in a namespace of its own (as tests/gpu/fuzz_prepare.sh batches them; the headers any
# program includes first, <cuda/pipeline> for gen.py's sixteenth stream): clang parsed the
# rewrites in validation, the compiler that builds them is nvcc
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
if [ -x "$nvcc" ] && ls "$tmp"/nv/*.cu >/dev/null 2>&1; then
	{
		printf '#include "harness.cuh"\n#include <cuda_pipeline.h>\n#include <cuda/pipeline>\n#include <cooperative_groups.h>\n#include <cuda.h>\n#include <cudaTypedefs.h>\n'
		for f in "$tmp"/nv/*.cu; do
			printf 'namespace %s {\n#define main gen_main\n' "$(basename "$f" .cu)"
			grep -v '^#include' "$f"
			printf '#undef main\n}\n#undef TS\n#undef BY\n'
		done
	} >"$tmp/nvcc.cu"
	"$nvcc" -c -std=c++17 -w -I testdata -arch=compute_80 -code=compute_80 -o "$tmp/nvcc.o" "$tmp/nvcc.cu" >"$tmp/nvcc.log" 2>&1; rc=$?
	expect "nvcc compiles the $(ls "$tmp"/nv/*.cu | wc -l) originals and rewrites of seeds $first-$last" '[ $rc = 0 ]' ||
		head -n 20 "$tmp/nvcc.log"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
