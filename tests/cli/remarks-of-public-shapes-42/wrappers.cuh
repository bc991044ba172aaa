// cp.async wrappers in a header of their own, as public kernels keep them
#pragma once
#include <cuda_fp16.h>
template <int Bytes>
__device__ __forceinline__ void cp_async(half *smem_ptr, const half *global_ptr)
{
    unsigned s = __cvta_generic_to_shared(smem_ptr);
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" ::"r"(s), "l"(global_ptr), "n"(Bytes));
}
__device__ __forceinline__ void cp_async_group_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait_group() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }
