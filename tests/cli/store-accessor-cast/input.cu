// Vector accessors as llm.c writes them: the store goes through a cast of the pointer
// (`*reinterpret_cast<float4 *>(address) = val;`), which pipefy does not read as a store
// accessor; the remark names the call and the form pipefy reads (it once said only that no
// copy was recognized, with a reason that did not fit this helper).
__device__ float4 ld_vec(const float *address) { return *reinterpret_cast<const float4 *>(address); }
__device__ void st_vec(float *address, float4 val) { *reinterpret_cast<float4 *>(address) = val; }

__global__ void vec_tiles(const float *A, const float *B, float *C, int K)
{
	__shared__ float As[32][32];
	__shared__ float Bs[32][32];
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += 32) {
		__syncthreads();
		for (int y = threadIdx.y; y < 32; y += 8) {
			st_vec(&As[y][4 * threadIdx.x], ld_vec(A + (blockIdx.y * 32 + y) * K + k0 + 4 * threadIdx.x));
			st_vec(&Bs[y][4 * threadIdx.x], ld_vec(B + (k0 + y) * K + blockIdx.x * 32 + 4 * threadIdx.x));
		}
		__syncthreads();
		for (int k = 0; k < 32; k++)
			acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
	}
	C[(blockIdx.y * 32 + threadIdx.y) * K + blockIdx.x * 32 + threadIdx.x] = acc;
}
