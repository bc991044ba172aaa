// A kernel clang cannot parse: the CLI must fail cleanly and echo the input.
__global__ void broken(float *out)
{
    out[threadIdx.x] = ;
    for (int t = 0; t < 4; ++t {
}
