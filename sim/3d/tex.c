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
 * Not modelled: anisotropy (trilinear stands in), TEX_WRAP EXPAND_NORMAL
 * and the aniso/trilinear optimisation knobs.  When the min filter has no
 * mip mode a minified texture reads level 0 (Mesa: the hardware ignores
 * the LOD clamps then).  Z16/Z24 always compare (RCOMP 0 = NEVER): Mesa
 * samples depth without compare through A8L8 / A16L16. */
#include "tex.h"
#include "half.h"

#include <math.h>
#include <string.h>

#include "hw/tex-layout.h"
#include "hw/tex.h"
#include "sim/swizzle.h"

struct tex_ctx {
	const struct sim_tex_unit *t;
	const uint8_t *mem;
	struct nv40_tex_layout l;
	const struct nv40_tex_format *f;
	unsigned signed_mask, srgb_mask;   /* per native channel */
	int compare;                       /* depth format: RCOMP applies */
	unsigned rcomp;
	float ref;                         /* the pixel's depth reference */
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

static void tex_565_to_rgb(uint32_t c, unsigned rgb[3])
{
	unsigned r = (c >> 11) & 0x1f, g = (c >> 5) & 0x3f, b = c & 0x1f;

	rgb[0] = r << 3 | r >> 2;
	rgb[1] = g << 2 | g >> 4;
	rgb[2] = b << 3 | b >> 2;
}

/* One texel of a DXT block as 8-bit R G B A. */
static void tex_dxt_texel(const uint8_t *blk, unsigned kind, unsigned x, unsigned y,
			  unsigned rgba[4])
{
	const uint8_t *col = kind == NV40_TEXK_DXT1 ? blk : blk + 8;
	uint32_t c0 = col[0] | col[1] << 8, c1 = col[2] | col[3] << 8;
	uint32_t bits = (uint32_t)col[4] | (uint32_t)col[5] << 8 | (uint32_t)col[6] << 16 |
			(uint32_t)col[7] << 24;
	unsigned i = y * 4 + x, code = (bits >> (2 * i)) & 3, k, e0[3], e1[3];

	tex_565_to_rgb(c0, e0);
	tex_565_to_rgb(c1, e1);
	rgba[3] = 255;
	/* DXT3/5 colour blocks always have four colours */
	if (kind != NV40_TEXK_DXT1 || c0 > c1) {
		for (k = 0; k < 3; k++) {
			switch (code) {
			case 0: rgba[k] = e0[k]; break;
			case 1: rgba[k] = e1[k]; break;
			case 2: rgba[k] = (2 * e0[k] + e1[k] + 1) / 3; break;
			default: rgba[k] = (e0[k] + 2 * e1[k] + 1) / 3; break;
			}
		}
	} else {
		for (k = 0; k < 3; k++) {
			switch (code) {
			case 0: rgba[k] = e0[k]; break;
			case 1: rgba[k] = e1[k]; break;
			case 2: rgba[k] = (e0[k] + e1[k]) / 2; break;
			default: rgba[k] = 0; break;
			}
		}
		if (code == 3)
			rgba[3] = 0;
	}
	if (kind == NV40_TEXK_DXT3) {
		unsigned a = (blk[i / 2] >> (4 * (i & 1))) & 0xf;
		rgba[3] = a * 17;
	} else if (kind == NV40_TEXK_DXT5) {
		unsigned a0 = blk[0], a1 = blk[1], ac;
		uint64_t ab = 0;

		for (k = 0; k < 6; k++)
			ab |= (uint64_t)blk[2 + k] << (8 * k);
		ac = (ab >> (3 * i)) & 7;
		if (ac == 0)
			rgba[3] = a0;
		else if (ac == 1)
			rgba[3] = a1;
		else if (a0 > a1)
			rgba[3] = ((8 - ac) * a0 + (ac - 1) * a1 + 3) / 7;
		else if (ac < 6)
			rgba[3] = ((6 - ac) * a0 + (ac - 1) * a1 + 2) / 5;
		else
			rgba[3] = ac == 6 ? 0 : 255;
	}
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

/* The border colour as native channels (A8R8G8B8: X = B in 7:0). */
static void tex_border(const struct tex_ctx *c, float v[4])
{
	unsigned i;

	for (i = 0; i < 4; i++)
		v[i] = (float)((c->t->border >> (8 * i)) & 0xff) / 255.0f;
	if (c->compare) {
		float r = tex_compare(c->rcomp, c->ref, v[2]);
		v[0] = v[1] = v[2] = v[3] = r;
	}
}

/* Texel (x, y, z) of a face and level, inside the level, as native floats. */
static void tex_fetch(const struct tex_ctx *c, unsigned face, unsigned lvl, uint32_t x,
		      uint32_t y, uint32_t z, float v[4])
{
	const struct nv40_tex_layout *l = &c->l;
	const struct nv40_tex_level *lv = &l->level[lvl];
	uint64_t off = face * l->face_stride + lv->offset;
	unsigned i, rgba[4];
	const uint8_t *p;

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
	p = c->mem + off;

	if (l->dxt) {
		tex_dxt_texel(p, l->kind, x & 3, y & 3, rgba);
		/* native X Y Z W = B G R A */
		v[0] = rgba[2] / 255.0f;
		v[1] = rgba[1] / 255.0f;
		v[2] = rgba[0] / 255.0f;
		v[3] = rgba[3] / 255.0f;
	} else {
		for (i = 0; i < 4; i++) {
			unsigned n = c->f->bits[i];
			uint32_t raw;

			if (!n) {
				v[i] = i == 3 ? 1.0f : 0.0f;
				continue;
			}
			raw = tex_bits(p, c->f->lo[i], n);
			if (l->kind == NV40_TEXK_HALF)
				v[i] = sim_h2f((uint16_t)raw);
			else if (l->kind == NV40_TEXK_FLOAT)
				v[i] = sim_u2f(raw);
			else
				v[i] = tex_unorm(raw, n, (c->signed_mask >> i) & 1 &&
							  l->kind == NV40_TEXK_UNORM);
		}
	}
	if (c->compare) {
		float r = tex_compare(c->rcomp, c->ref, v[0]);
		v[0] = v[1] = v[2] = v[3] = r;
		return;
	}
	if (l->kind == NV40_TEXK_UNORM || l->dxt)
		for (i = 0; i < 4; i++)
			if ((c->srgb_mask >> i) & 1 && !((c->signed_mask >> i) & 1))
				v[i] = tex_srgb(v[i]);
}

/* ---- addressing ---- */

static int32_t tex_ifloor(float x)
{
	if (!(x == x))
		return 0;
	if (x < -16777216.0f)
		x = -16777216.0f;
	if (x > 16777216.0f)
		x = 16777216.0f;
	return (int32_t)floorf(x);
}

/* Integer texel index under a wrap mode: -1 = the border. */
static int32_t tex_wrap_index(int32_t i, int32_t n, unsigned mode, int linear)
{
	int32_t m;

	switch (mode) {
	case NV40_TEX_WRAP_REPEAT:
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
static void tex_wrap(float x, int32_t n, unsigned mode, int linear, int32_t idx[2], float *frac)
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
		x -= 0.5f;
		i0 = tex_ifloor(x);
		*frac = x - floorf(x);
		if (!(*frac >= 0.0f && *frac <= 1.0f))
			*frac = 0.0f;
		idx[0] = tex_wrap_index(i0, n, mode, 1);
		idx[1] = tex_wrap_index(i0 + 1, n, mode, 1);
	} else {
		*frac = 0.0f;
		idx[0] = idx[1] = tex_wrap_index(tex_ifloor(x), n, mode, 0);
	}
}

/* One level, nearest or linear, at coordinates in level-0 units
 * (normalised, or texels for RECT). */
static void tex_sample_level(const struct tex_ctx *c, unsigned face, unsigned lvl, int linear,
			     const float st[3], float v[4])
{
	const struct nv40_tex_level *lv = &c->l.level[lvl];
	const struct nv40_tex_level *l0 = &c->l.level[0];
	uint32_t wrap = c->t->wrap;
	unsigned modes[3] = { NV40_TEX_WRAP_S(wrap), NV40_TEX_WRAP_T(wrap), NV40_TEX_WRAP_R(wrap) };
	int32_t n[3] = { (int32_t)lv->w, (int32_t)lv->h, (int32_t)lv->d };
	int32_t idx[3][2];
	float fr[3], x[3];
	unsigned a, k, corners;

	for (a = 0; a < 3; a++) {
		float size = a == 0 ? (float)lv->w : a == 1 ? (float)lv->h : (float)lv->d;
		if (c->l.rect)
			size /= a == 0 ? (float)l0->w : a == 1 ? (float)l0->h : (float)l0->d;
		x[a] = st[a] * size;
	}
	for (a = 0; a < 3; a++)
		tex_wrap(x[a], n[a], modes[a], linear, idx[a], &fr[a]);
	if (c->l.dims < 3) {
		idx[2][0] = idx[2][1] = 0;
		fr[2] = 0.0f;
	}

	v[0] = v[1] = v[2] = v[3] = 0.0f;
	corners = linear ? (c->l.dims == 3 ? 8 : 4) : 1;
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

static float tex_lambda(const struct tex_ctx *c, const float dx[3], const float dy[3])
{
	const struct nv40_tex_level *l0 = &c->l.level[0];
	float scale[3] = { (float)l0->w, (float)l0->h, (float)l0->d };
	float lx = 0.0f, ly = 0.0f, rho;
	unsigned a, axes = c->l.cube ? 2 : c->l.dims;

	for (a = 0; a < axes; a++) {
		float s = c->l.rect ? 1.0f : scale[a];
		lx += dx[a] * s * dx[a] * s;
		ly += dy[a] * s * dy[a] * s;
	}
	rho = lx > ly ? lx : ly;
	if (!(rho > 0.0f))
		return -64.0f;
	if (rho > 1e30f)
		return 64.0f;
	return 0.5f * log2f(rho);
}

void sim_tex_sample(const struct sim_tex_unit *t, const uint8_t *mem,
		    const struct sim_tex_req *rq, float out[4][4])
{
	struct tex_ctx c;
	float pc[4][4];             /* projected coordinates per pixel */
	unsigned p, i, minf, magf;
	float bias, minlod, maxlod;

	memset(out, 0, 16 * sizeof(float));
	if (!t || !mem || !rq)
		return;
	memset(&c, 0, sizeof(c));
	if (nv40_tex_layout(t->format, t->npot_size, t->size1, &c.l))
		return;
	c.t = t;
	c.mem = mem;
	c.f = nv40_tex_format(c.l.code);
	c.signed_mask = NV40_TEX_FILTER_SIGNED(t->filter);
	for (i = 0; i < 4; i++)
		if ((NV40_TEX_WRAP_SRGB(t->wrap) >> i) & 1)
			c.srgb_mask |= 1u << nv40_tex_srgb_ch(i);
	c.compare = c.l.kind == NV40_TEXK_DEPTH;
	c.rcomp = NV40_TEX_WRAP_RCOMP(t->wrap);
	minf = NV40_TEX_FILTER_MIN(t->filter);
	magf = NV40_TEX_FILTER_MAG(t->filter);
	bias = (float)NV40_TEX_FILTER_LOD_BIAS(t->filter) / 256.0f;
	minlod = (float)NV40_TEX_ENABLE_MIN_LOD(t->enable) / 256.0f;
	maxlod = (float)NV40_TEX_ENABLE_MAX_LOD(t->enable) / 256.0f;

	for (p = 0; p < 4; p++) {
		float q = rq->op == SIM_TXP ? rq->coord[p][3] : 1.0f;
		for (i = 0; i < 3; i++)
			pc[p][i] = rq->coord[p][i] / q;
		pc[p][3] = rq->coord[p][3];
	}

	for (p = 0; p < 4; p++) {
		float dx[3], dy[3], st[3], dsx[3], dsy[3], lambda, v[4], v2[4];
		unsigned face = 0, filt, lvl, lvl2 = 0, mip = 0, linear;
		float mfrac = 0.0f;

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
		if (c.l.cube) {
			face = tex_cube_face(pc[p]);
			tex_cube_map(face, pc[p], dx, dy, st, dsx, dsy);
		} else {
			for (i = 0; i < 3; i++) {
				st[i] = pc[p][i];
				dsx[i] = dx[i];
				dsy[i] = dy[i];
			}
		}
		c.ref = pc[p][c.l.cube ? 3 : 2];
		c.ref = !(c.ref > 0.0f) ? 0.0f : c.ref > 1.0f ? 1.0f : c.ref;

		lambda = rq->op == SIM_TXL ? rq->coord[p][3] : tex_lambda(&c, dsx, dsy);
		lambda += bias;
		if (rq->op == SIM_TXB)
			lambda += rq->coord[p][3];
		if (!(lambda == lambda))
			lambda = 0.0f;
		if (lambda > maxlod)
			lambda = maxlod;
		if (lambda < minlod)
			lambda = minlod;

		if (lambda <= 0.0f) {
			filt = magf;
			lvl = 0;
		} else {
			filt = minf;
			lvl = 0;
			switch (minf) {
			case NV40_TEX_FILTER_NEAREST_MIPMAP_NEAREST:
			case NV40_TEX_FILTER_LINEAR_MIPMAP_NEAREST:
				lvl = (unsigned)tex_ifloor(lambda + 0.5f - 1e-6f);
				if (lvl >= c.l.levels)
					lvl = c.l.levels - 1;
				break;
			case NV40_TEX_FILTER_NEAREST_MIPMAP_LINEAR:
			case NV40_TEX_FILTER_LINEAR_MIPMAP_LINEAR:
				lvl = (unsigned)tex_ifloor(lambda);
				if (lvl >= c.l.levels - 1) {
					lvl = c.l.levels - 1;
				} else {
					lvl2 = lvl + 1;
					mfrac = lambda - (float)lvl;
					mip = mfrac > 0.0f;
				}
				break;
			}
		}
		linear = filt == NV40_TEX_FILTER_LINEAR ||
			 filt == NV40_TEX_FILTER_LINEAR_MIPMAP_NEAREST ||
			 filt == NV40_TEX_FILTER_LINEAR_MIPMAP_LINEAR;

		tex_sample_level(&c, face, lvl, linear, st, v);
		if (mip) {
			tex_sample_level(&c, face, lvl2, linear, st, v2);
			for (i = 0; i < 4; i++)
				v[i] += mfrac * (v2[i] - v[i]);
		}

		/* TEX_SWIZZLE: out R G B A from ZERO, ONE or a native channel */
		for (i = 0; i < 4; i++) {
			unsigned src = NV40_TEX_SWZ_SRC(t->swizzle, i);
			if (src == NV40_TEX_SWZ_COMPONENT)
				out[p][i] = v[NV40_TEX_SWZ_NATIVE(NV40_TEX_SWZ_COMP(t->swizzle, i))];
			else
				out[p][i] = src == NV40_TEX_SWZ_ONE ? 1.0f : 0.0f;
		}
	}
}
