// A copy loop that loads four elements into a float4 local and stores them transposed (as
// public SGEMM kernels write it): register staging takes the local a trip at a time, and the
// remark says why cp.async does not (it once said the tile was "written from a computed
// value", then that pipefy read such a load only in the K-loop's own body).
#define BM 32
#define BK 16

__global__ void transposed(const float *A, const float *B, float *C, int K)
{
	__shared__ float As[BK * BM];
	__shared__ float Bs[BK * BM];
	const int row = threadIdx.x / (BK / 4), col = threadIdx.x % (BK / 4);
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += BK) {
		for (int off = 0; off + 16 <= BM; off += 16) {
			float4 tmp = reinterpret_cast<const float4 *>(&A[(blockIdx.y * BM + row + off) * K + k0 + col * 4])[0];
			As[(col * 4 + 0) * BM + row + off] = tmp.x;
			As[(col * 4 + 1) * BM + row + off] = tmp.y;
			As[(col * 4 + 2) * BM + row + off] = tmp.z;
			As[(col * 4 + 3) * BM + row + off] = tmp.w;
		}
		Bs[threadIdx.x] = B[(k0 + threadIdx.x / BM) * K + blockIdx.x * BM + threadIdx.x % BM];
		__syncthreads();
		for (int k = 0; k < BK; k++)
			acc += As[k * BM + threadIdx.x % BM] * Bs[k * BM + threadIdx.x % BM];
		__syncthreads();
	}
	C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
