/* Context switching: nvd runs with --timeslice 4, so PFIFO switches
 * channels every few command words and PGRAPH saves and restores each
 * channel's 2D state in the middle of its streams.  Two channels with
 * different surface formats, pitches and colour formats each set their
 * state once and then run thousands of fills and blits, submitted as
 * several big submissions in flight at the same time; both results must be
 * exact.  A state that leaked from one channel to the other (format, pitch,
 * offset, colour format, M2MF pitches) shows up as wrong bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"

static const char *const timeslice4[] = { "--timeslice", "4", NULL };

/* One channel's stream: a surface filled in fill_fmt with colour format
 * color_fmt and blitted in blit_fmt, set once; afterwards only rectangles. */
struct cs_chan {
	struct nvc_chan *ch;
	struct nvt_push p;
	struct nvt_buf buf;
	struct nvt_surf s;
	unsigned fill_fmt, blit_fmt, color_fmt;
	uint32_t rng;
};

static int cs_open(struct cs_chan *x, struct nvc *c, unsigned bytes_pp, uint32_t w, uint32_t h,
		   uint32_t pitch, unsigned fill_fmt, unsigned blit_fmt, unsigned color_fmt,
		   uint32_t seed)
{
	int r;
	memset(x, 0, sizeof(*x));
	if ((r = nvc_chan_new(c, &x->ch)) < 0 || (r = nvt_chan_objects(x->ch)) < 0 ||
	    (r = nvt_push_init(&x->p, c, x->ch, 2u << 20)) < 0 ||
	    (r = nvt_buf_new(c, (uint64_t)pitch * h, NVC_VRAM, seed, &x->buf)) < 0)
		return r;
	x->s = (struct nvt_surf){ &x->buf, 0, pitch, w, h, fill_fmt, bytes_pp };
	x->fill_fmt = fill_fmt;
	x->blit_fmt = blit_fmt;
	x->color_fmt = color_fmt;
	x->rng = seed;
	nvt_bind_standard(&x->p);
	nvt_surf2d(&x->p, &x->s, &x->s);
	nvt_mthd(&x->p, NVT_SUBC_GDI, NV_GDI_COLOR_FORMAT, color_fmt);
	return 0;
}

/* A submission of n operations: batches of fills, a FORMAT switch, blits
 * (mostly overlapping ones inside the surface), a FORMAT switch back. */
static int cs_submit(struct cs_chan *x, unsigned n)
{
	struct nvt_push *p = &x->p;
	struct nvt_surf *s = &x->s;

	nvt_ref(p, x->buf.bo, NVC_READ | NVC_WRITE);
	for (unsigned i = 0; i < n; i += 20) {
		for (unsigned k = 0; k < 10; k++)
			nvt_fill_rand(p, s, &x->rng, s->w / 3, s->h / 3, NULL);
		if (x->blit_fmt != x->fill_fmt)
			nvt_mthd(p, NVT_SUBC_SURF, NV_SURF2D_FORMAT, x->blit_fmt);
		for (unsigned k = 0; k < 10; k++) {
			uint32_t w = nvt_range(&x->rng, 1, s->w / 2), h = nvt_range(&x->rng, 1, s->h / 2);
			uint32_t sx = nvt_range(&x->rng, 0, s->w - w), sy = nvt_range(&x->rng, 0, s->h - h);
			uint32_t dx = nvt_range(&x->rng, 0, s->w - w), dy = nvt_range(&x->rng, 0, s->h - h);
			nvt_blit(p, s, s, sx, sy, dx, dy, w, h);
		}
		if (x->blit_fmt != x->fill_fmt)
			nvt_mthd(p, NVT_SUBC_SURF, NV_SURF2D_FORMAT, x->fill_fmt);
	}
	return nvt_submit(p, NULL);
}

#define CS_SUBMISSIONS 4
#define CS_OPS         1000

/* Channel A: R5G6B5, 200x150, pitch 448.  Channel B: filled as Y32 and
 * blitted as A8R8G8B8, 160x120, pitch 704.  Channel C (one-client test):
 * Y8, 300x100, pitch 320. */
static int cs_open_a(struct cs_chan *x, struct nvc *c)
{
	return cs_open(x, c, 2, 200, 150, 448, NV_SURF_FORMAT_R5G6B5, NV_SURF_FORMAT_R5G6B5,
		       NV_GDI_COLOR_FORMAT_A16R5G6B5, 1001);
}

static int cs_open_b(struct cs_chan *x, struct nvc *c)
{
	return cs_open(x, c, 4, 160, 120, 704, NV_SURF_FORMAT_Y32, NV_SURF_FORMAT_A8R8G8B8,
		       NV_GDI_COLOR_FORMAT_A8R8G8B8, 2002);
}

static int cs_open_c(struct cs_chan *x, struct nvc *c)
{
	return cs_open(x, c, 1, 300, 100, 320, NV_SURF_FORMAT_Y8, NV_SURF_FORMAT_Y8,
		       NV_GDI_COLOR_FORMAT_A8R8G8B8, 3003);
}

static int cs_child(void *arg)
{
	int (*open_fn)(struct cs_chan *, struct nvc *) = arg;
	const char *sock = getenv("NVT_CS_SOCK");
	struct nvc *c;
	struct cs_chan x;

	if (nvc_connect(sock, "ctxswitch", &c) < 0 || open_fn(&x, c) < 0) {
		fprintf(stderr, "ctxswitch child: setup: %s\n", nvc_error());
		return 1;
	}
	for (unsigned i = 0; i < CS_SUBMISSIONS; i++)
		if (cs_submit(&x, CS_OPS) < 0)
			return 2;
	if (nvt_finish(&x.p) < 0)
		return 3;
	int bad = nvt_buf_check(&x.buf, open_fn == cs_open_a ? "R5G6B5 channel" : "Y32/A8R8G8B8 channel");
	nvc_close(c);
	return bad ? 4 : 0;
}

static void test_ctxswitch_two_clients_different_formats_exact(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	setenv("NVT_CS_SOCK", d->sock, 1);
	pid_t a = nvt_fork(cs_child, (void *)cs_open_a);
	pid_t b = nvt_fork(cs_child, (void *)cs_open_b);
	assert_true(a > 0 && b > 0);
	int ra = nvt_wait_child(a, 60000), rb = nvt_wait_child(b, 60000);
	if (ra || rb)
		fail_msg("R5G6B5 client exited %d, Y32/A8R8G8B8 client exited %d (1 setup, 2 submit, "
			 "3 fence, 4 wrong bytes)", ra, rb);
	nvt_end(d);
}

static void test_ctxswitch_two_channels_one_client_interleaved_exact(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *c;
	struct cs_chan a, b, y;

	NVT_OK(nvc_connect(d->sock, "ctxswitch", &c));
	NVT_OK(cs_open_a(&a, c));
	NVT_OK(cs_open_b(&b, c));
	NVT_OK(cs_open_c(&y, c));
	/* A1 B1 C1 A2 B2 C2 ...: all in flight together */
	for (unsigned i = 0; i < CS_SUBMISSIONS; i++) {
		NVT_OK(cs_submit(&a, CS_OPS));
		NVT_OK(cs_submit(&b, CS_OPS));
		NVT_OK(cs_submit(&y, CS_OPS));
	}
	NVT_OK(nvt_finish(&a.p));
	NVT_OK(nvt_finish(&b.p));
	NVT_OK(nvt_finish(&y.p));
	int ba = nvt_buf_check(&a.buf, "R5G6B5 channel");
	int bb = nvt_buf_check(&b.buf, "Y32/A8R8G8B8 channel");
	int by = nvt_buf_check(&y.buf, "Y8 channel");
	assert_int_equal(ba, 0);
	assert_int_equal(bb, 0);
	assert_int_equal(by, 0);
	nvc_close(c);
	nvt_end(d);
}

/* M2MF: each channel sets pitches, line length, line count and format once
 * and then only moves the offsets; a switch that lost any of them shows. */
struct m2_chan {
	struct nvc_chan *ch;
	struct nvt_push p;
	struct nvt_buf src, dst;
	uint32_t spitch, dpitch, len, lines;
};

static void m2_open(struct m2_chan *x, struct nvc *c, uint32_t spitch, uint32_t dpitch,
		    uint32_t len, uint32_t lines, uint32_t seed)
{
	memset(x, 0, sizeof(*x));
	NVT_OK(nvc_chan_new(c, &x->ch));
	NVT_OK(nvt_chan_objects(x->ch));
	NVT_OK(nvt_push_init(&x->p, c, x->ch, 1u << 20));
	NVT_OK(nvt_buf_new(c, 256 << 10, NVC_GART, seed, &x->src));
	NVT_OK(nvt_buf_new(c, 256 << 10, NVC_VRAM, seed + 1, &x->dst));
	x->spitch = spitch;
	x->dpitch = dpitch;
	x->len = len;
	x->lines = lines;
	struct nvt_push *p = &x->p;
	nvt_bind_standard(p);
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, 2);
	nvt_out(p, nvt_dma(p, &x->src));
	nvt_out(p, nvt_dma(p, &x->dst));
	nvt_ref(p, x->src.bo, NVC_READ);
	nvt_ref(p, x->dst.bo, NVC_WRITE);
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 7);
	nvt_out(p, (uint32_t)x->src.addr);
	nvt_out(p, (uint32_t)x->dst.addr);
	nvt_out(p, spitch);
	nvt_out(p, dpitch);
	nvt_out(p, len);
	nvt_out(p, lines);
	nvt_out(p, 1 | 1 << 8);
}

static void m2_submit(struct m2_chan *x, unsigned n, uint32_t *rng)
{
	struct nvt_push *p = &x->p;
	uint32_t sext = (x->lines - 1) * x->spitch + x->len, dext = (x->lines - 1) * x->dpitch + x->len;
	nvt_ref(p, x->src.bo, NVC_READ);
	nvt_ref(p, x->dst.bo, NVC_WRITE);
	for (unsigned i = 0; i < n; i++) {
		uint32_t so = nvt_range(rng, 0, (uint32_t)x->src.size - sext);
		uint32_t dof = nvt_range(rng, 0, (uint32_t)x->dst.size - dext);
		nvt_space(p, 5);
		nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 2);
		nvt_out(p, (uint32_t)x->src.addr + so);
		nvt_out(p, (uint32_t)x->dst.addr + dof);
		nvt_mthd(p, NVT_SUBC_M2MF, NV_M2MF_BUF_NOTIFY, 0);
		nvt_ref_m2mf(x->dst.shadow + dof, x->dpitch, x->src.shadow + so, x->spitch, x->len,
			     x->lines);
	}
	NVT_OK(nvt_submit(p, NULL));
}

static void test_ctxswitch_m2mf_state_set_once_survives(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *c;
	struct m2_chan a, b;
	uint32_t rng = 99;

	NVT_OK(nvc_connect(d->sock, "ctxswitch-m2mf", &c));
	m2_open(&a, c, 640, 256, 200, 30, 11);
	m2_open(&b, c, 100, 1024, 96, 7, 22);
	for (unsigned i = 0; i < 4; i++) {
		m2_submit(&a, 500, &rng);
		m2_submit(&b, 500, &rng);
	}
	NVT_OK(nvt_finish(&a.p));
	NVT_OK(nvt_finish(&b.p));
	int ba = nvt_buf_check(&a.dst, "channel A (pitches 640/256, 200 x 30)");
	int bb = nvt_buf_check(&b.dst, "channel B (pitches 100/1024, 96 x 7)");
	assert_int_equal(ba, 0);
	assert_int_equal(bb, 0);
	nvc_close(c);
	nvt_end(d);
}

/* The card shares itself between channels: a short submission on one
 * channel completes while a long one on another is still running.  (The
 * simulator switches at its own scheduling steps as well, so this holds
 * with nouveau's default timeslice too.) */
static void test_short_submission_overtakes_a_long_one_on_another_channel(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *c;
	struct cs_chan a, b;

	NVT_OK(nvc_connect(d->sock, "timeslice", &c));
	NVT_OK(cs_open(&a, c, 4, 256, 256, 1024, NV_SURF_FORMAT_Y32, NV_SURF_FORMAT_Y32,
		       NV_GDI_COLOR_FORMAT_A8R8G8B8, 1));
	NVT_OK(cs_open(&b, c, 2, 64, 64, 128, NV_SURF_FORMAT_R5G6B5, NV_SURF_FORMAT_R5G6B5,
		       NV_GDI_COLOR_FORMAT_A16R5G6B5, 2));
	NVT_OK(nvt_finish(&a.p));
	NVT_OK(nvt_finish(&b.p));
	/* A: 3000 fills of the whole 256 KiB surface; each hides the last */
	uint32_t fa, fb, color = 0;
	nvt_ref(&a.p, a.buf.bo, NVC_WRITE);
	for (unsigned i = 0; i < 3000; i++) {
		color = 0x01010101u * (i & 0xff) ^ i << 8;
		nvt_mthd(&a.p, NVT_SUBC_GDI, NV_GDI_COLOR1_A, color);
		nvt_begin(&a.p, NVT_SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2);
		nvt_out(&a.p, 0);
		nvt_out(&a.p, 256u << 16 | 256);
	}
	nvt_ref_fill(a.buf.shadow, 1024, 4, 0, 0, 256, 256, color);
	NVT_OK(nvt_submit(&a.p, &fa));
	/* B: one small fill, submitted after A */
	nvt_fill(&b.p, &b.s, NV_GDI_COLOR_FORMAT_A16R5G6B5, 0xbeef, 3, 4, 20, 10);
	NVT_OK(nvt_submit(&b.p, &fb));
	NVT_OK(nvt_wait(&b.p, fb));
	int a_done = nvc_fence_done(a.ch, fa);
	NVT_OK(nvt_wait(&a.p, fa));
	assert_int_equal(nvt_buf_check(&a.buf, "long channel"), 0);
	assert_int_equal(nvt_buf_check(&b.buf, "short channel"), 0);
	if (a_done)
		fail_msg("the short submission completed only after the long one: the card "
			 "did not switch channels");
	nvc_close(c);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_ctxswitch_two_clients_different_formats_exact, timeslice4),
		NVT_TEST_ARGS(test_ctxswitch_two_channels_one_client_interleaved_exact, timeslice4),
		NVT_TEST_ARGS(test_ctxswitch_m2mf_state_set_once_survives, timeslice4),
		NVT_TEST_ARGS(test_short_submission_overtakes_a_long_one_on_another_channel, timeslice4),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
