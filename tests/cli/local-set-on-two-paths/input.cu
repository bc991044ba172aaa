// A float4 local the body sets on two paths (one load, or a make_float4 of guarded scalar loads
// through a local array; wongzk's vectorized SGEMM) and whose parts are stored: the remark names
// where it is set (the build before said 'written from a computed value').
__global__ void k(const float *A, float *C, int M, int K)
{
    __shared__ float As[8][128];
    float acc = 0.f;
    int tid = threadIdx.x, r = tid / 2, c = (tid % 2) * 4;
    for (int t = 0; t < K; t += 8) {
        float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
        if (r < M && t + c + 3 < K) {
            v = *reinterpret_cast<const float4 *>(&A[r * K + t + c]);
        } else {
            float vals[4] = {0.f, 0.f, 0.f, 0.f};
            for (int i = 0; i < 4; ++i)
                if (r < M && t + c + i < K)
                    vals[i] = A[r * K + t + c + i];
            v = make_float4(vals[0], vals[1], vals[2], vals[3]);
        }
        As[c + 0][r] = v.x;
        As[c + 1][r] = v.y;
        As[c + 2][r] = v.z;
        As[c + 3][r] = v.w;
        __syncthreads();
        for (int k = 0; k < 8; ++k)
            acc += As[k][tid % 128];
        __syncthreads();
    }
    C[blockIdx.x * 256 + tid] = acc;
}
