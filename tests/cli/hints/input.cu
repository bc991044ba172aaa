// Hints in the source, as clang-format's `// clang-format off`: a loop left as written on
// purpose, a plan asked for, a hint pipefy cannot read, and a loop without one.
#define TS 16

__global__ void left_alone(const float *A, const float *B, float *C, int K)
{
	__shared__ float As[TS][TS], Bs[TS][TS];
	float acc = 0.0f;
	// pipefy: off (measured slower with a second stage on our GPU)
	for (int t = 0; t < K / TS; t++) {
		As[threadIdx.y][threadIdx.x] = A[threadIdx.y * K + t * TS + threadIdx.x];
		Bs[threadIdx.y][threadIdx.x] = B[(t * TS + threadIdx.y) * K + threadIdx.x];
		__syncthreads();
		for (int k = 0; k < TS; k++)
			acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
		__syncthreads();
	}
	C[threadIdx.y * K + threadIdx.x] = acc;
}

__global__ void asked_for(const float *A, const float *B, float *C, int K)
{
	__shared__ float As[TS][TS], Bs[TS][TS];
	float acc = 0.0f;
	// pipefy: variant=ldg stages=1
	#pragma unroll 1
	for (int t = 0; t < K / TS; t++) {
		As[threadIdx.y][threadIdx.x] = A[threadIdx.y * K + t * TS + threadIdx.x];
		Bs[threadIdx.y][threadIdx.x] = B[(t * TS + threadIdx.y) * K + threadIdx.x];
		__syncthreads();
		for (int k = 0; k < TS; k++)
			acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
		__syncthreads();
	}
	C[threadIdx.y * K + threadIdx.x] = acc;
}

__global__ void unreadable(const float *A, const float *B, float *C, int K)
{
	__shared__ float As[TS][TS], Bs[TS][TS];
	float acc = 0.0f;
	for (int t = 0; t < K / TS; t++) { // pipefy: variant=fast
		As[threadIdx.y][threadIdx.x] = A[threadIdx.y * K + t * TS + threadIdx.x];
		Bs[threadIdx.y][threadIdx.x] = B[(t * TS + threadIdx.y) * K + threadIdx.x];
		__syncthreads();
		for (int k = 0; k < TS; k++)
			acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
		__syncthreads();
	}
	C[threadIdx.y * K + threadIdx.x] = acc;
}

__global__ void unmarked(const float *A, const float *B, float *C, int K)
{
	__shared__ float As[TS][TS], Bs[TS][TS];
	float acc = 0.0f;
	// pipefy: prose like the comments pipefy writes is not a hint
	for (int t = 0; t < K / TS; t++) {
		As[threadIdx.y][threadIdx.x] = A[threadIdx.y * K + t * TS + threadIdx.x];
		Bs[threadIdx.y][threadIdx.x] = B[(t * TS + threadIdx.y) * K + threadIdx.x];
		__syncthreads();
		for (int k = 0; k < TS; k++)
			acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
		__syncthreads();
	}
	C[threadIdx.y * K + threadIdx.x] = acc;
}
