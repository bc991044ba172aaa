/* pipefy.h: every stage's interface, one section per file, in the order data flows:
 * source -> parse -> find -> measure -> check -> plan -> rewrite -> validate -> emit. */
#ifndef PIPEFY_H
#define PIPEFY_H

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#ifndef PIPEFY_VERSION
#define PIPEFY_VERSION "unknown" /* CMakeLists.txt defines it from project(VERSION) */
#endif

/* ---- util.c: allocation that dies on out-of-memory, growable strings ---- */

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *vxprintf(const char *fmt, va_list ap);
/* free() of each of its arguments, pointers of any type: FREE_ALL(p->name, p->text, p->v). */
#define FREE_ALL(...) free_each((void *[]){__VA_ARGS__}, sizeof((void *[]){__VA_ARGS__}) / sizeof(void *))
void free_each(void *const *v, size_t n);
/* A path as the user would name it: relative to the current folder where it lies below it. */
const char *path_for_user(const char *path);
/* path from the root: its real path where it exists, else joined to the current folder. */
char *absolute_path(const char *path);
/* The first of the n elements at v (each size bytes, in cmp's order, as qsort leaves them) that
 * cmp does not order before key, an element too: its index; n when none. */
int sorted_first(const void *key, const void *v, int n, size_t size, int (*cmp)(const void *, const void *));

struct strbuf {
	char *data;
	size_t len, cap;
};
void sb_add(struct strbuf *sb, const char *s, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sb_take(struct strbuf *sb); /* NUL-terminated; sb is left empty */
/* [b, e) without the white space at either end. */
char *xstrtrim(const char *b, const char *e);
/* Fault injection for the tests: whether PIPEFY_TEST_BREAK names this fault (a bug validation,
 * the CPU block model or the crash handler must catch). Never set in normal use. */
bool test_break(const char *what);

/* Grow a (pointer, count, capacity) vector by one element, returning the new slot zeroed. */
#define VEC_PUSH(v, n, cap)                                                                       \
	((n) == (cap) ? ((cap) = (cap) ? 2 * (cap) : 8, (v) = xrealloc((v), (cap) * sizeof *(v))) : 0, \
	 memset(&(v)[(n)], 0, sizeof *(v)), &(v)[(n)++])

/* ---- source.c: the input text, its line table, and the edit list applied to it ---- */

struct source {
	char *path;        /* as given, or the --assume-filename for stdin */
	char *text;        /* NUL-terminated copy of the input */
	size_t len;
	size_t *line_start; /* byte offset of each line's first character */
	int nlines;
};

/* A replacement of text[offset, offset+length) by text; length 0 is an insertion. */
struct edit {
	size_t offset, length;
	char *text;
	int seq; /* insertion order, to keep inserts at one offset in the order given */
};

struct edits {
	struct edit *v;
	int n, cap;
};

/* Read a file ("-" is stdin); on failure returns false with a message in *err. */
bool source_read(struct source *src, const char *path, const char *display_name, char **err);
void source_init_text(struct source *src, const char *display_name, const char *text, size_t len);
void source_free(struct source *src);
/* Offset of the first byte that is not well-formed UTF-8, or (size_t)-1. */
size_t utf8_invalid_at(const char *text, size_t len);
/* The same, outside comments (source_read refuses a file for such a byte in its code only). */
size_t utf8_invalid_in_code(const char *text, size_t len);
/* 1-based line and byte column of an offset, as compilers print them. */
void source_line_col(const struct source *src, size_t offset, int *line, int *col);
/* The length of a name called at offset (`LOAD(` of `LOAD(As, ...)`: a macro, where the
 * statement comes out of one); 0 when the text there is no call. */
size_t source_call_word(const struct source *src, size_t offset);
/* The end of a function-like macro's (or a function's) use at `at`: its name, then its
 * parenthesized arguments; 0 when the text there is not that. */
size_t source_call_end(const struct source *src, size_t at);
size_t source_offset(const struct source *src, int line, int col);
/* The whitespace that starts the line holding offset. */
char *source_line_indent(const struct source *src, size_t offset);
/* The lines a statement at s owns (from its line's start when only blanks precede it, through
 * the newline when only blanks and a ';' follow); else s through its ';'. */
struct span source_whole_lines(const struct source *src, struct span s);

void edits_add(struct edits *e, size_t offset, size_t length, const char *text);
void edits_free(struct edits *e);
/* Apply the edits that fall inside [begin, end) to that slice of text. Overlapping
 * replacements are rejected (false, *err set): two stages claiming one byte is a bug. */
bool edits_apply_range(const struct edits *e, const char *text, size_t begin, size_t end, char **out,
		       char **err);
bool edits_apply(const struct edits *e, const struct source *src, char **out, char **err);

/* ---- options.c: the command line, clang-format style ---- */

/* VARIANT_NO_LOADS is a measuring aid, not a pipeline: the loop without its copies, the
 * load-free ceiling a benchmark compares against. Its output computes on stale tiles. */
enum variant { VARIANT_AUTO, VARIANT_CP_ASYNC, VARIANT_LDG, VARIANT_NO_LOADS, VARIANT_TMA, VARIANT_BULK, VARIANT_WS,
	       VARIANT_WS_CP_ASYNC, VARIANT_COUNT };

/* One variant's verdict on one loop (check.c alone writes it): legal, or the first reason it
 * is not. */
struct legality {
	bool ok;
	char *refusal;
};

/* Launch pairs (launch.c): the planner's choice, or overlapped (early: the kernel ahead lets the
 * next start before its own blocks end) / kept wherever legal. */
enum launches_mode { LAUNCHES_AUTO, LAUNCHES_OVERLAP, LAUNCHES_EARLY, LAUNCHES_KEEP, LAUNCHES_QUEUE };

struct options {
	const char **files; /* "-" or none: stdin */
	int nfiles;
	const char *output;          /* -o */
	bool in_place;               /* -i */
	const char *assume_filename; /* name used for stdin in messages */
	enum variant variant;
	int stages;    /* 0: let the planner choose */
	enum launches_mode launches;
	int arch;      /* 80 for sm_80 */
	bool quiet;    /* -q: no remarks */
	bool remarks;  /* -R: remarks for standard input too */
	const char *cuda_path;
	const char **extra_args; /* after "--" */
	int nextra;
	bool help, version;
	bool list_variants;      /* --list-variants: the variants, their architectures and stages */
	struct block_option {    /* --block-size=N or XxY[xZ]: the block when the source does not say */
		int threads;     /* 0: not given */
		int dims[3];     /* its shape (N: N x 1 x 1) */
	} block;
	const char *rules_dir;   /* --rules: instead of the rules compiled in */
	const char *report;      /* --report[=text|yaml|json], or --report-file's format: NULL for none */
	const char *report_file; /* --report-file: the report goes there instead of standard error */
	const char *report_file_format; /* its format, from its extension */
	bool ptxas;              /* --ptxas: registers per thread from nvcc -Xptxas -v */
	bool replacements_xml;   /* --output-replacements-xml: the edits, as clang-format prints them */
	bool replacements_json;  /* --output-replacements-json: the same as a JSON array */
	struct line_range {
		int first, last;  /* --lines=A:B, 1-based, inclusive */
	} lines[16];
	int nlines;
	long offset, length;     /* --offset/--length: a byte range; length < 0 when not given */
	bool dry_run;            /* -n, --dry-run: a warning per loop that would change, no output */
	bool diff;               /* --diff: a unified diff instead of the whole file */
	bool werror;             /* --Werror: with --dry-run those warnings are errors */
	bool no_cache;           /* --no-cache: parse the headers every time */
	const char *compile_db;  /* -p: the folder holding compile_commands.json */
	bool arch_given;         /* --arch was on the command line */
	char arch_suffix;        /* 'a' for sm_90a (architecture-specific: setmaxnreg), 'f', or 0 */
	const char *depfile;     /* -MF: a make-style list of the headers the input read */
	const char *dep_target;  /* -MT: the depfile's target (else -o's file, or the file -i edits) */
	const char *export_fixes; /* --export-fixes: the edits as clang-tidy's YAML, for clang-apply-replacements */
	long cursor;             /* --cursor: an editor's cursor (byte offset), -1 when not given */
	const char *style;       /* --style, --fallback-style, --sort-includes: clang-format's, */
	const char *fallback_style; /* taken for its plugins' sake and ignored */
	bool sort_includes;
	int jobs;                /* -j N, --jobs=N: files rewritten by N processes at once (0: 1) */
};

/* Returns 0 when parsed, 2 on a usage error (message in *err). */
int options_parse(struct options *o, int argc, char **argv, char **err);
void options_free(struct options *o);
/* --help: the text, the variants from variant.c's rows and the rules' most stages. */
void options_usage(FILE *out, int rules_max);

/* ---- variant.c: the variants, one row each ---- */

struct kloop;
struct model;
struct region;
struct loop_view;
struct effects;

/* Each family lives in one file: registers.c, cp_async.c, tensor.c (tma, bulk, ws, ws-cp.async:
 * tiles as boxes, issued by one thread or a producer warp). */
enum variant_family { FAMILY_NONE, FAMILY_REGISTERS, FAMILY_CP_ASYNC, FAMILY_TENSOR };

/* What a rewrite asks of the file once, whatever loop asked: the helpers it calls. */
struct file_needs {
	bool pipeline; /* <cuda_pipeline.h> */
	bool tma, bulk, named, regs;
	bool launch_stages; /* tiles in the launch's dynamic shared memory, a copy a stage */
	bool launch_bytes;  /* launches given more dynamic shared memory (those, and moved tiles) */
};

/* What auto's rules weigh of a loop (plan.c fills it; the rows' prefer hooks read it). */
struct auto_facts {
	const struct kloop *l;
	const struct options *o;
	const struct variant_rules *vr;
	int width;         /* the narrowest copy, bytes */
	bool wide;         /* a legal cp.async's copies are wide enough to pay */
	bool deep;         /* a tile's compute is short: more tiles in flight hide the latency */
	char unmeasured[160]; /* a row ranked earlier left for want of a measurement, said by the
			       * register staging's why ("" when none) */
};

/* The variant and stages auto wants, and why. */
struct want {
	enum variant variant;
	int stages;
	char why[512];
};

struct variant_row {
	enum variant id;
	const char *name;  /* --variant=NAME */
	const char *alias; /* another spelling --variant takes, or NULL */
	enum variant_family family;
	bool listed;       /* a pipeline --variant lists (no-loads is a measuring aid) */
	int min_arch;      /* the oldest architecture it runs on (80: sm_80); 0 any */
	int min_stages, max_stages; /* max 0: the rules' max_stages */
	int tile_align;    /* its stages' tiles start at multiples of this many bytes (0: as declared) */
	int barrier_bytes; /* shared memory it adds a stage (mbarriers) */
	int producer_threads; /* threads it adds to the block (a producer warp) */
	const char *noun;      /* the planner's words for it when it cannot be had: "tensor copies: ..." */
	const char *arch_why;  /* why not, below min_arch */
	const char *stages_why;/* why not, above max_stages */
	const char *help;      /* what it does, for --help */
	/* check.c's reading of the facts the variant needs into l->legal[] (its own entry, and
	 * those of the rows after it that share them: NULL there). The tensor family's hooks run
	 * after the others, with each statement's effects (fx), where no refusal came first. */
	void (*check)(struct kloop *l, const struct source *src, const struct effects *fx);
	/* the rewrite of loop `index` of m into edits of the input */
	void (*rewrite)(const struct kloop *l, const struct model *m, int index, const struct source *src, struct edits *out,
			struct file_needs *needs);
	/* validation's reading of the rewritten main loop: problems go to r (NULL: nothing to prove) */
	void (*validate)(struct region *r, const struct kloop *l, const struct loop_view *v);
	/* plan.c's measured rules for auto: whether they want the variant for the loop the facts
	 * describe, with its stages and why (NULL: auto never picks it). auto asks the rows with a
	 * hook in auto_rank's order (1 first), and takes the first that wants it. */
	bool (*prefer)(const struct variant_row *v, struct auto_facts *f, struct want *w);
	int auto_rank;
};

/* The rows in the order the planner weighs them; a variant's row; the row --variant=NAME names. */
const struct variant_row *variant_rows(int *n);
const struct variant_row *variant_row(enum variant v);
const struct variant_row *variant_named(const char *name);
const char *variant_name(enum variant v);
/* tma, bulk, ws and ws-cp.async: tiles copied as boxes into 128-byte aligned stages. */
bool variant_is_tensor(enum variant v);
/* --list-variants: a line per pipeline, "NAME<TAB>oldest architecture (sm_80, any)<TAB>stages
 * (2-8)<TAB>family" (tests read it for the variants there are). */
void variant_list(FILE *out, int rules_max);
/* --help's lines on --variant and --stages, from the rows. */
void variant_help(FILE *out, int rules_max);
/* The most stages the variant takes under the rules' limit. */
int variant_max_stages(const struct variant_row *v, int rules_max);

/* ---- parse.c: libclang translation unit of the CUDA device side ---- */

struct diag {
	size_t offset;   /* in the main file; (size_t)-1 when elsewhere */
	char *file;      /* file the diagnostic points into */
	int line, col;
	bool is_error;   /* error or fatal */
	char *message;
};

struct parsed {
	CXIndex index;
	CXTranslationUnit tu;
	struct diag *diags;
	int ndiags, capdiags;
	bool fatal; /* no translation unit at all */
	char *blanked; /* the text libclang holds when the preamble came precompiled */
	int arch;      /* what it was parsed for (the compile database may say) */
	bool other_files; /* other files may call its device functions (struct clang_args) */
	char *pch;     /* the precompiled preamble used, if one was */
	bool pch_reused; /* ... and it was in the cache already, not built by this parse */
	char *cache_warning; /* why the cache was not used, when it is not the user's own */
};

/* args.c: what clang parses with. The strings in v live as long as the struct. */
struct clang_args {
	const char **v;
	int n, cap;
	char **owned; /* strings made here, freed with the struct */
	int nowned, capowned;
	char **found; /* include folders discovered beside the input */
	int nfound, capfound;
	struct CXUnsavedFile *files; /* the input first (its name is what clang parses), then
				      * pipefy's in-memory headers */
	int nfiles, capfiles;
	int arch; /* the architecture parsed for: --arch, else the compile database's, else 80 */
	bool other_files; /* other files may call the input's device functions (a header; -fgpu-rdc) */
};

/* The CUDA toolkit root: --cuda-path, $CUDA_HOME, $CUDA_PATH, else /usr/local/cuda, else NULL. */
const char *cuda_find(const char *override);
/* False, with *err, when -p names no usable compile database entry for the input. */
bool args_build(struct clang_args *a, const struct source *src, const struct options *o, const char *source_dir,
		char **err);
char *args_searched(const struct clang_args *a);
void args_free(struct clang_args *a);
/* Parses through a cached precompiled preamble when the file has one (see preamble_length). */
bool parse_source(struct parsed *p, const struct source *src, const struct options *o, char **err);
/* Validation's parse of the rewritten file out of in; warm: in's parse reused a cached preamble. */
bool parse_rewritten(struct parsed *p, const struct source *out, const struct source *in, const struct options *o,
		     bool warm, char **err);
size_t preamble_length(const char *text, size_t len);
void parsed_free(struct parsed *p);
/* -MF: the files the parse read (the preamble's headers too), one real path a line. */
char *parse_inclusions(const struct parsed *p);

/* ---- cursor.c: reading libclang cursors, shared by every stage ---- */

struct span {
	size_t begin, end; /* byte offsets in the main file, [begin, end) */
};
/* How often name stands as an identifier in the text of in, outside comments, strings and
 * character literals; the first max offsets go to at. */
int source_identifiers(const struct source *src, struct span in, const char *name, size_t *at, int max);
/* Past the comment, string or character literal p starts (before end); p itself when it starts
 * none. */
const char *source_skip_noncode(const char *p, const char *end);

struct cursors {
	CXCursor *v;
	int n, cap;
};

struct cursors cursor_children(CXCursor c);
/* What the walks below c ask of each cursor: a libclang visitor's question without the parent,
 * which few read (those few visit with clang_visitChildren); the answer says how the walk goes
 * on (Recurse into c, Continue past it, Break). */
typedef enum CXChildVisitResult (*cursor_visitor)(CXCursor c, void *data);
/* clang_visitChildren's walk below c, `each` asked of every cursor. */
void cursor_visit(CXCursor c, cursor_visitor each, void *data);
/* The same walk from c itself: `each` asked of c first, then, when it answers Recurse, of the
 * cursors below c. */
void cursor_visit_from(CXCursor c, cursor_visitor each, void *data);
/* Byte offsets of a cursor's extent, mapped through macro expansions to the main file. */
struct span cursor_span(CXCursor c);
size_t cursor_offset(CXCursor c);
bool cursor_in_main_file(CXCursor c);
/* cursor_visit over the translation unit's declarations as the file writes them (the parse's
 * walks see the file's own, not its precompiled headers': parse.c), without the functions the
 * parse instantiated from its templates. */
void cursor_visit_file(CXTranslationUnit tu, cursor_visitor each, void *data);
/* The cursor at an offset of the main file of the translation unit `near` belongs to. */
CXCursor cursor_at_offset(CXCursor near, size_t offset);
/* A call with no callee and no name: an operator's call of a builtin type. */
bool cursor_builtin_operator_call(CXCursor call);
/* True when the cursor's text comes out of a macro expansion, where no edit can go. */
bool cursor_from_macro(CXCursor c);
/* A cursor's tokens written in the main file, also as a macro's argument (`s_a` in
 * `FLOAT4(s_a[i])`): where an edit can go. Its span there (the argument's text). */
bool cursor_written_in_file(CXCursor c);
struct span cursor_written_span(CXCursor c);
/* An expression that is one function-like macro's whole expansion (`FLOAT4(s_a[i])`): the
 * macro's use in the file, from its name to its ')'; false when the expression is not that. */
bool cursor_macro_use(const struct source *src, CXCursor c, struct span *out);
char *span_text(const struct source *src, struct span s);
/* The text with its blanks squeezed out: `a [ i ]` reads `a[i]`. */
char *span_squeezed(const struct source *src, struct span s);
/* The text of the file a cursor's extent starts in (spelled: a macro's body where it comes out
 * of one), the extent's start in it, and its end where the extent ends in the same file
 * (one_file); text NULL when the file's contents are not at hand. */
struct file_text {
	const char *text;
	size_t size, begin, end;
	bool one_file;
};
struct file_text cursor_file_text(CXCursor c);
/* `threadIdx.x` and the like, as written: 0 threadIdx, 1 blockIdx, 2 blockDim, 3 gridDim (the
 * names in cursor_builtin_names), the component in *component; -1 for anything else. A cursor
 * of another file (a header's function) is read in that file's own text. */
extern const char *const cursor_builtin_names[4];
int cursor_builtin(const struct source *src, CXCursor e, char *component);
char *cursor_name(CXCursor c);
char *type_spelling(CXType t);
/* Skip implicit casts and parentheses, which libclang shows as wrappers of one child. */
CXCursor cursor_strip(CXCursor c);
CXCursor cursor_first_child(CXCursor c);
CXCursor cursor_last_child(CXCursor c);
/* The `for` a `#pragma unroll` stands before (an attributed statement); c itself otherwise. */
CXCursor cursor_unattributed(CXCursor c);
bool cursor_has_attr(CXCursor decl, enum CXCursorKind attr);
bool cursor_is_variable(CXCursor decl);     /* a variable (VarDecl) or a parameter (ParmDecl) */
bool cursor_is_shared_var(CXCursor decl);   /* __shared__, or a view of such an array */
bool cursor_names_shared(CXCursor c);        /* something below c names such a variable */
bool cursor_is_shared_decl(CXCursor decl);  /* declared __shared__ */
bool cursor_is_shared_view(CXCursor var);   /* a local pointer that only ever points into one */
CXCursor cursor_shared_array(CXCursor var); /* the __shared__ array it is or points into */
void cursor_view_problem(CXCursor var, CXCursor *use);
bool cursor_kind_is_cast(enum CXCursorKind k);
bool type_kind_is_sized_array(enum CXTypeKind k);
CXType type_array_element(CXType t);
/* The variable an lvalue or pointer expression is rooted at: As in `*(int4 *)&As[r][c]`. */
CXCursor cursor_root_var(CXCursor c);
/* __syncthreads(), or cooperative groups' sync on a thread_block. */
bool cursor_is_barrier(CXCursor c);
/* A call whose target is a value, not a function (`hook(0)`, `(*hook)(0)`, `o.f(0)`): what it
 * runs is not known. */
bool cursor_call_through_pointer(CXCursor call);
bool cursor_is_call_named(CXCursor c, const char *want);
bool span_within(struct span inner, struct span outer);
/* decl is declared inside s, a span of the main file (offsets of another file's declaration
 * say nothing about this one's text: a header's variable is never a local of the loop). */
bool cursor_declared_within(CXCursor decl, struct span s);
/* Whether c is or holds a name of something declared inside s. */
bool cursor_refers_within(CXCursor c, struct span s);
/* Where var is named inside c, as written in the file (a macro's argument counts): at most max
 * spans into out, their number; -1 when one lies in a macro's body (no edit can reach it) or
 * there are more. */
int cursor_var_refs(CXCursor c, CXCursor var, struct span *out, int max);
/* The first name of decl inside c's children that lies outside skip (an empty span skips
 * nothing), into *at; false when there is none. */
bool cursor_first_ref(CXCursor c, CXCursor decl, struct span skip, struct span *at);
/* The same type once qualifiers and sugar are gone. */
bool cursor_same_type(CXType a, CXType b);
/* `__ldg(&A[i])` and the other cache-hinted loads: A[i]; any other expression: itself. */
CXCursor cursor_unwrap_cache_hint(CXCursor c);
/* An integer constant expression's value; *ok false when it is not one. */
bool cursor_folds_to_constant(CXCursor c);
bool cursor_copy_construct(CXCursor c);
CXCursor cursor_nth_param(CXCursor fn, int i);
CXCursor cursor_callee(CXCursor call);
bool cursor_unresolved_operator(CXCursor call);
/* The operator a call its template leaves unresolved names (`operator+=` of `acc += a * b` with
 * acc of a parameter's type); "" for any other call. */
char *cursor_operator_name(CXCursor call);
bool cursor_plain_copy_construct(CXCursor c);
bool cursor_is_loop(CXCursor c);
bool cursor_one_trip(CXCursor loop, const struct source *src); /* `for (int i = 0; i < 1; ++i)` */
/* The names a call its template leaves unresolved may mean (`wmma::load_matrix_sync(f, &As[..],
 * ld)` with a dependent argument): its OverloadedDeclRef; null when there is none. */
CXCursor cursor_overloaded_ref(CXCursor call);
/* `cuda::memcpy_async(dst, from, size, pipe)`, pipe a variable (a cuda::pipeline): its parts. */
bool cursor_async_copy(CXCursor c, CXCursor *dst, CXCursor *from, CXCursor *size, CXCursor *pipe);
/* `pipe.producer_acquire()`, `.producer_commit()`, `.consumer_wait()`, `.consumer_release()` on a
 * cuda::pipeline variable: PIPE_OP_*, and the variable; -1 for any other expression. */
enum { PIPE_OP_ACQUIRE, PIPE_OP_COMMIT, PIPE_OP_WAIT, PIPE_OP_RELEASE };
int cursor_pipeline_op(CXCursor c, CXCursor *pipe);
long cursor_evaluate_int(CXCursor c, bool *ok);
/* Which of a function template's own parameters type e is (`T`, or a typedef of it): its index
 * among them; -1 when it is none. */
int cursor_type_param_index(CXType e);
/* What an expression writes: `x = v` (operator= too), `x += v`, `++x`. */
enum write_kind { WRITE_NONE, WRITE_ASSIGN, WRITE_UPDATE };
enum write_kind cursor_write_parts(CXCursor c, CXCursor *target, CXCursor *value);
/* A call to a function whose whole body is `*p = v;` (or `p[0] = v;`), p and v its parameters:
 * the store it makes, at the address *addr, of *value. cursor_write_parts takes it for an
 * assignment whose target is that address. */
bool cursor_store_accessor(CXCursor call, CXCursor *addr, CXCursor *value);
/* The same, with the type it stores (*stored_type, the value parameter's) and whether it stores
 * it through a cast of the pointer (`*reinterpret_cast<float4 *>(p) = v;` at a `float *p`). */
bool cursor_store_accessor_cast(CXCursor call, CXCursor *addr, CXCursor *value, CXType *stored_type, bool *cast);
/* A call to a function whose whole body is `return *p;` (or `return p[0];`, or through a cast to
 * a pointer to its result type, `return *reinterpret_cast<const float4 *>(p);`): a load at *addr. */
bool cursor_load_accessor(CXCursor call, CXCursor *addr);
/* A call to a function whose whole body loads through a pointer parameter at an address it
 * computes (`return Mat[row * N + col];`, `return *(p + i);`): a load pipefy does not read. */
bool cursor_indexing_accessor(CXCursor call);
/* Such a function that reads nothing but its parameters and the element it returns (no call,
 * no write: `return Mat[row * N + col];`): its call is a load from global memory where its
 * pointer argument points there. */
bool cursor_load_function(CXCursor call);
/* A call to a function whose whole body stores through a cast of its pointer parameter
 * (`*reinterpret_cast<float4 *>(p) = v;`): a store pipefy does not read. */
bool cursor_cast_store_accessor(CXCursor call);
CXCursor cursor_write_target(CXCursor c); /* the lvalue an assignment writes */
CXCursor cursor_assigned_var(CXCursor c, bool *is_store);
/* An assignment or ++/-- of var in `in`, or a way to write it later: its address taken, a
 * reference bound to it, a non-const reference parameter or member function given it. */
/* Whether e (parentheses and implicit casts aside) names var. */
bool cursor_names_var(CXCursor e, CXCursor var);
bool cursor_writes_var(CXCursor in, CXCursor var);
/* Every mention of var in `in` reads its value (an lvalue read, a copy, a member read), so that
 * nothing there can change it: no assignment, no address, no reference bound to it. */
bool cursor_only_read(CXCursor in, CXCursor var);
/* Whether `in` takes var's address, binds a reference to it or gives it to a non-const reference
 * parameter or member function: a write through a pointer may change it from then on. */
bool cursor_escapes(CXCursor in, CXCursor var);
/* Whether code in `in` may reach var other than by its name, to read it or to write it: its
 * address, a reference of any kind bound to it, a call's reference parameter or one pipefy cannot
 * see handed it, a class aggregate built from it. */
bool cursor_aliased(CXCursor in, CXCursor var);
/* A read of global memory: `A[i]`, `*(const int4 *)&A[i]`, `p->A[i]`; sets the pointer it reads
 * (a variable, or the struct member it indexes). */
bool cursor_global_load(CXCursor c, CXCursor *base);
/* Whether e is, or holds anywhere inside it, such a read of global memory. */
/* A texture fetch of the toolkit's returning the texel (`tex1Dfetch<float4>(tex, i)`, tex1D,
 * tex2D, tex3D): a read of global memory the kernel's own stores cannot coherently change. */
bool cursor_texture_fetch(CXCursor c);
bool cursor_loads_global(CXCursor e);
/* Whether e computes its value from the function's scalar locals and by-value parameters,
 * constants and the block's coordinates alone: it reads no memory through a pointer, an array
 * or a member, calls nothing and writes nothing. */
bool cursor_is_arithmetic(CXCursor e);
/* A scalar or a pointer: no reference, array or struct. */
bool cursor_scalar_type(CXType type);
/* A local declaration whose value `((T)(init))` stands for it: a scalar or pointer variable set
 * by `=` or `( )` (not braces); its initializer in *init (null when it has none). */
bool cursor_value_local(CXCursor var, CXCursor *init);

/* ---- storage.c: where a loop's tiles' storage is reached (facts for check.c) ---- */

/* The first access to a tile's storage that does not go through the tile's name inside the loop
 * (the name outside the loop; the extern __shared__ memory a dynamic tile points into, by any
 * name, in the function or a helper it calls; a call pipefy cannot follow, where a tile is
 * dynamic or declared outside the function), in words, with *at; NULL when there is none. */
struct kloop;
char *storage_outside(const struct kloop *l, const struct source *src, size_t *at);

/* ---- uniform.c: values alike in every thread of a block, and loops every thread reaches ---- */

/* expr, in function, holds the same value in every thread of a block (proven, not assumed). */
bool uniform_value(CXCursor function, CXCursor expr, const struct source *src);
/* A call whose value depends on its arguments alone (a pure library function, or one of the
 * program's that reads no memory, no thread index and calls only such functions). */
bool uniform_pure_call(CXCursor call, const struct source *src);
/* Why not every thread of a block reaches loop and runs it as often as the others (a condition
 * on the way, a jump out of a loop around it, a return before it, the loop's own header that
 * depends on the thread), in words, with *at; NULL when every thread does. */
char *uniform_participation(CXCursor function, CXCursor loop, const struct source *src, bool other_files, size_t *at);

/* A function template's instantiations: the specializations its calls in the file name (*n of
 * them); NULL, with *unknown_at where a use shows it, when they are not all known (its address
 * taken, a call another template resolves, an explicit instantiation, a name in a macro). */
CXCursor *uniform_instantiations(CXCursor function, const struct source *src, int *n, size_t *unknown_at);
/* A kernel template's type parameter `index` where the file launches it only from host function
 * templates that deduce it from their own (`template <typename T> void run(T *a) { k<<<g,
 * b>>>(a); }`) and calls those with arguments of known types: the types so bound (*n); NULL,
 * with *at where reading stopped, otherwise. */
CXType *uniform_deduced_types(CXCursor kernel, int index, const struct source *src, int *n, size_t *at);

/* ---- deps.c: what a kernel may touch in global memory, as code (after check; facts for queue.c) ---- */

/* One access `P[i]`: P's name, and a C expression of type pipefy_iv holding every value i may
 * take (in scope: the kernel's parameters, gridDim, blockDim, pipefy_block_x/y/z, the intervals
 * of the block index, and `bool *pipefy_ok`, which it clears when it cannot tell). */
struct queue_access {
	bool write;
	char *param, *index;
	char *text; /* as written */
};
struct queue_accesses {
	struct queue_access *v;
	int n;
	int rows;     /* the highest component of blockIdx a write's index reads (0 x, 1 y, 2 z) */
	char *why;    /* what stopped the reading; NULL when every access was read */
	size_t why_at;
};
void queue_access_free(struct queue_access *a);
void queue_accesses_free(struct queue_accesses *q);
/* Each pair check lets run as one persistent launch: what each kernel may touch (deps), and
 * why a block of the second waits for every block of the first, if it must (waits_all). */
void deps_launch_pairs(struct model *m, const struct source *src);

/* ---- distinct.c: a store inside loops writes another element on every trip ---- */

/* Whether target (an element a store writes) is another element on every trip of the loops
 * around it, from outer (a loop, or a statement holding them) in: NULL when proved, else why not
 * (to be freed). */
char *distinct_elements(CXCursor target, CXCursor outer, const struct source *src);
/* Whether copies a and b (in statements outer_a and outer_b) never store the same bytes: NULL
 * when proved, else why not (to be freed). */
char *disjoint_copies(CXCursor a, CXCursor outer_a, CXCursor b, CXCursor outer_b, const struct source *src);

/* ---- effects.c: what a statement or a helper it calls may write (facts for check.c) ---- */

struct effects {
	bool memory;   /* may write memory that is not a local: global, through a pointer, atomics */
	bool shared;   /* may write a __shared__ array (or hands one to a call that may) */
	bool unknown;  /* does something pipefy cannot see into: an unresolved or undefined call */
	bool syncs;    /* synchronizes the block inside a call */
	char *what;    /* the first of those but a tile write, in words */
	size_t at;     /* and where, in the main file; (size_t)-1 when elsewhere */
	CXCursor at_cursor;
	char *shared_what; /* the first write of a __shared__ array */
	size_t shared_at;
	char *unseen;      /* the first call pipefy cannot see into (no operator of a template's
			    * dependent operands), in words; NULL when none */
	size_t unseen_at;  /* where, in the main file; (size_t)-1 when elsewhere */
	char *collective;  /* the first instruction a whole warp must execute together (asm with
			    * `.aligned`: mma.sync, ldmatrix; a wmma:: call), helpers followed */
	size_t collective_at;
	struct cursors vars; /* every variable it may change (locals included) */
};

enum asm_kind { ASM_READS, ASM_ASYNC, ASM_OTHER };
/* What an asm statement's instructions do (read through macros): registers and loads only,
 * asynchronous copies or their barriers (already pipelined), or something else; *instruction
 * names the first that is not a plain read. */
enum asm_kind effects_asm(CXCursor c, char **instruction);
/* Whether an asm statement's instructions (read through macros) hold what, starting a word;
 * true where pipefy cannot read them. */
bool effects_asm_mentions(CXCursor c, const char *what);
/* An asm statement's instruction template (its string literals, also where a macro's body
 * writes them), or NULL when pipefy cannot read it. */
char *effects_asm_template(CXCursor c);
/* Add what stmt may do to fx (helpers followed into their definitions). */
void effects_of(CXCursor stmt, const struct source *src, struct effects *fx);
/* A call of a function of this file that returns what it loads through its pointer parameters
 * and writes nothing but its own locals (`load_float4(A, row, col, n)`). */
bool effects_load_function(CXCursor call);
char *effects_load_function_problem(CXCursor call); /* why not, or NULL */
bool effects_writes_var(const struct effects *fx, CXCursor var);
bool effects_is_local(CXCursor var);
/* A value proven to be all zero bits (evaluated, never matched as text). */
bool effects_is_zero(CXCursor value);
bool effects_in_system_header(CXCursor decl);
/* The first call in expr of a function outside the system headers; null when none. */
CXCursor effects_program_call(CXCursor expr);
/* A call of CUDA's headers or the C library whose value depends on its arguments alone
 * (`min`, `__float2int_rn`, `__popc`, a `half`'s constructor): it writes no memory, reads none
 * but its arguments (by value or const reference), waits for nothing and reads no clock or
 * other lane; evaluated a tile early, twice or not at all, it changes nothing. */
bool effects_pure_call(CXCursor call);
/* A call of CUDA's headers or the C library handed a pointer (or an array): it may read memory
 * through it (`__ldg(p)`, `wmma::load_matrix_sync(f, p, ld)`). */
bool effects_library_reads_through(CXCursor call);
/* Assigning a T copies its bytes and runs no user code. */
bool effects_assigns_bytes(CXType t);
void effects_free(struct effects *fx);

/* ---- pure.c: the program's functions whose value is their arguments' alone (facts for body.c
 * and check.c) ---- */

/* The headers a run's parse read from a precompiled preamble (parsed.pch), whose declarations
 * walks of the file do not visit; NULL when none. Resets what was read of them. */
void pure_headers(const char *pch);
/* A call of the program's own functions whose value depends on its arguments alone
 * (`to_float(in[k])`): what it runs (a resolved call of a plain function: that function; a
 * template's call or one the instantiation resolves: every function spelled as the callee, in
 * the file and its headers, the overloads, a template's explicit specializations, what
 * argument-dependent lookup finds) returns a value, takes its parameters by value, and names,
 * reads and writes nothing but them and its locals, calling only such functions and the
 * library's pure ones; evaluated a tile early, it changes nothing.
 * pure_program_call_problem: why not, or NULL. */
bool pure_program_call(CXCursor call);
char *pure_program_call_problem(CXCursor call);
/* Every function of the translation unit spelled name (declarations and definitions: the
 * file's and its headers', in the program's namespaces and classes, and the system headers'
 * global ones): what a call of that name may run once a template is instantiated. The cursors
 * stay valid until pure_headers. False when the headers' declarations could not be read. */
bool pure_namesakes(CXTranslationUnit tu, const char *name, struct cursors *fns);
/* The function of the program a call names: its callee's name, or in a template the name its
 * candidates share; NULL for a library's function, a member, or a call that names none. */
char *pure_callee(CXCursor call);

/* ---- launch.c: the file's kernel launches, indexed once, and the host functions around them ---- */

/* `name<<<grid, block, ...>>>` and `name<T, 4><<<...>>>`: the kernel named right before the
 * chevrons, where it is, and the configuration arguments' text. */
struct launch {
	char *kernel;
	size_t at;
	char *config[4]; /* grid, block, dynamic shared memory, stream, as written; NULL when absent */
	struct span shared_span; /* where the third is */
	size_t chevrons_end; /* just after `>>>` */
	char *targs; /* `64, BK` of `kt<64, BK><<<...>>>`; NULL without */
};

struct launches {
	struct launch *v; /* by kernel name, then by place */
	int n, cap;
};

struct launches launches_index(const struct source *src);
/* The first launch of the kernel in the file, or NULL; the kernel's others follow it. */
const struct launch *launches_first(const struct launches *ls, const char *kernel);
void launches_free(struct launches *ls);
/* `(args)` after `>>>`: the span inside the parentheses; false when they do not follow. */
bool launch_args(const struct source *src, size_t after, struct span *args);

/* The main file's function definitions (namespaces searched), in order: the one around a
 * launch says whether it is host code. */
struct functions {
	CXCursor *fn;
	struct span *at;
	int n, cap;
};
void functions_collect(struct functions *f, CXTranslationUnit tu);
CXCursor functions_enclosing(const struct functions *f, size_t at);
void functions_free(struct functions *f);

/* ---- find.c: the K-loop model every later stage reads ---- */

/* What a top-level statement of the loop body is for the rewrite. */
enum stmt_role {
	ROLE_COMPUTE,   /* everything else: kept verbatim, tiles indexed by stage */
	ROLE_BARRIER,   /* __syncthreads(): replaced by the pipeline's own barrier */
	ROLE_COPY,      /* stores tiles from global memory: moved into the loader */
	ROLE_BUMP,      /* advances an induction variable: kept, and replayed by the loader */
	ROLE_COPY_DECL, /* a local only the copies read, or a statement that only advances such
			 * locals (`row += 16;`): moved into the loader */
	ROLE_FETCH_DECL, /* a local loaded from global memory that copies store into a tile */
	ROLE_TILE_DECL, /* a tile declared inside the loop: hoisted out of it */
	ROLE_PIPE_OP,   /* a call on the cuda::pipeline the copies went through (`pipe.consumer_wait();`):
			 * dropped, the copies being the rewrite's own (check proves it a pipeline of
			 * these copies alone, each waited for before the barrier) */
};

/* A copy loop the register variant stages, `for (T i = E0; i < N; i += S)` (or a test
 * `i <= N`, `i + C <= N`, `i + C < N`: read as `i < B`): one staging register per trip, so the
 * trip count per thread must be bounded at compile time. */
struct copy_loop {
	CXCursor loop; /* the for statement */
	long bound;   /* B; 0 when the statement is not such a loop, -1 when the template or a local
		       * holding one value fixes it */
	long stride;  /* S when constant (-1: fixed by the template); 0 when it is blockDim.x (the
		       * block size decides) */
	struct span var, init, cond, body; /* `int i`'s name, E, the test, the body */
	char *bound_text, *stride_text; /* B and S as constant expressions in front of the loop
					 * (S NULL for `++i`: 1) */
	CXCursor limit, offset; /* N and C as written (C null when there is none) */
	struct span step;       /* S as written (empty for `++i` and blockDim.x) */
	struct span unsure_start; /* E when pipefy cannot show it is >= 0 (the loop then runs more
				   * than ceil(B / S) trips: bound stays 0) */
	bool thread_start;        /* E is threadIdx.x (or a local set to it once): below blockDim.x */
};

struct body_stmt {
	enum stmt_role role;
	struct span span; /* whole lines where the statement owns them */
	struct span text; /* the statement itself */
	CXCursor cursor;
	bool also_compute; /* a ROLE_COPY_DECL the compute reads too: kept in the body as well */
	bool declares_view; /* a ROLE_COPY_DECL declaring a copy's view (struct copy): its tiles'
			     * names take the stage being filled */
	bool store_side;   /* a ROLE_COPY_DECL (a declaration or a step) that declares or advances a
			    * local the copies read other than in their loads (a destination, their
			    * loop's other statements), or that such a statement reads: storing the
			    * copies again needs it (register staging's stash runs it again) */
	bool writes_locals; /* a ROLE_COPY that also writes locals the body declares (a lane pointer
			     * a copy loop advances), which the copies alone use (find) */
	CXCursor advance;   /* such a copy's first write to one of them, or a step's (a ROLE_COPY_DECL
			     * that is no declaration: `row += 16;`); null for any other statement */
	CXCursor fill_first; /* a ROLE_COPY read as `X = c; if (g) X = load;` (body.c): the constant's
			      * store, before `cursor`, the if; null for any other statement */
	/* A ROLE_FETCH_DECL that is an assignment, `ra = A[i];`, to a local declared before the
	 * loop that nothing but this statement and later copies use: the variable. */
	CXCursor fetch_var;
	bool fetch_assign;
	size_t fetch_blocker; /* when such an assignment is no fetch: offset + 1 of the use that
			       * stops it (outside the loop, before the load or in the compute) */
	size_t fetch_again;   /* such an assignment into the whole of a local that another one loads
			       * again with a use between (`v = A[i]; As[..] = v; v = A[j];`): offset
			       * + 1 of the other, and neither is a fetch (one register a local) */
	bool fetch_shadow;    /* the compute uses the variable too, only as scratch it assigns
			       * before it reads: the fetch and the copies take a register of their
			       * own in its place (registers.c) */
	bool fetch_keep;      /* the variable is read after the copies too: the fetch loads a
			       * register of its own, and the statement stays where the stash
			       * stores the copies, assigning the variable from it (registers.c) */
	/* A copy loop the register variant stages (struct copy_loop), and the one loop its body
	 * holds around copies, if any (inner.bound 0 when none) */
	struct copy_loop cl, inner;
	/* Such a loop's own fetches: `float4 v = load;` at the top of its body, v read only by
	 * its copies (`As[..] = v.x;`, from_register), or `*(float4 *)&r[i] = load;` into a local r
	 * of the function that only this fetch writes and only the loop's copies read: one staging
	 * register a trip each (body_loop_fetch_* read either kind) */
	CXCursor loop_fetch[4];
	int nloop_fetch;
};

struct induction {
	char *name;
	char *type;       /* as clang spells it */
	char *init;       /* the value at loop entry (source text) */
	bool in_header;   /* declared or assigned in the for-init */
	CXCursor decl;
};

struct tile {
	char *name;
	CXCursor decl;
	size_t name_end;    /* where the stage dimension is inserted */
	char *elem_type;
	long elem_bytes;
	long bytes;         /* one stage as declared (find); -1 when the size depends on a template */
	bool in_loop;       /* declared in the loop body */
	bool dynamic;       /* a view (`float *As = sm + 256;`) or an extern __shared__ array: its
			     * size is the launch's, so the rewrite keeps it one stage */
	int body_stmt;      /* its declaration's index in stmts[], when in_loop */
	size_t outside_use; /* offset + 1 of a use outside the loop; 0 when none */
};

/* A name of a tile inside the loop: `As` becomes `As[stage]` right after it. */
struct tile_ref {
	struct span at;
	int tile;
	int stmt;       /* top-level body statement holding it */
	bool in_macro;
};

struct copy {
	CXCursor store;      /* the assignment */
	CXCursor value;      /* its right-hand side */
	struct span text;    /* the whole assignment */
	struct span dst, src;
	struct span guard;   /* condition of `c ? load : 0`; begin == end when unguarded */
	struct span fill;    /* the value stored when the guard is false */
	CXCursor fill_value; /* its expression */
	bool dst_is_deref, src_is_deref; /* `*p` forms: address is p itself */
	bool dst_is_address; /* `st(&As[i], v)`, a store accessor: dst is the address, not the lvalue */
	bool dst_cast;       /* such an accessor stores through a cast of the address to the value's
			      * type (`*(float4 *)p = v` at a `float *p`): `type` is the value's */
	struct span dst_ptr, src_ptr;    /* p in `*p`, when *_is_deref */
	struct span src_base;            /* the pointer the load indexes: a valid fallback source */
	int tile;
	long width;          /* bytes per store */
	char *type;          /* spelling of the stored type */
	bool conversion;     /* source and destination types differ */
	bool from_register;  /* stores a ROLE_FETCH_DECL local (`As[c][r] = a.x`) */
	bool computed;       /* stores a value computed from global loads (`As[i][j] = expf(A[k])`,
			      * `alpha * A[k]`): no tile read, no call but pure ones; src empty */
	bool guard_is_if;    /* `if (g) X = load; else X = fill;` rather than `g ? load : fill` */
	bool guard_negated;  /* `if (g) X = fill; else X = load;`: the load's guard is !(g) */
	bool in_macro;       /* its sides are macros' uses (`FLOAT4(s_a[i]) = FLOAT4(a[j])`): spans as written */
	struct span value_span; /* its right-hand side as written */
	int stmt;            /* top-level body statement holding it */
	bool async;          /* `cuda::memcpy_async(&As[i], &A[j], size, pipe)`: dst and src are the
			      * addresses (dst_cast; the load reads `type` through a cast of src_ptr,
			      * `*(const T *)(src)`), type one of size's bytes */
	CXCursor view;       /* the body's own view it stores through (`*A4s = *A4;`, `float4 *const
			      * A4s = (float4 *)&As[ty][t4x];` in the body): tile is the array it
			      * points into; null when none */
};

struct refusal {
	size_t offset;
	char *reason;
};

struct pipe_op {
	struct span at;  /* the call, through its ';' (and its line) where it stands as a statement */
	CXCursor pipe;   /* the pipeline it is called on */
};

/* A tile fill inside a __device__ helper the loop calls (`load_tile(As, Bs, A, B, k0)`, or a
 * function template's `load_tile<BM, BK>(As, A, lda)`). The cp.async rewrite calls a copy of the
 * helper (of the template) whose stores are asynchronous copies. */
struct helper_store {
	CXCursor store;           /* the assignment */
	struct span text;         /* the assignment, inside the helper */
	struct span dst, src;     /* the tile element written and the global element read */
	struct span guard, fill;  /* `g ? src : fill`, when guarded */
	CXCursor fill_value;
	char *base;               /* the global pointer: a valid source address when g is false */
	char *type;               /* the element type, for sizeof */
	long width;
};

struct helper_fill {
	int stmt;                 /* the call's body statement; -1 when there is none */
	char *name;
	CXCursor definition;      /* the function's, or the function template's */
	struct span def;          /* the helper's whole definition (a template's with its header) */
	size_t name_at;           /* its name in the definition */
	struct span callee;       /* its name in the loop's call (no qualifier, no template arguments) */
	struct span *decls;       /* its other declarations in this file (`template <int N = 4> void
				   * load(..);`), each with its ';', and where its name is in each */
	size_t *decl_names;
	int ndecls;
	struct helper_store *stores;
	int nstores, capstores;
	char *refusal;            /* why it cannot be pipelined; NULL when it can */
	size_t refusal_at;
};

/* A tile filled as one box of a 2-D operand (box.c): what a tensor copy (TMA) of it needs. */
struct tma_box {
	int tile;
	char *pointer;      /* the kernel parameter it is copied from */
	char *row_elems;    /* the operand's row length in elements: C over the kernel's parameters */
	char *col0, *row0;  /* the box's first column and row, C over what the loader sees */
	char *flat;         /* for a pointer the kernel moves: the box's first element from where
			     * it pointed on entry (pipefy_entry_P), which col0 and row0 divide */
	bool local;         /* flat reads a local pointer into the operand, not the moved operand */
	long long last_max; /* the copy's index is computed in 32 bits: the box's last element's
			     * index must not pass this (else the copies as written); 0 when 64 */
	char *fits;         /* a moved pointer's 32-bit offsets, each thread's in range (a
			     * condition the block votes on once); NULL when none */
	long box_cols, box_rows, elem_bytes; /* the box: as wide as the tile's row */
	long copy_cols;     /* the columns the copies write (fewer when the row is padded) */
	size_t align_at;    /* after the tile's `__shared__`, where alignas(128) goes */
};

/* A launch `k<<<grid, block[, bytes[, stream]]>>>(args)` pipefy can route through its launcher. */
struct tma_launch {
	struct span call;   /* from the kernel's name to the closing parenthesis */
	char *config[4];    /* grid, block, bytes, stream as written; NULL when absent */
	struct span args;   /* inside the parentheses */
};

/* A local of the function a guarded fill's load branch sets before its copy reads it, and the
 * branch's statements from that assignment on (body.c's take_branch_assign). */
struct assigned_local {
	CXCursor var;
	struct span branch;
};

struct kloop {
	/* find (find.c; body.c the body's parts, helper.c the fill calls) */
	bool not_kloop;      /* a loop with a barrier and shared writes that is no K-loop: only its
			      * reason (unknowns) is filled in, so that it gets a remark */
	char *function;
	bool function_has_errors;
	char *function_error; /* the first error in that function */
	CXCursor cursor;
	struct span loop;             /* the whole for statement */
	struct span init, cond, inc;  /* header parts, possibly empty */
	struct span body;             /* braces included */
	struct span pragmas;          /* `#pragma` lines right before the loop, which apply to it */
	struct span tail;             /* comments after the last statement, before the '}' */
	char *indent;                 /* the for line's indentation */
	char *unit;                   /* one level of the body's indentation */

	struct induction *ivars;
	int nivars, capivars;
	struct tile *tiles;
	int ntiles, captiles;
	struct copy *copies;
	int ncopies, capcopies;
	struct edits local_values; /* a guarded fill's branch locals (`{ const int off = ..; X = A[off]; }`):
				    * each use inside the copy -> `((int)(..))`, its value */
	struct assigned_local *assigned; /* locals of the function such a branch sets (`int i;` ..
					  * `i = ..; X = A[i];`): the copy reads its value (check.c
					  * proves nothing but such branches names them) */
	int nassigned, capassigned;
	struct body_stmt *stmts;
	int nstmts, capstmts;
	struct tile_ref *refs;
	int nrefs, caprefs;
	int nbarriers;
	int nwarp_syncs;   /* top-level __syncwarp() calls */
	bool piped;         /* the copies go through a cuda::pipeline (memcpy_async) */
	CXCursor pipe;      /* that pipeline's variable */
	struct pipe_op *pipe_ops; /* the body's calls on a cuda::pipeline nested inside other statements
				   * (`{ pipe.producer_acquire(); .. }`): removed where the statement
				   * is rendered */
	int npipe_ops, cappipe_ops;
	struct helper_fill *helpers; /* when no copy is in the body: the first call that passes a tile
				      * and the calls right after it that pass a tile too */
	int nhelpers;
	struct refusal *unknowns;     /* what find could not read, for check to refuse */
	int nunknowns, capunknowns;
	CXCursor function_cursor;     /* the kernel or __device__ function holding the loop */
	struct span function_span;    /* its definition; empty when find could not read the loop */
	CXCursor *scratch;            /* locals of the function declared before the loop that the
				       * copy side sets (`idx = ..;`, `row = ..` inside a fill), each
				       * iteration before it reads them, their value after the loop
				       * unread: each loader declares its own, so a tile early it sets
				       * no value the compute reads */
	int nscratch;

	/* measure (measure.c; ptxas.c: registers) */
	long shared_bytes;      /* all static __shared__ of the function, one stage; -1 unknown */
	long *instance_bytes;   /* per tile, one stage as the largest of the file's instantiations
				 * makes it, where its declared size depends on a template; -1 unknown */
	int block_threads;      /* 0: unknown */
	int block_dim[3];       /* its shape, x y z, where a launch or --block-size gives one of
				 * block_threads threads (or fewer, under __launch_bounds__); 0 unknown */
	char *block_shape_source; /* where block_dim came from ("launch at 12:5", "--block-size") */
	int threads_estimate;   /* when unknown, the threads that would fill the tiles (a stage's
				 * bytes over the bytes each thread copies): the planner's occupancy
				 * only; 0 none */
	char *block_source;     /* where block_threads came from */
	size_t block_unread;    /* block_threads 0: offset + 1 of the file's first launch of the
				 * function, whose block size pipefy could not read; 0 when none */
	size_t block_differs;   /* offset + 1 of a later launch whose block is not the first
				 * launch's (or not read): block_threads is the first's, for the
				 * plan; 0 when none */
	char *mangled;          /* the function's symbol, to match ptxas output */
	char **instance_symbols; /* a kernel template's: its instantiations' symbols, whose most
				  * registers ptxas gives are the kernel's */
	int ninstance_symbols;
	double flops_per_thread; /* per tile; < 0 when the compute could not be counted */
	bool compute_runtime_trips; /* a compute loop runs a number of trips known only at run time */
	const char *compute_block_dim; /* a compute loop's trips counted from block_dim: "blockDim.x"
					* (the first such bound); they hold only under the block-shape
					* guard (block_size_guard); NULL when none. When block_dim is
					* unknown and a bound is blockDim alone: that name, with
					* compute_runtime_trips */
	int min_blocks;      /* __launch_bounds__'s minimum blocks an SM; 0 when none */
	size_t gather_at;       /* offset + 1 of a copy-side division or modulo by a variable; 0 none */
	long staged_bytes;      /* what register staging (registers.c) holds a thread through a
				 * tile's compute: a register for each trip of each copy's load, and
				 * the locals its fetches declare; a template's largest over its
				 * instantiations; -1 unknown */

	int registers;          /* per thread, from ptxas (--ptxas); 0 unknown */
	int instantiations; /* a kernel template's: tile sizes are the largest of these launches' */
	/* tiles in dynamic shared memory: the launches pipefy gives more of it for more stages,
	 * all of the kernel's (measure), or why it cannot */
	struct launch_edit {
		struct span shared;   /* bytes, in `k<<<g, b, bytes>>>` */
		bool insert;          /* none asked for: `shared` is where `, bytes` goes */
	} *launch_edits;
	int nlaunch_edits, caplaunch_edits;
	long launch_dyn_bytes;      /* the largest launch's dynamic shared memory; -1 unknown */
	char *launch_unknown;       /* the first fact about them not established: why pipefy cannot
				     * give every launch more; NULL when it can */
	/* the kernel's launches in the file, for a tensor-copy variant's launcher */
	struct tma_launch *tma_launches;
	int ntma_launches, captma_launches;
	int other_launches;         /* launches left as written (in a macro, in device code, before
				     * the kernel's definition) */
	size_t kernel_name_at;      /* the kernel's name in its definition */
	size_t kernel_used_at;      /* offset + 1 of a use of the kernel's name that is no launch
				     * (`cudaFuncSetAttribute(k, ...)`, `&k`); 0 when none */
	size_t params_end;          /* the ')' that closes its parameter list */
	const char *copy_defined;   /* the file already has pipefy's copy of the kernel for a
				     * launcher: "tma" (tensor copies, from a producer warp or not),
				     * "ws" (ws-cp.async); NULL when not */

	/* boxes (box.c, after measure): each tile's box for the tensor copies, the block shape
	 * the copies assume (a condition on pipefy_block), or the first reason there is none */
	bool boxed;                 /* box.c read the loop (else none of these is known) */
	struct tma_box *boxes;
	int nboxes, capboxes;
	char *block_check;
	char *bump_fits;            /* the loop's bumps, computed in 32 bits, in range (uniform) */
	char *box_problem;
	size_t box_problem_at;

	/* check */
	struct refusal *refusals;
	int nrefusals, caprefusals;
	bool refused_both; /* the refusal is that neither cp.async nor register staging can take the
			    * loop (each one's reason in legal[]): a variant asked for names its own */
	/* each variant's verdict, indexed by enum variant (auto and no-loads have none): cp.async
	 * and ldg from the copies; tma, bulk (the boxes' rows can be bulk copies), ws (tensor
	 * copies from a producer warp) and ws-cp.async (cp.async copies from a producer warp,
	 * named barriers) from the boxes and the kernel's launches */
	struct legality legal[VARIANT_COUNT];
	char *one_stage;   /* why only a one-stage plan is legal; NULL when more are */
	char *one_stage_fact; /* its first fact alone, for a remark that says more (NULL: one_stage) */
	char *twice;       /* why the loop as written cannot appear twice in the function, as a
			    * guard on the block's size writes it (block_size_guard): "the loop's
			    * body declares the tile 'As'", a label; NULL when it can */
	bool stash_cursor; /* registers: a staged copy loop declares a local from the loop variables,
			    * so the stash takes the fetched tile's values of them */
	bool enlarge;      /* dynamic tiles: every launch (measure's launch_edits) may be given a
			    * copy of the layout a stage */
	char *enlarge_refusal; /* why not, where measure established every launch */
	/* static tiles: may they move into the launch's dynamic shared memory (past the static
	 * limit)? Every launch one of measure's launch_edits, asking for none; no extern __shared__
	 * in the kernel or what it calls; each tile declared alone, before the loop, in the one loop
	 * with a barrier of its function. promote_decls: each tile's declaration statement. */
	bool promote;
	char *promote_refusal; /* the first of those facts not established; NULL when promote */
	struct span *promote_decls;
	long ws_chunk;              /* ws-cp.async: the bytes of each of its cp.async copies */
	char *tma_collective;       /* the compute's first instruction a whole warp executes
				     * together (mma.sync, ldmatrix, wmma::...), or NULL */

	/* plan */
	enum variant variant;
	int stages;             /* 1 for LDG into a single stage */
	char *plan_note;        /* when the plan is not the one wanted: why */
	char *plan_reason;      /* why this variant */
	const char *one_stage_why; /* registers in one stage: why not two, in words; NULL otherwise */
	char *declined;         /* why the planner left a legal loop as written; NULL otherwise */
	char *hint;             /* the source's hint it followed (hints.c), as written; NULL when none */
	bool out_of_range;      /* outside --lines / --offset: neither rewritten nor reported */
	int assumed_registers;  /* what the occupancy counted with when registers is 0 (rules) */
	double ratio;           /* flops per byte of tile loaded; < 0 unknown */
	int launch_stages;      /* the stages the launches give (the kernel's most: plan_launch_stages) */
	long promoted_bytes;    /* > 0: the static tiles, staged, are this much of the launch's dynamic
				 * shared memory (check's promote; kloop_promoted_offset lays them out) */
	/* ws and ws-cp.async: the threads added to the block, a warp (32), or on sm_90a a warpgroup
	 * (128) that hands registers to the kernel's threads (setmaxnreg): the kernel is built for
	 * regs_blocks blocks an SM of its threads and the producer's, regs_entry registers a
	 * thread at launch; the producer keeps regs_producer, the kernel's threads take
	 * regs_consumer (plan.c); regs_note says why a warpgroup was not planned on sm_90a */
	int producer_threads;
	int regs_blocks, regs_entry, regs_producer, regs_consumer;
	char *regs_note;
	/* tma: the resident blocks an SM the plan counted with the kernel's measured
	 * registers (--ptxas), which the tensor-copy kernel's __launch_bounds__ holds it to (its
	 * copies' bookkeeping took a 1024-thread block from 32 registers to 39, one block an SM,
	 * on a public kernel); 0 when the registers were not measured */
	int keep_blocks;
	struct plan_option {
		enum variant variant;
		int stages;
		long smem;      /* static shared bytes; -1 unknown */
		int blocks;     /* resident blocks per SM; 0 unknown */
		int warps;
		int staged_registers; /* 4-byte registers a thread its staging holds through the compute
				       * (register staging); 0 none or unknown */
		char limiter[16];
		bool chosen;
		bool over_static; /* rejected: its static shared memory is over the limit */
		bool over_staging; /* rejected: its staging's registers are over the unmeasured limit */
		bool over_wanted;  /* not considered: more stages than wanted (asked for) */
		bool large_block;   /* rejected: a second register stage lost with blocks this large */
		bool promote;       /* its static tiles move into the launch's dynamic shared memory */
		enum { JUDGED_NOT_CONSIDERED = 1, JUDGED_REJECTED, JUDGED_FITS, JUDGED_CHOSEN } judged;
		char *verdict;
	} options[24];
	int noptions;

	/* rewrite: whether this round's output holds its pipeline */
	bool rewritten;
	/* validate (validate.c): why its rewrite did not come back as its pipeline; a later round
	 * rewrites it no more, and it is left as written with this remark */
	char *invalid;
};

/* Two launches one stream runs back to back in a host function (launch.c): the second may
 * start while the first finishes (programmatic dependent launch, sm_90) when its kernel waits
 * for the first before anything else. */
struct launch_pair {
	/* find (launch.c) */
	char *first, *second;    /* the kernels as the launches name them */
	size_t first_at;         /* the first launch */
	struct span call;        /* the second: from its kernel's name to its ')' */
	char *callee;            /* its kernel as named there, template arguments included */
	char *config[4];         /* grid, block, bytes, stream as written; NULL when absent */
	struct span args;        /* inside its parentheses */
	int nargs;
	CXCursor stmt;           /* the second launch's statement */
	CXCursor ref;            /* the function the second launch names (a specialization) */
	CXCursor kernel;         /* its definition (a template's), in this file; null otherwise */
	size_t body_open;        /* just after the '{' of that definition's body */
	CXCursor first_kernel;   /* the first launch's kernel definition, in this file; null otherwise */
	size_t first_body_open;
	CXCursor first_stmt, first_ref; /* the first launch's statement, and the function it names */
	struct span first_call;  /* the first launch: from its kernel's name to its ')' */
	char *first_config[4];   /* its grid, block, bytes, stream as written; NULL when absent */
	struct span first_args;
	int first_nargs;
	CXCursor host;           /* the host function both launches are in */
	struct cursors between;  /* the statements between them (error checks, assignments) */
	/* measure */
	char *mangled[2];        /* the first and the second kernel's symbols, to match ptxas output */
	int registers[2];        /* per thread, from ptxas (--ptxas); 0 unknown */
	/* check */
	char *refusal;           /* why the second launch cannot overlap the first; NULL when it can */
	size_t refusal_at;
	/* check: may both launches run as one persistent launch (--launches=queue, queue.c)? */
	char *queue_refusal;     /* (its remark stands at the first launch) */
	/* deps (deps.c), where check found nothing against the persistent launch */
	struct queue_accesses deps[2]; /* what each kernel may touch in global memory */
	char *waits_all;         /* why a block of the second kernel waits for every block of the
				  * first; NULL: only for the rows of blocks whose writes it may read */
	/* plan */
	bool overlap;
	char *reason;            /* why it overlaps, or why the planner keeps it as written */
	bool quiet;              /* not wanted here (architecture, option, rules): no remark, --report says why */
	size_t trigger_at;       /* --launches=early: where the first kernel lets its dependents start
				  * (after its K-loop, else first thing); 0: it does not */
	bool out_of_range;       /* outside --lines / --offset: left as it is, silently */
	bool queue;              /* they run as one persistent launch */
	char *queue_declined;    /* why not, where check found nothing against it: a loop's rewrite
				  * edits a launch, or another queue holds one */
	int queue_registers;     /* at most this many a thread for the persistent kernel; 0: no cap */
	/* rewrite */
	bool rewritten;
	/* validate: why the overlapped launch, or the persistent one, did not come back as pipefy
	 * writes it; a later round keeps the launches as written */
	char *invalid, *queue_invalid;
};

struct model {
	bool no_producers;          /* check does not weigh a producer warp (ws, ws-cp.async): the run
				       cannot use one (auto never picks one; --variant, a hint or
				       --report asks for it) */
	struct kloop *loops;
	int nloops, caploops;
	struct launch_pair *pairs;
	int npairs, cappairs;
	struct launches launches;   /* the file's launch statements (find_launches) */
	struct functions functions; /* its function definitions, where it has a launch */
	const char *preamble;       /* the precompiled header of its #include lines, when the parse
				       read one (the parse's: find_launches borrows it); the
				       declarations it holds are not among the file's */
	bool other_files;           /* other files may call its device functions (find, from the
				       parse: a header, relocatable device code) */
};

void find_kloops(struct model *m, const struct parsed *p, const struct source *src);
/* body.c: whether a register's initial value is fetched from global memory (`*(const float4
 * *)&A[i]`, `(float)A[i]`, `__half2float(A[i])`, `g ? load : fill`). */
bool body_fetch_value(CXCursor init);
/* The bytes a memcpy_async size argument copies; 0 when pipefy cannot read it. */
long body_async_bytes(CXCursor size);
/* Whether statement stmt assigns var whole before it reads it, on every way through it (`for (x =
 * 0; ..; ..)`): what it reads of var is its own. */
bool body_sets_first(CXCursor stmt, CXCursor var);
/* Whether d is a const integer that body (a K-loop's) declares from constants (`const int n =
 * BM * BK;`): a copy loop's trips in front of the loop take its initializer for its name. */
bool body_constant(CXCursor d, CXCursor function, struct span body);
/* A copy loop's own fetch (body_stmt.loop_fetch): the load it stages, the variable it writes,
 * and the type of what it writes (the staging register's). */
CXCursor body_loop_fetch_value(CXCursor fetch);
CXCursor body_loop_fetch_var(CXCursor fetch);
CXType body_loop_fetch_type(CXCursor fetch);
/* A kept fetch's (body_stmt.fetch_keep) two sides, `lhs = rhs`, in the file: the fetch writes
 * its register in place of lhs, the stash in place of rhs; or, where the assignment is one
 * macro's whole expansion (`MEM2REG(AV, A)`, *whole), lhs the argument its left side is and
 * rhs the macro's use, which the stash writes over as `AV = register`. False when neither. */
bool body_kept_sides(const struct source *src, const struct body_stmt *st, struct span *lhs, struct span *rhs,
		     bool *whole);
/* model.c */
void model_free(struct model *m);
/* A reason, formatted, and where (kloop_unknown's and kloop_refuse's). */
struct refusal refusal_make(size_t offset, const char *fmt, va_list ap);
/* The body statement whose text holds offset; -1 when none does. */
int kloop_stmt_at(const struct kloop *l, size_t offset);
/* The loop variable declared by decl: its index in l->ivars, or -1 (find.c). */
int kloop_ivar(const struct kloop *l, CXCursor decl);
/* The tile declared by decl: its index in l->tiles, or -1 (body.c). */
int kloop_tile(const struct kloop *l, CXCursor decl);
/* The fill helper whose call is body statement stmt; NULL when none is. */
const struct helper_fill *kloop_helper_at(const struct kloop *l, int stmt);
/* Bytes of one stage of all the loop's tiles; -1 when a size depends on a template. */
long kloop_tile_bytes(const struct kloop *l);
/* One stage of tile i: as declared, else as the file's largest instantiation makes it (after
 * measure); -1 unknown. */
long tile_bytes(const struct kloop *l, int i);
double kloop_ratio(const struct kloop *l); /* flops per byte of tile; -1 unknown */
/* blockDim.x where the pipelined loop runs (block_size_guard): the launch's shape's x, else the
 * block's threads (a 1-D block, which the guard then asks for); 0 unknown. */
int kloop_block_x(const struct kloop *l);
long kloop_promoted_offset(const struct kloop *l, int S, int tile);
/* Something find could not read; check refuses the loop for it. */
void kloop_unknown(struct kloop *l, size_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* launch.c: the file's launch statements, and its function definitions where it has one,
 * indexed once for every stage that reads them. */
void find_launches(struct model *m, const struct parsed *p, const struct source *src);
/* Every launch statement of a host function right after another launch statement on the same
 * stream, with its kernel's definition when this file has it. */
void find_launch_pairs(struct model *m, const struct source *src);

/* ---- measure.c: the numbers check and plan read beyond the loop's statements ---- */

/* Threads per block (__launch_bounds__, the first launch in the file, else --block-size), flops
 * per tile, static shared bytes, gathers in the copies, the function's symbol. */
void measure_kloops(struct model *m, const struct source *src, const struct options *o);
/* ptxas.c, --ptxas: registers per thread of each loop's kernel and each launch pair's, from
 * `nvcc -Xptxas -v` on the input (in $TMPDIR; a warning when there is no nvcc). */
void measure_registers(struct model *m, const struct source *src, const struct options *o, FILE *messages);

/* ---- box.c: each tile's copy as a box of a 2-D operand (tensor copies) ---- */

/* After measure, before check: each loop's boxes, or box_problem, the first fact missing. */
void box_kloops(struct model *m, const struct source *src);

/* ---- check.c: legality; every refusal a reason with a location ---- */

void check_kloops(struct model *m, const struct source *src);
/* Two variants' reasons as one, each one's first fact first: "A: fact; B: fact (A: rest; B: rest)". */
char *check_both_reasons(const char *first_name, const char *first, const char *second_name, const char *second);
/* The variants' facts (variant.c's rows name them): cp.async's plain copies of 4, 8 or 16
 * bytes; registers' one value a copy; the tensor family's boxes (tma, bulk and ws together) and
 * a producer warp's cp.async rows (ws-cp.async). */
void check_cp_async(struct kloop *l, const struct source *src, const struct effects *fx);
void check_ldg(struct kloop *l, const struct source *src, const struct effects *fx);
void check_boxes(struct kloop *l, const struct source *src, const struct effects *fx);
void check_ws_cp_async(struct kloop *l, const struct source *src, const struct effects *fx);
/* Whether each pair's second kernel can wait for the first before anything else, and its launch
 * go through pipefy_launch_dependent with the meaning it has. */
void check_launch_pairs(struct model *m, const struct source *src);
/* Whether each pair may run as one persistent launch (--launches=queue): queue_refusal. */
void check_launch_queues(struct model *m, const struct source *src, int arch);
/* The pair is left as written, for this reason (the first one given counts). */
void launch_pair_refuse(struct launch_pair *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The loop is not rewritten, for this reason (the refusals only check makes; validation's are
 * kloop.invalid). */
void kloop_refuse(struct kloop *l, size_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- plan.c: variant and stage count from rules/ ---- */

/* The rows' prefer hooks: auto's measured rules for tensor copies, register staging, cp.async. */
bool prefer_tensor(const struct variant_row *v, struct auto_facts *f, struct want *w);
bool prefer_registers(const struct variant_row *v, struct auto_facts *f, struct want *w);
bool prefer_cp_async(const struct variant_row *v, struct auto_facts *f, struct want *w);

struct arch_rules {
	int sm;
	char gpu[32];
	long smem_per_sm, smem_per_block_default, smem_per_block_optin, smem_reserved, smem_alloc_unit;
	int regs_per_sm, reg_alloc_unit, max_regs_per_thread, max_warps, max_blocks;
	char source[160];
};

struct variant_rules {
	double deep_stages_below_ratio;
	int cp_async_min_copy_bytes, default_stages, deep_stages, max_stages;
	double min_occupancy_fraction;
	int assumed_registers;
	bool leave_narrow_gathers_alone;
	bool short_tiles_prefer_ldg; /* wide copies under deep_stages_below_ratio: registers first */
	/* tensor copies (optional keys; off when absent): for copies narrower than
	 * cp_async_min_copy_bytes on sm_<tma_min_sm> and up, tma with tma_stages */
	bool tma_for_narrow_copies;
	int tma_narrow_max_copy_bytes; /* the widest copies that rule was measured on (0: any) */
	int tma_min_sm, tma_stages;
	char narrow_tma_evidence[160];
	/* setmaxnreg (optional keys; off when 0): what a producer warpgroup keeps, tensor copies
	 * (ws) and cp.async (ws-cp.async), and the measurement that says so */
	int producer_registers, producer_registers_cp_async;
	char producer_registers_evidence[200];
	/* and copies of cp_async_min_copy_bytes or more whose ratio is at least this (0: never) */
	double tma_wide_min_ratio;
	char wide_tma_evidence[160];
	/* overlapped launches (optional keys; kept as written when absent): from sm_<overlap_min_sm>,
	 * whether auto overlaps a launch with the one before it, and the measurement that says so */
	bool overlap_launches;
	int overlap_min_sm;
	char overlap_evidence[200];
	/* register staging (optional keys; no limit when absent): the most 4-byte registers a thread
	 * its staging may hold when ptxas has not measured the kernel's registers, and why */
	int max_staged_registers_unmeasured;
	bool leave_unknown_compute; /* auto leaves a loop whose compute's trip count is unknown */
	char unknown_compute_evidence[240];
	int ldg_one_stage_from_threads; /* blocks of this many threads or more: one register stage
					 * (0: no limit) */
	int tma_measured_from_threads;  /* blocks of this many threads or more: auto takes tensor
					 * copies only with measured registers (0: no limit) */
	char large_blocks_evidence[300];
	char staged_registers_evidence[240];
	/* the measurements the remarks quote (variants.json's evidence) */
	char short_tiles_evidence[160], narrow_gathers_evidence[160], narrow_cp_async_evidence[160];
	char narrow_cp_async_8_evidence[200]; /* 8-byte copies (from cp_async_min_copy_bytes 16) */
};

struct rules {
	struct arch_rules arch[16];
	int narch;
	struct variant_rules variants;
};

/* From dir/arch.json and dir/variants.json, or the copies compiled in when dir is NULL. */
bool rules_load(struct rules *r, const char *dir, char **err);
const struct arch_rules *rules_arch(const struct rules *r, int sm);
/* Resident blocks per SM the way the occupancy calculator counts them; registers 0 means
 * unknown (not limiting). *limiter names the binding limit. */
int occupancy_blocks(const struct arch_rules *a, int threads, int registers, long smem, const char **limiter);
/* hints.c: what the source asks for a loop: `// pipefy: off` (or `off-file` anywhere in the
 * file), `// pipefy: variant=V stages=N`, on the loop's line or the comment lines above it. */
struct loop_hint {
	bool off;
	enum variant variant; /* VARIANT_AUTO: none asked for */
	int stages;           /* 0: none asked for */
	size_t at;            /* the hint's `//` */
	char *text;           /* the comment, from its `//` */
	char *problem;        /* what pipefy cannot read in it; NULL when it reads it all */
};
struct loop_hint loop_hint(const struct source *src, size_t loop_begin);
/* Whether a `// pipefy: off-file` comment is in the file, and where. */
bool file_hint_off(const struct source *src, size_t *at);

/* Each unrefused loop's plan; loops outside --lines / --offset are marked out of range. */
/* A loop whose rewrite failed validation, under auto: that variant is out (its legality takes
 * validation's reason) and the loop is planned again among the others; true when another plan
 * was chosen (the caller rewrites and validates again). */
bool plan_fallback(struct kloop *l, const struct options *o, const struct rules *r, const struct source *src);
void plan_kloops(struct model *m, const struct options *o, const struct rules *r, const struct source *src);
/* The stages each kernel's launches give its tiles in dynamic shared memory (launch_stages):
 * the most of its loops that are to be rewritten (again after validation refuses one). */
void plan_launch_stages(struct model *m);
/* After plan_kloops: which legal pairs overlap (a kernel whose launches go through a loop's
 * launcher keeps them). */
void plan_launch_pairs(struct model *m, const struct options *o, const struct rules *r);
extern const char rules_arch_json[], rules_variants_json[];

/* ---- rewrite.c: model + plan -> edits ---- */

void rewrite_kloops(struct model *m, const struct source *src, struct edits *e);
/* queue.c: the pairs the planner queued, as one persistent launch each; whether there was one. */
bool rewrite_launch_queues(struct model *m, const struct source *src, struct edits *e);
extern const char queue_helpers[], queue_intervals[]; /* (validate.c compares the output's with them) */
char *queue_item_name(const struct launch_pair *p, int q, bool second);
/* The helpers an overlapped launch uses, as written once into the file (validate.c checks them):
 * the wait, the trigger (--launches=early only), the launcher and the block's closing line. */
extern const char rewrite_overlap_helpers[], rewrite_overlap_trigger[], rewrite_overlap_launcher[];

/* ---- validate.c: the output parsed again; each rewritten loop must be pipefy's pipeline ---- */

/* Loops whose rewrite fails are refused (a remark says why) and no longer rewritten; returns
 * how many failed. warm: the input's parse read its preamble from the cache (parse_rewritten). */
int validate_rewrite(struct model *m, const struct source *src, const struct options *o, const struct edits *e,
		     const char *output, int input_errors, bool warm);

/* ---- emit.c: remarks and diagnostics in compiler format, the output ---- */

void emit_diagnostic(FILE *out, const struct source *src, size_t offset, const char *severity,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void emit_remarks(FILE *out, const struct model *m, const struct source *src);
/* A remark's message on one line and at most `max` characters: cut at the end of a clause
 * (`; `, `: ` or ` (` outside parentheses and quotes), REMARK_MORE in place of the rest. */
#define REMARK_MAX 200
#define REMARK_MORE " (--report says more)"
char *remark_text(const char *msg, size_t max);
/* --report: per loop, the budget table, the ratio, the choice and the alternatives: one file's
 * part of the run's report (json: an array of its records; yaml: its documents; text: its
 * paragraphs), which report.c makes one document of. */
void emit_report(FILE *out, const char *format, const struct model *m, const struct source *src, int arch);
/* A --report=json record's message, whole, as its remark words it. */
struct json_t;
char *record_message(struct json_t *rec, bool passed);
/* The loops the remarks say were pipelined, and left as written (a `not pipelined` remark). */
void emit_count(const struct model *m, int *pipelined, int *left);
/* --dry-run: `file:l:c: warning: K-loop can be pipelined (cp.async, 2 stages) [-Wpipefy]`. */
void emit_dry_run(FILE *out, const struct model *m, const struct source *src, bool werror);
/* clang-format's <replacements> XML for the edits, and the same as JSON. */
void emit_replacements_xml(FILE *out, const struct edits *e, long cursor);
/* Where byte `position` of the input is in the output, as clang-format moves --cursor: past the
 * edits before it; inside a replacement, to the replacement's end, or kept where it lies in the
 * replacement's text. */
size_t emit_shifted_position(const struct edits *e, size_t position);
void emit_replacements_json(FILE *out, const struct edits *e);
/* --export-fixes: one entry of clang-tidy's exported Diagnostics (`  - DiagnosticName: pipefy`,
 * the message, the file's edits as Replacements, edits at one offset merged into one, as
 * clang-apply-replacements wants them); path and build_dir absolute. */
void emit_fixes(FILE *out, const char *path, const char *build_dir, const struct edits *e, const char *message);
/* The document's head: `---`, MainSourceFile, `Diagnostics:`. */
void emit_fixes_header(FILE *out, const char *main_file);
/* A unified diff (3 lines of context) built from the edits themselves. */
void emit_unified_diff(FILE *out, const struct source *src, const struct edits *e);

/* ---- report.c: the run's report, one document ---- */

/* The parts of a run's report (emit_report's, one a file; NULL: none) as one document of the
 * format: a JSON array, a YAML stream, text. */
char *report_join(const char *format, const char *const *parts, int n);
/* --report=html: one file's sections: per loop (and launch pair) the original and rewritten
 * code side by side, the remark, the record's numbers, and an SVG of the chosen schedule. */
void report_html(FILE *out, const struct model *m, const struct source *src, int arch, const struct edits *e,
		 const char *output);

/* ---- pipefy.c: one input through every stage ---- */

struct result {
	char *output;     /* the rewritten text, or a copy of the input */
	int exit_code;    /* 0, or 1 when nothing could be done because of errors */
	int nrewritten;
	int nerrors;      /* clang's errors in the input, in functions pipefy left alone or not */
	char *deps;       /* with -MF: the files the parse read, one per line */
	char *report;     /* with --report: this file's part of the report (emit_report's text) */
	int npipelined, nleft; /* loops pipelined (or can be, --dry-run) and left as written */
	struct edits edits; /* what turned the input into output, by byte offset */
};

/* Run the stages on src, writing diagnostics and remarks to messages (may be NULL). */
struct result pipefy_transform(const struct source *src, const struct options *o, FILE *messages);

#endif
