/* nvd-x: start Xorg on nvd.  It finds the xorg.conf and the module
 * directory that hold nvd_drv.so beside this binary (../lib/xorg), points
 * the driver at nvd's socket, checks that nvd answers and execs Xorg with
 * them.  Xorg takes -config, -modulepath and -logfile with a path only from
 * root, so nvd-x is root's. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/nvd.h"
#include "proto/proto.h"

#define XORG_DEFAULT    "/usr/lib/xorg/Xorg"
#define XORG_MODULEDIR  "/usr/lib/xorg/modules"
#define MAX_XORG_ARGS   256

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nvd-x [OPTIONS] [:N] [-- XORG-ARGS...]\n"
		"Start Xorg on display :N (default :1) with the nvd driver, as root.\n\n"
		"  -s, --socket PATH   nvd's socket (default: $NVD_SOCKET, else /run/nvd/socket)\n"
		"  -c, --config FILE   the xorg.conf (default: ../lib/xorg/xorg.conf by nvd-x)\n"
		"  -l, --logfile FILE  Xorg's log (default: Xorg's own, /var/log/Xorg.N.log)\n"
		"  -x, --xorg PATH     the server (default: " XORG_DEFAULT ", else Xorg in PATH)\n"
		"  -h, --help          this text\n"
		"      --version       show the version\n\n"
		"Xorg runs as: Xorg :N -config CONF -modulepath MODS," XORG_MODULEDIR "\n"
		"              -noreset -nolisten tcp [-logfile FILE] XORG-ARGS...\n");
}

/* The directory this executable is in. */
static int exe_dir(char *out, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", out, len - 1);
	if (n < 0)
		return -errno;
	out[n] = 0;
	char *slash = strrchr(out, '/');
	if (slash)
		*slash = 0;
	return 0;
}

/* path made absolute without requiring it to exist (a log file Xorg will
 * create, a socket given before nvd made it): realpath when it exists,
 * else the working directory in front. */
static int absolute(const char *path, char *out, size_t len)
{
	char *r = realpath(path, NULL);
	if (r) {
		int n = snprintf(out, len, "%s", r);
		free(r);
		return n < (int)len ? 0 : -ENAMETOOLONG;
	}
	if (path[0] == '/')
		return snprintf(out, len, "%s", path) < (int)len ? 0 : -ENAMETOOLONG;
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	return snprintf(out, len, "%s/%s", cwd, path) < (int)len ? 0 : -ENAMETOOLONG;
}

/* ":N" with N a display number; -1 for anything else. */
static long parse_display(const char *s)
{
	if (s[0] != ':' || s[1] < '0' || s[1] > '9')
		return -1;
	char *end;
	errno = 0;
	long n = strtol(s + 1, &end, 10);
	if (errno || *end || n > 32767)
		return -1;
	return n;
}

static int exists_as(const char *what, const char *path, char *out, size_t len)
{
	char *r = realpath(path, NULL);
	if (!r) {
		fprintf(stderr, "nvd-x: %s %s: %s\n", what, path, strerror(errno));
		return -1;
	}
	snprintf(out, len, "%s", r);
	free(r);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ "logfile", required_argument, NULL, 'l' },
		{ "xorg", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	const char *sock = NULL, *config = NULL, *logfile = NULL, *xorg = NULL;
	const char *last_optarg = NULL;
	int o;
	argv[0] = program_invocation_short_name;   /* getopt's messages: "nvd-x: ...", not a path */
	while ((o = getopt_long(argc, argv, "+s:c:l:x:h", opts, NULL)) != -1) {
		last_optarg = optarg;
		switch (o) {
		case 's': sock = optarg; break;
		case 'c': config = optarg; break;
		case 'l': logfile = optarg; break;
		case 'x': xorg = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("nvd-x %s\n", NVD_VERSION); return 0;
		default: usage(stderr); return 2;
		}
	}

	/* getopt ate a "--" written before the display, if any (and not as
	 * an option's argument): then everything after it is Xorg's. */
	int dashes = optind > 1 && !strcmp(argv[optind - 1], "--") &&
		     argv[optind - 1] != last_optarg;
	const char *display = ":1";
	if (!dashes && optind < argc) {
		display = argv[optind++];
		if (parse_display(display) < 0) {
			fprintf(stderr, "nvd-x: '%s' is not a display (:N); see nvd-x --help\n",
				display);
			return 2;
		}
		if (optind < argc) {
			if (strcmp(argv[optind], "--")) {
				fprintf(stderr, "nvd-x: Xorg's arguments go after '--'; see "
						"nvd-x --help\n");
				return 2;
			}
			optind++;
		}
	}
	/* Xorg would take a second display as its own. */
	for (int i = optind; i < argc; i++)
		if (parse_display(argv[i]) >= 0) {
			fprintf(stderr, "nvd-x: give the display (%s) before '--'\n", argv[i]);
			return 2;
		}
	if (argc - optind > MAX_XORG_ARGS) {
		fprintf(stderr, "nvd-x: too many arguments for Xorg\n");
		return 2;
	}

	if (getuid() != 0) {
		fprintf(stderr, "nvd-x: Xorg accepts -config, -modulepath and -logfile with a "
				"path only from root (real uid 0); run nvd-x as root\n");
		return 2;
	}

	char dir[PATH_MAX - 64], path[PATH_MAX + 32], conf[PATH_MAX], mods[PATH_MAX];
	int r = exe_dir(dir, sizeof(dir));
	if (r < 0) {
		fprintf(stderr, "nvd-x: /proc/self/exe: %s\n", strerror(-r));
		return 2;
	}
	if (config) {
		if (exists_as("config", config, conf, sizeof(conf)) < 0)
			return 2;
	} else {
		snprintf(path, sizeof(path), "%s/../lib/xorg/xorg.conf", dir);
		if (exists_as("cannot find the nvd xorg.conf,", path, conf, sizeof(conf)) < 0)
			return 2;
	}
	snprintf(path, sizeof(path), "%s/../lib/xorg/modules", dir);
	if (exists_as("cannot find the nvd module directory,", path, mods, sizeof(mods)) < 0)
		return 2;
	/* Without the driver Xorg says only "no screens found"; say why.  A
	 * config of one's own may use another driver. */
	snprintf(path, sizeof(path), "%s/drivers/nvd_drv.so", mods);
	if (!config && access(path, R_OK) < 0) {
		fprintf(stderr, "nvd-x: cannot find the nvd driver, %s: %s\n", path,
			strerror(errno));
		return 2;
	}

	/* Xorg's driver finds nvd through NVD_SOCKET; make it absolute so
	 * that it does not depend on where the server runs. */
	char sockbuf[PATH_MAX];
	if (!sock)
		sock = getenv("NVD_SOCKET");
	if (sock && *sock) {
		if (absolute(sock, sockbuf, sizeof(sockbuf)) < 0) {
			fprintf(stderr, "nvd-x: socket path %s is too long\n", sock);
			return 2;
		}
		setenv("NVD_SOCKET", sockbuf, 1);
	}
	/* Say now, in words, that nvd is not there: Xorg would say only that
	 * it found no screens. */
	struct nvc *c;
	if (nvc_connect(NULL, "nvd-x", &c) < 0) {
		fprintf(stderr, "nvd-x: nvd does not answer: %s\n", nvc_error());
		return 2;
	}
	nvc_close(c);

	char logbuf[PATH_MAX];
	if (logfile && absolute(logfile, logbuf, sizeof(logbuf)) < 0) {
		fprintf(stderr, "nvd-x: log path %s is too long\n", logfile);
		return 2;
	}
	char modpath[2 * PATH_MAX];
	snprintf(modpath, sizeof(modpath), "%s,%s", mods, XORG_MODULEDIR);

	if (!xorg)
		xorg = access(XORG_DEFAULT, X_OK) == 0 ? XORG_DEFAULT : "Xorg";
	const char *xargv[16 + MAX_XORG_ARGS];
	unsigned n = 0;
	xargv[n++] = xorg;
	xargv[n++] = display;
	xargv[n++] = "-config";
	xargv[n++] = conf;
	xargv[n++] = "-modulepath";
	xargv[n++] = modpath;
	xargv[n++] = "-noreset";
	xargv[n++] = "-nolisten";
	xargv[n++] = "tcp";
	if (logfile) {
		xargv[n++] = "-logfile";
		xargv[n++] = logbuf;
	}
	for (int i = optind; i < argc; i++)
		xargv[n++] = argv[i];
	xargv[n] = NULL;
	execvp(xorg, (char *const *)xargv);
	fprintf(stderr, "nvd-x: %s: %s\n", xorg, strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
