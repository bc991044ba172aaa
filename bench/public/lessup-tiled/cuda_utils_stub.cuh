// Stand-in for LessUp/sgemm-optimization's src/utils/cuda_utils.cuh (which CUDA 13 rejects:
// cudaDeviceProp::clockRate): its error-checking part, which tiled_sgemm.cuh's launcher uses.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

struct CudaError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

#define CUDA_CHECK(call)                                                                           \
    do {                                                                                           \
        cudaError_t err = call;                                                                    \
        if (err != cudaSuccess) {                                                                  \
            throw CudaError(std::string("CUDA error at ") + __FILE__ + ":" +                       \
                            std::to_string(__LINE__) + ": " + cudaGetErrorString(err));            \
        }                                                                                          \
    } while (0)
