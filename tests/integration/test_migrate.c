/* Buffers move between VRAM and GART when a submission needs them in one
 * (NVC_IN_VRAM / NVC_IN_GART, DRM's valid domains, which Mesa relies on):
 * the memory stays the client's memfd, the card reaches it at the new
 * address through the submission's relocations, the accounting follows,
 * the old address stops being usable, and a buffer a ctxdma covers stays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hw/ramin.h"
#include "tests/lib/nvt-test.h"

/* M2MF copy of len bytes from src (GART) to dst through the ctxdma of
 * dst_domain, dst's address patched by a relocation (or written as-is when
 * reloc is 0), dst listed with dst_access.  The fence's result. */
static int copy(struct nvt_client *t, struct nvc_bo *src, struct nvc_bo *dst, unsigned dst_domain,
		unsigned dst_access, int reloc, uint32_t len)
{
	struct nvt_push *p = &t->p;
	uint32_t *w = p->map, n = 0;
	nv_wr32le(&w[n++], NV_CMD_INC_WORD(NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, 2));
	nv_wr32le(&w[n++], nvc_chan_gart_dma(t->ch));
	nv_wr32le(&w[n++], dst_domain == NVC_VRAM ? nvc_chan_vram_dma(t->ch) : nvc_chan_gart_dma(t->ch));
	nv_wr32le(&w[n++], NV_CMD_INC_WORD(NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 8));
	nv_wr32le(&w[n++], (uint32_t)nvc_bo_addr(src));
	uint32_t out_at = n;
	nv_wr32le(&w[n++], (uint32_t)nvc_bo_addr(dst));        /* libdrm's presumed address */
	nv_wr32le(&w[n++], len);
	nv_wr32le(&w[n++], len);
	nv_wr32le(&w[n++], len);
	nv_wr32le(&w[n++], 1);
	nv_wr32le(&w[n++], 1 | 1 << 8);
	nv_wr32le(&w[n++], 0);
	struct nvc_bo_ref refs[] = { { p->bo, NVC_READ }, { src, NVC_READ }, { dst, dst_access } };
	struct nvc_push push = { 0, 0, n * 4 };
	struct nvc_reloc rel = { 0, out_at * 4, 2, NVC_RELOC_LOW, 0, 0, 0 };
	struct nvc_submission s = { refs, 3, &push, 1, &rel, reloc ? 1 : 0 };
	uint32_t fence;
	int r = nvc_submit(t->ch, &s, &fence);
	return r < 0 ? r : nvc_fence_wait(t->ch, fence, 10ll * 1000000000);
}

static void client_mem(struct nvc *c, uint64_t *vram, uint64_t *gart)
{
	struct nvc_client cl;
	unsigned count;
	NVT_OK(nvc_client_at(c, 0, &cl, &count));
	*vram = cl.vram;
	*gart = cl.gart;
}

static void test_gart_buffer_moves_to_vram_and_back(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	NVT_OK(nvt_client_open(&t, d->sock, "migrate"));
	nvt_bind_standard(&t.p);
	NVT_OK(nvt_finish(&t.p));
	struct nvc_bo *src, *dst;
	NVT_OK(nvc_bo_new(t.c, 8192, NVC_GART, &src));
	NVT_OK(nvc_bo_new(t.c, 8192, NVC_GART, &dst));
	uint8_t *s = nvc_bo_map(src), *m = nvc_bo_map(dst);
	for (unsigned i = 0; i < 8192; i++)
		s[i] = (uint8_t)(i * 7 + 3);
	memset(m, 0, 8192);
	uint64_t v0, g0, v1, g1;
	client_mem(t.c, &v0, &g0);

	/* a render target in VRAM: the GART buffer moves, the copy lands in it */
	NVT_OK(copy(&t, src, dst, NVC_VRAM, NVC_WRITE | NVC_IN_VRAM, 1, 4096));
	assert_memory_equal(m, s, 4096);
	client_mem(t.c, &v1, &g1);
	assert_int_equal(v1, v0 + 8192);
	assert_int_equal(g1, g0 - 8192);

	/* its old GART address is no longer a buffer of this submission's */
	NVT_ERR(copy(&t, src, dst, NVC_GART, NVC_WRITE, 0, 4096), -EFAULT);
	/* asked after the submission, nvd says where it went */
	assert_int_equal(nvc_bo_refresh(dst), 1);
	assert_int_equal(nvc_bo_domain(dst), NVC_VRAM);
	assert_int_equal(nvc_bo_refresh(dst), 0);

	/* back to GART for a GART copy */
	for (unsigned i = 0; i < 8192; i++)
		s[i] = (uint8_t)(i * 13 + 1);
	NVT_OK(copy(&t, src, dst, NVC_GART, NVC_WRITE | NVC_IN_GART, 1, 8192));
	assert_memory_equal(m, s, 8192);
	assert_int_equal(nvc_bo_refresh(dst), 1);
	assert_int_equal(nvc_bo_domain(dst), NVC_GART);
	client_mem(t.c, &v1, &g1);
	assert_int_equal(v1, v0);
	assert_int_equal(g1, g0);

	/* several moves in a row while earlier copies may still run */
	for (unsigned r = 0; r < 20; r++) {
		s[r] = (uint8_t)(0xa0 + r);
		NVT_OK(copy(&t, src, dst, r & 1 ? NVC_GART : NVC_VRAM,
			    NVC_WRITE | (r & 1 ? NVC_IN_GART : NVC_IN_VRAM), 1, 64));
		assert_int_equal(m[r], (uint8_t)(0xa0 + r));
	}
	nvt_client_close(&t);
	nvt_end(d);
}

static void test_buffer_under_a_ctxdma_stays(void **state)
{
	struct nvt_daemon *d = nvt_d(state);
	struct nvt_client t;
	NVT_OK(nvt_client_open(&t, d->sock, "pinned"));
	nvt_bind_standard(&t.p);
	NVT_OK(nvt_finish(&t.p));
	struct nvc_bo *src, *dst;
	NVT_OK(nvc_bo_new(t.c, 4096, NVC_GART, &src));
	NVT_OK(nvc_bo_new(t.c, 4096, NVC_GART, &dst));
	NVT_OK(nvc_dma_new(t.ch, 0x5a00d000, dst, 0, 4096, NV_CLASS_DMA_IN_MEMORY, 0));
	uint64_t v0, g0, v1, g1;
	client_mem(t.c, &v0, &g0);
	/* it cannot move: the copy through VRAM with its GART address is refused */
	NVT_ERR(copy(&t, src, dst, NVC_VRAM, NVC_WRITE | NVC_IN_VRAM, 1, 256), -EFAULT);
	client_mem(t.c, &v1, &g1);
	assert_int_equal(v1, v0);
	assert_int_equal(g1, g0);
	NVT_OK(copy(&t, src, dst, NVC_GART, NVC_WRITE | NVC_IN_GART, 1, 256));
	nvt_client_close(&t);
	nvt_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NVT_TEST(test_gart_buffer_moves_to_vram_and_back),
		NVT_TEST(test_buffer_under_a_ctxdma_stays),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
