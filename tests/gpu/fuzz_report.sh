#!/bin/bash
# fuzz_report.sh: tests/gpu/FUZZ.md from a `make gpu-fuzz` run.
#   tests/gpu/fuzz_report.sh SRC RESULTS > tests/gpu/FUZZ.md
set -u
src=$1 dir=$2
t=$dir/fuzz.tsv
seeds=$(cut -f1 "$t" | sort -u | wc -l)
first=$(cut -f3 "$src/manifest.tsv" | sort -n | head -n 1)
last=$(cut -f3 "$src/manifest.tsv" | sort -n | tail -n 1)
programs=$(wc -l <"$src/manifest.tsv")
variants=$(awk -F'\t' '$4 != "orig"' "$src/manifest.tsv" | wc -l)
runs=$(awk -F'\t' '$3 ~ /^run /' "$t" | wc -l)
san=$(awk -F'\t' '$3 !~ /^run /' "$t" | wc -l)
fails=$(awk -F'\t' '$4 == "FAIL"' "$t" | wc -l)
incomplete=$(awk -F'\t' '$4 == "INCOMPLETE"' "$t" | wc -l)
san_every=$(cat "$dir/san_every" 2>/dev/null || echo 10)
cat <<MD
# GPU fuzz results

$(cat "$dir/env.txt" 2>/dev/null)

Command: \`make gpu-fuzz SEEDS=$last FUZZ_SAN=$san_every\` (tests/gen/gen.py, tests/gpu/fuzz_prepare.sh here,
tests/gpu/fuzz_run.sh on the GPU machine, this report by tests/gpu/fuzz_report.sh).

- seeds: $seeds ($first-$last), programs built: $programs ($variants rewrites pipefy accepted, the rest
  originals; a variant whose output equals another's is built once)
- runs: $runs (each program at K of 0, 1, 2, 3 tiles and a partial tile when guarded; a
  rewrite passes when it exits 0, passes its CPU reference and its checksum is bit-identical to
  its original's at the same size)
- compute-sanitizer racecheck and synccheck: $san runs (every ${san_every}th seed's programs)
- **failures: $fails**; rows without a result to compare ($incomplete): rewrites whose original an
  interrupted run did not reach, not counted either way

What each variant of a seed is: \`orig\` the generated program, \`auto\`/\`cp.async\`/\`ldg\`
pipefy's output with that \`--variant\` (\`tma\`/\`bulk\`/\`ws\` planned for sm_90), \`queue\` a
chain's two launches made one persistent launch (\`--launches=queue\`). Reproduce a seed with
\`make gen SEED=N\`.

## Failures

MD
if [ "$fails" = 0 ]; then
	echo "None."
else
	echo '| seed | variant | check | detail |'
	echo '|---|---|---|---|'
	awk -F'\t' '$4 == "FAIL" { printf "| %s | %s | %s | %s |\n", $1, $2, $3, $5 }' "$t"
fi
cat <<MD

## Features drawn (seeds $first-$last)

| feature | values (seeds) |
|---|---|
MD
for s in $(seq "$first" "$last"); do python3 tests/gen/gen.py --features "$s"; done |
	sort | uniq -c | awk '{split($2, kv, "="); v[kv[1]] = v[kv[1]] (v[kv[1]] ? ", " : "") kv[2] " (" $1 ")"} END {for (k in v) printf "| %s | %s |\n", k, v[k]}' | sort
