// A CI gate (`--dry-run --Werror`) accepts a loop the source leaves as written on purpose:
// no error, exit status 0.
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

