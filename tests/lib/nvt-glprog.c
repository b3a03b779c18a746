/* nvt-glprog: GL programs in tests (see nvt-glprog.h). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/lib/nvt-glprog.h"
#include "tests/lib/nvt.h"

int nvt_glprog_outdir(char dir[64], const char *what)
{
	snprintf(dir, 64, "/tmp/nvd-%.32s-XXXXXX", what);
	if (mkdtemp(dir))
		return 0;
	int e = errno;
	fprintf(stderr, "mkdtemp %s: %s\n", dir, strerror(e));
	return -e;
}

void nvt_glprog_outdir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

int nvt_glprog_start(struct nvt_glprog *p, const char *dir, const char *nvd_run,
		     const char *sock, const char *outdir, const char *name,
		     const char *const *args)
{
	static unsigned seq;
	char path[PATH_MAX + 64];
	const char *argv[16];
	unsigned n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(p->out, sizeof(p->out), "%s/%u-%s.out", outdir, seq++, name);
	snprintf(p->what, sizeof(p->what), "%s (%s)", name, sock ? "nvd-run" : "llvmpipe");
	if (sock) {
		argv[n++] = nvd_run;
		argv[n++] = "--socket";
		argv[n++] = sock;
	}
	argv[n++] = path;
	for (unsigned i = 0; args && args[i]; i++) {
		if (n == 15) {
			fprintf(stderr, "%s: more than 12 arguments\n", p->what);
			return -E2BIG;
		}
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	p->pid = nvt_spawn_gl(argv, sock == NULL, p->out);
	if (p->pid < 0) {
		fprintf(stderr, "starting %s: %s\n", p->what, strerror((int)-p->pid));
		return (int)p->pid;
	}
	return 0;
}

int nvt_glprog_running(const struct nvt_glprog *p)
{
	siginfo_t si = { 0 };
	if (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return 0;
	return si.si_pid == 0;
}

int nvt_glprog_pass(struct nvt_glprog *p, const char *renderer, int timeout_ms)
{
	static char out[1 << 16];
	char rline[128] = "", sline[96] = "";
	int code = nvt_wait_child(p->pid, timeout_ms);
	FILE *f = fopen(p->out, "r");
	size_t len = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
	if (f)
		fclose(f);
	out[len] = 0;
	const char *r = strstr(out, "renderer: ");
	if (r)
		sscanf(r, "renderer: %127[^\n]", rline);
	const char *sum = strstr(out, "summary: ");
	if (sum)
		sscanf(sum, "%95[^\n]", sline);
	int failed = !strncmp(out, "not ok", 6) || strstr(out, "\nnot ok");
	printf("# %s: exit %d, renderer \"%s\", %s\n", p->what, code, rline,
	       sum ? sline : "no summary");
	fflush(stdout);
	if (code == 0 && r && strstr(rline, renderer) && sum && !failed)
		return 0;
	fprintf(stderr, "%s did not pass (exit %d, renderer \"%s\", expected \"%s\"):\n"
		"---- %s ----\n%s---- end of %s ----\n", p->what, code, rline, renderer, p->what,
		out, p->what);
	return -1;
}
