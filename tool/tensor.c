/* tensor.c: the tensor-copy family (sm_90: tma, bulk, ws; ws-cp.async from sm_80): each tile
 * is one box of its operand (box.c), copied by one thread (tma, bulk) or a producer warp (ws,
 * ws-cp.async) into 128-byte aligned stages; mbarriers (or named barriers) say when a stage is
 * full and when it is free again. Its validation reads the main loop back. */
#include "stage.h"
#include "region.h"

#include <stdlib.h>

/* The helpers every tensor-copy kernel and launcher uses, once per file. The device ones are
 * one PTX instruction each (trapping if ever run below sm_90, where the launcher never runs
 * the copy); the host one makes a 2-D tensor map for an operand whose rows are row_elems long,
 * through the driver entry point the runtime hands out (no link dependency on libcuda). The
 * CPU model (tests/cpu/to_cpu.py) replaces this block between its marker lines. */
static const char tma_helpers_start[] =
	"// pipefy: Hopper tensor copies {\n"
	"#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900\n"
	"#define PIPEFY_SM90(...) ((void)&pipefy_smem, __trap()) /* (never run below sm_90) */\n"
	"#else\n"
	"#define PIPEFY_SM90(...) __VA_ARGS__\n"
	"#endif\n"
	"static __device__ __forceinline__ unsigned pipefy_smem(const void *p)\n"
	"{\n"
	"    return (unsigned)__cvta_generic_to_shared(p);\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_mbar_init(unsigned long long *bar, unsigned count)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"mbarrier.init.shared::cta.b64 [%0], %1;\" ::\"r\"(pipefy_smem(bar)), \"r\"(count) : \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_mbar_fence_init()\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_mbar_inval(unsigned long long *bar)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"mbarrier.inval.shared::cta.b64 [%0];\" ::\"r\"(pipefy_smem(bar)) : \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void " NAME_MBAR_ARRIVE "(unsigned long long *bar, unsigned count)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0], %1;\" ::\"r\"(pipefy_smem(bar)), \"r\"(count) : \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void pipefy_mbar_expect_tx(unsigned long long *bar, unsigned bytes)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"mbarrier.expect_tx.shared::cta.b64 [%0], %1;\" ::\"r\"(pipefy_smem(bar)), \"r\"(bytes) : \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void " NAME_MBAR_WAIT "(unsigned long long *bar, unsigned parity)\n"
	"{\n"
	"    unsigned done = 0;\n"
	"    while (!done)\n"
	"        PIPEFY_SM90(asm volatile(\"{\\n.reg .pred p;\\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\\n\"\n"
	"                                 \"selp.u32 %0, 1, 0, p;\\n}\" : \"=r\"(done) : \"r\"(pipefy_smem(bar)), \"r\"(parity) : \"memory\"));\n"
	"}\n"
	"static __device__ __forceinline__ void " NAME_FENCE_PROXY "()\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\"));\n"
	"}\n"
	;
static const char tma_helpers_2d[] =
	"static __device__ __forceinline__ void " NAME_TMA_LOAD "(void *dst, const CUtensorMap *map, int col, int row,\n"
	"                                                          unsigned long long *bar)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes \"\n"
	"                             \"[%0], [%1, {%2, %3}], [%4];\" ::\"r\"(pipefy_smem(dst)), \"l\"(map), \"r\"(col), \"r\"(row),\n"
	"                             \"r\"(pipefy_smem(bar)) : \"memory\"));\n"
	"}\n"
	;
/* (bulk copies: the kernel runs the loop as written where it is compiled below sm_90) */
static const char tma_helpers_bulk[] =
	"static __device__ __forceinline__ void " NAME_BULK_LOAD "(void *dst, const void *src, unsigned bytes,\n"
	"                                                        unsigned long long *bar)\n"
	"{\n"
	"    PIPEFY_SM90(asm volatile(\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\"\n"
	"                             ::\"r\"(pipefy_smem(dst)), \"l\"(__cvta_generic_to_global(src)), \"r\"(bytes),\n"
	"                             \"r\"(pipefy_smem(bar)) : \"memory\"));\n"
	"}\n"
	"#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900\n"
	"static constexpr bool pipefy_sm90 = false;\n"
	"#else\n"
	"static constexpr bool pipefy_sm90 = true;\n"
	"#endif\n";
static const char tma_helpers_map[] =
	"// A tensor map of a row-major operand whose rows are row_elems long (rows unbounded), for boxes\n"
	"// of box_rows x box_cols; false where the copy engine cannot take it: a device below sm_90, a\n"
	"// base not 16-byte aligned, rows not a multiple of 16 bytes\n"
	"static bool pipefy_tensor_map_2d(CUtensorMap *map, const void *base, unsigned elem, long long row_elems,\n"
	"                                 unsigned box_cols, unsigned box_rows)\n"
	"{\n"
	"    int device = 0, major = 0;\n"
	"    if (cudaGetDevice(&device) != cudaSuccess ||\n"
	"        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess || major < 9)\n"
	"        return false;\n"
	"    static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;\n"
	"    if (!encode) {\n"
	"        void *fn = nullptr;\n"
	"        cudaDriverEntryPointQueryResult found;\n"
	"        if (cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", &fn, 12000, cudaEnableDefault, &found) !=\n"
	"                cudaSuccess || found != cudaDriverEntryPointSuccess)\n"
	"            return false;\n"
	"        encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;\n"
	"    }\n"
	"    if (row_elems <= 0 || row_elems > (1LL << 32) || (unsigned long long)base % 16 || row_elems * elem % 16)\n"
	"        return false;\n"
	"    cuuint64_t dims[2] = {(cuuint64_t)row_elems, 2147483647ull}, strides[1] = {(cuuint64_t)row_elems * elem};\n"
	"    cuuint32_t box[2] = {box_cols, box_rows}, steps[2] = {1, 1};\n"
	"    CUtensorMapDataType type = elem == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8\n"
	"                               : elem == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16\n"
	"                               : elem == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32\n"
	"                                           : CU_TENSOR_MAP_DATA_TYPE_UINT64;\n"
	"    return encode(map, type, 2, const_cast<void *>(base), dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,\n"
	"                  CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,\n"
	"                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;\n"
	"}\n"
	"// Whether the kernel's code on this device was compiled for sm_90 or up: a build for older\n"
	"// GPUs runs on an H100 from PTX compiled there, where the tensor copies are compiled out\n"
	"static bool pipefy_sm90_code(const void *kernel)\n"
	"{\n"
	"    static thread_local const void *known[8];\n"
	"    static thread_local int known_device[8], next;\n"
	"    static thread_local bool is[8];\n"
	"    int device;\n"
	"    if (cudaGetDevice(&device) != cudaSuccess)\n"
	"        return false;\n"
	"    for (int i = 0; i < 8; i++)\n"
	"        if (known[i] == kernel && known_device[i] == device)\n"
	"            return is[i];\n"
	"    cudaFuncAttributes attr;\n"
	"    bool sm90 = cudaFuncGetAttributes(&attr, kernel) == cudaSuccess && attr.ptxVersion >= 90;\n"
	"    known[next] = kernel;\n"
	"    known_device[next] = device;\n"
	"    is[next] = sm90;\n"
	"    next = (next + 1) % 8;\n"
	"    return sm90;\n"
	"}\n";
static const char tma_helpers_end[] = "// } pipefy: Hopper tensor copies\n";

/* A producer warp's signals (--variant=ws-cp.async): named barriers, each of a number of threads
 * (a multiple of 32), sync waiting for them and arrive not; the non-.aligned forms, as a warp may
 * reach them apart. Like __syncthreads(), they order the threads' memory accesses before the
 * barrier with those after it. The CPU model (tests/cpu/to_cpu.py) replaces this block. */
static const char named_barrier_helpers[] =
	"// pipefy: named barriers {\n"
	"static __device__ __forceinline__ void " NAME_BAR_SYNC "(unsigned id, unsigned threads)\n"
	"{\n"
	"    asm volatile(\"barrier.sync %0, %1;\" ::\"r\"(id), \"r\"(threads) : \"memory\");\n"
	"}\n"
	"static __device__ __forceinline__ void " NAME_BAR_ARRIVE "(unsigned id, unsigned threads)\n"
	"{\n"
	"    asm volatile(\"barrier.arrive %0, %1;\" ::\"r\"(id), \"r\"(threads) : \"memory\");\n"
	"}\n"
	"// } pipefy: named barriers\n";

/* A producer warpgroup's register hand-over (ws and ws-cp.async on sm_90a): setmaxnreg, which
 * whole warpgroups execute, moves registers between a warp and its block's pool; `inc` waits
 * until the pool has them (the launcher checks it will). Compiled out where the code is not
 * sm_90a's: the registers then stay as launched. The CPU model (tests/cpu/to_cpu.py) drops it. */
static const char regs_helpers[] =
	"// pipefy: register hand-over {\n"
	"template <unsigned N> static __device__ __forceinline__ void " NAME_REGS_DEC "()\n"
	"{\n"
	"#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
	"    asm volatile(\"setmaxnreg.dec.sync.aligned.u32 %0;\" ::\"n\"(N));\n"
	"#endif\n"
	"}\n"
	"template <unsigned N> static __device__ __forceinline__ void " NAME_REGS_INC "()\n"
	"{\n"
	"#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
	"    asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %0;\" ::\"n\"(N));\n"
	"#endif\n"
	"}\n"
	"// } pipefy: register hand-over\n";

/* The tensor family's helpers as written once into a file, for what its loops use. */
char *tensor_helpers(bool tma, bool bulk, bool named, bool regs)
{
	return xprintf("%s%s%s%s%s%s%s%s", tma || bulk ? tma_helpers_start : "", tma ? tma_helpers_2d : "",
		       bulk ? tma_helpers_bulk : "", tma || bulk ? "#undef PIPEFY_SM90\n" : "", tma ? tma_helpers_map : "",
		       tma || bulk ? tma_helpers_end : "", named ? named_barrier_helpers : "", regs ? regs_helpers : "");
}

#define ISSUER "threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0"
/* The thread that issues the tensor copies after the compute (tma, 4 stages and more): the
 * block's last, in its last warp, which as a rule finishes its compute last and finds the stage
 * free; thread 0's warp, ahead of the others, waited for them. H200, SGEMM 32x32 tma x4:
 * 13.09 / 103.79 ms against 13.20 / 104.86 with thread 0 issuing, 1.086x ldg's speed against
 * 1.075-1.077x (bench/fence/run8.txt). */
#define LAST_ISSUER "threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1 && threadIdx.z == blockDim.z - 1"

/* A condition of several lines, each after the first indented four past indent. */
static void add_continued(struct strbuf *sb, const char *text, const char *indent)
{
	for (const char *p = text; *p; p++) {
		sb_add(sb, p, 1);
		if (*p == '\n')
			sb_printf(sb, "%s    ", indent);
	}
}

static char *tma_name(const struct kloop *l)
{
	return xprintf("%s_pipefy_%s", l->function, l->variant == VARIANT_WS_CP_ASYNC ? "ws" : "tma");
}

/* The kernel's parameter names, comma-separated; and their declarations as written. */
static char *param_list(const struct kloop *l, const struct source *src, bool declarations)
{
	struct strbuf sb = {0};
	int n = clang_Cursor_getNumArguments(l->function_cursor);
	for (int i = 0; i < n; i++) {
		CXCursor p = clang_Cursor_getArgument(l->function_cursor, i);
		char *t = declarations ? span_text(src, cursor_span(p)) : cursor_name(p);
		sb_printf(&sb, "%s%s", i ? ", " : "", t);
		free(t);
	}
	return sb.data ? sb_take(&sb) : xstrdup("");
}

/* `blockDim` as a word in `in` but not in `skip`, read as pipefy_block_dim (the block
 * without its producer warp). */
static void add_block_dim_edits(const struct source *src, struct span in, struct span skip, struct edits *e)
{
	int n = source_identifiers(src, in, "blockDim", NULL, 0);
	size_t *at = xcalloc((size_t)n + 1, sizeof *at);
	source_identifiers(src, in, "blockDim", at, n);
	for (int i = 0; i < n; i++)
		if (!in_span(at[i], skip))
			edits_add(e, at[i], 8, "pipefy_block_dim");
	free(at);
}

/* A producer warp's kernel: its launch bounds count the warp, and the kernel's own code reads
 * the block it was written for (pipefy_block_dim; the loop's statements are rewritten with the
 * loop). */
static void ws_kernel_edits(const struct kloop *l, const struct source *src, struct edits *out)
{
	int P = l->producer_threads;
	const char *lb = strstr(src->text + l->function_span.begin, "__launch_bounds__(");
	if (lb && lb < src->text + l->kernel_name_at && P == 128) { /* (ptxas counts registers for these) */
		size_t arg = (size_t)(lb - src->text) + strlen("__launch_bounds__("), n = 0;
		for (int depth = 0; arg + n < src->len; n++) { /* (the arguments, parentheses balanced) */
			char ch = src->text[arg + n];
			if (depth == 0 && ch == ')')
				break;
			depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
		}
		char *bounds = xprintf("%d + 128 /* pipefy: the producer warpgroup */, %d", l->block_threads, l->regs_blocks);
		edits_add(out, arg, n, bounds);
		free(bounds);
	} else if (lb && lb < src->text + l->kernel_name_at) {
		size_t arg = (size_t)(lb - src->text) + strlen("__launch_bounds__("), n = 0;
		for (int depth = 0; arg + n < src->len; n++) { /* (the first argument, parentheses balanced) */
			char ch = src->text[arg + n];
			if (depth == 0 && (ch == ',' || ch == ')'))
				break;
			depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
		}
		edits_add(out, arg, 0, "(");
		edits_add(out, arg + n, 0, ") + 32 /* pipefy: the producer warp */");
	}
	size_t open = cursor_span(cursor_last_child(l->function_cursor)).begin + 1;
	char *dim = xprintf("\n    const dim3 pipefy_block_dim(blockDim.x - %d, blockDim.y, blockDim.z); // pipefy: the block "
			    "without its producer %s", P, P == 128 ? "warpgroup" : "warp");
	edits_add(out, open, 0, dim);
	free(dim);
	add_block_dim_edits(src, (struct span){open, l->function_span.end}, l->loop, out);
}

/* The kernel as written, kept for launches from elsewhere and for the launcher's fallback,
 * in front of the definition that becomes the tensor-copy kernel; the launcher after it; the
 * file's launches routed through it. */
static void tma_kernel_edits(const struct kloop *l, const struct source *src, struct edits *out)
{
	char *orig = span_text(src, l->function_span);
	char *name = tma_name(l);
	enum CXLinkageKind link = clang_getCursorLinkage(l->function_cursor);
	bool internal = link == CXLinkage_Internal || link == CXLinkage_UniqueExternal;
	bool wsa = l->variant == VARIANT_WS_CP_ASYNC, ws = l->variant == VARIANT_WS || wsa;
	char *front = xprintf("%s\n\n// pipefy: '%s' with %s%s; only pipefy_launch_%s below launches it\n%s", orig,
			      l->function, wsa ? "cp.async copies" : "sm_90 tensor copies", ws ? " from a producer warp" : "",
			      l->function, internal ? "" : "static ");
	edits_add(out, l->function_span.begin, 0, front);
	const char *lb = strstr(src->text + l->function_span.begin, "__launch_bounds__(");
	bool bounded = lb && lb < src->text + l->kernel_name_at; /* (the kernel's own __launch_bounds__) */
	if (l->producer_threads == 128 && !bounded) {
		char *named = xprintf("__launch_bounds__(%d + 128 /* pipefy: the producer warpgroup */, %d)\n%s",
				      l->block_threads, l->regs_blocks, name);
		edits_add(out, l->kernel_name_at, strlen(l->function), named);
		free(named);
	} else if (!variant_row(l->variant)->producer_threads && l->keep_blocks > 0 && l->block_threads > 0 && !bounded) {
		/* (the blocks an SM the plan counted with the kernel's measured registers: ptxas holds the
		 * copies' bookkeeping to them) */
		char *named = xprintf("__launch_bounds__(%d, %d) /* pipefy: the blocks an SM its plan counted */\n%s",
				      l->block_threads, l->keep_blocks, name);
		edits_add(out, l->kernel_name_at, strlen(l->function), named);
		free(named);
	} else
		edits_add(out, l->kernel_name_at, strlen(l->function), name);
	struct strbuf maps = {0}, decl = {0}, make = {0}, names = {0};
	for (int b = 0; b < l->nboxes; b++) {
		const struct tma_box *x = &l->boxes[b];
		const char *tile = l->tiles[x->tile].name;
		sb_printf(&maps, ",\n    const __grid_constant__ CUtensorMap pipefy_map_%s", tile);
		sb_printf(&decl, "%spipefy_map_%s", b ? ", " : "", tile);
		sb_printf(&make, " &&\n        pipefy_tensor_map_2d(&pipefy_map_%s, %s, %ld, %s, %ld, %ld)", tile, x->pointer,
			  x->elem_bytes, x->row_elems, x->box_cols, x->box_rows);
		sb_printf(&names, ", pipefy_map_%s", tile);
	}
	if (!wsa)
		edits_add(out, l->params_end, 0, maps.data);
	char *params = param_list(l, src, true), *args = param_list(l, src, false);
	/* what the launcher checks of the block for the producer: room for one more warp; or for a
	 * warpgroup (setmaxnreg), whole warpgroups, no more threads than the kernel was built for,
	 * and the registers ptxas gave it at least what the warpgroups ask of the block's pool */
	int P = l->producer_threads;
	char *fit = P == 128 ? xprintf(" && pipefy_block.x %% %d == 0 && pipefy_block.x <= %d &&\n"
				       "        cudaFuncGetAttributes(&pipefy_attr, (const void *)%s) == cudaSuccess &&\n"
				       "        %d + pipefy_block.x * %d " SNIP_REGS_COVERED,
				       test_break("warpgroups") ? 32 : 128, l->block_threads, name, 128 * l->regs_producer,
				       l->regs_consumer)
			     : xstrdup(" && pipefy_block.x % 32 == 0 && pipefy_block.x + 32 <= 1024");
	const char *attr = P == 128 ? "    cudaFuncAttributes pipefy_attr; // (the registers the kernel was built with)\n" : "";
	const char *room = P == 128 ? "whole warpgroups, at most the block the kernel was built for, and the registers ptxas\n"
				      "// gave it cover what the producer warpgroup and the kernel's threads ask for (setmaxnreg)"
				    : "whole warps, and room for one more (the producer's)";
	char *threads = ws ? xprintf("(int)pipefy_block.x + %d", P) : xstrdup("(int)(pipefy_block.x * pipefy_block.y * pipefy_block.z)");
	char *grown = xprintf("dim3(pipefy_block.x + %d, 1, 1)", P);
	char *launcher = wsa ? xprintf(
		"\n\n"
		"// pipefy: the launches of '%s' in this file: from a producer %s where the block is the shape\n"
		"// the copies assume, %s, and the copy's\n"
		"// registers and shared memory let a block of that size run; the kernel as written otherwise\n"
		"static void pipefy_launch_%s(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,\n"
		"    %s)\n"
		"{\n"
		"%s"
		"    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)\n"
		"    if (%s%s &&\n"
		"        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, %s, (int)pipefy_block.x + %d, pipefy_smem) ==\n"
		"            cudaSuccess && pipefy_resident > 0)\n"
		"        %s<<<pipefy_grid, dim3(pipefy_block.x + %d, 1, 1), pipefy_smem, pipefy_stream>>>(%s);\n"
		"    else\n"
		"        %s<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(%s);\n"
		"}",
		l->function, P == 128 ? "warpgroup" : "warp", room, l->function, params, attr, l->block_check, fit, name, P, name,
		P, args, l->function, args) : xprintf(
		"\n\n"
		"// pipefy: the launches of '%s' in this file: with sm_90's tensor copies where the device has\n"
		"// them and the kernel's code was compiled for them, the block is the shape the copies assume\n"
		"// and every operand makes a tensor map (16-byte aligned, rows a multiple of 16 bytes)%s%s, and\n"
		"// the copy's registers and shared memory let a block of that size run; the kernel as written\n"
		"// otherwise\n"
		"static void pipefy_launch_%s(dim3 pipefy_grid, dim3 pipefy_block, size_t pipefy_smem, cudaStream_t pipefy_stream,\n"
		"    %s)\n"
		"{\n"
		"    CUtensorMap %s;\n"
		"%s"
		"    int pipefy_resident = 0; // (blocks of the copy an SM holds: none where its registers do not fit)\n"
		"    if (%s%s && pipefy_sm90_code((const void *)%s) &&\n"
		"        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pipefy_resident, %s, %s, pipefy_smem) == cudaSuccess &&\n"
		"        pipefy_resident > 0%s)\n"
		"        %s<<<pipefy_grid, %s, pipefy_smem, pipefy_stream>>>(%s%s);\n"
		"    else\n"
		"        %s<<<pipefy_grid, pipefy_block, pipefy_smem, pipefy_stream>>>(%s);\n"
		"}",
		l->function, ws ? ",\n// " : "", ws ? (P == 128 ? room : "whole warps, and room for one more: the producer's") : "", l->function, params, decl.data, ws ? attr : "",
		l->block_check, ws ? fit : "", name, name, threads, make.data, name, ws ? grown : "pipefy_block", args,
		names.data, l->function, args);
	edits_add(out, l->function_span.end, 0, launcher);
	for (int i = 0; i < l->ntma_launches; i++) {
		const struct tma_launch *t = &l->tma_launches[i];
		char *a = span_text(src, t->args);
		bool empty = true;
		for (const char *p = a; *p; p++)
			empty &= *p == ' ' || *p == '\t' || *p == '\n';
		char *call = xprintf("pipefy_launch_%s(%s, %s, %s, %s%s%s)", l->function, t->config[0], t->config[1] ? t->config[1] : "1",
				     t->config[2] ? t->config[2] : "0", t->config[3] ? t->config[3] : "0", empty ? "" : ", ", empty ? "" : a);
		edits_add(out, t->call.begin, t->call.end - t->call.begin, call);
		free(call);
		free(a);
	}
	if (ws)
		ws_kernel_edits(l, src, out);
	free(threads);
	free(grown);
	free(fit);
	free(launcher);
	free(params);
	free(args);
	free(maps.data);
	free(decl.data);
	free(make.data);
	free(names.data);
	free(front);
	free(orig);
	free(name);
}

/* The tiles aligned for the copy engine, and where each pointer the kernel moves points on
 * entry (the box coordinates count from there). */
static void box_kernel_edits(const struct kloop *l, struct edits *out)
{
	for (int b = 0; b < l->nboxes; b++) {
		/* (once a declaration: `__shared__ float As[..], Bs[..];` holds two tiles, and one
		 * alignas before the type aligns both) */
		bool again = false;
		for (int c = 0; c < b; c++)
			again |= l->boxes[c].align_at == l->boxes[b].align_at;
		if (!again)
			edits_add(out, l->boxes[b].align_at, 0, " alignas(128)");
	}
	size_t open = cursor_span(cursor_last_child(l->function_cursor)).begin + 1;
	for (int b = 0; b < l->nboxes; b++) {
		bool first = true;
		for (int c = 0; c < b; c++)
			first &= !(l->boxes[c].flat && !l->boxes[c].local && strcmp(l->boxes[c].pointer, l->boxes[b].pointer) == 0);
		if (!l->boxes[b].flat || l->boxes[b].local || !first)
			continue;
		char *line = xprintf("\n    auto const pipefy_entry_%s = %s; // pipefy: where '%s' points on entry%s",
				     l->boxes[b].pointer, l->boxes[b].pointer, l->boxes[b].pointer,
				     l->variant == VARIANT_TMA ? ", its tensor map's base" : "");
		edits_add(out, open, 0, line);
		free(line);
	}
}

/* The compute read the stage through the generic proxy; the copy engine's writes to it are the
 * async proxy's, which the barriers alone do not order after those reads (seen on the H200: with
 * no fence 40 of 40 runs of a bf16 mma.sync GEMM with two stages differed at 8192^3). The fence
 * goes where every thread's reads of the stage reach the copies: in the issuing thread, after
 * the wait that acquires their release of the stage, before its copies (on the H200 as sound as
 * a fence in every thread before its release, 0 of 40 runs differed on each tma and ws build,
 * and one fence per tile instead of one per thread: the SGEMM 32x32 ran 5-6 % faster, bench/FENCE.md). */
static void add_issuer_fence(struct strbuf *sb, const char *I)
{
	if (!test_break("proxyfence"))
		sb_printf(sb, "%s" NAME_FENCE_PROXY "(); // the threads' reads of the stage before the copy engine's writes\n", I);
}

/* Tensor copies: one thread waits for the stage to empty, fences, expects the stage's bytes,
 * arrives for every thread, and issues one box per tile. */
static void add_tma_issue(struct strbuf *sb, const struct kloop *l, const struct layout *y, const char *I4, long bytes)
{
	int S = y->S;
	char *I5 = xprintf("%s%s", I4, y->U);
	if (l->variant == VARIANT_WS)
		sb_printf(sb, "%sif (threadIdx.x == " NAME_THREADS ") { // the producer warp's first thread\n", I4);
	else if (S >= 4) /* (the late issue: see rewrite_tma) */
		sb_printf(sb, "%sif (" LAST_ISSUER ") { // the block's last thread\n", I4);
	else
		sb_printf(sb, "%sif (" ISSUER ") {\n", I4);
	sb_printf(sb, "%sif (pipefy_loads >= %d) // the stage's last tile, pipefy_loads - %d, is computed\n", I5, S, S);
	sb_printf(sb, "%s%s" NAME_MBAR_WAIT "(&" NAME_EMPTY "[" STAGE_FILL "], (pipefy_loads / %d - 1) & 1);\n", I5, y->U, S);
	add_issuer_fence(sb, I5);
	sb_printf(sb, "%spipefy_mbar_expect_tx(&" NAME_FULL "[" STAGE_FILL "], %ld);\n", I5, bytes);
	sb_printf(sb, "%s" NAME_MBAR_ARRIVE "(&" NAME_FULL "[" STAGE_FILL "], " NAME_THREADS ");\n", I5);
	for (int b = 0; b < l->nboxes; b++) {
		const char *tile = l->tiles[l->boxes[b].tile].name;
		sb_printf(sb,
			  "%s" NAME_TMA_LOAD "(&%s[" STAGE_FILL "], &pipefy_map_%s, (int)pipefy_col_%s, (int)pipefy_row_%s,\n"
			  "%s                   &" NAME_FULL "[" STAGE_FILL "]);\n",
			  I5, tile, tile, tile, tile, I5);
	}
	sb_printf(sb, "%s}\n", I4);
	free(I5);
}

/* Bulk copies: the threads of warp 0 wait for the stage to empty and fence; thread 0 expects the stage's
 * bytes and arrives for every thread before any row is issued (__syncwarp), and the warp's
 * threads issue the rows, one bulk copy each; where the operand's rows are as long as the
 * tile's (unpadded), the tile is one run of memory, and thread 0 copies it at once. */
static void add_bulk_issue(struct strbuf *sb, const struct kloop *l, const struct layout *y, const char *I4, long bytes)
{
	int S = y->S;
	char *I5 = xprintf("%s%s", I4, y->U), *I6 = xprintf("%s%s", I5, y->U);
	sb_printf(sb, "%sif (pipefy_tid < 32) {\n", I4);
	sb_printf(sb, "%sif (pipefy_loads >= %d) // the stage's last tile, pipefy_loads - %d, is computed\n", I5, S, S);
	sb_printf(sb, "%s" NAME_MBAR_WAIT "(&" NAME_EMPTY "[" STAGE_FILL "], (pipefy_loads / %d - 1) & 1);\n", I6, S);
	add_issuer_fence(sb, I5);
	sb_printf(sb, "%sif (pipefy_tid == 0) {\n", I5);
	sb_printf(sb, "%spipefy_mbar_expect_tx(&" NAME_FULL "[" STAGE_FILL "], %ld);\n", I6, bytes);
	sb_printf(sb, "%s" NAME_MBAR_ARRIVE "(&" NAME_FULL "[" STAGE_FILL "], " NAME_THREADS ");\n", I6);
	sb_printf(sb, "%s}\n", I5);
	sb_printf(sb, "%s__syncwarp(pipefy_warp0); // the bytes are expected before any row lands\n", I5);
	for (int b = 0; b < l->nboxes; b++) {
		const struct tma_box *x = &l->boxes[b];
		const char *tile = l->tiles[x->tile].name;
		const char *I = I5, *J = I6;
		char *I7 = xprintf("%s%s", I6, y->U);
		if (x->copy_cols == x->box_cols) { /* rows as long as the operand's are one run: one copy */
			sb_printf(sb, "%sif (%s == %ld) { // the tile's rows follow each other in '%s': one copy\n", I5, x->row_elems,
				  x->box_cols, x->pointer);
			sb_printf(sb, "%sif (pipefy_tid == 0)\n", I6);
			sb_printf(sb, "%s" NAME_BULK_LOAD "(&%s[" STAGE_FILL "], (const void *)pipefy_src_%s, %ld, &" NAME_FULL "[" STAGE_FILL
				      "]);\n", I7, tile, tile, x->box_rows * x->box_cols * x->elem_bytes);
			sb_printf(sb, "%s} else {\n", I5);
			I = I6, J = I7;
		}
		sb_printf(sb, "%sfor (unsigned pipefy_r = pipefy_tid; pipefy_r < %ld; pipefy_r += pipefy_issuers)\n", I,
			  x->box_rows);
		sb_printf(sb, "%s" NAME_BULK_LOAD "((char *)&%s[" STAGE_FILL "] + pipefy_r * %ld,\n", J, tile,
			  x->box_cols * x->elem_bytes);
		sb_printf(sb, "%s                 (const void *)(pipefy_src_%s + pipefy_r * (unsigned long long)(%s * %ld)),\n",
			  J, tile, x->row_elems, x->elem_bytes);
		sb_printf(sb, "%s                 %ld, &" NAME_FULL "[" STAGE_FILL "]);\n", J, x->copy_cols * x->elem_bytes);
		if (x->copy_cols == x->box_cols)
			sb_printf(sb, "%s}\n", I5);
		free(I7);
	}
	sb_printf(sb, "%s}\n", I4);
	free(I5);
	free(I6);
}

/* cp.async from the producer warp (--variant=ws-cp.async), once it has waited for the stage: its
 * 32 threads copy each box's rows (the columns the copies write) in units of ws_chunk bytes,
 * unit i by lane i % 32; the loader commits the group, one a call. */
static void add_ws_cp_async_issue(struct strbuf *sb, const struct kloop *l, const struct layout *y, const char *I4)
{
	long ch = l->ws_chunk;
	char *I5 = xprintf("%s%s", I4, y->U);
	for (int b = 0; b < l->nboxes; b++) {
		const struct tma_box *x = &l->boxes[b];
		const char *tile = l->tiles[x->tile].name;
		long units = x->copy_cols * x->elem_bytes / ch;
		sb_printf(sb, "%sfor (unsigned pipefy_i = threadIdx.x - " NAME_THREADS "; pipefy_i < %ld; pipefy_i += %d) {\n", I4,
			  units * x->box_rows, l->producer_threads);
		sb_printf(sb, "%sconst unsigned pipefy_r = pipefy_i / %ld, " NAME_QUEUE_ITEM " = pipefy_i %% %ld;\n", I5, units, units);
		sb_printf(sb, "%s" NAME_PIPELINE_COPY "((char *)&%s[" STAGE_FILL "] + pipefy_r * %ld + " NAME_QUEUE_ITEM " * %ld,\n", I5, tile,
			  x->box_cols * x->elem_bytes, ch);
		sb_printf(sb, "%s                        (const char *)pipefy_src_%s + pipefy_r * (unsigned long long)(%s * %ld) + " NAME_QUEUE_ITEM " * %ld, %ld);\n",
			  I5, tile, x->row_elems, x->elem_bytes, ch, ch);
		sb_printf(sb, "%s}\n", I4);
	}
	free(I5);
}

/* ws-cp.async's producer after the loop: the kernel's threads' arrivals no refill waited for,
 * the last min(S, tiles), so that no named barrier is left part-way. */
static void add_producer_drain(struct strbuf *sb, const struct layout *y, const char *I)
{
	sb_printf(sb, "%sfor (unsigned pipefy_u = pipefy_loads > %d ? pipefy_loads - %d : 0; pipefy_u < pipefy_loads; ++pipefy_u)\n", I,
		  y->S, y->S);
	sb_printf(sb, "%s%s" NAME_BAR_SYNC "(%d + pipefy_u %% %d, " NAME_THREADS " + %d);\n", I, y->U, 1 + y->S, y->S,
		  y->l->producer_threads);
}

/* One rewrite of the tensor family in progress: the loop, its layout, the block's text so far,
 * and what the variant makes of it. */
struct tensor_rw {
	const struct kloop *l;
	const struct source *src;
	struct layout y;
	struct strbuf sb;
	bool bulk, wsa, ws;
	/* With 4 stages and more, the issuing thread starts the next tile after its compute, when
	 * the stage's last tile (one before this one) is done as a rule and its wait for it returns
	 * at once; before the compute it waits for the slowest thread, and the block runs at that
	 * pace: on the H200 1.075x against 1.062-1.067x ldg's speed on the 4-byte SGEMM, x4
	 * (bench/FENCE.md, F5 against F1). It keeps one tile fewer in flight, so not below 4. */
	bool late;
	int P;                /* the producer's threads: 32 (a warp) or 128 (a warpgroup) */
	const char *producer; /* and in words */
};

/* The block's comment: the variant, its stages and its overlap. */
static char *describe(struct tensor_rw *t)
{
	int S = t->y.S;
	return t->wsa ? xprintf("cp.async copies from %s, named barriers, %d stages: tile t+%d is "
				   "copied while tile t is computed", t->producer, S, S - 1)
		     : t->late ? xprintf("%s copies (sm_90), %d stages: tiles to t+%d are copied while tile t is computed, t+%d "
				      "after it", t->bulk ? "bulk" : "tensor", S, S - 2, S - 1)
			    : xprintf("%s copies (sm_90)%s%s, %d stages: tile t+%d is copied while tile t is computed",
				      t->bulk ? "bulk" : "tensor", t->ws ? " from " : "", t->ws ? t->producer : "", S, S - 1);
}

/* A producer's kernel threads see the block they were written for; bulk copies run under a
 * guard of what they assume (no launcher checks it for them). */
static void add_guard(struct tensor_rw *t)
{
	const struct kloop *l = t->l;
	const struct source *src = t->src;
	struct layout *y = &t->y;
	if (t->ws) { /* the kernel's threads see the block they were written for */
		add_block_dim_edits(src, l->loop, (struct span){0, 0}, &y->refs);
		add_block_dim_edits(src, l->loop, (struct span){0, 0}, &y->stmt_edits);
	}
	if (t->bulk) {
		/* no launcher: the kernel itself checks what the boxes assume of the block */
		struct strbuf g = {0};
		sb_puts(&g, "pipefy_sm90");
		if (l->block_check) { /* (the launcher's condition on pipefy_block, on blockDim) */
			sb_puts(&g, " && ");
			for (const char *p = l->block_check; *p;)
				if (strncmp(p, "pipefy_block", 12) == 0) {
					sb_puts(&g, "blockDim");
					p += 12;
				} else
					sb_add(&g, p++, 1);
		}
		for (int b = 0; b < l->nboxes; b++) /* (every row 16-byte aligned when the first is) */
			sb_printf(&g, " &&\n%s%s%s * %ld %% 16 == 0", y->I0, y->U, l->boxes[b].row_elems, l->boxes[b].elem_bytes);
		y->guard = sb_take(&g);
		y->guard_why = xprintf("%s// pipefy: bulk copies need sm_90%s and rows of whole\n"
				      "%s// 16-byte units; elsewhere the loop runs as written\n", y->I0,
				      l->block_check ? ", the block shape the copies assume" : "", y->I0);
	}
}

/* The barriers, the thread counts and the tiles loaded so far; the issuer initializes the
 * mbarriers. */
static void add_state(struct tensor_rw *t)
{
	struct layout *y = &t->y;
	struct strbuf *sb = &t->sb;
	int S = t->y.S;
	if (t->wsa) {
		sb_printf(sb, "%s// pipefy: two named barriers per stage, each of the kernel's threads and the producer warp:\n", y->I1);
		sb_printf(sb, "%s// 1 + s, the producer's signal that stage s has landed; %d + s, the threads' that they are\n", y->I1,
			  1 + S);
		sb_printf(sb, "%s// done with it; and %d, of the kernel's threads alone\n", y->I1, 1 + 2 * S);
	} else {
		sb_printf(sb, "%s// pipefy: two barriers per stage, each expecting every thread: full[s] completes a phase when\n", y->I1);
		sb_printf(sb, "%s// stage s has landed, empty[s] when every thread is done computing it\n", y->I1);
		sb_printf(sb, "%s__shared__ alignas(8) unsigned long long " NAME_FULL "[%d], " NAME_EMPTY "[%d];\n", y->I1, S, S);
	}
	if (t->ws) {
		sb_printf(sb, "%s// pipefy: the kernel's threads (%s follows them)\n", y->I1, t->producer);
		sb_printf(sb, "%sconst unsigned " NAME_THREADS " = pipefy_block_dim.x;\n", y->I1);
		sb_printf(sb, "%sconst bool " NAME_PRODUCER " = threadIdx.x >= " NAME_THREADS ";\n", y->I1);
	} else
		sb_printf(sb, "%sconst unsigned " NAME_THREADS " = blockDim.x * blockDim.y * blockDim.z;\n", y->I1);
	sb_printf(sb, "%sunsigned pipefy_loads = 0; // tiles loaded so far: the next goes to stage pipefy_loads %% %d\n", y->I1, S);
	if (t->bulk) {
		sb_printf(sb, "%s// pipefy: the threads of warp 0 issue the rows' bulk copies\n", y->I1);
		sb_printf(sb, "%sconst unsigned pipefy_tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n", y->I1);
		sb_printf(sb, "%sconst unsigned pipefy_issuers = " NAME_THREADS " < 32 ? " NAME_THREADS " : 32;\n", y->I1);
		sb_printf(sb, "%sconst unsigned pipefy_warp0 = pipefy_issuers == 32 ? 0xffffffffu : (1u << pipefy_issuers) - 1;\n", y->I1);
	}
	if (!t->wsa) {
		sb_printf(sb, "%sif (" ISSUER ") {\n", y->I1);
		sb_printf(sb, "%sfor (int " NAME_PROLOGUE_STAGE " = 0; " NAME_PROLOGUE_STAGE " < %d; ++" NAME_PROLOGUE_STAGE ") {\n", y->I2, S);
		sb_printf(sb, "%s%spipefy_mbar_init(&" NAME_FULL "[" NAME_PROLOGUE_STAGE "], " NAME_THREADS ");\n", y->I2, y->U);
		sb_printf(sb, "%s%spipefy_mbar_init(&" NAME_EMPTY "[" NAME_PROLOGUE_STAGE "], " NAME_THREADS ");\n", y->I2, y->U);
		sb_printf(sb, "%s}\n", y->I2);
		sb_printf(sb, "%spipefy_mbar_fence_init();\n", y->I2);
		sb_printf(sb, "%s}\n", y->I1);
	}
}

/* The 32-bit exactness vote and the rows per operand that end within a 32-bit index; returns
 * the vote's condition (NULL: none), which every box's condition includes. */
static char *add_exact_vote(struct tensor_rw *t)
{
	const struct kloop *l = t->l;
	struct layout *y = &t->y;
	struct strbuf *sb = &t->sb;
	/* a moved pointer's offsets, computed in 32 bits by the kernel: every thread's in range, or
	 * no box (the boxes are found from the exact values) */
	struct strbuf vote = {0};
	for (int b = 0; b < l->nboxes; b++)
		if (l->boxes[b].fits)
			sb_printf(&vote, "%s%s", vote.len ? " &&\n" : "", l->boxes[b].fits);
	if (vote.data) {
		sb_printf(sb, "%s// pipefy: the offsets the kernel computed in 32 bits are exact in every thread (else no box)\n", y->I1);
		sb_printf(sb, "%sconst bool pipefy_exact = __syncthreads_and(", y->I1);
		add_continued(sb, vote.data, y->I1);
		sb_puts(sb, ");\n");
	} else
		sb_printf(sb, "%s__syncthreads();\n", y->I1);
	/* An index the kernel computes in 32 bits: a box is exact when its last row ends within
	 * the index's range. The rows that do are counted once, here: a 64-bit product per tile in
	 * every thread cost the SGEMM 8 % on the H200. */
	for (int b = 0; b < l->nboxes; b++) {
		const struct tma_box *x = &l->boxes[b];
		if (!x->last_max)
			continue;
		const char *tile = l->tiles[x->tile].name;
		sb_printf(sb, "%s// pipefy: the rows of '%s's operand that end within its 32-bit index\n", y->I1, tile);
		sb_printf(sb, "%sconst long long pipefy_rows_%s = %s > 0 ? %lldLL / %s : 0;\n", y->I1, tile, x->row_elems,
			  x->last_max + 1, x->row_elems);
	}
	return vote.data;
}

/* The loader's comment: who copies what, and what happens where a box does not fit. */
static void add_loader_comment(struct tensor_rw *t)
{
	const struct kloop *l = t->l;
	struct layout *y = &t->y;
	struct strbuf *sb = &t->sb;
	sb_printf(sb, "%s// pipefy: load the tile at the cursor into stage " STAGE_FILL " once every thread is done with\n", y->I1);
	if (t->wsa) {
		sb_printf(sb, "%s// the tile it held, and advance the cursor: each tile is one box of its operand, its rows\n", y->I1);
		sb_printf(sb, "%s// copied by the producer warp's 32 threads in %ld-byte units; where a box reaches outside its\n", y->I1,
			  l->ws_chunk);
		sb_printf(sb, "%s// operand or starts off a %ld-byte boundary the kernel's threads copy as written; the\n", y->I1,
			  l->ws_chunk);
		sb_printf(sb, "%s// producer commits one group of copies a call, empty past the last tile\n", y->I1);
	} else if (t->bulk) {
		sb_printf(sb, "%s// the tile it held, and advance the cursor: each tile is one box of its operand, each of its\n", y->I1);
		sb_printf(sb, "%s// rows one bulk copy, and thread 0 arrives for all; where a box reaches outside its operand\n", y->I1);
		sb_printf(sb, "%s// or starts off a 16-byte boundary every thread copies as written and arrives for itself\n", y->I1);
	} else {
		sb_printf(sb, "%s// the tile it held, and advance the cursor: each tile is one box of its operand, issued by\n", y->I1);
		sb_printf(sb, "%s// one thread, which arrives for all; where a box reaches outside its operand every thread\n", y->I1);
		sb_printf(sb, "%s// copies as written and arrives for itself\n", y->I1);
	}
}

/* The loader's declarations of each box's origin, and the condition under which every box fits
 * (its operand, alignment, 32-bit index, the vote); *bytes: what the boxes carry. */
static char *add_box_origins(struct tensor_rw *t, const char *vote, long *bytes)
{
	const struct kloop *l = t->l;
	struct layout *y = &t->y;
	struct strbuf *sb = &t->sb;
	struct strbuf inside = {0};
	*bytes = 0;
	for (int b = 0; b < l->nboxes; b++) {
		const struct tma_box *x = &l->boxes[b];
		const char *tile = l->tiles[x->tile].name;
		if (x->flat)
			sb_printf(sb, "%sconst long long pipefy_flat_%s = %s;\n", y->I3, tile, x->flat);
		sb_printf(sb, "%sconst long long pipefy_col_%s = %s, pipefy_row_%s = %s;\n", y->I3, tile, x->col0, tile, x->row0);
		/* (the columns the copies write: a padded row's others are fetched, zeros past the end) */
		sb_printf(&inside, "%spipefy_col_%s >= 0 && pipefy_col_%s + %ld <= %s &&\npipefy_row_%s >= 0", b ? " &&\n" : "", tile,
			  tile, x->copy_cols, x->row_elems, tile);
		if (t->wsa) { /* the box's first element, where the address of every row is ws_chunk-aligned */
			bool entry = x->flat && !x->local;
			sb_printf(sb, "%sconst unsigned long long pipefy_src_%s = (unsigned long long)%s%s +\n"
				  "%s    (unsigned long long)((pipefy_row_%s * %s + pipefy_col_%s) * %ld);\n",
				  y->I3, tile, entry ? "pipefy_entry_" : "", x->pointer, y->I3, tile, x->row_elems, tile, x->elem_bytes);
			sb_printf(&inside, " &&\npipefy_src_%s %% %ld == 0 && %s * %ld %% %ld == 0", tile, l->ws_chunk, x->row_elems,
				  x->elem_bytes, l->ws_chunk);
		} else if (!t->bulk) /* (the tensor map's rows) */
			sb_printf(&inside, " && pipefy_row_%s + %ld <= 2147483647LL", tile, x->box_rows);
		else { /* the box's first element, where the address of every row is 16-byte aligned */
			bool entry = x->flat && !x->local;
			sb_printf(sb, "%sconst unsigned long long pipefy_src_%s = (unsigned long long)%s%s +\n"
				  "%s    (unsigned long long)((pipefy_row_%s * %s + pipefy_col_%s) * %ld);\n",
				  y->I3, tile, entry ? "pipefy_entry_" : "", x->pointer, y->I3, tile, x->row_elems, tile, x->elem_bytes);
			sb_printf(&inside, " &&\npipefy_src_%s %% 16 == 0", tile);
		}
		if (x->last_max) /* (an index computed in 32 bits: the box's last row within it, its columns
				  * within the row: then (row + R) * L - 1 is the largest index) */
			sb_printf(&inside, " && pipefy_row_%s + %ld <= pipefy_rows_%s", tile, x->box_rows, tile);
		*bytes += (t->bulk ? x->copy_cols : x->box_cols) * x->box_rows * x->elem_bytes;
	}
	if (vote)
		sb_puts(&inside, " &&\npipefy_exact");
	if (l->bump_fits)
		sb_printf(&inside, " &&\n%s", l->bump_fits);
	return inside.data;
}

/* The loader's copies: the boxes where they fit (after the wait for the stage to empty), else the
 * copies as written; then the bumps and the cursor's advance. */
static void add_loader_copies(struct tensor_rw *t, const char *inside, long bytes)
{
	const struct kloop *l = t->l;
	const struct source *src = t->src;
	struct layout *y = &t->y;
	struct strbuf *sb = &t->sb;
	int S = t->y.S;
	char *I4 = xprintf("%s%s", y->I3, y->U), *I5 = xprintf("%s%s", I4, y->U);
	if (t->wsa) {
		/* the producer waits for the stage whether it copies or the kernel's threads do: each
		 * of their arrivals after a compute is met by one wait of the producer's */
		sb_printf(sb, "%sconst bool pipefy_box = ", y->I3);
		add_continued(sb, inside, y->I3);
		sb_printf(sb, ";\n%sif (" NAME_PRODUCER ") {\n", y->I3);
		sb_printf(sb, "%sif (pipefy_loads >= %d) // the stage's last tile, pipefy_loads - %d, is computed\n", I4, S, S);
		if (!test_break("barrier"))
			sb_printf(sb, "%s%s" NAME_BAR_SYNC "(%d + " STAGE_FILL ", " NAME_THREADS " + %d);\n", I4, y->U, 1 + S, t->P);
		sb_printf(sb, "%sif (pipefy_box) {\n", I4);
		add_ws_cp_async_issue(sb, l, y, I5);
		sb_printf(sb, "%s}\n", I4);
		sb_printf(sb, "%s} else if (!pipefy_box) {\n", y->I3);
		sb_printf(sb, "%sif (pipefy_loads >= %d) // every kernel thread is done with the stage's last tile\n", I4, S);
		sb_printf(sb, "%s%s" NAME_BAR_SYNC "(%d, " NAME_THREADS ");\n", I4, y->U, 1 + 2 * S);
	} else {
		sb_printf(sb, "%sif (", y->I3);
		add_continued(sb, inside, y->I3);
		sb_printf(sb, ") {\n");
		if (t->bulk)
			add_bulk_issue(sb, l, y, I4, bytes);
		else
			add_tma_issue(sb, l, y, I4, bytes);
		sb_printf(sb, "%s} else%s {\n", y->I3, t->ws ? " if (!" NAME_PRODUCER ")" : "");
		sb_printf(sb, "%sif (pipefy_loads >= %d)\n", I4, S);
		sb_printf(sb, "%s%s" NAME_MBAR_WAIT "(&" NAME_EMPTY "[" STAGE_FILL "], (pipefy_loads / %d - 1) & 1);\n", I4, y->U, S);
	}
	bool first = true;
	char *extra4 = xprintf("%s%s%s", y->U, y->U, y->U);
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		if (st->role == ROLE_COPY || st->role == ROLE_COPY_DECL)
			add_stmt(sb, src, &y->refs, st, y->I1, extra4, &first);
	}
	free(extra4);
	if (!t->wsa)
		sb_printf(sb, "%s" NAME_MBAR_ARRIVE "(&" NAME_FULL "[" STAGE_FILL "], 1);\n", I4);
	sb_printf(sb, "%s}\n", y->I3);
	sb_printf(sb, "%s++pipefy_loads;\n", y->I3);
	/* the body's bumps, which come after its copies (box.c), then the loop's increment */
	first = true;
	char *extra2 = xprintf("%s%s", y->U, y->U);
	for (int i = 0; i < l->nstmts; i++)
		if (l->stmts[i].role == ROLE_BUMP)
			add_stmt(sb, src, &y->refs, &l->stmts[i], y->I1, extra2, &first);
	free(extra2);
	add_cursor_advance(sb, y, y->I3);
	sb_printf(sb, "%s}\n", y->I2);
	if (t->wsa)
		sb_printf(sb, "%sif (" NAME_PRODUCER ")\n%s%s" NAME_PIPELINE_COMMIT "();\n", y->I2, y->I2, y->U);
	sb_printf(sb, "%s};\n", y->I1);
	free(I4);
	free(I5);
}

/* The prologue's loads and the main loop's comment. */
static void add_prologue(struct tensor_rw *t)
{
	struct layout *y = &t->y;
	struct strbuf *sb = &t->sb;
	int S = t->y.S;
	add_prologue_loads(sb, y, "loading");
	sb_printf(sb, "%sint " STAGE_READ " = 0;       // the stage that holds tile t\n", y->I1);
	if (!t->wsa)
		sb_printf(sb, "%sunsigned pipefy_phase = 0; // and the parity of its barriers' phase for tile t\n", y->I1);
	if (t->late) {
		sb_printf(sb, "%s// pipefy: main loop: wait for tile t, compute it, say so, then start tile t+%d into stage\n", y->I1,
			  S - 1);
		sb_printf(sb, "%s// (t-1) %% %d (whose tile every thread is done with as a rule by then); the last iterations\n",
			  y->I1, S);
		sb_printf(sb, "%s// find no tile left to start and only compute: that is the epilogue\n", y->I1);
	} else {
		sb_printf(sb, "%s// pipefy: main loop: start tile t+%d into stage (t-1) %% %d, wait for tile t, compute it, say\n",
			  y->I1, S - 1, S);
		sb_printf(sb, "%s// so; the last iterations find no tile left to start and only compute: that is the epilogue\n", y->I1);
	}
}

/* The producer warpgroup's own loop (setmaxnreg), apart from the kernel's threads' code. */
static void add_producer_loop(struct tensor_rw *t)
{
	const struct kloop *l = t->l;
	struct layout *y = &t->y;
	struct strbuf *sb = &t->sb;
	int S = t->y.S;
	sb_printf(sb, "%s// pipefy: the producer warpgroup gives registers back (setmaxnreg, sm_90a: %d a thread at\n", y->I1,
		  l->regs_entry);
	sb_printf(sb, "%s// launch, %d for it, %d for the kernel's threads), starts every tile%s, and leaves\n", y->I1,
		  l->regs_producer, l->regs_consumer, t->wsa ? " and says when it has landed" : "");
	sb_printf(sb, "%s" SNIP_PRODUCER_BRANCH "\n", y->I1);
	sb_printf(sb, "%s" NAME_REGS_DEC "<%d>();\n", y->I2, l->regs_producer);
	struct layout inner = *y; /* (the same loop header, a level deeper) */
	inner.I1 = y->I2;
	add_main_header(sb, &inner);
	sb_printf(sb, "%s%s" NAME_LOAD "((int)(pipefy_loads %% %d));\n", y->I2, y->U, S);
	if (t->wsa) {
		sb_printf(sb, "%s%s" NAME_PIPELINE_WAIT "(%d);\n", y->I2, y->U, S - 1);
		sb_printf(sb, "%s%s" SNIP_WARPGROUP_HAS_LANDED ";\n", y->I2, y->U);
		sb_printf(sb, "%s%s" STAGE_READ " = (" STAGE_READ " + 1) %% %d;\n", y->I2, y->U, S);
	}
	sb_printf(sb, "%s}\n", y->I2);
	sb_printf(sb, "%s" SNIP_WARPGROUP_DONE "; // the kernel's threads are done with the last tile\n",
		  y->I2);
	if (t->wsa)
		add_producer_drain(sb, y, y->I2);
	sb_printf(sb, "%sreturn; // no barrier follows the loop\n", y->I2);
	sb_printf(sb, "%s}\n", y->I1);
	sb_printf(sb, "%s" NAME_REGS_INC "<%d>();\n", y->I1, l->regs_consumer);
}

/* The main loop: the next load, the wait for tile t, the compute, the release of its stage. */
static void add_main_loop(struct tensor_rw *t)
{
	const struct kloop *l = t->l;
	struct layout *y = &t->y;
	struct strbuf *sb = &t->sb;
	int S = t->y.S;
	add_main_header(sb, y);
	if (t->wsa && t->P == 128) {
		sb_printf(sb, "%s" NAME_LOAD "((int)(pipefy_loads %% %d));\n", y->I2, S);
		sb_printf(sb, "%s" SNIP_WARPGROUP_LANDED "; // tile t has landed\n", y->I2);
	} else if (t->wsa) { /* (the producer's groups: S - 1 from the prologue, one an iteration; tile t's is the
		    * oldest S - 1 younger ones leave pending) */
		sb_printf(sb, "%s" NAME_LOAD "((int)(pipefy_loads %% %d));\n", y->I2, S);
		sb_printf(sb, "%s" SNIP_PRODUCER_BRANCH " // the producer warp only copies, and says when tile t has landed\n", y->I2);
		sb_printf(sb, "%s%s" NAME_PIPELINE_WAIT "(%d);\n", y->I2, y->U, S - 1);
		sb_printf(sb, "%s%s" NAME_BAR_ARRIVE "(1 + " STAGE_READ ", " NAME_THREADS " + 32);\n", y->I2, y->U);
		sb_printf(sb, "%s%s" STAGE_READ " = (" STAGE_READ " + 1) %% %d;\n", y->I2, y->U, S);
		sb_printf(sb, "%s%scontinue;\n", y->I2, y->U);
		sb_printf(sb, "%s}\n", y->I2);
		sb_printf(sb, "%s" SNIP_WARP_LANDED "; // tile t has landed\n", y->I2);
	} else if (t->ws) { /* (the producer skips the compute and its stage count: the tiles loaded count stages) */
		sb_printf(sb, "%s" NAME_LOAD "((int)(pipefy_loads %% %d));\n", y->I2, S);
		if (t->P == 32)
			sb_printf(sb, "%s" SNIP_PRODUCER_SKIPS "; // the producer warp only copies\n", y->I2);
	} else if (!t->late)
		sb_printf(sb, "%s" NAME_LOAD "((" STAGE_READ " + %d) %% %d);\n", y->I2, S - 1, S);
	if (!t->wsa)
		sb_printf(sb, "%s" SNIP_WAIT_FULL ", pipefy_phase); // tile t has landed\n", y->I2);
	if (l->tma_collective && !test_break("syncwarp"))
		sb_printf(sb, "%s__syncwarp(); // pipefy: the warp leaves its waits apart; %s needs it whole\n", y->I2,
			  l->tma_collective);
	add_compute(sb, y);
	if (t->wsa)
		sb_printf(sb, "%s" NAME_BAR_ARRIVE "(%d + " STAGE_READ ", " NAME_THREADS " + %d); // this thread is done with tile t\n",
			  y->I2, 1 + S, t->P);
	else if (!test_break("barrier"))
		sb_printf(sb, "%s" SNIP_RELEASE_EMPTY "; // this thread is done with tile t\n", y->I2);
	if (t->late)
		sb_printf(sb, "%s" NAME_LOAD "((" STAGE_READ " + %d) %% %d);\n", y->I2, S - 1, S);
	sb_printf(sb, "%s" STAGE_READ " = (" STAGE_READ " + 1) %% %d;\n", y->I2, S);
	if (!t->wsa)
		sb_printf(sb, "%spipefy_phase ^= " STAGE_READ " == 0;\n", y->I2);
	sb_printf(sb, "%s}\n", y->I1);
}

/* After the loop: the last barrier, the producer's drain and exit, the mbarriers invalidated. */
static void add_loop_end(struct tensor_rw *t)
{
	struct layout *y = &t->y;
	struct strbuf *sb = &t->sb;
	int S = t->y.S;
	if (t->P == 128) /* (the producer's barrier is another instruction: the non-.aligned form) */
		sb_printf(sb, "%s" SNIP_WARPGROUP_DONE "; // pipefy: every thread is done with the last tile\n", y->I1);
	else
		sb_printf(sb, "%s__syncthreads(); // pipefy: every thread is done with the last tile\n", y->I1);
	if (t->wsa && t->P == 32) {
		sb_printf(sb, "%sif (" NAME_PRODUCER ") // the threads' arrivals after the last tiles, which no copy waited for\n", y->I1);
		add_producer_drain(sb, y, y->I2);
	}
	if (!t->wsa) {
		sb_printf(sb, "%sif (" ISSUER ")\n", y->I1);
		sb_printf(sb, "%sfor (int " NAME_PROLOGUE_STAGE " = 0; " NAME_PROLOGUE_STAGE " < %d; ++" NAME_PROLOGUE_STAGE ") {\n", y->I2, S);
		sb_printf(sb, "%s%spipefy_mbar_inval(&" NAME_FULL "[" NAME_PROLOGUE_STAGE "]);\n", y->I2, y->U);
		sb_printf(sb, "%s%spipefy_mbar_inval(&" NAME_EMPTY "[" NAME_PROLOGUE_STAGE "]);\n", y->I2, y->U);
		sb_printf(sb, "%s}\n", y->I2);
	}
	if (t->ws && t->P == 32)
		sb_printf(sb, "%sif (" NAME_PRODUCER ") // its work is done; no barrier follows the loop\n%s%sreturn;\n", y->I1, y->I1,
			  y->U);
}

void rewrite_tensor(const struct kloop *l, const struct model *m, int index, const struct source *src, struct edits *out,
		    struct file_needs *needs)
{
	(void)m, (void)index;
	needs->tma |= l->variant == VARIANT_TMA || l->variant == VARIANT_WS;
	needs->bulk |= l->variant == VARIANT_BULK;
	needs->pipeline |= l->variant == VARIANT_WS_CP_ASYNC;
	needs->regs |= l->producer_threads == 128;
	needs->named |= l->variant == VARIANT_WS_CP_ASYNC || l->producer_threads == 128;
	struct tensor_rw t = {.l = l, .src = src, .y = layout_begin(l, src), .P = l->producer_threads};
	layout_add_refs_outside_copies(&t.y);
	t.bulk = l->variant == VARIANT_BULK;
	t.wsa = l->variant == VARIANT_WS_CP_ASYNC;
	t.ws = l->variant == VARIANT_WS || t.wsa;
	t.late = !t.ws && t.y.S >= 4;
	t.producer = t.P == 128 ? "a producer warpgroup" : "a producer warp";
	char *what = describe(&t);
	add_guard(&t);
	add_block_start(&t.sb, &t.y, what);
	free(what);
	add_state(&t);
	char *vote = add_exact_vote(&t);
	add_loader_comment(&t);
	sb_printf(&t.sb, "%sauto " NAME_LOAD " = [&](int " STAGE_FILL ") {\n", t.y.I1);
	add_cursor_shadows(&t.sb, &t.y);
	char *cond = trimmed(src, l->cond);
	sb_printf(&t.sb, "%sif (%s) {\n", t.y.I2, cond);
	free(cond);
	long bytes;
	char *inside = add_box_origins(&t, vote, &bytes);
	free(vote);
	add_loader_copies(&t, inside, bytes);
	free(inside);
	add_prologue(&t);
	if (t.P == 128)
		add_producer_loop(&t);
	add_main_loop(&t);
	add_loop_end(&t);
	add_block_end(&t.sb, &t.y, out);
	if (!t.bulk)
		tma_kernel_edits(l, src, out);
	box_kernel_edits(l, out);
	layout_end(&t.y);
}

/* ---- validation: the output read back ---- */

/* A copy into a stage that must come after some statements of a compound statement around it
 * (the copy's own or one further out): the calls that copy, the problem when one comes too
 * early, and what a statement does to the walk (*began: the first of two steps seen in this
 * compound statement; *ready: the copies may come, here and in what follows). */
struct copy_order {
	const char *copy[2]; /* (NULL: none) */
	const char *problem;
	void (*step)(const char *stmt, bool *began, bool *ready);
};

/* Every copy of c (o->copy), ready when a statement before it has made it so (o->step). */
static void check_copy_order(struct region *r, CXCursor c, bool ready, const struct copy_order *o)
{
	if (cursor_is_call_named(c, o->copy[0]) || (o->copy[1] && cursor_is_call_named(c, o->copy[1]))) {
		if (!ready)
			problem(r, cursor_span(c).begin, o->problem);
		return;
	}
	bool compound = clang_getCursorKind(c) == CXCursor_CompoundStmt, began = false;
	struct cursors kids = cursor_children(c);
	for (int i = 0; i < kids.n; i++) {
		check_copy_order(r, kids.v[i], ready, o);
		if (!compound)
			continue;
		char *t = stmt_text(r->out, kids.v[i]);
		o->step(t, &began, &ready);
		free(t);
	}
	free(kids.v);
}

/* The copy engine writes a stage only after the fence.proxy.async that orders the threads'
 * reads of it before those writes: each copy within a statement that comes, in some compound
 * statement around it, after a wait for the stage to empty and then the fence. */
static void fence_step(const char *t, bool *waited, bool *fenced)
{
	if (strstr(t, NAME_MBAR_WAIT "(&" NAME_EMPTY "["))
		*waited = true;
	else if (*waited && code_is(t, NAME_FENCE_PROXY "()"))
		*fenced = true;
}

static const struct copy_order copy_fences = {
	{NAME_TMA_LOAD, NAME_BULK_LOAD},
	"the copy engine may write a stage before the threads' reads of it are fenced from it "
	"(fence.proxy.async after the wait for the stage to empty)",
	fence_step,
};

/* The producer warp's cp.async copies (ws-cp.async) write a stage only after it waited for the
 * kernel's threads to be done with it: each copy within a statement that comes, in some compound
 * statement around it, after a wait on the named barrier of the stage it fills. */
static void producer_wait_step(const char *t, bool *began, bool *waited)
{
	(void)began;
	if (strstr(t, NAME_BAR_SYNC "(") && (strstr(t, "+" STAGE_FILL "," NAME_THREADS "+32)") ||
					   strstr(t, "+" STAGE_FILL "," NAME_THREADS "+128)")))
		*waited = true;
}

static const struct copy_order producer_waits = {
	{NAME_PIPELINE_COPY, NULL},
	"the producer warp may copy into a stage before the kernel's threads are done with it "
	"(a wait on the stage's named barrier first)",
	producer_wait_step,
};

/* A producer warpgroup's branch (ws, ws-cp.async with setmaxnreg): it gives registers back
 * first, starts one tile an iteration of its own loop (with cp.async, waits for it and says it
 * has landed), meets the kernel's threads at the barrier after their loop (with cp.async, then
 * waits for their last releases), and leaves; the kernel's threads take their registers right
 * after it, and the launcher checks the kernel's registers cover the requests. */
static void check_producer_branch(struct region *r, const struct kloop *l)
{
	size_t at = cursor_span(r->producer).begin;
	bool wsa = l->variant == VARIANT_WS_CP_ASYNC, ok = true;
	struct cursors ifs = cursor_children(r->producer);
	struct cursors body = ifs.n >= 2 ? cursor_children(ifs.v[1]) : (struct cursors){0};
	int n = body.n, last_sync = n - (wsa ? 3 : 2);
	char *head = n ? stmt_text(r->out, body.v[0]) : NULL, *end = n ? stmt_text(r->out, body.v[n - 1]) : NULL;
	char *sync = last_sync >= 0 && n ? stmt_text(r->out, body.v[last_sync]) : NULL;
	ok = n >= 4 + wsa && starts(head, NAME_REGS_DEC "<") && clang_getCursorKind(body.v[1]) == CXCursor_ForStmt &&
	     sync && code_is(sync, SNIP_WARPGROUP_DONE) && starts(end, "return");
	if (ok) {
		struct cursors loop = cursor_children(cursor_last_child(body.v[1]));
		char *t[3] = {NULL, NULL, NULL};
		for (int i = 0; i < 3 && i < loop.n; i++)
			t[i] = stmt_text(r->out, loop.v[i]);
		ok = loop.n == (wsa ? 4 : 1) && starts(t[0], NAME_LOAD "(") &&
		     (!wsa || (starts(t[1], NAME_PIPELINE_WAIT "(") &&
			       code_is(t[2], SNIP_WARPGROUP_HAS_LANDED)));
		for (int i = 0; i < 3; i++)
			free(t[i]);
		free(loop.v);
	}
	if (!ok)
		problem(r, at, "the producer warpgroup does not give registers back, start each tile in a loop of its own, "
			       "meet the kernel's threads after theirs and leave");
	struct cursors blk = cursor_children(r->block_cursor);
	bool inc = false;
	for (int i = 0; i + 1 < blk.n; i++)
		if (clang_equalCursors(blk.v[i], r->producer)) {
			char *t = stmt_text(r->out, blk.v[i + 1]);
			inc = starts(t, NAME_REGS_INC "<");
			free(t);
		}
	if (!inc)
		problem(r, at, "the kernel's threads do not take their registers right after the producer's branch");
	if (!strstr(r->out->text, SNIP_REGS_COVERED))
		problem(r, at, "the launcher does not check the kernel's registers cover what setmaxnreg asks for");
	free(blk.v);
	free(head);
	free(end);
	free(sync);
	free(body.v);
	free(ifs.v);
}

/* What the tensor families check past the main loop's statements: the block's loader, by
 * check_copy_order (copy_fences, producer_waits); a barrier after the loop; a split
 * loop's producer branch. */
static void check_loop_end(struct region *r, const struct kloop *l, const struct loop_view *v,
			   const struct copy_order *copies)
{
	if (clang_Cursor_isNull(r->loader))
		problem(r, v->at, "no loader in the block");
	else
		check_copy_order(r, r->loader, false, copies);
	barrier_after(r, v->at);
	if (v->split)
		check_producer_branch(r, l);
}

/* tma, bulk, ws: no block barrier in the loop: a stage is refilled after its empty barrier's
 * phase, which each thread's arrival after the compute completes; the next copy starts first, or
 * (4 stages and more, not a producer warp's) right after the arrival. A producer warp's loop
 * starts the next copy, then the producer leaves the iteration; a producer warpgroup has a loop
 * of its own. */
void validate_tensor(struct region *r, const struct kloop *l, const struct loop_view *v)
{
	const struct cursors *body = &v->body;
	char *const *first = v->first;
	int w = l->variant == VARIANT_WS && !v->split;
	bool late = !w && l->stages >= 4;
	int head = late ? 0 : 1; /* statements before the wait */
	char *release = body->n >= 3 + late ? stmt_text(r->out, body->v[body->n - 3 - late]) : NULL;
	char *next = late && body->n >= 3 ? stmt_text(r->out, body->v[body->n - 3]) : NULL;
	if (body->n < 5 + w || (late ? !next || !starts(next, NAME_LOAD "(") : !starts(first[0], NAME_LOAD "(")) ||
	    (w && !code_starts(first[1], SNIP_PRODUCER_SKIPS)) ||
	    !code_starts(first[head + w], SNIP_WAIT_FULL) || !release ||
	    !code_starts(release, SNIP_RELEASE_EMPTY) || v->nbarriers != 0)
		problem(r, v->at, "the main loop does not start the next copy, wait for its tile, and release the stage after the compute");
	else if (l->tma_collective && !starts(first[head + 1 + w], "__syncwarp()"))
		problem(r, v->at, "the warp does not reconverge (__syncwarp) between its wait and a compute it must run whole");
	free(release);
	free(next);
	check_loop_end(r, l, v, &copy_fences);
}

/* ws-cp.async: the producer says when tile t has landed, and leaves the iteration; the kernel's
 * threads wait for it, compute, and say they are done with the stage. */
void validate_ws_cp_async(struct region *r, const struct kloop *l, const struct loop_view *v)
{
	const struct cursors *body = &v->body;
	char *const *first = v->first;
	char *release = body->n >= 2 ? stmt_text(r->out, body->v[body->n - 2]) : NULL;
	if (v->split ? body->n < 4 || !starts(first[0], NAME_LOAD "(") || !code_starts(first[1], SNIP_WARPGROUP_LANDED) ||
			       !release || !starts(release, NAME_BAR_ARRIVE "(") || v->nbarriers != 0
		     : body->n < 5 || !starts(first[0], NAME_LOAD "(") || !code_starts(first[1], SNIP_PRODUCER_BRANCH) ||
			       !strstr(first[1], NAME_PIPELINE_WAIT "(") || !code_starts(first[2], SNIP_WARP_LANDED) ||
			       !release || !starts(release, NAME_BAR_ARRIVE "(") || v->nbarriers != 0)
		problem(r, v->at, "the main loop does not start the next copy, wait for its tile, and release the stage after the compute");
	free(release);
	check_loop_end(r, l, v, &producer_waits);
}
