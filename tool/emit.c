/* emit.c: diagnostics and remarks in the compiler's format, source line and caret included. */
#include "pipefy.h"

#include <jansson.h>
#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

static void show_line(FILE *out, const struct source *src, int line, int col)
{
	if (line < 1 || line > src->nlines)
		return;
	size_t b = src->line_start[line - 1], e = b;
	while (e < src->len && src->text[e] != '\n')
		e++;
	fprintf(out, "%.*s\n", (int)(e - b), src->text + b);
	/* the caret lines up under tabs too */
	for (int i = 0; i < col - 1 && b + i < e; i++)
		fputc(src->text[b + i] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

/* msg on one line, whatever it quotes (a callee's text written over lines): a run of blanks
 * that holds a line break becomes one space. */
static char *one_line(const char *msg)
{
	char *out = xmalloc(strlen(msg) + 1), *o = out;
	for (const char *p = msg; *p; p++) {
		const char *q = p;
		bool brk = false;
		while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
			brk |= *q == '\n' || *q == '\r', q++;
		if (brk) {
			*o++ = ' ';
			p = q - 1;
		} else
			*o++ = *p;
	}
	*o = '\0';
	return out;
}

static void emit_line(FILE *out, const struct source *src, size_t offset, const char *severity, const char *text)
{
	if (!out)
		return;
	int line, col;
	source_line_col(src, offset, &line, &col);
	fprintf(out, "%s:%d:%d: %s: %s\n", src->path, line, col, severity, text);
	show_line(out, src, line, col);
}

void emit_diagnostic(FILE *out, const struct source *src, size_t offset, const char *severity, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = vxprintf(fmt, ap);
	va_end(ap);
	char *text = one_line(msg);
	emit_line(out, src, offset, severity, text);
	free(text);
	free(msg);
}

/* Whether the parenthesis at p closes where a clause ends (the message's end, a ";", ":", ","
 * or ".", or another parenthesis): what stands before it is whole without it (before the
 * "(4:7)" of "... for which `x` (4:7) holds" it is not). */
static bool closes_clause(const char *p)
{
	int depth = 0;
	for (; *p; p++) {
		depth += *p == '(';
		if (*p == ')' && --depth == 0)
			return !p[1] || strchr(";:,.", p[1]) || (p[1] == ' ' && p[2] == '(');
	}
	return false;
}

/* Where the last clause of msg that ends before `limit` ends: a "; ", ": " or " (" outside
 * parentheses, brackets and quotes, past the remark's head (up to its first ": "), but not the
 * ": " of a short lead-in after the head or a "; " (`register staging: `, `; 1 stage: `), which
 * cut there says nothing; else the last ", " there; 0: none. */
static size_t clause_end(const char *msg, size_t limit)
{
	const char *head = strstr(msg, ": ");
	size_t from = head ? (size_t)(head - msg) + 2 : 0, best = 0, comma = 0, semi = 0;
	int depth = 0;
	char quote = 0;
	for (size_t i = 0; msg[i] && i < limit; i++) {
		char c = msg[i];
		if (quote) {
			/* (a quote closes where no letter follows it: the ' of "block's" is no end) */
			if (c == quote && (quote != '\'' || !(isalnum((unsigned char)msg[i + 1]) || msg[i + 1] == '_')))
				quote = 0;
			continue;
		}
		if (c == '`' || c == '"' || (c == '\'' && (i == 0 || strchr(" ([", msg[i - 1])))) {
			quote = c;
			continue;
		}
		/* (not the ':' after a clause's short lead-in, `; 1 stage: ..`: cut before the lead-in) */
		if (depth == 0 && i >= from && msg[i + 1] == ' ' && c == ';')
			best = semi = i;
		else if (depth == 0 && i >= from && msg[i + 1] == ' ' && c == ':' && !(semi && i - semi < 26) &&
			 i - from >= 20)
			best = i;
		if (depth == 0 && i >= from && c == ' ' && msg[i + 1] == '(' && closes_clause(msg + i + 1))
			best = i;
		if (depth == 0 && i >= from && c == ',' && msg[i + 1] == ' ')
			comma = i;
		if (c == '(' || c == '[')
			depth++;
		else if ((c == ')' || c == ']') && depth > 0)
			depth--;
	}
	return best ? best : comma;
}

char *remark_text(const char *msg, size_t max)
{
	char *text = one_line(msg);
	size_t n = strlen(text), more = strlen(REMARK_MORE);
	if (n <= max || max <= more)
		return text;
	size_t cut = clause_end(text, max - more);
	if (cut == 0) /* nothing ends in time: the last word that does */
		for (cut = max - more; cut > 0 && text[cut] != ' '; cut--)
			;
	if (cut == 0)
		cut = max - more;
	memcpy(text + cut, REMARK_MORE, more + 1);
	return text;
}

/* A remark: its message on one line and at most REMARK_MAX characters (--report has all of
 * it), then its tag: [pipefy] or [pipefy-missed]. */
static void emit_remark(FILE *out, const struct source *src, size_t offset, bool passed, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void emit_remark(FILE *out, const struct source *src, size_t offset, bool passed, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = vxprintf(fmt, ap);
	va_end(ap);
	char *text = remark_text(msg, REMARK_MAX);
	char *line = xprintf("%s [%s]", text, passed ? "pipefy" : "pipefy-missed");
	emit_line(out, src, offset, "remark", line);
	free(line);
	free(text);
	free(msg);
}

/* Why a loop is left as written: check's first refusal, else validation's verdict on its
 * rewrite, else the planner's reason; where check's refusal is that neither cp.async nor
 * register staging can take the loop, the planner's word on the variant asked for. */
static const char *why_not(const struct kloop *l)
{
	if (l->nrefusals && !(l->refused_both && l->declined))
		return l->refusals[0].reason;
	return l->invalid ? l->invalid : l->declined;
}

/* Why a pair is not one persistent launch: check's refusal, validation's verdict, else the
 * planner's. */
static const char *queue_why_not(const struct launch_pair *p)
{
	return p->queue_refusal ? p->queue_refusal : p->queue_invalid ? p->queue_invalid : p->queue_declined;
}

/* Why a pair's launch is kept as written: check's refusal, validation's verdict, else the
 * planner's. */
static const char *pair_why_not(const struct launch_pair *p)
{
	return queue_why_not(p) ? queue_why_not(p) : p->refusal ? p->refusal : p->invalid ? p->invalid : p->reason;
}

/* What a queued pair's launches became (--launches=queue). */
#define QUEUE_DONE                                                                                                   \
	"launches of '%s' and '%s' run as one persistent launch: its blocks take the blocks of both, each block of "   \
	"'%s' once %s; the blocks run the kernels' bodies as written (pipefy_launch_queue%d; the launches as written " \
	"where the two blocks differ in size): %s"

/* What a queued pair's blocks of the second kernel wait for, in words. */
static char *queue_waits(const struct launch_pair *p)
{
	const char *why = p->waits_all;
	char *out = why ? xprintf("every block of '%s' is done (%s)", p->first, why)
			: xprintf("the blocks of '%s' in the rows (blockIdx.%c) whose writes it may read are done, where the "
				  "launcher finds each row's writes apart from the others' and what '%s' writes apart from "
				  "all '%s' touches (every block of '%s' otherwise)",
				  p->first, "xyz"[p->deps[0].rows], p->second, p->first, p->first);
	return out;
}

static void emit_pair_remarks(FILE *out, const struct model *m, const struct source *src)
{
	for (int i = 0, q = 0; i < m->npairs; i++) {
		const struct launch_pair *p = &m->pairs[i];
		if (p->out_of_range)
			continue;
		if (p->rewritten && p->queue) {
			char *waits = queue_waits(p);
			emit_remark(out, src, p->first_call.begin, true, QUEUE_DONE, p->first, p->second, p->second, waits, q,
				    p->reason);
			free(waits);
			q++;
		} else if (queue_why_not(p))
			emit_remark(out, src, p->first_call.begin, false,
				    "launches of '%s' and '%s' not made one persistent launch: %s", p->first, p->second,
				    queue_why_not(p));
		else if (p->rewritten)
			emit_remark(out, src, p->call.begin, true,
				    "launch overlapped with '%s' before it: '%s' may start while it finishes, and waits for "
				    "it first (programmatic dependent launch, sm_90): %s",
				    p->first, p->second, p->reason);
		else if (pair_why_not(p) && !p->quiet)
			emit_remark(out, src, p->call.begin, false, "launch not overlapped with '%s' before it: %s", p->first,
				    pair_why_not(p));
	}
}

void emit_remarks(FILE *out, const struct model *m, const struct source *src)
{
	for (int i = 0; i < m->nloops; i++) {
		const struct kloop *l = &m->loops[i];
		if (l->out_of_range)
			continue;
		if (l->rewritten && l->variant == VARIANT_NO_LOADS)
			emit_remark(out, src, l->loop.begin, true,
				    "K-loop copies removed (no-loads: a benchmark ceiling, not a correct program)");
		else if (l->rewritten)
			emit_remark(out, src, l->loop.begin, true, "K-loop pipelined: %s, %d stage%s: %s%s%s",
				    variant_name(l->variant), l->stages, l->stages == 1 ? "" : "s",
				    l->plan_reason ? l->plan_reason : "", l->plan_note ? "; " : "", l->plan_note ? l->plan_note : "");
		else if (why_not(l))
			emit_remark(out, src, l->loop.begin, false, "%s not pipelined: %s", l->not_kloop ? "loop" : "K-loop",
				    why_not(l));
	}
	emit_pair_remarks(out, m, src);
}

void emit_count(const struct model *m, int *pipelined, int *left)
{
	*pipelined = *left = 0;
	for (int i = 0; i < m->nloops; i++) {
		const struct kloop *l = &m->loops[i];
		if (!l->out_of_range && l->rewritten)
			++*pipelined;
		else if (!l->out_of_range && why_not(l))
			++*left;
	}
}

/* ---- --report ---- */

static char *option_name(const struct plan_option *p)
{
	if (p->variant == VARIANT_AUTO)
		return xstrdup("as written");
	return xprintf("%s x%d", variant_name(p->variant), p->stages);
}

/* Whether the planner's flops per byte stand on numbers (a loop check refused was never
 * planned: its ratio is no measurement). */
static bool ratio_known(const struct kloop *l)
{
	return kloop_ratio(l) >= 0; /* (computed here too: a loop left before planning has no l->ratio) */
}


static void report_text(FILE *out, const struct kloop *l, const struct source *src, int arch)
{
	int line, col;
	source_line_col(src, l->loop.begin, &line, &col);
	if (l->not_kloop) {
		fprintf(out, "%s:%d:%d: loop in '%s' (no K-loop)\n  result:   not pipelined: %s\n\n", src->path, line, col,
			l->function, why_not(l));
		return;
	}
	fprintf(out, "%s:%d:%d: K-loop in '%s', planned for sm_%d\n", src->path, line, col, l->function, arch);
	char *unknown;
	if (l->block_unread) {
		int bl, bc;
		source_line_col(src, l->block_unread - 1, &bl, &bc);
		unknown = xprintf("unknown (no __launch_bounds__, and the launch at %d:%d gives a block size pipefy does not "
				  "read as a number; --block-size sets it)", bl, bc);
	} else
		unknown = xstrdup("unknown (no __launch_bounds__ or launch in the file; --block-size sets it)");
	if (l->block_threads && l->block_differs) {
		int bl, bc;
		source_line_col(src, l->block_differs - 1, &bl, &bc);
		fprintf(out, "  block:    %d threads (%s), planned for; the launch at %d:%d gives another", l->block_threads,
			l->block_source, bl, bc);
	} else if (l->block_threads)
		fprintf(out, "  block:    %d threads (%s)", l->block_threads, l->block_source);
	else if (l->threads_estimate)
		fprintf(out, "  block:    %s: %d threads assumed for occupancy, the tiles' %ld B a stage over the %ld B each "
			"thread copies", unknown, l->threads_estimate, kloop_tile_bytes(l), kloop_tile_bytes(l) / l->threads_estimate);
	else
		fprintf(out, "  block:    %s", unknown);
	free(unknown);
	if (l->block_dim[0] && l->block_shape_source && strcmp(l->block_shape_source, l->block_source ? l->block_source : "") != 0)
		fprintf(out, ", shaped %dx%dx%d (%s)", l->block_dim[0], l->block_dim[1], l->block_dim[2], l->block_shape_source);
	else if (l->block_dim[0])
		fprintf(out, ", shaped %dx%dx%d", l->block_dim[0], l->block_dim[1], l->block_dim[2]);
	if (l->registers)
		fprintf(out, "; %d registers per thread (ptxas)\n", l->registers);
	else if (l->assumed_registers) /* (the planner's; a loop check refused was never planned) */
		fprintf(out, "; registers unknown, %d assumed (--ptxas measures them)\n", l->assumed_registers);
	else
		fprintf(out, "; registers unknown (--ptxas measures them)\n");
	/* sizes a template parameter or the launch sets are no numbers here */
	fprintf(out, "  tiles:   ");
	for (int i = 0; i < l->ntiles; i++) {
		if (tile_bytes(l, i) >= 0)
			fprintf(out, " %s%s %ld B", i ? "+ " : "", l->tiles[i].name, tile_bytes(l, i));
		else
			fprintf(out, " %s%s (%s)", i ? "+ " : "", l->tiles[i].name,
				l->tiles[i].dynamic ? "sized by the launch" : "sized by the template's parameters");
	}
	long per_stage = kloop_tile_bytes(l);
	if (l->ntiles == 0)
		fprintf(out, " none read (the loop was left before its tiles were)");
	else if (per_stage >= 0)
		fprintf(out, " = %ld B per stage", per_stage);
	else if (l->enlarge && l->launch_dyn_bytes > 0)
		fprintf(out, "; per stage: a copy of the launch's %ld B of dynamic shared memory", l->launch_dyn_bytes);
	else
		fprintf(out, "; per stage: unknown here");
	if (l->shared_bytes >= 0)
		fprintf(out, "; %ld B of static shared memory as written", l->shared_bytes);
	else
		fprintf(out, "; static shared memory as written: unknown here");
	if (l->instantiations == 1)
		fprintf(out, " (as the one launch in the file instantiates the template)");
	else if (l->instantiations)
		fprintf(out, " (the largest of the %d instantiations launched in the file)", l->instantiations);
	fputc('\n', out);
	bool over_static = false;
	for (int i = 1; i < l->noptions; i++)
		over_static |= l->options[i].over_static;
	if (over_static && l->promote_refusal)
		fprintf(out, "  static:   the tiles cannot move into dynamic shared memory past the static limit: %s\n",
			l->promote_refusal);
	if (ratio_known(l))
		fprintf(out, "  ratio:    %.0f flop per thread x %d threads / %ld B = %.1f flop per byte loaded\n",
			l->flops_per_thread, l->block_threads, kloop_tile_bytes(l), kloop_ratio(l));
	else
		fprintf(out, "  ratio:    unknown (%s)\n",
			l->flops_per_thread < 0 ? "a compute loop has no constant trip count"
			: !l->block_threads     ? "the block size is unknown"
						: "the tiles' size is unknown here");
	if (l->noptions > 0) {
		fprintf(out, "  %-14s %11s %10s %9s  %s\n", "plan", "smem/block", "blocks/SM", "warps/SM", "verdict");
		for (int i = 0; i < l->noptions; i++) {
			const struct plan_option *p = &l->options[i];
			char *name = option_name(p);
			char smem[32], blocks[32], warps[32];
			snprintf(smem, sizeof smem, p->smem >= 0 ? "%.1f KB" : "?", p->smem / 1024.0);
			/* (no threads, assumed or known: no count) */
			snprintf(blocks, sizeof blocks, p->blocks && p->warps ? "%d" : "?", p->blocks);
			snprintf(warps, sizeof warps, p->warps ? "%d" : "?", p->warps);
			fprintf(out, "  %-14s %11s %10s %9s  %s\n", name, smem, blocks, warps, p->verdict ? p->verdict : "");
			free(name);
		}
	}
	if (l->rewritten)
		fprintf(out, "  result:   pipelined: %s, %d stage%s%s%s%s%s\n\n", variant_name(l->variant), l->stages,
			l->stages == 1 ? "" : "s", l->plan_reason ? ": " : "", l->plan_reason ? l->plan_reason : "",
			l->plan_note ? "; " : "", l->plan_note ? l->plan_note : "");
	else
		fprintf(out, "  result:   not pipelined: %s\n\n", why_not(l) ? why_not(l) : "not planned");
}

static void report_pair_text(FILE *out, const struct launch_pair *p, const struct source *src, int arch)
{
	int line, col;
	source_line_col(src, p->call.begin, &line, &col);
	fprintf(out, "%s:%d:%d: launch of '%s' after '%s' on the same stream, planned for sm_%d\n", src->path, line, col,
		p->second, p->first, arch);
	if (p->rewritten && p->queue) {
		char *waits = queue_waits(p);
		fprintf(out, "  result:   one persistent launch with '%s' (a block of '%s' starts once %s): %s\n\n", p->first,
			p->second, waits, p->reason);
		free(waits);
	} else if (p->rewritten)
		fprintf(out, "  result:   overlapped (programmatic dependent launch; '%s' waits first): %s\n\n", p->second,
			p->reason);
	else
		fprintf(out, "  result:   kept as written: %s\n\n", pair_why_not(p) ? pair_why_not(p) : "not planned");
}

/* s as JSON can hold it: a byte that is not UTF-8 (in a file's name) becomes U+FFFD. */
static json_t *json_text(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	struct strbuf sb = {0};
	size_t len = strlen(s);
	for (size_t i = 0; i < len; i++) {
		size_t bad = utf8_invalid_at(s + i, len - i), good = bad == (size_t)-1 ? len - i : bad;
		sb_add(&sb, s + i, good);
		i += good;
		if (i < len)
			sb_puts(&sb, "\xef\xbf\xbd");
	}
	j = json_string(sb.data ? sb.data : "");
	free(sb.data);
	return j;
}

/* What every record starts with: Passed or Missed, where, the function, the architecture. */
static json_t *record_head(bool passed, const struct source *src, size_t at, const char *function, int arch)
{
	int line, col;
	source_line_col(src, at, &line, &col);
	json_t *o = json_object();
	json_object_set_new(o, "kind", json_string(passed ? "Passed" : "Missed"));
	json_object_set_new(o, "file", json_text(src->path));
	json_object_set_new(o, "line", json_integer(line));
	json_object_set_new(o, "column", json_integer(col));
	json_object_set_new(o, "function", json_string(function));
	json_object_set_new(o, "arch", json_integer(arch));
	return o;
}

static json_t *report_pair_record(const struct launch_pair *p, const struct source *src, int arch)
{
	json_t *o = record_head(p->rewritten, src, p->call.begin, p->second, arch);
	json_object_set_new(o, "launch_after", json_string(p->first));
	json_object_set_new(o, "overlap", json_boolean(p->rewritten && !p->queue));
	json_object_set_new(o, "persistent", json_boolean(p->rewritten && p->queue));
	if (p->rewritten && p->queue) {
		const char *why = p->waits_all;
		json_object_set_new(o, "waits_for", json_string(why ? "all" : "rows"));
		if (why)
			json_object_set_new(o, "waits_for_all_because", json_string(why));
		if (p->queue_registers > 0)
			json_object_set_new(o, "registers", json_integer(p->queue_registers));
	}
	json_object_set_new(o, "reason", json_string(p->rewritten ? p->reason : pair_why_not(p) ? pair_why_not(p) : "not planned"));
	return o;
}

static json_t *report_record(const struct kloop *l, const struct source *src, int arch)
{
	json_t *o = record_head(l->rewritten, src, l->loop.begin, l->function, arch);
	if (l->not_kloop) {
		json_object_set_new(o, "reason", json_string(why_not(l)));
		json_object_set_new(o, "kloop", json_false());
		return o;
	}
	if (l->rewritten) {
		json_object_set_new(o, "variant", json_string(variant_name(l->variant)));
		json_object_set_new(o, "stages", json_integer(l->stages));
		if (l->plan_reason)
			json_object_set_new(o, "reason", json_string(l->plan_reason));
	} else {
		json_object_set_new(o, "reason", json_string(why_not(l) ? why_not(l) : "not planned"));
	}
	if (l->plan_note)
		json_object_set_new(o, "note", json_string(l->plan_note));
	json_object_set_new(o, "block_threads", l->block_threads ? json_integer(l->block_threads) : json_null());
	json_object_set_new(o, "block_source", l->block_source ? json_string(l->block_source) : json_null());
	json_t *shape = json_null();
	if (l->block_dim[0])
		shape = json_pack("[iii]", l->block_dim[0], l->block_dim[1], l->block_dim[2]);
	json_object_set_new(o, "block_shape", shape);
	json_object_set_new(o, "registers", l->registers ? json_integer(l->registers) : json_null());
	/* (null: a size a template parameter or the launch sets) */
	json_object_set_new(o, "tile_bytes_per_stage", kloop_tile_bytes(l) >= 0 ? json_integer(kloop_tile_bytes(l)) : json_null());
	json_object_set_new(o, "shared_bytes_before", l->shared_bytes >= 0 ? json_integer(l->shared_bytes) : json_null());
	json_object_set_new(o, "flops_per_thread_per_tile", l->flops_per_thread >= 0 ? json_real(l->flops_per_thread) : json_null());
	json_object_set_new(o, "ratio_flop_per_byte", ratio_known(l) ? json_real(kloop_ratio(l)) : json_null());
	json_t *tiles = json_array();
	for (int i = 0; i < l->ntiles; i++) {
		json_t *t = json_object();
		json_object_set_new(t, "name", json_string(l->tiles[i].name));
		json_object_set_new(t, "element", json_string(l->tiles[i].elem_type));
		json_object_set_new(t, "bytes", tile_bytes(l, i) >= 0 ? json_integer(tile_bytes(l, i)) : json_null());
		json_array_append_new(tiles, t);
	}
	json_object_set_new(o, "tiles", tiles);
	json_object_set_new(o, "copies", json_integer(l->ncopies));
	json_t *plans = json_array();
	for (int i = 0; i < l->noptions; i++) {
		const struct plan_option *p = &l->options[i];
		json_t *x = json_object();
		char *name = option_name(p);
		json_object_set_new(x, "plan", json_string(name));
		free(name);
		json_object_set_new(x, "static_shared_bytes", p->smem >= 0 ? json_integer(p->smem) : json_null());
		json_object_set_new(x, "blocks_per_sm", p->blocks ? json_integer(p->blocks) : json_null());
		json_object_set_new(x, "warps_per_sm", p->warps ? json_integer(p->warps) : json_null());
		json_object_set_new(x, "limited_by", json_string(p->limiter));
		json_object_set_new(x, "verdict", json_string(p->verdict ? p->verdict : ""));
		json_array_append_new(plans, x);
	}
	json_object_set_new(o, "plans", plans);
	return o;
}

/* Whether s reads back from YAML as itself when written plain: an identifier (a kernel's name)
 * that YAML does not take for a boolean or null. */
static bool yaml_plain(const char *s)
{
	static const char *const words[] = {"null", "true", "false", "yes", "no", "on", "off", "y", "n", NULL};
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (const char *p = s; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_'))
			return false;
	for (const char *const *w = words; *w; w++)
		if (strcasecmp(s, *w) == 0)
			return false;
	return true;
}

/* s as a YAML scalar that reads back as s: plain where allowed and yaml_plain, else single-quoted
 * (a ' doubled); with a control character or a byte that is not UTF-8 (which single quotes
 * cannot hold), double-quoted with escapes. */
static void yaml_scalar(FILE *out, const char *s, bool plain_allowed)
{
	if (plain_allowed && yaml_plain(s)) {
		fputs(s, out);
		return;
	}
	bool utf8 = utf8_invalid_at(s, strlen(s)) == (size_t)-1, single = utf8;
	for (const char *p = s; *p && single; p++)
		single = (unsigned char)*p >= 0x20 && *p != 0x7f;
	fputc(single ? '\'' : '"', out);
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (single && c == '\'')
			fputs("''", out);
		else if (single)
			fputc(c, out);
		else if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f || (c >= 0x80 && !utf8))
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc(single ? '\'' : '"', out);
}

/* A record's message, whole, as its remark words it. */
char *record_message(json_t *rec, bool passed)
{
	const char *reason = json_string_value(json_object_get(rec, "reason"));
	const char *note = json_string_value(json_object_get(rec, "note"));
	const char *first = json_string_value(json_object_get(rec, "launch_after"));
	const char *function = json_string_value(json_object_get(rec, "function"));
	if (!reason)
		reason = "";
	if (first && json_is_true(json_object_get(rec, "persistent")))
		return xprintf("launches of '%s' and '%s' run as one persistent launch: %s", first, function, reason);
	if (first)
		return xprintf("launch %soverlapped with '%s' before it: %s", passed ? "" : "not ", first, reason);
	if (json_is_false(json_object_get(rec, "kloop")))
		return xprintf("loop not pipelined: %s", reason);
	if (!passed)
		return xprintf("K-loop not pipelined: %s", reason);
	json_int_t stages = json_integer_value(json_object_get(rec, "stages"));
	return xprintf("K-loop pipelined: %s, %lld stage%s%s%s%s%s", json_string_value(json_object_get(rec, "variant")),
		       (long long)stages, stages == 1 ? "" : "s", *reason ? ": " : "", reason, note ? "; " : "",
		       note ? note : "");
}

/* LLVM's optimization-record shape: `--- !Passed` / `--- !Missed`, Pass, Name, DebugLoc,
 * Function, Args as a list of one-key maps. Args starts with the message as a String (what
 * opt-viewer shows: the Args' values joined), then the record's keys, their values as JSON
 * (which YAML reads as flow scalars and flow collections). Names from the input are quoted as
 * YAML needs them. */
static void report_yaml(FILE *out, json_t *rec, const char *file)
{
	bool passed = strcmp(json_string_value(json_object_get(rec, "kind")), "Passed") == 0;
	bool launch = json_object_get(rec, "launch_after") != NULL;
	bool persistent = json_is_true(json_object_get(rec, "persistent"));
	fprintf(out, "--- !%s\nPass:            pipefy\nName:            %s\n", passed ? "Passed" : "Missed",
		launch ? (persistent ? "LaunchPersistent" : passed ? "LaunchOverlapped" : "LaunchNotOverlapped")
		: passed ? "KLoopPipelined"
			 : "KLoopNotPipelined");
	fputs("DebugLoc:        { File: ", out);
	yaml_scalar(out, file, false); /* (the name as it is: JSON's "file" holds only UTF-8) */
	fprintf(out, ", Line: %lld, Column: %lld }\nFunction:        ", json_integer_value(json_object_get(rec, "line")),
		json_integer_value(json_object_get(rec, "column")));
	const char *function = json_string_value(json_object_get(rec, "function"));
	yaml_scalar(out, function ? function : "", true);
	fputs("\nArgs:\n  - String:          ", out);
	char *message = record_message(rec, passed);
	yaml_scalar(out, message, false);
	free(message);
	fputc('\n', out);
	const char *key;
	json_t *v;
	json_object_foreach(rec, key, v) {
		if (!strcmp(key, "kind") || !strcmp(key, "file") || !strcmp(key, "line") || !strcmp(key, "column") ||
		    !strcmp(key, "function"))
			continue;
		if (json_is_array(v)) {
			size_t i;
			json_t *item;
			json_array_foreach(v, i, item) {
				char *s = json_dumps(item, JSON_COMPACT | JSON_PRESERVE_ORDER);
				fprintf(out, "  - %s: %s\n", key, s);
				free(s);
			}
			continue;
		}
		char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
		fprintf(out, "  - %s: %s\n", key, s);
		free(s);
	}
	fputs("...\n", out);
}

/* A loop's part of the report: its text to out, or (all not NULL) its record added to all. */
static void report_loop(FILE *out, json_t *all, const struct kloop *l, const struct source *src, int arch)
{
	if (all)
		json_array_append_new(all, report_record(l, src, arch));
	else
		report_text(out, l, src, arch);
}

/* A launch pair's part, likewise. */
static void report_pair(FILE *out, json_t *all, const struct launch_pair *p, const struct source *src, int arch)
{
	if (all)
		json_array_append_new(all, report_pair_record(p, src, arch));
	else
		report_pair_text(out, p, src, arch);
}

void emit_report(FILE *out, const char *format, const struct model *m, const struct source *src, int arch)
{
	json_t *all = json_array();
	bool text = strcmp(format, "text") == 0;
	for (int i = 0; i < m->nloops; i++)
		if (!m->loops[i].out_of_range)
			report_loop(out, text ? NULL : all, &m->loops[i], src, arch);
	for (int i = 0; i < m->npairs; i++)
		if (!m->pairs[i].out_of_range)
			report_pair(out, text ? NULL : all, &m->pairs[i], src, arch);
	if (strcmp(format, "json") == 0) {
		json_dumpf(all, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', out);
	} else if (strcmp(format, "yaml") == 0) {
		size_t i;
		json_t *rec;
		json_array_foreach(all, i, rec) report_yaml(out, rec, src->path);
	}
	json_decref(all);
}

/* ---- --dry-run and --output-replacements-xml ---- */

void emit_dry_run(FILE *out, const struct model *m, const struct source *src, bool werror)
{
	for (int i = 0; i < m->nloops; i++) {
		const struct kloop *l = &m->loops[i];
		if (l->rewritten)
			emit_diagnostic(out, src, l->loop.begin, werror ? "error" : "warning",
					"K-loop can be pipelined (%s, %d stage%s) [%s-Wpipefy]", variant_name(l->variant),
					l->stages, l->stages == 1 ? "" : "s", werror ? "-Werror," : "");
	}
	for (int i = 0; i < m->npairs; i++) {
		const struct launch_pair *p = &m->pairs[i];
		if (p->rewritten)
			emit_diagnostic(out, src, p->rewritten && p->queue ? p->first_call.begin : p->call.begin,
					werror ? "error" : "warning", "%s [%s-Wpipefy]",
					p->queue ? "launches can run as one persistent launch"
						 : "launch can overlap the one before it (programmatic dependent launch)",
					werror ? "-Werror," : "");
	}
}

static int edit_cmp(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq - y->seq;
}

void emit_replacements_json(FILE *out, const struct edits *e)
{
	struct edit *v = xmalloc((e->n ? e->n : 1) * sizeof *v);
	memcpy(v, e->v, e->n * sizeof *v);
	qsort(v, e->n, sizeof *v, edit_cmp);
	json_t *all = json_array();
	for (int i = 0; i < e->n; i++) {
		json_t *r = json_object();
		json_object_set_new(r, "offset", json_integer((json_int_t)v[i].offset));
		json_object_set_new(r, "length", json_integer((json_int_t)v[i].length));
		json_object_set_new(r, "replacement", json_string(v[i].text));
		json_array_append_new(all, r);
	}
	json_dumpf(all, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(all);
	free(v);
}

static struct edit *merged_edits(const struct edits *e, int *n);

size_t emit_shifted_position(const struct edits *e, size_t position)
{
	int n;
	struct edit *v = merged_edits(e, &n);
	size_t shift = 0;
	for (int i = 0; i < n; i++) {
		size_t len = strlen(v[i].text);
		if (v[i].offset + v[i].length <= position) {
			shift += len - v[i].length;
			continue;
		}
		if (v[i].offset < position && v[i].offset + len <= position)
			position = v[i].offset + len - (len > 0);
		break;
	}
	for (int i = 0; i < n; i++)
		free(v[i].text);
	free(v);
	return position + shift;
}

/* The same escaping clang-format uses: XML's five characters, and line breaks as &#10;; with
 * --cursor, its place in the output as clang-format says it. */
void emit_replacements_xml(FILE *out, const struct edits *e, long cursor)
{
	struct edit *v = xmalloc((e->n ? e->n : 1) * sizeof *v);
	memcpy(v, e->v, e->n * sizeof *v);
	qsort(v, e->n, sizeof *v, edit_cmp);
	fputs("<?xml version='1.0'?>\n<replacements xml:space='preserve' incomplete_format='false'>\n", out);
	if (cursor >= 0)
		fprintf(out, "<cursor>%zu</cursor>\n", emit_shifted_position(e, (size_t)cursor));
	for (int i = 0; i < e->n; i++) {
		fprintf(out, "<replacement offset='%zu' length='%zu'>", v[i].offset, v[i].length);
		for (const char *p = v[i].text; *p; p++) {
			switch (*p) {
			case '&': fputs("&amp;", out); break;
			case '<': fputs("&lt;", out); break;
			case '>': fputs("&gt;", out); break;
			case '\'': fputs("&apos;", out); break;
			case '"': fputs("&quot;", out); break;
			case '\n': fputs("&#10;", out); break;
			case '\r': fputs("&#13;", out); break;
			default: fputc(*p, out);
			}
		}
		fputs("</replacement>\n", out);
	}
	fputs("</replacements>\n", out);
	free(v);
}

/* The edits, sorted, with those at one offset (insertions, then at most one replacement) made
 * one: clang-apply-replacements refuses two insertions at one offset. */
static struct edit *merged_edits(const struct edits *e, int *n)
{
	struct edit *v = xmalloc((e->n ? e->n : 1) * sizeof *v);
	memcpy(v, e->v, e->n * sizeof *v);
	qsort(v, e->n, sizeof *v, edit_cmp);
	*n = 0;
	for (int i = 0; i < e->n; i++) {
		if (*n > 0 && v[*n - 1].offset == v[i].offset && v[*n - 1].length == 0) {
			struct edit *last = &v[*n - 1];
			last->text = xprintf("%s%s", last->text, v[i].text);
			last->length = v[i].length;
		} else {
			v[*n] = v[i];
			v[*n].text = xstrdup(v[i].text);
			++*n;
		}
	}
	return v;
}

void emit_fixes_header(FILE *out, const char *main_file)
{
	fputs("---\nMainSourceFile:  ", out);
	yaml_scalar(out, main_file, false);
	fputs("\nDiagnostics:\n", out);
}

void emit_fixes(FILE *out, const char *path, const char *build_dir, const struct edits *e, const char *message)
{
	int n;
	struct edit *v = merged_edits(e, &n);
	fputs("  - DiagnosticName:  pipefy\n    DiagnosticMessage:\n      Message:         ", out);
	yaml_scalar(out, message, false);
	fputs("\n      FilePath:        ", out);
	yaml_scalar(out, path, false);
	fprintf(out, "\n      FileOffset:      %zu\n      Replacements:%s\n", n ? v[0].offset : 0, n ? "" : " []");
	for (int i = 0; i < n; i++) {
		fputs("        - FilePath:        ", out);
		yaml_scalar(out, path, false);
		fprintf(out, "\n          Offset:          %zu\n          Length:          %zu\n          ReplacementText: ",
			v[i].offset, v[i].length);
		yaml_scalar(out, v[i].text, false);
		fputc('\n', out);
		free(v[i].text);
	}
	fputs("    Level:           Warning\n    BuildDirectory:  ", out);
	yaml_scalar(out, build_dir, false);
	fputc('\n', out);
	free(v);
}

/* ---- --diff ---- */

#define DIFF_CONTEXT 3

/* Print lines [first, last] (0-based) of text with a prefix; say when the last has no newline. */
static void diff_lines(FILE *out, char prefix, const char *text, size_t len)
{
	size_t b = 0;
	while (b < len) {
		const char *nl = memchr(text + b, '\n', len - b);
		size_t e = nl ? (size_t)(nl - text) + 1 : len;
		fprintf(out, "%c%.*s", prefix, (int)(e - b), text + b);
		if (!nl)
			fputs("\n\\ No newline at end of file\n", out);
		b = e;
	}
}

static int count_lines(const char *text, size_t len)
{
	int n = 0;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	return n + (len > 0 && text[len - 1] != '\n');
}

/* `--- a/NAME<TAB>`, as git and diff -u write it: the tab ends the name where diff -u's
 * timestamp starts, so patch -p1 (or git apply) takes a name with a space in it; a name with a
 * quote, a backslash or a control character is C-quoted, as both quote it. */
static void diff_header(FILE *out, const char *sign, const char *side, const char *path)
{
	bool quote = false;
	for (const char *p = path; *p; p++)
		quote |= *p == '"' || *p == '\\' || (unsigned char)*p < 0x20 || *p == 0x7f;
	fprintf(out, "%s %s%s", sign, quote ? "\"" : "", side);
	for (const char *p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (!quote || (c >= 0x20 && c != 0x7f && c != '"' && c != '\\'))
			fputc(c, out);
		else if (c == '\t' || c == '\n')
			fputs(c == '\t' ? "\\t" : "\\n", out);
		else
			fprintf(out, c == '"' || c == '\\' ? "\\%c" : "\\%03o", c);
	}
	fputs(quote ? "\"\t\n" : "\t\n", out);
}

/* Hunks straight from the edits: the lines they touch, old then new, with context; hunks
 * whose context would overlap are merged. Not a minimal diff, but an exact one. */
void emit_unified_diff(FILE *out, const struct source *src, const struct edits *e)
{
	if (e->n == 0)
		return;
	struct edit *v = xmalloc(e->n * sizeof *v);
	memcpy(v, e->v, e->n * sizeof *v);
	qsort(v, e->n, sizeof *v, edit_cmp);
	diff_header(out, "---", "a/", src->path);
	diff_header(out, "+++", "b/", src->path);
	long delta = 0; /* lines added so far */
	for (int i = 0; i < e->n;) {
		int first, last, col;
		source_line_col(src, v[i].offset, &first, &col);
		source_line_col(src, v[i].offset + v[i].length - (v[i].length > 0), &last, &col);
		int j = i + 1;
		for (; j < e->n; j++) {
			int l1, l2;
			source_line_col(src, v[j].offset, &l1, &col);
			if (l1 > last + 2 * DIFF_CONTEXT)
				break;
			source_line_col(src, v[j].offset + v[j].length - (v[j].length > 0), &l2, &col);
			if (l2 > last)
				last = l2;
		}
		/* the changed lines, whole, and their context */
		size_t core_b = src->line_start[first - 1];
		size_t core_e = last < src->nlines ? src->line_start[last] : src->len;
		int ctx_first = first - DIFF_CONTEXT < 1 ? 1 : first - DIFF_CONTEXT;
		int ctx_last = last + DIFF_CONTEXT > src->nlines ? src->nlines : last + DIFF_CONTEXT;
		size_t before_b = src->line_start[ctx_first - 1];
		size_t after_e = ctx_last < src->nlines ? src->line_start[ctx_last] : src->len;
		struct edits hunk = {.v = v + i, .n = j - i};
		char *fresh, *err;
		if (!edits_apply_range(&hunk, src->text, core_b, core_e, &fresh, &err)) {
			fprintf(out, "pipefy: internal error: %s\n", err);
			free(err);
			break;
		}
		int old_n = count_lines(src->text + before_b, after_e - before_b);
		int new_n = old_n - count_lines(src->text + core_b, core_e - core_b) + count_lines(fresh, strlen(fresh));
		fprintf(out, "@@ -%d,%d +%ld,%d @@\n", ctx_first, old_n, ctx_first + delta, new_n);
		diff_lines(out, ' ', src->text + before_b, core_b - before_b);
		diff_lines(out, '-', src->text + core_b, core_e - core_b);
		diff_lines(out, '+', fresh, strlen(fresh));
		diff_lines(out, ' ', src->text + core_e, after_e - core_e);
		delta += new_n - old_n;
		free(fresh);
		i = j;
	}
	free(v);
}
