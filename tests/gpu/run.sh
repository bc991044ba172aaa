#!/bin/bash
# run.sh: the GPU check, on a machine with an NVIDIA GPU, over binaries from build.sh.
# For every program, every size on its `// gpu-runs:` line and every variant: the program's
# own CPU-reference check must PASS, and the variant's output checksum must equal the
# original's (pipelining reorders loads, not arithmetic). At the `// gpu-sanitize:` size,
# compute-sanitizer memcheck, racecheck and synccheck must report nothing. At the largest size
# the program runs GPU_REPEAT more times, each output equal to the first. The SASS of each
# binary is dumped for the overlap check. Writes OUT/results.tsv and OUT/sass/.
# Programs run in parallel (JOBS, default 12), each on its own rows file.
#   tests/gpu/run.sh BUILDDIR OUT [PROGRAM]
set -u
dir=$(realpath "$1") out=$2
mkdir -p "$out/sass" "$out/log" "$out/rows"
if [ $# -lt 3 ]; then
	ls "$dir"/*.cu | xargs -n 1 basename | sed 's/\.cu$//' |
		xargs -P "${JOBS:-12}" -I{} "$0" "$dir" "$out" {}
	cat "$out"/rows/*.tsv >"$out/results.tsv"
	awk -F'\t' '{n[$4]++} END {printf "%d rows: %d PASS, %d FAIL\n", NR, n["PASS"], n["FAIL"]}' "$out/results.tsv"
	exit 0
fi
only=$3
: >"$out/rows/$only.tsv"
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$out/rows/$only.tsv"; }
sanitize_one() { # tool bin args...
	local tool=$1 bin=$2; shift 2
	compute-sanitizer --tool "$tool" --error-exitcode 3 "$bin" "$@" >"$out/log/$(basename "$bin").$tool.log" 2>&1
}
src=$dir/$only.cu
name=$only
runs=$(sed -n 's|^// gpu-runs: *||p' "$src")
san=$(sed -n 's|^// gpu-sanitize: *||p' "$src")
IFS='|' read -ra sizes <<<"$runs"
for bin in "$dir/bin/$name.orig" $(ls "$dir/bin/$name".* | grep -v "\.orig$"); do
	v=${bin##*/$name.}
	cuobjdump -sass "$bin" >"$out/sass/$name.$v.sass" 2>&1
	for size in "${sizes[@]}"; do
		size=$(echo $size)
		# shellcheck disable=SC2086
		run=$out/log/$name.run.txt
		# at the largest size, GPU_REPEAT (default 20) more launches must match the first byte
		# for byte (a race between the copies and the compute shows in some runs only)
		rep=0
		[ "$size" = "$(echo ${sizes[-1]})" ] && rep=${GPU_REPEAT:-20}
		PIPEFY_REPEAT=$rep "$bin" $size >"$run" 2>&1
		rc=$?
		# (one line per harness call the program makes: the row keeps them on one line)
		repeats=$(sed -n 's/^repeat [^:]*: \(.*\) runs differ from the first/, \1 repeats differ/p' "$run" | tr -d '\n')
		sum=$(sed -n 's/^checksum //p' "$run" | tr '\n' ' ')
		pass=$(grep -c ': PASS' "$run")
		fail=$(grep -c ': FAIL' "$run")
		if [ "$v" = orig ]; then
			eval "orig_$(echo "$size" | tr ' ' '_')=\"\$sum\""
			same=reference
		else
			ref=$(eval echo "\"\${orig_$(echo "$size" | tr ' ' '_'):-}\"")
			if [ -n "$ref" ] && [ "$ref" = "$sum" ]; then same=identical; else same=DIFFERENT; fi
		fi
		verdict=PASS
		{ [ $rc = 0 ] && [ "$fail" = 0 ] && [ "$pass" -gt 0 ] && [ "$same" != DIFFERENT ]; } || verdict=FAIL
		row "$name" "$v" "run $size" "$verdict" "exit $rc, $pass pass, $fail fail, checksum $same$repeats"
		[ $verdict = PASS ] || cp "$run" "$out/log/$name.$v.$(echo "$size" | tr ' ' '_').fail.txt"
	done
	# (a ws golden's producer-only build differs from it by a check, a queue golden's 4-block
	# build by its grid: their runs are what they add)
	[ "${v%-producer}" != "$v" ] && continue
	[ "${v%-4blocks}" != "$v" ] && continue
	for tool in memcheck racecheck synccheck; do
		# shellcheck disable=SC2086
		sanitize_one $tool "$bin" $san
		rc=$?
		summary=$(grep -h -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/log/$(basename "$bin").$tool.log" | tail -n 1)
		verdict=PASS
		[ $rc = 0 ] || verdict=FAIL
		if [ $tool = racecheck ] && [ "${v#ws-cp.async}" != "$v" ]; then
			# racecheck does not follow a hand-off through barrier.arrive and barrier.sync: it
			# reports such an exchange, correct or racy alike (probes/RACECHECK_NAMED.md). The
			# CPU block model, which models named barriers, is this variant's race oracle.
			mv "$out/log/$(basename "$bin").racecheck.log" "$out/log/$(basename "$bin").racecheck-named.log"
			row "$name" "$v" "$tool $san" SKIP "exit $rc: $summary (racecheck does not follow named-barrier hand-offs: tests/gpu/probes/RACECHECK_NAMED.md; races: the CPU block model)"
			continue
		fi
		row "$name" "$v" "$tool $san" "$verdict" "exit $rc: $summary"
	done
done
