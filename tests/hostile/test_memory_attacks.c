/* Attacks on the memory manager, on a card with little room (--vram 32
 * --gart 48), each beside an honest client whose bytes must equal a run
 * alone: a client that fills its quota with idle buffers, one that makes
 * the daemon evict as fast as it can while the honest one's submissions
 * are queued, one that tries to push another's pinned buffers (scanout, a
 * ctxdma's) out of VRAM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tests/lib/nvt-test.h"

#define MIB (1u << 20)

static uint64_t evicted(struct nvc *c, const char *name)
{
	struct nvc_client row;
	unsigned count = 1;
	for (unsigned i = 0; i < count; i++) {
		NVT_OK(nvc_client_at(c, i, &row, &count));
		if (!strcmp(row.name, name))
			return row.evicted;
	}
	fail_msg("no client called %s", name);
	return 0;
}

/* A client holds its whole quota in buffers it used once and then left
 * idle: VRAM, GART and more.  Another client still allocates and draws,
 * exactly, because the idle buffers move out of its way. */
static void test_quota_hog_with_idle_buffers(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	uint8_t *ref, *got;
	size_t reflen, gotlen;
	struct nvt_client hog;
	struct nvt_buf b[64];
	unsigned n = 0;

	NVT_OK(nvt_honest_alone(d, 7, &ref, &reflen));
	NVT_OK(nvt_client_open_mesa(&hog, d->sock, "hog"));
	/* 1 MiB each until the quota says no */
	while (n < 64 && nvt_buf_new(hog.c, MIB, NVC_VRAM, n, &b[n]) == 0) {
		nvt_touch_vram(&hog.p, &b[n++]);
		NVT_OK(nvt_finish(&hog.p));
	}
	assert_true(n > 40 && n < 64);
	uint64_t before = evicted(hog.c, "hog");
	struct nvt_honest h;
	NVT_OK(nvt_honest_start(&h, d, 7));
	NVT_OK(nvt_honest_go(&h));
	NVT_OK(nvt_honest_finish(&h, &got, &gotlen));
	nvt_assert_same_bytes(ref, reflen, got, gotlen, "the honest client's buffers");
	assert_true(evicted(hog.c, "hog") > before);
	free(ref);
	free(got);
	while (n)
		nvt_buf_free(&b[--n]);
	nvt_client_close(&hog);
	nvt_end(d);
}

/* Four buffers of 4 MiB and a bit, nearly all of the clients' VRAM (16.5
 * MiB), used together
 * in every submission, the oldest replaced each round: whatever else is in
 * VRAM and idle, the honest client's buffers included, is evicted again
 * and again between (and while it queues) its submissions. */
static void churn(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	struct nvt_client t;
	struct nvt_buf b[4];
	(void)h;
	(void)arg;
	NVT_OK(nvt_client_open_mesa(&t, d->sock, "churn"));
	for (unsigned i = 0; i < 4; i++)
		NVT_OK(nvt_buf_new(t.c, 4160u << 10, NVC_VRAM, i, &b[i]));
	for (unsigned r = 4; r < 40; r++) {
		for (unsigned i = 0; i < 4; i++)
			nvt_touch_vram(&t.p, &b[i]);
		NVT_OK(nvt_finish(&t.p));
		assert_int_equal(nvt_buf_check(&b[r % 4], "the attacker's own buffer"), 0);
		nvt_buf_free(&b[r % 4]);
		NVT_OK(nvt_buf_new(t.c, 4160u << 10, NVC_VRAM, r, &b[r % 4]));
	}
	for (unsigned i = 0; i < 4; i++)
		nvt_buf_free(&b[i]);
	struct nvc_status st;
	NVT_OK(nvc_status(t.c, &st));
	assert_true(st.evictions > 0);
	nvt_client_close(&t);
}

static void test_evictions_racing_queued_submissions(void **state)
{
	nvt_attack(nvt_d(state), churn, NULL);
}

/* The smallest mode of output 0. */
static struct nvc_mode small_mode(struct nvc *c)
{
	struct nvc_output o;
	struct nvc_mode m, best = { 0 };
	NVT_OK(nvc_disp_output(c, 0, &o));
	for (unsigned i = 0; i < o.nmodes; i++) {
		NVT_OK(nvc_disp_mode(c, 0, i, &m));
		if (!best.hdisplay || m.hdisplay * m.vdisplay < best.hdisplay * best.vdisplay)
			best = m;
	}
	return best;
}

/* A master shows a framebuffer and writes through a ctxdma over a buffer;
 * another client makes the daemon want all of VRAM.  Neither buffer moves:
 * the head shows the same picture, the ctxdma still reaches its buffer. */
static void test_pinned_buffers_stay_under_pressure(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client v, a;
	struct nvt_buf scan, note, src, idle;
	uint32_t fb, *px0, *px1, w0, h0, w1, h1;

	NVT_OK(nvt_client_open_mesa(&v, d->sock, "victim"));
	NVT_OK(nvc_set_master(v.c));
	struct nvc_mode m = small_mode(v.c);
	uint32_t pitch = m.hdisplay * 4u;
	NVT_OK(nvt_buf_new(v.c, (uint64_t)pitch * m.vdisplay, NVC_VRAM, 1, &scan));
	NVT_OK(nvc_fb_new(v.c, scan.bo, 0, m.hdisplay, m.vdisplay, pitch, NVC_FB_XRGB8888, &fb));
	struct nvc_head hd = { .fb = fb, .outputs = 1, .mode = m };
	NVT_OK(nvc_disp_set_head(v.c, 0, &hd));
	NVT_OK(nvt_buf_new(v.c, 64u << 10, NVC_VRAM, 2, &note));
	NVT_OK(nvc_dma_new(v.ch, 0x5a00d000, note.bo, 0, note.size, NV_CLASS_DMA_IN_MEMORY, 0));
	NVT_OK(nvt_buf_new(v.c, 64u << 10, NVC_GART, 3, &src));
	/* and a buffer it used once, which may move */
	NVT_OK(nvt_buf_new(v.c, 2 * MIB, NVC_VRAM, 4, &idle));
	nvt_touch_vram(&v.p, &idle);
	NVT_OK(nvt_finish(&v.p));
	NVT_OK(nvc_bo_refresh(idle.bo));
	assert_int_equal(nvc_bo_domain(idle.bo), NVC_VRAM);
	NVT_OK(nvc_bo_refresh(scan.bo));
	NVT_OK(nvc_bo_refresh(note.bo));
	uint64_t scan_at = nvc_bo_addr(scan.bo), note_at = nvc_bo_addr(note.bo);
	NVT_OK(nvc_disp_screenshot(v.c, 0, &px0, &w0, &h0));

	/* 14 MiB in VRAM at once, twice: with the pinned ones, more than the
	 * clients' 16.5 MiB unless the idle buffer goes */
	NVT_OK(nvt_client_open_mesa(&a, d->sock, "pressure"));
	for (unsigned r = 0; r < 2; r++) {
		struct nvt_buf b[7];
		for (unsigned i = 0; i < 7; i++) {
			NVT_OK(nvt_buf_new(a.c, 2 * MIB, NVC_VRAM, 10 + i, &b[i]));
			nvt_touch_vram(&a.p, &b[i]);
		}
		NVT_OK(nvt_finish(&a.p));
		for (unsigned i = 0; i < 7; i++)
			nvt_buf_free(&b[i]);
	}
	assert_int_equal(nvc_bo_refresh(idle.bo), 1);
	assert_int_not_equal(nvc_bo_domain(idle.bo), NVC_VRAM);
	assert_int_equal(nvc_bo_refresh(scan.bo), 0);
	assert_int_equal(nvc_bo_refresh(note.bo), 0);
	assert_int_equal(nvc_bo_addr(scan.bo), scan_at);
	assert_int_equal(nvc_bo_addr(note.bo), note_at);
	NVT_OK(nvc_disp_screenshot(v.c, 0, &px1, &w1, &h1));
	assert_int_equal(w0, w1);
	assert_int_equal(h0, h1);
	assert_memory_equal(px0, px1, (size_t)w0 * h0 * 4);
	/* the ctxdma still names the buffer: a copy through it lands there */
	nvt_ref(&v.p, src.bo, NVC_READ);
	nvt_ref(&v.p, note.bo, NVC_WRITE);
	nvt_begin(&v.p, NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, 2);
	nvt_out_dma(&v.p, &src);
	nvt_out(&v.p, 0x5a00d000);
	nvt_begin(&v.p, NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 8);
	nvt_out_addr(&v.p, &src, 0);
	nvt_out(&v.p, 0);
	for (unsigned i = 0; i < 3; i++)
		nvt_out(&v.p, 4096);
	nvt_out(&v.p, 16);
	nvt_out(&v.p, 1 | 1 << 8);
	nvt_out(&v.p, 0);
	NVT_OK(nvt_finish(&v.p));
	memcpy(note.shadow, src.shadow, 16 * 4096);
	assert_int_equal(nvt_buf_check(&note, "the buffer under the ctxdma"), 0);
	nvt_touch_vram(&v.p, &idle);
	NVT_OK(nvt_finish(&v.p));
	assert_int_equal(nvt_buf_check(&idle, "the idle buffer, back"), 0);
	free(px0);
	free(px1);
	nvt_buf_free(&idle);
	nvt_buf_free(&src);
	nvt_buf_free(&note);
	nvt_buf_free(&scan);
	nvt_client_close(&a);
	nvt_client_close(&v);
	nvt_end(d);
}

static const char *const small[] = { "--vram", "32", "--gart", "48", "--quota", "48", NULL };

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_quota_hog_with_idle_buffers, small),
		NVT_TEST_ARGS(test_evictions_racing_queued_submissions, small),
		NVT_TEST_ARGS(test_pinned_buffers_stay_under_pressure, small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
