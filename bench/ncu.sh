#!/bin/bash
# ncu.sh: why a variant loses, on the GPU machine, over bench/build.sh's output. For each
# KERNEL:VARIANT pair, Nsight Compute profiles one launch at 4096³ (the second, so caches and
# clocks are warm; clocks left alone) and reads the issue-slot utilisation, occupancy, DRAM
# throughput and the warp stall reasons per issued instruction. Writes OUT/ncu/PAIR.csv and,
# on stdout, a Markdown table: one row per pair, the three largest stall reasons.
#   bench/ncu.sh BUILD OUT PAIR...     e.g. hgemm_wmma:tma-2 hgemm_wmma:cp.async-3
set -u
build=$1 out=$2
shift 2
mkdir -p "$out/ncu"
metrics='gpu__time_duration.sum,sm__inst_issued.avg.pct_of_peak_sustained_active'
metrics+=',sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed'
metrics+=',launch__registers_per_thread,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio'
echo "| kernel | variant | time (ms) | issue slots busy | warps active | DRAM | registers | top stalls (warps per issued instruction) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for pair in "$@"; do
	k=${pair%%:*} v=${pair#*:}
	csv=$out/ncu/$k.$v.csv
	PIPEFY_SKIP_REFERENCE=1 PIPEFY_BENCH_RUNS=1 ncu --clock-control none --launch-skip 1 --launch-count 1 \
		--csv --page raw --metrics "$metrics" "$build/bin/$k.$v" 4096 4096 4096 >"$csv" 2>&1
	# The raw page: a header row of metric names, a row of units, a row of values.
	awk -F'","' -v k="$k" -v v="$v" '
		/^"ID"/ { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); name[i] = $i }; h = 1; next }
		h == 1 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); unit[i] = $i }; h = 2; next }
		h == 2 {
			for (i = 1; i <= NF; i++) { gsub(/[",]/, "", $i); val[name[i]] = $i; u[name[i]] = unit[i] }
			n = 0
			for (m in val) if (m ~ /issue_stalled_.*_per_issue_active/) {
				r = m; sub(/.*issue_stalled_/, "", r); sub(/_per_issue_active.*/, "", r)
				if (r == "selected") continue
				s[++n] = r; x[n] = val[m] + 0
			}
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] > x[i]) {
				t = x[i]; x[i] = x[j]; x[j] = t; t = s[i]; s[i] = s[j]; s[j] = t }
			ms = val["gpu__time_duration.sum"]
			tu = u["gpu__time_duration.sum"]
			if (tu == "ns" || tu == "nsecond") ms /= 1e6
			else if (tu == "us" || tu == "usecond") ms /= 1e3
			else if (tu == "s" || tu == "second") ms *= 1e3
			printf "| %s | %s | %.2f | %.1f %% | %.1f %% | %.1f %% | %s | %s %.2f, %s %.2f, %s %.2f |\n", k, v, ms,
				val["sm__inst_issued.avg.pct_of_peak_sustained_active"],
				val["sm__warps_active.avg.pct_of_peak_sustained_active"],
				val["dram__throughput.avg.pct_of_peak_sustained_elapsed"],
				val["launch__registers_per_thread"], s[1], x[1], s[2], x[2], s[3], x[3]
			found = 1; h = 3
		}
		END { if (!found) printf "| %s | %s | no profile (see ncu/%s.%s.csv) | | | | | |\n", k, v, k, v }' "$csv"
done
