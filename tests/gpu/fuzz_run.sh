#!/bin/bash
# fuzz_run.sh: the GPU half of `make gpu-fuzz`, on the machine with the GPU: builds the
# batches fuzz_prepare.sh made (nvcc, sm_90, in parallel), runs every program at each of its
# sizes (a batch's programs in one process, `BATCH --all`; an entry a crash cut short runs
# alone), and compares every rewrite's checksum with its original's; compute-sanitizer
# racecheck and synccheck on every SAN-th seed's programs at their sanitize size. Writes OUT/fuzz.tsv
# (seed, variant, check, verdict, detail) and prints a summary.
#   tests/gpu/fuzz_run.sh SRC OUT [SAN]
set -u
cd "$(dirname "$0")/../.." || exit
src=$1 out=$2 san_every=${3:-10}
verdicts_only=${FUZZ_VERDICTS_ONLY:-0} # 1: only turn the rows an interrupted run left into fuzz.tsv
mkdir -p "$out/bin"
echo "$san_every" >"$out/san_every"
if [ "$verdicts_only" = 0 ]; then
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
# (binaries already built by an earlier call are kept; MAX_SEED limits the seeds run)
ls "$src"/batch*.cu | xargs -P "$(nproc)" -I{} sh -c \
	'b="$2/bin/$(basename "{}" .cu)"; [ -x "$b" ] || "$1" -O3 -std=c++17 -w -I testdata -arch=sm_90 -o "$b" "{}" ||
		echo "build failed: {}" >&2' sh "$nvcc" "$out"
: >"$out/fuzz.tsv"
run_entry() { # batch entry seed variant sizes san
	local bin=$out/bin/$(printf 'batch%03d' "$1") entry=$2 seed=$3 v=$4 sizes=$5 san=$6 s got
	local rows=""
	IFS='|' read -ra all <<<"$sizes"
	for s in "${all[@]}"; do
		# shellcheck disable=SC2086
		got=$("$bin" "$entry" $s 2>&1)
		rc=$?
		sum=$(echo "$got" | sed -n 's/^checksum //p')
		pass=$(echo "$got" | grep -c ': PASS')
		rows+="$seed	$v	run $(echo $s)	$rc	$pass	$sum"$'\n'
	done
	if [ "$san" != 0 ] && [ $((seed % san_every)) = 0 ]; then
		for tool in racecheck synccheck; do
			# shellcheck disable=SC2086
			compute-sanitizer --tool $tool --error-exitcode 3 "$bin" "$entry" $san >"$out/san.$entry.$tool" 2>&1
			rows+="$seed	$v	$tool	$?	1	$(grep -h -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san.$entry.$tool" | tail -n 1)"$'\n'
		done
	fi
	printf '%s' "$rows"
}
mkdir -p "$out/rows" "$out/all"
# each batch's programs at all their sizes in one process (--all), four batches at a time
manifest=$(awk -F'\t' -v max="${MAX_SEED:-0}" 'max == 0 || $3 <= max' "$src/manifest.tsv")
for b in $(cut -f1 <<<"$manifest" | sort -un); do
	while [ "$(jobs -rp | wc -l)" -ge 4 ]; do wait -n; done
	bin=$out/bin/$(printf 'batch%03d' "$b")
	[ -x "$bin" ] && timeout 600 "$bin" --all >"$out/all/$b.txt" 2>&1 &
done
wait
# the rows of each entry: from its batch's --all output when the run got through it, else
# (a crash cut the batch short) run alone as before
while IFS=$'\t' read -r b e s v z n; do
	awk -v e="$e" -v seed="$s" -v v="$v" '
		/^== rc / { if (on) { rc = substr($0, 7); printf "%s\t%s\trun %s\t%s\t%d\t%s\n", seed, v, size, rc, pass, sum; on = 0 } next }
		/^== / { on = ($2 == e); size = ""; for (i = 3; i <= NF; i++) size = size (i > 3 ? " " : "") $i; pass = 0; sum = ""; next }
		on && /: PASS/ { pass++ }
		on && /^checksum / { sum = $2 }' "$out/all/$b.txt" 2>/dev/null >"$out/rows/$e.tsv"
	want=$(tr '|' '\n' <<<"$z" | grep -c .)
	if [ "$(wc -l <"$out/rows/$e.tsv")" != "$want" ]; then
		while [ "$(jobs -rp | wc -l)" -ge 12 ]; do wait -n; done
		run_entry "$b" "$e" "$s" "$v" "$z" 0 >"$out/rows/$e.tsv" &
	fi
done <<<"$manifest"
wait
# compute-sanitizer racecheck and synccheck on every SAN-th seed, at its sanitize size
while IFS=$'\t' read -r b e s v z n; do
	[ $((s % san_every)) = 0 ] || continue
	while [ "$(jobs -rp | wc -l)" -ge 8 ]; do wait -n; done
	(
		bin=$out/bin/$(printf 'batch%03d' "$b")
		for tool in racecheck synccheck; do
			# shellcheck disable=SC2086
			compute-sanitizer --tool $tool --error-exitcode 3 "$bin" "$e" $n >"$out/san.$e.$tool" 2>&1
			printf '%s\t%s\t%s\t%s\t1\t%s\n' "$s" "$v" "$tool" "$?" "$(grep -h -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san.$e.$tool" | tail -n 1)"
		done >"$out/rows/$e.san.tsv"
	) &
done <<<"$manifest"
wait
fi
cat "$out"/rows/*.tsv >"$out/raw.tsv"
# verdicts: a run passes when it exits 0, prints PASS and (for a rewrite) the original's checksum
awk -F'\t' '
	$3 ~ /^run / { key = $1 "\t" $3; if ($2 == "orig") ref[key] = $6; rows[NR] = $0; next }
	{ rows[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			if (!(i in rows)) continue
			split(rows[i], f, "\t")
			if (f[3] ~ /^run /) {
				k = f[1] "\t" f[3]
				if (f[2] != "orig" && !(k in ref)) { # an interrupted run left no original to compare with
					printf "%s\t%s\t%s\tINCOMPLETE\tthe original was not run\n", f[1], f[2], f[3]
					continue
				}
				ok = f[4] == 0 && f[5] > 0 && (f[2] == "orig" || ref[k] == f[6])
				printf "%s\t%s\t%s\t%s\texit %s, %s PASS, checksum %s\n", f[1], f[2], f[3], ok ? "PASS" : "FAIL", f[4], f[5], (f[2] == "orig" ? "reference" : (ref[k] == f[6] ? "identical" : "DIFFERENT"))
			} else {
				printf "%s\t%s\t%s\t%s\t%s\n", f[1], f[2], f[3], f[4] == 0 ? "PASS" : "FAIL", f[6]
			}
		}
	}' "$out/raw.tsv" | sort -n >"$out/fuzz.tsv"
awk -F'\t' '{n[$4]++} END {printf "%d rows: %d PASS, %d FAIL, %d INCOMPLETE\n", NR, n["PASS"], n["FAIL"], n["INCOMPLETE"]}' "$out/fuzz.tsv"
