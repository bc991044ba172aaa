// A loop already pipelined by hand (octomul's shape): the copies are issued by lambdas the loop
// calls, `__pipeline_memcpy_async` inside them, the loop commits and waits itself. pipefy leaves
// it, saying its copies are asynchronous already (it once said that no tile is filled from
// global memory, which is not true).
#include <cuda_pipeline.h>
#define TS 16
#define STAGES 2

__global__ void lambda_copies(const int4 *A, const int4 *B, int *C, int K)
{
    __shared__ int4 As[STAGES][TS][TS], Bs[STAGES][TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    auto load_a = [&](int s, int k) { __pipeline_memcpy_async(&As[s][ty][tx], &A[ty * K + k + tx], sizeof(int4)); };
    auto load_b = [&](int s, int k) { __pipeline_memcpy_async(&Bs[s][ty][tx], &B[(k + ty) * TS + tx], sizeof(int4)); };
    int acc = 0;
    for (int k = 0; k < K; k += TS * STAGES) {
        for (int s = 0; s < STAGES; s++) {
            load_a(s, k + s * TS);
            load_b(s, k + s * TS);
            __pipeline_commit();
        }
        __pipeline_wait_prior(0);
        __syncthreads();
        for (int s = 0; s < STAGES; s++)
            for (int i = 0; i < TS; ++i)
                acc += As[s][ty][i].x * Bs[s][i][tx].x;
        __syncthreads();
    }
    C[ty * TS + tx] = acc;
}
