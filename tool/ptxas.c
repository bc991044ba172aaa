/* ptxas.c: measure's registers per thread, from `nvcc -Xptxas -v` on the input as it is
 * (--ptxas): each loop's kernel (a template's most over its instantiations) and each launch
 * pair's two, matched by their symbols. */
#include "pipefy.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* The temporary copy nvcc compiles: removed on the way out, also when interrupted. */
static volatile sig_atomic_t have_tmp;
static char tmp_path[4096];

static void remove_tmp_and_die(int sig)
{
	if (have_tmp)
		unlink(tmp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Run argv (no shell: the path and the arguments are passed as they are, never parsed) and
 * collect what it prints on standard output and standard error. */
static char *run_capture(char *const argv[])
{
	int fds[2];
	if (pipe(fds) != 0)
		return NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	pid_t pid;
	extern char **environ;
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return NULL;
	}
	struct strbuf sb = {0};
	char buf[4096];
	ssize_t n;
	while ((n = read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			sb_add(&sb, buf, (size_t)n);
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return sb.data ? sb_take(&sb) : xstrdup("");
}

/* Registers per thread for each kernel, from `nvcc -Xptxas -v` on the input as it is. */
void measure_registers(struct model *m, const struct source *src, const struct options *o, FILE *messages)
{
	const char *cuda = cuda_find(o->cuda_path);
	if (!cuda) {
		if (messages)
			fprintf(messages, "pipefy: warning: --ptxas needs nvcc: no CUDA toolkit found\n");
		return;
	}
	/* in $TMPDIR, as other tools put their temporaries (a test, or a user, can give each run its own) */
	const char *tmpdir = getenv("TMPDIR");
	if (!tmpdir || !*tmpdir || strlen(tmpdir) > sizeof tmp_path - 32)
		tmpdir = "/tmp";
	snprintf(tmp_path, sizeof tmp_path, "%s/pipefy-ptxas-XXXXXX.cu", tmpdir);
	void (*old_int)(int) = signal(SIGINT, remove_tmp_and_die);
	void (*old_term)(int) = signal(SIGTERM, remove_tmp_and_die);
	int fd = mkstemps(tmp_path, 3);
	have_tmp = fd >= 0;
	if (fd < 0) {
		signal(SIGINT, old_int);
		signal(SIGTERM, old_term);
		return;
	}
	bool ok = write(fd, src->text, src->len) == (ssize_t)src->len;
	close(fd);
	/* the input's own directory stays on the include path */
	char *dir = xstrdup(src->path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	char *nvcc = xprintf("%s/bin/nvcc", cuda), *arch = xprintf("-arch=sm_%d", o->arch);
	char **argv = xcalloc((size_t)o->nextra + 16, sizeof *argv);
	int n = 0;
	argv[n++] = nvcc;
	argv[n++] = "-c";
	argv[n++] = "-std=c++17";
	argv[n++] = arch;
	argv[n++] = "-Xptxas";
	argv[n++] = "-v";
	argv[n++] = "-o";
	argv[n++] = "/dev/null";
	argv[n++] = "-I";
	argv[n++] = dir;
	for (int i = 0; i < o->nextra; i++)
		argv[n++] = (char *)o->extra_args[i];
	argv[n++] = tmp_path;
	argv[n] = NULL;
	char *out = ok ? run_capture(argv) : NULL;
	char entry[512] = "";
	for (char *line = out; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *e = strstr(line, "Compiling entry function '");
		char *u;
		int regs;
		if (e)
			sscanf(e + strlen("Compiling entry function '"), "%511[^']", entry);
		else if ((u = strstr(line, "Used ")) && sscanf(u, "Used %d registers", &regs) == 1 && entry[0]) {
			for (int i = 0; i < m->nloops; i++) {
				struct kloop *l = &m->loops[i];
				bool instance = false; /* (a template's: the most of its instantiations) */
				for (int k = 0; k < l->ninstance_symbols; k++)
					instance |= strcmp(l->instance_symbols[k], entry) == 0;
				if (l->mangled && strcmp(l->mangled, entry) == 0)
					l->registers = regs;
				else if (instance && regs > l->registers)
					l->registers = regs;
			}
			for (int i = 0; i < m->npairs; i++)
				for (int k = 0; k < 2; k++)
					if (m->pairs[i].mangled[k] && strcmp(m->pairs[i].mangled[k], entry) == 0)
						m->pairs[i].registers[k] = regs;
		}
		line = nl ? nl + 1 : line + strlen(line);
	}
	unlink(tmp_path);
	have_tmp = 0;
	signal(SIGINT, old_int);
	signal(SIGTERM, old_term);
	free(out);
	free(argv);
	free(nvcc);
	free(arch);
	free(dir);
}
