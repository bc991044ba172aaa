// pipefy: off-file -- this file is benchmarked as written
// `// pipefy: off-file` anywhere in a file leaves every loop of it as written, with a remark
// that says where the file asked for it.
#define TS 16

__global__ void left_alone(const float *A, const float *B, float *C, int K)
{
	__shared__ float As[TS][TS], Bs[TS][TS];
	float acc = 0.0f;
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

