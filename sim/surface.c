/* Pixel formats and conversions, the ternary ROP, the pattern, rectangles
 * and SIFM sampling: the pure half of what the 2D engines share (see
 * surface.h for the model). */
#include "surface.h"

#include <string.h>

/* ---- formats ---- */

#define SIM_PF(bpp, ly, x) { bpp, SIM_LY_##ly, SIM_X_##x }

static const struct sim_pixfmt sim_surf_fmts[] = {
	[NV_SURF_FORMAT_Y8]                    = SIM_PF(1, Y8,   ALPHA),
	[NV_SURF_FORMAT_X1R5G5B5_Z1R5G5B5]     = SIM_PF(2, 1555, ZERO),
	[NV_SURF_FORMAT_X1R5G5B5_X1R5G5B5]     = SIM_PF(2, 1555, ONE),
	[NV_SURF_FORMAT_R5G6B5]                = SIM_PF(2, 565,  ONE),
	[NV_SURF_FORMAT_Y16]                   = SIM_PF(2, Y16,  ALPHA),
	[NV_SURF_FORMAT_X8R8G8B8_Z8R8G8B8]     = SIM_PF(4, 8888, ZERO),
	[NV_SURF_FORMAT_X8R8G8B8_X8R8G8B8]     = SIM_PF(4, 8888, ONE),
	[NV_SURF_FORMAT_X1A7R8G8B8_Z1A7R8G8B8] = SIM_PF(4, 1788, ZERO),
	[NV_SURF_FORMAT_X1A7R8G8B8_X1A7R8G8B8] = SIM_PF(4, 1788, ONE),
	[NV_SURF_FORMAT_A8R8G8B8]              = SIM_PF(4, 8888, ALPHA),
	[NV_SURF_FORMAT_Y32]                   = SIM_PF(4, Y32,  ALPHA),
};

static const struct sim_pixfmt sim_gdi_fmts[] = {
	[NV_GDI_COLOR_FORMAT_A16R5G6B5]   = SIM_PF(2, 565,  ONE),
	[NV_GDI_COLOR_FORMAT_X16A1R5G5B5] = SIM_PF(2, 1555, ALPHA),
	[NV_GDI_COLOR_FORMAT_A8R8G8B8]    = SIM_PF(4, 8888, ALPHA),
};

static const struct sim_pixfmt sim_ifc_fmts[] = {
	[NV_IFC_COLOR_FORMAT_R5G6B5]   = SIM_PF(2, 565,  ONE),
	[NV_IFC_COLOR_FORMAT_A1R5G5B5] = SIM_PF(2, 1555, ALPHA),
	[NV_IFC_COLOR_FORMAT_X1R5G5B5] = SIM_PF(2, 1555, ONE),
	[NV_IFC_COLOR_FORMAT_A8R8G8B8] = SIM_PF(4, 8888, ALPHA),
	[NV_IFC_COLOR_FORMAT_X8R8G8B8] = SIM_PF(4, 8888, ONE),
};

static const struct sim_pixfmt sim_sifm_fmts[] = {
	[NV_SIFM_COLOR_FORMAT_A1R5G5B5]   = SIM_PF(2, 1555, ALPHA),
	[NV_SIFM_COLOR_FORMAT_X1R5G5B5]   = SIM_PF(2, 1555, ONE),
	[NV_SIFM_COLOR_FORMAT_A8R8G8B8]   = SIM_PF(4, 8888, ALPHA),
	[NV_SIFM_COLOR_FORMAT_X8R8G8B8]   = SIM_PF(4, 8888, ONE),
	[NV_SIFM_COLOR_FORMAT_V8YB8U8YA8] = SIM_PF(2, YUY2, ONE),
	[NV_SIFM_COLOR_FORMAT_YB8V8YA8U8] = SIM_PF(2, UYVY, ONE),
	[NV_SIFM_COLOR_FORMAT_R5G6B5]     = SIM_PF(2, 565,  ONE),
	[NV_SIFM_COLOR_FORMAT_Y8]         = SIM_PF(1, Y8,   ONE),
	[NV_SIFM_COLOR_FORMAT_AY8]        = SIM_PF(1, Y8,   ALPHA),
};

#define SIM_FMT_LOOKUP(tab, v) \
	((v) < sizeof(tab) / sizeof(tab[0]) && tab[v].bpp ? &tab[v] : NULL)

const struct sim_pixfmt *sim_surf_fmt(uint32_t v) { return SIM_FMT_LOOKUP(sim_surf_fmts, v); }
const struct sim_pixfmt *sim_gdi_fmt(uint32_t v) { return SIM_FMT_LOOKUP(sim_gdi_fmts, v); }
const struct sim_pixfmt *sim_ifc_fmt(uint32_t v) { return SIM_FMT_LOOKUP(sim_ifc_fmts, v); }
const struct sim_pixfmt *sim_sifm_fmt(uint32_t v) { return SIM_FMT_LOOKUP(sim_sifm_fmts, v); }

/* ---- conversions ---- */

static inline uint32_t sim_wide5(uint32_t c) { return c << 3 | c >> 2; }
static inline uint32_t sim_wide6(uint32_t c) { return c << 2 | c >> 4; }

uint32_t sim_px_decode(const struct sim_pixfmt *f, uint32_t raw)
{
	uint32_t a, r, g, b;

	switch (f->layout) {
	case SIM_LY_Y8:
		raw &= 0xff;
		a = f->xbits == SIM_X_ALPHA ? raw : 0xff;
		return a << 24 | raw << 16 | raw << 8 | raw;
	case SIM_LY_565:
		r = sim_wide5(raw >> 11 & 0x1f);
		g = sim_wide6(raw >> 5 & 0x3f);
		b = sim_wide5(raw & 0x1f);
		return 0xffu << 24 | r << 16 | g << 8 | b;
	case SIM_LY_1555:
		r = sim_wide5(raw >> 10 & 0x1f);
		g = sim_wide5(raw >> 5 & 0x1f);
		b = sim_wide5(raw & 0x1f);
		a = f->xbits != SIM_X_ALPHA || (raw & 0x8000) ? 0xff : 0;
		return a << 24 | r << 16 | g << 8 | b;
	case SIM_LY_8888:
		return f->xbits == SIM_X_ALPHA ? raw : (raw | 0xff000000u);
	case SIM_LY_1788:
		return (raw & 0x00ffffffu) | 0xff000000u;
	case SIM_LY_Y16:
		return raw & 0xffff;
	case SIM_LY_Y32:
		return raw;
	}
	return 0; /* YUV: see sim_px_yuv */
}

uint32_t sim_px_encode(const struct sim_pixfmt *f, uint32_t argb)
{
	uint32_t a = argb >> 24, r = argb >> 16 & 0xff, g = argb >> 8 & 0xff, b = argb & 0xff;

	switch (f->layout) {
	case SIM_LY_Y8:
		return argb & 0xff;
	case SIM_LY_Y16:
		return argb & 0xffff;
	case SIM_LY_Y32:
		return argb;
	case SIM_LY_565:
		return (r >> 3) << 11 | (g >> 2) << 5 | b >> 3;
	case SIM_LY_1555: {
		uint32_t x = f->xbits == SIM_X_ALPHA ? (a >= 0x80) : f->xbits == SIM_X_ONE;
		return x << 15 | (r >> 3) << 10 | (g >> 3) << 5 | b >> 3;
	}
	case SIM_LY_8888:
		if (f->xbits == SIM_X_ONE)
			a = 0xff;
		else if (f->xbits == SIM_X_ZERO)
			a = 0;
		return a << 24 | (argb & 0x00ffffffu);
	case SIM_LY_1788:
		return (uint32_t)(f->xbits == SIM_X_ONE) << 31 | (a >> 1) << 24 | (argb & 0x00ffffffu);
	}
	return 0;
}

uint32_t sim_px_convert(const struct sim_pixfmt *src, const struct sim_pixfmt *dst, uint32_t raw)
{
	if (src->layout == dst->layout)
		return raw & sim_px_mask(dst->bpp);
	return sim_px_encode(dst, sim_px_decode(src, raw));
}

static inline uint32_t sim_clamp8(int32_t v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v;
}

uint32_t sim_px_yuv(uint8_t y, uint8_t u, uint8_t v)
{
	int32_t c = (int32_t)y - 16, d = (int32_t)u - 128, e = (int32_t)v - 128;
	uint32_t r = sim_clamp8((298 * c + 409 * e + 128) >> 8);
	uint32_t g = sim_clamp8((298 * c - 100 * d - 208 * e + 128) >> 8);
	uint32_t b = sim_clamp8((298 * c + 516 * d + 128) >> 8);
	return 0xffu << 24 | r << 16 | g << 8 | b;
}

void sim_px_fill(uint8_t *p, unsigned bpp, uint32_t v, uint32_t n)
{
	uint64_t bytes = (uint64_t)n * bpp, done;

	if (!n)
		return;
	if (bpp == 1 || (bpp == 2 && (v & 0xff) == (v >> 8 & 0xff)) ||
	    (bpp == 4 && v == (v & 0xff) * 0x01010101u)) {
		memset(p, v & 0xff, bytes);
		return;
	}
	sim_px_store(p, bpp, v);
	/* double the filled prefix */
	for (done = bpp; done < bytes; done *= 2)
		memcpy(p + done, p, done < bytes - done ? done : bytes - done);
}

/* ---- ROP, pattern, rectangles ---- */

uint32_t sim_rop3(uint32_t rop, uint32_t p, uint32_t s, uint32_t d)
{
	uint32_t r = 0;

	switch (rop & 0xff) {   /* the codes X and Mesa use most, directly */
	case 0x00: return 0;
	case 0xff: return 0xffffffffu;
	case 0xcc: return s;
	case 0xaa: return d;
	case 0x66: return s ^ d;
	case 0x88: return s & d;
	case 0xee: return s | d;
	case 0xca: return (s & p) | (d & ~p);
	}
	for (unsigned i = 0; i < 8; i++)
		if (rop >> i & 1)
			r |= (i & 4 ? p : ~p) & (i & 2 ? s : ~s) & (i & 1 ? d : ~d);
	return r;
}

static inline uint32_t sim_bitrev_bytes(uint32_t v)
{
	v = (v & 0xaaaaaaaau) >> 1 | (v & 0x55555555u) << 1;
	v = (v & 0xccccccccu) >> 2 | (v & 0x33333333u) << 2;
	v = (v & 0xf0f0f0f0u) >> 4 | (v & 0x0f0f0f0fu) << 4;
	return v;
}

void sim_patt_load(struct sim_patt *pt, const uint32_t *patt)
{
	int cga6 = patt[NV_PATT_MONOCHROME_FORMAT__SLOT] == NV_PATT_MONO_FORMAT_CGA6;

	for (unsigned i = 0; i < 2; i++) {
		uint32_t b = patt[NV_PATT_MONOCHROME_PATTERN__SLOT + i];
		pt->color[i] = patt[NV_PATT_MONOCHROME_COLOR__SLOT + i];
		pt->bits[i] = cga6 ? sim_bitrev_bytes(b) : b;
	}
	pt->shape = patt[NV_PATT_MONOCHROME_SHAPE__SLOT];
}

/* ---- SIFM sampling ---- */

static inline int64_t sim_clamp64(int64_t v, uint32_t n)
{
	return v < 0 ? 0 : v >= (int64_t)n ? (int64_t)n - 1 : v;
}

uint32_t sim_sifm_texel_raw(const struct sim_sifm_src *src, int64_t u, int64_t v)
{
	const struct sim_pixfmt *f = src->fmt;
	const uint8_t *row;

	u = sim_clamp64(u, src->w);
	v = sim_clamp64(v, src->h);
	row = src->base + (v - src->v_lo) * src->pitch;
	return sim_px_load(row + (u - src->u_lo) * f->bpp, f->bpp);
}

uint32_t sim_sifm_texel(const struct sim_sifm_src *src, int64_t u, int64_t v)
{
	const struct sim_pixfmt *f = src->fmt;
	const uint8_t *pair;

	if (f->layout != SIM_LY_YUY2 && f->layout != SIM_LY_UYVY)
		return sim_px_decode(f, sim_sifm_texel_raw(src, u, v));
	/* a 32-bit word holds a pixel pair sharing U and V */
	u = sim_clamp64(u, src->w);
	v = sim_clamp64(v, src->h);
	pair = src->base + (v - src->v_lo) * src->pitch + ((u & ~(int64_t)1) - src->u_lo) * 2;
	if (f->layout == SIM_LY_YUY2)   /* Y0 U Y1 V */
		return sim_px_yuv(pair[(u & 1) * 2], pair[1], pair[3]);
	return sim_px_yuv(pair[1 + (u & 1) * 2], pair[0], pair[2]);   /* U Y0 V Y1 */
}

uint32_t sim_sifm_bilinear(const struct sim_sifm_src *src, int64_t su, int64_t sv, int center)
{
	const int64_t half = center ? (int64_t)1 << (NV_SIFM_POS_FRAC - 1) : 0;
	int64_t tu = su - half, tv = sv - half;
	int64_t u = nv_sifm_floor(tu), v = nv_sifm_floor(tv);
	/* the low bits of the two's complement are the fraction above the floor */
	uint32_t fu = (uint32_t)((uint64_t)tu >> (NV_SIFM_POS_FRAC - 8)) & 0xff;
	uint32_t fv = (uint32_t)((uint64_t)tv >> (NV_SIFM_POS_FRAC - 8)) & 0xff;
	uint32_t c00 = sim_sifm_texel(src, u, v), c10 = sim_sifm_texel(src, u + 1, v);
	uint32_t c01 = sim_sifm_texel(src, u, v + 1), c11 = sim_sifm_texel(src, u + 1, v + 1);
	uint32_t w00 = (256 - fu) * (256 - fv), w10 = fu * (256 - fv);
	uint32_t w01 = (256 - fu) * fv, w11 = fu * fv;
	uint32_t out = 0;

	for (unsigned sh = 0; sh < 32; sh += 8) {
		uint32_t c = ((c00 >> sh & 0xff) * w00 + (c10 >> sh & 0xff) * w10 +
			      (c01 >> sh & 0xff) * w01 + (c11 >> sh & 0xff) * w11 + (1u << 15)) >> 16;
		out |= c << sh;
	}
	return out;
}
