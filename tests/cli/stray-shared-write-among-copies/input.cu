// A copy loop that, next to its copies, calls a function writing another shared array (a
// histogram of the loaded values): the loader would run the call a tile early, while the compute
// still reads the array. Left as written, naming the call (once pipelined by cp.async: the call
// went into the loader, a race on 'hist').
__device__ void count(int *h, float v) { h[v > 0.0f] += 1; }

__global__ void counted_tiles(const float *A, const float *B, float *C, int K)
{
	__shared__ float As[32][32];
	__shared__ float Bs[32][32];
	__shared__ int hist[32][2];
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += 32) {
		for (int y = threadIdx.y; y < 32; y += 8) {
			As[y][threadIdx.x] = A[(blockIdx.y * 32 + y) * K + k0 + threadIdx.x];
			count(hist[threadIdx.x], B[(k0 + y) * K + blockIdx.x * 32 + threadIdx.x]);
			Bs[y][threadIdx.x] = B[(k0 + y) * K + blockIdx.x * 32 + threadIdx.x];
		}
		__syncthreads();
		for (int k = 0; k < 32; k++)
			acc += As[threadIdx.y][k] * Bs[k][threadIdx.x] + hist[k][0];
		__syncthreads();
	}
	C[(blockIdx.y * 32 + threadIdx.y) * K + blockIdx.x * 32 + threadIdx.x] = acc;
}
