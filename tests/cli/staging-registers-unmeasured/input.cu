// Register staging holds each thread's share of the next tile in registers through the
// compute. Without a measured register count (--ptxas), auto stages at most 16 registers a
// thread (rules/variants.json: public kernels on the H200 with 32 and 64 ran below the
// original). 'sixteen' stages 4 float4 a thread (16 registers) and is pipelined; 'thirty_two'
// would stage 8 (32 registers), so auto weighs cp.async, whose stages fall off the occupancy
// cliff here: left as written (--report names both); a template, counted as instantiated.
#define BM 64
#define BK 16

__global__ void sixteen(const float *A, const float *B, float *C, int K)
{
	__shared__ float4 As[BM * BK / 4];
	__shared__ float4 Bs[BM * BK / 4];
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += BK) {
		for (int i = 0; i < 2; ++i) {
			As[threadIdx.x + i * 128] = reinterpret_cast<const float4 *>(A)[(k0 + i) * 256 + threadIdx.x];
			Bs[threadIdx.x + i * 128] = reinterpret_cast<const float4 *>(B)[(k0 + i) * 256 + threadIdx.x];
		}
		__syncthreads();
		for (int k = 0; k < BK; k++)
			acc += As[k * 4 + threadIdx.x % 4].x * Bs[k * 4 + threadIdx.x % 4].y;
		__syncthreads();
	}
	C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void thirty_two(const float *A, const float *B, float *C, int K)
{
	__shared__ float4 As[2 * BM * BK / 4];
	__shared__ float4 Bs[2 * BM * BK / 4];
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += BK) {
		for (int i = 0; i < 4; ++i) {
			As[threadIdx.x + i * 128] = reinterpret_cast<const float4 *>(A)[(k0 + i) * 512 + threadIdx.x];
			Bs[threadIdx.x + i * 128] = reinterpret_cast<const float4 *>(B)[(k0 + i) * 512 + threadIdx.x];
		}
		__syncthreads();
		for (int k = 0; k < BK; k++)
			acc += As[k * 4 + threadIdx.x % 4].x * Bs[k * 4 + threadIdx.x % 4].y;
		__syncthreads();
	}
	C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int T>
__global__ void instantiated(const float *A, const float *B, float *C, int K)
{
	__shared__ float4 As[T * 128];
	__shared__ float4 Bs[T * 128];
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += BK) {
		for (int i = 0; i < T; ++i) {
			As[threadIdx.x + i * 128] = reinterpret_cast<const float4 *>(A)[(k0 + i) * 512 + threadIdx.x];
			Bs[threadIdx.x + i * 128] = reinterpret_cast<const float4 *>(B)[(k0 + i) * 512 + threadIdx.x];
		}
		__syncthreads();
		for (int k = 0; k < BK; k++)
			acc += As[k * 4 + threadIdx.x % 4].x * Bs[k * 4 + threadIdx.x % 4].y;
		__syncthreads();
	}
	C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

void run(const float *A, const float *B, float *C, int K)
{
	sixteen<<<64, 128>>>(A, B, C, K);
	thirty_two<<<64, 128>>>(A, B, C, K);
	instantiated<4><<<64, 128>>>(A, B, C, K);
}
