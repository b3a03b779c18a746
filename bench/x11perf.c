/* bench/x11perf: x11perf's rates for a filled rectangle, a window-to-window
 * copy, a MIT-SHM put, anti-aliased text and a Render composite of an
 * ARGB32 pixmap (all 500x500 but the text) on three X servers, one after
 * the other in the same run: Xorg with nvd_drv.so on an nvd (EXA on the
 * simulated card), Xvfb, and Xorg with the dummy driver (both in software),
 * all of the size and depth nvd's monitors give the first.  Prints each
 * rate and its ratio against each software server; never passes or fails.
 * Xorg needs root for -config and -modulepath with a path. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/glbench.h"
#include "tests/lib/nvt-x.h"

enum { XP_NVD, XP_XVFB, XP_DUMMY, XP_SERVERS };
static const char *const xp_names[XP_SERVERS] = { "nvd", "Xvfb", "dummy" };

static const struct { const char *label; const char *args[3]; } xp_tests[] = {
	{ "rect500", { "-rect500" } },
	{ "copywinwin500", { "-copywinwin500" } },
	{ "shmput500", { "-shmput500" } },
	{ "aa10text", { "-aa10text" } },
	{ "comppixwin500 ARGB32", { "-format", "ARGB32", "-comppixwin500" } },
};
#define XP_NTESTS (sizeof(xp_tests) / sizeof(xp_tests[0]))

static int xp_start(struct nvt_x *x, unsigned which, const char *sock, const char *screen,
		    const char *conf)
{
	switch (which) {
	case XP_NVD: return nvt_x_start(x, sock, NULL);
	case XP_XVFB: return nvt_xvfb_start(x, screen, NULL);
	default: return nvt_x_start_config(x, sock, conf, NULL);
	}
}

/* Every test on one server; rates[i] 0 when it gave none. */
static void xp_run(unsigned which, const char *sock, const char *screen, const char *conf,
		   const char *seconds, const char *repeat, double rates[XP_NTESTS])
{
	struct nvt_x x;

	memset(rates, 0, sizeof(double) * XP_NTESTS);
	if (xp_start(&x, which, sock, screen, conf) < 0) {
		printf("  %s: the server did not start\n", xp_names[which]);
		return;
	}
	for (unsigned i = 0; i < XP_NTESTS; i++) {
		const char *args[10] = { "-repeat", repeat, "-time", seconds };
		unsigned n = 4;
		char *out;
		for (unsigned k = 0; k < 3 && xp_tests[i].args[k]; k++)
			args[n++] = xp_tests[i].args[k];
		args[n] = NULL;
		int r = nvt_x_x11perf(&x, args, &out, &rates[i]);
		if (r != 0 || (out && strstr(out, "rror"))) {
			printf("  %s, %s: x11perf exit %d%s\n", xp_names[which], xp_tests[i].label, r,
			       out && strstr(out, "rror") ? ", with an X error" : "");
			rates[i] = 0;
		}
		free(out);
	}
	if (nvt_x_stop(&x) < 0)
		printf("  (%s did not stop cleanly)\n", xp_names[which]);
	nvt_x_cleanup(&x);
}

static void xp_ratio(double a, double b)
{
	if (a > 0 && b > 0)
		printf(" %10.4f", a / b);
	else
		printf(" %10s", "n/a");
}

static void xp_usage(FILE *f)
{
	fprintf(f,
		"usage: x11perf [-s PATH] [-t SECONDS] [-r REPEAT] [--no-dummy]\n"
		"  -s, --socket PATH    use a running nvd (default: start one, $NVD_BIN or\n"
		"                       ../bin/nvd beside this program)\n"
		"  -t, --time SECONDS   x11perf -time (default 2, 1 to 5)\n"
		"  -r, --repeat N       x11perf -repeat (default 1, 1 to 3)\n"
		"      --no-dummy       leave out Xorg's dummy driver\n"
		"  -h, --help           show this help\n"
		"      --version        show the version\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "socket", required_argument, 0, 's' }, { "time", required_argument, 0, 't' },
		{ "repeat", required_argument, 0, 'r' }, { "no-dummy", no_argument, 0, 'D' },
		{ "help", no_argument, 0, 'h' },         { "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	const char *sock = NULL, *seconds = "2", *repeat = "1";
	unsigned v;
	int c, dummy = 1;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "x11perf: ...", not a path */
	while ((c = getopt_long(argc, argv, "s:t:r:h", lo, NULL)) != -1) {
		switch (c) {
		case 's': sock = optarg; break;
		/* each x11perf run must end within the harness's 30 s */
		case 't':
			if (glb_parse_count("--time", optarg, 1, 5, &v) < 0)
				return 2;
			seconds = optarg;
			break;
		case 'r':
			if (glb_parse_count("--repeat", optarg, 1, 3, &v) < 0)
				return 2;
			repeat = optarg;
			break;
		case 'D': dummy = 0; break;
		default: return glb_other_option(c, xp_usage);
		}
	}
	if (optind != argc)
		return glb_bad_usage("unexpected argument '%s'", argv[optind]);
	struct nvt_paths at;
	struct nvt_daemon d;
	int own;
	if (glb_x_begin("x11perf", &at, &d, &sock, &own))
		return 1;
	/* the software servers get the size of nvd's screen */
	struct nvt_x x;
	unsigned w = 0, h = 0, depth = 0;
	if (nvt_x_start(&x, sock, NULL) == 0) {
		nvt_x_dpyinfo(&x, &w, &h, &depth);
		nvt_x_stop(&x);
	}
	nvt_x_cleanup(&x);
	char screen[32], dir[] = "/tmp/nvd-bench-x11perf-XXXXXX", conf[64];
	snprintf(screen, sizeof(screen), "%ux%ux24", w, h);
	int ok = w && h && mkdtemp(dir);
	if (ok) {
		snprintf(conf, sizeof(conf), "%s/dummy.conf", dir);
		ok = nvt_x_dummy_conf(conf, w, h) == 0;
	}
	if (!ok) {
		fprintf(stderr, "x11perf: no X on nvd, or no room for the dummy's xorg.conf\n");
		glb_daemon_stop(&d, own);
		return 1;
	}

	printf("x11perf -repeat %s -time %s on a %ux%u screen of depth 24: objects per second\n",
	       repeat, seconds, w, h);
	fflush(stdout);
	double rates[XP_SERVERS][XP_NTESTS];
	unsigned n = dummy ? XP_SERVERS : XP_DUMMY;
	for (unsigned s = 0; s < n; s++)
		xp_run(s, sock, screen, conf, seconds, repeat, rates[s]);
	printf("  %-22s %10s %10s", "test", "nvd", "Xvfb");
	if (dummy)
		printf(" %10s", "dummy");
	printf(" %10s%s\n", "nvd/Xvfb", dummy ? "  nvd/dummy" : "");
	for (unsigned i = 0; i < XP_NTESTS; i++) {
		printf("  %-22s", xp_tests[i].label);
		for (unsigned s = 0; s < n; s++)
			printf(" %10.1f", rates[s][i]);
		xp_ratio(rates[XP_NVD][i], rates[XP_XVFB][i]);
		if (dummy)
			xp_ratio(rates[XP_NVD][i], rates[XP_DUMMY][i]);
		printf("\n");
	}
	unlink(conf);
	rmdir(dir);
	glb_daemon_stop(&d, own);
	return 0;
}
