#!/bin/bash
# sass.sh: the SASS overlap check over the listings run.sh dumped (cuobjdump -sass), one row
# per program x variant x architecture into OUT/sass.tsv. A variant passes when every K-loop
# its remarks promise shows the overlap pattern (pipefy-verify-sass --expect) and each loop
# computes as much per tile as the original (--reference): pipelining moves loads, not
# arithmetic. The original's rows report what its loops look like.
#   tests/gpu/sass.sh VERIFIER OUT
set -u
cd "$(dirname "$0")/../.." || exit
. tests/lib.sh
verify=$1 out=$2
mkdir -p "$out/log"
: >"$out/sass.tsv"
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$out/sass.tsv"; }
summary() { # one "kind (N compute, M bar per iteration)" per K-loop
	sed -n 's/.*K-loop at [^:]*: \([a-z.-]*\) .*per iteration: \([0-9]*\) compute, [0-9]* async, [0-9]* ldg, [0-9]* sts, \([0-9]*\) bar.*/\1 (\2 compute, \3 bar)/p' |
		paste -sd ';' - | sed 's/;/; /g'
}
for orig in "$out"/sass/*.orig.sass; do
	name=$(basename "$orig" .orig.sass)
	for arch in sm_90 sm_80; do
		"$verify" --arch $arch "$orig" >"$out/log/$name.orig.$arch.verify" 2>&1
		row "$name" orig "sass $arch" PASS "reference: $(summary <"$out/log/$name.orig.$arch.verify")"
		for listing in "$out/sass/$name".*.sass; do
			v=${listing#"$out/sass/$name".}; v=${v%.sass}
			[ "$v" = orig ] && continue
			if [ "${v%-4blocks}" != "$v" ]; then
				row "$name" "$v" "sass $arch" SKIP "the queue golden with 4 persistent blocks: the golden's own rows are its SASS check"
				continue
			fi
			if [ "${v%-producer}" != "$v" ]; then
				row "$name" "$v" "sass $arch" SKIP "the ws golden with a check in its copy helpers: the golden's own rows are its SASS check"
				continue
			fi
			if [ "${v%-jit80}" != "$v" ]; then
				row "$name" "$v" "sass $arch" SKIP "built as sm_80 PTX only, which the driver compiles on the GPU: no SASS in the binary (the build is there to run)"
				continue
			fi
			remarks=$(promise_remarks "testdata/$name.cu" "$v")
			if [ $arch = sm_80 ] && grep -q -E 'K-loop pipelined: (tma|ws),' "$remarks"; then
				row "$name" "$v" "sass $arch" SKIP "tensor copies are sm_90's: on sm_80 the launcher runs the kernel as written"
				continue
			fi
			if [ $arch = sm_80 ] && grep -q 'K-loop pipelined: bulk' "$remarks"; then
				row "$name" "$v" "sass $arch" SKIP "bulk copies are sm_90's: compiled for sm_80 the kernel runs the loop as written"
				continue
			fi
			log=$out/log/$name.$v.$arch.verify
			# shellcheck disable=SC2046
			"$verify" --arch $arch --reference "$orig" $(tests/expected_kinds.sh "$remarks" \
				"$(sed -n 's|^// ptx-instances: *||p' "testdata/$name.cu" | head -n 1)") "$listing" >"$log" 2>&1
			rc=$?
			verdict=PASS
			[ $rc = 0 ] || verdict=FAIL
			why=$(grep -h -o -E 'expected [0-9]+ K-loop.*|COMPUTE PER TILE DIFFERS.*|NO MATCHING LOOP.*|compute not comparable: [^(]*' "$log" | head -n 1)
			row "$name" "$v" "sass $arch" $verdict "$(summary <"$log")${why:+; $why}"
		done
	done
done
awk -F'\t' '{n[$4]++} END {printf "sass: %d rows: %d PASS, %d FAIL, %d SKIP\n", NR, n["PASS"], n["FAIL"], n["SKIP"]}' "$out/sass.tsv"
