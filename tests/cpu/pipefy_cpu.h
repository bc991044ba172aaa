// pipefy_cpu.h: a CPU model of a CUDA thread block, to see races without a GPU.
//
// A kernel written in the CUDA subset the K-loop programs use compiles with the host C++
// compiler against this header. Each block's threads are fibers (ucontext) that run one
// after another between barriers: __syncthreads() hands the baton on, and the block resumes
// when every thread has reached it. Threads run in forward or reversed order
// (PIPEFY_CPU_ORDER=reverse), so a barrier missing or misplaced shows as a different,
// reproducible result: a thread that runs ahead overwrites a tile others have yet to read, or
// reads one others have yet to write. cp.async (__pipeline_memcpy_async) is modelled as a copy
// that lands only when a __pipeline_wait_prior covers its group, so a wait that comes too late
// or counts wrong reads stale data. A barrier reached by some threads of a block and not by
// others, or reached at different barrier statements, is reported and the program exits 3
// (what synccheck calls divergence). Blocks run one after another.
//
// Launches are queued and run when the program next calls the runtime (a copy, a sync, another
// ordinary launch), so that a dependent launch (pipefy_launch_dependent: programmatic dependent
// launch) can start before the grid ahead of it: its first block runs until every thread has
// reached the grid wait (griddepcontrol.wait), and only then does the grid ahead of it run, all
// of it. A kernel that reads what that grid writes before waiting reads the old contents; one that
// never waits is reported (exit 3).
//
// Named barriers (barrier.sync / barrier.arrive with a thread count, ids 1 to 15) are modelled:
// an arrive counts the thread and goes on, a sync counts it and waits for the count; a count
// that differs from the barrier's current one, or a barrier left part-way when the block ends,
// is reported (exit 3).
//
// mbarriers (Hopper's transaction barriers) are modelled too: a thread that waits on a phase
// not yet complete yields, and runs again once other threads' arrivals and the bytes of bulk
// copies (which land at once, as early as the hardware could) complete it; a block whose
// threads all wait on barriers nothing will complete is reported as a deadlock.
#pragma once
#include <ucontext.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

// CUDA's own vector, half and bfloat16 types: their headers compile with the host compiler
// (the toolkit's include folder on the include path), so the model's float4 has CUDA's
// alignment and a half converts as it does on the GPU. The half and bfloat16 headers, twice
// the compile time of the rest, only for programs built with -DPIPEFY_CPU_HALF.
#include <driver_types.h>
#include <texture_types.h>
#include <vector_types.h>
#include <vector_functions.h>
#ifdef PIPEFY_CPU_HALF
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cmath>
// the device-only half intrinsics the programs call: one rounding to half, as the GPU's (the
// product of two halves is exact in float, so only the sum rounds before that, and rarely twice)
static inline __half __hfma(__half a, __half b, __half c)
{
    return __float2half(std::fma(__half2float(a), __half2float(b), __half2float(c)));
}
#endif
#undef __global__
#undef __device__
#undef __host__
#undef __forceinline__
#undef __noinline__
#undef __shared__
#undef __restrict__
#undef __launch_bounds__
#undef __align__
#undef __grid_constant__

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __shared__ static
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__

inline uint3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;

namespace pipefy_cpu {

struct Copy {
    void *dst;
    const void *src;
    size_t bytes, fill_zero;
    std::vector<unsigned char> issued; // (cp.async: the source as it was when the copy was issued)
};

// An mbarrier: arrivals still expected in this phase, bytes still expected, phases completed.
struct MBarrier {
    unsigned count = 0, pending = 0, phase = 0;
    long tx = 0;
    bool async_fill = false;  // a stage's full barrier: its bytes come from the copy engine
    // an arrival of this phase (released, carried) or of the last completed one (acquired by
    // its waiters) had unfenced reads of a copied stage in its past
    bool carried = false, carried_done = false;
};

struct Fiber {
    ucontext_t ctx;
    char *stack = nullptr;  // from stacks(): one per thread of a block, reused by every block
    uint3 tid;
    bool done = false, at_barrier = false;
    bool at_grid_wait = false;  // waits for the grids its launch depends on
    bool vote = true, voted = true;  // __syncthreads_and: this thread's predicate, the block's AND
    bool voted_any = true;           // __syncthreads_or: the block's OR
    int voted_count = 0;             // __syncthreads_count: how many threads' predicates held
    MBarrier *waits_on = nullptr;  // blocked until the phase of this parity completes
    int waits_named = -1;          // blocked on this named barrier until its generation moves on
    unsigned long waits_gen = 0;
    unsigned waits_parity = 0;
    // reads of a stage the copy engine filled lie in this thread's past (its own, after a wait
    // for the stage, or another thread's, through a barrier or an mbarrier's release and
    // acquire) with no fence.proxy.async on the way: a copy it issues now may write the stage
    // before those reads (the async proxy is not ordered with the generic one by the barriers)
    bool unfenced = false;
    const void *barrier_site = nullptr;
    std::vector<Copy> open;                 // issued, not yet committed
    std::vector<std::vector<Copy>> groups;  // committed, not yet landed
};

// The program is pipefy's producer-warp variant (ws): every copy must come from the producer,
// the block's last producer_only threads (a warp, or a warpgroup on sm_90a); 0 when it is not
// (pipefy_cpu_tma.h checks; to_cpu.py's driver sets it per program)
inline unsigned producer_only = 0;
inline ucontext_t scheduler;
inline Fiber *current;
inline std::function<void()> *body;
inline bool reverse_order() {
    const char *o = getenv("PIPEFY_CPU_ORDER");
    return o && strcmp(o, "reverse") == 0;
}

inline void land(const Copy &c) {
    // the copy may read its source at any time until its wait: a source another thread or the
    // copying thread changed in between has no one value the copy takes (a race the model would
    // otherwise settle by reading late)
    if (!c.issued.empty() && memcmp(c.src, c.issued.data(), c.issued.size()) != 0) {
        fprintf(stderr, "pipefy-cpu: the source of an asynchronous copy changed while the copy was in flight\n");
        _Exit(3);
    }
    memcpy(c.dst, c.src, c.bytes - c.fill_zero);
    memset((char *)c.dst + (c.bytes - c.fill_zero), 0, c.fill_zero);
}

inline void land_all(Fiber *f) {
    for (auto &g : f->groups)
        for (auto &c : g) land(c);
    f->groups.clear();
    for (auto &c : f->open) land(c);
    f->open.clear();
}

inline void entry() {
    (*body)();
    land_all(current);  // copies still in flight land before the thread is gone
    current->done = true;
}

inline void barrier(const void *site) {
    current->at_barrier = true;
    current->barrier_site = site;
    swapcontext(&current->ctx, &scheduler);
}

inline int barrier_and(bool p, const void *site) {
    current->vote = p;
    barrier(site);
    return current->voted;
}

inline int barrier_or(bool p, const void *site) {
    current->vote = p;
    barrier(site);
    return current->voted_any;
}

inline int barrier_count(bool p, const void *site) {
    current->vote = p;
    barrier(site);
    return current->voted_count;
}

// __trap(): the kernel stops with an error (the model ends the program, as the launch would fail)
[[noreturn]] inline void trap() {
    fprintf(stderr, "pipefy-cpu: __trap() in thread (%u,%u,%u)\n", threadIdx.x, threadIdx.y, threadIdx.z);
    exit(4);
}

// mbarriers live in the shared memory the program declares; their state is kept here, by
// address (a block's, cleared when the next block starts).
inline std::vector<std::pair<const void *, MBarrier>> &mbarriers() {
    static std::vector<std::pair<const void *, MBarrier>> all;
    return all;
}
inline MBarrier &mbar(const void *addr) {
    for (auto &b : mbarriers())
        if (b.first == addr) return b.second;
    fprintf(stderr, "pipefy-cpu: an mbarrier used before mbarrier.init\n");
    exit(3);
}
inline bool phase_done(const MBarrier &b, unsigned parity) { return (b.phase & 1) != (parity & 1); }

// A named barrier: the threads counted so far and the count it completes at; completions.
struct Named {
    unsigned arrived = 0, expected = 0;
    unsigned long gen = 0;
};
inline Named named[16];
inline void named_arrive(unsigned id, unsigned threads) {
    unsigned block = blockDim.x * blockDim.y * blockDim.z;
    // (barrier 0 only for the whole block: barrier.sync 0 in its non-.aligned form, which a
    // producer warpgroup and the kernel's threads reach at different instructions)
    if ((id == 0 && threads != block) || id > 15 || threads == 0 || threads % 32 || threads > block) {
        fprintf(stderr, "pipefy-cpu: named barrier %u of %u threads in a block of %u\n", id, threads, block);
        _Exit(3); // (from a thread's fiber: no exit handlers)
    }
    Named &n = named[id];
    if (n.arrived && n.expected != threads) {
        fprintf(stderr, "pipefy-cpu: named barrier %u counted to %u and to %u\n", id, n.expected, threads);
        _Exit(3);
    }
    n.expected = threads;
    if (++n.arrived == threads) {
        n.arrived = 0;
        n.gen++;
    }
}
inline void named_sync(unsigned id, unsigned threads) {
    unsigned long g = named[id < 16 ? id : 0].gen;
    named_arrive(id, threads);
    if (named[id].gen == g) {
        current->waits_named = (int)id;
        current->waits_gen = g;
        swapcontext(&current->ctx, &scheduler);
    }
}
inline void complete_if_done(MBarrier &b) {
    if (b.pending == 0 && b.tx == 0) {
        b.phase++;
        b.pending = b.count;
        b.carried_done = b.carried;
        b.carried = false;
    }
}
inline void mbar_init(const void *addr, unsigned count) {
    for (auto &b : mbarriers())
        if (b.first == addr) {
            b.second = MBarrier{count, count, 0, 0};
            return;
        }
    mbarriers().push_back({addr, MBarrier{count, count, 0, 0}});
}
inline void mbar_arrive(const void *addr, unsigned count = 1) {
    MBarrier &b = mbar(addr);
    b.carried |= current->unfenced;  // (arrive: a release)
    if (b.pending < count) {
        fprintf(stderr, "pipefy-cpu: more arrivals on an mbarrier than its count\n");
        exit(3);
    }
    b.pending -= count;
    complete_if_done(b);
}
// mbarrier.expect_tx: bytes the phase waits for besides its arrivals
inline void mbar_tx(const void *addr, unsigned bytes) {
    MBarrier &b = mbar(addr);
    b.tx += bytes;
    b.async_fill = true;
}
// mbarrier.arrive.expect_tx
inline void mbar_expect_tx(const void *addr, unsigned bytes) {
    mbar_tx(addr, bytes);
    mbar_arrive(addr);
}
// try_wait.parity: true once the phase of that parity is complete; until then the thread
// yields to the others, so a spinning wait loop makes progress.
inline bool mbar_try_wait(const void *addr, unsigned parity) {
    MBarrier &b = mbar(addr);
    if (!phase_done(b, parity)) {
        current->waits_on = &b;
        current->waits_parity = parity;
        swapcontext(&current->ctx, &scheduler);
    }
    bool done = phase_done(b, parity);
    if (done) current->unfenced |= b.async_fill || b.carried_done;  // (an acquire)
    return done;
}
// Bytes of an asynchronous copy received on an mbarrier.
inline void mbar_complete_tx(const void *addr, unsigned bytes) {
    MBarrier &b = mbar(addr);
    b.tx -= bytes;
    complete_if_done(b);
}
// A copy of the copy engine into shared memory, issued by the current thread.
inline void async_write_check() {
    if (current->unfenced) {
        fprintf(stderr, "pipefy-cpu: the copy engine may write a stage before reads of it that no "
                        "fence.proxy.async orders before the copy\n");
        _Exit(3); // (from a thread's fiber: no exit handlers)
    }
}
// cp.async.bulk completing on an mbarrier: the bytes land now, then count as received.
inline void bulk_copy(void *dst, const void *src, unsigned bytes, const void *addr) {
    async_write_check();
    memcpy(dst, src, bytes);
    mbar_complete_tx(addr, bytes);
}
// mbarrier.inval: the location is no barrier any more (a later use without init is reported).
inline void mbar_inval(const void *addr) {
    auto &all = mbarriers();
    for (size_t i = 0; i < all.size(); i++)
        if (all[i].first == addr) {
            all.erase(all.begin() + (long)i);
            return;
        }
    fprintf(stderr, "pipefy-cpu: mbarrier.inval of a location that is no mbarrier\n");
    exit(3);
}

// The threads' stacks, allocated once and never cleared (a fresh zeroed 256 KB per thread per
// block was most of the model's time).
constexpr size_t stack_bytes = 256 * 1024;
inline char *stacks(size_t n) {
    static std::vector<std::unique_ptr<char[]>> pool;
    while (pool.size() < n) pool.emplace_back(new char[stack_bytes]);
    return pool[n - 1].get();
}

// The dynamic shared memory of the running launch (pipefy reads it for stages in it).
inline size_t dynamic_smem = 0;

// What a grid launched as a dependent runs first when its threads wait for the grids ahead of
// it: those grids, whole (null when none is pending, or once they have run).
inline std::function<void()> *ahead = nullptr;
inline int depth = 0;  // grids running one inside another's wait (each its own stacks)

inline void grid_wait() {
    if (!ahead) return;
    current->at_grid_wait = true;
    swapcontext(&current->ctx, &scheduler);
}

// Runs fn as a grid of grid x block threads, with smem bytes of dynamic shared memory (an
// extern __shared__ array is 1 << 18 elements here, of at least a byte each); first_waits, when
// not null, runs the grids it depends on once its first block's threads all wait for them.
inline void run_grid(dim3 grid, dim3 block, std::function<void()> fn, size_t smem, std::function<void()> *first_waits) {
    if (smem > (1 << 18)) {
        fprintf(stderr, "pipefy-cpu: %zu bytes of dynamic shared memory\n", smem);
        exit(3);
    }
    dynamic_smem = smem;
    size_t n = (size_t)block.x * block.y * block.z;
    if (n == 0 || n > 1024) {
        fprintf(stderr, "pipefy-cpu: a block of %zu threads\n", n);
        exit(3);
    }
    // (a grid run inside another's wait leaves that one's state as it found it)
    auto saved_body = body;
    auto saved_ahead = ahead;
    Fiber *saved_current = current;
    uint3 saved_tid = threadIdx, saved_bid = blockIdx;
    dim3 saved_grid = gridDim, saved_block = blockDim;
    std::vector<std::pair<const void *, MBarrier>> saved_mbarriers = mbarriers();
    ahead = first_waits;
    body = &fn;
    gridDim = grid;
    blockDim = block;
    std::vector<Fiber> fibers(n);
    for (unsigned bz = 0; bz < grid.z; bz++)
        for (unsigned by = 0; by < grid.y; by++)
            for (unsigned bx = 0; bx < grid.x; bx++) {
                blockIdx = {bx, by, bz};
                for (size_t i = 0; i < n; i++) {
                    Fiber &f = fibers[i];
                    f = Fiber();
                    f.stack = stacks((size_t)depth * 1024 + i + 1);
                    f.tid = {(unsigned)(i % block.x), (unsigned)(i / block.x % block.y), (unsigned)(i / block.x / block.y)};
                    getcontext(&f.ctx);
                    f.ctx.uc_stack.ss_sp = f.stack;
                    f.ctx.uc_stack.ss_size = stack_bytes;
                    f.ctx.uc_link = &scheduler;
                    makecontext(&f.ctx, entry, 0);
                }
                mbarriers().clear();
                for (auto &b : named) b = Named();
                for (;;) {
                    // each thread runs on until it reaches a barrier, waits on an mbarrier phase
                    // not yet complete, or ends; one waiting on a phase runs again once it is
                    bool progress = false;
                    for (size_t k = 0; k < n; k++) {
                        Fiber &f = fibers[reverse_order() ? n - 1 - k : k];
                        if (f.done || f.at_barrier || f.at_grid_wait) continue;
                        if (f.waits_on && !phase_done(*f.waits_on, f.waits_parity)) continue;
                        f.waits_on = nullptr;
                        if (f.waits_named >= 0 && named[f.waits_named].gen == f.waits_gen) continue;
                        f.waits_named = -1;
                        current = &f;
                        threadIdx = f.tid;
                        swapcontext(&scheduler, &f.ctx);
                        progress = true;
                    }
                    size_t live = 0, waiting = 0;
                    const void *site = nullptr;
                    bool same_site = true, finished_some = false;
                    for (auto &f : fibers) {
                        finished_some |= f.done;
                        if (f.done) continue;
                        live++;
                        if (!f.at_barrier) continue;
                        waiting++;
                        if (site && site != f.barrier_site) same_site = false;
                        site = f.barrier_site;
                    }
                    if (live == 0) {  // every thread has finished
                        for (unsigned id = 0; id < 16; id++)
                            if (named[id].arrived) {
                                fprintf(stderr, "pipefy-cpu: block (%u,%u,%u) ended with named barrier %u at %u of its %u threads\n",
                                        bx, by, bz, id, named[id].arrived, named[id].expected);
                                exit(3);
                            }
                        break;
                    }
                    if (waiting == live) {
                        if (finished_some || !same_site) {
                            fprintf(stderr,
                                    "pipefy-cpu: block (%u,%u,%u): %s\n", bx, by, bz,
                                    finished_some ? "a barrier some threads reach and others do not"
                                                  : "threads wait at different barriers");
                            exit(3);
                        }
                        bool all = true;  // (__syncthreads_and's answer, the same for every thread)
                        bool any = false;  // (__syncthreads_or's)
                        int count = 0;     // (__syncthreads_count's)
                        bool unfenced = false;  // (every thread's past is each one's after it)
                        for (auto &f : fibers) all = all && f.vote, any |= f.vote, count += f.vote, unfenced |= f.unfenced;
                        for (auto &f : fibers) {
                            f.at_barrier = false;  // the barrier releases them
                            f.voted = all;
                            f.voted_any = any;
                            f.voted_count = count;
                            f.vote = true;
                            f.unfenced = unfenced;
                        }
                        progress = true;
                    }
                    if (!progress) {
                        // every thread that can still run waits for the grids ahead: they run now
                        bool grid_waits = false;
                        for (auto &f : fibers) grid_waits |= !f.done && f.at_grid_wait;
                        if (grid_waits && ahead) {
                            // (the grid ahead runs with this block's mbarriers set aside: a thread
                            // of it blocked on one would be left pointing at the set-aside copy)
                            for (auto &f : fibers)
                                if (!f.done && f.waits_on) {
                                    fprintf(stderr, "pipefy-cpu: a thread waits on an mbarrier while others wait for "
                                                    "the grid ahead (the model runs that grid only once none does)\n");
                                    exit(3);
                                }
                            std::function<void()> *run_ahead = ahead;
                            ahead = nullptr;
                            depth++;
                            (*run_ahead)();
                            depth--;
                            gridDim = grid;
                            blockDim = block;
                            blockIdx = {bx, by, bz};
                            body = &fn;
                            dynamic_smem = smem;
                        }
                        if (grid_waits) {
                            for (auto &f : fibers) f.at_grid_wait = false;
                            continue;
                        }
                        bool on_mbarrier = false;
                        for (auto &f : fibers) on_mbarrier |= !f.done && f.waits_on;
                        fprintf(stderr, "pipefy-cpu: block (%u,%u,%u): %s\n", bx, by, bz,
                                on_mbarrier ? "threads wait on mbarrier phases nothing will complete"
                                : finished_some ? "a barrier some threads reach and others do not"
                                                : "threads wait on barriers nothing will complete");
                        exit(3);
                    }
                }
            }
    if (ahead) {
        fprintf(stderr, "pipefy-cpu: a dependent launch's grid ended without waiting for the grid ahead of it "
                        "(griddepcontrol.wait)\n");
        exit(3);
    }
    body = saved_body;
    ahead = saved_ahead;
    current = saved_current;
    threadIdx = saved_tid;
    blockIdx = saved_bid;
    gridDim = saved_grid;
    blockDim = saved_block;
    mbarriers() = saved_mbarriers;
}

// Launches not yet run, in stream order; all but the first are dependent launches.
struct Launch {
    dim3 grid, block;
    std::function<void()> fn;
    size_t smem;
    bool dependent;
};
inline std::vector<Launch> &queued() {
    static std::vector<Launch> q;
    return q;
}
// Runs queued()[0..last]: a dependent launch runs the ones ahead of it inside its wait.
inline void run_queued(size_t last) {
    Launch &l = queued()[last];
    if (!l.dependent || last == 0) {
        if (last > 0) run_queued(last - 1);
        run_grid(l.grid, l.block, l.fn, l.smem, nullptr);
        return;
    }
    std::function<void()> before = [last] { run_queued(last - 1); };
    run_grid(l.grid, l.block, l.fn, l.smem, &before);
}
// Runs every queued launch: the runtime's calls, and an ordinary launch, wait for them.
inline void flush() {
    if (queued().empty() || depth > 0) return;
    run_queued(queued().size() - 1);
    queued().clear();
}
inline void launch(dim3 grid, dim3 block, std::function<void()> fn, size_t smem = 0) {
    flush();
    queued().push_back({grid, block, std::move(fn), smem, false});
}
inline void launch_dependent(dim3 grid, dim3 block, std::function<void()> fn, size_t smem = 0) {
    queued().push_back({grid, block, std::move(fn), smem, true});
}

}  // namespace pipefy_cpu

// pipefy's helpers for overlapped launches (to_cpu.py puts the model's in place of the block
// rewrite.c writes): the wait, and a dependent launch
inline void pipefy_grid_wait() { pipefy_cpu::grid_wait(); }
inline void pipefy_launch_dependents() {}  // (the model runs a dependent grid's start before, always)
// (the arguments take the kernel's parameter types where they are passed, as in pipefy's)
template <class T>
struct pipefy_parameter {
    typedef T type;
};
template <class... P>
inline cudaError_t pipefy_launch_dependent(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t,
                                           typename pipefy_parameter<P>::type... args) {
    pipefy_cpu::launch_dependent(grid, block, [=]() mutable { kernel(args...); }, smem);
    return cudaSuccess;
}

// __syncthreads() as a macro, so each barrier statement is a site of its own.
#define __syncthreads() pipefy_cpu::barrier((const void *)(uintptr_t)__LINE__)
// __syncthreads_and(p): the barrier, answering whether p held in every thread of the block
#define __syncthreads_and(p) pipefy_cpu::barrier_and((p), (const void *)(uintptr_t)__LINE__)
#define __syncthreads_or(p) pipefy_cpu::barrier_or((p), (const void *)(uintptr_t)__LINE__)
#define __syncthreads_count(p) pipefy_cpu::barrier_count((p), (const void *)(uintptr_t)__LINE__)
#define __trap() pipefy_cpu::trap()
inline void __syncwarp(unsigned = 0xffffffffu) {}

// In the producer-warp variant (ws: to_cpu.py's driver sees its mark, or PIPEFY_CPU_PRODUCER is
// set), every copy must be issued by a thread of the block's last warp, the one ws adds: a
// kernel thread issuing one is an error, as the variant promises the kernel's threads only compute.
inline void pipefy_cpu_producer_only(const char *what)
{
    static const bool forced = getenv("PIPEFY_CPU_PRODUCER") != nullptr;
    const unsigned producer = pipefy_cpu::producer_only ? pipefy_cpu::producer_only : forced ? 32 : 0;
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    if (producer && (threads < producer || t < threads - producer)) {
        fprintf(stderr, "pipefy-cpu: %s issued by thread %u of %u, not by the producer warp\n", what, t, threads);
        _Exit(3); // (from a thread's fiber: no exit handlers)
    }
}

// pipefy's named-barrier helpers (ws-cp.async), the block rewrite.c writes between
// `// pipefy: named barriers {` and its closing line (to_cpu.py drops it)
inline void pipefy_bar_sync(unsigned id, unsigned threads) { pipefy_cpu::named_sync(id, threads); }
inline void pipefy_bar_arrive(unsigned id, unsigned threads) { pipefy_cpu::named_arrive(id, threads); }
// pipefy's register hand-over (setmaxnreg, sm_90a): the counts are not modelled (the launcher's
// check of the count the kernel was built with passes: numRegs below), but who executes it is:
// setmaxnreg is executed by whole warpgroups, so the block must be whole warpgroups of 128, and
// `dec` must come from the producer's, the block's last 128 threads, `inc` from the others
inline void pipefy_cpu_setmaxnreg(bool dec)
{
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    if (threads % 128 || threads < 256 || dec != (t >= threads - 128)) {
        fprintf(stderr, "pipefy-cpu: setmaxnreg.%s by thread %u of %u: not a whole warpgroup's%s\n", dec ? "dec" : "inc",
                t, threads, dec ? ", the producer's" : "");
        _Exit(3); // (from a thread's fiber: no exit handlers)
    }
}
template <unsigned N> inline void pipefy_regs_dec() { pipefy_cpu_setmaxnreg(true); }
template <unsigned N> inline void pipefy_regs_inc() { pipefy_cpu_setmaxnreg(false); }

// pipefy's helpers for persistent launches (--launches=queue), the block queue.c writes between
// `// pipefy: tile queues {` and its closing line (to_cpu.py drops it). The model runs blocks one
// after another, so every item a wait depends on was taken, and finished, by a block before it
// or by its own block earlier: a wait the counter does not meet could never end, an error.
inline uint3 pipefy_queue_index(unsigned long long i, dim3 g) {
    return {(unsigned)(i % g.x), (unsigned)(i / g.x % g.y), (unsigned)(i / ((unsigned long long)g.x * g.y))};
}
struct pipefy_queue_memo {
    unsigned long long item;
    bool all;
    long long lo, hi;
    unsigned long long pending;
    bool none_left;
};
inline void pipefy_queue_done(unsigned long long *counter) { ++*counter; }
inline bool pipefy_queue_met(const unsigned long long *counter, unsigned long long n) { return *counter >= n; }
inline void pipefy_queue_acquire() {}
inline void pipefy_queue_wait(const unsigned long long *counter, unsigned long long n) {
    if (*counter < n) {
        fprintf(stderr, "pipefy_cpu: a persistent launch's item waits for items no block can finish (%llu of %llu "
                        "done)\n", *counter, n);
        exit(3);
    }
}

inline void __pipeline_memcpy_async(void *dst, const void *src, size_t bytes, size_t zfill = 0) {
    pipefy_cpu_producer_only("a cp.async copy");
    // two copies of one thread in flight to one address land in no fixed order
    auto *f = pipefy_cpu::current;
    auto overlaps = [&](const pipefy_cpu::Copy &c) {
        return (char *)dst < (char *)c.dst + c.bytes && (char *)c.dst < (char *)dst + bytes;
    };
    bool twice = false;
    for (auto &c : f->open) twice |= overlaps(c);
    for (auto &g : f->groups)
        for (auto &c : g) twice |= overlaps(c);
    if (twice) {
        fprintf(stderr, "pipefy-cpu: two asynchronous copies in flight to one shared address (they land in no fixed order)\n");
        _Exit(3); // (from a thread's fiber: no exit handlers)
    }
    if (((uintptr_t)dst | (bytes > zfill ? (uintptr_t)src : 0)) % bytes) { // (the GPU faults on a misaligned cp.async)
        fprintf(stderr, "pipefy-cpu: a cp.async of %zu bytes from or to an address that is not a multiple of it\n", bytes);
        _Exit(3);
    }
    f->open.push_back({dst, src, bytes, zfill, {}});
    f->open.back().issued.assign((const unsigned char *)src, (const unsigned char *)src + (bytes - zfill));
}
inline void __pipeline_commit() {
    auto *f = pipefy_cpu::current;
    f->groups.push_back(std::move(f->open));
    f->open.clear();
}
inline void __pipeline_wait_prior(size_t n) {
    auto *f = pipefy_cpu::current;
    while (f->groups.size() > n) {
        for (auto &c : f->groups.front()) pipefy_cpu::land(c);
        f->groups.erase(f->groups.begin());
    }
}

template <typename T> inline T atomicAdd(T *p, T v) {
    T old = *p;
    *p = old + v;
    return old;
}
template <typename T> inline T __ldg(const T *p) { return *p; }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
using std::isfinite;
using std::isinf;
using std::isnan;
using std::max;
using std::min;

// The runtime calls the programs make, on host memory (cudaError_t, cudaMemcpyKind and
// cudaEvent_t are driver_types.h's).
// (the model runs any block of up to 1024 threads)
template <typename K>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, K, int threads, size_t) {
    *blocks = threads > 0 && threads <= 1024;
    return cudaSuccess;
}
// (registers a thread: as many as a thread may have, so a launcher's check of them passes; the
// runtime's own declaration, which the launchers call with the kernel as a const void *)
extern "C" cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *) {
    memset(attr, 0, sizeof *attr);
    attr->numRegs = 255;
    attr->maxThreadsPerBlock = 1024;
    return cudaSuccess;
}
template <typename T> inline cudaError_t cudaMalloc(T **p, size_t bytes) {
    *p = (T *)malloc(bytes);
    return cudaSuccess;
}
inline cudaError_t cudaFree(void *p) {
    pipefy_cpu::flush();
    free(p);
    return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind) {
    pipefy_cpu::flush();
    memcpy(dst, src, bytes);
    return cudaSuccess;
}
inline cudaError_t cudaMemset(void *dst, int v, size_t bytes) {
    pipefy_cpu::flush();
    memset(dst, v, bytes);
    return cudaSuccess;
}
// (a device of 132 SMs, as the H200's; the pool's memory is the host's)
inline cudaError_t cudaGetDevice(int *device) {
    *device = 0;
    return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int) {
    *value = attr == cudaDevAttrMultiProcessorCount ? 132 : 0;
    return cudaSuccess;
}
inline cudaError_t cudaMallocAsync(void **p, size_t bytes, cudaStream_t) {
    *p = malloc(bytes);
    return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void *dst, int v, size_t bytes, cudaStream_t) {
    pipefy_cpu::flush();
    memset(dst, v, bytes);
    return cudaSuccess;
}
inline cudaError_t cudaFreeAsync(void *p, cudaStream_t) {
    pipefy_cpu::flush();
    free(p);
    return cudaSuccess;
}
inline cudaError_t cudaDeviceSynchronize() {
    pipefy_cpu::flush();
    return cudaSuccess;
}
// Streams: the model runs every launch in program order, so a stream is only a name.
inline cudaError_t cudaStreamCreate(cudaStream_t *s) {
    static uintptr_t next = 1;
    *s = (cudaStream_t)next++;
    return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) {
    pipefy_cpu::flush();
    return cudaSuccess;
}
inline cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
template <typename T> inline cudaError_t cudaFuncSetAttribute(T *, cudaFuncAttribute, int) { return cudaSuccess; }
inline cudaError_t cudaGetLastError() {
    pipefy_cpu::flush();
    return cudaSuccess;
}
inline const char *cudaGetErrorString(cudaError_t) { return "no error"; }
// Texture objects over linear memory only: the object is the resource's pointer, and
// tex1Dfetch<T>(object, i) its element i read as a T.
inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t *t, const cudaResourceDesc *r, const cudaTextureDesc *,
                                           const cudaResourceViewDesc *) {
    if (r->resType != cudaResourceTypeLinear)
        return cudaErrorInvalidValue;
    *t = (cudaTextureObject_t)(uintptr_t)r->res.linear.devPtr;
    return cudaSuccess;
}
inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t) { return cudaSuccess; }
template <typename T> inline cudaChannelFormatDesc cudaCreateChannelDesc() { return cudaChannelFormatDesc{}; }
template <typename T> inline T tex1Dfetch(cudaTextureObject_t t, int i) { return ((const T *)(uintptr_t)t)[i]; }
// Events time nothing here: harness_time only uses them when asked to benchmark.
inline cudaError_t cudaEventCreate(cudaEvent_t *) { return cudaSuccess; }
inline cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) {
    pipefy_cpu::flush();
    return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) {
    pipefy_cpu::flush();
    return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t) {
    *ms = 0;
    return cudaSuccess;
}
