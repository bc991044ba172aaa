/* pipefy.c: one input through every stage, text in and text out. */
#include "pipefy.h"

#include <stdlib.h>

static void report_diags(FILE *out, const struct parsed *p, const struct source *src, bool blocking)
{
	for (int i = 0; i < p->ndiags && out; i++) {
		const struct diag *d = &p->diags[i];
		const char *sev = blocking ? "error" : "warning";
		if (d->offset != (size_t)-1)
			emit_diagnostic(out, src, d->offset, sev, "%s", d->message);
		else
			fprintf(out, "%s:%d:%d: %s: %s\n", d->file, d->line, d->col, sev, d->message);
	}
}

struct result pipefy_transform(const struct source *src, const struct options *o, FILE *messages)
{
	struct result r = {0};
	struct parsed parsed;
	char *err = NULL;
	if (!parse_source(&parsed, src, o, &err)) {
		if (messages)
			fprintf(messages, "%s\n", err);
		free(err);
		parsed_free(&parsed);
		r.output = xstrndup(src->text, src->len);
		r.exit_code = 1;
		return r;
	}
	struct model model = {0};
	find_kloops(&model, &parsed, src);
	check_kloops(&model, src);
	plan_kloops(&model, o);
	struct edits edits = {0};
	rewrite_kloops(&model, src, &edits);
	for (int i = 0; i < model.nloops; i++)
		r.nrewritten += model.loops[i].rewritten;

	/* Errors block only the functions that hold them; with nothing rewritten they fail the run. */
	bool blocking = parsed.ndiags > 0 && r.nrewritten == 0;
	report_diags(messages, &parsed, src, blocking);
	if (!edits_apply(&edits, src, &r.output, &err)) {
		if (messages)
			fprintf(messages, "%s: error: internal: %s\n", src->path, err);
		free(err);
		r.output = xstrndup(src->text, src->len);
		r.exit_code = 1;
	} else if (blocking) {
		r.exit_code = 1;
	}
	if (!o->quiet && messages)
		emit_remarks(messages, &model, src);
	edits_free(&edits);
	model_free(&model);
	parsed_free(&parsed);
	return r;
}
