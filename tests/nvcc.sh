#!/bin/bash
# nvcc.sh: a testdata program and every golden made from it, each compiled once with nvcc for
# sm_80 (compile only; `make gpu-check` builds sm_80 and sm_90 and runs them; sm_90 here took
# one program's test from 2.4 s to 4.0 s and said nothing sm_80 did not), and from that compile:
#   - no register spills (ptxas -v; the registers and shared memory it reports are printed);
#   - the overlap its remarks promise, on the sm_80 PTX: pipefy-verify-sass finds exactly the
#     K-loops reported pipelined (async copies or global loads in flight during the compute, no
#     barrier between), and none in the original, which pipefy has not touched;
#   - the invariant users rely on: nvcc compiles the input, so pipefy exits 0 on it (run here).
# Exit 77 (skipped) without nvcc.
#   tests/nvcc.sh PIPEFY VERIFIER testdata/NAME.cu
set -u
cd "$(dirname "$0")/.." || exit
. tests/lib.sh
pipefy=$1 verify=$2 prog=$3
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || { echo "no nvcc at $nvcc: skipped"; exit 77; }
name=$(basename "$prog" .cu)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
while read -r f v extra; do
	same_as_auto "$f" "$v" && { echo "[SKIP] $f ($v): the same file as auto's golden"; continue; }
	mkdir -p "$tmp/$v"
	# the original whole; a golden's device code only (-fatbin: pipefy leaves host code as it
	# is, so the original's compile covers it, and skipping it halves the time)
	what=(-c -o "$tmp/$v/x.o")
	[ "$v" = orig ] || what=(-fatbin -o "$tmp/$v/x.fatbin")
	# tensor and bulk copies are sm_90's (below it the launcher, or the kernel, runs the loop as
	# written)
	sm=80
	[ "$v" != orig ] && grep -q -E 'K-loop pipelined: (tma|bulk|ws)|launch overlapped' "$(promise_remarks "$prog" "$v")" && sm=90
	# a producer warpgroup's hand-over of registers (setmaxnreg) is sm_90a's
	handover=0
	[ "$v" != orig ] && grep -q 'pipefy_regs_inc<' "$f" && sm=90a handover=1
	# shellcheck disable=SC2046,SC2086
	"$nvcc" "${what[@]}" -std=c++17 -Xptxas -v $extra $(nvcc_args "$prog") -gencode arch=compute_$sm,code=sm_$sm \
		-keep -keep-dir "$tmp/$v" "$f" 2>"$tmp/log"
	rc=$?
	if ! expect "$f ($v) compiles" '[ $rc = 0 ]'; then
		grep -v '^ptxas info' "$tmp/log" | head -n 20
		continue
	fi
	# per kernel and architecture: "Compiling entry function 'X' for 'sm_90'", then its numbers
	awk '/Compiling entry function/ { fn = $7; arch = $9 }
	     /Used [0-9]+ registers/ { sub(/.*Used /, ""); print "    " arch " " fn ": " $0 }' "$tmp/log"
	if [ $handover = 1 ]; then
		# the split is fixed (__launch_bounds__ and setmaxnreg's counts): ptxas may spill a few
		# bytes where a region needs more than its count (4-48 bytes seen, the producer's copy
		# code or the code before the split), but the kernel's threads keep what they need
		# (built without the hand-over, for sm_90, the same kernels spill 88-140 bytes)
		most=$(grep -o -E '[0-9]+ bytes spill (stores|loads)' "$tmp/log" | sort -n | tail -n 1 | cut -d' ' -f1)
		expect "$f ($v) spills at most 64 bytes (${most:-0})" '[ "${most:-0}" -le 64 ]'
	else
		expect "$f ($v) spills no registers" '! grep -q -E "[1-9][0-9]* bytes spill (stores|loads)" "$tmp/log"' ||
			grep -E 'spill' "$tmp/log" | sort -u
	fi
	ptx=$(ls "$tmp/$v"/*.ptx 2>/dev/null | head -n 1) # (the one target)
	if [ "$v" = orig ] && grep -q -E "already pipelined|asynchronous already" "$(promise_remarks "$prog" auto)"; then
		continue # its own pipeline: nothing for pipefy to promise about it
	elif [ "$v" = orig ]; then
		kinds="--expect cp.async=0 --expect ldg=0"
	else
		# (`// ptx-instances: N`: each kernel is in the PTX N times, once per instantiation)
		kinds=$(tests/expected_kinds.sh "$(promise_remarks "$prog" "$v")" \
			"$(sed -n 's|^// ptx-instances: *||p' "$prog" | head -n 1)")
	fi
	# shellcheck disable=SC2086
	"$verify" $kinds "$ptx" >"$tmp/verify" 2>&1
	rc=$?
	expect "$f ($v) overlaps as promised ($kinds)" '[ -n "$ptx" ] && [ $rc = 0 ]' || sed "s|$tmp/||" "$tmp/verify"
	# each kernel a remark says may start before the one ahead of it ends waits for it in its PTX
	# (griddepcontrol.wait, compiled in for sm_90 only)
	[ "$v" = orig ] && continue
	for k in $(sed -n "s/.*launch overlapped with .* before it: '\([A-Za-z_0-9]*\)' may start.*/\1/p" \
		"$(promise_remarks "$prog" "$v")" | sort -u); do
		# (the entry's name mangled, or as written: extern "C")
		waits=$(awk -v k="_Z${#k}$k" -v c=" $k(" '/\.entry/ { e = index($0, k) > 0 || index($0, c) > 0 }
			e && /griddepcontrol\.wait/ { n++ } END { print n + 0 }' "$ptx")
		expect "$f ($v): '$k' waits for the kernel ahead of it in its sm_90 PTX" '[ "$waits" -ge 1 ]'
	done
done < <(program_variants "$prog" "$tmp")
args=$(sed -n 's|^// pipefy-args: *||p' "$prog" | head -n 1)
# shellcheck disable=SC2086
"$pipefy" -q $args "$prog" >/dev/null 2>"$tmp/pipefy.err"
rc=$?
expect "nvcc compiles it and pipefy exits 0 on it" '[ $rc = 0 ]' || head -n 5 "$tmp/pipefy.err"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
