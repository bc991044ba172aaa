/* test_gate.c: the legality gate's two analyses, called directly on small kernels that
 * libclang parses for real (no CUDA headers) and find_kloops reads: storage.c's
 * storage_outside() (every way to a tile's bytes but the staged name inside the loop) and
 * uniform.c's uniform_value() and uniform_participation() (values alike in every thread of a
 * block; loops every thread reaches and runs as often as the others), and distinct.c's
 * distinct_elements() (a copy's trips store distinct elements). One fact a case. */
#include <stdlib.h>
#include "suites.h"

struct snippet {
	struct source src;
	struct parsed parsed;
	struct model model;
};

/* __syncthreads from a system header, as the CUDA headers give it (a call pipefy need not follow) */
#define PRELUDE "# 1 \"/pipefy-compat/gate_prelude.h\" 3\nextern \"C\" __device__ void __syncthreads(void);\n" \
		"# 3 \"snippet.cu\"\n"

/* The snippet parsed with extra arguments (`-fgpu-rdc`), or none. */
static void load_with(struct snippet *s, const char *code, const char *arg)
{
	char *text = xprintf("%s%s", PRELUDE, code);
	source_init_text(&s->src, "snippet.cu", text, strlen(text));
	free(text);
	const char *extra[1] = {arg};
	struct options o = {.arch = 80, .cuda_path = "/nonexistent", .extra_args = extra, .nextra = arg ? 1 : 0};
	char *err = NULL;
	ck_assert_msg(parse_source(&s->parsed, &s->src, &o, &err), "%s", err ? err : "");
	for (int i = 0; i < s->parsed.ndiags; i++)
		ck_assert_msg(!s->parsed.diags[i].is_error, "the snippet does not compile: %d:%d: %s",
			      s->parsed.diags[i].line, s->parsed.diags[i].col, s->parsed.diags[i].message);
	memset(&s->model, 0, sizeof s->model);
	find_kloops(&s->model, &s->parsed, &s->src);
}

static void load(struct snippet *s, const char *code)
{
	load_with(s, code, NULL);
}

static void unload(struct snippet *s)
{
	model_free(&s->model);
	parsed_free(&s->parsed);
	source_free(&s->src);
}

/* The first K-loop of function fn. */
static const struct kloop *loop_in(struct snippet *s, const char *fn)
{
	for (int i = 0; i < s->model.nloops; i++) {
		const struct kloop *l = &s->model.loops[i];
		if (!l->not_kloop && l->function && strcmp(l->function, fn) == 0)
			return l;
	}
	ck_abort_msg("no K-loop found in '%s'", fn);
	return NULL;
}

/* Where text first occurs in the snippet (after the prelude), as an offset and as "line:col". */
static size_t offset_of(const struct snippet *s, const char *text)
{
	const char *start = strstr(s->src.text, "# 3 \"snippet.cu\"\n") + strlen("# 3 \"snippet.cu\"\n");
	const char *p = strstr(start, text);
	ck_assert_msg(p != NULL, "'%s' is not in the snippet", text);
	return (size_t)(p - s->src.text);
}

static char *line_col(const struct snippet *s, size_t at)
{
	int line, col;
	source_line_col(&s->src, at, &line, &col);
	return xprintf("%d:%d", line, col);
}

/* storage_outside() for fn's K-loop; *at where it says. */
static char *storage(struct snippet *s, const char *fn, size_t *at)
{
	*at = 0;
	return storage_outside(loop_in(s, fn), &s->src, at);
}

static char *participation(struct snippet *s, const char *fn, size_t *at)
{
	const struct kloop *l = loop_in(s, fn);
	*at = 0;
	return uniform_participation(l->function_cursor, l->cursor, &s->src, s->parsed.other_files, at);
}

/* Assert why contains the words expected, with "L:C" in place of the position of `marker`, and
 * that *at is that position (a pointer: read after why is computed). */
static void says_at(struct snippet *s, char *why, const size_t *at, const char *expected, const char *marker)
{
	ck_assert_msg(why != NULL, "nothing found; expected \"%s\"", expected);
	size_t where = offset_of(s, marker);
	char *lc = line_col(s, where);
	const char *hole = strstr(expected, "L:C");
	ck_assert(hole != NULL);
	char *want = xprintf("%.*s%s%s", (int)(hole - expected), expected, lc, hole + 3);
	ck_assert_msg(strstr(why, want) != NULL, "said \"%s\", expected \"%s\"", why, want);
	ck_assert_uint_eq(*at, where);
	free(want);
	free(lc);
	free(why);
}

static void says_nothing(char *why)
{
	ck_assert_msg(why == NULL, "said \"%s\", expected nothing", why);
}

/* The function named fn, its definition. */
struct named { const char *name; CXCursor found; };
static enum CXChildVisitResult scan_named(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct named *n = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if ((k == CXCursor_FunctionDecl || k == CXCursor_VarDecl) && clang_isCursorDefinition(c)) {
		char *name = cursor_name(c);
		bool match = strcmp(name, n->name) == 0;
		free(name);
		if (match) {
			n->found = c;
			return CXChildVisit_Break;
		}
	}
	return k == CXCursor_FunctionDecl || k == CXCursor_CompoundStmt || k == CXCursor_DeclStmt
		       ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

static CXCursor named(CXCursor in, const char *name)
{
	struct named n = {name, clang_getNullCursor()};
	clang_visitChildren(in, scan_named, &n);
	ck_assert_msg(!clang_Cursor_isNull(n.found), "no '%s'", name);
	return n.found;
}

/* uniform_value() of the initial value of local var in function fn. */
static bool uniform_init(struct snippet *s, const char *fn, const char *var)
{
	CXCursor f = named(clang_getTranslationUnitCursor(s->parsed.tu), fn);
	CXCursor init = cursor_last_child(named(f, var));
	ck_assert(clang_isExpression(clang_getCursorKind(init)));
	return uniform_value(f, init, &s->src);
}

/* ---- storage_outside() ---- */

/* A K-loop over two static tiles: `As`, `Bs`. BEFORE and AFTER are statements around it. */
#define STATIC_KERNEL(params, before, after)                                                     \
	"__global__ void k(const float *A, const float *B, float *C, int K" params ")\n{\n"    \
	"    __shared__ float As[16][16];\n    __shared__ float Bs[16][16];\n"                    \
	"    float acc = 0.0f;\n" before                                                          \
	"    for (int t = 0; t < K / 16; ++t) {\n"                                               \
	"        As[threadIdx.y][threadIdx.x] = A[threadIdx.y * K + t * 16 + threadIdx.x];\n"    \
	"        Bs[threadIdx.y][threadIdx.x] = B[(t * 16 + threadIdx.y) * 16 + threadIdx.x];\n" \
	"        __syncthreads();\n"                                                              \
	"        for (int k = 0; k < 16; ++k)\n"                                                  \
	"            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];\n"                          \
	"        __syncthreads();\n"                                                              \
	"    }\n" after "    C[threadIdx.y * 16 + threadIdx.x] = acc;\n}\n"

/* Two tiles in the launch's dynamic shared memory, views of `smem`. */
#define DYNAMIC_KERNEL(params, before, in_loop, after)                                           \
	"__global__ void k(const float *A, const float *B, float *C, int K" params ")\n{\n"    \
	"    extern __shared__ float smem[];\n"                                                   \
	"    float *As = smem;\n    float *Bs = smem + 256;\n"                                    \
	"    float acc = 0.0f;\n" before                                                          \
	"    for (int t = 0; t < K / 16; ++t) {\n"                                               \
	"        As[threadIdx.y * 16 + threadIdx.x] = A[threadIdx.y * K + t * 16 + threadIdx.x];\n" \
	"        Bs[threadIdx.y * 16 + threadIdx.x] = B[(t * 16 + threadIdx.y) * 16 + threadIdx.x];\n" \
	"        __syncthreads();\n"                                                              \
	"        for (int k = 0; k < 16; ++k)\n"                                                  \
	"            acc += As[threadIdx.y * 16 + k] * Bs[k * 16 + threadIdx.x];\n" in_loop       \
	"        __syncthreads();\n"                                                              \
	"    }\n" after "    C[threadIdx.y * 16 + threadIdx.x] = acc;\n}\n"

START_TEST(storage_only_staged_names_is_nothing)
{
	struct snippet s;
	size_t at;
	load(&s, STATIC_KERNEL("", "", ""));
	says_nothing(storage(&s, "k", &at));
	unload(&s);
	load(&s, DYNAMIC_KERNEL("", "", "", ""));
	says_nothing(storage(&s, "k", &at));
	unload(&s);
}
END_TEST

START_TEST(storage_tile_named_after_the_loop)
{
	struct snippet s;
	size_t at;
	load(&s, STATIC_KERNEL("", "", "    acc += As[0][0];\n"));
	says_at(&s, storage(&s, "k", &at), &at, "tile 'As' is also used outside the loop at L:C", "As[0][0]");
	unload(&s);
}
END_TEST

START_TEST(storage_tile_named_before_the_loop)
{
	struct snippet s;
	size_t at;
	load(&s, STATIC_KERNEL("", "    Bs[threadIdx.y][threadIdx.x] = 0.0f;\n", ""));
	says_at(&s, storage(&s, "k", &at), &at, "tile 'Bs' is also used outside the loop at L:C", "Bs[threadIdx.y][threadIdx.x] = 0");
	unload(&s);
}
END_TEST

START_TEST(storage_extern_array_read_after_the_loop)
{
	struct snippet s;
	size_t at;
	load(&s, DYNAMIC_KERNEL("", "", "", "    acc += smem[256 + threadIdx.x];\n"));
	says_at(&s, storage(&s, "k", &at), &at,
		"'smem' at L:C, after the loop, reaches the tiles' dynamic shared memory by another name than the loop's",
		"smem[256 + threadIdx.x]");
	unload(&s);
}
END_TEST

START_TEST(storage_dynamic_tile_named_after_the_loop)
{
	struct snippet s;
	size_t at;
	load(&s, DYNAMIC_KERNEL("", "", "", "    acc += As[threadIdx.x];\n"));
	says_at(&s, storage(&s, "k", &at), &at, "tile 'As' is also used outside the loop at L:C", "As[threadIdx.x];");
	unload(&s);
}
END_TEST

START_TEST(storage_second_pointer_view)
{
	/* a view that is no tile, taken before the loop and read after it */
	struct snippet s;
	size_t at;
	load(&s, DYNAMIC_KERNEL("", "    const float *last = smem + 256;\n", "", "    acc += last[threadIdx.x];\n"));
	says_at(&s, storage(&s, "k", &at), &at,
		"'smem' at L:C, before the loop, reaches the tiles' dynamic shared memory by another name than the loop's",
		"smem + 256;\n    for");
	unload(&s);
}
END_TEST

START_TEST(storage_helper_called_from_the_kernel)
{
	/* the helper reads a tile through the file's own name for the dynamic shared memory */
	struct snippet s;
	size_t at;
	load(&s, "extern __shared__ float dyn[];\n"
		 "__device__ float b_at(int k) { return dyn[256 + k * 16 + threadIdx.x]; }\n"
		 "__global__ void k(const float *A, const float *B, float *C, int K)\n{\n"
		 "    float *As = dyn;\n    float *Bs = dyn + 256;\n    float acc = 0.0f;\n"
		 "    for (int t = 0; t < K / 16; ++t) {\n"
		 "        As[threadIdx.y * 16 + threadIdx.x] = A[threadIdx.y * K + t * 16 + threadIdx.x];\n"
		 "        Bs[threadIdx.y * 16 + threadIdx.x] = B[(t * 16 + threadIdx.y) * 16 + threadIdx.x];\n"
		 "        __syncthreads();\n"
		 "        for (int k = 0; k < 16; ++k)\n"
		 "            acc += As[threadIdx.y * 16 + k] * b_at(k);\n"
		 "        __syncthreads();\n"
		 "    }\n    C[threadIdx.y * 16 + threadIdx.x] = acc;\n}\n");
	says_at(&s, storage(&s, "k", &at), &at,
		"'b_at', called at L:C, reaches the tiles' dynamic shared memory through 'dyn'", "b_at(k);");
	unload(&s);
}
END_TEST

START_TEST(storage_helper_two_calls_deep_names_the_kernels_call)
{
	struct snippet s;
	size_t at;
	load(&s, "extern __shared__ float dyn[];\n"
		 "__device__ void clear_one(int i) { dyn[i] = 0.0f; }\n"
		 "__device__ void clear(int n) { for (int i = 0; i < n; ++i) clear_one(i); }\n"
		 DYNAMIC_KERNEL("", "", "", "    clear(16);\n"));
	says_at(&s, storage(&s, "k", &at), &at,
		"'clear', called at L:C, reaches the tiles' dynamic shared memory through 'dyn'", "clear(16);");
	unload(&s);
}
END_TEST

START_TEST(storage_file_scope_tile_in_a_helper)
{
	/* a static tile declared at file scope, named by a helper the kernel calls before the loop */
	struct snippet s;
	size_t at;
	load(&s, "__shared__ float As[16][16];\n"
		 "__device__ void reset() { As[threadIdx.y][threadIdx.x] = 0.0f; }\n"
		 "__global__ void k(const float *A, const float *B, float *C, int K)\n{\n"
		 "    __shared__ float Bs[16][16];\n    float acc = 0.0f;\n    reset();\n"
		 "    for (int t = 0; t < K / 16; ++t) {\n"
		 "        As[threadIdx.y][threadIdx.x] = A[threadIdx.y * K + t * 16 + threadIdx.x];\n"
		 "        Bs[threadIdx.y][threadIdx.x] = B[(t * 16 + threadIdx.y) * 16 + threadIdx.x];\n"
		 "        __syncthreads();\n"
		 "        for (int k = 0; k < 16; ++k)\n"
		 "            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];\n"
		 "        __syncthreads();\n"
		 "    }\n    C[threadIdx.y * 16 + threadIdx.x] = acc;\n}\n");
	says_at(&s, storage(&s, "k", &at), &at, "'reset', called at L:C, reaches a tile through 'As'", "reset();\n    for");
	unload(&s);
}
END_TEST

START_TEST(storage_call_without_a_definition_is_found)
{
	struct snippet s;
	size_t at;
	load(&s, "__device__ void opaque(int i);\n" DYNAMIC_KERNEL("", "", "", "    opaque(0);\n"));
	says_at(&s, storage(&s, "k", &at), &at,
		"'opaque', called at L:C, has no definition pipefy can read: it may reach the tiles' shared memory",
		"opaque(0);");
	unload(&s);
}
END_TEST

START_TEST(storage_helpers_nested_too_deep_are_found)
{
	/* four calls deep: more than it follows, whatever the last one does */
	struct snippet s;
	size_t at;
	load(&s, "__device__ float h4(float x) { return x; }\n"
		 "__device__ float h3(float x) { return h4(x); }\n"
		 "__device__ float h2(float x) { return h3(x); }\n"
		 "__device__ float h1(float x) { return h2(x); }\n"
		 DYNAMIC_KERNEL("", "", "", "    acc = h1(acc);\n"));
	says_at(&s, storage(&s, "k", &at), &at,
		"the functions called at L:C call each other too deep for pipefy to see what shared memory they reach",
		"h1(acc);");
	unload(&s);
}
END_TEST

START_TEST(storage_another_shared_array_is_nothing)
{
	struct snippet s;
	size_t at;
	load(&s, STATIC_KERNEL("", "    __shared__ float red[16];\n    red[threadIdx.x] = 0.0f;\n",
			       "    acc += red[threadIdx.x];\n"));
	says_nothing(storage(&s, "k", &at));
	unload(&s);
	load(&s, DYNAMIC_KERNEL("", "    __shared__ float red[16];\n    red[threadIdx.x] = 0.0f;\n", "",
				"    acc += red[threadIdx.x];\n"));
	says_nothing(storage(&s, "k", &at));
	unload(&s);
}
END_TEST

START_TEST(storage_function_not_reached_is_nothing)
{
	/* a function using the dynamic memory, written before the kernel and never called by it */
	struct snippet s;
	size_t at;
	load(&s, "extern __shared__ float dyn[];\n"
		 "__device__ void unused() { dyn[threadIdx.x] = 1.0f; }\n"
		 "__device__ float innocent(float x) { return 2.0f * x; }\n"
		 "__global__ void k(const float *A, const float *B, float *C, int K)\n{\n"
		 "    float *As = dyn;\n    float *Bs = dyn + 256;\n    float acc = 0.0f;\n"
		 "    for (int t = 0; t < K / 16; ++t) {\n"
		 "        As[threadIdx.y * 16 + threadIdx.x] = A[threadIdx.y * K + t * 16 + threadIdx.x];\n"
		 "        Bs[threadIdx.y * 16 + threadIdx.x] = B[(t * 16 + threadIdx.y) * 16 + threadIdx.x];\n"
		 "        __syncthreads();\n"
		 "        for (int k = 0; k < 16; ++k)\n"
		 "            acc += As[threadIdx.y * 16 + k] * Bs[k * 16 + threadIdx.x];\n"
		 "        __syncthreads();\n"
		 "    }\n    C[threadIdx.y * 16 + threadIdx.x] = innocent(acc);\n}\n");
	says_nothing(storage(&s, "k", &at));
	unload(&s);
}
END_TEST

/* A call through a pointer to a function: its target is not known, so neither is what it
 * reaches (found on the H200: a tile read after the loop through a hook came out wrong). */
START_TEST(storage_calls_through_function_pointers_are_found)
{
	static const char *const calls[] = {"hook(0);", "(*hook)(0);", "f(0);", "o.f(0);", NULL};
	for (const char *const *c = calls; *c; c++) {
		struct snippet s;
		size_t at;
		char *after = xprintf("    struct { void (*f)(int); } o = {hook};\n    void (*f)(int) = hook;\n    %s\n", *c);
		char *code = xprintf(DYNAMIC_KERNEL(", void (*hook)(int)", "", "", "%s"), after);
		load(&s, code);
		says_at(&s, storage(&s, "k", &at), &at,
			"the call at L:C goes through a pointer to a function: pipefy cannot see what it reaches, the tiles' "
			"shared memory included", *c);
		unload(&s);
		free(code);
		free(after);
	}
}
END_TEST

/* ---- uniform_participation() ---- */

/* A K-loop over static tiles, with `bound` as its trip count; written at the given indent. */
#define KLOOP(ind, bound)                                                                          \
	ind "for (int t = 0; t < " bound "; ++t) {\n"                                                 \
	ind "    As[threadIdx.y][threadIdx.x] = A[threadIdx.y * K + t * 16 + threadIdx.x];\n"        \
	ind "    Bs[threadIdx.y][threadIdx.x] = B[(t * 16 + threadIdx.y) * 16 + threadIdx.x];\n"     \
	ind "    __syncthreads();\n"                                                                  \
	ind "    for (int k = 0; k < 16; ++k)\n"                                                      \
	ind "        acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];\n"                              \
	ind "    __syncthreads();\n"                                                                  \
	ind "}\n"
#define HEAD(params)                                                                                \
	"__global__ void k(const float *A, const float *B, float *C, int K" params ")\n{\n"      \
	"    __shared__ float As[16][16];\n    __shared__ float Bs[16][16];\n    float acc = 0.0f;\n"
#define TAIL "    C[threadIdx.y * 16 + threadIdx.x] = acc;\n}\n"

START_TEST(participation_plain_loop_is_uniform)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD("") KLOOP("    ", "K / 16") TAIL);
	says_nothing(participation(&s, "k", &at));
	unload(&s);
}
END_TEST

START_TEST(participation_under_block_index_test_is_uniform)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD(", int n") "    if (blockIdx.x < n) {\n" KLOOP("        ", "K / 16") "    }\n" TAIL);
	says_nothing(participation(&s, "k", &at));
	unload(&s);
}
END_TEST

START_TEST(participation_under_thread_index_test_is_refused)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD("") "    if (threadIdx.x < 32) {\n" KLOOP("        ", "K / 16") "    }\n" TAIL);
	says_at(&s, participation(&s, "k", &at), &at,
		"the loop is reached only by the threads for which `threadIdx.x < 32` (L:C) holds", "threadIdx.x < 32");
	unload(&s);
}
END_TEST

/* a kernel's return ends the thread, and __syncthreads() waits only for threads that have not
 * ended: the loop's barriers are every remaining thread's */
START_TEST(participation_kernel_return_on_thread_test_before_the_loop_ends_threads)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD(", int N") "    if (blockIdx.x * 16 + threadIdx.x >= N)\n        return;\n" KLOOP("    ", "K / 16") TAIL);
	says_nothing(participation(&s, "k", &at));
	unload(&s);
}
END_TEST

/* a __device__ function's return goes back to its caller, which goes on: refused */
START_TEST(participation_helper_return_on_thread_test_before_the_loop)
{
	struct snippet s;
	size_t at;
	load(&s, "__device__ void d(const float *A, const float *B, float *C, int K, int N)\n{\n"
		 "    __shared__ float As[16][16];\n    __shared__ float Bs[16][16];\n    float acc = 0.0f;\n"
		 "    if (blockIdx.x * 16 + threadIdx.x >= N)\n        return;\n" KLOOP("    ", "K / 16") TAIL
		 "__global__ void k(const float *A, const float *B, float *C, int K, int N)\n{\n"
		 "    d(A, B, C, K, N);\n}\n");
	says_at(&s, participation(&s, "d", &at), &at,
		"the 'return' at L:C may end some threads of a block before the loop and not others", "return;");
	unload(&s);
}
END_TEST

START_TEST(participation_return_on_block_test_is_uniform)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD(", int N") "    if (blockIdx.x * 16 >= N)\n        return;\n" KLOOP("    ", "K / 16") TAIL);
	says_nothing(participation(&s, "k", &at));
	unload(&s);
}
END_TEST

/* a persistent loop left by a break on its own counter: every thread leaves it together */
START_TEST(participation_break_on_a_persistent_loops_counter_is_uniform)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD(", int n") "    for (unsigned pos = blockIdx.x;; pos += gridDim.x) {\n"
		 "        if (pos / 4 >= n)\n            break;\n" KLOOP("        ", "K / 16") "    }\n" TAIL);
	says_nothing(participation(&s, "k", &at));
	unload(&s);
}
END_TEST

START_TEST(participation_break_on_a_thread_test_in_a_persistent_loop)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD(", int n") "    for (unsigned pos = blockIdx.x;; pos += gridDim.x) {\n"
		 "        if (pos / 4 + threadIdx.x >= n)\n            break;\n" KLOOP("        ", "K / 16") "    }\n" TAIL);
	says_at(&s, participation(&s, "k", &at), &at,
		"the 'break' at L:C, in a loop around this one, may be taken by some threads of a block and not by others",
		"break;");
	unload(&s);
}
END_TEST

START_TEST(participation_header_reads_a_local_from_threadIdx)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD("") "    int n = K / 16;\n    n = n - threadIdx.y;\n" KLOOP("    ", "n") TAIL);
	says_at(&s, participation(&s, "k", &at), &at,
		"the loop's header reads `t < n` (L:C), which pipefy cannot show is the same in every thread", "t < n");
	unload(&s);
}
END_TEST

START_TEST(participation_header_reads_a_local_of_uniform_values)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD(", int n") "    int tiles = K / 16;\n    if (blockIdx.y > 0)\n        tiles = tiles < n ? tiles : n;\n"
		 KLOOP("    ", "tiles") TAIL);
	says_nothing(participation(&s, "k", &at));
	unload(&s);
}
END_TEST

START_TEST(participation_header_reads_a_local_assigned_under_a_thread_test)
{
	/* a uniform value, but stored by some threads only */
	struct snippet s;
	size_t at;
	load(&s, HEAD("") "    int tiles = K / 16;\n    if (threadIdx.x == 0)\n        tiles = 0;\n"
		 KLOOP("    ", "tiles") TAIL);
	says_at(&s, participation(&s, "k", &at), &at, "the loop's header reads `t < tiles` (L:C)", "t < tiles");
	unload(&s);
}
END_TEST

START_TEST(participation_header_reads_a_local_a_helper_writes_by_reference)
{
	struct snippet s;
	size_t at;
	load(&s, "__device__ void set(int &x) { x = threadIdx.x; }\n"
		 HEAD("") "    int n = K / 16;\n    set(n);\n" KLOOP("    ", "n") TAIL);
	says_at(&s, participation(&s, "k", &at), &at, "the loop's header reads `t < n` (L:C)", "t < n");
	unload(&s);
}
END_TEST

START_TEST(participation_header_calls_a_pure_helper_of_uniform_values)
{
	struct snippet s;
	size_t at;
	load(&s, "__device__ int ceil_div(int a, int b) { return (a + b - 1) / b; }\n"
		 HEAD("") KLOOP("    ", "ceil_div(K, 16)") TAIL);
	says_nothing(participation(&s, "k", &at));
	unload(&s);
}
END_TEST

START_TEST(participation_header_calls_a_helper_that_reads_threadIdx)
{
	struct snippet s;
	size_t at;
	load(&s, "__device__ int lane() { return threadIdx.x % 32; }\n" HEAD("") KLOOP("    ", "K / 16 - lane()") TAIL);
	says_at(&s, participation(&s, "k", &at), &at, "the loop's header reads `t < K / 16 - lane()` (L:C)", "t < K");
	unload(&s);
}
END_TEST

START_TEST(participation_under_a_switch_on_the_thread)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD("") "    switch (threadIdx.y) {\n    case 0:\n" KLOOP("        ", "K / 16") "    }\n" TAIL);
	says_at(&s, participation(&s, "k", &at), &at, "the loop is reached only by the threads for which `threadIdx.y` (L:C)",
		"threadIdx.y) {");
	unload(&s);
}
END_TEST

START_TEST(participation_bound_loaded_through_const_pointer)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD(", const int *tiles") "    int n = tiles[blockIdx.z];\n" KLOOP("    ", "n") TAIL);
	says_nothing(participation(&s, "k", &at));
	unload(&s);
	load(&s, HEAD(", int *tiles") "    int n = tiles[blockIdx.z];\n" KLOOP("    ", "n") TAIL);
	says_at(&s, participation(&s, "k", &at), &at, "the loop's header reads `t < n` (L:C)", "t < n");
	unload(&s);
}
END_TEST

START_TEST(participation_break_out_of_an_enclosing_loop)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD(", int R") "    for (int r = 0; r < R; ++r) {\n        if (threadIdx.x >= 16 * r)\n            break;\n"
		 KLOOP("        ", "K / 16") "    }\n" TAIL);
	says_at(&s, participation(&s, "k", &at), &at,
		"the 'break' at L:C, in a loop around this one, may be taken by some threads of a block and not by others",
		"break;");
	unload(&s);
}
END_TEST

START_TEST(participation_enclosing_loop_bound_from_threadIdx)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD("") "    for (int r = threadIdx.x; r < 64; r += 32) {\n" KLOOP("        ", "K / 16") "    }\n" TAIL);
	says_at(&s, participation(&s, "k", &at), &at, "the loop is reached only by the threads for which `r < 64` (L:C)",
		"r < 64");
	unload(&s);
}
END_TEST

/* ---- uniform_value() ---- */

#define VALUE_KERNEL(params, decls)                                                         \
	"__global__ void v(int n, const int *cp, int *p" params ")\n{\n" decls "}\n"

START_TEST(value_block_indices_and_arguments_are_uniform)
{
	struct snippet s;
	load(&s, VALUE_KERNEL("", "    int x = blockIdx.x * blockDim.x + gridDim.y * n + 16;\n"));
	ck_assert(uniform_init(&s, "v", "x"));
	unload(&s);
}
END_TEST

START_TEST(value_thread_index_is_not)
{
	struct snippet s;
	load(&s, VALUE_KERNEL("", "    int warp = threadIdx.x / 32;\n"));
	ck_assert(!uniform_init(&s, "v", "warp"));
	unload(&s);
}
END_TEST

START_TEST(value_const_pointer_load_at_uniform_address)
{
	struct snippet s;
	load(&s, VALUE_KERNEL("", "    int x = cp[blockIdx.x + n];\n"));
	ck_assert(uniform_init(&s, "v", "x"));
	unload(&s);
}
END_TEST

START_TEST(value_const_pointer_load_at_thread_address_is_not)
{
	struct snippet s;
	load(&s, VALUE_KERNEL("", "    int x = cp[threadIdx.x];\n"));
	ck_assert(!uniform_init(&s, "v", "x"));
	unload(&s);
}
END_TEST

START_TEST(value_non_const_pointer_load_is_not)
{
	struct snippet s;
	load(&s, VALUE_KERNEL("", "    int x = p[blockIdx.x];\n"));
	ck_assert(!uniform_init(&s, "v", "x"));
	unload(&s);
	load(&s, VALUE_KERNEL("", "    int x = *p;\n"));
	ck_assert(!uniform_init(&s, "v", "x"));
	unload(&s);
}
END_TEST

START_TEST(value_local_assigned_from_threadIdx_is_not)
{
	struct snippet s;
	load(&s, VALUE_KERNEL("", "    int m = n;\n    m += threadIdx.x;\n    int x = m;\n"));
	ck_assert(!uniform_init(&s, "v", "x"));
	unload(&s);
}
END_TEST

START_TEST(value_local_assigned_only_uniform_values)
{
	struct snippet s;
	load(&s, VALUE_KERNEL("", "    int m = n;\n    if (blockIdx.x == 0)\n        m = 2 * n;\n    int x = m;\n"));
	ck_assert(uniform_init(&s, "v", "x"));
	unload(&s);
}
END_TEST

START_TEST(value_shared_variable_is_not)
{
	struct snippet s;
	load(&s, VALUE_KERNEL("", "    __shared__ int s;\n    if (threadIdx.x == 0)\n        s = n;\n    int x = s;\n"));
	ck_assert(!uniform_init(&s, "v", "x"));
	unload(&s);
}
END_TEST

START_TEST(value_local_whose_address_is_taken_is_not)
{
	/* it may be written through the pointer */
	struct snippet s;
	load(&s, VALUE_KERNEL("", "    int m = n;\n    int *pm = &m;\n    p[0] = *pm;\n    int x = m;\n"));
	ck_assert(!uniform_init(&s, "v", "x"));
	unload(&s);
}
END_TEST

START_TEST(value_constant_global_is_uniform_and_a_device_global_is_not)
{
	struct snippet s;
	load(&s, "__constant__ int tiles;\n__device__ int counter;\n"
		 VALUE_KERNEL("", "    int x = tiles * n;\n    int y = counter;\n"));
	ck_assert(uniform_init(&s, "v", "x"));
	ck_assert(!uniform_init(&s, "v", "y"));
	unload(&s);
}
END_TEST

START_TEST(participation_continue_in_a_switch_of_an_enclosing_loop)
{
	/* (a continue inside a switch still continues the loop around it) */
	struct snippet s;
	size_t at;
	load(&s, HEAD(", int R") "    for (int r = 0; r < R; ++r) {\n        switch (threadIdx.x & 1) {\n"
		 "        case 1:\n            continue;\n        }\n" KLOOP("        ", "K / 16") "    }\n" TAIL);
	says_at(&s, participation(&s, "k", &at), &at,
		"the 'continue' at L:C, in a loop around this one, may be taken by some threads", "continue;");
	unload(&s);
}
END_TEST

START_TEST(participation_if_with_an_init_statement_reads_its_condition)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD(", int M") "    if (M = M + 1; threadIdx.x < 8) {\n" KLOOP("        ", "K / 16") "    }\n" TAIL);
	char *why = participation(&s, "k", &at);
	ck_assert_msg(why != NULL, "a loop under `threadIdx.x < 8` read as reached by every thread");
	free(why);
	unload(&s);
}
END_TEST

START_TEST(participation_goto_back_over_the_loop)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD("") "    int again = 0;\nstart:\n" KLOOP("    ", "K / 16")
		 "    if (threadIdx.x < 32 && again++ == 0)\n        goto start;\n" TAIL);
	says_at(&s, participation(&s, "k", &at), &at, "the 'goto' at L:C", "goto start;");
	unload(&s);
}
END_TEST

START_TEST(participation_asm_that_may_exit_before_the_loop)
{
	struct snippet s;
	size_t at;
	load(&s, HEAD("") "    if (threadIdx.x >= 32)\n        asm volatile(\"exit;\");\n" KLOOP("    ", "K / 16") TAIL);
	says_at(&s, participation(&s, "k", &at), &at, "the asm statement at L:C", "asm volatile");
	unload(&s);
}
END_TEST

/* A K-loop in a __device__ function: its callers decide who reaches it, with what values. */
#define DEVICE_LOOP(params, bound)                                                                   \
	"__device__ void tile_gemm(const float *A, const float *B, float *C, int K" params ")\n{\n"  \
	"    __shared__ float As[16][16];\n    __shared__ float Bs[16][16];\n    float acc = 0.0f;\n"   \
	KLOOP("    ", bound) TAIL

START_TEST(participation_device_function_called_under_a_thread_test)
{
	struct snippet s;
	size_t at;
	load(&s, "static " DEVICE_LOOP("", "K / 16")
		 "__global__ void k(const float *A, const float *B, float *C, int K, int M)\n{\n"
		 "    if (threadIdx.x + blockIdx.x * 16 < M)\n        tile_gemm(A, B, C, K);\n}\n");
	says_at(&s, participation(&s, "tile_gemm", &at), &at,
		"the loop is reached only by the threads for which `threadIdx.x + blockIdx.x * 16 < M` (L:C) holds",
		"threadIdx.x + blockIdx.x * 16 < M");
	unload(&s);
}
END_TEST

START_TEST(participation_device_function_given_a_thread_value)
{
	struct snippet s;
	size_t at;
	load(&s, "static " DEVICE_LOOP(", int n", "n")
		 "__global__ void k(const float *A, const float *B, float *C, int K)\n{\n"
		 "    tile_gemm(A, B, C, K, K / 16 + (threadIdx.x & 1));\n}\n");
	char *why = participation(&s, "tile_gemm", &at);
	ck_assert_msg(why != NULL, "a trip count passed from threadIdx read as the same in every thread");
	ck_assert_msg(strstr(why, "`t < n`") != NULL, "said \"%s\"", why);
	free(why);
	unload(&s);
}
END_TEST

START_TEST(participation_device_function_called_alike_by_every_thread)
{
	struct snippet s;
	size_t at;
	load(&s, "static " DEVICE_LOOP(", int n", "n")
		 "__global__ void k(const float *A, const float *B, float *C, int K)\n{\n"
		 "    if (blockIdx.y == 0)\n        tile_gemm(A, B, C, K, K / 16);\n}\n");
	says_nothing(participation(&s, "tile_gemm", &at));
	unload(&s);
}
END_TEST

START_TEST(participation_device_function_other_files_may_call)
{
	/* with relocatable device code (nvcc -rdc=true: clang's -fgpu-rdc) other files link to it;
	 * without, nvcc compiles device code a file at a time and this file holds every call */
	static const char *const code = DEVICE_LOOP("", "K / 16")
		"__global__ void k(const float *A, const float *B, float *C, int K)\n{\n    tile_gemm(A, B, C, K);\n}\n";
	struct snippet s;
	size_t at;
	load_with(&s, code, "-fgpu-rdc");
	says_at(&s, participation(&s, "tile_gemm", &at), &at,
		"'tile_gemm' (L:C) may be called from other files", "tile_gemm(const");
	unload(&s);
	load(&s, code);
	says_nothing(participation(&s, "tile_gemm", &at));
	unload(&s);
}
END_TEST

START_TEST(participation_device_template_called_from_a_template_kernel)
{
	/* (a dependent call: the instantiation resolves it; the template's calls are read) */
	static const char *const guards[] = {"threadIdx.x < 64", "blockIdx.x < 64", NULL};
	for (int g = 0; guards[g]; g++) {
		struct snippet s;
		size_t at;
		char *code = xprintf("template <int T>\n" DEVICE_LOOP("", "K / T")
				     "template <int T>\n__global__ void k(const float *A, const float *B, float *C, int K)\n{\n"
				     "    if (%s)\n        tile_gemm<T>(A, B, C, K);\n}\n"
				     "template __global__ void k<16>(const float *, const float *, float *, int);\n", guards[g]);
		load(&s, code);
		char *why = participation(&s, "tile_gemm", &at);
		if (g == 0)
			says_at(&s, why, &at, "the loop is reached only by the threads for which `threadIdx.x < 64` (L:C)",
				"threadIdx.x < 64");
		else
			says_nothing(why);
		unload(&s);
		free(code);
	}
}
END_TEST

START_TEST(participation_device_function_never_called_is_refused)
{
	struct snippet s;
	size_t at;
	load(&s, "static " DEVICE_LOOP("", "K / 16"));
	says_at(&s, participation(&s, "tile_gemm", &at), &at, "pipefy finds no call of 'tile_gemm' (L:C)", "tile_gemm(const");
	unload(&s);
}
END_TEST


/* ---- distinct.c: a copy's trips store distinct elements ---- */

/* What distinct_elements says of the first copy of kernel k's K-loop, whose body is fill
 * (copies into As[32][36]) and a compute that reads As: NULL when proved. */
static char *distinct_of(const char *fill)
{
	struct snippet s;
	char *code = xprintf("__global__ void k(const float *A, float *C, int K)\n{\n"
			     "    __shared__ float As[32][36];\n"
			     "    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 32 + tx;\n    float acc = 0.0f;\n"
			     "    for (int k0 = 0; k0 < K; k0 += 32) {\n%s"
			     "        __syncthreads();\n"
			     "        for (int k = 0; k < 32; ++k)\n            acc += As[ty][k];\n"
			     "        __syncthreads();\n    }\n    C[tid] = acc;\n}\n", fill);
	load(&s, code);
	free(code);
	const struct kloop *l = loop_in(&s, "k");
	ck_assert_int_gt(l->ncopies, 0);
	const struct copy *cp = &l->copies[0];
	char *why = distinct_elements(cursor_write_target(cp->store), l->stmts[cp->stmt].cursor, &s.src);
	unload(&s);
	return why;
}

static void distinct_says(const char *fill, const char *want)
{
	char *why = distinct_of(fill);
	if (!want)
		ck_assert_msg(why == NULL, "not proved: %s", why ? why : "");
	else
		ck_assert_msg(why && strstr(why, want), "want \"%s\", got \"%s\"", want, why ? why : "(proved)");
	free(why);
}

START_TEST(distinct_rows_of_a_counter)
{
	distinct_says("        for (int q = 0; q < 4; ++q)\n"
		      "            As[ty + 8 * q][tx] = A[(ty + 8 * q) * K + k0 + tx];\n", NULL);
}
END_TEST

START_TEST(distinct_counter_times_zero)
{
	distinct_says("        for (int x = 0; x < 2; ++x)\n"
		      "            As[ty + 0 * x][tx] = A[ty * K + k0 + tx + x];\n", "does not move with 'x'");
}
END_TEST

START_TEST(distinct_quotient_and_remainder_in_padded_rows)
{
	distinct_says("        for (int i = tid; i < 256; i += 128) {\n"
		      "            int r = i / 8, c = (i % 8) * 4;\n"
		      "            As[r][c] = A[r * K + k0 + c];\n        }\n", NULL);
}
END_TEST

START_TEST(distinct_quotient_that_does_not_move)
{
	distinct_says("        for (int x = 0; x < 2; ++x)\n"
		      "            As[ty][tx + x / 2] = A[ty * K + k0 + tx + x];\n", "quotient and remainder");
}
END_TEST

START_TEST(distinct_inner_start_from_the_outer_counter)
{
	distinct_says("        for (int i = 0; i < 2; ++i)\n            for (int j = i; j < 7; j += 2)\n"
		      "                As[ty][j + i] = A[ty * K + k0 + j];\n", "starts at a value the loops around it change");
}
END_TEST

START_TEST(distinct_narrow_local)
{
	distinct_says("        for (int m = 0; m < 4; ++m) {\n            unsigned char c = tid + 128 * m;\n"
		      "            (&As[0][0])[c] = A[k0 + c];\n        }\n", "under 4 bytes");
}
END_TEST

START_TEST(distinct_two_run_time_factors)
{
	distinct_says("        for (int i = 0; i < 2; ++i)\n"
		      "            (&As[0][0])[tx + i * blockDim.x * 2 - i * blockDim.y] = A[k0 + tx];\n",
		      "a sum pipefy cannot add up");
}
END_TEST

START_TEST(distinct_local_stepped_once_a_trip)
{
	distinct_says("        int r = ty;\n        for (int q = 0; q < 4; ++q) {\n"
		      "            As[r][tx] = A[r * K + k0 + tx];\n            r += 8;\n        }\n", NULL);
}
END_TEST

START_TEST(distinct_rows_and_columns_from_the_thread)
{
	distinct_says("        for (int r = ty; r < 32; r += 4)\n            for (int c = tx; c < 32; c += 32)\n"
		      "                As[r][c] = A[r * K + k0 + c];\n", NULL);
}
END_TEST

START_TEST(distinct_columns_running_into_the_next_row)
{
	distinct_says("        for (int r = ty; r < 8; ++r)\n            for (int c = tx; c < 64; ++c)\n"
		      "                (&As[0][0])[r * 32 + c] = A[r * K + k0 + c];\n",
		      "may land on an element another loop's trips reach");
}
END_TEST

START_TEST(distinct_local_stepped_then_halved)
{
	distinct_says("        int r = 0;\n        for (int q = 0; q < 16; ++q) {\n"
		      "            As[ty + 4 * (r / 2)][tx] = A[r * K + k0 + tx];\n            ++r;\n        }\n",
		      "quotient and remainder");
}
END_TEST

Suite *gate_suite(void)
{
	Suite *s = suite_create("gate");
	TCase *st = tcase_create("storage");
	tcase_add_test(st, storage_only_staged_names_is_nothing);
	tcase_add_test(st, storage_tile_named_after_the_loop);
	tcase_add_test(st, storage_tile_named_before_the_loop);
	tcase_add_test(st, storage_extern_array_read_after_the_loop);
	tcase_add_test(st, storage_dynamic_tile_named_after_the_loop);
	tcase_add_test(st, storage_second_pointer_view);
	tcase_add_test(st, storage_helper_called_from_the_kernel);
	tcase_add_test(st, storage_helper_two_calls_deep_names_the_kernels_call);
	tcase_add_test(st, storage_file_scope_tile_in_a_helper);
	tcase_add_test(st, storage_call_without_a_definition_is_found);
	tcase_add_test(st, storage_helpers_nested_too_deep_are_found);
	tcase_add_test(st, storage_another_shared_array_is_nothing);
	tcase_add_test(st, storage_function_not_reached_is_nothing);
	tcase_add_test(st, storage_calls_through_function_pointers_are_found);
	suite_add_tcase(s, st);
	TCase *dt = tcase_create("distinct");
	tcase_add_test(dt, distinct_rows_of_a_counter);
	tcase_add_test(dt, distinct_counter_times_zero);
	tcase_add_test(dt, distinct_quotient_and_remainder_in_padded_rows);
	tcase_add_test(dt, distinct_quotient_that_does_not_move);
	tcase_add_test(dt, distinct_inner_start_from_the_outer_counter);
	tcase_add_test(dt, distinct_narrow_local);
	tcase_add_test(dt, distinct_two_run_time_factors);
	tcase_add_test(dt, distinct_local_stepped_once_a_trip);
	tcase_add_test(dt, distinct_local_stepped_then_halved);
	tcase_add_test(dt, distinct_rows_and_columns_from_the_thread);
	tcase_add_test(dt, distinct_columns_running_into_the_next_row);
	suite_add_tcase(s, dt);
	TCase *pt = tcase_create("participation");
	tcase_add_test(pt, participation_plain_loop_is_uniform);
	tcase_add_test(pt, participation_under_block_index_test_is_uniform);
	tcase_add_test(pt, participation_under_thread_index_test_is_refused);
	tcase_add_test(pt, participation_kernel_return_on_thread_test_before_the_loop_ends_threads);
	tcase_add_test(pt, participation_helper_return_on_thread_test_before_the_loop);
	tcase_add_test(pt, participation_return_on_block_test_is_uniform);
	tcase_add_test(pt, participation_break_on_a_persistent_loops_counter_is_uniform);
	tcase_add_test(pt, participation_break_on_a_thread_test_in_a_persistent_loop);
	tcase_add_test(pt, participation_header_reads_a_local_from_threadIdx);
	tcase_add_test(pt, participation_header_reads_a_local_of_uniform_values);
	tcase_add_test(pt, participation_header_reads_a_local_assigned_under_a_thread_test);
	tcase_add_test(pt, participation_header_reads_a_local_a_helper_writes_by_reference);
	tcase_add_test(pt, participation_header_calls_a_pure_helper_of_uniform_values);
	tcase_add_test(pt, participation_header_calls_a_helper_that_reads_threadIdx);
	tcase_add_test(pt, participation_under_a_switch_on_the_thread);
	tcase_add_test(pt, participation_bound_loaded_through_const_pointer);
	tcase_add_test(pt, participation_break_out_of_an_enclosing_loop);
	tcase_add_test(pt, participation_enclosing_loop_bound_from_threadIdx);
	tcase_add_test(pt, participation_continue_in_a_switch_of_an_enclosing_loop);
	tcase_add_test(pt, participation_if_with_an_init_statement_reads_its_condition);
	tcase_add_test(pt, participation_goto_back_over_the_loop);
	tcase_add_test(pt, participation_asm_that_may_exit_before_the_loop);
	tcase_add_test(pt, participation_device_function_called_under_a_thread_test);
	tcase_add_test(pt, participation_device_function_given_a_thread_value);
	tcase_add_test(pt, participation_device_function_called_alike_by_every_thread);
	tcase_add_test(pt, participation_device_function_other_files_may_call);
	tcase_add_test(pt, participation_device_template_called_from_a_template_kernel);
	tcase_add_test(pt, participation_device_function_never_called_is_refused);
	suite_add_tcase(s, pt);
	TCase *vt = tcase_create("value");
	tcase_add_test(vt, value_block_indices_and_arguments_are_uniform);
	tcase_add_test(vt, value_thread_index_is_not);
	tcase_add_test(vt, value_const_pointer_load_at_uniform_address);
	tcase_add_test(vt, value_const_pointer_load_at_thread_address_is_not);
	tcase_add_test(vt, value_non_const_pointer_load_is_not);
	tcase_add_test(vt, value_local_assigned_from_threadIdx_is_not);
	tcase_add_test(vt, value_local_assigned_only_uniform_values);
	tcase_add_test(vt, value_shared_variable_is_not);
	tcase_add_test(vt, value_local_whose_address_is_taken_is_not);
	tcase_add_test(vt, value_constant_global_is_uniform_and_a_device_global_is_not);
	suite_add_tcase(s, vt);
	return s;
}
