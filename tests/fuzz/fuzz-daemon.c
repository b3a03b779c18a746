/* The daemon a fuzz target drives: nvd/main.c's bring-up on a small
 * simulated card, on a socket in a private directory. */
#include "tests/fuzz/fuzz-daemon.h"

#include <dirent.h>
#include <errno.h>
#include <event2/event.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvd/edid.h"
#include "nvd/nvd.h"

static struct nvd d;
static char sock_dir[64], sock_path[128];
static int base_fds = -1;
int fuzz_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;
	if (!dir)
		return -1;
	while (readdir(dir))
		n++;
	closedir(dir);
	return n - 3;   /* ".", ".." and the directory's own fd */
}

static void on_irq(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	nvd_irq(arg);
}

static void cleanup(void)
{
	unlink(sock_path);
	rmdir(sock_dir);
}

struct nvd *fuzz_daemon_start(void)
{
	static struct nvd_monitor mon[NVD_CARD_OUTPUTS];
	static uint8_t edid[NVD_CARD_OUTPUTS][EDID_SIZE];
	char err[256];

	if (d.base)
		return &d;
	snprintf(sock_dir, sizeof(sock_dir), "/tmp/nvd-fuzz-XXXXXX");
	if (!mkdtemp(sock_dir)) {
		fprintf(stderr, "fuzz: mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	snprintf(sock_path, sizeof(sock_path), "%s/nvd.sock", sock_dir);
	atexit(cleanup);
	setenv("NVD_SOCKET", sock_path, 1);
	signal(SIGPIPE, SIG_IGN);

	/* Small enough to allocate quickly, large enough for 30 channels'
	 * program shadows and some client buffers. */
	d.o.card.spec = "sim";
	d.o.card.vram_size = 64u << 20;
	d.o.card.gart_size = 64u << 20;
	d.o.card.sim_threads = 1;
	d.o.card.map_bars = 1;
	d.o.quota = 48u << 20;
	d.o.max_bos = 256;
	d.listen_fd = -1;
	for (unsigned i = 0; i < NVD_CARD_OUTPUTS; i++) {
		nvd_monitor_default(i, &mon[i]);
		if (nvd_edid_build(&mon[i], edid[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "fuzz: monitor %u: %s\n", i, err);
			exit(1);
		}
		d.o.card.edid[i] = edid[i];
	}
	d.base = event_base_new();
	if (!d.base) {
		fprintf(stderr, "fuzz: no event loop\n");
		exit(1);
	}
	snprintf(d.sock_path, sizeof(d.sock_path), "%s", sock_path);
	d.card = nvd_card_open(&d.o.card, err, sizeof(err));
	if (!d.card || nvd_fifo_init(&d, err, sizeof(err)) < 0 ||
	    (nvd_disp_init(&d), nvd_server_listen(&d, err, sizeof(err)) < 0)) {
		fprintf(stderr, "fuzz: nvd: %s\n", err);
		exit(1);
	}
	d.irq_evt = event_new(d.base, d.card->irq_fd, EV_READ | EV_PERSIST, on_irq, &d);
	if (!d.irq_evt || event_add(d.irq_evt, NULL) < 0) {
		fprintf(stderr, "fuzz: cannot watch the card's interrupts\n");
		exit(1);
	}
	return &d;
}

const char *fuzz_daemon_socket(void)
{
	return sock_path;
}

void fuzz_daemon_pump(void)
{
	event_base_loop(d.base, EVLOOP_NONBLOCK);
}

static void *loop_thread(void *arg)
{
	(void)arg;
	event_base_loop(d.base, EVLOOP_NO_EXIT_ON_EMPTY);
	return NULL;
}

void fuzz_daemon_thread(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, loop_thread, NULL)) {
		fprintf(stderr, "fuzz: cannot start the daemon's thread\n");
		exit(1);
	}
	pthread_detach(t);
}

void fuzz_daemon_begin(void)
{
	base_fds = fuzz_fds();
}

static int what_is_left(char *why, size_t len)
{
	if (d.nclients || d.nbos || d.nchans || d.vram.used || d.gart.used ||
	    d.names.count || d.inos.count || d.master || d.pending_waits || d.disp.fbs ||
	    d.disp.listeners) {
		snprintf(why, len, "nvd still holds clients=%u bos=%u chans=%u vram=%llu gart=%llu "
			 "names=%u inos=%u master=%d waits=%d fbs=%d listeners=%d", d.nclients,
			 d.nbos, d.nchans, (unsigned long long)d.vram.used,
			 (unsigned long long)d.gart.used, d.names.count,
			 d.inos.count, !!d.master, !!d.pending_waits, !!d.disp.fbs,
			 !!d.disp.listeners);
		return -1;
	}
	for (unsigned h = 0; h < NVD_DISP_HEADS; h++)
		if (d.disp.head[h].fb || d.disp.head[h].flip_fb || d.disp.head[h].waits) {
			snprintf(why, len, "head %u still shows or waits for a gone client's fb", h);
			return -1;
		}
	int fds = fuzz_fds();
	if (fds != base_fds) {
		snprintf(why, len, "%d open fds, %d before the input", fds, base_fds);
		return -1;
	}
	return 0;
}

int fuzz_daemon_idle(char *why, size_t len)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		fuzz_daemon_pump();
		if (what_is_left(why, len) == 0)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 1)
			return -1;
		usleep(100);
	}
}
