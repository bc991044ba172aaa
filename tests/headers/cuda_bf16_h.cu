// Parses with zero diagnostics: <cuda_bf16.h> on CUDA 13 under libclang 19.
#include <cuda_bf16.h>

__global__ void touch(float *out) { out[threadIdx.x] = 1.0f; }
