/* bench/submit: the cost of one minimal submission through nvd — one NOP
 * on an M2MF object written with libnvd's nvc_pushbuf, kicked (nvc_submit),
 * then nvc_fence_wait —
 * against the floor any two-process design pays: an eventfd ping-pong
 * between two processes, measured in the same run.
 *
 * Starts its own nvd (from $NVD_BIN, else beside this program in
 * ../bin/nvd, else build/bin/nvd) on a socket in a private tmp directory,
 * unless --socket names a running one.  Prints; never passes or fails. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/glbench.h"
#include "client/nvd.h"
#include "hw/methods.h"

#define BENCH_H_M2MF     0x80000018u   /* nouveau's NvMemFormat */
#define BENCH_SUBC_M2MF  0
#define BENCH_WARMUP     1000
#define BENCH_N_DEFAULT  20000
#define BENCH_TIMEOUT_NS (10ll * 1000000000)

struct bench_stats { double median_us, p99_us; };

static struct bench_stats bench_stats(int64_t *t, unsigned n)
{
	qsort(t, n, sizeof(*t), glb_cmp_i64);
	unsigned p99 = (unsigned)(((uint64_t)n * 99) / 100);
	if (p99 >= n)
		p99 = n - 1;
	return (struct bench_stats){ t[n / 2] / 1000.0, t[p99] / 1000.0 };
}

/* ---- a private nvd ---- */

struct bench_nvd {
	char dir[64], sock[96], log[96];
	pid_t pid;
};

static const char *bench_nvd_path(char *buf, size_t len)
{
	const char *env = getenv("NVD_BIN");
	char self[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			snprintf(buf, len, "%s/../bin/nvd", self);
			if (access(buf, X_OK) == 0)
				return buf;
		}
	}
	return "build/bin/nvd";
}

static void bench_nvd_stop(struct bench_nvd *b)
{
	if (b->pid > 0) {
		kill(b->pid, SIGTERM);
		int st;
		int64_t deadline = glb_now_ns() + 3000000000ll;
		while (waitpid(b->pid, &st, WNOHANG) == 0) {
			if (glb_now_ns() > deadline) {
				kill(b->pid, SIGKILL);
				waitpid(b->pid, &st, 0);
				break;
			}
			usleep(10000);
		}
		b->pid = 0;
	}
	if (b->dir[0]) {
		unlink(b->sock);
		unlink(b->log);
		rmdir(b->dir);
		b->dir[0] = 0;
	}
}

static void bench_nvd_dump_log(const struct bench_nvd *b)
{
	char line[512];
	FILE *f = fopen(b->log, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		fprintf(stderr, "  nvd: %s", line);
	fclose(f);
}

/* Start nvd and wait until it answers; 0 or -1 (message printed). */
static int bench_nvd_start(struct bench_nvd *b)
{
	char pathbuf[PATH_MAX + 16];
	const char *nvd = bench_nvd_path(pathbuf, sizeof(pathbuf));

	snprintf(b->dir, sizeof(b->dir), "/tmp/nvd-bench-XXXXXX");
	if (!mkdtemp(b->dir)) {
		fprintf(stderr, "submit: mkdtemp: %s\n", strerror(errno));
		b->dir[0] = 0;
		return -1;
	}
	snprintf(b->sock, sizeof(b->sock), "%s/socket", b->dir);
	snprintf(b->log, sizeof(b->log), "%s/nvd.log", b->dir);
	b->pid = fork();
	if (b->pid < 0) {
		fprintf(stderr, "submit: fork: %s\n", strerror(errno));
		return -1;
	}
	if (b->pid == 0) {
		int fd = open(b->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execl(nvd, nvd, "--socket", b->sock, (char *)NULL);
		fprintf(stderr, "submit: cannot run %s: %s\n", nvd, strerror(errno));
		_exit(127);
	}
	int64_t deadline = glb_now_ns() + 10000000000ll;
	for (;;) {
		struct nvc *c;
		int st;
		if (nvc_connect(b->sock, "bench-probe", &c) == 0) {
			nvc_close(c);
			return 0;
		}
		if (waitpid(b->pid, &st, WNOHANG) == b->pid) {
			b->pid = 0;
			fprintf(stderr, "submit: %s exited before listening:\n", nvd);
			bench_nvd_dump_log(b);
			return -1;
		}
		if (glb_now_ns() > deadline) {
			fprintf(stderr, "submit: %s did not listen on %s within 10 s\n", nvd, b->sock);
			bench_nvd_dump_log(b);
			return -1;
		}
		usleep(5000);
	}
}

/* ---- submit + fence round trip ---- */

static int bench_submit(const char *sock, unsigned n, int64_t *t, char *card, size_t cardlen)
{
	struct nvc *c = NULL;
	struct nvc_chan *ch = NULL;
	struct nvc_pushbuf *p = NULL;
	struct nvc_info info;
	uint32_t fence;
	int ret = -1;

	if (nvc_connect(sock, "bench-submit", &c) < 0 || nvc_chan_new(c, &ch) < 0 ||
	    nvc_pushbuf_new(ch, 4096, &p) < 0 || nvc_obj_new(ch, BENCH_H_M2MF, NV_CLASS_M2MF) < 0) {
		fprintf(stderr, "submit: %s\n", nvc_error());
		goto out;
	}
	nvc_info(c, &info);
	snprintf(card, cardlen, "%s", info.card);
	/* The object is bound once; a NOP every round. */
	nvc_pushbuf_mthd(p, BENCH_SUBC_M2MF, NV_FIFO_OBJECT, 1);
	nvc_pushbuf_data(p, BENCH_H_M2MF);
	if (nvc_pushbuf_kick(p, &fence) < 0 || nvc_fence_wait(ch, fence, BENCH_TIMEOUT_NS) < 0) {
		fprintf(stderr, "submit: binding M2MF: %s\n", nvc_error());
		goto out;
	}
	for (unsigned i = 0; i < BENCH_WARMUP + n; i++) {
		int64_t t0 = glb_now_ns();
		nvc_pushbuf_space(p, 2, 0, 0);
		nvc_pushbuf_mthd(p, BENCH_SUBC_M2MF, NV_M2MF_NOP, 1);
		nvc_pushbuf_data(p, 0);
		if (nvc_pushbuf_kick(p, &fence) < 0 ||
		    nvc_fence_wait(ch, fence, BENCH_TIMEOUT_NS) < 0) {
			fprintf(stderr, "submit: round %u: %s\n", i, nvc_error());
			goto out;
		}
		if (i >= BENCH_WARMUP)
			t[i - BENCH_WARMUP] = glb_now_ns() - t0;
	}
	ret = 0;
out:
	nvc_pushbuf_free(p);
	nvc_close(c);
	return ret;
}

/* ---- eventfd ping-pong between two processes ---- */

static int bench_efd_wait(int fd)
{
	uint64_t v;
	for (;;) {
		if (read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
			return 0;
		if (errno != EINTR)
			return -1;
	}
}

static int bench_efd_post(int fd)
{
	uint64_t one = 1;
	return write(fd, &one, sizeof(one)) == (ssize_t)sizeof(one) ? 0 : -1;
}

static int bench_pingpong(unsigned n, int64_t *t)
{
	int ping = eventfd(0, EFD_CLOEXEC), pong = eventfd(0, EFD_CLOEXEC);
	unsigned total = BENCH_WARMUP + n;
	int ret = -1, st;
	pid_t pid;

	if (ping < 0 || pong < 0) {
		fprintf(stderr, "submit: eventfd: %s\n", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "submit: fork: %s\n", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		for (unsigned i = 0; i < total; i++)
			if (bench_efd_wait(ping) < 0 || bench_efd_post(pong) < 0)
				_exit(1);
		_exit(0);
	}
	ret = 0;
	for (unsigned i = 0; i < total; i++) {
		int64_t t0 = glb_now_ns();
		if (bench_efd_post(ping) < 0 || bench_efd_wait(pong) < 0) {
			fprintf(stderr, "submit: eventfd ping-pong: %s\n", strerror(errno));
			kill(pid, SIGKILL);
			ret = -1;
			break;
		}
		if (i >= BENCH_WARMUP)
			t[i - BENCH_WARMUP] = glb_now_ns() - t0;
	}
	waitpid(pid, &st, 0);
out:
	if (ping >= 0)
		close(ping);
	if (pong >= 0)
		close(pong);
	return ret;
}

static void bench_usage(FILE *f)
{
	fprintf(f,
"usage: submit [--socket PATH] [-n N]\n"
"Time a one-NOP submission + fence wait through nvd against an eventfd\n"
"ping-pong between two processes (median and 99th percentile).\n"
"\n"
"  -s, --socket PATH   use a running nvd (default: start one, $NVD_BIN or\n"
"                      ../bin/nvd beside this program)\n"
"  -n N                round trips to time after %u warm-up rounds (default %u)\n"
"  -h, --help          show this help\n"
"      --version       show the version\n", BENCH_WARMUP, BENCH_N_DEFAULT);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "socket", required_argument, 0, 's' }, { "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 }
	};
	struct bench_nvd b = { .pid = 0 };
	const char *sock = NULL;
	unsigned n = BENCH_N_DEFAULT;
	char card[96] = "";
	int o, ret = 1;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "submit: ...", not a path */
	while ((o = getopt_long(argc, argv, "s:n:h", lo, NULL)) != -1) {
		switch (o) {
		case 's': sock = optarg; break;
		case 'n':
			if (glb_parse_count("-n", optarg, 1, 10000000, &n) < 0)
				return 2;
			break;
		default: return glb_other_option(o, bench_usage);
		}
	}
	if (optind != argc)
		return glb_bad_usage("unexpected argument '%s'", argv[optind]);
	int64_t *ts = calloc(n, sizeof(*ts)), *te = calloc(n, sizeof(*te));
	if (!ts || !te) {
		fprintf(stderr, "submit: out of memory\n");
		goto out;
	}
	if (!sock) {
		if (bench_nvd_start(&b) < 0)
			goto out;
		sock = b.sock;
	}
	if (bench_submit(sock, n, ts, card, sizeof(card)) < 0 || bench_pingpong(n, te) < 0)
		goto out;
	struct bench_stats s = bench_stats(ts, n), e = bench_stats(te, n);
	printf("submit: %u round trips after %u warm-up on %s\n", n, BENCH_WARMUP, card);
	printf("submit round trip: median %.1f us p99 %.1f us; eventfd ping-pong: median %.1f us "
	       "p99 %.1f us; ratio %.2f / %.2f\n", s.median_us, s.p99_us, e.median_us, e.p99_us,
	       e.median_us > 0 ? s.median_us / e.median_us : 0.0,
	       e.p99_us > 0 ? s.p99_us / e.p99_us : 0.0);
	ret = 0;
out:
	bench_nvd_stop(&b);
	free(ts);
	free(te);
	return ret;
}
