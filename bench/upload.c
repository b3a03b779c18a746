/* bench/upload: glTexSubImage2D throughput of a 1024x1024 RGBA8 texture
 * (N full uploads, then glFinish; MB/s) on llvmpipe and through nvd (Mesa's
 * nouveau under nvd-run), measured in the same invocation, and the ratio.
 *
 * The measuring runs are this program again (--child) in a fresh process:
 * once with LIBGL_ALWAYS_SOFTWARE=1, once under nvd-run --socket on an nvd
 * it starts ($NVD_BIN, else ../bin/nvd beside it) unless --socket names a
 * running one.  Prints; never passes or fails. */
#include <limits.h>

#include "bench/glbench.h"
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

static int up_line(void *arg, const char *text)
{
	struct up_run *r = arg;
	double v;
	if (sscanf(text, "result: %*u uploads in %*f s = %lf MB/s", &v) != 1)
		return 0;
	r->mbps = v;
	return 1;
}

/* Runs argv (software: on llvmpipe) and parses the child's renderer and
 * result lines into r. */
static void up_measure(const char *const *argv, int software, struct up_run *r)
{
	memset(r, 0, sizeof(*r));
	r->mbps = -1;
	if (glb_run(argv, software, NULL, 600 * 1000, up_line, r, r->renderer, sizeof(r->renderer),
		    r->why, sizeof(r->why)) != 0)
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

static void up_usage(FILE *f)
{
	fprintf(f,
		"usage: upload [-n N] [-s PATH]\n"
		"  -n, --iterations N  full-texture uploads per run (default %d)\n"
		"  -s, --socket PATH   use a running nvd (default: start one, $NVD_BIN or\n"
		"                      ../bin/nvd beside this program)\n"
		"  -h, --help          show this help\n"
		"      --version       show the version\n",
		UP_N_DEFAULT);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "iterations", required_argument, 0, 'n' }, { "socket", required_argument, 0, 's' },
		{ "child", required_argument, 0, 'c' },      { "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	unsigned n = UP_N_DEFAULT;
	const char *sock = NULL, *child = NULL;
	int c;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "upload: ...", not a path */
	while ((c = getopt_long(argc, argv, "n:s:h", lo, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (glb_parse_count("--iterations", optarg, 1, 100000, &n) < 0)
				return 2;
			break;
		case 's': sock = optarg; break;
		case 'c': child = optarg; break;
		default: return glb_other_option(c, up_usage);
		}
	}
	if (optind != argc)
		return glb_bad_usage("unexpected argument '%s'", argv[optind]);
	if (child)
		return up_child(n, child);

	struct nvt_paths at;
	char nbuf[16];
	if (nvt_paths(&at, "../bin") < 0) {
		fprintf(stderr, "upload: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	snprintf(nbuf, sizeof(nbuf), "%u", n);

	printf("glTexSubImage2D 1024x1024 RGBA8, %u uploads + glFinish per run\n", n);
	struct up_run sw, hw;
	const char *sw_argv[] = { at.self, "--child", "llvmpipe", "-n", nbuf, NULL };
	up_measure(sw_argv, 1, &sw);
	up_print("llvmpipe", &sw);

	struct nvt_daemon d;
	int own = !sock;
	memset(&d, 0, sizeof(d));
	if (own) {
		nvt_sim_check = 0;           /* measured as users run it */
		if (nvt_daemon_start(&d, NULL) < 0) {
			memset(&hw, 0, sizeof(hw));
			hw.mbps = -1;
			snprintf(hw.why, sizeof(hw.why), "cannot start nvd (%s)", getenv("NVD_BIN"));
			goto report;
		}
		sock = d.sock;
	}
	if (access(at.nvd_run, X_OK) < 0) {
		memset(&hw, 0, sizeof(hw));
		hw.mbps = -1;
		snprintf(hw.why, sizeof(hw.why), "%.100s: %.50s", at.nvd_run, strerror(errno));
	} else {
		const char *hw_argv[] = { at.nvd_run, "--socket", sock, at.self, "--child", "NV4",
					  "-n", nbuf, NULL };
		up_measure(hw_argv, 0, &hw);
	}
report:
	up_print("nvd", &hw);
	if (sw.mbps > 0 && hw.mbps >= 0)
		printf("ratio nvd/llvmpipe: %.3f\n", hw.mbps / sw.mbps);
	else
		printf("ratio nvd/llvmpipe: n/a\n");
	glb_daemon_stop(&d, own);
	return 0;
}
