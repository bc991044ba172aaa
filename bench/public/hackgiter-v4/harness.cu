// hackgiter-v4 mulMatrixKernelSV, V6, X, TV (column-major, square, multiples of 128).
// Built by bench/public/build.sh with every build of the file (OUTDIR/gen/hackgiter-v4/builds.h);
// usage and output: bench/public/common/pub.h.
#include "../common/pub.h"
#include "builds.h"
PUB_BUILDS(PUB_DECLARE)
static const PubBuild builds[] = {PUB_BUILDS(PUB_ENTRY)};
int main(int argc, char **argv)
{
    const PubDims T{4096, 4096, 4096};
    std::vector<PubKernel> ks = {
        {"mulMatrixKernelSV", 0, PUB_F32, PUB_COL, 1e-6, {{128, 128, 128}, {384, 384, 384}, {1024, 1024, 1024}, T}, T, {256, 256, 256}},
        {"mulMatrixKernelV6", 1, PUB_F32, PUB_COL, 1e-6, {{128, 128, 128}, {384, 384, 384}, {1024, 1024, 1024}, T}, T, {256, 256, 256}},
        {"mulMatrixKernelX", 2, PUB_F32, PUB_COL, 1e-6, {{128, 128, 128}, {384, 384, 384}, {1024, 1024, 1024}, T}, T, {256, 256, 256}},
        {"mulMatrixKernelTV", 3, PUB_F32, PUB_COL, 1e-6, {{128, 128, 128}, {384, 384, 384}, {1024, 1024, 1024}, T}, T, {256, 256, 256}},
    };
    return pub_main(argc, argv, ks, builds, (int)(sizeof builds / sizeof *builds));
}
