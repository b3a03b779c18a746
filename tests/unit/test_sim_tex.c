/* The texture sampler (sim/3d/tex.c): texels written with a CPU reference
 * of the swizzled layout and little-endian bytes, sampled back at texel
 * centres (exact), between them (hand-computed blends), past the edges
 * under each wrap mode, across mip levels for quads with known
 * derivatives, on cube faces, with sRGB, SNORM, shadow compare and
 * TEX_SWIZZLE; and random words never read outside the extent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "hw/tex.h"
#include "hw/tex-layout.h"
#include "sim/3d/tex.h"

#define EPS 1e-5f

static int near(float a, float b, float eps)
{
	return fabsf(a - b) <= eps;
}

#define assert_near(a, b, eps) do { \
	float a_ = (a), b_ = (b); \
	if (!near(a_, b_, (eps))) \
		fail_msg("%s = %f, expected %f", #a, (double)a_, (double)b_); \
} while (0)

static void assert_rgba(const float v[4], float r, float g, float b, float a, float eps)
{
	assert_near(v[0], r, eps);
	assert_near(v[1], g, eps);
	assert_near(v[2], b, eps);
	assert_near(v[3], a, eps);
}

/* Reference Morton index: interleave x (even) and y (odd) bits while both
 * sizes have bits left, then the longer one's remaining bits. */
static uint32_t ref_swz(uint32_t x, uint32_t y, unsigned lw, unsigned lh)
{
	uint32_t v = 0;
	unsigned bit = 0;

	while (lw || lh) {
		if (lw) {
			v |= (x & 1) << bit++;
			x >>= 1;
			lw--;
		}
		if (lh) {
			v |= (y & 1) << bit++;
			y >>= 1;
			lh--;
		}
	}
	return v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	unsigned i;

	for (i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Identity swizzle: R from native Z, G from Y, B from X, A from W. */
#define SWZ_ARGB (NV40_TEX_SWZ(0, NV40_TEX_SWZ_COMPONENT, 1) | \
		  NV40_TEX_SWZ(1, NV40_TEX_SWZ_COMPONENT, 2) | \
		  NV40_TEX_SWZ(2, NV40_TEX_SWZ_COMPONENT, 3) | \
		  NV40_TEX_SWZ(3, NV40_TEX_SWZ_COMPONENT, 0))
/* Mesa L8_UNORM: RGB from X, A = ONE; L8A8: RGB from X, A from W. */
#define SWZ_L    (NV40_TEX_SWZ(0, NV40_TEX_SWZ_COMPONENT, 3) | \
		  NV40_TEX_SWZ(1, NV40_TEX_SWZ_COMPONENT, 3) | \
		  NV40_TEX_SWZ(2, NV40_TEX_SWZ_COMPONENT, 3) | \
		  NV40_TEX_SWZ(3, NV40_TEX_SWZ_ONE, 0))
#define SWZ_LA   (NV40_TEX_SWZ(0, NV40_TEX_SWZ_COMPONENT, 3) | \
		  NV40_TEX_SWZ(1, NV40_TEX_SWZ_COMPONENT, 3) | \
		  NV40_TEX_SWZ(2, NV40_TEX_SWZ_COMPONENT, 3) | \
		  NV40_TEX_SWZ(3, NV40_TEX_SWZ_COMPONENT, 0))

static struct sim_tex_unit unit(unsigned code, unsigned dims, uint32_t flags, unsigned levels,
				unsigned w, unsigned h, unsigned d, unsigned pitch)
{
	struct sim_tex_unit t;

	memset(&t, 0, sizeof(t));
	t.format = NV40_TEX_FORMAT_DMA0 | NV40_TEX_FORMAT_NO_BORDER | NV40_TEX_FORMAT_UNK15 |
		   dims << NV40_TEX_FORMAT_DIMS_SHIFT | code << NV40_TEX_FORMAT_FORMAT_SHIFT |
		   levels << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT | flags;
	t.wrap = NV40_TEX_WRAP_CLAMP_TO_EDGE << NV40_TEX_WRAP_S_SHIFT |
		 NV40_TEX_WRAP_CLAMP_TO_EDGE << NV40_TEX_WRAP_T_SHIFT |
		 NV40_TEX_WRAP_CLAMP_TO_EDGE << NV40_TEX_WRAP_R_SHIFT;
	t.enable = NV40_TEX_ENABLE_ENABLE | (15u * 256) << NV40_TEX_ENABLE_MAX_LOD_SHIFT;
	t.swizzle = SWZ_ARGB;
	t.filter = NV40_TEX_FILTER_UNK13 |
		   NV40_TEX_FILTER_NEAREST << NV40_TEX_FILTER_MIN_SHIFT |
		   NV40_TEX_FILTER_NEAREST << NV40_TEX_FILTER_MAG_SHIFT;
	t.npot_size = w << 16 | h;
	t.size1 = d << NV40_TEX_SIZE1_DEPTH_SHIFT | pitch;
	return t;
}

static void set_filter(struct sim_tex_unit *t, unsigned min, unsigned mag)
{
	t->filter = (t->filter & ~0x0f0f0000u) | min << NV40_TEX_FILTER_MIN_SHIFT |
		    mag << NV40_TEX_FILTER_MAG_SHIFT;
}

static void set_wrap(struct sim_tex_unit *t, unsigned s, unsigned tt)
{
	t->wrap = (t->wrap & ~0xfffu) | s << NV40_TEX_WRAP_S_SHIFT | tt << NV40_TEX_WRAP_T_SHIFT;
}

/* Byte offset of texel (x, y) of level 0 of a swizzled 2^lw x 2^lh texture. */
static size_t swz_at(unsigned x, unsigned y, unsigned lw, unsigned lh, unsigned bytes)
{
	return (size_t)ref_swz(x, y, lw, lh) * bytes;
}

/* All four pixels at one coordinate: no derivatives, level 0, magnified. */
static void sample_at(const struct sim_tex_unit *t, const uint8_t *mem, unsigned op, float s,
		      float tt, float r, float q, float out[4])
{
	struct sim_tex_req rq;
	float o[4][4];
	unsigned p;

	memset(&rq, 0, sizeof(rq));
	rq.op = op;
	for (p = 0; p < 4; p++) {
		rq.coord[p][0] = s;
		rq.coord[p][1] = tt;
		rq.coord[p][2] = r;
		rq.coord[p][3] = q;
	}
	sim_tex_sample(t, mem, &rq, o);
	for (p = 1; p < 4; p++)
		assert_memory_equal(o[p], o[0], sizeof(o[0]));
	memcpy(out, o[0], sizeof(o[0]));
}

static float centre(unsigned i, unsigned n)
{
	return ((float)i + 0.5f) / (float)n;
}

/* ---- formats ---- */

/* 4x4 A8R8G8B8, swizzled: every texel centre gives its own bytes B G R A. */
static void a8r8g8b8_texel_centres_are_exact(void **state)
{
	uint8_t mem[64];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_A8R8G8B8, 2, 0, 1, 4, 4, 1, 0);
	unsigned x, y;
	float v[4];

	(void)state;
	assert_int_equal(sim_tex_extent(&t), 64);
	for (y = 0; y < 4; y++)
		for (x = 0; x < 4; x++)
			put_le(mem + swz_at(x, y, 2, 2, 4),
			       (uint32_t)(x * 60) | (uint32_t)(y * 80) << 8 |
			       (uint32_t)(x * 16 + y) << 16 | (uint32_t)(255 - x - 4 * y) << 24, 4);
	for (y = 0; y < 4; y++)
		for (x = 0; x < 4; x++) {
			sample_at(&t, mem, SIM_TEX, centre(x, 4), centre(y, 4), 0, 1, v);
			assert_rgba(v, (x * 16 + y) / 255.0f, (y * 80) / 255.0f, (x * 60) / 255.0f,
				    (255 - x - 4 * y) / 255.0f, EPS);
		}
}

/* Non-square swizzled 8x2 L8 (k = 1: 2x2 tiles along x), Mesa's L8 and A8
 * swizzles: (L, L, L, 1) and (0, 0, 0, L). */
static void l8_and_a8_read_one_byte_through_the_swizzle(void **state)
{
	uint8_t mem[16];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_L8, 2, 0, 1, 8, 2, 1, 0);
	unsigned x, y;
	float v[4];

	(void)state;
	for (y = 0; y < 2; y++)
		for (x = 0; x < 8; x++)
			mem[swz_at(x, y, 3, 1, 1)] = (uint8_t)(x * 30 + y * 7);
	t.swizzle = SWZ_L;
	for (y = 0; y < 2; y++)
		for (x = 0; x < 8; x++) {
			float l = (x * 30 + y * 7) / 255.0f;
			sample_at(&t, mem, SIM_TEX, centre(x, 8), centre(y, 2), 0, 1, v);
			assert_rgba(v, l, l, l, 1.0f, EPS);
		}
	t.swizzle = NV40_TEX_SWZ(0, NV40_TEX_SWZ_ZERO, 0) | NV40_TEX_SWZ(1, NV40_TEX_SWZ_ZERO, 0) |
		    NV40_TEX_SWZ(2, NV40_TEX_SWZ_ZERO, 0) | NV40_TEX_SWZ(3, NV40_TEX_SWZ_COMPONENT, 3);
	sample_at(&t, mem, SIM_TEX, centre(5, 8), centre(1, 2), 0, 1, v);
	assert_rgba(v, 0, 0, 0, (5 * 30 + 7) / 255.0f, EPS);
}

/* 16-bit packed formats, one 1x1 texture each. */
static void packed_16bit_formats_expand_their_fields(void **state)
{
	uint8_t mem[2];
	struct sim_tex_unit t;
	float v[4];

	(void)state;
	/* A1R5G5B5 0x8000 | r 31 << 10 | g 8 << 5 | b 1 */
	t = unit(NV40_TEX_FMT_A1R5G5B5, 2, 0, 1, 1, 1, 1, 0);
	put_le(mem, 0x8000 | 31 << 10 | 8 << 5 | 1, 2);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 1.0f, 8 / 31.0f, 1 / 31.0f, 1.0f, EPS);
	/* A4R4G4B4: a 3, r 15, g 0, b 6 */
	t = unit(NV40_TEX_FMT_A4R4G4B4, 2, 0, 1, 1, 1, 1, 0);
	put_le(mem, 3 << 12 | 15 << 8 | 0 << 4 | 6, 2);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 1.0f, 0.0f, 6 / 15.0f, 3 / 15.0f, EPS);
	/* R5G6B5: r 4, g 63, b 30; alpha absent reads 1 */
	t = unit(NV40_TEX_FMT_R5G6B5, 2, 0, 1, 1, 1, 1, 0);
	put_le(mem, 4 << 11 | 63 << 5 | 30, 2);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 4 / 31.0f, 1.0f, 30 / 31.0f, 1.0f, EPS);
	/* A8L8 with Mesa's L8A8 swizzle: L in the low byte, A in the high */
	t = unit(NV40_TEX_FMT_A8L8, 2, 0, 1, 1, 1, 1, 0);
	t.swizzle = SWZ_LA;
	put_le(mem, 0x40 << 8 | 0xc0, 2);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 0xc0 / 255.0f, 0xc0 / 255.0f, 0xc0 / 255.0f, 0x40 / 255.0f, EPS);
	/* A16 through Mesa's L16 swizzle (code 2 = native Y) */
	t = unit(NV40_TEX_FMT_A16, 2, 0, 1, 1, 1, 1, 0);
	t.swizzle = NV40_TEX_SWZ(0, NV40_TEX_SWZ_COMPONENT, 2) |
		    NV40_TEX_SWZ(1, NV40_TEX_SWZ_COMPONENT, 2) |
		    NV40_TEX_SWZ(2, NV40_TEX_SWZ_COMPONENT, 2) | NV40_TEX_SWZ(3, NV40_TEX_SWZ_ONE, 0);
	put_le(mem, 0x1234, 2);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 0x1234 / 65535.0f, 0x1234 / 65535.0f, 0x1234 / 65535.0f, 1.0f, EPS);
}

/* A16L16: L in 15:0 (native X), A in 31:16 (native W); Z24S8 data read
 * this way (Mesa, no compare) gives the depth's top 16 bits in W. */
static void a16l16_splits_the_word_in_halves(void **state)
{
	uint8_t mem[4];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_A16L16, 2, 0, 1, 1, 1, 1, 0);
	float v[4];

	(void)state;
	put_le(mem, 0xabcd1234u, 4);
	t.swizzle = SWZ_LA;
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 0x1234 / 65535.0f, 0x1234 / 65535.0f, 0x1234 / 65535.0f,
		    0xabcd / 65535.0f, EPS);
}

/* RGBA16F (R G B A halves at bytes 0 2 4 6), RGBA32F, R32F, RG16F with
 * Mesa's swizzles (R from Z, G from Y, B from X, A from W). */
static void float_formats_decode_halves_and_floats(void **state)
{
	uint8_t mem[16];
	struct sim_tex_unit t;
	union { float f; uint32_t u; } c[4] = { { 1.5f }, { -2.0f }, { 0.125f }, { 1e6f } };
	float v[4];
	unsigned i;

	(void)state;
	t = unit(NV40_TEX_FMT_RGBA16F, 2, 0, 1, 1, 1, 1, 0);
	put_le(mem, 0x3c00 | 0xc000ull << 16 | 0x3400ull << 32 | 0x3800ull << 48, 8);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 1.0f, -2.0f, 0.25f, 0.5f, 0.0f);
	/* half denormal 0x0001 = 2^-24, and infinity */
	put_le(mem, 0x0001 | 0x7c00ull << 16, 8);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_near(v[0], ldexpf(1.0f, -24), 0.0f);
	assert_true(isinf(v[1]) && v[1] > 0);

	t = unit(NV40_TEX_FMT_RGBA32F, 2, 0, 1, 1, 1, 1, 0);
	for (i = 0; i < 4; i++)
		put_le(mem + 4 * i, c[i].u, 4);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 1.5f, -2.0f, 0.125f, 1e6f, 0.0f);

	t = unit(NV40_TEX_FMT_R32F, 2, 0, 1, 1, 1, 1, 0);
	t.swizzle = NV40_TEX_SWZ(0, NV40_TEX_SWZ_COMPONENT, 1) | NV40_TEX_SWZ(1, NV40_TEX_SWZ_ZERO, 0) |
		    NV40_TEX_SWZ(2, NV40_TEX_SWZ_ZERO, 0) | NV40_TEX_SWZ(3, NV40_TEX_SWZ_ONE, 0);
	put_le(mem, c[1].u, 4);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, -2.0f, 0.0f, 0.0f, 1.0f, 0.0f);

	t = unit(NV40_TEX_FMT_RG16F, 2, 0, 1, 1, 1, 1, 0);
	put_le(mem, 0x3800 | 0x4000u << 16, 4);   /* R 0.5, G 2.0 */
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 0.5f, 2.0f, 0.0f, 1.0f, 0.0f);
}

/* DXT1 4x4 block: c0 = pure red 0xf800, c1 = pure blue 0x001f, c0 > c1:
 * codes 0..3 = red, blue, 2/3 red + 1/3 blue, 1/3 red + 2/3 blue.  With
 * c0 <= c1 code 3 is transparent black. */
static void dxt1_blocks_decode_four_and_three_colour_modes(void **state)
{
	uint8_t mem[8];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_DXT1, 2, 0, 1, 4, 4, 1, 0);
	float v[4];

	(void)state;
	assert_int_equal(sim_tex_extent(&t), 8);
	put_le(mem, 0xf800 | 0x001fu << 16, 4);
	/* row 0: codes 0 1 2 3 -> bits 11 10 01 00 = 0xe4 */
	put_le(mem + 4, 0x000000e4, 4);
	sample_at(&t, mem, SIM_TEX, centre(0, 4), centre(0, 4), 0, 1, v);
	assert_rgba(v, 1, 0, 0, 1, EPS);
	sample_at(&t, mem, SIM_TEX, centre(1, 4), centre(0, 4), 0, 1, v);
	assert_rgba(v, 0, 0, 1, 1, EPS);
	sample_at(&t, mem, SIM_TEX, centre(2, 4), centre(0, 4), 0, 1, v);
	assert_rgba(v, 170 / 255.0f, 0, 85 / 255.0f, 1, EPS);
	sample_at(&t, mem, SIM_TEX, centre(3, 4), centre(0, 4), 0, 1, v);
	assert_rgba(v, 85 / 255.0f, 0, 170 / 255.0f, 1, EPS);
	/* texel (1, 2) has code 0 (row 2 all zero) */
	sample_at(&t, mem, SIM_TEX, centre(1, 4), centre(2, 4), 0, 1, v);
	assert_rgba(v, 1, 0, 0, 1, EPS);
	/* swap the colours: c0 <= c1, code 2 = average, 3 = transparent */
	put_le(mem, 0x001f | 0xf800u << 16, 4);
	sample_at(&t, mem, SIM_TEX, centre(2, 4), centre(0, 4), 0, 1, v);
	assert_rgba(v, 127 / 255.0f, 0, 127 / 255.0f, 1, EPS);
	sample_at(&t, mem, SIM_TEX, centre(3, 4), centre(0, 4), 0, 1, v);
	assert_rgba(v, 0, 0, 0, 0, EPS);
}

/* DXT3: explicit 4-bit alpha; DXT5: interpolated alpha (a0 > a1: 8 steps;
 * else 6 steps with 0 and 255), both over an always-4-colour block. */
static void dxt3_and_dxt5_decode_alpha(void **state)
{
	uint8_t mem[16];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_DXT3, 2, 0, 1, 4, 4, 1, 0);
	float v[4];

	(void)state;
	memset(mem, 0, sizeof(mem));
	mem[0] = 0x5a;            /* texel 0 alpha 0xa, texel 1 alpha 0x5 */
	put_le(mem + 8, 0x001f | 0xf800u << 16, 4);   /* c0 < c1 but 4-colour */
	put_le(mem + 12, 0x000000e4, 4);
	sample_at(&t, mem, SIM_TEX, centre(0, 4), centre(0, 4), 0, 1, v);
	assert_rgba(v, 0, 0, 1, 0xaa / 255.0f, EPS);
	sample_at(&t, mem, SIM_TEX, centre(1, 4), centre(0, 4), 0, 1, v);
	assert_rgba(v, 1, 0, 0, 0x55 / 255.0f, EPS);
	sample_at(&t, mem, SIM_TEX, centre(3, 4), centre(0, 4), 0, 1, v);
	assert_rgba(v, 170 / 255.0f, 0, 85 / 255.0f, 0, EPS);

	t = unit(NV40_TEX_FMT_DXT5, 2, 0, 1, 4, 4, 1, 0);
	memset(mem, 0, sizeof(mem));
	mem[0] = 210;
	mem[1] = 140;
	/* texel 0 code 0, texel 1 code 1, texel 2 code 2, texel 3 code 7 */
	put_le(mem + 2, 0u | 1u << 3 | 2u << 6 | 7u << 9, 3);
	put_le(mem + 8, 0xf800 | 0x001fu << 16, 4);
	sample_at(&t, mem, SIM_TEX, centre(0, 4), centre(0, 4), 0, 1, v);
	assert_near(v[3], 210 / 255.0f, EPS);
	sample_at(&t, mem, SIM_TEX, centre(1, 4), centre(0, 4), 0, 1, v);
	assert_near(v[3], 140 / 255.0f, EPS);
	sample_at(&t, mem, SIM_TEX, centre(2, 4), centre(0, 4), 0, 1, v);
	assert_near(v[3], 200 / 255.0f, EPS);    /* (6 * 210 + 140) / 7 */
	sample_at(&t, mem, SIM_TEX, centre(3, 4), centre(0, 4), 0, 1, v);
	assert_near(v[3], 150 / 255.0f, EPS);    /* (210 + 6 * 140) / 7 */
	mem[0] = 100;
	mem[1] = 200;             /* 6-step mode: code 7 = 255, code 2 = 120 */
	sample_at(&t, mem, SIM_TEX, centre(3, 4), centre(0, 4), 0, 1, v);
	assert_near(v[3], 1.0f, EPS);
	sample_at(&t, mem, SIM_TEX, centre(2, 4), centre(0, 4), 0, 1, v);
	assert_near(v[3], 120 / 255.0f, EPS);
}

/* ---- filtering and wrap ---- */

/* 2x2 L8 {0, 100; 200, 50}: the centre blends all four equally; a quarter
 * texel right of texel (0,0)'s centre weighs 3/4 : 1/4 along x. */
static void bilinear_blends_by_distance_to_texel_centres(void **state)
{
	uint8_t mem[4];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_L8, 2, 0, 1, 2, 2, 1, 0);
	float v[4];

	(void)state;
	mem[swz_at(0, 0, 1, 1, 1)] = 0;
	mem[swz_at(1, 0, 1, 1, 1)] = 100;
	mem[swz_at(0, 1, 1, 1, 1)] = 200;
	mem[swz_at(1, 1, 1, 1, 1)] = 50;
	t.swizzle = SWZ_L;
	set_filter(&t, NV40_TEX_FILTER_LINEAR, NV40_TEX_FILTER_LINEAR);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_near(v[0], 350 / 4.0f / 255.0f, EPS);
	/* u = 0.375 * 2 - 0.5 = 0.25, v = 0.25 (texel centre row 0) */
	sample_at(&t, mem, SIM_TEX, 0.375f, 0.25f, 0, 1, v);
	assert_near(v[0], 25 / 255.0f, EPS);
	/* (0.375, 0.5): x 3/4 : 1/4, y 1/2 : 1/2 */
	sample_at(&t, mem, SIM_TEX, 0.375f, 0.5f, 0, 1, v);
	assert_near(v[0], (0.375f * 0 + 0.125f * 100 + 0.375f * 200 + 0.125f * 50) / 255.0f, EPS);
	/* nearest at the same point: texel (0, 1) */
	set_filter(&t, NV40_TEX_FILTER_NEAREST, NV40_TEX_FILTER_NEAREST);
	sample_at(&t, mem, SIM_TEX, 0.375f, 0.5f, 0, 1, v);
	assert_near(v[0], 200 / 255.0f, EPS);
}

/* 4x1 L8 {10, 20, 30, 40}, nearest, past either edge under each mode. */
static void wrap_modes_fold_coordinates_past_the_edges(void **state)
{
	static const struct { unsigned mode; float s; float want; } cases[] = {
		{ NV40_TEX_WRAP_REPEAT, 1.125f, 10 },          /* texel 4 -> 0 */
		{ NV40_TEX_WRAP_REPEAT, -0.125f, 40 },         /* -1 -> 3 */
		{ NV40_TEX_WRAP_REPEAT, 2.375f, 20 },          /* 9 -> 1 */
		{ NV40_TEX_WRAP_MIRRORED_REPEAT, 1.125f, 40 }, /* 4 -> 3 */
		{ NV40_TEX_WRAP_MIRRORED_REPEAT, 1.625f, 20 }, /* 6 -> 1 */
		{ NV40_TEX_WRAP_MIRRORED_REPEAT, -0.125f, 10 },/* -1 -> 0 */
		{ NV40_TEX_WRAP_MIRRORED_REPEAT, 2.125f, 10 }, /* 8 -> 0 */
		{ NV40_TEX_WRAP_CLAMP_TO_EDGE, 7.0f, 40 },
		{ NV40_TEX_WRAP_CLAMP_TO_EDGE, -3.0f, 10 },
		{ NV40_TEX_WRAP_CLAMP, 1.5f, 40 },
		{ NV40_TEX_WRAP_CLAMP, -0.5f, 10 },
		{ NV40_TEX_WRAP_CLAMP_TO_BORDER, 1.125f, 0x99 },
		{ NV40_TEX_WRAP_CLAMP_TO_BORDER, -0.01f, 0x99 },
		{ NV40_TEX_WRAP_CLAMP_TO_BORDER, 0.99f, 40 },
		{ NV40_TEX_WRAP_MIRROR_CLAMP_TO_EDGE, -0.375f, 20 },  /* |-1.5| -> 1 */
		{ NV40_TEX_WRAP_MIRROR_CLAMP_TO_EDGE, -5.0f, 40 },
		{ NV40_TEX_WRAP_MIRROR_CLAMP, -0.625f, 30 },
		{ NV40_TEX_WRAP_MIRROR_CLAMP_TO_BORDER, -0.625f, 30 },
		{ NV40_TEX_WRAP_MIRROR_CLAMP_TO_BORDER, -1.5f, 0x99 },
	};
	uint8_t mem[4] = { 10, 20, 30, 40 };
	struct sim_tex_unit t = unit(NV40_TEX_FMT_L8, 2, 0, 1, 4, 1, 1, 0);
	float v[4];
	unsigned i;

	(void)state;
	t.swizzle = SWZ_L;
	t.border = 0x99999999u;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		set_wrap(&t, cases[i].mode, NV40_TEX_WRAP_REPEAT);
		sample_at(&t, mem, SIM_TEX, cases[i].s, 0.5f, 0, 1, v);
		if (!near(v[0], cases[i].want / 255.0f, EPS))
			fail_msg("mode %u s %f: %f, want %f", cases[i].mode, (double)cases[i].s,
				 (double)v[0] * 255, (double)cases[i].want);
	}
}

/* Linear at s = 0: CLAMP_TO_EDGE repeats texel 0; GL_CLAMP blends it half
 * and half with the border; REPEAT blends it with the last texel. */
static void linear_at_the_edge_depends_on_the_wrap(void **state)
{
	uint8_t mem[4] = { 10, 20, 30, 40 };
	struct sim_tex_unit t = unit(NV40_TEX_FMT_L8, 2, 0, 1, 4, 1, 1, 0);
	float v[4];

	(void)state;
	t.swizzle = SWZ_L;
	t.border = 0xc8c8c8c8u;   /* 200 */
	set_filter(&t, NV40_TEX_FILTER_LINEAR, NV40_TEX_FILTER_LINEAR);
	set_wrap(&t, NV40_TEX_WRAP_CLAMP_TO_EDGE, NV40_TEX_WRAP_CLAMP_TO_EDGE);
	sample_at(&t, mem, SIM_TEX, 0.0f, 0.5f, 0, 1, v);
	assert_near(v[0], 10 / 255.0f, EPS);
	set_wrap(&t, NV40_TEX_WRAP_CLAMP, NV40_TEX_WRAP_CLAMP_TO_EDGE);
	sample_at(&t, mem, SIM_TEX, -1.0f, 0.5f, 0, 1, v);
	assert_near(v[0], 105 / 255.0f, EPS);
	set_wrap(&t, NV40_TEX_WRAP_REPEAT, NV40_TEX_WRAP_CLAMP_TO_EDGE);
	sample_at(&t, mem, SIM_TEX, 0.0f, 0.5f, 0, 1, v);
	assert_near(v[0], 25 / 255.0f, EPS);
}

/* CLAMP_TO_BORDER returns TEX_BORDER_COLOR (A8R8G8B8) through the swizzle. */
static void border_colour_is_a8r8g8b8(void **state)
{
	uint8_t mem[4] = { 0 };
	struct sim_tex_unit t = unit(NV40_TEX_FMT_A8R8G8B8, 2, 0, 1, 1, 1, 1, 0);
	float v[4];

	(void)state;
	t.border = 0x80ff4020u;
	set_wrap(&t, NV40_TEX_WRAP_CLAMP_TO_BORDER, NV40_TEX_WRAP_CLAMP_TO_BORDER);
	sample_at(&t, mem, SIM_TEX, 0.5f, 1.5f, 0, 1, v);
	assert_rgba(v, 1.0f, 0x40 / 255.0f, 0x20 / 255.0f, 0x80 / 255.0f, EPS);
}

/* A one-channel format has one border value: the border's channel for the
 * first output the swizzle gives the texel.  Mesa's A8 (L8 into alpha)
 * shows the border's alpha, its L8 the red; GL_CLAMP blends it linearly.
 * Mesa sends GL's border (r, g, b, a) translated to the base format,
 * (0, 0, 0, a) for alpha and (l, l, l, 1) for luminance. */
static void one_channel_border_follows_the_swizzle(void **state)
{
	uint8_t mem[4] = { 10, 20, 30, 40 };
	struct sim_tex_unit t = unit(NV40_TEX_FMT_L8, 2, 0, 1, 4, 1, 1, 0);
	float v[4];

	(void)state;
	t.swizzle = NV40_TEX_SWZ(0, NV40_TEX_SWZ_ZERO, 0) | NV40_TEX_SWZ(1, NV40_TEX_SWZ_ZERO, 0) |
		    NV40_TEX_SWZ(2, NV40_TEX_SWZ_ZERO, 0) | NV40_TEX_SWZ(3, NV40_TEX_SWZ_COMPONENT, 3);
	t.border = 0xcc000000u;
	set_wrap(&t, NV40_TEX_WRAP_CLAMP_TO_BORDER, NV40_TEX_WRAP_CLAMP_TO_BORDER);
	sample_at(&t, mem, SIM_TEX, 1.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 0, 0, 0, 0xcc / 255.0f, EPS);
	set_filter(&t, NV40_TEX_FILTER_LINEAR, NV40_TEX_FILTER_LINEAR);
	set_wrap(&t, NV40_TEX_WRAP_CLAMP, NV40_TEX_WRAP_CLAMP_TO_EDGE);
	sample_at(&t, mem, SIM_TEX, -1.0f, 0.5f, 0, 1, v);      /* half texel 0, half border */
	assert_rgba(v, 0, 0, 0, (10 + 0xcc) / 2 / 255.0f, EPS);
	t.swizzle = SWZ_L;
	t.border = 0xff808080u;
	set_filter(&t, NV40_TEX_FILTER_NEAREST, NV40_TEX_FILTER_NEAREST);
	set_wrap(&t, NV40_TEX_WRAP_CLAMP_TO_BORDER, NV40_TEX_WRAP_CLAMP_TO_BORDER);
	sample_at(&t, mem, SIM_TEX, 0.5f, 2.5f, 0, 1, v);
	assert_rgba(v, 0x80 / 255.0f, 0x80 / 255.0f, 0x80 / 255.0f, 1, EPS);
}

/* RECT + LINEAR 5x3 A8R8G8B8 in a 64-byte pitch: unnormalised coordinates
 * address texels directly. */
static void rect_coordinates_are_texels(void **state)
{
	uint8_t mem[64 * 3];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_A8R8G8B8, 2,
				     NV40_TEX_FORMAT_RECT | NV40_TEX_FORMAT_LINEAR, 1, 5, 3, 1, 64);
	unsigned x, y;
	float v[4];

	(void)state;
	memset(mem, 0, sizeof(mem));
	for (y = 0; y < 3; y++)
		for (x = 0; x < 5; x++)
			put_le(mem + y * 64 + x * 4, (x * 50) << 16 | (y * 100) << 8 | 0xff000000u, 4);
	for (y = 0; y < 3; y++)
		for (x = 0; x < 5; x++) {
			sample_at(&t, mem, SIM_TEX, x + 0.5f, y + 0.5f, 0, 1, v);
			assert_rgba(v, x * 50 / 255.0f, y * 100 / 255.0f, 0, 1, EPS);
		}
	/* bilinear between (1,1) and (2,1) */
	set_filter(&t, NV40_TEX_FILTER_LINEAR, NV40_TEX_FILTER_LINEAR);
	sample_at(&t, mem, SIM_TEX, 2.0f, 1.5f, 0, 1, v);
	assert_rgba(v, 75 / 255.0f, 100 / 255.0f, 0, 1, EPS);
}

/* TXP divides s, t (and r) by q. */
static void txp_divides_by_q(void **state)
{
	uint8_t mem[4] = { 10, 20, 30, 40 };
	struct sim_tex_unit t = unit(NV40_TEX_FMT_L8, 2, 0, 1, 4, 1, 1, 0);
	float v[4];

	(void)state;
	t.swizzle = SWZ_L;
	sample_at(&t, mem, SIM_TXP, 1.25f, 1.0f, 0, 2.0f, v);   /* s = 0.625: texel 2 */
	assert_near(v[0], 30 / 255.0f, EPS);
	sample_at(&t, mem, SIM_TEX, 1.25f, 1.0f, 0, 2.0f, v);   /* not divided: texel 3 */
	assert_near(v[0], 40 / 255.0f, EPS);
}

/* ---- mipmaps ---- */

/* 8x8 L8 with 4 levels, level i filled with 10 * (i + 1). */
static uint8_t mip_mem[64 + 16 + 4 + 1];
static struct sim_tex_unit mip_unit(unsigned min)
{
	struct sim_tex_unit t = unit(NV40_TEX_FMT_L8, 2, 0, 4, 8, 8, 1, 0);

	memset(mip_mem, 10, 64);
	memset(mip_mem + 64, 20, 16);
	memset(mip_mem + 80, 30, 4);
	mip_mem[84] = 40;
	t.swizzle = SWZ_L;
	set_filter(&t, min, NV40_TEX_FILTER_LINEAR);
	return t;
}

/* A quad whose s steps by ds per pixel in x and t by dt per pixel in y. */
static void quad(struct sim_tex_req *rq, unsigned op, float ds, float dt, float w)
{
	unsigned p;

	memset(rq, 0, sizeof(*rq));
	rq->op = op;
	for (p = 0; p < 4; p++) {
		rq->coord[p][0] = 0.3f + (p & 1) * ds;
		rq->coord[p][1] = 0.3f + (p >> 1) * dt;
		rq->coord[p][3] = w;
	}
}

static float mip_sample(const struct sim_tex_unit *t, const struct sim_tex_req *rq)
{
	float o[4][4];
	unsigned p;

	sim_tex_sample(t, mip_mem, rq, o);
	for (p = 1; p < 4; p++)
		assert_near(o[p][0], o[0][0], EPS);
	return o[0][0] * 255.0f;
}

/* Two texels per pixel (ds = 2/8) is LOD 1; 2^1.5 texels is LOD 1.5;
 * NMN rounds to the nearest level, NML/LML blend the two around it. */
static void lod_from_quad_derivatives_picks_the_level(void **state)
{
	struct sim_tex_unit t = mip_unit(NV40_TEX_FILTER_NEAREST_MIPMAP_NEAREST);
	struct sim_tex_req rq;

	(void)state;
	quad(&rq, SIM_TEX, 2.0f / 8, 2.0f / 8, 1);
	assert_near(mip_sample(&t, &rq), 20, 1e-3f);
	quad(&rq, SIM_TEX, 4.0f / 8, 1.0f / 8, 1);     /* the longer derivative counts */
	assert_near(mip_sample(&t, &rq), 30, 1e-3f);
	quad(&rq, SIM_TEX, 1.0f / 8, 1.0f / 8, 1);     /* LOD 0: magnified */
	assert_near(mip_sample(&t, &rq), 10, 1e-3f);
	quad(&rq, SIM_TEX, 64.0f / 8, 64.0f / 8, 1);   /* LOD 6 clamps to the last level */
	assert_near(mip_sample(&t, &rq), 40, 1e-3f);
	quad(&rq, SIM_TEX, 3.0314331f / 8, 0, 1);      /* LOD 1.6 rounds up */
	assert_near(mip_sample(&t, &rq), 30, 1e-3f);
	quad(&rq, SIM_TEX, 2.6390158f / 8, 0, 1);      /* LOD 1.4 rounds down */
	assert_near(mip_sample(&t, &rq), 20, 1e-3f);
	quad(&rq, SIM_TEX, 2.8284271f / 8, 0, 1);      /* LOD 1.5 */
	t = mip_unit(NV40_TEX_FILTER_LINEAR_MIPMAP_LINEAR);
	assert_near(mip_sample(&t, &rq), 25, 1e-2f);
	t = mip_unit(NV40_TEX_FILTER_NEAREST_MIPMAP_LINEAR);
	quad(&rq, SIM_TEX, 2.3784142f / 8, 0, 1);      /* LOD 1.25 */
	assert_near(mip_sample(&t, &rq), 22.5f, 1e-2f);
	/* without a mip filter the minified texture stays on level 0 */
	t = mip_unit(NV40_TEX_FILTER_LINEAR);
	quad(&rq, SIM_TEX, 4.0f / 8, 4.0f / 8, 1);
	assert_near(mip_sample(&t, &rq), 10, 1e-3f);
}

/* TEX_FILTER bias, TXB's w, TXL's explicit LOD, TXD's derivatives and the
 * TEX_ENABLE clamps. */
static void lod_bias_explicit_lod_and_clamps(void **state)
{
	struct sim_tex_unit t = mip_unit(NV40_TEX_FILTER_NEAREST_MIPMAP_NEAREST);
	struct sim_tex_req rq;
	unsigned p;

	(void)state;
	quad(&rq, SIM_TEX, 2.0f / 8, 2.0f / 8, 1);    /* LOD 1 */
	t.filter |= 256;                               /* +1.0 */
	assert_near(mip_sample(&t, &rq), 30, 1e-3f);
	t.filter = (t.filter & ~NV40_TEX_FILTER_LOD_BIAS_MASK) | (0x2000u - 256);   /* -1.0 */
	assert_near(mip_sample(&t, &rq), 10, 1e-3f);
	t = mip_unit(NV40_TEX_FILTER_NEAREST_MIPMAP_NEAREST);
	quad(&rq, SIM_TXB, 2.0f / 8, 2.0f / 8, 2.0f);  /* 1 + 2 */
	assert_near(mip_sample(&t, &rq), 40, 1e-3f);
	quad(&rq, SIM_TXL, 2.0f / 8, 2.0f / 8, 2.0f);  /* derivatives ignored */
	assert_near(mip_sample(&t, &rq), 30, 1e-3f);
	quad(&rq, SIM_TXD, 0, 0, 1);
	for (p = 0; p < 4; p++) {
		rq.ddx[p][0] = 4.0f / 8;
		rq.ddy[p][1] = 4.0f / 8;
	}
	assert_near(mip_sample(&t, &rq), 30, 1e-3f);
	/* max LOD 1.0 and min LOD 2.0 (Mesa: min_lod << 19 | max_lod << 7) */
	quad(&rq, SIM_TXL, 0, 0, 3.0f);
	t.enable = NV40_TEX_ENABLE_ENABLE | 256u << NV40_TEX_ENABLE_MAX_LOD_SHIFT;
	assert_near(mip_sample(&t, &rq), 20, 1e-3f);
	quad(&rq, SIM_TXL, 0, 0, 0.0f);
	t.enable = NV40_TEX_ENABLE_ENABLE | 512u << NV40_TEX_ENABLE_MIN_LOD_SHIFT |
		   (15u * 256) << NV40_TEX_ENABLE_MAX_LOD_SHIFT;
	assert_near(mip_sample(&t, &rq), 30, 1e-3f);
}

/* ---- anisotropy ---- */

/* A quad at (s0, t0) whose s steps by ds per pixel in x and t by dt in y. */
static void aniso_quad(struct sim_tex_req *rq, float s0, float t0, float ds, float dt)
{
	memset(rq, 0, sizeof(*rq));
	rq->op = SIM_TEX;
	for (unsigned p = 0; p < 4; p++) {
		rq->coord[p][0] = s0 + (p & 1) * ds;
		rq->coord[p][1] = t0 + (p >> 1) * dt;
		rq->coord[p][3] = 1;
	}
}

static void set_aniso(struct sim_tex_unit *t, unsigned aniso)
{
	t->enable = (t->enable & ~(7u << NV40_TEX_ENABLE_ANISO_SHIFT)) |
		    aniso << NV40_TEX_ENABLE_ANISO_SHIFT;
}

/* 8 texels per pixel along s, 2 along t: isotropic filtering takes LOD 3;
 * with ANISO the shorter axis's LOD 1 (4 probes); 2X runs out of probes
 * at a ratio of 4 and takes log2(8 / 2) = 2. */
static void aniso_takes_the_shorter_axis_lod(void **state)
{
	struct sim_tex_unit t = mip_unit(NV40_TEX_FILTER_NEAREST_MIPMAP_NEAREST);
	struct sim_tex_req rq;

	(void)state;
	aniso_quad(&rq, 0.3f, 0.3f, 8.0f / 8, 2.0f / 8);
	assert_near(mip_sample(&t, &rq), 40, 1e-3f);
	set_aniso(&t, 4);                                  /* 8X */
	assert_near(mip_sample(&t, &rq), 20, 1e-3f);
	set_aniso(&t, 1);                                  /* 2X */
	assert_near(mip_sample(&t, &rq), 30, 1e-3f);
	aniso_quad(&rq, 0.3f, 0.3f, 2.0f / 8, 8.0f / 8);  /* the same along t */
	set_aniso(&t, 4);
	assert_near(mip_sample(&t, &rq), 20, 1e-3f);
}

/* 16x16 L8 whose column x holds 10 x, nearest, one level.  4 texels per
 * pixel along s, 1 along t: 4X probes at the middles of the pixel's four
 * quarters along s, 1.5 and 0.5 texels either side of it. */
static void aniso_probes_split_the_major_axis(void **state)
{
	static uint8_t mem[256];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_L8, 2, 0, 1, 16, 16, 1, 0);
	struct sim_tex_req rq;
	float o[4][4];

	(void)state;
	for (unsigned y = 0; y < 16; y++)
		for (unsigned x = 0; x < 16; x++)
			mem[swz_at(x, y, 4, 4, 1)] = (uint8_t)(x * 10);
	t.swizzle = SWZ_L;
	aniso_quad(&rq, 8.0f / 16, 4.5f / 16, 4.0f / 16, 1.0f / 16);
	sim_tex_sample(&t, mem, &rq, o);
	assert_near(o[0][0] * 255.0f, 80, 1e-3f);          /* one texel at s */
	assert_near(o[1][0] * 255.0f, 120, 1e-3f);
	set_aniso(&t, 2);                                  /* 4X */
	sim_tex_sample(&t, mem, &rq, o);
	assert_near(o[0][0] * 255.0f, (60 + 70 + 80 + 90) / 4.0f, 1e-3f);
	assert_near(o[1][0] * 255.0f, (100 + 110 + 120 + 130) / 4.0f, 1e-3f);
	assert_near(o[2][0] * 255.0f, (60 + 70 + 80 + 90) / 4.0f, 1e-3f);
}

/* A round footprint is one probe: ANISO changes nothing, to the bit. */
static void aniso_of_a_round_footprint_is_isotropic(void **state)
{
	struct sim_tex_unit t = mip_unit(NV40_TEX_FILTER_LINEAR_MIPMAP_LINEAR);
	struct sim_tex_req rq;
	float a[4][4], b[4][4];

	(void)state;
	aniso_quad(&rq, 0.3f, 0.6f, 2.3f / 8, 2.3f / 8);
	sim_tex_sample(&t, mip_mem, &rq, a);
	set_aniso(&t, 7);                                  /* 16X */
	sim_tex_sample(&t, mip_mem, &rq, b);
	assert_memory_equal(a, b, sizeof(a));
}

/* ---- cubes, 3D ---- */

/* 2x2 A8R8G8B8 cube, faces 128 bytes apart (16 bytes aligned up), each
 * texel R = face * 40 + texel: the major axis picks the face, GL's sc/tc
 * table the texel. */
static void cube_direction_selects_face_and_texel(void **state)
{
	uint8_t mem[5 * 128 + 16];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_A8R8G8B8, 2, NV40_TEX_FORMAT_CUBIC, 1, 2, 2, 1, 0);
	static const float dir[6][3] = {
		{ 1, 0.2f, 0.1f }, { -1, 0.2f, 0.1f }, { 0.1f, 1, 0.2f },
		{ 0.1f, -1, 0.2f }, { 0.1f, 0.2f, 1 }, { 0.1f, 0.2f, -1 },
	};
	unsigned f, x, y;
	float v[4];

	(void)state;
	assert_int_equal(sim_tex_extent(&t), sizeof(mem));
	memset(mem, 0, sizeof(mem));
	for (f = 0; f < 6; f++)
		for (y = 0; y < 2; y++)
			for (x = 0; x < 2; x++)
				put_le(mem + f * 128 + swz_at(x, y, 1, 1, 4),
				       (f * 40 + y * 2 + x) << 16, 4);
	for (f = 0; f < 6; f++) {
		sample_at(&t, mem, SIM_TEX, dir[f][0], dir[f][1], dir[f][2], 1, v);
		assert_true(v[0] * 255.0f >= f * 40 - 0.01f && v[0] * 255.0f <= f * 40 + 3.01f);
	}
	/* +X: sc = -rz, tc = -ry; (1, -0.5, -0.5) -> s = t = 0.75: texel (1, 1) */
	sample_at(&t, mem, SIM_TEX, 1, -0.5f, -0.5f, 1, v);
	assert_near(v[0] * 255.0f, 3, 1e-3f);
	/* +X (1, 0.5, 0.5) -> s = t = 0.25: texel (0, 0) */
	sample_at(&t, mem, SIM_TEX, 1, 0.5f, 0.5f, 1, v);
	assert_near(v[0] * 255.0f, 0, 1e-3f);
	/* -Y: sc = rx, tc = -rz; (0.5, -1, -0.5) -> s = 0.75, t = 0.75 */
	sample_at(&t, mem, SIM_TEX, 0.5f, -1, -0.5f, 1, v);
	assert_near(v[0] * 255.0f, 123, 1e-3f);
	/* +Z: sc = rx, tc = -ry; (-0.5, 0.5, 2) -> s = 0.375, t = 0.375: (0, 0) */
	sample_at(&t, mem, SIM_TEX, -0.5f, 0.5f, 2, 1, v);
	assert_near(v[0] * 255.0f, 160, 1e-3f);
}

/* 4x2x2 swizzled L8 3D: (x, y, z) = bits x0 y0 z0 x1. */
static void swizzled_3d_interleaves_three_coordinates(void **state)
{
	uint8_t mem[16];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_L8, 3, 0, 1, 4, 2, 2, 0);
	unsigned i;
	float v[4];

	(void)state;
	for (i = 0; i < 16; i++)
		mem[i] = (uint8_t)(i * 10);
	t.swizzle = SWZ_L;
	/* (3, 0, 1): x0 = 1, y0 = 0, z0 = 1, x1 = 1 -> 1 + 4 + 8 = 13 */
	sample_at(&t, mem, SIM_TEX, centre(3, 4), centre(0, 2), centre(1, 2), 1, v);
	assert_near(v[0], 130 / 255.0f, EPS);
	/* (2, 1, 0): 0 + 2 + 0 + 8 = 10 */
	sample_at(&t, mem, SIM_TEX, centre(2, 4), centre(1, 2), centre(0, 2), 1, v);
	assert_near(v[0], 100 / 255.0f, EPS);
	/* trilinear at the middle of the volume: the mean of texels 8-15's
	 * neighbours around x = 2 +- 0.5: (1, 2) x (0, 1) x (0, 1) */
	set_filter(&t, NV40_TEX_FILTER_LINEAR, NV40_TEX_FILTER_LINEAR);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0.5f, 1, v);
	/* x = 1: indices 0b0?1 with x1 = 0: 1 3 5 7; x = 2: x1 = 1, x0 = 0: 8 10 12 14 */
	assert_near(v[0], (1 + 3 + 5 + 7 + 8 + 10 + 12 + 14) * 10 / 8.0f / 255.0f, 1e-4f);
}

/* Mesa's 3D blit (nv30_transfer_rect_blit, its readback of a swizzled 3D
 * texture) gives DIMS 3D, RECT and TEX_SIZE1 depth 1, and r = the slice:
 * the unit is a w x h x 1 texture, so every r reads the 2D swizzle of the
 * first w x h texels and nothing past them (the validator's extent). */
static void blit_state_of_a_3d_texture_reads_one_slice(void **state)
{
	uint8_t mem[16];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_L8, 3, NV40_TEX_FORMAT_RECT, 1, 4, 2, 1, 0);
	unsigned i;
	float v[4];

	(void)state;
	assert_int_equal(sim_tex_extent(&t), 8);
	for (i = 0; i < 16; i++)
		mem[i] = (uint8_t)(i * 10);
	t.swizzle = SWZ_L;
	/* (2, 0) of a 4x2 2D swizzle is index 4; in the 4x2x2 volume Mesa
	 * wrote, index 4 is (0, 0, 1) */
	for (i = 0; i < 2; i++) {
		sample_at(&t, mem, SIM_TEX, 2.5f, 0.5f, (float)i, 1, v);
		assert_near(v[0], 40 / 255.0f, EPS);
	}
}

/* ---- sRGB, SNORM, shadow, swizzle ---- */

static void srgb_decodes_colour_channels_not_alpha(void **state)
{
	uint8_t mem[4];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_A8R8G8B8, 2, 0, 1, 1, 1, 1, 0);
	float v[4];

	(void)state;
	put_le(mem, 0x80800a80u, 4);   /* A 128, R 128, G 10, B 128 */
	t.wrap |= NV40_TEX_WRAP_SRGB_RGB;
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	/* ((128/255 + 0.055) / 1.055)^2.4 = 0.2158605; 10/255 / 12.92 */
	assert_rgba(v, 0.2158605f, 10 / 255.0f / 12.92f, 0.2158605f, 128 / 255.0f, 1e-5f);
	/* red alone (bit 20): native Z */
	t.wrap = (t.wrap & ~0x00f00000u) | 1u << NV40_TEX_WRAP_SRGB_SHIFT;
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 0.2158605f, 10 / 255.0f, 128 / 255.0f, 128 / 255.0f, 1e-5f);
}

static void snorm_channels_are_twos_complement(void **state)
{
	uint8_t mem[4];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_A8R8G8B8, 2, 0, 1, 1, 1, 1, 0);
	float v[4];

	(void)state;
	put_le(mem, 0x7f408180u, 4);   /* A 0x7f, R 0x40, G 0x81, B 0x80 */
	t.filter |= 0xfu << NV40_TEX_FILTER_SIGNED_SHIFT;
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 64 / 127.0f, -1.0f, -1.0f, 1.0f, EPS);
	/* SIGNED_RED (bit 30) only */
	t.filter = (t.filter & 0x0fffffffu) | NV40_TEX_SIGNED_CH(2);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 64 / 127.0f, 0x81 / 255.0f, 0x80 / 255.0f, 0x7f / 255.0f, EPS);
}

/* Z16 with RCOMP: each texel compared to r, then filtered (PCF). */
static void shadow_compare_happens_per_texel_before_filtering(void **state)
{
	uint8_t mem[4];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_Z16, 2, 0, 1, 2, 1, 1, 0);
	float v[4];

	(void)state;
	put_le(mem, 0x4000, 2);        /* 0.25 */
	put_le(mem + 2, 0xc000, 2);    /* 0.75 */
	t.wrap |= NV40_TEX_RCOMP_LEQUAL << NV40_TEX_WRAP_RCOMP_SHIFT;
	sample_at(&t, mem, SIM_TEX, 0.25f, 0.5f, 0.2f, 1, v);
	assert_rgba(v, 1, 1, 1, 1, 0);
	sample_at(&t, mem, SIM_TEX, 0.25f, 0.5f, 0.3f, 1, v);
	assert_rgba(v, 0, 0, 0, 0, 0);
	sample_at(&t, mem, SIM_TEX, 0.75f, 0.5f, 0.3f, 1, v);
	assert_near(v[0], 1, 0);
	/* GREATER flips it; NEVER and ALWAYS ignore the data */
	t.wrap = (t.wrap & 0x0fffffffu) | NV40_TEX_RCOMP_GREATER << NV40_TEX_WRAP_RCOMP_SHIFT;
	sample_at(&t, mem, SIM_TEX, 0.25f, 0.5f, 0.3f, 1, v);
	assert_near(v[0], 1, 0);
	t.wrap = (t.wrap & 0x0fffffffu) | NV40_TEX_RCOMP_NEVER << NV40_TEX_WRAP_RCOMP_SHIFT;
	sample_at(&t, mem, SIM_TEX, 0.25f, 0.5f, 0.3f, 1, v);
	assert_near(v[0], 0, 0);
	t.wrap = (t.wrap & 0x0fffffffu) | NV40_TEX_RCOMP_ALWAYS << NV40_TEX_WRAP_RCOMP_SHIFT;
	sample_at(&t, mem, SIM_TEX, 0.25f, 0.5f, 0.3f, 1, v);
	assert_near(v[0], 1, 0);
	/* linear halfway: one texel passes, one fails */
	t.wrap = (t.wrap & 0x0fffffffu) | NV40_TEX_RCOMP_LEQUAL << NV40_TEX_WRAP_RCOMP_SHIFT;
	set_filter(&t, NV40_TEX_FILTER_LINEAR, NV40_TEX_FILTER_LINEAR);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0.5f, 1, v);
	assert_near(v[0], 0.5f, EPS);
	/* TXP: the reference is r / q */
	set_filter(&t, NV40_TEX_FILTER_NEAREST, NV40_TEX_FILTER_NEAREST);
	sample_at(&t, mem, SIM_TXP, 0.5f, 1.0f, 0.4f, 2.0f, v);   /* s 0.25, r 0.2 */
	assert_near(v[0], 1, 0);
}

/* Z24S8 words (depth 31:8) compared as 24-bit depth. */
static void z24_compares_the_top_24_bits(void **state)
{
	uint8_t mem[4];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_Z24, 2, 0, 1, 1, 1, 1, 0);
	float v[4];

	(void)state;
	put_le(mem, 0x800000u << 8 | 0xff, 4);   /* depth 0.5000000298, stencil 0xff */
	t.wrap |= NV40_TEX_RCOMP_LESS << NV40_TEX_WRAP_RCOMP_SHIFT;
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0.5f, 1, v);
	assert_near(v[0], 1, 0);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0.50001f, 1, v);
	assert_near(v[0], 0, 0);
}

/* TEX_SWIZZLE: R = ONE, G = ZERO, B = native W (alpha), A = native Z (red). */
static void swizzle_selects_constants_and_channels(void **state)
{
	uint8_t mem[4];
	struct sim_tex_unit t = unit(NV40_TEX_FMT_A8R8G8B8, 2, 0, 1, 1, 1, 1, 0);
	float v[4];

	(void)state;
	put_le(mem, 0x11223344u, 4);   /* A 0x11 R 0x22 G 0x33 B 0x44 */
	t.swizzle = NV40_TEX_SWZ(0, NV40_TEX_SWZ_ONE, 0) | NV40_TEX_SWZ(1, NV40_TEX_SWZ_ZERO, 0) |
		    NV40_TEX_SWZ(2, NV40_TEX_SWZ_COMPONENT, 0) |
		    NV40_TEX_SWZ(3, NV40_TEX_SWZ_COMPONENT, 1);
	/* Mesa's placement: A at bits 1:0 / 9:8, R at 3:2 / 11:10 ... */
	assert_int_equal(t.swizzle, 0x1u << 10 | 0x0u << 12 | 0x2u << 14 | 0x2u << 8 |
					    0u << 6 | 1u << 0);
	sample_at(&t, mem, SIM_TEX, 0.5f, 0.5f, 0, 1, v);
	assert_rgba(v, 1.0f, 0.0f, 0x11 / 255.0f, 0x22 / 255.0f, EPS);
}

/* ---- robustness ---- */

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static float rnd_coord(uint32_t *s)
{
	switch (rnd(s) % 8) {
	case 0: return NAN;
	case 1: return rnd(s) & 1 ? INFINITY : -INFINITY;
	case 2: return (float)(int32_t)rnd(s);
	case 3: return 0.0f;
	default: return ((float)(rnd(s) % 20000) - 10000.0f) / 4096.0f;
	}
}

/* Random words and coordinates over a buffer of exactly the extent, which
 * ends at an inaccessible page: any read past it faults.  Non-textures
 * sample as 0. */
static void random_words_never_read_past_the_extent(void **state)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t cap = 4u << 20, span = cap + (size_t)pg;
	uint8_t *base = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t s = 0xdecafbadu;
	unsigned n, p, i, sampled = 0;

	(void)state;
	assert_true(base != MAP_FAILED);
	for (i = 0; i < cap; i++)
		base[i] = (uint8_t)(i * 131 + 7);
	assert_int_equal(mprotect(base + cap, (size_t)pg, PROT_NONE), 0);
	for (n = 0; n < 30000; n++) {
		struct sim_tex_unit t;
		struct sim_tex_req rq;
		float o[4][4];
		uint64_t ext;

		t.offset = rnd(&s);
		t.format = rnd(&s);
		t.wrap = rnd(&s);
		t.enable = rnd(&s);
		t.swizzle = rnd(&s);
		t.filter = rnd(&s);
		t.npot_size = rnd(&s);
		t.border = rnd(&s);
		t.size1 = rnd(&s);
		if (n & 1) {   /* plausible: small sizes, a known DIMS, few levels */
			t.npot_size &= 0x003f003f;
			t.size1 &= 0x00f000ff;
			t.format = (t.format & 0x0003ff0f) | (1 + n % 3) << 4 | 1u << 16;
			if (n & 2)
				t.format = (t.format & ~0x000f0000u) | (1 + rnd(&s) % 6) << 16;
		}
		memset(&rq, 0, sizeof(rq));
		rq.op = rnd(&s) % 6;
		for (p = 0; p < 4; p++)
			for (i = 0; i < 4; i++) {
				rq.coord[p][i] = rnd_coord(&s);
				rq.ddx[p][i] = rnd_coord(&s);
				rq.ddy[p][i] = rnd_coord(&s);
			}
		ext = sim_tex_extent(&t);
		if (ext > cap)
			continue;
		sim_tex_sample(&t, base + cap - ext, &rq, o);
		if (!ext) {
			for (p = 0; p < 4; p++)
				for (i = 0; i < 4; i++)
					assert_true(o[p][i] == 0.0f);
		} else {
			sampled++;
		}
	}
	assert_true(sampled > 500);
	munmap(base, span);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a8r8g8b8_texel_centres_are_exact),
		cmocka_unit_test(l8_and_a8_read_one_byte_through_the_swizzle),
		cmocka_unit_test(packed_16bit_formats_expand_their_fields),
		cmocka_unit_test(a16l16_splits_the_word_in_halves),
		cmocka_unit_test(float_formats_decode_halves_and_floats),
		cmocka_unit_test(dxt1_blocks_decode_four_and_three_colour_modes),
		cmocka_unit_test(dxt3_and_dxt5_decode_alpha),
		cmocka_unit_test(bilinear_blends_by_distance_to_texel_centres),
		cmocka_unit_test(wrap_modes_fold_coordinates_past_the_edges),
		cmocka_unit_test(linear_at_the_edge_depends_on_the_wrap),
		cmocka_unit_test(border_colour_is_a8r8g8b8),
		cmocka_unit_test(one_channel_border_follows_the_swizzle),
		cmocka_unit_test(rect_coordinates_are_texels),
		cmocka_unit_test(txp_divides_by_q),
		cmocka_unit_test(lod_from_quad_derivatives_picks_the_level),
		cmocka_unit_test(lod_bias_explicit_lod_and_clamps),
		cmocka_unit_test(aniso_takes_the_shorter_axis_lod),
		cmocka_unit_test(aniso_probes_split_the_major_axis),
		cmocka_unit_test(aniso_of_a_round_footprint_is_isotropic),
		cmocka_unit_test(cube_direction_selects_face_and_texel),
		cmocka_unit_test(swizzled_3d_interleaves_three_coordinates),
		cmocka_unit_test(blit_state_of_a_3d_texture_reads_one_slice),
		cmocka_unit_test(srgb_decodes_colour_channels_not_alpha),
		cmocka_unit_test(snorm_channels_are_twos_complement),
		cmocka_unit_test(shadow_compare_happens_per_texel_before_filtering),
		cmocka_unit_test(z24_compares_the_top_24_bits),
		cmocka_unit_test(swizzle_selects_constants_and_channels),
		cmocka_unit_test(random_words_never_read_past_the_extent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
