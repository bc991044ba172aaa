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

a=testdata/sgemm_tiled.cu b=testdata/neg_early_exit.cu repo=$(pwd)

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
# (tests/html.sh renders the page in a browser: make check-more)
"$pipefy" -q --report-file="$tmp/r.html" $a $b >/dev/null 2>"$tmp/err"; rc=$?
expect "--report-file=r.html: one page for two files, a section per loop" \
	'[ $rc = 0 ] && [ ! -s "$tmp/err" ] && [ "$(grep -c "<html" "$tmp/r.html")" = 1 ] && [ "$(grep -c "<section" "$tmp/r.html")" = 3 ]'
"$pipefy" --report-file="$tmp/stdin.json" --assume-filename=$a <$a >"$tmp/out" 2>"$tmp/err"; rc=$?
expect "--report-file from an editor's filter: standard error stays empty, the file has the record" \
	'[ $rc = 0 ] && [ ! -s "$tmp/err" ] && grep -q "\"kind\": \"Passed\"" "$tmp/stdin.json" && cmp -s "$tmp/out" golden/sgemm_tiled.auto.cu'
"$pipefy" -q --report-file="$tmp/no/such/dir/r.json" $a >/dev/null 2>"$tmp/err"; rc=$?
expect "--report-file in a folder that is not there: exit 1, the file named" \
	'[ $rc = 1 ] && grep -q "no/such/dir/r.json: error:" "$tmp/err"'

# ---- -j N: files rewritten in parallel, everything printed as a sequential run prints it ----
# (a file that fails, one with parse errors, files whose loops are left, and a dry run)
mkdir -p "$tmp/j"
cp testdata/harness.cuh "$tmp/j/"
files=()
for f in $a $b testdata/multi_kernels.cu testdata/hgemm_wmma.cu testdata/neg_not_kloops.cu testdata/sgemm_guarded.cu; do
	cp $f "$tmp/j/"
	files+=("$tmp/j/$(basename $f)")
done
cp tests/cli/syntax-error-stdin/stdin "$tmp/j/syntax.cu"
files+=("$tmp/j/no_such_file.cu" "$tmp/j/syntax.cu")
# (a spelling of -j with each kind of run: 8 files a run take a while on 2 cores; -j 3 below)
for run in "-j4|--report=json" "--jobs=2|--dry-run --Werror"; do
	j=${run%%|*} args=${run#*|}
	# shellcheck disable=SC2086
	"$pipefy" $args "${files[@]}" >"$tmp/seq.out" 2>"$tmp/seq.err"; seq=$?
	# shellcheck disable=SC2086
	"$pipefy" $j $args "${files[@]}" >"$tmp/par.out" 2>"$tmp/par.err"; par=$?
	expect "$j ${args:-(rewrite)}: standard output, standard error and exit status ($seq) as without it" \
		'[ $seq = $par ] && cmp -s "$tmp/seq.out" "$tmp/par.out" && cmp -s "$tmp/seq.err" "$tmp/par.err"'
done
expect "the sequential run above failed for the missing file and warned for the parse error" \
	'[ $seq = 1 ] && grep -q "no_such_file.cu: error:" "$tmp/seq.err" && grep -q "syntax.cu:.*warning:" "$tmp/seq.err"'
# -i: every file edited as one at a time edits it
mkdir -p "$tmp/i1" "$tmp/i4"
for d in i1 i4; do cp "$tmp/j/"{multi_kernels,neg_early_exit,syntax}.cu "$tmp/j/harness.cuh" "$tmp/$d/"; done
"$pipefy" -q -i "$tmp/i1/"*.cu 2>/dev/null; "$pipefy" -q -j 3 -i "$tmp/i4/"*.cu 2>/dev/null; rc=$?
expect "-j 3 -i edits the files as -i alone does" '[ $rc = 0 ] && diff -r "$tmp/i1" "$tmp/i4" >/dev/null && ! cmp -s "$tmp/i1/multi_kernels.cu" testdata/multi_kernels.cu'
# the precompiled preambles: four processes building one cache entry at once leave it whole
mkdir -p "$tmp/same"
for i in 1 2 3 4; do cp $a "$tmp/same/k$i.cu"; done
cp testdata/harness.cuh "$tmp/same/"
PIPEFY_CACHE_DIR="$tmp/cache" "$pipefy" -q -j4 "$tmp/same/"k*.cu >"$tmp/same.out"; rc=$?
for i in 1 2 3 4; do cat golden/sgemm_tiled.auto.cu; done >"$tmp/same.want"
expect "-j4 over four files of one preamble, its cache entry built by all at once: right output" \
	'[ $rc = 0 ] && cmp -s "$tmp/same.out" "$tmp/same.want"'
inode=$(stat -c %i "$tmp/cache/"*.pch 2>/dev/null)
PIPEFY_CACHE_DIR="$tmp/cache" "$pipefy" -q "$tmp/same/k1.cu" >/dev/null
expect "the cache entry they left is whole: no temporary left, and the next run uses it (not rebuilt)" \
	'[ -z "$(ls "$tmp/cache" | grep "\.tmp$")" ] && [ "$(ls "$tmp/cache" | grep -c "\.pch$")" = 1 ] && [ "$(stat -c %i "$tmp/cache/"*.pch)" = "$inode" ]'
# a file that crashes says so, in its place; the others are written
PIPEFY_TEST_BREAK=crash "$pipefy" -q -j2 $a $b >"$tmp/out" 2>"$tmp/err"; rc=$?
expect "-j2: a crash is exit 1 and names the file" '[ $rc = 1 ] && grep -q "$a: error: internal error: pipefy crashed" "$tmp/err"'
PIPEFY_TEST_BREAK=crash "$pipefy" -q -j2 - $b <$a >"$tmp/out" 2>"$tmp/err"; rc=$?
expect "-j2 as a filter: a crash in standard input's worker writes the input back" \
	'[ $rc = 1 ] && cmp -s "$tmp/out" $a && grep -q "^<stdin>: error: internal error: pipefy crashed (.*); the input is written back unchanged" "$tmp/err"'
# a file whose name is not UTF-8: its report and fixes come back from the worker as they are
mkdir -p "$tmp/nu"
cp $a "$tmp/nu/"$'\xff'.cu; cp testdata/harness.cuh "$tmp/nu/"
for j in -j1 -j2; do
	(cd "$tmp/nu" && "$pipefy" $j --report --export-fixes=fixes$j.yaml $'\xff'.cu "$repo/$b" \
		>"$tmp/nu/out$j" 2>"$tmp/nu/err$j"); echo $? >"$tmp/nu/rc$j"
done
expect "-j2 over a file named in bytes that are not UTF-8: as -j1 (report, fixes, messages)" \
	'[ "$(cat "$tmp/nu/rc-j1")" = 0 ] && cmp -s "$tmp/nu/err-j1" "$tmp/nu/err-j2" && cmp -s "$tmp/nu/fixes-j1.yaml" "$tmp/nu/fixes-j2.yaml" && cmp -s "$tmp/nu/out-j1" "$tmp/nu/out-j2"'
"$pipefy" -j0 $a >/dev/null 2>"$tmp/err"; rc=$?
"$pipefy" -j x $a >/dev/null 2>>"$tmp/err"; rc2=$?
expect "-j0 is the number of processors; -j x a usage error" '[ $rc = 0 ] && [ $rc2 = 2 ] && grep -q "\-j takes" "$tmp/err"'

# ---- --export-fixes: the edits as clang-tidy exports them, for clang-apply-replacements ----
car=$(command -v clang-apply-replacements-19 || command -v clang-apply-replacements)
if [ -n "$car" ]; then
	mkdir -p "$tmp/fix/src" "$tmp/fix/out" "$tmp/fix/fixes"
	cp testdata/multi_kernels.cu testdata/chain_mlp.cu testdata/harness.cuh "$tmp/fix/src/"
	for f in multi_kernels chain_mlp; do
		"$pipefy" -q --arch=sm_90 --launches=overlap "$tmp/fix/src/$f.cu" >"$tmp/fix/out/$f.cu" 2>/dev/null
	done
	(cd "$tmp/fix/src" && "$pipefy" -q --arch=sm_90 --launches=overlap --export-fixes=../fixes/pipefy.yaml \
		multi_kernels.cu chain_mlp.cu >/dev/null 2>&1); rc=$?
	expect "--export-fixes: absolute paths, the first file as MainSourceFile" \
		'[ $rc = 0 ] && grep -q "^MainSourceFile: *'\''$tmp/fix/src/multi_kernels.cu'\''" "$tmp/fix/fixes/pipefy.yaml"'
	"$car" "$tmp/fix/fixes" 2>"$tmp/err"; rc=$?
	expect "clang-apply-replacements over --export-fixes' file gives what pipefy prints (several loops, a launch pair)" \
		'[ $rc = 0 ] && cmp -s "$tmp/fix/src/multi_kernels.cu" "$tmp/fix/out/multi_kernels.cu" && cmp -s "$tmp/fix/src/chain_mlp.cu" "$tmp/fix/out/chain_mlp.cu"'
	# a CRLF file, and one with quotes and a backslash in what is inserted, from standard input
	mkdir -p "$tmp/fix2/fixes"
	sed 's/$/\r/' $a >"$tmp/fix2/crlf.cu"; cp testdata/harness.cuh "$tmp/fix2/"
	"$pipefy" -q --variant=cp.async "$tmp/fix2/crlf.cu" >"$tmp/fix2/want" 2>/dev/null
	"$pipefy" -q --variant=cp.async --assume-filename="$tmp/fix2/crlf.cu" --export-fixes="$tmp/fix2/fixes/f.yaml" \
		<"$tmp/fix2/crlf.cu" >/dev/null 2>&1
	"$car" "$tmp/fix2/fixes" 2>/dev/null; rc=$?
	expect "--export-fixes from standard input (--assume-filename), a CRLF file: applied, the rewrite" \
		'[ $rc = 0 ] && cmp -s "$tmp/fix2/crlf.cu" "$tmp/fix2/want"'
else
	echo "[SKIP] --export-fixes: no clang-apply-replacements (Debian: clang-tools-19, scripts/bootstrap installs it)"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
