#!/bin/bash
# valgrind.sh: pipefy under valgrind memcheck on one run of each kind the CLI tests cover:
# zero errors and zero definite leaks in pipefy's own code (libclang's are suppressed, see
# tests/valgrind.supp). Slow (a minute or more per run), so it is `make check-valgrind`,
# not part of `make check`.
#   tests/valgrind.sh PIPEFY
set -u
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
k=testdata/sgemm_tiled.cu
cp $k testdata/harness.cuh "$tmp/"
runs=(
	"$k"
	"--variant=cp.async --stages=3 testdata/hgemm_wmma.cu"
	"--report=json testdata/sgemm_regblock.cu"
	"testdata/neg_dependent_load.cu"
	"--diff testdata/multi_kernels.cu"
	"--output-replacements-xml testdata/sgemm_guarded.cu"
	"-n --Werror testdata/sgemm_pointer_bumps.cu"
	"--lines=20:30 testdata/conv2d_implicit_gemm.cu"
	"-i $tmp/sgemm_tiled.cu"
	"-o $tmp/out.cu testdata/mma_bf16_ptx.cu"
	"tests/cli/syntax_error.cu"
	"tests/cli/host_error.cu"
	"$tmp/missing.cu"
	"--no-cache testdata/sgemm_samples.cu"
)
# the work runs in a child process (main.c's crash guard); valgrind follows it
vg() { valgrind -q --trace-children=yes --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
	--suppressions=tests/valgrind.supp --num-callers=40 --log-file="$1" "$pipefy" "${@:2}"; }
fail=0 i=0
for args in "${runs[@]}"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	vg "$tmp/vg$i.log" -q $args </dev/null >/dev/null 2>&1
	if [ -s "$tmp/vg$i.log" ]; then
		echo "[FAIL] pipefy $args"; sed 's/^/    /' "$tmp/vg$i.log" | head -60; fail=$((fail + 1))
	else
		echo "[PASS] pipefy $args: 0 errors, 0 definite leaks"
	fi
done
# stdin, as editors run it
vg "$tmp/stdin.log" --assume-filename=$k <$k >/dev/null 2>&1
if [ -s "$tmp/stdin.log" ]; then echo "[FAIL] pipefy <$k"; cat "$tmp/stdin.log"; fail=$((fail + 1)); else echo "[PASS] pipefy <$k"; fi
echo "$((i + 1 - fail)) clean, $fail with reports"
[ $fail = 0 ]
