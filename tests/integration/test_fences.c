/* Fences: 0 for work the card ran, the daemon's refusal (-errno) for work
 * it refused, -ETIMEDOUT for a fence that cannot come, -ENODEV once the
 * channel is lost; many submissions in flight, more than the fence page
 * has status slots. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"

static void open_client(struct nvt_daemon *d, struct nvt_client *t)
{
	NVT_OK(nvt_client_open(t, d->sock, "test-fences"));
	NVT_OK(nvt_finish(&t->p));
}

static void test_fence_wait_returns_zero_for_accepted_work(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf g, v;
	uint32_t f;

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_GART, 1, &g));
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_VRAM, 2, &v));
	nvt_m2mf(&t.p, &g, 0, 4096, &v, 0, 4096, 4096, 16);
	NVT_OK(nvt_submit(&t.p, &f));
	NVT_OK(nvt_wait(&t.p, f));
	assert_int_equal(nvc_fence_done(t.ch, f), 1);
	/* waiting again on a completed fence answers at once, the same */
	assert_int_equal(nvc_fence_wait(t.ch, f, 0), 0);
	assert_int_equal(nvt_buf_check(&v, "copy"), 0);
	/* an empty submission still gets a fence */
	NVT_OK(nvt_submit(&t.p, &f));
	NVT_OK(nvt_wait(&t.p, f));
	nvt_client_close(&t);
	nvt_end(d);
}

/* Submit one refused stream; return its fence status. */
static int refused_one(struct nvt_client *t, void (*emit)(struct nvt_push *p, struct nvt_buf *b),
		       struct nvt_buf *b)
{
	uint32_t f;
	emit(&t->p, b);
	NVT_OK(nvt_submit(&t->p, &f));
	return nvt_wait(&t->p, f);
}

static void emit_unknown_method(struct nvt_push *p, struct nvt_buf *b)
{
	(void)b;
	nvt_mthd(p, NVT_SUBC_M2MF, NV_M2MF_BUF_NOTIFY + 0x40, 0);   /* no such M2MF method */
}

/* A one-byte copy from the buffer's first byte to the byte after its end. */
static void emit_past_end(struct nvt_push *p, struct nvt_buf *b)
{
	nvt_ref(p, b->bo, NVC_READ | NVC_WRITE);
	nvt_mthd(p, NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, nvt_dma(p, b));
	nvt_mthd(p, NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_OUT, nvt_dma(p, b));
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 8);
	nvt_out(p, (uint32_t)b->addr);
	nvt_out(p, (uint32_t)(b->addr + b->size));
	for (unsigned i = 0; i < 4; i++)
		nvt_out(p, 1);                  /* pitches, line length, line count */
	nvt_out(p, NV_M2MF_FORMAT(1, 1));
	nvt_out(p, 0);                          /* BUF_NOTIFY: the copy */
}

static void emit_ref_cnt(struct nvt_push *p, struct nvt_buf *b)
{
	(void)b;
	nvt_mthd(p, NVT_SUBC_M2MF, NV_FIFO_REF_CNT, 1);
}

static void test_fence_wait_returns_the_refusal_for_refused_work(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf g, v;
	uint32_t f;

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_GART, 3, &g));
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_VRAM, 4, &v));
	NVT_ERR(refused_one(&t, emit_unknown_method, &v), -EINVAL);
	NVT_ERR(refused_one(&t, emit_past_end, &v), -EFAULT);
	NVT_ERR(refused_one(&t, emit_ref_cnt, &v), -EPERM);
	/* the channel goes on: later work runs and its fence says 0 */
	nvt_m2mf(&t.p, &g, 0, 100, &v, 50, 300, 100, 20);
	NVT_OK(nvt_submit(&t.p, &f));
	NVT_OK(nvt_wait(&t.p, f));
	assert_int_equal(nvt_buf_check(&v, "copy after refusals"), 0);
	nvt_client_close(&t);
	nvt_end(d);
}

/* good, refused, good in flight at once: each fence says its own outcome,
 * and only the good work is done. */
static void test_refused_submission_between_good_ones_in_flight(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf g, v;
	uint32_t f1, f2, f3;

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_GART, 5, &g));
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_VRAM, 6, &v));
	nvt_m2mf(&t.p, &g, 0, 256, &v, 0, 256, 256, 30);
	NVT_OK(nvt_submit(&t.p, &f1));
	/* the refused one would have copied into v: its shadow is not touched */
	nvt_ref(&t.p, g.bo, NVC_READ);
	nvt_ref(&t.p, v.bo, NVC_WRITE);
	nvt_begin(&t.p, NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 8);
	nvt_out(&t.p, (uint32_t)g.addr);
	nvt_out(&t.p, (uint32_t)v.addr);
	nvt_out(&t.p, 4096);
	nvt_out(&t.p, 4096);
	nvt_out(&t.p, 4096);
	nvt_out(&t.p, 17);         /* 17 lines of 4 KiB: past the 64 KiB source */
	nvt_out(&t.p, 1 | 1 << 8);
	nvt_out(&t.p, 0);
	NVT_OK(nvt_submit(&t.p, &f2));
	nvt_m2mf(&t.p, &g, 0x1000, 512, &v, 0x4000, 128, 100, 40);
	NVT_OK(nvt_submit(&t.p, &f3));
	NVT_OK(nvt_wait(&t.p, f3));
	assert_int_equal(nvc_fence_wait(t.ch, f1, 0), 0);
	NVT_ERR(nvc_fence_wait(t.ch, f2, 0), -EFAULT);
	assert_int_equal(nvc_fence_wait(t.ch, f3, 0), 0);
	assert_int_equal(nvt_buf_check(&v, "destination"), 0);
	/* without waiting: the refusal, once */
	uint32_t ef = 0;
	NVT_ERR(nvc_chan_error(t.ch, &ef), -EFAULT);
	assert_int_equal(ef, f2);
	NVT_OK(nvc_chan_error(t.ch, &ef));
	nvt_client_close(&t);
	nvt_end(d);
}

/* 3000 submissions, each one copy to its own place, waited for only at the
 * end: the client's flow control (fewer in flight than status slots) and
 * the daemon's retiring keep up, and every copy lands. */
static void test_many_submissions_in_flight_all_complete(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf g, v;
	enum { N = 3000 };
	static uint32_t fences[N];

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 256 << 10, NVC_GART, 7, &g));
	NVT_OK(nvt_buf_new(t.c, 256 << 10, NVC_VRAM, 8, &v));
	for (unsigned i = 0; i < N; i++) {
		nvt_m2mf(&t.p, &g, (i * 37) % (200 << 10), 0, &v, i * 64, 0, 64, 1);
		NVT_OK(nvt_submit(&t.p, &fences[i]));
		if (i)
			assert_true(fences[i] == fences[i - 1] + 1);
	}
	NVT_OK(nvt_wait(&t.p, fences[N - 1]));
	for (unsigned i = 0; i < N; i++)
		assert_int_equal(nvc_fence_done(t.ch, fences[i]), 1);
	/* the last NVD_FENCE_STATUS statuses are still readable */
	for (unsigned i = N - 100; i < N; i++)
		assert_int_equal(nvc_fence_wait(t.ch, fences[i], 0), 0);
	assert_int_equal(nvt_buf_check(&v, "3000 copies"), 0);
	nvt_client_close(&t);
	nvt_end(d);
}

static void test_fence_wait_times_out_for_a_fence_not_submitted(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;

	open_client(d, &t);
	uint32_t next = nvc_pushbuf_fence(t.p.pb) + 5;
	assert_int_equal(nvc_fence_done(t.ch, next), 0);
	NVT_ERR(nvc_fence_wait(t.ch, next, 20 * 1000 * 1000), -ETIMEDOUT);
	nvt_client_close(&t);
	nvt_end(d);
}

/* Enough refusals lose the channel: its fences then answer -ENODEV, new
 * submissions are refused at once, the client's other channel still works. */
static void test_channel_lost_after_repeated_refusals_answers_enodev(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvc_chan *ch2;
	struct nvt_buf v;
	uint32_t f = 0;
	int r = 0;
	unsigned i;

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_VRAM, 9, &v));
	for (i = 0; i < 64; i++) {
		emit_unknown_method(&t.p, &v);
		if ((r = nvt_submit(&t.p, &f)) < 0)
			break;
		r = nvt_wait(&t.p, f);
		if (r == -ENODEV)
			break;
		NVT_ERR(r, -EINVAL);
	}
	if (r != -ENODEV)
		fail_msg("the channel was not lost after %u refused submissions (last: %d %s)", i, r,
			 nvc_error());
	NVT_ERR(nvc_fence_wait(t.ch, f, 0), -ENODEV);
	emit_unknown_method(&t.p, &v);
	NVT_ERR(nvt_submit(&t.p, &f), -ENODEV);
	/* without waiting: each refusal once, then the loss once */
	uint32_t ef;
	unsigned refusals = 0;
	while ((r = nvc_chan_error(t.ch, &ef)) == -EINVAL)
		refusals++;
	assert_int_equal(refusals, i + 1);
	NVT_ERR(r, -ENODEV);
	NVT_OK(nvc_chan_error(t.ch, &ef));

	NVT_OK(nvc_chan_new(t.c, &ch2));
	struct nvt_push p2;
	struct nvt_buf g;
	NVT_OK(nvt_chan_objects(ch2));
	NVT_OK(nvt_push_init(&p2, t.c, ch2, 65536));
	NVT_OK(nvt_buf_new(t.c, 64 << 10, NVC_GART, 10, &g));
	nvt_bind_standard(&p2);
	nvt_m2mf(&p2, &g, 0, 64, &v, 0, 64, 64, 64);
	NVT_OK(nvt_finish(&p2));
	assert_int_equal(nvt_buf_check(&v, "copy on the second channel"), 0);
	nvt_client_close(&t);
	nvt_end(d);
}

/* A request comes after the submissions published before it, even when they
 * wait for room in the daemon's ring: a buffer freed right after the
 * submission that reads it is still there for it. */
static void test_free_after_a_submission_waiting_for_ring_space(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf g, v, big, src, dst;
	uint32_t f = 0, busy = 0;

	open_client(d, &t);
	nvt_push_fini(&t.p);
	NVT_OK(nvt_push_init(&t.p, t.c, t.ch, 8 << 20));
	nvt_bind_standard(&t.p);
	NVT_OK(nvt_buf_new(t.c, 256 << 10, NVC_GART, 21, &g));
	NVT_OK(nvt_buf_new(t.c, 256 << 10, NVC_VRAM, 22, &v));
	NVT_OK(nvt_buf_new(t.c, 16 << 20, NVC_VRAM, 23, &big));
	NVT_OK(nvt_buf_new(t.c, 4096, NVC_VRAM, 24, &src));
	NVT_OK(nvt_buf_new(t.c, 4096, NVC_VRAM, 25, &dst));
	/* A long job for the card (a hundred copies of 8 MiB, some 60 ms),
	 * then ten submissions of 3000 small copies, 144 KiB of commands each:
	 * more than the daemon's 1 MiB ring holds while the card is busy. */
	for (unsigned i = 0; i < 100; i++)
		nvt_m2mf_cmd(&t.p, &big, 0, 4096, &big, 8 << 20, 4096, 4096, 2047);
	NVT_OK(nvt_submit(&t.p, &busy));
	for (unsigned k = 0; k < 10; k++) {
		for (unsigned i = 0; i < 3000; i++)
			nvt_m2mf_cmd(&t.p, &g, (i & 3) << 16, 4096, &v, 0, 4096, 4096, 16);
		NVT_OK(nvt_submit(&t.p, NULL));
	}
	nvt_m2mf(&t.p, &src, 0, 4096, &dst, 0, 4096, 4096, 1);
	NVT_OK(nvt_submit(&t.p, &f));
	/* the card is still on the long job: the last submissions wait */
	assert_int_equal(nvc_fence_done(t.ch, busy), 0);
	nvt_buf_free(&src);
	assert_int_equal(nvt_wait(&t.p, f), 0);
	assert_int_equal(nvt_buf_check(&dst, "copy from the freed buffer"), 0);
	assert_false(nvt_log_contains(d, "refused"));
	nvt_buf_free(&g);
	nvt_buf_free(&v);
	nvt_buf_free(&big);
	nvt_buf_free(&dst);
	nvt_client_close(&t);
	nvt_end(d);
}

/* An M2MF copy of a page at src (VRAM) into dst, with only dst listed. */
static void copy_unlisted(struct nvt_push *p, uint64_t src, struct nvt_buf *dst)
{
	nvt_space(p, 12);
	nvt_ref(p, dst->bo, NVC_WRITE);
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, 2);
	nvt_out(p, nvc_chan_vram_dma(p->ch));
	nvt_out(p, nvt_dma(p, dst));
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 8);
	nvt_out(p, (uint32_t)src);
	nvt_out(p, (uint32_t)dst->addr);
	nvt_out(p, 4096);
	nvt_out(p, 4096);
	nvt_out(p, 4096);
	nvt_out(p, 1);
	nvt_out(p, 1 | 1 << 8);
	nvt_out(p, 0);
}

/* Mesa's nv30 names an index buffer only by its address, after the
 * submission's list was made, and glDeleteBuffers right after the draw
 * closes the buffer before the draw is submitted.  A buffer its client
 * closes stays reachable by the client's next submission (as a freed
 * buffer's memory on a card keeps its contents), and by no later one. */
static void test_a_closed_buffer_is_there_for_the_next_submission_only(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf src, dst;
	uint32_t f;

	open_client(d, &t);
	NVT_OK(nvt_buf_new(t.c, 4096, NVC_VRAM, 31, &src));
	NVT_OK(nvt_buf_new(t.c, 4096, NVC_VRAM, 32, &dst));
	uint64_t addr = src.addr;
	memcpy(dst.shadow, src.shadow, 4096);
	copy_unlisted(&t.p, addr, &dst);
	nvt_buf_free(&src);
	NVT_OK(nvt_submit(&t.p, &f));
	assert_int_equal(nvt_wait(&t.p, f), 0);
	assert_int_equal(nvt_buf_check(&dst, "copy from the closed buffer"), 0);
	copy_unlisted(&t.p, addr, &dst);
	NVT_OK(nvt_submit(&t.p, &f));
	assert_int_equal(nvt_wait(&t.p, f), -EFAULT);
	assert_true(nvt_log_contains(d, "outside the submitted buffers"));
	nvt_buf_free(&dst);
	nvt_client_close(&t);
	nvt_end(d);
}

/* A client's closed buffers, kept for its next submission, give way to
 * another client's allocation: an idle client keeps no memory that way. */
static void test_closed_buffers_give_way_to_another_client(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	struct nvt_buf bufs[128], big;
	struct nvc *other;
	unsigned n = 0;

	open_client(d, &t);
	/* VRAM is full when a new buffer has to wait in host memory */
	while (n < 128) {
		NVT_OK(nvt_buf_new(t.c, 512u << 10, NVC_VRAM, n, &bufs[n]));
		if (nvc_bo_domain(bufs[n++].bo) == NVC_HOST)
			break;
	}
	assert_true(n > 16 && n < 128);
	for (unsigned i = 0; i < 16; i++)
		nvt_buf_free(&bufs[--n]);
	NVT_OK(nvc_connect(d->sock, "other", &other));
	NVT_OK(nvt_buf_new(other, 4u << 20, NVC_VRAM, 99, &big));
	assert_int_equal(nvc_bo_domain(big.bo), NVC_VRAM);
	nvt_buf_free(&big);
	nvc_close(other);
	while (n)
		nvt_buf_free(&bufs[--n]);
	nvt_client_close(&t);
	nvt_end(d);
}

static const char *const vram32[] = { "--vram", "32", NULL };

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_fence_wait_returns_zero_for_accepted_work),
		NVT_TEST(test_fence_wait_returns_the_refusal_for_refused_work),
		NVT_TEST(test_refused_submission_between_good_ones_in_flight),
		NVT_TEST(test_many_submissions_in_flight_all_complete),
		NVT_TEST(test_fence_wait_times_out_for_a_fence_not_submitted),
		NVT_TEST(test_channel_lost_after_repeated_refusals_answers_enodev),
		NVT_TEST(test_free_after_a_submission_waiting_for_ring_space),
		NVT_TEST(test_a_closed_buffer_is_there_for_the_next_submission_only),
		NVT_TEST_ARGS(test_closed_buffers_give_way_to_another_client, vram32),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
