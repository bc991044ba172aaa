/* parse.c: libclang parses the input as CUDA device code on the installed toolkit. */
#include "pipefy.h"

#include <stdlib.h>
#include <unistd.h>

/* Clang 19's __clang_cuda_runtime_wrapper.h includes these; CUDA 13 removed them. Empty
 * stand-ins, served from memory so an installed pipefy needs no data files. */
static const char *const removed_cuda_headers[] = {
	"texture_fetch_functions.h",
	"texture_indirect_functions.h",
	"surface_indirect_functions.h",
};
#define COMPAT_DIR "/pipefy-compat"
static const char compat_stub[] = "/* pipefy: stand-in for a header CUDA 13 removed */\n";

const char *cuda_find(const char *override)
{
	static char found[4096];
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

static void add_diag(struct parsed *p, CXDiagnostic d)
{
	enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
	if (sev < CXDiagnostic_Error)
		return;
	CXSourceLocation loc = clang_getDiagnosticLocation(d);
	CXFile file;
	unsigned line, col, offset;
	clang_getExpansionLocation(loc, &file, &line, &col, &offset);
	struct diag *g = VEC_PUSH(p->diags, p->ndiags, p->capdiags);
	g->is_error = true;
	g->line = (int)line;
	g->col = (int)col;
	g->offset = clang_Location_isFromMainFile(loc) ? offset : (size_t)-1;
	CXString fname = clang_getFileName(file);
	g->file = xstrdup(clang_getCString(fname) ? clang_getCString(fname) : "<unknown>");
	clang_disposeString(fname);
	CXString msg = clang_getDiagnosticSpelling(d);
	g->message = xstrdup(clang_getCString(msg));
	clang_disposeString(msg);
}

bool parse_source(struct parsed *p, const struct source *src, const struct options *o, char **err)
{
	memset(p, 0, sizeof *p);
	const char *cuda = cuda_find(o->cuda_path);
	const char *args[64 + o->nextra];
	int n = 0;
	char *owned[8];
	int nowned = 0;
	args[n++] = "-x";
	args[n++] = "cuda";
	args[n++] = "--cuda-device-only";
	args[n++] = owned[nowned++] = xprintf("--cuda-gpu-arch=sm_%d", o->arch >= 100 ? 90 : o->arch);
	args[n++] = "-std=c++17";
	args[n++] = "-Wno-unknown-cuda-version";
	struct CXUnsavedFile unsaved[4];
	int nunsaved = 0;
	unsaved[nunsaved++] = (struct CXUnsavedFile){src->path, src->text, (unsigned long)src->len};
	if (cuda) {
		args[n++] = owned[nowned++] = xprintf("--cuda-path=%s", cuda);
		args[n++] = "-isystem";
		args[n++] = owned[nowned++] = xprintf("%s/include/cccl", cuda);
		args[n++] = "-isystem";
		args[n++] = COMPAT_DIR;
		static char stub_paths[3][64];
		for (int i = 0; i < 3; i++) {
			char *real = xprintf("%s/include/%s", cuda, removed_cuda_headers[i]);
			bool present = access(real, R_OK) == 0;
			free(real);
			if (present)
				continue;
			snprintf(stub_paths[i], sizeof stub_paths[i], COMPAT_DIR "/%s", removed_cuda_headers[i]);
			unsaved[nunsaved++] =
				(struct CXUnsavedFile){stub_paths[i], compat_stub, sizeof compat_stub - 1};
		}
	} else {
		/* No toolkit: clang's own builtins still give attribute cursors for simple kernels. */
		args[n++] = "-nocudainc";
		args[n++] = "-nocudalib";
		args[n++] = "-include";
		args[n++] = "__clang_cuda_builtin_vars.h";
		args[n++] = "-D__global__=__attribute__((global))";
		args[n++] = "-D__device__=__attribute__((device))";
		args[n++] = "-D__shared__=__attribute__((shared))";
		args[n++] = "-D__host__=__attribute__((host))";
		args[n++] = "-D__forceinline__=inline";
		args[n++] = "-D__launch_bounds__(...)=";
	}
	for (int i = 0; i < o->nextra; i++)
		args[n++] = o->extra_args[i];

	p->index = clang_createIndex(0, 0);
	enum CXErrorCode ec = clang_parseTranslationUnit2(
		p->index, src->path, args, n, unsaved, (unsigned)nunsaved,
		CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord, &p->tu);
	for (int i = 0; i < nowned; i++)
		free(owned[i]);
	if (ec != CXError_Success || !p->tu) {
		p->fatal = true;
		*err = xprintf("%s: error: libclang could not parse the file (error %d)", src->path, (int)ec);
		return false;
	}
	unsigned nd = clang_getNumDiagnostics(p->tu);
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic d = clang_getDiagnostic(p->tu, i);
		add_diag(p, d);
		clang_disposeDiagnostic(d);
	}
	return true;
}

void parsed_free(struct parsed *p)
{
	for (int i = 0; i < p->ndiags; i++) {
		free(p->diags[i].file);
		free(p->diags[i].message);
	}
	free(p->diags);
	if (p->tu)
		clang_disposeTranslationUnit(p->tu);
	if (p->index)
		clang_disposeIndex(p->index);
	memset(p, 0, sizeof *p);
}
