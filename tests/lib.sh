# shellcheck shell=bash
# lib.sh: what the shell-driven tests share: the checks (`expect`) of cli.sh, cache.sh,
# cmake.sh, make_rule.sh and editors.sh, and the nvcc helpers of nvcc.sh and gpu/build.sh.

# The variants there are, from `pipefy --list-variants` (name, oldest architecture, stages,
# family): `variant_family[NAME]=FAMILY`, and `variant_args[NAME]` the arguments that force it,
# --variant=NAME and --arch=sm_XX where it needs sm_80 or later (the tensor copies: sm_90).
declare -A variant_family variant_args
read_variants() { # PIPEFY
	local name arch stages family
	variant_names=()
	while IFS=$'\t' read -r name arch stages family; do
		variant_names+=("$name")
		variant_family[$name]=$family
		variant_args[$name]="--variant=$name"
		[[ $arch == sm_* ]] && [ "${arch#sm_}" -ge 80 ] && variant_args[$name]+=" --arch=$arch"
	done < <("$1" --list-variants)
	[ ${#variant_names[@]} -gt 0 ]
}

# The goldens that are not one of those variants (tests/golden.sh makes them, cli.sh runs pipefy
# again on them): `golden_extra_args[NAME]` the arguments that make golden/PROGRAM.NAME.cu. Those
# in golden_extra_every are made for every program; the others, as the tensor family's variants
# are, only for a program that names them on its first lines (`// pipefy-golden: ws-sm90a queue`).
# (--ptxas: registers read from nvcc, which the plan, and the output, depend on)
declare -A golden_extra_args=(
	[cp.async-3]="--variant=cp.async --stages=3"
	[ws-sm90a]="--variant=ws --arch=sm_90a --ptxas"
	[ws-cp.async-sm90a]="--variant=ws-cp.async --arch=sm_90a --ptxas"
	[overlap]="--launches=overlap --arch=sm_90"
	[queue]="--launches=queue"
)
golden_extra_every=(cp.async-3)

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

# ---- the CPU block model (tests/cpu): what cpu_model.sh and gen/check.sh share ----
# The model's harness precompiled once per test (g++ takes a precompiled header only with the
# flags it was made with, so each is made with the builds' own): DIR/pch for programs of plain
# types, DIR/pch-half for those of half and bfloat16 (-DPIPEFY_CPU_HALF: their headers double
# a build's time). tests/cpu/harness.cuh is copied with testdata's harness named by its path:
# #include_next and a precompiled header do not mix.
cpu_pch() { # DIR OPT [SOURCE: only the header SOURCE builds against]
	local dir=$1 opt=$2 cuda_inc=${CUDA_HOME:-/usr/local/cuda}/include want=both
	[ -n "${3:-}" ] && { if grep -q -E 'half|bfloat16' "$3"; then want=half; else want=plain; fi; }
	mkdir -p "$dir/pch"
	cp tests/cpu/*.h "$dir/pch/"
	cp -r tests/cpu/cuda "$dir/pch/" # (<cuda/pipeline>)
	sed "s|#include_next \"harness.cuh\"|#include \"$PWD/testdata/harness.cuh\"|" tests/cpu/harness.cuh >"$dir/pch/harness.cuh"
	cp -r "$dir/pch" "$dir/pch-half"
	if [ $want != half ]; then
		"${CXX:-g++}" -std=c++17 "$opt" -w -x c++-header -I "$dir/pch" -I "$cuda_inc" "$dir/pch/harness.cuh" \
			-o "$dir/pch/harness.cuh.gch" || return 1
	fi
	if [ $want != plain ]; then
		"${CXX:-g++}" -std=c++17 "$opt" -w -x c++-header -DPIPEFY_CPU_HALF -I "$dir/pch-half" -I "$cuda_inc" \
			"$dir/pch-half/harness.cuh" -o "$dir/pch-half/harness.cuh.gch" || return 1
	fi
}

# The flags that build SOURCE against cpu_pch DIR's header.
cpu_pch_flags() { # DIR SOURCE
	if grep -q -E 'half|bfloat16' "$2"; then echo "-DPIPEFY_CPU_HALF -I $1/pch-half"; else echo "-I $1/pch"; fi
}

# The original and its rewrites in one binary (to_cpu.py --together), each at every size in
# both orders: sums[PROGRAM|SIZES|ORDER] (the caller's `declare -A sums`) is the checksum of
# that run, or why there is none (PROGRAM: 0 for the first source, then the others in order).
# A run cut short (a crash, exit(3) from the model, the timeout) says so, and the runs after
# it in the same binary say "did not run".
run_together() { # PCH_DIR OPT TIMEOUT EXTRA_FLAGS SIZES(|-separated) SOURCE...
	local pchdir=$1 opt=$2 limit=$3 extra=$4 runs=$5 out rc run='' body='' line p s o
	shift 5
	for ((p = 0; p < $#; p++)); do
		while IFS= read -r s; do for o in forward reverse; do sums[$p|$s|$o]="did not run"; done; done <<<"${runs//|/$'\n'}"
	done
	# shellcheck disable=SC2046,SC2086
	python3 tests/cpu/to_cpu.py --together "$pchdir/all.cpp" "$@" &&
		"${CXX:-g++}" -std=c++17 "$opt" -w -Wno-psabi -x c++ $(cpu_pch_flags "$pchdir" "$1") \
			-I "${CUDA_HOME:-/usr/local/cuda}/include" -I testdata -I testdata/include $extra \
			-o "$pchdir/all" "$pchdir/all.cpp" || return 1
	out=$(PIPEFY_CPU_RUNS="$runs" PIPEFY_CPU_ORDERS="forward reverse" timeout "$limit" "$pchdir/all" 2>&1)
	rc=$?
	while IFS= read -r line; do
		if [[ $line == '== rc '* ]]; then
			if [ "${line#== rc }" != 0 ]; then
				sums[$run]="exit ${line#== rc }: ${body%$'\n'}"
			elif [[ $body == *': FAIL'* ]]; then
				sums[$run]=$(grep -m 1 ': FAIL' <<<"$body")
			elif [[ $body != *': PASS'* ]]; then
				sums[$run]="no PASS: ${body%%$'\n'*}"
			else # (every checksum the run printed: a program may check several outputs)
				sums[$run]=$(sed -n 's/^checksum //p' <<<"$body" | tr '\n' ' ' | sed 's/ $//')
				[ -n "${sums[$run]}" ] || sums[$run]="no checksum"
			fi
			body=''
		elif [[ $line == '== '* ]]; then
			line=${line#== }
			p=${line%% *} line=${line#* }
			run="$p|${line% *}|${line##* }" body=''
		else
			body+=$line$'\n'
		fi
	done <<<"$out"
	[ -n "$body" ] && sums[$run]="exit $rc: ${body%$'\n'}"
	return 0
}
