/* The simulator's fast paths against the general code they stand for, bit
 * for bit, on random inputs full of the values IEEE treats specially:
 * straight-line fragment programs, which fp.c's cache runs without flow
 * control, against sim_fp_run, the interpreter that decodes and steers
 * every instruction; A8R8G8B8 and the other textures of 8-bit channels
 * through tex.c's table decoders, bilinear and nearest quad paths and its
 * kept quad LOD against its generic decoder and level sampler
 * (sim_tex_view_generic); the ROP's 8-bit colour path (rt8) against
 * sim_rt_read, rop_blend and sim_rt_write, on the buffers' bytes.  Each
 * differential is also shown to notice a one-ulp (one-LSB) change made to
 * its fast side.  The seed is printed; NVD_TEST_SEED sets another. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/disasm.h"
#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"
#include "hw/fp-isa.h"
#include "hw/tex.h"
#include "sim/3d/fp.h"
#include "sim/3d/pipe.h"
#include "sim/3d/tex.h"
#include "tests/lib/fp-random.h"

static uint64_t seed;
static int quiet;                 /* the one-ulp tests expect differences */

/* Two floats' bits equal (a NaN's payload included). */
static int same_bits(const float *x, const float *y, unsigned n)
{
	return !memcmp(x, y, n * sizeof(*x));
}

/* ---- straight-line fragment programs ---- */

/* A sampler both sides call: its result depends on every field of the
 * request, so both must ask the same. */
static void fp_sample(void *ctx, const struct sim_tex_req *rq, float out[4][4])
{
	(void)ctx;
	for (unsigned p = 0; p < 4; p++)
		for (unsigned c = 0; c < 4; c++) {
			float v = rq->coord[p][c] * (float)(rq->unit + 1) - (float)rq->op;
			if (rq->op == SIM_TXD)
				v = v + rq->ddx[p][3 - c] - rq->ddy[p][c];
			out[p][c] = c == 1 ? -v : v;
		}
}

static struct sim_fp_cache fpc;

/* Decode p into fpc; it must be straight-line, so the cache runs it on
 * the fast path. */
static void fp_check(const struct prog *p)
{
	memset(&fpc, 0, sizeof(fpc));
	sim_fp_cache_reset(&fpc);
	assert_int_equal(sim_fp_cache_check(&fpc, p->b, p->len), 1);
}

static void fp_report(const struct prog *p, const struct sim_fp_quad *a, const struct sim_fp_quad *b)
{
	char text[256];

	for (unsigned i = 0; i < fpc.nseq; i++) {
		size_t pc = (size_t)fpc.seq[i] * NV40_FP_INSN_BYTES;
		fprintf(stderr, "  %s\n", hw_fp_disasm(p->b + pc, p->len - pc, text, sizeof(text)));
	}
	for (unsigned i = 0; i < 64; i++) {
		uint32_t u, v;
		memcpy(&u, &a->color[0][0][0] + i, 4);
		memcpy(&v, &b->color[0][0][0] + i, 4);
		if (u != v)
			fprintf(stderr, "  pixel %u colour %u.%c: interpreted %08x, straight %08x\n",
				i / 16, i / 4 % 4, "xyzw"[i % 4], u, v);
	}
	fprintf(stderr, "  depth_written %u/%u kill %x/%x\n", a->depth_written, b->depth_written,
		a->kill, b->kill);
}

/* Random quads of program p (checked into fpc) whose results differ
 * between the interpreter and the straight-line path; *nans counts the
 * NaNs among the colours compared. */
static unsigned fp_diff(const struct prog *p, uint32_t control, unsigned quads, unsigned *nans)
{
	struct sim_fp_quad a, b;
	unsigned bad = 0;

	for (unsigned k = 0; k < quads; k++) {
		rnd_quad(&a);
		b = a;
		assert_int_equal(sim_fp_run(p->b, p->len, control, &a, fp_sample, NULL), 0);
		b.kill = 0xa;                 /* the run must set them */
		b.depth_written = 3;
		assert_int_equal(sim_fp_run_cached(&fpc, p->b, p->len, control, &b, fp_sample, NULL), 0);
		for (unsigned i = 0; i < 64; i++)
			*nans += (&a.color[0][0][0])[i] != (&a.color[0][0][0])[i];
		if (!same_bits(&a.color[0][0][0], &b.color[0][0][0], 64) || a.kill != b.kill ||
		    a.depth_written != b.depth_written ||
		    (a.depth_written && !same_bits(a.depth, b.depth, 4))) {
			if (!bad++ && !quiet)
				fp_report(p, &a, &b);
		}
	}
	return bad;
}

enum { FP_PROGRAMS = 20000, FP_QUADS = 16 };

static void straight_line_programs_match_the_interpreter(void **state)
{
	(void)state;
	static struct prog p;
	unsigned differ = 0, nans = 0;

	rng_state = seed ^ 1;
	for (unsigned i = 0; i < FP_PROGRAMS; i++) {
		rnd_prog(&p, 1 + rnd_below(12));
		fp_check(&p);
		uint32_t control = rnd_below(2) ? NV40_FP_CONTROL_DEPTH : 0;
		unsigned bad = fp_diff(&p, control, FP_QUADS, &nans);
		if (bad && !differ++)
			fprintf(stderr, "program %u: %u of %u quads differ\n", i, bad, FP_QUADS);
	}
	printf("straight-line programs: %u programs x %u pixels, %u differ (%u NaN colours compared)\n",
	       FP_PROGRAMS, 4 * FP_QUADS, differ, nans);
	assert_int_equal(differ, 0);
	assert_true(nans > 0);
}

/* The straight-line path runs the constant fpc decoded; the interpreter
 * decodes it again from the bytes.  One ulp more in the decoded copy must
 * show in every quad. */
static void straight_line_differential_notices_one_ulp(void **state)
{
	(void)state;
	static struct prog p;
	unsigned nans = 0, bad;

	rng_state = seed ^ 2;
	const float k = 0.75f;
	fp_prog1(&p, NV40_FP_OP_MOV, 0, FP_SRC_PLAIN(NV40_FP_SRC_CONST), 0, &k);
	fp_check(&p);
	assert_int_equal(fp_diff(&p, 0, 8, &nans), 0);
	fpc.dec[fpc.seq[0]].cst[2] = bits_f(0x3f400001);
	quiet = 1;
	bad = fp_diff(&p, 0, 8, &nans);
	quiet = 0;
	printf("straight-line programs: one ulp in a constant, %u of 8 quads differ\n", bad);
	assert_int_equal(bad, 8);
}

/* ---- the A8R8G8B8 sampler ---- */

/* Wrap modes: REPEAT and CLAMP_TO_EDGE (the pair the bilinear fast path
 * takes) half the time, any other mode, or a value that is none, else. */
static unsigned tex_rnd_wrap(void)
{
	if (rnd_below(2))
		return rnd_below(2) ? NV40_TEX_WRAP_REPEAT : NV40_TEX_WRAP_CLAMP_TO_EDGE;
	return rnd_below(8) ? 1 + rnd_below(8) : rnd_below(16);
}

/* TEX_SWIZZLE with every output from a native channel: output i from
 * component code comp(i), a random one, or else GL's order for these
 * texels (R from Z, G from Y, B from X, A from W). */
static uint32_t tex_swz_channels(int random)
{
	static const unsigned argb[4] = { 1, 2, 3, 0 };
	uint32_t v = 0;

	for (unsigned i = 0; i < 4; i++)
		v |= NV40_TEX_SWZ(i, NV40_TEX_SWZ_COMPONENT, random ? rnd_below(4) : argb[i]);
	return v;
}

/* A random unit of texel format code (of `bytes` bytes) the layout
 * accepts: 1D or 2D (cube sometimes), swizzled (powers of two) or
 * pitch-linear (any size), normalised or RECT, some levels, any wrap,
 * filter, LOD bias and clamps, anisotropy, sRGB, SNORM channels, swizzle
 * and border. */
static void tex_rnd_unit(struct sim_tex_unit *t, unsigned code, unsigned bytes)
{
	do {
		unsigned dims = rnd_below(5) ? 2 : 1, lin = rnd_below(2);
		unsigned w = lin ? 1 + rnd_below(48) : 1u << rnd_below(7);
		unsigned h = dims == 1 ? 1 : lin ? 1 + rnd_below(48) : 1u << rnd_below(7);
		uint32_t flags = (lin ? NV40_TEX_FORMAT_LINEAR : 0) |
				 (rnd_below(4) ? 0 : NV40_TEX_FORMAT_RECT);
		if (dims == 2 && !lin && rnd_below(8) == 0) {
			h = w;
			flags |= NV40_TEX_FORMAT_CUBIC;
		}
		memset(t, 0, sizeof(*t));
		t->format = NV40_TEX_FORMAT_DMA0 | NV40_TEX_FORMAT_NO_BORDER | NV40_TEX_FORMAT_UNK15 |
			    dims << NV40_TEX_FORMAT_DIMS_SHIFT |
			    code << NV40_TEX_FORMAT_FORMAT_SHIFT |
			    (1 + rnd_below(8)) << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT | flags;
		t->npot_size = w << 16 | h;
		t->size1 = 1u << NV40_TEX_SIZE1_DEPTH_SHIFT | (w + rnd_below(3) * rnd_below(5)) * bytes;
		t->wrap = tex_rnd_wrap() << NV40_TEX_WRAP_S_SHIFT | tex_rnd_wrap() << NV40_TEX_WRAP_T_SHIFT |
			  tex_rnd_wrap() << NV40_TEX_WRAP_R_SHIFT;
		if (!rnd_below(4))
			t->wrap |= rnd_below(16) << NV40_TEX_WRAP_SRGB_SHIFT;
		t->enable = NV40_TEX_ENABLE_ENABLE | (rnd_below(4) ? 0 : rnd_below(8)) << NV40_TEX_ENABLE_ANISO_SHIFT |
			    (rnd_below(2) ? 15u * 256 : rnd_below(4096)) << NV40_TEX_ENABLE_MAX_LOD_SHIFT |
			    (rnd_below(2) ? 0 : rnd_below(1024)) << NV40_TEX_ENABLE_MIN_LOD_SHIFT;
		t->filter = NV40_TEX_FILTER_UNK13 | (rnd_below(2) ? 0 : rnd() & NV40_TEX_FILTER_LOD_BIAS_MASK) |
			    (rnd_below(8) ? 1 + rnd_below(6) : rnd_below(16)) << NV40_TEX_FILTER_MIN_SHIFT |
			    (rnd_below(8) ? 1 + rnd_below(2) : rnd_below(16)) << NV40_TEX_FILTER_MAG_SHIFT |
			    (rnd_below(4) ? 0 : rnd_below(16)) << NV40_TEX_FILTER_SIGNED_SHIFT;
		t->swizzle = rnd_below(4) ? tex_swz_channels(rnd_below(2)) : rnd() & 0xffff;
		t->border = rnd();
	} while (!sim_tex_extent(t));
}

/* A coordinate along an axis of n texels (scale: n for RECT, else 1):
 * texel centres and edges inside and past the texture, huge values, and
 * the specials of rnd_float. */
static float tex_rnd_coord(unsigned n, float scale)
{
	int k = (int)rnd_below(6 * n + 1) - 3 * (int)n;

	switch (rnd_below(6)) {
	case 0:
		return rnd_float();
	case 1:
		return ((float)k + 0.5f) / (float)n * scale;
	case 2:
		return (float)k / (float)n * scale;
	case 3:
		return (float)((int)rnd_below(2001) - 1000) * 65536.0f;
	default:
		return (((float)rnd() / 4294967296.0f) * 3.0f - 1.0f) * scale;
	}
}

/* A request of any kind on the unit: the quad's pixels a small step
 * apart (a LOD follows from them) or anywhere. */
static void tex_rnd_req(const struct sim_tex_unit *t, struct sim_tex_req *rq)
{
	unsigned w = t->npot_size >> 16, h = t->npot_size & 0xffff;
	float sw = t->format & NV40_TEX_FORMAT_RECT ? (float)w : 1.0f;
	float sh = t->format & NV40_TEX_FORMAT_RECT ? (float)h : 1.0f;
	float base[4] = { tex_rnd_coord(w, sw), tex_rnd_coord(h, sh), tex_rnd_coord(w, sw), 1.0f };
	float dx[4], dy[4];

	memset(rq, 0, sizeof(*rq));
	rq->op = rnd_below(5);
	for (unsigned c = 0; c < 4; c++) {
		float step = (float)(1u << rnd_below(8)) / (float)(1u << rnd_below(8));
		dx[c] = rnd_below(8) ? step * ((float)(int)rnd_below(5) - 2.0f) / (float)w : rnd_float();
		dy[c] = rnd_below(8) ? step * ((float)(int)rnd_below(5) - 2.0f) / (float)h : rnd_float();
	}
	if (rnd_below(4) == 0)
		base[3] = rnd_float();                     /* TXP's q, TXB's bias, TXL's lod */
	else if (rq->op == SIM_TXB || rq->op == SIM_TXL)
		base[3] = (float)((int)rnd_below(81) - 20) / 4.0f;
	for (unsigned p = 0; p < 4; p++)
		for (unsigned c = 0; c < 4; c++) {
			rq->coord[p][c] = rnd_below(16) ? base[c] + (float)(p & 1) * dx[c] + (float)(p >> 1) * dy[c]
							: rnd_float();
			rq->ddx[p][c] = dx[c];
			rq->ddy[p][c] = dy[c];
		}
}

static void tex_report(const struct sim_tex_unit *t, const struct sim_tex_req *rq, float a[4][4],
		       float b[4][4])
{
	fprintf(stderr, "  unit format %08x wrap %08x enable %08x swizzle %08x filter %08x size %08x "
		"size1 %08x border %08x; op %u\n", t->format, t->wrap, t->enable, t->swizzle, t->filter,
		t->npot_size, t->size1, t->border, rq->op);
	for (unsigned p = 0; p < 4; p++) {
		uint32_t u, v;
		fprintf(stderr, "  pixel %u coord %a %a %a %a ddx %a %a ddy %a %a\n", p,
			(double)rq->coord[p][0], (double)rq->coord[p][1], (double)rq->coord[p][2],
			(double)rq->coord[p][3], (double)rq->ddx[p][0], (double)rq->ddx[p][1],
			(double)rq->ddy[p][0], (double)rq->ddy[p][1]);
		for (unsigned c = 0; c < 4; c++) {
			memcpy(&u, &a[p][c], 4);
			memcpy(&v, &b[p][c], 4);
			if (u != v)
				fprintf(stderr, "    %c: generic %08x, fast %08x\n", "rgba"[c], u, v);
		}
	}
}

/* Does wrap mode m give tex.c's bilinear quad path (REPEAT,
 * CLAMP_TO_EDGE) or its nearest one (those, CLAMP and CLAMP_TO_BORDER)? */
static int tex_bilinear_wrap(unsigned m)
{
	return m == NV40_TEX_WRAP_REPEAT || m == NV40_TEX_WRAP_CLAMP_TO_EDGE;
}

static int tex_nearest_wrap(unsigned m)
{
	return tex_bilinear_wrap(m) || m == NV40_TEX_WRAP_CLAMP || m == NV40_TEX_WRAP_CLAMP_TO_BORDER;
}

/* May request rq on the fast view f take one of tex.c's quad paths (one
 * LOD for the quad; a linear filter on S and T wrapping as the bilinear
 * path takes, or a nearest one without a mip blend wrapping as the
 * nearest path takes)?  As far as the unit tells: the LOD picks the
 * filter.  1 bilinear, 2 nearest. */
static int tex_quad_path(const struct sim_tex_view *f, const struct sim_tex_req *rq)
{
	unsigned s = f->modes[0], t = f->modes[1];

	if (!(rq->op == SIM_TEX || rq->op == SIM_TXP) || f->l.cube || f->aniso != 1)
		return 0;
	if (f->l.code == NV40_TEX_FMT_A8R8G8B8 && tex_bilinear_wrap(s) && tex_bilinear_wrap(t) &&
	    f->magf == NV40_TEX_FILTER_LINEAR &&
	    f->minf % 2 == 0 && f->minf && f->minf <= 6)
		return 1;
	if (tex_nearest_wrap(s) && tex_nearest_wrap(t) && f->magf == NV40_TEX_FILTER_NEAREST &&
	    (f->minf == NV40_TEX_FILTER_NEAREST || f->minf == NV40_TEX_FILTER_NEAREST_MIPMAP_NEAREST))
		return 2;
	return 0;
}

/* Requests of rqs whose four pixels sample differently through the
 * generic view g and the fast one f of unit t. */
static unsigned tex_diff(const struct sim_tex_unit *t, const struct sim_tex_view *g,
			 const struct sim_tex_view *f, const struct sim_tex_req *rqs, unsigned n)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < n; i++) {
		float a[4][4], b[4][4];
		sim_tex_view_sample(g, &rqs[i], a);
		sim_tex_view_sample(f, &rqs[i], b);
		if (!same_bits(&a[0][0], &b[0][0], 16) && !bad++ && !quiet)
			tex_report(t, &rqs[i], a, b);
	}
	return bad;
}

enum { TEX_UNITS = 10000, TEX_REQS = 48 };

static uint8_t texmem[6 << 16];

/* Random units of texel format code (bytes each) and requests on them,
 * sampled through the fast view and the generic one: none may differ, and
 * enough must take the fast paths. */
static void tex_sampler_differential(const char *name, unsigned code, unsigned bytes)
{
	static struct sim_tex_view f, g;
	struct sim_tex_unit t;
	struct sim_tex_req rq[TEX_REQS];
	unsigned differ = 0, fast = 0;   /* fast: S and T wrap as the bilinear path takes */
	unsigned quads[3] = { 0 }, mips = 0; /* requests per quad path; bilinear mip-linear */
	unsigned fixed = 0;              /* quad-path requests whose LOD cannot matter */

	for (unsigned u = 0; u < TEX_UNITS; u++) {
		tex_rnd_unit(&t, code, bytes);
		uint64_t ext = sim_tex_extent(&t);
		assert_true(ext <= sizeof(texmem));
		for (uint64_t i = 0; i < ext; i++)
			texmem[i] = (uint8_t)rnd();
		sim_tex_prepare(&f, &t, texmem);
		assert_true(f.ok);
		g = f;
		sim_tex_view_generic(&g);
		assert_true(g.level != f.level || g.dec != f.dec);
		fast += tex_bilinear_wrap(t.wrap & 0xf) && tex_bilinear_wrap(t.wrap >> 8 & 0xf);
		for (unsigned i = 0; i < TEX_REQS; i++) {
			/* a repeat finds the quad LOD the last request left */
			if (i && !rnd_below(4))
				rq[i] = rq[i - 1];
			else
				tex_rnd_req(&t, &rq[i]);
			quads[tex_quad_path(&f, &rq[i])]++;
			mips += tex_quad_path(&f, &rq[i]) == 1 &&
				f.minf == NV40_TEX_FILTER_LINEAR_MIPMAP_LINEAR && f.l.levels > 1;
			fixed += tex_quad_path(&f, &rq[i]) && f.lod_linear >= 0;
		}
		unsigned bad = tex_diff(&t, &g, &f, rq, TEX_REQS);
		if (bad && !differ++)
			fprintf(stderr, "unit %u: %u of %u requests differ\n", u, bad, TEX_REQS);
	}
	printf("%s sampler: %u textures (%u wrapping for the bilinear path) x %u pixels, %u differ; "
	       "%u requests for the bilinear quad path, %u of them mip-linear, %u for the nearest "
	       "one; %u with a selection no LOD changes\n", name, TEX_UNITS, fast, 4 * TEX_REQS,
	       differ, quads[1], mips, quads[2], fixed);
	assert_int_equal(differ, 0);
	assert_true(fixed > (quads[1] + quads[2]) / 16);
	assert_true(fast > TEX_UNITS / 8);
	assert_true(quads[2] > TEX_UNITS * TEX_REQS / 256);
	if (code == NV40_TEX_FMT_A8R8G8B8) {
		assert_true(quads[1] > TEX_UNITS * TEX_REQS / 64);
		assert_true(mips > quads[1] / 8);
	}
}

static void a8r8g8b8_sampler_matches_the_generic_decoder(void **state)
{
	(void)state;
	rng_state = seed ^ 3;
	tex_sampler_differential("A8R8G8B8", NV40_TEX_FMT_A8R8G8B8, 4);
}

/* The formats of up to 4 bytes with channels of up to 8 bits, which the
 * table decoder reads (and the nearest quad path with it). */
static void small_texel_sampler_matches_the_generic_decoder(void **state)
{
	static const struct { const char *name; unsigned code, bytes; } fmts[] = {
		{ "L8", NV40_TEX_FMT_L8, 1 },             { "A1R5G5B5", NV40_TEX_FMT_A1R5G5B5, 2 },
		{ "A4R4G4B4", NV40_TEX_FMT_A4R4G4B4, 2 }, { "R5G6B5", NV40_TEX_FMT_R5G6B5, 2 },
		{ "A8L8", NV40_TEX_FMT_A8L8, 2 },         { "HILO8", NV40_TEX_FMT_HILO8, 2 },
	};

	(void)state;
	rng_state = seed ^ 7;
	for (unsigned i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		tex_sampler_differential(fmts[i].name, fmts[i].code, fmts[i].bytes);
}

/* A 2D A8R8G8B8 unit of n x n texels and `levels` levels, swizzled,
 * REPEAT on S and T, GL's channel order, filters minf and magf. */
static void tex_square_unit(struct sim_tex_unit *t, unsigned n, unsigned levels, unsigned minf,
			    unsigned magf)
{
	memset(t, 0, sizeof(*t));
	t->format = NV40_TEX_FORMAT_DMA0 | NV40_TEX_FORMAT_NO_BORDER | NV40_TEX_FORMAT_UNK15 |
		    2u << NV40_TEX_FORMAT_DIMS_SHIFT | NV40_TEX_FMT_A8R8G8B8 << NV40_TEX_FORMAT_FORMAT_SHIFT |
		    levels << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT;
	t->npot_size = n << 16 | n;
	t->size1 = 1u << NV40_TEX_SIZE1_DEPTH_SHIFT;
	t->wrap = NV40_TEX_WRAP_REPEAT << NV40_TEX_WRAP_S_SHIFT | NV40_TEX_WRAP_REPEAT << NV40_TEX_WRAP_T_SHIFT;
	t->enable = NV40_TEX_ENABLE_ENABLE | 15u * 256 << NV40_TEX_ENABLE_MAX_LOD_SHIFT;
	t->swizzle = tex_swz_channels(0);
	t->filter = NV40_TEX_FILTER_UNK13 | minf << NV40_TEX_FILTER_MIN_SHIFT | magf << NV40_TEX_FILTER_MAG_SHIFT;
}

/* The fast views decode a byte through a table, the generic one computes
 * it: one byte value one ulp off in the fast view's tables must show in
 * every texel of that value, filtered nearest or linear at texel centres
 * of one level, or linear between two levels (a quad's LOD 0.58, for the
 * quad path's mip blend). */
static void a8r8g8b8_differential_notices_one_ulp(void **state)
{
	(void)state;
	static struct sim_tex_view f, g;
	static float lut[4][256];
	static const unsigned filt[3][2] = {          /* min, mag */
		{ NV40_TEX_FILTER_NEAREST, NV40_TEX_FILTER_NEAREST },
		{ NV40_TEX_FILTER_LINEAR, NV40_TEX_FILTER_LINEAR },
		{ NV40_TEX_FILTER_LINEAR_MIPMAP_LINEAR, NV40_TEX_FILTER_LINEAR },
	};
	struct sim_tex_unit t;
	struct sim_tex_req rq[3][16];
	unsigned bad[3][2];

	rng_state = seed ^ 4;
	memset(texmem, 0x5a, (8 * 8 + 4 * 4) * 4);
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < 16; i++) {
			float s0 = ((float)rnd_below(8) + 0.5f) / 8.0f, t0 = ((float)rnd_below(8) + 0.5f) / 8.0f;
			memset(&rq[k][i], 0, sizeof(rq[k][i]));
			for (unsigned p = 0; p < 4; p++) {
				rq[k][i].coord[p][0] = k < 2 ? ((float)rnd_below(8) + 0.5f) / 8.0f :
							       s0 + (float)(p & 1) * 1.5f / 8.0f;
				rq[k][i].coord[p][1] = k < 2 ? ((float)rnd_below(8) + 0.5f) / 8.0f :
							       t0 + (float)(p >> 1) * 1.5f / 8.0f;
				rq[k][i].coord[p][3] = 1.0f;
			}
		}
	for (unsigned k = 0; k < 3; k++) {
		tex_square_unit(&t, 8, k < 2 ? 1 : 2, filt[k][0], filt[k][1]);
		sim_tex_prepare(&f, &t, texmem);
		g = f;
		sim_tex_view_generic(&g);
		assert_int_equal(tex_diff(&t, &g, &f, rq[k], 16), 0);
		/* the channels' tables one UNORM table (the quad path reads
		 * it alone), then a table per channel */
		const float *unorm = f.lut[0];
		for (unsigned n = 0; n < 2; n++) {
			for (unsigned c = 0; c < 4; c++) {
				assert_ptr_equal(g.lut[c], unorm);
				memcpy(lut[c], unorm, sizeof(lut[c]));
				uint32_t v;
				memcpy(&v, &lut[c][0x5a], 4);
				lut[c][0x5a] = bits_f(v + 1);
				f.lut[c] = lut[n ? c : 0];
			}
			quiet = 1;
			bad[k][n] = tex_diff(&t, &g, &f, rq[k], 16);
			quiet = 0;
		}
	}
	printf("A8R8G8B8 sampler: one ulp in a byte's value, %u/%u (nearest), %u/%u (linear) and "
	       "%u/%u (mip-linear) of 16 requests differ (one table/four)\n", bad[0][0], bad[0][1],
	       bad[1][0], bad[1][1], bad[2][0], bad[2][1]);
	for (unsigned k = 0; k < 3; k++) {
		assert_int_equal(bad[k][0], 16);
		assert_int_equal(bad[k][1], 16);
	}
}

/* The quad path converts UNORM bytes to floats by division, not through
 * the table: every byte value in every channel, each texel sampled alone
 * (linear, at its centre), gives the generic decoder's bits. */
static void a8r8g8b8_quad_path_decodes_every_byte(void **state)
{
	(void)state;
	static struct sim_tex_view f, g;
	struct sim_tex_unit t;
	struct sim_tex_req rq[64];

	tex_square_unit(&t, 16, 1, NV40_TEX_FILTER_LINEAR, NV40_TEX_FILTER_LINEAR);
	for (unsigned k = 0; k < 256; k++) {              /* texel k holds k in a channel */
		texmem[4 * k] = (uint8_t)k;
		texmem[4 * k + 1] = (uint8_t)(255 - k);
		texmem[4 * k + 2] = (uint8_t)(k * 7);
		texmem[4 * k + 3] = (uint8_t)(k * 13 + 5);
	}
	for (unsigned i = 0; i < 64; i++) {
		memset(&rq[i], 0, sizeof(rq[i]));
		for (unsigned p = 0; p < 4; p++) {
			unsigned x = (i % 8) * 2 + (p & 1), y = (i / 8) * 2 + (p >> 1);
			rq[i].coord[p][0] = ((float)x + 0.5f) / 16.0f;
			rq[i].coord[p][1] = ((float)y + 0.5f) / 16.0f;
			rq[i].coord[p][3] = 1.0f;
		}
	}
	sim_tex_prepare(&f, &t, texmem);
	assert_true(f.ok);
	g = f;
	sim_tex_view_generic(&g);
	for (unsigned i = 0; i < 64; i++)
		assert_true(tex_quad_path(&f, &rq[i]));
	assert_int_equal(tex_diff(&t, &g, &f, rq, 64), 0);
}

/* The quad LOD a thread keeps for the fast view (the generic one has no
 * stamp and computes it each time) is found again only by the stamp of
 * the sim_tex_prepare that chose it: a view prepared again in place with
 * another LOD bias must sample as a fresh one, and given back its old
 * stamp must not. */
static void quad_lod_follows_the_view(void **state)
{
	(void)state;
	static struct sim_tex_view f, g;
	struct sim_tex_unit t;
	struct sim_tex_req rq;
	float a[4][4], b[4][4];

	rng_state = seed ^ 7;
	tex_square_unit(&t, 8, 4, NV40_TEX_FILTER_LINEAR_MIPMAP_LINEAR, NV40_TEX_FILTER_LINEAR);
	for (unsigned i = 0; i < (8 * 8 + 4 * 4 + 2 * 2 + 1) * 4; i++)
		texmem[i] = (uint8_t)rnd();
	memset(&rq, 0, sizeof(rq));
	for (unsigned p = 0; p < 4; p++) {
		rq.coord[p][0] = 0.3f + (float)(p & 1) * 1.5f / 8.0f;
		rq.coord[p][1] = 0.6f + (float)(p >> 1) * 1.5f / 8.0f;
		rq.coord[p][3] = 1.0f;
	}
	sim_tex_prepare(&f, &t, texmem);
	sim_tex_view_sample(&f, &rq, b);             /* the thread keeps its LOD */

	t.filter |= 256;                              /* LOD bias 1: a level coarser */
	sim_tex_prepare(&f, &t, texmem);
	g = f;
	sim_tex_view_generic(&g);
	sim_tex_view_sample(&g, &rq, a);
	sim_tex_view_sample(&f, &rq, b);
	assert_true(same_bits(&a[0][0], &b[0][0], 16));

	/* a view keeping the stamp of one that sampled with no bias */
	t.filter &= ~NV40_TEX_FILTER_LOD_BIAS_MASK;
	sim_tex_prepare(&f, &t, texmem);
	sim_tex_view_sample(&f, &rq, b);
	uint64_t old = f.gen;
	t.filter |= 256;
	sim_tex_prepare(&f, &t, texmem);
	f.gen = old;
	sim_tex_view_sample(&f, &rq, b);
	printf("quad LOD: kept by the view's stamp; a stale stamp %s\n",
	       same_bits(&a[0][0], &b[0][0], 16) ? "is not noticed" : "is noticed");
	assert_false(same_bits(&a[0][0], &b[0][0], 16));
}

/* ---- the 8-bit ROP ---- */

/* Two setups, one per side: the same state, the colour buffers in
 * separate memory, rt8 on (rop.c's rop_read8, rop_blend8, rop_write8) in
 * fast and off (sim_rt_read, rop_blend, sim_rt_write) in slow. */
static struct draw_setup fast, slow;
enum { ROP_BYTES = 64 * 64 * 4 };
static uint8_t rtmem[2][4][ROP_BYTES], rtmem0[4][ROP_BYTES];   /* rtmem0: before */

static const unsigned rop_formats[] = {
	NV40_RT_COLOR_A8R8G8B8, NV40_RT_COLOR_X8R8G8B8_Z8R8G8B8, NV40_RT_COLOR_X8R8G8B8_O8R8G8B8,
	NV40_RT_COLOR_A8B8G8R8, NV40_RT_COLOR_X8B8G8R8_Z8B8G8R8, NV40_RT_COLOR_X8B8G8R8_O8B8G8R8,
};
static const unsigned rop_factors[] = {
	NV40_BF_ZERO, NV40_BF_ONE, NV40_BF_SRC_COLOR, NV40_BF_ONE_MINUS_SRC_COLOR,
	NV40_BF_SRC_ALPHA, NV40_BF_ONE_MINUS_SRC_ALPHA, NV40_BF_DST_ALPHA,
	NV40_BF_ONE_MINUS_DST_ALPHA, NV40_BF_DST_COLOR, NV40_BF_ONE_MINUS_DST_COLOR,
	NV40_BF_SRC_ALPHA_SATURATE, NV40_BF_CONSTANT_COLOR, NV40_BF_ONE_MINUS_CONSTANT_COLOR,
	NV40_BF_CONSTANT_ALPHA, NV40_BF_ONE_MINUS_CONSTANT_ALPHA, 0x0309 /* none */,
};
static const unsigned rop_equations[] = {
	NV40_BEQ_FUNC_ADD, NV40_BEQ_MIN, NV40_BEQ_MAX, NV40_BEQ_FUNC_SUBTRACT,
	NV40_BEQ_FUNC_REVERSE_SUBTRACT, 0x8009 /* none */,
};

#define PICK(a) ((a)[rnd_below(sizeof(a) / sizeof((a)[0]))])

/* GL's compositing blend, which rop.c takes its own way. */
static void rop_set_over(struct draw_setup *d)
{
	d->bsrc_rgb = d->bsrc_a = NV40_BF_SRC_ALPHA;
	d->bdst_rgb = d->bdst_a = NV40_BF_ONE_MINUS_SRC_ALPHA;
	d->beq_rgb = d->beq_a = NV40_BEQ_FUNC_ADD;
}

/* A random ROP state on all four colour buffers (one format, as RT_FORMAT
 * has; linear of any pitch and length, or swizzled), the blend constant
 * as draw.c quantises it for these formats; random bytes in the buffers.
 * No alpha, depth or stencil test: the colour path alone differs. */
static void rop_rnd_state(void)
{
	unsigned fmt = PICK(rop_formats), swz = rnd_below(2);
	unsigned lw = rnd_below(7), lh = rnd_below(7);
	unsigned w = 1 + rnd_below(64), h = 1 + rnd_below(64);
	uint32_t bc = rnd();

	memset(&fast, 0, sizeof(fast));
	for (unsigned i = 0; i < 4; i++) {
		struct sim_rt *rt = &fast.rts.color[i];
		rt->format = fmt;
		rt->bpp = 4;
		rt->swizzled = swz;
		rt->log2w = lw;
		rt->log2h = lh;
		rt->pitch = swz ? 0 : 4 * w + 4 * rnd_below(2) * rnd_below(8);
		rt->len = swz ? 4ull << (lw + lh) : (uint64_t)rt->pitch * h;
		if (rt->len > ROP_BYTES)
			rt->len = ROP_BYTES;
		if (!rnd_below(4))
			rt->len -= rnd_below(8);          /* a pixel that does not fit */
		fast.cmask[i] = rnd_below(2) ? 0xf : rnd_below(16);
		fast.blend[i] = rnd_below(4) != 0;
		sim_rt8_of(fmt, &fast.rt8[i]);
		for (unsigned b = 0; b < ROP_BYTES; b++)
			rtmem[0][i][b] = (uint8_t)rnd();
		memcpy(rtmem[1][i], rtmem[0][i], ROP_BYTES);
		memcpy(rtmem0[i], rtmem[0][i], ROP_BYTES);
	}
	fast.rts.w = swz ? 1u << lw : w;
	fast.rts.h = swz ? 1u << lh : h;
	fast.rt_mask = rnd_below(2) ? 1 : rnd_below(16);
	fast.bsrc_rgb = PICK(rop_factors);
	fast.bsrc_a = PICK(rop_factors);
	fast.bdst_rgb = PICK(rop_factors);
	fast.bdst_a = PICK(rop_factors);
	fast.beq_rgb = PICK(rop_equations);
	fast.beq_a = PICK(rop_equations);
	if (!rnd_below(4))
		rop_set_over(&fast);
	fast.bconst[0] = (float)((bc >> 16) & 0xff) / 255.0f;
	fast.bconst[1] = (float)((bc >> 8) & 0xff) / 255.0f;
	fast.bconst[2] = (float)(bc & 0xff) / 255.0f;
	fast.bconst[3] = (float)(bc >> 24) / 255.0f;
	fast.logic_enable = rnd_below(4) == 0;
	fast.logic_op = rnd_below(16);
	slow = fast;
	for (unsigned i = 0; i < 4; i++) {
		fast.rts.color[i].mem = rtmem[0][i];
		slow.rts.color[i].mem = rtmem[1][i];
		slow.rt8[i].on = 0;
	}
}

/* Colours: saturated ones, and any (NaN, infinities, out of range). */
static float rop_rnd_colour(void)
{
	return rnd_below(2) ? (float)rnd_below(1024) / 1023.0f : rnd_float();
}

/* n random quads through both setups, some partly or wholly outside
 * the buffers. */
static void rop_draw(unsigned n)
{
	static struct sim_fp_quad q;
	uint32_t samples = 0;
	const float z[4] = { 0.5f, 0.5f, 0.5f, 0.5f };

	for (unsigned k = 0; k < n; k++) {
		int x = (int)rnd_below(fast.rts.w + 2) - 1, y = (int)rnd_below(fast.rts.h + 2) - 1;
		unsigned live = rnd_below(16);
		for (unsigned p = 0; p < 4; p++)
			for (unsigned i = 0; i < NV40_FP_RTS; i++)
				for (unsigned c = 0; c < 4; c++)
					q.color[p][i][c] = rop_rnd_colour();
		sim_rop_quad(&fast, &samples, x, y, live, z, 1, &q);
		sim_rop_quad(&slow, &samples, x, y, live, z, 1, &q);
	}
}

/* Bytes that differ between the two sides' buffers; the first reported.
 * *changed counts the bytes the generic side changed. */
static unsigned rop_diff(unsigned *changed)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < 4; i++)
		for (unsigned b = 0; b < ROP_BYTES; b++) {
			*changed += rtmem[1][i][b] != rtmem0[i][b];
			if (rtmem[0][i][b] == rtmem[1][i][b])
				continue;
			if (!bad++ && !quiet)
				fprintf(stderr, "  buffer %u byte %u: generic %02x, 8-bit %02x; format %02x "
					"swizzled %u cmask %x blend %u src %04x/%04x dst %04x/%04x eq "
					"%04x/%04x logic %u op %x\n", i, b, rtmem[1][i][b], rtmem[0][i][b],
					fast.rts.color[i].format, fast.rts.color[i].swizzled, fast.cmask[i],
					fast.blend[i], fast.bsrc_rgb, fast.bsrc_a, fast.bdst_rgb, fast.bdst_a,
					fast.beq_rgb, fast.beq_a, fast.logic_enable, fast.logic_op);
		}
	return bad;
}

enum { ROP_STATES = 3000, ROP_QUADS = 64 };

static void rop8_matches_the_generic_rop(void **state)
{
	(void)state;
	unsigned differ = 0, changed = 0;

	rng_state = seed ^ 5;
	for (unsigned n = 0; n < ROP_STATES; n++) {
		rop_rnd_state();
		rop_draw(ROP_QUADS);
		unsigned bad = rop_diff(&changed);
		if (bad && !differ++)
			fprintf(stderr, "state %u: %u bytes differ\n", n, bad);
	}
	printf("8-bit ROP: %u states x %u pixels (%u bytes changed), %u differ\n", ROP_STATES,
	       4 * ROP_QUADS, changed, differ);
	assert_int_equal(differ, 0);
	assert_true(changed > ROP_STATES * ROP_QUADS);
}

/* The 8-bit path reads the destination through a table: byte 0x40 read
 * one LSB high must show in every pixel a blend adding the destination
 * to a zero source writes, ONE / ONE or GL's compositing (rop_over). */
static void rop8_differential_notices_one_lsb(void **state)
{
	(void)state;
	static float unorm[256];
	static struct sim_fp_quad q;
	uint32_t samples = 0;
	const float z[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
	unsigned bad[2];

	rng_state = seed ^ 6;
	rop_rnd_state();
	for (unsigned i = 0; i < 4; i++) {
		struct sim_rt *rt[2] = { &fast.rts.color[i], &slow.rts.color[i] };
		for (unsigned s = 0; s < 2; s++) {
			rt[s]->format = NV40_RT_COLOR_A8R8G8B8;
			rt[s]->swizzled = 0;
			rt[s]->pitch = 64;
			rt[s]->len = 64 * 16;
		}
		sim_rt8_of(NV40_RT_COLOR_A8R8G8B8, &fast.rt8[i]);
		slow.rt8[i].on = 0;
		fast.cmask[i] = slow.cmask[i] = 0xf;
		fast.blend[i] = slow.blend[i] = 1;
	}
	fast.rt_mask = slow.rt_mask = 1;
	fast.logic_enable = slow.logic_enable = 0;
	memset(&q, 0, sizeof(q));
	const float *table = fast.rt8[0].unorm;
	for (unsigned b = 0; b < 2; b++) {
		struct draw_setup *side[2] = { &fast, &slow };
		for (unsigned s = 0; s < 2; s++) {
			if (b) {
				rop_set_over(side[s]);
			} else {
				side[s]->bsrc_rgb = side[s]->bsrc_a = NV40_BF_ONE;
				side[s]->bdst_rgb = side[s]->bdst_a = NV40_BF_ONE;
				side[s]->beq_rgb = side[s]->beq_a = NV40_BEQ_FUNC_ADD;
			}
			for (unsigned i = 0; i < 4; i++)
				memset(rtmem[s][i], 0x40, ROP_BYTES);
		}
		fast.rt8[0].unorm = table;
		sim_rop_quad(&fast, &samples, 0, 0, 0xf, z, 1, &q);
		sim_rop_quad(&slow, &samples, 0, 0, 0xf, z, 1, &q);
		unsigned changed = 0;
		assert_int_equal(rop_diff(&changed), 0);

		memcpy(unorm, table, sizeof(unorm));
		unorm[0x40] = unorm[0x41];
		fast.rt8[0].unorm = unorm;
		quiet = 1;
		sim_rop_quad(&fast, &samples, 2, 0, 0xf, z, 1, &q);
		sim_rop_quad(&slow, &samples, 2, 0, 0xf, z, 1, &q);
		bad[b] = rop_diff(&changed);
		quiet = 0;
	}
	printf("8-bit ROP: the destination read one LSB high, %u (ONE / ONE) and %u (compositing) "
	       "of 16 bytes differ\n", bad[0], bad[1]);
	assert_int_equal(bad[0], 16);
	assert_int_equal(bad[1], 16);
}

int main(void)
{
	const char *env = getenv("NVD_TEST_SEED");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(straight_line_programs_match_the_interpreter),
		cmocka_unit_test(straight_line_differential_notices_one_ulp),
		cmocka_unit_test(a8r8g8b8_sampler_matches_the_generic_decoder),
		cmocka_unit_test(small_texel_sampler_matches_the_generic_decoder),
		cmocka_unit_test(a8r8g8b8_differential_notices_one_ulp),
		cmocka_unit_test(a8r8g8b8_quad_path_decodes_every_byte),
		cmocka_unit_test(quad_lod_follows_the_view),
		cmocka_unit_test(rop8_matches_the_generic_rop),
		cmocka_unit_test(rop8_differential_notices_one_lsb),
	};

	seed = env ? strtoull(env, NULL, 0) : 0x66617374646966ull;
	printf("test_sim_fastpaths: seed 0x%016" PRIx64 " (set NVD_TEST_SEED to change)\n", seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
