/* The 3D engine's render targets (rt.h): the colour buffers and zeta an
 * operation touches, mapped where hw/access.h says they lie (which buffers,
 * their ctxdmas, extents and traps are the model's), and pixel conversions
 * between the surface formats and RGBA floats.  All buffers share
 * RT_FORMAT (one colour format, one zeta format, one TYPE and log2 size).
 * MSAA modes (RT_FORMAT 15:12) are not modelled: the surface is taken as
 * one sample per pixel (Mesa only sets them on multisampled miptrees, which
 * nvd does not advertise).
 *
 * Conversions: UNORM rounds to nearest (v = floor(f * max + 0.5) after
 * clamping to [0, 1]), fp16 rounds to nearest even with denormals, inf and
 * NaN, as the hardware's format conversion does. */
#include "rt.h"
#include "half.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#include "hw/enums-3d.h"
#include "sim/swizzle.h"

static inline uint16_t rt_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

int sim_rt_resolve(struct sim *s, struct sim_grctx *g, const struct nv_acc_list *l,
		   struct sim_rts *rts)
{
	const uint32_t *c = g->curie;
	uint32_t fmt = c[NV_CURIE_RT_FORMAT__SLOT];

	memset(rts, 0, sizeof(*rts));
	rts->x = NV40_RECT_ORIGIN(c[NV_CURIE_RT_HORIZ__SLOT]);
	rts->w = NV40_RECT_SIZE(c[NV_CURIE_RT_HORIZ__SLOT]);
	rts->y = NV40_RECT_ORIGIN(c[NV_CURIE_RT_VERT__SLOT]);
	rts->h = NV40_RECT_SIZE(c[NV_CURIE_RT_VERT__SLOT]);
	for (unsigned i = 0; i < l->n; i++) {
		const struct nv_acc *a = &l->a[i];
		struct sim_rt *rt = a->kind == NV_ACC_COLOR ? &rts->color[a->unit & 3] :
				    a->kind == NV_ACC_ZETA ? &rts->zeta : NULL;
		uint64_t lo, len;
		if (!rt || nv_acc_bounds(a, &lo, &len) < 0)
			continue;
		rt->format = a->kind == NV_ACC_ZETA ? NV40_RT_FORMAT_ZETA(fmt) : NV40_RT_FORMAT_COLOR(fmt);
		rt->bpp = a->kind == NV_ACC_ZETA ? nv40_rt_zeta_bpp(rt->format)
						 : nv40_rt_color_bpp(rt->format);
		rt->swizzled = NV40_RT_FORMAT_TYPE(fmt) == NV40_RT_TYPE_SWIZZLED;
		rt->log2w = NV40_RT_FORMAT_LOG2W(fmt);
		rt->log2h = NV40_RT_FORMAT_LOG2H(fmt);
		rt->pitch = (uint32_t)a->pitch;
		rt->mem = sim_dma_map(s, c[a->dma], lo, len, 1);
		rt->len = rt->mem ? len : 0;
		if (!rt->mem) {
			memset(rts, 0, sizeof(*rts));
			sim_gr_trap(s, NV_PGRAPH_NSOURCE_DMA_W_PROTECTION);
			return -1;
		}
	}
	return 0;
}

int sim_rt_overlaps(const struct sim_rt *rt, const uint8_t *lo, uint64_t len)
{
	return lo < rt->mem + rt->len && rt->mem < lo + len;
}

int sim_rt_rows_apart(const struct sim_rt *const w[], unsigned n, int64_t xmax)
{
	for (unsigned i = 0; i < n; i++) {
		if (!w[i]->swizzled && (uint64_t)xmax * w[i]->bpp > w[i]->pitch)
			return 0;
		for (unsigned k = 0; k < i; k++)
			if (sim_rt_overlaps(w[i], w[k]->mem, w[k]->len))
				return 0;
	}
	return 1;
}

uint8_t *sim_rt_pixel(const struct sim_rt *rt, unsigned x, unsigned y)
{
	uint64_t off;

	if (!rt->mem)
		return NULL;
	if (rt->swizzled) {
		if ((x >> rt->log2w) || (y >> rt->log2h))
			return NULL;
		off = (uint64_t)sim_swz_index(x, y, rt->log2w, rt->log2h) * rt->bpp;
	} else {
		off = (uint64_t)y * rt->pitch + (uint64_t)x * rt->bpp;
	}
	if (off >= rt->len || rt->len - off < rt->bpp)
		return NULL;
	return rt->mem + off;
}

/* ---- conversions ---- */

static inline uint32_t rt_unorm(float f, unsigned bits)
{
	uint32_t max = (1u << bits) - 1;
	return (uint32_t)(sim_sat(f) * (float)max + 0.5f);
}

static inline float rt_from_unorm(uint32_t v, unsigned bits)
{
	return (float)v / (float)((1u << bits) - 1);
}

/* The 32-bit 8-bit-channel formats: B in byte 0, R in byte 2 (A8R8G8B8 and
 * its X variants), or the other way round (A8B8G8R8 and its). */
static inline int rt_8888_bgra(unsigned fmt)
{
	return fmt == NV40_RT_COLOR_A8R8G8B8 || fmt == NV40_RT_COLOR_X8R8G8B8_Z8R8G8B8 ||
	       fmt == NV40_RT_COLOR_X8R8G8B8_O8R8G8B8;
}

/* rt_from_unorm(v, 8) for every byte, once. */
static float rt_unorm8[256];
static pthread_once_t rt_unorm8_once = PTHREAD_ONCE_INIT;

static void rt_unorm8_init(void)
{
	for (unsigned v = 0; v < 256; v++)
		rt_unorm8[v] = rt_from_unorm(v, 8);
}

void sim_rt8_of(unsigned fmt, struct sim_rt8 *r)
{
	int rs = rt_8888_bgra(fmt) ? 2 : 0;

	memset(r, 0, sizeof(*r));
	pthread_once(&rt_unorm8_once, rt_unorm8_init);
	r->unorm = rt_unorm8;
	switch (fmt) {
	case NV40_RT_COLOR_A8R8G8B8:
	case NV40_RT_COLOR_A8B8G8R8:
		r->at[3] = 3;
		break;
	case NV40_RT_COLOR_X8R8G8B8_Z8R8G8B8:
	case NV40_RT_COLOR_X8B8G8R8_Z8B8G8R8:
		r->at[3] = -1;
		break;
	case NV40_RT_COLOR_X8R8G8B8_O8R8G8B8:
	case NV40_RT_COLOR_X8B8G8R8_O8B8G8R8:
		r->at[3] = -1;
		r->x = 0xff;
		break;
	default:
		return;
	}
	r->on = 1;
	r->at[0] = (int8_t)rs;
	r->at[1] = 1;
	r->at[2] = (int8_t)(2 - rs);
}

void sim_rt_read(const struct sim_rt *rt, unsigned x, unsigned y, float rgba[4])
{
	const uint8_t *p = sim_rt_pixel(rt, x, y);
	uint32_t v;

	rgba[0] = rgba[1] = rgba[2] = 0.0f;
	rgba[3] = 1.0f;
	if (!p)
		return;
	switch (rt->format) {
	case NV40_RT_COLOR_R5G6B5:
		v = rt_rd16(p);
		rgba[0] = rt_from_unorm(v >> 11, 5);
		rgba[1] = rt_from_unorm((v >> 5) & 0x3f, 6);
		rgba[2] = rt_from_unorm(v & 0x1f, 5);
		break;
	case NV40_RT_COLOR_X1R5G5B5_Z1R5G5B5:
	case NV40_RT_COLOR_X1R5G5B5_O1R5G5B5:
		v = rt_rd16(p);
		rgba[0] = rt_from_unorm((v >> 10) & 0x1f, 5);
		rgba[1] = rt_from_unorm((v >> 5) & 0x1f, 5);
		rgba[2] = rt_from_unorm(v & 0x1f, 5);
		break;
	case NV40_RT_COLOR_A8R8G8B8:
	case NV40_RT_COLOR_X8R8G8B8_Z8R8G8B8:
	case NV40_RT_COLOR_X8R8G8B8_O8R8G8B8:
	case NV40_RT_COLOR_A8B8G8R8:
	case NV40_RT_COLOR_X8B8G8R8_Z8B8G8R8:
	case NV40_RT_COLOR_X8B8G8R8_O8B8G8R8: {
		unsigned r = rt_8888_bgra(rt->format) ? 2 : 0;
		rgba[0] = rt_from_unorm(p[r], 8);
		rgba[1] = rt_from_unorm(p[1], 8);
		rgba[2] = rt_from_unorm(p[2 - r], 8);
		if (rt->format == NV40_RT_COLOR_A8R8G8B8 || rt->format == NV40_RT_COLOR_A8B8G8R8)
			rgba[3] = rt_from_unorm(p[3], 8);
		break;
	}
	case NV40_RT_COLOR_B8:
		rgba[2] = rt_from_unorm(p[0], 8);
		break;
	case NV40_RT_COLOR_G8B8:
		rgba[1] = rt_from_unorm(p[1], 8);
		rgba[2] = rt_from_unorm(p[0], 8);
		break;
	case NV40_RT_COLOR_A16B16G16R16_FLOAT:
		for (unsigned i = 0; i < 4; i++)
			rgba[i] = sim_h2f(rt_rd16(p + 2 * i));
		break;
	case NV40_RT_COLOR_A32B32G32R32_FLOAT:
		for (unsigned i = 0; i < 4; i++)
			rgba[i] = sim_u2f(nv_rd32le(p + 4 * i));
		break;
	case NV40_RT_COLOR_R32_FLOAT:
		rgba[0] = sim_u2f(nv_rd32le(p));
		break;
	}
}

/* Write the bytes of pat under msk (both bpp long). */
static inline void rt_put(uint8_t *p, const uint8_t *pat, const uint8_t *msk, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)((p[i] & ~msk[i]) | (pat[i] & msk[i]));
}

static inline void rt_set(uint8_t *b, unsigned n, uint32_t v)
{
	for (unsigned i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

/* The pixel's bytes and the byte mask of channel mask `mask` (bit 0 R, 1 G,
 * 2 B, 3 A) for colour format fmt.  X bits of the X formats are written with
 * any channel: 0 for the Z variants, 1 for the O ones.  Returns bpp. */
unsigned sim_rt_pack(unsigned fmt, const float rgba[4], unsigned mask, uint8_t pat[16],
		     uint8_t msk[16])
{
	uint32_t v = 0, m = 0, any = mask & 0xf ? ~0u : 0;
	unsigned n = nv40_rt_color_bpp(fmt);
#define CH(bit, val, bits_mask) do { v |= (val); if (mask & (bit)) m |= (bits_mask); } while (0)

	memset(pat, 0, 16);
	memset(msk, 0, 16);
	switch (fmt) {
	case NV40_RT_COLOR_R5G6B5:
		CH(1, rt_unorm(rgba[0], 5) << 11, 0xf800u);
		CH(2, rt_unorm(rgba[1], 6) << 5, 0x07e0u);
		CH(4, rt_unorm(rgba[2], 5), 0x001fu);
		break;
	case NV40_RT_COLOR_X1R5G5B5_Z1R5G5B5:
	case NV40_RT_COLOR_X1R5G5B5_O1R5G5B5:
		CH(1, rt_unorm(rgba[0], 5) << 10, 0x7c00u);
		CH(2, rt_unorm(rgba[1], 5) << 5, 0x03e0u);
		CH(4, rt_unorm(rgba[2], 5), 0x001fu);
		v |= fmt == NV40_RT_COLOR_X1R5G5B5_O1R5G5B5 ? 0x8000u : 0;
		m |= any & 0x8000u;
		break;
	case NV40_RT_COLOR_A8R8G8B8:
	case NV40_RT_COLOR_X8R8G8B8_Z8R8G8B8:
	case NV40_RT_COLOR_X8R8G8B8_O8R8G8B8:
	case NV40_RT_COLOR_A8B8G8R8:
	case NV40_RT_COLOR_X8B8G8R8_Z8B8G8R8:
	case NV40_RT_COLOR_X8B8G8R8_O8B8G8R8: {
		unsigned rs = rt_8888_bgra(fmt) ? 16 : 0;
		CH(1, rt_unorm(rgba[0], 8) << rs, 0xffu << rs);
		CH(2, rt_unorm(rgba[1], 8) << 8, 0x0000ff00u);
		CH(4, rt_unorm(rgba[2], 8) << (16 - rs), 0xffu << (16 - rs));
		if (fmt == NV40_RT_COLOR_A8R8G8B8 || fmt == NV40_RT_COLOR_A8B8G8R8)
			CH(8, rt_unorm(rgba[3], 8) << 24, 0xff000000u);
		else {
			v |= fmt == NV40_RT_COLOR_X8R8G8B8_O8R8G8B8 ||
			     fmt == NV40_RT_COLOR_X8B8G8R8_O8B8G8R8 ? 0xff000000u : 0;
			m |= any & 0xff000000u;
		}
		break;
	}
	case NV40_RT_COLOR_B8:
		CH(4, rt_unorm(rgba[2], 8), 0xffu);
		break;
	case NV40_RT_COLOR_G8B8:
		CH(2, rt_unorm(rgba[1], 8) << 8, 0xff00u);
		CH(4, rt_unorm(rgba[2], 8), 0x00ffu);
		break;
	case NV40_RT_COLOR_A16B16G16R16_FLOAT:
		for (unsigned i = 0; i < 4; i++) {
			rt_set(pat + 2 * i, 2, sim_f2h(rgba[i]));
			if (mask & (1u << i))
				msk[2 * i] = msk[2 * i + 1] = 0xff;
		}
		return n;
	case NV40_RT_COLOR_A32B32G32R32_FLOAT:
		for (unsigned i = 0; i < 4; i++) {
			rt_set(pat + 4 * i, 4, sim_f2u(rgba[i]));
			if (mask & (1u << i))
				memset(msk + 4 * i, 0xff, 4);
		}
		return n;
	case NV40_RT_COLOR_R32_FLOAT:
		CH(1, sim_f2u(rgba[0]), 0xffffffffu);
		break;
	default:
		return 0;
	}
#undef CH
	rt_set(pat, n, v);
	rt_set(msk, n, m);
	return n;
}

void sim_rt_write(const struct sim_rt *rt, unsigned x, unsigned y, const float rgba[4],
		  unsigned mask)
{
	uint8_t *p = sim_rt_pixel(rt, x, y);
	uint8_t pat[16], msk[16];
	unsigned n;

	if (!p)
		return;
	n = sim_rt_pack(rt->format, rgba, mask, pat, msk);
	if (n == rt->bpp)
		rt_put(p, pat, msk, n);
}
