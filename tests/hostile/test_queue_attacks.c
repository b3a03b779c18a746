/* Attacks on what lies between validation and execution: a submission
 * waits behind the attacker's own long one (a calibrated M2MF load keeps the
 * card busy, so the race is not left to luck) while the attacker changes
 * what the validator judged it against: the meaning of an object handle, the
 * place of a buffer listed twice; and attacks on the daemon's bookkeeping of
 * waiting entries: an entry whose buffer list changes at every look, more
 * submissions in flight than the fence page has slots.  Each runs beside an
 * honest client, whose results must be exactly those it has alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "client/priv.h"        /* the submit ring, for entries libnvd would not write */
#include "proto/ring.h"
#include "tests/lib/nvt-test.h"

/* The attacker: a client with the standard objects and a load for its
 * card time. */
struct attacker {
	struct nvt_client t;
	struct nvt_buf bsrc, bdst;
	uint32_t busy;               /* the load's fence */
};

static void attacker_open(struct attacker *a, struct nvt_daemon *d)
{
	NVT_OK(nvt_client_open(&a->t, d->sock, "queue-attacker"));
	NVT_OK(nvt_finish(&a->t.p));
	NVT_OK(nvt_buf_new(a->t.c, 4u << 20, NVC_VRAM, 11, &a->bsrc));
	NVT_OK(nvt_buf_new(a->t.c, 4u << 20, NVC_VRAM, 12, &a->bdst));
}

/* The card runs the attacker's load for about ms from now on. */
static void attacker_load(struct attacker *a, unsigned ms)
{
	a->busy = nvt_keep_busy(&a->t.p, &a->bsrc, &a->bdst, ms);
	assert_true(a->busy != 0);
}

/* The race ran while the card was still on the load: else it proves nothing. */
static void assert_still_busy(struct attacker *a)
{
	if (nvc_fence_done(a->t.ch, a->busy))
		fail_msg("the card finished the attacker's load before the race was set up: "
			 "the test proves nothing (a slow daemon?)");
}

static void attacker_close(struct attacker *a)
{
	NVT_OK(nvt_wait(&a->t.p, a->busy));
	nvt_buf_free(&a->bsrc);
	nvt_buf_free(&a->bdst);
	nvt_client_close(&a->t);
}

/* ---- 7a: a handle freed and made again while a submission naming it waits ---- */

#define H_VICTIM 0x5a0000eeu

/* A copy src -> dst the validator judges, with words in between that it
 * judges as NV04_PATTERN data, under handle H_VICTIM bound on the M2MF's
 * subchannel.  Were H_VICTIM an M2MF when the card looks it up, the word at
 * 0x30c (PATTERN_SELECT) would be its OFFSET_IN: the copy would read `addr`. */
static uint32_t copy_through_pattern(struct nvt_push *p, struct nvt_buf *src, struct nvt_buf *dst,
				      uint64_t addr)
{
	uint32_t vram = nvc_chan_vram_dma(p->ch), f;
	nvt_ref(p, src->bo, NVC_READ);
	nvt_ref(p, dst->bo, NVC_WRITE);
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, 2);
	nvt_out(p, vram);
	nvt_out(p, vram);
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 7);
	nvt_out(p, (uint32_t)src->addr);
	nvt_out(p, (uint32_t)dst->addr);
	nvt_out(p, 4096);
	nvt_out(p, 4096);
	nvt_out(p, 4096);
	nvt_out(p, 16);
	nvt_out(p, 1 | 1 << 8);
	nvt_mthd(p, NVT_SUBC_M2MF, NV_FIFO_OBJECT, H_VICTIM);
	nvt_mthd(p, NVT_SUBC_M2MF, NV_PATT_PATTERN_SELECT, (uint32_t)addr);
	nvt_mthd(p, NVT_SUBC_M2MF, NV_FIFO_OBJECT, NVT_H_M2MF);
	nvt_mthd(p, NVT_SUBC_M2MF, NV_M2MF_BUF_NOTIFY, 0);
	NVT_OK(nvt_submit(p, &f));
	nvt_ref_m2mf(dst->shadow, 4096, src->shadow, 4096, 4096, 16);
	return f;
}

static void attack_handle_recreated(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)arg;
	struct attacker a;
	struct nvt_buf src, dst;
	attacker_open(&a, d);
	NVT_OK(nvt_buf_new(a.t.c, 65536, NVC_VRAM, 21, &src));
	NVT_OK(nvt_buf_new(a.t.c, 65536, NVC_VRAM, 22, &dst));
	NVT_OK(nvc_obj_new(a.t.ch, H_VICTIM, NV_CLASS_PATT));
	attacker_load(&a, 800);
	uint32_t f = copy_through_pattern(&a.t.p, &src, &dst, h->victim_addr);
	/* Validated (the daemon takes the ring before the request); queued. */
	NVT_OK(nvc_obj_free(a.t.ch, H_VICTIM));
	int made = nvc_obj_new(a.t.ch, H_VICTIM, NV_CLASS_M2MF);
	assert_still_busy(&a);
	NVT_OK(nvt_wait(&a.t.p, f));
	/* The card ran what was validated: the copy read src. */
	if (nvt_buf_check(&dst, "the attacker's copy") < 0)
		fail_msg("the card did not run the copy the validator judged: the handle meant "
			 "something else when it ran");
	NVT_ERR(made, -EBUSY);
	assert_non_null(strstr(nvc_error(), "still queued"));
	/* Once the submission is done the handle is free to use. */
	NVT_OK(nvc_obj_new(a.t.ch, H_VICTIM, NV_CLASS_M2MF));
	NVT_OK(nvc_obj_free(a.t.ch, H_VICTIM));
	nvt_buf_free(&src);
	nvt_buf_free(&dst);
	attacker_close(&a);
}

static void test_handle_freed_and_recreated_while_queued(void **state)
{
	nvt_attack(nvt_d(state), attack_handle_recreated, NULL);
}

/* ---- 7b: one buffer listed twice, the second entry asking for another domain ---- */

static void attack_listed_twice(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct attacker a;
	struct nvt_buf guard0, x, guard1, src, v;
	struct nvc *victim;
	attacker_open(&a, d);
	/* x in VRAM between two others: freed, its range is a hole of its size */
	NVT_OK(nvt_buf_new(a.t.c, 65536, NVC_VRAM, 31, &guard0));
	NVT_OK(nvt_buf_new(a.t.c, 65536, NVC_VRAM, 32, &x));
	NVT_OK(nvt_buf_new(a.t.c, 65536, NVC_VRAM, 33, &guard1));
	NVT_OK(nvt_buf_new(a.t.c, 65536, NVC_GART, 34, &src));
	uint64_t old = x.addr;
	attacker_load(&a, 800);
	/* A copy into x at its VRAM address, x listed as it is (entry 1) and
	 * then asking for GART (entry 2). */
	struct nvt_push *p = &a.t.p;
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, 2);
	nvt_out(p, nvc_chan_gart_dma(a.t.ch));
	nvt_out(p, nvc_chan_vram_dma(a.t.ch));
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 8);
	nvt_out(p, (uint32_t)src.addr);
	nvt_out(p, (uint32_t)old);
	nvt_out(p, 4096);
	nvt_out(p, 4096);
	nvt_out(p, 4096);
	nvt_out(p, 16);
	nvt_out(p, 1 | 1 << 8);
	nvt_out(p, 0);
	struct nvc_bo_ref refs[] = {
		{ src.bo, NVC_READ }, { x.bo, NVC_WRITE }, { x.bo, NVC_READ | NVC_IN_GART },
		{ p->bo, NVC_READ },
	};
	uint32_t words;
	const uint32_t *first = nvc_pushbuf_pending(p->pb, &words);
	struct nvc_push push = { 3, (uint32_t)(first - p->map) * 4, words * 4 };
	struct nvc_submission s = { refs, 4, &push, 1, NULL, 0 };
	uint32_t f;
	NVT_OK(nvc_submit(a.t.ch, &s, &f));
	nvt_taken(p);
	/* Taken (the daemon takes the ring before the request): x is in GART. */
	assert_int_equal(nvc_bo_refresh(x.bo), 1);
	assert_int_equal(nvc_bo_domain(x.bo), NVC_GART);
	/* Someone else gets x's old range meanwhile. */
	NVT_OK(nvc_connect(d->sock, "victim", &victim));
	NVT_OK(nvt_buf_new(victim, 65536, NVC_VRAM, 35, &v));
	if (v.addr != old)
		fail_msg("setup: the victim's buffer is at 0x%llx, not at x's old 0x%llx",
			 (unsigned long long)v.addr, (unsigned long long)old);
	assert_still_busy(&a);
	int r = nvc_fence_wait(a.t.ch, f, 10ll * 1000 * 1000 * 1000);
	if (nvt_buf_check(&v, "the victim's buffer at x's old place") < 0)
		fail_msg("the card wrote through the address of a buffer listed twice, after it moved");
	/* The attacker is told: its copy names an address its buffers no longer have. */
	if (r >= 0)
		fail_msg("the submission was accepted, though its address is no buffer of its");
	nvt_buf_free(&v);
	nvc_close(victim);
	nvt_buf_free(&guard0);
	nvt_buf_free(&x);
	nvt_buf_free(&guard1);
	nvt_buf_free(&src);
	attacker_close(&a);
}

static void test_buffer_listed_twice_with_two_domains(void **state)
{
	nvt_attack(nvt_d(state), attack_listed_twice, NULL);
}

/* Two entries of one buffer, one for VRAM and one for GART: refused. */
static void attack_listed_for_both(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct nvt_client t;
	struct nvt_buf x;
	NVT_OK(nvt_client_open(&t, d->sock, "both-domains"));
	NVT_OK(nvt_finish(&t.p));
	NVT_OK(nvt_buf_new(t.c, 65536, NVC_VRAM, 41, &x));
	struct nvc_bo_ref refs[] = { { x.bo, NVC_WRITE | NVC_IN_VRAM }, { x.bo, NVC_READ | NVC_IN_GART } };
	struct nvc_submission s = { refs, 2, NULL, 0, NULL, 0 };
	uint32_t f;
	NVT_OK(nvc_submit(t.ch, &s, &f));
	NVT_ERR(nvc_fence_wait(t.ch, f, 10ll * 1000 * 1000 * 1000), -EINVAL);
	assert_int_equal(nvc_bo_refresh(x.bo), 0);
	assert_int_equal(nvc_bo_domain(x.bo), NVC_VRAM);
	/* the same entries merge when they agree */
	refs[1].access = NVC_READ | NVC_IN_VRAM;
	NVT_OK(nvc_submit(t.ch, &s, &f));
	NVT_OK(nvc_fence_wait(t.ch, f, 10ll * 1000 * 1000 * 1000));
	nvt_buf_free(&x);
	nvt_client_close(&t);
}

static void test_buffer_listed_for_vram_and_for_gart(void **state)
{
	nvt_attack(nvt_d(state), attack_listed_for_both, NULL);
}

/* ---- 7c: a waiting entry marks more buffers than it may list ---- */

#define MANY 1023

static void ring_doorbell(struct nvc_chan *ch)
{
	uint64_t one = 1;
	if (write(ch->doorbell, &one, sizeof(one)) < 0) {
		/* a saturated counter still wakes the daemon */
	}
}

/* The daemon has looked at every ring: it takes them before a request.
 * (Another connection's: the attacker's own requests wait until its
 * published entries are taken.) */
static void daemon_looked(struct nvc *prober)
{
	struct nvc_status st;
	NVT_OK(nvc_status(prober, &st));
}

static void attack_sync_marks(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct attacker a;
	struct nvc_chan *w;
	struct nvc *prober;
	attacker_open(&a, d);
	NVT_OK(nvc_connect(d->sock, "prober", &prober));
	NVT_OK(nvc_chan_new(a.t.c, &w));
	/* Three sets of buffers the waiting entry lists in turn. */
	static struct nvc_bo *set[3][MANY];
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < MANY; i++)
			NVT_OK(nvc_bo_new(a.t.c, 4096, NVC_GART, &set[k][i]));
	attacker_load(&a, 1500);
	/* An entry on the second channel reading the buffer the load writes:
	 * it waits for the load, and holds back the buffers it lists. */
	static struct nvc_bo_ref refs[1 + MANY];
	refs[0] = (struct nvc_bo_ref){ a.bdst.bo, NVC_READ };
	for (unsigned i = 0; i < MANY; i++)
		refs[1 + i] = (struct nvc_bo_ref){ set[0][i], NVC_WRITE };
	struct nvc_submission s = { refs, 1 + MANY, NULL, 0, NULL, 0 };
	uint32_t pos = w->head % NVD_RING_DATA_SIZE, f;
	NVT_OK(nvc_submit(w, &s, &f));
	daemon_looked(prober);
	assert_int_equal(__atomic_load_n(&w->fence->consumed, __ATOMIC_ACQUIRE), f - 1);
	/* The entry is read again at every look: list other buffers each time. */
	struct nvd_submit_bo *sb = (void *)(w->ring + pos + sizeof(struct nvd_submit_hdr));
	for (unsigned k = 1; k < 3; k++) {
		for (unsigned i = 0; i < MANY; i++)
			sb[1 + i].handle = nvc_bo_handle(set[k][i]);
		ring_doorbell(w);
		daemon_looked(prober);
		if (!nvt_daemon_alive(d))
			fail_msg("nvd died when the waiting entry listed other buffers");
	}
	assert_still_busy(&a);
	NVT_OK(nvc_fence_wait(w, f, 10ll * 1000 * 1000 * 1000));
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < MANY; i++)
			NVT_OK(nvc_bo_free(set[k][i]));
	NVT_OK(nvc_chan_free(w));
	nvc_close(prober);
	attacker_close(&a);
}

static void test_sync_marks_more_buffers_than_its_array(void **state)
{
	nvt_attack(nvt_d(state), attack_sync_marks, NULL);
}

/* ---- more submissions in flight than the fence page has status slots ---- */

static void attack_fence_slots(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	(void)h;
	(void)arg;
	struct attacker a;
	struct nvt_buf x;
	struct nvc *prober;
	attacker_open(&a, d);
	NVT_OK(nvc_connect(d->sock, "prober", &prober));
	NVT_OK(nvt_buf_new(a.t.c, 65536, NVC_GART, 51, &x));
	attacker_load(&a, 1000);
	/* libnvd keeps fewer than NVD_FENCE_STATUS in flight; the ring does not. */
	struct nvc_chan *ch = a.t.ch;
	unsigned n = NVD_FENCE_STATUS + 100;
	uint32_t size = nvd_submit_size(1, 0, 0);
	for (unsigned i = 0; i < n; i++) {
		uint8_t e[64] = { 0 };
		struct nvd_submit_hdr hd = { size, ch->seq + 1, 1, 0, 0, 0, (uint64_t)nvt_now_ns() };
		struct nvd_submit_bo b = { nvc_bo_handle(x.bo), NVD_ACCESS_READ };
		memcpy(e, &hd, sizeof(hd));
		memcpy(e + sizeof(hd), &b, sizeof(b));
		assert_true(ch->head % NVD_RING_DATA_SIZE + size <= NVD_RING_DATA_SIZE);
		memcpy(ch->ring + ch->head % NVD_RING_DATA_SIZE, e, size);
		ch->head += size;
		ch->seq++;
	}
	__atomic_store_n(&ch->ctl->head, ch->head, __ATOMIC_RELEASE);
	ring_doorbell(ch);
	daemon_looked(prober);
	assert_still_busy(&a);
	NVT_OK(nvc_fence_wait(ch, ch->seq, 20ll * 1000 * 1000 * 1000));
	/* Every buffer the submissions held is let go: the load's too. */
	NVT_OK(nvc_bo_wait(a.bdst.bo, NVC_WAIT_NOWAIT | NVC_WAIT_WRITE, 0));
	NVT_OK(nvc_bo_wait(x.bo, NVC_WAIT_NOWAIT | NVC_WAIT_WRITE, 0));
	nvt_buf_free(&x);
	nvc_close(prober);
	attacker_close(&a);
}

static void test_more_submissions_in_flight_than_fence_slots(void **state)
{
	nvt_attack(nvt_d(state), attack_fence_slots, NULL);
}

/* The loads are up to 1.5 s of the attacker's own card time in pieces of
 * up to 4000 copies: on a loaded machine (or under qemu) one piece can
 * outlast the 2 s watchdog, which test_runaway_attacks tests, not these. */
static const char *const no_watchdog[] = { "--gpu-timeout", "0", NULL };

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_handle_freed_and_recreated_while_queued, no_watchdog),
		NVT_TEST_ARGS(test_buffer_listed_twice_with_two_domains, no_watchdog),
		NVT_TEST_ARGS(test_buffer_listed_for_vram_and_for_gart, no_watchdog),
		NVT_TEST_ARGS(test_sync_marks_more_buffers_than_its_array, no_watchdog),
		NVT_TEST_ARGS(test_more_submissions_in_flight_than_fence_slots, no_watchdog),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
