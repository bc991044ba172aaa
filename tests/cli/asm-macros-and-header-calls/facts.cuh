// header functions and asm macros for the case's input.cu
#pragma once
__device__ int g_tiles;
inline __device__ int tiles_of(int k) { return (k + 31) / 32; }
inline __device__ int tiles_per_thread(int k) { return (k + 31) / 32 + (int)(threadIdx.x & 1); }
inline __device__ int tiles_from_global(int k) { return g_tiles + k * 0; }
inline __device__ int tiles_at(const int *p) { return p[0]; }
#define ASM_OF(text, r, a) asm volatile(text : "=r"(r) : "r"(a))
#define ST_SHARED(addr, v) asm volatile("st.shared.b32 [%0], %1;\n" : : "r"(addr), "r"(v))
#define LD_SHARED(r, addr) asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(r) : "r"(addr))
