/* args.c: the arguments clang parses the input with. The parse stage's first half: the CUDA
 * toolkit, the nvcc-compatibility prelude, include folders found beside the input, the
 * compile database's flags (translated from nvcc's), and the user's own after "--". */
#include "pipefy.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define COMPAT_DIR "/pipefy-compat"              /* searched before the system headers */
#define FALLBACK_DIR "/pipefy-compat-fallback"  /* searched after them: only if none has it */

/* Clang 19's __clang_cuda_runtime_wrapper.h includes these; CUDA 13 removed them. */
static const char *const removed_cuda_headers[] = {
	"texture_fetch_functions.h",
	"texture_indirect_functions.h",
	"surface_indirect_functions.h",
};
static const char removed_header_stub[] = "/* pipefy: stand-in for a header CUDA 13 removed */\n";

/* What nvcc's implicit includes and overloads give that clang 19's CUDA wrapper does not.
 * Each entry names the nvcc-ism it exists for; testdata/nvcc_*.cu needs every one. */
static const char nvcc_compat_prelude[] =
	"/* pipefy_nvcc_compat.h: for pipefy's parser only, never written into any output. */\n"
	"#pragma once\n"
	/* host min/max on ints and floats: nvcc's math_functions.hpp declares them for both
	 * sides, clang's wrapper for the device only (testdata/nvcc_host_math.cu) */
	"#define PIPEFY_MINMAX(T1, T2, R) \\\n"
	"  static inline __host__ R min(T1 a, T2 b) { return (R)a < (R)b ? (R)a : (R)b; } \\\n"
	"  static inline __host__ R max(T1 a, T2 b) { return (R)a > (R)b ? (R)a : (R)b; }\n"
	"PIPEFY_MINMAX(int, int, int)\n"
	"PIPEFY_MINMAX(unsigned int, unsigned int, unsigned int)\n"
	"PIPEFY_MINMAX(int, unsigned int, unsigned int)\n"
	"PIPEFY_MINMAX(unsigned int, int, unsigned int)\n"
	"PIPEFY_MINMAX(long, long, long)\n"
	"PIPEFY_MINMAX(unsigned long, unsigned long, unsigned long)\n"
	"PIPEFY_MINMAX(long long, long long, long long)\n"
	"PIPEFY_MINMAX(unsigned long long, unsigned long long, unsigned long long)\n"
	"PIPEFY_MINMAX(float, float, float)\n"
	"PIPEFY_MINMAX(double, double, double)\n"
	"PIPEFY_MINMAX(float, double, double)\n"
	"PIPEFY_MINMAX(double, float, double)\n"
	"#undef PIPEFY_MINMAX\n"
	/* host isfinite/isnan/isinf/signbit without <cmath> (same program); templates, so they
	 * never collide with <cmath>'s overloads when it is included */
	"template <typename T> static inline __host__ bool isfinite(T x) { return __builtin_isfinite(x); }\n"
	"template <typename T> static inline __host__ bool isnan(T x) { return __builtin_isnan(x); }\n"
	"template <typename T> static inline __host__ bool isinf(T x) { return __builtin_isinf(x); }\n"
	"template <typename T> static inline __host__ bool signbit(T x) { return __builtin_signbit(x); }\n"
	/* cache-hinted loads and stores on any scalar or vector type (sm_32_intrinsics.h): clang
	 * 19 has none of them (testdata/nvcc_cache_hints.cu); declarations suffice to parse */
	"template <typename T> __device__ T __ldcg(const T *p);\n"
	"template <typename T> __device__ T __ldca(const T *p);\n"
	"template <typename T> __device__ T __ldcs(const T *p);\n"
	"template <typename T> __device__ T __ldlu(const T *p);\n"
	"template <typename T> __device__ T __ldcv(const T *p);\n"
	"template <typename T> __device__ void __stwb(T *p, T v);\n"
	"template <typename T> __device__ void __stcg(T *p, T v);\n"
	"template <typename T> __device__ void __stcs(T *p, T v);\n"
	"template <typename T> __device__ void __stwt(T *p, T v);\n";

/* gcc's <omp.h> is not on clang's path (testdata/nvcc_openmp_host.cu): the OpenMP API's
 * declarations, found only when no real omp.h is. #pragma omp is ignored without -fopenmp. */
static const char omp_stub[] =
	"/* pipefy: the OpenMP runtime API, declared for parsing (no omp.h on clang's path) */\n"
	"#pragma once\n"
	"extern \"C\" {\n"
	"typedef struct { void *_p[2]; } omp_lock_t;\n"
	"typedef struct { void *_p[2]; } omp_nest_lock_t;\n"
	"int omp_get_thread_num(void); int omp_get_num_threads(void); int omp_get_max_threads(void);\n"
	"void omp_set_num_threads(int); int omp_get_num_procs(void); int omp_in_parallel(void);\n"
	"int omp_get_level(void); void omp_set_dynamic(int); int omp_get_dynamic(void);\n"
	"double omp_get_wtime(void); double omp_get_wtick(void);\n"
	"void omp_init_lock(omp_lock_t *); void omp_destroy_lock(omp_lock_t *);\n"
	"void omp_set_lock(omp_lock_t *); void omp_unset_lock(omp_lock_t *); int omp_test_lock(omp_lock_t *);\n"
	"void omp_init_nest_lock(omp_nest_lock_t *); void omp_destroy_nest_lock(omp_nest_lock_t *);\n"
	"void omp_set_nest_lock(omp_nest_lock_t *); void omp_unset_nest_lock(omp_nest_lock_t *);\n"
	"}\n";

const char *cuda_find(const char *override)
{
	static char found[PATH_MAX];
	const char *candidates[] = {override, getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
	for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
		const char *c = candidates[i];
		if (!c || !*c)
			continue;
		snprintf(found, sizeof found, "%s/include/cuda_runtime.h", c);
		if (access(found, R_OK) == 0) {
			snprintf(found, sizeof found, "%s", c);
			return found;
		}
	}
	return NULL;
}

static void add(struct clang_args *a, const char *arg)
{
	*VEC_PUSH(a->v, a->n, a->cap) = arg;
}

static void add_owned(struct clang_args *a, char *arg)
{
	*VEC_PUSH(a->owned, a->nowned, a->capowned) = arg;
	add(a, arg);
}

static void add_file(struct clang_args *a, const char *path, const char *text, size_t len)
{
	*VEC_PUSH(a->files, a->nfiles, a->capfiles) = (struct CXUnsavedFile){path, text, (unsigned long)len};
}

/* nvcc takes `__shared__ alignas(16) float As[..];`; clang wants the C++11 attribute first
 * ("an attribute list cannot appear here"). The text clang parses has each such pair swapped,
 * `alignas(16) __shared__`, which keeps the length and every offset outside the pair: what
 * pipefy edits is still the file as written. NULL when the text has none. */
static char *attributes_first(const char *text, size_t len)
{
	static const char *const spaces[] = {"__shared__", "__constant__", "__device__", NULL};
	char *out = NULL;
	for (size_t i = 0; i < len; i++) {
		for (const char *const *sp = spaces; *sp; sp++) {
			size_t n = strlen(*sp);
			if (i + n > len || memcmp(text + i, *sp, n) != 0 || (i > 0 && (isalnum((unsigned char)text[i - 1]) ||
											text[i - 1] == '_')))
				continue;
			size_t ws = i + n;
			while (ws < len && (text[ws] == ' ' || text[ws] == '\t'))
				ws++;
			if (ws == i + n || ws + 8 > len || memcmp(text + ws, "alignas(", 8) != 0)
				continue;
			size_t e = ws + 8;
			int depth = 1;
			while (e < len && depth > 0 && text[e] != '\n') {
				depth += text[e] == '(' ? 1 : text[e] == ')' ? -1 : 0;
				e++;
			}
			if (depth != 0)
				continue;
			if (!out) {
				out = xmalloc(len + 1);
				memcpy(out, text, len);
				out[len] = '\0';
			}
			/* [i, i+n) keyword, [i+n, ws) blanks, [ws, e) alignas(...) -> alignas, blanks, keyword */
			size_t at = i;
			memcpy(out + at, text + ws, e - ws);
			at += e - ws;
			memcpy(out + at, text + i + n, ws - (i + n));
			at += ws - (i + n);
			memcpy(out + at, text + i, n);
			i = e - 1;
			break;
		}
	}
	return out;
}

/* Where the code after `at` resumes: blanks, comments and preprocessor lines skipped. */
static size_t next_code(const char *text, size_t len, size_t at)
{
	while (at < len) {
		if (isspace((unsigned char)text[at])) {
			at++;
		} else if (at + 1 < len && text[at] == '/' && text[at + 1] == '/') {
			while (at < len && text[at] != '\n')
				at++;
		} else if (at + 1 < len && text[at] == '/' && text[at + 1] == '*') {
			const char *end = strstr(text + at + 2, "*/");
			at = end ? (size_t)(end - text) + 2 : len;
		} else if (text[at] == '#') {
			while (at < len && text[at] != '\n')
				at += text[at] == '\\' && at + 1 < len ? 2 : 1;
		} else {
			break;
		}
	}
	return at;
}

/* nvcc warns of a `#pragma unroll` that precedes no loop ("must precede a loop") and compiles
 * on; clang makes it an error. The text clang parses has each such line blanked (its length
 * and every offset kept). text is changed in place (NULL: a copy is made where one is needed);
 * returns the text clang parses, NULL when none was blanked and none was given. */
static char *stray_unrolls_blanked(char *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (text[i] != '#' || (i > 0 && text[i - 1] != '\n' && !isspace((unsigned char)text[i - 1])))
			continue;
		size_t line = i;
		while (line > 0 && (text[line - 1] == ' ' || text[line - 1] == '\t'))
			line--;
		if (line > 0 && text[line - 1] != '\n')
			continue;
		size_t w = i + 1;
		while (w < len && (text[w] == ' ' || text[w] == '\t'))
			w++;
		if (len - w < 13 || memcmp(text + w, "pragma", 6) != 0)
			continue;
		w += 6;
		while (w < len && (text[w] == ' ' || text[w] == '\t'))
			w++;
		if (len - w < 6 || memcmp(text + w, "unroll", 6) != 0 ||
		    (w + 6 < len && (isalnum((unsigned char)text[w + 6]) || text[w + 6] == '_')))
			continue;
		size_t end = w;
		while (end < len && text[end] != '\n' && text[end] != '\\')
			end++;
		if (end < len && text[end] == '\\')
			continue; /* (continued on the next line: left to clang) */
		size_t next = next_code(text, len, end);
		static const char *const loops[] = {"for", "while", "do"};
		bool loop = false;
		for (size_t k = 0; k < 3 && !loop; k++) {
			size_t n = strlen(loops[k]);
			loop = next + n <= len && memcmp(text + next, loops[k], n) == 0 &&
			       (next + n == len || !(isalnum((unsigned char)text[next + n]) || text[next + n] == '_'));
		}
		if (loop || next >= len)
			continue;
		if (!out) {
			out = xmalloc(len + 1);
			memcpy(out, text, len);
			out[len] = '\0';
		}
		memset(out + i, ' ', end - i);
		i = end;
	}
	return out;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* An include folder found, not given: searched after everything given (-idirafter), and
 * listed in "file not found" errors. */
static void add_found_dir(struct clang_args *a, const char *dir)
{
	if (!is_dir(dir))
		return;
	for (int i = 0; i < a->nfound; i++)
		if (strcmp(a->found[i], dir) == 0)
			return;
	char *d = xstrdup(dir);
	*VEC_PUSH(a->found, a->nfound, a->capfound) = d;
	add(a, "-idirafter");
	add(a, d);
}

/* Include discovery for files given without a compile database: the input's folder and each
 * parent up to the repository root (the folder holding .git), each with the include/, src/
 * and common/ folders beside it. Without a repository, the input's folder alone. */
static void discover_includes(struct clang_args *a, const char *dir)
{
	char *root = NULL, *d = xstrdup(dir);
	for (int depth = 0; depth < 16; depth++) {
		char *git = xprintf("%s/.git", d);
		bool found = access(git, F_OK) == 0;
		free(git);
		if (found) {
			root = xstrdup(d);
			break;
		}
		char *slash = strrchr(d, '/');
		if (!slash || slash == d)
			break;
		*slash = '\0';
	}
	free(d);
	static const char *const beside[] = {"", "/include", "/src", "/common"};
	d = xstrdup(dir);
	for (;;) {
		for (size_t i = 0; i < sizeof beside / sizeof *beside; i++) {
			char *p = xprintf("%s%s", d, beside[i]);
			add_found_dir(a, p);
			free(p);
		}
		char *slash = strrchr(d, '/');
		if (!root || strcmp(d, root) == 0 || !slash || slash == d)
			break;
		*slash = '\0';
	}
	free(d);
	free(root);
}

/* ---- compile_commands.json: nvcc's flags, translated for clang ---- */

/* nvcc options that take a value as the next argument, to be skipped with it. */
static bool nvcc_takes_value(const char *f)
{
	static const char *const with_value[] = {
		"-o", "-gencode", "--generate-code", "-Xcompiler", "--compiler-options", "-Xptxas",
		"--ptxas-options", "-Xlinker", "--linker-options", "-ccbin", "--compiler-bindir",
		"-arch", "--gpu-architecture", "-code", "--gpu-code", "-maxrregcount", "-MF", "-MT",
		"-MQ", "-x", "--x", "-t", "--threads", "-Xnvlink", "-Xarchive", "-rdc",
		"--relocatable-device-code", "--output-file", "-odir"};
	for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
		if (strcmp(f, with_value[i]) == 0)
			return true;
	return false;
}

/* sm_XX from -arch=sm_90, --gpu-architecture=compute_90, -gencode arch=compute_90,code=sm_90 */
static int arch_of(const char *s)
{
	const char *p = strstr(s, "sm_");
	if (!p)
		p = strstr(s, "compute_");
	if (!p)
		return 0;
	p = strchr(p, '_') + 1;
	int v = atoi(p);
	return v >= 70 && v <= 200 ? v : 0;
}

static char *absolute_in(const char *dir, const char *path)
{
	return path[0] == '/' || !dir ? xstrdup(path) : xprintf("%s/%s", dir, path);
}

/* ---- response files: nvcc's --options-file F and -optf F, and @F ---- */

/* Arguments made here (a compile command's, with its response files' in their place). */
struct arglist {
	char **v;
	int n, cap;
};

static void arglist_free(struct arglist *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* text split as gcc splits an @file: white space separates arguments, '...' and "..." quote, and
 * a backslash outside single quotes keeps the character after it. */
static void split_response(struct arglist *out, const char *text)
{
	const char *p = text;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			return;
		struct strbuf arg = {0};
		char quote = 0;
		for (; *p && (quote || !isspace((unsigned char)*p)); p++) {
			if (quote && *p == quote)
				quote = 0;
			else if (!quote && (*p == '\'' || *p == '"'))
				quote = *p;
			else if (*p == '\\' && quote != '\'' && p[1])
				sb_add(&arg, ++p, 1);
			else
				sb_add(&arg, p, 1);
		}
		*VEC_PUSH(out->v, out->n, out->cap) = arg.data ? sb_take(&arg) : xstrdup("");
	}
}

#define RESPONSE_DEPTH 8

static bool expand_responses(struct arglist *out, char *const *v, int n, const char *dir, int depth, char **err);

/* The response file named path (relative to dir, where the compiler ran), its arguments
 * expanded in turn, at most RESPONSE_DEPTH files deep. */
static bool read_response(struct arglist *out, const char *path, const char *dir, int depth, char **err)
{
	char *full = absolute_in(dir, path);
	FILE *f = depth < RESPONSE_DEPTH ? fopen(full, "rb") : NULL;
	if (!f) {
		*err = depth < RESPONSE_DEPTH
			       ? xprintf("%s: error: cannot read this response file of the compile command: %s", full,
					 strerror(errno))
			       : xprintf("%s: error: response files nested more than %d deep", full, RESPONSE_DEPTH);
		free(full);
		return false;
	}
	struct strbuf sb = {0};
	char buf[4096];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0)
		sb_add(&sb, buf, got);
	fclose(f);
	free(full);
	struct arglist inner = {0};
	split_response(&inner, sb.data ? sb.data : "");
	free(sb.data);
	bool ok = expand_responses(out, inner.v, inner.n, dir, depth + 1, err);
	arglist_free(&inner);
	return ok;
}

/* v[0, n) with each response file read in its place: `--options-file F`, `-optf F` (or with
 * `=F`), `@F`. False, with *err, when one cannot be read. */
static bool expand_responses(struct arglist *out, char *const *v, int n, const char *dir, int depth, char **err)
{
	static const char *const names[] = {"--options-file", "-optf"};
	for (int i = 0; i < n; i++) {
		const char *file = v[i][0] == '@' && v[i][1] ? v[i] + 1 : NULL;
		for (size_t k = 0; !file && k < sizeof names / sizeof *names; k++) {
			size_t len = strlen(names[k]);
			if (strncmp(v[i], names[k], len) == 0 && v[i][len] == '=')
				file = v[i] + len + 1;
			else if (strcmp(v[i], names[k]) == 0 && i + 1 < n)
				file = v[++i];
		}
		if (file && !read_response(out, file, dir, depth, err))
			return false;
		if (!file)
			*VEC_PUSH(out->v, out->n, out->cap) = xstrdup(v[i]);
	}
	return true;
}

/* The command's arguments after the compiler's name, its response files read. */
static bool command_args(struct arglist *out, CXCompileCommand cmd, const char *dir, char **err)
{
	struct arglist raw = {0};
	unsigned n = clang_CompileCommand_getNumArgs(cmd);
	for (unsigned i = 1; i < n; i++) {
		CXString s = clang_CompileCommand_getArg(cmd, i);
		*VEC_PUSH(raw.v, raw.n, raw.cap) = xstrdup(clang_getCString(s));
		clang_disposeString(s);
	}
	bool ok = expand_responses(out, raw.v, raw.n, dir, 0, err);
	arglist_free(&raw);
	return ok;
}

/* nvcc's flags that clang reads the same way: a path (-I, -isystem, -include), made absolute,
 * or a value (-D, -U) written onto the flag. */
static const struct {
	const char *nvcc, *clang;
	bool path;
} nvcc_flags[] = {{"-I", "-I", true}, {"--include-path", "-I", true}, {"-isystem", "-isystem", true},
		  {"--system-include", "-isystem", true}, {"-include", "-include", true},
		  {"--pre-include", "-include", true}, {"-D", "-D", false}, {"--define-macro", "-D", false},
		  {"-U", "-U", false}, {"--undefine-macro", "-U", false}};

/* The value f gives the flag `flag` (`-Ix`, `-I x`, `--include-path=x`), next the argument after
 * f; *used_next when it is next. NULL when f is not that flag or has no value. */
static const char *flag_value(const char *f, const char *next, const char *flag, bool *used_next)
{
	size_t len = strlen(flag);
	if (strncmp(f, flag, len) != 0)
		return NULL;
	const char *v = f[len] == '=' ? f + len + 1 : f[len] ? (f[1] == '-' ? NULL : f + len) : next;
	if (v)
		*used_next = f[len] == '\0';
	return v;
}

/* Keep what clang reads the same way (-I, -isystem, -D, -U, -include, -std), make paths
 * absolute against the entry's directory, and drop the rest: code generation, host
 * compiler pass-through and nvcc's own switches mean nothing to a parse. */
static void translate_nvcc_flags(struct clang_args *a, const struct arglist *args, const char *dir, int *arch)
{
	for (int i = 0; i < args->n; i++) {
		const char *f = args->v[i];
		const char *next = i + 1 < args->n ? args->v[i + 1] : NULL;
		bool used_next = false, done = false;
		for (size_t k = 0; !done && k < sizeof nvcc_flags / sizeof *nvcc_flags; k++) {
			const char *v = flag_value(f, next, nvcc_flags[k].nvcc, &used_next);
			if (!v)
				continue;
			if (nvcc_flags[k].path) {
				add(a, nvcc_flags[k].clang);
				add_owned(a, absolute_in(dir, v));
			} else
				add_owned(a, xprintf("%s%s", nvcc_flags[k].clang, v));
			done = true;
		}
		if (!done && (strncmp(f, "-std=", 5) == 0 || strncmp(f, "--std=", 6) == 0)) {
			add_owned(a, xprintf("-std=%s", strchr(f, '=') + 1));
			done = true;
		} else if (!done && (strcmp(f, "-std") == 0 || strcmp(f, "--std") == 0) && next) {
			add_owned(a, xprintf("-std=%s", next));
			used_next = done = true;
		}
		/* relocatable device code: other files may call the file's device functions */
		const char *rdc = strncmp(f, "-rdc", 4) == 0 ? f + 4
				  : strncmp(f, "--relocatable-device-code", 25) == 0 ? f + 25 : NULL;
		if (!done && ((rdc && (strcmp(rdc, "=true") == 0 || (!*rdc && next && strcmp(next, "true") == 0))) ||
			      strcmp(f, "-dc") == 0 || strcmp(f, "--device-c") == 0 || strcmp(f, "-fgpu-rdc") == 0)) {
			add(a, "-fgpu-rdc");
			used_next = rdc && !*rdc;
			done = true;
		}
		if (!done) {
			/* everything else is dropped; an architecture is remembered for --arch */
			bool arch_flag = strncmp(f, "-arch", 5) == 0 || strncmp(f, "--gpu-architecture", 18) == 0 ||
					 strncmp(f, "-gencode", 8) == 0 || strncmp(f, "--generate-code", 15) == 0;
			const char *v = strchr(f, '=') ? f : nvcc_takes_value(f) ? next : NULL;
			if (arch_flag && v && !*arch)
				*arch = arch_of(v);
			used_next = !strchr(f, '=') && nvcc_takes_value(f);
		}
		if (used_next)
			i++;
	}
}

/* The database read before libclang sees it: libclang prints its own complaints to stderr and
 * tells "malformed" from "missing" by neither message nor error code. */
static bool compile_db_usable(const char *build_dir, char **err)
{
	char *path = xprintf("%s/compile_commands.json", build_dir);
	json_error_t je;
	json_t *db = NULL;
	if (access(path, R_OK) != 0)
		*err = xprintf("%s: error: no compile_commands.json there (CMake writes one with "
			       "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)",
			       build_dir);
	else if (!(db = json_load_file(path, JSON_REJECT_DUPLICATES, &je)))
		*err = xprintf("%s:%d:%d: error: not a compile database: %s", path, je.line, je.column, je.text);
	else if (!json_is_array(db))
		*err = xprintf("%s: error: not a compile database: the top level is not a list of commands", path);
	else if (json_array_size(db) == 0)
		*err = xprintf("%s: error: the compile database has no commands", path);
	for (size_t i = 0; db && json_is_array(db) && i < json_array_size(db) && !*err; i++) {
		json_t *e = json_array_get(db, i);
		json_t *args = json_object_get(e, "arguments");
		bool args_ok = json_is_array(args) && json_array_size(args) > 0;
		for (size_t j = 0; args_ok && j < json_array_size(args); j++)
			args_ok = json_is_string(json_array_get(args, j));
		if (!json_is_string(json_object_get(e, "directory")) || !json_is_string(json_object_get(e, "file")) ||
		    !(json_is_string(json_object_get(e, "command")) || args_ok))
			*err = xprintf("%s: error: command %zu of the compile database needs \"directory\", \"file\" "
				       "and \"command\" or \"arguments\"",
				       path, i + 1);
	}
	json_decref(db);
	free(path);
	return *err == NULL;
}

static bool args_from_compile_db(struct clang_args *a, const char *build_dir, const char *file, int *arch,
				 char **err)
{
	if (!compile_db_usable(build_dir, err))
		return false;
	CXCompilationDatabase_Error e;
	CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(build_dir, &e);
	if (e != CXCompilationDatabase_NoError) {
		*err = xprintf("%s: error: no compile_commands.json there (CMake writes one with "
			       "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)",
			       build_dir);
		return false;
	}
	char *abs = realpath(file, NULL);
	CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, abs ? abs : file);
	bool found = cmds && clang_CompileCommands_getSize(cmds) > 0;
	if (found) {
		CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
		CXString dir = clang_CompileCommand_getDirectory(cmd);
		struct arglist args = {0};
		found = command_args(&args, cmd, clang_getCString(dir), err);
		if (found)
			translate_nvcc_flags(a, &args, clang_getCString(dir), arch);
		arglist_free(&args);
		clang_disposeString(dir);
	} else
		*err = xprintf("%s: error: no entry in %s/compile_commands.json to take flags from", file, build_dir);
	if (cmds)
		clang_CompileCommands_dispose(cmds);
	clang_CompilationDatabase_dispose(db);
	free(abs);
	return found;
}

/* A header given as the input (kernels in .cuh files are common), by name or by its
 * #pragma once. */
static bool is_header(const struct source *src)
{
	static const char *const suffixes[] = {".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl"};
	const char *dot = strrchr(src->path, '.');
	for (size_t i = 0; dot && i < sizeof suffixes / sizeof *suffixes; i++)
		if (strcmp(dot, suffixes[i]) == 0)
			return true;
	for (const char *p = src->text; (p = strstr(p, "#pragma once")); p++)
		if (p == src->text || p[-1] == '\n')
			return true;
	return false;
}

bool args_build(struct clang_args *a, const struct source *src, const struct options *o, const char *source_dir,
		char **err)
{
	/* the compile database first: its architecture decides the parse's */
	struct clang_args db = {0};
	int db_arch = 0;
	if (o->compile_db && !args_from_compile_db(&db, o->compile_db, src->path, &db_arch, err)) {
		args_free(&db);
		return false;
	}
	a->arch = db_arch && !o->arch_given ? db_arch : o->arch;
	const char *cuda = cuda_find(o->cuda_path);
	if (is_header(src)) {
		/* clang ignores #pragma once in the main file, so a header that its own includes
		 * include again would be read twice. Parsed under another name, with its own path
		 * empty, the cycle ends where nvcc's would. */
		add_file(a, *VEC_PUSH(a->owned, a->nowned, a->capowned) = xprintf("%s.pipefy-main.cu", src->path),
			 src->text, src->len);
		const char *base = strrchr(src->path, '/');
		add_file(a, *VEC_PUSH(a->owned, a->nowned, a->capowned) =
				    xprintf("%s/%s", source_dir, base ? base + 1 : src->path),
			 "", 0);
	} else {
		add_file(a, src->path, src->text, src->len);
	}
	char *reordered = attributes_first(src->text, src->len);
	reordered = stray_unrolls_blanked(reordered, reordered ? reordered : src->text, src->len);
	if (reordered)
		a->files[0].Contents = *VEC_PUSH(a->owned, a->nowned, a->capowned) = reordered;
	add(a, "-x");
	add(a, "cuda");
	add(a, "--cuda-device-only");
	add_owned(a, xprintf("--cuda-gpu-arch=sm_%d", a->arch >= 100 ? 90 : a->arch));
	add(a, "-std=c++17");
	add(a, "-Wno-unknown-cuda-version");
	/* `register int k`: C++17 took the keyword away and clang makes it an error, which nvcc
	 * (whose front end warns) compiles; as nvcc does, a warning */
	add(a, "-Wno-register");
	/* every error: past clang's default 20, the rest go unreported and a function that has
	 * one would look clean and be rewritten (found by the fuzzer: not idempotent) */
	add(a, "-ferror-limit=0");
	if (cuda) {
		add_owned(a, xprintf("--cuda-path=%s", cuda));
		add(a, "-isystem");
		add_owned(a, xprintf("%s/include/cccl", cuda));
		add(a, "-isystem");
		add(a, COMPAT_DIR);
		for (size_t i = 0; i < sizeof removed_cuda_headers / sizeof *removed_cuda_headers; i++) {
			char *real = xprintf("%s/include/%s", cuda, removed_cuda_headers[i]);
			bool present = access(real, R_OK) == 0;
			free(real);
			if (!present)
				add_file(a, *VEC_PUSH(a->owned, a->nowned, a->capowned) =
						    xprintf(COMPAT_DIR "/%s", removed_cuda_headers[i]),
					 removed_header_stub, sizeof removed_header_stub - 1);
		}
		add(a, "-include");
		add(a, COMPAT_DIR "/pipefy_nvcc_compat.h");
		add_file(a, COMPAT_DIR "/pipefy_nvcc_compat.h", nvcc_compat_prelude, sizeof nvcc_compat_prelude - 1);
	} else {
		/* No toolkit: clang's own builtins still give attribute cursors for simple kernels. */
		static const char *const bare[] = {
			"-nocudainc", "-nocudalib", "-include", "__clang_cuda_builtin_vars.h",
			"-D__global__=__attribute__((global))", "-D__device__=__attribute__((device))",
			"-D__shared__=__attribute__((shared))", "-D__host__=__attribute__((host))",
			"-D__forceinline__=inline", "-D__launch_bounds__(...)="};
		for (size_t i = 0; i < sizeof bare / sizeof *bare; i++)
			add(a, bare[i]);
	}
	add(a, "-idirafter");
	add(a, FALLBACK_DIR);
	add_file(a, FALLBACK_DIR "/omp.h", omp_stub, sizeof omp_stub - 1);
	for (int i = 0; i < db.n; i++)
		add(a, db.v[i]);
	for (int i = 0; i < db.nowned; i++) /* the strings move over */
		*VEC_PUSH(a->owned, a->nowned, a->capowned) = db.owned[i];
	db.nowned = 0;
	args_free(&db);
	for (int i = 0; i < o->nextra; i++)
		add(a, o->extra_args[i]);
	if (!o->compile_db)
		discover_includes(a, source_dir);
	/* a header's device functions are every including file's; with -fgpu-rdc (nvcc's -rdc=true,
	 * -dc) other files link to this one's */
	a->other_files = is_header(src);
	for (int i = 0; i < a->n; i++)
		a->other_files |= strcmp(a->v[i], "-fgpu-rdc") == 0;
	return true;
}

/* For "file not found": where pipefy looked besides the compiler's own folders. */
char *args_searched(const struct clang_args *a)
{
	struct strbuf sb = {0};
	for (int i = 0; i + 1 < a->n; i++)
		if (strcmp(a->v[i], "-I") == 0 || strcmp(a->v[i], "-isystem") == 0 ||
		    (strcmp(a->v[i], "-idirafter") == 0 && strcmp(a->v[i + 1], FALLBACK_DIR) != 0))
			sb_printf(&sb, "%s%s", sb.len ? ", " : "", a->v[i + 1]);
		else if (strncmp(a->v[i], "-I", 2) == 0 && a->v[i][2])
			sb_printf(&sb, "%s%s", sb.len ? ", " : "", a->v[i] + 2);
	return sb_take(&sb);
}

void args_free(struct clang_args *a)
{
	for (int i = 0; i < a->nowned; i++)
		free(a->owned[i]);
	for (int i = 0; i < a->nfound; i++)
		free(a->found[i]);
	free(a->owned);
	free(a->found);
	free(a->v);
	free(a->files);
	memset(a, 0, sizeof *a);
}
