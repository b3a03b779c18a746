/* The compiled ROP (sim/3d/jit-rop.c) against rop.c, bit for bit: random
 * states of the alpha test, depth test and write (Z16, Z24S8), occlusion
 * counting, every blend factor and equation (and values that are none),
 * colour masks and the six 8-bit-channel formats in up to four buffers,
 * over random bytes, with colours and depths full of NaNs, infinities and
 * values outside [0, 1], quads reaching past the surfaces' ends and to
 * negative positions; the early depth test the same way, and the split
 * pair (the test writing depth, then the rest) against rop.c's early test
 * and quad.  The harness is
 * shown to notice one red byte off by one (sim_jit_perturb), and the
 * states the compiler leaves to rop.c to be refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/3d/jit.h"
#include "tests/lib/rop-random.h"

/* The surfaces: [side][buffer 0-3, zeta 4]; side 0 the compiled code's,
 * 1 rop.c's, 2 the compiled split pair's. */
static uint8_t mem[3][5][ROP_RBYTES];
static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33);
}

static int quiet;
static unsigned nsplit;             /* quads the split pair took */

/* n random quads of state d through the compiled code and rop.c (and
 * their early depth tests); how many left different bytes or counts. */
static unsigned diff_quads(struct sim_jit *j, struct draw_setup *d, unsigned n)
{
	const struct sim_jit_rop *r = sim_jit_rop(j, sim_jit_rop_find(j, d));
	unsigned bad = 0;

	assert_non_null(r);
	assert_non_null(r->quad);
	assert_int_equal(!!r->early_z, d->zbits && d->depth_test);
	int split = d->zbits && d->depth_test && d->depth_write && !d->alpha_enable;
	assert_int_equal(!!r->early_zw, split);
	assert_int_equal(!!r->quad_c, split);
	for (unsigned t = 0; t < n; t++) {
		static struct sim_fp_quad q;
		float z[4];
		int x = (int)(rnd() % (ROP_RW + 2)) - 1, y = (int)(rnd() % (ROP_RW + 2)) - 1;
		unsigned live = rnd() % 16;
		uint32_t samples[2];

		rop_random_quad(&q, z, rnd);
		for (unsigned b = 0; b < 5; b++)
			for (unsigned i = 0; i < ROP_RBYTES; i++)
				mem[0][b][i] = mem[1][b][i] = mem[2][b][i] = (uint8_t)rnd();
		samples[0] = samples[1] = rnd();
		if (split) {
			/* raster.c's order for a program that cannot kill or
			 * write depth: the pair against early_z then quad */
			uint32_t s2[2] = { samples[0], samples[0] };
			nsplit++;
			struct sim_fp_quad qs = q;
			qs.depth_written = 0;
			rop_bind(d, mem[2]);
			unsigned m2 = r->early_zw(d, x, y, live, z);
			if (m2)
				r->quad_c(d, &s2[0], x, y, m2, z, &qs);
			uint8_t ref[5][ROP_RBYTES];
			memcpy(ref, mem[1], sizeof(ref));
			rop_bind(d, mem[1]);
			unsigned m1 = sim_rop_early_z(d, x, y, live, z);
			if (m1)
				sim_rop_quad(d, &s2[1], x, y, m1, z, 1, &qs);
			if (memcmp(mem[2], mem[1], sizeof(mem[1])) || s2[0] != s2[1] || m1 != m2) {
				if (!quiet && bad < 4)
					print_message("split quad at %d,%d live %x: samples %u/%u, mask %x/%x\n",
						      x, y, live, s2[0], s2[1], m2, m1);
				bad++;
			}
			memcpy(mem[1], ref, sizeof(ref));
		}
		rop_bind(d, mem[0]);
		r->quad(d, &samples[0], x, y, live, z, &q);
		unsigned ez0 = r->early_z ? r->early_z(d, x, y, live, z) : 0;
		rop_bind(d, mem[1]);
		sim_rop_quad(d, &samples[1], x, y, live, z, 1, &q);
		unsigned ez1 = r->early_z ? sim_rop_early_z(d, x, y, live, z) : 0;
		if (memcmp(mem[0], mem[1], sizeof(mem[0])) || samples[0] != samples[1] || ez0 != ez1) {
			if (!quiet && bad < 4)
				print_message("quad at %d,%d live %x: samples %u/%u, early z %x/%x, %s\n", x, y,
					      live, samples[0], samples[1], ez0, ez1,
					      memcmp(mem[0], mem[1], sizeof(mem[0])) ? "bytes differ" : "bytes same");
			bad++;
		}
	}
	return bad;
}

static struct sim_jit *jit_new(void)
{
	char err[256] = "";
	struct sim_jit *j = sim_jit_new(SIM_JIT_SYNC, err, sizeof(err));
	if (!j)
		fail_msg("sim_jit_new: %s", err);
	return j;
}

static void random_states_compile_to_the_rops_bytes(void **state)
{
	(void)state;
	struct sim_jit *j = jit_new();
	static struct draw_setup d;
	struct sim_jit_stats st;

	rng_state = 7;
	for (unsigned s = 0; s < 300; s++) {
		rop_random_state(&d, rnd);
		assert_int_equal(diff_quads(j, &d, 300), 0);
	}
	sim_jit_stats(j, &st);
	print_message("%u states, %u compiled; %u quads split\n", st.rop.programs, st.rop.compiled, nsplit);
	assert_true(nsplit >= 300 * 10);          /* ten states at least */
	assert_true(st.rop.compiled >= 250);      /* a few states come twice */
	assert_int_equal(st.rop.failed, 0);
	sim_jit_free(j);
}

static void harness_notices_one_red_byte(void **state)
{
	(void)state;
	static struct draw_setup d;
	struct sim_jit *j = jit_new();

	rng_state = 3;
	rop_random_state(&d, rnd);
	d.alpha_enable = 0;
	d.zbits = 0;
	d.rt_mask = 1;
	d.cmask[0] = 0xf;
	assert_int_equal(diff_quads(j, &d, 50), 0);
	sim_jit_free(j);

	j = jit_new();
	sim_jit_perturb(j, 1);
	quiet = 1;
	/* a quad with a live pixel inside the buffer stores a red byte */
	assert_true(diff_quads(j, &d, 50) > 20);
	quiet = 0;
	sim_jit_free(j);
}

static void states_rop_c_keeps_are_refused(void **state)
{
	(void)state;
	static struct draw_setup d;
	struct sim_jit *j = jit_new();

	rng_state = 5;
	rop_random_state(&d, rnd);
	d.rt_mask = 1;
	assert_non_null(sim_jit_rop_find(j, &d));
	d.logic_enable = 1;
	assert_null(sim_jit_rop_find(j, &d));
	d.logic_enable = 0;
	d.zbits = 24;
	d.rts.zeta.bpp = 2;                 /* a Z24S8 pixel is 4 bytes: the code assumes it */
	assert_null(sim_jit_rop_find(j, &d));
	d.rts.zeta.bpp = 4;
	assert_non_null(sim_jit_rop_find(j, &d));
	d.st[0].enable = 1;
	assert_null(sim_jit_rop_find(j, &d));
	d.st[0].enable = 0;
	d.st[1].enable = 1;
	assert_non_null(sim_jit_rop_find(j, &d));       /* the back face's, one-sided */
	d.two_sided_stencil = 1;
	assert_null(sim_jit_rop_find(j, &d));
	d.two_sided_stencil = 0;
	d.zbounds = 1;
	assert_null(sim_jit_rop_find(j, &d));
	d.zbounds = 0;
	d.rts.color[0].swizzled = 1;
	assert_null(sim_jit_rop_find(j, &d));
	d.rts.color[0].swizzled = 0;
	d.rt8[0].on = 0;
	assert_null(sim_jit_rop_find(j, &d));
	sim_jit_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_states_compile_to_the_rops_bytes),
		cmocka_unit_test(harness_notices_one_red_byte),
		cmocka_unit_test(states_rop_c_keeps_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
