/* bench/sched: what nvd's scheduling costs and gives.
 *
 * - Latency: a small submission (one M2MF NOP) and its fence, 1 ms
 *   apart, alone and while 1, 4 and 16 other clients flood the card with
 *   heavy submissions (M2MF copies of 1 MiB, two submissions in flight
 *   each): the p99 against the idle p99 (the target is at most 5x).
 * - Fairness: 8 equal heavy clients for a while, Jain's index over the
 *   submissions each got done (1 is perfectly even; the target is 0.95).
 * - A virtual channel switch: one small 2D submission (a fill and a blit)
 *   and its fence, round robin over 40 clients, each with a channel, so that every
 *   submission finds its channel unloaded (30 hardware channels, least
 *   recently used ones go), against the same round trip on one channel that
 *   stays on its hardware channel and round robin over the 30 that are on
 *   the card (the card's own context switch), in the same run; and the
 *   daemon's own time per unload + load from its counters.
 * - Daemon memory per idle client: nvd's resident memory, the state it saves
 *   per virtual channel and the instance memory per channel, with 200 idle
 *   clients (each drew once) against none; the saved state against the
 *   128 KiB grctx image a channel would keep in RAMIN otherwise.
 *
 * Starts its own nvd ($NVD_BIN, else ../bin/nvd beside it) unless --socket
 * names a running one.  Prints; never passes or fails. */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>

#include "bench/glbench.h"
#include "hw/ramin.h"
#include "tests/lib/nvt-vc.h"

#define SCH_SWITCHING 40
#define SCH_HW_CHANS  30        /* an NV43's hardware channels for clients */
#define SCH_IDLE      200
#define SCH_N_DEFAULT 2000
#define SC_FLOOD_MAX   16
#define SC_FAIR        8
#define SC_COPY        (1u << 20)     /* one copy of a heavy submission */
#define SC_COPIES      8              /* copies per heavy submission */
#define SC_PROBES      400
#define SC_FAIR_MS     3000

static const char *sc_sock;     /* for the flooders */
static volatile uint64_t *sc_done;    /* shared: heavy submissions done, per flooder */


static double sch_median_us(int64_t *t, unsigned n)
{
	qsort(t, n, sizeof(*t), glb_cmp_i64);
	return t[n / 2] / 1000.0;
}

/* A client whose 2D state is set and submitted. */
static int sch_open(struct nvt_vc *x, const char *sock, unsigned index)
{
	if (nvt_vc_open(x, sock, "sched-bench", index) < 0)
		return -1;
	return nvt_finish(&x->p);
}

/* One fill, its blit and their fence: ns. */
static int64_t sch_round_trip(struct nvt_vc *x)
{
	int64_t t0 = glb_now_ns();
	if (nvt_vc_draw(x, 1) < 0 || nvt_finish(&x->p) < 0)
		return -1;
	return glb_now_ns() - t0;
}

static uint64_t sch_rss_kib(pid_t pid)
{
	char path[64], line[256];
	uint64_t kib = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %" SCNu64, &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static void sc_sleep_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };
	while (nanosleep(&t, &t) < 0)
		;
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

/* p99 of SC_PROBES small submissions and their fences, in microseconds. */
static double sc_probe_p99(struct nvt_client *t)
{
	static int64_t lat[SC_PROBES];
	for (unsigned i = 0; i < SC_PROBES; i++) {
		nvt_mthd(&t->p, NVT_SUBC_M2MF, NV_M2MF_NOP, 0);
		int64_t t0 = glb_now_ns();
		uint32_t f;
		if (nvt_submit(&t->p, &f) < 0 || nvt_wait(&t->p, f) < 0)
			return -1;
		lat[i] = glb_now_ns() - t0;
		sc_sleep_ms(1);
	}
	qsort(lat, SC_PROBES, sizeof(lat[0]), glb_cmp_i64);
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
	for (int64_t end = glb_now_ns() + 10000000000ll; glb_now_ns() < end; sc_sleep_ms(5)) {
		unsigned ready = 0;
		for (unsigned i = 0; i < n; i++)
			ready += __atomic_load_n(&sc_done[i], __ATOMIC_RELAXED) > 0;
		if (ready == n)
			return;
	}
}

/* The probe's p99 alone and beside 1, 4 and 16 flooders, then Jain's
 * index over SC_FAIR of them. */
static int sc_latency_fairness(const char *sock)
{
	struct nvt_client t;
	sc_sock = sock;
	sc_done = mmap(NULL, SC_FLOOD_MAX * sizeof(*sc_done), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sc_done == MAP_FAILED || nvt_client_open(&t, sock, "probe") < 0)
		return -1;
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
	return 0;
}

static void sch_usage(FILE *f)
{
	fprintf(f,
		"usage: sched [-n ROUND_TRIPS] [--socket PATH] [-- NVD-OPTIONS...]\n"
		"Latency and fairness under heavy clients, the cost of a virtual channel\n"
		"switch and the daemon memory per idle client.\n"
		"  -n, --iterations N  round trips measured each way (default %u)\n"
		"  -s, --socket PATH   use a running nvd (default: start one, $NVD_BIN or\n"
		"                      ../bin/nvd, with NVD-OPTIONS); its memory is then\n"
		"                      not measured\n"
		"  -h, --help          show this help\n"
		"      --version       show the version\n", SCH_N_DEFAULT);
}

static int sch_switch(const char *sock, unsigned n)
{
	struct nvt_vc *x = calloc(SCH_SWITCHING, sizeof(*x));
	int64_t *one = malloc(n * sizeof(*one)), *hw = malloc(n * sizeof(*hw));
	int64_t *many = malloc(n * sizeof(*many));
	struct nvc_status st0, st1;
	int ret = -1;

	if (!x || !one || !hw || !many)
		goto out;
	for (unsigned i = 0; i < SCH_SWITCHING; i++)
		if (sch_open(&x[i], sock, i + 1) < 0) {
			fprintf(stderr, "sched: client %u: %s\n", i, nvc_error());
			goto out;
		}
	/* The last 30 opened are on the card (each drew once as it opened,
	 * the first 10 gave their chids up): the same client again and
	 * again, then those 30 in turn. */
	unsigned first_hw = SCH_SWITCHING - SCH_HW_CHANS;
	for (unsigned i = 0; i < n; i++)
		if ((one[i] = sch_round_trip(&x[SCH_SWITCHING - 1])) < 0)
			goto out;
	for (unsigned i = 0; i < n; i++)
		if ((hw[i] = sch_round_trip(&x[first_hw + i % SCH_HW_CHANS])) < 0)
			goto out;
	if (nvc_status(x[0].c, &st0) < 0)
		goto out;
	for (unsigned i = 0; i < n; i++)
		if ((many[i] = sch_round_trip(&x[i % SCH_SWITCHING])) < 0)
			goto out;
	if (nvc_status(x[0].c, &st1) < 0)
		goto out;
	uint64_t loads = st1.chan_loads - st0.chan_loads;
	double base = sch_median_us(one, n), ctx = sch_median_us(hw, n), sw = sch_median_us(many, n);
	printf("round trip, one channel on the card:        %8.1f us (median of %u)\n", base, n);
	printf("round trip, %u channels on the card in turn: %8.1f us (ratio %.2f)\n", SCH_HW_CHANS,
	       ctx, base > 0 ? ctx / base : 0.0);
	printf("round trip, %u channels on %u hw channels:   %8.1f us (ratio %.2f)\n", SCH_SWITCHING,
	       st1.hw_channels, sw, base > 0 ? sw / base : 0.0);
	printf("virtual channel switch seen by a client:    %8.1f us (beyond the card's own switch)\n",
	       sw - ctx);
	printf("loads per round trip:                       %8.2f\n", (double)loads / n);
	printf("daemon time per unload + load:              %8.1f us\n",
	       loads ? (double)(st1.chan_switch_ns - st0.chan_switch_ns) / 1e3 / (double)loads : 0.0);
	ret = 0;
out:
	for (unsigned i = 0; x && i < SCH_SWITCHING; i++)
		if (x[i].c)
			nvc_close(x[i].c);
	free(x);
	free(one);
	free(hw);
	free(many);
	return ret;
}

static int sch_memory(const char *sock, pid_t nvd)
{
	struct nvt_vc *x = calloc(SCH_IDLE, sizeof(*x));
	struct nvc *c;
	struct nvc_status st0, st1;
	int ret = -1;

	if (!x || nvc_connect(sock, "sched-bench", &c) < 0 || nvc_status(c, &st0) < 0)
		goto out;
	uint64_t rss0 = nvd > 0 ? sch_rss_kib(nvd) : 0;
	for (unsigned i = 0; i < SCH_IDLE; i++)
		if (sch_open(&x[i], sock, 1000 + i) < 0 || sch_round_trip(&x[i]) < 0) {
			fprintf(stderr, "sched: idle client %u: %s\n", i, nvc_error());
			goto out;
		}
	if (nvc_status(c, &st1) < 0)
		goto out;
	unsigned virt = st1.channels_used - st1.hw_channels_used;
	double saved = virt ? (double)st1.vchan_saved / virt : 0.0;
	printf("idle clients:                               %8u (%u virtual)\n", SCH_IDLE, virt);
	if (nvd > 0)
		printf("nvd resident memory per idle client:        %8.1f KiB\n",
		       (double)(sch_rss_kib(nvd) - rss0) / SCH_IDLE);
	printf("state saved per virtual channel:            %8.0f bytes (%.3f of a %u KiB grctx)\n",
	       saved, saved / NV40_GRCTX_SIZE, NV40_GRCTX_SIZE >> 10);
	printf("instance memory per channel:                %8.0f bytes\n",
	       (double)(st1.ramin_used - st0.ramin_used) / SCH_IDLE);
	ret = 0;
out:
	for (unsigned i = 0; x && i < SCH_IDLE; i++)
		if (x[i].c)
			nvc_close(x[i].c);
	free(x);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "iterations", required_argument, 0, 'n' }, { "socket", required_argument, 0, 's' },
		{ "help", no_argument, 0, 'h' },             { "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	unsigned n = SCH_N_DEFAULT;
	const char *sock = NULL;
	struct nvt_paths at;
	int c;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "sched: ...", not a path */
	while ((c = getopt_long(argc, argv, "n:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (glb_parse_count("--iterations", optarg, 10, 1000000, &n) < 0)
				return 2;
			break;
		case 's': sock = optarg; break;
		default: return glb_other_option(c, sch_usage);
		}
	}
	if (optind < argc && sock)
		return glb_bad_usage("nvd options with --socket");
	if (nvt_paths(&at, "../bin") < 0) {
		fprintf(stderr, "sched: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	struct nvt_daemon d;
	int own;
	if (glb_daemon_start(&d, &sock, 1, NULL, (const char *const *)argv + optind, &own)) {
		fprintf(stderr, "sched: cannot start nvd (%s)\n", getenv("NVD_BIN"));
		return 1;
	}
	if (sc_latency_fairness(sock) < 0 || sch_switch(sock, n) < 0 ||
	    sch_memory(sock, own ? d.pid : 0) < 0)
		printf("sched: not measured (%s)\n", nvc_error());
	glb_daemon_stop(&d, own);
	return 0;
}
