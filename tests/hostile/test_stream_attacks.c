/* Hostile command streams.  Each test is one attack by a client that owns
 * a channel with the standard objects, a GART and a VRAM buffer: its
 * submission must be refused (the fence says why, with the errno the rules
 * in nvd/validate.h give), the daemon must stay up, the attacker's channel
 * must still run honest work afterwards, and an honest client running at
 * the same time must produce exactly the bytes it produces alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hw/ramin.h"
#include "nvd/nvd.h"             /* NVD_SUBC_DAEMON, NVD_SW_HANDLE */
#include "tests/lib/nvt-test.h"

#define ANY_ERROR 1        /* the attack must fail; the rules do not fix the errno */
#define SUBMIT_IT 1        /* emit returns this: submit what was written */

struct atk {
	struct nvt_client t;
	struct nvt_buf g, v;   /* 64 KiB each: GART, VRAM */
	struct nvt_honest *h;
};

struct stream_attack {
	int (*emit)(struct atk *a);
	int expect;            /* -errno, or ANY_ERROR */
};

static void stream_attack(struct nvt_daemon *d, struct nvt_honest *h, void *arg)
{
	const struct stream_attack *s = arg;
	struct atk a = { .h = h };
	uint32_t f;

	NVT_OK(nvt_client_open(&a.t, d->sock, "attacker"));
	NVT_OK(nvt_finish(&a.t.p));
	NVT_OK(nvt_buf_new(a.t.c, 64 << 10, NVC_GART, 1, &a.g));
	NVT_OK(nvt_buf_new(a.t.c, 64 << 10, NVC_VRAM, 2, &a.v));
	int r = s->emit(&a);
	if (r == SUBMIT_IT) {
		NVT_OK(nvt_submit(&a.t.p, &f));
		r = nvt_wait(&a.t.p, f);
	}
	if (s->expect == ANY_ERROR) {
		if (r >= 0)
			fail_msg("the attack was accepted (fence %d)", r);
	} else {
		NVT_ERR(r, s->expect);
	}
	/* Whatever the stream did to the shadows is void: it never ran. */
	memcpy(a.v.shadow, a.v.map, a.v.size);
	memcpy(a.g.shadow, a.g.map, a.g.size);
	/* The attacker's channel still works. */
	nvt_m2mf(&a.t.p, &a.g, 128, 512, &a.v, 64, 256, 200, 20);
	NVT_OK(nvt_finish(&a.t.p));
	assert_int_equal(nvt_buf_check(&a.v, "the attacker's own copy after the attack"), 0);
	nvt_client_close(&a.t);
}

#define STREAM_ATTACK(name, expected)                                                     \
	static int emit_##name(struct atk *a);                                            \
	static void test_##name(void **state)                                             \
	{                                                                                 \
		static const struct stream_attack s = { emit_##name, expected };          \
		nvt_attack(nvt_d(state), stream_attack, (void *)&s);                      \
	}                                                                                 \
	static int emit_##name(struct atk *a)

/* M2MF set up for a copy from g to v with the given values. */
/* The copy's words alone: the caller lists the buffers. */
static void m2mf_words(struct atk *a, uint32_t dma_in, uint32_t dma_out, uint32_t in,
		       uint32_t out, uint32_t pin, uint32_t pout, uint32_t len, uint32_t lines)
{
	struct nvt_push *p = &a->t.p;
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_IN, 2);
	nvt_out(p, dma_in);
	nvt_out(p, dma_out);
	nvt_begin(p, NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 8);
	nvt_out(p, in);
	nvt_out(p, out);
	nvt_out(p, pin);
	nvt_out(p, pout);
	nvt_out(p, len);
	nvt_out(p, lines);
	nvt_out(p, 1 | 1 << 8);
	nvt_out(p, 0);
}

static void m2mf_raw(struct atk *a, uint32_t dma_in, uint32_t dma_out, uint32_t in, uint32_t out,
		     uint32_t pin, uint32_t pout, uint32_t len, uint32_t lines)
{
	nvt_ref(&a->t.p, a->g.bo, NVC_READ);
	nvt_ref(&a->t.p, a->v.bo, NVC_WRITE);
	m2mf_words(a, dma_in, dma_out, in, out, pin, pout, len, lines);
}

static uint32_t gart(struct atk *a) { return nvc_chan_gart_dma(a->t.ch); }
static uint32_t vram(struct atk *a) { return nvc_chan_vram_dma(a->t.ch); }
static uint32_t gaddr(struct atk *a) { return (uint32_t)a->g.addr; }
static uint32_t vaddr(struct atk *a) { return (uint32_t)a->v.addr; }

/* ---- addresses and extents ---- */

STREAM_ATTACK(m2mf_offset_past_bo_end, -EFAULT)
{
	m2mf_raw(a, gart(a), vram(a), gaddr(a), vaddr(a) + (uint32_t)a->v.size, 16, 16, 16, 1);
	return SUBMIT_IT;
}

STREAM_ATTACK(m2mf_last_byte_past_bo_end, -EFAULT)
{
	/* starts inside, its last byte is one past the end */
	m2mf_raw(a, gart(a), vram(a), gaddr(a), vaddr(a) + (uint32_t)a->v.size - 15, 16, 16, 16, 1);
	return SUBMIT_IT;
}

STREAM_ATTACK(m2mf_offset_before_bo_start, -EFAULT)
{
	m2mf_raw(a, gart(a), vram(a), gaddr(a), vaddr(a) - 4096, 16, 16, 16, 1);
	return SUBMIT_IT;
}

STREAM_ATTACK(m2mf_lines_run_past_bo_end, -EFAULT)
{
	/* each line is inside; line 17 of 4 KiB pitch is not */
	m2mf_raw(a, gart(a), vram(a), gaddr(a), vaddr(a), 256, 4096, 64, 17);
	return SUBMIT_IT;
}

STREAM_ATTACK(m2mf_line_length_past_bo_end, -EFAULT)
{
	m2mf_raw(a, gart(a), vram(a), gaddr(a), vaddr(a), 0, 0, 64 << 10 | 1, 1);
	return SUBMIT_IT;
}

STREAM_ATTACK(m2mf_negative_pitch_runs_below_bo_start, -EFAULT)
{
	m2mf_raw(a, gart(a), vram(a), gaddr(a) + 8192, vaddr(a), (uint32_t)-4096, 64, 64, 4);
	return SUBMIT_IT;
}

STREAM_ATTACK(m2mf_pitch_times_lines_wraps_32_bits, -EFAULT)
{
	/* 0x80000000 * 2: a 32-bit address computation would come back to the start */
	m2mf_raw(a, gart(a), vram(a), gaddr(a), vaddr(a), 64, 0x80000000u, 64, 3);
	return SUBMIT_IT;
}

STREAM_ATTACK(m2mf_huge_pitch_and_line_count, -EFAULT)
{
	m2mf_raw(a, gart(a), vram(a), gaddr(a), vaddr(a), 0x7fffffff, 0x7fffffff, 1,
		 NV_M2MF_LINE_COUNT_MAX);
	return SUBMIT_IT;
}

STREAM_ATTACK(m2mf_write_into_bo_listed_read_only, -EFAULT)
{
	/* the destination is on the list, but for reading only */
	nvt_ref(&a->t.p, a->g.bo, NVC_READ);
	nvt_ref(&a->t.p, a->v.bo, NVC_READ);
	m2mf_words(a, gart(a), vram(a), gaddr(a), vaddr(a), 64, 64, 64, 4);
	return SUBMIT_IT;
}

/* A buffer listed for writing is ordered against every other user of it,
 * readers included (nvd/sync.c): reading it is covered, and runs. */
STREAM_ATTACK(m2mf_read_from_bo_listed_write_only_is_covered, 0)
{
	nvt_ref(&a->t.p, a->g.bo, NVC_WRITE);
	nvt_ref(&a->t.p, a->v.bo, NVC_WRITE);
	m2mf_words(a, gart(a), vram(a), gaddr(a), vaddr(a), 64, 64, 64, 4);
	return SUBMIT_IT;
}

STREAM_ATTACK(m2mf_gart_address_through_the_vram_ctxdma, -EFAULT)
{
	/* g's offset is only meaningful in GART; through the VRAM ctxdma it
	 * names VRAM the attacker does not hold */
	assert_true(gaddr(a) + 4096 <= vaddr(a) || gaddr(a) >= vaddr(a) + a->v.size);
	m2mf_raw(a, gart(a), vram(a), gaddr(a), gaddr(a), 64, 64, 64, 4);
	return SUBMIT_IT;
}

STREAM_ATTACK(m2mf_through_the_null_ctxdma, -EFAULT)
{
	m2mf_raw(a, gart(a), NVT_H_NULL, gaddr(a), vaddr(a), 64, 64, 64, 4);
	return SUBMIT_IT;
}

STREAM_ATTACK(gdi_rect_past_surface_bo_end, -EFAULT)
{
	struct nvt_surf s = { &a->v, 0, 256, 64, 64, NV_SURF_FORMAT_Y32, 4 };
	nvt_surf2d(&a->t.p, &s, &s);
	/* 64 rows of 256 bytes = 16 KiB fit; 300 rows do not */
	nvt_fill(&a->t.p, &s, NV_GDI_COLOR_FORMAT_A8R8G8B8, 0x41414141, 0, 0, 64, 300);
	return SUBMIT_IT;
}

STREAM_ATTACK(gdi_rect_x_past_the_pitch_into_the_next_page, -EFAULT)
{
	struct nvt_surf s = { &a->v, (64 << 10) - 256, 256, 64, 1, NV_SURF_FORMAT_Y32, 4 };
	nvt_surf2d(&a->t.p, &s, &s);
	nvt_fill(&a->t.p, &s, NV_GDI_COLOR_FORMAT_A8R8G8B8, 0x41414141, 60, 0, 8, 1);
	return SUBMIT_IT;
}

STREAM_ATTACK(gdi_fill_with_an_unknown_surface_format, -EINVAL)
{
	struct nvt_surf s = { &a->v, 0, 256, 64, 64, 0x77, 4 };
	nvt_surf2d(&a->t.p, &s, &s);
	nvt_fill(&a->t.p, &s, NV_GDI_COLOR_FORMAT_A8R8G8B8, 0, 0, 0, 4, 4);
	return SUBMIT_IT;
}

STREAM_ATTACK(blit_source_outside_bo, -EFAULT)
{
	struct nvt_surf s = { &a->v, 0, 256, 64, 64, NV_SURF_FORMAT_A8R8G8B8, 4 };
	nvt_surf2d(&a->t.p, &s, &s);
	nvt_blit(&a->t.p, &s, &s, 0, 250, 0, 0, 16, 16);
	return SUBMIT_IT;
}

STREAM_ATTACK(blit_destination_outside_bo, -EFAULT)
{
	struct nvt_surf src = { &a->g, 0, 256, 64, 64, NV_SURF_FORMAT_A8R8G8B8, 4 };
	struct nvt_surf dst = { &a->v, 0, 4096, 64, 64, NV_SURF_FORMAT_A8R8G8B8, 4 };
	nvt_surf2d(&a->t.p, &src, &dst);
	nvt_blit(&a->t.p, &src, &dst, 0, 0, 0, 10, 16, 16);
	return SUBMIT_IT;
}

STREAM_ATTACK(ifc_rect_past_bo_end, -EFAULT)
{
	static uint8_t px[8 * 8 * 4];
	struct nvt_surf s = { &a->v, (64 << 10) - 1024, 256, 64, 8, NV_SURF_FORMAT_A8R8G8B8, 4 };
	nvt_surf2d(&a->t.p, &s, &s);
	nvt_ifc(&a->t.p, &s, NV_IFC_COLOR_FORMAT_A8R8G8B8, 0, 0, 8, 8, px);
	return SUBMIT_IT;
}

STREAM_ATTACK(sifm_swizzled_destination_larger_than_bo, -EFAULT)
{
	struct nvt_surf src = { &a->g, 0, 64, 16, 16, NV_SURF_FORMAT_A8R8G8B8, 4 };
	struct nvt_swz dst = { &a->v, 0, 11, 11, NV_SURF_FORMAT_A8R8G8B8, 4 };   /* 16 MiB */
	nvt_sifm_swz(&a->t.p, &src, NV_SIFM_COLOR_FORMAT_A8R8G8B8, 0, 0, &dst, 0, 0, 16, 16);
	return SUBMIT_IT;
}

STREAM_ATTACK(sifm_source_outside_bo, -EFAULT)
{
	struct nvt_surf src = { &a->g, 0, 4096, 64, 64, NV_SURF_FORMAT_A8R8G8B8, 4 };
	struct nvt_swz dst = { &a->v, 0, 6, 6, NV_SURF_FORMAT_A8R8G8B8, 4 };
	nvt_sifm_swz(&a->t.p, &src, NV_SIFM_COLOR_FORMAT_A8R8G8B8, 0, 0, &dst, 0, 0, 64, 64);
	return SUBMIT_IT;
}

/* The source is checked on the window the card samples (hw/sifm.h), not on
 * SIZE: 32 rows drawn 1:1 from a 64 x 64 image whose last 32 rows lie
 * past g pass; then 64 rows at DV_DY 0.5 from V = 0.5 sample rows 0..32
 * (row j at 0.5 + (j + 1/2) / 2), one row past g: refused. */
static uint32_t xy(uint32_t lo, uint32_t hi)
{
	return hi << 16 | (lo & 0xffff);
}

STREAM_ATTACK(sifm_scaled_window_one_row_past_bo, -EFAULT)
{
	struct nvt_push *p = &a->t.p;
	struct nvt_surf src = { &a->g, (64u << 10) - 32 * 256, 256, 64, 64, NV_SURF_FORMAT_A8R8G8B8, 4 };
	struct nvt_swz dst = { &a->v, 0, 6, 6, NV_SURF_FORMAT_A8R8G8B8, 4 };
	nvt_sifm_swz(p, &src, NV_SIFM_COLOR_FORMAT_A8R8G8B8, 0, 0, &dst, 0, 0, 64, 32);
	nvt_begin(p, NVT_SUBC_SIFM, NV_SIFM_CLIP_SIZE, 5);
	nvt_out(p, xy(64, 64));                       /* CLIP_SIZE */
	nvt_out(p, xy(0, 0));                         /* OUT_POINT */
	nvt_out(p, xy(64, 64));                       /* OUT_SIZE */
	nvt_out(p, 1u << NV_SIFM_DXDY_FRAC_BITS);         /* DU_DX 1.0 */
	nvt_out(p, 1u << (NV_SIFM_DXDY_FRAC_BITS - 1));   /* DV_DY 0.5 */
	nvt_mthd(p, NVT_SUBC_SIFM, NV_SIFM_POINT, xy(0, 1u << (NV_SIFM_POINT_FRAC_BITS - 1)));
	return SUBMIT_IT;
}

STREAM_ATTACK(notify_into_the_whole_vram_ctxdma, ANY_ERROR)
{
	/* a notifier write needs a notifier ctxdma, not all of VRAM */
	nvt_mthd(&a->t.p, NVT_SUBC_M2MF, NV_M2MF_DMA_NOTIFY, vram(a));
	nvt_mthd(&a->t.p, NVT_SUBC_M2MF, NV_M2MF_NOTIFY, 0);
	return SUBMIT_IT;
}

/* ---- values the engines refuse (the card traps): the client must hear ---- */

STREAM_ATTACK(gdi_fill_with_an_invalid_colour_format, ANY_ERROR)
{
	struct nvt_surf s = { &a->v, 0, 256, 64, 64, NV_SURF_FORMAT_Y32, 4 };
	nvt_surf2d(&a->t.p, &s, &s);
	nvt_fill(&a->t.p, &s, 7, 0x41414141, 0, 0, 8, 8);   /* no such GDI colour format */
	return SUBMIT_IT;
}

STREAM_ATTACK(ifc_with_an_invalid_colour_format, ANY_ERROR)
{
	static uint8_t px[4 * 4 * 4];
	struct nvt_surf s = { &a->v, 0, 256, 64, 64, NV_SURF_FORMAT_A8R8G8B8, 4 };
	nvt_surf2d(&a->t.p, &s, &s);
	nvt_ifc(&a->t.p, &s, 9, 0, 0, 4, 4, px);
	return SUBMIT_IT;
}

STREAM_ATTACK(blit_with_an_invalid_operation, ANY_ERROR)
{
	struct nvt_surf s = { &a->v, 0, 256, 64, 64, NV_SURF_FORMAT_A8R8G8B8, 4 };
	nvt_surf2d(&a->t.p, &s, &s);
	nvt_mthd(&a->t.p, NVT_SUBC_BLIT, NV_BLIT_OPERATION, 9);
	nvt_blit(&a->t.p, &s, &s, 0, 0, 8, 8, 4, 4);
	return SUBMIT_IT;
}

STREAM_ATTACK(swizzled_surface_wider_than_2048, ANY_ERROR)
{
	/* log2 width 12 is above what the hardware takes (11), though the
	 * 4096 x 1 surface would fit the buffer */
	struct nvt_surf src = { &a->g, 0, 64, 16, 1, NV_SURF_FORMAT_A8R8G8B8, 4 };
	struct nvt_swz dst = { &a->v, 0, 12, 0, NV_SURF_FORMAT_A8R8G8B8, 4 };
	nvt_sifm_swz(&a->t.p, &src, NV_SIFM_COLOR_FORMAT_A8R8G8B8, 0, 0, &dst, 0, 0, 16, 1);
	return SUBMIT_IT;
}

/* A SIFM upload whose FORMAT or SIZE word is replaced afterwards. */
static void sifm_with(struct atk *a, uint32_t size, uint32_t format)
{
	struct nvt_surf src = { &a->g, 0, 64, 16, 16, NV_SURF_FORMAT_A8R8G8B8, 4 };
	struct nvt_swz dst = { &a->v, 0, 4, 4, NV_SURF_FORMAT_A8R8G8B8, 4 };
	nvt_sifm_swz(&a->t.p, &src, NV_SIFM_COLOR_FORMAT_A8R8G8B8, 0, 0, &dst, 0, 0, 16, 16);
	/* the last packet is SIZE, FORMAT, OFFSET, POINT */
	uint32_t *w = &a->t.p.map[nvt_pos(&a->t.p) - 4];
	nv_wr32le(&w[0], size);
	nv_wr32le(&w[1], format);
}

STREAM_ATTACK(sifm_with_an_invalid_filter, ANY_ERROR)
{
	sifm_with(a, 16u << 16 | 16, 64 | NV_SIFM_ORIGIN_CENTER << 16 | 7u << 24);
	return SUBMIT_IT;
}

STREAM_ATTACK(sifm_with_an_invalid_origin, ANY_ERROR)
{
	sifm_with(a, 16u << 16 | 16, 64 | 7u << 16);
	return SUBMIT_IT;
}

STREAM_ATTACK(sifm_with_an_odd_source_width, ANY_ERROR)
{
	sifm_with(a, 16u << 16 | 15, 64 | NV_SIFM_ORIGIN_CENTER << 16);
	return SUBMIT_IT;
}

STREAM_ATTACK(sifm_with_a_zero_source_size, ANY_ERROR)
{
	sifm_with(a, 0, 64 | NV_SIFM_ORIGIN_CENTER << 16);
	return SUBMIT_IT;
}

/* ---- methods, subchannels, objects ---- */

STREAM_ATTACK(unknown_method, -EINVAL)
{
	nvt_mthd(&a->t.p, NVT_SUBC_M2MF, 0x1000, 0);
	return SUBMIT_IT;
}

STREAM_ATTACK(unknown_method_inside_a_long_packet, -EINVAL)
{
	/* a packet that starts on real methods and runs into none */
	nvt_begin(&a->t.p, NVT_SUBC_M2MF, NV_M2MF_PITCH_IN, 8);
	for (unsigned i = 0; i < 8; i++)
		nvt_out(&a->t.p, 64);
	return SUBMIT_IT;
}

STREAM_ATTACK(method_on_an_unbound_subchannel, -EINVAL)
{
	/* nvt_bind_standard leaves no subchannel free but 1; use a new
	 * channel where nothing is bound yet */
	struct nvc_chan *ch;
	struct nvt_push p;
	uint32_t f;
	NVT_OK(nvc_chan_new(a->t.c, &ch));
	NVT_OK(nvt_push_init(&p, a->t.c, ch, 4096));
	nvt_mthd(&p, 3, NV_GDI_COLOR1_A, 0);
	NVT_OK(nvt_submit(&p, &f));
	int r = nvt_wait(&p, f);
	nvt_push_fini(&p);
	nvc_chan_free(ch);
	return r;
}

STREAM_ATTACK(privileged_ref_cnt, -EPERM)
{
	nvt_mthd(&a->t.p, NVT_SUBC_M2MF, NV_FIFO_REF_CNT, 0x7fffffff);
	return SUBMIT_IT;
}

STREAM_ATTACK(privileged_dma_semaphore, -EPERM)
{
	nvt_mthd(&a->t.p, NVT_SUBC_M2MF, NV_FIFO_DMA_SEMAPHORE, vram(a));
	return SUBMIT_IT;
}

STREAM_ATTACK(privileged_semaphore_offset, -EPERM)
{
	nvt_mthd(&a->t.p, NVT_SUBC_M2MF, NV_FIFO_SEMAPHORE_OFFSET, 0);
	return SUBMIT_IT;
}

STREAM_ATTACK(privileged_semaphore_acquire, -EPERM)
{
	/* a wait that never ends would stall the card for everyone */
	nvt_mthd(&a->t.p, NVT_SUBC_M2MF, NV_FIFO_SEMAPHORE_ACQUIRE, 0x12345678);
	return SUBMIT_IT;
}

STREAM_ATTACK(privileged_semaphore_release, -EPERM)
{
	nvt_mthd(&a->t.p, NVT_SUBC_M2MF, NV_FIFO_SEMAPHORE_RELEASE, 1);
	return SUBMIT_IT;
}

STREAM_ATTACK(object_bind_on_the_daemon_subchannel, -EPERM)
{
	nvt_mthd(&a->t.p, NVD_SUBC_DAEMON, NV_FIFO_OBJECT, NVT_H_M2MF);
	return SUBMIT_IT;
}

STREAM_ATTACK(fake_fence_on_the_daemon_subchannel, -EPERM)
{
	/* the daemon's own fence method with a far-future sequence number:
	 * accepted, it would retire every buffer of the channel early */
	nvt_mthd(&a->t.p, NVD_SUBC_DAEMON, NV_NVSW_FENCE, 0x7fffffff);
	return SUBMIT_IT;
}

STREAM_ATTACK(nop_on_the_daemon_subchannel, -EPERM)
{
	nvt_mthd(&a->t.p, NVD_SUBC_DAEMON, NV_M2MF_NOP, 0);
	return SUBMIT_IT;
}

STREAM_ATTACK(object_bind_of_an_unknown_handle, -ENOENT)
{
	nvt_mthd(&a->t.p, 2, NV_FIFO_OBJECT, 0x13371337);
	return SUBMIT_IT;
}

STREAM_ATTACK(object_bind_of_the_daemon_software_object, -ENOENT)
{
	nvt_mthd(&a->t.p, 2, NV_FIFO_OBJECT, NVD_SW_HANDLE);
	return SUBMIT_IT;
}

STREAM_ATTACK(object_bind_of_a_ctxdma, -EINVAL)
{
	nvt_mthd(&a->t.p, 2, NV_FIFO_OBJECT, vram(a));
	return SUBMIT_IT;
}

STREAM_ATTACK(dma_method_naming_a_graphics_object, -EINVAL)
{
	nvt_mthd(&a->t.p, NVT_SUBC_M2MF, NV_M2MF_DMA_BUFFER_OUT, NVT_H_GDI);
	return SUBMIT_IT;
}

STREAM_ATTACK(surface_method_naming_a_ctxdma, -EINVAL)
{
	nvt_mthd(&a->t.p, NVT_SUBC_GDI, NV_GDI_SURFACE, vram(a));
	return SUBMIT_IT;
}

STREAM_ATTACK(gdi_surface_naming_a_non_surface_object, -EINVAL)
{
	/* SURFACE = the ROP object, then a fill: the extent check cannot know
	 * the surface, so the fill must be refused */
	nvt_mthd(&a->t.p, NVT_SUBC_GDI, NV_GDI_SURFACE, NVT_H_ROP);
	nvt_ref(&a->t.p, a->v.bo, NVC_WRITE);
	nvt_begin(&a->t.p, NVT_SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2);
	nvt_out(&a->t.p, 0);
	nvt_out(&a->t.p, 4 << 16 | 4);
	return SUBMIT_IT;
}

/* ---- command words, jumps, calls ---- */

STREAM_ATTACK(jump_outside_the_stream, -EFAULT)
{
	nvt_word(&a->t.p, NV_CMD_JUMP_WORD(nvt_here(&a->t.p) + 4096));
	return SUBMIT_IT;
}

STREAM_ATTACK(jump_into_another_buffer, -EFAULT)
{
	/* into g, where the attacker could have written anything */
	nvt_ref(&a->t.p, a->g.bo, NVC_READ);
	nvt_word(&a->t.p, NV_CMD_JUMP_WORD(a->g.addr));
	return SUBMIT_IT;
}

STREAM_ATTACK(jump_loop_forever, -ELOOP)
{
	nvt_word(&a->t.p, NV_CMD_JUMP_WORD(nvt_here(&a->t.p)));
	return SUBMIT_IT;
}

STREAM_ATTACK(jump_ping_pong_between_two_words, -ELOOP)
{
	uint64_t here = nvt_here(&a->t.p);
	nvt_word(&a->t.p, NV_CMD_JUMP_WORD(here + 4));
	nvt_word(&a->t.p, NV_CMD_JUMP_WORD(here));
	return SUBMIT_IT;
}

STREAM_ATTACK(old_jump_outside_the_stream, ANY_ERROR)
{
	nvt_word(&a->t.p, NV_CMD_OLD_JUMP_WORD(nvt_here(&a->t.p) + 65536));
	return SUBMIT_IT;
}

STREAM_ATTACK(call_inside_a_push_range, ANY_ERROR)
{
	uint64_t here = nvt_here(&a->t.p);
	nvt_word(&a->t.p, NV_CMD_CALL_WORD(here + 8));
	nvt_word(&a->t.p, NV_CMD_RETURN_WORD);
	nvt_word(&a->t.p, NV_CMD_INC_WORD(NVT_SUBC_M2MF, NV_M2MF_NOP, 1));
	nvt_word(&a->t.p, 0);
	nvt_word(&a->t.p, NV_CMD_RETURN_WORD);
	return SUBMIT_IT;
}

STREAM_ATTACK(invalid_command_word, -EINVAL)
{
	nvt_word(&a->t.p, 0x80000000u);   /* matches no command form */
	return SUBMIT_IT;
}

STREAM_ATTACK(packet_runs_past_its_push_range, -EINVAL)
{
	nvt_word(&a->t.p, NV_CMD_INC_WORD(NVT_SUBC_M2MF, NV_M2MF_OFFSET_IN, 8));
	nvt_out(&a->t.p, gaddr(a));
	nvt_out(&a->t.p, vaddr(a));
	return SUBMIT_IT;
}

/* A RETURN is not an attack: it ends the range, and what follows it (here
 * a privileged method) is never looked at nor run. */
STREAM_ATTACK(words_after_return_are_not_run, 0)
{
	nvt_word(&a->t.p, NV_CMD_RETURN_WORD);
	nvt_mthd(&a->t.p, NVT_SUBC_M2MF, NV_FIFO_REF_CNT, 1);
	return SUBMIT_IT;
}

/* ---- push ranges and relocations (hand-made submissions) ---- */

static int submit_raw(struct atk *a, const struct nvc_push *push, unsigned npush,
		      const struct nvc_reloc *relocs, unsigned nrel)
{
	struct nvc_bo_ref refs[] = { { a->t.p.bo, NVC_READ }, { a->v.bo, NVC_WRITE } };
	struct nvc_submission s = { refs, 2, push, npush, relocs, nrel };
	uint32_t f;
	int r = nvc_submit(a->t.ch, &s, &f);
	if (r < 0)
		return r;
	return nvt_wait(&a->t.p, f);
}

/* A harmless NOP at the writer's position, for ranges to point at. */
static uint32_t nop_at(struct atk *a)
{
	uint32_t at = nvt_pos(&a->t.p) * 4;
	nvt_mthd(&a->t.p, NVT_SUBC_M2MF, NV_M2MF_NOP, 0);
	nvt_taken(&a->t.p);   /* submitted by hand, not through nvt_submit */
	return at;
}

STREAM_ATTACK(push_range_past_the_push_buffer_end, -EINVAL)
{
	struct nvc_push push = { 0, (uint32_t)nvc_bo_size(a->t.p.bo) - 8, 16 };
	return submit_raw(a, &push, 1, NULL, 0);
}

STREAM_ATTACK(push_range_length_wraps_32_bits, -EINVAL)
{
	struct nvc_push push = { 0, nop_at(a), 0xfffffff8u };
	return submit_raw(a, &push, 1, NULL, 0);
}

STREAM_ATTACK(push_range_unaligned, -EINVAL)
{
	struct nvc_push push = { 0, nop_at(a) + 2, 8 };
	return submit_raw(a, &push, 1, NULL, 0);
}

STREAM_ATTACK(push_range_in_a_buffer_not_on_the_list, -EINVAL)
{
	struct nvc_push push = { 7, 0, 8 };
	return submit_raw(a, &push, 1, NULL, 0);
}

STREAM_ATTACK(reloc_word_outside_its_buffer, -EINVAL)
{
	struct nvc_push push = { 0, nop_at(a), 8 };
	struct nvc_reloc rel = { 0, (uint32_t)nvc_bo_size(a->t.p.bo), 1, NVC_RELOC_LOW, 0, 0, 0 };
	return submit_raw(a, &push, 1, &rel, 1);
}

STREAM_ATTACK(reloc_buffer_index_out_of_range, -EINVAL)
{
	uint32_t at = nop_at(a);
	struct nvc_push push = { 0, at, 8 };
	struct nvc_reloc rel = { 0, at + 4, 9, NVC_RELOC_LOW, 0, 0, 0 };
	return submit_raw(a, &push, 1, &rel, 1);
}

STREAM_ATTACK(reloc_unaligned_word, -EINVAL)
{
	uint32_t at = nop_at(a);
	struct nvc_push push = { 0, at, 8 };
	struct nvc_reloc rel = { 0, at + 2, 1, NVC_RELOC_LOW, 0, 0, 0 };
	return submit_raw(a, &push, 1, &rel, 1);
}

STREAM_ATTACK(two_relocs_on_one_word, -EINVAL)
{
	uint32_t at = nop_at(a);
	struct nvc_push push = { 0, at, 8 };
	struct nvc_reloc rel[2] = { { 0, at + 4, 1, NVC_RELOC_LOW, 0, 0, 0 },
				    { 0, at + 4, 1, NVC_RELOC_HIGH, 0, 0, 0 } };
	return submit_raw(a, &push, 1, rel, 2);
}

STREAM_ATTACK(reloc_turns_a_nop_into_a_privileged_method, -EPERM)
{
	/* relocations patch before validation: the patched word is checked */
	uint32_t at = nop_at(a);
	struct nvc_push push = { 0, at, 8 };
	struct nvc_reloc rel = { 0, at, 1, 0, NV_CMD_INC_WORD(NVT_SUBC_M2MF, NV_FIFO_REF_CNT, 1),
				 0, 0 };
	return submit_raw(a, &push, 1, &rel, 1);
}

STREAM_ATTACK(stream_longer_than_the_hardware_ring, -E2BIG)
{
	/* 2 MiB of NOPs: more than the daemon's 1 MiB ring can ever take */
	struct nvc_bo *big;
	NVT_OK(nvc_bo_new(a->t.c, 2 << 20, NVC_GART, &big));
	uint32_t *m = nvc_bo_map(big);
	assert_non_null(m);
	for (uint32_t i = 0; i < (2u << 20) / 4; i += 2048) {
		nv_wr32le(&m[i], NV_CMD_NONINC_WORD(NVT_SUBC_M2MF, NV_M2MF_NOP, 2047));
		memset(&m[i + 1], 0, 2047 * 4);
	}
	struct nvc_bo_ref refs[] = { { big, NVC_READ } };
	struct nvc_push push = { 0, 0, 2u << 20 };
	struct nvc_submission s = { refs, 1, &push, 1, NULL, 0 };
	uint32_t f;
	NVT_OK(nvc_submit(a->t.ch, &s, &f));
	int r = nvt_wait(&a->t.p, f);
	nvc_bo_free(big);
	return r;
}

#define T(name) NVT_TEST(test_##name)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(m2mf_offset_past_bo_end),
		T(m2mf_last_byte_past_bo_end),
		T(m2mf_offset_before_bo_start),
		T(m2mf_lines_run_past_bo_end),
		T(m2mf_line_length_past_bo_end),
		T(m2mf_negative_pitch_runs_below_bo_start),
		T(m2mf_pitch_times_lines_wraps_32_bits),
		T(m2mf_huge_pitch_and_line_count),
		T(m2mf_write_into_bo_listed_read_only),
		T(m2mf_read_from_bo_listed_write_only_is_covered),
		T(m2mf_gart_address_through_the_vram_ctxdma),
		T(m2mf_through_the_null_ctxdma),
		T(gdi_rect_past_surface_bo_end),
		T(gdi_rect_x_past_the_pitch_into_the_next_page),
		T(gdi_fill_with_an_unknown_surface_format),
		T(blit_source_outside_bo),
		T(blit_destination_outside_bo),
		T(ifc_rect_past_bo_end),
		T(sifm_swizzled_destination_larger_than_bo),
		T(sifm_source_outside_bo),
		T(sifm_scaled_window_one_row_past_bo),
		T(notify_into_the_whole_vram_ctxdma),
		T(gdi_fill_with_an_invalid_colour_format),
		T(ifc_with_an_invalid_colour_format),
		T(blit_with_an_invalid_operation),
		T(swizzled_surface_wider_than_2048),
		T(sifm_with_an_invalid_filter),
		T(sifm_with_an_invalid_origin),
		T(sifm_with_an_odd_source_width),
		T(sifm_with_a_zero_source_size),
		T(unknown_method),
		T(unknown_method_inside_a_long_packet),
		T(method_on_an_unbound_subchannel),
		T(privileged_ref_cnt),
		T(privileged_dma_semaphore),
		T(privileged_semaphore_offset),
		T(privileged_semaphore_acquire),
		T(privileged_semaphore_release),
		T(object_bind_on_the_daemon_subchannel),
		T(fake_fence_on_the_daemon_subchannel),
		T(nop_on_the_daemon_subchannel),
		T(object_bind_of_an_unknown_handle),
		T(object_bind_of_the_daemon_software_object),
		T(object_bind_of_a_ctxdma),
		T(dma_method_naming_a_graphics_object),
		T(surface_method_naming_a_ctxdma),
		T(gdi_surface_naming_a_non_surface_object),
		T(jump_outside_the_stream),
		T(jump_into_another_buffer),
		T(jump_loop_forever),
		T(jump_ping_pong_between_two_words),
		T(old_jump_outside_the_stream),
		T(call_inside_a_push_range),
		T(invalid_command_word),
		T(packet_runs_past_its_push_range),
		T(words_after_return_are_not_run),
		T(push_range_past_the_push_buffer_end),
		T(push_range_length_wraps_32_bits),
		T(push_range_unaligned),
		T(push_range_in_a_buffer_not_on_the_list),
		T(reloc_word_outside_its_buffer),
		T(reloc_buffer_index_out_of_range),
		T(reloc_unaligned_word),
		T(two_relocs_on_one_word),
		T(reloc_turns_a_nop_into_a_privileged_method),
		T(stream_longer_than_the_hardware_ring),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
