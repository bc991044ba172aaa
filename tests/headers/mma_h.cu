// Parses with zero diagnostics: <mma.h> on CUDA 13 under libclang 19.
#include <mma.h>

__global__ void touch(float *out) { out[threadIdx.x] = 1.0f; }
