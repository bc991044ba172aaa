// Loops a remark described by a lesser fact than the real one (a helper's audit of the public
// corpus, session 40): a hand double buffer with two barriers ("also used outside the loop"), a
// loop that only refills a tile ("would race with this tile's readers"), a cp.async pipeline
// issued through a helper's asm inside block statements (no remark at all) and its tail loop
// that only waits ("pipefy sees no load of global memory"), a tile sized by
// the launch behind the register rule ("N staging registers" alone), a hand double buffer
// through a pointer handed in ("cannot trace sh_A", not the offset the body flips), a register
// prefetch stored through a macro ("sits inside a macro expansion"), and one in a do-while loop
// ("a do-while loop").

// a hand double buffer: a prologue fills one slot, the loop the other, the slots swap
__global__ void hand_double_buffer(const float *__restrict__ A, float *__restrict__ out, int n)
{
    __shared__ float s[2][256];
    int cur = 0, nxt = 1;
    s[cur][threadIdx.x] = A[threadIdx.x];
    __syncthreads();
    float acc = 0.0f;
    for (int t = 256; t < n; t += 256) {
        s[nxt][threadIdx.x] = A[t + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 256; ++j)
            acc += s[cur][j];
        __syncthreads();
        cur = 1 - cur;
        nxt = 1 - nxt;
    }
    out[threadIdx.x] = acc;
}

// the loop refills the tile; only the code after it reads the last one
__global__ void copy_only(const float *__restrict__ g, float *__restrict__ out)
{
    __shared__ float t[16][16];
    for (int i = 0; i < 16; ++i) {
        t[threadIdx.y][threadIdx.x] = g[i * 256 + threadIdx.y * 16 + threadIdx.x];
        __syncthreads();
    }
    float s = 0.0f;
    for (int k = 0; k < 16; ++k)
        s += t[threadIdx.y][k];
    out[threadIdx.y * 16 + threadIdx.x] = s;
}

__device__ static void cp_async16(void *dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
                 "l"(src));
}

// three stages of cp.async by hand, each step a block statement of its own
__global__ void async_blocks(const float4 *__restrict__ A, float *__restrict__ out, int n)
{
    __shared__ float4 s[3][128];
    __shared__ float sums[128];
    float acc = 0.0f;
    for (int t = 0; t < n; t += 2) {
        {
            asm volatile("cp.async.wait_group 1;\n");
            __syncthreads();
            cp_async16(&s[(t + 2) % 3][threadIdx.x], &A[(t + 2) * 128 + threadIdx.x]);
            asm volatile("cp.async.commit_group;\n");
            for (int j = 0; j < 128; ++j)
                acc += s[t % 3][j].x;
        }
        {
            asm volatile("cp.async.wait_group 1;\n");
            __syncthreads();
            cp_async16(&s[(t + 3) % 3][threadIdx.x], &A[(t + 3) * 128 + threadIdx.x]);
            asm volatile("cp.async.commit_group;\n");
            for (int j = 0; j < 128; ++j)
                acc += s[(t + 1) % 3][j].x;
        }
    }
    // the last two tiles: waits for copies the loop above issued, and copies nothing
    for (int t = n; t < n + 2; ++t) {
        asm volatile("cp.async.wait_group 0;\n" ::: "memory");
        __syncthreads();
        for (int j = 0; j < 128; ++j)
            acc += s[t % 3][j].x;
        sums[threadIdx.x] = acc;
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

// six 16-byte copies a thread into a tile whose size the launch gives
__global__ void launch_sized_wide(const int4 *__restrict__ A, float *__restrict__ out, int n)
{
    extern __shared__ int4 sm[];
    float acc = 0.0f;
    for (int t = 0; t < n; ++t) {
        for (int i = 0; i < 6; ++i)
            sm[i * 128 + threadIdx.x] = A[(t * 6 + i) * 128 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 768; ++j)
            acc += sm[j].x;
        __syncthreads();
    }
    out[blockIdx.x * 128 + threadIdx.x] = acc;
}

size_t wide_bytes();

void run(const float *A, const float4 *A4, const int4 *A16, float *o, int n)
{
    hand_double_buffer<<<1, 256>>>(A, o, n);
    copy_only<<<1, dim3(16, 16)>>>(A, o);
    async_blocks<<<1, 128>>>(A4, o, n);
    launch_sized_wide<<<64, 128, wide_bytes()>>>(A16, o, n);
}

// a hand double buffer through a pointer handed in, its half chosen by an offset the body flips
__device__ void flip_buffers(const float *A, float *C, int K, float *sh)
{
    float *sh_A = sh;
    sh_A[threadIdx.x] = A[threadIdx.x];
    int double_buffer = 0;
    float acc = 0.0f;
    for (int k = 0; k < K; k += 128) {
        __syncthreads();
        for (int i = 0; i < 128; i++)
            acc += sh_A[double_buffer + i];
        double_buffer ^= 128;
        if (k + 128 < K)
            *(sh_A + double_buffer + threadIdx.x) = A[k + 128 + threadIdx.x];
    }
    C[threadIdx.x] = acc;
}

__global__ void flip_buffers_kernel(const float *A, float *C, int K)
{
    __shared__ float sh[256];
    flip_buffers(A, C, K, sh);
}

// a register prefetch by hand whose store is spelled through a macro
#define ST4(M, R) *((float4 *)(M)) = R
__global__ void macro_prefetch(const float4 *__restrict__ A, float *__restrict__ out, int n)
{
    __shared__ float s[512];
    float4 nxt = A[threadIdx.x];
    ST4(&s[threadIdx.x * 4], nxt);
    float acc = 0.0f;
    for (int t = 1; t < n; ++t) {
        __syncthreads();
        nxt = A[t * 128 + threadIdx.x];
        for (int j = 0; j < 512; ++j)
            acc += s[j];
        __syncthreads();
        ST4(&s[threadIdx.x * 4], nxt);
    }
    out[threadIdx.x] = acc;
}

// a register prefetch by hand in a do-while loop, the stages switched by an index
__global__ void do_while_prefetch(const float *__restrict__ A, float *__restrict__ out, int K)
{
    __shared__ float As[2][256];
    float ldg_reg[2];
    As[0][threadIdx.x] = A[threadIdx.x];
    __syncthreads();
    int write_stage = 1, t = 0;
    float acc = 0.0f;
    do {
        t += 256;
        if (t < K)
            ldg_reg[0] = A[t + threadIdx.x];
        int load_stage = write_stage ^ 1;
        for (int j = 0; j < 256; ++j) {
            float a = As[load_stage][j];
            acc += a;
        }
        if (t < K)
            As[write_stage][threadIdx.x] = ldg_reg[0];
        __syncthreads();
        write_stage ^= 1;
    } while (t < K);
    out[threadIdx.x] = acc;
}
