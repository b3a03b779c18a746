/* Random states and quads of the ROP (sim/3d/rop.c's 8-bit-channel
 * case, the one sim/3d/jit-rop.c compiles), for its differential test
 * (tests/unit/test_sim_jit_rop.c) and bench/jit.  Static: each program
 * includes it once. */
#ifndef NV_TESTS_ROP_RANDOM_H
#define NV_TESTS_ROP_RANDOM_H

#include <stdint.h>
#include <string.h>

#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"
#include "sim/3d/pipe.h"

#define ROP_RW     6              /* surfaces of ROP_RW x ROP_RW pixels: quads reach past them */
#define ROP_RBYTES (ROP_RW * ROP_RW * 4)

static unsigned rop_below(uint32_t (*rnd)(void), unsigned n)
{
	return rnd() % n;
}

/* Mostly in [0, 1], often outside it or not a number. */
static float rop_value(uint32_t (*rnd)(void))
{
	static const uint32_t special[] = {
		0x7fc00000, 0xffc00001, 0x7f800000, 0xff800000, 0x00000000, 0x80000000,
		0x00000001, 0x3f800000, 0x3f800001, 0x3f7fffff, 0xbf800000, 0x3f000000,
	};
	float f;

	switch (rop_below(rnd, 5)) {
	case 0:
		memcpy(&f, &special[rop_below(rnd, sizeof(special) / sizeof(special[0]))], 4);
		return f;
	case 1: return (float)rop_below(rnd, 256) / 255.0f;
	case 2: return (float)rnd() / 4294967296.0f * 3.0f - 1.0f;
	default: return (float)rnd() / 4294967296.0f;
	}
}

#define ROP_PICK(a) (a)[rop_below(rnd, sizeof(a) / sizeof((a)[0]))]

static void rop_surface(struct sim_rt *rt, unsigned fmt, unsigned bpp, uint32_t (*rnd)(void))
{
	memset(rt, 0, sizeof(*rt));
	rt->format = fmt;
	rt->bpp = bpp;
	rt->pitch = ROP_RW * bpp;
	/* the last row a little short: pixels past the length are outside */
	rt->len = (uint64_t)ROP_RW * rt->pitch - (rop_below(rnd, 2) ? bpp : 0);
}

/* A random state the compiler takes (no stencil, depth bounds, logic op),
 * its surfaces unbound (mem NULL). */
static void rop_random_state(struct draw_setup *d, uint32_t (*rnd)(void))
{
	static const unsigned cmp_funcs[] = {
		NV40_CMP_NEVER, NV40_CMP_LESS, NV40_CMP_EQUAL, NV40_CMP_LEQUAL, NV40_CMP_GREATER,
		NV40_CMP_NOTEQUAL, NV40_CMP_GEQUAL, NV40_CMP_ALWAYS, 0x1234,
	};
	static const unsigned factors[] = {
		NV40_BF_ZERO, NV40_BF_ONE, NV40_BF_SRC_COLOR, NV40_BF_ONE_MINUS_SRC_COLOR,
		NV40_BF_SRC_ALPHA, NV40_BF_ONE_MINUS_SRC_ALPHA, NV40_BF_DST_ALPHA,
		NV40_BF_ONE_MINUS_DST_ALPHA, NV40_BF_DST_COLOR, NV40_BF_ONE_MINUS_DST_COLOR,
		NV40_BF_SRC_ALPHA_SATURATE, NV40_BF_CONSTANT_COLOR, NV40_BF_ONE_MINUS_CONSTANT_COLOR,
		NV40_BF_CONSTANT_ALPHA, NV40_BF_ONE_MINUS_CONSTANT_ALPHA, 0x4321,
	};
	static const unsigned equations[] = {
		NV40_BEQ_FUNC_ADD, NV40_BEQ_MIN, NV40_BEQ_MAX, NV40_BEQ_FUNC_SUBTRACT,
		NV40_BEQ_FUNC_REVERSE_SUBTRACT, 0x8009,
	};
	static const unsigned formats[] = {
		NV40_RT_COLOR_A8R8G8B8, NV40_RT_COLOR_A8B8G8R8, NV40_RT_COLOR_X8R8G8B8_Z8R8G8B8,
		NV40_RT_COLOR_X8B8G8R8_Z8B8G8R8, NV40_RT_COLOR_X8R8G8B8_O8R8G8B8,
		NV40_RT_COLOR_X8B8G8R8_O8B8G8R8,
	};

	memset(d, 0, sizeof(*d));
	d->tx = rop_below(rnd, 4) ? 0 : (int)rop_below(rnd, 5) - 2;
	d->ty = rop_below(rnd, 4) ? 0 : (int)rop_below(rnd, 5) - 2;
	d->alpha_enable = rop_below(rnd, 2);
	d->alpha_func = ROP_PICK(cmp_funcs);
	d->alpha_ref = rop_value(rnd);
	unsigned z = rop_below(rnd, 3);
	d->zbits = z == 0 ? 0 : z == 1 ? 16 : 24;
	if (d->zbits)
		rop_surface(&d->rts.zeta, d->zbits == 24 ? NV40_RT_ZETA_Z24S8 : NV40_RT_ZETA_Z16,
			    d->zbits == 24 ? 4 : 2, rnd);
	d->depth_test = rop_below(rnd, 4) != 0;
	d->depth_func = ROP_PICK(cmp_funcs);
	d->depth_write = rop_below(rnd, 2);
	d->query = rop_below(rnd, 2);
	d->rt_mask = rop_below(rnd, 16);
	for (unsigned i = 0; i < 4; i++) {
		rop_surface(&d->rts.color[i], ROP_PICK(formats), 4, rnd);
		sim_rt8_of(d->rts.color[i].format, &d->rt8[i]);
		d->cmask[i] = rop_below(rnd, 3) ? 0xf : rop_below(rnd, 16);
		d->blend[i] = rop_below(rnd, 3) != 0;
	}
	d->bsrc_rgb = ROP_PICK(factors);
	d->bsrc_a = rop_below(rnd, 2) ? d->bsrc_rgb : ROP_PICK(factors);
	d->bdst_rgb = ROP_PICK(factors);
	d->bdst_a = rop_below(rnd, 2) ? d->bdst_rgb : ROP_PICK(factors);
	d->beq_rgb = ROP_PICK(equations);
	d->beq_a = rop_below(rnd, 2) ? d->beq_rgb : ROP_PICK(equations);
	for (unsigned c = 0; c < 4; c++)
		d->bconst[c] = (float)rop_below(rnd, 256) / 255.0f;
}

/* Point d's surfaces at mem: colour buffers 0-3, then zeta. */
static void rop_bind(struct draw_setup *d, uint8_t (*mem)[ROP_RBYTES])
{
	for (unsigned i = 0; i < 4; i++)
		d->rts.color[i].mem = mem[i];
	if (d->zbits)
		d->rts.zeta.mem = mem[4];
}

/* A quad's colours and depths, and the interpolated depths z. */
static void rop_random_quad(struct sim_fp_quad *q, float z[4], uint32_t (*rnd)(void))
{
	memset(q, 0, sizeof(*q));
	for (unsigned p = 0; p < 4; p++) {
		for (unsigned i = 0; i < NV40_FP_RTS; i++)
			for (unsigned c = 0; c < 4; c++)
				q->color[p][i][c] = rop_value(rnd);
		q->depth[p] = rop_value(rnd);
		z[p] = rop_value(rnd);
	}
	q->depth_written = rop_below(rnd, 4) == 0;
}

#endif
