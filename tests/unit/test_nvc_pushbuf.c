/* The push-buffer writer (client/pushbuf.c) alone: the libnvd calls it
 * makes (buffers, nvc_submit, fence waits) are stand-ins here that record
 * each submission, so the words, the buffer list and the relocations it
 * hands over are checked exactly. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "client/priv.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"

/* ---- stand-ins for the rest of libnvd ---- */

#define MAX_SUBMITS 8

struct submitted {
	struct nvc_bo_ref bos[8];
	unsigned nr_bos, nr_push, nr_relocs;
	struct nvc_push push;
	struct nvc_reloc relocs[8];
	uint32_t words[64];
};

static struct submitted subs[MAX_SUBMITS];
static unsigned nsubs, nwaits;
static uint32_t waited_for;
static int submit_result;

int nvc_fail(int err, const char *fmt, ...)
{
	(void)fmt;
	return err;
}

int nvc_bo_new(struct nvc *c, uint64_t size, unsigned domain, struct nvc_bo **out)
{
	struct nvc_bo *bo = calloc(1, sizeof(*bo));
	bo->c = c;
	bo->size = size;
	bo->domain = domain;
	bo->addr = domain == NVC_GART ? 0x10000 : 0x200000;
	*out = bo;
	return 0;
}

void *nvc_bo_map(struct nvc_bo *bo)
{
	if (!bo->map)
		bo->map = calloc(1, bo->size);
	return bo->map;
}

int nvc_bo_free(struct nvc_bo *bo)
{
	free(bo->map);
	free(bo);
	return 0;
}

uint64_t nvc_bo_addr(const struct nvc_bo *bo) { return bo->addr; }
unsigned nvc_bo_domain(const struct nvc_bo *bo) { return bo->domain; }

int nvc_submit(struct nvc_chan *ch, const struct nvc_submission *s, uint32_t *fence)
{
	(void)ch;
	if (submit_result)
		return submit_result;
	assert_true(nsubs < MAX_SUBMITS);
	struct submitted *t = &subs[nsubs++];
	t->nr_bos = s->nr_bos;
	t->nr_push = s->nr_push;
	t->nr_relocs = s->nr_relocs;
	memcpy(t->bos, s->bos, s->nr_bos * sizeof(s->bos[0]));
	memcpy(t->relocs, s->relocs, s->nr_relocs * sizeof(s->relocs[0]));
	if (s->nr_push) {
		t->push = s->push[0];
		const uint8_t *m = s->bos[s->push[0].bo].bo->map;
		for (uint32_t i = 0; i < t->push.length / 4; i++)
			t->words[i] = nv_rd32le(m + t->push.offset + 4 * i);
	}
	*fence = nsubs;
	return 0;
}

static int gone;

int nvc_check(struct nvc *c)
{
	(void)c;
	return gone ? -ENOTCONN : 0;
}

int nvc_fence_wait(struct nvc_chan *ch, uint32_t fence, int64_t timeout_ns)
{
	(void)ch;
	(void)timeout_ns;
	nwaits++;
	waited_for = fence;
	return 0;
}

/* ---- the fixture: a connection, a channel, a VRAM buffer ---- */

static struct nvc conn, other;
static struct nvc_chan chan = { .c = &conn };
static struct nvc_bo *vram;

static int setup(void **state)
{
	(void)state;
	memset(subs, 0, sizeof(subs));
	nsubs = nwaits = waited_for = 0;
	submit_result = 0;
	nvc_bo_new(&conn, 4096, NVC_VRAM, &vram);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	nvc_bo_free(vram);
	return 0;
}

static struct nvc_pushbuf *must_new(uint32_t bytes)
{
	struct nvc_pushbuf *p;
	assert_int_equal(nvc_pushbuf_new(&chan, bytes, &p), 0);
	return p;
}

/* ---- tests ---- */

static void headers_are_hw_pushbuf_words(void **state)
{
	struct nvc_pushbuf *p = must_new(4096);
	uint32_t fence = 0;

	(void)state;
	nvc_pushbuf_mthd(p, 3, NV_IFC_POINT, 1);
	nvc_pushbuf_data(p, 0x12345678);
	nvc_pushbuf_mthd_ni(p, 5, NV_IFC_COLOR, 2);
	nvc_pushbuf_data(p, 1);
	nvc_pushbuf_data(p, 2);
	nvc_pushbuf_raw(p, NV_CMD_RETURN_WORD);
	assert_int_equal(nvc_pushbuf_offset(p), 24);
	assert_int_equal(nvc_pushbuf_kick(p, &fence), 0);
	assert_int_equal(fence, 1);
	assert_int_equal(nvc_pushbuf_fence(p), 1);
	assert_int_equal(nsubs, 1);
	const struct submitted *s = &subs[0];
	assert_int_equal(s->nr_bos, 1);
	assert_ptr_equal(s->bos[0].bo, nvc_pushbuf_bo(p));
	assert_int_equal(s->bos[0].access, NVC_READ);
	assert_int_equal(s->nr_push, 1);
	assert_int_equal(s->push.bo, 0);
	assert_int_equal(s->push.offset, 0);
	assert_int_equal(s->push.length, 24);
	assert_int_equal(s->words[0], NV_CMD_INC_WORD(3, NV_IFC_POINT, 1));
	assert_int_equal(s->words[1], 0x12345678);
	assert_int_equal(s->words[2], NV_CMD_NONINC_WORD(5, NV_IFC_COLOR, 2));
	struct nv_cmd c = nv_cmd_decode(s->words[2]);
	assert_int_equal(c.type, NV_CMD_NONINC);
	assert_int_equal(c.subc, 5);
	assert_int_equal(c.count, 2);
	assert_int_equal(s->words[5], NV_CMD_RETURN_WORD);
	/* nothing pending: no submission, the last fence */
	fence = 0;
	assert_int_equal(nvc_pushbuf_kick(p, &fence), 0);
	assert_int_equal(fence, 1);
	assert_int_equal(nsubs, 1);
	/* the next submission starts where the last ended */
	nvc_pushbuf_mthd(p, 0, NV_M2MF_NOP, 1);
	nvc_pushbuf_data(p, 0);
	uint32_t n;
	const uint32_t *w = nvc_pushbuf_pending(p, &n);
	assert_int_equal(n, 2);
	assert_int_equal(nv_rd32le(w), NV_CMD_INC_WORD(0, NV_M2MF_NOP, 1));
	assert_int_equal(nvc_pushbuf_kick(p, NULL), 0);
	assert_int_equal(subs[1].push.offset, 24);
	assert_int_equal(subs[1].push.length, 8);
	nvc_pushbuf_free(p);
}

static void space_kicks_at_the_boundary_and_wraps(void **state)
{
	struct nvc_pushbuf *p = must_new(64);   /* 16 words */

	(void)state;
	assert_int_equal(nvc_pushbuf_space(p, 14, 1, 0), 0);
	nvc_pushbuf_refn(p, vram, NVC_WRITE);
	nvc_pushbuf_mthd(p, 0, NV_M2MF_NOP, 13);
	for (unsigned i = 0; i < 13; i++)
		nvc_pushbuf_data(p, i);
	/* 14 written: 2 more fit exactly, without a kick */
	assert_int_equal(nvc_pushbuf_space(p, 2, 0, 0), 0);
	assert_int_equal(nsubs, 0);
	/* 3 do not: kick, wait for it, start over at word 0 */
	assert_int_equal(nvc_pushbuf_space(p, 3, 0, 0), 0);
	assert_int_equal(nsubs, 1);
	assert_int_equal(subs[0].push.length, 56);
	assert_int_equal(nwaits, 1);
	assert_int_equal(waited_for, 1);
	assert_int_equal(nvc_pushbuf_offset(p), 0);
	/* out of words only: the list stays for what follows */
	nvc_pushbuf_mthd(p, 0, NV_M2MF_NOP, 1);
	nvc_pushbuf_data(p, 0);
	assert_int_equal(nvc_pushbuf_kick(p, NULL), 0);
	assert_int_equal(subs[1].nr_bos, 2);
	assert_ptr_equal(subs[1].bos[1].bo, vram);
	assert_int_equal(subs[1].push.offset, 0);
	/* an explicit kick empties it */
	nvc_pushbuf_mthd(p, 0, NV_M2MF_NOP, 1);
	nvc_pushbuf_data(p, 0);
	assert_int_equal(nvc_pushbuf_kick(p, NULL), 0);
	assert_int_equal(subs[2].nr_bos, 1);
	/* more than the buffer holds */
	assert_int_equal(nvc_pushbuf_space(p, 17, 0, 0), -E2BIG);
	assert_int_equal(nvc_pushbuf_kick(p, NULL), -E2BIG);
	assert_int_equal(nvc_pushbuf_space(p, 16, 0, 0), 0);
	nvc_pushbuf_free(p);
}

static void relocations_make_the_list_and_words(void **state)
{
	struct nvc_pushbuf *p = must_new(4096);
	struct nvc_bo *gart;

	(void)state;
	nvc_bo_new(&conn, 4096, NVC_GART, &gart);
	gart->addr = 0x1234500000ull;   /* above 4 GiB: LOW and HIGH differ */
	nvc_pushbuf_mthd(p, 0, NV_M2MF_OFFSET_IN, 2);
	nvc_pushbuf_reloc(p, vram, NVC_READ, (struct nvc_reloc){ .flags = NVC_RELOC_LOW,
								 .data = 0x40 });
	nvc_pushbuf_reloc(p, gart, NVC_WRITE | NVC_IN_GART,
			  (struct nvc_reloc){ .flags = NVC_RELOC_HIGH });
	nvc_pushbuf_mthd(p, 0, NV_M2MF_DMA_BUFFER_IN, 2);
	nvc_pushbuf_reloc(p, vram, NVC_WRITE, (struct nvc_reloc){ .flags = NVC_RELOC_OR,
			  .data = 0, .vor = 0xbeef0201, .tor = 0xbeef0202 });
	nvc_pushbuf_reloc(p, gart, NVC_READ, (struct nvc_reloc){ .flags = NVC_RELOC_OR,
			  .data = 0, .vor = 0xbeef0201, .tor = 0xbeef0202 });
	/* as nvd computes it: the low half of address + data, then the OR */
	nvc_pushbuf_mthd(p, 0, NV_M2MF_OFFSET_OUT, 1);
	nvc_pushbuf_reloc(p, vram, NVC_READ, (struct nvc_reloc){
			  .flags = NVC_RELOC_LOW | NVC_RELOC_OR, .data = 0x10, .vor = 1, .tor = 2 });
	assert_int_equal(nvc_pushbuf_kick(p, NULL), 0);
	const struct submitted *s = &subs[0];
	assert_int_equal(s->nr_bos, 3);
	assert_ptr_equal(s->bos[1].bo, vram);
	assert_int_equal(s->bos[1].access, NVC_READ | NVC_WRITE);
	assert_ptr_equal(s->bos[2].bo, gart);
	assert_int_equal(s->bos[2].access, NVC_READ | NVC_WRITE | NVC_IN_GART);
	assert_int_equal(s->words[1], 0x200040);
	assert_int_equal(s->words[2], 0x12);
	assert_int_equal(s->words[4], 0xbeef0201);
	assert_int_equal(s->words[5], 0xbeef0202);
	assert_int_equal(s->words[7], 0x200011);
	assert_int_equal(s->nr_relocs, 5);
	const uint32_t at[] = { 4, 8, 16, 20 }, bo[] = { 1, 2, 1, 2 };
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(s->relocs[i].reloc_bo, 0);
		assert_int_equal(s->relocs[i].offset, at[i]);
		assert_int_equal(s->relocs[i].bo, bo[i]);
	}
	assert_int_equal(s->relocs[0].flags, NVC_RELOC_LOW);
	assert_int_equal(s->relocs[0].data, 0x40);
	assert_int_equal(s->relocs[1].flags, NVC_RELOC_HIGH);
	assert_int_equal(s->relocs[3].vor, 0xbeef0201);
	assert_int_equal(s->relocs[3].tor, 0xbeef0202);
	/* the next submission lists only the push buffer */
	nvc_pushbuf_mthd(p, 0, NV_M2MF_NOP, 1);
	nvc_pushbuf_data(p, 0);
	assert_int_equal(nvc_pushbuf_kick(p, NULL), 0);
	assert_int_equal(subs[1].nr_bos, 1);
	assert_int_equal(subs[1].nr_relocs, 0);
	nvc_bo_free(gart);
	nvc_pushbuf_free(p);
}

static unsigned notified, notified_words;

static void on_kick(struct nvc_pushbuf *p, void *data)
{
	notified += *(unsigned *)data;
	nvc_pushbuf_pending(p, &notified_words);
}

static void notify_before_each_submission_and_refd(void **state)
{
	struct nvc_pushbuf *p = must_new(16);   /* 4 words */
	unsigned one = 1;

	(void)state;
	notified = 0;
	nvc_pushbuf_notify(p, on_kick, &one);
	assert_int_equal(nvc_pushbuf_refd(p, vram), 0);
	assert_int_equal(nvc_pushbuf_refd(p, nvc_pushbuf_bo(p)), NVC_READ);
	nvc_pushbuf_mthd(p, 0, NV_M2MF_OFFSET_IN, 1);
	nvc_pushbuf_reloc(p, vram, NVC_READ, (struct nvc_reloc){ .flags = NVC_RELOC_LOW });
	assert_int_equal(nvc_pushbuf_refd(p, vram), NVC_READ);
	/* the kick of space: the pending words are seen before they go */
	assert_int_equal(nvc_pushbuf_space(p, 3, 0, 0), 0);
	assert_int_equal(notified, 1);
	assert_int_equal(notified_words, 2);
	assert_int_equal(nsubs, 1);
	/* nothing to submit: no call */
	assert_int_equal(nvc_pushbuf_kick(p, NULL), 0);
	assert_int_equal(notified, 1);
	assert_int_equal(nvc_pushbuf_refd(p, vram), 0);
	nvc_pushbuf_mthd(p, 0, NV_M2MF_NOP, 1);
	nvc_pushbuf_data(p, 0);
	assert_int_equal(nvc_pushbuf_kick(p, NULL), 0);
	assert_int_equal(notified, 2);
	nvc_pushbuf_free(p);
}

/* Each error is kept, what follows it ignored, the kick reports it and
 * drops the pending words; the writer then works again. */
static void errors_are_reported_not_crashed(void **state)
{
	struct nvc_pushbuf *p = must_new(4096);
	struct nvc_bo *theirs;

	(void)state;
	nvc_pushbuf_mthd(p, 0, NV_M2MF_NOP, NV_CMD_MAX_COUNT + 1);
	nvc_pushbuf_data(p, 0);
	assert_int_equal(nvc_pushbuf_offset(p), 0);
	assert_int_equal(nvc_pushbuf_kick(p, NULL), -EINVAL);
	assert_int_equal(nsubs, 0);

	nvc_pushbuf_data(p, 0);
	assert_int_equal(nvc_pushbuf_kick(p, NULL), -EINVAL);
	nvc_pushbuf_mthd(p, 0, NV_M2MF_NOP, 1);
	nvc_pushbuf_data(p, 0);
	nvc_pushbuf_data(p, 0);   /* one more than the header counts */
	assert_int_equal(nvc_pushbuf_kick(p, NULL), -EINVAL);
	assert_int_equal(nsubs, 0);

	nvc_bo_new(&other, 4096, NVC_VRAM, &theirs);
	assert_int_equal(nvc_pushbuf_refn(p, theirs, NVC_READ), -EINVAL);
	assert_int_equal(nvc_pushbuf_kick(p, NULL), -EINVAL);
	nvc_pushbuf_mthd(p, 0, NV_M2MF_OFFSET_IN, 1);
	nvc_pushbuf_reloc(p, theirs, NVC_READ, (struct nvc_reloc){ .flags = NVC_RELOC_LOW });
	assert_int_equal(nvc_pushbuf_space(p, 1, 0, 0), -EINVAL);
	assert_int_equal(nvc_pushbuf_kick(p, NULL), -EINVAL);
	assert_int_equal(nsubs, 0);
	nvc_bo_free(theirs);

	/* past the end without asking for room */
	struct nvc_pushbuf *small = must_new(8);
	nvc_pushbuf_mthd(small, 0, NV_M2MF_NOP, 2);
	nvc_pushbuf_data(small, 0);
	nvc_pushbuf_data(small, 0);
	assert_int_equal(nvc_pushbuf_kick(small, NULL), -ENOSPC);
	nvc_pushbuf_free(small);

	/* a refused nvc_submit comes back from the kick */
	nvc_pushbuf_mthd(p, 0, NV_M2MF_NOP, 1);
	nvc_pushbuf_data(p, 0);
	submit_result = -ENOTCONN;
	assert_int_equal(nvc_pushbuf_kick(p, NULL), -ENOTCONN);
	submit_result = 0;
	/* nvd gone: a kick says so with nothing to submit too */
	gone = 1;
	assert_int_equal(nvc_pushbuf_kick(p, NULL), -ENOTCONN);
	gone = 0;

	/* dropped: neither the words nor the list reach the next submission */
	nvc_pushbuf_refn(p, vram, NVC_WRITE);
	nvc_pushbuf_mthd(p, 0, NV_M2MF_NOP, NV_CMD_MAX_COUNT + 1);
	nvc_pushbuf_drop(p);
	assert_int_equal(nvc_pushbuf_refd(p, vram), 0);
	assert_int_equal(nvc_pushbuf_kick(p, NULL), 0);
	assert_int_equal(nsubs, 0);

	/* and after all that it works */
	nvc_pushbuf_mthd(p, 0, NV_M2MF_NOP, 1);
	nvc_pushbuf_data(p, 7);
	assert_int_equal(nvc_pushbuf_kick(p, NULL), 0);
	assert_int_equal(nsubs, 1);
	assert_int_equal(subs[0].push.length, 8);
	assert_int_equal(subs[0].words[1], 7);
	assert_int_equal(nvc_pushbuf_new(&chan, 2, &small), -EINVAL);
	assert_null(small);
	nvc_pushbuf_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(headers_are_hw_pushbuf_words, setup, teardown),
		cmocka_unit_test_setup_teardown(space_kicks_at_the_boundary_and_wraps, setup,
						teardown),
		cmocka_unit_test_setup_teardown(relocations_make_the_list_and_words, setup,
						teardown),
		cmocka_unit_test_setup_teardown(notify_before_each_submission_and_refd, setup,
						teardown),
		cmocka_unit_test_setup_teardown(errors_are_reported_not_crashed, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
