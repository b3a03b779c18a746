/* glbench: what the GL benches (upload, gears, fill, openarena) share:
 * running their own measuring child (this program again, under nvd-run or
 * on a software renderer) with its stdout read back, and starting and
 * stopping their own nvd; and what every bench shares: reading options.  Each bench is its own program, so
 * these are static (and may go unused). */
#ifndef BENCH_GLBENCH_H
#define BENCH_GLBENCH_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "proto/proto.h"
#include "tests/lib/nvt.h"

#define GLB_API static __attribute__((unused))

/* Seconds of frames every renderer draws before the GL benches time any:
 * shaders compiled, buffers placed.  nvd compiles its pipeline on a thread
 * of its own and interprets meanwhile, so a few frames would time the
 * compiler (bench/jit measures that). */
#define GLB_WARMUP_S 0.5

/* CLOCK_MONOTONIC in nanoseconds. */
GLB_API int64_t glb_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* qsort's order of int64_t. */
GLB_API int glb_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Runs argv with its stdout read line by line: "renderer: X" goes to
 * renderer, every other line to line(arg, text) first, and a line that
 * returns 0 there and starts "not ok" or "error:" becomes why.  Software
 * runs get LIBGL_ALWAYS_SOFTWARE=1 and no LD_PRELOAD, the others lose
 * LIBGL_ALWAYS_SOFTWARE; with gallium set, software runs also get
 * GALLIUM_DRIVER=gallium and the others lose it.  Returns the child's exit
 * code (nvt_wait_child, timeout_ms) or -1 when it could not be started;
 * why says what went wrong unless the child said it. */
GLB_API int glb_run(const char *const *argv, int software, const char *gallium, int timeout_ms,
		   int (*line)(void *arg, const char *text), void *arg, char *renderer, size_t rlen,
		   char *why, size_t wlen)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(why, wlen, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(why, wlen, "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(pfd[1], 1);
		if (software) {
			setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
			if (gallium)
				setenv("GALLIUM_DRIVER", gallium, 1);
			unsetenv("LD_PRELOAD");
		} else {
			unsetenv("LIBGL_ALWAYS_SOFTWARE");
			if (gallium)
				unsetenv("GALLIUM_DRIVER");
		}
		execv(argv[0], (char *const *)argv);
		printf("error: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	FILE *f = fdopen(pfd[0], "r");
	char text[512];
	while (f && fgets(text, sizeof(text), f)) {
		text[strcspn(text, "\n")] = 0;
		if (!strncmp(text, "renderer: ", 10))
			snprintf(renderer, rlen, "%.120s", text + 10);
		else if (line(arg, text))
			;
		else if (!strncmp(text, "not ok", 6) || !strncmp(text, "error:", 6))
			snprintf(why, wlen, "%.150s", text);
	}
	if (f)
		fclose(f);
	else
		close(pfd[0]);
	int code = nvt_wait_child(pid, timeout_ms);
	if (code != 0 && !why[0])
		snprintf(why, wlen, "exit status %d", code);
	return code;
}

/* For a program started by argv (env-style: NAME=VALUE words first):
 * the words at argv[n] that run it on llvmpipe (software) or under nvd_run
 * on nvd's socket sock; returns the next n. */
GLB_API unsigned glb_gl_runner(const char **argv, unsigned n, int software, const char *nvd_run,
			       const char *sock)
{
	if (software) {
		argv[n++] = "LIBGL_ALWAYS_SOFTWARE=1";
	} else {
		argv[n++] = nvd_run;
		argv[n++] = "--socket";
		argv[n++] = sock;
	}
	return n;
}

/* ---- options ---- */

/* Bad usage: what is wrong, under this program's name, and where the
 * usage is.  Returns 2, the exit status of bad usage. */
GLB_API __attribute__((format(printf, 1, 2))) int glb_bad_usage(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%s --help for usage)\n", program_invocation_short_name);
	return 2;
}

/* What a bench does with an option that is not its own: -h, --help (the
 * usage on stdout), --version, or bad usage.  Returns the exit status. */
GLB_API int glb_other_option(int c, void (*usage)(FILE *f))
{
	switch (c) {
	case 'h': usage(stdout); return 0;
	case 'V': printf("%s %s\n", program_invocation_short_name, NVD_VERSION); return 0;
	default: usage(stderr); return 2;
	}
}

/* The value s of option opt as a decimal count in min..max (s can then be
 * handed on as it is): 0, or -1 when it is not one, said as bad usage. */
GLB_API int glb_parse_count(const char *opt, const char *s, unsigned min, unsigned max,
			    unsigned *v)
{
	char *end;
	unsigned long a = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || a < min || a > max) {
		glb_bad_usage("%s '%s': not a number from %u to %u", opt, s, min, max);
		return -1;
	}
	*v = (unsigned)a;
	return 0;
}

/* The same for "WxH", each side 1..4096. */
GLB_API int glb_parse_size(const char *opt, const char *s, unsigned *w, unsigned *h)
{
	char *end;
	unsigned long a = strtoul(s, &end, 10), b = 0;
	if (*end == 'x' && end[1] >= '0' && end[1] <= '9')
		b = strtoul(end + 1, &end, 10);
	if (*s < '0' || *s > '9' || *end || !a || !b || a > 4096 || b > 4096) {
		glb_bad_usage("%s '%s': not WxH with sides of 1 to 4096", opt, s);
		return -1;
	}
	*w = (unsigned)a;
	*h = (unsigned)b;
	return 0;
}

/* The same for a comma-separated list of names[0..n) as a bit mask (list
 * is cut up); an unknown name or an empty list is bad usage. */
GLB_API int glb_parse_modes(const char *opt, char *list, const char *const *names, unsigned n,
			    unsigned *mask)
{
	*mask = 0;
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		unsigned i;
		for (i = 0; i < n && strcmp(tok, names[i]); i++)
			;
		if (i == n) {
			glb_bad_usage("%s: unknown mode '%s'", opt, tok);
			return -1;
		}
		*mask |= 1u << i;
	}
	if (!*mask) {
		glb_bad_usage("%s: no mode given", opt);
		return -1;
	}
	return 0;
}

/* ---- the daemon ---- */

/* The bench's own nvd runs with --sim-check (a bench's --sim-check: what
 * the access oracle costs); without, as users run it. */
static int glb_sim_check;

/* When an nvd run is wanted and *sock names none, starts this bench's own
 * nvd (extra: its arguments, or NULL) and points *sock at it; *own says
 * whether it did.  NULL, or why the nvd runs (through nvd_run, when not
 * NULL) cannot be made. */
GLB_API const char *glb_daemon_start(struct nvt_daemon *d, const char **sock, int want,
				    const char *nvd_run, const char *const *extra, int *own)
{
	memset(d, 0, sizeof(*d));
	nvt_sim_check = glb_sim_check;
	*own = want && !*sock;
	if (*own) {
		if (nvt_daemon_start(d, extra) < 0) {
			*own = 0;
			return "cannot start nvd";
		}
		*sock = d->sock;
	}
	if (want && nvd_run && access(nvd_run, X_OK) < 0)
		return "nvd-run is missing";
	return NULL;
}

/* Stops the nvd this bench started (if it did). */
GLB_API void glb_daemon_stop(struct nvt_daemon *d, int own)
{
	if (own && d->pid) {
		if (nvt_daemon_stop(d) < 0)
			printf("(nvd did not stop cleanly)\n");
		nvt_daemon_cleanup(d);
	}
}

/* For the benches that start Xorg: root (Xorg takes -config and
 * -modulepath with a path only from root), where this program is, NVD_TOOLS
 * for nvd-x beside it, and an nvd of its own unless *sock names one.
 * 0, or 1 with the reason said under the bench's name. */
GLB_API int glb_x_begin(const char *name, struct nvt_paths *at, struct nvt_daemon *d,
			const char **sock, int *own)
{
	static char tools[PATH_MAX + 16];
	const char *why = NULL;
	*own = 0;
	memset(d, 0, sizeof(*d));
	if (getuid() != 0)
		why = "Xorg takes -config and -modulepath only from root";
	else if (nvt_paths(at, "../bin") < 0)
		why = "cannot read /proc/self/exe";
	if (!why) {
		snprintf(tools, sizeof(tools), "%s/../bin", at->dir);
		setenv("NVD_TOOLS", tools, 0);
		why = glb_daemon_start(d, sock, 1, at->nvd_run, NULL, own);
	}
	if (!why)
		return 0;
	fprintf(stderr, "%s: %s\n", name, why);
	glb_daemon_stop(d, *own);
	return 1;
}

#endif
