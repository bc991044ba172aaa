#!/bin/bash
# nvcc.sh: a testdata program and every golden made from it compile with nvcc for sm_80 and
# sm_90 (compile only; running them is `make gpu-check`). Exit 77 (skipped) without nvcc.
#   tests/nvcc.sh testdata/NAME.cu
set -u
cd "$(dirname "$0")/.."
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || { echo "no nvcc at $nvcc: skipped"; exit 77; }
name=$(basename "$1" .cu)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for f in "$1" golden/"$name".*.cu; do
	[ -f "$f" ] || continue
	if "$nvcc" -c -std=c++17 -I testdata -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
		-o "$tmp/x.o" "$f" 2>"$tmp/log"; then
		echo "[PASS] $f"; pass=$((pass + 1))
	else
		echo "[FAIL] $f"; head -n 20 "$tmp/log"; fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
