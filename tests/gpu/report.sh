#!/bin/bash
# report.sh: tests/gpu/RESULTS.md from a GPU check's results (run.sh and sass.sh output).
#   tests/gpu/report.sh RESULTS_DIR > tests/gpu/RESULTS.md
set -u
dir=$1
all=$(cat "$dir/results.tsv" "$dir/sass.tsv")
total=$(echo "$all" | wc -l)
fails=$(echo "$all" | awk -F'\t' '$4 == "FAIL"' | wc -l)
skips=$(echo "$all" | awk -F'\t' '$4 == "SKIP"' | wc -l)
programs=$(echo "$all" | cut -f1 | sort -u | wc -l)
variants=$(echo "$all" | awk -F'\t' '$2 != "orig"' | cut -f1,2 | sort -u | wc -l)
runs=$(echo "$all" | awk -F'\t' '$3 ~ /^run /' | wc -l)
sanitizer=$(echo "$all" | awk -F'\t' '$3 ~ /^(memcheck|racecheck|synccheck) /' | wc -l)
hazards=$(grep -h -o 'RACECHECK SUMMARY: [0-9]* hazards' "$dir"/log/*.racecheck.log 2>/dev/null | awk '{s += $3} END {print s + 0}')
errors=$(grep -h -o 'ERROR SUMMARY: [0-9]* errors' "$dir"/log/*.memcheck.log "$dir"/log/*.synccheck.log 2>/dev/null | awk '{s += $3} END {print s + 0}')
cat <<MD
# GPU check results

$(cat "$dir/env.txt" 2>/dev/null)

Command: \`make gpu-check\` (tests/gpu/build.sh, run.sh, sass.sh, report.sh). Programs are
built with nvcc for sm_80 and sm_90 and run on the sm_90 code.

**$total rows, $((total - fails - skips)) PASS, $fails FAIL, $skips SKIP.** $programs programs, $variants pipelined
variants (program x variant), $runs program runs, $sanitizer compute-sanitizer runs with
$errors errors and $hazards race hazards.

Checks: \`run M N K\` — the program's CPU-reference check passes and the output checksum is
bit-identical to the original's at that size (K = 0, 1, 2, 3 tiles, a partial last tile where
the program takes one, a target size); \`memcheck|racecheck|synccheck\` — compute-sanitizer at
the small size, zero errors and hazards; \`sass sm_XX\` — pipefy-verify-sass on the cuobjdump
listing: the K-loops the remarks promise show async copies (cp.async), tensor copies (tma) or
global loads (ldg) in flight during the compute with no barrier between, and compute
instructions per tile as in the original (its row says what the original's loops look like);
a tensor-copy variant's sm_80 row is SKIP (that kernel is sm_90's: below it the launcher runs
the kernel as written); a ws-cp.async variant's racecheck row is SKIP, with what racecheck said:
racecheck reports every hand-off through \`barrier.arrive\`/\`barrier.sync\`, correct or not
(tests/gpu/probes/RACECHECK_NAMED.md), so those hazards are not counted above; that variant's
races are checked by the CPU block model, which models named barriers.

| program | variant | check | result | detail |
|---|---|---|---|---|
$(echo "$all" | awk -F'\t' '{printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}')
MD
