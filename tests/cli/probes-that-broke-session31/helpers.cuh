// helpers of the case's input.cu: a header function reading the thread index spelled so that
// the text `threadIdx.x` does not show, and one reading memory through a pointer
#pragma once
struct Ctl { int ntiles; };
inline __device__ int tiles_paren(int k) { return k / 32 + ((threadIdx).x >= 1024 ? 1 : 0); }
inline __device__ int tiles_of_ctl(const Ctl *c) { return c->ntiles; }
