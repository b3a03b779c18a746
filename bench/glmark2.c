/* bench/glmark2: glmark2's score off-screen (Debian's glmark2-x11,
 * unmodified, `--off-screen`), the eight scenes issue #4 names, on two
 * setups one after the other in the same X server: through nvd (Xorg with
 * nvd_drv.so, glmark2 under nvd-run rendering with Mesa's nouveau on the
 * simulated card) and on llvmpipe (LIBGL_ALWAYS_SOFTWARE=1).  Prints each
 * scene's frames per second, both scores and nvd's ratio; never passes or
 * fails.  Xorg needs root. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/glbench.h"
#include "tests/lib/nvt-x.h"

#define GM_GLMARK2 "glmark2"    /* glmark2-x11 */

static const char *const gm_scenes[] = {
	"build", "texture", "shading", "bump", "effect2d", "pulsar", "desktop", "buffer",
};
#define GM_NSCENES (sizeof(gm_scenes) / sizeof(gm_scenes[0]))

enum { GM_NVD, GM_SOFT, GM_RUNS };
static const char *const gm_names[GM_RUNS] = { "nvd", "llvmpipe" };

struct gm_result {
	double fps[GM_NSCENES];
	double score;
	char renderer[128];
};

/* glmark2's report: "[scene] options: FPS: N FrameTime: T ms" per scene (in
 * the order they ran: gm_scenes'), "glmark2 Score: N", "GL_RENDERER: X". */
static void gm_parse(const char *out, struct gm_result *r)
{
	unsigned k = 0;
	char l[512];

	memset(r, 0, sizeof(r[0]));
	for (const char *at = out; at && *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL) {
		snprintf(l, sizeof(l), "%.*s", (int)strcspn(at, "\n"), at);
		const char *fps = strstr(l, "FPS: "), *score = strstr(l, "glmark2 Score: ");
		const char *ren = strstr(l, "GL_RENDERER:");
		if (l[0] == '[' && fps && k < GM_NSCENES)
			r->fps[k++] = strtod(fps + 5, NULL);
		else if (score)
			r->score = strtod(score + 15, NULL);
		else if (ren && !r->renderer[0])
			snprintf(r->renderer, sizeof(r->renderer), "%s",
				 ren + 12 + strspn(ren + 12, " \t"));
	}
}

/* glmark2 on the server: under nvd-run, or in software. */
static void gm_run(const struct nvt_x *x, const char *nvd_run, const char *sock, int software,
		   const char *size, unsigned seconds, struct gm_result *r)
{
	static char bench[GM_NSCENES][48];
	const char *argv[16 + 2 * GM_NSCENES] = { "env", "vblank_mode=0" };
	unsigned n = 2;
	char *out = NULL;

	n = glb_gl_runner(argv, n, software, nvd_run, sock);
	argv[n++] = GM_GLMARK2;
	argv[n++] = "--off-screen";
	argv[n++] = "--size";
	argv[n++] = size;
	for (unsigned i = 0; i < GM_NSCENES; i++) {
		snprintf(bench[i], sizeof(bench[i]), "%s:duration=%u", gm_scenes[i], seconds);
		argv[n++] = "-b";
		argv[n++] = bench[i];
	}
	argv[n] = NULL;
	int code = nvt_x_run(x, argv, &out, NULL);
	gm_parse(out, r);
	if (code != 0 || !r->score)
		printf("  glmark2 on %s gave no score (exit %d): %s\n", gm_names[software], code,
		       out ? out : "");
	free(out);
}

static void gm_usage(FILE *f)
{
	fprintf(f,
		"usage: glmark2 [-s PATH] [-g WxH] [-t SECONDS]\n"
		"  -s, --socket PATH    use a running nvd (default: start one, $NVD_BIN or\n"
		"                       ../bin/nvd beside this program)\n"
		"  -g, --size WxH       glmark2's canvas (default 800x600)\n"
		"  -t, --seconds N      each scene's duration (default 2, 1 to 3)\n"
		"  -h, --help           show this help\n"
		"      --version        show the version\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "socket", required_argument, 0, 's' }, { "size", required_argument, 0, 'g' },
		{ "seconds", required_argument, 0, 't' }, { "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' },      { 0, 0, 0, 0 },
	};
	const char *sock = NULL, *size = "800x600";
	unsigned secs = 2, w, h;
	int c;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "glmark2: ...", not a path */
	while ((c = getopt_long(argc, argv, "s:g:t:h", lo, NULL)) != -1) {
		switch (c) {
		case 's': sock = optarg; break;
		case 'g':
			if (glb_parse_size("--size", optarg, &w, &h) < 0)
				return 2;
			size = optarg;
			break;
		case 't':
			/* the eight scenes and glmark2's start inside nvt_x_run's 30 s */
			if (glb_parse_count("--seconds", optarg, 1, 3, &secs) < 0)
				return 2;
			break;
		default: return glb_other_option(c, gm_usage);
		}
	}
	if (optind != argc)
		return glb_bad_usage("unexpected argument '%s'", argv[optind]);
	struct nvt_paths at;
	struct nvt_daemon d;
	int own;
	if (glb_x_begin("glmark2", &at, &d, &sock, &own))
		return 1;
	struct gm_result r[GM_RUNS];
	struct nvt_x x;
	memset(r, 0, sizeof(r));
	if (nvt_x_start(&x, sock, NULL) == 0) {
		printf("glmark2 --off-screen at %s, %u s a scene, in Xorg on nvd_drv\n", size, secs);
		fflush(stdout);
		for (unsigned k = 0; k < GM_RUNS; k++)
			gm_run(&x, at.nvd_run, sock, k == GM_SOFT, size, secs, &r[k]);
		nvt_x_stop(&x);
	}
	nvt_x_cleanup(&x);
	printf("  %-10s %12s %12s %8s\n", "scene", "nvd fps", "llvmpipe fps", "ratio");
	for (unsigned i = 0; i < GM_NSCENES; i++)
		printf("  %-10s %12.0f %12.0f %8.3f\n", gm_scenes[i], r[GM_NVD].fps[i], r[GM_SOFT].fps[i],
		       r[GM_SOFT].fps[i] > 0 ? r[GM_NVD].fps[i] / r[GM_SOFT].fps[i] : 0.0);
	printf("  %-10s %12.0f %12.0f %8.3f\n", "score", r[GM_NVD].score, r[GM_SOFT].score,
	       r[GM_SOFT].score > 0 ? r[GM_NVD].score / r[GM_SOFT].score : 0.0);
	for (unsigned k = 0; k < GM_RUNS; k++)
		printf("  %s: GL_RENDERER %s\n", gm_names[k], r[k].renderer[0] ? r[k].renderer : "(none)");
	glb_daemon_stop(&d, own);
	return 0;
}
