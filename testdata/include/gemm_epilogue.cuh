// gemm_epilogue.cuh: the epilogue tiled_gemm.cuh calls; includes it back (a cycle that
// #pragma once ends).
#pragma once
#include "tiled_gemm.cuh"

__device__ inline void store_result(float *C, int at, float value)
{
    C[at] = value;
}
