#!/bin/bash
# run.sh [DEST]: bench/public/build.sh copies this into its OUTDIR; run there, on the GPU
# machine, it runs the public-kernel benchmark and writes DEST (default OUTDIR/out):
#   env.txt    GPU, driver, clocks (before and after), wall times of the phases
#   check.txt  "check KERNEL BUILD MxNxK PASS|FAIL": every build of every probe against the
#              original (memcmp of C), the original against a host model (BUILD orig-vs-host)
#   time.txt   "KERNEL BUILD MxNxK MS": per kernels.txt line, its builds alternated for ROUNDS
#              rounds (default 3), each a median of 20 launches after 3 warm-ups
#   *.err      the binaries' standard error (first differing word of a FAIL, CUDA errors)
# With SANITIZE=1 also compute-sanitizer memcheck, racecheck and synccheck on every binary's
# `check --sanitize` (each kernel at one small size, every build): sanitize.txt ("PROBE TOOL
# rc=N", 0 clean), sanitize-PROBE-TOOL.txt. ONLY="probe ..." runs those probes alone;
# CHECK=0 / TIME=0 skip a phase. Prints a summary and time.txt at the end. Exit 1 on any
# FAIL or error. Expected wall time on an H100/H200: about 90 s (SANITIZE adds about a minute).
cd "$(dirname "$0")" || exit 2
dest=${1:-out}
mkdir -p "$dest"
rounds=${ROUNDS:-3}
probes=$(ls bin | tr '\n' ' ')
[ -n "${ONLY:-}" ] && probes=$ONLY
status=0
now() { date +%s%N; }
el() { local d=$((($2 - $1) / 1000000)); printf '%d.%03d' $((d / 1000)) $((d % 1000)); }
t0=$(now)
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader 2>&1
	cat build-info.txt 2>/dev/null
} >"$dest/env.txt"
if [ "${CHECK:-1}" = 1 ]; then
	: >"$dest/check.txt"
	: >"$dest/check.err"
	for p in $probes; do
		./bin/"$p" check >>"$dest/check.txt" 2>>"$dest/check.err" || { echo "error: $p check exit $?" >>"$dest/check.err"; status=1; }
	done
	t1=$(now)
	echo "check wall: $(el "$t0" "$t1") s" >>"$dest/env.txt"
fi
if [ "${TIME:-1}" = 1 ]; then
	t1=$(now)
	: >"$dest/time.txt"
	: >"$dest/time.err"
	while IFS=$'\t' read -r probe kernel builds; do
		[[ " $probes " == *" $probe "* ]] || continue
		./bin/"$probe" time --kernel "$kernel" --builds "$builds" --rounds "$rounds" \
			>>"$dest/time.txt" 2>>"$dest/time.err" || { echo "error: $probe $kernel time exit $?" >>"$dest/time.err"; status=1; }
	done <kernels.txt
	t2=$(now)
	echo "time wall: $(el "$t1" "$t2") s (rounds $rounds)" >>"$dest/env.txt"
fi
if [ "${SANITIZE:-0}" = 1 ]; then
	t2=$(now)
	cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
	: >"$dest/sanitize.txt"
	for p in $probes; do
		for tool in memcheck racecheck synccheck; do
			"$cs" --tool "$tool" --error-exitcode 3 ./bin/"$p" check --sanitize >"$dest/sanitize-$p-$tool.txt" 2>&1
			rc=$?
			echo "$p $tool rc=$rc" >>"$dest/sanitize.txt"
			[ $rc = 0 ] || status=1
		done
	done
	echo "sanitize wall: $(el "$t2" "$(now)") s" >>"$dest/env.txt"
fi
nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv,noheader >>"$dest/env.txt" 2>&1
echo "total wall: $(el "$t0" "$(now)") s" >>"$dest/env.txt"
cat "$dest/env.txt"
if [ -f "$dest/check.txt" ]; then
	echo "check: $(grep -c ' PASS$' "$dest/check.txt") PASS, $(grep -c ' FAIL$' "$dest/check.txt") FAIL"
	grep ' FAIL$' "$dest/check.txt"
	grep -q ' FAIL$' "$dest/check.txt" && status=1
fi
for f in "$dest/check.err" "$dest/time.err"; do [ -s "$f" ] && { echo "== $f"; head -n 20 "$f"; }; done
[ -f "$dest/sanitize.txt" ] && cat "$dest/sanitize.txt"
[ -f "$dest/time.txt" ] && cat "$dest/time.txt"
exit $status
