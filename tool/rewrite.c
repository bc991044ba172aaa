/* rewrite.c: turns a checked, planned loop model into edits: tile declarations gain a stage
 * dimension, and the loop becomes prologue + main loop around a loader that fetches the tile
 * at a cursor of the loop's own induction variables. */
#include "cursor.h"
#include "stage.h"

#include <ctype.h>
#include <stdlib.h>


/* The load-free ceiling: the copies (and the locals only they read) deleted, everything
 * else, barriers included, as written. */
void rewrite_no_loads(const struct kloop *l, const struct model *m, int index, const struct source *src, struct edits *out,
		      struct file_needs *needs)
{
	(void)m, (void)index, (void)src, (void)needs;
	for (int i = 0; i < l->nstmts; i++) {
		const struct body_stmt *st = &l->stmts[i];
		bool copy_side = st->role == ROLE_COPY || ((st->role == ROLE_COPY_DECL || st->role == ROLE_FETCH_DECL) && !st->also_compute);
		if (copy_side)
			edits_add(out, st->span.begin, st->span.end - st->span.begin, "");
	}
}

/* The line ending the input uses: "\r\n" when its first line ends so. */
static const char *input_newline(const struct source *src)
{
	const char *nl = memchr(src->text, '\n', src->len);
	return nl && nl > src->text && nl[-1] == '\r' ? "\r\n" : "\n";
}

/* The helpers overlapped launches use, once, where the pipeline include goes. The CPU model
 * (tests/cpu/to_cpu.py) replaces this block between its marker lines. */
const char rewrite_overlap_helpers[] =
	"// pipefy: overlapped launches {\n"
	"// A kernel launched by " NAME_LAUNCH_DEPENDENT " may start while the kernel before it in its\n"
	"// stream is finishing (programmatic dependent launch, sm_90); " NAME_GRID_WAIT ", first in its\n"
	"// body, waits until that kernel has completed and its writes are visible (griddepcontrol.wait).\n"
	"// Below sm_90, or where the kernel's code was compiled for less (and so does not wait), the\n"
	"// launch is an ordinary one.\n"
	"static __device__ __forceinline__ void " NAME_GRID_WAIT "()\n"
	"{\n"
	"#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n"
	"    asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");\n"
	"#endif\n"
	"}\n";
/* (--launches=early only: nvcc warns of a static function never called) */
const char rewrite_overlap_trigger[] =
	"// (--launches=early) the kernel launched after this one may start once every block of this one\n"
	"// has come here or ended (griddepcontrol.launch_dependents; it still waits for this one to end)\n"
	"static __device__ __forceinline__ void pipefy_launch_dependents()\n"
	"{\n"
	"#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n"
	"    asm volatile(\"griddepcontrol.launch_dependents;\" :::);\n"
	"#endif\n"
	"}\n";
const char rewrite_overlap_launcher[] =
	"static bool pipefy_kernel_waits(const void *kernel)\n"
	"{\n"
	"    static thread_local const void *known[8];\n"
	"    static thread_local int known_device[8], next;\n"
	"    static thread_local bool waits[8];\n"
	"    int device;\n"
	"    if (cudaGetDevice(&device) != cudaSuccess)\n"
	"        return false;\n"
	"    for (int i = 0; i < 8; i++)\n"
	"        if (known[i] == kernel && known_device[i] == device)\n"
	"            return waits[i];\n"
	"    int major = 0;\n"
	"    cudaFuncAttributes attr;\n"
	"    bool w = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 9 &&\n"
	"             cudaFuncGetAttributes(&attr, kernel) == cudaSuccess && attr.ptxVersion >= 90;\n"
	"    known[next] = kernel;\n"
	"    known_device[next] = device;\n"
	"    waits[next] = w;\n"
	"    next = (next + 1) % 8;\n"
	"    return w;\n"
	"}\n"
	"// (the arguments become the kernel's parameter types where they are passed, as in a launch:\n"
	"// P is deduced from the kernel alone, so `0` or NULL for a pointer is a null pointer)\n"
	"template <class T>\n"
	"struct pipefy_parameter {\n"
	"    typedef T type;\n"
	"};\n"
	"template <class... P>\n"
	"static cudaError_t " NAME_LAUNCH_DEPENDENT "(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream,\n"
	"                                           typename pipefy_parameter<P>::type... args)\n"
	"{\n"
	"    cudaLaunchAttribute overlap;\n"
	"    overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;\n"
	"    overlap.val.programmaticStreamSerializationAllowed = 1;\n"
	"    cudaLaunchConfig_t config = {};\n"
	"    config.gridDim = grid;\n"
	"    config.blockDim = block;\n"
	"    config.dynamicSmemBytes = smem;\n"
	"    config.stream = stream;\n"
	"    config.attrs = &overlap;\n"
	"    config.numAttrs = pipefy_kernel_waits((const void *)kernel) ? 1 : 0;\n"
	"    return cudaLaunchKernelEx(&config, kernel, args...);\n"
	"}\n"
	"// } pipefy: overlapped launches\n";

/* ---- overlapped launches ---- */

/* Each overlapping pair's second launch goes through pipefy_launch_dependent, and its kernel
 * waits first thing (once, however many launches it has); with --launches=early the kernel
 * ahead lets it start (*trigger then says so). */
static bool rewrite_launch_pairs(struct model *m, const struct source *src, struct edits *e, bool *any_trigger)
{
	bool any = false;
	for (int i = 0; i < m->npairs; i++) {
		struct launch_pair *p = &m->pairs[i];
		p->rewritten = false;
		if (p->refusal || p->invalid || !p->overlap || p->out_of_range)
			continue;
		char *a = span_text(src, p->args);
		bool empty = true;
		for (const char *q = a; *q; q++)
			empty &= isspace((unsigned char)*q) != 0;
		char *call = xprintf(NAME_LAUNCH_DEPENDENT "(%s, %s, %s, %s, %s%s%s)", p->callee, p->config[0],
				     p->config[1] ? p->config[1] : "1", p->config[2] ? p->config[2] : "0",
				     p->config[3] ? p->config[3] : "0", empty ? "" : ", ", empty ? "" : a);
		edits_add(e, p->call.begin, p->call.end - p->call.begin, call);
		free(call);
		free(a);
		/* (once per kernel; not at all where it already begins with pipefy's wait: a second run) */
		bool waits = cursor_is_call_named(cursor_first_child(cursor_last_child(p->kernel)), NAME_GRID_WAIT);
		for (int j = 0; j < i; j++)
			waits |= m->pairs[j].rewritten && m->pairs[j].body_open == p->body_open;
		if (!waits && !test_break("gridwait")) {
			/* the indentation of the body's first line, else four spaces more than the function's */
			size_t q = p->body_open;
			while (q < src->len && (src->text[q] == ' ' || src->text[q] == '\t' || src->text[q] == '\r'))
				q++;
			char *indent = NULL;
			if (q < src->len && src->text[q] == '\n') {
				size_t b = q + 1, n = 0;
				while (b + n < src->len && (src->text[b + n] == ' ' || src->text[b + n] == '\t'))
					n++;
				if (n && b + n < src->len && src->text[b + n] != '}')
					indent = xstrndup(src->text + b, n);
			}
			if (!indent) {
				char *outer = source_line_indent(src, cursor_span(p->kernel).begin);
				indent = xprintf("%s    ", outer);
				free(outer);
			}
			/* (a body that goes on after its '{' on the same line goes on on the next) */
			bool same_line = q < src->len && src->text[q] != '\n';
			for (int j = 0; j < m->npairs && same_line; j++) /* (a trigger there ends the line itself) */
				same_line = !(m->pairs[j].overlap && !m->pairs[j].refusal && m->pairs[j].trigger_at == p->body_open);
			char *wait = xprintf("\n%s" NAME_GRID_WAIT "(); // pipefy: '%s' may start before the kernel launched ahead "
					     "of it ends: wait for it first%s%s", indent, p->second, same_line ? "\n" : "",
					     same_line ? indent : "");
			edits_add(e, p->body_open, 0, wait);
			free(wait);
			free(indent);
		}
		p->rewritten = true;
		any = true;
	}
	for (int i = 0; i < m->npairs; i++) { /* (after every wait: at a body's start the wait comes first) */
		struct launch_pair *p = &m->pairs[i];
		bool done = false;
		for (int j = 0; j < i; j++)
			done |= m->pairs[j].rewritten && m->pairs[j].trigger_at == p->trigger_at;
		if (!p->rewritten || !p->trigger_at || done)
			continue;
		char *indent = source_line_indent(src, p->trigger_at == p->first_body_open ? cursor_span(p->first_kernel).begin
											 : p->trigger_at - 1);
		bool top = p->trigger_at == p->first_body_open;
		size_t q = p->trigger_at;
		while (q < src->len && (src->text[q] == ' ' || src->text[q] == '\t' || src->text[q] == '\r'))
			q++;
		bool same_line = q < src->len && src->text[q] != '\n';
		char *trigger = xprintf("\n%s%spipefy_launch_dependents(); // pipefy: the kernel launched after this one may "
					"start now (it waits for this one to end)%s%s%s", indent, top ? "    " : "",
					same_line ? "\n" : "", same_line ? indent : "", same_line && top ? "    " : "");
		edits_add(e, p->trigger_at, 0, trigger);
		free(trigger);
		free(indent);
		*any_trigger = true;
	}
	return any;
}

/* The helpers the launch-staged tiles use, once, where the pipeline include goes; the launches'
 * helper also serves static tiles moved into the launch's memory. */
static const char launch_stage_helpers[] =
	"// pipefy: tiles in a launch's dynamic shared memory get one copy of its layout per stage:\n"
	"// pipefy_launch_bytes gives a launch that much (allowing it above 48 KB), " NAME_STAGE_AT " finds a\n"
	"// tile's copy at a stage\n"
	"static __device__ __forceinline__ unsigned pipefy_dynamic_smem_size()\n"
	"{\n"
	"    unsigned bytes;\n"
	"    asm volatile(\"mov.u32 %0, %%dynamic_smem_size;\" : \"=r\"(bytes));\n"
	"    return bytes;\n"
	"}\n"
	"template <class T> static __device__ __forceinline__ T *" NAME_STAGE_AT "(T *tile, int stage, unsigned stride)\n"
	"{\n"
	"    return (T *)((char *)tile + stage * stride);\n"
	"}\n";
static const char launch_bytes_helper[] =
	"template <class K> static size_t pipefy_launch_bytes(K *kernel, size_t bytes, int stages)\n"
	"{\n"
	"    size_t total = (size_t)stages * ((bytes + 127) / 128 * 128);\n"
	"    if (total > 48 * 1024)\n"
	"        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)total);\n"
	"    return total;\n"
	"}\n";

/* `#include <cuda_pipeline.h>` (include) and the launch-staging helpers (helpers) after the
 * last #include that every compile sees, before the first rewritten loop: outside any
 * #if/#ifdef and any block comment; at the top of a file without one, after its byte-order
 * mark. The include is skipped when the file already has it. */
static void add_pipeline_include(const struct model *m, const struct source *src, struct edits *out,
				 const struct file_needs *needs, bool overlap, bool trigger)
{
	bool include = needs->pipeline;
	size_t first = src->len;
	for (int i = 0; i < m->nloops; i++)
		if (m->loops[i].rewritten && m->loops[i].loop.begin < first)
			first = m->loops[i].loop.begin;
	for (int i = 0; i < m->npairs; i++)
		if (m->pairs[i].rewritten) {
			size_t k = cursor_span(m->pairs[i].kernel).begin;
			first = k < first ? k : first;
			first = m->pairs[i].call.begin < first ? m->pairs[i].call.begin : first;
			k = m->pairs[i].trigger_at ? cursor_span(m->pairs[i].first_kernel).begin : first;
			first = k < first ? k : first;
		}
	/* (a file pipefy has overlapped launches in already has the helpers: validation checks them) */
	overlap &= strstr(src->text, "// pipefy: overlapped launches {") == NULL;
	trigger &= overlap;
	size_t at = src->len >= 3 && memcmp(src->text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	int depth = 0;
	bool in_comment = false;
	for (int ln = 0; ln < src->nlines && src->line_start[ln] < first; ln++) {
		const char *p = src->text + src->line_start[ln];
		const char *end = ln + 1 < src->nlines ? src->text + src->line_start[ln + 1] : src->text + src->len;
		bool starts_in_comment = in_comment;
		/* where block comments open and close on this line (strings are rare enough here) */
		for (const char *q = p; q + 1 < end; q++) {
			if (!in_comment && q[0] == '/' && q[1] == '/')
				break;
			if (!in_comment && q[0] == '/' && q[1] == '*')
				in_comment = true, q++;
			else if (in_comment && q[0] == '*' && q[1] == '/')
				in_comment = false, q++;
		}
		if (starts_in_comment || !(p = source_directive(p)))
			continue;
		if (strncmp(p, "if", 2) == 0)
			depth++;
		else if (strncmp(p, "endif", 5) == 0)
			depth--;
		else if (strncmp(p, "include", 7) == 0 && depth == 0) {
			const char *name = p + 7;
			while (*name == ' ' || *name == '\t')
				name++;
			if (strncmp(name, "<cuda_pipeline.h>", 17) == 0 || strncmp(name, "\"cuda_pipeline.h\"", 17) == 0)
				include = false;
			if (!in_comment)
				at = (size_t)(end - src->text);
		}
	}
	char *tensor = tensor_helpers(needs->tma, needs->bulk, needs->named, needs->regs);
	char *line = xprintf("%s%s%s%s%s%s%s%s%s", include ? "#include <cuda_pipeline.h> // pipefy: " NAME_PIPELINE_COPY "\n" : "",
			     needs->tma ? "#include <cuda.h>         // pipefy: CUtensorMap\n"
					  "#include <cudaTypedefs.h> // pipefy: PFN_cuTensorMapEncodeTiled\n" : "",
			     needs->launch_stages ? launch_stage_helpers : "",
			     !needs->launch_stages && needs->launch_bytes
				     ? "// pipefy: pipefy_launch_bytes gives a launch the dynamic shared memory the tiles moved\n"
				       "// there take (allowing it above 48 KB)\n" : "",
			     needs->launch_bytes ? launch_bytes_helper : "", tensor, overlap ? rewrite_overlap_helpers : "",
			     trigger ? rewrite_overlap_trigger : "", overlap ? rewrite_overlap_launcher : "");
	if (*line)
		edits_add(out, at, 0, line);
	free(line);
	free(tensor);
}

/* Lines pipefy writes end as the input's do: in a CRLF file each "\n" of a replacement that
 * is not already "\r\n" becomes "\r\n". */
static void match_line_endings(const struct source *src, struct edits *e)
{
	if (strcmp(input_newline(src), "\r\n") != 0)
		return;
	for (int i = 0; i < e->n; i++) {
		struct strbuf sb = {0};
		for (const char *p = e->v[i].text; *p; p++) {
			if (*p == '\n' && (p == e->v[i].text || p[-1] != '\r'))
				sb_puts(&sb, "\r");
			sb_add(&sb, p, 1);
		}
		free(e->v[i].text);
		e->v[i].text = sb.data ? sb_take(&sb) : xstrdup("");
	}
}

static void add_launch_edits(const struct model *m, const struct source *src, struct edits *e)
{
	for (int i = 0; i < m->nloops; i++) {
		const struct kloop *l = &m->loops[i];
		bool first = l->launch_stages > 0;
		for (int j = 0; j < i && first; j++)
			first = !(m->loops[j].launch_stages && strcmp(m->loops[j].function, l->function) == 0);
		for (int k = 0; first && l->enlarge && k < l->nlaunch_edits; k++) {
			const struct launch_edit *le = &l->launch_edits[k];
			char *bytes = span_text(src, le->shared);
			char *text = xprintf("pipefy_launch_bytes(%s, %s, %d)", l->function, bytes, l->launch_stages);
			edits_add(e, le->shared.begin, le->shared.end - le->shared.begin, text);
			free(text);
			free(bytes);
		}
		/* (static tiles moved into the launch's memory: every launch asked for none) */
		for (int k = 0; l->promoted_bytes > 0 && l->rewritten && k < l->nlaunch_edits; k++) {
			const struct launch_edit *le = &l->launch_edits[k];
			char *text = xprintf("%spipefy_launch_bytes(%s, %ld, 1)", le->insert ? ", " : "", l->function,
					     l->promoted_bytes);
			edits_add(e, le->shared.begin, le->shared.end - le->shared.begin, text);
			free(text);
		}
	}
}


void rewrite_kloops(struct model *m, const struct source *src, struct edits *e)
{
	struct file_needs needs = {0};
	for (int i = 0; i < m->nloops; i++) {
		struct kloop *l = &m->loops[i];
		l->rewritten = false;
		if (l->nrefusals > 0 || l->invalid || l->variant == VARIANT_AUTO || l->out_of_range)
			continue;
		variant_row(l->variant)->rewrite(l, m, i, src, e, &needs);
		l->rewritten = true;
	}
	for (int i = 0; i < m->nloops; i++) {
		needs.launch_stages |= m->loops[i].launch_stages > 0 && m->loops[i].rewritten;
		needs.launch_bytes |= (m->loops[i].launch_stages > 0 || m->loops[i].promoted_bytes > 0) && m->loops[i].rewritten;
	}
	if (needs.launch_bytes)
		add_launch_edits(m, src, e);
	bool trigger = false;
	bool overlap = rewrite_launch_pairs(m, src, e, &trigger);
	rewrite_launch_queues(m, src, e);
	if (needs.pipeline || needs.launch_bytes || needs.tma || needs.bulk || needs.named || overlap)
		add_pipeline_include(m, src, e, &needs, overlap, trigger);
	match_line_endings(src, e);
}

