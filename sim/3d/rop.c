/* The ROP: per fragment alpha test, depth bounds, stencil (two-sided),
 * depth test and write, occlusion counting, then per colour buffer blend,
 * logic op and channel masks (GL semantics, GL enums).  Depth compares in
 * the zeta buffer's integer domain so EQUAL/LEQUAL multi-pass is exact. */
#include "pipe.h"
#include "jit.h"

#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"
#include "hw/fp-isa.h"

/* A compare function on the outcome of comparing a with b (for floats a
 * NaN is none of lt, eq, gt: only NOTEQUAL and ALWAYS pass). */
static inline int rop_test(unsigned func, int lt, int eq, int gt)
{
	switch (func) {
	case NV40_CMP_NEVER: return 0;
	case NV40_CMP_LESS: return lt;
	case NV40_CMP_EQUAL: return eq;
	case NV40_CMP_LEQUAL: return lt || eq;
	case NV40_CMP_GREATER: return gt;
	case NV40_CMP_NOTEQUAL: return !eq;
	case NV40_CMP_GEQUAL: return gt || eq;
	default: return 1;
	}
}

static inline int rop_cmp(unsigned func, float a, float b)
{
	return rop_test(func, a < b, a == b, a > b);
}

static inline int rop_cmpu(unsigned func, uint32_t a, uint32_t b)
{
	return rop_test(func, a < b, a == b, a > b);
}

static inline unsigned rop_stencil_op(unsigned op, unsigned s, unsigned ref)
{
	switch (op) {
	case NV40_STENCIL_ZERO: return 0;
	case NV40_STENCIL_REPLACE: return ref & 0xff;
	case NV40_STENCIL_INCR: return s < 0xff ? s + 1 : 0xff;
	case NV40_STENCIL_DECR: return s ? s - 1 : 0;
	case NV40_STENCIL_INVERT: return ~s & 0xff;
	case NV40_STENCIL_INCR_WRAP: return (s + 1) & 0xff;
	case NV40_STENCIL_DECR_WRAP: return (s - 1) & 0xff;
	default: return s;       /* KEEP */
	}
}

static inline float rop_eq(unsigned eq, float s, float fs, float d, float fd)
{
	switch (eq) {
	case NV40_BEQ_MIN: return s < d ? s : d;
	case NV40_BEQ_MAX: return s > d ? s : d;
	case NV40_BEQ_FUNC_SUBTRACT: return s * fs - d * fd;
	case NV40_BEQ_FUNC_REVERSE_SUBTRACT: return d * fd - s * fs;
	default: return s * fs + d * fd;
	}
}

/* Blend factor f for channels [c0, c1) of out, one decision for them. */
static inline __attribute__((always_inline)) void rop_factors(unsigned f, const float s[4],
							      const float dst[4],
							      const float k[4], unsigned c0,
							      unsigned c1, float out[4])
{
	unsigned c;

	switch (f) {
	case NV40_BF_ZERO: for (c = c0; c < c1; c++) out[c] = 0.0f; break;
	case NV40_BF_ONE: for (c = c0; c < c1; c++) out[c] = 1.0f; break;
	case NV40_BF_SRC_COLOR: for (c = c0; c < c1; c++) out[c] = s[c]; break;
	case NV40_BF_ONE_MINUS_SRC_COLOR: for (c = c0; c < c1; c++) out[c] = 1.0f - s[c]; break;
	case NV40_BF_SRC_ALPHA: for (c = c0; c < c1; c++) out[c] = s[3]; break;
	case NV40_BF_ONE_MINUS_SRC_ALPHA: for (c = c0; c < c1; c++) out[c] = 1.0f - s[3]; break;
	case NV40_BF_DST_ALPHA: for (c = c0; c < c1; c++) out[c] = dst[3]; break;
	case NV40_BF_ONE_MINUS_DST_ALPHA: for (c = c0; c < c1; c++) out[c] = 1.0f - dst[3]; break;
	case NV40_BF_DST_COLOR: for (c = c0; c < c1; c++) out[c] = dst[c]; break;
	case NV40_BF_ONE_MINUS_DST_COLOR: for (c = c0; c < c1; c++) out[c] = 1.0f - dst[c]; break;
	case NV40_BF_SRC_ALPHA_SATURATE:
		for (c = c0; c < c1; c++)
			out[c] = c == 3 ? 1.0f : (s[3] < 1.0f - dst[3] ? s[3] : 1.0f - dst[3]);
		break;
	case NV40_BF_CONSTANT_COLOR: for (c = c0; c < c1; c++) out[c] = k[c]; break;
	case NV40_BF_ONE_MINUS_CONSTANT_COLOR: for (c = c0; c < c1; c++) out[c] = 1.0f - k[c]; break;
	case NV40_BF_CONSTANT_ALPHA: for (c = c0; c < c1; c++) out[c] = k[3]; break;
	case NV40_BF_ONE_MINUS_CONSTANT_ALPHA: for (c = c0; c < c1; c++) out[c] = 1.0f - k[3]; break;
	default: for (c = c0; c < c1; c++) out[c] = 0.0f; break;
	}
}

static void rop_blend(const struct draw_setup *d, const float src[4], const float dst[4],
		      float out[4])
{
	float fs[4], fd[4];

	rop_factors(d->bsrc_rgb, src, dst, d->bconst, 0, 3, fs);
	rop_factors(d->bsrc_a, src, dst, d->bconst, 3, 4, fs);
	rop_factors(d->bdst_rgb, src, dst, d->bconst, 0, 3, fd);
	rop_factors(d->bdst_a, src, dst, d->bconst, 3, 4, fd);
	for (unsigned c = 0; c < 4; c++)
		out[c] = rop_eq(c == 3 ? d->beq_a : d->beq_rgb, src[c], fs[c], dst[c], fd[c]);
}

/* sim_rt_pixel, inline for linear buffers (the same bounds). */
static inline uint8_t *rop_pixel(const struct sim_rt *rt, unsigned x, unsigned y)
{
	if (rt->swizzled || !rt->mem)
		return sim_rt_pixel(rt, x, y);
	uint64_t off = (uint64_t)y * rt->pitch + (uint64_t)x * rt->bpp;
	if (off >= rt->len || rt->len - off < rt->bpp)
		return NULL;
	return rt->mem + off;
}

static int rop_unorm(unsigned fmt)
{
	return fmt != NV40_RT_COLOR_A16B16G16R16_FLOAT && fmt != NV40_RT_COLOR_A32B32G32R32_FLOAT &&
	       fmt != NV40_RT_COLOR_R32_FLOAT;
}

static uint32_t rop_logic(unsigned op, uint32_t s, uint32_t d)
{
	switch (op & 0xf) {
	case 0x0: return 0;
	case 0x1: return s & d;
	case 0x2: return s & ~d;
	case 0x3: return s;
	case 0x4: return ~s & d;
	case 0x5: return d;
	case 0x6: return s ^ d;
	case 0x7: return s | d;
	case 0x8: return ~(s | d);
	case 0x9: return ~(s ^ d);
	case 0xa: return ~d;
	case 0xb: return s | ~d;
	case 0xc: return ~s;
	case 0xd: return ~s | d;
	case 0xe: return ~(s & d);
	default: return ~0u;
	}
}

/* Four channels at once (GCC's generic vectors: every lane is the scalar
 * operation, on any target). */
typedef float rop_v4 __attribute__((vector_size(16)));
typedef int32_t rop_i4 __attribute__((vector_size(16)));

/* Per lane: where mask m is set a, else b. */
static inline rop_v4 rop_pick(rop_i4 m, rop_v4 a, rop_v4 b)
{
	return (rop_v4)((m & (rop_i4)a) | (~m & (rop_i4)b));
}

static inline rop_v4 rop_splat(float x)
{
	return (rop_v4){ x, x, x, x };
}

/* sim_sat of each lane: f > 0 ? f : 0 (NaN 0), then at most 1. */
static inline rop_v4 rop_sat4(rop_v4 f)
{
#ifdef __SSE2__
	/* maxps(a, b) is a > b ? a : b, minps(a, b) a < b ? a : b */
	return (rop_v4)_mm_min_ps(_mm_max_ps((__m128)f, _mm_setzero_ps()), _mm_set1_ps(1.0f));
#else
	const rop_v4 zero = { 0.0f, 0.0f, 0.0f, 0.0f }, one = zero + 1.0f;

	f = (rop_v4)((rop_i4)f & (f > zero));
	return rop_pick(f < one, f, one);
#endif
}

/* rop_factors' factor f for all four channels as for R G B (its alpha
 * lane as for A, which only SRC_ALPHA_SATURATE tells apart). */
static inline rop_v4 rop_factor4(unsigned f, rop_v4 s, rop_v4 d, rop_v4 k)
{
	const rop_v4 zero = { 0.0f, 0.0f, 0.0f, 0.0f }, one = zero + 1.0f;
	float m;

	switch (f) {
	case NV40_BF_ONE: return one;
	case NV40_BF_SRC_COLOR: return s;
	case NV40_BF_ONE_MINUS_SRC_COLOR: return one - s;
	case NV40_BF_SRC_ALPHA: return rop_splat(s[3]);
	case NV40_BF_ONE_MINUS_SRC_ALPHA: return one - s[3];
	case NV40_BF_DST_ALPHA: return rop_splat(d[3]);
	case NV40_BF_ONE_MINUS_DST_ALPHA: return one - d[3];
	case NV40_BF_DST_COLOR: return d;
	case NV40_BF_ONE_MINUS_DST_COLOR: return one - d;
	case NV40_BF_SRC_ALPHA_SATURATE:
		m = s[3] < 1.0f - d[3] ? s[3] : 1.0f - d[3];
		return (rop_v4){ m, m, m, 1.0f };
	case NV40_BF_CONSTANT_COLOR: return k;
	case NV40_BF_ONE_MINUS_CONSTANT_COLOR: return one - k;
	case NV40_BF_CONSTANT_ALPHA: return rop_splat(k[3]);
	case NV40_BF_ONE_MINUS_CONSTANT_ALPHA: return one - k[3];
	default: return zero;            /* ZERO, and values that are none */
	}
}

/* rop_eq of equation eq on all four channels, saturated. */
static inline rop_v4 rop_eq4(unsigned eq, rop_v4 s, rop_v4 fs, rop_v4 d, rop_v4 fd)
{
	switch (eq) {
	case NV40_BEQ_MIN: return rop_sat4(rop_pick(s < d, s, d));
	case NV40_BEQ_MAX: return rop_sat4(rop_pick(s > d, s, d));
	case NV40_BEQ_FUNC_SUBTRACT: return rop_sat4(s * fs - d * fd);
	case NV40_BEQ_FUNC_REVERSE_SUBTRACT: return rop_sat4(d * fd - s * fs);
	default: return rop_sat4(s * fs + d * fd);
	}
}

/* One function for R G B and another for A: lanes 0-2 of what f gives
 * for the first, lane 3 of what it gives for the second. */
#define ROP_SPLIT(f, rgb, a) ({ rop_v4 v_ = f(rgb); if ((a) != (rgb)) v_[3] = f(a)[3]; v_; })

/* Is the blend GL's compositing (SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD for
 * colour and alpha)?  rop_blend8 takes it without its switches. */
static int rop_over(const struct draw_setup *d)
{
	return d->bsrc_rgb == NV40_BF_SRC_ALPHA && d->bsrc_a == NV40_BF_SRC_ALPHA &&
	       d->bdst_rgb == NV40_BF_ONE_MINUS_SRC_ALPHA &&
	       d->bdst_a == NV40_BF_ONE_MINUS_SRC_ALPHA && d->beq_rgb == NV40_BEQ_FUNC_ADD &&
	       d->beq_a == NV40_BEQ_FUNC_ADD;
}

/* rop_blend saturated, for the 8-bit-channel formats (over: rop_over's
 * blend).  Source, destination and constant are all in [0, 1] there (the
 * constant is the bytes' when the buffers are 8-bit), so no term is NaN
 * and the result is rop_blend's to the bit whatever order the terms are
 * added in. */
static inline rop_v4 rop_blend8(const struct draw_setup *d, int over, rop_v4 c, rop_v4 dst)
{
	rop_v4 k, fs, fd;

	if (over)
		return rop_sat4(c * rop_splat(c[3]) + dst * rop_splat(1.0f - c[3]));
	memcpy(&k, d->bconst, sizeof(k));
#define ROP_F(f) rop_factor4(f, c, dst, k)
#define ROP_E(e) rop_eq4(e, c, fs, dst, fd)
	fs = ROP_SPLIT(ROP_F, d->bsrc_rgb, d->bsrc_a);
	fd = ROP_SPLIT(ROP_F, d->bdst_rgb, d->bdst_a);
	return ROP_SPLIT(ROP_E, d->beq_rgb, d->beq_a);
#undef ROP_F
#undef ROP_E
}

/* The logic op on the 8-bit channel values of saturated c and dst. */
static void rop_logic4(const struct draw_setup *d, float c[4], const float dst[4])
{
	for (unsigned k = 0; k < 4; k++) {
		uint32_t sv = (uint32_t)(c[k] * 255.0f + 0.5f);
		uint32_t dv = (uint32_t)(sim_sat(dst[k]) * 255.0f + 0.5f);
		c[k] = (float)(rop_logic(d->logic_op, sv, dv) & 0xff) * (1.0f / 255.0f);
	}
}

/* sim_rt_read of an 8-bit-channel pixel at p. */
static inline rop_v4 rop_read8(const struct sim_rt8 *r, const uint8_t *p)
{
	return (rop_v4){ r->unorm[p[r->at[0]]], r->unorm[p[r->at[1]]], r->unorm[p[r->at[2]]],
			 r->at[3] < 0 ? 1.0f : r->unorm[p[3]] };
}

/* Channel bytes b (R G B A, 0..255) to all four bytes of an 8-bit-channel
 * pixel at p: R G B at bytes 0 1 2 or 2 1 0 (sim_rt8_of), A or x at 3. */
static inline void rop_store4(const struct sim_rt8 *r, uint8_t *p, rop_i4 b)
{
#ifdef __SSE2__
	__m128i v = (__m128i)b;

	if (r->at[0] == 2)
		v = _mm_shuffle_epi32(v, _MM_SHUFFLE(3, 0, 1, 2));
	v = _mm_packs_epi32(v, v);                  /* exact: 0..255 */
	uint32_t w = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(v, v));
	if (r->at[3] < 0)
		w = (w & 0x00ffffffu) | (uint32_t)r->x << 24;
	memcpy(p, &w, sizeof(w));
#else
	for (unsigned k = 0; k < 3; k++)
		p[r->at[k]] = (uint8_t)b[k];
	p[3] = r->at[3] < 0 ? r->x : (uint8_t)b[3];
#endif
}

/* sim_rt_write of saturated c to an 8-bit-channel pixel at p. */
static inline void rop_write8(const struct sim_rt8 *r, uint8_t *p, rop_v4 c, unsigned mask)
{
	rop_i4 b = __builtin_convertvector(c * 255.0f + 0.5f, rop_i4);

	if ((mask | (r->at[3] < 0 ? 8u : 0)) == 0xf) {
		rop_store4(r, p, b);                 /* every byte written */
		return;
	}
	for (unsigned k = 0; k < 4; k++)
		if ((mask >> k & 1) && r->at[k] >= 0)
			p[r->at[k]] = (uint8_t)b[k];
	if (r->at[3] < 0)
		p[3] = r->x;
}

/* rop_color for buffer i of 8-bit channels, its pixel at p. */
static inline void rop_color8(const struct draw_setup *d, int over, unsigned i, uint8_t *p,
			      const float *src)
{
	const struct sim_rt8 *r = &d->rt8[i];
	rop_v4 c, dst;

	memcpy(&c, src, sizeof(c));
	c = rop_sat4(c);
	if (d->logic_enable) {
		float cf[4], df[4];
		dst = rop_read8(r, p);
		memcpy(cf, &c, sizeof(cf));
		memcpy(df, &dst, sizeof(df));
		rop_logic4(d, cf, df);
		memcpy(&c, cf, sizeof(c));
	} else if (d->blend[i]) {
		c = rop_blend8(d, over, c, rop_read8(r, p));
	}
	rop_write8(r, p, c, d->cmask[i]);   /* c is saturated: rt_unorm's value */
}

/* Colour col (four per buffer) into the buffers of mask bufs at (x, y);
 * over: rop_over(d). */
static void rop_color(const struct draw_setup *d, unsigned bufs, int over, unsigned x,
		      unsigned y, const float *col)
{
	for (; bufs; bufs &= bufs - 1) {
		unsigned i = (unsigned)__builtin_ctz(bufs);
		const struct sim_rt *rt = &d->rts.color[i];
		float c[4], dst[4];
		const float *src = col + 4 * i;
		if (d->rt8[i].on) {
			uint8_t *p8 = rop_pixel(rt, x, y);
			if (p8)                  /* outside: nothing to write */
				rop_color8(d, over, i, p8, src);
			continue;
		}
		int un = rop_unorm(rt->format);
		for (unsigned k = 0; k < 4; k++)
			c[k] = un ? sim_sat(src[k]) : src[k];
		if (d->blend[i] || d->logic_enable)
			sim_rt_read(rt, x, y, dst);
		if (d->logic_enable && un) {
			rop_logic4(d, c, dst);
		} else if (d->blend[i]) {
			float o[4];
			rop_blend(d, c, dst, o);
			for (unsigned k = 0; k < 4; k++)
				c[k] = un ? sim_sat(o[k]) : o[k];
		}
		sim_rt_write(rt, x, y, c, d->cmask[i]);
	}
}

void sim_rop_quad(const struct draw_setup *d, uint32_t *samples, int x, int y, unsigned live,
		  const float z[4], int front, const struct sim_fp_quad *q)
{
	unsigned bufs = 0;             /* the colour buffers written */
	int over = rop_over(d);

	for (unsigned i = 0; i < 4; i++)
		bufs |= (d->rt_mask >> i & 1) && d->cmask[i] ? 1u << i : 0;
	for (unsigned p = 0; p < 4; p++) {
		if (!(live >> p & 1))
			continue;
		int px = x + (int)(p & 1) + d->tx, py = y + (int)(p >> 1) + d->ty;
		if (px < 0 || py < 0)
			continue;
		const float *c0 = q->color[p][0];

		if (d->alpha_enable && !rop_cmp(d->alpha_func, c0[3], d->alpha_ref))
			continue;

		if (d->zbits) {
			uint8_t *zp = rop_pixel(&d->rts.zeta, (unsigned)px, (unsigned)py);
			if (!zp)
				continue;
			float fz = q->depth_written ? q->depth[p] : z[p];
			fz = sim_sat(fz);
			uint32_t zmax = d->zbits == 24 ? 0xffffffu : 0xffffu;
			uint32_t zf = (uint32_t)((double)fz * zmax + 0.5);
			uint32_t word = d->zbits == 24 ? nv_rd32le(zp) : draw_rd16le(zp);
			uint32_t zb = d->zbits == 24 ? word >> 8 : word;
			unsigned sv = d->zbits == 24 ? word & 0xff : 0, ns = sv;
			const struct draw_stencil *st = &d->st[!front && d->two_sided_stencil];

			if (d->zbounds) {
				float zbf = (float)zb / (float)zmax;
				if (zbf < d->zbmin || zbf > d->zbmax)
					continue;
			}
			int pass = 1;
			if (st->enable && d->zbits == 24) {
				if (!rop_cmpu(st->func, st->ref & st->vmask & 0xff, sv & st->vmask & 0xff)) {
					ns = rop_stencil_op(st->op_fail, sv, st->ref);
					pass = 0;
				}
			}
			if (pass && d->depth_test && !rop_cmpu(d->depth_func, zf, zb)) {
				if (st->enable && d->zbits == 24)
					ns = rop_stencil_op(st->op_zfail, sv, st->ref);
				pass = 0;
			}
			if (pass && st->enable && d->zbits == 24)
				ns = rop_stencil_op(st->op_zpass, sv, st->ref);
			/* write stencil under its mask, depth when it passed */
			uint32_t nw = word;
			if (d->zbits == 24) {
				uint32_t sm = st->enable ? st->wmask & 0xff : 0;
				nw = (nw & ~sm) | (ns & sm);
				if (pass && d->depth_write)
					nw = (nw & 0xff) | zf << 8;
				if (nw != word)
					nv_wr32le(zp, nw);
			} else if (pass && d->depth_write && zf != word) {
				draw_wr16le(zp, (uint16_t)zf);
			}
			if (!pass)
				continue;
		}
		if (d->query)
			(*samples)++;
		rop_color(d, bufs, over, (unsigned)px, (unsigned)py, &q->color[p][0][0]);
	}
}

int sim_rop_early_z_ok(const struct draw_setup *d, int front)
{
	const struct draw_stencil *st = &d->st[!front && d->two_sided_stencil];
	return d->zbits && d->depth_test && !(d->fp_control & NV40_FP_CONTROL_DEPTH) &&
	       !(st->enable && d->zbits == 24);
}

unsigned sim_rop_early_z(const struct draw_setup *d, int x, int y, unsigned live, const float z[4])
{
	uint32_t zmax = d->zbits == 24 ? 0xffffffu : 0xffffu;

	for (unsigned p = 0; p < 4; p++) {
		if (!(live >> p & 1))
			continue;
		int px = x + (int)(p & 1) + d->tx, py = y + (int)(p >> 1) + d->ty;
		const uint8_t *zp = px < 0 || py < 0 ? NULL :
				    rop_pixel(&d->rts.zeta, (unsigned)px, (unsigned)py);
		if (!zp) {
			live &= ~(1u << p);
			continue;
		}
		/* as sim_rop_quad computes it */
		uint32_t zf = (uint32_t)((double)sim_sat(z[p]) * zmax + 0.5);
		uint32_t zb = d->zbits == 24 ? nv_rd32le(zp) >> 8 : draw_rd16le(zp);
		if (!rop_cmpu(d->depth_func, zf, zb))
			live &= ~(1u << p);
	}
	return live;
}

/* ---- the compiled ROP against this one ---- */

/* The bytes a quad's ROP may write: each live pixel's in the zeta buffer
 * and the colour buffers. */
struct rop_bytes {
	uint8_t *at[4][5];
	unsigned n[4][5];
	uint8_t v[4][5][16];
};

static void rop_bytes_save(const struct draw_setup *d, int x, int y, unsigned live,
			   struct rop_bytes *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned p = 0; p < 4; p++) {
		int px = x + (int)(p & 1) + d->tx, py = y + (int)(p >> 1) + d->ty;
		if (!(live >> p & 1) || px < 0 || py < 0)
			continue;
		for (unsigned i = 0; i < 5; i++) {
			const struct sim_rt *rt = i < 4 ? &d->rts.color[i] : &d->rts.zeta;
			uint8_t *b = (i < 4 ? d->rt_mask >> i & 1 : d->zbits) ?
				     rop_pixel(rt, (unsigned)px, (unsigned)py) : NULL;
			if (!b)
				continue;
			s->at[p][i] = b;
			s->n[p][i] = rt->bpp < 16 ? rt->bpp : 16;
			memcpy(s->v[p][i], b, s->n[p][i]);
		}
	}
}

/* Restore the saved bytes (back: 1), or compare them with memory (0:
 * whether all are the same). */
static int rop_bytes_back(const struct rop_bytes *s, int back)
{
	int same = 1;

	for (unsigned p = 0; p < 4; p++)
		for (unsigned i = 0; i < 5; i++) {
			if (!s->at[p][i])
				continue;
			if (back)
				memcpy(s->at[p][i], s->v[p][i], s->n[p][i]);
			else
				same &= !memcmp(s->at[p][i], s->v[p][i], s->n[p][i]);
		}
	return same;
}

void sim_rop_verify(const struct draw_setup *d, struct sim_jit *j, const struct sim_jit_rop *r,
		    uint32_t *samples, int x, int y, unsigned live, const float z[4], int front,
		    const struct sim_fp_quad *q)
{
	struct rop_bytes before, after;
	uint32_t n = *samples;

	rop_bytes_save(d, x, y, live, &before);
	r->quad(d, &n, x, y, live, z, q);
	rop_bytes_save(d, x, y, live, &after);
	rop_bytes_back(&before, 1);
	sim_rop_quad(d, samples, x, y, live, z, front, q);
	sim_jit_verify_rop(j, n != *samples || !rop_bytes_back(&after, 0));
}

unsigned sim_rop_verify_early_z(const struct draw_setup *d, struct sim_jit *j,
				const struct sim_jit_rop *r, int x, int y, unsigned live,
				const float z[4])
{
	unsigned a = r->early_z(d, x, y, live, z), b = sim_rop_early_z(d, x, y, live, z);

	sim_jit_verify_rop(j, a != b);
	return b;
}
