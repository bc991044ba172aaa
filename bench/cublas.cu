// cublas.cu: cuBLAS computing what the bench kernels compute, row-major C = A * B (M x K times
// K x N), for the speed column of bench/RESULTS.md. Usage: cublas KIND M N K, KIND one of
// hgemm (fp16 in, fp32 out), igemm (int8 in, int32 out), sgemm, bf16 (bf16 in, fp32 out).
// Row-major C = A*B is column-major C^T = B^T * A^T: cuBLAS gets (B, A) with n and m swapped.
#include "harness.cuh"
#include <cublas_v2.h>

#define CUBLAS(call)                                                                         \
    do {                                                                                     \
        cublasStatus_t st_ = (call);                                                         \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                                  \
            fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, (int)st_); \
            exit(2);                                                                         \
        }                                                                                    \
    } while (0)

template <typename TIn, typename TOut>
static int run(const char *name, int M, int N, int K, cudaDataType in_type, cudaDataType out_type,
               cublasComputeType_t compute)
{
    cublasHandle_t handle;
    CUBLAS(cublasCreate(&handle));
    int rc = harness_gemm<TIn, TOut>(name, M, N, K, [&](const TIn *A, const TIn *B, TOut *C) {
        float alpha_f = 1.0f, beta_f = 0.0f;
        int alpha_i = 1, beta_i = 0;
        const void *alpha = compute == CUBLAS_COMPUTE_32I ? (const void *)&alpha_i : (const void *)&alpha_f;
        const void *beta = compute == CUBLAS_COMPUTE_32I ? (const void *)&beta_i : (const void *)&beta_f;
        CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, alpha, B, in_type, N, A, in_type, K, beta, C,
                            out_type, N, compute, CUBLAS_GEMM_DEFAULT));
    }, compute == CUBLAS_COMPUTE_32I ? 0 : 1e-2, 1e-2);
    CUBLAS(cublasDestroy(handle));
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cublas hgemm|igemm|sgemm|bf16 [M N K]\n");
        return 2;
    }
    int sz[3] = {256, 256, 256};
    harness_sizes(argc - 1, argv + 1, sz, 3);
    int M = sz[0], N = sz[1], K = sz[2];
    if (strcmp(argv[1], "hgemm") == 0)
        return run<half, float>("cublas_hgemm", M, N, K, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F);
    if (strcmp(argv[1], "bf16") == 0)
        return run<__nv_bfloat16, float>("cublas_bf16", M, N, K, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F);
    if (strcmp(argv[1], "sgemm") == 0)
        return run<float, float>("cublas_sgemm", M, N, K, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F);
    if (strcmp(argv[1], "igemm") == 0)
        return run<signed char, int>("cublas_igemm", M, N, K, CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I);
    fprintf(stderr, "cublas: unknown kind '%s'\n", argv[1]);
    return 2;
}
