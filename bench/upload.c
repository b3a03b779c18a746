/* bench/upload: glTexSubImage2D throughput of a 1024x1024 RGBA8 texture
 * (N full uploads, then glFinish; MB/s) on llvmpipe and through nvd (Mesa's
 * nouveau under nvd-run), measured in the same invocation, and the ratio.
 *
 * The measuring runs are this program again (--child) in a fresh process:
 * once with LIBGL_ALWAYS_SOFTWARE=1, once under nvd-run --socket on an nvd
 * it starts ($NVD_BIN, else ../bin/nvd beside it) unless --socket names a
 * running one.  Prints; never passes or fails. */
#include <fcntl.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "tests/gl/glcommon.h"
#include "tests/lib/nvt.h"

#define UP_W 1024
#define UP_H 1024
#define UP_N_DEFAULT 100

/* ---- the measuring child ---- */

static int up_child(unsigned n, const char *renderer)
{
	struct glc_opts o = { .prog = "upload", .renderer = renderer, .timeout = 300 };
	struct glc_egl e;
	struct glc_gl gl;

	glc_start(&o);
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
					       NULL);
	if (glc_egl_context(&e, dpy, 0, 0) < 0 || glc_gl_load(&gl, 0) < 0 ||
	    !glc_check_renderer(&gl, &o))
		return 1;
	uint32_t *pix = malloc((size_t)UP_W * UP_H * 4);
	if (!pix)
		return 1;
	uint32_t seed = 1;
	for (size_t i = 0; i < (size_t)UP_W * UP_H; i++)
		pix[i] = glc_rand(&seed);
	GLuint tex;
	gl.GenTextures(1, &tex);
	gl.BindTexture(GL_TEXTURE_2D, tex);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	gl.PixelStorei(GL_UNPACK_ALIGNMENT, 4);
	gl.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, UP_W, UP_H, 0, GL_RGBA, GL_UNSIGNED_BYTE, pix);
	/* warm up: the texture's storage exists and the paths are taken */
	for (unsigned i = 0; i < 2; i++)
		gl.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, UP_W, UP_H, GL_RGBA, GL_UNSIGNED_BYTE, pix);
	gl.Finish();
	double t0 = glc_now();
	for (unsigned i = 0; i < n; i++) {
		pix[i % (UP_W * UP_H)] ^= 0x01010101u * (i + 1);   /* not the same bytes twice */
		gl.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, UP_W, UP_H, GL_RGBA, GL_UNSIGNED_BYTE, pix);
	}
	gl.Finish();
	double t = glc_now() - t0;
	GLenum err = gl.GetError();
	gl.DeleteTextures(1, &tex);
	free(pix);
	glc_egl_fini(&e);
	if (err != GL_NO_ERROR) {
		printf("error: GL error 0x%04x\n", err);
		return 1;
	}
	printf("result: %u uploads in %.3f s = %.1f MB/s\n", n, t,
	       t > 0 ? (double)n * UP_W * UP_H * 4 / t / 1e6 : 0.0);
	return 0;
}

/* ---- the parent ---- */

struct up_run {
	double mbps;               /* < 0: no figure */
	char renderer[128];
	char why[160];
};

/* Beside this program: dir/../bin/<name>. */
static void up_beside(char *buf, size_t len, const char *name)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		snprintf(buf, len, "build/bin/%s", name);
		return;
	}
	self[n] = 0;
	*strrchr(self, '/') = 0;
	snprintf(buf, len, "%s/../bin/%s", self, name);
}

/* Runs argv with stdout captured; parses the child's renderer and result
 * lines into r. */
static void up_measure(const char *const *argv, int software, struct up_run *r)
{
	int pfd[2];
	memset(r, 0, sizeof(*r));
	r->mbps = -1;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(r->why, sizeof(r->why), "pipe: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(r->why, sizeof(r->why), "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(pfd[1], 1);
		if (software) {
			setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
			unsetenv("LD_PRELOAD");
		} else {
			unsetenv("LIBGL_ALWAYS_SOFTWARE");
		}
		execv(argv[0], (char *const *)argv);
		printf("error: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	FILE *f = fdopen(pfd[0], "r");
	char line[512];
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		double v;
		if (!strncmp(line, "renderer: ", 10))
			snprintf(r->renderer, sizeof(r->renderer), "%.120s", line + 10);
		else if (sscanf(line, "result: %*u uploads in %*f s = %lf MB/s", &v) == 1)
			r->mbps = v;
		else if (!strncmp(line, "not ok", 6) || !strncmp(line, "error:", 6))
			snprintf(r->why, sizeof(r->why), "%.150s", line);
	}
	if (f)
		fclose(f);
	else
		close(pfd[0]);
	int code = nvt_wait_child(pid, 600 * 1000);
	if (code != 0 && !r->why[0])
		snprintf(r->why, sizeof(r->why), "exit status %d", code);
	if (code != 0)
		r->mbps = -1;
}

static void up_print(const char *what, const struct up_run *r)
{
	if (r->mbps >= 0)
		printf("%-9s %9.1f MB/s   (%s)\n", what, r->mbps, r->renderer);
	else
		printf("%-9s   no figure: %s%s%s\n", what, r->why[0] ? r->why : "failed",
		       r->renderer[0] ? "; renderer " : "", r->renderer);
}

static void up_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-n N] [-s PATH]\n"
		"  -n, --iterations N  full-texture uploads per run (default %d)\n"
		"  -s, --socket PATH   use a running nvd (default: start one, $NVD_BIN or\n"
		"                      ../bin/nvd beside this program)\n",
		prog, UP_N_DEFAULT);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "iterations", required_argument, 0, 'n' }, { "socket", required_argument, 0, 's' },
		{ "child", required_argument, 0, 'c' },      { "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	unsigned n = UP_N_DEFAULT;
	const char *sock = NULL, *child = NULL;
	int c;
	char *end;

	while ((c = getopt_long(argc, argv, "n:s:h", lo, NULL)) != -1) {
		switch (c) {
		case 'n':
			n = (unsigned)strtoul(optarg, &end, 0);
			if (*end || !n || n > 100000) {
				up_usage(argv[0]);
				return 2;
			}
			break;
		case 's': sock = optarg; break;
		case 'c': child = optarg; break;
		default: up_usage(argv[0]); return c == 'h' ? 0 : 2;
		}
	}
	if (optind != argc) {
		up_usage(argv[0]);
		return 2;
	}
	if (child)
		return up_child(n, child);

	char self[PATH_MAX], nvd_run[PATH_MAX + 32], nbuf[16];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (sl <= 0) {
		fprintf(stderr, "upload: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	self[sl] = 0;
	snprintf(nbuf, sizeof(nbuf), "%u", n);
	const char *tools = getenv("NVD_TOOLS");
	if (tools && *tools)
		snprintf(nvd_run, sizeof(nvd_run), "%s/nvd-run", tools);
	else
		up_beside(nvd_run, sizeof(nvd_run), "nvd-run");
	const char *bin = getenv("NVD_BIN");
	if (!bin || !*bin) {
		char nvd[PATH_MAX + 32];
		up_beside(nvd, sizeof(nvd), "nvd");
		setenv("NVD_BIN", nvd, 1);
	}

	printf("glTexSubImage2D 1024x1024 RGBA8, %u uploads + glFinish per run\n", n);
	struct up_run sw, hw;
	const char *sw_argv[] = { self, "--child", "llvmpipe", "-n", nbuf, NULL };
	up_measure(sw_argv, 1, &sw);
	up_print("llvmpipe", &sw);

	struct nvt_daemon d;
	int own = !sock;
	memset(&d, 0, sizeof(d));
	if (own) {
		if (nvt_daemon_start(&d, NULL) < 0) {
			memset(&hw, 0, sizeof(hw));
			hw.mbps = -1;
			snprintf(hw.why, sizeof(hw.why), "cannot start nvd (%s)", getenv("NVD_BIN"));
			goto report;
		}
		sock = d.sock;
	}
	if (access(nvd_run, X_OK) < 0) {
		memset(&hw, 0, sizeof(hw));
		hw.mbps = -1;
		snprintf(hw.why, sizeof(hw.why), "%.100s: %.50s", nvd_run, strerror(errno));
	} else {
		const char *hw_argv[] = { nvd_run, "--socket", sock, self, "--child", "NV4", "-n",
					  nbuf, NULL };
		up_measure(hw_argv, 0, &hw);
	}
report:
	up_print("nvd", &hw);
	if (sw.mbps > 0 && hw.mbps >= 0)
		printf("ratio nvd/llvmpipe: %.3f\n", hw.mbps / sw.mbps);
	else
		printf("ratio nvd/llvmpipe: n/a\n");
	if (own && d.pid) {
		if (nvt_daemon_stop(&d) < 0)
			printf("(nvd did not stop cleanly)\n");
		nvt_daemon_cleanup(&d);
	}
	return 0;
}
