// huang-compopt matmul_CompOpt<float> (no bounds checks: M, K multiples of 16, N of 64).
// Built by bench/public/build.sh with every build of the file (OUTDIR/gen/huang-compopt/builds.h);
// usage and output: bench/public/common/pub.h.
#include "../common/pub.h"
#include "builds.h"
PUB_BUILDS(PUB_DECLARE)
static const PubBuild builds[] = {PUB_BUILDS(PUB_ENTRY)};
int main(int argc, char **argv)
{
    const PubDims T{4096, 4096, 4096};
    std::vector<PubKernel> ks = {
        {"matmul_CompOpt<float>", 0, PUB_F32, PUB_ROW, 1e-6,
         {{16, 64, 16}, {48, 192, 80}, {256, 320, 496}, {1024, 1024, 1024}, T}, T, {48, 192, 80}},
    };
    return pub_main(argc, argv, ks, builds, (int)(sizeof builds / sizeof *builds));
}
