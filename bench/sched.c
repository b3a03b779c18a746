/* bench/sched: what nvd's scheduling does for a client that submits little
 * while others keep the card busy, and how evenly it shares the card.
 *
 *  - latency: a small submission (one M2MF NOP) and its fence, 1 ms
 *    apart, alone and while 1, 4 and 16 other clients flood the card with
 *    heavy submissions (M2MF copies of 1 MiB, two submissions in flight
 *    each): the p99 against the idle p99 (the target is at most 5x);
 *  - fairness: 8 equal heavy clients for a while, Jain's index over the
 *    submissions each got done (1 is perfectly even; the target is 0.95).
 *
 * Starts its own nvd (from $NVD_BIN, else ../bin/nvd beside this program)
 * with the options after "--", unless --socket names a running one.
 * Prints the figures; never passes or fails. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "bench/glbench.h"

#define SC_FLOOD_MAX   16
#define SC_FAIR        8
#define SC_COPY        (1u << 20)     /* one copy of a heavy submission */
#define SC_COPIES      8              /* copies per heavy submission */
#define SC_PROBES      400
#define SC_FAIR_MS     3000

static const char *sc_sock;
static volatile uint64_t *sc_done;    /* shared: heavy submissions done, per flooder */

static int64_t sc_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* A flooder: heavy submissions, two in flight, until killed. */
static int sc_flood(void *arg)
{
	unsigned me = (unsigned)(uintptr_t)arg;
	struct nvt_client t;
	struct nvt_buf a, b;
	char name[32];
	snprintf(name, sizeof(name), "flood-%u", me);
	if (nvt_client_open(&t, sc_sock, name) < 0 ||
	    nvt_buf_new(t.c, 4 * SC_COPY, NVC_VRAM, me, &a) < 0 ||
	    nvt_buf_new(t.c, 4 * SC_COPY, NVC_VRAM, me + 100, &b) < 0)
		return 1;
	nvt_bind_standard(&t.p);
	uint32_t prev = 0, f;
	for (;;) {
		for (unsigned i = 0; i < SC_COPIES; i++)
			nvt_m2mf_cmd(&t.p, &a, (i & 3) * SC_COPY, 4096, &b, (i & 3) * SC_COPY, 4096,
				     4096, SC_COPY / 4096);
		if (nvt_submit(&t.p, &f) < 0 || (prev && nvt_wait(&t.p, prev) < 0))
			return 1;
		if (prev)
			__atomic_add_fetch(&sc_done[me], 1, __ATOMIC_RELAXED);
		prev = f;
	}
}

static void sc_sleep_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };
	while (nanosleep(&t, &t) < 0)
		;
}

static int sc_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* p99 of SC_PROBES small submissions and their fences, in microseconds. */
static double sc_probe_p99(struct nvt_client *t)
{
	static int64_t lat[SC_PROBES];
	for (unsigned i = 0; i < SC_PROBES; i++) {
		nvt_mthd(&t->p, NVT_SUBC_M2MF, NV_M2MF_NOP, 0);
		int64_t t0 = sc_now_ns();
		uint32_t f;
		if (nvt_submit(&t->p, &f) < 0 || nvt_wait(&t->p, f) < 0)
			return -1;
		lat[i] = sc_now_ns() - t0;
		sc_sleep_ms(1);
	}
	qsort(lat, SC_PROBES, sizeof(lat[0]), sc_cmp);
	return lat[SC_PROBES * 99 / 100] / 1e3;
}

static unsigned sc_start(pid_t *pids, unsigned n)
{
	unsigned k = 0;
	for (; k < n; k++)
		if ((pids[k] = nvt_fork(sc_flood, (void *)(uintptr_t)k)) < 0)
			break;
	return k;
}

static void sc_stop(pid_t *pids, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		nvt_wait_child(pids[i], 5000);
	}
}

/* Until every flooder has finished a submission (they are all on the card). */
static void sc_settle(unsigned n)
{
	for (int64_t end = sc_now_ns() + 10000000000ll; sc_now_ns() < end; sc_sleep_ms(5)) {
		unsigned ready = 0;
		for (unsigned i = 0; i < n; i++)
			ready += __atomic_load_n(&sc_done[i], __ATOMIC_RELAXED) > 0;
		if (ready == n)
			return;
	}
}

static void sc_usage(FILE *f)
{
	fprintf(f,
		"usage: sched [-s PATH] [-- NVD-OPTIONS...]\n"
		"  -s, --socket PATH  use a running nvd (default: start one, $NVD_BIN or\n"
		"                     ../bin/nvd beside this program, with NVD-OPTIONS)\n"
		"  -h, --help         show this help\n"
		"      --version      show the version\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "socket", required_argument, 0, 's' }, { "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' },      { 0, 0, 0, 0 },
	};
	int c;
	argv[0] = program_invocation_short_name;
	while ((c = getopt_long(argc, argv, "s:h", lo, NULL)) != -1) {
		if (c == 's')
			sc_sock = optarg;
		else
			return glb_other_option(c, sc_usage);
	}
	struct nvt_daemon d;
	memset(&d, 0, sizeof(d));
	int own = !sc_sock;
	nvt_sim_check = 0;   /* measured as users run it */
	if (own) {
		if (nvt_daemon_start(&d, (const char *const *)argv + optind) < 0) {
			printf("sched: no figure: cannot start nvd\n");
			return 0;
		}
		sc_sock = d.sock;
	} else if (optind != argc) {
		return glb_bad_usage("nvd options with --socket");
	}
	sc_done = mmap(NULL, SC_FLOOD_MAX * sizeof(*sc_done), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct nvt_client t;
	if (sc_done == MAP_FAILED || nvt_client_open(&t, sc_sock, "probe") < 0) {
		printf("sched: no figure: cannot open a client\n");
		glb_daemon_stop(&d, own);
		return 0;
	}
	nvt_bind_standard(&t.p);
	nvt_finish(&t.p);

	/* latency */
	double idle = sc_probe_p99(&t);
	printf("%-34s p99 %8.1f us\n", "small submission + fence, idle:", idle);
	static const unsigned floods[] = { 1, 4, 16 };
	for (unsigned k = 0; k < 3; k++) {
		pid_t pids[SC_FLOOD_MAX];
		memset((void *)sc_done, 0, SC_FLOOD_MAX * sizeof(*sc_done));
		unsigned n = sc_start(pids, floods[k]);
		sc_settle(n);
		double p = sc_probe_p99(&t);
		sc_stop(pids, n);
		char what[64];
		snprintf(what, sizeof(what), "beside %u heavy client%s:", floods[k],
			 floods[k] > 1 ? "s" : "");
		printf("%-34s p99 %8.1f us   ratio to idle %.1f\n", what, p,
		       idle > 0 ? p / idle : 0);
	}

	/* fairness */
	pid_t pids[SC_FAIR];
	memset((void *)sc_done, 0, SC_FLOOD_MAX * sizeof(*sc_done));
	unsigned n = sc_start(pids, SC_FAIR);
	sc_settle(n);
	uint64_t base[SC_FAIR], sum = 0, sq = 0;
	for (unsigned i = 0; i < n; i++)
		base[i] = __atomic_load_n(&sc_done[i], __ATOMIC_RELAXED);
	sc_sleep_ms(SC_FAIR_MS);
	printf("%u heavy clients for %u ms, submissions done:", n, SC_FAIR_MS);
	for (unsigned i = 0; i < n; i++) {
		uint64_t x = __atomic_load_n(&sc_done[i], __ATOMIC_RELAXED) - base[i];
		printf(" %llu", (unsigned long long)x);
		sum += x;
		sq += x * x;
	}
	sc_stop(pids, n);
	printf("\nJain's fairness index: %.3f\n", sq ? (double)sum * sum / ((double)n * sq) : 0);
	nvt_client_close(&t);
	glb_daemon_stop(&d, own);
	return 0;
}
