/* queue.c: two launches one stream runs back to back, rewritten as one persistent launch
 * (--launches=queue). check.c's check_pair_queue has established what this relies on, and
 * deps.c read what each kernel may touch in global memory; the planner chose the pair. The
 * output, before the host function that launches them:
 *   - each kernel's body, copied as written, as a __device__ function (an item) whose last
 *     parameters blockIdx, gridDim, threadIdx and blockDim stand for the builtins;
 *   - where deps.c read every access: functions that bound, as intervals, the bytes each access
 *     may touch for blocks in given index intervals (touch1, touch2), the bytes a row of the
 *     first kernel's blocks (one value of blockIdx's highest component its writes use) may
 *     write, and the rows an item of the second may read (a search over rows, whose writes lie
 *     in order);
 *   - a kernel whose blocks take items: each holds the next item of the second kernel it took
 *     (one atomic add) and runs items of the first until that one's rows are done (counted
 *     after a block barrier and a fence; polled with relaxed reads, one fence once it may
 *     start); once every item of the first is taken it waits for it. Every item a wait depends
 *     on was taken by a running block that waits for nothing, so no wait outlasts its blocks at
 *     any grid size or occupancy;
 *   - a launcher that runs it where the two blocks have the same number of threads and the
 *     configurations are ones the launches as written accept, with fresh counters from the
 *     stream's memory pool, after checking with the actual arguments that every interval is
 *     bounded, that what the second writes lies apart from all the first may touch, and that
 *     rows' writes lie in order (else every item of the second waits for all of the first);
 *     and the launches as written otherwise.
 * The first launch becomes a call to the launcher; the second goes. */
#include "names.h"
#include "pipefy.h"

#include <ctype.h>
#include <stdlib.h>

/* Device helpers, once per file; the CPU block model has its own (tests/cpu/pipefy_cpu.h). */
const char queue_helpers[] =
	"// pipefy: tile queues {\n"
	"// pipefy: a ticket's block index in a grid; an item's counter, released and acquired; the rows an\n"
	"// item of the second kernel waits for, as a block last worked them out\n"
	"struct pipefy_queue_memo {\n"
	"    unsigned long long item; // (the item of the second kernel whose rows these are)\n"
	"    bool all;\n"
	"    long long lo, hi;\n"
	"    unsigned long long pending; // the block's next item of the second kernel, ~0 when none\n"
	"    bool none_left;             // every item of the second kernel is taken\n"
	"};\n"
	"static __device__ __forceinline__ uint3 pipefy_queue_index(unsigned long long i, dim3 g)\n"
	"{\n"
	"    return make_uint3((unsigned)(i % g.x), (unsigned)(i / g.x % g.y), (unsigned)(i / ((unsigned long long)g.x * g.y)));\n"
	"}\n"
	"static __device__ __forceinline__ void " NAME_QUEUE_DONE "(unsigned long long *counter)\n"
	"{\n"
	"    __threadfence(); // (after a block barrier: the item's writes, every thread's, come first)\n"
	"    atomicAdd(counter, 1ULL);\n"
	"}\n"
	"// (a relaxed read, polled: once an item may start, pipefy_queue_acquire makes what the counted\n"
	"// items wrote visible; an acquire on every poll would drop the SM's L1 each time)\n"
	"static __device__ __forceinline__ bool pipefy_queue_met(const unsigned long long *counter, unsigned long long n)\n"
	"{\n"
	"    return *(const volatile unsigned long long *)counter >= n;\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_queue_acquire()\n"
	"{\n"
	"    __threadfence(); // (after the relaxed reads that saw the counts: an acquire pattern)\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_queue_wait(const unsigned long long *counter, unsigned long long n)\n"
	"{\n"
	"    while (!pipefy_queue_met(counter, n))\n"
	"        __nanosleep(100);\n"
	"}\n"

	"// } pipefy: tile queues\n";

/* Interval arithmetic for the accesses deps.c reads (host and device; the CPU block model
 * compiles it as it is). */
const char queue_intervals[] =
	"// pipefy: intervals {\n"
	"// pipefy: an interval [lo, hi] holding every value an index may take. Each operation clears *ok\n"
	"// where it cannot bound its result within 2^52 of zero and within the type C computes it in (a\n"
	"// value that may wrap is no value an interval bounds): the host checks a whole grid's intervals\n"
	"// first, so a block's, inside them, cannot overflow.\n"
	"#ifdef __CUDA_ARCH__\n"
	"#define PIPEFY_IV_CHECK 0 // (on the GPU every interval lies inside the ones the host checked)\n"
	"#else\n"
	"#define PIPEFY_IV_CHECK 1\n"
	"#endif\n"
	"struct pipefy_iv {\n"
	"    long long lo, hi;\n"
	"};\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_make(long long lo, long long hi)\n"
	"{\n"
	"    pipefy_iv v;\n"
	"    v.lo = lo;\n"
	"    v.hi = hi;\n"
	"    return v;\n"
	"}\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_exact(long long v) { return pipefy_iv_make(v, v); }\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_fit(pipefy_iv v, long long lo, long long hi, bool *ok)\n"
	"{\n"
	"    if (PIPEFY_IV_CHECK && (v.lo < lo || v.hi > hi || v.lo < -(1LL << 52) || v.hi > (1LL << 52) || v.lo > v.hi))\n"
	"        *ok = false;\n"
	"    return v;\n"
	"}\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_add(pipefy_iv a, pipefy_iv b, bool *ok)\n"
	"{\n"
	"    return pipefy_iv_fit(pipefy_iv_make(a.lo + b.lo, a.hi + b.hi), -(1LL << 52), 1LL << 52, ok);\n"
	"}\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_sub(pipefy_iv a, pipefy_iv b, bool *ok)\n"
	"{\n"
	"    return pipefy_iv_fit(pipefy_iv_make(a.lo - b.hi, a.hi - b.lo), -(1LL << 52), 1LL << 52, ok);\n"
	"}\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_neg(pipefy_iv a) { return pipefy_iv_make(-a.hi, -a.lo); }\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_hull(pipefy_iv a, pipefy_iv b)\n"
	"{\n"
	"    return pipefy_iv_make(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);\n"
	"}\n"
	"__host__ __device__ inline long long pipefy_iv_times(long long a, long long b, bool *ok)\n"
	"{\n"
	"    double p = (double)a * (double)b; // (operands within 2^52: an exact product below 2^60 fits)\n"
	"    if (PIPEFY_IV_CHECK && (p > 1152921504606846976.0 || p < -1152921504606846976.0)) {\n"
	"        *ok = false;\n"
	"        return 0;\n"
	"    }\n"
	"    return a * b;\n"
	"}\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_mul(pipefy_iv a, pipefy_iv b, bool *ok)\n"
	"{\n"
	"    long long p[4] = {pipefy_iv_times(a.lo, b.lo, ok), pipefy_iv_times(a.lo, b.hi, ok), pipefy_iv_times(a.hi, b.lo, ok),\n"
	"                      pipefy_iv_times(a.hi, b.hi, ok)};\n"
	"    pipefy_iv v = pipefy_iv_exact(p[0]);\n"
	"    for (int i = 1; i < 4; i++)\n"
	"        v = pipefy_iv_hull(v, pipefy_iv_exact(p[i]));\n"
	"    return pipefy_iv_fit(v, -(1LL << 52), 1LL << 52, ok);\n"
	"}\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_div(pipefy_iv a, pipefy_iv b, bool *ok)\n"
	"{\n"
	"    if (PIPEFY_IV_CHECK && (a.lo < 0 || b.lo <= 0)) { // (C's quotient truncates: bounded here for a >= 0, b > 0)\n"
	"        *ok = false;\n"
	"        return a;\n"
	"    }\n"
	"    return pipefy_iv_make(a.lo / b.hi, a.hi / b.lo);\n"
	"}\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_rem(pipefy_iv a, pipefy_iv b, bool *ok)\n"
	"{\n"
	"    if (PIPEFY_IV_CHECK && (a.lo < 0 || b.lo <= 0)) {\n"
	"        *ok = false;\n"
	"        return a;\n"
	"    }\n"
	"    return a.hi < b.lo ? a : pipefy_iv_make(0, a.hi < b.hi - 1 ? a.hi : b.hi - 1);\n"
	"}\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_shl(pipefy_iv a, pipefy_iv b, bool *ok)\n"
	"{\n"
	"    if (PIPEFY_IV_CHECK && (b.lo != b.hi || b.lo < 0 || b.lo > 52)) {\n"
	"        *ok = false;\n"
	"        return a;\n"
	"    }\n"
	"    return pipefy_iv_mul(a, pipefy_iv_exact(1LL << b.lo), ok);\n"
	"}\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_shr(pipefy_iv a, pipefy_iv b, bool *ok)\n"
	"{\n"
	"    if (PIPEFY_IV_CHECK && (b.lo != b.hi || b.lo < 0 || b.lo > 62 || a.lo < 0)) {\n"
	"        *ok = false;\n"
	"        return a;\n"
	"    }\n"
	"    return pipefy_iv_make(a.lo >> b.lo, a.hi >> b.lo);\n"
	"}\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_and(pipefy_iv a, pipefy_iv b, bool *ok)\n"
	"{\n"
	"    if (PIPEFY_IV_CHECK && (a.lo < 0 || b.lo < 0)) {\n"
	"        *ok = false;\n"
	"        return a;\n"
	"    }\n"
	"    return pipefy_iv_make(0, a.hi < b.hi ? a.hi : b.hi);\n"
	"}\n"
	"// (`for (v = a; v < b; v += step)`: inside the body v is in [a, b - 1], when the step is positive\n"
	"// and v + step cannot wrap past the largest value of v's type; with a and the step one value\n"
	"// each, v's last is a + (b - 1 - a) / step * step)\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_loop(pipefy_iv a, pipefy_iv b, int strict, pipefy_iv step, long long top,\n"
	"                                                   bool *ok)\n"
	"{\n"
	"    if (PIPEFY_IV_CHECK && (step.lo <= 0 || b.hi > top - step.hi))\n"
	"        *ok = false;\n"
	"    long long hi = b.hi - strict;\n"
	"    if (a.lo == a.hi && step.lo == step.hi && step.lo > 0 && hi > a.lo)\n"
	"        hi = a.lo + (hi - a.lo) / step.lo * step.lo;\n"
	"    return pipefy_iv_make(a.lo, hi < a.lo ? a.lo : hi);\n"
	"}\n"
	"// (the bytes an element index reaches from a pointer)\n"
	"__host__ __device__ inline pipefy_iv pipefy_iv_bytes(const void *p, unsigned long long size, pipefy_iv i, bool *ok)\n"
	"{\n"
	"    long long base = (long long)(unsigned long long)p;\n"
	"    if (PIPEFY_IV_CHECK && (size == 0 || size > 256 || base < 0 || base > (1LL << 60) || i.lo < -(1LL << 52) || i.hi > (1LL << 52))) {\n"
	"        *ok = false;\n"
	"        return pipefy_iv_exact(0);\n"
	"    }\n"
	"    return pipefy_iv_make(base + i.lo * (long long)size, base + i.hi * (long long)size + (long long)size - 1);\n"
	"}\n"
	"// } pipefy: intervals\n";

/* The name of queue q's item for the first kernel or the second (a kernel launched twice in a
 * row has two items). */
char *queue_item_name(const struct launch_pair *p, int q, bool second)
{
	if (!second)
		return xprintf("%s_pipefy_item%d", p->first, q);
	return xprintf(strcmp(p->first, p->second) == 0 ? "%s_pipefy_item%d_2" : "%s_pipefy_item%d", p->second, q);
}

/* A parameter's declaration as written, with its name replaced (the kernel's parameters are
 * the persistent kernel's and the launcher's under names of pipefy's). */
static char *renamed_param(const struct source *src, CXCursor prm, const char *to)
{
	struct span s = cursor_span(prm);
	size_t at = cursor_offset(prm);
	char *name = cursor_name(prm);
	size_t n = strlen(name);
	char *out = xprintf("%.*s%s%.*s", (int)(at - s.begin), src->text + s.begin, to, (int)(s.end - at - n),
			    src->text + at + n);
	free(name);
	return out;
}

/* "P0, P1, ..." with their names as pipefy's (prefix + index), and the names alone. */
static void param_lists(const struct source *src, CXCursor kernel, const char *prefix, struct strbuf *decls,
			struct strbuf *names)
{
	int n = clang_Cursor_getNumArguments(kernel);
	for (int i = 0; i < n; i++) {
		char *to = xprintf("%s%d", prefix, i);
		char *d = renamed_param(src, clang_Cursor_getArgument(kernel, (unsigned)i), to);
		sb_printf(decls, ",\n    %s", d);
		sb_printf(names, ", %s", to);
		free(d);
		free(to);
	}
}

/* The kernel's parameters as written, then sep; nothing when it has none. */
static void params_as_written(struct strbuf *out, const struct source *src, CXCursor kernel, const char *sep)
{
	int n = clang_Cursor_getNumArguments(kernel);
	if (n > 0) {
		struct span first = cursor_span(clang_Cursor_getArgument(kernel, 0));
		struct span last = cursor_span(clang_Cursor_getArgument(kernel, (unsigned)n - 1));
		sb_add(out, src->text + first.begin, last.end - first.begin);
		sb_puts(out, sep);
	}
}

/* The item: the kernel's parameters as written, the builtins as parameters, its body. */
static void add_item(struct strbuf *out, const struct source *src, CXCursor kernel, const char *name)
{
	sb_printf(out, "static __device__ void %s(", name);
	params_as_written(out, src, kernel, ",\n    ");
	sb_puts(out, "const uint3 blockIdx, const dim3 gridDim, const uint3 threadIdx, const dim3 blockDim)\n");
	struct span body = cursor_span(cursor_last_child(kernel));
	sb_add(out, src->text + body.begin, body.end - body.begin);
	sb_puts(out, "\n");
}

/* Whether the launch's configuration is one CUDA accepts (else the launches as written run, and
 * fail as they would have). */
static void config_ok(struct strbuf *out, const char *g, const char *b)
{
	sb_printf(out,
		  "        %s.x >= 1 && %s.y >= 1 && %s.z >= 1 && %s.x <= 2147483647u && %s.y <= 65535 && %s.z <= 65535 &&\n"
		  "        %s.x >= 1 && %s.y >= 1 && %s.z >= 1 && %s.x <= 1024 && %s.y <= 1024 && %s.z <= 64 &&\n",
		  g, g, g, g, g, g, b, b, b, b, b, b);
}

/* The bytes each access of a kernel may touch, for blocks whose indices lie in given intervals:
 * `pipefy_queue<q>_touch<k>(i, ...)`, the accesses deps.c read. */
static void add_touch(struct strbuf *out, const struct source *src, CXCursor kernel, const struct queue_accesses *a,
		      int q, int k, const char *name)
{
	sb_printf(out,
		  "// pipefy: the bytes of global memory each access of '%s' may touch, for blocks whose indices lie in\n"
		  "// pipefy_block_x, _y and _z (*pipefy_ok false where the interval cannot be told)\n"
		  "static __host__ __device__ pipefy_iv pipefy_queue%d_touch%d(int pipefy_access, const pipefy_iv pipefy_block_x,\n"
		  "    const pipefy_iv pipefy_block_y, const pipefy_iv pipefy_block_z, const dim3 gridDim, const dim3 blockDim,\n    ",
		  name, q, k);
	params_as_written(out, src, kernel, ", ");
	sb_puts(out, "bool *pipefy_ok)\n{\n    switch (pipefy_access) {\n");
	for (int i = 0; i < a->n; i++) {
		char *text = xstrdup(a->v[i].text);
		for (char *c = text; *c; c++)
			if (*c == '\n' || *c == '\r')
				*c = ' ';
		sb_printf(out, "    case %d: // %s%s\n        return pipefy_iv_bytes(%s, sizeof *%s, %s, pipefy_ok);\n", i, text,
			  a->v[i].write ? ", written" : "", a->v[i].param, a->v[i].param, a->v[i].index);
		free(text);
	}
	sb_puts(out, "    }\n    *pipefy_ok = false;\n    return pipefy_iv_exact(0);\n}\n");
}

/* "pipefy_iv_make(0, (long long)G.x - 1), ..." for a grid's three components, one of them row r. */
static char *block_intervals(const char *grid, int row)
{
	struct strbuf sb = {0};
	for (int c = 0; c < 3; c++)
		if (c == row)
			sb_puts(&sb, "pipefy_iv_exact((long long)pipefy_r), ");
		else
			sb_printf(&sb, "pipefy_iv_make(0, (long long)%s.%c - 1), ", grid, "xyz"[c]);
	return sb_take(&sb);
}

/* What the parts of one queue's code share: its names, and each kernel's parameters under
 * pipefy's names. */
struct queue_code {
	const struct launch_pair *p;
	int q;
	const struct source *src;
	struct strbuf out;                 /* the code that goes before the host function */
	char *item1, *item2;               /* the items' names */
	char *kernel, *launcher;           /* the persistent kernel's and the launcher's */
	char *ready;                       /* what says an item may start ("(void)" under queuewait) */
	const char *why;                   /* why the rows are not told apart; NULL when they are */
	bool exact;                        /* they are */
	char row;                          /* the component of blockIdx a row of the first is */
	struct strbuf w1, w2;              /* which accesses write: "w" or "r" each, in order */
	const char *flags1, *flags2;       /* (their text) */
	struct strbuf d1, n1, d2, n2;      /* each kernel's parameters renamed: declarations, names */
	const char *sd1, *sd2, *sn1, *sn2; /* (their text) */
	char *hp, *ha;                     /* the common parameters of the helpers, and their arguments */
};

/* "w" or "r" for each access, in order: which write. */
static const char *write_flags(struct strbuf *sb, const struct queue_accesses *a)
{
	for (int i = 0; i < a->n; i++)
		sb_puts(sb, a->v[i].write ? "w" : "r");
	return sb->data ? sb->data : "";
}

/* Names the parts of queue q and reads what they share. */
static void queue_code_init(struct queue_code *c, const struct launch_pair *p, int q, const struct source *src)
{
	*c = (struct queue_code){.p = p, .q = q, .src = src};
	c->item1 = queue_item_name(p, q, false);
	c->item2 = queue_item_name(p, q, true);
	c->kernel = xprintf(NAME_QUEUE_KERNEL, q, p->first, p->second);
	c->launcher = xprintf(NAME_QUEUE_LAUNCHER, q);
	/* (PIPEFY_TEST_BREAK=queuewait: no wait, the bug validation must catch; never in normal use) */
	bool break_wait = test_break("queuewait");
	c->flags1 = write_flags(&c->w1, &p->deps[0]);
	c->flags2 = write_flags(&c->w2, &p->deps[1]);
	c->ready = xprintf(break_wait ? "(void)" : NAME_QUEUE_READY, q);
	c->why = p->waits_all;
	c->exact = !c->why;
	c->row = "xyz"[p->deps[0].rows];
	param_lists(src, p->first_kernel, "pipefy_a", &c->d1, &c->n1);
	param_lists(src, p->kernel, "pipefy_b", &c->d2, &c->n2);
	c->sd1 = c->d1.data ? c->d1.data : "";
	c->sd2 = c->d2.data ? c->d2.data : "";
	c->sn1 = c->n1.data ? c->n1.data : "";
	c->sn2 = c->n2.data ? c->n2.data : "";
	c->hp = xprintf("const dim3 pipefy_grid1, const dim3 pipefy_block1, const dim3 pipefy_grid2,\n"
			"    const dim3 pipefy_block2%s%s",
			c->sd1, c->sd2);
	c->ha = xprintf("pipefy_grid1, pipefy_block1, pipefy_grid2, pipefy_block2%s%s", c->sn1, c->sn2);
}

static void queue_code_free(struct queue_code *c)
{
	FREE_ALL(c->out.data, c->d1.data, c->n1.data, c->d2.data, c->n2.data, c->item1, c->item2, c->kernel,
		 c->launcher, c->hp, c->ha, c->ready, c->w1.data, c->w2.data);
}

/* The comment that says what the queue does, then the two items. */
static void add_queue_intro(struct queue_code *c)
{
	const struct launch_pair *p = c->p;
	sb_printf(&c->out,
		  "// pipefy: '%s' then '%s' as one persistent launch (--launches=queue). Its blocks take items: the\n"
		  "// blocks of both kernels, whose bodies run as written (their parameters blockIdx, gridDim,\n"
		  "// threadIdx and blockDim stand for the builtins). An item of '%s' starts once the items of\n"
		  "// '%s' whose writes it may read are done: ",
		  p->first, p->second, p->second, p->first);
	if (c->exact)
		sb_printf(&c->out,
			  "those in the rows (blockIdx.%c) of '%s'\n"
			  "// whose writes meet the bytes its accesses may touch, where the launcher finds each row's writes\n"
			  "// after the row's before and what '%s' writes apart from all '%s' touches; all of them otherwise.\n",
			  c->row, p->first, p->second, p->first);
	else
		sb_printf(&c->out, "all of them (%s).\n", c->why);
	add_item(&c->out, c->src, p->first_kernel, c->item1);
	add_item(&c->out, c->src, p->kernel, c->item2);
}

/* Where the rows are told apart: the bytes each access may touch, and those a row of the
 * first kernel's blocks may write. */
static void add_queue_row(struct queue_code *c)
{
	const struct launch_pair *p = c->p;
	int q = c->q;
	add_touch(&c->out, c->src, p->first_kernel, &p->deps[0], q, 1, p->first);
	add_touch(&c->out, c->src, p->kernel, &p->deps[1], q, 2, p->second);
	char *all = block_intervals("pipefy_grid1", p->deps[0].rows);
	sb_printf(&c->out,
		  "// pipefy: the bytes the blocks of '%s' in row r (blockIdx.%c == r) may write\n"
		  "static __host__ __device__ pipefy_iv pipefy_queue%d_row(unsigned long long pipefy_r, %s, bool *pipefy_ok)\n"
		  "{\n"
		  "    pipefy_iv pipefy_w = pipefy_iv_make(0, -1);\n"
		  "    bool pipefy_first = true;\n"
		  "    for (int pipefy_i = 0; pipefy_i < %d; pipefy_i++) {\n"
		  "        if (\"%s\"[pipefy_i] != 'w')\n"
		  "            continue;\n"
		  "        const pipefy_iv pipefy_t = pipefy_queue%d_touch1(pipefy_i, %spipefy_grid1, pipefy_block1%s, pipefy_ok);\n"
		  "        pipefy_w = pipefy_first ? pipefy_t : pipefy_iv_hull(pipefy_w, pipefy_t);\n"
		  "        pipefy_first = false;\n"
		  "    }\n"
		  "    return pipefy_w;\n"
		  "}\n",
		  p->first, c->row, q, c->hp, p->deps[0].n, c->flags1, q, all, c->sn1);
	free(all);
}

/* Where the rows are told apart: the first row whose writes end at or after a byte, a search
 * over the rows (whose writes lie in order). */
static void add_queue_first(struct queue_code *c)
{
	sb_printf(&c->out,
		  "// pipefy: the first row of '%s' whose writes end at or after byte v (past: begin after it); pipefy_rows\n"
		  "// if none. Rows' writes lie in order, so the answer for the last item read (the hint) is tried first.\n"
		  "static __device__ long long pipefy_queue%d_first(bool pipefy_past, long long pipefy_v, long long pipefy_hint,\n"
		  "    const unsigned long long pipefy_rows, %s)\n"
		  "{\n"
		  "    bool pipefy_ok = true; // (the launcher checked every row: nothing here clears it)\n"
		  "    long long pipefy_f = 0, pipefy_l = (long long)pipefy_rows;\n"
		  "    for (int pipefy_try = 0; pipefy_f < pipefy_l; pipefy_try++) {\n"
		  "        const long long pipefy_m = pipefy_try == 0 && pipefy_hint >= 0 && pipefy_hint < pipefy_l ? pipefy_hint\n"
		  "                                   : pipefy_try == 1 && pipefy_hint > pipefy_f && pipefy_hint <= pipefy_l ? pipefy_hint - 1\n"
		  "                                   : (pipefy_f + pipefy_l) / 2;\n"
		  "        const pipefy_iv pipefy_w = pipefy_queue%d_row((unsigned long long)pipefy_m, %s, &pipefy_ok);\n"
		  "        if (pipefy_past ? pipefy_w.lo > pipefy_v : pipefy_w.hi >= pipefy_v)\n"
		  "            pipefy_l = pipefy_m;\n"
		  "        else\n"
		  "            pipefy_f = pipefy_m + 1;\n"
		  "    }\n"
		  "    return pipefy_f;\n"
		  "}\n",
		  c->p->first, c->q, c->hp, c->q, c->ha);
}

/* The rows of the first kernel an item of the second waits for (all of them where the rows
 * are not told apart). */
static void add_queue_rows(struct queue_code *c)
{
	int q = c->q;
	sb_printf(&c->out,
		  "// pipefy: the rows of '%s' whose blocks item c of '%s' waits for: [*lo, *hi] (on entry, the last\n"
		  "// item's); false for all of them\n"
		  "static __device__ bool pipefy_queue%d_rows(unsigned long long pipefy_c, const unsigned long long pipefy_rows,\n"
		  "    %s, long long *pipefy_lo, long long *pipefy_hi)\n"
		  "{\n",
		  c->p->first, c->p->second, q, c->hp);
	if (!c->exact) {
		sb_printf(&c->out, "    (void)pipefy_c, (void)pipefy_rows, (void)pipefy_lo, (void)pipefy_hi;\n    return false;\n}\n");
		return;
	}
	sb_printf(&c->out,
		  "    bool pipefy_ok = pipefy_rows > 0;\n"
		  "    const uint3 pipefy_b = pipefy_queue_index(pipefy_c, pipefy_grid2);\n"
		  "    const long long pipefy_hint_f = *pipefy_lo, pipefy_hint_s = *pipefy_hi + 1;\n"
		  "    *pipefy_lo = (long long)pipefy_rows;\n"
		  "    *pipefy_hi = -1;\n"
		  "    for (int pipefy_i = 0; pipefy_i < %d && pipefy_ok; pipefy_i++) {\n"
		  "        const pipefy_iv pipefy_t = pipefy_queue%d_touch2(pipefy_i, pipefy_iv_exact(pipefy_b.x), pipefy_iv_exact(pipefy_b.y),\n"
		  "            pipefy_iv_exact(pipefy_b.z), pipefy_grid2, pipefy_block2%s, &pipefy_ok);\n"
		  "        // rows [f, s - 1]: from the first ending at or after the access's first byte to the last\n"
		  "        // beginning at or before its last\n"
		  "        const long long pipefy_f = pipefy_queue%d_first(false, pipefy_t.lo, pipefy_hint_f, pipefy_rows, %s);\n"
		  "        const long long pipefy_s = pipefy_queue%d_first(true, pipefy_t.hi, pipefy_hint_s, pipefy_rows, %s);\n"
		  "        if (pipefy_f < pipefy_s) {\n"
		  "            *pipefy_lo = pipefy_f < *pipefy_lo ? pipefy_f : *pipefy_lo;\n"
		  "            *pipefy_hi = pipefy_s - 1 > *pipefy_hi ? pipefy_s - 1 : *pipefy_hi;\n"
		  "        }\n"
		  "    }\n"
		  "    return pipefy_ok;\n"
		  "}\n",
		  c->p->deps[1].n, q, c->sn2, q, c->ha, q, c->ha);
}

/* Whether an item of the second kernel may start: the first's blocks in the rows it reads
 * are done. */
static void add_queue_ready(struct queue_code *c)
{
	sb_printf(&c->out,
		  "// pipefy: whether item c of '%s' may start (pipefy_wait: once it may): the blocks of '%s' in the rows\n"
		  "// it reads are done, all of them where pipefy_rows is 0 or the rows are not told\n"
		  "static __device__ bool " NAME_QUEUE_READY "(unsigned long long pipefy_c, bool pipefy_wait,\n"
		  "    const unsigned long long *pipefy_counters, const unsigned long long pipefy_rows, pipefy_queue_memo *pipefy_memo,\n"
		  "    %s)\n"
		  "{\n"
		  "    const unsigned long long pipefy_items1 = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z;\n"
		  "    if (pipefy_memo->item != pipefy_c) {\n"
		  "        pipefy_memo->item = pipefy_c;\n"
		  "        pipefy_memo->all = !pipefy_queue%d_rows(pipefy_c, pipefy_rows, %s, &pipefy_memo->lo, &pipefy_memo->hi);\n"
		  "    }\n"
		  "    if (pipefy_memo->all) {\n"
		  "        if (pipefy_wait)\n"
		  "            " SNIP_QUEUE_WAIT_FIRST "\n"
		  "        return pipefy_queue_met(&pipefy_counters[2], pipefy_items1);\n"
		  "    }\n"
		  "    for (long long pipefy_r = pipefy_memo->lo; " SNIP_QUEUE_EVERY_ROW " {\n"
		  "        if (pipefy_wait)\n"
		  "            pipefy_queue_wait(&pipefy_counters[3 + pipefy_r], pipefy_items1 / pipefy_rows);\n"
		  "        else if (!pipefy_queue_met(&pipefy_counters[3 + pipefy_r], pipefy_items1 / pipefy_rows))\n"
		  "            return false;\n"
		  "    }\n"
		  "    return true;\n"
		  "}\n",
		  c->p->second, c->p->first, c->q, c->hp, c->q, c->ha);
}

/* A block's next item: the item of the second kernel it holds once that may start, else one of
 * the first, else (every one of the first taken) the one it holds, after waiting for it. */
static void add_queue_take(struct queue_code *c)
{
	sb_printf(&c->out,
		  "// pipefy: a block's next item (thread 0 takes it). A block holds the next item of '%s' it took\n"
		  "// (a ticket of its own: taking one is one atomic add) and runs items of '%s' until that one may\n"
		  "// start; once every item of '%s' is taken, it waits for it. Every item a wait depends on was then\n"
		  "// taken by a running block and waits for nothing: no wait outlasts its blocks at any grid size\n"
		  "// or occupancy. A ticket past both kernels' items says there is none left.\n"
		  "static __device__ unsigned long long " NAME_QUEUE_TAKE "(unsigned long long *pipefy_counters,\n"
		  "    const unsigned long long pipefy_rows, pipefy_queue_memo *pipefy_memo, %s)\n"
		  "{\n"
		  "    const unsigned long long pipefy_items1 = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z;\n"
		  "    const unsigned long long pipefy_items2 = (unsigned long long)pipefy_grid2.x * pipefy_grid2.y * pipefy_grid2.z;\n"
		  "    if (pipefy_memo->pending == ~0ULL && !pipefy_memo->none_left) {\n"
		  "        const unsigned long long pipefy_c = atomicAdd(&pipefy_counters[1], 1ULL);\n"
		  "        if (pipefy_c < pipefy_items2)\n"
		  "            pipefy_memo->pending = pipefy_c;\n"
		  "        else\n"
		  "            pipefy_memo->none_left = true;\n"
		  "    }\n"
		  "    const unsigned long long pipefy_c = pipefy_memo->pending;\n"
		  "    if (pipefy_c != ~0ULL && " NAME_QUEUE_READY "(" NAME_QUEUE_ITEM ", false, pipefy_counters, pipefy_rows, pipefy_memo, %s)) {\n"
		  "        " SNIP_QUEUE_ACQUIRE "\n"
		  "        pipefy_memo->pending = ~0ULL;\n"
		  "        " SNIP_QUEUE_HAND_OUT "\n"
		  "    }\n"
		  "    const unsigned long long pipefy_p = atomicAdd(&pipefy_counters[0], 1ULL);\n"
		  "    if (pipefy_p < pipefy_items1)\n"
		  "        return pipefy_p;\n"
		  "    if (pipefy_c == ~0ULL)\n"
		  "        return pipefy_items1 + pipefy_items2;\n"
		  "    %s(" NAME_QUEUE_ITEM ", true, pipefy_counters, pipefy_rows, pipefy_memo, %s); // (every item of '%s' is taken)\n"
		  "    " SNIP_QUEUE_ACQUIRE "\n"
		  "    pipefy_memo->pending = ~0ULL;\n"
		  "    " SNIP_QUEUE_HAND_OUT "\n"
		  "}\n",
		  c->p->second, c->p->first, c->p->first, c->q, c->hp, c->q, c->ha, c->ready, c->ha, c->p->first);
}

/* A kernel's parameter names as the first arguments of a call, "a0, a1, " (nothing when it has
 * none): names is ", a0, a1". */
static const char *leading_args(const char *names)
{
	return names[0] ? names + 2 : "";
}

/* The persistent kernel, under the register cap the planner set (__maxnreg__ is nvcc's, from
 * CUDA 12.4 on): its blocks take items until none is left. */
static void add_queue_kernel(struct queue_code *c)
{
	const struct launch_pair *p = c->p;
	int q = c->q;
	char *cap = p->queue_registers > 0 ? xprintf("PIPEFY_QUEUE%d_REGISTERS ", q) : xstrdup("");
	if (p->queue_registers > 0)
		sb_printf(&c->out,
			  "// pipefy: at most %d registers a thread: the most either kernel takes as written (ptxas: '%s' %d,\n"
			  "// '%s' %d), rounded up to a whole allocation; both bodies in one kernel would take more, and\n"
			  "// fewer blocks would fit on an SM\n"
			  "#if defined(__NVCC__) && (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))\n"
			  "#define PIPEFY_QUEUE%d_REGISTERS __maxnreg__(%d)\n"
			  "#else\n"
			  "#define PIPEFY_QUEUE%d_REGISTERS\n"
			  "#endif\n",
			  p->queue_registers, p->first, p->registers[0], p->second, p->registers[1], q, p->queue_registers, q);
	sb_printf(&c->out,
		  "static __global__ void %s%s(%s, unsigned long long *pipefy_counters,\n"
		  "    const unsigned long long pipefy_rows)\n"
		  "{\n"
		  "    __shared__ unsigned long long pipefy_ticket;\n"
		  "    const unsigned long long pipefy_items1 = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z;\n"
		  "    const unsigned long long pipefy_items = pipefy_items1 + (unsigned long long)pipefy_grid2.x * pipefy_grid2.y * pipefy_grid2.z;\n"
		  "    pipefy_queue_memo pipefy_memo = {~0ULL, false, 0, -1, ~0ULL, false};\n"
		  "    for (;;) {\n"
		  "        if (threadIdx.x == 0)\n"
		  "            pipefy_ticket = " NAME_QUEUE_TAKE "(pipefy_counters, pipefy_rows, &pipefy_memo, %s);\n"
		  "        __syncthreads();\n"
		  "        const unsigned long long pipefy_item = pipefy_ticket;\n"
		  "        __syncthreads(); // (every thread has its item, and is done with the last)\n"
		  "        if (pipefy_item >= pipefy_items)\n"
		  "            break;\n"
		  "        if (pipefy_item < pipefy_items1) {\n"
		  "            const uint3 pipefy_b = pipefy_queue_index(pipefy_item, pipefy_grid1);\n"
		  "            %s(%s%spipefy_b, pipefy_grid1, pipefy_queue_index(threadIdx.x, pipefy_block1), pipefy_block1);\n"
		  "            __syncthreads(); // every thread is done with the item\n"
		  "            if (threadIdx.x == 0)\n"
		  "                " NAME_QUEUE_DONE "(&pipefy_counters[pipefy_rows ? 3 + pipefy_b.%c : 2]);\n"
		  "        } else // (thread 0 took it once what it reads was done: the barrier above orders the rest after)\n"
		  "            %s(%s%spipefy_queue_index(pipefy_item - pipefy_items1, pipefy_grid2), pipefy_grid2,\n"
		  "                pipefy_queue_index(threadIdx.x, pipefy_block2), pipefy_block2);\n"
		  "    }\n"
		  "}\n",
		  cap, c->kernel, c->hp, q, c->ha, c->item1, leading_args(c->sn1), c->sn1[0] ? ", " : "", c->row, c->item2,
		  leading_args(c->sn2), c->sn2[0] ? ", " : "");
	free(cap);
}

/* How many rows of the first kernel the launcher finds told apart, for the actual arguments:
 * every interval bounded, what the second writes apart from all the first may touch, and the
 * rows' writes in order (else 0: every item of the second waits for all of the first). */
static void add_queue_exact(struct queue_code *c)
{
	const struct launch_pair *p = c->p;
	int q = c->q;
	sb_printf(&c->out,
		  "// pipefy: how many rows of '%s' the items of '%s' wait for one by one: its grid's rows (blockIdx.%c)\n"
		  "// where every access of both kernels is bounded, what '%s' writes lies apart from all '%s' may\n"
		  "// touch, and each row's writes lie after the row's before; 0 otherwise (they wait for all)\n"
		  "static unsigned long long pipefy_queue%d_exact(%s)\n"
		  "{\n",
		  p->first, p->second, c->row, p->second, p->first, q, c->hp);
	if (!c->exact) {
		sb_printf(&c->out, "    (void)pipefy_grid1, (void)pipefy_block1, (void)pipefy_grid2, (void)pipefy_block2;\n    return 0;\n}\n");
		return;
	}
	char *all1 = block_intervals("pipefy_grid1", -1), *all2 = block_intervals("pipefy_grid2", -1);
	sb_printf(&c->out,
		  "    bool pipefy_ok = true;\n"
		  "    const unsigned long long pipefy_rows = pipefy_grid1.%c;\n"
		  "    if (pipefy_rows > 65536)\n"
		  "        return 0;\n"
		  "    for (int pipefy_j = 0; pipefy_j < %d; pipefy_j++) {\n"
		  "        const pipefy_iv pipefy_t2 = pipefy_queue%d_touch2(pipefy_j, %spipefy_grid2, pipefy_block2%s, &pipefy_ok);\n"
		  "        for (int pipefy_i = 0; pipefy_i < %d && \"%s\"[pipefy_j] == 'w'; pipefy_i++) {\n"
		  "            const pipefy_iv pipefy_t1 = pipefy_queue%d_touch1(pipefy_i, %spipefy_grid1, pipefy_block1%s, &pipefy_ok);\n"
		  "            if (pipefy_t2.lo <= pipefy_t1.hi && pipefy_t1.lo <= pipefy_t2.hi)\n"
		  "                return 0;\n"
		  "        }\n"
		  "    }\n"
		  "    pipefy_iv pipefy_last = pipefy_iv_exact(0);\n"
		  "    for (unsigned long long pipefy_r = 0; pipefy_r < pipefy_rows && pipefy_ok; pipefy_r++) {\n"
		  "        const pipefy_iv pipefy_w = pipefy_queue%d_row(pipefy_r, %s, &pipefy_ok);\n"
		  "        if (pipefy_r > 0 && pipefy_w.lo <= pipefy_last.hi)\n"
		  "            return 0;\n"
		  "        pipefy_last = pipefy_w;\n"
		  "    }\n"
		  "    return pipefy_ok ? pipefy_rows : 0;\n"
		  "}\n",
		  c->row, p->deps[1].n, q, all2, c->sn2, p->deps[0].n, c->flags2, q, all1, c->sn1, q, c->ha);
	free(all1);
	free(all2);
}

/* The launcher: the persistent launch where both blocks have the same number of threads, the
 * configurations are ones the launches as written accept and the kernel fits an SM, with fresh
 * counters from the stream's memory pool; the launches as written otherwise. */
static void add_queue_launcher(struct queue_code *c)
{
	const struct launch_pair *p = c->p;
	int line, col;
	source_line_col(c->src, p->first_call.begin, &line, &col);
	char place[32];
	snprintf(place, sizeof place, "%d:%d", line, col);
	sb_printf(&c->out,
		  "// pipefy: the launches of '%s' and '%s' at %s: as one persistent launch where both blocks have\n"
		  "// the same number of threads and the kernel fits an SM; as written otherwise\n"
		  "static void %s(dim3 pipefy_grid1, dim3 pipefy_block1, dim3 pipefy_grid2, dim3 pipefy_block2,\n"
		  "    cudaStream_t pipefy_stream%s%s)\n"
		  "{\n"
		  "    // (the SMs, and how many blocks of the persistent kernel one holds: asked once per host\n"
		  "    // thread, device and block size)\n"
		  "    static thread_local int pipefy_known_device = -1, pipefy_sms = 0, pipefy_resident = 0;\n"
		  "    static thread_local unsigned pipefy_known_threads = 0;\n"
		  "    const unsigned pipefy_threads = pipefy_block1.x * pipefy_block1.y * pipefy_block1.z;\n"
		  "    int pipefy_device = 0;\n"
		  "    unsigned long long *pipefy_counters = nullptr;\n"
		  "    const bool pipefy_valid =",
		  p->first, p->second, place, c->launcher, c->sd1, c->sd2);
	sb_puts(&c->out, "\n");
	config_ok(&c->out, "pipefy_grid1", "pipefy_block1");
	config_ok(&c->out, "pipefy_grid2", "pipefy_block2");
	sb_printf(&c->out,
		  "        pipefy_threads == pipefy_block2.x * pipefy_block2.y * pipefy_block2.z &&\n"
		  "        cudaGetDevice(&pipefy_device) == cudaSuccess;\n"
		  "    if (pipefy_valid && (pipefy_device != pipefy_known_device || pipefy_threads != pipefy_known_threads)) {\n"
		  "        pipefy_known_device = -1;\n"
		  "        if (cudaDeviceGetAttribute(&pipefy_sms, cudaDevAttrMultiProcessorCount, pipefy_device) == cudaSuccess &&\n"
		  "            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, %s, (int)pipefy_threads, 0) == cudaSuccess) {\n"
		  "            pipefy_known_device = pipefy_device;\n"
		  "            pipefy_known_threads = pipefy_threads;\n"
		  "        }\n"
		  "    }\n"
		  "    const bool pipefy_fits = pipefy_valid && pipefy_known_device == pipefy_device && pipefy_resident > 0;\n"
		  "    unsigned long long pipefy_rows = pipefy_fits ? pipefy_queue%d_exact(%s) : 0;\n"
		  "#ifdef PIPEFY_QUEUE_ALL\n"
		  "    pipefy_rows = 0; // (a benchmark's: every item of the second waits for all of the first)\n"
		  "#endif\n"
		  "    if (pipefy_fits &&\n"
		  "        cudaMallocAsync((void **)&pipefy_counters, (3 + pipefy_rows) * sizeof *pipefy_counters, pipefy_stream) == cudaSuccess) {\n"
		  "        unsigned long long pipefy_blocks = (unsigned long long)pipefy_sms * pipefy_resident;\n"
		  "#ifdef PIPEFY_QUEUE_BLOCKS\n"
		  "        pipefy_blocks = PIPEFY_QUEUE_BLOCKS; // (a test's: this many persistent blocks)\n"
		  "#endif\n"
		  "        const unsigned long long pipefy_items = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z +\n"
		  "                                                (unsigned long long)pipefy_grid2.x * pipefy_grid2.y * pipefy_grid2.z;\n"
		  "        if (pipefy_blocks > pipefy_items)\n"
		  "            pipefy_blocks = pipefy_items;\n"
		  "        cudaMemsetAsync(pipefy_counters, 0, (3 + pipefy_rows) * sizeof *pipefy_counters, pipefy_stream);\n"
		  "        %s<<<(unsigned)pipefy_blocks, pipefy_threads, 0, pipefy_stream>>>(%s, pipefy_counters, pipefy_rows);\n"
		  "        cudaFreeAsync(pipefy_counters, pipefy_stream);\n"
		  "        return;\n"
		  "    }\n"
		  "    %s<<<pipefy_grid1, pipefy_block1, 0, pipefy_stream>>>(%s);\n"
		  "    %s<<<pipefy_grid2, pipefy_block2, 0, pipefy_stream>>>(%s);\n"
		  "}\n\n",
		  c->kernel, c->q, c->ha, c->kernel, c->ha, p->first, leading_args(c->sn1), p->second, leading_args(c->sn2));
}

/* Whether a text is all white space (a launch with no arguments). */
static bool blank(const char *s)
{
	bool all = true;
	for (const char *c = s; *c; c++)
		all &= isspace((unsigned char)*c) != 0;
	return all;
}

/* The launches: the first calls the launcher, the second goes. */
static void edit_queue_launches(const struct queue_code *c, struct edits *e)
{
	const struct launch_pair *p = c->p;
	char *args1 = span_text(c->src, p->first_args), *args2 = span_text(c->src, p->args);
	bool e1 = blank(args1), e2 = blank(args2);
	char *call = xprintf("%s(%s, %s, %s, %s, %s%s%s%s%s)", c->launcher, p->first_config[0], p->first_config[1],
			     p->config[0], p->config[1], p->first_config[3] ? p->first_config[3] : "0", e1 ? "" : ", ",
			     e1 ? "" : args1, e2 ? "" : ", ", e2 ? "" : args2);
	edits_add(e, p->first_call.begin, p->first_call.end - p->first_call.begin, call);
	char *gone = xprintf("(void)0 /* pipefy: '%s' runs in %s's persistent launch */", p->second, c->launcher);
	edits_add(e, p->call.begin, p->call.end - p->call.begin, gone);
	free(gone);
	free(call);
	free(args1);
	free(args2);
}

/* Queue q: its code, part by part, before the host function, and the launches' edits. */
static void rewrite_queue(struct launch_pair *p, int q, const struct source *src, struct edits *e)
{
	struct queue_code c;
	queue_code_init(&c, p, q, src);
	add_queue_intro(&c);
	if (c.exact) {
		add_queue_row(&c);
		add_queue_first(&c);
	}
	add_queue_rows(&c);
	add_queue_ready(&c);
	add_queue_take(&c);
	add_queue_kernel(&c);
	add_queue_exact(&c);
	add_queue_launcher(&c);
	char *text = sb_take(&c.out);
	edits_add(e, cursor_span(p->host).begin, 0, text);
	free(text);
	edit_queue_launches(&c, e);
	queue_code_free(&c);
}

bool rewrite_launch_queues(struct model *m, const struct source *src, struct edits *e)
{
	size_t first = src->len;
	for (int i = 0; i < m->npairs; i++) {
		const struct launch_pair *p = &m->pairs[i];
		if (p->queue && !p->queue_refusal && !p->queue_invalid && !p->out_of_range && cursor_span(p->host).begin < first)
			first = cursor_span(p->host).begin;
	}
	if (first == src->len)
		return false;
	/* (before the first host function with a queue, ahead of its code; not again in a file that
	 * has them: a second run) */
	if (!strstr(src->text, "// pipefy: tile queues {")) {
		edits_add(e, first, 0, queue_helpers);
		edits_add(e, first, 0, queue_intervals);
	}
	int q = 0;
	for (int i = 0; i < m->npairs; i++) {
		struct launch_pair *p = &m->pairs[i];
		if (!p->queue || p->queue_refusal || p->queue_invalid || p->out_of_range)
			continue;
		rewrite_queue(p, q++, src, e);
		p->rewritten = true;
	}
	return true;
}
