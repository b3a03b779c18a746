/* Hostile use of the shared memory between a client and the daemon: the
 * submit ring (garbage entries, sizes, sequence numbers, heads), the
 * doorbell, the fence page and the memfds behind rings and buffers, and
 * clients that die in the middle of a submission.  A corrupt ring loses the
 * channel (its fences answer -ENODEV, the fence page says -EPROTO); the
 * daemon stays up, gives back what the client held, and the honest client's
 * bytes are those it gets alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>

#include "client/priv.h"        /* the channel's ring, fence page and doorbell */
#include "proto/ring.h"
#include "tests/lib/nvt-test.h"

static void sleep_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };
	nanosleep(&t, NULL);
}

static void ring_doorbell(struct nvc_chan *ch)
{
	uint64_t one = 1;
	if (write(ch->doorbell, &one, sizeof(one)) < 0) {
		/* a saturated counter still wakes the daemon */
	}
}

/* Write bytes at the ring's current head and publish `publish` bytes. */
static void ring_put(struct nvc_chan *ch, const void *entry, uint32_t len, uint32_t publish)
{
	uint32_t pos = ch->head % NVD_RING_DATA_SIZE;
	assert_true(pos + len <= NVD_RING_DATA_SIZE);
	memcpy(ch->ring + pos, entry, len);
	__atomic_store_n(&ch->ctl->head, ch->head + publish, __ATOMIC_RELEASE);
	ring_doorbell(ch);
}

/* The channel must be lost with -EPROTO, its fences then -ENODEV. */
static void assert_lost(struct nvc_chan *ch)
{
	int32_t lost = 0;
	for (unsigned i = 0; i < 3000 && !lost; i++) {
		lost = __atomic_load_n(&ch->fence->lost, __ATOMIC_ACQUIRE);
		if (!lost)
			sleep_ms(1);
	}
	if (!lost)
		fail_msg("a corrupt submit ring did not lose the channel within 3 s");
	NVT_ERR(lost, -EPROTO);
	NVT_ERR(nvc_fence_wait(ch, ch->seq + 1, 1000 * 1000 * 1000), -ENODEV);
	struct nvc_submission s = { 0 };
	uint32_t f;
	NVT_ERR(nvc_submit(ch, &s, &f), -ENODEV);
}

/* A client with one channel and one legit submission done (seq 1). */
static void open_attacker(struct nvt_daemon *d, struct nvt_client *t)
{
	NVT_OK(nvt_client_open(t, d->sock, "ring-attacker"));
	NVT_OK(nvt_finish(&t->p));
}

/* After the attack the connection itself still works: a new channel does. */
static void assert_connection_works(struct nvt_client *t)
{
	struct nvc_chan *ch;
	struct nvt_push p;
	NVT_OK(nvc_chan_new(t->c, &ch));
	NVT_OK(nvt_chan_objects(ch));
	NVT_OK(nvt_push_init(&p, t->c, ch, 65536));
	nvt_bind_standard(&p);
	NVT_OK(nvt_finish(&p));
	nvt_push_fini(&p);
	NVT_OK(nvc_chan_free(ch));
}

#define RING_ATTACK(name)                                                                 \
	static void attack_##name(struct nvt_client *t, struct nvc_chan *ch);             \
	static void run_##name(struct nvt_daemon *d, struct nvt_honest *h, void *arg)     \
	{                                                                                 \
		struct nvt_client t;                                                      \
		(void)h;                                                                  \
		(void)arg;                                                                \
		open_attacker(d, &t);                                                     \
		attack_##name(&t, t.ch);                                                  \
		assert_lost(t.ch);                                                        \
		assert_connection_works(&t);                                              \
		nvt_client_close(&t);                                                     \
	}                                                                                 \
	static void test_##name(void **state)                                             \
	{                                                                                 \
		nvt_attack(nvt_d(state), run_##name, NULL);                               \
	}                                                                                 \
	static void attack_##name(struct nvt_client *t, struct nvc_chan *ch)

static struct nvd_submit_hdr hdr(struct nvc_chan *ch, uint32_t size)
{
	return (struct nvd_submit_hdr){ .size = size, .seq = ch->seq + 1 };
}

RING_ATTACK(ring_entry_size_not_a_multiple_of_8)
{
	(void)t;
	uint8_t e[24] = { 0 };
	struct nvd_submit_hdr h = hdr(ch, 20);
	memcpy(e, &h, sizeof(h));
	ring_put(ch, e, sizeof(e), sizeof(e));
}

RING_ATTACK(ring_entry_larger_than_what_is_published)
{
	(void)t;
	struct nvd_submit_hdr h = hdr(ch, 4096);
	ring_put(ch, &h, sizeof(h), sizeof(h));
}

RING_ATTACK(ring_entry_smaller_than_its_header)
{
	(void)t;
	struct nvd_submit_hdr h = hdr(ch, 8);
	ring_put(ch, &h, sizeof(h), sizeof(h));
}

RING_ATTACK(ring_entry_size_zero)
{
	(void)t;
	struct nvd_submit_hdr h = hdr(ch, 0);
	ring_put(ch, &h, sizeof(h), sizeof(h));
}

RING_ATTACK(ring_entry_skips_a_sequence_number)
{
	(void)t;
	struct nvd_submit_hdr h = hdr(ch, nvd_submit_size(0, 0, 0));
	h.seq += 1;
	ring_put(ch, &h, sizeof(h), sizeof(h));
}

RING_ATTACK(ring_entry_replays_a_sequence_number)
{
	(void)t;
	struct nvd_submit_hdr h = hdr(ch, nvd_submit_size(0, 0, 0));
	h.seq = ch->seq;   /* the last one, already run */
	ring_put(ch, &h, sizeof(h), sizeof(h));
}

RING_ATTACK(ring_entry_counts_above_the_limits)
{
	(void)t;
	uint32_t size = nvd_submit_size(NVD_SUBMIT_MAX_BOS + 1, 0, 0);
	uint8_t *e = calloc(1, size);
	struct nvd_submit_hdr h = hdr(ch, size);
	h.nr_bos = NVD_SUBMIT_MAX_BOS + 1;
	memcpy(e, &h, sizeof(h));
	ring_put(ch, e, size, size);
	free(e);
}

RING_ATTACK(ring_entry_size_disagrees_with_its_counts)
{
	(void)t;
	struct nvd_submit_hdr h = hdr(ch, nvd_submit_size(0, 0, 0));
	h.nr_push = 1;   /* a push range that is not there */
	ring_put(ch, &h, sizeof(h), sizeof(h));
}

RING_ATTACK(ring_entry_with_unknown_flags)
{
	(void)t;
	struct nvd_submit_hdr h = hdr(ch, nvd_submit_size(0, 0, 0));
	h.flags = 0x8000;
	ring_put(ch, &h, sizeof(h), sizeof(h));
}

RING_ATTACK(ring_pad_entry_that_does_not_reach_the_end)
{
	(void)t;
	struct nvd_submit_hdr h = { .size = 64, .flags = NVD_SUBMIT_PAD };
	uint8_t e[64] = { 0 };
	memcpy(e, &h, sizeof(h));
	ring_put(ch, e, sizeof(e), sizeof(e));
}

RING_ATTACK(ring_head_beyond_the_ring)
{
	(void)t;
	struct nvd_submit_hdr h = hdr(ch, nvd_submit_size(0, 0, 0));
	ring_put(ch, &h, sizeof(h), 2 * NVD_RING_DATA_SIZE);
}

RING_ATTACK(ring_head_moved_backwards)
{
	(void)t;
	struct nvd_submit_hdr h = hdr(ch, nvd_submit_size(0, 0, 0));
	ring_put(ch, &h, sizeof(h), (uint32_t)-8);
}

/* ---- not ring corruption: the channel survives ---- */

static void attack_doorbell_flood(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct nvt_client t;
	(void)h;
	(void)arg;
	open_attacker(d, &t);
	for (unsigned i = 0; i < 200000; i++)
		ring_doorbell(t.ch);
	/* the channel is fine: nothing was published, nothing was lost */
	assert_int_equal(t.ch->fence->lost, 0);
	struct nvt_buf g, v;
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_GART, 1, &g));
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_VRAM, 2, &v));
	nvt_m2mf(&t.p, &g, 0, 100, &v, 0, 100, 100, 100);
	NVT_OK(nvt_finish(&t.p));
	assert_int_equal(nvt_buf_check(&v, "copy after the doorbell flood"), 0);
	nvt_client_close(&t);
}

static void test_doorbell_flood_without_entries(void **state)
{
	nvt_attack(nvt_d(state), attack_doorbell_flood, NULL);
}

static void attack_shared_memory_seals(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct nvt_client t;
	struct nvt_buf v;
	(void)h;
	(void)arg;
	open_attacker(d, &t);
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_VRAM, 3, &v));
	/* The fence page: read only, for good. */
	void *w = mmap(NULL, NVD_FENCE_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		       t.ch->fence_fd, 0);
	if (w != MAP_FAILED)
		fail_msg("the fence page could be mapped writable: the client could forge fences");
	assert_int_not_equal(mprotect((void *)t.ch->fence, NVD_FENCE_PAGE_SIZE,
				      PROT_READ | PROT_WRITE), 0);
	/* Nothing the daemon or the card reads may shrink under them (SIGBUS). */
	if (ftruncate(t.ch->ring_fd, 0) == 0)
		fail_msg("the submit ring's memfd could be truncated");
	if (ftruncate(t.ch->fence_fd, 0) == 0)
		fail_msg("the fence page's memfd could be truncated");
	if (ftruncate(v.bo->fd, 0) == 0)
		fail_msg("a buffer's memfd could be truncated under the card");
	if (ftruncate(t.p.bo->fd, 4096) == 0)
		fail_msg("a push buffer's memfd could be truncated under the daemon");
	/* and the channel still runs work into the buffer */
	struct nvt_buf g;
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_GART, 4, &g));
	nvt_m2mf(&t.p, &g, 0, 4096, &v, 0, 4096, 4096, 16);
	NVT_OK(nvt_finish(&t.p));
	assert_int_equal(nvt_buf_check(&v, "copy after the attempts"), 0);
	nvt_client_close(&t);
}

static void test_shared_memory_cannot_be_truncated_or_made_writable(void **state)
{
	nvt_attack(nvt_d(state), attack_shared_memory_seals, NULL);
}

/* The ring and push buffer change while the daemon reads them: every
 * submission ends accepted, refused or with the channel lost, never worse. */
struct scribbler {
	uint8_t *a, *b;
	size_t alen, blen;
	volatile int stop;
};

static void *scribble(void *arg)
{
	struct scribbler *s = arg;
	uint32_t rng = 12345;
	while (!s->stop) {
		uint32_t r = nvt_rand(&rng);
		if (r & 1)
			s->a[r % s->alen] ^= (uint8_t)(r >> 8);
		else
			s->b[r % s->blen] ^= (uint8_t)(r >> 8);
	}
	return NULL;
}

static void attack_scribble(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	unsigned ok = 0, refused = 0, lost = 0;
	(void)h;
	(void)arg;
	for (unsigned round = 0; round < 6; round++) {
		struct nvt_client t;
		struct nvt_buf g, v;
		open_attacker(d, &t);
		NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_GART, 5, &g));
		NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_VRAM, 6, &v));
		/* scribble over the first 4 KiB of the push buffer (the command
		 * words the validator reads), in later rounds over the ring too */
		uint8_t *pb = (uint8_t *)t.p.map;
		struct scribbler s = { round < 3 ? pb : t.ch->ring, pb, 4096, 48, 0 };
		pthread_t th;
		assert_int_equal(pthread_create(&th, NULL, scribble, &s), 0);
		for (unsigned i = 0; i < 50; i++) {
			uint32_t f;
			/* back to word 0: always the scribbled part */
			nvc_pushbuf_space(t.p.pb, t.p.cap, 0, 0);
			nvt_m2mf(&t.p, &g, 0, 256, &v, 0, 256, 256, 16);
			if (nvt_submit(&t.p, &f) < 0) {
				lost++;
				break;
			}
			int r = nvc_fence_wait(t.ch, f, 5ll * 1000 * 1000 * 1000);
			if (r == 0)
				ok++;
			else if (r == -ENODEV) {
				lost++;
				break;
			} else if (r == -ETIMEDOUT)
				fail_msg("a scribbled submission never completed");
			else
				refused++;
		}
		s.stop = 1;
		pthread_join(th, NULL);
		nvt_client_close(&t);
	}
	printf("scribbled submissions: %u ran, %u refused, %u channels lost\n", ok, refused, lost);
}

static void test_ring_and_push_buffer_scribbled_while_the_daemon_reads(void **state)
{
	nvt_attack(nvt_d(state), attack_scribble, NULL);
}

/* The connection closes; the client keeps its ring and doorbell and goes
 * on writing: the daemon forgot that channel and must not look. */
static void attack_after_close(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct nvt_client t;
	(void)h;
	(void)arg;
	open_attacker(d, &t);
	int bell = dup(t.ch->doorbell);
	assert_true(bell >= 0);
	shutdown(t.c->sock, SHUT_RDWR);
	sleep_ms(50);   /* the daemon drops the client */
	struct nvd_submit_hdr hd = { .size = 4096, .seq = 77 };
	for (unsigned i = 0; i < 1000; i++) {
		memcpy(t.ch->ring + (i * 64) % NVD_RING_DATA_SIZE, &hd, sizeof(hd));
		__atomic_store_n(&t.ch->ctl->head, i * 64 + 16, __ATOMIC_RELEASE);
		uint64_t one = 1;
		if (write(bell, &one, sizeof(one)) < 0) {
			/* nobody reads it any more */
		}
	}
	close(bell);
	nvt_client_close(&t);
}

static void test_ring_written_after_the_connection_closed(void **state)
{
	nvt_attack(nvt_d(state), attack_after_close, NULL);
}

/* ---- losing a channel must not touch another ---- */

/* Thousands of small submissions, each waited for: a fence interrupt is
 * nearly always pending on the card while the attacker's channels die. */
static int busy_bystander(void *arg)
{
	struct nvt_client t;
	struct nvt_buf g, v;
	(void)arg;
	if (nvt_client_open(&t, getenv("NVT_RING_SOCK"), "bystander") < 0 ||
	    nvt_buf_new(t.c, 64 << 10, NVC_GART, 9, &g) < 0 ||
	    nvt_buf_new(t.c, 64 << 10, NVC_VRAM, 10, &v) < 0)
		return 1;
	/* bursts of 50 in flight, then every fence must say 0 */
	for (unsigned i = 0; i < 6000; i += 50) {
		uint32_t f[50];
		for (unsigned k = 0; k < 50; k++) {
			unsigned n = i + k;
			nvt_m2mf(&t.p, &g, (n * 64) % (60 << 10), 0, &v, (n * 128) % (60 << 10), 0,
				 64, 1);
			if (nvt_submit(&t.p, &f[k]) < 0)
				return 2;
		}
		for (unsigned k = 0; k < 50; k++) {
			int r = nvt_wait(&t.p, f[k]);
			if (r < 0) {
				fprintf(stderr, "bystander: submission %u: %d (%s)\n", i + k, r,
					nvc_error());
				return 3;
			}
		}
	}
	return nvt_buf_check(&v, "the bystander's copies") < 0 ? 4 : 0;
}

static void attack_lose_many(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct nvt_client t;
	(void)h;
	(void)arg;
	setenv("NVT_RING_SOCK", d->sock, 1);
	pid_t pid = nvt_fork(busy_bystander, NULL);
	assert_true(pid > 0);
	open_attacker(d, &t);
	/* as long as the bystander works (at most 300 channels) */
	int st = 0, done = 0;
	for (unsigned i = 0; i < 300 && !(done = nvt_child_done(pid, &st)); i++) {
		struct nvc_chan *ch;
		NVT_OK(nvc_chan_new(t.c, &ch));
		struct nvd_submit_hdr e = hdr(ch, 12);   /* impossible size */
		ring_put(ch, &e, sizeof(e), sizeof(e));
		assert_lost(ch);
		NVT_OK(nvc_chan_free(ch));
	}
	nvt_client_close(&t);
	if (!done)
		st = nvt_wait_child(pid, 60000);
	if (st)
		fail_msg("a channel of another client failed while the attacker's channels were "
			 "lost (bystander exit %d: 3 = a fence said error)", st);
}

static void test_lost_channels_do_not_disturb_a_busy_channel(void **state)
{
	nvt_attack(nvt_d(state), attack_lose_many, NULL);
}

/* ---- clients that die in the middle ---- */

enum death { HEADER_UNPUBLISHED, HEADER_HALF_PUBLISHED, KILLED_AFTER_SUBMIT, KILLED_RING_FULL };

static int dying_client(void *arg)
{
	enum death how = (enum death)(intptr_t)arg;
	const char *sock = getenv("NVT_RING_SOCK");
	struct nvt_client t;
	struct nvt_buf g, v;
	if (nvt_client_open(&t, sock, "dying") < 0 || nvt_finish(&t.p) < 0 ||
	    nvt_buf_new(t.c, 8 << 20, NVC_GART, 7, &g) < 0 ||
	    nvt_buf_new(t.c, 8 << 20, NVC_VRAM, 8, &v) < 0)
		return 1;
	struct nvc_chan *ch = t.ch;
	struct nvd_submit_hdr h = { .size = nvd_submit_size(3, 1, 0), .seq = ch->seq + 1,
				    .nr_bos = 3, .nr_push = 1 };
	switch (how) {
	case HEADER_UNPUBLISHED:
		/* the header is in the ring, the head never moves */
		memcpy(ch->ring + ch->head % NVD_RING_DATA_SIZE, &h, sizeof(h));
		ring_doorbell(ch);
		_exit(0);
	case HEADER_HALF_PUBLISHED:
		memcpy(ch->ring + ch->head % NVD_RING_DATA_SIZE, &h, sizeof(h));
		__atomic_store_n(&ch->ctl->head, ch->head + 8, __ATOMIC_RELEASE);
		ring_doorbell(ch);
		raise(SIGKILL);
		break;
	case KILLED_AFTER_SUBMIT:
		for (unsigned i = 0; i < 4; i++)
			nvt_m2mf(&t.p, &g, 0, 4096, &v, 0, 4096, 4096, NV_M2MF_LINE_COUNT_MAX);
		if (nvt_submit(&t.p, NULL) < 0)
			return 2;
		raise(SIGKILL);
		break;
	case KILLED_RING_FULL:
		/* more submissions than the status slots: nvc_submit blocks at
		 * the limit, so stop short of it and die with all in flight */
		for (unsigned i = 0; i < NVD_FENCE_STATUS - 8; i++) {
			nvt_m2mf(&t.p, &g, 0, 4096, &v, 0, 4096, 4096, 64);
			if (nvt_submit(&t.p, NULL) < 0)
				return 2;
		}
		raise(SIGKILL);
		break;
	}
	return 3;
}

static void attack_dying(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	setenv("NVT_RING_SOCK", d->sock, 1);
	pid_t pid = nvt_fork(dying_client, arg);
	assert_true(pid > 0);
	int st = nvt_wait_child(pid, 20000);
	if (st != 0 && st != 128 + SIGKILL)
		fail_msg("the dying client failed before its death (%d)", st);
}

static void test_disconnect_after_writing_an_entry_header(void **state)
{
	nvt_attack(nvt_d(state), attack_dying, (void *)(intptr_t)HEADER_UNPUBLISHED);
}

static void test_killed_after_publishing_half_an_entry(void **state)
{
	nvt_attack(nvt_d(state), attack_dying, (void *)(intptr_t)HEADER_HALF_PUBLISHED);
}

static void test_killed_right_after_submitting(void **state)
{
	nvt_attack(nvt_d(state), attack_dying, (void *)(intptr_t)KILLED_AFTER_SUBMIT);
}

static void test_killed_with_a_thousand_submissions_in_flight(void **state)
{
	nvt_attack(nvt_d(state), attack_dying, (void *)(intptr_t)KILLED_RING_FULL);
}

/* Entries claiming to be the oldest (stamp 0) or the newest published
 * anything: nvd takes entries oldest first across channels, so the lie only
 * reorders the liar; its entries all run and the honest client, running
 * meanwhile, gets its own bytes. */
static void run_lying_stamps(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct nvt_client t;
	(void)h;
	(void)arg;
	open_attacker(d, &t);
	for (unsigned i = 0; i < 500; i++) {
		struct nvd_submit_hdr e = hdr(t.ch, nvd_submit_size(0, 0, 0));
		e.stamp = i & 1 ? 0 : UINT64_MAX;
		ring_put(t.ch, &e, sizeof(e), sizeof(e));
		t.ch->head += sizeof(e);
		t.ch->seq++;
	}
	NVT_OK(nvc_fence_wait(t.ch, t.ch->seq, 10ll * 1000 * 1000 * 1000));
	assert_int_equal(__atomic_load_n(&t.ch->fence->refused, __ATOMIC_ACQUIRE), 0);
	nvt_client_close(&t);
}

static void test_ring_entries_lying_about_their_age(void **state)
{
	nvt_attack(nvt_d(state), run_lying_stamps, NULL);
}

#define T(name) NVT_TEST(test_##name)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(ring_entry_size_not_a_multiple_of_8),
		T(ring_entry_larger_than_what_is_published),
		T(ring_entry_smaller_than_its_header),
		T(ring_entry_size_zero),
		T(ring_entry_skips_a_sequence_number),
		T(ring_entry_replays_a_sequence_number),
		T(ring_entry_counts_above_the_limits),
		T(ring_entry_size_disagrees_with_its_counts),
		T(ring_entry_with_unknown_flags),
		T(ring_pad_entry_that_does_not_reach_the_end),
		T(ring_head_beyond_the_ring),
		T(ring_head_moved_backwards),
		T(doorbell_flood_without_entries),
		T(ring_entries_lying_about_their_age),
		T(lost_channels_do_not_disturb_a_busy_channel),
		T(shared_memory_cannot_be_truncated_or_made_writable),
		T(ring_and_push_buffer_scribbled_while_the_daemon_reads),
		T(ring_written_after_the_connection_closed),
		T(disconnect_after_writing_an_entry_header),
		T(killed_after_publishing_half_an_entry),
		T(killed_right_after_submitting),
		T(killed_with_a_thousand_submissions_in_flight),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
