// psmarter-ch06 TiledMatrixMulKernel and TiledMatrixMulKernelColMajor (B stored transposed; bounds-checked).
// Built by bench/public/build.sh with every build of the file (OUTDIR/gen/psmarter-ch06/builds.h);
// usage and output: bench/public/common/pub.h.
#include "../common/pub.h"
#include "builds.h"
PUB_BUILDS(PUB_DECLARE)
static const PubBuild builds[] = {PUB_BUILDS(PUB_ENTRY)};
int main(int argc, char **argv)
{
    const PubDims T{4096, 4096, 4096};
    std::vector<PubKernel> ks = {
        {"TiledMatrixMulKernel", 0, PUB_F32, PUB_ROW, 1e-6, {{33, 65, 7}, {32, 32, 32}, {100, 130, 70}, {257, 511, 300}, {1000, 1000, 1000}, T}, T, {100, 130, 70}},
        {"TiledMatrixMulKernelColMajor", 1, PUB_F32, PUB_ROW_BT, 1e-6, {{33, 65, 7}, {32, 32, 32}, {100, 130, 70}, {257, 511, 300}, {1000, 1000, 1000}, T}, T, {100, 130, 70}},
    };
    return pub_main(argc, argv, ks, builds, (int)(sizeof builds / sizeof *builds));
}
