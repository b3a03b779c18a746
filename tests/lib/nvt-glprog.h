/* nvt-glprog: the GL programs of tests/gl (gl-*.c) run by a test, under
 * nvd-run or on llvmpipe, and judged by what they print (glcommon.h's
 * report): exit 0, a "renderer: " line naming the expected renderer, a
 * summary, no "not ok" line.
 *
 * Like nvt.h, no cmocka here: 0 or -1 with the reason on stderr. */
#ifndef NVT_GLPROG_H
#define NVT_GLPROG_H

#include <limits.h>
#include <sys/types.h>

struct nvt_glprog {
	pid_t pid;
	char out[PATH_MAX];        /* its stdout and stderr */
	char what[96];             /* "name (nvd-run)" for messages */
};

/* A fresh directory for programs' outputs, /tmp/nvd-<what>-XXXXXX, in
 * dir (64 bytes); 0 or -errno (said why). */
int nvt_glprog_outdir(char dir[64], const char *what);
/* Removes it and what is in it. */
void nvt_glprog_outdir_remove(const char *dir);

/* Starts <dir>/<name> args... (NULL-terminated, at most 12) under
 * `nvd_run` --socket sock, or on llvmpipe when sock is NULL; its output
 * in <outdir>/<n>-<name>.out.  0 or -errno. */
int nvt_glprog_start(struct nvt_glprog *p, const char *dir, const char *nvd_run,
		     const char *sock, const char *outdir, const char *name,
		     const char *const *args);
/* 1 while it runs, 0 once it has ended (it is left for nvt_glprog_pass
 * to reap). */
int nvt_glprog_running(const struct nvt_glprog *p);
/* Waits (timeout_ms, then kills it) and prints one line with its exit
 * status, renderer and summary.  0 when it passed on a renderer
 * containing `renderer`; otherwise -1 with its output printed. */
int nvt_glprog_pass(struct nvt_glprog *p, const char *renderer, int timeout_ms);

#endif
