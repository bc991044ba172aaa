// A store accessor through a cast of the pointer to another type than its value's
// (`*reinterpret_cast<double *>(address) = val;` with a float val: it converts, then stores 8
// bytes): not read as a copy; the remark names the call and the forms pipefy reads. (llm.c's
// `*reinterpret_cast<float4 *>(address) = val;`, a float4 val, is read: sgemm_accessors.cu.)
__device__ float ld(const float *address) { return *address; }
__device__ void st_wide(float *address, float val) { *reinterpret_cast<double *>(address) = val; }

__global__ void wide_tiles(const float *A, const float *B, float *C, int K)
{
	__shared__ float As[32][64];
	__shared__ float Bs[32][32];
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += 32) {
		__syncthreads();
		for (int y = threadIdx.y; y < 32; y += 8) {
			st_wide(&As[y][2 * threadIdx.x], ld(A + (blockIdx.y * 32 + y) * K + k0 + threadIdx.x));
			Bs[y][threadIdx.x] = B[(k0 + y) * K + blockIdx.x * 32 + threadIdx.x];
		}
		__syncthreads();
		for (int k = 0; k < 32; k++)
			acc += As[threadIdx.y][2 * k] * Bs[k][threadIdx.x];
	}
	C[(blockIdx.y * 32 + threadIdx.y) * K + blockIdx.x * 32 + threadIdx.x] = acc;
}
