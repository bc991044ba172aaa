#!/bin/bash
# run.sh: fuzz pipefy for a while and say what happened.
#   tests/fuzz/run.sh FUZZ_BINARY SECONDS WORKDIR
# The corpus grows in WORKDIR/corpus across runs (seeded from testdata/ and tests/cli/);
# crashes, hangs and broken invariants land in WORKDIR/crashes/ and fail the run. Each one
# found becomes a case in tests/fuzz/regressions/. $FUZZ_FLAGS adds libFuzzer options: a long
# campaign keeps going past a finding with "-fork=1 -ignore_crashes=1 -ignore_timeouts=1".
set -u
cd "$(dirname "$0")/../.." || exit
fuzzer=$(realpath "$1") seconds=$2 work=$3
mkdir -p "$work/corpus" "$work/crashes" "$work/cache"
export PIPEFY_CACHE_DIR=$work/cache
log=$work/fuzz.log
# shellcheck disable=SC2086
"$fuzzer" ${FUZZ_FLAGS:-} -max_total_time="$seconds" -timeout=10 -rss_limit_mb=6144 -max_len=65536 \
	-dict=tests/fuzz/dictionary.txt -artifact_prefix="$work/crashes/" -print_final_stats=1 \
	"$work/corpus" testdata tests/cli $(ls -d tests/fuzz/regressions 2>/dev/null) >"$log" 2>&1
rc=$?
grep -E '^#[0-9]+ +(INITED|DONE)' "$log" | sed 's/^/fuzz: /'
grep -E '^#[0-9]+: cov:' "$log" | tail -n 1 | sed 's/^/fuzz: last fork-mode status: /'
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb|new_units_added)' "$log" | sed 's/^/fuzz: /'
crashes=$(ls "$work/crashes" | wc -l)
echo "fuzz: ${seconds}s, exit $rc, $crashes crash/timeout/invariant files in $work/crashes"
if [ $rc != 0 ] || [ "$crashes" != 0 ]; then
	grep -E 'ERROR|invariant broken|SUMMARY' "$log" | head -5
	exit 1
fi
