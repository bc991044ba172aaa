/* report.c: the run's report as one document: each file's part (emit_report's) joined into one
 * JSON array, one YAML stream, one text, or one HTML page (whose sections, code side by side and
 * a drawing of each schedule, are made here too). */
#include "pipefy.h"

#include <jansson.h>
#include <stdlib.h>

/* One JSON array of every part's records, in the order of the parts. */
static char *join_json(const char *const *parts, int n)
{
	json_t *all = json_array();
	for (int i = 0; i < n; i++) {
		json_t *part = parts[i] ? json_loads(parts[i], 0, NULL) : NULL;
		if (json_is_array(part))
			json_array_extend(all, part);
		json_decref(part);
	}
	char *s = json_dumps(all, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(all);
	char *doc = xprintf("%s\n", s ? s : "[]");
	free(s);
	return doc;
}

static char *join_html(const char *const *parts, int n);

char *report_join(const char *format, const char *const *parts, int n)
{
	if (strcmp(format, "json") == 0)
		return join_json(parts, n);
	if (strcmp(format, "html") == 0)
		return join_html(parts, n);
	struct strbuf sb = {0};
	for (int i = 0; i < n; i++)
		if (parts[i])
			sb_puts(&sb, parts[i]);
	return sb.data ? sb_take(&sb) : xstrdup("");
}

/* ---- --report=html ---- */

static void html_text(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(s[i], out);
		}
	}
}

static void html(FILE *out, const char *s)
{
	html_text(out, s, strlen(s));
}

/* Where [b, e) of the input lies in the output: past the edits before it, with those that
 * insert at b (a comment above a rewritten loop) and replace inside it. */
static void output_span(const struct edits *ed, size_t b, size_t e, size_t *ob, size_t *oe)
{
	long before = 0, inside = 0;
	for (int i = 0; i < ed->n; i++) {
		const struct edit *x = &ed->v[i];
		long delta = (long)strlen(x->text) - (long)x->length;
		if (x->offset < b && x->offset + x->length <= b)
			before += delta;
		else if (x->offset >= b && x->offset < e)
			inside += delta;
	}
	*ob = (size_t)((long)b + before);
	*oe = (size_t)((long)e + before + inside);
}

/* The text of [b, e) whole lines: from the start of b's line. */
static void code_block(FILE *out, const char *title, const char *text, size_t len, size_t b, size_t e)
{
	while (b > 0 && text[b - 1] != '\n')
		b--;
	if (e > len)
		e = len;
	fprintf(out, "<div class=\"code\"><h4>%s</h4><pre>", title);
	if (b < e)
		html_text(out, text + b, e - b);
	fputs("</pre></div>\n", out);
}

/* A JSON value in a table cell: a string as text, anything else as JSON. */
static void html_value(FILE *out, json_t *v)
{
	if (json_is_string(v)) {
		html(out, json_string_value(v));
		return;
	}
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	html(out, s ? s : "");
	free(s);
}

/* The record's facts: its keys and values, the plans as a table of their own. */
static void facts_table(FILE *out, json_t *rec)
{
	const char *key;
	json_t *v;
	fputs("<table class=\"facts\">\n", out);
	json_object_foreach(rec, key, v) {
		if (json_is_array(v))
			continue;
		fputs("<tr><th>", out);
		html(out, key);
		fputs("</th><td>", out);
		html_value(out, v);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
	json_t *plans = json_object_get(rec, "plans");
	if (!json_array_size(plans))
		return;
	fputs("<table class=\"plans\"><tr><th>plan</th><th>shared bytes</th><th>blocks/SM</th><th>warps/SM</th>"
	      "<th>limited by</th><th>verdict</th></tr>\n",
	      out);
	size_t i;
	json_t *p;
	static const char *const cols[] = {"plan", "static_shared_bytes", "blocks_per_sm", "warps_per_sm", "limited_by",
					   "verdict"};
	json_array_foreach(plans, i, p) {
		fputs("<tr>", out);
		for (size_t c = 0; c < sizeof cols / sizeof *cols; c++) {
			fputs("<td>", out);
			html_value(out, json_object_get(p, cols[c]));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* ---- the schedule's drawing ---- */

#define CELL_W 92
#define CELL_H 34
#define LEFT 96
#define TOP 48

struct schedule {
	int stages;    /* shared-memory stages */
	int lookahead; /* how many tiles ahead a copy is issued */
	int iters;     /* iterations drawn */
	bool regs;     /* a row of staging registers (ldg) */
	bool block_barriers; /* __syncthreads (else each stage's mbarriers) */
};

static void svg_cell(FILE *out, int col, int row, const char *cls, const char *text)
{
	int x = LEFT + col * CELL_W, y = TOP + row * CELL_H;
	fprintf(out, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", cls, x + 2, y + 2, CELL_W - 4,
		CELL_H - 4);
	fprintf(out, "<text x=\"%d\" y=\"%d\">%s</text>\n", x + CELL_W / 2, y + CELL_H / 2 + 4, text);
}

/* A copy issued (a triangle at the cell's left) or waited for (a bar). */
static void svg_mark(FILE *out, int col, int row, bool issue)
{
	int x = LEFT + col * CELL_W + 4, y = TOP + row * CELL_H + 6;
	if (issue)
		fprintf(out, "<path class=\"issue\" d=\"M%d %d l9 5 l-9 5 z\"/>\n", x, y);
	else
		fprintf(out, "<rect class=\"wait\" x=\"%d\" y=\"%d\" width=\"4\" height=\"%d\"/>\n", x, y, CELL_H - 12);
}

static void svg_barrier(FILE *out, int col, int rows, double at)
{
	int x = LEFT + (int)((col + at) * CELL_W);
	fprintf(out, "<line class=\"barrier\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", x, TOP - 4, x,
		TOP + rows * CELL_H + 4);
}

/* The tile stage s holds during iteration t (being copied in, or computed), or -1. */
static int tile_in_stage(const struct schedule *g, int t, int s)
{
	for (int k = t; k <= t + g->lookahead && k < g->iters; k++)
		if (k % g->stages == s && (k == t || !g->regs || g->stages > 1))
			return k;
	return -1;
}

static void svg_headings(FILE *out, const struct schedule *g, int rows)
{
	int main_end = g->iters - g->lookahead; /* iterations that still issue a copy */
	fprintf(out, "<text class=\"section\" x=\"%d\" y=\"14\">prologue</text>\n", LEFT + CELL_W / 2);
	fprintf(out, "<text class=\"section\" x=\"%d\" y=\"14\">main loop</text>\n",
		LEFT + CELL_W + main_end * CELL_W / 2);
	fprintf(out, "<text class=\"section\" x=\"%d\" y=\"14\">epilogue</text>\n",
		LEFT + (1 + main_end) * CELL_W + g->lookahead * CELL_W / 2);
	for (int t = 0; t < g->iters; t++)
		fprintf(out, "<text x=\"%d\" y=\"36\">t = %d</text>\n", LEFT + (t + 1) * CELL_W + CELL_W / 2, t);
	for (int r = 0; r < rows; r++) {
		char name[32];
		if (g->regs && r == 0)
			snprintf(name, sizeof name, "registers");
		else
			snprintf(name, sizeof name, "stage %d", r - g->regs);
		fprintf(out, "<text class=\"row\" x=\"4\" y=\"%d\">%s</text>\n", TOP + r * CELL_H + CELL_H / 2 + 4, name);
	}
	fprintf(out, "<line class=\"phase\" x1=\"%d\" y1=\"0\" x2=\"%d\" y2=\"%d\"/>\n", LEFT + CELL_W, LEFT + CELL_W,
		TOP + rows * CELL_H);
	fprintf(out, "<line class=\"phase\" x1=\"%d\" y1=\"0\" x2=\"%d\" y2=\"%d\"/>\n", LEFT + (1 + main_end) * CELL_W,
		LEFT + (1 + main_end) * CELL_W, TOP + rows * CELL_H);
}

/* Iteration t (column t + 1): which tile each stage holds, the copy it issues, the tile it
 * waits for, its barriers. */
static void svg_iteration(FILE *out, const struct schedule *g, int t, int rows)
{
	char text[48];
	int col = t + 1, next = t + g->lookahead;
	for (int s = 0; s < g->stages; s++) {
		int k = tile_in_stage(g, t, s);
		snprintf(text, sizeof text, k == t ? "compute %d" : g->regs ? "store %d" : "tile %d", k);
		svg_cell(out, col, s + g->regs, k < 0 ? "empty" : k == t ? "compute" : "flight", k < 0 ? "" : text);
	}
	if (g->regs) {
		snprintf(text, sizeof text, "load %d", next);
		svg_cell(out, col, 0, next < g->iters ? "flight" : "empty", next < g->iters ? text : "");
		if (next < g->iters) {
			svg_mark(out, col, 0, true);
			svg_mark(out, col, 1 + next % g->stages, false); /* stored after the compute */
		}
	} else {
		svg_mark(out, col, t % g->stages, false);
		if (next < g->iters)
			svg_mark(out, col, next % g->stages, true);
	}
	if (g->block_barriers && !g->regs)
		svg_barrier(out, col, rows, 0.18); /* the copies waited for are every thread's */
	if (g->regs && g->stages == 1)
		svg_barrier(out, col, rows, 0.82); /* one stage: read by all before it is stored over */
	if (g->block_barriers)
		svg_barrier(out, col, rows, 1.0);
}

static void svg_prologue(FILE *out, const struct schedule *g, int rows)
{
	char text[48];
	for (int s = 0; s < g->stages; s++) {
		bool filled = g->regs ? s == 0 : s < g->lookahead;
		snprintf(text, sizeof text, "tile %d", s);
		svg_cell(out, 0, s + g->regs, filled ? "flight" : "empty", filled ? text : "");
		if (filled)
			svg_mark(out, 0, s + g->regs, true);
	}
	if (g->regs)
		svg_cell(out, 0, 0, "empty", "");
	if (g->block_barriers)
		svg_barrier(out, 0, rows, 1.0);
}

static void schedule_svg(FILE *out, const char *variant, int stages)
{
	const struct variant_row *row = variant_named(variant);
	if (!row || stages < 1)
		return;
	struct schedule g = {stages, row->family == FAMILY_REGISTERS ? 1 : stages - 1, 0,
			     row->family == FAMILY_REGISTERS, row->family != FAMILY_TENSOR};
	if (g.lookahead < 1)
		g.lookahead = 1;
	g.iters = g.lookahead + 4;
	int rows = stages + g.regs, width = LEFT + (g.iters + 1) * CELL_W + 8, height = TOP + rows * CELL_H + 40;
	fprintf(out, "<svg class=\"schedule\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\" role=\"img\">\n<title>",
		width, height, width, height);
	fprintf(out, "%s, %d stage%s: tiles by iteration and stage</title>\n", variant, stages, stages == 1 ? "" : "s");
	svg_headings(out, &g, rows);
	svg_prologue(out, &g, rows);
	for (int t = 0; t < g.iters; t++)
		svg_iteration(out, &g, t, rows);
	int y = TOP + rows * CELL_H + 24;
	fprintf(out, "<path class=\"issue\" d=\"M%d %d l9 5 l-9 5 z\"/><text class=\"row\" x=\"%d\" y=\"%d\">copy issued%s"
		     "</text>\n<rect class=\"wait\" x=\"%d\" y=\"%d\" width=\"4\" height=\"12\"/><text class=\"row\" "
		     "x=\"%d\" y=\"%d\">%s</text>\n",
		LEFT, y - 9, LEFT + 14, y, row->producer_threads ? " (producer warp)" : "", LEFT + 190, y - 10, LEFT + 200, y,
		g.regs			     ? "registers stored into the stage"
		: g.block_barriers	     ? "copy waited for (wait_prior)"
		: row->id == VARIANT_WS_CP_ASYNC ? "copy waited for (the stage's named barrier)"
						     : "copy waited for (the stage's mbarrier)");
	if (g.block_barriers)
		fprintf(out, "<line class=\"barrier\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text class=\"row\" x=\"%d\" "
			     "y=\"%d\">__syncthreads()</text>\n",
			LEFT + 470, y - 12, LEFT + 470, y + 2, LEFT + 478, y);
	fputs("</svg>\n", out);
}

/* One section: where, the remark, the code before and after, the schedule, the numbers. */
static void html_section(FILE *out, json_t *rec, const struct source *src, size_t b, size_t e, const struct edits *ed,
			 const char *output)
{
	const char *kind = json_string_value(json_object_get(rec, "kind"));
	if (!kind)
		return;
	bool passed = strcmp(kind, "Passed") == 0;
	char *message = record_message(rec, passed);
	const char *function = json_string_value(json_object_get(rec, "function"));
	fprintf(out, "<section class=\"%s\">\n<h2>", passed ? "passed" : "missed");
	html(out, src->path);
	fprintf(out, ":%lld:%lld &#8212; <code>", json_integer_value(json_object_get(rec, "line")),
		json_integer_value(json_object_get(rec, "column")));
	html(out, function ? function : "");
	fputs("</code></h2>\n<p class=\"remark\">", out);
	html(out, message);
	fputs("</p>\n<div class=\"side\">\n", out);
	size_t ob, oe;
	output_span(ed, b, e, &ob, &oe);
	code_block(out, "as written", src->text, src->len, b, e);
	if (passed && output)
		code_block(out, "rewritten", output, strlen(output), ob, oe);
	fputs("</div>\n", out);
	const char *variant = json_string_value(json_object_get(rec, "variant"));
	if (passed && variant)
		schedule_svg(out, variant, (int)json_integer_value(json_object_get(rec, "stages")));
	facts_table(out, rec);
	fputs("</section>\n", out);
	free(message);
}

void report_html(FILE *out, const struct model *m, const struct source *src, int arch, const struct edits *e,
		 const char *output)
{
	char *text = NULL;
	size_t n;
	FILE *f = open_memstream(&text, &n);
	if (!f)
		return;
	emit_report(f, "json", m, src, arch);
	fclose(f);
	json_t *records = json_loads(text, 0, NULL);
	free(text);
	size_t r = 0;
	/* the records come in emit_report's order: the loops in range, then the pairs */
	for (int i = 0; i < m->nloops; i++)
		if (!m->loops[i].out_of_range)
			html_section(out, json_array_get(records, r++), src, m->loops[i].loop.begin, m->loops[i].loop.end, e,
				     output);
	for (int i = 0; i < m->npairs; i++)
		if (!m->pairs[i].out_of_range)
			html_section(out, json_array_get(records, r++), src, m->pairs[i].call.begin, m->pairs[i].call.end, e,
				     output);
	json_decref(records);
}

/* The page around the sections: self-contained (its style inline, nothing fetched). */
static char *join_html(const char *const *parts, int n)
{
	struct strbuf sb = {0};
	sb_puts(&sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<title>pipefy report</title>\n<style>\n"
		     "body { font-family: sans-serif; margin: 1.5em; color: #222; }\n"
		     "section { border: 1px solid #ccc; border-radius: 6px; padding: 0 1em 1em; margin: 1em 0; }\n"
		     "section.passed { border-left: 6px solid #2a8; } section.missed { border-left: 6px solid #c84; }\n"
		     "h2 { font-size: 1.05em; } .remark { font-weight: bold; }\n"
		     ".side { display: flex; gap: 1em; } .code { flex: 1; min-width: 0; }\n"
		     "pre { background: #f6f6f6; padding: .5em; overflow-x: auto; font-size: 12px; }\n"
		     "table { border-collapse: collapse; margin: .5em 0; font-size: 13px; }\n"
		     "td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }\n"
		     "svg text { font: 11px sans-serif; text-anchor: middle; } svg text.row { text-anchor: start; }\n"
		     "svg text.section { font-weight: bold; }\n"
		     "rect.compute { fill: #7c6; } rect.flight { fill: #bde; } rect.empty { fill: #f4f4f4; }\n"
		     "rect.wait { fill: #d33; } path.issue { fill: #14a; }\n"
		     "line.barrier { stroke: #333; stroke-dasharray: 4 3; } line.phase { stroke: #999; }\n"
		     "</style>\n</head>\n<body>\n<h1>pipefy report</h1>\n");
	bool any = false;
	for (int i = 0; i < n; i++)
		if (parts[i] && *parts[i])
			sb_puts(&sb, parts[i]), any = true;
	if (!any)
		sb_puts(&sb, "<p>No loops.</p>\n");
	sb_puts(&sb, "</body>\n</html>\n");
	return sb_take(&sb);
}
