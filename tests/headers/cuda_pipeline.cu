// Parses with zero diagnostics: <cuda/pipeline> on CUDA 13 under libclang 19.
#include <cuda/pipeline>

__global__ void touch(float *out) { out[threadIdx.x] = 1.0f; }
