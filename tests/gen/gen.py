#!/usr/bin/env python3
"""gen.py: a K-loop program from a seed, for differential testing of pipefy.

    gen.py SEED            the program on standard output
    gen.py --features SEED the features drawn, one `name=value` per line
    gen.py --stats A B     how often each feature value is drawn over seeds A..B

Every program is complete (kernel, host main through testdata's harness, CPU reference,
PASS/FAIL line, checksum) and says on its first lines what pipefy must do with it:
    // gen-expect: pipelined            cp.async and ldg must both be able to take it
    // gen-expect: refused: REGEX       every variant leaves it alone, the remark matching REGEX
and which sizes to run it at (`// gpu-runs:`): K of 0, 1, 2 and 3 tiles, and a partial tile
when the copies are guarded. The same seed always gives the same program.

Drawn: float, double, int, half, __nv_bfloat16 or signed char elements (the last three
accumulated in float or int, their tiles of the element type or, converted on the copy, of
the accumulator's); 8 or 16-wide tiles as #define, constexpr or template parameter; one or
two rows per thread; copies direct, through a helper, through bumped pointers (bumped before,
between or after the barriers) or through local indices, as 16-byte vectors (a cast, a
reinterpret_cast or a vector local), as a copy loop strided by a constant, by half of the
threads each (A's rows by one half, B's by the other), or through registers declared in the
loop or before it (B's stored transposed into a padded tile, or not); guarded by none, a
ternary or if/else (or A's if without its else: refused), or through one-line load and store
functions; loop variables int, unsigned or size_t with `<`, `<=` or `!=`; the barrier first or
last; 2-D or 1-D blocks; the K-loop alone, in a persistent loop, twice over the same tiles or
next to an independent second K-loop with tiles of its own; a second kernel like the first;
the K-loop kernel's output copied to C by a second kernel launched right after it (plain, a
template, grid-stride, `__restrict__`; with a default argument or an overload: not overlapped,
`// gen-expect-launch:`);
the K-loop reached by some threads only, as far as pipefy can prove (a return under a
test of the thread's index, never true; a bounds check around the loop): refused by every
variant; the last tile read after the loop (static tiles: refused; dynamic ones: one stage);
a barrier in the compute's helper (refused by a producer warp);
and, from a ninth stream drawn only where the program can take it (a seed that draws none of
it is the program it was, its first line naming none of `wide`, `vote`, `between`,
`dep_step`): B's tile
of 12, 16 or 24-byte elements (float3/float4, int3/int4, double2/double3, from a B the kernel
takes as an array of them: refused by tma, bulk, ws and ws-cp.async, whose boxes take 1, 2, 4
or 8-byte elements; 12 and 24 bytes by cp.async too, which moves 4, 8 or 16; ldg takes any); a
vote of the block in the compute (`votes += __syncthreads_or(...)`, `_count`, `_and`, kept for
the output, or `_and` in the compute's helper: refused by the producer warps, which never arrive
there; without `__restrict__` by every variant: pipefy counts the call as a write of memory the
copies may read), the end-of-tile barrier written `if (__syncthreads_or(0)) {}` (not the loop's
barrier: refused by every variant) or a `bar.sync 0` in asm in the compute's helper (an asm
instruction pipefy does not know: refused by every variant); a statement between the K-loop
kernel's launch and its copy's that writes the copy's grid, an argument or the stream both
name (never one persistent launch, `// gen-expect-queue: refused:`; the stream: not overlapped
either), or a local it does not read (`// gen-expect-queue: not refused for:`); and the address
the compute changes stepped (`off += acc[0] > 1e30;`), not assigned (`dep_step`); and, from a
tenth stream, dynamic tiles' last tile read after the loop through the `extern __shared__`
array itself rather than the tile's name (`after_via`: one stage, as through the name); from a
thirteenth, a local of the body the local index is computed from, stepped by a statement of its
own (`index_step`: the step goes with the copies; refused where the compute reads the local
too), or A's row in its tile so stepped (register staging's stores step it again); tensor
copies refuse both;
from a fourteenth, a row loop's test as `r <= TS - 1`, `r + 1 <= TS` or `BY + r < TS + BY`,
its step a local set once (`row_test`, `row_step`), and A's copy through a local of its body
(`row_fetch`: registers only); from a sixteenth, the plain copies written through a one-stage
thread-scope cuda::pipeline made before the loop (`cuda::memcpy_async(&As[..], &A[..], size, pipe)`
between producer_acquire and producer_commit, consumer_wait before the barrier, the CUDA samples'
shape: `pipe`, staged as the plain copies; tensor copies and producer warps refuse it), or with
its wait in a helper or its commit in an inner loop (`pipe_neg`: refused by every variant);
from a seventeenth, A's static tile given rows past its use in a kernel only the file can
launch, so that two stages of the tiles are over 48 KB of static shared memory (`big`: the
forced variants move them into the launch's dynamic shared memory); from an eighteenth, the
compute's loop bounded by `k < blockDim.x` where the launch's block is TS wide (`kdim`: counted
from the launch's dim3, and run under pipefy's guard on the block's shape); from a nineteenth,
B's if/else fill declaring the offset it loads from in its load branch (`blocal`: `{ const long
long gen_boff = ..; Bs[..] = B[gen_boff]; }`, the copy reading the local's value), and a barrier
the rewrite leaves out (`xbar`: one between A's copy and B's, or a second at the tile's end);
from a twentieth, that branch setting a local of the kernel declared before the loop instead
(`bassign`: `long long gen_bi;` .. `gen_bi = ..; Bs[..] = B[gen_bi];`, read as its value);
from a twenty-first, A's computed value through a function of the program's (`pure`: a plain
one or a template with an explicit specialization, staged; one reading a __device__ variable
or a specialization writing one, refused as not pure); from a twenty-second, the compute
reading A's register declared before the loop after the copies (`reread`: `acc[0] += ra0 -
As[ty][tx];`, zero only when the register holds this tile's element: registers load a register
of their own a tile early and assign ra0 from it where they store the copies);
from a twenty-third, that register's fetch through a texture object over A (`tex`: `ra0 =
tex1Dfetch<float>(gen_tex, ..)`, float tiles only: staged by registers as a load); from a
twenty-fourth, the helper's copies as one call a tile (`split_helper`: `load_tile(As, A, ..);
load_tile(Bs, B, ..);`, a template's where the tiles are, both calls the fill); from a
twenty-fifth, a break in the copies' row loop (`row_jump`: the same on every tile, staged; or
reading the tile, `if (k0 >= K && r >= BY) break;`, refused as a store made on some tiles);
from a twenty-sixth, a local of the kernel declared before the loop (C89's habit) that the body
sets first from the tile's position and the copies read (`fscratch`: `gen_t = k0 / TS;`, the
copies' addresses through `gen_t * TS`; the compute reading it too, `both`: the loader sets a
local of its own and the compute keeps its statement; read after the loop, `after`: refused);
compute inline, in a helper or unrolled; `__restrict__` or not; `__syncthreads()`,
`block.sync()` or `cg::sync(block)`; tiles as __shared__ arrays or pointers into
`extern __shared__` memory (one register stage, no cp.async, unless the kernel is static: then
stages by bigger launches); A's tile stored from a value computed from its load (`A[..] * 1`:
registers stage it, cp.async and tensor copies refuse it); and mutations that must be refused (an
address the compute changes, a barrier under a condition, a break, a global store the copies
may read, B's tile in global memory stored before the barrier and read after it); a return
before the K-loop, never taken, which the mbarrier variants (tma, bulk, ws) must refuse. Each
program says what each variant must do
(`// gen-expect-VARIANT:` where one differs: cp.async takes only unconverted 4, 8 or 16-byte
copies from global memory; registers stage copies under a branch only where its branches hold
loads alone, `subset`).
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
    if f['tiles'] == 'extern':  # (drawn before views were pipelined; kept so that seeds stay)
        f['copy'], f['guard'], f['structure'], f['mutation'] = 'direct', 'none', 'plain', 'none'
    # a third stream (session 5): element types and conversions, vector copies, copy loops,
    # copies by some of the threads, registers, 1-D blocks, size_t and `<=`, where a pointer
    # bump sits, independent K-loops, a second kernel
    r3 = random.Random(seed * 7919 + 5)
    f['elem'] = r3.choice(['same'] * 6 + ['half', 'bf16', 'int8'])
    f['convert'] = f['elem'] != 'same' and r3.random() < 0.3  # tiles of float (int) from half (int8)
    f['form'] = r3.choice(['scalar'] * 6 + ['vec', 'row_loop', 'subset', 'register', 'register_outside'])
    f['vec'] = r3.choice(['cast', 'reinterpret', 'local'])
    f['block1d'] = r3.random() < 0.2
    f['ivar_more'] = r3.choice(['none'] * 4 + ['size_t', 'int_le'])
    f['bump_at'] = r3.choice(['between', 'before', 'after'])
    f['independent'] = r3.random() < 0.12
    f['second_kernel'] = r3.random() < 0.12
    f['transpose'] = r3.random() < 0.5
    # B's tile in global memory of the block's own (a __device__ array), stored before the
    # barrier and read after it: the barrier orders those too, so it must stay where it is
    f['scratch'] = r3.random() < 0.15
    # what each form needs, so that a program stays one valid K-loop program
    if f['form'] != 'scalar':
        f['copy'] = 'direct'
        if f['mutation'] in ('computed', 'dependent'):
            f['mutation'] = 'none'
    if f['copy'] == 'helper':  # the helper indexes by threadIdx.x and threadIdx.y
        f['block1d'] = False
    if f['elem'] != 'same' and f['mutation'] == 'computed':
        f['mutation'] = 'break'
    if f['form'] in ('vec', 'subset', 'row_loop', 'register', 'register_outside'):
        f['guard'] = 'none' if f['form'] != 'register' else f['guard']
    if f['form'] == 'vec':
        f['elem'], f['convert'], f['rows'], f['block1d'] = 'same', False, 1, False
        if f['type'] == 'double' and f['ts'] == 8:
            f['ts'] = 16
    if f['form'] in ('subset', 'row_loop'):
        f['rows'] = 1 if f['form'] == 'subset' else 2
    if f['form'] == 'register_outside' and f['rows'] == 2:
        f['rows'] = 1
    if f['form'] == 'register' and f['guard'] == 'if_else':
        f['guard'] = 'ternary'  # a register's guard is its initializer's
    if f['elem'] != 'same':
        f['type'] = {'half': 'half', 'bf16': '__nv_bfloat16', 'int8': 'signed char'}[f['elem']]
    if f['ivar_more'] != 'none':
        if f['copy'] == 'bumps' or f['guard'] != 'none':
            f['ivar_more'] = 'none'
        else:
            f['ivar'] = 'int_lt'
    if f['tiles'] == 'extern':
        f['form'], f['elem'], f['convert'], f['independent'] = 'scalar', 'same', False, False
        if f['type'] not in ('float', 'double', 'int'):
            f['type'] = 'float'
    if f['structure'] != 'plain' or f['mutation'] != 'none':
        f['independent'] = False
    if f['scratch'] and (f['form'] != 'scalar' or f['copy'] != 'direct' or f['tiles'] != 'static' or
                         f['independent'] or f['compute'] == 'helper' or f['mutation'] == 'global_store'):
        f['scratch'] = False
    # a fourth stream (session 6): A's guarded copy without its else, so that a partial last
    # tile keeps the previous tile's values there; must be refused (every stage would differ)
    r4 = random.Random(seed * 104729 + 3)
    f['no_else'] = f['guard'] == 'if_else' and r4.random() < 0.6
    # unguarded scalar copies through one-line load and store functions, `st(&As[..], ld(&A[..]))`
    f['accessor'] = (r4.random() < 0.15 and f['form'] == 'scalar' and f['guard'] == 'none' and
                     f['copy'] in ('direct', 'local_index') and f['mutation'] != 'computed')
    # tiles in the launch's memory, in a kernel only this file can launch: stages by bigger launches
    f['static_kernel'] = f['tiles'] == 'extern' and r4.random() < 0.5
    # a fifth stream (session 7): three seeds in ten take the shape sm_90's tensor copies need
    # (a kernel that is no template, one copy per tile, each thread one element of it, no
    # guard): the other features (structure, compute, loop variables, mutations) stay random
    r5 = random.Random(seed * 15485863 + 11)
    f['box'] = r5.random() < 0.3
    if f['box']:
        if f['tile_def'] == 'template':
            f['tile_def'] = r5.choice(['define', 'constexpr'])
        f['rows'], f['guard'], f['form'], f['tiles'], f['block1d'] = 1, 'none', 'scalar', 'static', False
        if f['copy'] in ('helper', 'bumps'):
            f['copy'] = 'direct'
        if f['elem'] != 'same':
            f['elem'], f['convert'] = 'same', False
            f['type'] = r5.choice(['float', 'double', 'int'])
        f['accessor'] = f['no_else'] = f['scratch'] = f['static_kernel'] = False
    # a sixth stream (session 10): the K-loop kernel writes a buffer of its own and a second
    # kernel, launched right after it on the same stream, copies that into C (what an
    # overlapped launch must wait for); some copy kernels a pointer cannot take as written
    r6 = random.Random(seed * 2750159 + 7)
    f['chain'] = r6.random() < 0.25 and not f['second_kernel']
    f['chain_kind'] = r6.choice(['plain', 'plain', 'template', 'grid_stride', 'restrict', 'defaults', 'overload'])
    if not f['chain']:
        f['chain_kind'] = 'none'
    # a seventh stream (session 11): a return before the K-loop (never taken: the block's index
    # is within its grid), which the mbarrier variants must refuse and the others take
    r7 = random.Random(seed * 6700417 + 13)
    f['exit'] = r7.random() < 0.15
    # an eighth stream (session 17): the K-loop reached by some threads of a block only, as far
    # as pipefy can prove: a return under a test of the thread's index (never true, but a
    # thread's), or the loop inside such a bounds check; every variant must refuse the bounds
    # check (session 33: a kernel's return ends the thread, which __syncthreads() does not wait
    # for, so registers and cp.async take the return; the mbarrier variants name it)
    r8 = random.Random(seed * 2147483647 + 17)
    f['participation'] = r8.choice(['all'] * 17 + ['thread_return', 'bounds_if', 'bounds_if'])
    if f['participation'] == 'bounds_if' and (f['structure'] != 'plain' or f['independent']):
        f['participation'] = 'all'
    # and the last tile read after the loop (B's first row, against B itself: zero when it is
    # the last tile's): the tiles, static or dynamic, keep one stage
    f['tile_after'] = (r8.random() < 0.3 and f['form'] == 'scalar' and f['copy'] == 'direct' and f['rows'] == 1 and
                       not f['convert'] and f['guard'] == 'none' and f['structure'] == 'plain' and
                       not f['independent'] and not f['scratch'] and f['participation'] == 'all' and
                       f['mutation'] == 'none' and not f['second_kernel'])
    # and a barrier inside the compute's helper (every thread calls it alike: the loop as
    # written and cp.async, registers and tensor copies keep it; a producer warp never arrives)
    f['compute_sync'] = r8.random() < 0.3 and f['compute'] == 'helper' and f['barrier'] == 'syncthreads'
    # a ninth stream (session 18): drawn only where the program can take it, so that every
    # feature above stays what it was; a seed that draws none of these is the program it was.
    # B's tile of 12, 16 or 24-byte elements (float3/float4, int3/int4, double2/double3), each
    # thread one vector of a B the kernel takes as an array of them (its columns W times the
    # tile's): tensor copies, bulk copies and the producer warps take 1, 2, 4 or 8-byte elements
    # only, cp.async 16-byte ones (and 4 or 8), registers any
    r9 = random.Random(seed * 1299709 + 19)
    wide_ok = (f['form'] == 'scalar' and f['elem'] == 'same' and f['tiles'] == 'static' and
               f['copy'] in ('direct', 'local_index') and f['guard'] == 'none' and not f['scratch'] and
               not f['tile_after'] and not f['accessor'] and not f['convert'])
    wide = r9.random() < 0.3
    f['wide'] = r9.choice({'float': ['float4', 'float3'], 'int': ['int4', 'int3'],
                           'double': ['double2', 'double3']}.get(f['type'], ['none'])) if wide and wide_ok else 'none'
    # a block barrier other than the loop's in the compute: a vote kept in a variable the output
    # uses (`votes += __syncthreads_or(...)`, `_count`, `_and`) or in the compute's helper (`_and`):
    # a producer warp never arrives there (cp.async and registers keep it; the call counts as a
    # write of memory: without `__restrict__` the copies' pointers may point at it); the loop's
    # own end-of-tile barrier written `if (__syncthreads_or(0)) {}` (not the loop's barrier:
    # refused by every variant), or a `bar.sync 0` in asm in the compute's helper (an asm
    # instruction pipefy does not know: refused by every variant)
    vote = r9.random() < 0.15
    helper = f['compute'] == 'helper' and not (f['form'] in ('register', 'register_outside') and f['transpose'])
    kind = r9.choice(['helper_and', 'helper_and', 'asm', 'asm', 'count', 'or', 'and', 'end_or'] if helper else
                     ['count', 'or', 'and', 'end_or'])
    if kind == 'end_or' and f['rotated']:
        kind = 'count'
    f['vote'] = kind if vote else 'none'
    # a statement between the K-loop kernel's launch and its copy's: one that writes what the
    # second launch reads (its grid, an argument, the stream both name: never one persistent
    # launch, and, for the stream, not overlapped either) or one that writes nothing it reads
    between = r9.choice(['grid', 'arg', 'stream', 'harmless', 'harmless'])
    f['between'] = between if f['chain'] and r9.random() < 0.6 else 'none'
    # the address the compute changes (mutation 'dependent') stepped, `off += acc[0] > 1e30;`,
    # not assigned: an integer the loop adds to looks like a loop variable's bump, but this step
    # is the compute's (refused as the assignment is)
    f['dep_step'] = f['mutation'] == 'dependent' and r9.random() < 0.5
    # a tenth stream (session 19): dynamic tiles' last tile read after the loop through the
    # `extern __shared__` array itself rather than the tile's name (one stage either way: a
    # second would be read as the first)
    r10 = random.Random(seed * 15485863 + 23)
    f['after_via'] = 'extern' if f['tile_after'] and f['tiles'] == 'extern' and r10.random() < 0.5 else 'name'
    # an eleventh stream (session 21): A's guarded copy written as a constant first, then the
    # copy under an if (`As[..] = 0; if (g) As[..] = A[..];`: one guarded copy when next to each
    # other, refused naming the constant when B's zero sits between); the row loop's column
    # declared in its body from the K-loop's variable (`int c = k0 + tx;`: the stash takes the
    # fetched tile's k0), or its rows copied by two nested loops (registers refused: one a trip of
    # the outer loop would keep the inner loop's last copy)
    r11 = random.Random(seed * 32452843 + 29)
    fill_ok = f['guard'] == 'if_else' and not f['no_else'] and f['form'] == 'scalar' and not f['accessor']
    f['fill_first'] = r11.choice(['next', 'next', 'apart']) if fill_ok and r11.random() < 0.5 else 'none'
    loop_ok = f['form'] == 'row_loop' and f['copy'] == 'direct' and f['mutation'] != 'dependent'
    f['row_loop_kind'] = r11.choice(['local', 'nested']) if loop_ok and r11.random() < 0.6 else 'none'
    # a twelfth stream (session 22): the vector copy's register a local array declared before the
    # loop, loaded whole through a cast (`*(float4 *)&ras[0] = ..`) and stored whole or element by
    # element (the classic V2 SGEMM's `FLOAT4(r_load_a[0]) = ..; s_a[k][m] = r_load_a[0]; ..`)
    r12 = random.Random(seed * 49979687 + 31)
    vec_ok = f['form'] == 'vec' and f['vec'] == 'local'
    f['vec_reg'] = r12.choice(['whole', 'scatter']) if vec_ok and r12.random() < 0.6 else 'none'
    # a thirteenth stream (session 25): a local of the body stepped by a statement of its own
    # after its declaration, cudaTensorCoreGemm's shape: the row the local index is computed
    # from (`int ir0 = ty - 1; ir0 += 1; int ia0 = (row0 + ir0) * K + ..;`): the step goes with
    # the copies ('copies'); read by the compute too, the step stays there and the copies cannot
    # run a tile early ('compute'; the build before replayed the declarations without the step
    # and read the row above); A's row in its tile so stepped ('row': `int ra0 = ty + 1; ra0 -=
    # 1;`), which register staging, storing its registers by running the copies again, declares
    # and steps again there (session 26; refused before); tensor copies read no box through a
    # step
    r13 = random.Random(seed * 65537 + 41)
    step_ok = (f['copy'] == 'local_index' and f['form'] == 'scalar' and f['mutation'] == 'none' and
               not f['accessor'] and f['fill_first'] == 'none')
    f['index_step'] = r13.choice(['copies', 'compute', 'row']) if step_ok and r13.random() < 0.6 else 'none'
    # a fourteenth stream (session 26): a row loop's test written `r <= TS - 1`, `r + 1 <= TS` or
    # `BY + r < TS + BY` (read as `r < TS`) and its step a local set once before the loop
    # (`int rs = BY;`): register staging sizes its registers by the same trips
    r14 = random.Random(seed * 104729 + 7)
    rows_ok = f['form'] == 'row_loop' and f['row_loop_kind'] != 'nested'
    f['row_test'] = r14.choice(['le', 'plus_le', 'plus_lt']) if rows_ok and r14.random() < 0.6 else 'lt'
    f['row_step'] = r14.choice(['const', 'local']) if rows_ok else 'const'
    # and A's copy through a local of the row loop's body (`TT va = A[..]; As[r][tx] = va;`):
    # registers stage the local a trip at a time; cp.async and tensor copies take no register
    f['row_fetch'] = rows_ok and r14.random() < 0.4
    # the fifteenth stream (2026-12-06): the compute reads A's tile row through a pointer it
    # declares each tile (`const TT *gen_ap0 = &As[ty][0]; .. gen_ap0[k]`, tpoisonooo's
    # `float *ptrA = ashare + ..`): a view of the stage being computed
    r15 = random.Random(seed * 130363 + 11)
    f['cview'] = f['compute'] in ('inline', 'unrolled') and r15.random() < 0.3
    # the sixteenth stream (session 29): the plain copies written through a one-stage
    # thread-scope cuda::pipeline made before the loop, the CUDA samples' globalToShmemAsyncCopy
    # (`pipe.producer_acquire(); cuda::memcpy_async(&As[..], &A[..], SIZE, pipe); ..
    # pipe.producer_commit(); pipe.consumer_wait();` before the first barrier): once the wait
    # returns each copy is a plain one, which pipefy stages as it would the plain copy (the
    # pipeline's calls dropped). Only where every copy is one element of 4 or 8 bytes moved
    # as it is (memcpy_async moves 4, 8 or 16 bytes for pipefy) into static tiles; SIZE
    # `sizeof(TT)`, a const local `shape` (cuda::aligned_size_t<alignof(TT)>(sizeof(TT))) or that
    # written in the call (`pipe`); the pipeline made right before the loop or at the kernel's
    # top (`pipe_at`); the copies and the commit in a block of their own, the wait after it
    # (`pipe_block`); a consumer_release after the compute or at the end of the body
    # (`pipe_release`); and, now and then, what makes the copies a pipeline pipefy must leave as
    # it is (`pipe_neg`): the wait in a helper of the program (`gen_drain(pipe)`, the pipeline
    # named other than by the loop's own calls) or the copies and their commit in an inner loop
    # of one trip (tiles in flight across iterations, as far as pipefy can tell)
    r16 = random.Random(seed * 86028121 + 47)
    pipe_ok = (f['form'] == 'scalar' and f['copy'] in ('direct', 'local_index', 'bumps') and f['guard'] == 'none' and
               f['elem'] == 'same' and f['type'] in ('float', 'double', 'int') and not f['convert'] and
               not f['accessor'] and f['tiles'] == 'static' and f['mutation'] == 'none' and f['wide'] == 'none' and
               not f['scratch'] and not f['tile_after'] and f['participation'] == 'all' and
               f['index_step'] == 'none' and f['fill_first'] == 'none' and not f['rotated'] and
               f['structure'] != 'two_loops' and not f['independent'])
    # (one K-loop a kernel: another loop's asynchronous copies in the same function are ones a
    # loop's wait may complete, which pipefy leaves as written, 'the function also copies')
    pipe = r16.random() < 0.85
    size = r16.choice(['sizeof', 'sizeof', 'shape', 'shape', 'inline'])
    at = r16.choice(['loop', 'loop', 'top'])
    block = r16.random() < 0.4
    release = r16.choice(['none', 'none', 'compute', 'end'])
    neg = r16.choice(['drain', 'inner_commit']) if r16.random() < 0.15 else 'none'
    if pipe and pipe_ok:
        # (no block around local indices: pipefy's register staging takes a block the copies and
        # their index declarations sit in for a loop, 'the copy .. sits in the loop at', and
        # refuses; plain copies so written alike)
        block = block and neg != 'inner_commit' and f['copy'] != 'local_index'
        f['pipe'], f['pipe_block'], f['pipe_release'], f['pipe_neg'] = size, block, release, neg
        f['pipe_at'] = at
    else:
        f['pipe'], f['pipe_at'], f['pipe_block'], f['pipe_release'], f['pipe_neg'] = 'none', 'loop', False, 'none', 'none'
    # the seventeenth stream (session 30): A's static tile given rows past its use, so that two
    # stages of the tiles are over the 48 KB of static shared memory, in a kernel only this file
    # can launch (`static`): the forced variants move the staged tiles into the launch's dynamic
    # shared memory (`big`; auto's plans count the occupancy, and may take one register stage)
    r17 = random.Random(seed * 2654435761 + 29)
    big_ok = (f['tiles'] == 'static' and not f['scratch'] and f['tile_def'] != 'template' and
              f['structure'] != 'two_loops' and not f['independent'] and not f['box'] and
              f['participation'] == 'all' and not f['tile_after'] and f['pipe'] == 'none' and
              f['mutation'] == 'none' and f['copy'] != 'helper' and f['wide'] == 'none')
    f['big'] = big_ok and r17.random() < 0.2
    if f['big']:
        f['static_kernel'] = True
    # the eighteenth stream (session 32): the compute's loop `for (k = 0; k < blockDim.x; ++k)`,
    # the course-code habit, where the launch's block is TS threads wide (a dim3 of the file's
    # own constants): pipefy counts its trips from the launch and guards the pipelined loop by
    # the block's shape
    r18 = random.Random(seed * 40503 + 53)
    kdim_ok = (not f['block1d'] and f['form'] != 'vec' and f['tile_def'] != 'template' and
               f['compute'] in ('inline', 'unrolled') and f['wide'] == 'none')
    f['kdim'] = kdim_ok and r18.random() < 0.3
    # the nineteenth stream (session 33): B's if/else fill declaring its offset in the load
    # branch; a barrier the rewrite leaves out (between A's copy and B's, which write two tiles
    # and read none; or a second one at the tile's end)
    r19 = random.Random(seed * 1000003 + 59)
    f['blocal'] = f['guard'] == 'if_else' and f['form'] == 'scalar' and not f['accessor'] and r19.random() < 0.5
    # (between copies into arrays only: two pointers into the launch's extern array may reach
    # one element, so pipefy keeps a barrier between copies through them)
    xbar_between_ok = (f['form'] == 'scalar' and f['rows'] == 1 and f['fill_first'] == 'none' and
                       f['tiles'] == 'static' and
                       not f['accessor'] and f['mutation'] == 'none' and f['pipe'] == 'none' and
                       f['copy'] in ('direct', 'local_index'))
    xbar = r19.choice(['none', 'none', 'none', 'between', 'twice'])
    if xbar == 'between' and not xbar_between_ok:
        xbar = 'none'
    if xbar == 'twice' and (f['rotated'] or f['vote'] != 'none' or f['mutation'] != 'none'):
        xbar = 'none'
    f['xbar'] = xbar
    # the twentieth stream (session 34): B's load branch sets a local of the kernel declared
    # before the loop that nothing else names, instead of declaring its own (`bassign`)
    r20 = random.Random(seed * 7919 + 61)
    f['bassign'] = f['blocal'] and r20.random() < 0.5
    # the twenty-first stream (session 35): A's computed value through a function of the
    # program's (`pure`): pure (a plain function; a template with an explicit specialization for
    # the tile's type), or not (one reads a __device__ variable; the specialization writes one)
    r21 = random.Random(seed * 7919 + 67)
    f['pure'] = r21.choice(['none', 'none', 'fn', 'tmpl', 'reads', 'spec_writes']) if f['mutation'] == 'computed' else 'none'
    # the twenty-second stream (session 36): the compute reads A's register after the copies
    # (`acc[0] += ra0 - As[ty][tx];`, zero when the register holds this tile's element): the
    # fetch keeps its statement in the stash, a register of its own loaded a tile early
    r22 = random.Random(seed * 7919 + 71)
    f['reread'] = f['form'] == 'register_outside' and f['wide'] == 'none' and r22.random() < 0.5
    # the twenty-third stream (session 36): A's fetch into that register through a texture
    # object over A (`ra0 = tex1Dfetch<float>(gen_tex, ..)`): register staging starts it a tile
    # early as any load (float tiles only: a texture's texels)
    r23 = random.Random(seed * 7919 + 73)
    f['tex'] = (f['form'] == 'register_outside' and f['type'] == 'float' and f['elem'] == 'same' and
                f['wide'] == 'none' and r23.random() < 0.5)
    # the twenty-fourth stream (session 37): the helper's copies split into one call a tile,
    # `load_tile(As, A, ..); load_tile(Bs, B, ..);`, calls in a row the fill together
    r24 = random.Random(seed * 7919 + 79)
    f['split_helper'] = f['copy'] == 'helper' and r24.random() < 0.5
    # the twenty-fifth stream (session 37): a break in the row loop of the copies, the same on
    # every tile (`if (r >= TS) break;`: staged) or reading the tile (`if (k0 >= K && r >= BY)
    # break;`, never taken, but pipefy cannot show it is not on some tiles: refused)
    r25 = random.Random(seed * 7919 + 83)
    jump_ok = f['form'] == 'row_loop' and f['row_loop_kind'] != 'nested' and f['copy'] == 'direct'
    f['row_jump'] = r25.choice(['none', 'fixed', 'tile']) if jump_ok else 'none'
    # the twenty-sixth stream (session 38): a scratch local of the kernel, declared before the
    # loop, set by the body's first statement and read by the copies (and the compute: `both`),
    # or read after the loop too (`after`: pipefy cannot show its value after the loop unread)
    r26 = random.Random(seed * 7919 + 89)
    scratch_ok = (f['copy'] in ('direct', 'local_index') and f['form'] == 'scalar' and f['structure'] == 'plain' and
                  not f['independent'] and f['pipe'] == 'none' and not f['rotated'] and f['mutation'] == 'none' and
                  f['index_step'] == 'none' and f['vote'] == 'none' and f['participation'] == 'all' and
                  not f['bassign'] and f['xbar'] == 'none')
    f['fscratch'] = r26.choice(['none', 'copies', 'both', 'after']) if scratch_ok else 'none'
    return f


# the ninth stream's features, and their values where a seed draws none of them (the first
# line of such a program names none of them)
NINTH = {'wide': 'none', 'vote': 'none', 'between': 'none', 'dep_step': False, 'after_via': 'name',
         'fill_first': 'none', 'row_loop_kind': 'none', 'vec_reg': 'none', 'index_step': 'none',
         'row_test': 'lt', 'row_step': 'const', 'row_fetch': False, 'cview': False,
         'pipe': 'none', 'pipe_at': 'loop', 'pipe_block': False, 'pipe_release': 'none', 'pipe_neg': 'none',
         'big': False, 'kdim': False, 'blocal': False, 'xbar': 'none', 'bassign': False, 'pure': 'none',
         'reread': False, 'tex': False, 'split_helper': False, 'row_jump': 'none', 'fscratch': 'none'}
WIDE = {'float3': ('float', 3), 'float4': ('float', 4), 'int3': ('int', 3), 'int4': ('int', 4),
        'double2': ('double', 2), 'double3': ('double', 3)}
COMP = 'xyzw'
VOTES = ('count', 'or', 'and', 'helper_and')  # a vote in the compute: a barrier a producer warp never reaches


VEC = {'float': ('float4', 4), 'double': ('double2', 2), 'int': ('int4', 4)}
SIZEOF = {'float': 4, 'int': 4, 'double': 8, 'half': 2, '__nv_bfloat16': 2, 'signed char': 1}
TO_ACC = {'half': '__half2float(%s)', '__nv_bfloat16': '__bfloat162float(%s)', 'signed char': '(int)%s'}
ACC = {'half': 'float', '__nv_bfloat16': 'float', 'signed char': 'int'}
ZERO = {'half': '__float2half(0.0f)', '__nv_bfloat16': '__float2bfloat16(0.0f)'}


def program(seed):
    f = draw(seed)
    TG, TS, R = f['type'], f['ts'], f['rows']
    TA = ACC.get(TG, TG)                  # accumulator and output type
    TT = TA if f['convert'] else TG       # tile element type
    BY = TS // R                          # threads in y; each does R rows
    form = f['form']
    vec, VW = VEC.get(TG, (None, 1)) if form == 'vec' else (None, 1)
    BX = TS // VW                         # threads in x
    transpose = form in ('register', 'register_outside') and f['transpose']
    WV = f['wide'] if f['wide'] != 'none' else None  # B's tile element, a vector of W of B's columns
    W = WIDE[WV][1] if WV else 1
    WB = W * {'float': 4, 'int': 4, 'double': 8}[TG] if WV else 0  # its bytes
    lines = []
    out = lines.append
    guarded = f['guard'] != 'none'
    partial = guarded

    def load(x):                          # a global element as the tile stores it
        return TO_ACC[TG] % x if f['convert'] else x

    def value(x):                         # a tile element as the accumulator adds it
        return TO_ACC[TT] % x if TT in TO_ACC else x

    zero = ZERO.get(TT, '0')
    mutation_reason = {
        'none': None,
        'computed': None,  # (A's copy of a computed value: registers stage it, cp.async cannot)
        'dependent': "which the compute (at [0-9:]+ )?writes",
        'cond_barrier': "under a condition",
        'break': "'break' at",
        'global_store': "may point at it",
    }[f['mutation']]
    if f['pure'] in ('reads', 'spec_writes'):
        mutation_reason = 'is not pure'  # (the function, or the specialization the call runs)
    if f['mutation'] == 'cond_barrier' and f['vote'] == 'end_or':
        # (its first barrier under an if, its last the vote's `if (__syncthreads_or(0)) {}`:
        # no barrier at the body's top level, which find names first; seed 352)
        mutation_reason = 'nested inside a statement'
    # known limits, recorded in tests/gpu/FUZZ.md: pipefy stages a loop's tiles only when they
    # are its own (two K-loops over the same static tiles keep one stage each; over the launch's
    # shared memory they are left alone), cannot resolve a call to a
    # function template inside a kernel template (nor any call handed the template's tiles), moves a helper's copies only by cp.async,
    # stages no copy loop holding another loop in registers, and keeps tiles in
    # dynamic shared memory to one register stage; with several reasons the remark names the
    # first it finds
    sync = {'syncthreads': '__syncthreads()', 'block_sync': 'block.sync()', 'cg_sync': 'cg::sync(block)'}[f['barrier']]
    # a helper's copies move only by cp.async, which takes no 1 or 2-byte or converted copies
    helper_no = f['copy'] == 'helper' and (f['convert'] or TT in ('half', '__nv_bfloat16', 'signed char'))
    reasons = [x for x in ['cannot be made asynchronous' if helper_no else None,
                           'before the barrier at|may point at it' if f['scratch'] else None,
                           # (A's only row a computed value's copy: no if left without its else)
                           'made on some tiles and not on others'
                           if f['no_else'] and not (f['mutation'] == 'computed' and f['rows'] == 1) else None,
                           'set to a constant at' if f['fill_first'] == 'apart' else None,
                           'made on some tiles and not on others' if f['row_jump'] == 'tile' else None,
                           mutation_reason,
                           # (static tiles another loop also names keep one stage: cp.async below)
                           'also used outside the loop' if f['structure'] == 'two_loops' and f['tiles'] != 'static' else None,
                           # (registers declared before two loops, each loop's other use of them
                           # after its own: the fetch keeps its statement, a register of its own)
                           # (a call on the template's tiles binds only at instantiation)
                           'depends on the template' if f['accessor'] and f['tile_def'] == 'template' else None,
                           'may not be reached by every thread' if f['participation'] == 'bounds_if' else None,
                           # (a vote in the compute counts as a write of memory the copies may read)
                           'may point at it' if f['vote'] in VOTES and not f['restrict'] else None,
                           'only one block barrier' if f['vote'] == 'end_or' else None,
                           # (as the loop's last barrier, a vote is a call that may write memory too)
                           'may point at it' if f['vote'] == 'end_or' and not f['restrict'] else None,
                           "runs the asm instruction 'bar.sync'" if f['vote'] == 'asm' else None,
                           "the copies read 'ir0', which the compute" if f['index_step'] == 'compute' else None,
                           "'gen_t'" if f['fscratch'] == 'after' else None,
                           # (the pipeline's copies are a pipeline already: its wait elsewhere, or its
                           # commit in an inner loop)
                           "asynchronous already .*named at [0-9:]+ other than by the loop's copies and calls"
                           if f['pipe_neg'] == 'drain' else None,
                           "asynchronous already .*commits inside an inner loop" if f['pipe_neg'] == 'inner_commit' else None]
               if x]
    # what each variant can take: cp.async moves 4, 8 or 16 bytes unconverted from global
    # memory; registers stage copies that sit in no branch
    cp_async_no = None
    if f['tiles'] == 'extern' and not (f['static_kernel'] and f['tile_def'] != 'template'):
        cp_async_no = 'sized by the launch'  # one register stage, in the shared memory the launch gives
    elif f['tiles'] == 'extern' and f['cview']:
        # the compute's view of A's row is one more pointer into the launch's shared memory, which
        # a second stage in a bigger launch would leave reading the first (pipefy does not follow
        # a view of a view)
        cp_async_no = 'sized by the launch'  # (the remark's first clause; --report names the view)
    elif f['tiles'] == 'extern' and f['tile_after']:
        # one stage: a second would be read as the first
        cp_async_no = 'also used outside the loop' if f['after_via'] == 'name' else 'by another name than the loop'
    elif f['tiles'] == 'static' and (f['tile_after'] or f['structure'] == 'two_loops'):
        # one stage, as a dynamic tile's: the code outside the loop sees the tile itself
        cp_async_no = 'also used outside the loop'
    elif f['mutation'] == 'computed':
        cp_async_no = 'stores a value computed'
    elif f['copy'] != 'helper':
        if form in ('register', 'register_outside') or (form == 'vec' and f['vec'] == 'local') or f['row_fetch']:
            cp_async_no = 'stored from register value'
        elif f['convert']:
            cp_async_no = 'converts its value'
        elif TT in ('half', '__nv_bfloat16', 'signed char'):
            cp_async_no = 'moves [12] bytes?;'
        elif WB not in (0, 16):
            cp_async_no = 'moves %d bytes;' % WB  # (B's copy: A's moves 4 or 8)
    # (a copy loop's trip count in a kernel template is known only once it is instantiated)
    ldg_no = 'only cp.async' if f['copy'] == 'helper' else None
    expect = 'refused: (%s)' % '|'.join(reasons) if reasons else 'pipelined'
    expect_cp = expect_ldg = expect_auto = None
    if not reasons and cp_async_no and ldg_no:
        # (registers cannot, and cp.async names its own reason first where it has one: seed 403's
        # static tiles two loops name)
        expect = 'refused: (%s|%s)' % (ldg_no, cp_async_no)
    elif not reasons:
        expect_cp = 'refused: (%s)' % cp_async_no if cp_async_no else None
        expect_ldg = 'refused: (%s)' % ldg_no if ldg_no else None
    K = [0, TS, 2 * TS, 3 * TS] + ([2 * TS + 3] if partial else [])
    M = N = 2 * TS
    N *= W                                # (a wide B's vector holds W of its columns)
    out('// gen %d: %s' % (seed, ', '.join('%s=%s' % kv for kv in sorted(f.items())
                                           if not (kv[0] in NINTH and kv[1] == NINTH[kv[0]]))))
    out('// gen-expect: ' + expect)
    for v, e in (('auto', expect_auto), ('cp.async', expect_cp), ('ldg', expect_ldg)):
        if e:
            out('// gen-expect-%s: %s' % (v, e))
    # sm_90's variants, where the loop is otherwise pipelined: each a list of what its remark may
    # name first ('.': whatever it names first)
    sm90 = {'tma': [], 'bulk': [], 'ws': [], 'ws-cp.async': []}
    if f['tiles'] == 'static' and (f['tile_after'] or f['structure'] == 'two_loops') and expect == 'pipelined':
        for v in sm90:  # (one stage: no tensor copies)
            sm90[v].append('.')
    if (f['exit'] or f['participation'] == 'thread_return') and expect == 'pipelined':
        # (the producer warp with cp.async counts threads at its named barriers too: a return
        # before the loop is refused, the README says, the block's own as well: seeds 57 and 191
        # under GEN_ALL_RERUNS)
        for v in ('tma', 'bulk', 'ws', 'ws-cp.async'):
            sm90[v].append('may end threads before the loop runs')
    if f['compute_sync'] and expect == 'pipelined':
        for v in ('ws-cp.async',) if f['exit'] or f['participation'] == 'thread_return' else ('ws', 'ws-cp.async'):
            sm90[v].append('.')  # (whatever it names first: no producer warp)
    if f['vote'] in VOTES and expect == 'pipelined':
        for v in ('ws', 'ws-cp.async'):
            sm90[v].append('.')  # (a 1-D block's copies reach the producer's barrier rule: none here)
    if WB and expect == 'pipelined':
        # (the element's size where the tiles are boxes otherwise; the first of A's copy's problems
        # where they are not: a refusal either way)
        for v in sm90:
            sm90[v].append('holds %d-byte elements' % WB if f['box'] else '.')
    if f['mutation'] == 'computed' and expect == 'pipelined':
        for v in sm90:  # (after an exit before the loop, which is named first)
            sm90[v].append('stores a value computed')
    if f['pipe'] != 'none' and expect == 'pipelined':
        for v in sm90:  # (the pipeline's copy is taken for an accessor's store: 'stores through an accessor')
            sm90[v].append('.')
    if f['row_fetch'] and expect == 'pipelined':
        for v in sm90:
            sm90[v].append('.')  # (a register's store is no box, nor a producer's copy)
    if f['index_step'] in ('copies', 'row') and expect == 'pipelined':
        for v in sm90:  # (after an exit before the loop, which is named first)
            sm90[v].append("advances '%s'" % ('ra0' if f['index_step'] == 'row' else 'ir0'))
    if f['fscratch'] in ('copies', 'both') and expect == 'pipelined':
        for v in sm90:  # (tensor copies take no step of a local, the loop's own variables aside)
            sm90[v].append("advances 'gen_t'")
    for v, res in sm90.items():
        if res:
            out('// gen-expect-%s: refused: (%s)' % (v, '.' if '.' in res else '|'.join(res)))
    if f['chain']:
        out('// gen-expect-launch: ' + (
            'refused: writes .gen_s., the stream they name' if f['between'] == 'stream' else
            {'defaults': 'refused: takes 4 arguments and the launch passes 3',
             'overload': 'refused: is overloaded'}.get(f['chain_kind'], 'overlapped')))
    # one persistent launch (--launches=queue) reads the second launch's values where the first
    # launch was: a statement between them that writes one keeps them two launches; one that
    # writes nothing the second reads keeps none (the pair may still be refused for another reason)
    if f['between'] == 'stream':
        out('// gen-expect-queue: refused: writes .gen_s., the stream they name')
    elif f['between'] in ('grid', 'arg'):
        var = {'grid': 'gen_grid', 'arg': 'gen_n'}[f['between']]
        other = {'defaults': 'takes 4 arguments and the launch passes 3', 'overload': 'is overloaded'}.get(f['chain_kind'])
        dyn = 'asks for dynamic shared memory' if f['tiles'] == 'extern' else None
        out('// gen-expect-queue: refused: %s' % '|'.join(x for x in (other, dyn, 'between the launches, writes .%s., which the launch of .gen_copy. reads' % var) if x))
    elif f['between'] == 'harmless':
        out('// gen-expect-queue: not refused for: between the launches')
    out('// gpu-runs: ' + ' | '.join('%d %d %d' % (M, N, k) for k in K))
    out('// gpu-sanitize: %d %d %d' % (M, N, 2 * TS + (3 if partial else 0)))
    out('#include "harness.cuh"')
    if f['pipe'] != 'none':
        out('#include <cuda/pipeline>')
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
    if f['accessor']:
        out('__device__ __forceinline__ %s gen_ld(const %s *p) { return *p; }' % (TG, TG))
        out('__device__ __forceinline__ void gen_st(%s *p, %s v) { *p = v; }' % (TT, TT))
        out('')
    if f['pure'] == 'fn':
        out('__device__ %s gen_pure(%s v) { %s r = v * 1; return r; }' % (TT, TT, TT))
    elif f['pure'] == 'reads':
        out('__device__ %s gen_unit = 1;' % TT)
        out('__device__ %s gen_pure(%s v) { return v * gen_unit; }' % (TT, TT))
    elif f['pure'] in ('tmpl', 'spec_writes'):
        out('template <typename U> __device__ U gen_pure(U v) { return v; }')
        if f['pure'] == 'spec_writes':
            out('__device__ int gen_calls;')
        out('template <> __device__ %s gen_pure(%s v) { %sreturn v * 1; }' % (TT, TT, 'gen_calls = 1; ' if f['pure'] == 'spec_writes' else ''))
    if f['pure'] != 'none':
        out('')
    if f['pipe_neg'] == 'drain':  # (the loop's wait, in a function of the program's)
        out('__device__ void gen_drain(cuda::pipeline<cuda::thread_scope_thread> &p) { p.consumer_wait(); }')
        out('')
    if f['copy'] == 'helper' and f['split_helper']:
        tparm = 'template <int TS>\n' if f['tile_def'] == 'template' else ''
        out(tparm + '__device__ void load_tile(%s (*S)[TS], const %s *G, int r, int c, int ld)' % (TT, TG))
        out('{')
        out('    S[threadIdx.y][threadIdx.x] = %s;' % load('G[r * ld + c]'))
        out('}')
        out('')
    elif f['copy'] == 'helper':
        tparm = 'template <int TS>\n' if f['tile_def'] == 'template' else ''
        out(tparm + '__device__ void load_tiles(%s (*As)[TS], %s (*Bs)[TS], const %s *A, const %s *B, int row, int col, int k0, int N, int K)' % (TT, TT, TG, TG))
        out('{')
        out('    As[threadIdx.y][threadIdx.x] = %s;' % load('A[row * K + k0 + threadIdx.x]'))
        out('    Bs[threadIdx.y][threadIdx.x] = %s;' % load('B[(k0 + threadIdx.y) * N + col]'))
        out('}')
        out('')
    if f['compute'] == 'helper' and transpose:
        f['compute'] = 'inline'
    if f['compute'] == 'helper' and WV:  # (B's W columns at once, as a vector of them)
        tparm = 'template <int TS>\n' if f['tile_def'] == 'template' else ''
        out(tparm + '__device__ %s dot_row(const %s (*As)[TS], const %s (*Bs)[TS], int r, int c)' % (WV, TT, WV))
        out('{')
        out('    %s s = make_%s(%s);' % (WV, WV, ', '.join(['0'] * W)))
        out('    for (int k = 0; k < TS; ++k) {')
        for j in range(W):
            out('        s.%s += As[r][k] * Bs[k][c].%s;' % (COMP[j], COMP[j]))
        out('    }')
        if f['compute_sync']:
            out('    __syncthreads(); // (a barrier of the compute\'s own)')
    elif f['compute'] == 'helper':
        tparm = 'template <int TS>\n' if f['tile_def'] == 'template' else ''
        out(tparm + '__device__ %s dot_row(const %s (*As)[TS], const %s (*Bs)[TS], int r, int c)' % (TA, TT, TT))
        out('{')
        out('    %s s = 0;' % TA)
        out('    for (int k = 0; k < TS; ++k)')
        out('        s += %s * %s;' % (value('As[r][k]'), value('Bs[k][c]')))
        if f['compute_sync']:
            out('    __syncthreads(); // (a barrier of the compute\'s own)')
    if f['compute'] == 'helper':
        if f['vote'] == 'helper_and':  # (true in every thread: the sum times one)
            out('    %s *= __syncthreads_and(%s == %s); // (a vote of the block\'s)' % (('s.x', 's.x', 's.x') if WV else ('s', 's', 's')))
        if f['vote'] == 'asm':  # (the CPU block model runs no PTX: there, the barrier it is)
            out('#ifdef __CUDA_ARCH__')
            out('    asm volatile("bar.sync 0;" ::: "memory");')
            out('#else')
            out('    __syncthreads();')
            out('#endif')
        out('    return s;')
        out('}')
        out('')
    if f['scratch']:
        out('__device__ %s gen_scratch[64 * TS * TS];' % TT if f['tile_def'] != 'template' else
            '__device__ %s gen_scratch[64 * %d * %d];' % (TT, TS, TS))
        out('')
    kernels = ['gen_kernel'] + (['gen_kernel2'] if f['second_kernel'] else [])
    for kname in kernels:
        kernel(f, out, kname, TG, TT, TA, TS, R, BY, BX, VW, vec, transpose, sync, rs, load, value, zero, WV, W)
    if f['chain']:
        chain_kernel(f, out, TA)
    tname = '<TS>' if f['tile_def'] == 'template' else ''
    if f['tile_def'] == 'template':
        out('constexpr int TS = %d;' % TS)
    out('int main(int argc, char **argv)')
    out('{')
    out('    int sz[3] = {%d, %d, %d};  // M N K' % (M, N, 2 * TS))
    out('    harness_sizes(argc, argv, sz, 3);')
    out('    int M = sz[0], N = sz[1], K = sz[2];')
    out('    return harness_gemm<%s, %s>("gen%d", M, N, K, [&](const %s *A, const %s *B, %s *C) {' % (TG, TA, seed, TG, TG, TA))
    grid = '3' if f['structure'] == 'persistent' else 'dim3(N / TS, M / TS)' if not WV else 'dim3(N / (%d * TS), M / TS)' % W
    dyn = ', 2 * TS * TS * sizeof(%s)' % TT if f['tiles'] == 'extern' else ''
    block = 'dim3(%d)' % (BX * BY) if f['block1d'] else 'dim3(%s, BY)' % ('TS' if BX == TS else 'TS / %d' % VW)
    if f['tex']:  # (a texture object over A's floats)
        out('        cudaResourceDesc gen_res = {};')
        out('        gen_res.resType = cudaResourceTypeLinear;')
        out('        gen_res.res.linear.devPtr = (void *)A;')
        out('        gen_res.res.linear.sizeInBytes = (size_t)M * K * sizeof(float);')
        out('        gen_res.res.linear.desc = cudaCreateChannelDesc<float>();')
        out('        cudaTextureDesc gen_td = {};')
        out('        gen_td.readMode = cudaReadModeElementType;')
        out('        cudaTextureObject_t gen_tex;')
        out('        CHECK(cudaCreateTextureObject(&gen_tex, &gen_res, &gen_td, NULL));')
    for kname in kernels:
        dst = 'gen_mid' if f['chain'] else 'C'
        if f['chain']:  # C through a buffer the second kernel copies from, poisoned first
            out('        %s *gen_mid;' % TA)
            out('        CHECK(cudaMalloc(&gen_mid, (size_t)M * N * sizeof(%s) + 16));' % TA)
            out('        CHECK(cudaMemset(gen_mid, 0xff, (size_t)M * N * sizeof(%s)));' % TA)
        between = f['between']
        if between == 'grid':
            out('        dim3 gen_grid(1);')
        elif between == 'arg':
            out('        int gen_n = 0;')
        elif between == 'harmless':
            out('        int gen_items = 0;')
        elif between == 'stream':  # (the legacy default stream, then a blocking stream: it waits for the first)
            out('        cudaStream_t gen_s2;')
            out('        CHECK(cudaStreamCreate(&gen_s2));')
            out('        cudaStream_t gen_s = 0;')
            dyn = (dyn or ', 0') + ', gen_s'
        bptr = 'reinterpret_cast<const %s *>(B)' % WV if WV else 'B'
        out('        %s%s<<<%s, %s%s>>>(A, %s, %s, M, N, K%s);' % (kname, tname, grid, block, dyn, bptr, dst,
                                                              ', gen_tex' if f['tex'] else ''))
    if f['chain']:
        targs = '<%s>' % TA if f['chain_kind'] == 'template' else ''
        blocks = '7' if f['chain_kind'] == 'grid_stride' else '(M * N + 127) / 128'
        n, smem = 'M * N', ''
        if between == 'grid':  # (what the copy's launch reads, written between the launches)
            out('        gen_grid.x = %s;' % blocks)
            blocks = 'gen_grid'
        elif between == 'arg':
            out('        gen_n = M * N;')
            n = 'gen_n'
        elif between == 'harmless':  # (what it does not read)
            out('        gen_items = M * N;')
        elif between == 'stream':
            out('        gen_s = gen_s2;')
            smem = ', 0, gen_s'
        out('        gen_copy%s<<<%s, 128%s>>>(gen_mid, C, %s);' % (targs, blocks, smem, n))
        if between == 'harmless':
            out('        (void)gen_items;')
        if between == 'stream':
            out('        CHECK(cudaStreamSynchronize(gen_s2));')
        out('        CHECK(cudaFree(gen_mid));')
        if between == 'stream':
            out('        CHECK(cudaStreamDestroy(gen_s2));')
    if f['tex']:
        out('        CHECK(cudaDestroyTextureObject(gen_tex));')
    tol = {'float': '1e-4', 'double': '1e-9', 'int': '0'}[TA]
    if TG in ('half', '__nv_bfloat16'):
        tol = '1e-3'
    out('    }, %s, %s);' % (tol, tol))
    out('}')
    return '\n'.join(lines) + '\n', f


def chain_kernel(f, out, TA):
    kind = f['chain_kind']
    rs = ' __restrict__' if kind == 'restrict' else ''
    if kind == 'template':
        out('template <class T>')
        TA = 'T'
    if kind == 'overload':  # (the one the launch means comes second)
        out('__global__ void gen_copy(const char *src, char *dst, int n) {}')
    extra = ', int gen_unused = 0' if kind == 'defaults' else ''
    out('__global__ void gen_copy(const %s *%s src, %s *%s dst, int n%s)' % (TA, rs, TA, rs, extra))
    out('{')
    if kind == 'grid_stride':
        out('    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)')
        out('        dst[i] = src[i];')
    else:
        out('    int i = blockIdx.x * blockDim.x + threadIdx.x;')
        out('    if (i < n)')
        out('        dst[i] = src[i];')
    out('}')
    out('')


def kernel(f, out, kname, TG, TT, TA, TS, R, BY, BX, VW, vec, transpose, sync, rs, load, value, zero, WV=None, W=1):
    form = f['form']
    if f['tile_def'] == 'template':
        out('template <int TS>')
    out('%s__global__ void %s(const %s *%s A, const %s *%s B, %s *%s C, int M, int N, int K%s)' %
        ('static ' if f['static_kernel'] else '', kname, TG, rs, WV or TG, rs, TA, rs,
         ', cudaTextureObject_t gen_tex' if f['tex'] else ''))
    out('{')
    if f['exit']:
        out('    if (blockIdx.x >= gridDim.x)')
        out('        return;')
    if f['participation'] == 'thread_return':
        out('    if (threadIdx.y >= blockDim.y || threadIdx.x >= blockDim.x) // (never, but a test of the thread)')
        out('        return;')
    loops = 2 if f['structure'] == 'two_loops' or f['independent'] else 1
    names = [('As', 'Bs', 'acc'), ('As2', 'Bs2', 'acc2')] if f['independent'] else [('As', 'Bs', 'acc')] * 2
    align = '__align__(16) ' if form == 'vec' else ''
    if f['tiles'] == 'extern':
        out('    extern __shared__ __align__(16) unsigned char gen_smem[];')
        out('    %s (*As)[TS] = reinterpret_cast<%s (*)[TS]>(gen_smem);' % (TT, TT))
        out('    %s (*Bs)[TS] = reinterpret_cast<%s (*)[TS]>(gen_smem + TS * TS * sizeof(%s));' % (TT, TT, TT))
    else:
        for an, bn, _ in names[:loops if f['independent'] else 1]:
            # (`big`: rows past TS, never read, so that A's tile alone is over 24 KB a stage)
            rows = 'TS + %d' % (24 * 1024 // (f['ts'] * SIZEOF[TT]) + 1) if f['big'] else 'TS'
            out('    __shared__ %s%s %s[%s][TS];' % (align, TT, an, rows))
            if f['scratch']:
                out('    %s (*%s)[TS] = reinterpret_cast<%s (*)[TS]>(gen_scratch + (blockIdx.y * gridDim.x + blockIdx.x) * TS * TS);' % (TT, bn, TT))
            else:
                out('    __shared__ %s%s %s[TS][TS%s];' % (align, WV or TT, bn, ' + 1' if transpose else ''))
    if f['barrier'] != 'syncthreads':
        out('    cg::thread_block block = cg::this_thread_block();')
    if f['block1d']:
        out('    int tx = threadIdx.x %% %d, ty = threadIdx.x / %d;' % (BX, BX))
    else:
        out('    int tx = threadIdx.x, ty = threadIdx.y;')
    ind = '    '
    TTs = 'sizeof(%s)' % TT
    size = {'none': None, 'sizeof': TTs, 'shape': 'shape',
            'inline': 'cuda::aligned_size_t<alignof(%s)>(%s)' % (TT, TTs)}[f['pipe']]

    def make_pipe(ind, name):             # the loop's pipeline (and the copies' size), before it
        out(ind + 'cuda::pipeline<cuda::thread_scope_thread> %s = cuda::make_pipeline();' % name)
        if f['pipe'] == 'shape':
            out(ind + 'const auto shape = cuda::aligned_size_t<alignof(%s)>(%s);' % (TT, TTs))
    if f['pipe'] != 'none' and f['pipe_at'] == 'top':
        make_pipe(ind, 'pipe')
    if f['structure'] == 'persistent':
        CW = '(%d * TS)' % W if WV else 'TS'  # (a wide B's block: W columns a thread)
        out('    int tiles_n = N / %s, tiles = (M / TS) * tiles_n;' % CW)
        out('    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {')
        ind = '        '
        out(ind + 'int row0 = (tile / tiles_n) * TS, col0 = (tile %% tiles_n) * %s, col = col0 + tx%s;' % (CW, ' * %d' % W if WV else ''))
    elif WV:
        out('    int row0 = blockIdx.y * TS, col0 = blockIdx.x * (%d * TS), col = col0 + tx * %d;' % (W, W))
    else:
        out('    int row0 = blockIdx.y * TS, col0 = blockIdx.x * TS, col = col0 + tx;')
    ncols = VW * W
    outs = R * ncols                       # accumulators per thread
    for li in range(loops if f['independent'] else 1):
        out(ind + '%s %s[%d] = {};' % (TA, names[li][2], outs))
    votes = f['vote'] in ('count', 'or', 'and')
    if votes:
        out(ind + 'int votes = 0; // (the block\'s votes: none, for numbers that are no NaN)')
    if form == 'register_outside':
        for li in range(loops if f['independent'] else 1):
            out(ind + '%s %s;' % (TT, ', '.join('%sa%d, %sb%d' % (rn, i, rn, i) for i in range(R) for rn in ['r' + '2' * li])))
    if f['vec_reg'] != 'none':  # (two loops over the same tiles share them; seed 587)
        for li in range(loops if f['independent'] else 1):
            out(ind + '%s %s;' % (TT, ', '.join('r%s[%d]' % (t.lower(), VW) for t in names[li][:2])))
    if f['row_step'] == 'local':
        out(ind + 'int rs = BY; // (a local set once: the row loop\'s step)')
    if f['mutation'] == 'dependent':
        out(ind + 'int off = 0;')
    outer = ind
    for li in range(loops):
        an, bn, accn = names[li]
        if loops == 2:
            note = ' // a second pass over the same tiles: the product again, added' if li and not f['independent'] else ''
            out(outer + '{' + note)
            ind = outer + '    '
        b = ind + '    '
        if f['copy'] == 'bumps':
            out(ind + 'const %s *a = A + (row0 + ty) * K + tx;' % TG)
            out(ind + 'const %s *b = B + ty * N + col;' % TG)
        pn = 'pipe2' if li else 'pipe'     # (each loop its own pipeline)
        if f['pipe'] != 'none' and f['pipe_at'] == 'loop':
            make_pipe(ind, pn)
        if f['bassign']:
            out(ind + 'long long gen_bi; // (set by B\'s load branch alone: the copy reads its value)')
        if f['fscratch'] != 'none':
            out(ind + 'int gen_t = 0; // (set first by each iteration: the tile\'s position)')
        if f['participation'] == 'bounds_if':
            out(ind + 'if (col < N) { // (every thread, where N is a multiple of TS; a test of the thread)')
        if f['ivar_more'] == 'size_t':
            out(ind + 'for (size_t k0 = 0; k0 < (size_t)K; k0 += TS) {')
        elif f['ivar_more'] == 'int_le':
            out(ind + 'for (int k0 = 0; k0 <= K - TS; k0 += TS) {')
        elif f['ivar'] == 'int_lt':
            out(ind + 'for (int k0 = 0; k0 < K; k0 += TS) {')
        elif f['ivar'] == 'int_ne':
            out(ind + 'for (int k0 = 0; k0 != K / TS * TS; k0 += TS) {')
        else:
            out(ind + 'for (unsigned t = 0; t < (unsigned)(K + TS - 1) / TS; ++t) {')
            out(b + 'int k0 = t * TS;')
        k0 = 'k0'
        if f['rotated']:
            out(b + sync + ';')
        if f['mutation'] == 'dependent':
            out(b + 'int shift = off;')
        rn = 'r2' if f['independent'] and li else 'r'  # registers of their own
        bc = b
        if f['pipe_neg'] == 'inner_commit':  # (the copies and their commit in a loop of one trip)
            out(b + 'for (int gen_s = 0; gen_s < 1; ++gen_s) {')
            bc = b + '    '
        elif f['pipe_block']:
            out(b + '{')
            bc = b + '    '
        if f['pipe'] != 'none':
            out(bc + '%s.producer_acquire();' % pn)
        if f['fscratch'] != 'none':
            out(b + 'gen_t = (int)(%s / TS);' % k0)
        copies(f, out, bc, an, bn, rn, TG, TT, TS, R, BY, VW, vec, transpose, load, zero,
               '(gen_t * TS)' if f['fscratch'] != 'none' else k0, W if WV else 0,
               (pn, size) if f['pipe'] != 'none' else None)
        if f['pipe'] != 'none':
            out(bc + '%s.producer_commit();' % pn)
        if bc != b:
            out(b + '}')
        if f['pipe'] != 'none':
            out(b + ('gen_drain(%s);' if f['pipe_neg'] == 'drain' else '%s.consumer_wait();') % pn)
        bumps = ['a += TS;', 'b += TS * N;'] if f['copy'] == 'bumps' else []
        if f['bump_at'] == 'before':
            for x in bumps:
                out(b + x)
        if f['mutation'] == 'cond_barrier':
            out(b + 'if (tx < TS)')
            out(b + '    ' + sync + ';')
        else:
            out(b + sync + ';')
        if f['bump_at'] == 'between':
            for x in bumps:
                out(b + x)
        for i in range(R):
            r = 'ty' if i == 0 else 'ty + %d' % (i * BY)
            if WV and f['compute'] == 'helper':  # (the row's W sums at once)
                targs = '<TS>' if f['tile_def'] == 'template' else ''
                out(b + '%s gen_d%d = dot_row%s(%s, %s, %s, tx);' % (WV, i, targs, an, bn, r))
                for j in range(W):
                    out(b + '%s[%d] += gen_d%d.%s;' % (accn, R * j + i, i, COMP[j]))
                continue
            for j in range(ncols):
                c = 'tx' if VW == 1 else 'tx * %d + %d' % (VW, j)
                a_idx = R * j + i if VW > 1 or WV else i
                bref = '%s[%s][k]' % (bn, c) if transpose else '%s[k][%s]' % (bn, c)
                if WV:
                    bref = '%s[k][tx].%s' % (bn, COMP[j])
                if f['compute'] == 'helper':
                    targs = '<TS>' if f['tile_def'] == 'template' else ''
                    out(b + '%s[%d] += dot_row%s(%s, %s, %s, %s);' % (accn, a_idx, targs, an, bn, r, c))
                else:
                    aref = '%s[%s][k]' % (an, r)
                    if f['cview']:  # (A's row through a view the compute declares)
                        out(b + 'const %s *gen_ap%d_%d = &%s[%s][0];' % (TT, i, j, an, r))
                        aref = 'gen_ap%d_%d[k]' % (i, j)
                    if f['compute'] == 'unrolled':
                        out(b + '#pragma unroll')
                    out(b + 'for (int k = 0; k < %s; ++k)' % ('blockDim.x' if f['kdim'] else 'TS'))
                    out(b + '    %s[%d] += %s * %s;' % (accn, a_idx, value(aref), value(bref)))
        if f['reread']:  # (this tile's element of A, against the tile: zero when it is)
            out(b + '%s[0] += %s - %s;' % (accn, value('%sa0' % rn), value('%s[ty][tx]' % an)))
        if votes:  # (the loop's own barriers stay as they were: this one is the compute's)
            out(b + {'count': 'votes += __syncthreads_count(%s[0] != %s[0]);',
                     'or': 'votes += __syncthreads_or(%s[0] != %s[0]);',
                     'and': 'votes += !__syncthreads_and(%s[0] == %s[0]);'}[f['vote']] % (accn, accn))
        if f['index_step'] == 'compute':  # (adds nothing: the compute reads the index, that is all)
            out(b + 'acc[0] += (%s)(ir0 %% 1);' % TA)
        if f['fscratch'] == 'both':  # (zero where the compute reads this tile's position)
            out(b + 'acc[0] += (%s)(gen_t - (int)(%s / TS));' % (TA, k0))
        if f['mutation'] == 'dependent' and f['dep_step']:
            out(b + 'off += acc[0] > 1e30;')
        elif f['mutation'] == 'dependent':
            out(b + 'off = acc[0] > 1e30 ? 1 : 0;')
        if f['pipe_release'] == 'compute':
            out(b + '%s.consumer_release();' % pn)
        if f['mutation'] == 'break':
            out(b + 'if (acc[0] > 1e30)')
            out(b + '    break;')
        if f['mutation'] == 'global_store':
            out(b + 'C[(row0 + ty) * N + col0 + tx * %d] = acc[0];' % (VW * W))
        if not f['rotated']:
            # (the end of the tile's barrier, or it as a vote; the bumps after it either way:
            # seed 1334's original read its first tile over and over without them)
            out(b + ('if (__syncthreads_or(0)) {}' if f['vote'] == 'end_or' else sync + ';'))
            if f['xbar'] == 'twice':  # (a second barrier right after the first)
                out(b + sync + ';')
            if f['bump_at'] == 'after':
                for x in bumps:
                    out(b + x)
        elif f['bump_at'] == 'after':
            for x in bumps:
                out(b + x)
        if f['pipe_release'] == 'end':
            out(b + '%s.consumer_release();' % pn)
        out(ind + '}')
        if f['participation'] == 'bounds_if':
            out(ind + '}')
        if f['fscratch'] == 'after':  # (the last tile's position, read: adds nothing)
            out(ind + 'acc[0] += (%s)(gen_t * 0);' % TA)
        if f['tile_after']:
            out(ind + 'if (K >= TS) // B\'s first row of the last tile, less itself: zero')
            first = '%s[0][tx]' % bn
            if f['after_via'] == 'extern':  # (the extern array itself, where Bs points into it)
                first = 'reinterpret_cast<%s *>(gen_smem + TS * TS * sizeof(%s))[tx]' % (TT, TT)
            out(ind + '    acc[0] += %s - %s;' % (value(first), value(load('B[(K / TS * TS - TS) * N + col]'))))
        if loops == 2:
            out(outer + '}')
    ind = outer
    for i in range(R):
        r = 'ty' if i == 0 else 'ty + %d' % (i * BY)
        for j in range(ncols):
            a_idx = R * j + i if VW > 1 or WV else i
            c = 'col' if VW == 1 else 'col0 + tx * %d + %d' % (VW, j)
            if WV:
                c = 'col + %d' % j if j else 'col'
            if f['independent']:
                v = '(acc[%d] + acc2[%d]) / 2' % (a_idx, a_idx)
            else:
                v = 'acc[%d]%s' % (a_idx, ' / 2' if loops == 2 else '')
            if votes:
                v += ' + votes'
            out(ind + 'C[(row0 + %s) * N + %s] = %s;' % (r, c, v))
    if f['structure'] == 'persistent':
        out('    }')
    out('}')
    out('')


def copies(f, out, b, an, bn, rn, TG, TT, TS, R, BY, VW, vec, transpose, load, zero, k0, W=0, pipe=None):
    form = f['form']
    sync = {'syncthreads': '__syncthreads()', 'block_sync': 'block.sync()', 'cg_sync': 'cg::sync(block)'}[f['barrier']]

    def put(dst, src):                    # a plain copy, or through the loop's cuda::pipeline
        if pipe:
            out(b + 'cuda::memcpy_async(&%s, &%s, %s, %s);' % (dst, src, pipe[1], pipe[0]))
        else:
            out(b + '%s = %s;' % (dst, src))
    shift = ' + shift' if f['mutation'] == 'dependent' else ''
    if form == 'vec':
        for t, src in ((an, 'A[(row0 + ty) * K + %s + tx * %d%s]' % (k0, VW, shift)), (bn, 'B[(%s + ty) * N + col0 + tx * %d]' % (k0, VW))):
            dst = '%s[ty][tx * %d]' % (t, VW)
            if f['vec'] == 'cast':
                out(b + '*(%s *)&%s = *(const %s *)&%s;' % (vec, dst, vec, src))
            elif f['vec'] == 'reinterpret':
                out(b + 'reinterpret_cast<%s *>(&%s)[0] = reinterpret_cast<const %s *>(&%s)[0];' % (vec, dst, vec, src))
            elif f['vec_reg'] != 'none':  # (the array declared before the loop: kernel())
                ra = 'r' + t.lower()
                out(b + '*(%s *)&%s[0] = *(const %s *)&%s;' % (vec, ra, vec, src))
                if f['vec_reg'] == 'whole':
                    out(b + '*(%s *)&%s = *(const %s *)&%s[0];' % (vec, dst, vec, ra))
                else:
                    for j in range(VW):
                        out(b + '%s[ty][tx * %d + %d] = %s[%d];' % (t, VW, j, ra, j))
            else:
                v = 'v' + t.lower()
                out(b + '%s %s = *(const %s *)&%s;' % (vec, v, vec, src))
                out(b + '*(%s *)&%s = %s;' % (vec, dst, v))
        return
    if form == 'row_loop' and f['row_loop_kind'] == 'nested':  # (rows == 2: TS is 2 * BY)
        out(b + 'for (int r0 = ty; r0 < TS; r0 += 2 * BY) {')
        out(b + '    for (int h = 0; h < 2; ++h) {')
        out(b + '        %s[r0 + h * BY][tx] = %s;' % (an, load('A[(row0 + r0 + h * BY) * K + %s + tx%s]' % (k0, shift))))
        out(b + '        %s[r0 + h * BY][tx] = %s;' % (bn, load('B[(%s + r0 + h * BY) * N + col]' % k0)))
        out(b + '    }')
        out(b + '}')
        return
    if form == 'row_loop':
        test = {'lt': 'r < TS', 'le': 'r <= TS - 1', 'plus_le': 'r + 1 <= TS', 'plus_lt': 'BY + r < TS + BY'}[f['row_test']]
        out(b + 'for (int r = ty; %s; r += %s) {' % (test, 'rs' if f['row_step'] == 'local' else 'BY'))
        if f['row_jump'] == 'fixed':
            out(b + '    if (r >= TS)')
            out(b + '        break;')
        elif f['row_jump'] == 'tile':
            out(b + '    if ((%s) >= K && r >= BY)' % k0)
            out(b + '        break;')
        acol = '%s + tx' % k0
        if f['row_loop_kind'] == 'local':
            out(b + '    int c = %s + tx;' % k0)
            acol = 'c'
        if f['row_fetch']:
            out(b + '    %s va = %s;' % (TT, load('A[(row0 + r) * K + %s%s]' % (acol, shift))))
            out(b + '    %s[r][tx] = va;' % an)
        else:
            out(b + '    %s[r][tx] = %s;' % (an, load('A[(row0 + r) * K + %s%s]' % (acol, shift))))
        out(b + '    %s[r][tx] = %s;' % (bn, load('B[(%s + r) * N + col]' % k0)))
        out(b + '}')
        return
    if form == 'subset':
        h = TS // 2
        out(b + 'if (ty < %d) {' % h)
        out(b + '    %s[ty][tx] = %s;' % (an, load('A[(row0 + ty) * K + %s + tx%s]' % (k0, shift))))
        out(b + '    %s[ty + %d][tx] = %s;' % (an, h, load('A[(row0 + ty + %d) * K + %s + tx%s]' % (h, k0, shift))))
        out(b + '} else {')
        out(b + '    %s[ty - %d][tx] = %s;' % (bn, h, load('B[(%s + ty - %d) * N + col]' % (k0, h))))
        out(b + '    %s[ty][tx] = %s;' % (bn, load('B[(%s + ty) * N + col]' % k0)))
        out(b + '}')
        return
    for i in range(R):
        r = 'ty' if i == 0 else 'ty + %d' % (i * BY)
        acol = '%s + tx' % k0 + shift
        src_a = 'A[(row0 + %s) * K + %s]' % (r, acol)
        bidx = '(%s + %s) * N + col' % (k0, r)
        if W:  # (B an array of vectors of W of its columns)
            bidx = '(%s + %s) * (N / %d) + col0 / %d + tx' % (k0, r, W, W)
        src_b = 'B[%s]' % bidx
        if f['copy'] == 'helper':
            if i == 0 and f['split_helper']:
                targs = '<TS>' if f['tile_def'] == 'template' else ''
                out(b + 'load_tile%s(%s, A, row0 + ty, %s + threadIdx.x, K);' % (targs, an, k0))
                out(b + 'load_tile%s(%s, B, %s + threadIdx.y, col, N);' % (targs, bn, k0))
            elif i == 0:
                targs = '<TS>' if f['tile_def'] == 'template' else ''
                out(b + 'load_tiles%s(%s, %s, A, B, row0 + ty, col, %s, N, K);' % (targs, an, bn, k0))
            continue
        if f['copy'] == 'bumps':
            put('%s[ty][tx]' % an, load('a[0]'))
            put('%s[ty][tx]' % bn, load('b[0]'))
            continue
        ar = r  # (A's row in its tile)
        if f['copy'] == 'local_index':
            arow = r
            if f['index_step'] in ('copies', 'compute'):  # (read by the copy through ia)
                out(b + 'int ir%d = %s - 1;' % (i, r))
                out(b + 'ir%d += 1;' % i)
                arow = 'ir%d' % i
            out(b + 'int ia%d = (row0 + %s) * K + %s, ib%d = %s;' % (i, arow, acol, i, bidx))
            if f['index_step'] == 'row':
                out(b + 'int ra%d = %s + 1;' % (i, r))
                out(b + 'ra%d -= 1;' % i)
                ar = 'ra%d' % i
            src_a, src_b = 'A[ia%d]' % i, 'B[ib%d]' % i
        bdst = '%s[tx][%s]' % (bn, r) if transpose else '%s[%s][tx]' % (bn, r)
        if form in ('register', 'register_outside'):
            decl = '' if form == 'register_outside' else TT + ' '
            if f['tex']:  # (the same element of A, through the texture object over it)
                src_a = 'tex1Dfetch<float>(gen_tex, %s)' % src_a[len('A['):-1]
            if f['guard'] == 'ternary':
                va = '%s + tx < K ? %s : %s' % (k0, load(src_a), zero)
                vb = '%s + %s < K ? %s : %s' % (k0, r, load(src_b), zero)
            else:
                va, vb = load(src_a), load(src_b)
            out(b + '%s%sa%d = %s;' % (decl, rn, i, va))
            out(b + '%s%sb%d = %s;' % (decl, rn, i, vb))
            out(b + '%s[%s][tx] = %sa%d;' % (an, r, rn, i))
            out(b + '%s = %sb%d;' % (bdst, rn, i))
            continue
        if f['mutation'] == 'computed' and i == 0 and f['pure'] != 'none':
            out(b + '%s[%s][tx] = gen_pure(%s);' % (an, r, load(src_a)))
        elif f['mutation'] == 'computed' and i == 0:
            out(b + '%s[%s][tx] = %s * 1;' % (an, r, load(src_a)))
        elif f['guard'] == 'ternary':
            out(b + '%s[%s][tx] = %s + tx < K ? %s : %s;' % (an, r, k0, load(src_a), zero))
        elif f['fill_first'] == 'next':
            out(b + '%s[%s][tx] = %s;' % (an, r, zero))
            out(b + 'if (%s + tx < K)' % k0)
            out(b + '    %s[%s][tx] = %s;' % (an, r, load(src_a)))
        elif f['fill_first'] == 'apart':  # (B's zero between A's and A's copy)
            out(b + '%s[%s][tx] = %s;' % (an, r, zero))
            out(b + '%s[%s][tx] = %s;' % (bn, r, zero))
            out(b + 'if (%s + tx < K)' % k0)
            out(b + '    %s[%s][tx] = %s;' % (an, r, load(src_a)))
            out(b + 'if (%s + %s < K)' % (k0, r))
            out(b + '    %s[%s][tx] = %s;' % (bn, r, load(src_b)))
            continue
        elif f['guard'] == 'if_else':
            out(b + 'if (%s + tx < K)' % k0)
            out(b + '    %s[%s][tx] = %s;' % (an, r, load(src_a)))
            if not f['no_else']:  # (without it, B's zero rows still keep the product exact)
                out(b + 'else')
                out(b + '    %s[%s][tx] = %s;' % (an, r, zero))
        elif f['accessor']:
            out(b + 'gen_st(&%s[%s][tx], %s);' % (an, r, load('gen_ld(&%s)' % src_a)))
        else:
            put('%s[%s][tx]' % (an, ar), load(src_a))
        if f['xbar'] == 'between':  # (orders nothing: B's copy writes another tile, reads none)
            out(b + sync + ';')
        if f['guard'] == 'if_else' and f['blocal'] and src_b.startswith('B[') and src_b.endswith(']'):
            out(b + 'if (%s + %s < K) {' % (k0, r))
            if f['bassign']:
                out(b + '    gen_bi = %s;' % src_b[2:-1])
                out(b + '    %s[%s][tx] = %s;' % (bn, r, load('B[gen_bi]')))
            else:
                out(b + '    const long long gen_boff = %s;' % src_b[2:-1])
                out(b + '    %s[%s][tx] = %s;' % (bn, r, load('B[gen_boff]')))
            out(b + '} else {')
            out(b + '    %s[%s][tx] = %s;' % (bn, r, zero))
            out(b + '}')
        elif f['guard'] == 'ternary':
            out(b + '%s[%s][tx] = %s + %s < K ? %s : %s;' % (bn, r, k0, r, load(src_b), zero))
        elif f['guard'] == 'if_else':
            out(b + 'if (%s + %s < K)' % (k0, r))
            out(b + '    %s[%s][tx] = %s;' % (bn, r, load(src_b)))
            out(b + 'else')
            out(b + '    %s[%s][tx] = %s;' % (bn, r, zero))
        elif f['accessor']:
            out(b + 'gen_st(&%s[%s][tx], %s);' % (bn, r, load('gen_ld(&%s)' % src_b)))
        else:
            put('%s[%s][tx]' % (bn, r), load(src_b))


def stats(first, last):
    """How often each feature value is drawn over seeds FIRST..LAST, and what is expected."""
    counts = {}
    for seed in range(first, last + 1):
        f = draw(seed)
        text = program(seed)[0]
        f['expect'] = 'pipelined' if '// gen-expect: pipelined' in text else 'refused'
        # (a feature drawn for every seed counts only where it applies)
        applies = {'vec': f['form'] == 'vec', 'transpose': f['form'] in ('register', 'register_outside'),
                   'bump_at': f['copy'] == 'bumps'}
        for k, v in f.items():
            if not applies.get(k, True):
                continue
            counts.setdefault(k, {}).setdefault(str(v), 0)
            counts[k][str(v)] += 1
    for k in sorted(counts):
        print('%-14s %s' % (k, ', '.join('%s %d' % kv for kv in sorted(counts[k].items(), key=lambda kv: -kv[1]))))


if __name__ == '__main__':
    if sys.argv[1] == '--stats':
        stats(int(sys.argv[2]), int(sys.argv[3]))
    elif sys.argv[1] == '--features':
        for k, v in sorted(draw(int(sys.argv[2])).items()):
            print('%s=%s' % (k, v))
    else:
        sys.stdout.write(program(int(sys.argv[1]))[0])
