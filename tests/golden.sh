#!/bin/bash
# golden.sh: pipefy's output for each testdata program and variant, byte for byte against
# golden/NAME.VARIANT.cu, and its remarks against golden/NAME[.VARIANT].remarks.
#
#   tests/golden.sh PIPEFY [testdata/NAME.cu ...]           compare (all programs by default)
#   tests/golden.sh --update PIPEFY [testdata/NAME.cu ...]  rewrite the goldens (make goldens)
#
# A variant whose output equals the input has no .cu golden: its absence is the claim that
# pipefy leaves the file byte-identical. Options for a program sit on its first lines as
# `// pipefy-args: ...`. On a mismatch the actual output is kept in $GOLDEN_OUT for a diff.
set -u
cd "$(dirname "$0")/.." || exit
update=0
if [ "${1:-}" = --update ]; then update=1; shift; fi
pipefy=$(realpath "$1"); shift
. tests/lib.sh
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(testdata/*.cu testdata/include/*.cuh)
out=${GOLDEN_OUT:-$(dirname "$pipefy")/golden-out}
mkdir -p "$out"

# name:extra arguments; auto is what users get, the others are the forced variants (pipefy
# --list-variants) and lib.sh's golden_extra_args. A program that says `// pipefy-golden: tma bulk`
# on its first lines also has goldens of those tensor-family variants (planned for the oldest
# architecture that has them), or of those extras that are not made for every program.
read_variants "$pipefy" || { echo "[FAIL] pipefy --list-variants lists no variant"; exit 1; }
all_variants=("auto:")
declare -A optional=()
for v in "${!golden_extra_args[@]}"; do
	[[ " ${golden_extra_every[*]} " == *" $v "* ]] || optional[$v]=${golden_extra_args[$v]}
done
for v in "${variant_names[@]}"; do
	if [ "${variant_family[$v]}" = tensor ]; then optional[$v]=${variant_args[$v]}; else all_variants+=("$v:${variant_args[$v]}"); fi
done
for v in "${golden_extra_every[@]}"; do all_variants+=("$v:${golden_extra_args[$v]}"); done

pass=0 fail=0
for f in "${files[@]}"; do
	# testdata/NAME.cu -> golden/NAME.VARIANT.cu; testdata/include/H.cuh -> golden/include/H.VARIANT.cuh
	stem=${f#testdata/} ext=${f##*.}
	stem=${stem%.*} name=$(basename "$stem")
	args=$(sed -n 's|^// pipefy-args: *||p' "$f" | head -n 1)
	variants=("${all_variants[@]}")
	for o in $(sed -n 's|^// pipefy-golden: *||p' "$f" | head -n 1); do
		variants+=("$o:${optional[$o]}")
	done
	for v in "${variants[@]}"; do
		vname=${v%%:*} vargs=${v#*:}
		# (--ptxas reads registers from nvcc: without it the plan, and the output, differ)
		if [ "${vargs#*--ptxas}" != "$vargs" ] && [ ! -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
			echo "[SKIP] $name $vname: no nvcc for --ptxas"
			continue
		fi
		golden=golden/$stem.$vname.$ext
		remarks=golden/$stem.$vname.remarks
		[ "$vname" = auto ] && remarks=golden/$stem.remarks
		# shellcheck disable=SC2086
		"$pipefy" $args $vargs "$f" >"$out/$name.$vname.cu" 2>"$out/$name.$vname.remarks"
		rc=$?
		echo "exit $rc" >>"$out/$name.$vname.remarks"
		if [ $update = 1 ]; then
			mkdir -p "$(dirname "$golden")"
			if cmp -s "$out/$name.$vname.cu" "$f"; then rm -f "$golden"; else cp "$out/$name.$vname.cu" "$golden"; fi
			cp "$out/$name.$vname.remarks" "$remarks"
			continue
		fi
		expect=$golden
		[ -f "$golden" ] || expect=$f
		# (a remark names no file of this repository: an installed pipefy's user has none)
		if grep -q -E '(bench|rules|docs|tests)/[A-Za-z_]' "$out/$name.$vname.remarks"; then
			echo "[FAIL] $name $vname: a remark cites a file of pipefy's repository"
			grep -E '(bench|rules|docs|tests)/[A-Za-z_]' "$out/$name.$vname.remarks" | head -n 3
			fail=$((fail + 1))
		elif cmp -s "$out/$name.$vname.cu" "$expect" && cmp -s "$out/$name.$vname.remarks" "$remarks"; then
			echo "[PASS] $name $vname"
			pass=$((pass + 1))
		else
			echo "[FAIL] $name $vname"
			diff -u "$expect" "$out/$name.$vname.cu" | head -n 40
			diff -u "$remarks" "$out/$name.$vname.remarks" | head -n 20
			fail=$((fail + 1))
		fi
	done
done
[ $update = 1 ] && { echo "goldens written; review them with: git diff golden/"; exit 0; }
echo "$pass passed, $fail failed"
[ $fail = 0 ]
