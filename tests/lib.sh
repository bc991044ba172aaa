# shellcheck shell=bash
# lib.sh: what the shell-driven tests share: the checks (`expect`) of cli.sh, cache.sh,
# cmake.sh, make_rule.sh and editors.sh, and the nvcc helpers of nvcc.sh and gpu/build.sh.

# `expect NAME CONDITION`: CONDITION is one string of shell, evaluated; prints a PASS or FAIL
# line and counts it. Anything but exactly those two arguments is itself a FAIL, so the slip
# `expect NAME [ a ] && [ b ]` (which checked only [ a ] and threw [ b ] away) cannot pass.
# lib_selftest.sh shows it.
pass=0 fail=0
expect() {
	if [ $# -ne 2 ]; then
		echo "[FAIL] ${1:-?}: expect takes a name and one condition string, not $# arguments"
		fail=$((fail + 1))
		return 1
	fi
	if eval "$2"; then
		echo "[PASS] $1"
		pass=$((pass + 1))
	else
		echo "[FAIL] $1"
		fail=$((fail + 1))
		return 1
	fi
}
#
# A testdata program may say on its first lines:
#   // nvcc-args: -DX=1       flags its compile needs (pipefy's own are in pipefy-args)
#   // gpu-header: include/H.cuh
#                             its kernel lives in that header; its variants are the program
#                             built against golden/include/H.VARIANT.cuh

# The include folders and the program's own flags.
nvcc_args() { # PROGRAM
	echo "-I testdata -I testdata/include $(sed -n 's|^// nvcc-args: *||p' "$1" | head -n 1)"
}

# Lines "SOURCE VARIANT EXTRA_NVCC_ARGS" for the program and each golden variant of it. For a
# header kernel, each variant gets a copy of testdata/include with the pipelined header in it
# (a copy of the whole folder, so headers that include it back find the pipelined one).
program_variants() { # PROGRAM SCRATCH_DIR
	local f=$1 scratch=$2 name header g v
	name=$(basename "$f" .cu)
	echo "$f orig"
	header=$(sed -n 's|^// gpu-header: *||p' "$f" | head -n 1)
	if [ -n "$header" ]; then
		local stem=${header%.*} ext=${header##*.}
		for g in golden/"$stem".*."$ext"; do
			[ -f "$g" ] || continue
			v=${g#golden/"$stem".}; v=${v%."$ext"}
			mkdir -p "$scratch/$name.$v"
			cp testdata/include/* "$scratch/$name.$v/"
			cp "$g" "$scratch/$name.$v/$(basename "$header")"
			echo "$f $v -I$scratch/$name.$v"
		done
		return
	fi
	for g in golden/"$name".*.cu; do
		[ -f "$g" ] || continue
		v=${g#golden/"$name".}
		echo "$g ${v%.cu}"
	done
}

# Whether a forced variant's golden is byte for byte auto's (then building and running it
# again would show nothing new: nvcc.sh and cpu_model.sh skip it, saying so).
same_as_auto() { # FILE VARIANT
	[ "$2" != auto ] && [ "$2" != orig ] && [ "${1#golden/}" != "$1" ] &&
		cmp -s "$1" "${1%."$2".cu}.auto.cu"
}

# The remarks that promise a variant's K-loops: the program's, or its kernel header's.
promise_remarks() { # PROGRAM VARIANT
	local stem header
	stem=$(basename "$1" .cu)
	header=$(sed -n 's|^// gpu-header: *||p' "$1" | head -n 1)
	[ -n "$header" ] && stem=${header%.*}
	if [ "$2" = auto ]; then echo "golden/$stem.remarks"; else echo "golden/$stem.$2.remarks"; fi
}

# A producer-warp golden (ws, ws-cp.async) whose copy helpers (or cp.async copies) trap when a thread outside the producer
# warp (or warpgroup, on sm_90a),
# the block's last (the one ws adds: threads pipefy_threads and up), issues a copy: built and
# run, it shows that every copy the kernels issue comes from that warp (gpu/build.sh's
# NAME.ws-producer builds; the CPU model checks the same in its own runs).
producer_only_source() { # GOLDEN OUT
	local p=32 # (the producer's threads: a warpgroup on sm_90a, setmaxnreg)
	grep -q 'the block without its producer warpgroup' "$1" && p=128
	sed '/void pipefy_\(tma_load_2d\|bulk_load\)(/,/^{$/ s|^{$|{\
    if (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) + '$p' < blockDim.x * blockDim.y * blockDim.z)\
        __trap(); // (the GPU check: a copy issued outside the producer warp)|
	s|^\( *\)__pipeline_memcpy_async((char \*)&|\1if (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) + '$p' < blockDim.x * blockDim.y * blockDim.z)\
\1    __trap(); // (the GPU check: a copy issued outside the producer warp)\
&|' "$1" >"$2"
	[ "$(grep -c '__trap(); // (the GPU check' "$2")" -ge 1 ]
}
