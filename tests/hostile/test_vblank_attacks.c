/* Attacks on vblank counts and events (DISP_VBLANK, DISP_VBLANK_EVENT):
 * heads that do not exist, huge and wrapping counts, unknown flags, a
 * master that floods nvd with events beyond its limit, one that never
 * reads the events it asked for, non-masters asking at all.  Each runs
 * beside an honest client whose bytes must be those it has alone; nvd
 * must keep answering everyone, hold no more descriptors than before and
 * leak nothing once the attacker is gone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <poll.h>
#include <sys/socket.h>

#include "proto/proto.h"
#include "tests/lib/nvt-test.h"

struct shown {
	struct nvc *c;
	struct nvc_bo *bo;
	uint32_t fb;
};

/* A master showing a 640x480 framebuffer on head 0 (the default monitor's
 * smallest mode). */
static void show(struct nvt_daemon *d, struct shown *s)
{
	struct nvc_mode m;
	struct nvc_output o;
	NVT_OK(nvc_connect(d->sock, "vblank-attacker", &s->c));
	NVT_OK(nvc_set_master(s->c));
	NVT_OK(nvc_disp_output(s->c, 0, &o));
	NVT_OK(nvc_disp_mode(s->c, 0, o.nmodes - 1, &m));
	assert_int_equal(m.hdisplay, 640);
	NVT_OK(nvc_bo_new(s->c, 640 * 480 * 4, NVC_VRAM, &s->bo));
	NVT_OK(nvc_fb_new(s->c, s->bo, 0, 640, 480, 2560, NVC_FB_XRGB8888, &s->fb));
	struct nvc_head h = { .fb = s->fb, .outputs = 1, .mode = m };
	NVT_OK(nvc_disp_set_head(s->c, 0, &h));
}

/* Another connection is answered, and reads a count that moves. */
static void others_served(struct nvt_daemon *d)
{
	struct nvc *o;
	struct nvc_status st;
	uint64_t s0, s1, t;
	NVT_OK(nvc_connect(d->sock, "bystander", &o));
	NVT_OK(nvc_status(o, &st));
	NVT_OK(nvc_disp_vblank(o, 0, &s0, &t));
	nvt_sleep_ms(100);
	NVT_OK(nvc_disp_vblank(o, 0, &s1, &t));
	if (s1 <= s0)
		fail_msg("head 0's count stood still for 100 ms under the attack (%llu)",
			 (unsigned long long)s0);
	NVT_ERR(nvc_disp_vblank_event(o, 0, NVC_VBLANK_RELATIVE, 1, 1, NULL), -EACCES);
	nvc_close(o);
}

static void attack_hostile_heads_counts_and_flags(struct nvt_daemon *d, struct nvt_honest *h,
						  void *arg)
{
	(void)h, (void)arg;
	struct shown s;
	struct nvc_disp_event ev;
	uint64_t seq, t, tg;
	show(d, &s);
	static const unsigned heads[] = { 1, 2, 7, 0x80000000u, 0xffffffffu };
	for (unsigned i = 0; i < 5; i++) {
		NVT_ERR(nvc_disp_vblank(s.c, heads[i], &seq, &t), -EINVAL);
		NVT_ERR(nvc_disp_vblank_event(s.c, heads[i], NVC_VBLANK_RELATIVE, 1, i, NULL),
			-EINVAL);
	}
	static const unsigned flags[] = { 2, 0x80000000u, 0xffffffffu };
	for (unsigned i = 0; i < 3; i++)
		NVT_ERR(nvc_disp_vblank_event(s.c, 0, flags[i], 1, i, NULL), -EINVAL);
	NVT_OK(nvc_disp_vblank(s.c, 0, &seq, &t));
	/* beyond 2^32 vblanks ahead, or wrapping: refused */
	static const uint64_t rel[] = { (1ull << 32) + 1, 1ull << 63, UINT64_MAX, UINT64_MAX - 1 };
	for (unsigned i = 0; i < 4; i++)
		NVT_ERR(nvc_disp_vblank_event(s.c, 0, NVC_VBLANK_RELATIVE, rel[i], i, NULL), -EINVAL);
	/* seq was read a few calls ago: the last is more than 2^32 ahead even
	 * if a slow host (qemu-user) let 10 s of vblanks pass since */
	const uint64_t abs_[] = { UINT64_MAX, 1ull << 63, seq + (1ull << 32) + 600 };
	for (unsigned i = 0; i < 3; i++)
		NVT_ERR(nvc_disp_vblank_event(s.c, 0, 0, abs_[i], i, NULL), -EINVAL);
	/* absolute 0, long past: at once, with the count */
	NVT_OK(nvc_disp_vblank_event(s.c, 0, 0, 0, 77, &tg));
	assert_true(tg >= seq);
	struct pollfd p = { nvc_disp_event_fd(s.c), POLLIN, 0 };
	assert_int_equal(poll(&p, 1, 3000), 1);
	assert_int_equal(nvc_disp_event_read(s.c, &ev), 1);
	assert_true(ev.user_data == 77 && ev.sequence == tg);
	/* the refused ones took no place: the whole allowance is there */
	for (unsigned i = 0; i < NVC_VBLANK_EVENTS_MAX; i++)
		NVT_OK(nvc_disp_vblank_event(s.c, 0, NVC_VBLANK_RELATIVE, 1u << 30, i, NULL));
	others_served(d);
	nvc_close(s.c);
}

static void test_hostile_heads_counts_and_flags_are_einval(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_hostile_heads_counts_and_flags, NULL, 1);
}

/* 2000 events asked as fast as replies come: NVC_VBLANK_EVENTS_MAX wait,
 * every other is -EMFILE; the master leaves with them waiting. */
static void attack_event_flood(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h, (void)arg;
	struct shown s;
	unsigned ok = 0, refused = 0;
	show(d, &s);
	for (unsigned i = 0; i < 2000; i++) {
		int r = nvc_disp_vblank_event(s.c, 0, NVC_VBLANK_RELATIVE, 100000 + i, i, NULL);
		if (r == 0)
			ok++;
		else if (r == -EMFILE)
			refused++;
		else
			fail_msg("event %u: %d (%s), expected 0 or -EMFILE", i, r, nvc_error());
	}
	print_message("# %u events wait, %u refused\n", ok, refused);
	assert_int_equal(ok, NVC_VBLANK_EVENTS_MAX);
	assert_int_equal(refused, 2000 - NVC_VBLANK_EVENTS_MAX);
	others_served(d);
	nvc_close(s.c);
}

static void test_event_flood_beyond_the_limit_is_emfile(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_event_flood, NULL, 1);
}

/* A master that asks for events at the next vblank, round after round,
 * and never reads them: its event socket fills, nvd drops the rest (and
 * says so) and serves everyone as before. */
static void attack_events_never_read(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h, (void)arg;
	struct shown s;
	uint64_t seq, t, first;
	show(d, &s);
	NVT_OK(nvc_disp_vblank(s.c, 0, &first, &t));
	for (unsigned round = 0; round < 20; round++) {
		for (unsigned i = 0; i < NVC_VBLANK_EVENTS_MAX; i++)
			NVT_OK(nvc_disp_vblank_event(s.c, 0, NVC_VBLANK_RELATIVE, 1, i, NULL));
		/* until they have gone out (or been dropped) */
		int r;
		for (unsigned ms = 0; ms < 3000; ms += 5) {
			r = nvc_disp_vblank_event(s.c, 0, NVC_VBLANK_RELATIVE, 1, 0, NULL);
			if (r != -EMFILE)
				break;
			nvt_sleep_ms(5);
		}
		NVT_OK(r);
		nvt_sleep_ms(20);
	}
	NVT_OK(nvc_disp_vblank(s.c, 0, &seq, &t));
	assert_true(seq >= first + 20);
	others_served(d);
	nvc_close(s.c);
	assert_true(nvt_log_contains(d, "display event dropped"));
}

static void test_events_never_read_are_dropped_not_queued(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_events_never_read, NULL, 1);
}

/* A raw client that is not the master floods DISP_VBLANK_EVENT without
 * reading the replies, then reads them: every one is -EACCES, in order. */
static void attack_non_master_flood(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h, (void)arg;
	struct shown s;
	show(d, &s);
	int fd = nvt_raw_connect(d);
	uint8_t buf[NVD_MSG_MAX];
	struct nvd_req_hello hello = { NVD_PROTO_MAGIC, NVD_PROTO_VERSION, "vblank-flood" };
	struct nvd_msg_hdr hd = { NVD_MSG_HELLO, 1 };
	memcpy(buf, &hd, sizeof(hd));
	memcpy(buf + sizeof(hd), &hello, sizeof(hello));
	assert_true(nvd_sendmsg(fd, buf, sizeof(hd) + sizeof(hello), NULL, 0) > 0);
	for (uint32_t i = 0; i < 200; i++) {
		struct nvd_req_disp_vblank_event rq = { 0, NVD_VBLANK_RELATIVE, 1, i };
		hd = (struct nvd_msg_hdr){ NVD_MSG_DISP_VBLANK_EVENT, 100 + i };
		memcpy(buf, &hd, sizeof(hd));
		memcpy(buf + sizeof(hd), &rq, sizeof(rq));
		assert_true(nvd_sendmsg(fd, buf, sizeof(hd) + sizeof(rq), NULL, 0) > 0);
	}
	for (uint32_t i = 0; i < 201; i++) {
		union { uint8_t b[NVD_MSG_MAX]; struct nvd_reply_hdr r; } in;
		int fds[NVD_MSG_MAX_FDS];
		unsigned nfds = 0;
		struct pollfd p = { fd, POLLIN, 0 };
		assert_int_equal(poll(&p, 1, 5000), 1);
		long n = nvd_recvmsg(fd, in.b, sizeof(in.b), fds, NVD_MSG_MAX_FDS, &nfds);
		assert_true(n >= (long)sizeof(in.r));
		if (i == 0) {
			assert_int_equal(in.r.error, 0);
			continue;
		}
		assert_int_equal(in.r.h.tag, 100 + i - 1);
		assert_int_equal(in.r.error, -EACCES);
	}
	close(fd);
	others_served(d);
	nvc_close(s.c);
}

static void test_non_master_event_flood_is_eacces(void **state)
{
	nvt_attack_fds(nvt_d(state), attack_non_master_flood, NULL, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_hostile_heads_counts_and_flags_are_einval),
		NVT_TEST(test_event_flood_beyond_the_limit_is_emfile),
		NVT_TEST(test_events_never_read_are_dropped_not_queued),
		NVT_TEST(test_non_master_event_flood_is_eacces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
