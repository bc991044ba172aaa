#!/bin/bash
# bench/public/build.sh PIPEFY OUTDIR: the benchmark of the public kernels pipefy pipelines
# (bench/public/kernels.tsv; their files from public/src, which public/fetch.py fills).
#
# Per repository file (a "probe"): the original, and pipefy's rewrites with --arch=sm_90:
#   auto (no other option), ldg1 (--variant=ldg --stages=1), ldg2 (--variant=ldg --stages=2),
#   cp2 / cp3 / cp4 (--variant=cp.async --stages=2 / 3 / 4),
# run as public/tally.sh runs it (from public/src/<probe>/, public/args after --). Each
# remark goes to OUTDIR/REMARKS.txt. A rewrite byte-identical to the original (refused) or
# to an earlier build is not built again. Each remaining build is a copy of the probe's tree
# with the file replaced (OUTDIR/src/<probe>/<build>/), compiled from
# bench/public/<probe>/wrap.cu into a namespace of its own (nvcc -O3 -arch=sm_90 -std=c++17,
# ptxas -v in OUTDIR/ptxas/), and linked with bench/public/<probe>/harness.cu into one binary
# per probe, OUTDIR/bin/<probe> (usage: bench/public/common/pub.h).
#
# Per kernel entry, OUTDIR/plans.tsv (probe, kernel, build, status, plan, remark) says what
# each build did to that kernel: "time" (a new kernel body: timed), "=X" (the same kernel body
# as build X, text for text but for // comments: not timed again), "left" (auto left the K-loop as written) or
# "refused" (the forced variant left it as written), "failed" (pipefy's exit status not 0).
# OUTDIR/kernels.txt (probe, kernel, builds to time) drives OUTDIR/run.sh (a copy of
# bench/public/run.sh), which runs everything on the GPU machine; bench/public/report.sh
# OUTDIR tabulates its output.
#
# Environment: JOBS (parallel nvcc jobs, default 2, each under nice), NVCC (default
# /usr/local/cuda/bin/nvcc), PROBES ("p1 p2": only those), PIPEFY_CACHE_DIR (default
# /tmp/pipefy-cache-pub), KEEP_OBJ=1 (keep OUTDIR/obj).
set -eu
[ $# -eq 2 ] || { echo "usage: $0 PIPEFY OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
pipefy=$(realpath "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
jobs=${JOBS:-2}
export PIPEFY_CACHE_DIR=${PIPEFY_CACHE_DIR:-/tmp/pipefy-cache-pub}
mkdir -p "$PIPEFY_CACHE_DIR"
src=$root/public/src
nvflags="-O3 -arch=sm_90 -std=c++17"

# probe | the file pipefy rewrites | nvcc -I folders of the probe's tree (wrap.cu's includes)
probes_table='
manish-tiled|examples/043_tiled-matrix-multiply/main.cu|include
huang-compopt|matmul_CompOpt.cu|
mumupika-smem|src/kernels.cu|include
psmarter-ch06|Exercises/Chapter06/Exercise01/solution.cu|Common Exercises/Chapter06/Exercise01
lessup-tiled|src/kernels/tiled_sgemm.cuh|src/utils
nguyen-int8|int8mm_kernel.cu|
shinham-tc-smem|CUDA_matmul_opt/src/11_gemm_tc_shared_memory.cu|CUDA_matmul_opt/include
hackgiter-v4|MULMATRIX/V4/mulMatrixV4/mulMatrixV4/Header.cuh|MULMATRIX/V4/mulMatrixV4/mulMatrixV4
'
variants=("auto:" "ldg1:--variant=ldg --stages=1" "ldg2:--variant=ldg --stages=2"
	"cp2:--variant=cp.async --stages=2" "cp3:--variant=cp.async --stages=3"
	"cp4:--variant=cp.async --stages=4")

rm -rf "$out/src" "$out/gen" "$out/obj" "$out/bin" "$out/remarks" "$out/ptxas"
mkdir -p "$out/src" "$out/gen" "$out/obj" "$out/bin" "$out/remarks" "$out/ptxas"
: >"$out/REMARKS.txt"
printf 'probe\tkernel\tbuild\tstatus\tplan\tremark\n' >"$out/plans.tsv"
: >"$out/kernels.txt"
: >"$out/.jobs"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "pipefy: $pipefy ($("$pipefy" --version 2>&1 | head -n 1); md5 $(md5sum <"$pipefy" | cut -c1-12))"
	echo "repository HEAD when built: $(git -C "$root" rev-parse --short HEAD 2>/dev/null)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (tree has uncommitted changes)')"
	echo "nvcc: $("$nvcc" --version | tail -n 1)"
	echo "flags: $nvflags"
} >"$out/build-info.txt"

func_text() { # FILE FUNCTION: the kernel's definition, from its __global__ line to the first '}' in column 0
	awk -v f="$2(" 'index($0, "__global__") && index($0, f) && $0 !~ /;[[:space:]]*$/ { on = 1 }
		on { print } on && /^}/ { exit }' "$1"
}
func_hash() { # FILE FUNCTION: a hash of the kernel's definition, its // comments left out (the
	# rewrites' comments say why a plan was chosen, so one plan's code, chosen or forced, can
	# differ in them alone)
	func_text "$1" "$2" | sed 's://.*$::; s/[[:space:]]*$//' | grep -v '^$' | md5sum | cut -c1-32
}

while IFS='|' read -r probe file incdirs; do
	[ -n "$probe" ] || continue
	if [ -n "${PROBES:-}" ] && [[ " $PROBES " != *" $probe "* ]]; then continue; fi
	[ -f "$src/$probe/$file" ] || { echo "missing $src/$probe/$file (run public/fetch.py)" >&2; exit 1; }
	args=$(awk -v p="$probe" '$1 == p { $1 = ""; print }' "$root/public/args")
	pdir=$out/src/$probe
	mkdir -p "$pdir"
	tree() { # BUILD: the probe's tree for BUILD, the file as written
		cp -r "$src/$probe" "$pdir/$1"
		if [ "$probe" = lessup-tiled ]; then cp "$here/lessup-tiled/cuda_utils_stub.cuh" "$pdir/$1/src/utils/cuda_utils.cuh"; fi
	}
	tree orig
	kept=(orig)
	declare -A holder=([orig]=orig)
	{
		echo "== $probe: $file (extra clang args: ${args:-none})"
	} >>"$out/REMARKS.txt"
	for v in "${variants[@]}"; do
		name=${v%%:*} opts=${v#*:}
		rem=$out/remarks/$probe.$name.txt
		rc=0
		# shellcheck disable=SC2086
		(cd "$src/$probe" && nice "$pipefy" --arch=sm_90 $opts "$file" -o "$pdir/.$name.out" -- $args) 2>"$rem" || rc=$?
		{
			echo "-- $name: pipefy --arch=sm_90 $opts $file -- $args (exit $rc)"
			grep 'remark:\|error:' "$rem" | sed 's/^/   /' || true
		} >>"$out/REMARKS.txt"
		if [ $rc -ne 0 ] || [ ! -f "$pdir/.$name.out" ]; then
			holder[$name]=failed
			echo "   => pipefy failed: no build" >>"$out/REMARKS.txt"
			continue
		fi
		same=
		for k in "${kept[@]}"; do
			if cmp -s "$pdir/.$name.out" "$pdir/$k/$file"; then same=$k; break; fi
		done
		if [ "$same" = orig ]; then
			holder[$name]=orig
			echo "   => identical to the original (nothing rewritten): not built" >>"$out/REMARKS.txt"
		elif [ -n "$same" ]; then
			holder[$name]=$same
			echo "   => byte-identical to $same: not built again" >>"$out/REMARKS.txt"
		else
			tree "$name"
			cp "$pdir/.$name.out" "$pdir/$name/$file"
			holder[$name]=$name
			kept+=("$name")
			echo "   => built as $name" >>"$out/REMARKS.txt"
		fi
		rm -f "$pdir/.$name.out"
	done

	# per kernel entry: what each build did to it
	while IFS=$'\t' read -r kp kernel func line; do
		[ "$kp" = "$probe" ] || continue
		declare -A khash=()
		khash[orig]=$(func_hash "$pdir/orig/$file" "$func")
		[ "$(func_text "$pdir/orig/$file" "$func" | wc -l)" -gt 2 ] || { echo "no kernel $func in $file" >&2; exit 1; }
		timed=(orig)
		for v in "${variants[@]}"; do
			name=${v%%:*}
			remark=$(grep -h ":$line:[0-9]*: remark:" "$out/remarks/$probe.$name.txt" | head -n 1 | sed 's/.*remark: //; s/ \[pipefy[^]]*\]$//')
			plan=$(echo "$remark" | sed -n 's/^K-loop pipelined: \([a-z.]*\), \([0-9]*\) stages*.*/\1 x\2/p')
			[ -n "$plan" ] || plan="as written"
			h=${holder[$name]}
			if [ "$h" = failed ]; then
				status=failed
			else
				hash=$(func_hash "$pdir/$h/$file" "$func")
				status=
				if [ "$hash" = "${khash[orig]}" ]; then
					[ "$name" = auto ] && status=left || status=refused
				else
					for t in "${timed[@]}"; do
						if [ "${khash[$t]}" = "$hash" ]; then status="=$t"; break; fi
					done
					if [ -z "$status" ]; then
						status=time
						timed+=("$name")
						khash[$name]=$hash
					fi
				fi
			fi
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$probe" "$kernel" "$name" "$status" "$plan" "$remark" >>"$out/plans.tsv"
		done
		printf '%s\t%s\t%s\n' "$probe" "$kernel" "$(IFS=,; echo "${timed[*]}")" >>"$out/kernels.txt"
		awk -F'\t' -v p="$probe" -v k="$kernel" '$1 == p && $2 == k { s = s sprintf("%s%s: %s (%s)", s == "" ? "" : "; ", $3, $5, $4) }
			END { print "   kernel " k ": " s }' "$out/plans.tsv" >>"$out/REMARKS.txt"
		unset khash
	done < <(grep -v '^#' "$here/kernels.tsv")
	unset holder
	echo >>"$out/REMARKS.txt"

	# the builds this probe's binary links, and their compile jobs
	mkdir -p "$out/gen/$probe" "$out/obj/$probe"
	{
		echo "// written by bench/public/build.sh: the builds of $probe, the original first"
		printf '#define PUB_BUILDS(X)'
		for k in "${kept[@]}"; do printf ' X(%s)' "$k"; done
		echo
	} >"$out/gen/$probe/builds.h"
	for k in "${kept[@]}"; do
		inc=()
		for d in $incdirs; do inc+=("-I$pdir/$k/$d"); done
		printf '%s\0' "$probe" "$k" "$file" "${inc[*]:-}" >>"$out/.jobs"
	done
done <<<"$probes_table"

compile() { # PROBE BUILD FILE INCS
	# shellcheck disable=SC2086
	nice "$nvcc" $nvflags -Xptxas -v -DPUB_NS="b_$2" "-DPUB_SRC=\"$out/src/$1/$2/$3\"" $4 \
		-c "$here/$1/wrap.cu" -o "$out/obj/$1/$2.o" >"$out/ptxas/$1.$2.txt" 2>&1 ||
		{ echo "FAILED: nvcc $1 $2 (log: $out/ptxas/$1.$2.txt)" >&2; tail -n 30 "$out/ptxas/$1.$2.txt" >&2; return 1; }
	echo "compiled $1 $2"
}
link() { # PROBE
	local objs=() b
	for b in $(grep -o 'X([a-z0-9]*)' "$out/gen/$1/builds.h" | sed 's/X(\(.*\))/\1/'); do
		objs+=("$out/obj/$1/$b.o")
	done
	# shellcheck disable=SC2086
	nice "$nvcc" $nvflags -I"$out/gen/$1" "$here/$1/harness.cu" "${objs[@]}" -o "$out/bin/$1" \
		-lcublas -lcurand >"$out/ptxas/$1.harness.txt" 2>&1 ||
		{ echo "FAILED: link $1 (log: $out/ptxas/$1.harness.txt)" >&2; tail -n 30 "$out/ptxas/$1.harness.txt" >&2; return 1; }
	echo "linked $1"
}
export -f compile link
export out here nvcc nvflags
xargs -0 -n 4 -P "$jobs" bash -c 'compile "$@"' _ <"$out/.jobs"
for d in "$out/gen"/*/; do printf '%s\0' "$(basename "$d")"; done |
	xargs -0 -n 1 -P "$jobs" bash -c 'link "$1"' _

rm -f "$out/.jobs"
[ "${KEEP_OBJ:-0}" = 1 ] || rm -rf "$out/obj"
cp "$here/run.sh" "$out/run.sh"
cp "$here/report.sh" "$out/report.sh"
chmod +x "$out/run.sh" "$out/report.sh"
echo "built $(ls "$out/bin" | wc -l) binaries in $out/bin ($(du -sh "$out" | cut -f1)); builds to time: $(awk -F'\t' '{ n += split($3, a, ",") } END { print n }' "$out/kernels.txt") over $(wc -l <"$out/kernels.txt") kernels"
