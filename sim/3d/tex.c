/* The fragment texture units' sampler (tex.h).  Layout from hw/tex-layout,
 * field meanings from hw/tex.h; conventions follow GL and llvmpipe, which
 * the project compares against: texel centres at +0.5, floor for nearest,
 * LOD = log2 of the longer scaled derivative, one LOD per quad for implicit
 * derivatives, shadow compare per texel before filtering.
 *
 * Pipeline per pixel: coordinates (TXP divides by q, cubes pick a face by
 * the major axis) -> LOD (bias, TXB/TXL, TEX_ENABLE min/max) -> level(s)
 * and filter -> per texel: wrap, fetch, decode to native X Y Z W (signed,
 * sRGB, depth compare) -> blend -> TEX_SWIZZLE to RGBA.
 *
 * Cube derivatives go through the face projection (quotient rule) so LOD
 * works on faces; wrap modes apply per face (NV40 has no seamless cubes).
 * TEX_ENABLE ANISO spreads up to 2..16 probes, each filtered as above,
 * along the footprint's major axis (tex_aniso).  Not modelled: TEX_WRAP
 * EXPAND_NORMAL and the aniso/trilinear optimisation knobs (TEX_WRAP 6:4,
 * TEX_FILTER_OPTIMIZATION: they trade quality for speed on the silicon,
 * the model always takes the full footprint).  When the min filter has no
 * mip mode a minified texture reads level 0 (Mesa: the hardware ignores
 * the LOD clamps then).  Z16/Z24 always compare (RCOMP 0 = NEVER): Mesa
 * samples depth without compare through A8L8 / A16L16. */
#include "tex.h"
#include "half.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "hw/tex-layout.h"
#include "hw/tex.h"
#include "sim/swizzle.h"

/* The per-texel helpers, inlined into the level samplers specialised per
 * decoder (tex_level2d_bgra8 and the others). */
#define TEX_INLINE static inline __attribute__((always_inline))

/* The last DXT block a request decoded: its colours (and alphas) as native
 * floats, so the texels of a bilinear footprint decode the block once. */
struct tex_dxt_cache {
	const uint8_t *blk;           /* NULL: empty */
	uint32_t cbits;               /* 2-bit colour codes */
	uint64_t abits;               /* DXT3: 4-bit alphas, DXT5: 3-bit alpha codes */
	float col[4][4];              /* per colour code: native X Y Z, and W (DXT1) */
	float alpha[16];              /* DXT3: per 4-bit alpha, DXT5: per alpha code */
};

/* One request's working state. */
struct tex_ctx {
	const struct sim_tex_view *v;
	const struct nv40_tex_layout *l;
	float ref;                    /* the pixel's depth reference */
	struct tex_dxt_cache dxt;
};

/* Texel decoders, chosen once per view. */
enum {
	TEX_DEC_GENERIC,     /* tex_bits per channel: 16-bit, half, float, depth */
	TEX_DEC_BGRA8,       /* A8R8G8B8: one byte per native channel */
	TEX_DEC_SMALL,       /* UNORM of <= 4 bytes, channels <= 8 bits */
	TEX_DEC_DXT,
};

uint64_t sim_tex_extent(const struct sim_tex_unit *t)
{
	return nv40_tex_extent(t->format, t->npot_size, t->size1);
}

/* ---- decode ---- */

/* n <= 32 bits from bit lo of a little-endian texel. */
static uint32_t tex_bits(const uint8_t *p, unsigned lo, unsigned n)
{
	uint64_t v = 0;
	unsigned i, b = lo / 8, sh = lo % 8;

	for (i = 0; i < (sh + n + 7) / 8; i++)
		v |= (uint64_t)p[b + i] << (8 * i);
	v >>= sh;
	return n >= 32 ? (uint32_t)v : (uint32_t)(v & ((1u << n) - 1));
}

static float tex_srgb(float c)
{
	if (c <= 0.04045f)
		return c / 12.92f;
	return powf((c + 0.055f) / 1.055f, 2.4f);
}

static float tex_unorm(uint32_t raw, unsigned n, int sgn)
{
	if (sgn) {
		/* two's complement n bits, -max-1 clamps to -1 like GL SNORM */
		int32_t v = (int32_t)(raw << (32 - n)) >> (32 - n);
		float f = (float)v / (float)((1u << (n - 1)) - 1);
		return f < -1.0f ? -1.0f : f;
	}
	return (float)raw / (float)(n >= 32 ? 4294967295.0 : (double)((1ull << n) - 1));
}

/* Every value a channel of 1..8 bits decodes to, computed by the functions
 * above so the tables give the same floats: [bits - 1][variant][raw],
 * variant 0 UNORM, 1 SNORM, 2 UNORM then sRGB.  The absent channels'
 * constants: 0, 1, and the two through sRGB. */
enum { TEX_LUT_UNORM, TEX_LUT_SNORM, TEX_LUT_SRGB };
static float tex_lut8[8][3][256];
static float tex_lut_const[4];
static uint16_t tex_spread8[256];   /* sim_swz_spread of a byte */
static pthread_once_t tex_lut_once = PTHREAD_ONCE_INIT;

static void tex_lut_init(void)
{
	for (unsigned n = 1; n <= 8; n++)
		for (uint32_t raw = 0; raw < (1u << n); raw++) {
			tex_lut8[n - 1][TEX_LUT_UNORM][raw] = tex_unorm(raw, n, 0);
			tex_lut8[n - 1][TEX_LUT_SNORM][raw] = tex_unorm(raw, n, 1);
			tex_lut8[n - 1][TEX_LUT_SRGB][raw] = tex_srgb(tex_unorm(raw, n, 0));
		}
	tex_lut_const[0] = 0.0f;
	tex_lut_const[1] = 1.0f;
	tex_lut_const[2] = tex_srgb(0.0f);
	tex_lut_const[3] = tex_srgb(1.0f);
	for (uint32_t b = 0; b < 256; b++)
		tex_spread8[b] = (uint16_t)sim_swz_spread(b);
}

static void tex_565_to_rgb(uint32_t c, unsigned rgb[3])
{
	unsigned r = (c >> 11) & 0x1f, g = (c >> 5) & 0x3f, b = c & 0x1f;

	rgb[0] = r << 3 | r >> 2;
	rgb[1] = g << 2 | g >> 4;
	rgb[2] = b << 3 | b >> 2;
}

/* Decode a DXT block's palette into the cache: colour codes to 8-bit
 * R G B (A), as native floats through the view's tables. */
static void tex_dxt_block(const struct sim_tex_view *v, const uint8_t *blk,
			  struct tex_dxt_cache *dc)
{
	unsigned kind = v->l.kind;
	const uint8_t *col = kind == NV40_TEXK_DXT1 ? blk : blk + 8;
	uint32_t c0 = col[0] | col[1] << 8, c1 = col[2] | col[3] << 8;
	unsigned e0[3], e1[3], rgba[4][4], k, code;

	tex_565_to_rgb(c0, e0);
	tex_565_to_rgb(c1, e1);
	dc->cbits = (uint32_t)col[4] | (uint32_t)col[5] << 8 | (uint32_t)col[6] << 16 |
		    (uint32_t)col[7] << 24;
	for (code = 0; code < 4; code++) {
		rgba[code][3] = 255;
		/* DXT3/5 colour blocks always have four colours */
		if (kind != NV40_TEXK_DXT1 || c0 > c1) {
			for (k = 0; k < 3; k++) {
				switch (code) {
				case 0: rgba[code][k] = e0[k]; break;
				case 1: rgba[code][k] = e1[k]; break;
				case 2: rgba[code][k] = (2 * e0[k] + e1[k] + 1) / 3; break;
				default: rgba[code][k] = (e0[k] + 2 * e1[k] + 1) / 3; break;
				}
			}
		} else {
			for (k = 0; k < 3; k++) {
				switch (code) {
				case 0: rgba[code][k] = e0[k]; break;
				case 1: rgba[code][k] = e1[k]; break;
				case 2: rgba[code][k] = (e0[k] + e1[k]) / 2; break;
				default: rgba[code][k] = 0; break;
				}
			}
			if (code == 3)
				rgba[code][3] = 0;
		}
		/* native X Y Z W = B G R A */
		dc->col[code][0] = v->lut[0][rgba[code][2]];
		dc->col[code][1] = v->lut[1][rgba[code][1]];
		dc->col[code][2] = v->lut[2][rgba[code][0]];
		dc->col[code][3] = v->lut[3][rgba[code][3]];
	}
	dc->abits = 0;
	if (kind == NV40_TEXK_DXT3) {
		for (k = 0; k < 8; k++)
			dc->abits |= (uint64_t)blk[k] << (8 * k);
		for (k = 0; k < 16; k++)
			dc->alpha[k] = v->lut[3][k * 17];
	} else if (kind == NV40_TEXK_DXT5) {
		unsigned a0 = blk[0], a1 = blk[1], a;

		for (k = 0; k < 6; k++)
			dc->abits |= (uint64_t)blk[2 + k] << (8 * k);
		for (k = 0; k < 8; k++) {
			if (k == 0)
				a = a0;
			else if (k == 1)
				a = a1;
			else if (a0 > a1)
				a = ((8 - k) * a0 + (k - 1) * a1 + 3) / 7;
			else if (k < 6)
				a = ((6 - k) * a0 + (k - 1) * a1 + 2) / 5;
			else
				a = k == 6 ? 0 : 255;
			dc->alpha[k] = v->lut[3][a];
		}
	}
	dc->blk = blk;
}

static float tex_compare(unsigned op, float ref, float d)
{
	switch (op) {
	case NV40_TEX_RCOMP_GREATER:  return ref > d;
	case NV40_TEX_RCOMP_EQUAL:    return ref == d;
	case NV40_TEX_RCOMP_GEQUAL:   return ref >= d;
	case NV40_TEX_RCOMP_LESS:     return ref < d;
	case NV40_TEX_RCOMP_NOTEQUAL: return ref != d;
	case NV40_TEX_RCOMP_LEQUAL:   return ref <= d;
	case NV40_TEX_RCOMP_ALWAYS:   return 1.0f;
	default:                      return 0.0f;   /* NEVER */
	}
}

/* The border colour as native channels (tex_prepare_border). */
static void tex_border(const struct tex_ctx *c, float v[4])
{
	const struct sim_tex_view *w = c->v;

	if (w->compare) {
		float r = tex_compare(w->rcomp, c->ref, w->border[2]);
		v[0] = v[1] = v[2] = v[3] = r;
		return;
	}
	v[0] = w->border[0];
	v[1] = w->border[1];
	v[2] = w->border[2];
	v[3] = w->border[3];
}

/* Four channels at once (GCC's generic vectors: every lane is the scalar
 * operation, on any target). */
typedef float tex_v4 __attribute__((vector_size(16)));

/* How an A8R8G8B8 texel is decoded (the quad paths choose once per view):
 * through one table (every channel UNORM), through four, or (SSE2)
 * dividing the UNORM bytes by 255: the table's value of a byte b is
 * (float)b / 255.0f, a correctly rounded division, so dividing a texel's
 * four bytes at once gives the table's floats (test_sim_fastpaths samples
 * every byte value this way). */
enum { TEX_TAPS_LUT1, TEX_TAPS_LUT4, TEX_TAPS_DIV255 };

/* The A8R8G8B8 texel at t as native floats, decoded as `how` says (a
 * constant where inlined). */
TEX_INLINE tex_v4 tex_tap_texel(const float *const lut[4], unsigned how, const uint8_t *t)
{
#ifdef __SSE2__
	if (how == TEX_TAPS_DIV255) {
		const __m128i zero = _mm_setzero_si128();
		uint32_t w;
		memcpy(&w, t, sizeof(w));
		__m128i b = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)w), zero), zero);
		return (tex_v4)_mm_cvtepi32_ps(b) / 255.0f;
	}
#endif
	if (how == TEX_TAPS_LUT1)
		return (tex_v4){ lut[0][t[0]], lut[0][t[1]], lut[0][t[2]], lut[0][t[3]] };
	return (tex_v4){ lut[0][t[0]], lut[1][t[1]], lut[2][t[2]], lut[3][t[3]] };
}

/* How view w's A8R8G8B8 texels are best decoded (tex_tap_texel). */
static inline unsigned tex_taps_how(const struct sim_tex_view *w)
{
	if (w->lut[1] != w->lut[0] || w->lut[2] != w->lut[0] || w->lut[3] != w->lut[0])
		return TEX_TAPS_LUT4;
#ifdef __SSE2__
	if (w->lut[0] == tex_lut8[7][TEX_LUT_UNORM])
		return TEX_TAPS_DIV255;
#endif
	return TEX_TAPS_LUT1;
}

/* The texel at p through the table decoder dec (TEX_DEC_BGRA8 or
 * TEX_DEC_SMALL) as native floats, in one register. */
TEX_INLINE tex_v4 tex_texel_lut(const struct sim_tex_view *w, const uint8_t *p, unsigned dec,
				unsigned bytes)
{
	if (dec == TEX_DEC_BGRA8)
		return tex_tap_texel(w->lut, TEX_TAPS_LUT4, p);
	uint32_t t = p[0];
	if (bytes > 1)
		t |= (uint32_t)p[1] << 8;
	if (bytes > 2)
		t |= (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return (tex_v4){ w->lut[0][(t >> w->lo[0]) & w->cmask[0]],
			 w->lut[1][(t >> w->lo[1]) & w->cmask[1]],
			 w->lut[2][(t >> w->lo[2]) & w->cmask[2]],
			 w->lut[3][(t >> w->lo[3]) & w->cmask[3]] };
}

/* The texel at p (x, y: its place, for DXT's texel in the block) as
 * native floats, through decoder dec (the view's: a constant where the
 * caller is specialised for one). */
TEX_INLINE void tex_decode(struct tex_ctx *c, const uint8_t *p, uint32_t x, uint32_t y,
			   float v[4], unsigned dec)
{
	const struct sim_tex_view *w = c->v;
	unsigned i;

	switch (dec) {
	case TEX_DEC_BGRA8:
	case TEX_DEC_SMALL: {
		tex_v4 t = tex_texel_lut(w, p, dec, c->l->bytes);
		memcpy(v, &t, sizeof(t));
		return;
	}
	case TEX_DEC_DXT: {
		struct tex_dxt_cache *dc = &c->dxt;
		unsigned t = (y & 3) * 4 + (x & 3), code;

		if (dc->blk != p)
			tex_dxt_block(w, p, dc);
		code = (dc->cbits >> (2 * t)) & 3;
		v[0] = dc->col[code][0];
		v[1] = dc->col[code][1];
		v[2] = dc->col[code][2];
		if (c->l->kind == NV40_TEXK_DXT3)
			v[3] = dc->alpha[(dc->abits >> (4 * t)) & 0xf];
		else if (c->l->kind == NV40_TEXK_DXT5)
			v[3] = dc->alpha[(dc->abits >> (3 * t)) & 7];
		else
			v[3] = dc->col[code][3];
		return;
	}
	}

	const struct nv40_tex_layout *l = c->l;
	for (i = 0; i < 4; i++) {
		unsigned n = w->f->bits[i];
		uint32_t raw;

		if (!n) {
			v[i] = i == 3 ? 1.0f : 0.0f;
			continue;
		}
		raw = tex_bits(p, w->f->lo[i], n);
		if (l->kind == NV40_TEXK_HALF)
			v[i] = sim_h2f((uint16_t)raw);
		else if (l->kind == NV40_TEXK_FLOAT)
			v[i] = sim_u2f(raw);
		else
			v[i] = tex_unorm(raw, n, (w->signed_mask >> i) & 1 &&
						  l->kind == NV40_TEXK_UNORM);
	}
	if (w->compare) {
		float r = tex_compare(w->rcomp, c->ref, v[0]);
		v[0] = v[1] = v[2] = v[3] = r;
		return;
	}
	if (l->kind == NV40_TEXK_UNORM)
		for (i = 0; i < 4; i++)
			if ((w->srgb_mask >> i) & 1 && !((w->signed_mask >> i) & 1))
				v[i] = tex_srgb(v[i]);
}

/* sim_swz_spread through a table, for the low 16 bits. */
static inline uint32_t tex_spread(uint32_t v)
{
	return tex_spread8[v & 0xff] | (uint32_t)tex_spread8[(v >> 8) & 0xff] << 16;
}

/* Byte offset of texel (x, y) from its 2D level's start (x, y inside):
 * tex_addr_x(x) + tex_addr_y(y) (swizzled: the parts of sim_swz_index's
 * sum, times the texel's bytes). */
static inline uint64_t tex_addr_x(const struct nv40_tex_layout *l, const struct sim_tex_lvl *L,
				  uint32_t x)
{
	if (l->dxt)
		return (uint64_t)(x / 4) * l->bytes;
	if (l->linear)
		return (uint64_t)x * l->bytes;
	return (uint64_t)(tex_spread(x & L->km) + ((x >> L->k) << (2 * L->k))) * l->bytes;
}

static inline uint64_t tex_addr_y(const struct nv40_tex_layout *l, const struct sim_tex_lvl *L,
				  const struct nv40_tex_level *lv, uint32_t y)
{
	if (l->dxt)
		return (uint64_t)(y / 4) * lv->pitch;
	if (l->linear)
		return (uint64_t)y * lv->pitch;
	return (uint64_t)((tex_spread(y & L->km) << 1) +
			  (((y >> L->k) << L->ysh) << (2 * L->k))) * l->bytes;
}

/* Texel (x, y) of a 2D face and level at byte offset off. */
TEX_INLINE void tex_fetch2d(struct tex_ctx *c, uint64_t off, uint32_t x, uint32_t y, float v[4],
			    unsigned dec)
{
	const struct nv40_tex_layout *l = c->l;

	if (off + l->bytes > l->extent) {   /* cannot happen: the layout bounds it */
		v[0] = v[1] = v[2] = v[3] = 0.0f;
		return;
	}
	tex_decode(c, c->v->mem + off, x, y, v, dec);
}

/* Texel (x, y, z) of a face and level, inside the level, as native floats. */
static void tex_fetch(struct tex_ctx *c, unsigned face, unsigned lvl, uint32_t x,
		      uint32_t y, uint32_t z, float v[4])
{
	const struct nv40_tex_layout *l = c->l;
	const struct nv40_tex_level *lv = &l->level[lvl];
	uint64_t off = face * l->face_stride + lv->offset;

	if (l->dxt)
		off += z * lv->zslice + (uint64_t)(y / 4) * lv->pitch + (uint64_t)(x / 4) * l->bytes;
	else if (l->linear)
		off += z * lv->zslice + (uint64_t)y * lv->pitch + (uint64_t)x * l->bytes;
	else if (l->dims == 3 && lv->d > 1)
		off += (uint64_t)sim_swz3d_index(x, y, z, l->log2w > lvl ? l->log2w - lvl : 0,
						 l->log2h > lvl ? l->log2h - lvl : 0,
						 l->log2d > lvl ? l->log2d - lvl : 0) * l->bytes;
	else
		off += (uint64_t)sim_swz_index(x, y, l->log2w > lvl ? l->log2w - lvl : 0,
					       l->log2h > lvl ? l->log2h - lvl : 0) * l->bytes;
	if (off + l->bytes > l->extent) {   /* cannot happen: the layout bounds it */
		v[0] = v[1] = v[2] = v[3] = 0.0f;
		return;
	}
	tex_decode(c, c->v->mem + off, x, y, v, c->v->dec);
}

/* ---- addressing ---- */

/* floorf(x) as an integer for |x| <= 2^24, where the conversions are
 * exact (floorf itself is a library call on baseline x86-64). */
static inline int32_t tex_floor24(float x)
{
	int32_t t = (int32_t)x;
	return (float)t > x ? t - 1 : t;
}

static inline int32_t tex_ifloor(float x)
{
	if (!(x == x))
		return 0;
	if (x < -16777216.0f)
		x = -16777216.0f;
	if (x > 16777216.0f)
		x = 16777216.0f;
	return tex_floor24(x);
}

/* Integer texel index under a wrap mode: -1 = the border. */
TEX_INLINE int32_t tex_wrap_index(int32_t i, int32_t n, unsigned mode, int linear)
{
	int32_t m;

	switch (mode) {
	case NV40_TEX_WRAP_REPEAT:
		if (!(n & (n - 1)))
			return i & (n - 1);          /* the same as below for a power of two */
		m = i % n;
		return m < 0 ? m + n : m;
	case NV40_TEX_WRAP_MIRRORED_REPEAT:
		m = i % (2 * n);
		if (m < 0)
			m += 2 * n;
		return m >= n ? 2 * n - 1 - m : m;
	case NV40_TEX_WRAP_CLAMP_TO_BORDER:
		return i < 0 || i >= n ? -1 : i;
	case NV40_TEX_WRAP_CLAMP:
		/* the coordinate was clamped to [0, n]: linear blends with the
		 * border at the edges, nearest takes the edge texel */
		if (linear && (i < 0 || i >= n))
			return -1;
		/* fall through */
	default:   /* CLAMP_TO_EDGE, and values that are no mode */
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
}

/* Coordinate x in texels (of a level n wide) to one (nearest) or two
 * (linear) indices and the weight of the second. */
TEX_INLINE void tex_wrap(float x, int32_t n, unsigned mode, int linear, int32_t idx[2],
			    float *frac)
{
	int32_t i0;

	switch (mode) {
	case NV40_TEX_WRAP_MIRROR_CLAMP_TO_EDGE:
		x = fabsf(x);
		mode = NV40_TEX_WRAP_CLAMP_TO_EDGE;
		break;
	case NV40_TEX_WRAP_MIRROR_CLAMP_TO_BORDER:
		x = fabsf(x);
		mode = NV40_TEX_WRAP_CLAMP_TO_BORDER;
		break;
	case NV40_TEX_WRAP_MIRROR_CLAMP:
		x = fabsf(x);
		mode = NV40_TEX_WRAP_CLAMP;
		break;
	}
	if (mode == NV40_TEX_WRAP_CLAMP)
		x = x < 0.0f ? 0.0f : x > (float)n ? (float)n : x;
	if (!(x == x))
		x = 0.0f;
	if (linear) {
		float fl;
		x -= 0.5f;
		i0 = tex_ifloor(x);
		fl = fabsf(x) < 8388608.0f ? (float)i0 : x;   /* floorf(x): 2^23 up are whole */
		*frac = x - fl;
		if (!(*frac >= 0.0f && *frac <= 1.0f))
			*frac = 0.0f;
		idx[0] = tex_wrap_index(i0, n, mode, 1);
		idx[1] = tex_wrap_index(i0 + 1, n, mode, 1);
	} else {
		*frac = 0.0f;
		idx[0] = idx[1] = tex_wrap_index(tex_ifloor(x), n, mode, 0);
	}
}

/* One texel of a 2D bilinear footprint, weight wgt, added to v (-1
 * indices: the border). */
TEX_INLINE void tex_tap(struct tex_ctx *c, float wgt, int32_t ix, int32_t iy, uint64_t ax,
			uint64_t ay, float v[4], unsigned dec)
{
	float tv[4];

	if (wgt == 0.0f)
		return;
	if (ix < 0 || iy < 0)
		tex_border(c, tv);
	else
		tex_fetch2d(c, ax + ay, (uint32_t)ix, (uint32_t)iy, tv, dec);
	for (unsigned i = 0; i < 4; i++)
		v[i] += wgt * tv[i];
}

/* One level of a 1D or 2D texture (or cube face), nearest or linear, at
 * coordinates in level-0 units: the footprint's addresses computed once
 * per row and column; texels through decoder dec. */
TEX_INLINE void tex_level2d(struct tex_ctx *c, unsigned face, unsigned lvl, int linear,
			    const float st[3], float v[4], unsigned dec)
{
	const struct sim_tex_view *w = c->v;
	const struct nv40_tex_layout *l = c->l;
	const struct sim_tex_lvl *L = &w->lv[lvl];
	const struct nv40_tex_level *lv = &l->level[lvl];
	uint64_t base = face * l->face_stride + lv->offset;
	int32_t ix[2], iy[2];
	float fx, fy, tv[4];
	unsigned i;

	tex_wrap(st[0] * L->fs[0], L->w, w->modes[0], linear, ix, &fx);
	tex_wrap(st[1] * L->fs[1], L->h, w->modes[1], linear, iy, &fy);

	if (!linear) {
		if (ix[0] < 0 || iy[0] < 0)
			tex_border(c, tv);
		else
			tex_fetch2d(c, base + tex_addr_x(l, L, (uint32_t)ix[0]) +
					    tex_addr_y(l, L, lv, (uint32_t)iy[0]),
				    (uint32_t)ix[0], (uint32_t)iy[0], tv, dec);
		for (i = 0; i < 4; i++)
			v[i] = 0.0f + tv[i];          /* as the blend below sums it */
		return;
	}

	/* the weights tex_level3d gives (its z factor is 1) */
	float wx[2] = { 1.0f - fx, fx }, wy[2] = { 1.0f - fy, fy };
	uint64_t ax[2] = { 0, 0 }, ay[2] = { base, base };
	for (i = 0; i < 2; i++) {
		if (ix[i] >= 0)
			ax[i] = tex_addr_x(l, L, (uint32_t)ix[i]);
		if (iy[i] >= 0)
			ay[i] += tex_addr_y(l, L, lv, (uint32_t)iy[i]);
	}
	v[0] = v[1] = v[2] = v[3] = 0.0f;
	tex_tap(c, wx[0] * wy[0], ix[0], iy[0], ax[0], ay[0], v, dec);
	tex_tap(c, wx[1] * wy[0], ix[1], iy[0], ax[1], ay[0], v, dec);
	tex_tap(c, wx[0] * wy[1], ix[0], iy[1], ax[0], ay[1], v, dec);
	tex_tap(c, wx[1] * wy[1], ix[1], iy[1], ax[1], ay[1], v, dec);
}

/* An A8R8G8B8 texel at byte offset off as native floats (tex_fetch2d). */
TEX_INLINE tex_v4 tex_texel_bgra8(const struct sim_tex_view *w, uint64_t off)
{
	if (off + 4 > w->l.extent)   /* cannot happen: the layout bounds it */
		return (tex_v4){ 0.0f, 0.0f, 0.0f, 0.0f };
	return tex_texel_lut(w, w->mem + off, TEX_DEC_BGRA8, 4);
}

/* tex_level2d's linear filter for A8R8G8B8 texels whose S and T wrap modes
 * (ms, mt: REPEAT or CLAMP_TO_EDGE, constants where it is inlined) never
 * give the border: the same indices, weights, texels and sums in the same
 * order, a texel's four channels at once.  No tap is left out for a zero
 * weight: its channels are finite, so it adds +0 or -0 to a sum that
 * started at +0 and so is never -0, which leaves the sum's bits as they
 * are. */
TEX_INLINE void tex_bilinear_bgra8(struct tex_ctx *c, unsigned face, unsigned lvl,
				   const float st[3], float v[4], unsigned ms, unsigned mt)
{
	const struct sim_tex_view *w = c->v;
	const struct nv40_tex_layout *l = c->l;
	const struct sim_tex_lvl *L = &w->lv[lvl];
	const struct nv40_tex_level *lv = &l->level[lvl];
	uint64_t base = face * l->face_stride + lv->offset, ax[2], ay[2];
	int32_t ix[2], iy[2];
	float fx, fy;
	unsigned i;

	tex_wrap(st[0] * L->fs[0], L->w, ms, 1, ix, &fx);
	tex_wrap(st[1] * L->fs[1], L->h, mt, 1, iy, &fy);
	float wx[2] = { 1.0f - fx, fx }, wy[2] = { 1.0f - fy, fy };
	for (i = 0; i < 2; i++) {
		ax[i] = tex_addr_x(l, L, (uint32_t)ix[i]);
		ay[i] = base + tex_addr_y(l, L, lv, (uint32_t)iy[i]);
	}
	tex_v4 acc = { 0.0f, 0.0f, 0.0f, 0.0f };
	acc += (wx[0] * wy[0]) * tex_texel_bgra8(w, ax[0] + ay[0]);
	acc += (wx[1] * wy[0]) * tex_texel_bgra8(w, ax[1] + ay[0]);
	acc += (wx[0] * wy[1]) * tex_texel_bgra8(w, ax[0] + ay[1]);
	acc += (wx[1] * wy[1]) * tex_texel_bgra8(w, ax[1] + ay[1]);
	memcpy(v, &acc, sizeof(acc));
}

/* tex_level2d for the common A8R8G8B8 texels and for any other. */
static void tex_level2d_bgra8(struct tex_ctx *c, unsigned face, unsigned lvl, int linear,
			      const float st[3], float v[4])
{
	enum { R = NV40_TEX_WRAP_REPEAT, E = NV40_TEX_WRAP_CLAMP_TO_EDGE };

	if (linear) {
		switch (c->v->wrap_st) {
		case TEX_WRAP_ST(R, R): tex_bilinear_bgra8(c, face, lvl, st, v, R, R); return;
		case TEX_WRAP_ST(R, E): tex_bilinear_bgra8(c, face, lvl, st, v, R, E); return;
		case TEX_WRAP_ST(E, R): tex_bilinear_bgra8(c, face, lvl, st, v, E, R); return;
		case TEX_WRAP_ST(E, E): tex_bilinear_bgra8(c, face, lvl, st, v, E, E); return;
		}
	}
	tex_level2d(c, face, lvl, linear, st, v, TEX_DEC_BGRA8);
}

static void tex_level2d_any(struct tex_ctx *c, unsigned face, unsigned lvl, int linear,
			    const float st[3], float v[4])
{
	tex_level2d(c, face, lvl, linear, st, v, c->v->dec);
}

/* One level of a 3D texture, nearest or linear, at coordinates in level-0
 * units (normalised, or texels for RECT). */
static void tex_level3d(struct tex_ctx *c, unsigned face, unsigned lvl, int linear,
			const float st[3], float v[4])
{
	const struct sim_tex_view *w = c->v;
	const struct nv40_tex_level *lv = &c->l->level[lvl];
	const struct sim_tex_lvl *L = &w->lv[lvl];
	int32_t n[3] = { (int32_t)lv->w, (int32_t)lv->h, (int32_t)lv->d };
	int32_t idx[3][2];
	float fr[3], x[3];
	unsigned a, k, corners;

	for (a = 0; a < 3; a++)
		x[a] = st[a] * L->fs[a];
	for (a = 0; a < 3; a++)
		tex_wrap(x[a], n[a], w->modes[a], linear, idx[a], &fr[a]);

	v[0] = v[1] = v[2] = v[3] = 0.0f;
	corners = linear ? 8 : 1;
	for (k = 0; k < corners; k++) {
		unsigned bx = k & 1, by = (k >> 1) & 1, bz = (k >> 2) & 1, i;
		float wgt = (bx ? fr[0] : 1.0f - fr[0]) * (by ? fr[1] : 1.0f - fr[1]) *
			    (bz ? fr[2] : 1.0f - fr[2]);
		int32_t ix = idx[0][bx], iy = idx[1][by], iz = idx[2][bz];
		float tv[4];

		if (!linear)
			wgt = 1.0f;
		if (wgt == 0.0f)
			continue;
		if (ix < 0 || iy < 0 || iz < 0)
			tex_border(c, tv);
		else
			tex_fetch(c, face, lvl, (uint32_t)ix, (uint32_t)iy, (uint32_t)iz, tv);
		for (i = 0; i < 4; i++)
			v[i] += wgt * tv[i];
	}
}

/* ---- coordinates and LOD ---- */

/* Cube face (GL order +X -X +Y -Y +Z -Z) and its (sc, tc, ma) components
 * of a direction: which coordinate and sign each takes. */
struct tex_cube_axes { unsigned sc, tc, ma; float ssc, stc; };
static const struct tex_cube_axes tex_cube_faces[6] = {
	{ 2, 1, 0, -1.0f, -1.0f },   /* +X: sc = -rz, tc = -ry */
	{ 2, 1, 0, 1.0f, -1.0f },    /* -X: sc = +rz, tc = -ry */
	{ 0, 2, 1, 1.0f, 1.0f },     /* +Y: sc = +rx, tc = +rz */
	{ 0, 2, 1, 1.0f, -1.0f },    /* -Y: sc = +rx, tc = -rz */
	{ 0, 1, 2, 1.0f, -1.0f },    /* +Z: sc = +rx, tc = -ry */
	{ 0, 1, 2, -1.0f, -1.0f },   /* -Z: sc = -rx, tc = -ry */
};

static unsigned tex_cube_face(const float d[3])
{
	float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]);

	if (ax >= ay && ax >= az)
		return d[0] >= 0.0f ? 0 : 1;
	if (ay >= az)
		return d[1] >= 0.0f ? 2 : 3;
	return d[2] >= 0.0f ? 4 : 5;
}

/* Direction and its derivatives to face coordinates in [0, 1] and theirs:
 * s = (sc / |ma| + 1) / 2, ds = (dsc - (sc/|ma|) d|ma|) / (2 |ma|). */
static void tex_cube_map(unsigned face, const float d[3], const float dx[3], const float dy[3],
			 float st[3], float dst_x[3], float dst_y[3])
{
	const struct tex_cube_axes *a = &tex_cube_faces[face];
	float ma = fabsf(d[a->ma]), sg = d[a->ma] >= 0.0f ? 1.0f : -1.0f;
	float u = a->ssc * d[a->sc], v = a->stc * d[a->tc];

	if (!(ma > 0.0f))
		ma = 1.0f;
	u /= ma;
	v /= ma;
	st[0] = (u + 1.0f) * 0.5f;
	st[1] = (v + 1.0f) * 0.5f;
	st[2] = 0.0f;
	dst_x[0] = (a->ssc * dx[a->sc] - u * sg * dx[a->ma]) / (2.0f * ma);
	dst_x[1] = (a->stc * dx[a->tc] - v * sg * dx[a->ma]) / (2.0f * ma);
	dst_y[0] = (a->ssc * dy[a->sc] - u * sg * dy[a->ma]) / (2.0f * ma);
	dst_y[1] = (a->stc * dy[a->tc] - v * sg * dy[a->ma]) / (2.0f * ma);
	dst_x[2] = dst_y[2] = 0.0f;
}

/* The squared lengths of the two derivatives, in level-0 texels. */
static inline void tex_footprint(const struct sim_tex_view *v, const float dx[3],
				 const float dy[3], float *lx, float *ly)
{
	unsigned a, axes = v->l.cube ? 2 : v->l.dims;

	*lx = *ly = 0.0f;
	for (a = 0; a < axes; a++) {
		float s = v->lscale[a];
		*lx += dx[a] * s * dx[a] * s;
		*ly += dy[a] * s * dy[a] * s;
	}
}

/* The LOD of a squared length: log2 of the length, bounded. */
static inline float tex_lod_of(float rho)
{
	if (!(rho > 0.0f))
		return -64.0f;
	if (rho > 1e30f)
		return 64.0f;
	return 0.5f * log2f(rho);
}

static float tex_lambda(const struct sim_tex_view *v, const float dx[3], const float dy[3])
{
	float lx, ly;

	tex_footprint(v, dx, dy, &lx, &ly);
	return tex_lod_of(lx > ly ? lx : ly);
}

/* The anisotropic footprint, the hardware's way in spirit: of the two
 * scaled derivatives the longer (Pmax) and the shorter (Pmin) give N =
 * min(ceil(Pmax / Pmin), the unit's most) probes along the longer, each
 * filtered at the shorter's LOD, log2(Pmin), but no finer than
 * log2(Pmax / most) where the probes run out.  Returns that LOD, *n the
 * probes and step[] the longer derivative in coordinate units; a round
 * footprint gives tex_lambda's LOD and one probe, the isotropic result. */
static float tex_aniso(const struct sim_tex_view *v, const float dx[3], const float dy[3],
		       unsigned *n, float step[3])
{
	float lx, ly, pmax, pmin, most = (float)v->aniso, r;
	unsigned a;

	tex_footprint(v, dx, dy, &lx, &ly);
	pmax = lx > ly ? lx : ly;
	pmin = lx > ly ? ly : lx;
	for (a = 0; a < 3; a++)
		step[a] = lx > ly ? dx[a] : dy[a];
	*n = 1;
	if (!(pmax > 0.0f) || pmax > 1e30f)
		return tex_lod_of(pmax);
	/* a ratio a rounding above a whole number counts as it: a footprint
	 * round but for float rounding is one probe, at tex_lambda's LOD */
	r = sqrtf(pmax / pmin) - 1.0f / 256;        /* +inf when pmin is 0 */
	*n = r < most ? (unsigned)ceilf(r) : v->aniso;
	if (*n <= 1) {
		*n = 1;
		return tex_lod_of(pmax);
	}
	if (!(pmin * most * most > pmax))
		pmin = pmax / (most * most);
	return 0.5f * log2f(pmin);
}

/* ---- the unit resolved ---- */

/* The table a present channel of n bits reads through (variant as
 * tex_lut8), or the constant an absent one reads. */
static const float *tex_chan_lut(unsigned n, unsigned i, int sgn, int srgb)
{
	if (!n)
		return &tex_lut_const[(i == 3 ? 1 : 0) + (srgb && !sgn ? 2 : 0)];
	return tex_lut8[n - 1][sgn ? TEX_LUT_SNORM : srgb ? TEX_LUT_SRGB : TEX_LUT_UNORM];
}

/* TEX_BORDER_COLOR (A8R8G8B8) as the native channels a border texel has,
 * before TEX_SWIZZLE.  A texel of several channels takes them by name:
 * X = B, Y = G, Z = R, W = A, so the swizzle (a view's included) routes the
 * border as it routes texels.  A format that stores one channel for all
 * four (L8, A16, R32F, Z16, Z24) has one border value too: the border's
 * channel for the first output the swizzle gives the texel to, so Mesa's
 * A8 (L8 read into alpha) takes the border's alpha and its L8 / I8 / R8
 * the red.  Mesa's nv30 asks for no border-colour quirk, so GL's result
 * must come out of the card as it is; which border channel the silicon
 * picks for a one-channel format is not documented [inferred].  A view
 * swizzle moving such a texel to an earlier output (alpha into red) makes
 * that output's border channel the value, where GL wants the alpha: the
 * words cannot tell the two apart. */
static void tex_prepare_border(struct sim_tex_view *v, uint32_t word)
{
	static const uint8_t shift[4] = { 16, 8, 0, 24 };     /* R G B A in the word */
	const struct nv40_tex_format *f = v->f;
	unsigned i, out = 0;

	for (i = 0; i < 4; i++)
		v->border[i] = (float)((word >> (8 * i)) & 0xff) / 255.0f;
	if (!f->bits[0])
		return;                                          /* DXT */
	for (i = 1; i < 4; i++)
		if (f->lo[i] != f->lo[0] || f->bits[i] != f->bits[0])
			return;
	while (out < 3 && v->swz_src[out] != NV40_TEX_SWZ_COMPONENT)
		out++;
	for (i = 0; i < 4; i++)
		v->border[i] = (float)((word >> shift[out]) & 0xff) / 255.0f;
}

/* Does filter f read texels linearly (in the level it picks)? */
static inline unsigned tex_linear(unsigned f)
{
	return f == NV40_TEX_FILTER_LINEAR || f == NV40_TEX_FILTER_LINEAR_MIPMAP_NEAREST ||
	       f == NV40_TEX_FILTER_LINEAR_MIPMAP_LINEAR;
}

/* The last stamp sim_tex_prepare gave a view (tex_quad_select). */
static uint64_t tex_gen;

void sim_tex_prepare(struct sim_tex_view *v, const struct sim_tex_unit *t, const uint8_t *mem)
{
	unsigned i, lvl;

	v->ok = 0;
	if (!t)
		return;
	v->unit = *t;
	v->mem = mem;
	if (!mem || nv40_tex_layout(t->format, t->npot_size, t->size1, &v->l))
		return;
	pthread_once(&tex_lut_once, tex_lut_init);

	const struct nv40_tex_layout *l = &v->l;
	const struct nv40_tex_level *l0 = &l->level[0];
	v->f = nv40_tex_format(l->code);
	v->signed_mask = NV40_TEX_FILTER_SIGNED(t->filter);
	v->srgb_mask = 0;
	for (i = 0; i < 4; i++)
		if ((NV40_TEX_WRAP_SRGB(t->wrap) >> i) & 1)
			v->srgb_mask |= 1u << nv40_tex_srgb_ch(i);
	v->compare = l->kind == NV40_TEXK_DEPTH;
	v->rcomp = NV40_TEX_WRAP_RCOMP(t->wrap);
	v->minf = NV40_TEX_FILTER_MIN(t->filter);
	v->magf = NV40_TEX_FILTER_MAG(t->filter);
	/* a 1D footprint has no second axis to be anisotropic against */
	v->aniso = l->dims > 1 ? nv40_tex_aniso_max(NV40_TEX_ENABLE_ANISO(t->enable)) : 1;
	v->bias = (float)NV40_TEX_FILTER_LOD_BIAS(t->filter) / 256.0f;
	v->minlod = (float)NV40_TEX_ENABLE_MIN_LOD(t->enable) / 256.0f;
	v->maxlod = (float)NV40_TEX_ENABLE_MAX_LOD(t->enable) / 256.0f;
	/* one level, or a minification without mipmaps, reads level 0 */
	v->lod_linear = -1;
	if ((l->levels == 1 || v->minf == NV40_TEX_FILTER_NEAREST || v->minf == NV40_TEX_FILTER_LINEAR) &&
	    tex_linear(v->minf) == tex_linear(v->magf))
		v->lod_linear = (int)tex_linear(v->magf);
	v->modes[0] = NV40_TEX_WRAP_S(t->wrap);
	v->modes[1] = NV40_TEX_WRAP_T(t->wrap);
	v->modes[2] = NV40_TEX_WRAP_R(t->wrap);
	v->wrap_st = TEX_WRAP_ST(v->modes[0], v->modes[1]);
	{
		float scale[3] = { (float)l0->w, (float)l0->h, (float)l0->d };
		for (i = 0; i < 3; i++)
			v->lscale[i] = l->rect ? 1.0f : scale[i];
	}
	for (lvl = 0; lvl < l->levels; lvl++) {
		const struct nv40_tex_level *lv = &l->level[lvl];
		struct sim_tex_lvl *L = &v->lv[lvl];
		unsigned lw = l->log2w > lvl ? l->log2w - lvl : 0;
		unsigned lh = l->log2h > lvl ? l->log2h - lvl : 0;

		L->w = (int32_t)lv->w;
		L->h = (int32_t)lv->h;
		for (unsigned a = 0; a < 3; a++) {
			float size = a == 0 ? (float)lv->w : a == 1 ? (float)lv->h : (float)lv->d;
			if (l->rect)
				size /= a == 0 ? (float)l0->w : a == 1 ? (float)l0->h : (float)l0->d;
			L->fs[a] = size;
		}
		L->k = lw < lh ? lw : lh;
		L->km = (1u << L->k) - 1;
		L->ysh = lw - L->k;
	}
	for (i = 0; i < 4; i++) {
		v->swz_src[i] = (uint8_t)NV40_TEX_SWZ_SRC(t->swizzle, i);
		v->swz_ch[i] = (uint8_t)NV40_TEX_SWZ_NATIVE(NV40_TEX_SWZ_COMP(t->swizzle, i));
		v->swz_idx[i] = v->swz_src[i] == NV40_TEX_SWZ_COMPONENT ? v->swz_ch[i] :
				v->swz_src[i] == NV40_TEX_SWZ_ONE ? 5 : 4;
	}
	tex_prepare_border(v, t->border);

	/* the decoder: tables where every channel has <= 8 bits */
	v->dec = TEX_DEC_GENERIC;
	if (l->dxt) {
		v->dec = TEX_DEC_DXT;
		for (i = 0; i < 4; i++)
			v->lut[i] = tex_chan_lut(8, i, 0, (v->srgb_mask >> i) & 1 &&
							  !((v->signed_mask >> i) & 1));
	} else if (l->kind == NV40_TEXK_UNORM && l->bytes <= 4) {
		int small = 1;
		for (i = 0; i < 4; i++)
			if (v->f->bits[i] > 8 || v->f->lo[i] + v->f->bits[i] > 8 * l->bytes)
				small = 0;
		if (small) {
			for (i = 0; i < 4; i++) {
				unsigned n = v->f->bits[i];
				v->lut[i] = tex_chan_lut(n, i, (v->signed_mask >> i) & 1,
							 (v->srgb_mask >> i) & 1);
				v->cmask[i] = n ? (1u << n) - 1 : 0;
				v->lo[i] = n ? v->f->lo[i] : 0;
			}
			v->dec = TEX_DEC_SMALL;
			if (l->bytes == 4 && v->f->lo[0] == 0 && v->f->lo[1] == 8 &&
			    v->f->lo[2] == 16 && v->f->lo[3] == 24 && v->f->bits[0] == 8 &&
			    v->f->bits[1] == 8 && v->f->bits[2] == 8 && v->f->bits[3] == 8)
				v->dec = TEX_DEC_BGRA8;
		}
	}
	v->level = l->dims == 3 ? tex_level3d :
		   v->dec == TEX_DEC_BGRA8 ? tex_level2d_bgra8 : tex_level2d_any;
	v->gen = __atomic_add_fetch(&tex_gen, 1, __ATOMIC_RELAXED);
	v->ok = 1;
}

void sim_tex_view_generic(struct sim_tex_view *v)
{
	if (!v->ok || v->dec == TEX_DEC_DXT)
		return;
	v->dec = TEX_DEC_GENERIC;
	if (v->level == tex_level2d_bgra8)
		v->level = tex_level2d_any;
	v->lod_linear = -1;
	v->gen = 0;
}

/* What a clamped LOD selects: the level (and the next one, weighted
 * mfrac, for a mip-linear minification) and whether the filter is linear. */
struct tex_sel {
	unsigned lvl, lvl2, mip, linear;
	float mfrac;
};

static void tex_select(const struct sim_tex_view *v, float lambda, struct tex_sel *sel)
{
	const struct nv40_tex_layout *l = &v->l;
	unsigned filt, lvl, lvl2 = 0, mip = 0;
	float mfrac = 0.0f;

	if (lambda <= 0.0f) {
		filt = v->magf;
		lvl = 0;
	} else {
		filt = v->minf;
		lvl = 0;
		switch (v->minf) {
		case NV40_TEX_FILTER_NEAREST_MIPMAP_NEAREST:
		case NV40_TEX_FILTER_LINEAR_MIPMAP_NEAREST:
			lvl = (unsigned)tex_ifloor(lambda + 0.5f - 1e-6f);
			if (lvl >= l->levels)
				lvl = l->levels - 1;
			break;
		case NV40_TEX_FILTER_NEAREST_MIPMAP_LINEAR:
		case NV40_TEX_FILTER_LINEAR_MIPMAP_LINEAR:
			lvl = (unsigned)tex_ifloor(lambda);
			if (lvl >= l->levels - 1) {
				lvl = l->levels - 1;
			} else {
				lvl2 = lvl + 1;
				mfrac = lambda - (float)lvl;
				mip = mfrac > 0.0f;
			}
			break;
		}
	}
	sel->lvl = lvl;
	sel->lvl2 = lvl2;
	sel->mip = mip;
	sel->mfrac = mfrac;
	sel->linear = tex_linear(filt);
}

/* One probe at coordinates st through what tex_select chose, blended
 * between two levels for a mip-linear minification.  Native channels. */
static inline void tex_filter_sel(struct tex_ctx *c, unsigned face, const float st[3],
				  const struct tex_sel *sel, float val[4])
{
	float v2[4];

	c->v->level(c, face, sel->lvl, sel->linear, st, val);
	if (sel->mip) {
		c->v->level(c, face, sel->lvl2, sel->linear, st, v2);
		for (unsigned i = 0; i < 4; i++)
			val[i] += sel->mfrac * (v2[i] - val[i]);
	}
}

/* ---- a quad of A8R8G8B8 texels, bilinear ---- */

typedef int32_t tex_i4 __attribute__((vector_size(16)));

/* Per lane: where mask m is set a, else b. */
static inline tex_v4 tex_pick4(tex_i4 m, tex_v4 a, tex_v4 b)
{
	return (tex_v4)((m & (tex_i4)a) | (~m & (tex_i4)b));
}

static inline tex_i4 tex_ipick4(tex_i4 m, tex_i4 a, tex_i4 b)
{
	return (m & a) | (~m & b);
}

/* tex_wrap_index of four indices in mode REPEAT or CLAMP_TO_EDGE. */
TEX_INLINE tex_i4 tex_wrap_index4(tex_i4 i, int32_t n, unsigned mode)
{
	if (mode == NV40_TEX_WRAP_CLAMP_TO_EDGE) {
		const tex_i4 zero = { 0, 0, 0, 0 };
		i = tex_ipick4(i < 0, zero, i);
		return tex_ipick4(i >= n, zero + (n - 1), i);
	}
	if (!(n & (n - 1)))
		return i & (n - 1);
	i %= n;
	return i + (n & (i < 0));
}

/* tex_ifloor of four numbers, NaN already zeroed: the clamp to 2^24 and
 * the floor through a truncation. */
TEX_INLINE tex_i4 tex_ifloor4(tex_v4 x)
{
	const tex_v4 lim = { 16777216.0f, 16777216.0f, 16777216.0f, 16777216.0f };

	x = tex_pick4(x < -lim, -lim, x);
	x = tex_pick4(x > lim, lim, x);
	tex_i4 t = __builtin_convertvector(x, tex_i4);
	return t + (__builtin_convertvector(t, tex_v4) > x);    /* -1 where it rounded up */
}

/* tex_wrap of four coordinates, linear, in mode REPEAT or CLAMP_TO_EDGE:
 * each lane the scalar operations (tex_ifloor's clamp, the floor through
 * a truncation, the fraction's bounds). */
TEX_INLINE void tex_wrap_linear4(tex_v4 x, int32_t n, unsigned mode, tex_i4 idx[2], tex_v4 *frac)
{
	x = (tex_v4)((tex_i4)x & (x == x));                      /* NaN: 0 */
	x -= 0.5f;
	tex_i4 t = tex_ifloor4(x);
	tex_v4 ax = (tex_v4)((tex_i4)x & 0x7fffffff);
	tex_v4 f = x - tex_pick4(ax < 8388608.0f, __builtin_convertvector(t, tex_v4), x);
	*frac = (tex_v4)((tex_i4)f & (f >= 0.0f) & (f <= 1.0f));
	idx[0] = tex_wrap_index4(t, n, mode);
	idx[1] = tex_wrap_index4(t + 1, n, mode);
}

typedef uint32_t tex_u4 __attribute__((vector_size(16)));

/* sim_swz_spread of four values. */
static inline tex_u4 tex_spread4(tex_u4 v)
{
	v &= 0xffff;
	v = (v | v << 8) & 0x00ff00ffu;
	v = (v | v << 4) & 0x0f0f0f0fu;
	v = (v | v << 2) & 0x33333333u;
	return (v | v << 1) & 0x55555555u;
}

/* tex_addr_x and tex_addr_y of four texels of `bytes` bytes (the layout's:
 * a constant where inlined) of level L, lv (not DXT; a level's offsets fit
 * in 32 bits: tex_quad_fits). */
TEX_INLINE tex_u4 tex_addr_x4(const struct nv40_tex_layout *l, const struct sim_tex_lvl *L,
			      tex_u4 x, unsigned bytes)
{
	if (l->linear)
		return x * bytes;
	return (tex_spread4(x & L->km) + ((x >> L->k) << (2 * L->k))) * bytes;
}

TEX_INLINE tex_u4 tex_addr_y4(const struct nv40_tex_layout *l, const struct sim_tex_lvl *L,
			      const struct nv40_tex_level *lv, tex_u4 y, unsigned bytes)
{
	if (l->linear)
		return y * lv->pitch;
	return ((tex_spread4(y & L->km) << 1) + (((y >> L->k) << L->ysh) << (2 * L->k))) * bytes;
}

/* May tex_bilinear4_bgra8 read level lvl of face 0 without bounds checks?
 * Every texel of a level is inside it, and the level inside the extent
 * (the layout makes it so: then tex_texel_bgra8's check never fails). */
static inline int tex_quad_fits(const struct sim_tex_view *w, unsigned lvl)
{
	const struct nv40_tex_level *lv = &w->l.level[lvl];

	return lv->size <= UINT32_MAX && lv->offset + lv->size <= w->l.extent;
}

/* The four pixels' sums of their taps at offsets o[] from mem, weighted
 * wt[], in tex_bilinear_bgra8's order. */
TEX_INLINE void tex_taps4(const float *const lut[4], unsigned how, const uint8_t *mem,
			  const tex_u4 o[4], const tex_v4 wt[4], tex_v4 val[4])
{
	for (unsigned p = 0; p < 4; p++) {
		tex_v4 acc = { 0.0f, 0.0f, 0.0f, 0.0f };
#pragma GCC unroll 4
		for (unsigned k = 0; k < 4; k++)
			acc += wt[k][p] * tex_tap_texel(lut, how, mem + o[k][p]);
		val[p] = acc;
	}
}

/* tex_bilinear_bgra8 at level lvl (face 0) for the four pixels of a quad
 * at s, t: the wraps, weights and texel addresses of the four at once,
 * then each pixel's four taps summed in tex_bilinear_bgra8's order. */
TEX_INLINE void tex_bilinear4_bgra8(const struct sim_tex_view *w, unsigned lvl, tex_v4 s,
				    tex_v4 t, tex_v4 val[4], unsigned ms, unsigned mt)
{
	const struct nv40_tex_layout *l = &w->l;
	const struct sim_tex_lvl *L = &w->lv[lvl];
	const struct nv40_tex_level *lv = &l->level[lvl];
	const float *const lut[4] = { w->lut[0], w->lut[1], w->lut[2], w->lut[3] };
	const uint8_t *mem = w->mem + lv->offset;
	tex_i4 ix[2], iy[2];
	tex_v4 fx, fy;

	tex_wrap_linear4(s * L->fs[0], L->w, ms, ix, &fx);
	tex_wrap_linear4(t * L->fs[1], L->h, mt, iy, &fy);
	tex_v4 wx0 = 1.0f - fx, wy0 = 1.0f - fy;
	const tex_v4 wt[4] = { wx0 * wy0, fx * wy0, wx0 * fy, fx * fy };
	tex_u4 ax0 = tex_addr_x4(l, L, (tex_u4)ix[0], 4), ax1 = tex_addr_x4(l, L, (tex_u4)ix[1], 4);
	tex_u4 ay0 = tex_addr_y4(l, L, lv, (tex_u4)iy[0], 4);
	tex_u4 ay1 = tex_addr_y4(l, L, lv, (tex_u4)iy[1], 4);
	const tex_u4 o[4] = { ax0 + ay0, ax1 + ay0, ax0 + ay1, ax1 + ay1 };
	switch (tex_taps_how(w)) {
	case TEX_TAPS_DIV255: tex_taps4(lut, TEX_TAPS_DIV255, mem, o, wt, val); break;
	case TEX_TAPS_LUT1: tex_taps4(lut, TEX_TAPS_LUT1, mem, o, wt, val); break;
	default: tex_taps4(lut, TEX_TAPS_LUT4, mem, o, wt, val); break;
	}
}

/* TEX_SWIZZLE of the quad's native channels val into out: the native
 * order and A8R8G8B8's in GL's (R and B exchanged, alpha or one) as
 * shuffles, any other through the indices. */
TEX_INLINE void tex_swizzle4(const struct sim_tex_view *w, const tex_v4 val[4], float out[4][4])
{
	const uint8_t *x = w->swz_idx;
	uint32_t k = (uint32_t)x[0] | (uint32_t)x[1] << 8 | (uint32_t)x[2] << 16 | (uint32_t)x[3] << 24;
	unsigned p;

	for (p = 0; p < 4; p++) {
		tex_v4 r;
		if (k == 0x03020100u) {
			r = val[p];
		} else if (k == 0x03000102u) {
			r = __builtin_shufflevector(val[p], val[p], 2, 1, 0, 3);
		} else if (k == 0x05000102u) {
			r = __builtin_shufflevector(val[p], val[p], 2, 1, 0, 3);
			r[3] = 1.0f;
		} else {
			/* the indices in registers: out may alias them */
			const unsigned i0 = x[0], i1 = x[1], i2 = x[2], i3 = x[3];
			float c[6] = { val[p][0], val[p][1], val[p][2], val[p][3], 0.0f, 1.0f };
			r = (tex_v4){ c[i0], c[i1], c[i2], c[i3] };
		}
		memcpy(out[p], &r, sizeof(r));
	}
}

/* tex_filter_sel and TEX_SWIZZLE for the quad's pixels at coordinates pc
 * on one of tex_bilinear_bgra8's wrap pairs. */
TEX_INLINE void tex_quad_bgra8_wrap(const struct sim_tex_view *w, const float pc[4][4],
				    const struct tex_sel *sel, float out[4][4], unsigned ms,
				    unsigned mt)
{
	tex_v4 s = { pc[0][0], pc[1][0], pc[2][0], pc[3][0] };
	tex_v4 t = { pc[0][1], pc[1][1], pc[2][1], pc[3][1] };
	tex_v4 val[4], v2[4];
	unsigned p;

	tex_bilinear4_bgra8(w, sel->lvl, s, t, val, ms, mt);
	if (sel->mip) {
		tex_bilinear4_bgra8(w, sel->lvl2, s, t, v2, ms, mt);
		for (p = 0; p < 4; p++)
			val[p] += sel->mfrac * (v2[p] - val[p]);
	}
	tex_swizzle4(w, val, out);
}

/* The quad's pixels through a linear filter of A8R8G8B8 texels where S
 * and T wrap as tex_bilinear_bgra8 takes them; 0 for any other view. */
static int tex_quad_bgra8(const struct sim_tex_view *w, const float pc[4][4],
			  const struct tex_sel *sel, float out[4][4])
{
	enum { R = NV40_TEX_WRAP_REPEAT, E = NV40_TEX_WRAP_CLAMP_TO_EDGE };

	if (w->level != tex_level2d_bgra8 || !sel->linear || !tex_quad_fits(w, sel->lvl) ||
	    (sel->mip && !tex_quad_fits(w, sel->lvl2)))
		return 0;
	switch (w->wrap_st) {
	case TEX_WRAP_ST(R, R): tex_quad_bgra8_wrap(w, pc, sel, out, R, R); return 1;
	case TEX_WRAP_ST(R, E): tex_quad_bgra8_wrap(w, pc, sel, out, R, E); return 1;
	case TEX_WRAP_ST(E, R): tex_quad_bgra8_wrap(w, pc, sel, out, E, R); return 1;
	case TEX_WRAP_ST(E, E): tex_quad_bgra8_wrap(w, pc, sel, out, E, E); return 1;
	}
	return 0;
}

/* ---- a quad of 8-bit texels, nearest ---- */

/* tex_wrap of four coordinates, nearest, in mode REPEAT, CLAMP_TO_EDGE,
 * CLAMP or CLAMP_TO_BORDER (-1: the border): each lane the scalar
 * operations (CLAMP's clamp to [0, n] first, then tex_ifloor). */
TEX_INLINE tex_i4 tex_wrap_nearest4(tex_v4 x, int32_t n, unsigned mode)
{
	const tex_v4 zero = { 0.0f, 0.0f, 0.0f, 0.0f };
	const tex_i4 izero = { 0, 0, 0, 0 };

	if (mode == NV40_TEX_WRAP_CLAMP) {
		x = tex_pick4(x < 0.0f, zero, tex_pick4(x > (float)n, zero + (float)n, x));
		mode = NV40_TEX_WRAP_CLAMP_TO_EDGE;                /* for nearest */
	}
	tex_i4 t = tex_ifloor4((tex_v4)((tex_i4)x & (x == x)));  /* NaN: 0 */
	if (mode == NV40_TEX_WRAP_CLAMP_TO_BORDER)
		return tex_ipick4((t < 0) | (t >= n), izero - 1, t);
	return tex_wrap_index4(t, n, mode);
}

/* May tex_quad_nearest take wrap mode m? */
static inline int tex_nearest_mode(unsigned m)
{
	return m == NV40_TEX_WRAP_REPEAT || m == NV40_TEX_WRAP_CLAMP_TO_EDGE ||
	       m == NV40_TEX_WRAP_CLAMP || m == NV40_TEX_WRAP_CLAMP_TO_BORDER;
}

/* tex_level2d, nearest, of the quad's pixels at level lvl through decoder
 * dec (A8R8G8B8, decoded as `how` says, or one of up to 4 bytes: constants
 * where inlined), then TEX_SWIZZLE: the indices and addresses of the four
 * at once, each texel decoded as tex_fetch2d does. */
TEX_INLINE void tex_nearest4(struct tex_ctx *c, unsigned lvl, const float pc[4][4],
			     float out[4][4], unsigned dec, unsigned how)
{
	const struct sim_tex_view *w = c->v;
	const struct nv40_tex_layout *l = &w->l;
	const struct sim_tex_lvl *L = &w->lv[lvl];
	const struct nv40_tex_level *lv = &l->level[lvl];
	tex_v4 s = { pc[0][0], pc[1][0], pc[2][0], pc[3][0] };
	tex_v4 t = { pc[0][1], pc[1][1], pc[2][1], pc[3][1] };
	tex_i4 ix = tex_wrap_nearest4(s * L->fs[0], L->w, w->modes[0]);
	tex_i4 iy = tex_wrap_nearest4(t * L->fs[1], L->h, w->modes[1]);
	unsigned bytes = dec == TEX_DEC_BGRA8 ? 4 : l->bytes;
	tex_u4 o = tex_addr_x4(l, L, (tex_u4)ix, bytes) + tex_addr_y4(l, L, lv, (tex_u4)iy, bytes);
	tex_v4 val[4];

	for (unsigned p = 0; p < 4; p++) {
		const uint8_t *texel = w->mem + lv->offset + o[p];
		if (ix[p] < 0 || iy[p] < 0) {
			float b[4];
			tex_border(c, b);
			memcpy(&val[p], b, sizeof(val[p]));
		} else {
			val[p] = dec == TEX_DEC_BGRA8 ? tex_tap_texel(w->lut, how, texel) :
							tex_texel_lut(w, texel, dec, bytes);
		}
		val[p] += 0.0f;                           /* as tex_level2d gives it */
	}
	tex_swizzle4(w, val, out);
}

/* The quad's pixels through a nearest filter of one level of texels the
 * table decoders read, in wrap modes tex_wrap_nearest4 takes; 0 for any
 * other view. */
static int tex_quad_nearest(const struct sim_tex_view *w, const float pc[4][4],
			    const struct tex_sel *sel, float out[4][4])
{
	struct tex_ctx c;

	c.v = w;
	c.l = &w->l;
	if (sel->linear || sel->mip || w->compare || !tex_quad_fits(w, sel->lvl) ||
	    !tex_nearest_mode(w->modes[0]) || !tex_nearest_mode(w->modes[1]))
		return 0;
	if (w->level == tex_level2d_any && w->dec == TEX_DEC_SMALL) {
		tex_nearest4(&c, sel->lvl, pc, out, TEX_DEC_SMALL, 0);
		return 1;
	}
	if (w->level != tex_level2d_bgra8)
		return 0;
	switch (tex_taps_how(w)) {
	case TEX_TAPS_DIV255: tex_nearest4(&c, sel->lvl, pc, out, TEX_DEC_BGRA8, TEX_TAPS_DIV255); break;
	case TEX_TAPS_LUT1: tex_nearest4(&c, sel->lvl, pc, out, TEX_DEC_BGRA8, TEX_TAPS_LUT1); break;
	default: tex_nearest4(&c, sel->lvl, pc, out, TEX_DEC_BGRA8, TEX_TAPS_LUT4); break;
	}
	return 1;
}

/* One probe at coordinates st and clamped LOD lambda. */
static void tex_filter(struct tex_ctx *c, unsigned face, const float st[3], float lambda,
		       float val[4])
{
	struct tex_sel sel;

	tex_select(c->v, lambda, &sel);
	tex_filter_sel(c, face, st, &sel, val);
}

/* n probes (tex_aniso) averaged: the pixel's extent along step cut in n
 * pieces, a probe at the middle of each, st + step * ((k - 1/2) / n - 1/2)
 * for k = 1 .. n. */
static void tex_filter_aniso(struct tex_ctx *c, unsigned face, const float st[3], float lambda,
			     unsigned n, const float step[3], float val[4])
{
	float at[3], pv[4];
	unsigned k, i;

	val[0] = val[1] = val[2] = val[3] = 0.0f;
	for (k = 1; k <= n; k++) {
		float f = ((float)k - 0.5f) / (float)n - 0.5f;
		for (i = 0; i < 3; i++)
			at[i] = st[i] + step[i] * f;
		tex_filter(c, face, at, lambda, pv);
		for (i = 0; i < 4; i++)
			val[i] += pv[i];
	}
	for (i = 0; i < 4; i++)
		val[i] /= (float)n;
}

/* A biased LOD as the view's limits clamp it (NaN: 0). */
static inline float tex_clamp_lod(const struct sim_tex_view *v, float lambda)
{
	if (!(lambda == lambda))
		lambda = 0.0f;
	if (lambda > v->maxlod)
		lambda = v->maxlod;
	if (lambda < v->minlod)
		lambda = v->minlod;
	return lambda;
}

/* The selection of an isotropic quad with derivatives dx, dy on unit u:
 * tex_select of its clamped, biased tex_lambda.  The quads of a primitive
 * mostly have the same derivatives (all of them under an affine mapping),
 * so a thread keeps each unit's last (programs sample units in turn: a
 * texture and its light map, EXA's source and mask), found again by the
 * view's stamp and the derivatives' bits: what the computation would
 * give. */
static void tex_quad_select(const struct sim_tex_view *v, unsigned u, tex_v4 dx, tex_v4 dy,
			    struct tex_sel *sel)
{
	static __thread struct { uint64_t gen; tex_i4 dx, dy; struct tex_sel sel; } lasts[NV40_TEX_UNITS];
	const tex_i4 xyz = { -1, -1, -1, 0 };
	tex_i4 kx = (tex_i4)dx & xyz, ky = (tex_i4)dy & xyz;
	__typeof__(lasts[0]) *last = &lasts[u % NV40_TEX_UNITS];
	tex_i4 ne = (kx != last->dx) | (ky != last->dy);
	float fx[4], fy[4];

	if (v->lod_linear >= 0) {
		*sel = (struct tex_sel){ .linear = (unsigned)v->lod_linear };
		return;
	}
	if (v->gen && last->gen == v->gen && !(ne[0] | ne[1] | ne[2])) {
		*sel = last->sel;
		return;
	}
	memcpy(fx, &dx, sizeof(fx));
	memcpy(fy, &dy, sizeof(fy));
	tex_select(v, tex_clamp_lod(v, tex_lambda(v, fx, fy) + v->bias), sel);
	last->gen = v->gen;
	last->dx = kx;
	last->dy = ky;
	last->sel = *sel;
}

/* The depth reference a compare takes, in [0, 1] (NaN: 0). */
static inline float tex_clamp_ref(float r)
{
	return !(r > 0.0f) ? 0.0f : r > 1.0f ? 1.0f : r;
}

void sim_tex_view_sample(const struct sim_tex_view *v, const struct sim_tex_req *rq,
			 float out[4][4])
{
	struct tex_ctx c;
	float pc[4][4];             /* projected coordinates per pixel */
	unsigned p, i;

	if (!v || !v->ok || !rq) {
		memset(out, 0, 16 * sizeof(float));
		return;                 /* every path below writes all of out */
	}
	c.v = v;
	c.l = &v->l;
	c.ref = 0.0f;
	c.dxt.blk = NULL;
	const struct nv40_tex_layout *l = &v->l;

	/* TXP divides s t r by q; the others' q is 1, a division by which
	 * the compiler may leave out (it assumes no signalling NaNs) */
	memcpy(pc, rq->coord, sizeof(pc));
	for (p = 0; rq->op == SIM_TXP && p < 4; p++) {
		tex_v4 co;
		memcpy(&co, rq->coord[p], sizeof(co));
		tex_v4 d = co / co[3];
		d[3] = co[3];
		memcpy(pc[p], &d, sizeof(d));
	}

	/* implicit derivatives off a cube: one LOD for the quad */
	int quad_lod = !l->cube && rq->op != SIM_TXD && rq->op != SIM_TXL;
	float qlambda = 0.0f, qstep[3] = { 0.0f, 0.0f, 0.0f };
	unsigned qn = 1;
	struct tex_sel sel;
	int quad_sel = 0;           /* sel is the quad's */
	if (quad_lod) {
		tex_v4 p0, p1, p2;
		float dx[4], dy[4];
		memcpy(&p0, pc[0], sizeof(p0));
		memcpy(&p1, pc[1], sizeof(p1));
		memcpy(&p2, pc[2], sizeof(p2));
		tex_v4 dxv = p1 - p0, dyv = p2 - p0;          /* s t r, and q unread */
		if (v->aniso == 1 && rq->op != SIM_TXB) {
			tex_quad_select(v, rq->unit, dxv, dyv, &sel);
			quad_sel = 1;
		} else {
			memcpy(dx, &dxv, sizeof(dx));
			memcpy(dy, &dyv, sizeof(dy));
			qlambda = v->aniso > 1 ? tex_aniso(v, dx, dy, &qn, qstep) : tex_lambda(v, dx, dy);
		}
	}

	float sel_lambda = NAN;     /* sel's LOD; NaN: none chosen yet (anisotropic
				       pixels choose theirs elsewhere) */
	if (quad_lod && qn == 1 && rq->op != SIM_TXB) {
		/* the loop below where every pixel has the quad's LOD, one probe
		 * and face 0: one tex_select; the depth reference only where a
		 * texel compares */
		float val[6];
		if (!quad_sel)
			tex_select(v, tex_clamp_lod(v, qlambda + v->bias), &sel);
		if (tex_quad_bgra8(v, pc, &sel, out) || tex_quad_nearest(v, pc, &sel, out))
			return;
		val[4] = 0.0f;
		val[5] = 1.0f;
		for (p = 0; p < 4; p++) {
			if (v->compare)
				c.ref = tex_clamp_ref(pc[p][2]);
			tex_filter_sel(&c, 0, pc[p], &sel, val);
			for (i = 0; i < 4; i++)
				out[p][i] = val[v->swz_idx[i]];
		}
		return;
	}
	for (p = 0; p < 4; p++) {
		float dx[3], dy[3], st[3], dsx[3], dsy[3], lambda, val[6], step[3];
		unsigned face = 0, n = 1;

		if (l->cube) {
			if (rq->op == SIM_TXD) {
				for (i = 0; i < 3; i++) {
					dx[i] = rq->ddx[p][i];
					dy[i] = rq->ddy[p][i];
				}
			} else {   /* one LOD per quad, from its top-left pixel (llvmpipe) */
				for (i = 0; i < 3; i++) {
					dx[i] = pc[1][i] - pc[0][i];
					dy[i] = pc[2][i] - pc[0][i];
				}
			}
			face = tex_cube_face(pc[p]);
			tex_cube_map(face, pc[p], dx, dy, st, dsx, dsy);
		} else {
			for (i = 0; i < 3; i++) {
				st[i] = pc[p][i];
				dsx[i] = rq->op == SIM_TXD ? rq->ddx[p][i] : 0.0f;
				dsy[i] = rq->op == SIM_TXD ? rq->ddy[p][i] : 0.0f;
			}
		}
		c.ref = tex_clamp_ref(pc[p][l->cube ? 3 : 2]);

		if (rq->op == SIM_TXL) {
			lambda = rq->coord[p][3];
		} else if (quad_lod) {
			lambda = qlambda;
			n = qn;
			memcpy(step, qstep, sizeof(step));
		} else {
			lambda = v->aniso > 1 ? tex_aniso(v, dsx, dsy, &n, step) :
						tex_lambda(v, dsx, dsy);
		}
		lambda += v->bias;
		if (rq->op == SIM_TXB)
			lambda += rq->coord[p][3];
		lambda = tex_clamp_lod(v, lambda);

		if (n > 1) {
			tex_filter_aniso(&c, face, st, lambda, n, step, val);
		} else {
			/* the pixels of a quad mostly share their LOD */
			if (!(lambda == sel_lambda))
				tex_select(v, lambda, &sel);
			sel_lambda = lambda;
			tex_filter_sel(&c, face, st, &sel, val);
		}

		/* TEX_SWIZZLE: out R G B A from a native channel, ZERO or ONE */
		val[4] = 0.0f;
		val[5] = 1.0f;
		for (i = 0; i < 4; i++)
			out[p][i] = val[v->swz_idx[i]];
	}
}

void sim_tex_sample(const struct sim_tex_unit *t, const uint8_t *mem,
		    const struct sim_tex_req *rq, float out[4][4])
{
	struct sim_tex_view v;

	memset(out, 0, 16 * sizeof(float));
	if (!t || !mem || !rq)
		return;
	sim_tex_prepare(&v, t, mem);
	sim_tex_view_sample(&v, rq, out);
}
