/* The chaos soak: while libnvd clients, GL programs (gl-scenes, each scene a
 * program of its own, under nvd-run), glmark2-drm and OpenArena's timedemo
 * run on nvd, random SIGKILLs of clients and now and then of nvd itself.
 * In its second half an X server on nvd takes glmark2-drm's place (both
 * would be the display's master), with glxgears in it through DRI2: X is
 * killed among the clients, and lives through nvd's kills.
 *
 * After every client kill, with every other client stopped (SIGSTOP):
 * nvd counts exactly one client less per connection the victim had and
 * exactly its channels less, and the memory it counts in all equals the
 * sum of what it counts per client, before and after.  After every
 * nvd kill: every client ends within a few seconds (told, none spinning
 * or hanging) but the X server, nvd starts again on the same socket, X
 * reconnects, `glxinfo -B` in it renders on the NV43, and the next clients
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
#include "tests/lib/nvt-x.h"

#define GLMARK2   "/usr/bin/glmark2-drm"
#define MAX_WORKERS 8

static struct nvt_paths at;
static char gldir[PATH_MAX + 8], outdir[64];

static const char *const monitors[] = {
	"--monitor", "0=320x240@100:Soak", "--monitor", "1=none", NULL,
};

enum kind { LIBNVD, GL, GLMARK, OPENARENA, XSERVER, GLXGEARS, KINDS };
static const char *const kind_name[] = { "libnvd workload", "gl-scenes", "glmark2-drm",
					 "OpenArena", "X server", "glxgears" };
/* The cast of each half: libnvd clients, GL programs, glmark2, OpenArena;
 * then X with glxgears in it instead of glmark2. */
static const unsigned casts[2][KINDS] = { { 3, 2, 1, 1, 0, 0 }, { 3, 1, 0, 1, 1, 1 } };
static unsigned half;
static struct nvt_x xs;               /* the X server, while it is in the cast */
static unsigned x_gen;                /* X servers killed so far */

struct worker {
	pid_t pid;
	enum kind kind;
	unsigned x_gen;                /* glxgears: the X server it started in */
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
	if (k == XSERVER) {
		memset(&xs, 0, sizeof(xs));
		return nvt_x_start(&xs, sock, NULL) < 0 ? -1 : xs.pid;
	}
	if (k == GLXGEARS) {
		const char *argv[] = { at.nvd_run, "--socket", sock, "/usr/bin/glxgears", NULL };
		setenv("DISPLAY", xs.name, 1);
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
 * GL scene ends, the timedemo too; glxgears ends with its X server;
 * nothing else does while nvd lives). */
static void fill(void)
{
	for (unsigned i = 0; i < nworkers; i++) {
		int code;
		if (!nvt_child_done(workers[i].pid, &code))
			continue;
		if ((code != 0 || (workers[i].kind != GL && workers[i].kind != OPENARENA)) &&
		    !(workers[i].kind == GLXGEARS && workers[i].x_gen != x_gen))
			fail_msg("a %s ended by itself, status %d", kind_name[workers[i].kind], code);
		workers[i--] = workers[--nworkers];
	}
	unsigned have[KINDS] = { 0 };
	for (unsigned i = 0; i < nworkers; i++)
		have[workers[i].kind]++;
	for (enum kind k = LIBNVD; k < KINDS; k++)
		while (have[k]++ < casts[half][k]) {
			pid_t pid = start(k);
			assert_true(pid > 0);
			workers[nworkers++] = (struct worker){ pid, k, x_gen };
		}
}

static void signal_others(unsigned except, int sig)
{
	for (unsigned i = 0; i < nworkers; i++)
		if (i != except)
			signal_worker(&workers[i], sig);
}

/* What nvd counts in all, and per client. */
#define MAX_CLIENTS 64
struct snap {
	unsigned clients, channels;
	uint64_t bytes;                /* VRAM + GART + host memory */
	uint64_t sum;                  /* per client, plus buffers nobody's any more */
	unsigned n;
	struct { unsigned id, channels; pid_t pid; } cl[MAX_CLIENTS];
};

/* 0, 1 when a client went meanwhile (ask again), -1 */
static int snapshot_once(struct nvc *c, struct snap *s)
{
	struct nvc_status st;
	if (nvc_status(c, &st) < 0)
		return -1;
	s->clients = st.clients;
	s->channels = st.channels_used;
	s->bytes = st.vram_client + st.gart_client + st.host_client;
	s->sum = st.orphaned;
	s->n = 0;
	unsigned n = 1, channels = 0;
	for (unsigned i = 0; i < n; i++) {
		struct nvc_client cl;
		int r = nvc_client_at(c, i, &cl, &n);
		if (r == -ENOENT)
			return 1;
		if (r < 0 || s->n == MAX_CLIENTS)
			return -1;
		s->cl[s->n].id = cl.id;
		s->cl[s->n].channels = cl.channels;
		s->cl[s->n++].pid = (pid_t)cl.pid;
		s->sum += cl.vram + cl.gart + cl.host;
		channels += cl.channels;
	}
	/* consistent: nvd's totals are its accounts' sums */
	return s->n == s->clients && channels == s->channels && s->sum == s->bytes ? 0 : 1;
}

/* Once nvd has caught up with what the stopped clients did last (a
 * connection closed just before they stopped): consistent and holding
 * still.  Otherwise -1 after 2 s. */
static int snapshot(struct nvc *c, struct snap *s)
{
	int64_t deadline = nvt_now_ns() + 2000000000ll;
	static struct snap again;
	for (;;) {
		int r1 = snapshot_once(c, s), r2 = snapshot_once(c, &again);
		if (r1 < 0 || r2 < 0)
			return -1;
		if (!r1 && !r2 && s->n == again.n && s->bytes == again.bytes &&
		    !memcmp(s->cl, again.cl, s->n * sizeof(s->cl[0])))
			return 0;
		if (nvt_now_ns() > deadline)
			return -1;
		nvt_sleep_ms(5);
	}
}

static int find(const struct snap *s, unsigned id)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->cl[i].id == id)
			return (int)i;
	return -1;
}

/* SIGKILL worker i with the others stopped: its connections and channels
 * go, every other client's stay as they were (but those of processes
 * already ending), and nvd's totals are its accounts' sums before and
 * after.  1 when it was killed, 0 when it had no connection yet. */
static int kill_client(struct nvc *c, unsigned i)
{
	struct worker w = workers[i];
	static struct snap s0, s1;
	signal_others(i, SIGSTOP);
	nvt_sleep_ms(20);              /* what they had queued, taken */
	if (snapshot(c, &s0) < 0)
		fail_msg("nvd's accounts and totals disagree (or keep moving) with the clients stopped");
	unsigned mine = 0;
	for (unsigned k = 0; k < s0.n; k++)
		mine += is_of(s0.cl[k].pid, &w);
	if (!mine) {
		signal_others(i, SIGCONT);
		return 0;
	}
	signal_worker(&w, SIGKILL);
	int code = nvt_wait_child(w.pid, 5000);
	if (code != 128 + SIGKILL && (code != 0 || w.kind == LIBNVD))   /* a scene may just end */
		fail_msg("a %s killed: status %d", kind_name[w.kind], code);
	if (w.kind == XSERVER) {
		xs.reaped = 1;
		nvt_x_cleanup(&xs);
		x_gen++;
	}
	workers[i] = workers[--nworkers];
	/* nvd notices the closed connections on its next turn */
	int64_t deadline = nvt_now_ns() + 5000000000ll;
	for (;;) {
		if (snapshot(c, &s1) < 0)
			fail_msg("after a %s was killed, nvd's accounts and totals disagree",
				 kind_name[w.kind]);
		unsigned left = 0;
		for (unsigned k = 0; k < s0.n; k++)
			left += is_of(s0.cl[k].pid, &w) && find(&s1, s0.cl[k].id) >= 0;
		if (!left)
			break;
		if (nvt_now_ns() > deadline)
			fail_msg("5 s after a %s was killed nvd still has %u of its %u clients",
				 kind_name[w.kind], left, mine);
		nvt_sleep_ms(2);
	}
	for (unsigned k = 0; k < s0.n; k++) {
		if (is_of(s0.cl[k].pid, &w))
			continue;
		int j = find(&s1, s0.cl[k].id);
		if (j < 0 ? !nvt_ending(s0.cl[k].pid) : s1.cl[j].channels != s0.cl[k].channels)
			fail_msg("a %s killed: client %u (pid %d) had %u channels, now %d",
				 kind_name[w.kind], s0.cl[k].id, (int)s0.cl[k].pid,
				 s0.cl[k].channels, j < 0 ? -1 : (int)s1.cl[j].channels);
	}
	for (unsigned k = 0; k < s1.n; k++)
		if (find(&s0, s1.cl[k].id) < 0 && is_of(s1.cl[k].pid, &w))
			fail_msg("a %s killed: a new client of it", kind_name[w.kind]);
	signal_others(~0u, SIGCONT);
	return 1;
}

/* All clients gone: nvd holds nothing, and the fds it had at its start. */
static void all_gone(struct nvt_daemon *d, int fds0)
{
	signal_others(~0u, SIGKILL);
	while (nworkers)
		nvt_wait_child(workers[--nworkers].pid, 5000);
	if (xs.pid) {
		xs.reaped = 1;
		nvt_x_cleanup(&xs);
		x_gen++;
	}
	nvt_sleep_ms(100);             /* a killed group's other processes */
	if (nvt_leak_check(d->sock) < 0)
		fail_msg("nvd kept client resources after the clients left");
	int fds = nvt_daemon_fds_settled(d);
	if (fds != fds0)
		fail_msg("nvd has %d fds open, %d when it started", fds, fds0);
}

/* Its log goes with it: the card touched only what nvd admitted, and
 * nothing of the honest clients was refused. */
static void log_clean(struct nvt_daemon *d)
{
	if (nvt_daemon_oracle(d))
		fail_msg("the card touched memory nvd did not admit");
	if (nvt_log_contains(d, "refused"))
		fail_msg("nvd or the card refused an honest client's work");
}

/* Whether nvd counts a client of the X server's (its process group). */
static int x_connected(void)
{
	struct nvc *c;
	struct nvc_client cl;
	unsigned n = 1;
	int found = 0;
	if (nvc_connect(sock, "soak-x", &c) < 0)
		return 0;
	for (unsigned i = 0; i < n && !found; i++)
		found = nvc_client_at(c, i, &cl, &n) == 0 && getpgid((pid_t)cl.pid) == xs.pid;
	nvc_close(c);
	return found;
}

/* SIGKILL nvd under the clients: every one but X ends within 3 s (a game
 * within 10: one loading its map computes for seconds between calls into
 * nvd, and learns nvd is gone at the next); nvd again, X back on it within
 * 10 s and GL through it on the NV43.  A worker nvd does not count yet (a
 * game still loading before it opens the device) has nobody to tell it:
 * the test stops it itself. */
static unsigned not_yet_on_nvd;    /* workers kill_nvd stopped itself */

static int kill_nvd(struct nvt_daemon *d)
{
	static struct snap s;
	struct nvc *c;
	log_clean(d);
	NVT_OK(nvc_connect(sock, "soak-kill", &c));
	/* the clients as they come and go: a list cut short by one that
	 * went only leaves more workers for the test to stop */
	for (int r = 1, tries = 0; r > 0 && tries < 100; tries++)
		NVT_OK(r = snapshot_once(c, &s));
	nvc_close(c);
	assert_true(nvt_daemon_kill(d, SIGKILL) >= 0);
	int64_t t0 = nvt_now_ns();
	int worst = 0;
	for (unsigned i = 0; i < nworkers; i++) {
		struct worker w = workers[i];
		if (w.kind == XSERVER)
			continue;
		int mine = 0;
		for (unsigned k = 0; k < s.n; k++)
			mine |= is_of(s.cl[k].pid, &w);
		if (!mine) {
			not_yet_on_nvd++;
			signal_worker(&w, SIGKILL);
			nvt_wait_child(w.pid, 3000);
			workers[i--] = workers[--nworkers];
			continue;
		}
		int limit_s = w.kind == OPENARENA ? 10 : 3;
		int code = nvt_wait_child(w.pid, limit_s * 1000);
		if (code == -ETIMEDOUT)
			fail_msg("a %s (pid %d) was still running %d s after nvd was killed",
				 kind_name[w.kind], (int)w.pid, limit_s);
		workers[i--] = workers[--nworkers];
	}
	worst = (int)((nvt_now_ns() - t0) / 1000000);
	NVT_OK(nvt_daemon_run(d, monitors));
	sock = d->sock;
	if (!nworkers)
		return worst;
	if (!nvt_x_alive(&xs))
		fail_msg("the X server died with nvd");
	for (int i = 0; !x_connected(); i++) {
		if (i == 1000)
			fail_msg("the X server is not back on nvd 10 s after its restart");
		nvt_sleep_ms(10);
	}
	const char *argv[] = { at.nvd_run, "--socket", sock, "glxinfo", "-B", NULL };
	char *out = NULL;
	int r = nvt_x_run(&xs, argv, &out, NULL);
	if (r != 0 || !out || !strstr(out, "NV43"))
		fail_msg("glxinfo -B in the X server after nvd's restart: status %d\n%s", r,
			 out ? out : "");
	free(out);
	return worst;
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
			/* fds0 stays: every new nvd idles on as many (X may
			 * be back on this one before they could be counted) */
			NVT_OK(nvc_connect(sock, "soak", &c));
			continue;
		}
		if (!half && done >= kills / 2) {
			nvc_close(c);
			all_gone(d, fds0);
			half = 1;              /* X's turn */
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
	half = 0;
	print_message("    killed %u libnvd clients, %u GL programs, %u glmark2-drm, %u OpenArena, "
		      "%u X servers, %u glxgears; nvd %u times (every client but X gone %d ms "
		      "after it, at worst; %u workers not on nvd yet stopped by the test)\n",
		      killed[LIBNVD], killed[GL], killed[GLMARK], killed[OPENARENA], killed[XSERVER],
		      killed[GLXGEARS], nvd_killed, worst_ms, not_yet_on_nvd);
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
