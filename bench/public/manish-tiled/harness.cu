// manish-tiled matmul_tiled_kernel (square: size = M = N = K; bounds-checked).
// Built by bench/public/build.sh with every build of the file (OUTDIR/gen/manish-tiled/builds.h);
// usage and output: bench/public/common/pub.h.
#include "../common/pub.h"
#include "builds.h"
PUB_BUILDS(PUB_DECLARE)
static const PubBuild builds[] = {PUB_BUILDS(PUB_ENTRY)};
int main(int argc, char **argv)
{
    const PubDims T{4096, 4096, 4096};
    std::vector<PubKernel> ks = {
        {"matmul_tiled_kernel", 0, PUB_F32, PUB_ROW, 1e-6,
         {{7, 7, 7}, {16, 16, 16}, {100, 100, 100}, {257, 257, 257}, {1000, 1000, 1000}, T}, T, {100, 100, 100}},
    };
    return pub_main(argc, argv, ks, builds, (int)(sizeof builds / sizeof *builds));
}
