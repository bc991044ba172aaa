// shinham-tc-smem shared_mem_tensor_mat_mul_kernel (wmma tf32; no bounds checks: M, N multiples of 32, K of 8;
// the inputs are exact in tf32, so the host model is exact too).
// Built by bench/public/build.sh with every build of the file (OUTDIR/gen/shinham-tc-smem/builds.h);
// usage and output: bench/public/common/pub.h.
#include "../common/pub.h"
#include "builds.h"
PUB_BUILDS(PUB_DECLARE)
static const PubBuild builds[] = {PUB_BUILDS(PUB_ENTRY)};
int main(int argc, char **argv)
{
    const PubDims T{4096, 4096, 4096};
    std::vector<PubKernel> ks = {
        {"shared_mem_tensor_mat_mul_kernel", 0, PUB_F32, PUB_ROW, 1e-6,
         {{32, 32, 8}, {32, 64, 16}, {96, 160, 200}, {544, 480, 1000}, {2048, 1024, 1032}, T}, T, {96, 160, 200}},
    };
    return pub_main(argc, argv, ks, builds, (int)(sizeof builds / sizeof *builds));
}
