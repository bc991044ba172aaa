/* emit.c: diagnostics and remarks in the compiler's format, source line and caret included. */
#include "pipefy.h"

#include <stdlib.h>

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

void emit_diagnostic(FILE *out, const struct source *src, size_t offset, const char *severity, const char *fmt, ...)
{
	if (!out)
		return;
	int line, col;
	source_line_col(src, offset, &line, &col);
	fprintf(out, "%s:%d:%d: %s: ", src->path, line, col, severity);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	show_line(out, src, line, col);
}

void emit_remarks(FILE *out, const struct model *m, const struct source *src)
{
	for (int i = 0; i < m->nloops; i++) {
		const struct kloop *l = &m->loops[i];
		if (l->rewritten)
			emit_diagnostic(out, src, l->loop.begin, "remark", "K-loop pipelined: %s, %d stages%s%s%s [pipefy]",
					variant_name(l->variant), l->stages, l->plan_note ? " (" : "",
					l->plan_note ? l->plan_note : "", l->plan_note ? ")" : "");
		else if (l->nrefusals > 0)
			emit_diagnostic(out, src, l->loop.begin, "remark", "K-loop not pipelined: %s [pipefy-missed]",
					l->refusals[0].reason);
	}
}
