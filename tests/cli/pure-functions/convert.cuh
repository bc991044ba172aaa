// convert.cuh: conversions of the case's input, in a header its precompiled preamble holds
#pragma once
#include <cuda_fp16.h>

__device__ float g_bias;

template <typename T> __device__ float widen(T v) { return static_cast<float>(v); }
template <> __device__ float widen(half v) { return __half2float(v); }

template <typename T> __device__ float biased(T v) { return static_cast<float>(v); }
template <> __device__ float biased(half v) { return __half2float(v) + g_bias; }
