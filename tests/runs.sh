#!/bin/bash
# runs.sh: runs over several files, as a build or a CI gate makes them: one report document per
# run (--report-file), the summary line, and -j's parallel runs that print what a sequential
# run prints.
#   tests/runs.sh PIPEFY
set -u
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

a=testdata/sgemm_tiled.cu b=testdata/neg_early_exit.cu

# ---- --report-file: the report to a file, its format by the name's extension ----
"$pipefy" --report-file="$tmp/r.json" $a $b >/dev/null 2>"$tmp/err"; rc=$?
expect "--report-file=r.json: one JSON array of the three loops of two files" \
	'[ $rc = 0 ] && [ "$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(len(r), r[0][\"file\"], r[2][\"file\"])" "$tmp/r.json")" = "3 $a $b" ]'
expect "--report-file: standard error has the remarks and no report" \
	'grep -q "remark: K-loop pipelined" "$tmp/err" && ! grep -q "\"kind\"" "$tmp/err"'
for ext in yaml yml opt.yaml; do
	"$pipefy" -q --report-file="$tmp/r.$ext" $a $b >/dev/null 2>"$tmp/err"; rc=$?
	expect "--report-file=r.$ext: one YAML stream of three records, nothing on standard error" \
		'[ $rc = 0 ] && [ "$(grep -c "^--- !" "$tmp/r.$ext")" = 3 ] && [ ! -s "$tmp/err" ]'
done
"$pipefy" --report-file="$tmp/stdin.json" --assume-filename=$a <$a >"$tmp/out" 2>"$tmp/err"; rc=$?
expect "--report-file from an editor's filter: standard error stays empty, the file has the record" \
	'[ $rc = 0 ] && [ ! -s "$tmp/err" ] && grep -q "\"kind\": \"Passed\"" "$tmp/stdin.json" && cmp -s "$tmp/out" golden/sgemm_tiled.auto.cu'
"$pipefy" -q --report-file="$tmp/no/such/dir/r.json" $a >/dev/null 2>"$tmp/err"; rc=$?
expect "--report-file in a folder that is not there: exit 1, the file named" \
	'[ $rc = 1 ] && grep -q "no/such/dir/r.json: error:" "$tmp/err"'

echo "$pass passed, $fail failed"
[ $fail = 0 ]
