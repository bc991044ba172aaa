/* options.c: the command line, spelled the way clang-format spells it and read the way getopt_long
 * reads one: short switches bundle (-qi), a short option's value may be attached (-oFILE), and a
 * long option may be shortened to any prefix that names it alone (--var=ldg). */
#include "pipefy.h"

#include <errno.h>
#include <stddef.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

/* --help, around the variants variant.c lists */
static const char usage_head[] =
	"usage: pipefy [options] [file.cu ...] [-- compiler args]\n"
	"\n"
	"Rewrites tiled CUDA K-loops (load tile, __syncthreads, compute, __syncthreads)\n"
	"into software-pipelined loops whose global loads overlap the compute.\n"
	"With no file, or '-', reads standard input and writes standard output.\n"
	"\n"
	"  -o FILE                 write the result to FILE (one input only)\n"
	"  -i                      edit the files in place\n"
	"  --assume-filename=NAME  name used for standard input in messages\n";

static const char usage_tail[] =
	"  --launches=L            auto (default), overlap, early, keep or queue: a launch right\n"
	"                          after another on the same stream starts while that one finishes\n"
	"                          (sm_90: programmatic dependent launch; its kernel waits for it\n"
	"                          first); early: the one before lets it start after its K-loop;\n"
	"                          queue: both run as one persistent launch, the second kernel's\n"
	"                          blocks after every block of the first\n"
	"  --arch=sm_XX            target architecture (default sm_80, or the compile\n"
	"                          database's): occupancy and budgets\n"
	"  --block-size=N|XxY[xZ]  the block (threads, or its shape) when neither\n"
	"                          __launch_bounds__ nor a launch in the file says\n"
	"  --ptxas                 registers per thread from nvcc -Xptxas -v, for occupancy\n"
	"  --report[=FORMAT]       per-loop budget, ratio and choice on standard error, one\n"
	"                          document for the run: text (default), yaml, json or html\n"
	"                          (a self-contained page: each loop's code before and after,\n"
	"                          its numbers, and a drawing of its schedule)\n"
	"  --report-file=FILE      the report to FILE instead, in the format its extension\n"
	"                          names: .yaml, .yml (.opt.yaml), .json or .html\n"
	"  --rules=DIR             architecture and variant rules instead of the built-in ones\n"
	"  --cuda-path=DIR         CUDA toolkit (default $CUDA_HOME or /usr/local/cuda); a\n"
	"                          DIR without include/cuda_runtime.h is a usage error\n"
	"  --no-cache              parse the file's #include preamble every time instead of\n"
	"                          through a cached precompiled header ($PIPEFY_CACHE_DIR,\n"
	"                          else $XDG_CACHE_HOME/pipefy or ~/.cache/pipefy)\n"
	"  -q                      no remarks on standard error; warnings (clang's parse\n"
	"                          errors among them: why a function was left) and errors\n"
	"                          still print\n"
	"  -R, --remarks           remarks even when reading standard input (where, as editor\n"
	"                          plugins expect, a successful run prints nothing there)\n"
	"  -n, --dry-run           a warning per loop that would change; nothing is written\n"
	"  --Werror                with --dry-run: errors, and exit status 1 (a CI gate)\n"
	"  --output-replacements-xml\n"
	"                          the edits as clang-format prints them, for editor plugins\n"
	"  --export-fixes=FILE     also write the edits to FILE as clang-tidy exports its fixes\n"
	"                          (YAML, absolute paths): clang-apply-replacements applies them\n"
	"  --diff                  a unified diff instead of the whole file\n"
	"  --output-replacements-json\n"
	"                          the same edits as a JSON array\n"
	"  --lines=A:B             only loops that touch lines A..B (repeatable)\n"
	"  --cursor=N              an editor's cursor (byte offset): where the edits move it\n"
	"                          is answered as clang-format answers, in a line of JSON\n"
	"                          before the output ({ \"Cursor\": N, ... }) or, with\n"
	"                          --output-replacements-xml, as <cursor>N</cursor>\n"
	"  --style=S, --fallback-style=S, --sort-includes[=BOOL]\n"
	"                          clang-format's, for its editor plugins: taken and ignored\n"
	"                          (pipefy has no style to choose)\n"
	"  --offset=N --length=N   only loops that touch that byte range\n"
	"  -j N, --jobs=N          rewrite N files at once, in processes of their own;\n"
	"                          messages, outputs and the exit status are those of a run\n"
	"                          without -j, in the files' order (0: one a processor)\n"
	"  -p BUILD_DIR            flags from BUILD_DIR/compile_commands.json (nvcc's are\n"
	"                          translated: -I, -isystem, -D, -U, -include, -std kept; the\n"
	"                          architecture used unless --arch is given; the rest dropped;\n"
	"                          response files, --options-file F, -optf F and @F, read)\n"
	"  -I DIR, -D NAME[=V], -U NAME, -std=STD\n"
	"                          for the parser, as after --\n"
	"  -MF FILE                write FILE for make and ninja: the output depends on the\n"
	"                          input and every header it includes (cmake/Pipefy.cmake);\n"
	"                          the target is -o's file (-i: the file edited)\n"
	"  -MT TARGET              the target -MF's file names instead: standard output has\n"
	"                          no name, so -MF without -o or -i needs -MT\n"
	"  --help                  this text\n"
	"  --version               the version\n"
	"  --list-variants         the variants, one a line: name, oldest architecture, stages,\n"
	"                          family\n"
	"  -- ARGS                 further arguments for the parser (-I, -D, -std)\n"
	"\n"
	"Short options bundle (-qi) and take their value attached (-oFILE); a long option\n"
	"may be shortened to any prefix that names it alone (--var=ldg). clang-format's\n"
	"options also take its one-dash spelling (-lines=3:9, -cursor 120, -style file).\n"
	"With standard input and output, any failure writes the input back unchanged.\n"
	"\n"
	"A run over several files, or a --dry-run, ends with a summary on standard error\n"
	"(not under -q): 'pipefy: 3 files: 12 loops pipelined, 5 left as written, 0 errors'\n"
	"(--dry-run: 'can be pipelined'). Loops left as written are those a remark says\n"
	"were not pipelined; errors are the files that failed (exit status 1: not read,\n"
	"transformed or written) plus --Werror's errors; parse errors are warnings and\n"
	"not counted.\n"
	"\n"
	"Exit status: 0 success (changed or not; parse errors are warnings and keep their\n"
	"functions as written), 1 bad input or I/O failure, 2 usage error.\n";

void options_usage(FILE *out, int rules_max)
{
	fputs(usage_head, out);
	variant_help(out, rules_max);
	fputs(usage_tail, out);
}

static bool parse_long(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno == ERANGE || v < 0)
		return false;
	*out = v;
	return true;
}

/* What may follow `--`: the parser's include, macro, language-standard and warning options.
 * Anything else (`-MD -MF FILE` writes a file; `-Xclang`, `-load` run other code) is refused. */
static bool parser_option(const char *a, const char *next, int *consumed)
{
	static const char *const joined[] = {"-I", "-D", "-U", "-isystem", "-iquote", "-idirafter", NULL};
	static const char *const separate[] = {"-I", "-D", "-U", "-isystem", "-iquote", "-idirafter", "-include", NULL};
	*consumed = 1;
	for (const char *const *s = separate; *s; s++)
		if (strcmp(a, *s) == 0) {
			*consumed = 2;
			return next != NULL;
		}
	for (const char *const *j = joined; *j; j++)
		if (strncmp(a, *j, strlen(*j)) == 0 && a[strlen(*j)])
			return true;
	if (strncmp(a, "-std=", 5) == 0)
		return true;
	/* warnings, but not -Wl, -Wa, -Wp, which hand options to other tools */
	return a[0] == '-' && a[1] == 'W' && a[2] && a[3] != ',';
}

/* sm_XX, with the architecture-specific suffixes nvcc knows (sm_90a, sm_100f). */
static bool parse_arch(const char *v, int *arch, char *suffix)
{
	static const int known[] = {70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 110, 120, 121};
	if (strncmp(v, "sm_", 3) != 0)
		return false;
	char *end;
	long n = strtol(v + 3, &end, 10);
	if (end == v + 3 || (*end && !((*end == 'a' || *end == 'f') && end[1] == '\0')))
		return false;
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (known[i] == n) {
			*arch = (int)n;
			*suffix = *end;
			return true;
		}
	return false;
}

static bool parse_int(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < -1000000 || v > 1000000)
		return false;
	*out = (int)v;
	return true;
}

/* ---- each option's value: NULL when taken, else the usage error ---- */

typedef char *(*option_setter)(struct options *o, const char *v);

static char *set_lines(struct options *o, const char *v)
{
	int first, last;
	char tail;
	if (o->nlines == 16)
		return xstrdup("at most 16 --lines ranges");
	if (sscanf(v, "%d:%d%c", &first, &last, &tail) != 2 || first < 1 || last < first)
		return xprintf("--lines takes FIRST:LAST (1-based, FIRST <= LAST), not '%s'", v);
	o->lines[o->nlines++] = (struct line_range){first, last};
	return NULL;
}

static char *set_cursor(struct options *o, const char *v)
{
	return parse_long(v, &o->cursor) ? NULL : xprintf("--cursor takes a byte offset, not '%s'", v);
}

/* --sort-includes[=true|false]: a switch of clang-format's, taken and ignored. */
static char *set_sort_includes(struct options *o, const char *v)
{
	if (v && strcmp(v, "true") != 0 && strcmp(v, "false") != 0 && strcmp(v, "1") != 0 && strcmp(v, "0") != 0)
		return xprintf("--sort-includes takes true or false, not '%s'", v);
	o->sort_includes = !v || strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
	return NULL;
}

static char *set_offset(struct options *o, const char *v)
{
	return parse_long(v, &o->offset) ? NULL : xprintf("--offset takes a byte offset, not '%s'", v);
}

static char *set_length(struct options *o, const char *v)
{
	return parse_long(v, &o->length) ? NULL : xprintf("--length takes a byte count, not '%s'", v);
}

static char *set_report(struct options *o, const char *v)
{
	o->report = v ? v : "text";
	if (strcmp(o->report, "text") != 0 && strcmp(o->report, "yaml") != 0 && strcmp(o->report, "json") != 0 &&
	    strcmp(o->report, "html") != 0)
		return xprintf("--report takes text, yaml, json or html, not '%s'", o->report);
	return NULL;
}

/* Whether name ends in suffix. */
static bool ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);
	return n > k && strcmp(name + n - k, suffix) == 0;
}

/* --report-file=FILE: its format is its extension's, as clang's -foptimization-record-file. */
static char *set_report_file(struct options *o, const char *v)
{
	o->report_file = v;
	o->report_file_format = ends_with(v, ".json")				  ? "json"
				: ends_with(v, ".yaml") || ends_with(v, ".yml") ? "yaml"
				: ends_with(v, ".html") || ends_with(v, ".htm") ? "html"
										: NULL;
	if (!o->report_file_format)
		return xprintf("--report-file: the format is the name's extension: .yaml, .yml, .json or .html, not '%s'", v);
	return NULL;
}

static char *set_jobs(struct options *o, const char *v)
{
	if (!parse_int(v, &o->jobs) || o->jobs < 0 || o->jobs > 1024)
		return xprintf("-j takes a number of processes, 0..1024 (0: one a processor), not '%s'", v);
	if (o->jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		o->jobs = n > 0 ? (int)n : 1;
	}
	return NULL;
}

/* N, or a shape XxY or XxYxZ (`32x8`), of 1..1024 threads. */
static char *set_block_size(struct options *o, const char *v)
{
	int dims[3] = {1, 1, 1}, n = 0;
	const char *p = v;
	for (; n < 3; n++) {
		char *end;
		long d = strtol(p, &end, 10);
		if (end == p || d < 1 || d > 1024 || (*end && *end != 'x'))
			break;
		dims[n] = (int)d;
		p = end + (*end == 'x');
		if (!*end) {
			n++;
			break;
		}
	}
	long threads = (long)dims[0] * dims[1] * dims[2];
	if (n == 0 || *p || p[-1] == 'x' || threads > 1024)
		return xprintf("--block-size must be N or XxY[xZ], 1..1024 threads, not '%s'", v);
	o->block.threads = (int)threads;
	memcpy(o->block.dims, dims, sizeof dims);
	return NULL;
}

static char *set_variant(struct options *o, const char *v)
{
	const struct variant_row *row = variant_named(v);
	if (row) {
		o->variant = row->id;
		return NULL;
	}
	struct strbuf names = {0};
	int n;
	const struct variant_row *rows = variant_rows(&n);
	for (int i = 0; i < n; i++)
		if (rows[i].listed)
			sb_printf(&names, "%s%s", names.len ? ", " : "", rows[i].name);
	char *msg = xprintf("unknown variant '%s' (%s)", v, names.data);
	free(names.data);
	return msg;
}

static char *set_launches(struct options *o, const char *v)
{
	static const struct {
		const char *name;
		enum launches_mode mode;
	} names[] = {{"auto", LAUNCHES_AUTO}, {"overlap", LAUNCHES_OVERLAP}, {"early", LAUNCHES_EARLY},
		     {"keep", LAUNCHES_KEEP}, {"queue", LAUNCHES_QUEUE}};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(v, names[i].name) == 0) {
			o->launches = names[i].mode;
			return NULL;
		}
	return xprintf("unknown --launches '%s' (auto, overlap, early, keep, queue)", v);
}

static char *set_stages(struct options *o, const char *v)
{
	if (!parse_int(v, &o->stages) || o->stages < 1 || o->stages > 8)
		return xprintf("--stages must be 1..8, not '%s'", v);
	return NULL;
}

static char *set_arch(struct options *o, const char *v)
{
	o->arch_given = true;
	if (!parse_arch(v, &o->arch, &o->arch_suffix))
		return xprintf("--arch takes one of sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, "
			       "sm_101, sm_103, sm_110, sm_120, sm_121 (an 'a' or 'f' suffix allowed), not '%s'",
			       v);
	return NULL;
}

/* ---- the option table, read the way getopt_long reads its own ---- */

enum takes { NO_VALUE, VALUE, OPTIONAL_VALUE }; /* an optional value only as --name=value */

/* A row: an option whose value (or a switch's true) is kept as given in a field of struct
 * options, or one a setter reads. */
#define KEPT(short_name, long_name, takes, field) {short_name, long_name, takes, offsetof(struct options, field), NULL}
#define READ(short_name, long_name, takes, setter) {short_name, long_name, takes, 0, setter}

static const struct option_def {
	char short_name;       /* 0: none */
	const char *long_name; /* without its "--"; NULL: none */
	enum takes takes;
	size_t field;          /* without a setter: the switch's bool, or the value's string, as an
				* offset into struct options */
	option_setter set;     /* a value that must be read: NULL when it is kept as given */
} option_defs[] = {
	/* where the result goes, and in what form */
	KEPT('o', NULL, VALUE, output),
	KEPT('i', NULL, NO_VALUE, in_place),
	KEPT(0, "assume-filename", VALUE, assume_filename),
	KEPT(0, "diff", NO_VALUE, diff),
	KEPT(0, "export-fixes", VALUE, export_fixes),
	KEPT(0, "output-replacements-xml", NO_VALUE, replacements_xml),
	KEPT(0, "output-replacements-json", NO_VALUE, replacements_json),
	/* what is rewritten, and how */
	READ(0, "variant", VALUE, set_variant),
	READ(0, "stages", VALUE, set_stages),
	READ(0, "launches", VALUE, set_launches),
	READ(0, "arch", VALUE, set_arch),
	READ(0, "block-size", VALUE, set_block_size),
	KEPT(0, "ptxas", NO_VALUE, ptxas),
	KEPT(0, "rules", VALUE, rules_dir),
	KEPT(0, "cuda-path", VALUE, cuda_path),
	/* which loops: an editor's range */
	READ(0, "lines", VALUE, set_lines),
	READ(0, "offset", VALUE, set_offset),
	READ(0, "length", VALUE, set_length),
	READ(0, "cursor", VALUE, set_cursor),
	/* the format of what is written, as clang-format's */
	KEPT(0, "style", VALUE, style),
	KEPT(0, "fallback-style", VALUE, fallback_style),
	READ(0, "sort-includes", OPTIONAL_VALUE, set_sort_includes),
	/* what is said */
	KEPT('q', NULL, NO_VALUE, quiet),
	KEPT('R', "remarks", NO_VALUE, remarks),
	READ(0, "report", OPTIONAL_VALUE, set_report),
	READ(0, "report-file", VALUE, set_report_file),
	KEPT('n', "dry-run", NO_VALUE, dry_run),
	KEPT(0, "Werror", NO_VALUE, werror),
	/* the run itself */
	READ('j', "jobs", VALUE, set_jobs),
	KEPT('p', NULL, VALUE, compile_db),
	KEPT(0, "no-cache", NO_VALUE, no_cache),
	KEPT('h', "help", NO_VALUE, help),
	KEPT(0, "version", NO_VALUE, version),
	KEPT(0, "list-variants", NO_VALUE, list_variants),
};
#undef KEPT
#undef READ
#define NDEFS (sizeof option_defs / sizeof *option_defs)

/* A switch is set; an option with a value gets v (NULL: none given). */
static char *apply(struct options *o, const struct option_def *d, const char *v)
{
	if (d->set)
		return d->set(o, v);
	if (d->takes == NO_VALUE)
		*(bool *)((char *)o + d->field) = true;
	else
		*(const char **)((char *)o + d->field) = v;
	return NULL;
}

/* Edits (insertions, deletions, substitutions, swaps of neighbours) from a to b[0, n). */
static size_t edit_distance(const char *a, const char *b, size_t n)
{
	size_t m = strlen(a);
	if (m > 40 || n > 40)
		return (size_t)-1;
	size_t d[41][41];
	for (size_t i = 0; i <= m; i++)
		for (size_t j = 0; j <= n; j++) {
			if (i == 0 || j == 0) {
				d[i][j] = i + j;
				continue;
			}
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[m][n];
}

/* The usage error for an unknown option a: with the long option its name (leading dashes
 * dropped, up to any '=') is a slip of (one or two edits, fewer than a third of its letters),
 * or, for one of the parser's, where it goes. */
static char *unknown_option(const char *a)
{
	const char *name = a + strspn(a, "-"), *eq = strchr(name, '=');
	size_t n = eq ? (size_t)(eq - name) : strlen(name), best = (size_t)-1;
	const char *near = NULL;
	for (size_t k = 0; k < NDEFS; k++) {
		size_t d = option_defs[k].long_name ? edit_distance(option_defs[k].long_name, name, n) : (size_t)-1;
		if (d < best || (near && d == best && strcmp(option_defs[k].long_name, near) < 0)) /* (ties: alphabetical) */
			best = d, near = option_defs[k].long_name;
	}
	if (near && best <= 2 && 3 * best < n)
		return xprintf("unknown option '%s'; did you mean '--%s%s'?", a, near, eq ? eq : "");
	int consumed;
	if (parser_option(a, "", &consumed))
		return xprintf("unknown option '%s' (a parser option: after --)", a);
	return xprintf("unknown option '%s'", a);
}

static int compare_strings(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* --name, --name=value or --name value, where name may be any prefix of one long option's
 * name (or the whole of one). */
static char *long_option(struct options *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *name = a + (a[1] == '-' ? 2 : 1), *eq = strchr(name, '=');
	size_t n = eq ? (size_t)(eq - name) : strlen(name);
	const struct option_def *d = NULL;
	int matches = 0;
	for (size_t k = 0; k < NDEFS; k++) {
		const char *l = option_defs[k].long_name;
		if (!l || strncmp(l, name, n) != 0)
			continue;
		if (l[n] == '\0') { /* whole: no other candidate counts */
			d = &option_defs[k], matches = 1;
			break;
		}
		d = &option_defs[k], matches++;
	}
	if (matches == 0)
		return unknown_option(a);
	if (matches > 1) { /* the candidates in alphabetical order */
		const char *names[NDEFS];
		size_t nnames = 0;
		for (size_t k = 0; k < NDEFS; k++)
			if (option_defs[k].long_name && strncmp(option_defs[k].long_name, name, n) == 0)
				names[nnames++] = option_defs[k].long_name;
		qsort(names, nnames, sizeof *names, compare_strings);
		struct strbuf sb = {0};
		sb_printf(&sb, "option '%.*s' is ambiguous:", (int)(n + 2), a);
		for (size_t k = 0; k < nnames; k++)
			sb_printf(&sb, "%s --%s", k ? "," : "", names[k]);
		return sb_take(&sb);
	}
	if (d->takes == NO_VALUE && eq)
		return xprintf("--%s takes no value", d->long_name);
	if (d->takes == VALUE && !eq) {
		if (*i + 1 >= argc)
			return xprintf("--%s needs a value", d->long_name);
		return apply(o, d, argv[++*i]);
	}
	return apply(o, d, eq ? eq + 1 : NULL);
}

/* -qi, -oFILE, -o FILE, -qoFILE: switches bundled, the last letter's value attached or next. */
static char *short_options(struct options *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	for (const char *c = a + 1; *c; c++) {
		const struct option_def *d = NULL;
		for (size_t k = 0; k < NDEFS && !d; k++)
			if (option_defs[k].short_name == *c)
				d = &option_defs[k];
		if (!d)
			return unknown_option(a);
		if (d->takes == NO_VALUE) {
			apply(o, d, NULL);
			continue;
		}
		if (c[1])
			return apply(o, d, c + 1);
		if (*i + 1 >= argc)
			return xprintf("-%c needs a value", *c);
		return apply(o, d, argv[++*i]);
	}
	return NULL;
}

/* clang-format's options spelled with one dash, as its editor plugins pass them (-lines 3:9,
 * -cursor=120, -style file, -assume-filename x.cu): read as the long options they name. */
static bool clang_format_spelling(const char *a)
{
	static const char *const names[] = {"lines", "cursor", "style", "fallback-style", "sort-includes", "offset",
					    "length", "assume-filename", "output-replacements-xml", "dry-run", "Werror",
					    "help", "version", NULL};
	const char *eq = strchr(a + 1, '=');
	size_t n = eq ? (size_t)(eq - a - 1) : strlen(a + 1);
	for (const char *const *k = names; *k; k++)
		if (strlen(*k) == n && strncmp(a + 1, *k, n) == 0)
			return true;
	return false;
}

/* -MF FILE, -MT TARGET (or -MFFILE), -I, -D, -U (joined or not) and -std=: the compiler's
 * spellings. False when a is none of them. */
static bool compiler_option(struct options *o, int argc, char **argv, int *i, char **err)
{
	const char *a = argv[*i];
	const char **dep = strncmp(a, "-MF", 3) == 0 ? &o->depfile : strncmp(a, "-MT", 3) == 0 ? &o->dep_target : NULL;
	if (dep) {
		if (a[3])
			*dep = a + 3;
		else if (*i + 1 < argc)
			*dep = argv[++*i];
		else
			*err = xprintf("%s needs a value", a);
		return true;
	}
	bool macro_or_include = a[1] == 'I' || a[1] == 'D' || a[1] == 'U';
	if ((macro_or_include && a[2]) || strncmp(a, "-std=", 5) == 0) {
		o->extra_args[o->nextra++] = a; /* -Idir, -DX=1: as clang-format takes them after -- */
		return true;
	}
	if (macro_or_include) {
		if (*i + 1 >= argc) {
			*err = xprintf("%s needs a value", a);
			return true;
		}
		o->extra_args[o->nextra++] = a;
		o->extra_args[o->nextra++] = argv[++*i];
		return true;
	}
	return false;
}

/* Everything after `--`: the parser's, where it is one of parser_option's. */
static char *parser_args(struct options *o, int argc, char **argv, int i)
{
	for (; i < argc; i++) {
		int n;
		if (!parser_option(argv[i], i + 1 < argc ? argv[i + 1] : NULL, &n))
			return xprintf("'%s' after --: only -I, -isystem, -iquote, -idirafter, -D, -U, -include, -std= and "
				       "-W options reach the parser",
				       argv[i]);
		for (int k = 0; k < n; k++)
			o->extra_args[o->nextra++] = argv[i + k];
		i += n - 1;
	}
	return NULL;
}

/* Options that do not go together, and values that need others. */
static char *check_combinations(const struct options *o)
{
	if ((o->dry_run || o->replacements_xml || o->replacements_json || o->diff) && (o->in_place || o->output))
		return xstrdup("--dry-run, --diff and --output-replacements-* write no file: drop -i and -o");
	if (o->diff + o->replacements_xml + o->replacements_json > 1)
		return xstrdup("--diff, --output-replacements-xml and --output-replacements-json are different outputs: "
			       "choose one");
	if (o->werror && !o->dry_run)
		return xstrdup("--Werror turns --dry-run's warnings into errors: it needs --dry-run");
	if (o->stages && o->variant == VARIANT_AUTO)
		return xstrdup("--stages needs --variant (with auto the planner chooses the stages)");
	if (o->report_file && o->report && strcmp(o->report, o->report_file_format) != 0)
		return xprintf("--report=%s and --report-file=%s name two formats: the file's is its extension's", o->report,
			       o->report_file);
	if (o->quiet && o->remarks)
		return xstrdup("-q and -R cannot be combined");
	if (o->dep_target && !o->depfile)
		return xstrdup("-MT names the target of -MF's file: it needs -MF");
	if (o->depfile && o->nfiles > 1) /* (none: standard input, one file) */
		return xstrdup("-MF takes one input file");
	if (o->depfile && !o->dep_target && !o->output && !o->in_place)
		return xstrdup("-MF: standard output has no name for make to use: give -o FILE, or -MT TARGET");
	if (o->in_place && o->output)
		return xstrdup("-i and -o cannot be combined");
	if (o->export_fixes && o->in_place)
		return xstrdup("--export-fixes exports the edits of files left as they are: drop -i");
	bool from_stdin = o->nfiles == 0;
	for (int i = 0; i < o->nfiles; i++)
		from_stdin |= strcmp(o->files[i], "-") == 0;
	if (o->export_fixes && from_stdin && !o->assume_filename)
		return xstrdup("--export-fixes names each file by its absolute path: standard input needs --assume-filename");
	if (o->output && o->nfiles > 1)
		return xstrdup("-o takes one input file");
	for (int i = 0; o->in_place && i < o->nfiles; i++)
		if (strcmp(o->files[i], "-") == 0)
			return xstrdup("-i cannot edit standard input");
	if (o->in_place && o->nfiles == 0)
		return xstrdup("-i needs a file");
	const struct variant_row *v = variant_row(o->variant);
	if (o->stages == 1 && v->min_stages > 1)
		return xstrdup("--stages=1 (a single shared stage) needs --variant=ldg");
	if (o->stages && v->max_stages && o->stages > v->max_stages)
		return xprintf("--variant=%s uses %d %s %d stages", v->name, v->min_stages,
			       v->max_stages == v->min_stages + 1 ? "or" : "to", v->max_stages);
	/* a toolkit named and not there would be replaced by another one without a word */
	const char *cuda = o->cuda_path ? cuda_find(o->cuda_path) : NULL;
	if (o->cuda_path && (!cuda || strcmp(cuda, o->cuda_path) != 0))
		return xprintf("--cuda-path: no CUDA toolkit at %s (no include/cuda_runtime.h there)", o->cuda_path);
	return NULL;
}

/* The first usage error is the one reported, but the rest of the line is still read: the
 * files, -o and -i say whether main must write standard input back (a filter). */
int options_parse(struct options *o, int argc, char **argv, char **err)
{
	memset(o, 0, sizeof *o);
	o->arch = 80;
	o->length = -1;
	o->cursor = -1;
	o->files = xmalloc((size_t)argc * sizeof *o->files);
	o->extra_args = xmalloc((size_t)(2 * argc) * sizeof *o->extra_args);
	*err = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *e = NULL;
		if (strcmp(a, "--") == 0) {
			e = parser_args(o, argc, argv, i + 1);
			i = argc;
		} else if (strcmp(a, "-") == 0 || a[0] != '-')
			o->files[o->nfiles++] = a;
		else if (a[1] == '-' || clang_format_spelling(a))
			e = long_option(o, argc, argv, &i);
		else if (!compiler_option(o, argc, argv, &i, &e))
			e = short_options(o, argc, argv, &i);
		if (e && !*err)
			*err = e;
		else
			free(e);
	}
	if (*err)
		return 2;
	if (o->help || o->version)
		return 0;
	if (o->offset > 0 && o->length < 0)
		o->length = LONG_MAX - o->offset; /* to the end of the file, as clang-format does */
	if (o->output && strcmp(o->output, "-") == 0)
		o->output = NULL; /* (`-o -`: standard output, as compilers read it) */
	*err = check_combinations(o);
	if (o->report_file)
		o->report = o->report_file_format;
	return *err ? 2 : 0;
}

void options_free(struct options *o)
{
	free(o->files);
	free(o->extra_args);
	memset(o, 0, sizeof *o);
}
