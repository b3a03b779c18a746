/* nvd-run: run a GL program on nvd.  It preloads libnvd-drm.so (found
 * beside this binary, in ../lib), points it at the daemon's socket, turns
 * DRI3 off (an X server cannot hand out fds of our device) and execs the
 * program.  Mesa then finds the nvd device as a nouveau render node. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/nvd.h"
#include "proto/proto.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nvd-run [--socket PATH] [--] PROGRAM [ARGS...]\n"
		"Run PROGRAM with Mesa's nouveau driver rendering through nvd.\n\n"
		"  -s, --socket PATH   nvd's socket (default: $NVD_SOCKET, /run/nvd/socket for root,\n"
		"                      $XDG_RUNTIME_DIR/nvd/socket otherwise)\n"
		"  -h, --help          this text\n"
		"      --version       show the version\n\n"
		"Environment: NVD_DRM_LIB overrides the interposer's path; NVD_DRM_DEBUG=1 logs\n"
		"every DRM call; NVD_DRM_SYNC=1 waits for each submission and reports refusals;\n"
		"NVD_DRM_DUMP=FILE appends every push buffer submitted to FILE (for nvd-decode);\n"
		"NVD_LOST=continue keeps PROGRAM running, not drawing, when nvd goes away\n"
		"(by default it exits, status 1, at its next GL call).\n");
}

/* <dir of this executable>/../lib/libnvd-drm.so */
static int find_lib(char *out, size_t len)
{
	const char *env = getenv("NVD_DRM_LIB");
	if (env && *env) {
		snprintf(out, len, "%s", env);
		return access(out, R_OK) == 0 ? 0 : -errno;
	}
	char exe[PATH_MAX - 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -errno;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	snprintf(out, len, "%s/../lib/libnvd-drm.so", exe);
	char *r = realpath(out, NULL);
	if (!r)
		return -errno;
	snprintf(out, len, "%s", r);
	free(r);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	const char *sock = NULL;
	int o;
	argv[0] = program_invocation_short_name;   /* getopt's messages: "nvd-run: ...", not a path */
	while ((o = getopt_long(argc, argv, "+s:h", opts, NULL)) != -1) {
		switch (o) {
		case 's': sock = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("nvd-run %s\n", NVD_VERSION); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "nvd-run: no program to run\n");
		usage(stderr);
		return 2;
	}

	char lib[PATH_MAX];
	int r = find_lib(lib, sizeof(lib));
	if (r < 0) {
		fprintf(stderr, "nvd-run: cannot find libnvd-drm.so (%s): %s\n", lib, strerror(-r));
		return 2;
	}
	char sockbuf[PATH_MAX];
	if (sock) {
		char *abs = realpath(sock, NULL);
		snprintf(sockbuf, sizeof(sockbuf), "%s", abs ? abs : sock);
		free(abs);
		setenv("NVD_SOCKET", sockbuf, 1);
	}
	/* Say now, in words, that nvd is not there: otherwise Mesa quietly
	 * renders on llvmpipe instead. */
	struct nvc *c;
	if (nvc_connect(NULL, "nvd-run", &c) < 0) {
		fprintf(stderr, "nvd-run: %s\n", nvc_error());
		return 2;
	}
	nvc_close(c);

	const char *pre = getenv("LD_PRELOAD");
	char *preload = malloc(strlen(lib) + (pre ? strlen(pre) : 0) + 2);
	if (!preload)
		return 2;
	sprintf(preload, "%s%s%s", lib, pre && *pre ? ":" : "", pre && *pre ? pre : "");
	setenv("LD_PRELOAD", preload, 1);
	setenv("LIBGL_DRI3_DISABLE", "1", 1);
	unsetenv("LIBGL_ALWAYS_SOFTWARE");
	unsetenv("MESA_LOADER_DRIVER_OVERRIDE");
	unsetenv("GBM_ALWAYS_SOFTWARE");
	execvp(argv[optind], argv + optind);
	fprintf(stderr, "nvd-run: %s: %s\n", argv[optind], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
