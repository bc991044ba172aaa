#!/bin/bash
# run.sh: the GPU check, on a machine with an NVIDIA GPU, over binaries from build.sh.
# For every program, every size on its `// gpu-runs:` line and every variant: the program's
# own CPU-reference check must PASS, and the variant's output checksum must equal the
# original's (pipelining reorders loads, not arithmetic). At the `// gpu-sanitize:` size,
# compute-sanitizer memcheck, racecheck and synccheck must report nothing. The SASS of each
# binary is dumped for the overlap check. Writes OUT/results.tsv and OUT/sass/.
#   tests/gpu/run.sh BUILDDIR OUT
set -u
dir=$1 out=$2
mkdir -p "$out/sass" "$out/log"
: >"$out/results.tsv"
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$out/results.tsv"; }
sanitize_one() { # tool bin args...
	local tool=$1 bin=$2; shift 2
	compute-sanitizer --tool "$tool" --error-exitcode 3 "$bin" "$@" >"$out/log/$(basename "$bin").$tool.log" 2>&1
}
for src in "$dir"/*.cu; do
	name=$(basename "$src" .cu)
	runs=$(sed -n 's|^// gpu-runs: *||p' "$src")
	san=$(sed -n 's|^// gpu-sanitize: *||p' "$src")
	IFS='|' read -ra sizes <<<"$runs"
	for bin in "$dir/bin/$name".*; do
		v=${bin##*/$name.}
		cuobjdump -sass "$bin" >"$out/sass/$name.$v.sass" 2>&1
		for size in "${sizes[@]}"; do
			size=$(echo $size)
			# shellcheck disable=SC2086
			"$bin" $size >"$out/log/run.txt" 2>&1
			rc=$?
			sum=$(sed -n 's/^checksum //p' "$out/log/run.txt" | tr '\n' ' ')
			pass=$(grep -c ': PASS' "$out/log/run.txt")
			fail=$(grep -c ': FAIL' "$out/log/run.txt")
			if [ "$v" = orig ]; then
				eval "orig_$(echo "$size" | tr ' ' '_')=\"\$sum\""
				same=reference
			else
				ref=$(eval echo "\"\${orig_$(echo "$size" | tr ' ' '_'):-}\"")
				if [ -n "$ref" ] && [ "$ref" = "$sum" ]; then same=identical; else same=DIFFERENT; fi
			fi
			verdict=PASS
			{ [ $rc = 0 ] && [ "$fail" = 0 ] && [ "$pass" -gt 0 ] && [ "$same" != DIFFERENT ]; } || verdict=FAIL
			row "$name" "$v" "run $size" "$verdict" "exit $rc, $pass pass, $fail fail, checksum $same"
			[ $verdict = PASS ] || cp "$out/log/run.txt" "$out/log/$name.$v.$(echo "$size" | tr ' ' '_').fail.txt"
		done
		for tool in memcheck racecheck synccheck; do
			# shellcheck disable=SC2086
			sanitize_one $tool "$bin" $san
			rc=$?
			summary=$(grep -h -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/log/$(basename "$bin").$tool.log" | tail -n 1)
			verdict=PASS
			[ $rc = 0 ] || verdict=FAIL
			row "$name" "$v" "$tool $san" "$verdict" "exit $rc: $summary"
		done
	done
done
awk -F'\t' '{n[$4]++} END {printf "%d rows: %d PASS, %d FAIL\n", NR, n["PASS"], n["FAIL"]}' "$out/results.tsv"
