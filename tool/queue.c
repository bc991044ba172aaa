/* queue.c: two launches one stream runs back to back, rewritten as one persistent launch
 * (--launches=queue). check.c's check_pair_queue has established what this relies on; the
 * planner chose the pair. The output, before the host function that launches them:
 *   - each kernel's body, copied as written, as a __device__ function (an item) whose last
 *     parameters blockIdx, gridDim, threadIdx and blockDim stand for the builtins;
 *   - a kernel whose blocks take tickets from a counter: tickets below the first grid's size
 *     are the first kernel's blocks, the rest the second's; an item of the second waits until
 *     every item of the first is done (released after a block barrier and a fence, acquired by
 *     one thread before a block barrier). Every ticket a wait depends on was taken before it by
 *     a block that is running, so no wait outlasts its blocks at any grid size or occupancy;
 *   - a launcher that runs it where the two blocks have the same number of threads and the
 *     configurations are ones the launches as written accept, with fresh counters from the
 *     stream's memory pool; and the launches as written otherwise.
 * The first launch becomes a call to the launcher; the second goes. */
#include "pipefy.h"

#include <ctype.h>
#include <stdlib.h>

/* Device helpers, once per file; the CPU block model has its own (tests/cpu/pipefy_cpu.h). */
const char queue_helpers[] =
	"// pipefy: tile queues {\n"
	"// pipefy: a ticket's block index in a grid; an item's counter, released and acquired\n"
	"static __device__ __forceinline__ uint3 pipefy_queue_index(unsigned long long i, dim3 g)\n"
	"{\n"
	"    return make_uint3((unsigned)(i % g.x), (unsigned)(i / g.x % g.y), (unsigned)(i / ((unsigned long long)g.x * g.y)));\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_queue_done(unsigned long long *counter)\n"
	"{\n"
	"    __threadfence(); // (after a block barrier: the item's writes, every thread's, come first)\n"
	"    atomicAdd(counter, 1ULL);\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_queue_wait(const unsigned long long *counter, unsigned long long n)\n"
	"{\n"
	"    unsigned long long done;\n"
	"    for (;;) {\n"
	"        asm volatile(\"ld.acquire.gpu.global.u64 %0, [%1];\" : \"=l\"(done) : \"l\"(counter) : \"memory\");\n"
	"        if (done >= n)\n"
	"            break;\n"
	"        __nanosleep(100);\n"
	"    }\n"
	"}\n"
	"// } pipefy: tile queues\n";

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

/* The item: the kernel's parameters as written, the builtins as parameters, its body. */
static void add_item(struct strbuf *out, const struct source *src, CXCursor kernel, const char *name)
{
	int n = clang_Cursor_getNumArguments(kernel);
	sb_printf(out, "static __device__ void %s(", name);
	if (n > 0) {
		struct span first = cursor_span(clang_Cursor_getArgument(kernel, 0));
		struct span last = cursor_span(clang_Cursor_getArgument(kernel, (unsigned)n - 1));
		sb_add(out, src->text + first.begin, last.end - first.begin);
		sb_puts(out, ",\n    ");
	}
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

static void rewrite_queue(struct launch_pair *p, int q, const struct source *src, struct edits *e)
{
	char *item1 = queue_item_name(p, q, false), *item2 = queue_item_name(p, q, true);
	char *kernel = xprintf("pipefy_queue%d_%s_%s", q, p->first, p->second);
	char *launcher = xprintf("pipefy_launch_queue%d", q);
	struct strbuf out = {0}, d1 = {0}, n1 = {0}, d2 = {0}, n2 = {0};
	/* (PIPEFY_TEST_BREAK=queuewait: no wait, the bug validation must catch; never in normal use) */
	const char *brk = getenv("PIPEFY_TEST_BREAK");
	bool break_wait = brk && strcmp(brk, "queuewait") == 0;
	int line, col;
	source_line_col(src, p->first_call.begin, &line, &col);
	char place[32];
	snprintf(place, sizeof place, "%d:%d", line, col);
	param_lists(src, p->first_kernel, "pipefy_a", &d1, &n1);
	param_lists(src, p->kernel, "pipefy_b", &d2, &n2);
	sb_printf(&out,
		  "// pipefy: '%s' then '%s' as one persistent launch (--launches=queue): each block takes the next\n"
		  "// ticket, first the blocks of '%s', then those of '%s'; an item of '%s' starts once every\n"
		  "// item of '%s' is done, so it reads what it read after the launch as written. The bodies are\n"
		  "// copied as written; their parameters blockIdx, gridDim, threadIdx and blockDim stand for\n"
		  "// the builtins.\n",
		  p->first, p->second, p->first, p->second, p->second, p->first);
	add_item(&out, src, p->first_kernel, item1);
	add_item(&out, src, p->kernel, item2);
	const char *sn1 = n1.data ? n1.data : "", *sn2 = n2.data ? n2.data : "";
	sb_printf(&out,
		  "static __global__ void %s(const dim3 pipefy_grid1, const dim3 pipefy_block1, const dim3 pipefy_grid2,\n"
		  "    const dim3 pipefy_block2, unsigned long long *pipefy_counters%s%s)\n"
		  "{\n"
		  "    __shared__ unsigned long long pipefy_ticket;\n"
		  "    const unsigned long long pipefy_items1 = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z;\n"
		  "    const unsigned long long pipefy_items = pipefy_items1 + (unsigned long long)pipefy_grid2.x * pipefy_grid2.y * pipefy_grid2.z;\n"
		  "    for (;;) {\n"
		  "        if (threadIdx.x == 0)\n"
		  "            pipefy_ticket = atomicAdd(&pipefy_counters[0], 1ULL);\n"
		  "        __syncthreads();\n"
		  "        const unsigned long long pipefy_item = pipefy_ticket;\n"
		  "        __syncthreads(); // (every thread has its ticket, and is done with the last item)\n"
		  "        if (pipefy_item >= pipefy_items)\n"
		  "            break;\n"
		  "        if (pipefy_item < pipefy_items1) {\n"
		  "            %s(%s%spipefy_queue_index(pipefy_item, pipefy_grid1), pipefy_grid1,\n"
		  "                pipefy_queue_index(threadIdx.x, pipefy_block1), pipefy_block1);\n"
		  "            __syncthreads(); // every thread is done with the item\n"
		  "            if (threadIdx.x == 0)\n"
		  "                pipefy_queue_done(&pipefy_counters[1]);\n"
		  "        } else {\n"
		  "            if (threadIdx.x == 0) // every item of '%s' is done\n"
		  "                %s(&pipefy_counters[1], pipefy_items1);\n"
		  "            __syncthreads();\n"
		  "            %s(%s%spipefy_queue_index(pipefy_item - pipefy_items1, pipefy_grid2), pipefy_grid2,\n"
		  "                pipefy_queue_index(threadIdx.x, pipefy_block2), pipefy_block2);\n"
		  "        }\n"
		  "    }\n"
		  "}\n",
		  kernel, d1.data ? d1.data : "", d2.data ? d2.data : "", item1, sn1[0] ? sn1 + 2 : "", sn1[0] ? ", " : "",
		  p->first, break_wait ? "(void)" : "pipefy_queue_wait", item2, sn2[0] ? sn2 + 2 : "", sn2[0] ? ", " : "");
	sb_printf(&out,
		  "// pipefy: the launches of '%s' and '%s' at %s: as one persistent launch where both blocks have\n"
		  "// the same number of threads and the kernel fits an SM; as written otherwise\n"
		  "static void %s(dim3 pipefy_grid1, dim3 pipefy_block1, dim3 pipefy_grid2, dim3 pipefy_block2,\n"
		  "    cudaStream_t pipefy_stream%s%s)\n"
		  "{\n"
		  "    const unsigned pipefy_threads = pipefy_block1.x * pipefy_block1.y * pipefy_block1.z;\n"
		  "    int pipefy_device = 0, pipefy_sms = 0, pipefy_resident = 0;\n"
		  "    unsigned long long *pipefy_counters = nullptr;\n"
		  "    if (",
		  p->first, p->second, place, launcher, d1.data ? d1.data : "", d2.data ? d2.data : "");
	sb_puts(&out, "\n");
	config_ok(&out, "pipefy_grid1", "pipefy_block1");
	config_ok(&out, "pipefy_grid2", "pipefy_block2");
	sb_printf(&out,
		  "        pipefy_threads == pipefy_block2.x * pipefy_block2.y * pipefy_block2.z &&\n"
		  "        cudaGetDevice(&pipefy_device) == cudaSuccess &&\n"
		  "        cudaDeviceGetAttribute(&pipefy_sms, cudaDevAttrMultiProcessorCount, pipefy_device) == cudaSuccess &&\n"
		  "        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, %s, (int)pipefy_threads, 0) == cudaSuccess &&\n"
		  "        pipefy_resident > 0 &&\n"
		  "        cudaMallocAsync((void **)&pipefy_counters, 2 * sizeof *pipefy_counters, pipefy_stream) == cudaSuccess) {\n"
		  "        unsigned long long pipefy_blocks = (unsigned long long)pipefy_sms * pipefy_resident;\n"
		  "#ifdef PIPEFY_QUEUE_BLOCKS\n"
		  "        pipefy_blocks = PIPEFY_QUEUE_BLOCKS; // (a test's: this many persistent blocks)\n"
		  "#endif\n"
		  "        const unsigned long long pipefy_items = (unsigned long long)pipefy_grid1.x * pipefy_grid1.y * pipefy_grid1.z +\n"
		  "                                                (unsigned long long)pipefy_grid2.x * pipefy_grid2.y * pipefy_grid2.z;\n"
		  "        if (pipefy_blocks > pipefy_items)\n"
		  "            pipefy_blocks = pipefy_items;\n"
		  "        cudaMemsetAsync(pipefy_counters, 0, 2 * sizeof *pipefy_counters, pipefy_stream);\n"
		  "        %s<<<(unsigned)pipefy_blocks, pipefy_threads, 0, pipefy_stream>>>(pipefy_grid1, pipefy_block1, pipefy_grid2,\n"
		  "            pipefy_block2, pipefy_counters%s%s);\n"
		  "        cudaFreeAsync(pipefy_counters, pipefy_stream);\n"
		  "        return;\n"
		  "    }\n"
		  "    %s<<<pipefy_grid1, pipefy_block1, 0, pipefy_stream>>>(%s);\n"
		  "    %s<<<pipefy_grid2, pipefy_block2, 0, pipefy_stream>>>(%s);\n"
		  "}\n\n",
		  kernel, kernel, sn1, sn2, p->first, sn1[0] ? sn1 + 2 : "", p->second, sn2[0] ? sn2 + 2 : "");
	char *text = sb_take(&out);
	edits_add(e, cursor_span(p->host).begin, 0, text);
	free(text);
	/* the launches: the first calls the launcher, the second goes */
	char *a1 = span_text(src, p->first_args), *a2 = span_text(src, p->args);
	bool e1 = true, e2 = true;
	for (const char *c = a1; *c; c++)
		e1 &= isspace((unsigned char)*c) != 0;
	for (const char *c = a2; *c; c++)
		e2 &= isspace((unsigned char)*c) != 0;
	char *call = xprintf("%s(%s, %s, %s, %s, %s%s%s%s%s)", launcher, p->first_config[0], p->first_config[1], p->config[0],
			     p->config[1], p->first_config[3] ? p->first_config[3] : "0", e1 ? "" : ", ", e1 ? "" : a1,
			     e2 ? "" : ", ", e2 ? "" : a2);
	edits_add(e, p->first_call.begin, p->first_call.end - p->first_call.begin, call);
	char *gone = xprintf("(void)0 /* pipefy: '%s' runs in %s's persistent launch */", p->second, launcher);
	edits_add(e, p->call.begin, p->call.end - p->call.begin, gone);
	free(gone);
	free(call);
	free(a1);
	free(a2);
	free(d1.data);
	free(n1.data);
	free(d2.data);
	free(n2.data);
	free(item1);
	free(item2);
	free(kernel);
	free(launcher);
}

bool rewrite_launch_queues(struct model *m, const struct source *src, struct edits *e)
{
	size_t first = src->len;
	for (int i = 0; i < m->npairs; i++) {
		const struct launch_pair *p = &m->pairs[i];
		if (p->queue && !p->queue_refusal && !p->out_of_range && cursor_span(p->host).begin < first)
			first = cursor_span(p->host).begin;
	}
	if (first == src->len)
		return false;
	/* (before the first host function with a queue, ahead of its code; not again in a file that
	 * has them: a second run) */
	if (!strstr(src->text, "// pipefy: tile queues {"))
		edits_add(e, first, 0, queue_helpers);
	int q = 0;
	for (int i = 0; i < m->npairs; i++) {
		struct launch_pair *p = &m->pairs[i];
		if (!p->queue || p->queue_refusal || p->out_of_range)
			continue;
		rewrite_queue(p, q++, src, e);
		p->rewritten = true;
	}
	return true;
}
