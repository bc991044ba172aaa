#!/bin/bash
# report.sh: bench/RESULTS.md from bench/run.sh's output.
#   bench/report.sh OUT > bench/RESULTS.md
set -u
dir=$1
cat <<MD
# Benchmark results

$(cat "$dir/env.txt" 2>/dev/null)

GPU, driver, SM clock, max SM clock, memory clock (before the run; after it: the last line):

\`\`\`
$(cat "$dir/gpu.txt")
\`\`\`

Command: \`make bench\` (bench/build.sh, then bench/run.sh on the GPU machine). Every number is
the median of 20 launches timed with CUDA events after three warm-ups, all variants in the
same run; TFLOPS counts 2·M·N·K (TOPS for int8). Ratios are to the original kernel. Each
variant passed its CPU-reference check at the default size and, at the bench size, its output
is bit-identical to the original's (\`same\` column), except the no-loads ceiling, which
computes on stale tiles, and cuBLAS, which sums in another order. \`auto\` is pipefy's own
choice, planned with \`--arch=sm_90\`: the variant it chose is in brackets.

| kernel | size | original | auto | ldg | cp.async x2 | x3 | x4 | tma x2 | tma x4 | bulk x2 | bulk x4 | ws x2 | ws x4 | ws-cp.async x2 | x4 | hand | no-loads ceiling | cuBLAS | same |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
$(awk -F'\t' -v auto_file="$dir/auto.txt" '
BEGIN { while ((getline line < auto_file) > 0) { split(line, a, " "); chosen[a[1]] = a[2] } }
{ key = $1 "\t" $2; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
  tf[key, $3] = $5; if ($7 == "DIFFERENT") diff[key] = 1; if ($6 == "0") bad[key] = 1 }
END {
  split("auto ldg cp.async-2 cp.async-3 cp.async-4 tma-2 tma-4 bulk-2 bulk-4 ws-2 ws-4 ws-cp.async-2 ws-cp.async-4 hand no-loads cublas", cols, " ")
  for (i = 1; i <= n; i++) {
    key = order[i]; split(key, kk, "\t"); base = tf[key, "orig"]
    line = sprintf("| %s | %s | %.1f TFLOPS", kk[1], kk[2], base)
    for (c = 1; c <= 16; c++) {
      v = cols[c]; x = tf[key, v]
      cell = (x == "" ? "—" : sprintf("%.1f (%.2fx)", x, x / base))
      if (v == "auto" && x != "") cell = cell " [" chosen[kk[1]] "]"
      if (v == "auto" && x == "" && chosen[kk[1]] == "") cell = sprintf("%.1f (1.00x) [left alone]", base)
      line = line " | " cell
    }
    line = line " | " ((key in diff) || (key in bad) ? "NO" : "yes") " |"
    print line
  }
}' "$dir/bench.tsv")

Refused forced variants (pipefy left the file unchanged, with this reason):

\`\`\`
$(cat "$dir/refused.txt")
\`\`\`

Kernel chains end to end (issue 20: launches back to back, overlapped, as one persistent launch,
and the bound on any schedule) are in bench/CHAINS.md (\`make bench-chains\`).
MD
# "## Reading this run" is written by hand after each run; pipefy's own speed is measured
# here, not on the GPU machine: keep that section as it is.
if [ -f bench/RESULTS.md ] && grep -q '<!-- tool-speed' bench/RESULTS.md; then
	echo
	sed -n '/<!-- tool-speed/,/<!-- \/tool-speed -->/p' bench/RESULTS.md
fi
