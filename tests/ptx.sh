#!/bin/bash
# ptx.sh: the overlap check CI can run without a GPU: each golden variant of a program is
# compiled to PTX (sm_80) and pipefy-verify-sass must find exactly the K-loops the remarks
# promise: async copies (cp.async) or global loads (ldg) in flight during the compute, with
# no barrier between. Exit 77 (skipped) without nvcc.
#   tests/ptx.sh VERIFIER testdata/NAME.cu
set -u
cd "$(dirname "$0")/.."
verify=$1 name=$(basename "$2" .cu)
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || { echo "no nvcc at $nvcc: skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh
pass=0 fail=0
while read -r g v extra; do
	[ "$v" = orig ] && continue
	remarks=$(promise_remarks "$2" "$v")
	# shellcheck disable=SC2046,SC2086
	"$nvcc" -ptx -O3 -std=c++17 $extra $(nvcc_args "$2") -arch=sm_80 -o "$tmp/$v.ptx" "$g" 2>/dev/null
	# shellcheck disable=SC2046
	if "$verify" $(tests/expected_kinds.sh "$remarks") "$tmp/$v.ptx" >"$tmp/out" 2>&1; then
		echo "[PASS] $name $v"; pass=$((pass + 1))
	else
		echo "[FAIL] $name $v"; fail=$((fail + 1))
	fi
	sed "s|$tmp/||" "$tmp/out"
done < <(program_variants "$2" "$tmp")
echo "$pass passed, $fail failed"
[ $fail = 0 ]
