// gemm_config.h: build configuration found only through the project's include/ folder, and
// macros only the command line defines (-DUSE_FP32 -DWARPSIZE=32), as real projects have.
#pragma once
#ifndef USE_FP32
#error "build with -DUSE_FP32"
#endif
#ifndef WARPSIZE
#error "build with -DWARPSIZE=32"
#endif
typedef float gemm_t;
#define GEMM_TILE (WARPSIZE / 2)
