/* bench/openarena: OpenArena's demo088-test1 timedemo (3398 frames) at
 * 640x480, offscreen through SDL's EGL driver, on nvd (Mesa's nouveau
 * driver under nvd-run) and on llvmpipe, one after the other in the same
 * run; prints the game's own fps for each and their ratio.  Never
 * pass/fail.  The game must be installed (make deps). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/glbench.h"
#include "tests/lib/nvt-oa.h"

#define OB_RUN_MS (60 * 60 * 1000)

struct ob_run {
	struct nvt_oa_result res;
	int code;
};

static void ob_play(const char *dir, const char *tag, const struct nvt_oa_opts *o,
		    struct ob_run *r)
{
	struct nvt_oa oa;
	memset(r, 0, sizeof(*r));
	r->code = nvt_oa_spawn(&oa, dir, tag, o);
	if (r->code == 0) {
		r->code = nvt_oa_wait(&oa, OB_RUN_MS);
		nvt_oa_result(&oa, &r->res);
	}
	if (r->res.frames == NVT_OA_FRAMES)
		printf("  %-9s %7.2f fps   %u frames in %.1f s   (%s)\n", tag, r->res.fps,
		       r->res.frames, r->res.seconds, r->res.renderer);
	else
		printf("  %-9s   no figure: exit %d%s%s; renderer \"%s\"; log %s\n", tag, r->code,
		       r->res.error[0] ? ", " : "", r->res.error, r->res.renderer, oa.log);
	fflush(stdout);
}

static void ob_usage(FILE *f)
{
	fprintf(f,
		"usage: openarena [-s PATH] [-g WxH] [--nvd-only]\n"
		"  -s, --socket PATH   use a running nvd (default: start one, $NVD_BIN or\n"
		"                      ../bin/nvd beside this program)\n"
		"  -g, --size WxH      the resolution (default 640x480)\n"
		"      --nvd-only      leave out the llvmpipe run\n"
		"  -h, --help          show this help\n"
		"      --version       show the version\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "socket", required_argument, 0, 's' }, { "size", required_argument, 0, 'g' },
		{ "nvd-only", no_argument, 0, 'N' },     { "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	const char *sock = NULL;
	unsigned w = 640, h = 480;
	int c, nvd_only = 0;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "openarena: ...", not a path */
	while ((c = getopt_long(argc, argv, "s:g:h", lo, NULL)) != -1) {
		switch (c) {
		case 's': sock = optarg; break;
		case 'N': nvd_only = 1; break;
		case 'g':
			if (glb_parse_size("--size", optarg, &w, &h) < 0)
				return 2;
			break;
		default: return glb_other_option(c, ob_usage);
		}
	}
	if (optind != argc)
		return glb_bad_usage("unexpected argument '%s'", argv[optind]);
	if (access(NVT_OA_GAME, X_OK) < 0) {
		fprintf(stderr, "openarena: %s: %s (run make deps)\n", NVT_OA_GAME, strerror(errno));
		return 1;
	}
	struct nvt_paths at;
	if (nvt_paths(&at, "../bin") < 0) {
		fprintf(stderr, "openarena: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	char dir[] = "/tmp/nvd-bench-oa-XXXXXX";
	if (!mkdtemp(dir)) {
		fprintf(stderr, "openarena: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	struct nvt_daemon d;
	static const char *const args[] = { "--vram", "256", NULL };
	int own;
	const char *why = glb_daemon_start(&d, &sock, 1, at.nvd_run, args, &own);
	if (why) {
		fprintf(stderr, "openarena: %s\n", why);
		glb_daemon_stop(&d, own);
		return 1;
	}

	printf("OpenArena demo088-test1 timedemo, %ux%u, offscreen\n", w, h);
	fflush(stdout);
	struct ob_run nv, sw;
	struct nvt_oa_opts onv = { at.nvd_run, sock, w, h, 0, 1 };
	struct nvt_oa_opts osw = { NULL, NULL, w, h, 0, 1 };
	ob_play(dir, "nvd", &onv, &nv);
	if (!nvd_only) {
		ob_play(dir, "llvmpipe", &osw, &sw);
		if (nv.res.frames == NVT_OA_FRAMES && sw.res.frames == NVT_OA_FRAMES &&
		    sw.res.fps > 0)
			printf("  ratio nvd/llvmpipe: %.3f\n", nv.res.fps / sw.res.fps);
		else
			printf("  ratio nvd/llvmpipe: n/a\n");
	}
	glb_daemon_stop(&d, own);
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : 1;
}
