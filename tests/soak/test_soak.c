/* The chaos soak: while libnvd clients, GL programs (gl-scenes, each scene a
 * program of its own, under nvd-run), glmark2-drm and OpenArena's timedemo
 * run on nvd, random SIGKILLs of clients and now and then of nvd itself.
 *
 * After every client kill, with every other client stopped (SIGSTOP):
 * nvd counts exactly one client less per connection the victim had and
 * exactly its channels less, and the memory it counts in all equals the
 * sum of what it counts per client, before and after.  After every
 * nvd kill: every client ends within a few seconds (told, none spinning
 * or hanging), nvd starts again on the same socket and the next clients
 * run on it.  Before each nvd kill, and at the end, all clients go and nvd
 * holds nothing: no client memory, buffer or channel, and as many fds as
 * when it started.  nvd never dies on its own; at the end it stops
 * cleanly with no finding of the access oracle.
 *
 * make check runs the short soak (NVD_SOAK_KILLS=100 client kills,
 * NVD_SOAK_NVD_KILLS=5); a long one by hand, e.g.
 *   NVD_SOAK_KILLS=3000 NVD_SOAK_NVD_KILLS=60 build/tests/soak/test_soak
 * NVD_SOAK_SEED repeats a run (its seed is printed). */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/nvt-glprog.h"
#include "tests/lib/nvt-oa.h"
#include "tests/lib/nvt-test.h"

#define GLMARK2   "/usr/bin/glmark2-drm"
#define MAX_WORKERS 8

static struct nvt_paths at;
static char gldir[PATH_MAX + 8], outdir[64];

static const char *const monitors[] = {
	"--monitor", "0=320x240@100:Soak", "--monitor", "1=none", NULL,
};

enum kind { LIBNVD, GL, GLMARK, OPENARENA, KINDS };
static const char *const kind_name[] = { "libnvd workload", "gl-scenes", "glmark2-drm",
					 "OpenArena" };
/* The cast: three libnvd clients, two GL programs, glmark2, OpenArena. */
static const unsigned cast[KINDS] = { 3, 2, 1, 1 };

struct worker {
	pid_t pid;
	enum kind kind;
};

static struct worker workers[MAX_WORKERS];
static unsigned nworkers;
static uint32_t rng;
static const char *sock;

static unsigned env_uint(const char *name, unsigned def)
{
	const char *v = getenv(name);
	return v && *v ? (unsigned)strtoul(v, NULL, 0) : def;
}

/* A libnvd client: the 2D workload again and again until it fails (which
 * only nvd's going may make it). */
static int libnvd_worker(void *arg)
{
	uint32_t seed = (uint32_t)(uintptr_t)arg;
	for (;;) {
		struct nvt_workload w = { .sock = sock, .name = "soak", .seed = seed++, .rounds = 4,
					  .ops = 4, .wait_every = 2 };
		if (nvt_workload_run(&w, NULL, NULL) < 0)
			return 1;
		free(w.result);
	}
}

static const char *const scenes[] = { "gears", "tex-linear", "blend-funcs", "glsl-fragment", "fog" };

static pid_t start(enum kind k)
{
	static unsigned n;
	char out[160], prog[PATH_MAX + 24];
	snprintf(out, sizeof(out), "%s/%u.out", outdir, n++ % 64);
	if (k == LIBNVD)
		return nvt_fork(libnvd_worker, (void *)(uintptr_t)nvt_rand(&rng));
	if (k == GL) {
		snprintf(prog, sizeof(prog), "%s/gl-scenes", gldir);
		const char *argv[] = { at.nvd_run, "--socket", sock, prog, "--scene",
				       scenes[nvt_range(&rng, 0, sizeof(scenes) / sizeof(scenes[0]) - 1)],
				       "--out", "/dev/null", "--renderer", "NV43", NULL };
		return nvt_spawn_gl(argv, 0, out);
	}
	if (k == OPENARENA) {
		char tag[16];
		struct nvt_oa r;
		struct nvt_oa_opts o = { at.nvd_run, sock, 320, 240, 0, 1 };
		snprintf(tag, sizeof(tag), "oa%u", n % 64);
		return nvt_oa_spawn(&r, outdir, tag, &o) < 0 ? -1 : r.pid;
	}
	const char *argv[] = { at.nvd_run, "--socket", sock, GLMARK2, "--off-screen",
			       "--winsys-options", "drm-device=/dev/dri/card0",
			       "-b", "build:duration=60", NULL };
	return nvt_spawn_gl(argv, 0, out);
}

/* GL programs lead process groups of their own (OpenArena's is a script
 * and the game): signals go to the whole group. */
static void signal_worker(const struct worker *w, int sig)
{
	kill(w->kind == LIBNVD ? w->pid : -w->pid, sig);
}

/* Whether nvd's client pid is worker w's. */
static int is_of(pid_t client, const struct worker *w)
{
	return client == w->pid || (w->kind != LIBNVD && getpgid(client) == w->pid);
}

/* Keep the cast full.  One that ended by itself must have ended well (a
 * GL scene ends, the timedemo too; nothing else does while nvd lives). */
static void fill(void)
{
	for (unsigned i = 0; i < nworkers; i++) {
		int code;
		if (!nvt_child_done(workers[i].pid, &code))
			continue;
		if (code != 0 || (workers[i].kind != GL && workers[i].kind != OPENARENA))
			fail_msg("a %s ended by itself, status %d", kind_name[workers[i].kind], code);
		workers[i--] = workers[--nworkers];
	}
	unsigned have[KINDS] = { 0 };
	for (unsigned i = 0; i < nworkers; i++)
		have[workers[i].kind]++;
	for (enum kind k = LIBNVD; k < KINDS; k++)
		while (have[k]++ < cast[k]) {
			pid_t pid = start(k);
			assert_true(pid > 0);
			workers[nworkers++] = (struct worker){ pid, k };
		}
}

static void signal_others(unsigned except, int sig)
{
	for (unsigned i = 0; i < nworkers; i++)
		if (i != except)
			signal_worker(&workers[i], sig);
}

/* What nvd counts, in all and for one process's connections. */
struct count {
	unsigned clients, channels, bos;
	uint64_t bytes;                /* VRAM + GART + host memory */
};

static int snapshot_once(struct nvc *c, const struct worker *w, struct count *all,
			 struct count *of, struct count *sum)
{
	struct nvc_status st;
	memset(of, 0, sizeof(*of));
	memset(sum, 0, sizeof(*sum));
	if (nvc_status(c, &st) < 0)
		return -1;
	*all = (struct count){ st.clients, st.channels_used, st.bos,
			       st.vram_client + st.gart_client + st.host_client };
	unsigned n = 1;
	for (unsigned i = 0; i < n; i++) {
		struct nvc_client cl;
		int r = nvc_client_at(c, i, &cl, &n);
		if (r == -ENOENT)
			return 1;        /* one went meanwhile: again */
		if (r < 0)
			return -1;
		struct count one = { 1, cl.channels, cl.bos, cl.vram + cl.gart + cl.host };
		struct count *to[] = { sum, is_of((pid_t)cl.pid, w) ? of : NULL };
		for (unsigned k = 0; k < 2; k++)
			if (to[k]) {
				to[k]->clients += one.clients;
				to[k]->channels += one.channels;
				to[k]->bos += one.bos;
				to[k]->bytes += one.bytes;
			}
	}
	return 0;
}

static int same_but_bos(const struct count *a, const struct count *b);

/* The same, once nvd has caught up with what the stopped clients did last
 * (a connection closed just before they stopped): the totals agree with
 * the sum per client, and hold still.  Inconsistent for 2 s: as it is. */
static int snapshot(struct nvc *c, const struct worker *w, struct count *all, struct count *of,
		    struct count *sum)
{
	int64_t deadline = nvt_now_ns() + 2000000000ll;
	struct count again, of2, sum2;
	for (;;) {
		int r1 = snapshot_once(c, w, all, of, sum), r2 = snapshot_once(c, w, &again, &of2, &sum2);
		if (r1 < 0 || r2 < 0)
			return -1;
		if ((!r1 && !r2 && same_but_bos(all, sum) && same_but_bos(all, &again) &&
		     all->bos == again.bos) || nvt_now_ns() > deadline)
			return r1 || r2 ? -1 : 0;
		nvt_sleep_ms(5);
	}
}

#define COUNT_FMT "%u clients, %u channels, %u buffers, %llu bytes"
#define COUNT_ARGS(c) (c).clients, (c).channels, (c).bos, (unsigned long long)(c).bytes

static int same_but_bos(const struct count *a, const struct count *b)
{
	return a->clients == b->clients && a->channels == b->channels && a->bytes == b->bytes;
}

static int same(const struct count *a, const struct count *b)
{
	return same_but_bos(a, b) && a->bos == b->bos;
}

/* SIGKILL worker i with the others stopped: nvd gives back exactly what it
 * counted for it.  1 when it was killed, 0 when it had no connection yet. */
static int kill_client(struct nvc *c, unsigned i)
{
	struct worker w = workers[i];
	struct count all0, of, sum0, all1, none, sum1;
	signal_others(i, SIGSTOP);
	nvt_sleep_ms(20);              /* what they had queued, taken */
	assert_int_equal(snapshot(c, &w, &all0, &of, &sum0), 0);
	if (!of.clients) {
		signal_others(i, SIGCONT);
		return 0;
	}
	signal_worker(&w, SIGKILL);
	int code = nvt_wait_child(w.pid, 5000);
	if (code != 128 + SIGKILL && (code != 0 || w.kind == LIBNVD))   /* a scene may just end */
		fail_msg("a %s killed: status %d", kind_name[w.kind], code);
	workers[i] = workers[--nworkers];
	/* nvd notices the closed connections on its next turn */
	int64_t deadline = nvt_now_ns() + 5000000000ll;
	do {
		assert_int_equal(snapshot(c, &w, &all1, &none, &sum1), 0);
	} while (none.clients && nvt_now_ns() < deadline && (nvt_sleep_ms(2), 1));
	/* Exactly its connections and channels go.  Bytes: the others' may
	 * change meanwhile (nvd takes what they had queued, and a submission
	 * lets its client's closed buffers go), so what nvd counts in all
	 * must be what it counts per client, before and after.  nvd's buffer
	 * count also holds buffers no handle names (closed ones kept readable
	 * a while): they may go, none may come. */
	struct count want = { all0.clients - of.clients, all0.channels - of.channels,
			      all1.bos, all1.bytes };
	if (none.clients || !same(&all1, &want) || all1.bos - sum1.bos > all0.bos - sum0.bos ||
	    !same_but_bos(&all0, &sum0) || !same_but_bos(&all1, &sum1))
		fail_msg("a %s (pid %d) killed: nvd counted " COUNT_FMT " (per client: "
			 COUNT_FMT "), the victim " COUNT_FMT "; after: " COUNT_FMT
			 " (per client: " COUNT_FMT "), expected " COUNT_FMT,
			 kind_name[w.kind], (int)w.pid, COUNT_ARGS(all0), COUNT_ARGS(sum0),
			 COUNT_ARGS(of), COUNT_ARGS(all1), COUNT_ARGS(sum1), COUNT_ARGS(want));
	signal_others(~0u, SIGCONT);
	return 1;
}

/* All clients gone: nvd holds nothing, and the fds it had at its start. */
static void all_gone(struct nvt_daemon *d, int fds0)
{
	signal_others(~0u, SIGKILL);
	while (nworkers)
		nvt_wait_child(workers[--nworkers].pid, 5000);
	nvt_sleep_ms(100);             /* a killed group's other processes */
	if (nvt_leak_check(d->sock) < 0)
		fail_msg("nvd kept client resources after the clients left");
	int fds = nvt_daemon_fds_settled(d);
	if (fds != fds0)
		fail_msg("nvd has %d fds open, %d when it started", fds, fds0);
}

/* SIGKILL nvd under the clients: every one ends within 3 s; nvd again. */
/* Its log goes with it: the card touched only what nvd admitted, and
 * nothing of the honest clients was refused. */
static void log_clean(struct nvt_daemon *d)
{
	if (nvt_daemon_oracle(d))
		fail_msg("the card touched memory nvd did not admit");
	if (nvt_log_contains(d, "refused"))
		fail_msg("nvd or the card refused an honest client's work");
}

static int kill_nvd(struct nvt_daemon *d)
{
	log_clean(d);
	assert_true(nvt_daemon_kill(d, SIGKILL) >= 0);
	int64_t t0 = nvt_now_ns();
	while (nworkers) {
		struct worker w = workers[--nworkers];
		int code = nvt_wait_child(w.pid, 3000);
		if (code == -ETIMEDOUT)
			fail_msg("a %s (pid %d) was still running 3 s after nvd was killed",
				 kind_name[w.kind], (int)w.pid);
	}
	int64_t ms = (nvt_now_ns() - t0) / 1000000;
	NVT_OK(nvt_daemon_run(d, monitors));
	sock = d->sock;
	return (int)ms;
}

static void test_soak(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	unsigned kills = env_uint("NVD_SOAK_KILLS", 100), nvd_kills = env_uint("NVD_SOAK_NVD_KILLS", 5);
	rng = env_uint("NVD_SOAK_SEED", (unsigned)time(NULL));
	print_message("    seed %u: %u client kills, %u of nvd\n", rng, kills, nvd_kills);
	nvt_watchdog(120 + kills + 20 * nvd_kills, "test_soak");   /* long runs too */
	sock = d->sock;
	assert_int_equal(nvt_glprog_outdir(outdir, "soak"), 0);
	int fds0 = nvt_daemon_fds_settled(d);
	unsigned killed[KINDS] = { 0 }, nvd_killed = 0, every = kills / (nvd_kills + 1) + 1;
	int worst_ms = 0;
	struct nvc *c = NULL;
	NVT_OK(nvc_connect(sock, "soak", &c));
	for (unsigned done = 0; done < kills || nvd_killed < nvd_kills;) {
		fill();
		nvt_sleep_ms(nvt_range(&rng, 100, 400));
		if (nvd_killed < nvd_kills && done >= every * (nvd_killed + 1)) {
			nvc_close(c);
			all_gone(d, fds0);     /* nothing held by the one about to die */
			fill();
			nvt_sleep_ms(500);
			int ms = kill_nvd(d);
			worst_ms = ms > worst_ms ? ms : worst_ms;
			nvd_killed++;
			fds0 = nvt_daemon_fds_settled(d);
			NVT_OK(nvc_connect(sock, "soak", &c));
			continue;
		}
		if (done >= kills)
			continue;
		unsigned i = nvt_range(&rng, 0, nworkers - 1);
		enum kind k = workers[i].kind;
		if (kill_client(c, i)) {
			killed[k]++;
			done++;
		}
	}
	nvc_close(c);
	all_gone(d, fds0);
	log_clean(d);
	nvt_glprog_outdir_remove(outdir);
	print_message("    killed %u libnvd clients, %u GL programs, %u glmark2-drm, %u OpenArena, "
		      "nvd %u times (every client gone %d ms after it, at worst)\n",
		      killed[LIBNVD], killed[GL], killed[GLMARK], killed[OPENARENA], nvd_killed,
		      worst_ms);
	nvt_end(d);
}

int main(void)
{
	if (nvt_paths(&at, "../../bin") < 0) {
		perror("test_soak: /proc/self/exe");
		return 1;
	}
	snprintf(gldir, sizeof(gldir), "%s/../gl", at.dir);
	if (access(GLMARK2, X_OK) < 0 || access(NVT_OA_GAME, X_OK) < 0) {
		fprintf(stderr, "test_soak: %s or %s is missing ('make deps' installs them)\n",
			GLMARK2, NVT_OA_GAME);
		return 1;
	}
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_soak, monitors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
