/* nvt-x: Xorg on nvd and Xvfb in tests, X clients with their output, and
 * readers for xwd, xrandr and xdpyinfo.  See nvt-x.h. */
#include "tests/lib/nvt-x.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/nvt.h"

#define NVT_X_FIRST_DISPLAY 20
#define NVT_X_LAST_DISPLAY  199
#define NVT_X_START_MS      10000
#define NVT_X_STOP_MS       5000
#define NVT_X_RUN_MS        30000
#define NVT_X_LOG_TAIL      80

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void sleep_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };
	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

/* ---- the server ---- */

/* The last `lines` lines of a file to stderr, under a title. */
static int print_tail(const char *path, const char *title, unsigned lines)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	char *buf = NULL;
	size_t cap = 0, len = 0, n;
	char chunk[8192];
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			char *b = realloc(buf, cap);
			if (!b)
				break;
			buf = b;
		}
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(f);
	if (!len) {
		free(buf);
		return -ENODATA;
	}
	size_t start = len;
	unsigned seen = 0;
	/* a last line without its newline counts too */
	if (buf[len - 1] == '\n')
		start--;
	while (start > 0 && seen < lines)
		if (buf[--start] == '\n')
			seen++;
	if (buf[start] == '\n')
		start++;
	fprintf(stderr, "---- %s%s ----\n", title, start ? " (last lines)" : "");
	fwrite(buf + start, 1, len - start, stderr);
	if (buf[len - 1] != '\n')
		fputc('\n', stderr);
	fprintf(stderr, "---- end of %s ----\n", title);
	free(buf);
	return 0;
}

void nvt_x_print_log(const struct nvt_x *x)
{
	char title[160];
	snprintf(title, sizeof(title), "%s log %s", x->xvfb ? "Xvfb" : "Xorg", x->log);
	if (print_tail(x->log, title, NVT_X_LOG_TAIL) < 0 && x->out[0]) {
		snprintf(title, sizeof(title), "nvd-x output %s", x->out);
		print_tail(x->out, title, NVT_X_LOG_TAIL);
	}
}

int nvt_x_log_contains(const struct nvt_x *x, const char *text)
{
	return nvt_file_contains(x->log, text);
}

static void x_reap(struct nvt_x *x, int st)
{
	x->reaped = 1;
	x->status = st;
}

int nvt_x_alive(struct nvt_x *x)
{
	int st;
	if (!x->pid || x->reaped)
		return 0;
	pid_t r = waitpid(x->pid, &st, WNOHANG);
	if (r == x->pid) {
		x_reap(x, st);
		return 0;
	}
	return r == 0;
}

static void describe(int st, char *buf, size_t len)
{
	if (WIFEXITED(st))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else
		snprintf(buf, len, "ended with wait status 0x%x", st);
}

/* The pid in a lock file, 0 when there is none to read. */
static int lock_pid(const char *lock)
{
	char buf[32] = "";
	FILE *f = fopen(lock, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return atoi(buf);
}

/* A server killed outright leaves its socket and lock file behind; they
 * go at once when they are ours (the lock file holds the server's pid). */
static void x_remove_stale(const struct nvt_x *x)
{
	if (x->pid && lock_pid(x->lock) == (int)x->pid) {
		unlink(x->lock);
		unlink(x->sock);
	}
}

/* The server answers the X connection setup with Success.  A connect
 * alone is not enough: Xorg listens before its drivers' PreInit, and
 * queues connections until its screens exist. */
static int x_ready(const char *path, int timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int ok = 0;
	if (fd < 0)
		return 0;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		/* little-endian client, protocol 11.0, no authorisation */
		static const uint8_t setup[12] = { 'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
		uint8_t reply[8];
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (write(fd, setup, sizeof(setup)) == (ssize_t)sizeof(setup) &&
		    poll(&p, 1, timeout_ms) == 1 && read(fd, reply, sizeof(reply)) > 0)
			ok = reply[0] == 1;
	}
	close(fd);
	return ok;
}

/* The first display with neither a socket nor a lock file.  A lock file
 * whose server is gone (a test killed outright: its server died with it)
 * and that server's socket are removed first, as Xorg itself would. */
static int x_pick_display(struct nvt_x *x)
{
	struct stat st;
	for (unsigned n = NVT_X_FIRST_DISPLAY; n <= NVT_X_LAST_DISPLAY; n++) {
		snprintf(x->sock, sizeof(x->sock), "/tmp/.X11-unix/X%u", n);
		snprintf(x->lock, sizeof(x->lock), "/tmp/.X%u-lock", n);
		int pid = lock_pid(x->lock);
		if (pid > 0 && kill(pid, 0) < 0 && errno == ESRCH) {
			unlink(x->lock);
			unlink(x->sock);
		}
		if (lstat(x->sock, &st) == 0 || lstat(x->lock, &st) == 0)
			continue;
		x->display = n;
		snprintf(x->name, sizeof(x->name), ":%u", n);
		return 0;
	}
	fprintf(stderr, "nvt-x: no free display from :%u to :%u\n", NVT_X_FIRST_DISPLAY,
		NVT_X_LAST_DISPLAY);
	return -EBUSY;
}

static int x_prepare(struct nvt_x *x, int xvfb)
{
	memset(x, 0, sizeof(*x));
	x->xvfb = xvfb;
	snprintf(x->dir, sizeof(x->dir), "/tmp/nvt-x-XXXXXX");
	if (!mkdtemp(x->dir)) {
		int e = errno;
		fprintf(stderr, "nvt-x: mkdtemp: %s\n", strerror(e));
		x->dir[0] = 0;
		return -e;
	}
	snprintf(x->log, sizeof(x->log), "%s/%s.log", x->dir, xvfb ? "Xvfb" : "Xorg");
	if (!xvfb)
		snprintf(x->out, sizeof(x->out), "%s/nvd-x.out", x->dir);
	return x_pick_display(x);
}

/* Start argv with its output in x->out (Xorg) or x->log (Xvfb) and wait
 * until the server accepts. */
/* In a child: its own group (a kill reaches xkbcomp too), dead with the
 * test, and without the test's watchdog alarm. */
static void child_begin(pid_t parent)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	signal(SIGALRM, SIG_DFL);
}

static int x_spawn(struct nvt_x *x, const char *const *argv)
{
	const char *out = x->xvfb ? x->log : x->out;

	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		fprintf(stderr, "nvt-x: fork: %s\n", strerror(e));
		return -e;
	}
	if (pid == 0) {
		child_begin(parent);
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || null < 0)
			_exit(127);
		dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "nvt-x: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	x->pid = pid;

	char why[96];
	int64_t t0 = now_ms();
	while (now_ms() - t0 < NVT_X_START_MS) {
		if (!nvt_x_alive(x)) {
			describe(x->status, why, sizeof(why));
			fprintf(stderr, "nvt-x: %s on %s %s before it served X clients\n",
				argv[0], x->name, why);
			nvt_x_print_log(x);
			x_remove_stale(x);
			return -ECHILD;
		}
		int64_t left = NVT_X_START_MS - (now_ms() - t0);
		if (x_ready(x->sock, (int)(left < 200 ? left : 200)))
			return 0;
		sleep_ms(10);
	}
	fprintf(stderr, "nvt-x: %s on %s does not accept on %s after %d ms: killed\n", argv[0],
		x->name, x->sock, NVT_X_START_MS);
	nvt_x_print_log(x);
	nvt_x_kill(x);
	return -ETIMEDOUT;
}

/* $NVD_TOOLS/nvd-x, else ../../bin/nvd-x beside the test (BUILD/tests/x). */
static int find_nvd_x(char *out, size_t len)
{
	const char *tools = getenv("NVD_TOOLS");
	if (tools && *tools) {
		snprintf(out, len, "%s/nvd-x", tools);
		return 0;
	}
	struct nvt_paths p;
	if (nvt_paths(&p, "../../bin") < 0)
		return -errno;
	snprintf(out, len, "%s/../../bin/nvd-x", p.dir);
	return 0;
}

int nvt_x_start(struct nvt_x *x, const char *nvd_sock, const char *const *extra)
{
	return nvt_x_start_config(x, nvd_sock, NULL, extra);
}

int nvt_x_start_config(struct nvt_x *x, const char *nvd_sock, const char *config,
		       const char *const *extra)
{
	char nvd_x[PATH_MAX + 16];
	const char *argv[64];
	unsigned n = 0;
	int r;

	if ((r = x_prepare(x, 0)) < 0)
		goto fail;
	if ((r = find_nvd_x(nvd_x, sizeof(nvd_x))) < 0) {
		fprintf(stderr, "nvt-x: cannot find nvd-x: %s\n", strerror(-r));
		goto fail;
	}
	argv[n++] = nvd_x;
	argv[n++] = "--socket";
	argv[n++] = nvd_sock;
	argv[n++] = "--logfile";
	argv[n++] = x->log;
	if (config) {
		argv[n++] = "--config";
		argv[n++] = config;
	}
	argv[n++] = x->name;
	if (extra && extra[0]) {
		argv[n++] = "--";
		for (unsigned i = 0; extra[i] && n < 63; i++)
			argv[n++] = extra[i];
	}
	argv[n] = NULL;
	if ((r = x_spawn(x, argv)) < 0)
		goto fail;
	return 0;
fail:
	nvt_x_cleanup(x);
	return r;
}

int nvt_xvfb_start(struct nvt_x *x, const char *screen, const char *const *extra)
{
	const char *argv[64];
	unsigned n = 0;
	int r;

	if ((r = x_prepare(x, 1)) < 0)
		goto fail;
	argv[n++] = "/usr/bin/Xvfb";
	argv[n++] = x->name;
	argv[n++] = "-screen";
	argv[n++] = "0";
	argv[n++] = screen;
	/* a reset at the last client's exit would undo what the test drew */
	argv[n++] = "-noreset";
	argv[n++] = "-nolisten";
	argv[n++] = "tcp";
	for (unsigned i = 0; extra && extra[i] && n < 63; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;
	if ((r = x_spawn(x, argv)) < 0)
		goto fail;
	return 0;
fail:
	nvt_x_cleanup(x);
	return r;
}

int nvt_x_stop(struct nvt_x *x)
{
	char why[96];
	int st;

	if (!x->pid || !nvt_x_alive(x)) {
		if (x->reaped) {
			describe(x->status, why, sizeof(why));
			fprintf(stderr, "nvt-x: the server on %s had already ended: it %s\n",
				x->name, why);
			nvt_x_print_log(x);
		}
		return -ECHILD;
	}
	kill(x->pid, SIGTERM);
	int64_t t0 = now_ms();
	for (;;) {
		pid_t r = waitpid(x->pid, &st, WNOHANG);
		if (r == x->pid)
			break;
		if (now_ms() - t0 >= NVT_X_STOP_MS) {
			fprintf(stderr, "nvt-x: the server on %s ignores SIGTERM for %d ms: "
					"killed\n", x->name, NVT_X_STOP_MS);
			nvt_x_print_log(x);
			nvt_x_kill(x);
			return -ETIMEDOUT;
		}
		sleep_ms(10);
	}
	x_reap(x, st);
	killpg(x->pid, SIGKILL);       /* whatever it started */
	x_remove_stale(x);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		describe(st, why, sizeof(why));
		fprintf(stderr, "nvt-x: the server on %s %s on SIGTERM\n", x->name, why);
		nvt_x_print_log(x);
		return -1;
	}
	return 0;
}

void nvt_x_kill(struct nvt_x *x)
{
	int st;
	if (!x->pid)
		return;
	if (!x->reaped) {
		killpg(x->pid, SIGKILL);
		if (waitpid(x->pid, &st, 0) == x->pid)
			x_reap(x, st);
	}
	x_remove_stale(x);
}

void nvt_x_cleanup(struct nvt_x *x)
{
	if (x->pid)
		nvt_x_kill(x);
	x->pid = 0;
	if (!x->dir[0])
		return;
	DIR *dir = opendir(x->dir);
	if (dir) {
		struct dirent *e;
		char path[384];
		while ((e = readdir(dir))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", x->dir, e->d_name);
			unlink(path);
		}
		closedir(dir);
	}
	rmdir(x->dir);
	x->dir[0] = 0;
}

/* ---- clients ---- */

int nvt_x_run(const struct nvt_x *x, const char *const *argv, char **out, size_t *len)
{
	int pfd[2] = { -1, -1 }, efd[2];
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int st;

	if (out)
		*out = NULL;
	if (len)
		*len = 0;
	if (out && pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	/* the child's exec error comes back on efd; a clean exec closes it */
	if (pipe2(efd, O_CLOEXEC) < 0) {
		int e = errno;
		if (out) {
			close(pfd[0]);
			close(pfd[1]);
		}
		return -e;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		if (out) {
			close(pfd[0]);
			close(pfd[1]);
		}
		close(efd[0]);
		close(efd[1]);
		return -e;
	}
	if (pid == 0) {
		child_begin(parent);
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		dup2(null, 0);
		dup2(out ? pfd[1] : null, 1);
		setenv("DISPLAY", x->name, 1);
		execvp(argv[0], (char *const *)argv);
		int e = errno;
		ssize_t w = write(efd[1], &e, sizeof(e));
		(void)w;
		_exit(127);
	}
	close(efd[1]);
	if (out)
		close(pfd[1]);
	int e = 0;
	ssize_t got = read(efd[0], &e, sizeof(e));
	close(efd[0]);
	if (got == (ssize_t)sizeof(e)) {
		if (out)
			close(pfd[0]);
		waitpid(pid, &st, 0);
		fprintf(stderr, "nvt-x: cannot run %s: %s\n", argv[0], strerror(e));
		return -e;
	}

	int64_t deadline = now_ms() + NVT_X_RUN_MS;
	int r = 0;
	while (out) {
		int64_t left = deadline - now_ms();
		if (left <= 0) {
			r = -ETIMEDOUT;
			break;
		}
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		int pr = poll(&p, 1, (int)left);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0) {
			r = -errno;
			break;
		}
		if (pr == 0)
			continue;
		if (n + 65536 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 1 << 20;
			while (ncap < n + 65536 + 1)
				ncap *= 2;
			char *b = realloc(buf, ncap);
			if (!b) {
				r = -ENOMEM;
				break;
			}
			buf = b;
			cap = ncap;
		}
		ssize_t k = read(pfd[0], buf + n, 65536);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			r = -errno;
			break;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	if (out)
		close(pfd[0]);
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (r < 0 || now_ms() >= deadline) {
			if (!r)
				r = -ETIMEDOUT;
			killpg(pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			break;
		}
		sleep_ms(2);
	}
	if (r == -ETIMEDOUT)
		fprintf(stderr, "nvt-x: %s on %s still ran after %d ms: killed\n", argv[0],
			x->name, NVT_X_RUN_MS);
	if (r < 0) {
		free(buf);
		return r;
	}
	if (out) {
		if (!buf && !(buf = malloc(1)))
			return -ENOMEM;
		buf[n] = 0;
		*out = buf;
		if (len)
			*len = n;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int nvt_x_x11perf(const struct nvt_x *x, const char *const *args, char **out, double *rate)
{
	const char *argv[48] = { "sh", "-c", "exec x11perf \"$@\" 2>&1", "x11perf" };
	unsigned n = 4;
	char *text;

	for (unsigned i = 0; args[i] && n < 47; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	*rate = 0;
	int r = nvt_x_run(x, argv, &text, NULL);
	if (r < 0)
		return r;
	for (const char *l = text; (l = strstr(l, " reps @ ")); l++) {
		const char *open = strchr(l, '(');
		double v;
		if (open && sscanf(open + 1, "%lf/sec)", &v) == 1)
			*rate = v;
	}
	if (out)
		*out = text;
	else
		free(text);
	return r;
}

/* ---- Xorg's dummy driver ---- */

int nvt_x_dummy_conf(const char *path, unsigned w, unsigned h)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f,
		"Section \"ServerFlags\"\n"
		"    Option \"AutoAddDevices\" \"off\"\n"
		"    Option \"AutoAddGPU\" \"off\"\n"
		"    Option \"AutoEnableDevices\" \"off\"\n"
		"    Option \"DontVTSwitch\" \"true\"\n"
		"EndSection\n"
		"Section \"Device\"\n"
		"    Identifier \"dummy0\"\n"
		"    Driver \"dummy\"\n"
		"    VideoRam %u\n"
		"EndSection\n"
		"Section \"Monitor\"\n"
		"    Identifier \"any\"\n"
		"    HorizSync 5.0 - 1000.0\n"
		"    VertRefresh 5.0 - 200.0\n"
		"EndSection\n"
		"Section \"Screen\"\n"
		"    Identifier \"dummy-screen\"\n"
		"    Device \"dummy0\"\n"
		"    Monitor \"any\"\n"
		"    DefaultDepth 24\n"
		"    SubSection \"Display\"\n"
		"        Depth 24\n"
		"        Virtual %u %u\n"
		"    EndSubSection\n"
		"EndSection\n",
		(w * h * 4 / 1024 + 1023) / 1024 * 1024 + 16384, w, h);
	return fclose(f) ? -errno : 0;
}

/* ---- xwd ---- */

enum {
	XWD_HEADER_SIZE, XWD_FILE_VERSION, XWD_PIXMAP_FORMAT, XWD_PIXMAP_DEPTH,
	XWD_PIXMAP_WIDTH, XWD_PIXMAP_HEIGHT, XWD_XOFFSET, XWD_BYTE_ORDER, XWD_BITMAP_UNIT,
	XWD_BITMAP_BIT_ORDER, XWD_BITMAP_PAD, XWD_BITS_PER_PIXEL, XWD_BYTES_PER_LINE,
	XWD_VISUAL_CLASS, XWD_RED_MASK, XWD_GREEN_MASK, XWD_BLUE_MASK, XWD_BITS_PER_RGB,
	XWD_COLORMAP_ENTRIES, XWD_NCOLORS, XWD_WINDOW_WIDTH, XWD_WINDOW_HEIGHT,
	XWD_WINDOW_X, XWD_WINDOW_Y, XWD_WINDOW_BDRWIDTH,
	XWD_FIELDS
};
#define XWD_VERSION     7
#define XWD_ZPIXMAP     2
#define XWD_MSBFIRST    1
#define XWD_TRUECOLOR   4
#define XWD_DIRECTCOLOR 5   /* xwd -root over windows of other visuals writes it */
#define XWD_COLOR_SIZE  12

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A channel of v under mask, scaled to 8 bits. */
static uint32_t channel(uint32_t v, uint32_t mask)
{
	unsigned shift = (unsigned)__builtin_ctz(mask);
	unsigned bits = (unsigned)__builtin_popcount(mask);
	uint32_t c = (v & mask) >> shift;
	if (bits >= 8)
		return c >> (bits - 8);
	uint32_t max = (1u << bits) - 1;
	return (c * 255 + max / 2) / max;
}

static int contiguous(uint32_t mask)
{
	if (!mask)
		return 0;
	uint32_t m = mask >> __builtin_ctz(mask);
	return (m & (m + 1)) == 0;
}

int nvt_xwd_parse(const uint8_t *data, size_t len, uint32_t **pixels, unsigned *w,
		  unsigned *h)
{
	uint32_t f[XWD_FIELDS];

	*pixels = NULL;
	if (len < XWD_FIELDS * 4) {
		fprintf(stderr, "nvt-x: xwd: %zu bytes, shorter than a header\n", len);
		return -EINVAL;
	}
	for (unsigned i = 0; i < XWD_FIELDS; i++)
		f[i] = be32(data + 4 * i);
	if (f[XWD_FILE_VERSION] != XWD_VERSION || f[XWD_HEADER_SIZE] < XWD_FIELDS * 4) {
		fprintf(stderr, "nvt-x: xwd: version %u, header %u bytes: not an XWD file\n",
			f[XWD_FILE_VERSION], f[XWD_HEADER_SIZE]);
		return -EINVAL;
	}
	uint32_t width = f[XWD_PIXMAP_WIDTH], height = f[XWD_PIXMAP_HEIGHT];
	uint32_t bpp = f[XWD_BITS_PER_PIXEL], bpl = f[XWD_BYTES_PER_LINE];
	int direct = f[XWD_VISUAL_CLASS] == XWD_DIRECTCOLOR;
	if (f[XWD_PIXMAP_FORMAT] != XWD_ZPIXMAP || (f[XWD_VISUAL_CLASS] != XWD_TRUECOLOR && !direct) ||
	    (bpp != 24 && bpp != 32) || f[XWD_XOFFSET] ||
	    !contiguous(f[XWD_RED_MASK]) || !contiguous(f[XWD_GREEN_MASK]) ||
	    !contiguous(f[XWD_BLUE_MASK])) {
		fprintf(stderr, "nvt-x: xwd: format %u, visual class %u, %u bpp, xoffset %u, "
				"masks %08x %08x %08x: only TrueColor and DirectColor "
				"ZPixmaps of 24 or 32 bpp are read\n",
			f[XWD_PIXMAP_FORMAT], f[XWD_VISUAL_CLASS], bpp, f[XWD_XOFFSET],
			f[XWD_RED_MASK], f[XWD_GREEN_MASK], f[XWD_BLUE_MASK]);
		return -ENOTSUP;
	}
	if (!width || !height || width > 32768 || height > 32768 ||
	    (uint64_t)bpl * 8 < (uint64_t)width * bpp) {
		fprintf(stderr, "nvt-x: xwd: %ux%u with %u bytes per line\n", width, height, bpl);
		return -EINVAL;
	}
	uint64_t image = (uint64_t)f[XWD_HEADER_SIZE] + (uint64_t)f[XWD_NCOLORS] * XWD_COLOR_SIZE;
	uint64_t need = image + (uint64_t)bpl * height;
	if (need > len) {
		fprintf(stderr, "nvt-x: xwd: %zu bytes, the header says %llu\n", len,
			(unsigned long long)need);
		return -EINVAL;
	}

	/* Each channel's value to its 8 bits: itself, or with DirectColor what
	 * the colormap entry it indexes says. */
	uint8_t lut[3][256];
	const uint32_t masks[3] = { f[XWD_RED_MASK], f[XWD_GREEN_MASK], f[XWD_BLUE_MASK] };
	for (unsigned c = 0; c < 3; c++)
		for (unsigned i = 0; i < 256; i++)
			lut[c][i] = (uint8_t)i;
	for (uint32_t k = 0; direct && k < f[XWD_NCOLORS]; k++) {
		const uint8_t *e = data + f[XWD_HEADER_SIZE] + (size_t)k * XWD_COLOR_SIZE;
		uint32_t pixel = be32(e);
		for (unsigned c = 0; c < 3; c++)
			lut[c][channel(pixel, masks[c])] = e[4 + 2 * c];   /* the CARD16's high byte */
	}
	uint32_t *px = malloc((size_t)width * height * 4);
	if (!px)
		return -ENOMEM;
	unsigned bytes = bpp / 8;
	int msb = f[XWD_BYTE_ORDER] == XWD_MSBFIRST;
	for (uint32_t y = 0; y < height; y++) {
		const uint8_t *row = data + image + (uint64_t)y * bpl;
		for (uint32_t x = 0; x < width; x++) {
			const uint8_t *p = row + x * bytes;
			uint32_t v = 0;
			for (unsigned b = 0; b < bytes; b++)
				v |= (uint32_t)p[b] << (8 * (msb ? bytes - 1 - b : b));
			px[y * width + x] = (uint32_t)lut[0][channel(v, masks[0])] << 16 |
					    (uint32_t)lut[1][channel(v, masks[1])] << 8 |
					    lut[2][channel(v, masks[2])];
		}
	}
	*pixels = px;
	*w = width;
	*h = height;
	return 0;
}

int nvt_xwd_read(const char *path, uint32_t **pixels, unsigned *w, unsigned *h)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		fprintf(stderr, "nvt-x: %s: %s\n", path, strerror(e));
		if (fd >= 0)
			close(fd);
		return -e;
	}
	uint8_t *data = malloc((size_t)st.st_size + 1);
	size_t n = 0;
	while (data && n < (size_t)st.st_size) {
		ssize_t k = read(fd, data + n, (size_t)st.st_size - n);
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	if (!data)
		return -ENOMEM;
	int r = nvt_xwd_parse(data, n, pixels, w, h);
	free(data);
	return r;
}

int nvt_x_screenshot(const struct nvt_x *x, uint32_t **pixels, unsigned *w, unsigned *h)
{
	static const char *const argv[] = { "xwd", "-root", "-silent", NULL };
	char *out;
	size_t len;
	int r = nvt_x_run(x, argv, &out, &len);
	*pixels = NULL;
	if (r != 0) {
		if (r > 0) {
			fprintf(stderr, "nvt-x: xwd -root on %s exited with %d\n", x->name, r);
			free(out);
			r = -EIO;
		}
		return r;
	}
	r = nvt_xwd_parse((const uint8_t *)out, len, pixels, w, h);
	free(out);
	return r;
}

unsigned nvt_x_cmp_area(const uint32_t *img, unsigned iw, unsigned ih, unsigned x0,
			unsigned y0, const uint32_t *sub, unsigned sw, unsigned sh,
			const char *what)
{
	unsigned bad = 0, shown = 0;
	unsigned minx = sw, miny = sh, maxx = 0, maxy = 0;
	for (unsigned y = 0; y < sh; y++)
		for (unsigned x = 0; x < sw; x++) {
			uint32_t want = sub[y * sw + x] & 0xffffff;
			int in = x0 + x < iw && y0 + y < ih;
			uint32_t got = in ? img[(y0 + y) * iw + x0 + x] & 0xffffff : 0;
			if (in && got == want)
				continue;
			bad++;
			minx = x < minx ? x : minx;
			miny = y < miny ? y : miny;
			maxx = x > maxx ? x : maxx;
			maxy = y > maxy ? y : maxy;
			if (shown++ < 5)
				fprintf(stderr,
					"%s: (%u, %u) is %06x in one, %s%06x in the other\n", what,
					x, y, want, in ? "" : "outside the image, ", got);
		}
	if (bad)
		fprintf(stderr, "%s: %u of %u pixels differ, all inside (%u, %u)-(%u, %u)\n", what,
			bad, sw * sh, minx, miny, maxx, maxy);
	return bad;
}

/* ---- a known picture on the root window ---- */

void nvt_x_tile_make(struct nvt_x_tile *t, unsigned w, unsigned h, uint32_t seed, uint32_t fg,
		     uint32_t bg)
{
	memset(t, 0, sizeof(*t));
	t->w = w < 1 ? 1 : w > NVT_X_TILE_MAX ? NVT_X_TILE_MAX : w;
	t->h = h < 1 ? 1 : h > NVT_X_TILE_MAX ? NVT_X_TILE_MAX : h;
	t->fg = fg;
	t->bg = bg;
	unsigned stride = (t->w + 7) / 8;
	for (unsigned y = 0; y < t->h; y++)
		for (unsigned x = 0; x < t->w; x++)
			if (nvt_rand(&seed) & 0x100)
				t->bits[y * stride + x / 8] |= (uint8_t)(1u << (x % 8));
}

uint32_t nvt_x_tile_pixel(const struct nvt_x_tile *t, unsigned x, unsigned y)
{
	unsigned tx = x % t->w, ty = y % t->h, stride = (t->w + 7) / 8;
	return t->bits[ty * stride + tx / 8] >> (tx % 8) & 1 ? t->fg : t->bg;
}

/* An XBM file of w x h bits, rows of (w + 7) / 8 bytes. */
static int write_xbm(const char *path, unsigned w, unsigned h, const uint8_t *bits)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		int e = errno;
		fprintf(stderr, "nvt-x: %s: %s\n", path, strerror(e));
		return -e;
	}
	unsigned n = (w + 7) / 8 * h;
	fprintf(f, "#define nvt_width %u\n#define nvt_height %u\n"
		   "static unsigned char nvt_bits[] = {\n", w, h);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "0x%02x%s", bits[i], i + 1 == n ? "};\n" : i % 12 == 11 ? ",\n" : ", ");
	return fclose(f) == 0 ? 0 : -EIO;
}

int nvt_x_set_root_tile(const struct nvt_x *x, const struct nvt_x_tile *t)
{
	char path[96], fg[16], bg[16];
	snprintf(path, sizeof(path), "%s/tile.xbm", x->dir);
	int r = write_xbm(path, t->w, t->h, t->bits);
	if (r < 0)
		return r;
	snprintf(fg, sizeof(fg), "#%06x", t->fg & 0xffffff);
	snprintf(bg, sizeof(bg), "#%06x", t->bg & 0xffffff);
	const char *const argv[] = { "xsetroot", "-bitmap", path, "-fg", fg, "-bg", bg, NULL };
	r = nvt_x_run(x, argv, NULL, NULL);
	if (r > 0) {
		fprintf(stderr, "nvt-x: xsetroot -bitmap on %s exited with %d\n", x->name, r);
		return -EIO;
	}
	return r;
}

int nvt_x_hide_root_cursor(const struct nvt_x *x)
{
	static const uint8_t empty[2 * 16];
	char path[96];
	snprintf(path, sizeof(path), "%s/empty.xbm", x->dir);
	int r = write_xbm(path, 16, 16, empty);
	if (r < 0)
		return r;
	/* the same empty bitmap is the cursor and its mask */
	const char *const argv[] = { "xsetroot", "-cursor", path, path, NULL };
	r = nvt_x_run(x, argv, NULL, NULL);
	if (r > 0) {
		fprintf(stderr, "nvt-x: xsetroot -cursor on %s exited with %d\n", x->name, r);
		return -EIO;
	}
	return r;
}

/* ---- xrandr -q and xdpyinfo ---- */

static struct nvt_xrandr_mode *mode_of(struct nvt_xrandr_output *o, unsigned w, unsigned h)
{
	for (unsigned i = 0; i < o->nmodes; i++)
		if (o->modes[i].w == w && o->modes[i].h == h)
			return &o->modes[i];
	if (o->nmodes == NVT_XRANDR_MODES)
		return NULL;
	struct nvt_xrandr_mode *m = &o->modes[o->nmodes++];
	memset(m, 0, sizeof(*m));
	m->w = w;
	m->h = h;
	return m;
}

/* "NAME connected [primary] [WxH+X+Y] (...) ..." */
static int parse_output_line(const char *line, struct nvt_xrandr_output *o)
{
	char status[32], geom[64];
	int at = 0;

	memset(o, 0, sizeof(*o));
	if (sscanf(line, "%31s %31s %n", o->name, status, &at) < 2)
		return -EINVAL;
	o->connected = !strcmp(status, "connected");
	const char *p = line + at;
	if (!strncmp(p, "primary ", 8))
		p += 8;
	int x, y;
	unsigned w, h;
	if (sscanf(p, "%63s", geom) == 1 && sscanf(geom, "%ux%u+%d+%d", &w, &h, &x, &y) == 4) {
		o->active = 1;
		o->w = w;
		o->h = h;
		o->x = x;
		o->y = y;
	}
	return 0;
}

int nvt_xrandr_parse(const char *text, struct nvt_xrandr *r)
{
	struct nvt_xrandr_output *o = NULL;
	int screen = 0;

	memset(r, 0, sizeof(*r));
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char buf[512];
		snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) ? n : sizeof(buf) - 1),
			 line);
		line = nl ? nl + 1 : NULL;
		if (!buf[0])
			continue;

		if (!strncmp(buf, "Screen ", 7)) {
			/* screens after the first are not ours to read */
			if (screen++)
				break;
			if (sscanf(buf, "Screen %*u: minimum %u x %u, current %u x %u, "
					"maximum %u x %u", &r->min_w, &r->min_h, &r->screen_w,
				   &r->screen_h, &r->max_w, &r->max_h) != 6) {
				fprintf(stderr, "nvt-x: xrandr: cannot read '%s'\n", buf);
				return -EINVAL;
			}
		} else if (!isspace((unsigned char)buf[0])) {
			if (r->noutputs == NVT_XRANDR_OUTPUTS) {
				fprintf(stderr, "nvt-x: xrandr: more than %d outputs\n",
					NVT_XRANDR_OUTPUTS);
				return -EINVAL;
			}
			o = &r->out[r->noutputs];
			if (parse_output_line(buf, o) < 0) {
				fprintf(stderr, "nvt-x: xrandr: cannot read '%s'\n", buf);
				return -EINVAL;
			}
			r->noutputs++;
		} else {
			/* "   1920x1080     60.00*+  59.94" */
			unsigned w, h;
			int at = 0;
			if (!o || sscanf(buf, " %ux%u%n", &w, &h, &at) < 2 || !at) {
				fprintf(stderr, "nvt-x: xrandr: cannot read '%s'\n", buf);
				return -EINVAL;
			}
			/* the rest of the name ("1920x1080i", "800x600_75") */
			while (buf[at] && !isspace((unsigned char)buf[at]))
				at++;
			struct nvt_xrandr_mode *m = mode_of(o, w, h);
			if (!m) {
				fprintf(stderr, "nvt-x: xrandr: %s has more than %d modes\n",
					o->name, NVT_XRANDR_MODES);
				return -EINVAL;
			}
			m->current |= strchr(buf + at, '*') != NULL;
			m->preferred |= strchr(buf + at, '+') != NULL;
		}
	}
	if (!screen) {
		fprintf(stderr, "nvt-x: xrandr: no Screen line\n");
		return -EINVAL;
	}
	return 0;
}

int nvt_x_xrandr(const struct nvt_x *x, struct nvt_xrandr *r)
{
	static const char *const argv[] = { "xrandr", "-q", NULL };
	char *out;
	int s = nvt_x_run(x, argv, &out, NULL);
	if (s < 0)
		return s;
	if (s > 0) {
		fprintf(stderr, "nvt-x: xrandr -q on %s exited with %d\n", x->name, s);
		free(out);
		return -EIO;
	}
	s = nvt_xrandr_parse(out, r);
	free(out);
	return s;
}

const struct nvt_xrandr_output *nvt_xrandr_output(const struct nvt_xrandr *r, const char *name)
{
	for (unsigned i = 0; i < r->noutputs; i++)
		if (!strcmp(r->out[i].name, name))
			return &r->out[i];
	return NULL;
}

int nvt_x_dpyinfo(const struct nvt_x *x, unsigned *w, unsigned *h, unsigned *depth)
{
	static const char *const argv[] = { "xdpyinfo", NULL };
	char *out;
	int s = nvt_x_run(x, argv, &out, NULL);
	if (s < 0)
		return s;
	if (s > 0) {
		fprintf(stderr, "nvt-x: xdpyinfo on %s exited with %d\n", x->name, s);
		free(out);
		return -EIO;
	}
	const char *dim = strstr(out, "dimensions:");
	const char *dep = strstr(out, "depth of root window:");
	int ok = dim && dep && sscanf(dim, "dimensions: %ux%u", w, h) == 2 &&
		 sscanf(dep, "depth of root window: %u", depth) == 1;
	if (!ok)
		fprintf(stderr, "nvt-x: xdpyinfo on %s: no root size and depth in its output\n",
			x->name);
	free(out);
	return ok ? 0 : -EINVAL;
}
