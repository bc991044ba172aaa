#!/bin/bash
# nvcc.sh: a testdata program and every golden made from it compile with nvcc for sm_80 and
# sm_90 (compile only; running them is `make gpu-check`), with no register spills (ptxas -v;
# the registers and shared memory it reports are printed). And the invariant users rely on:
# when nvcc compiles the input, pipefy exits 0 on it (golden remarks end in "exit 0").
# Exit 77 (skipped) without nvcc.
#   tests/nvcc.sh testdata/NAME.cu
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || { echo "no nvcc at $nvcc: skipped"; exit 77; }
name=$(basename "$1" .cu)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
while read -r f v extra; do
	# shellcheck disable=SC2046,SC2086
	if "$nvcc" -c -std=c++17 -Xptxas -v $extra $(nvcc_args "$1") -gencode arch=compute_80,code=sm_80 \
		-gencode arch=compute_90,code=sm_90 -o "$tmp/x.o" "$f" 2>"$tmp/log"; then
		echo "[PASS] $f ($v)"; pass=$((pass + 1))
	else
		echo "[FAIL] $f ($v)"; grep -v '^ptxas info' "$tmp/log" | head -n 20; fail=$((fail + 1))
		continue
	fi
	# per kernel and architecture: "Compiling entry function 'X' for 'sm_90'", then its numbers
	awk '/Compiling entry function/ { fn = $7; arch = $9 }
	     /Used [0-9]+ registers/ { sub(/.*Used /, ""); print "    " arch " " fn ": " $0 }' "$tmp/log"
	if grep -q -E '[1-9][0-9]* bytes spill (stores|loads)' "$tmp/log"; then
		echo "[FAIL] $f ($v) spills registers:"; grep -E 'spill' "$tmp/log" | sort -u; fail=$((fail + 1))
	fi
	if [ "$v" = orig ]; then
		if [ "$(tail -n 1 golden/"$name".remarks)" = "exit 0" ]; then
			echo "[PASS] nvcc compiles it and pipefy exits 0"; pass=$((pass + 1))
		else
			echo "[FAIL] nvcc compiles it but pipefy: $(tail -n 1 golden/"$name".remarks)"; fail=$((fail + 1))
		fi
	fi
done < <(program_variants "$1" "$tmp")
echo "$pass passed, $fail failed"
[ $fail = 0 ]
