// cooperative_groups.h for the CPU block model (tests/cpu/pipefy_cpu.h): a thread block's
// sync, `block.sync()` and `cg::sync(block)`, is the model's barrier at the statement that
// calls it (its line, as __syncthreads() is), so that threads waiting at different barrier
// statements are still told apart. The rest of cooperative groups is not modelled.
#pragma once
#include <cstdint>

namespace cooperative_groups {

struct thread_block {
    void sync(const void *site = (const void *)(uintptr_t)__builtin_LINE()) const { pipefy_cpu::barrier(site); }
    unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
    unsigned thread_rank() const { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
};

inline thread_block this_thread_block() { return {}; }
inline void sync(const thread_block &b, const void *site = (const void *)(uintptr_t)__builtin_LINE()) { b.sync(site); }

}  // namespace cooperative_groups
