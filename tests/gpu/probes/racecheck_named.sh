#!/bin/bash
# racecheck_named.sh: runs racecheck_named.cu's five modes plainly and under compute-sanitizer
# racecheck and synccheck, one line per run (issue 19: does racecheck follow barrier.arrive
# hand-offs?). Builds the program with nvcc when BIN is not there.
#   tests/gpu/probes/racecheck_named.sh BIN [ROUNDS]
set -u
bin=$1 rounds=${2:-8}
[ -x "$bin" ] || "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" -arch=sm_90 -O2 -lineinfo -o "$bin" \
	"$(dirname "$0")/racecheck_named.cu" || exit 1
for mode in 0 1 2 3 4; do
	"$bin" $mode "$rounds"
	for tool in racecheck synccheck; do
		log=$(compute-sanitizer --tool $tool "$bin" $mode "$rounds" 2>&1)
		summary=$(echo "$log" | grep -E -o 'RACECHECK SUMMARY: .*|ERROR SUMMARY: .*' | head -n 1)
		first=$(echo "$log" | grep -E -m 1 -o '(Error|Warning): Race reported.*|Barrier error.*|Invalid .*' | head -c 160)
		echo "mode $mode $tool: ${summary:-no summary}${first:+; first: $first}"
	done
done
