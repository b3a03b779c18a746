/* nvdctl top and --json against a real nvd and real libnvd clients.  top
 * runs in a tmux pane, as a user's terminal: a client at work shows
 * submissions per second above 0 and its buffer memory, and 'q' ends it.
 * The JSON of status, clients and top -n 1 parses (python3's json) and
 * says what the clients did: buffers and bytes allocated, submissions and
 * fences, refusals, evictions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "hw/methods.h"
#include "tests/lib/nvt-test.h"
#include "tests/lib/nvt-top.h"

#define MIB (1u << 20)
#define RUN_MS 20000

static char out[65536], err[4096];

static const char *nvdctl_path(void)
{
	static char path[PATH_MAX];
	const char *tools = getenv("NVD_TOOLS");
	snprintf(path, sizeof(path), "%s/nvdctl", tools && *tools ? tools : "build/bin");
	return path;
}

/* nvdctl --json ARGS, parsed by python3's json module, which then runs the
 * statement py on the document `d` (it prints what the test compares).
 * Its stdout in out. */
static void json_query(const struct nvt_daemon *d, const char *args, const char *py)
{
	char script[PATH_MAX + 4096];
	snprintf(script, sizeof(script),
		 "set -o pipefail; '%s' --socket '%s' --json %s | "
		 "python3 -c 'import json, sys; d = json.load(sys.stdin); %s'",
		 nvdctl_path(), d->sock, args, py);
	const char *argv[] = { "/bin/bash", "-c", script, NULL };
	int code = nvt_run(argv, out, sizeof(out), err, sizeof(err), RUN_MS);
	if (code != 0)
		fail_msg("nvdctl --json %s | python3 exited %d:\n%s%s", args, code, out, err);
}

/* The client called name in a clients list: its members as key=value
 * pairs, space-separated, for sscanf. */
#define PY_CLIENT(list, name)                                                        \
	"c = [x for x in " list " if x[\"name\"] == \"" name "\"][0]; "               \
	"print(\" \".join(\"%s=%s\" % (k, c[k]) for k in (\"bos\", \"vram\", \"gart\", " \
	"\"host\", \"submits\", \"fences\", \"refused\", \"evicted\", \"hw_channels\")))"

struct row { unsigned long long bos, vram, gart, host, submits, fences, refused, evicted, hw; };

static void parse_row(const char *s, struct row *r)
{
	if (sscanf(s, "bos=%llu vram=%llu gart=%llu host=%llu submits=%llu fences=%llu "
		   "refused=%llu evicted=%llu hw_channels=%llu", &r->bos, &r->vram, &r->gart,
		   &r->host, &r->submits, &r->fences, &r->refused, &r->evicted, &r->hw) != 9)
		fail_msg("not a client row: %s", s);
}

/* Our own row, as libnvd reads it. */
static void own_row(struct nvc *c, struct nvc_client *row)
{
	struct nvc_info info;
	unsigned count = 1;
	NVT_OK(nvc_info(c, &info));
	for (unsigned i = 0; i < count; i++) {
		NVT_OK(nvc_client_at(c, i, row, &count));
		if (row->id == info.client_id)
			return;
	}
	fail_msg("client %u is not in the list", info.client_id);
}

/* ---- the JSON says what a client did ---- */

static void test_json_matches_what_the_client_did(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf g, v;
	struct nvc_client before;
	struct row r;

	NVT_OK(nvt_client_open(&t, d->sock, "jsonclient"));
	own_row(t.c, &before);
	NVT_OK(nvt_buf_new(t.c, 1 * MIB, NVC_GART, 1, &g));
	NVT_OK(nvt_buf_new(t.c, 3 * MIB, NVC_VRAM, 2, &v));
	for (unsigned i = 0; i < 5; i++) {      /* the binding goes with the first */
		nvt_m2mf(&t.p, &g, 4096u * i, 512, &v, 8192u * i, 1024, 400, 8);
		NVT_OK(nvt_finish(&t.p));
	}
	assert_int_equal(nvt_buf_check(&v, "the copies' destination"), 0);

	json_query(d, "clients", PY_CLIENT("d", "jsonclient"));
	parse_row(out, &r);
	assert_int_equal(r.bos, before.bos + 2);
	assert_int_equal(r.vram, before.vram + 3 * MIB);
	assert_int_equal(r.gart, before.gart + 1 * MIB);
	assert_int_equal(r.host, 0);
	assert_int_equal(r.submits, before.submits + 5);
	assert_int_equal(r.fences, before.fences + 5);
	assert_int_equal(r.refused, 0);
	assert_int_equal(r.hw, 1);
	/* its channel's card time: some, and no more than PFIFO's; none for
	 * nvdctl, which has no channel */
	json_query(d, "clients", "c = {x[\"name\"]: x[\"card_ns\"] for x in d}; "
		   "print(c[\"jsonclient\"], c[\"nvdctl\"])");
	unsigned long long card_ns, nvdctl_ns;
	if (sscanf(out, "%llu %llu", &card_ns, &nvdctl_ns) != 2)
		fail_msg("card_ns: %s", out);
	json_query(d, "status", "print(d[\"pfifo_busy_ns\"])");
	assert_true(card_ns > 0 && card_ns <= strtoull(out, NULL, 10));
	assert_int_equal(nvdctl_ns, 0);

	/* the card: the only client with buffers, its work measured */
	json_query(d, "status",
		   "print(d[\"bos\"], d[\"vram_client\"], d[\"gart_client\"], d[\"submits\"], "
		   "d[\"fences\"], int(d[\"pfifo_busy_ns\"] > 0), int(d[\"pgraph_busy_ns\"] > 0))");
	unsigned long long bos, vram, gart, submits, fences, pfifo, pgraph;
	if (sscanf(out, "%llu %llu %llu %llu %llu %llu %llu", &bos, &vram, &gart, &submits,
		   &fences, &pfifo, &pgraph) != 7)
		fail_msg("status: %s", out);
	assert_int_equal(bos, r.bos);
	assert_int_equal(vram, r.vram);
	assert_int_equal(gart, r.gart);
	assert_int_equal(submits, r.submits);
	assert_int_equal(fences, r.fences);
	assert_int_equal(pfifo, 1);
	assert_int_equal(pgraph, 1);

	/* top -n 1: the same counts, and the card's rates */
	json_query(d, "top -n 1 -d 0.2",
		   "print(int(0 <= d[\"card\"][\"pgraph_busy\"] <= 1), "
		   "int(d[\"interval_s\"] > 0.1)); " PY_CLIENT("d[\"clients\"]", "jsonclient"));
	if (strncmp(out, "1 1\n", 4))
		fail_msg("top --json: a share outside 0..1 or no interval: %s", out);
	struct row top;
	parse_row(out + 4, &top);
	assert_memory_equal(&top, &r, sizeof(r));

	nvt_buf_free(&g);
	nvt_buf_free(&v);
	nvt_client_close(&t);
	nvt_end(d);
}

/* A name with quotes and a backslash comes out as valid JSON, the same. */
static void test_json_escapes_names(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *c;

	NVT_OK(nvc_connect(d->sock, "a\"b\\c", &c));
	json_query(d, "clients", "print([x[\"name\"] for x in d if x[\"name\"].startswith(\"a\")])");
	assert_string_equal(out, "['a\"b\\\\c']\n");
	nvc_close(c);
	nvt_end(d);
}

/* ---- refusals and evictions are counted per client ---- */

static void test_refusal_is_counted(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	uint32_t f;
	struct row r;

	NVT_OK(nvt_client_open(&t, d->sock, "refused"));
	NVT_OK(nvt_finish(&t.p));
	nvt_mthd(&t.p, NVT_SUBC_M2MF, NV_FIFO_REF_CNT, 0x7fffffff);   /* the daemon's */
	NVT_OK(nvt_submit(&t.p, &f));
	NVT_ERR(nvt_wait(&t.p, f), -EPERM);
	json_query(d, "clients", PY_CLIENT("d", "refused"));
	parse_row(out, &r);
	assert_int_equal(r.refused, 1);
	assert_int_equal(r.submits, 2);      /* nvd counts what it refuses among them */
	json_query(d, "top -n 1 -d 0.1", PY_CLIENT("d[\"clients\"]", "refused"));
	parse_row(out, &r);
	assert_int_equal(r.refused, 1);
	nvt_client_close(&t);
	nvt_end(d);
}

static const char *const small_vram[] = { "--vram", "32", "--gart", "48", NULL };

/* n buffers of 4 MiB that t's work needs in VRAM, each in turn. */
static void vram_users(struct nvt_client *t, struct nvt_buf *b, unsigned n, uint32_t seed)
{
	for (unsigned i = 0; i < n; i++) {
		NVT_OK(nvt_buf_new(t->c, 4 * MIB, NVC_VRAM, seed + i, &b[i]));
		nvt_touch_vram(&t->p, &b[i]);
		NVT_OK(nvt_finish(&t->p));
	}
}

/* A second client fills VRAM and GART: the first one's idle buffers go. */
static void test_evictions_are_counted(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client a, b;
	struct nvt_buf ab[6], bb[4];
	struct nvc_client row;
	struct row r;

	NVT_OK(nvt_client_open_mesa(&a, d->sock, "first"));
	vram_users(&a, ab, 6, 0);
	NVT_OK(nvt_client_open_mesa(&b, d->sock, "second"));
	vram_users(&b, bb, 4, 10);
	own_row(a.c, &row);
	assert_true(row.evicted >= 2);
	json_query(d, "clients", PY_CLIENT("d", "first"));
	parse_row(out, &r);
	assert_int_equal(r.evicted, row.evicted);
	assert_int_equal(r.vram + r.gart + r.host, row.vram + row.gart + row.host);
	assert_true(r.host > 0);
	json_query(d, "status", "print(d[\"evictions\"])");
	assert_true(strtoull(out, NULL, 10) >= row.evicted);
	for (unsigned i = 0; i < 6; i++)
		nvt_buf_free(&ab[i]);
	for (unsigned i = 0; i < 4; i++)
		nvt_buf_free(&bb[i]);
	nvt_client_close(&a);
	nvt_client_close(&b);
	nvt_end(d);
}

/* ---- top in a terminal ---- */

/* A client that holds 2 MiB of VRAM and 1 of GART and idles until its
 * parent writes a byte into the pipe; then it copies with M2MF, waiting
 * for each fence, until the parent closes the pipe. */
struct worker {
	const char *sock;
	int pipe[2];
};

static int worker_main(void *arg)
{
	struct worker *w = arg;
	struct nvt_client t;
	struct nvt_buf g, v;
	char go;

	close(w->pipe[1]);
	if (nvt_client_open(&t, w->sock, "topworker") < 0 ||
	    nvt_buf_new(t.c, 2 * MIB, NVC_VRAM, 1, &v) < 0 ||
	    nvt_buf_new(t.c, 1 * MIB, NVC_GART, 2, &g) < 0 ||
	    read(w->pipe[0], &go, 1) != 1)
		return 1;
	for (;;) {
		struct pollfd p = { w->pipe[0], POLLIN, 0 };
		if (poll(&p, 1, 5) != 0)
			break;
		nvt_m2mf(&t.p, &g, 0, 4096, &v, 0, 4096, 4096, 64);
		if (nvt_finish(&t.p) < 0)
			return 1;
	}
	nvt_buf_free(&g);
	nvt_buf_free(&v);
	nvt_client_close(&t);
	return 0;
}

static void test_top_in_a_terminal_shows_a_client_at_work(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct worker w = { .sock = d->sock };
	struct nvt_top top;

	NVT_OK(pipe(w.pipe));
	pid_t pid = nvt_fork(worker_main, &w);
	NVT_OK(pid);
	close(w.pipe[0]);
	if (nvt_top_start(&top, d->sock) < 0)
		fail_msg("tmux new-session: %s", top.err);
	if (nvt_top_wait(&top, "topworker", 0, 2.0) < 0)
		fail_msg("nvdctl top never showed topworker idle with 2 MiB of VRAM:\n%s",
			 top.screen);
	assert_int_equal(write(w.pipe[1], "g", 1), 1);
	if (nvt_top_wait(&top, "topworker", 1, 2.0) < 0)
		fail_msg("nvdctl top never showed topworker submitting with 2 MiB of VRAM:\n%s",
			 top.screen);
	if (!strstr(top.screen, "PGRAPH") || !strstr(top.screen, "VRAM"))
		fail_msg("nvdctl top shows no engines or VRAM:\n%s", top.screen);
	if (nvt_top_quit(&top) < 0)
		fail_msg("nvdctl top did not quit on 'q'");
	close(w.pipe[1]);
	assert_int_equal(nvt_wait_child(pid, RUN_MS), 0);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_json_matches_what_the_client_did),
		NVT_TEST(test_json_escapes_names),
		NVT_TEST(test_refusal_is_counted),
		NVT_TEST_ARGS(test_evictions_are_counted, small_vram),
		NVT_TEST(test_top_in_a_terminal_shows_a_client_at_work),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
