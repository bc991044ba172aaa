#!/bin/bash
# cpu_model.sh: a testdata program and every golden made from it, built with the host C++
# compiler against the CPU block model (tests/cpu/pipefy_cpu.h) and run at the small sizes of
# its `// gpu-runs:` line, with the block's threads in forward and in reversed order. Each run
# must PASS its CPU reference, and every variant's checksum must equal the original's in both
# orders: a barrier the rewrite dropped or misplaced shows as a difference, without a GPU.
# Programs the model cannot build (wmma, asm, kernels in headers) or that have no main exit
# 77 (skipped); cooperative groups' block sync is tests/cpu/cooperative_groups.h.
#   tests/cpu_model.sh testdata/NAME.cu        one program
#   tests/cpu_model.sh --self-test [PIPEFY]    the model must catch deleted barriers (and, given
#                                              pipefy, a producer warpgroup it let split a warpgroup)
set -u
cd "$(dirname "$0")/.." || exit
. tests/lib.sh
cxx=${CXX:-g++}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unsupported='wmma|asm|omp\.h|gpu-header|__ldc|memcpy_async\(|cuda::|__syncwarp|__shfl'

build() { # SOURCE BINARY (against the precompiled harness: cpu_pch "$tmp" -O1 first)
	# shellcheck disable=SC2046
	python3 tests/cpu/to_cpu.py "$1" "$2.cpp" &&
		"$cxx" -std=c++17 -O1 -w -Wno-psabi -x c++ $(cpu_pch_flags "$tmp" "$1") -I "${CUDA_HOME:-/usr/local/cuda}/include" \
			-I testdata -I testdata/include -o "$2" "$2.cpp"
}

# "checksum" of a run, or the reason it failed
run() { # BINARY ORDER SIZE...
	local bin=$1 order=$2
	shift 2
	PIPEFY_CPU_ORDER=$order timeout 60 "$bin" "$@" >"$tmp/run.out" 2>&1 || { echo "exit $?: $(tail -n 1 "$tmp/run.out")"; return; }
	grep -q ': PASS' "$tmp/run.out" || { echo "$(grep ': FAIL' "$tmp/run.out")"; return; }
	sed -n 's/^checksum //p' "$tmp/run.out" | tr '\n' ' ' | sed 's/ $//' 
}

if [ "${1:-}" = --self-test ]; then
	cpu_pch "$tmp" -O1 || exit 1
	# the wait's barrier deleted from a cp.async loop; the barrier after a loop that an outer
	# loop runs again deleted (the bug pipefy once had): both must change the result
	sed '0,/__syncthreads(); *\/\/ ...and for all/{/__syncthreads(); *\/\/ ...and for all/d}' \
		golden/sgemm_tiled.cp.async.cu >"$tmp/no_wait_barrier.cu"
	sed '/__syncthreads(); \/\/ pipefy: every thread is done with the last tile/d' \
		golden/sgemm_persistent.cp.async.cu >"$tmp/no_trailing_barrier.cu"
	# the tensor-copy loop without the arrivals that free a stage, or without the wait for them
	# before the copy engine refills it; and its boxes issued where they reach past a row's end
	# (the copy engine fills zeros there)
	sed '/pipefy_mbar_arrive(&pipefy_empty\[pipefy_stage\], 1);/d' golden/sgemm_tiled.tma.cu >"$tmp/tma_no_release.cu"
	sed '/if (pipefy_loads >= 2) \/\/ the stage/,+1d' golden/sgemm_tiled.tma.cu >"$tmp/tma_no_wait.cu"
	sed 's/if (pipefy_col_As >= 0/if (true || pipefy_col_As >= 0/' golden/sgemm_tma.tma.cu >"$tmp/tma_past_row.cu"
	# and a stage refilled without ordering the compute's reads before the copy engine's
	# writes (on the H200, 40 of 40 runs of a bf16 GEMM differed without this fence), in each
	# variant; and the fence in the issuing thread before its wait for the threads' release of
	# the stage instead of after it (the wait brings their reads back into its past)
	fence='pipefy_fence_proxy_async(); \/\/ the threads. reads of the stage'
	sed "/$fence/d" golden/sgemm_tiled.tma.cu >"$tmp/tma_no_proxy_fence.cu"
	sed "/$fence/d" golden/sgemm_tiled.bulk.cu >"$tmp/bulk_no_proxy_fence.cu"
	sed "/$fence/d" golden/sgemm_tma.ws.cu >"$tmp/ws_no_proxy_fence.cu"
	sed "/$fence/d; s|^\( *\)if (pipefy_loads >= 2) // the stage|\1pipefy_fence_proxy_async();\n&|" golden/sgemm_tiled.tma.cu \
		>"$tmp/tma_fence_before_wait.cu"
	# a tile element copied twice by one thread in one tile's cp.async copies (which lands last
	# is not fixed: pipefy refuses cp.async for such copies)
	sed 's|^\( *\)__pipeline_memcpy_async(&Bs\[pipefy_dst\]\[ty\]\[tx\], &B\[(t \* TILE + ty) \* N + col\], sizeof(float));|&\n&|' \
		golden/sgemm_tiled.cp.async.cu >"$tmp/cp_async_twice.cu"
	# the bulk-copy loop likewise without the wait before its rows are refilled; and its rows
	# copied where they are not 16-byte aligned (rows of 38 floats: the model refuses the copy)
	sed '/if (pipefy_loads >= 2) \/\/ the stage/,+1d' golden/sgemm_tiled.bulk.cu >"$tmp/bulk_no_wait.cu"
	sed 's/(long long)lda \* 4 % 16 == 0/true/; s/pipefy_src_As % 16 == 0/true/' golden/sgemm_tma.bulk.cu >"$tmp/bulk_unaligned.cu"
	# and a tile whose rows are one run (K = 32: A's tile) copied at once but half of it
	sed 's/(const void \*)pipefy_src_As, 4096,/(const void *)pipefy_src_As, 2048,/' golden/sgemm_tiled.bulk.cu >"$tmp/bulk_half_run.cu"
	# the producer warp's loop without its wait before a refill, and with the producer computing
	# (and arriving) like the kernel's threads
	sed '/if (pipefy_loads >= 2) \/\/ the stage/,+1d' golden/sgemm_tma.ws.cu >"$tmp/ws_no_wait.cu"
	sed '/if (pipefy_producer) continue;/d' golden/sgemm_tma.ws.cu >"$tmp/ws_producer_computes.cu"
	# and the boxes issued by a kernel thread instead of the producer warp (the sums stay right:
	# only the model's producer check, PIPEFY_CPU_PRODUCER, sees it)
	sed 's|if (threadIdx.x == pipefy_threads) { // the producer warp.s first thread|if (threadIdx.x == 0) {|' \
		golden/sgemm_tma.ws.cu >"$tmp/ws_kernel_thread_issues.cu"
	# the producer warp's cp.async copies (ws-cp.async) without its wait for the threads to be done
	# with the stage, without its wait for its copies before it says a tile has landed, and
	# without its waits for the threads' last arrivals (a named barrier left part-way)
	sed 's/pipefy_bar_sync(3 + pipefy_dst, pipefy_threads + 32);/;/' golden/sgemm_tma.ws-cp.async.cu >"$tmp/wsa_no_wait.cu"
	sed 's/__pipeline_wait_prior(1);//' golden/sgemm_tma.ws-cp.async.cu >"$tmp/wsa_no_landed_wait.cu"
	sed 's/pipefy_bar_sync(3 + pipefy_u % 2, pipefy_threads + 32);/;/' golden/sgemm_tma.ws-cp.async.cu >"$tmp/wsa_no_drain.cu"
	# the same with a producer warpgroup (sm_90a, setmaxnreg): its copies without its wait for the
	# stage, its waits for the threads' last arrivals gone, its barrier with the kernel's threads
	# after their loop gone (theirs then never completes), and a kernel thread issuing its boxes
	sed 's/pipefy_bar_sync(3 + pipefy_dst, pipefy_threads + 128);/;/' golden/sgemm_tma.ws-cp.async-sm90a.cu >"$tmp/wsa90a_no_wait.cu"
	sed 's/pipefy_bar_sync(3 + pipefy_u % 2, pipefy_threads + 128);/;/' golden/sgemm_tma.ws-cp.async-sm90a.cu >"$tmp/wsa90a_no_drain.cu"
	sed '/pipefy_bar_sync(0, pipefy_threads + 128); \/\/ the kernel.s threads are done/d' golden/sgemm_tma.ws-sm90a.cu >"$tmp/ws_90a_no_end_barrier.cu"
	sed 's|if (threadIdx.x == pipefy_threads) { // the producer warp.s first thread|if (threadIdx.x == 0) {|' \
		golden/sgemm_tma.ws-sm90a.cu >"$tmp/ws_90a_kernel_thread_issues.cu"
	# a dependent launch's kernel that never waits for the kernel ahead of it, and one that reads
	# that kernel's output before it waits
	sed "/pipefy_grid_wait(); \/\/ pipefy: 'bias_gelu'/d" golden/chain_mlp.overlap.cu >"$tmp/overlap_no_wait.cu"
	sed "/pipefy_grid_wait(); \/\/ pipefy: 'bias_gelu'/d; s/float x = H\[i\] + bias\[i % N\];/&\n        pipefy_grid_wait();/" \
		golden/chain_mlp.overlap.cu >"$tmp/overlap_late_wait.cu"
	# a persistent launch (queue) whose items see the other kernel's block shape, and one that
	# hands out the second kernel's blocks first (its wait then could never end); a missing wait
	# the model cannot see, its blocks running one after another: validation refuses that
	# (cli/validation-catches-missing-queue-wait)
	sed 's/pipefy_queue_index(threadIdx.x, pipefy_block1), pipefy_block1/pipefy_queue_index(threadIdx.x, pipefy_block2), pipefy_block1/' \
		golden/chain_mlp.queue.cu >"$tmp/queue_wrong_block.cu"
	sed 's/if (pipefy_item < pipefy_items1) {/if (pipefy_item >= pipefy_items - pipefy_items1) {/' \
		golden/chain_mlp.queue.cu >"$tmp/queue_second_first.cu"
	# and one whose blocks of the second kernel (row_softmax, one row of S a block) wait for the
	# rows of the first that block 0 reads, whatever their own index: an analysis that lost the
	# block index (PIPEFY_TEST_BREAK=queuedeps, the offset of `s = S + blockIdx.x * N` lost, shows
	# the same)
	sed 's/pipefy_iv_fit(pipefy_block_x, 0LL, 1LL << 52, pipefy_ok)/pipefy_iv_exact(0)/g' \
		golden/chain_softmax.queue.cu >"$tmp/queue_rows_of_block0.cu"
	# the same in a GEMM reading the rows of the GEMM before it (blockIdx.y: the blocks of its second
	# row of blocks would wait for the first row only)
	awk '/pipefy_queue0_touch2\(int/ { f = 1 } f && /return pipefy_iv_bytes/ { gsub(/pipefy_block_y/, "pipefy_iv_exact(0)") }
		/^}/ { f = 0 } { print }' golden/chain_gemm2.queue.cu >"$tmp/queue_gemm_rows_of_row0.cu"
	# a producer warpgroup after a block of part warpgroups (pipefy checks the block is whole
	# warpgroups; PIPEFY_TEST_BREAK=warpgroups lets 160 threads through): setmaxnreg would then
	# be executed by a warpgroup split between the producer and the kernel's threads, which the
	# sums do not show (the counts are not modelled) but the model's check of who executes it does
	faults=()
	if [ -n "${2:-}" ]; then
		for v in ws ws-cp.async; do
			PIPEFY_TEST_BREAK=warpgroups "$2" -q --variant=$v --arch=sm_90a --ptxas testdata/sgemm_ws_blocks.cu \
				-o "$tmp/${v/./_}_split_warpgroup.cu"
			grep -q 'pipefy_regs_inc<' "$tmp/${v/./_}_split_warpgroup.cu" && faults+=("${v/./_}_split_warpgroup 64 96 64")
		done
		expect "PIPEFY_TEST_BREAK=warpgroups gives the 160-thread block a producer warpgroup (ws, ws-cp.async)" \
			'[ ${#faults[@]} = 2 ]'
	fi
	for c in "${faults[@]}" "no_wait_barrier 64 64 96" "no_trailing_barrier 64 64 48" "tma_no_release 64 64 96" "tma_no_wait 64 64 96" \
		"tma_past_row 64 64 96" "bulk_no_wait 64 64 96" "bulk_unaligned 64 64 96" "bulk_half_run 64 64 32" "ws_no_wait 64 64 96" \
		"ws_producer_computes 64 64 96" "tma_no_proxy_fence 64 64 96" "bulk_no_proxy_fence 64 64 96" \
		"ws_no_proxy_fence 64 64 96" "tma_fence_before_wait 64 64 96" "ws_kernel_thread_issues 64 64 96" "cp_async_twice 64 64 96" \
		"overlap_no_wait 32 64 48" "overlap_late_wait 32 64 48" "wsa_no_wait 64 64 96" "wsa_no_landed_wait 64 64 96" \
		"wsa_no_drain 64 64 96" "queue_wrong_block 32 64 48" "queue_second_first 32 64 48" \
		"queue_rows_of_block0 32 48 32" "queue_gemm_rows_of_row0 32 64 48" "wsa90a_no_wait 64 64 96" \
		"wsa90a_no_drain 64 64 96" "ws_90a_no_end_barrier 64 64 96" "ws_90a_kernel_thread_issues 64 64 96"; do
		set -- $c
		name=$1; shift
		unset PIPEFY_CPU_PRODUCER
		[[ $name = ws_* ]] && export PIPEFY_CPU_PRODUCER=1
		build "$tmp/$name.cu" "$tmp/$name"
		f=$(run "$tmp/$name" forward "$@") r=$(run "$tmp/$name" reverse "$@")
		expect "the model sees the fault in $name (forward: $f; reverse: $r)" \
			'! { [[ $f =~ ^[0-9a-f]{16}( [0-9a-f]{16})*$ ]] && [ "$f" = "$r" ]; }'
	done
	unset PIPEFY_CPU_PRODUCER
	# a cp.async whose source its thread changes before the wait (the copy may read it at any
	# time until then: the model, landing copies at the wait, would take the new value), and a
	# 16-byte one from an address 4 bytes past a multiple of 16 (the GPU faults)
	for fault in changed misaligned; do
		offset=0 change=""
		[ $fault = changed ] && change="g[4 * i] = 2.0f;"
		[ $fault = misaligned ] && offset=1
		cat >"$tmp/cp_async_source.cu" <<EOF_CU
#include <cuda_pipeline.h>
#include "harness.cuh"
__global__ void k(float *g, float *out)
{
    __shared__ float4 s[32];
    int i = threadIdx.x;
    __pipeline_memcpy_async(&s[i], &g[4 * i + $offset], sizeof(float4));
    __pipeline_commit();
    $change
    __pipeline_wait_prior(0);
    out[i] = s[i].x;
}
int main(int argc, char **argv)
{
    float *g, *out;
    cudaMalloc(&g, 132 * sizeof(float));
    cudaMalloc(&out, 32 * sizeof(float));
    for (int i = 0; i < 132; i++) g[i] = 1.0f;
    k<<<1, 32>>>(g, out);
    cudaDeviceSynchronize();
    printf("source: PASS\nchecksum %016x\n", (unsigned)out[0]);
    return 0;
}
EOF_CU
		build "$tmp/cp_async_source.cu" "$tmp/cp_async_source"
		f=$(run "$tmp/cp_async_source" forward)
		want="changed while the copy was in flight"
		[ $fault = misaligned ] && want="not a multiple of it"
		expect "the model sees a cp.async whose source is $fault ($f)" '[[ $f == *"$want"* ]]'
	done
	build golden/sgemm_persistent.cp.async.cu "$tmp/whole"
	f=$(run "$tmp/whole" forward 64 64 48) r=$(run "$tmp/whole" reverse 64 64 48)
	expect "and not in the same program with its barriers" '[[ $f =~ ^[0-9a-f]{16}( [0-9a-f]{16})*$ ]] && [ "$f" = "$r" ]'
	# nor in the tensor copies with a fence in every thread before it releases the stage (the
	# placement pipefy had before: the fences lie on the way from the reads to the copies too)
	sed "/$fence/d; s|^\( *\)pipefy_mbar_arrive(&pipefy_empty\[pipefy_stage\], 1);|\1pipefy_fence_proxy_async();\n&|" \
		golden/sgemm_tiled.tma.cu >"$tmp/tma_fence_per_thread.cu"
	build "$tmp/tma_fence_per_thread.cu" "$tmp/per_thread"
	f=$(run "$tmp/per_thread" forward 64 64 96) r=$(run "$tmp/per_thread" reverse 64 64 96)
	expect "nor with a fence in every thread before its release instead ($f)" '[[ $f =~ ^[0-9a-f]{16}( [0-9a-f]{16})*$ ]] && [ "$f" = "$r" ]'
	echo "$pass passed, $fail failed"
	[ $fail = 0 ]
	exit
fi

prog=$1 name=$(basename "$1" .cu)
# (the program and the testdata headers it includes, `#include "include/ptx_macros.cuh"`; a
# thread-scope cuda::pipeline is modelled: tests/cpu/cuda/pipeline)
headers=$(sed -n 's|^#include "\(include/[^"]*\)".*|testdata/\1|p' "$prog")
# shellcheck disable=SC2086
if cat "$prog" $headers | sed -E 's/cuda::(pipeline|make_pipeline|aligned_size_t|memcpy_async|thread_scope_thread)\b//g' |
	grep -q -E "$unsupported"; then
	echo "$name: uses what the block model does not (${unsupported//|/, }): skipped"
	exit 77
fi
if ! grep -q -E '^int main\(' "$prog"; then
	echo "$name: no host program to run (kernels pipefy must leave alone; their goldens say so): skipped"
	exit 77
fi
nvcc_flags=$(sed -n 's|^// nvcc-args: *||p' "$prog" | head -n 1)
# small sizes only: the model runs a block's threads one at a time
sizes=()
IFS='|' read -ra all <<<"$(sed -n 's|^// gpu-runs: *||p' "$prog")"
for s in "${all[@]}"; do
	read -ra d <<<"$s"
	work=1
	for x in "${d[@]}"; do work=$((work * (x > 0 ? x : 1))); done
	[ "$work" -le 2097152 ] && sizes+=("${d[*]}")
done
# the original and every golden not byte for byte auto's, built as one binary against the
# precompiled harness, each run at every size in both orders
srcs=() names=()
while read -r src v extra; do
	same_as_auto "$src" "$v" && { echo "[SKIP] $src ($v): the same file as auto's golden"; continue; }
	srcs+=("$src") names+=("$v")
done < <(program_variants "$prog" "$tmp")
runs=$(IFS='|'; echo "${sizes[*]}")
declare -A sums
cpu_pch "$tmp" -O1 "$prog" || { expect "the block model's harness precompiles" 'false'; exit 1; }
if ! run_together "$tmp" -O1 600 "$nvcc_flags" "$runs" "${srcs[@]}"; then
	expect "$name and its goldens build for the block model" 'false'
	exit 1
fi
for s in "${sizes[@]}"; do
	ref=${sums[0|$s|forward]}
	expect "$name orig ($s): passes its reference" '[[ $ref =~ ^[0-9a-f]{16}( [0-9a-f]{16})*$ ]]' || echo "    $ref"
	for ((k = 0; k < ${#srcs[@]}; k++)); do
		for order in forward reverse; do
			[ $k = 0 ] && [ $order = forward ] && continue
			got=${sums[$k|$s|$order]}
			expect "$name ${names[k]} ($s, $order): the original's checksum" '[[ $got =~ ^[0-9a-f]{16}( [0-9a-f]{16})*$ ]] && [ "$got" = "$ref" ]' ||
				echo "    got: $got; original: $ref"
		done
	done
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
