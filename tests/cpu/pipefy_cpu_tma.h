// pipefy_cpu_tma.h: the block model's version of pipefy's tensor-copy helpers (the block
// rewrite.c writes between `// pipefy: Hopper tensor copies {` and its closing line; to_cpu.py
// puts this header in its place). A box lands at once when issued, zeros where it reaches
// outside the operand, and completes its bytes on the stage's mbarrier; the tensor map is the
// operand's description, checked as cuTensorMapEncodeTiled checks it. A bulk copy lands at once
// too, and must be 16-byte aligned at both ends and a multiple of 16 bytes long, as on the GPU.
#pragma once
#include <cuda.h>

#include "pipefy_cpu.h"

struct pipefy_cpu_map {
    const char *base;
    unsigned elem;
    long long row_elems, rows;
    unsigned box_cols, box_rows;
};
static_assert(sizeof(pipefy_cpu_map) <= sizeof(CUtensorMap), "a map fits a CUtensorMap");

inline void pipefy_mbar_init(unsigned long long *bar, unsigned count) { pipefy_cpu::mbar_init(bar, count); }
inline void pipefy_mbar_fence_init() {}
inline void pipefy_mbar_inval(unsigned long long *bar) { pipefy_cpu::mbar_inval(bar); }
inline void pipefy_mbar_arrive(unsigned long long *bar, unsigned count) { pipefy_cpu::mbar_arrive(bar, count); }
inline void pipefy_mbar_expect_tx(unsigned long long *bar, unsigned bytes) { pipefy_cpu::mbar_tx(bar, bytes); }
inline void pipefy_mbar_wait(unsigned long long *bar, unsigned parity)
{
    while (!pipefy_cpu::mbar_try_wait(bar, parity)) {
    }
}
inline void pipefy_fence_proxy_async() { pipefy_cpu::current->unfenced = false; }
inline void pipefy_tma_load_2d(void *dst, const CUtensorMap *map, int col, int row, unsigned long long *bar)
{
    pipefy_cpu_producer_only("a tensor copy");
    pipefy_cpu::async_write_check();
    const pipefy_cpu_map *m = (const pipefy_cpu_map *)map;
    char *d = (char *)dst;
    for (unsigned r = 0; r < m->box_rows; r++)
        for (unsigned c = 0; c < m->box_cols; c++, d += m->elem) {
            long long gc = (long long)col + c, gr = (long long)row + r;
            if (gc >= 0 && gc < m->row_elems && gr >= 0 && gr < m->rows)
                memcpy(d, m->base + (gr * m->row_elems + gc) * m->elem, m->elem);
            else
                memset(d, 0, m->elem);
        }
    pipefy_cpu::mbar_complete_tx(bar, m->box_rows * m->box_cols * m->elem);
}
inline void pipefy_bulk_load(void *dst, const void *src, unsigned bytes, unsigned long long *bar)
{
    if ((uintptr_t)dst % 16 || (uintptr_t)src % 16 || bytes % 16) {
        fprintf(stderr, "pipefy-cpu: a bulk copy of %u bytes from %p to %p is not 16-byte aligned\n", bytes, src, dst);
        _Exit(3); // (from a thread's fiber: no exit handlers)
    }
    pipefy_cpu_producer_only("a bulk copy");
    pipefy_cpu::bulk_copy(dst, src, bytes, bar);
}
constexpr bool pipefy_sm90 = true;
inline bool pipefy_sm90_code(const void *) { return true; }
inline bool pipefy_tensor_map_2d(CUtensorMap *map, const void *base, unsigned elem, long long row_elems,
                                 unsigned box_cols, unsigned box_rows)
{
    if (row_elems <= 0 || row_elems > (1LL << 32) || (unsigned long long)base % 16 || row_elems * elem % 16 ||
        box_cols * elem % 16 || box_cols > 256 || box_rows > 256)
        return false;
    pipefy_cpu_map m{(const char *)base, elem, row_elems, 2147483647LL, box_cols, box_rows};
    memset(map, 0, sizeof *map);
    memcpy(map, &m, sizeof m);
    return true;
}
