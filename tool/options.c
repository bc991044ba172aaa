/* options.c: the command line, spelled the way clang-format spells it. */
#include "pipefy.h"

#include <errno.h>
#include <stddef.h>
#include <limits.h>
#include <stdlib.h>

const char options_usage[] =
	"usage: pipefy [options] [file.cu ...] [-- compiler args]\n"
	"\n"
	"Rewrites tiled CUDA K-loops (load tile, __syncthreads, compute, __syncthreads)\n"
	"into software-pipelined loops whose global loads overlap the compute.\n"
	"With no file, or '-', reads standard input and writes standard output.\n"
	"\n"
	"  -o FILE                 write the result to FILE (one input only)\n"
	"  -i                      edit the files in place\n"
	"  --assume-filename=NAME  name used for standard input in messages\n"
	"  --variant=V             auto (default), cp.async, ldg, tma (sm_90: tensor copies,\n"
	"                          the kernel's launches in the file go through a launcher),\n"
	"                          bulk (sm_90: each tile row one bulk copy), ws (sm_90:\n"
	"                          tma's copies issued by a producer warp added to the block),\n"
	"                          or ws-cp.async (sm_80: the producer warp's copies are\n"
	"                          cp.async, its signals named barriers);\n"
	"                          no-loads drops the copies (a benchmark's load-free ceiling,\n"
	"                          not a correct program)\n"
	"  --stages=N              shared-memory stages: cp.async, tma, bulk, ws 2..8,\n"
	"                          ws-cp.async 2..7, ldg 1 or 2\n"
	"                          (default: the planner's choice)\n"
	"  --launches=L            auto (default), overlap, early, keep or queue: a launch right\n"
	"                          after another on the same stream starts while that one finishes\n"
	"                          (sm_90: programmatic dependent launch; its kernel waits for it\n"
	"                          first); early: the one before lets it start after its K-loop;\n"
	"                          queue: both run as one persistent launch, the second kernel's\n"
	"                          blocks after every block of the first\n"
	"  --arch=sm_XX            target architecture (default sm_80, or the compile\n"
	"                          database's): occupancy and budgets\n"
	"  --block-size=N          threads per block when neither __launch_bounds__ nor a\n"
	"                          launch in the file says\n"
	"  --ptxas                 registers per thread from nvcc -Xptxas -v, for occupancy\n"
	"  --report[=FORMAT]       per-loop budget, ratio and choice on standard error:\n"
	"                          text (default), yaml or json\n"
	"  --rules=DIR             architecture and variant rules instead of the built-in ones\n"
	"  --cuda-path=DIR         CUDA toolkit (default $CUDA_HOME or /usr/local/cuda)\n"
	"  --no-cache              parse the file's #include preamble every time instead of\n"
	"                          through a cached precompiled header ($PIPEFY_CACHE_DIR,\n"
	"                          else $XDG_CACHE_HOME/pipefy or ~/.cache/pipefy)\n"
	"  -q                      no remarks on standard error\n"
	"  -R, --remarks           remarks even when reading standard input (where, as editor\n"
	"                          plugins expect, a successful run prints nothing there)\n"
	"  -n, --dry-run           a warning per loop that would change; nothing is written\n"
	"  --Werror                with --dry-run: errors, and exit status 1 (a CI gate)\n"
	"  --output-replacements-xml\n"
	"                          the edits as clang-format prints them, for editor plugins\n"
	"  --diff                  a unified diff instead of the whole file\n"
	"  --output-replacements-json\n"
	"                          the same edits as a JSON array\n"
	"  --lines=A:B             only loops that touch lines A..B (repeatable)\n"
	"  --offset=N --length=N   only loops that touch that byte range\n"
	"  -p BUILD_DIR            flags from BUILD_DIR/compile_commands.json (nvcc's are\n"
	"                          translated: -I, -isystem, -D, -U, -include, -std kept; the\n"
	"                          architecture used unless --arch is given; the rest dropped)\n"
	"  -I DIR, -D NAME[=V], -U NAME, -std=STD\n"
	"                          for the parser, as after --\n"
	"  -MF FILE                write FILE for make and ninja: the output depends on the\n"
	"                          input and every header it includes (cmake/Pipefy.cmake)\n"
	"  --help                  this text\n"
	"  --version               the version\n"
	"  -- ARGS                 further arguments for the parser (-I, -D, -std)\n"
	"\n"
	"Exit status: 0 success (changed or not), 1 bad input, parse error or I/O\n"
	"failure, 2 usage error.\n";

const char *variant_name(enum variant v)
{
	switch (v) {
	case VARIANT_CP_ASYNC: return "cp.async";
	case VARIANT_LDG: return "ldg";
	case VARIANT_NO_LOADS: return "no-loads";
	case VARIANT_TMA: return "tma";
	case VARIANT_BULK: return "bulk";
	case VARIANT_WS: return "ws";
	case VARIANT_WS_CP_ASYNC: return "ws-cp.async";
	default: return "auto";
	}
}

/* The value of "--name=value" or "--name value"; NULL when argv[*i] is another option. */
static const char *option_value(const char *name, int argc, char **argv, int *i, bool *missing)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
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

/* The options that only switch something on, by their short and long names. */
static bool *switch_flag(struct options *o, const char *a)
{
	static const struct {
		const char *name, *alias;
		size_t field;
	} switches[] = {
		{"-i", NULL, offsetof(struct options, in_place)},
		{"-q", NULL, offsetof(struct options, quiet)},
		{"-R", "--remarks", offsetof(struct options, remarks)},
		{"-h", "--help", offsetof(struct options, help)},
		{"--version", NULL, offsetof(struct options, version)},
		{"--output-replacements-xml", NULL, offsetof(struct options, replacements_xml)},
		{"--output-replacements-json", NULL, offsetof(struct options, replacements_json)},
		{"--diff", NULL, offsetof(struct options, diff)},
		{"-n", "--dry-run", offsetof(struct options, dry_run)},
		{"--Werror", NULL, offsetof(struct options, werror)},
		{"--no-cache", NULL, offsetof(struct options, no_cache)},
		{"--ptxas", NULL, offsetof(struct options, ptxas)},
	};
	for (size_t k = 0; k < sizeof switches / sizeof *switches; k++)
		if (strcmp(a, switches[k].name) == 0 || (switches[k].alias && strcmp(a, switches[k].alias) == 0))
			return (bool *)((char *)o + switches[k].field);
	return NULL;
}

int options_parse(struct options *o, int argc, char **argv, char **err)
{
	memset(o, 0, sizeof *o);
	o->arch = 80;
	o->length = -1;
	o->files = xmalloc((size_t)argc * sizeof *o->files);
	o->extra_args = xmalloc((size_t)(2 * argc) * sizeof *o->extra_args);
	*err = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		bool missing = false, *flag;
		if (strcmp(a, "--") == 0) {
			for (i++; i < argc; i++) {
				int n;
				if (!parser_option(argv[i], i + 1 < argc ? argv[i + 1] : NULL, &n)) {
					*err = xprintf("'%s' after --: only -I, -isystem, -iquote, -idirafter, -D, -U, -include, "
						       "-std= and -W options reach the parser",
						       argv[i]);
					return 2;
				}
				for (int k = 0; k < n; k++)
					o->extra_args[o->nextra++] = argv[i + k];
				i += n - 1;
			}
			break;
		} else if (strcmp(a, "-") == 0 || a[0] != '-') {
			o->files[o->nfiles++] = a;
		} else if (strcmp(a, "-o") == 0) {
			if (i + 1 >= argc) {
				*err = xstrdup("-o needs a file name");
				return 2;
			}
			o->output = argv[++i];
		} else if ((flag = switch_flag(o, a))) {
			*flag = true;
		} else if ((v = option_value("--lines", argc, argv, &i, &missing))) {
			int first, last;
			char tail;
			if (o->nlines == 16) {
				*err = xstrdup("at most 16 --lines ranges");
				return 2;
			}
			if (sscanf(v, "%d:%d%c", &first, &last, &tail) != 2 || first < 1 || last < first) {
				*err = xprintf("--lines takes FIRST:LAST (1-based, FIRST <= LAST), not '%s'", v);
				return 2;
			}
			o->lines[o->nlines++] = (struct line_range){first, last};
		} else if ((v = option_value("--offset", argc, argv, &i, &missing))) {
			long n;
			if (!parse_long(v, &n)) {
				*err = xprintf("--offset takes a byte offset, not '%s'", v);
				return 2;
			}
			o->offset = n;
		} else if ((v = option_value("--length", argc, argv, &i, &missing))) {
			long n;
			if (!parse_long(v, &n)) {
				*err = xprintf("--length takes a byte count, not '%s'", v);
				return 2;
			}
			o->length = n;
		} else if (strcmp(a, "--report") == 0) {
			o->report = "text";
		} else if (strncmp(a, "--report=", 9) == 0) {
			o->report = a + 9;
			if (strcmp(o->report, "text") != 0 && strcmp(o->report, "yaml") != 0 && strcmp(o->report, "json") != 0) {
				*err = xprintf("--report takes text, yaml or json, not '%s'", o->report);
				return 2;
			}
		} else if ((v = option_value("--rules", argc, argv, &i, &missing))) {
			o->rules_dir = v;
		} else if ((v = option_value("--block-size", argc, argv, &i, &missing))) {
			if (!parse_int(v, &o->block_size) || o->block_size < 1 || o->block_size > 1024) {
				*err = xprintf("--block-size must be 1..1024, not '%s'", v);
				return 2;
			}
		} else if ((v = option_value("--assume-filename", argc, argv, &i, &missing))) {
			o->assume_filename = v;
		} else if ((v = option_value("--cuda-path", argc, argv, &i, &missing))) {
			o->cuda_path = v;
		} else if ((v = option_value("--variant", argc, argv, &i, &missing))) {
			if (strcmp(v, "auto") == 0)
				o->variant = VARIANT_AUTO;
			else if (strcmp(v, "cp.async") == 0 || strcmp(v, "cpasync") == 0)
				o->variant = VARIANT_CP_ASYNC;
			else if (strcmp(v, "ldg") == 0)
				o->variant = VARIANT_LDG;
			else if (strcmp(v, "no-loads") == 0)
				o->variant = VARIANT_NO_LOADS;
			else if (strcmp(v, "tma") == 0)
				o->variant = VARIANT_TMA;
			else if (strcmp(v, "bulk") == 0)
				o->variant = VARIANT_BULK;
			else if (strcmp(v, "ws") == 0)
				o->variant = VARIANT_WS;
			else if (strcmp(v, "ws-cp.async") == 0)
				o->variant = VARIANT_WS_CP_ASYNC;
			else {
				*err = xprintf("unknown variant '%s' (auto, cp.async, ldg, tma, bulk, ws, ws-cp.async)", v);
				return 2;
			}
		} else if ((v = option_value("--launches", argc, argv, &i, &missing))) {
			if (strcmp(v, "auto") == 0)
				o->launches = LAUNCHES_AUTO;
			else if (strcmp(v, "overlap") == 0)
				o->launches = LAUNCHES_OVERLAP;
			else if (strcmp(v, "early") == 0)
				o->launches = LAUNCHES_EARLY;
			else if (strcmp(v, "keep") == 0)
				o->launches = LAUNCHES_KEEP;
			else if (strcmp(v, "queue") == 0)
				o->launches = LAUNCHES_QUEUE;
			else {
				*err = xprintf("unknown --launches '%s' (auto, overlap, early, keep, queue)", v);
				return 2;
			}
		} else if ((v = option_value("--stages", argc, argv, &i, &missing))) {
			if (!parse_int(v, &o->stages) || o->stages < 1 || o->stages > 8) {
				*err = xprintf("--stages must be 1..8, not '%s'", v);
				return 2;
			}
		} else if ((v = option_value("-MF", argc, argv, &i, &missing))) {
			o->depfile = v;
		} else if ((v = option_value("-p", argc, argv, &i, &missing))) {
			o->compile_db = v;
		} else if ((a[1] == 'I' || a[1] == 'D' || a[1] == 'U') && a[2]) {
			o->extra_args[o->nextra++] = a; /* -Idir, -DX=1: as clang-format takes them after -- */
		} else if ((strcmp(a, "-I") == 0 || strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0) && i + 1 < argc) {
			o->extra_args[o->nextra++] = a;
			o->extra_args[o->nextra++] = argv[++i];
		} else if (strncmp(a, "-std=", 5) == 0) {
			o->extra_args[o->nextra++] = a;
		} else if ((v = option_value("--arch", argc, argv, &i, &missing))) {
			o->arch_given = true;
			if (!parse_arch(v, &o->arch, &o->arch_suffix)) {
				*err = xprintf("--arch takes one of sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, "
					       "sm_100, sm_101, sm_103, sm_110, sm_120, sm_121 (an 'a' or 'f' suffix allowed), "
					       "not '%s'",
					       v);
				return 2;
			}
		} else {
			*err = missing ? xprintf("%s needs a value", a) : xprintf("unknown option '%s'", a);
			return 2;
		}
	}
	if (o->help || o->version)
		return 0;
	if ((o->dry_run || o->replacements_xml || o->replacements_json || o->diff) && (o->in_place || o->output)) {
		*err = xstrdup("--dry-run, --diff and --output-replacements-* write no file: drop -i and -o");
		return 2;
	}
	if (o->diff + o->replacements_xml + o->replacements_json > 1) {
		*err = xstrdup("--diff, --output-replacements-xml and --output-replacements-json are different outputs: "
			       "choose one");
		return 2;
	}
	if (o->werror && !o->dry_run) {
		*err = xstrdup("--Werror turns --dry-run's warnings into errors: it needs --dry-run");
		return 2;
	}
	if (o->stages && o->variant == VARIANT_AUTO) {
		*err = xstrdup("--stages needs --variant (with auto the planner chooses the stages)");
		return 2;
	}
	if (o->offset > 0 && o->length < 0)
		o->length = LONG_MAX - o->offset; /* to the end of the file, as clang-format does */
	if (o->quiet && o->remarks) {
		*err = xstrdup("-q and -R cannot be combined");
		return 2;
	}
	if (o->depfile && o->nfiles != 1) {
		*err = xstrdup("-MF takes one input file");
		return 2;
	}
	if (o->in_place && o->output) {
		*err = xstrdup("-i and -o cannot be combined");
		return 2;
	}
	if (o->output && o->nfiles > 1) {
		*err = xstrdup("-o takes one input file");
		return 2;
	}
	if (o->in_place) {
		for (int i = 0; i < o->nfiles; i++)
			if (strcmp(o->files[i], "-") == 0) {
				*err = xstrdup("-i cannot edit standard input");
				return 2;
			}
		if (o->nfiles == 0) {
			*err = xstrdup("-i needs a file");
			return 2;
		}
	}
	if (o->stages == 1 && o->variant != VARIANT_LDG) {
		*err = xstrdup("--stages=1 (a single shared stage) needs --variant=ldg");
		return 2;
	}
	if (o->stages && o->variant == VARIANT_LDG && o->stages > 2) {
		*err = xstrdup("--variant=ldg uses 1 or 2 stages");
		return 2;
	}
	return 0;
}

void options_free(struct options *o)
{
	free(o->files);
	free(o->extra_args);
	memset(o, 0, sizeof *o);
}
