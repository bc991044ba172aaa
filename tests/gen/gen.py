#!/usr/bin/env python3
"""gen.py: a K-loop program from a seed, for differential testing of pipefy.

    gen.py SEED            the program on standard output
    gen.py --features SEED the features drawn, one `name=value` per line

Every program is complete (kernel, host main through testdata's harness, CPU reference,
PASS/FAIL line, checksum) and says on its first lines what pipefy must do with it:
    // gen-expect: pipelined            cp.async and ldg must both be able to take it
    // gen-expect: refused: REGEX       every variant leaves it alone, the remark matching REGEX
and which sizes to run it at (`// gpu-runs:`): K of 0, 1, 2 and 3 tiles, and a partial tile
when the copies are guarded. The same seed always gives the same program.

Drawn: float, double or int elements; 8 or 16-wide tiles as #define, constexpr or template
parameter; one or two rows per thread; copies direct, through a helper, through bumped
pointers or through local indices, guarded by none, a ternary or if/else; loop variables
int or unsigned with `<` or `!=`; the barrier first or last; the K-loop alone, in a
persistent loop or twice over the same tiles; compute inline, in a helper or unrolled;
`__restrict__` or not; `__syncthreads()`, `block.sync()` or `cg::sync(block)`; tiles as
__shared__ arrays or pointers into `extern __shared__` memory (refused: not pipelined yet);
and mutations that must be refused (a computed tile value, an address the compute changes,
a barrier under a condition, a break, a global store the copies may read).
"""
import random
import sys


def draw(seed):
    r = random.Random(seed)
    f = {}
    f['type'] = r.choice(['float', 'float', 'double'])
    f['ts'] = r.choice([8, 16])
    f['tile_def'] = r.choice(['define', 'constexpr', 'template'])
    f['rows'] = r.choice([1, 1, 2])                    # rows of a tile each thread copies and computes
    f['copy'] = r.choice(['direct', 'direct', 'helper', 'bumps', 'local_index'])
    if f['rows'] == 2 and f['copy'] in ('helper', 'bumps'):
        f['copy'] = 'direct'
    f['guard'] = r.choice(['none', 'none', 'ternary', 'if_else']) if f['copy'] == 'direct' else 'none'
    f['ivar'] = r.choice(['int_lt', 'int_lt', 'unsigned_tiles', 'int_ne']) if f['copy'] != 'bumps' else 'int_lt'
    if f['guard'] != 'none' and f['ivar'] == 'int_ne':
        f['ivar'] = 'int_lt'
    f['rotated'] = r.random() < 0.2 and f['copy'] != 'bumps'  # barrier first, then copies, barrier, compute
    f['structure'] = r.choice(['plain', 'plain', 'persistent', 'two_loops'])
    f['compute'] = r.choice(['inline', 'inline', 'helper', 'unrolled'])
    f['restrict'] = r.random() < 0.5
    f['mutation'] = r.choice(['none'] * 6 + ['computed', 'dependent', 'cond_barrier', 'break', 'global_store'])
    if f['mutation'] in ('computed', 'dependent') and f['copy'] not in ('direct', 'local_index'):
        f['mutation'] = 'break'  # the copy is not written where those mutations go
    if f['mutation'] == 'global_store':
        f['restrict'] = False
    # later features come from a second stream, so that the features above stay what they were
    # for every seed (tests/gpu/FUZZ.md and the recorded limits name seeds)
    r2 = random.Random(seed * 1000003 + 17)
    f['barrier'] = r2.choice(['syncthreads'] * 3 + ['block_sync', 'cg_sync'])
    if r2.random() < 0.15:
        f['type'] = 'int'
    f['tiles'] = r2.choice(['static'] * 5 + ['extern'])
    if f['tiles'] == 'extern':  # refused for that alone: keep the other reasons out of it
        f['copy'], f['guard'], f['structure'], f['mutation'] = 'direct', 'none', 'plain', 'none'
    return f


def program(seed):
    f = draw(seed)
    T, TS, R = f['type'], f['ts'], f['rows']
    BY = TS // R                          # threads in y; each does R rows
    tsn = 'TS'
    lines = []
    out = lines.append
    guarded = f['guard'] != 'none'
    partial = guarded
    mutation_reason = {
        'none': None,
        'computed': "written from a computed value",
        'dependent': "which the compute (at [0-9:]+ )?writes",
        'cond_barrier': "under a condition",
        'break': "'break' at",
        'global_store': "may point at it",
    }[f['mutation']]
    # known limits, recorded in tests/gpu/FUZZ.md: pipefy pipelines a loop only when its tiles
    # are its own (two K-loops over the same tiles are left alone), cannot resolve a call to a
    # function template inside a kernel template, and moves a helper's copies only by cp.async;
    # with several reasons the remark names the first it finds
    sync = {'syncthreads': '__syncthreads()', 'block_sync': 'block.sync()', 'cg_sync': 'cg::sync(block)'}[f['barrier']]
    reasons = [x for x in ['goes through the pointer' if f['tiles'] == 'extern' else None,
                           mutation_reason,
                           'also used outside the loop' if f['structure'] == 'two_loops' else None,
                           'is not a function defined in this file' if f['copy'] == 'helper' and f['tile_def'] == 'template' else None]
               if x]
    expect = 'refused: (%s)' % '|'.join(reasons) if reasons else 'pipelined'
    expect_ldg = 'refused: only cp.async' if f['copy'] == 'helper' and expect == 'pipelined' else None
    K = [0, TS, 2 * TS, 3 * TS] + ([2 * TS + 3] if partial else [])
    M = N = 2 * TS
    out('// gen %d: %s' % (seed, ', '.join('%s=%s' % kv for kv in sorted(f.items()))))
    out('// gen-expect: ' + expect)
    if expect_ldg:
        out('// gen-expect-ldg: ' + expect_ldg)
    out('// gpu-runs: ' + ' | '.join('%d %d %d' % (M, N, k) for k in K))
    out('// gpu-sanitize: %d %d %d' % (M, N, 2 * TS + (3 if partial else 0)))
    out('#include "harness.cuh"')
    if f['barrier'] != 'syncthreads':
        out('#include <cooperative_groups.h>')
        out('namespace cg = cooperative_groups;')
    out('')
    if f['tile_def'] == 'define':
        out('#define TS %d' % TS)
    elif f['tile_def'] == 'constexpr':
        out('constexpr int TS = %d;' % TS)
    out('#define BY %d' % BY)
    out('')
    rs = ' __restrict__' if f['restrict'] else ''
    if f['copy'] == 'helper':
        tparm = 'template <int TS>\n' if f['tile_def'] == 'template' else ''
        out(tparm + '__device__ void load_tiles(%s (*As)[TS], %s (*Bs)[TS], const %s *A, const %s *B, int row, int col, int k0, int N, int K)' % (T, T, T, T))
        out('{')
        out('    As[threadIdx.y][threadIdx.x] = A[row * K + k0 + threadIdx.x];')
        out('    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * N + col];')
        out('}')
        out('')
    if f['compute'] == 'helper':
        tparm = 'template <int TS>\n' if f['tile_def'] == 'template' else ''
        out(tparm + '__device__ %s dot_row(const %s (*As)[TS], const %s (*Bs)[TS], int r, int c)' % (T, T, T))
        out('{')
        out('    %s s = 0;' % T)
        out('    for (int k = 0; k < TS; ++k)')
        out('        s += As[r][k] * Bs[k][c];')
        out('    return s;')
        out('}')
        out('')
    if f['tile_def'] == 'template':
        out('template <int TS>')
    out('__global__ void gen_kernel(const %s *%s A, const %s *%s B, %s *%s C, int M, int N, int K)' % (T, rs, T, rs, T, rs))
    out('{')
    if f['tiles'] == 'extern':
        out('    extern __shared__ __align__(16) unsigned char gen_smem[];')
        out('    %s (*As)[TS] = reinterpret_cast<%s (*)[TS]>(gen_smem);' % (T, T))
        out('    %s (*Bs)[TS] = reinterpret_cast<%s (*)[TS]>(gen_smem + TS * TS * sizeof(%s));' % (T, T, T))
    else:
        out('    __shared__ %s As[TS][TS];' % T)
        out('    __shared__ %s Bs[TS][TS];' % T)
    if f['barrier'] != 'syncthreads':
        out('    cg::thread_block block = cg::this_thread_block();')
    out('    int tx = threadIdx.x, ty = threadIdx.y;')
    loops = 2 if f['structure'] == 'two_loops' else 1
    ind = '    '
    if f['structure'] == 'persistent':
        out('    int tiles_n = N / TS, tiles = (M / TS) * tiles_n;')
        out('    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {')
        ind = '        '
        out(ind + 'int row0 = (tile / tiles_n) * TS, col = (tile % tiles_n) * TS + tx;')
    else:
        out('    int row0 = blockIdx.y * TS, col = blockIdx.x * TS + tx;')
    out(ind + '%s acc[%d] = {};' % (T, R))
    if f['mutation'] == 'dependent':
        out(ind + 'int off = 0;')
    outer = ind
    for li in range(loops):
        if loops == 2:
            out(outer + '{' + (' // a second pass over the same tiles: the product again, added' if li else ''))
            ind = outer + '    '
        b = ind + '    '
        if f['copy'] == 'bumps':
            out(ind + 'const %s *a = A + (row0 + ty) * K + tx;' % T)
            out(ind + 'const %s *b = B + ty * N + col;' % T)
        if f['ivar'] == 'int_lt':
            out(ind + 'for (int k0 = 0; k0 < K; k0 += TS) {')
            k0 = 'k0'
        elif f['ivar'] == 'int_ne':
            out(ind + 'for (int k0 = 0; k0 != K / TS * TS; k0 += TS) {')
            k0 = 'k0'
        else:
            out(ind + 'for (unsigned t = 0; t < (unsigned)(K + TS - 1) / TS; ++t) {')
            out(b + 'int k0 = t * TS;')
            k0 = 'k0'
        if f['rotated']:
            out(b + sync + ';')
        if f['mutation'] == 'dependent':
            out(b + 'int shift = off;')
        for i in range(R):
            r = 'ty' if i == 0 else 'ty + %d' % (i * BY)
            acol = '%s + tx' % k0 + (' + shift' if f['mutation'] == 'dependent' else '')
            src_a = 'A[(row0 + %s) * K + %s]' % (r, acol)
            src_b = 'B[(%s + %s) * N + col]' % (k0, r)
            if f['copy'] == 'helper':
                if i == 0:
                    targs = '<TS>' if f['tile_def'] == 'template' else ''
                    out(b + 'load_tiles%s(As, Bs, A, B, row0 + ty, col, %s, N, K);' % (targs, k0))
                continue
            if f['copy'] == 'bumps':
                out(b + 'As[ty][tx] = a[0];')
                out(b + 'Bs[ty][tx] = b[0];')
                continue
            if f['copy'] == 'local_index':
                out(b + 'int ia%d = (row0 + %s) * K + %s, ib%d = (%s + %s) * N + col;' % (i, r, acol, i, k0, r))
                src_a, src_b = 'A[ia%d]' % i, 'B[ib%d]' % i
            if f['mutation'] == 'computed' and i == 0:
                out(b + 'As[%s][tx] = %s * 1;' % (r, src_a))
            elif f['guard'] == 'ternary':
                out(b + 'As[%s][tx] = %s + tx < K ? %s : 0;' % (r, k0, src_a))
            elif f['guard'] == 'if_else':
                out(b + 'if (%s + tx < K)' % k0)
                out(b + '    As[%s][tx] = %s;' % (r, src_a))
                out(b + 'else')
                out(b + '    As[%s][tx] = 0;' % r)
            else:
                out(b + 'As[%s][tx] = %s;' % (r, src_a))
            if f['guard'] == 'ternary':
                out(b + 'Bs[%s][tx] = %s + %s < K ? %s : 0;' % (r, k0, r, src_b))
            elif f['guard'] == 'if_else':
                out(b + 'if (%s + %s < K)' % (k0, r))
                out(b + '    Bs[%s][tx] = %s;' % (r, src_b))
                out(b + 'else')
                out(b + '    Bs[%s][tx] = 0;' % r)
            else:
                out(b + 'Bs[%s][tx] = %s;' % (r, src_b))
        if f['mutation'] == 'cond_barrier':
            out(b + 'if (tx < TS)')
            out(b + '    ' + sync + ';')
        else:
            out(b + sync + ';')
        if f['copy'] == 'bumps':
            out(b + 'a += TS;')
            out(b + 'b += TS * N;')
        for i in range(R):
            r = 'ty' if i == 0 else 'ty + %d' % (i * BY)
            if f['compute'] == 'helper':
                targs = '<TS>' if f['tile_def'] == 'template' else ''
                out(b + 'acc[%d] += dot_row%s(As, Bs, %s, tx);' % (i, targs, r))
            else:
                if f['compute'] == 'unrolled':
                    out(b + '#pragma unroll')
                out(b + 'for (int k = 0; k < TS; ++k)')
                out(b + '    acc[%d] += As[%s][k] * Bs[k][tx];' % (i, r))
        if f['mutation'] == 'dependent':
            out(b + 'off = acc[0] > 1e30 ? 1 : 0;')
        if f['mutation'] == 'break':
            out(b + 'if (acc[0] > 1e30)')
            out(b + '    break;')
        if f['mutation'] == 'global_store':
            out(b + 'C[(row0 + ty) * N + col] = acc[0];')
        if not f['rotated']:
            out(b + sync + ';')
        out(ind + '}')
        if loops == 2:
            out(outer + '}')
    ind = outer
    for i in range(R):
        r = 'ty' if i == 0 else 'ty + %d' % (i * BY)
        scale = ' / 2' if loops == 2 else ''
        out(ind + 'C[(row0 + %s) * N + col] = acc[%d]%s;' % (r, i, scale))
    if f['structure'] == 'persistent':
        out('    }')
    out('}')
    out('')
    kname = 'gen_kernel<TS>' if f['tile_def'] == 'template' else 'gen_kernel'
    if f['tile_def'] == 'template':
        out('constexpr int TS = %d;' % TS)
    out('int main(int argc, char **argv)')
    out('{')
    out('    int sz[3] = {%d, %d, %d};  // M N K' % (M, N, 2 * TS))
    out('    harness_sizes(argc, argv, sz, 3);')
    out('    int M = sz[0], N = sz[1], K = sz[2];')
    out('    return harness_gemm<%s, %s>("gen%d", M, N, K, [&](const %s *A, const %s *B, %s *C) {' % (T, T, seed, T, T, T))
    grid = '3' if f['structure'] == 'persistent' else 'dim3(N / TS, M / TS)'
    dyn = ', 2 * TS * TS * sizeof(%s)' % T if f['tiles'] == 'extern' else ''
    out('        %s<<<%s, dim3(TS, BY)%s>>>(A, B, C, M, N, K);' % (kname, grid, dyn))
    tol = {'float': '1e-4', 'double': '1e-9', 'int': '0'}[T]
    out('    }, %s, %s);' % (tol, tol))
    out('}')
    return '\n'.join(lines) + '\n', f


if __name__ == '__main__':
    if sys.argv[1] == '--features':
        for k, v in sorted(draw(int(sys.argv[2])).items()):
            print('%s=%s' % (k, v))
    else:
        sys.stdout.write(program(int(sys.argv[1]))[0])
