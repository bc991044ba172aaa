// mumupika-smem sgemm_smem, sgemm_smem_opt at tileSize 32 and 16 (bounds-checked).
// Built by bench/public/build.sh with every build of the file (OUTDIR/gen/mumupika-smem/builds.h);
// usage and output: bench/public/common/pub.h.
#include "../common/pub.h"
#include "builds.h"
PUB_BUILDS(PUB_DECLARE)
static const PubBuild builds[] = {PUB_BUILDS(PUB_ENTRY)};
int main(int argc, char **argv)
{
    const PubDims T{4096, 4096, 4096};
    std::vector<PubKernel> ks = {
        {"sgemm_smem", 0, PUB_F32, PUB_ROW, 1e-6, {{33, 65, 7}, {32, 32, 32}, {100, 130, 70}, {257, 511, 300}, {1000, 1000, 1000}, T}, T, {100, 130, 70}},
        {"sgemm_smem_opt/32", 1, PUB_F32, PUB_ROW, 1e-6, {{33, 65, 7}, {32, 32, 32}, {100, 130, 70}, {257, 511, 300}, {1000, 1000, 1000}, T}, T, {100, 130, 70}},
        {"sgemm_smem_opt/16", 2, PUB_F32, PUB_ROW, 1e-6, {{33, 65, 7}, {32, 32, 32}, {100, 130, 70}, {257, 511, 300}, {1000, 1000, 1000}, T}, T, {100, 130, 70}},
    };
    return pub_main(argc, argv, ks, builds, (int)(sizeof builds / sizeof *builds));
}
