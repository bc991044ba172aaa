#!/bin/bash
# cli.sh: the command line as editors, build systems and people use it: what needs files and
# folders made for it (-i, -o, links, modes, compile databases). What is arguments, input and
# expected output is a case folder in tests/cli/ (run by tests/cli_case.sh).
#   tests/cli.sh PIPEFY
set -u
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1")
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
# (every pipefy here has a TMPDIR of this test's own: --ptxas's temporaries go there, and
# another pipefy on the machine has its own in /tmp, so the checks for leftovers look only here)
mkdir "$tmp/tmpdir"
export TMPDIR=$tmp/tmpdir
. tests/lib.sh

k=testdata/sgemm_tiled.cu
golden=golden/sgemm_tiled.auto.cu
syntax=tests/cli/syntax-error-stdin/stdin

# -o and file arguments
"$pipefy" -q $k -o "$tmp/o.cu"; rc=$?
expect "-o exits 0" '[ $rc = 0 ]'
expect "-o writes the rewrite" 'cmp -s "$tmp/o.cu" $golden'

# the comment over a one-stage register pipeline says why it has one stage: asked for, or the
# planner's reason (a forced --stages=1 once said "a second stage would cost occupancy")
"$pipefy" -q --variant=ldg --stages=1 $k -o "$tmp/one.cu"
expect "--stages=1: the rewrite says one stage was asked for" 'grep -q "(one stage was asked for)" "$tmp/one.cu"'
"$pipefy" -q --arch=sm_86 testdata/sgemm_smem_cliff.cu -o "$tmp/cliff.cu"
expect "the planner's one stage: the rewrite says a second would cost occupancy" \
	'grep -q "(a second stage would cost occupancy)" "$tmp/cliff.cu"'

# -i edits in place through a temporary file and keeps the permissions
cp $k "$tmp/inplace.cu"; cp testdata/harness.cuh "$tmp/"; chmod 640 "$tmp/inplace.cu"
"$pipefy" -q -i "$tmp/inplace.cu"; rc=$?
expect "-i exits 0" '[ $rc = 0 ]'
expect "-i rewrites the file" 'cmp -s "$tmp/inplace.cu" $golden'
expect "-i keeps the permissions" '[ "$(stat -c %a "$tmp/inplace.cu")" = 640 ]'
expect "-i leaves no temporary file" '[ -z "$(ls "$tmp" | grep pipefy-)" ]'

# a parse error is a warning (nvcc takes some that clang does not, and the file is nvcc's to
# judge): exit 0, the input written back unchanged, the function left as it is
"$pipefy" $syntax -o "$tmp/unchanged.cu" 2>"$tmp/err"; rc=$?
expect "a syntax error with -o exits 0, writes the input unchanged and warns" \
	'[ $rc = 0 ] && cmp -s "$tmp/unchanged.cu" $syntax && grep -q ": warning: expected" "$tmp/err" && ! grep -q ": error:" "$tmp/err"'

# failures: exit 1, a message naming the file, the input untouched
"$pipefy" -q $k -o "$tmp/no/such/dir/o.cu" 2>"$tmp/err"; rc=$?
expect "an unwritable -o path exits 1" '[ $rc = 1 ]'
expect "an unwritable -o path is named" 'grep -q "no/such/dir/o.cu: error:" "$tmp/err"'
if [ -w /dev/full ]; then
	"$pipefy" -q $k -o /dev/full 2>"$tmp/err"; rc=$?
	expect "-o /dev/full reports the write error" '[ $rc = 1 ]'
fi

# idempotence over every golden: pipefy leaves its own output alone
# (each read under its program's name, with its arguments and the variant that made it, so
# that its headers are found: a golden that does not parse would come back unchanged whatever
# pipefy did; a loop the forced variant refused may be another's to take)
read_variants "$pipefy"
same=0 total=0 changed=
for g in golden/*.cu golden/include/*.cuh; do
	base=${g#golden/} stem=${base%%.*} ext=${g##*.}
	prog=testdata/$stem.$ext
	args=$(sed -n 's|^// pipefy-args: *||p' "$prog" | head -n 1)
	v=${base#*.} v=${v%.*} # (golden/NAME.VARIANT.cu: VARIANT may hold dots)
	# (the variant's arguments, or those of a golden that is no one variant: lib.sh's golden_extra_args)
	if [ -n "${golden_extra_args[$v]:-}" ]; then
		args="$args ${golden_extra_args[$v]}"
	elif [ -n "${variant_args[$v]:-}" ]; then
		args="$args ${variant_args[$v]}"
	fi
	# (--ptxas reads registers from nvcc: without it pipefy would plan, and write, otherwise)
	[ "${args#*--ptxas}" != "$args" ] && [ ! -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ] && continue
	total=$((total + 1))
	# shellcheck disable=SC2086
	"$pipefy" -q $args --assume-filename="$prog" <"$g" >"$tmp/idem" 2>/dev/null && cmp -s "$tmp/idem" "$g" &&
		same=$((same + 1)) || changed="$changed $g"
done
expect "pipefy exits 0 and changes none of its $total goldens (changed or failed:${changed:- none})" '[ $same = $total ]'

# --ptxas measures registers when nvcc is there
if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
	"$pipefy" -q --ptxas --report $k >/dev/null 2>"$tmp/err"
	expect "--ptxas puts ptxas's register count in the report" 'grep -q "registers per thread (ptxas)" "$tmp/err"'
	# and holds a persistent launch's kernel to the larger kernel's registers, rounded up to the
	# allocation unit (8 a thread), which nvcc then keeps to (the reason in full is --report's)
	q=testdata/chain_softmax.cu
	"$pipefy" --arch=sm_90 --ptxas --launches=queue --report --lines="$(grep -n '<<<' $q | cut -d: -f1 | paste -sd:)" $q \
		-o "$tmp/queue.cu" 2>"$tmp/err"
	held=$(sed -n "s/.*held to \([0-9]*\) registers a thread, the most of 'qk' (\([0-9]*\)) and 'row_softmax' (\([0-9]*\)).*/\1 \2 \3/p" "$tmp/err")
	read -r cap r1 r2 <<<"${held:-0 0 0}"
	expect "--ptxas: the queue's kernel is held to the larger kernel's registers rounded up to 8 ($held)" \
		'[ $cap -gt 0 ] && [ $cap -ge $r1 ] && [ $cap -ge $r2 ] && [ $((cap % 8)) = 0 ] && [ $((cap - 8)) -lt $r1 -o $((cap - 8)) -lt $r2 ]'
	expect "--ptxas: the cap is written as __maxnreg__ for nvcc" 'grep -q "^#define PIPEFY_QUEUE0_REGISTERS __maxnreg__($cap)$" "$tmp/queue.cu"'
	used=$("${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" -c -std=c++17 -arch=sm_90 -I testdata -Xptxas -v -o /dev/null \
		"$tmp/queue.cu" 2>&1 | awk "/entry function '_Z[0-9]*pipefy_queue0_/ { k = 1 }
			k && /Used [0-9]+ registers/ { sub(/.*Used /, \"\"); print \$1; exit }")
	expect "--ptxas: nvcc compiles the queue's kernel within the cap ($used of $cap)" '[ -n "$used" ] && [ "$used" -le $cap ]'
	# tensor copies of a 1024-thread block are held to the two blocks an SM the plan counted with
	# the measured registers (their bookkeeping took this kernel from 32 registers to 39: one block)
	t=testdata/sgemm_tma_registers.cu
	"$pipefy" --arch=sm_90 --ptxas $t -o "$tmp/tma.cu" 2>"$tmp/err"
	expect "--ptxas: the tensor-copy kernel of a 1024-thread block carries __launch_bounds__(1024, 2)" \
		'grep -q "__launch_bounds__(1024, 2) /\* pipefy" "$tmp/tma.cu"'
	used=$("${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" -c -std=c++17 -arch=sm_90 -I testdata -Xptxas -v -o /dev/null \
		"$tmp/tma.cu" 2>&1 | awk "/entry function '_Z[0-9]*sgemm_tma_registers_pipefy_tma/ { k = 1 }
			k && /Used [0-9]+ registers/ { sub(/.*Used /, \"\"); print \$1; exit }")
	expect "--ptxas: nvcc fits the tensor-copy kernel in 32 registers, two blocks an SM ($used)" '[ -n "$used" ] && [ "$used" -le 32 ]'
	# a kernel template's registers are its instantiations' (the symbols ptxas names), and a
	# register plan is then judged by them plus its staging's, not by the unmeasured limit
	s=tests/cli/staging-registers-unmeasured/input.cu
	"$pipefy" --ptxas --report -o /dev/null $s 2>"$tmp/err"
	expect "--ptxas: the template's registers are measured through its instantiation" \
		'grep -A1 "K-loop in '"'"'instantiated'"'"'" "$tmp/err" | grep -q "registers per thread (ptxas)"'
	expect "--ptxas: 32 staging registers are weighed with the measured count" \
		'grep -q "^$s:33:2: remark: K-loop pipelined: ldg" "$tmp/err" && ! grep -q "auto takes unmeasured" "$tmp/err"'
fi

# editor and CI integrations, clang-format style
# --diff: applying it with patch gives exactly the rewritten file, for one loop, for a file
# whose include is added at the top, and for several loops in several kernels
for f in $k testdata/hgemm_wmma.cu testdata/multi_kernels.cu; do
	n=$(basename $f .cu)
	cp $f "$tmp/$n.cu"
	"$pipefy" -q --diff $f >"$tmp/$n.diff"
	(cd "$tmp" && patch -s "$n.cu" <"$n.diff") 2>/dev/null
	expect "--diff of $n applies with patch to the rewrite" 'cmp -s "$tmp/$n.cu" golden/$n.auto.cu'
done
# its headers name the file as diff -u and git do (`--- a/NAME<TAB>`): patch -p1 finds a name
# with a space in it, and git apply takes it too
mkdir -p "$tmp/spaced/sub"
cp $k "$tmp/spaced/sub/my kernel.cu"; cp testdata/harness.cuh "$tmp/spaced/sub/"
(cd "$tmp/spaced" && "$pipefy" -q --diff "sub/my kernel.cu" >../spaced.diff)
expect "--diff headers: a/NAME and b/NAME, each ended by a tab" \
	'[ "$(head -n 2 "$tmp/spaced.diff")" = "$(printf -- "--- a/sub/my kernel.cu\t\n+++ b/sub/my kernel.cu\t")" ]'
(cd "$tmp/spaced" && patch -s -p1 <../spaced.diff) >/dev/null 2>&1 </dev/null
expect "--diff of a file whose name has a space applies with patch -p1" 'cmp -s "$tmp/spaced/sub/my kernel.cu" $golden'

# bad input: a one-line error naming the file, exit 1, the input untouched
head -c 4096 /dev/urandom | tr -d '\n' | tr '\001' '\000' >"$tmp/junk.cu"
"$pipefy" "$tmp/junk.cu" >/dev/null 2>"$tmp/err"; rc=$?
expect "binary junk is an error" '[ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ]'
cp $k "$tmp/ro.cu"; chmod 444 "$tmp/ro.cu"
"$pipefy" -q -i "$tmp/ro.cu" 2>"$tmp/err"; rc=$?
expect "-i on a read-only file is an error and leaves it" '[ $rc = 1 ] && cmp -s "$tmp/ro.cu" $k && grep -q "read-only file" "$tmp/err"'

# -i when the disk fills halfway through the write: the original stays whole, no temporary
# file is left (a file-size limit makes the write fail part way, as a full disk would)
cp $golden "$tmp/half.cu"; cp $k "$tmp/half.cu"
# (its preamble cached first: under the limit only the output's write may fail, not the cache's)
"$pipefy" -q "$tmp/half.cu" >/dev/null 2>&1
(ulimit -f 2; trap '' XFSZ; "$pipefy" -q -i "$tmp/half.cu" 2>"$tmp/err"); rc=$?
expect "-i: a write failing halfway is an error" '[ $rc = 1 ] && grep -q "half.cu: error: write failed" "$tmp/err"'
expect "-i: after a failed write the original is intact" 'cmp -s "$tmp/half.cu" $k'
expect "-i: after a failed write no temporary file is left" '[ -z "$(ls "$tmp" | grep '\''half.cu.pipefy-'\'')" ]'

# a 10 MB generated file: no limit of pipefy's own stops it, every kernel is rewritten, and in
# time linear in the kernels (a launch scan per loop and a walk of the whole output per loop
# made 4,200 kernels take a minute)
kernel=$(sed -n '/^__global__/,/^}/p' $k)
{
	echo '#define TILE 16'
	for i in $(seq 1 4200); do printf '%s\n' "${kernel//sgemm_tiled/sgemm_$i}"; done
} >"$tmp/big.cu"
# a quarter of the kernels, for the time against all of them
awk -v n=1050 '/^__global__/ { k++ } k <= n' "$tmp/big.cu" >"$tmp/quarter.cu"
t0=$(date +%s%N)
"$pipefy" -q --block-size=256 "$tmp/quarter.cu" -o "$tmp/quarter.out.cu"
t1=$(date +%s%N)
"$pipefy" --block-size=256 "$tmp/big.cu" -o "$tmp/big.out.cu" 2>"$tmp/err"; rc=$?
t2=$(date +%s%N)
expect "a $(($(wc -c <"$tmp/big.cu") / 1000000)) MB file is rewritten" '[ $rc = 0 ] && [ "$(grep -c '\''remark: K-loop pipelined'\'' "$tmp/err")" = 4200 ] && [ "$(grep -c '\''pipefy_fetch('\'' "$tmp/big.out.cu")" -ge 4200 ]'
expect "four times the kernels take less than six times as long ($(((t1 - t0) / 1000000)) ms, then $(((t2 - t1) / 1000000)) ms)" '[ $((t2 - t1)) -lt $((6 * (t1 - t0))) ]'

# the compile database: nvcc's flags translated, its architecture used, its -D and -I applied
mkdir -p "$tmp/proj/build"
repo=$(pwd)
cat >"$tmp/proj/build/compile_commands.json" <<JSON
[{"directory": "$tmp/proj/build",
  "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DUSE_FP32 --define-macro WARPSIZE=32 -I$repo/testdata -I $repo/testdata/include --generate-code=arch=compute_90,code=[compute_90,sm_90] -rdc=true -Xcompiler -fPIC -Xcompiler=-Wall --expt-relaxed-constexpr -std=c++17 -x cu -c $repo/testdata/nvcc_include_dirs.cu -o x.o",
  "file": "$repo/testdata/nvcc_include_dirs.cu"}]
JSON
"$pipefy" -p "$tmp/proj/build" --report testdata/nvcc_include_dirs.cu >"$tmp/out" 2>"$tmp/err"; rc=$?
# (planned for sm_90, the database's architecture: as pipefy plans it with those flags given)
"$pipefy" -q --arch=sm_90 -DUSE_FP32 -DWARPSIZE=32 testdata/nvcc_include_dirs.cu >"$tmp/want" 2>/dev/null
expect "-p: nvcc flags are translated and the file pipelines" '[ $rc = 0 ] && ! cmp -s "$tmp/out" testdata/nvcc_include_dirs.cu && cmp -s "$tmp/out" "$tmp/want"'
expect "-p: the database's architecture (sm_90) is planned for" 'grep -q "sm_90" "$tmp/err"'
"$pipefy" -p "$tmp/proj/build" --arch=sm_80 --report testdata/nvcc_include_dirs.cu >/dev/null 2>"$tmp/err"
expect "-p: --arch wins over the database" 'grep -q "sm_80" "$tmp/err" && ! grep -q "sm_90" "$tmp/err"'
cp testdata/nvcc_include_dirs.cu "$tmp/proj/other.cu"
"$pipefy" -q -p "$tmp/proj/build" "$tmp/proj/other.cu" >"$tmp/out" 2>"$tmp/err"; rc=$?
expect "-p: a file the database lacks borrows the nearest entry's flags, as clangd does" '[ $rc = 0 ] && grep -q -E "pipefy_(fetch|load)" "$tmp/out"'
# CMake's Makefiles generator puts nvcc's include folders and definitions in response files
# (--options-file includes_CUDA.rsp); -optf and @FILE are the same, relative to the entry's folder
mkdir -p "$tmp/rsp/build/CMakeFiles"
printf -- '-I"%s/testdata"\n -I%s/testdata/include\n' "$repo" "$repo" >"$tmp/rsp/build/CMakeFiles/includes_CUDA.rsp"
printf -- "-DUSE_FP32 '-DWARPSIZE=32'\n" >"$tmp/rsp/build/defines.rsp"
printf -- '--generate-code=arch=compute_90,code=[compute_90,sm_90] -optf=defines.rsp\n' >"$tmp/rsp/build/arch.rsp"
cat >"$tmp/rsp/build/compile_commands.json" <<JSON
[{"directory": "$tmp/rsp/build",
  "command": "/usr/local/cuda/bin/nvcc --options-file CMakeFiles/includes_CUDA.rsp @arch.rsp -x cu -c $repo/testdata/nvcc_include_dirs.cu -o x.o",
  "file": "$repo/testdata/nvcc_include_dirs.cu"}]
JSON
"$pipefy" -p "$tmp/rsp/build" --report testdata/nvcc_include_dirs.cu >"$tmp/out" 2>"$tmp/err"; rc=$?
expect "-p: include folders, definitions and the architecture in response files (--options-file, @FILE, -optf) are read" \
	'[ $rc = 0 ] && cmp -s "$tmp/out" "$tmp/want" && grep -q "sm_90" "$tmp/err"'
printf -- '--options-file missing.rsp\n' >"$tmp/rsp/build/arch.rsp"
"$pipefy" -q -p "$tmp/rsp/build" testdata/nvcc_include_dirs.cu >/dev/null 2>"$tmp/err"; rc=$?
expect "-p: a response file that is not there is an error naming it" '[ $rc = 1 ] && grep -q "missing.rsp: error: " "$tmp/err"'

# without the database: -D on pipefy's command line, and "file not found" says where it looked
mkdir -p "$tmp/repo/.git" "$tmp/repo/src/kernels"
sed 's/"gemm_config.h"/"no_such_config.h"/' testdata/nvcc_include_dirs.cu >"$tmp/repo/src/kernels/k.cu"
"$pipefy" -q -DUSE_FP32 -DWARPSIZE=32 "$tmp/repo/src/kernels/k.cu" >/dev/null 2>"$tmp/err"; rc=$?
expect "a missing header lists the folders searched" '[ $rc = 0 ] && grep -q "'\''no_such_config.h'\'' file not found (searched $tmp/repo/src/kernels, .*$tmp/repo/src.*$tmp/repo," "$tmp/err"'
mkdir -p "$tmp/repo/include"; cp testdata/include/gemm_config.h "$tmp/repo/include/no_such_config.h"
cp testdata/harness.cuh "$tmp/repo/common/" 2>/dev/null || { mkdir -p "$tmp/repo/common"; cp testdata/harness.cuh "$tmp/repo/common/"; }
"$pipefy" -q -DUSE_FP32 -DWARPSIZE=32 "$tmp/repo/src/kernels/k.cu" >"$tmp/out" 2>"$tmp/err"; rc=$?
expect "headers in include/ and common/ at the repository root are found" '[ $rc = 0 ] && grep -q pipefy_fetch "$tmp/out"'

# clang stops reporting after 20 errors by default; pipefy asks for all of them, so a kernel
# whose error comes after the twentieth is not taken for clean and rewritten
{
	echo '__device__ void noisy() {'
	for i in $(seq 1 25); do echo "    undeclared_$i = 1;"; done
	echo '}'
	sed -n '/^#define TILE/p; /^__global__/,/^}/p' $k | sed 's/float acc = 0.0f;/float acc = 0.0f; int broken = ;/'
} >"$tmp/many_errors.cu"
cp testdata/harness.cuh "$tmp/"
"$pipefy" -q "$tmp/many_errors.cu" >"$tmp/out" 2>/dev/null; rc=$?
expect "an error past clang's twentieth still keeps its function unrewritten" '[ $rc = 0 ] && cmp -s "$tmp/out" "$tmp/many_errors.cu"'

# --report=yaml is YAML that LLVM's opt-viewer reads: a file name with a quote in it, and each
# record's message as an Args String
if python3 -c 'import yaml' 2>/dev/null; then
	"$pipefy" -q --report=yaml --assume-filename="testdata/it's: #1.cu" <$k >/dev/null 2>"$tmp/report.yaml"; rc=$?
	python3 - "$tmp/report.yaml" >"$tmp/yaml.out" 2>&1 <<'PY'
import sys, yaml
class Remark(dict): pass
for tag in ('!Passed', '!Missed'):
    yaml.SafeLoader.add_constructor(tag, lambda loader, node: Remark(loader.construct_mapping(node, deep=True)))
docs = list(yaml.safe_load_all(open(sys.argv[1])))
r = docs[0]
print(r['DebugLoc']['File'])
# opt-viewer's message: the Args' values, joined; the String comes first
print(r['Args'][0]['String'])
PY
	expect "--report=yaml: a file name with a quote, a colon and a hash is read back as it was" \
		'[ $rc = 0 ] && [ "$(sed -n 1p "$tmp/yaml.out")" = "testdata/it'\''s: #1.cu" ]'
	expect "--report=yaml: each record's first Args entry is its message as a String" \
		'sed -n 2p "$tmp/yaml.out" | grep -q "^K-loop pipelined: ldg, 1 stage: 4-byte copies"'
	# a name that is not UTF-8 (JSON's "file" gets U+FFFD for the byte; YAML escapes it)
	"$pipefy" -q --report=yaml --assume-filename=$'testdata/\xff.cu' <$k >/dev/null 2>"$tmp/report.yaml"; rc=$?
	python3 - "$tmp/report.yaml" >"$tmp/yaml.out" 2>&1 <<'PY'
import sys, yaml
for tag in ('!Passed', '!Missed'):
    yaml.SafeLoader.add_constructor(tag, lambda loader, node: loader.construct_mapping(node, deep=True))
print(list(yaml.safe_load_all(open(sys.argv[1], encoding='utf-8')))[0]['DebugLoc']['File'])
PY
	expect "--report=yaml: a file name that is not UTF-8 is escaped, and the report is YAML" \
		'[ $rc = 0 ] && [ "$(cat "$tmp/yaml.out")" = "testdata/$(printf "\303\277").cu" ]'
fi

# usage
"$pipefy" --version >"$tmp/out"; rc=$?
expect "--version names pipefy and clang" '[ $rc = 0 ] && grep -q "^pipefy [0-9.]* (.*clang version 19" "$tmp/out"'

# ---- safety on a shared machine and in a build ----
# --ptxas runs nvcc with an argument vector: quotes in arguments and paths are data, not shell
if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
	rm -f "$tmp/PWNED"
	"$pipefy" -q --ptxas $k -- "-DX=';touch $tmp/PWNED;'" >/dev/null 2>&1
	expect "--ptxas: a quote in a parser argument runs nothing" '[ ! -e "$tmp/PWNED" ]'
	# (nvcc itself cannot compile a file under such a folder: only that nothing runs is checked)
	d="$tmp/x';touch $tmp/PWNED2;'"
	mkdir -p "$d"
	cp $k testdata/harness.cuh "$d/"
	# (TMPDIR is this test's own, $tmp/tmpdir: another pipefy on the machine may have its temporary in /tmp)
	"$pipefy" -q --ptxas "$d/sgemm_tiled.cu" >"$tmp/ptxas.cu" 2>&1
	expect "--ptxas: a quote in the input's path runs nothing" '[ ! -e "$tmp/PWNED2" ]'
	expect "--ptxas leaves no temporary source behind" '[ -z "$(ls "$tmp/tmpdir")" ] && [ -s "$tmp/ptxas.cu" ]'
	# the temporary goes where TMPDIR says: a folder that is not there means no registers
	TMPDIR="$tmp/no-such-dir" "$pipefy" --ptxas --report=json $k 2>"$tmp/ptxas-none.json" >/dev/null
	"$pipefy" --ptxas --report=json $k 2>"$tmp/ptxas-rw.json" >/dev/null
	expect "--ptxas writes its temporary in TMPDIR" '! cmp -s "$tmp/ptxas-none.json" "$tmp/ptxas-rw.json"'
fi
echo '#define PIPEFY_TEST_INCLUDED 1' >"$tmp/pre.h"
"$pipefy" -q $k -- -I testdata -isystem testdata -DX=1 -UY -std=c++17 -Wno-unused -include "$tmp/pre.h" >"$tmp/out" 2>/dev/null; rc=$?
expect "-- keeps -I, -isystem, -D, -U, -std, -W and -include" '[ $rc = 0 ] && cmp -s "$tmp/out" $golden'
# files keep what a user expects of an editor
( umask 022; "$pipefy" -q $k -o "$tmp/new.cu" )
expect "-o creates a file with 0666 less the umask" '[ "$(stat -c %a "$tmp/new.cu")" = 644 ]'
cp $k "$tmp/kept.cu"; chmod 604 "$tmp/kept.cu"
"$pipefy" -q $k -o "$tmp/kept.cu"
expect "-o over an existing file keeps its mode" '[ "$(stat -c %a "$tmp/kept.cu")" = 604 ] && cmp -s "$tmp/kept.cu" $golden'
cp $k "$tmp/target.cu"; ln -sf target.cu "$tmp/link.cu"
"$pipefy" -q -i "$tmp/link.cu"
expect "-i on a symbolic link rewrites the file it names and keeps the link" '[ -L "$tmp/link.cu" ] && cmp -s "$tmp/target.cu" $golden'
cp $k "$tmp/target2.cu"; ln -sf target2.cu "$tmp/link2.cu"
"$pipefy" -q $k -o "$tmp/link2.cu"
expect "-o to a symbolic link writes through it" '[ -L "$tmp/link2.cu" ] && cmp -s "$tmp/target2.cu" $golden'
cp $k "$tmp/hard1.cu"; ln -f "$tmp/hard1.cu" "$tmp/hard2.cu"
"$pipefy" -q -i "$tmp/hard1.cu"
expect "-i on a hard link keeps the link: both names show the rewrite" '[ "$(stat -c %h "$tmp/hard1.cu")" = 2 ] && cmp -s "$tmp/hard2.cu" $golden'
# (a link of its own into /proc, like /dev/stdout, so the test does not depend on the machine's)
ln -s /proc/self/fd/1 "$tmp/stdout"
"$pipefy" -q $k -o "$tmp/stdout" >"$tmp/devout"
expect "-o to a link into /proc/self/fd writes standard output and leaves the link" '[ -L "$tmp/stdout" ] && cmp -s "$tmp/devout" $golden'
if [ -L /dev/stdout ]; then
	"$pipefy" -q $k -o /dev/stdout >"$tmp/devout"
	expect "-o /dev/stdout writes standard output and leaves /dev/stdout a link" '[ -L /dev/stdout ] && cmp -s "$tmp/devout" $golden'
fi
long=$(printf 'k%.0s' $(seq 1 247)).cu
cp $k "$tmp/$long"
"$pipefy" -q -i "$tmp/$long" && "$pipefy" -q $k -o "$tmp/o$long"; rc=$?
expect "-i and -o on a 250-character file name" '[ $rc = 0 ] && cmp -s "$tmp/$long" $golden && cmp -s "$tmp/o$long" $golden'
cp $k testdata/harness.cuh "$tmp/"; mkdir -p "$tmp/a b"
"$pipefy" -q "$tmp/sgemm_tiled.cu" -o "$tmp/a b/out \$#.cu" -MF "$tmp/dep.d"
expect "-MF escapes spaces, \$ and # in the target" 'head -n 1 "$tmp/dep.d" | grep -q "a\\\\ b/out\\\\ \$\$\\\\#.cu:"'
# the target is what was written: -o's file, else -MT's name (standard output has none)
"$pipefy" -q "$tmp/sgemm_tiled.cu" -MF "$tmp/dep-mt.d" -MT "out dir/k.pipe.cu" >"$tmp/out"; rc=$?
expect "-MF with -MT names the target -MT gives, the input its first prerequisite" \
	'[ $rc = 0 ] && [ "$(head -n 2 "$tmp/dep-mt.d")" = "$(printf "out\\\\ dir/k.pipe.cu: \\\\\n $tmp/sgemm_tiled.cu \\\\")" ] && cmp -s "$tmp/out" $golden'
"$pipefy" -q --assume-filename="$tmp/sgemm_tiled.cu" -MF "$tmp/dep-stdin.d" -MT k.pipe.cu - <"$tmp/sgemm_tiled.cu" >/dev/null; rc=$?
expect "-MF from standard input: the input is the name --assume-filename gives" \
	'[ $rc = 0 ] && [ "$(sed -n 2p "$tmp/dep-stdin.d")" = " $tmp/sgemm_tiled.cu \\" ] && grep -q "/harness.cuh" "$tmp/dep-stdin.d"'
# (standard input with no file named at all, as a build rule's `pipefy < in > out` gives it)
"$pipefy" -q --assume-filename="$tmp/sgemm_tiled.cu" -MF "$tmp/dep-stdin2.d" -MT k.pipe.cu <"$tmp/sgemm_tiled.cu" >/dev/null; rc=$?
expect "-MF from standard input named by no argument: the same file" \
	'[ $rc = 0 ] && cmp -s "$tmp/dep-stdin.d" "$tmp/dep-stdin2.d"'

# ---- crashes never cost the user their text ----
python3 -c "print('__global__ void k(float *p) { p[0] = ' + ' + '.join(['p[1]'] * 40000) + '; }')" >"$tmp/deep.cu"
"$pipefy" --assume-filename=deep.cu <"$tmp/deep.cu" >"$tmp/out" 2>"$tmp/err"; rc=$?
expect "a 40,000-term expression (nvcc compiles it) is parsed, not a stack overflow" '[ $rc = 0 ] && cmp -s "$tmp/out" "$tmp/deep.cu"'
cp $k "$tmp/crash.cu"
PIPEFY_TEST_BREAK=crash "$pipefy" -i "$tmp/crash.cu" >/dev/null 2>"$tmp/err"; rc=$?
expect "a crash under -i leaves the file as it was" '[ $rc = 1 ] && cmp -s "$tmp/crash.cu" $k'

# ---- output that still compiles ----
# CRLF in, CRLF out: every line pipefy writes ends as the input's lines do
sed 's/$/\r/' $k >"$tmp/crlf.cu"; cp testdata/harness.cuh "$tmp/"
"$pipefy" -q --variant=cp.async "$tmp/crlf.cu" >"$tmp/out"; rc=$?
sed 's/$/\r/' golden/sgemm_tiled.cp.async.cu >"$tmp/crlf.want"
expect "a CRLF file comes out CRLF throughout" '[ $rc = 0 ] && cmp -s "$tmp/out" "$tmp/crlf.want"'
# the include goes at file scope: not into an #ifdef, not into a block comment
awk '/#include "harness.cuh"/ { print; print "#ifdef PIPEFY_EXTRA_INCLUDES"; print "#include <cstdio>"; print "#endif";
     print "/*"; print "#include <cmath>"; print "*/"; next } { print }' $k >"$tmp/cond.cu"
"$pipefy" -q --variant=cp.async "$tmp/cond.cu" >"$tmp/out"; rc=$?
expect "cuda_pipeline.h goes after the last include outside #if and comments" \
	'[ $rc = 0 ] && [ "$(grep -A1 "#include \"harness.cuh\"" "$tmp/out" | tail -n 1)" = "#include <cuda_pipeline.h> // pipefy: __pipeline_memcpy_async" ]'
# a file without includes that starts with a byte-order mark: the include goes after it
{ printf '\357\273\277'; sed '/#include/d' testdata/sgemm_tiled.cu | sed -n '/^#define/,/^}/p'; } >"$tmp/bom.cu"
"$pipefy" -q --variant=cp.async "$tmp/bom.cu" >"$tmp/out"; rc=$?
expect "with a byte-order mark and no include, cuda_pipeline.h goes after the mark" \
	'[ $rc = 0 ] && [ "$(head -c 3 "$tmp/out" | od -An -tx1 | tr -d " ")" = efbbbf ] && head -n 1 "$tmp/out" | grep -q "#include <cuda_pipeline.h>"'

expect "no pipefy left anything in this test's TMPDIR" '[ -z "$(ls -A "$tmp/tmpdir")" ]' || ls -A "$tmp/tmpdir" | head -n 3

echo "$pass passed, $fail failed"
[ $fail = 0 ]
