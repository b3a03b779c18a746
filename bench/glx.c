/* bench/glx: glxgears in a window, its own frames-per-second report, on
 * three setups one after the other in the same run: through nvd (Xorg with
 * nvd_drv.so, glxgears under nvd-run rendering directly with Mesa's nouveau
 * on the simulated card), llvmpipe in the same X server (drisw: the frame
 * goes to the window as an image), and llvmpipe on Xorg's dummy driver, the
 * baseline.  Each run lasts --seconds; the figure is the best of glxgears'
 * 5-second reports after the first.  Prints each rate and nvd's ratio to
 * each llvmpipe run; never passes or fails.  Xorg needs root. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/glbench.h"
#include "tests/lib/nvt-x.h"

enum { GX_NVD, GX_SOFT, GX_DUMMY, GX_RUNS };
static const char *const gx_names[GX_RUNS] = {
	"nvd (nouveau on nvd_drv)", "llvmpipe on nvd_drv", "llvmpipe on dummy",
};

/* The best "N frames in T seconds = F FPS" after the first; 0 if none. */
static double gx_fps(const char *out)
{
	double best = 0;
	unsigned n = 0;
	char l[256];
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		snprintf(l, sizeof(l), "%.*s", (int)strcspn(p, "\n"), p);   /* this line alone */
		const char *eq = strstr(l, "FPS");
		const char *at = strstr(l, " = ");
		if (!eq || !at || at > eq)
			continue;
		double f = strtod(at + 3, NULL);
		if (n++ && f > best)
			best = f;
	}
	return best;
}

/* glxgears for `seconds` on the server: under nvd-run, or in software.
 * Unthrottled on every server (vblank_mode=0: swap interval 0), so the
 * figures are frames drawn, not the refresh rate nvd_drv's swaps follow. */
static double gx_run(const struct nvt_x *x, const char *nvd_run, const char *sock, int software,
		     const char *seconds)
{
	const char *argv[12] = { "timeout", seconds, "env", "vblank_mode=0" };
	unsigned n = 4;
	char *out = NULL;

	n = glb_gl_runner(argv, n, software, nvd_run, sock);
	argv[n++] = "glxgears";
	argv[n] = NULL;
	int r = nvt_x_run(x, argv, &out, NULL);
	double fps = gx_fps(out);
	if (!fps)
		printf("  glxgears gave no rate (exit %d): %s\n", r, out ? out : "");
	free(out);
	return fps;
}

static void gx_usage(FILE *f)
{
	fprintf(f,
		"usage: glx [-s PATH] [-t SECONDS]\n"
		"  -s, --socket PATH    use a running nvd (default: start one, $NVD_BIN or\n"
		"                       ../bin/nvd beside this program)\n"
		"  -t, --seconds N      each glxgears run (default 16, 11 to 28)\n"
		"  -h, --help           show this help\n"
		"      --version        show the version\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "socket", required_argument, 0, 's' }, { "seconds", required_argument, 0, 't' },
		{ "help", no_argument, 0, 'h' },         { "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	const char *sock = NULL, *seconds = "16";
	unsigned secs;
	int c;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "glx: ...", not a path */
	while ((c = getopt_long(argc, argv, "s:t:h", lo, NULL)) != -1) {
		switch (c) {
		case 's': sock = optarg; break;
		case 't':
			/* two reports at least, inside nvt_x_run's 30 s */
			if (glb_parse_count("--seconds", optarg, 11, 28, &secs) < 0)
				return 2;
			seconds = optarg;
			break;
		default: return glb_other_option(c, gx_usage);
		}
	}
	if (optind != argc)
		return glb_bad_usage("unexpected argument '%s'", argv[optind]);
	struct nvt_paths at;
	struct nvt_daemon d;
	int own;
	if (glb_x_begin("glx", &at, &d, &sock, &own))
		return 1;
	double fps[GX_RUNS] = { 0 };
	struct nvt_x x;
	unsigned w = 0, h = 0, depth;
	char dir[] = "/tmp/nvd-bench-glx-XXXXXX", conf[64];
	if (nvt_x_start(&x, sock, NULL) == 0) {
		nvt_x_dpyinfo(&x, &w, &h, &depth);
		printf("glxgears (300x300 window), %s s a run, on a %ux%u screen\n", seconds, w, h);
		fflush(stdout);
		fps[GX_NVD] = gx_run(&x, at.nvd_run, sock, 0, seconds);
		fps[GX_SOFT] = gx_run(&x, at.nvd_run, sock, 1, seconds);
		nvt_x_stop(&x);
	}
	nvt_x_cleanup(&x);
	if (w && mkdtemp(dir)) {
		snprintf(conf, sizeof(conf), "%s/dummy.conf", dir);
		if (nvt_x_dummy_conf(conf, w, h) == 0 && nvt_x_start_config(&x, sock, conf, NULL) == 0) {
			fps[GX_DUMMY] = gx_run(&x, at.nvd_run, sock, 1, seconds);
			nvt_x_stop(&x);
		}
		nvt_x_cleanup(&x);
		unlink(conf);
		rmdir(dir);
	}
	for (unsigned i = 0; i < GX_RUNS; i++)
		printf("  %-26s %9.1f fps\n", gx_names[i], fps[i]);
	for (unsigned i = GX_SOFT; i < GX_RUNS; i++)
		if (fps[GX_NVD] > 0 && fps[i] > 0)
			printf("  nvd / %-20s %9.3f\n", gx_names[i], fps[GX_NVD] / fps[i]);
	glb_daemon_stop(&d, own);
	return 0;
}
