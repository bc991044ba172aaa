#!/bin/bash
# bench/public/hackgiter/build.sh PIPEFY OUTDIR: HackGiter/CUDA-MULMATRIX's Header.cuh (from
# public/src, public/fetch.py) as written, as auto rewrites it (--arch=sm_90) and with ldg x1
# forced, each built with harness.cu into OUTDIR/h_{orig,auto,ldg1}, and OUTDIR/run.sh: each
# build at 2048 and 4096 (ROUNDS, default 3, alternated), then with SANITIZE=1
# compute-sanitizer memcheck and racecheck at 256. Session 36 built it; no GPU came to run it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
pipefy=$(realpath "$1")
out=$2
src=$here/../../../public/src/hackgiter-v4/MULMATRIX/V4/mulMatrixV4/mulMatrixV4
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
mkdir -p "$out"
for v in orig auto ldg1; do
	mkdir -p "$out/src_$v"
	cp "$src"/*.cuh "$out/src_$v/"
done
"$pipefy" --arch=sm_90 "$src/Header.cuh" -o "$out/src_auto/Header.cuh" 2>/dev/null
"$pipefy" --arch=sm_90 --variant=ldg --stages=1 "$src/Header.cuh" -o "$out/src_ldg1/Header.cuh" 2>/dev/null
for v in orig auto ldg1; do
	"$nvcc" -O3 -arch=sm_90 -std=c++17 -I"$out/src_$v" "$here/harness.cu" -o "$out/h_$v" -lcurand -lcublas
done
cat >"$out/run.sh" <<'RUN'
#!/bin/bash
cd "$(dirname "$0")"
for round in $(seq ${ROUNDS:-3}); do
  for n in 2048 4096; do
    for v in orig auto ldg1; do echo "round $round $v: $(./h_$v $n | tr '\n' ' ')"; done
  done
done
if [ "${SANITIZE:-0}" = 1 ]; then
  for v in orig auto ldg1; do
    for tool in memcheck racecheck; do
      echo "$v $tool: $(compute-sanitizer --tool $tool --error-exitcode 3 ./h_$v 256 >/dev/null 2>&1; echo rc=$?)"
    done
  done
fi
RUN
chmod +x "$out/run.sh"
echo "built $out/h_orig $out/h_auto $out/h_ldg1"
