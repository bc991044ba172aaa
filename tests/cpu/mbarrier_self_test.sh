#!/bin/bash
# mbarrier_self_test.sh: the CPU block model's mbarriers (tests/cpu/pipefy_cpu.h) on the
# producer/consumer exchange tests/gpu/probes/racecheck_mbarrier.cu, in both thread orders:
# the exchanges synchronized by mbarrier phases, by bulk copies completing on them, and by
# __syncthreads give the host's sum; the unsynchronized one and the one whose producer refills
# a stage without waiting for its empty barrier must not (a wrong sum, or a reported deadlock).
# The same program on the H200: tests/gpu/probes/RACECHECK_MBARRIER.md.
set -u
cd "$(dirname "$0")/../.." || exit
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 tests/cpu/to_cpu.py tests/gpu/probes/racecheck_mbarrier.cu "$tmp/p.cpp" &&
	g++ -std=c++17 -O1 -w -x c++ -include pipefy_cpu.h -DPIPEFY_CPU_MODEL -I tests/cpu \
		-I "${CUDA_HOME:-/usr/local/cuda}/include" -o "$tmp/p" "$tmp/p.cpp" || exit 1
for order in forward reverse; do
	for mode in 0 1 2 3 4; do
		PIPEFY_CPU_ORDER=$order "$tmp/p" $mode 8 >"$tmp/out" 2>&1
		if [ $mode -le 2 ]; then
			expect "mode $mode, $order: the host's sum" 'grep -q ": MATCH" "$tmp/out"' || cat "$tmp/out"
		else
			# (a wrong sum, or the model's deadlock report: not merely no MATCH line)
			expect "mode $mode, $order: the race is seen" 'grep -q -E ": DIFFERS$|^pipefy-cpu: block" "$tmp/out"' ||
				cat "$tmp/out"
		fi
	done
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
