// Parses with zero diagnostics: <cooperative_groups.h> on CUDA 13 under libclang 19.
#include <cooperative_groups.h>

__global__ void touch(float *out) { out[threadIdx.x] = 1.0f; }
