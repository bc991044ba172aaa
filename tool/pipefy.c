/* pipefy.c: one input through every stage, text in and text out. */
#include "pipefy.h"

#include <signal.h>
#include <stdlib.h>
#include <time.h>

/* The parser's errors, as warnings: pipefy leaves every function that holds one as it is, and
 * the file is nvcc's to judge (nvcc takes some that clang does not), so they never fail a
 * build step. */
static void report_diags(FILE *out, const struct parsed *p, const struct source *src)
{
	for (int i = 0; i < p->ndiags && out; i++) {
		const struct diag *d = &p->diags[i];
		const char *sev = "warning";
		if (d->offset != (size_t)-1)
			emit_diagnostic(out, src, d->offset, sev, "%s", d->message);
		else
			fprintf(out, "%s:%d:%d: %s: %s\n", d->file, d->line, d->col, sev, d->message);
	}
}

/* PIPEFY_TIME_REPORT=1: each stage's wall time on standard error, as clang's -ftime-report
 * (what `make tool-speed` breaks a run into). */
static void lap(const char *stage)
{
	static struct timespec last;
	static int on = -1;
	if (on < 0)
		on = getenv("PIPEFY_TIME_REPORT") != NULL;
	if (!on)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (stage)
		fprintf(stderr, "pipefy: time: %-10s %7.1f ms\n", stage,
			(now.tv_sec - last.tv_sec) * 1e3 + (now.tv_nsec - last.tv_nsec) / 1e6);
	last = now;
}

struct result pipefy_transform(const struct source *src, const struct options *o, FILE *messages)
{
	struct result r = {0};
	struct parsed parsed = {0};
	/* fault injection for the test of main.c's crash handling; never set in normal use */
	if (test_break("crash"))
		raise(SIGSEGV);
	struct rules rules;
	char *err = NULL;
	lap(NULL);
	if (!rules_load(&rules, o->rules_dir, &err) || !parse_source(&parsed, src, o, &err)) {
		/* nothing can be done: the input goes back unchanged */
		if (messages)
			fprintf(messages, "%s\n", err);
		free(err);
		parsed_free(&parsed);
		r.output = xstrndup(src->text, src->len);
		r.exit_code = 1;
		return r;
	}
	if (parsed.cache_warning && messages)
		fprintf(messages, "%s\n", parsed.cache_warning);
	/* from here on, the architecture is the one parsed for (the compile database may say) */
	struct options effective = *o;
	effective.arch = parsed.arch;
	o = &effective;
	if (!rules_arch(&rules, o->arch) && messages)
		fprintf(messages, "pipefy: warning: no rules for sm_%d: occupancy is not checked\n", o->arch);
	if (o->depfile) {
		r.deps = parse_inclusions(&parsed);
	}
	lap("parse");
	struct model model = {.no_producers = o->variant != VARIANT_WS && o->variant != VARIANT_WS_CP_ASYNC && !o->report &&
					      !strstr(src->text, "variant=ws")};
	find_kloops(&model, &parsed, src);
	find_launches(&model, &parsed, src);
	find_launch_pairs(&model, src);
	lap("find");
	measure_kloops(&model, src, o);
	lap("measure");
	box_kloops(&model, src);
	lap("box");
	check_kloops(&model, src);
	check_launch_pairs(&model, src);
	if (o->launches == LAUNCHES_QUEUE)
		check_launch_queues(&model, src, o->arch);
	lap("check");
	if (o->launches == LAUNCHES_QUEUE)
		deps_launch_pairs(&model, src); /* (what each queued kernel may touch) */
	lap("deps");
	if (o->ptxas)
		measure_registers(&model, src, o, messages);
	plan_kloops(&model, o, &rules, src);
	plan_launch_pairs(&model, o, &rules); /* (a loop out of range keeps its launches) */
	lap("plan");
	struct edits edits = {0};
	bool applied = false;
	/* Rewrite, then check the output: a loop whose rewrite does not come back as its pipeline
	 * is refused and the rest rewritten again, until every rewritten loop passes. */
	for (int round = 0; round <= model.nloops * VARIANT_COUNT + model.npairs; round++) {
		edits_free(&edits);
		free(r.output);
		r.output = NULL;
		plan_launch_stages(&model); /* (again: validation may have refused a loop) */
		rewrite_kloops(&model, src, &edits);
		r.nrewritten = 0;
		for (int i = 0; i < model.nloops; i++)
			r.nrewritten += model.loops[i].rewritten;
		for (int i = 0; i < model.npairs; i++)
			r.nrewritten += model.pairs[i].rewritten;
		applied = edits_apply(&edits, src, &r.output, &err);
		lap("rewrite");
		bool done = !applied || r.nrewritten == 0 || validate_rewrite(&model, src, o, &edits, r.output, parsed.ndiags, parsed.pch_reused) == 0;
		lap("validate");
		if (done)
			break;
		/* (under auto, a loop whose variant failed is planned again without it) */
		for (int i = 0; i < model.nloops; i++)
			plan_fallback(&model.loops[i], o, &rules, src);
	}

	/* Errors block only the functions that hold them. */
	r.nerrors = parsed.ndiags;
	report_diags(messages, &parsed, src);
	if (!applied) {
		if (messages)
			fprintf(messages, "%s: error: internal: %s\n", src->path, err);
		free(err);
		free(r.output);
		r.output = xstrndup(src->text, src->len);
		r.exit_code = 1;
	}
	if (o->dry_run && messages)
		emit_dry_run(messages, &model, src, o->werror);
	else if (!o->quiet && messages)
		emit_remarks(messages, &model, src);
	emit_count(&model, &r.npipelined, &r.nleft);
	if (o->report) {
		size_t n;
		FILE *f = open_memstream(&r.report, &n);
		if (f && strcmp(o->report, "html") == 0)
			report_html(f, &model, src, o->arch, &edits, r.output);
		else if (f)
			emit_report(f, o->report, &model, src, o->arch);
		if (f)
			fclose(f);
	}
	lap("emit");
	if (r.exit_code == 0)
		r.edits = edits;
	else
		edits_free(&edits);
	model_free(&model);
	parsed_free(&parsed);
	lap("free");
	return r;
}
