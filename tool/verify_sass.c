/* verify_sass.c: pipefy-verify-sass, the overlap check on compiled code. It finds each
 * K-loop in SASS (cuobjdump -sass) or PTX (nvcc -ptx) — a loop that holds a block barrier
 * and compute instructions — and says how its loads relate to its compute:
 *   cp.async  asynchronous copies (LDGSTS / cp.async) issued before the first compute
 *             instruction of the iteration, with no barrier between them;
 *   ldg       global loads before the compute with no barrier between, and shared stores
 *             after the last compute instruction;
 *   tma       tensor copies (UTMALDG / cp.async.bulk.tensor) issued before the first compute
 *             instruction of the iteration, or after the last one and before the next
 *             iteration's, with no barrier between them;
 *   bulk      bulk copies (UBLKCP / cp.async.bulk) likewise;
 *   ws-cp.async  asynchronous copies in a loop that arrives at named barriers without waiting
 *             (BAR.ARV / barrier.arrive), twice or more: a producer warp's copies, its signal
 *             that a stage has landed and the threads' that they are done with one (the copies
 *             and the compute are on two sides of a branch, so a barrier lies between them in
 *             the text); or, a producer warpgroup's (sm_90a), a loop that arrives at a named
 *             barrier after its compute while another loop of the kernel, without compute,
 *             issues the async copies and arrives at named barriers;
 *   plain     anything else: the loads wait for the barrier before the compute.
 * Stand-alone (no libclang) so that it runs where the GPU and cuobjdump are. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* OP_MBAR: a wait on an mbarrier phase, which makes a loop a K-loop as a block barrier does, but
 * orders only the stage it waits for: copies issued before it stay in flight. */
enum op_class { OP_OTHER, OP_ASYNC, OP_COMMIT, OP_WAIT, OP_BAR, OP_LDG, OP_STS, OP_COMPUTE, OP_TENSOR, OP_BULK, OP_MBAR, OP_ARRIVE,
		OP_BRANCH };

struct insn {
	long addr;          /* SASS address, or line number in PTX */
	enum op_class cls;
	long target;        /* for a branch: the target's addr; -1 when unknown */
	char mnemonic[32];
};

struct function {
	char name[512];
	struct insn *v;
	int n, cap;
};

static void *grow(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		fputs("pipefy-verify-sass: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

static bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static enum op_class sass_class(const char *m)
{
	if (starts(m, "LDGSTS")) return OP_ASYNC;
	if (starts(m, "UTMALDG")) return OP_TENSOR;
	if (starts(m, "UBLKCP")) return OP_BULK;
	if (starts(m, "SYNCS.PHASECHK")) return OP_MBAR;
	if (starts(m, "LDGDEPBAR")) return OP_COMMIT;
	if (starts(m, "DEPBAR")) return OP_WAIT;
	if (starts(m, "BAR.SYNC") || starts(m, "BAR.RED") || strcmp(m, "BAR") == 0) return OP_BAR;
	if (starts(m, "BAR.ARV")) return OP_ARRIVE;
	/* (a texture fetch, TLD or TEX, loads global memory into registers too) */
	if (starts(m, "LDG") || starts(m, "TLD") || (starts(m, "TEX") && !starts(m, "TEXDEPBAR"))) return OP_LDG;
	if (starts(m, "STS")) return OP_STS;
	if (starts(m, "HMMA") || starts(m, "IMMA") || starts(m, "FFMA") || starts(m, "HGMMA") ||
	    starts(m, "IGMMA") || starts(m, "DMMA") || starts(m, "DFMA"))
		return OP_COMPUTE;
	if (starts(m, "HFMA2") && !starts(m, "HFMA2.MMA")) /* ptxas moves constants with HFMA2.MMA */
		return OP_COMPUTE;
	if (starts(m, "BRA")) return OP_BRANCH;
	return OP_OTHER;
}

static enum op_class ptx_class(const char *m)
{
	if (starts(m, "cp.async.commit_group")) return OP_COMMIT;
	if (starts(m, "cp.async.wait")) return OP_WAIT;
	if (starts(m, "cp.async.ca") || starts(m, "cp.async.cg")) return OP_ASYNC;
	if (starts(m, "cp.async.bulk.tensor")) return OP_TENSOR;
	if (starts(m, "cp.async.bulk.shared") || starts(m, "cp.async.bulk.global")) return OP_BULK;
	if (starts(m, "mbarrier.try_wait") || starts(m, "mbarrier.test_wait")) return OP_MBAR;
	if (starts(m, "bar.sync") || starts(m, "barrier.sync") || starts(m, "bar.red") || starts(m, "barrier.cta.sync"))
		return OP_BAR;
	if (starts(m, "bar.arrive") || starts(m, "barrier.arrive") || starts(m, "barrier.cta.arrive")) return OP_ARRIVE;
	if (starts(m, "ld.global") || starts(m, "tex.")) return OP_LDG; /* (a texture fetch: into registers too) */
	if (starts(m, "st.shared")) return OP_STS;
	if (starts(m, "mma.sync") || starts(m, "wmma.mma") || starts(m, "fma.rn.") || starts(m, "wgmma.mma_async"))
		return OP_COMPUTE;
	if (starts(m, "bra")) return OP_BRANCH;
	return OP_OTHER;
}

static struct insn *push(struct function *f)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 256;
		f->v = grow(f->v, f->cap * sizeof *f->v);
	}
	memset(&f->v[f->n], 0, sizeof f->v[f->n]);
	return &f->v[f->n++];
}

/* A new instruction of f at addr, its mnemonic read at p (PTX's, which may hold ':', or SASS's)
 * and classed, no target yet. */
static struct insn *push_insn(struct function *f, long addr, const char *p, bool ptx)
{
	struct insn *i = push(f);
	i->addr = addr;
	sscanf(p, ptx ? "%31[A-Za-z0-9._:]" : "%31[A-Za-z0-9._]", i->mnemonic);
	i->cls = ptx ? ptx_class(i->mnemonic) : sass_class(i->mnemonic);
	i->target = -1;
	return i;
}

/* ---- reading SASS: lines like "0a40:  @P0 BRA 0xdb0" (address in a comment) under "Function : name" ---- */

static int read_sass(FILE *in, const char *arch, struct function **out)
{
	struct function *fs = NULL;
	int n = 0;
	char line[4096];
	bool in_arch = arch == NULL;
	char current[32] = "sm_?";
	while (fgets(line, sizeof line, in)) {
		char *p;
		if ((p = strstr(line, "arch = "))) {
			sscanf(p + 7, "%31s", current);
			/* (sm_90a is sm_90 with its arch-specific instructions, setmaxnreg's: a build
			 * for it holds that code in place of sm_90's) */
			size_t len = arch ? strlen(arch) : 0;
			in_arch = arch == NULL || strcmp(current, arch) == 0 ||
				  (strncmp(current, arch, len) == 0 && strcmp(current + len, "a") == 0);
			if (arch && in_arch) /* (named as asked: its functions pair with the reference's) */
				snprintf(current, sizeof current, "%s", arch);
			continue;
		}
		if (!in_arch)
			continue;
		if ((p = strstr(line, "Function : "))) {
			fs = grow(fs, (n + 1) * sizeof *fs);
			memset(&fs[n], 0, sizeof fs[n]);
			char name[480] = "";
			sscanf(p + 11, "%479s", name);
			snprintf(fs[n].name, sizeof fs[n].name, "%s %s", current, name);
			n++;
			continue;
		}
		long addr;
		if (n == 0 || !(p = strstr(line, "/*")) || sscanf(p, "/*%lx*/", &addr) != 1)
			continue;
		p = strstr(p, "*/") + 2;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '@') /* predicate */
			while (*p && !isspace((unsigned char)*p))
				p++;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '/')
			continue;
		struct insn *i = push_insn(&fs[n - 1], addr, p, false);
		if (i->cls == OP_BRANCH) {
			char *t = strstr(p, "0x");
			if (t)
				i->target = strtol(t, NULL, 16);
		}
	}
	*out = fs;
	return n;
}

/* ---- reading PTX: `.entry name(`, labels `$L__BB0_3:`, `@%p1 bra.uni $L__BB0_3;` ---- */

struct label {
	char name[64];
	long line;
};

static int read_ptx(FILE *in, struct function **out)
{
	struct function *fs = NULL;
	int n = 0;
	char line[4096];
	long lineno = 0;
	struct label *labels = NULL;
	int nlabels = 0;
	/* branches are resolved once the function's labels are known */
	struct pending {
		int fn, insn;
		char label[64];
	} *pend = NULL;
	int npend = 0;
	while (fgets(line, sizeof line, in)) {
		lineno++;
		char *p = line;
		while (isspace((unsigned char)*p))
			p++;
		char *e;
		if ((e = strstr(p, ".entry ")) || (starts(p, ".visible") && (e = strstr(p, ".func ")))) {
			fs = grow(fs, (n + 1) * sizeof *fs);
			memset(&fs[n], 0, sizeof fs[n]);
			sscanf(strchr(e, ' ') + 1, "%511[^( \n]", fs[n].name);
			n++;
			continue;
		}
		while (*p == '{') /* an inline asm's block opens on its first instruction's line */
			for (p++; isspace((unsigned char)*p); p++)
				;
		if (n == 0 || !*p || starts(p, "//") || *p == '.' || *p == '}' || *p == ')')
			continue;
		size_t len = strcspn(p, " \t\n");
		if (len > 1 && p[len - 1] == ':') {
			labels = grow(labels, (nlabels + 1) * sizeof *labels);
			snprintf(labels[nlabels].name, sizeof labels[nlabels].name, "%.*s", (int)(len - 1), p);
			labels[nlabels++].line = lineno;
			continue;
		}
		if (*p == '@')
			p += strcspn(p, " \t");
		while (isspace((unsigned char)*p))
			p++;
		struct insn *i = push_insn(&fs[n - 1], lineno, p, true);
		if (i->cls == OP_BRANCH) {
			char *t = p + strcspn(p, " \t");
			pend = grow(pend, (npend + 1) * sizeof *pend);
			pend[npend].fn = n - 1;
			pend[npend].insn = fs[n - 1].n - 1;
			sscanf(t, " %63[^; \n]", pend[npend].label);
			npend++;
		}
	}
	for (int k = 0; k < npend; k++)
		for (int l = 0; l < nlabels; l++)
			if (strcmp(pend[k].label, labels[l].name) == 0)
				fs[pend[k].fn].v[pend[k].insn].target = labels[l].line;
	free(labels);
	free(pend);
	*out = fs;
	return n;
}

/* ---- the loops ---- */

struct loop_report {
	long begin, end;
	bool inner_loop; /* an inner compute loop: static counts are not per iteration */
	bool producer_apart; /* its copies are a producer warpgroup's, in a loop of their own */
	int counts[OP_BRANCH + 1];
	const char *kind;
	char why[256];
};

/* Classify the loop [b, e] (instruction indices) of f. A load overlaps the compute when a
 * compute instruction follows it with no barrier in between; for the LDG variant a shared
 * store must also follow that compute (the registers go to shared memory afterwards). */
static void classify(const struct function *f, int b, int e, struct loop_report *r)
{
	memset(r->counts, 0, sizeof r->counts);
	bool async_pending = false, ldg_pending = false, tensor_pending = false, bulk_pending = false;
	bool async_overlap = false, ldg_overlap = false, sts_after_overlap = false, tensor_overlap = false, bulk_overlap = false;
	bool any_async = false, any_ldg = false;
	for (int i = b; i <= e; i++) {
		enum op_class c = f->v[i].cls;
		r->counts[c]++;
		if (c == OP_BAR)
			async_pending = ldg_pending = tensor_pending = bulk_pending = false;
		else if (c == OP_TENSOR)
			tensor_pending = true;
		else if (c == OP_BULK)
			bulk_pending = true;
		else if (c == OP_ASYNC)
			async_pending = any_async = true;
		else if (c == OP_LDG)
			ldg_pending = any_ldg = true;
		else if (c == OP_COMPUTE) {
			async_overlap |= async_pending;
			ldg_overlap |= ldg_pending;
			tensor_overlap |= tensor_pending;
			bulk_overlap |= bulk_pending;
		} else if (c == OP_STS && ldg_overlap)
			sts_after_overlap = true;
	}
	/* A tensor or bulk copy issued after the compute (pipefy's tma with 4 stages and more starts
	 * the next tile once this one is computed) is in flight during the next iteration's
	 * compute when no barrier lies between: read on around the back edge. */
	for (int i = b; i <= e && (tensor_pending || bulk_pending); i++) {
		enum op_class c = f->v[i].cls;
		if (c == OP_BAR)
			tensor_pending = bulk_pending = false;
		else if (c == OP_COMPUTE) {
			tensor_overlap |= tensor_pending;
			bulk_overlap |= bulk_pending;
		}
	}
	/* the copies in a loop of the producer's own (a warpgroup's, split from the kernel's threads
	 * so that each side has its register count): async copies and named-barrier arrivals
	 * elsewhere in the kernel, none of its compute */
	int async_apart = 0, arrive_apart = 0;
	for (int i = 0; i < f->n; i++)
		if (i < b || i > e) {
			async_apart += f->v[i].cls == OP_ASYNC;
			arrive_apart += f->v[i].cls == OP_ARRIVE;
		}
	r->producer_apart = !any_async && r->counts[OP_ARRIVE] >= 1 && async_apart > 0 && arrive_apart > 0;
	if (tensor_overlap) {
		r->kind = "tma";
		snprintf(r->why, sizeof r->why, "tensor copies in flight during the compute, no barrier between");
	} else if (bulk_overlap) {
		r->kind = "bulk";
		snprintf(r->why, sizeof r->why, "bulk copies in flight during the compute, no barrier between");
	} else if (async_overlap) {
		r->kind = "cp.async";
		snprintf(r->why, sizeof r->why, "async copies in flight during the compute, no barrier between");
	} else if (any_async && r->counts[OP_ARRIVE] >= 2) {
		r->kind = "ws-cp.async";
		snprintf(r->why, sizeof r->why, "async copies, and %d arrivals at named barriers: a producer warp's",
			 r->counts[OP_ARRIVE]);
	} else if (r->producer_apart) {
		r->kind = "ws-cp.async";
		snprintf(r->why, sizeof r->why, "a named-barrier arrival after the compute, the async copies in a producer's "
			 "loop of its own (%d copies, %d arrivals there)", async_apart, arrive_apart);
	} else if (ldg_overlap && sts_after_overlap) {
		r->kind = "ldg";
		snprintf(r->why, sizeof r->why, "global loads in flight during the compute, shared stores after it");
	} else {
		r->kind = "plain";
		snprintf(r->why, sizeof r->why, "%s",
			 any_async ? "a barrier separates the async copies from the compute"
			 : ldg_overlap ? "no shared store after the overlapped compute"
			 : any_ldg ? "a barrier separates the loads from the compute"
				   : "no load in the loop");
	}
}

/* The K-loops: each backward branch closes a loop; keep those holding a barrier and compute,
 * and of nested ones the innermost. */
static int find_kloops(const struct function *f, struct loop_report **out)
{
	struct loop_report *rs = NULL;
	int n = 0;
	for (int i = 0; i < f->n; i++) {
		const struct insn *br = &f->v[i];
		if (br->cls != OP_BRANCH || br->target < 0 || br->target > br->addr)
			continue;
		int b = 0;
		while (b < i && f->v[b].addr < br->target)
			b++;
		bool bar = false, compute = false;
		for (int k = b; k <= i; k++) {
			bar |= f->v[k].cls == OP_BAR || f->v[k].cls == OP_MBAR;
			compute |= f->v[k].cls == OP_COMPUTE;
		}
		if (!bar || !compute)
			continue;
		rs = grow(rs, (n + 1) * sizeof *rs);
		rs[n].begin = b;
		rs[n].end = i;
		/* an inner loop that computes (copy loops do not count) */
		rs[n].inner_loop = false;
		for (int k = b; k < i; k++) {
			if (f->v[k].cls != OP_BRANCH || f->v[k].target < f->v[b].addr || f->v[k].target > f->v[k].addr)
				continue;
			for (int j = b; j < k; j++)
				if (f->v[j].addr >= f->v[k].target && f->v[j].cls == OP_COMPUTE)
					rs[n].inner_loop = true;
		}
		classify(f, b, i, &rs[n]);
		n++;
	}
	/* drop loops that contain another K-loop, and the returns of out-of-line blocks: code the
	 * compiler placed after a loop (an mbarrier wait's retry) that branches back into its
	 * middle makes a "loop" from there to itself, which begins inside the real one */
	int kept = 0;
	for (int a = 0; a < n; a++) {
		bool outer = false;
		for (int c = 0; c < n; c++)
			if (c != a && ((rs[c].begin >= rs[a].begin && rs[c].end <= rs[a].end &&
					(rs[c].begin != rs[a].begin || rs[c].end != rs[a].end)) ||
				       (rs[c].begin < rs[a].begin && rs[a].begin <= rs[c].end && rs[a].end > rs[c].end)))
				outer = true;
		if (!outer)
			rs[kept++] = rs[a];
	}
	*out = rs;
	return kept;
}

static int usage(void)
{
	fputs("usage: pipefy-verify-sass [--arch sm_90] [--expect KIND=N]... [--reference ORIGINAL] FILE...\n"
	      "  FILE is PTX (nvcc -ptx), a SASS listing (cuobjdump -sass), or an executable or\n"
	      "  cubin, disassembled with cuobjdump. Prints each K-loop as cp.async, ldg or plain.\n"
	      "  --expect KIND=N: exit 1 unless exactly N K-loops are of KIND (repeatable).\n"
	      "  --reference ORIGINAL: the same program before pipefy; exit 1 unless each K-loop\n"
	      "  computes as much per tile as its original (two barriers per tile there, one here);\n"
	      "  loops identical to the original's are not counted for --expect.\n",
	      stderr);
	return 2;
}

/* Functions of one file; NULL with a message when it cannot be read. */
static struct function *load(const char *path, const char *arch, int *nf, bool *is_ptx)
{
	FILE *in = fopen(path, "r");
	if (!in) {
		fprintf(stderr, "%s: error: cannot open\n", path);
		return NULL;
	}
	char head[4096] = "";
	size_t got = fread(head, 1, sizeof head - 1, in);
	head[got] = '\0';
	rewind(in);
	bool sass = strstr(head, "Function :") || strstr(head, "code for sm_") || strstr(head, "arch = sm_");
	bool ptx = !sass && (starts(head, ".version") || strstr(head, "\n.version") || strstr(head, "\n.target"));
	bool piped = false;
	if (!ptx && !sass) {
		/* a binary: ask cuobjdump for its SASS */
		fclose(in);
		if (system("command -v cuobjdump >/dev/null 2>&1") != 0) {
			fprintf(stderr, "%s: error: cuobjdump not found; it comes with the CUDA toolkit on GPU machines. "
					"Pass a SASS listing (cuobjdump -sass) or PTX (nvcc -ptx) instead\n", path);
			return NULL;
		}
		char *cmd = grow(NULL, strlen(path) + 64);
		sprintf(cmd, "cuobjdump -sass '%s' 2>&1", path);
		in = popen(cmd, "r");
		free(cmd);
		piped = true;
	}
	struct function *fs;
	*nf = ptx ? read_ptx(in, &fs) : read_sass(in, arch, &fs);
	if (piped)
		pclose(in);
	else
		fclose(in);
	*is_ptx = ptx;
	return fs;
}

static void free_functions(struct function *fs, int n)
{
	for (int i = 0; i < n; i++)
		free(fs[i].v);
	free(fs);
}

/* The same compute per tile: equal counts, or one barrier where the original had two. */
/* Compute per tile as in the original: the original synchronizes twice per tile, a pipelined
 * loop once, and a one-stage register loop twice, like the original; loops the compiler
 * unrolled compare per barrier (an original unrolled 4 times: 64 compute, 8 barriers). */
static bool same_per_tile(const struct loop_report *r, const struct loop_report *o)
{
	long c = r->counts[OP_COMPUTE], b = r->counts[OP_BAR];
	long oc = o->counts[OP_COMPUTE], ob = o->counts[OP_BAR];
	/* a tensor- or bulk-copy loop waits on mbarriers, not the block, and a producer warp's
	 * cp.async loop (two or more arrive-only named barriers) syncs on one named barrier a tile
	 * and arrives on another: one iteration, one tile (against an original the compiler
	 * unrolled, per two barriers) */
	/* (an original with an odd number of barriers an iteration, 3: one tile an iteration with a
	 * barrier the rewrite left out, `__syncthreads(); __syncthreads();` or one between two
	 * groups of copies; an even number is read as two a tile, the usual loop) */
	bool one_tile = ob >= 3 && ob % 2 == 1;
	if ((b == 0 && (r->counts[OP_TENSOR] > 0 || r->counts[OP_BULK] > 0)) ||
	    (r->counts[OP_ASYNC] > 0 && r->counts[OP_ARRIVE] >= 2) || r->producer_apart)
		return ob > 0 ? c * ob == 2 * oc || (one_tile && c == oc) : c == oc;
	return (c == oc && b == ob) || c * ob == 2 * oc * b || (r->counts[OP_LDG] > 0 && b > 1 && c * ob == oc * b) ||
	       (one_tile && c == oc * b);
}

/* Two listings' names for one function. A kernel in an unnamed namespace is mangled with a
 * component its file names (`52_GLOBAL__N__91a72685_23_k_cu_main`), which differs between
 * the original and a rewrite built from another file: that component is left out. */
static const char *skip_anonymous(const char *s, const char **end_of_prefix)
{
	const char *g = strstr(s, "_GLOBAL__N_");
	*end_of_prefix = s;
	if (!g)
		return NULL;
	const char *d = g;
	while (d > s && d[-1] >= '0' && d[-1] <= '9')
		d--;
	if (d == g)
		return NULL;
	long len = strtol(d, NULL, 10);
	if (len <= 0 || (size_t)len > strlen(g))
		return NULL;
	*end_of_prefix = d;
	return g + len;
}

/* The source name in a symbol `[arch ]_Z<len><name>...` (with the arch prefix kept in front),
 * and whether it is pipefy's copy of a kernel for a launcher, `<name>_pipefy_tma` (or `_ws`,
 * ws-cp.async's): its name is then the kernel's (the tensor-copy copy takes the tensor maps as
 * extra parameters, so the rest of the symbols differ). */
static bool source_name(const char *sym, char *out, size_t size, bool *tma_copy)
{
	const char *z = strstr(sym, "_Z");
	if (!z || !isdigit((unsigned char)z[2]))
		return false;
	char *end;
	long n = strtol(z + 2, &end, 10);
	if (n <= 0 || (long)strlen(end) < n)
		return false;
	static const char *const suffixes[] = {"_pipefy_tma", "_pipefy_ws"}; /* (ws-cp.async's copy) */
	long ns = 0;
	*tma_copy = false;
	for (int i = 0; i < 2 && !*tma_copy; i++) {
		ns = (long)strlen(suffixes[i]);
		*tma_copy = n > ns && strncmp(end + n - ns, suffixes[i], (size_t)ns) == 0;
	}
	snprintf(out, size, "%.*s%.*s", (int)(z - sym), sym, (int)(*tma_copy ? n - ns : n), end);
	return true;
}

static bool same_function(const char *a, const char *b)
{
	char na[512], nb[512];
	bool ta = false, tb = false;
	if (source_name(a, na, sizeof na, &ta) && source_name(b, nb, sizeof nb, &tb) && (ta || tb))
		return strcmp(na, nb) == 0;
	const char *pa, *pb, *ra = skip_anonymous(a, &pa), *rb = skip_anonymous(b, &pb);
	if (!ra || !rb)
		return strcmp(a, b) == 0;
	return pa - a == pb - b && strncmp(a, b, (size_t)(pa - a)) == 0 && strcmp(ra, rb) == 0;
}

int main(int argc, char **argv)
{
	const char *arch = NULL, *reference = NULL;
	/* --expect KIND=N, once per kind */
	char want_kind[5][32];
	int want_n[5], found[5] = {0}, nwant = 0;
	int first = 1;
	for (; first < argc && argv[first][0] == '-'; first++) {
		if (strcmp(argv[first], "--arch") == 0 && first + 1 < argc)
			arch = argv[++first];
		else if (strcmp(argv[first], "--reference") == 0 && first + 1 < argc)
			reference = argv[++first];
		else if (strcmp(argv[first], "--expect") == 0 && first + 1 < argc && nwant < 5) {
			if (sscanf(argv[++first], "%31[^=]=%d", want_kind[nwant], &want_n[nwant]) != 2)
				return usage();
			nwant++;
		} else
			return usage();
	}
	if (first >= argc)
		return usage();
	int status = 0, nref = 0;
	bool ref_ptx;
	struct function *ref = reference ? load(reference, arch, &nref, &ref_ptx) : NULL;
	if (reference && !ref)
		return 1;
	for (int a = first; a < argc; a++) {
		const char *path = argv[a];
		int nf;
		bool ptx;
		struct function *fs = load(path, arch, &nf, &ptx);
		if (!fs && nf != 0)
			return 1;
		if (!fs)
			return 1;
		for (int i = 0; i < nf; i++) {
			struct loop_report *rs;
			int nl = find_kloops(&fs[i], &rs);
			struct loop_report *orig = NULL;
			int norig = 0;
			for (int r = 0; r < nref && reference; r++)
				if (same_function(ref[r].name, fs[i].name))
					norig = find_kloops(&ref[r], &orig);
			/* a persistent launch's kernel (--launches=queue) runs the kernels' bodies as
			 * written: its loops are any original kernel's */
			bool persistent = norig == 0 && strstr(fs[i].name, "pipefy_queue") != NULL;
			for (int r = 0; r < nref && reference && persistent; r++) {
				struct loop_report *more = NULL;
				int nmore = find_kloops(&ref[r], &more);
				struct loop_report *all = nmore ? realloc(orig, (size_t)(norig + nmore) * sizeof *orig) : orig;
				if (nmore && !all) {
					fprintf(stderr, "pipefy-verify-sass: out of memory\n");
					return 1;
				}
				if (nmore)
					memcpy(all + norig, more, (size_t)nmore * sizeof *more);
				orig = all;
				norig += nmore;
				free(more);
			}
			for (int l = 0; l < nl; l++) {
				const struct loop_report *r = &rs[l];
				char at[32], cmp[160] = "";
				bool unchanged = false;
				snprintf(at, sizeof at, ptx ? "line %ld" : "0x%lx", fs[i].v[r->begin].addr);
				if (reference) {
					/* The original synchronizes twice per tile, a pipelined loop once; a loop
					 * pipefy left alone (or kept as written as a fallback) has an original
					 * loop's counts and kind. Loops pair by position, else with any original
					 * loop that fits: compilers do not keep loops in source order. (A register
					 * prefetch in one stage keeps the original's counts, two barriers
					 * included: its kind, loads in flight over the compute, tells it apart.) */
					int k = l < norig ? l : -1;
					for (int o = 0; o < norig && !unchanged; o++)
						if (memcmp(r->counts, orig[o].counts, sizeof r->counts) == 0 &&
						    strcmp(r->kind, orig[o].kind) == 0)
							unchanged = true, k = o;
					/* (the loop as written beside a pipelined one, where the kernel checks
					 * what the pipelined loop assumes: the same kind of loop, the same compute
					 * and barriers, as the original's; its addressing differs a little) */
					for (int o = 0; o < norig && !unchanged; o++)
						if (strcmp(r->kind, orig[o].kind) == 0 &&
						    r->counts[OP_COMPUTE] == orig[o].counts[OP_COMPUTE] &&
						    r->counts[OP_BAR] == orig[o].counts[OP_BAR] && r->counts[OP_BAR] > 0)
							unchanged = true, k = o;
					for (int o = 0; o < norig && (k < 0 || !same_per_tile(r, &orig[k])); o++)
						if (same_per_tile(r, &orig[o]))
							k = o;
					/* (a loop beside the loop as written pairs with no position; where the
					 * original keeps an inner loop its counts say nothing: not comparable) */
					for (int o = 0; o < norig && k < 0; o++)
						if (orig[o].inner_loop)
							k = o;
					if (persistent && (k < 0 || !same_per_tile(r, &orig[k]))) {
						/* (the ticket loop, or an item's loop as the compiler made it inlined) */
						snprintf(cmp, sizeof cmp, "; a persistent launch's loop: its tickets, or a kernel's as "
									  "written");
					} else if (k < 0) {
						snprintf(cmp, sizeof cmp, "; NO MATCHING LOOP in the original");
						status = 1;
					} else if (r->inner_loop || orig[k].inner_loop) {
						/* a compute loop the compiler did not unroll: instructions are
						 * counted once, not per trip, so per-tile counts cannot be compared */
						snprintf(cmp, sizeof cmp, "; compute not comparable: %s keeps an inner loop (original %d compute, %d bar)",
							 r->inner_loop ? "this code" : "the original", orig[k].counts[OP_COMPUTE],
							 orig[k].counts[OP_BAR]);
					} else {
						bool same = same_per_tile(r, &orig[k]);
						snprintf(cmp, sizeof cmp, "; %s the original (%d compute, %d bar)",
							 unchanged ? "as written in"
							 : same	   ? "compute per tile as in"
								   : "COMPUTE PER TILE DIFFERS from",
							 orig[k].counts[OP_COMPUTE], orig[k].counts[OP_BAR]);
						if (!same)
							status = 1;
					}
				}
				printf("%s: %s: K-loop at %s: %s (%s); per iteration: %d compute, %d async, %d ldg, %d sts, %d bar%s\n",
				       path, fs[i].name, at, r->kind, r->why, r->counts[OP_COMPUTE], r->counts[OP_ASYNC],
				       r->counts[OP_LDG], r->counts[OP_STS], r->counts[OP_BAR], cmp);
				/* a loop pipefy left alone is the original's, whatever the compiler made of it; a
				 * persistent launch's loops (its ticket loop, the kernels' bodies) promise nothing */
				for (int w = 0; w < nwant && !unchanged && !persistent; w++)
					found[w] += strcmp(r->kind, want_kind[w]) == 0;
			}
			free(orig);
			free(rs);
		}
		free_functions(fs, nf);
	}
	free_functions(ref, nref);
	for (int w = 0; w < nwant; w++)
		if (found[w] != want_n[w]) {
			fprintf(stderr, "pipefy-verify-sass: expected %d K-loop(s) of kind %s, found %d\n", want_n[w],
				want_kind[w], found[w]);
			status = 1;
		}
	return status;
}
