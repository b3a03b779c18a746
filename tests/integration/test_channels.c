/* Channels: a client may open its NVD_CLIENT_CHANS (32), more than the
 * card's 30 hardware channels for clients; each one works; the next request
 * fails with -EBUSY and a message naming the client's limit; a freed
 * channel can be had again.  Object handles: every one nouveau's clients
 * use is free on a channel, nvd's are not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/nvt-test.h"

#define NVD_HELLO_DEADLINE_S 10   /* nvd/nvd.h NVD_HELLO_TIMEOUT_S; tests include no daemon header */

#define MAX_CHANS 64

/* A small M2MF on the channel: 3 lines of 100 bytes, checked. */
static void small_copy(struct nvc *c, struct nvc_chan *ch, uint32_t seed)
{
	struct nvt_push p;
	struct nvt_buf g, v;

	NVT_OK(nvc_obj_new(ch, NVT_H_M2MF, NV_CLASS_M2MF));
	NVT_OK(nvt_push_init(&p, c, ch, 4096));
	NVT_OK(nvt_buf_new(c, 4096, NVC_GART, seed, &g));
	NVT_OK(nvt_buf_new(c, 4096, NVC_VRAM, seed + 1, &v));
	nvt_mthd(&p, NVT_SUBC_M2MF, NV_FIFO_OBJECT, NVT_H_M2MF);
	nvt_m2mf(&p, &g, seed % 64, 128, &v, 64, 200, 100, 3);
	NVT_OK(nvt_finish(&p));
	if (nvt_buf_check(&v, "small copy") < 0)
		fail_msg("the M2MF copy on channel %u is wrong", seed);
	nvt_buf_free(&g);
	nvt_buf_free(&v);
	nvt_push_fini(&p);
}

static void test_channels_until_exhausted_each_works_next_is_ebusy(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *c, *other;
	struct nvc_chan *ch[MAX_CHANS], *extra;
	struct nvc_status st;
	unsigned n = 0;

	NVT_OK(nvc_connect(d->sock, "greedy", &c));
	int r;
	while (n < MAX_CHANS && (r = nvc_chan_new(c, &ch[n])) == 0)
		n++;
	/* more than the card has, then a clear refusal */
	NVT_OK(nvc_status(c, &st));
	assert_int_equal(n, 32);
	assert_true(n > st.hw_channels);
	NVT_ERR(r, -EBUSY);
	if (!strstr(nvc_error(), "channels a client may open"))
		fail_msg("the refusal does not name the client's limit: \"%s\"", nvc_error());
	assert_int_equal(st.channels_used, n);
	assert_true(st.hw_channels_used < n);
	for (unsigned i = 0; i < n; i++)
		small_copy(c, ch[i], i);

	/* another client is not refused: the card's channels are shared */
	NVT_OK(nvc_connect(d->sock, "late", &other));
	NVT_OK(nvc_chan_new(other, &extra));
	small_copy(other, extra, 1000);
	/* one freed: the greedy client gets one again and it works */
	NVT_OK(nvc_chan_free(ch[n / 2]));
	NVT_OK(nvc_chan_new(c, &ch[n / 2]));
	small_copy(c, ch[n / 2], 2000);
	NVT_ERR(nvc_chan_new(c, &extra), -EBUSY);
	nvc_close(other);
	nvc_close(c);
	nvt_end(d);
}

/* Channels freed one by one give their hardware channel back every time. */
static void test_channel_open_close_cycles_do_not_leak_hardware_channels(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *c;
	struct nvc_status st;

	NVT_OK(nvc_connect(d->sock, "cycler", &c));
	NVT_OK(nvc_status(c, &st));
	for (unsigned i = 0; i < 3 * st.channels_total; i++) {
		struct nvc_chan *ch;
		NVT_OK(nvc_chan_new(c, &ch));
		if (i % 10 == 0)
			small_copy(c, ch, i);
		NVT_OK(nvc_chan_free(ch));
	}
	nvc_close(c);
	nvt_end(d);
}

/* The HELLO deadline ends with HELLO: a greeted client may stay idle for
 * longer than it and keep its connection (a GL program between frames). */
static void test_idle_client_past_the_hello_deadline_stays(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *c;
	struct nvc_status st;
	NVT_OK(nvc_connect(d->sock, "idle", &c));
	sleep(NVD_HELLO_DEADLINE_S + 1);
	NVT_OK(nvc_status(c, &st));
	assert_int_equal(st.clients, 1);
	nvc_close(c);
	nvt_end(d);
}

/* The handles nouveau's own clients name, with their classes (read from Mesa
 * 22.3's nv30_screen.c and xf86-video-nouveau's nv_dma.h and
 * nv_accel_common.c): all of them on one channel, beside nvd's own objects.
 * A handle nvd keeps is refused with a message saying so. */
static void test_nouveau_clients_handles_are_free_and_nvds_are_reserved(void **state)
{
	static const struct { uint32_t handle, cls; } mesa[] = {
		{ 0x00000000, NV_CLASS_NULL_OBJ }, { 0xbeef3097, NV_CLASS_CURIE_NV40 },
		{ 0xbeef3901, NV_CLASS_M2MF },     { 0xbeef6201, NV_CLASS_SURF2D },
		{ 0xbeef5201, NV_CLASS_SWZSURF },  { 0xbeef7701, NV_CLASS_SIFM },
	}, ddx[] = {
		{ 0x00000000, NV_CLASS_NULL_OBJ }, { 0x80000010, NV_CLASS_SURF2D },
		{ 0x80000011, NV_CLASS_ROP },      { 0x80000012, NV_CLASS_PATT },
		{ 0x80000013, NV_CLASS_CLIP },     { 0x80000015, NV_CLASS_BLIT },
		{ 0x80000016, NV_CLASS_GDI },      { 0x80000017, NV_CLASS_SIFM },
		{ 0x80000018, NV_CLASS_M2MF },     { 0x80000019, NV_CLASS_CURIE_NV40 },
		{ 0x8000001a, NV_CLASS_IFC },      { 0x8000001b, NV_CLASS_BETA1 },
		{ 0x8000001c, NV_CLASS_BETA4 },
	};
	struct nvt_daemon *d = nvt_d(state);
	struct nvc *c;
	struct nvc_chan *m, *x;
	NVT_OK(nvc_connect(d->sock, "handles", &c));
	NVT_OK(nvc_chan_new(c, &m));
	NVT_OK(nvc_chan_new(c, &x));
	for (unsigned i = 0; i < sizeof(mesa) / sizeof(*mesa); i++)
		NVT_OK(nvc_obj_new(m, mesa[i].handle, mesa[i].cls));
	for (unsigned i = 0; i < sizeof(ddx) / sizeof(*ddx); i++)
		NVT_OK(nvc_obj_new(x, ddx[i].handle, ddx[i].cls));
	/* the notifiers' ctxdmas: Mesa's fence, sync and query, the DDX's */
	struct nvc_bo *bo;
	NVT_OK(nvc_bo_new(c, 4096, NVC_GART, &bo));
	NVT_OK(nvc_dma_new(m, 0xbeef1e00, bo, 0, 32, NV_CLASS_DMA_IN_MEMORY, 0));
	NVT_OK(nvc_dma_new(m, 0xbeef0301, bo, 32, 32, NV_CLASS_DMA_IN_MEMORY, 0));
	NVT_OK(nvc_dma_new(m, 0xbeef0351, bo, 128, 4096 - 128, NV_CLASS_DMA_IN_MEMORY, 0));
	NVT_OK(nvc_dma_new(x, 0xd8000003, bo, 0, 32, NV_CLASS_DMA_IN_MEMORY, 0));
	assert_int_equal(nvc_chan_vram_dma(m), 0xbeef0201);
	assert_int_equal(nvc_chan_gart_dma(m), 0xbeef0202);
	/* the channels work with them */
	small_copy(c, m, 7);
	for (uint32_t h = NVC_HANDLE_NVD_FIRST; h <= NVC_HANDLE_NVD_LAST; h += 0x33) {
		NVT_ERR(nvc_obj_new(m, h, NV_CLASS_M2MF), -EEXIST);
		if (!strstr(nvc_error(), "reserved by nvd"))
			fail_msg("handle 0x%08x: \"%s\" does not say nvd keeps it", h, nvc_error());
	}
	nvc_close(c);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_channels_until_exhausted_each_works_next_is_ebusy),
		NVT_TEST(test_channel_open_close_cycles_do_not_leak_hardware_channels),
		NVT_TEST(test_idle_client_past_the_hello_deadline_stays),
		NVT_TEST(test_nouveau_clients_handles_are_free_and_nvds_are_reserved),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
