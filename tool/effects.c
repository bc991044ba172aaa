/* effects.c: what code may do. Which memory a statement or a called function may write,
 * which variables it may change, where a __shared__ array's address goes, and what an asm
 * statement's instructions are. Facts only: check.c judges legality with them, and anything
 * these functions cannot see is reported as unknown, never as harmless. */
#include "pipefy.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

#define MAX_DEPTH 4 /* helpers calling helpers: deeper than this is unknown */

void effects_free(struct effects *fx)
{
	free(fx->what);
	free(fx->shared_what);
	free(fx->unseen);
	free(fx->collective);
	free(fx->vars.v);
	memset(fx, 0, sizeof *fx);
}

/* Sets the flag; the first effect of a kind other than a tile write is the one named. */
static void note(struct effects *fx, bool *flag, CXCursor at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void note(struct effects *fx, bool *flag, CXCursor at, const char *fmt, ...)
{
	*flag = true;
	bool shared = flag == &fx->shared;
	if (shared ? fx->shared_what != NULL : fx->what != NULL)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *what = vxprintf(fmt, ap);
	va_end(ap);
	size_t off = cursor_in_main_file(at) ? cursor_span(at).begin : (size_t)-1;
	if (shared) {
		fx->shared_what = what;
		fx->shared_at = off;
	} else {
		fx->what = what;
		fx->at = off;
		fx->at_cursor = at;
	}
}

/* The first call pipefy cannot see into, in words (what, allocated). */
static void note_unseen(struct effects *fx, CXCursor at, char *what)
{
	fx->unseen = what;
	fx->unseen_at = cursor_in_main_file(at) ? cursor_span(at).begin : (size_t)-1;
}

static bool type_is_indirect(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_Pointer || t.kind == CXType_LValueReference || t.kind == CXType_RValueReference;
}

/* Through a pointer or reference parameter, may the callee write what it points at? A
 * parameter declared as an array (`float s[NY][NX]`, which libclang shows as written) is a
 * pointer to its first element. */
static bool pointee_is_const(CXType t)
{
	t = clang_getCanonicalType(t);
	bool array = t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
		     t.kind == CXType_DependentSizedArray || t.kind == CXType_VariableArray;
	if (t.kind != CXType_Pointer && t.kind != CXType_LValueReference && t.kind != CXType_RValueReference && !array)
		return true;
	CXType p = array ? clang_getArrayElementType(t) : clang_getPointeeType(t);
	while (p.kind == CXType_ConstantArray || p.kind == CXType_IncompleteArray)
		p = clang_getArrayElementType(p);
	/* (a reference to a pointer, `float *const &dst`: the callee writes through the pointer it
	 * refers to, `dst[i] = v`, whatever the reference lets it do to the pointer itself) */
	if (t.kind != CXType_Pointer && !array && clang_getCanonicalType(p).kind == CXType_Pointer &&
	    !pointee_is_const(clang_getCanonicalType(p)))
		return false;
	return clang_isConstQualifiedType(p);
}

/* A variable with automatic storage in a function: a write to it changes nothing anyone else
 * can see. Parameters passed by value are locals too. */
bool effects_is_local(CXCursor var)
{
	enum CXCursorKind k = clang_getCursorKind(var);
	if (k == CXCursor_ParmDecl)
		return clang_getCanonicalType(clang_getCursorType(var)).kind != CXType_LValueReference &&
		       clang_getCanonicalType(clang_getCursorType(var)).kind != CXType_RValueReference;
	if (k != CXCursor_VarDecl || cursor_is_shared_var(var))
		return false;
	enum CX_StorageClass sc = clang_Cursor_getStorageClass(var);
	if (sc == CX_SC_Static || sc == CX_SC_Extern)
		return false;
	enum CXCursorKind parent = clang_getCursorKind(clang_getCursorSemanticParent(var));
	if (parent != CXCursor_FunctionDecl && parent != CXCursor_FunctionTemplate && parent != CXCursor_CXXMethod &&
	    parent != CXCursor_LambdaExpr)
		return false;
	CXType t = clang_getCanonicalType(clang_getCursorType(var));
	return t.kind != CXType_LValueReference && t.kind != CXType_RValueReference;
}

/* A pointer that is an lvalue's own address, cast or not: `&x`, `(float4 *)&r[0]`, an array's
 * name (decayed). Indexing or dereferencing it writes that lvalue's storage, not what some
 * pointer holds (`FLOAT4(r[0]) = ..` writes the local array r). */
static bool is_address_of(CXCursor p)
{
	p = cursor_strip(p);
	while (cursor_kind_is_cast(clang_getCursorKind(p)))
		p = cursor_strip(cursor_last_child(p));
	if (clang_getCursorKind(p) == CXCursor_UnaryOperator)
		return clang_getCursorUnaryOperatorKind(p) == CXUnaryOperator_AddrOf;
	return type_kind_is_sized_array(clang_getCanonicalType(clang_getCursorType(p)).kind);
}

/* The variable an lvalue is rooted at, and whether the write goes through a pointer (or a
 * reference) rather than into the variable itself or an array or struct it holds. */
static CXCursor lvalue_root(CXCursor c, bool *through)
{
	c = cursor_strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		CXType t = clang_getCanonicalType(clang_getCursorType(d));
		if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
			*through = true;
		return d;
	}
	if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr) {
		CXCursor base = cursor_first_child(c);
		/* the base as written: an array indexed in place is not a pointer (its decay is); a
		 * base whose type a template decides (`P p; p[i] = v;`) may be one */
		enum CXTypeKind bk = clang_getCanonicalType(clang_getCursorType(cursor_strip(base))).kind;
		bool object = type_kind_is_sized_array(bk) || bk == CXType_IncompleteArray || bk == CXType_Record;
		if ((bk == CXType_Pointer && !is_address_of(base)) || (bk != CXType_Pointer && !object))
			*through = true;
		if (k == CXCursor_MemberRefExpr && clang_Cursor_isNull(base))
			return clang_getNullCursor(); /* a member of `this` */
		return lvalue_root(base, through);
	}
	if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) {
		if (!is_address_of(cursor_last_child(c)))
			*through = true;
		return lvalue_root(cursor_last_child(c), through);
	}
	if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf)
		return lvalue_root(cursor_last_child(c), through);
	if (k == CXCursor_BinaryOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		if (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) {
			struct cursors cs = cursor_children(c);
			CXCursor r = clang_getNullCursor();
			for (int i = 0; i < cs.n && clang_Cursor_isNull(r); i++) {
				CXType t = clang_getCanonicalType(clang_getCursorType(cs.v[i]));
				if (t.kind == CXType_Pointer || t.kind == CXType_ConstantArray)
					r = lvalue_root(cs.v[i], through);
			}
			free(cs.v);
			return r;
		}
	}
	if (cursor_kind_is_cast(k))
		return lvalue_root(cursor_last_child(c), through);
	return clang_getNullCursor();
}

static void add_var(struct effects *fx, CXCursor var)
{
	for (int i = 0; i < fx->vars.n; i++)
		if (clang_equalCursors(fx->vars.v[i], var))
			return;
	*VEC_PUSH(fx->vars.v, fx->vars.n, fx->vars.cap) = var;
}

/* Where a scan is: the loop body (no parameters), or a helper's body, whose writes through
 * its own pointer and reference parameters are its caller's to map onto the arguments. */
struct fx_scan {
	struct effects *fx;
	int depth;
	const struct source *src;
	CXCursor *params;
	int nparams;
	bool *param_written;
};

static int param_index(const struct fx_scan *s, CXCursor var)
{
	for (int p = 0; p < s->nparams; p++)
		if (clang_equalCursors(var, s->params[p]))
			return p;
	return -1;
}

/* `s[ty][tx] = ..` where s is a parameter declared as an array (`float s[NY][NX]`): a
 * parameter is never an array, it is a pointer to its first row, so the write goes through it
 * to the caller's memory, whatever type the subscripts show. */
static bool subscripts_parameter(CXCursor target, CXCursor var)
{
	CXCursor c = cursor_strip(target);
	bool subscripted = false;
	for (; clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr; c = cursor_strip(cursor_first_child(c)))
		subscripted = true;
	return subscripted && clang_getCursorKind(c) == CXCursor_DeclRefExpr && clang_getCursorKind(var) == CXCursor_ParmDecl &&
	       clang_equalCursors(clang_getCursorReferenced(c), var);
}

/* A write of the lvalue `target`: into a local (recorded in vars), through a parameter of
 * the helper being read, or into memory. */
static void record_write_of(struct fx_scan *s, CXCursor target, CXCursor var, bool through, CXCursor at);

static void record_write(struct fx_scan *s, CXCursor target, CXCursor at)
{
	bool through = false;
	CXCursor var = lvalue_root(target, &through);
	if (!clang_Cursor_isNull(var) && !through && subscripts_parameter(target, var))
		through = true;
	record_write_of(s, target, var, through, at);
}

/* Whether a struct holds a pointer (a field of one, or of a struct it holds). */
struct field_scan {
	bool found;
	int depth;
};

static bool record_holds_pointer(CXType t, int depth);

static enum CXVisitorResult scan_field(CXCursor field, CXClientData data)
{
	struct field_scan *f = data;
	CXType t = clang_getCanonicalType(clang_getCursorType(field));
	while (t.kind == CXType_ConstantArray)
		t = clang_getCanonicalType(clang_getArrayElementType(t));
	if (t.kind == CXType_Pointer || (t.kind == CXType_Record && record_holds_pointer(t, f->depth + 1))) {
		f->found = true;
		return CXVisit_Break;
	}
	return CXVisit_Continue;
}

static bool record_holds_pointer(CXType t, int depth)
{
	struct field_scan f = {false, depth};
	if (depth > 4)
		return true; /* (deeper than pipefy looks: taken to) */
	clang_Type_visitFields(t, scan_field, &f);
	return f.found;
}

/* Whether a value of type t holds a pointer: one itself, or an array or struct of them (through
 * references and arrays). */
static bool type_holds_pointer(CXType t)
{
	t = clang_getCanonicalType(t);
	while (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference || t.kind == CXType_ConstantArray ||
	       t.kind == CXType_IncompleteArray)
		t = clang_getCanonicalType(t.kind == CXType_LValueReference || t.kind == CXType_RValueReference
						   ? clang_getPointeeType(t) : clang_getArrayElementType(t));
	return t.kind == CXType_Pointer || (t.kind == CXType_Record && record_holds_pointer(t, 0));
}

/* A write a callee makes through the pointer argument arg: into what arg points at, which is
 * the variable itself only where arg is its address or an array it names (`&x`, `buf`); through
 * a pointer value (`W`, `W + off`) it is memory (an attack: `poke(W, i, v)` writing `w[i]` was
 * taken for a write of the parameter W, a local, and the compute's store into A went unseen). */
static void record_write_pointee(struct fx_scan *s, CXCursor arg, CXType param, CXCursor at)
{
	bool through = false;
	CXCursor var = lvalue_root(arg, &through);
	/* (the pointer is the argument's value, whatever holds it: `W`, `v.p`, `(float *)addr`) */
	if (!is_address_of(arg) && clang_getCanonicalType(clang_getCursorType(arg)).kind == CXType_Pointer)
		through = true;
	/* (a pointer to pointers or to a struct, `float **p`, `&s`: the callee may write through
	 * what it reaches there, `p[0][i] = v`, `s->A[i] = v`: memory) */
	CXType pointee = clang_getCanonicalType(clang_getPointeeType(clang_getCanonicalType(param)));
	if (pointee.kind == CXType_Pointer || pointee.kind == CXType_Void ||
	    (pointee.kind == CXType_Record && record_holds_pointer(pointee, 0)))
		through = true;
	record_write_of(s, arg, var, through, at);
}

static void record_write_of(struct fx_scan *s, CXCursor target, CXCursor var, bool through, CXCursor at)
{
	struct effects *fx = s->fx;
	if (clang_Cursor_isNull(var)) {
		char *t = s->src ? span_text(s->src, cursor_span(target)) : xstrdup("?");
		note(fx, &fx->memory, at, "writes '%s', which pipefy cannot trace to a variable", t);
		free(t);
		return;
	}
	if (!through)
		add_var(fx, var); /* the variable itself changes, not what it points at */
	int p = param_index(s, var);
	if (p >= 0 && (through || type_is_indirect(clang_getCursorType(var)))) {
		s->param_written[p] = true;
		return;
	}
	if (cursor_is_shared_var(var)) {
		char *n = cursor_name(var);
		note(fx, &fx->shared, at, "writes the __shared__ array '%s'", n);
		free(n);
	} else if (through || !effects_is_local(var)) {
		char *n = cursor_name(var);
		note(fx, &fx->memory, at, "writes %s'%s'%s", through ? "memory through " : "", n, through ? "" : ", which is not a local");
		free(n);
	}
}

/* ---- asm ---- */

/* The asm statement as spelled: inside a macro's definition when it comes from one. */
/* `asm volatile("ldmatrix ..." : "=r"(R) : "r"(addr))` in a macro's body whose operands are the
 * macro's arguments (the statement's end is spelled at the macro's use): its text up to the
 * first ':' when only string literals, blanks and line continuations come before it, the
 * instruction then written in the body; NULL otherwise (a template handed in as an argument). */
static char *macro_asm_spelling(const char *text, size_t size)
{
	const char *p = text, *end = text + size;
	while (p < end && (isalpha((unsigned char)*p) || *p == '_' || isspace((unsigned char)*p)))
		p++; /* asm, __asm__, volatile */
	if (p == end || *p != '(')
		return NULL;
	bool literal = false;
	for (p++; p < end && *p != ':'; p++) {
		if (*p == '"') {
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			if (p == end)
				return NULL;
			literal = true;
		} else if (!isspace((unsigned char)*p) && *p != '\\')
			return NULL;
	}
	return p < end && literal ? xstrndup(text, (size_t)(p - text)) : NULL;
}

static char *asm_spelling(CXCursor c)
{
	struct file_text t = cursor_file_text(c);
	if (!t.text)
		return NULL;
	if (!t.one_file)
		return macro_asm_spelling(t.text + t.begin, t.size - t.begin);
	/* the extent ends at the last token's start: take in the ')' */
	size_t end = t.end;
	while (end < t.size && t.text[end] != ')' && t.text[end] != ';' && t.text[end] != '\n')
		end++;
	return xstrndup(t.text + t.begin, end - t.begin + (end < t.size && t.text[end] == ')'));
}

/* How many output operands the asm statement has (`: "=f"(x), "=r"(y) :` two); -1 when its
 * text cannot be read so (its operands are then all taken for outputs). */
static int asm_outputs(CXCursor c)
{
	struct file_text t = cursor_file_text(c);
	if (!t.text)
		return -1;
	const char *p = t.text + t.begin, *end = t.text + t.size;
	while (p < end && *p != '(')
		p++;
	int depth = 0, count = -1;
	bool entry = false;
	for (; p < end; p++) {
		if (*p == '"') {
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			entry = true;
			continue;
		}
		if (*p == '(' || *p == '[')
			depth++;
		else if (*p == ')' || *p == ']') {
			if (--depth == 0) /* (the statement's end: outputs only, or no operands) */
				return count < 0 ? 0 : count + entry;
		} else if (depth == 1 && *p == ':') {
			if (count >= 0) /* (the inputs start) */
				return count + entry;
			count = 0, entry = false;
		} else if (depth == 1 && *p == ',' && count >= 0) {
			count++, entry = false;
		} else if (depth == 1 && count >= 0 && !isspace((unsigned char)*p) && *p != '\\')
			entry = true;
	}
	return -1;
}

/* The instruction template: the string literals before the first ':' outside them; NULL where
 * anything else stands there (`asm(STS_F32 : ...)`, a macro or a name whose text is not the
 * template: what it runs is unknown). */
static char *asm_template(const char *text)
{
	struct strbuf sb = {0};
	const char *p = strchr(text, '(');
	if (!p)
		return xstrdup("");
	for (p++; *p && *p != ':' && *p != ')';) {
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1]) {
					p++;
					sb_add(&sb, *p == 'n' || *p == 't' ? " ; " : p, *p == 'n' || *p == 't' ? 3 : 1);
				} else
					sb_add(&sb, p, 1);
			}
			if (*p)
				p++;
		} else if (isspace((unsigned char)*p) || *p == '\\') {
			p++;
		} else if (p[0] == '/' && p[1] == '/') { /* (a comment between the literals: `".." // d`) */
			p += strcspn(p, "\n");
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			p = end ? end + 2 : p + strlen(p);
		} else {
			free(sb.data);
			return NULL;
		}
	}
	return sb.data ? sb_take(&sb) : xstrdup("");
}

/* PTX instructions that only compute in registers or read memory. */
static const char *const read_only_ptx[] = {
	"mma", "ldmatrix", "ld", "ldu", "mov", "cvt", "cvta", "fma", "add", "sub", "mul", "mad", "and", "or",
	"xor", "not", "shl", "shr", "prmt", "setp", "selp", "set", "min", "max", "neg", "abs", "ex2", "lg2",
	"rcp", "sqrt", "rsqrt", "sin", "cos", "tanh", "bfe", "bfi", "brev", "popc", "clz", "lop3", "shf",
	"dp4a", "dp2a", "div", "rem", "testp", "copysign", "movmatrix", "mul24", "mad24", "sad", "fns", NULL,
};

/* Instructions that mean the code already overlaps its copies: asynchronous copies, their
 * barriers, and the tensor-core instructions that read shared memory asynchronously. */
static const char *const async_ptx[] = {
	"cp.async", "cp.reduce.async", "mbarrier", "wgmma", "tensormap", "griddepcontrol", NULL,
};

char *effects_asm_template(CXCursor c)
{
	char *text = asm_spelling(c);
	if (!text)
		return NULL;
	char *tpl = asm_template(text);
	free(text);
	return tpl;
}

bool effects_asm_mentions(CXCursor c, const char *what)
{
	char *tpl = effects_asm_template(c);
	if (!tpl)
		return true; /* (a template pipefy cannot read may say anything) */
	bool found = false; /* (as a word: `bar.sync`, not `mbarrier.arrive`'s `barrier.arrive`) */
	for (const char *p = tpl; !found && (p = strstr(p, what)); p++)
		found = p == tpl || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
	free(tpl);
	return found;
}

enum asm_kind effects_asm(CXCursor c, char **instruction)
{
	*instruction = NULL;
	char *text = asm_spelling(c);
	if (!text) {
		*instruction = xstrdup("asm");
		return ASM_OTHER;
	}
	char *tpl = asm_template(text);
	free(text);
	if (!tpl) {
		*instruction = xstrdup("asm");
		return ASM_OTHER;
	}
	enum asm_kind kind = ASM_READS;
	for (const char *const *a = async_ptx; *a && kind == ASM_READS; a++)
		if (strstr(tpl, *a)) {
			*instruction = xstrdup(*a);
			kind = ASM_ASYNC;
		}
	for (char *p = tpl; *p && kind == ASM_READS;) {
		/* one instruction: up to ';' */
		char *end = strchr(p, ';');
		if (end)
			*end = '\0';
		while (*p && (isspace((unsigned char)*p) || *p == '{' || *p == '}'))
			p++;
		if (*p == '@') /* a predicate */
			while (*p && !isspace((unsigned char)*p))
				p++;
		while (*p && isspace((unsigned char)*p))
			p++;
		char *colon = strchr(p, ':');
		if (colon && !strchr(p, ' ') && colon[1] == '\0')
			p = colon + 1; /* a label */
		if (*p && *p != '.' && *p != '}' && *p != '{') {
			size_t n = strcspn(p, ". \t{}");
			bool known = false;
			for (const char *const *r = read_only_ptx; *r && !known; r++)
				known = strlen(*r) == n && strncmp(p, *r, n) == 0;
			/* (a load with a memory order, or volatile: a wait's or a synchronization's) */
			size_t len = strcspn(p, " \t{}");
			static const char *const ordered[] = {".acquire", ".relaxed", ".volatile", ".mmio", ".sc", NULL};
			for (const char *const *o = ordered; *o && known; o++) {
				const char *q = strstr(p, *o);
				known = !(q && q < p + len);
			}
			if (!known) {
				*instruction = xstrndup(p, strcspn(p, " \t{}"));
				kind = ASM_OTHER;
			}
		}
		if (!end)
			break;
		p = end + 1;
	}
	free(tpl);
	return kind;
}

/* ---- calls ---- */

/* Library functions (CUDA's headers, the C library) that write memory or synchronize. */
static bool library_call_writes(const char *name)
{
	static const char *const prefixes[] = {"atomic", "__nv_atomic", "__st", "__stcg", "__stcs", "memcpy", "memset",
					       "memmove", "__pipeline", "__syncthreads", "__threadfence", NULL};
	for (const char *const *p = prefixes; *p; p++)
		if (strncmp(name, *p, strlen(*p)) == 0)
			return true;
	return strstr(name, "store") || strstr(name, "atomic") || strstr(name, "memcpy_async") ||
	       strstr(name, "arrive") || strstr(name, "wait") || strcmp(name, "sync") == 0;
}

/* Library calls that order this thread's accesses with other threads' (a fence), read past
 * the caches to see another thread's write (`__ldcv`, as a wait on a flag does) or sleep in
 * such a wait: code after them may depend on their order, which a load moved above them would
 * not keep. */
static bool orders_memory(const char *name)
{
	static const char *const prefixes[] = {"__threadfence", "__ldcv", "__nanosleep", NULL};
	for (const char *const *p = prefixes; *p; p++)
		if (strncmp(name, *p, strlen(*p)) == 0)
			return true;
	return false;
}

/* A cooperative groups' sync of the grid (`this_grid().sync()`, `cg::sync(grid)`, a
 * multi-grid's): a barrier across blocks, after which the code may read what they wrote. */
static bool grid_sync(CXCursor call, const char *name)
{
	if (strcmp(name, "sync") != 0)
		return false;
	CXCursor callee = cursor_strip(cursor_first_child(call));
	CXCursor object = clang_getCursorKind(callee) == CXCursor_MemberRefExpr ? cursor_first_child(callee)
		: clang_Cursor_getNumArguments(call) > 0 ? clang_Cursor_getArgument(call, 0) : clang_getNullCursor();
	if (clang_Cursor_isNull(object))
		return false;
	CXString t = clang_getTypeSpelling(clang_getCursorType(object));
	bool grid = strstr(clang_getCString(t), "grid_group") != NULL;
	clang_disposeString(t);
	return grid;
}

/* Library calls whose value is not a function of their arguments: a clock, another lane's
 * value (a warp's vote or shuffle), the active lanes. */
static bool reads_state(const char *name)
{
	static const char *const prefixes[] = {"clock", "__clock", "__globaltimer", "__activemask", "__ballot", "__any",
					       "__all", "__shfl", "__match", "__reduce", "__syncwarp", "__uni", NULL};
	for (const char *const *p = prefixes; *p; p++)
		if (strncmp(name, *p, strlen(*p)) == 0)
			return true;
	return false;
}

/* A call that ends the thread or the kernel, stops it in a debugger, or prints: run a tile early
 * or by a thread that did not run it (a producer warp's), it does what the program did not. */
static bool stops(const char *name)
{
	static const char *const names[] = {"__trap", "__brkpt", "__assert_fail", "__assertfail", "abort", "exit",
					    "_Exit", "printf", "vprintf", "__nanosleep", NULL};
	for (const char *const *p = names; *p; p++)
		if (strcmp(name, *p) == 0)
			return true;
	return false;
}

/* Whether a call is handed what points at memory, as passed or as its parameter takes it: a
 * pointer, an array, an rvalue reference, or (unless any_ref) a non-const lvalue reference; a
 * const reference reads only the argument, which the caller's scan sees (`half h = x;`). */
static bool handed_memory(CXCursor call, CXCursor callee, bool any_ref)
{
	int n = clang_Cursor_getNumArguments(call);
	for (int i = 0; i < n; i++) {
		CXCursor parm = clang_Cursor_getArgument(callee, (unsigned)i);
		CXType t[2] = {clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i))),
			       clang_Cursor_isNull(parm) ? (CXType){.kind = CXType_Invalid}
							 : clang_getCanonicalType(clang_getCursorType(parm))};
		for (int j = 0; j < 2; j++) {
			enum CXTypeKind k = t[j].kind;
			if (k == CXType_Pointer || k == CXType_RValueReference || k == CXType_ConstantArray ||
			    k == CXType_IncompleteArray ||
			    (!any_ref && k == CXType_LValueReference && !clang_isConstQualifiedType(clang_getPointeeType(t[j]))))
				return true;
		}
	}
	return false;
}

bool effects_pure_call(CXCursor call)
{
	CXCursor callee = clang_getCursorReferenced(call);
	enum CXCursorKind ck = clang_getCursorKind(callee);
	if (clang_Cursor_isNull(callee) || (ck != CXCursor_FunctionDecl && ck != CXCursor_Constructor) ||
	    !effects_in_system_header(callee))
		return false;
	char *name = cursor_name(call);
	bool pure = !library_call_writes(name) && !orders_memory(name) && !reads_state(name) && !stops(name);
	free(name);
	return pure && !handed_memory(call, callee, false);
}

bool effects_library_reads_through(CXCursor call)
{
	CXCursor callee = clang_getCursorReferenced(call);
	return !clang_Cursor_isNull(callee) && effects_in_system_header(callee) && handed_memory(call, callee, true);
}

/* CUDA's headers and the C library, or pipefy's own compatibility prelude for them. */
bool effects_in_system_header(CXCursor decl)
{
	CXSourceLocation at = clang_getCursorLocation(decl);
	if (clang_Location_isInSystemHeader(at))
		return true;
	CXFile f;
	clang_getSpellingLocation(at, &f, NULL, NULL, NULL);
	CXString name = clang_getFileName(f);
	const char *n = clang_getCString(name);
	bool compat = n && strncmp(n, "/pipefy-compat", 14) == 0;
	clang_disposeString(name);
	return compat;
}

struct fx_scan;
static void function_effects(CXCursor def, int depth, struct effects *fx, const struct source *src,
			     bool *param_written, int nparams);

/* A call: what the callee may do, and which of the caller's variables it may change (those
 * passed by non-const reference or pointer). */
static void note_collective(struct effects *fx, CXCursor at, char *what);

/* Whether every candidate takes argument i (of type arg) by value or as a pointer to (reference
 * to) const: whichever the instantiation picks, the call does not write through it. */
static bool overloads_read_only(CXCursor overloads, int i, CXType arg)
{
	unsigned n = clang_getNumOverloadedDecls(overloads);
	for (unsigned k = 0; k < n; k++) {
		CXCursor parm = cursor_nth_param(clang_getOverloadedDecl(overloads, k), i);
		/* (past a variadic candidate's parameters: the argument as passed) */
		if (!pointee_is_const(clang_Cursor_isNull(parm) ? arg : clang_getCursorType(parm)))
			return false;
	}
	return true;
}

/* In a template, a call the instantiation resolves among a library's overloads (`__hfma(a, b,
 * c)` of __half or __nv_bfloat16, `wmma::load_matrix_sync(...)`): the library's functions, all
 * of one name, read by that name like any of them. A qualified name picks among them alone; an
 * unqualified one only when it is reserved to the implementation (`__x`), which no program
 * declares, so that argument-dependent lookup finds no other. */
static bool library_overloads(CXCursor overloads, CXCursor callee, const struct source *src)
{
	unsigned n = clang_getNumOverloadedDecls(overloads);
	if (n < 2)
		return false;
	for (unsigned k = 0; k < n; k++) {
		CXCursor d = clang_getOverloadedDecl(overloads, k);
		enum CXCursorKind dk = clang_getCursorKind(d);
		if ((dk != CXCursor_FunctionDecl && dk != CXCursor_FunctionTemplate) || !effects_in_system_header(d))
			return false;
	}
	char *written = span_text(src, cursor_span(callee)); /* as the call writes it */
	char *spelled = cursor_name(overloads);
	written[strcspn(written, "<")] = '\0'; /* (the name, not its template arguments) */
	bool ok = strstr(written, "::") || strncmp(spelled, "__", 2) == 0;
	free(written);
	free(spelled);
	return ok;
}

/* A template's call, or one the instantiation resolves: what it runs may be an explicit
 * specialization, or an overload argument-dependent lookup finds there, in the file or its
 * headers; every function of the callee's name but def adds what it may do. */
static void namesake_effects(CXCursor call, CXCursor callee, CXCursor def, struct fx_scan *s, bool *written, int n)
{
	char *name = cursor_name(callee);
	struct cursors fns;
	if (!pure_namesakes(clang_Cursor_getTranslationUnit(call), name, &fns))
		note(s->fx, &s->fx->unknown, call, "calls '%s', whose overloads in the headers pipefy could not read again", name);
	for (int i = 0; i < fns.n; i++) {
		enum CXCursorKind k = clang_getCursorKind(fns.v[i]);
		CXCursor other = clang_getCursorDefinition(fns.v[i]);
		if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
			continue; /* (a member: an unqualified call finds none) */
		if (clang_Cursor_isNull(other)) {
			if (!clang_equalCursors(clang_getCanonicalCursor(fns.v[i]), clang_getCanonicalCursor(def)))
				note(s->fx, &s->fx->unknown, call, "calls '%s', one of whose declarations pipefy cannot see defined", name);
			continue;
		}
		if (clang_equalCursors(other, def) || s->depth + 1 >= MAX_DEPTH)
			continue;
		bool more[64] = {false};
		function_effects(other, s->depth + 1, s->fx, s->src, more, n);
		for (int j = 0; j < n; j++)
			written[j] = written[j] || more[j];
	}
	free(name);
}

static void call_effects(CXCursor call, struct fx_scan *s)
{
	struct effects *fx = s->fx;
	int depth = s->depth;
	const struct source *src = s->src;
	CXCursor callee = clang_getCursorReferenced(call);
	CXCursor overloads = clang_getNullCursor(); /* a library's overloads, the call's candidates */
	char *name = cursor_name(call);
	int nargs = clang_Cursor_getNumArguments(call);
	if (clang_Cursor_isNull(callee)) {
		/* in a template, `dot_row<TS>(As, Bs, r, c)`: a name with one candidate, the
		 * function (template) it will call; `L::load(...)` names none */
		CXCursor f = cursor_strip(cursor_first_child(call));
		CXCursor r = clang_getCursorKind(f) == CXCursor_OverloadedDeclRef ? f : clang_getCursorReferenced(f);
		if (clang_getCursorKind(r) == CXCursor_OverloadedDeclRef) {
			if (library_overloads(r, f, src))
				overloads = r;
			r = clang_getNumOverloadedDecls(r) == 1 || !clang_Cursor_isNull(overloads) ? clang_getOverloadedDecl(r, 0)
												       : clang_getNullCursor();
		}
		enum CXCursorKind rk = clang_getCursorKind(r);
		if (rk == CXCursor_FunctionTemplate || rk == CXCursor_FunctionDecl) {
			callee = r;
			if (!*name) {
				free(name);
				name = cursor_name(r);
			}
		}
	}
	enum CXCursorKind ck = clang_getCursorKind(callee);
	bool method = ck == CXCursor_CXXMethod;
	if (clang_Cursor_isNull(callee) || (ck != CXCursor_FunctionDecl && ck != CXCursor_CXXMethod &&
					    ck != CXCursor_Constructor && ck != CXCursor_ConversionFunction &&
					    ck != CXCursor_FunctionTemplate)) {
		if (!*name) { /* a name the template's parameters decide: as written */
			free(name);
			name = span_text(src, cursor_span(cursor_first_child(call)));
		}
		note(fx, &fx->unknown, call, "calls '%s', which pipefy cannot resolve", *name ? name : "a function");
		if (!fx->unseen && !cursor_unresolved_operator(call))
			note_unseen(fx, call, xprintf("calls '%s', which pipefy cannot resolve", *name ? name : "a function"));
		free(name);
		return;
	}
	bool library = effects_in_system_header(callee);
	bool written[64] = {false};
	int n = nargs < 64 ? nargs : 64;
	if (library) {
		if (grid_sync(call, name))
			note(fx, &fx->unknown, call, "synchronizes the grid ('%s'), after which other blocks' writes are seen", name);
		else if (orders_memory(name))
			note(fx, &fx->unknown, call, "calls '%s', which waits for or orders what other threads write", name);
		else if (library_call_writes(name))
			note(fx, &fx->memory, call, "calls '%s'", name);
		char *space = cursor_name(clang_getCursorSemanticParent(callee));
		if (strcmp(space, "wmma") == 0)
			note_collective(fx, call, xprintf("wmma::%s", name));
		free(space);
	} else {
		CXCursor def = clang_getCursorDefinition(callee);
		if (clang_Cursor_isNull(def) || depth >= MAX_DEPTH) {
			note(fx, &fx->unknown, call, "calls '%s', %s", name,
			     clang_Cursor_isNull(def) ? "whose definition pipefy cannot see" : "through too many helpers to follow");
			if (!fx->unseen && clang_Cursor_isNull(def))
				note_unseen(fx, call, xprintf("calls '%s', whose definition pipefy cannot see", name));
		}
		else if (ck != CXCursor_Constructor || !clang_Cursor_isNull(def)) {
			char *before = fx->collective;
			function_effects(def, depth + 1, fx, src, written, n);
			if (ck == CXCursor_FunctionTemplate || !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(callee)) ||
			    clang_Cursor_isNull(clang_getCursorReferenced(call)))
				namesake_effects(call, callee, def, s, written, n);
			if (!before && fx->collective) /* (where the loop calls it) */
				fx->collective_at = cursor_span(call).begin;
		}
	}
	/* arguments bound to non-const references or pointers (a call of an object's operator(),
	 * a lambda's, hands the object first: the parameters take the arguments after it) */
	int skip = clang_getCursorKind(callee) == CXCursor_CXXMethod && clang_Cursor_getNumArguments(callee) >= 0 &&
			   nargs == clang_Cursor_getNumArguments(callee) + 1 ? 1 : 0;
	for (int i = 0; i + skip < n; i++) {
		CXCursor arg = clang_Cursor_getArgument(call, (unsigned)(i + skip));
		CXCursor parm = clang_Cursor_getArgument(callee, (unsigned)i);
		CXType pt = clang_Cursor_isNull(parm) ? clang_getCursorType(arg) : clang_getCursorType(parm);
		/* (a struct handed by value that holds a pointer, `View v` with `v.p[i] = x`: the
		 * callee's write through it is memory) */
		CXType ptc = clang_getCanonicalType(pt);
		/* (a value the callee writes through, `View v` with `v.p[i] = x`, `size_t a` with
		 * `((float *)a)[i] = x`: what it points at is memory) */
		bool by_value = ptc.kind != CXType_Pointer && ptc.kind != CXType_LValueReference &&
				ptc.kind != CXType_RValueReference && ptc.kind != CXType_ConstantArray &&
				ptc.kind != CXType_IncompleteArray && ptc.kind != CXType_DependentSizedArray;
		bool carries = by_value && written[i] && !library;
		if (!carries &&
		    (clang_Cursor_isNull(overloads) ? pointee_is_const(pt) : overloads_read_only(overloads, i, clang_getCursorType(arg))))
			continue;
		if (!library && !written[i])
			continue; /* the helper was read: it does not write through this one */
		bool through = false;
		CXCursor var = lvalue_root(arg, &through);
		if (!clang_Cursor_isNull(var) && cursor_is_shared_var(var)) {
			char *v = cursor_name(var);
			add_var(fx, var);
			note(fx, &fx->shared, arg, "hands the __shared__ array '%s' to a call that may write it", v);
			free(v);
		} else if (ptc.kind == CXType_Pointer)
			record_write_pointee(s, arg, pt, arg); /* what the argument points at */
		else if (carries || ((ptc.kind == CXType_LValueReference || ptc.kind == CXType_RValueReference) &&
				     type_holds_pointer(clang_getPointeeType(ptc))))
			/* (a pointer the argument holds or a reference reaches, `float *&p`, `float *(&ws)[2]`:
			 * the callee's write through it, `p[i] = x`, is memory) */
			record_write_of(s, arg, var, true, arg);
		else
			record_write(s, arg, arg); /* the variable a reference binds */
	}
	/* a method may change its object */
	if (method && !clang_CXXMethod_isConst(callee) && !library) {
		CXCursor object = cursor_first_child(call);
		if (clang_getCursorKind(object) == CXCursor_MemberRefExpr) {
			CXCursor obj = cursor_first_child(object);
			if (!clang_Cursor_isNull(obj))
				record_write(s, obj, call);
		}
	}
	free(name);
}

static enum CXChildVisitResult scan_effects(CXCursor c, void *data);

/* The first instruction a whole warp must execute together, and where. */
static void note_collective(struct effects *fx, CXCursor at, char *what)
{
	if (fx->collective) {
		free(what);
		return;
	}
	fx->collective = what;
	fx->collective_at = cursor_span(at).begin;
}

/* An asm statement's first `.aligned` instruction (the warp executes it together), or NULL. */
static char *asm_aligned(CXCursor c)
{
	char *text = asm_spelling(c);
	char *tpl = text ? asm_template(text) : NULL;
	free(text);
	const char *hit = tpl ? strstr(tpl, ".aligned") : NULL;
	char *what = NULL;
	if (hit) {
		const char *b = hit; /* back to the start of its mnemonic */
		while (b > tpl && !isspace((unsigned char)b[-1]) && b[-1] != '{' && b[-1] != ';' && b[-1] != '"')
			b--;
		what = xstrndup(b, strcspn(b, " \t;{}\""));
	}
	free(tpl);
	return what;
}

/* A call spelled '' whose first child names the function it calls, as in a template a call
 * whose callee depends on its parameters does (`L::load(As, ...)`); a builtin conversion or
 * operator has no such child. */
static bool names_a_callee(CXCursor c)
{
	if (clang_getCursorType(c).kind != CXType_Dependent)
		return false;
	struct cursors kids = cursor_children(c);
	CXCursor first = kids.n ? cursor_strip(kids.v[0]) : clang_getNullCursor();
	enum CXCursorKind fk = clang_getCursorKind(first), rk = clang_getCursorKind(clang_getCursorReferenced(first));
	/* (its arguments after the callee, and before them a template-id's own arguments,
	 * `load<NX, NY>(..)`) */
	bool named = kids.n >= clang_Cursor_getNumArguments(c) + 1 &&
		     (fk == CXCursor_DeclRefExpr || fk == CXCursor_OverloadedDeclRef || fk == CXCursor_MemberRefExpr) &&
		     rk != CXCursor_VarDecl && rk != CXCursor_ParmDecl && rk != CXCursor_FieldDecl;
	free(kids.v);
	return named;
}

static void scan_one(CXCursor c, struct fx_scan *s)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor target, value, from, size, pipe;
	if (cursor_write_parts(c, &target, &value) != WRITE_NONE)
		record_write(s, target, c);
	else if (cursor_async_copy(c, &target, &from, &size, &pipe) &&
		 clang_getCursorKind(cursor_strip(target)) == CXCursor_UnaryOperator &&
		 clang_getCursorUnaryOperatorKind(cursor_strip(target)) == CXUnaryOperator_AddrOf)
		record_write(s, cursor_first_child(cursor_strip(target)), c); /* (a copy into *target) */
	else if (cursor_pipeline_op(c, &pipe) >= 0)
		add_var(s->fx, pipe); /* (a cuda::pipeline local's call changes that local: its count of the
				       * thread's copies committed and waited for) */
	else if (k == CXCursor_CallExpr && !cursor_is_barrier(c)) {
		char *name = cursor_name(c);
		/* operators and conversions of builtin types resolve to nothing: they are arithmetic;
		 * but in a template a call of a name that depends on its parameters (`L::load(As,
		 * ...)`, found on a probe, its callee a child of its own) is spelled '' too, and may
		 * do anything */
		bool plain = *name == '\0' ? !names_a_callee(c)
					    : strncmp(name, "operator", 8) == 0 && clang_Cursor_isNull(clang_getCursorReferenced(c));
		free(name);
		if (!plain)
			call_effects(c, s);
	} else if (cursor_is_barrier(c))
		note(s->fx, &s->fx->syncs, c, "synchronizes the block");
	else if (k == CXCursor_AsmStmt || k == CXCursor_GCCAsmStmt || k == CXCursor_MSAsmStmt) {
		char *ins;
		enum asm_kind ak = effects_asm(c, &ins);
		if (ak != ASM_READS)
			note(s->fx, &s->fx->unknown, c, "runs the asm instruction '%s'", ins);
		free(ins);
		char *aligned = asm_aligned(c);
		if (aligned)
			note_collective(s->fx, c, aligned);
		/* its outputs come first among its operands (all of them where pipefy cannot count
		 * them); an input, `"l"(&A[i])`, is read */
		struct cursors ops = cursor_children(c);
		int outputs = asm_outputs(c);
		for (int i = 0; i < (outputs < 0 || outputs > ops.n ? ops.n : outputs); i++) {
			bool through = false;
			CXCursor var = lvalue_root(ops.v[i], &through);
			/* (a __shared__ array's element, `"=f"(As[ty][tx])`, is shared memory written) */
			if (!clang_Cursor_isNull(var) && !through && !cursor_is_shared_var(var))
				add_var(s->fx, var);
			else if (!clang_Cursor_isNull(var))
				record_write(s, ops.v[i], c);
		}
		free(ops.v);
	}
}

static enum CXChildVisitResult scan_effects(CXCursor c, void *data)
{
	struct fx_scan *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_LambdaExpr) {
		note(s->fx, &s->fx->unknown, c, "defines a lambda");
		return CXChildVisit_Continue;
	}
	/* a volatile access outside shared memory: a flag another thread sets, as a wait reads */
	if ((k == CXCursor_ArraySubscriptExpr || k == CXCursor_UnaryOperator || k == CXCursor_MemberRefExpr ||
	     k == CXCursor_DeclRefExpr) &&
	    clang_isVolatileQualifiedType(clang_getCursorType(c))) {
		bool through = false;
		CXCursor var = lvalue_root(c, &through);
		if (clang_Cursor_isNull(var) || !(cursor_is_shared_var(var) || cursor_is_shared_view(var)))
			note(s->fx, &s->fx->unknown, c, "accesses volatile memory (a flag another thread sets?), whose order "
							"with the loads around it the code may depend on");
	}
	scan_one(c, s);
	return CXChildVisit_Recurse;
}

/* A helper: writes through its pointer and reference parameters set param_written (the
 * caller maps them onto its arguments); every other effect is the caller's too. A write
 * through a pointer local may hit anything: memory. */
static void function_effects(CXCursor def, int depth, struct effects *fx, const struct source *src,
			     bool *param_written, int nparams)
{
	int np = clang_Cursor_getNumArguments(def);
	CXCursor params[64];
	int n = np < 0 ? 0 : np < 64 ? np : 64;
	for (int i = 0; i < n; i++)
		params[i] = clang_Cursor_getArgument(def, (unsigned)i);
	struct effects inner = {0};
	bool pw[64] = {false};
	struct fx_scan s = {.fx = &inner, .depth = depth, .src = src, .params = params, .nparams = n, .param_written = pw};
	cursor_visit(def, scan_effects, &s);
	for (int i = 0; i < n && i < nparams; i++)
		param_written[i] = pw[i];
	/* a lambda's writes to the locals it captured by reference, `[&] { lim += 2; }`: the
	 * caller's own variables (a function can reach no other function's locals) */
	struct span own = cursor_span(def);
	for (int i = 0; i < inner.vars.n; i++)
		if (effects_is_local(inner.vars.v[i]) && !cursor_declared_within(inner.vars.v[i], own))
			add_var(fx, inner.vars.v[i]);
	char *name = cursor_name(def);
	if (inner.what) {
		bool *flag = inner.unknown ? &fx->unknown : inner.syncs ? &fx->syncs : &fx->memory;
		char *what = xprintf("calls '%s', which %s", name, inner.what);
		note(fx, flag, inner.at_cursor, "%s", what);
		free(what);
	}
	if (inner.shared_what) {
		char *what = xprintf("calls '%s', which %s", name, inner.shared_what);
		note(fx, &fx->shared, def, "%s", what);
		free(what);
	}
	if (inner.unseen && !fx->unseen) {
		fx->unseen = xprintf("calls '%s', which %s", name, inner.unseen);
		fx->unseen_at = inner.unseen_at;
	}
	free(name);
	if (inner.collective) {
		note_collective(fx, def, inner.collective);
		inner.collective = NULL;
	}
	fx->unknown |= inner.unknown;
	fx->shared |= inner.shared;
	fx->syncs |= inner.syncs;
	fx->memory |= inner.memory;
	effects_free(&inner);
}

void effects_of(CXCursor stmt, const struct source *src, struct effects *fx)
{
	struct fx_scan s = {.fx = fx, .src = src};
	scan_one(stmt, &s);
	cursor_visit(stmt, scan_effects, &s);
}

bool effects_writes_var(const struct effects *fx, CXCursor var)
{
	for (int i = 0; i < fx->vars.n; i++)
		if (clang_equalCursors(fx->vars.v[i], var))
			return true;
	return false;
}

/* Whether a value is proven to be all zero bits, as a zero-filling copy stores: evaluated
 * (`0`, `0.0f`, `float(0)`, but not `-0.0f` or `double(0) + 1.0`), or built from such values
 * (`make_float4(0, 0, 0, 0)`, `{}`, `__float2half(0.f)`). */
bool effects_is_zero(CXCursor c)
{
	c = cursor_strip(c);
	if (clang_Cursor_isNull(c))
		return false;
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (r) {
		CXEvalResultKind ek = clang_EvalResult_getKind(r);
		bool zero = false, known = true;
		if (ek == CXEval_Int)
			zero = clang_EvalResult_getAsLongLong(r) == 0;
		else if (ek == CXEval_Float) {
			double v = clang_EvalResult_getAsDouble(r);
			zero = v == 0.0 && !signbit(v);
		} else
			known = false;
		clang_EvalResult_dispose(r);
		if (known)
			return zero;
	}
	enum CXCursorKind k = clang_getCursorKind(c);
	static const char *const builders[] = {"make_float2", "make_float4", "make_int2", "make_int4", "make_uint2",
					       "make_uint4", "make_double2", "make_half2", "__float2half", "__float2half_rn",
					       "__float2bfloat16", "__float2bfloat16_rn", "__floats2half2_rn",
					       "__floats2bfloat162_rn", "make_float3", "make_int3", NULL};
	bool builder = k == CXCursor_InitListExpr || cursor_kind_is_cast(k);
	if (k == CXCursor_CallExpr) {
		char *name = cursor_name(c);
		for (const char *const *b = builders; *b && !builder; b++)
			builder = strcmp(name, *b) == 0 && effects_in_system_header(clang_getCursorReferenced(c));
		free(name);
	}
	if (!builder)
		return false;
	struct cursors cs = cursor_children(c);
	bool zero = true;
	int values = 0;
	for (int i = 0; i < cs.n && zero; i++) {
		enum CXCursorKind ck = clang_getCursorKind(cs.v[i]);
		if (ck == CXCursor_TypeRef || ck == CXCursor_NamespaceRef || ck == CXCursor_TemplateRef ||
		    (k == CXCursor_CallExpr && i == 0 && ck != CXCursor_IntegerLiteral && ck != CXCursor_FloatingLiteral &&
		     clang_getCursorKind(cursor_strip(cs.v[i])) == CXCursor_DeclRefExpr &&
		     clang_getCursorKind(clang_getCursorReferenced(cursor_strip(cs.v[i]))) == CXCursor_FunctionDecl))
			continue; /* the callee or the type named */
		zero = effects_is_zero(cs.v[i]);
		values++;
	}
	free(cs.v);
	return zero && (values > 0 || k == CXCursor_InitListExpr);
}

/* Whether assigning a T copies its bytes and does nothing else: scalars, pointers, arrays of
 * such, and classes whose copy and move assignments are defaulted and whose bases and
 * fields are such (a user-written operator= may do anything, and the rewrite would run it
 * twice, or not at all). */
struct assign_scan {
	bool ok;
	int depth;
};

static bool type_assigns_bytes(CXType t, int depth);

static enum CXChildVisitResult scan_record(CXCursor c, void *data)
{
	struct assign_scan *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CXXMethod && (clang_CXXMethod_isCopyAssignmentOperator(c) || clang_CXXMethod_isMoveAssignmentOperator(c)) &&
	    !clang_CXXMethod_isDefaulted(c))
		s->ok = false;
	else if (k == CXCursor_FieldDecl || k == CXCursor_CXXBaseSpecifier)
		s->ok = type_assigns_bytes(clang_getCursorType(c), s->depth + 1);
	return s->ok ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* The toolkit's pairs of 16-bit floats write their copy and move assignments out, and each copies
 * the bits (cuda_fp16.hpp, cuda_bf16.hpp: `__HALF2_TO_UI(*this) = __HALF2_TO_CUI(src)` on the
 * device, the two halves on the host); the header must be a system one, the toolkit's. */
static bool toolkit_bit_pair(CXType t)
{
	CXCursor d = clang_getTypeDeclaration(t);
	if (!effects_in_system_header(d))
		return false;
	CXString n = clang_getCursorSpelling(d);
	const char *s = clang_getCString(n);
	bool pair = strcmp(s, "__half2") == 0 || strcmp(s, "__nv_bfloat162") == 0;
	clang_disposeString(n);
	return pair && clang_getCursorKind(clang_getCursorSemanticParent(d)) == CXCursor_TranslationUnit;
}

static bool type_assigns_bytes(CXType t, int depth)
{
	t = clang_getCanonicalType(t);
	while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
		t = clang_getCanonicalType(clang_getArrayElementType(t));
	if (t.kind == CXType_Record && toolkit_bit_pair(t))
		return true;
	if (t.kind == CXType_Record) {
		if (depth > 8)
			return false;
		struct assign_scan s = {.ok = true, .depth = depth};
		cursor_visit(clang_getTypeDeclaration(t), scan_record, &s);
		return s.ok;
	}
	return t.kind != CXType_Invalid && t.kind != CXType_Unexposed && t.kind != CXType_Dependent;
}

bool effects_assigns_bytes(CXType t)
{
	return type_assigns_bytes(t, 0);
}

/* The first call in an expression of a function outside the system headers (the program's own,
 * `GetValue(A, K, r, c)`); a null cursor when it calls none. */
static enum CXChildVisitResult scan_program_call(CXCursor c, void *data)
{
	if (clang_getCursorKind(c) == CXCursor_CallExpr) {
		CXCursor fn = clang_getCursorReferenced(c);
		if (!clang_Cursor_isNull(fn) &&
		    (clang_getCursorKind(fn) == CXCursor_FunctionDecl || clang_getCursorKind(fn) == CXCursor_FunctionTemplate) &&
		    !effects_in_system_header(fn)) {
			*(CXCursor *)data = c;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

CXCursor effects_program_call(CXCursor expr)
{
	CXCursor found = clang_getNullCursor();
	scan_program_call(expr, &found);
	if (clang_Cursor_isNull(found))
		cursor_visit(expr, scan_program_call, &found);
	return found;
}

/* `load_float4(A, row, col, n)`: a function of this file that returns a value, loads global
 * memory through its pointer parameters, names no variable but its own and its parameters, and
 * writes nothing but its own locals: a load, as its call's value (body.c's computed copies;
 * check.c reads through its pointer arguments as through a load's). */
struct user_load_scan {
	struct span own;
	CXCursor other; /* a variable neither its own nor a parameter (a __shared__ one, a global) */
	bool load;
};

static enum CXChildVisitResult scan_user_load(CXCursor c, void *data)
{
	struct user_load_scan *u = data;
	CXCursor base;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		enum CXCursorKind dk = clang_getCursorKind(d);
		if ((dk == CXCursor_VarDecl && !cursor_declared_within(d, u->own)) || cursor_is_shared_var(d))
			u->other = d;
	} else if (cursor_global_load(c, &base) && clang_getCursorKind(base) == CXCursor_ParmDecl)
		u->load = true;
	return clang_Cursor_isNull(u->other) ? CXChildVisit_Recurse : CXChildVisit_Break;
}

char *effects_load_function_problem(CXCursor call)
{
	CXCursor callee = clang_getCursorReferenced(call);
	CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
	if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_FunctionDecl || !cursor_in_main_file(def))
		return xstrdup("is no function defined in this file");
	if (clang_getCursorResultType(def).kind == CXType_Void)
		return xstrdup("returns nothing");
	for (int i = 0; i < clang_Cursor_getNumArguments(def); i++) {
		enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(def, (unsigned)i))).kind;
		if (t == CXType_LValueReference || t == CXType_RValueReference)
			return xstrdup("takes a reference");
	}
	struct user_load_scan u = {cursor_span(def), clang_getNullCursor(), false};
	cursor_visit(def, scan_user_load, &u);
	if (!clang_Cursor_isNull(u.other)) {
		char *n = cursor_name(u.other), *why = xprintf("reads '%s', neither its own nor a parameter", n);
		free(n);
		return why;
	}
	if (!u.load)
		return xstrdup("loads nothing through its pointer parameters");
	struct effects fx = {0};
	effects_of(call, NULL, &fx);
	bool quiet = !fx.memory && !fx.shared && !fx.unknown && !fx.syncs && !fx.collective && fx.vars.n == 0;
	effects_free(&fx);
	return quiet ? NULL : xstrdup("writes more than its own locals, or does what pipefy cannot see");
}

bool effects_load_function(CXCursor call)
{
	char *why = effects_load_function_problem(call);
	free(why);
	return why == NULL;
}
