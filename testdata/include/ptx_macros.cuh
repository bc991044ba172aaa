// ptx_macros.cuh: ldmatrix and mma.sync as macros over inline PTX, their operands the macros'
// arguments, and a rounding-up division, as GEMM repositories keep them in a common header
// (for testdata/hmma_ptx_macros.cu).
#pragma once
#include <cstddef>

inline __device__ __host__ size_t div_ceil(size_t a, size_t b)
{
    return (a % b != 0) ? (a / b + 1) : (a / b);
}

#define LDMATRIX_X4(R0, R1, R2, R3, addr)                                             \
    asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n" \
                 : "=r"(R0), "=r"(R1), "=r"(R2), "=r"(R3)                             \
                 : "r"(addr))

#define LDMATRIX_X2_T(R0, R1, addr) \
    asm volatile("ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16 {%0, %1}, [%2];\n" : "=r"(R0), "=r"(R1) : "r"(addr))

#define HMMA16816F32(D0, D1, D2, D3, A0, A1, A2, A3, B0, B1)                                    \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "      \
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"                             \
                 : "+f"(D0), "+f"(D1), "+f"(D2), "+f"(D3)                                     \
                 : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1))
