/* The compiled fragment programs (sim/3d/jit.c) against the interpreter
 * (sim/3d/fp.c), bit for bit: random straight-line programs of every
 * arithmetic and texture opcode with random modifiers, precisions, write
 * masks and condition codes, on quads full of NaNs (several payloads),
 * infinities, zeros of both signs and denormals.  The harness is shown to
 * notice a one-ulp error (sim_jit_perturb), constants are shown to stay
 * out of the code, and the background compiler to deliver the same code.
 * The compiled vertex programs (sim/3d/jit-vp.c) the same way against
 * vp.c's general loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "hw/disasm.h"
#include "hw/fp-isa.h"
#include "hw/ramin.h"
#include "sim/3d/jit.h"
#include "sim/3d/pipe.h"
#include "tests/lib/fp-random.h"
#include "tests/lib/vp-random.h"

/* ---- the harness ---- */

/* A sampler both sides call: its result depends on every field of the
 * request, so the compiled code's request must be the interpreter's. */
static void sample(void *ctx, const struct sim_tex_req *rq, float out[4][4])
{
	(void)ctx;
	for (unsigned p = 0; p < 4; p++)
		for (unsigned c = 0; c < 4; c++) {
			float v = rq->coord[p][c] * (float)(rq->unit + 1) + (float)rq->op;
			if (rq->op == SIM_TXD)
				v = v + rq->ddx[p][c] - rq->ddy[p][3 - c];
			out[p][c] = c == 3 ? -v : v;
		}
}

static int quiet;
static unsigned nan_payloads;     /* NaNs that differed only as NaNs */
static const struct sim_jit_interp from_quad;   /* every input read from the quad */

/* The same bits, but that a NaN may be another NaN: when two NaNs meet in
 * an add or multiply, x86 returns the first operand's, and gcc (as LLVM)
 * orders the operands of these commutative operations as it likes, so the
 * interpreter's own choice depends on its compiler. */
static int same(const float *x, const float *y, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint32_t u, v;
		memcpy(&u, &x[i], 4);
		memcpy(&v, &y[i], 4);
		if (u == v)
			continue;
		if (x[i] != x[i] && y[i] != y[i]) {
			nan_payloads++;
			continue;
		}
		return 0;
	}
	return 1;
}

/* The program and the first value that differs. */
static void report(const struct sim_fp_cache *c, const struct prog *p, const struct sim_fp_quad *a,
		   const struct sim_fp_quad *b)
{
	char text[256];

	for (unsigned i = 0; i < c->nseq; i++) {
		size_t pc = (size_t)c->seq[i] * 16;
		fprintf(stderr, "  %s\n", hw_fp_disasm(p->b + pc, p->len - pc, text, sizeof(text)));
	}
	for (unsigned i = 0; i < 64; i++) {
		const float *x = &a->color[0][0][0] + i, *y = &b->color[0][0][0] + i;
		uint32_t u, v;
		memcpy(&u, x, 4);
		memcpy(&v, y, 4);
		if (u != v)
			fprintf(stderr, "  pixel %u colour %u.%c: interpreted %08x, compiled %08x (differ)\n",
				i / 16, i / 4 % 4, "xyzw"[i % 4], u, v);
	}
	fprintf(stderr, "  depth_written %u/%u kill %x/%x\n", a->depth_written, b->depth_written, a->kill,
		b->kill);
}

/* Quads of the program that end differently compiled and interpreted
 * (colours, depth, kill: their bits); -1 when it was not compiled. */
static int diff_program(struct sim_jit *j, const struct prog *p, uint32_t control, unsigned quads)
{
	static struct sim_fp_cache c;
	struct sim_fp_quad a, b;
	int bad = 0;

	memset(&c, 0, sizeof(c));
	sim_fp_cache_reset(&c);
	assert_int_equal(sim_fp_cache_check(&c, p->b, p->len), 1);
	sim_jit_fp_fn *fn = sim_jit_fp(j, &c, control);
	if (!fn)
		return -1;
	for (unsigned k = 0; k < quads; k++) {
		rnd_quad(&a);
		b = a;
		assert_int_equal(sim_fp_run_cached(&c, p->b, p->len, control, &a, sample, NULL), 0);
		b.kill = 0x5;              /* the code must clear them */
		b.depth_written = 7;
		fn(&b, c.dec, sample, NULL, &from_quad);
		if (!same(&a.color[0][0][0], &b.color[0][0][0], 64) || a.kill != b.kill ||
		    a.depth_written != b.depth_written ||
		    (a.depth_written && !same(a.depth, b.depth, 4))) {
			if (!bad++ && !quiet)
				report(&c, p, &a, &b);
		}
	}
	return bad;
}

static struct sim_jit *jit_new(unsigned mode)
{
	char err[256] = "";
	struct sim_jit *j = sim_jit_new(mode, err, sizeof(err));
	if (!j && !strcmp(err, "built without LLVM"))
		skip();
	if (!j)
		fail_msg("sim_jit_new: %s", err);
	return j;
}

/* ---- tests ---- */

static void random_programs_compile_to_the_interpreters_bits(void **state)
{
	(void)state;
	struct sim_jit *j = jit_new(SIM_JIT_SYNC);
	struct sim_jit_stats st;
	static struct prog p;
	unsigned compiled = 0, refused = 0;

	rng_state = 20;
	for (unsigned i = 0; i < 800; i++) {
		rnd_prog(&p, 1 + rnd_below(10));
		uint32_t control = rnd_below(2) ? NV40_FP_CONTROL_DEPTH : 0;
		int bad = diff_program(j, &p, control, 16);
		if (bad < 0) {
			refused++;
			continue;
		}
		compiled++;
		if (bad)
			fail_msg("program %u: %d quads differ", i, bad);
	}
	printf("%u programs compiled, %u left to the interpreter; %u NaNs differed in payload\n",
	       compiled, refused, nan_payloads);
	sim_jit_stats(j, &st);
	/* it leaves PK2H and UP2H to the interpreter: 2 opcodes of 50, in a
	 * sixth of programs of up to 10 instructions */
	assert_true(compiled >= 600);
	assert_int_equal(st.fp.compiled + st.fp.refused, st.fp.programs);
	assert_int_equal(st.fp.failed, 0);
	assert_true(refused > 0 && st.fp.refused > 0);
	sim_jit_free(j);
}

/* A primitive's planes as raster.c sets them up, at random: each input
 * read from the quad, flat or interpolated (NaNs, infinities and
 * denormals among the values), w constant or not, WPOS or not; the quad
 * anywhere on an 8192-pixel target. */
static void rnd_interp(struct sim_jit_interp *ip)
{
	memset(ip, 0, sizeof(*ip));
	ip->qx = (int32_t)rnd_below(4096) * 2;
	ip->qy = (int32_t)rnd_below(4096) * 2;
	ip->fx0 = (float)rnd_below(8192) + (float)rnd_below(256) / 256.0f;
	ip->fy0 = (float)rnd_below(8192) + (float)rnd_below(256) / 256.0f;
	ip->affine = rnd_below(2);
	for (unsigned k = 0; k < 3; k++)
		ip->pq[k] = rnd_below(8) ? ((float)rnd() / 4294967296.0f + 0.01f) / (k ? 4096.0f : 1.0f) :
					   rnd_float();
	if (ip->affine)
		ip->pq[1] = ip->pq[2] = 0.0f;
	ip->winv = 1.0f / ip->pq[0];
	for (unsigned i = 0; i < NV40_FP_INPUTS; i++) {
		struct sim_jit_vary *v = &ip->in[i];
		v->mode = i == NV40_FP_INPUT_WPOS || i == NV40_FP_INPUT_FACING ? SIM_JIT_IN_QUAD : rnd_below(3);
		for (unsigned c = 0; c < 4; c++) {
			v->a0[c] = rnd_below(4) ? (float)rnd() / 4294967296.0f * 2.0f - 1.0f : rnd_float();
			v->dx[c] = rnd_below(4) ? (float)rnd() / 4294967296.0f / 64.0f : rnd_float();
			v->dy[c] = rnd_below(4) ? (float)rnd() / 4294967296.0f / 64.0f : rnd_float();
		}
		if (v->mode != SIM_JIT_IN_QUAD)
			ip->slot[ip->n++] = (uint8_t)i;
	}
	ip->wpos = rnd_below(2);
	ip->wy_inv = rnd_below(2);
	ip->wy_h = (float)rnd_below(8193);
	ip->wc = rnd_below(2) ? 0.5f : 0.0f;
}

/* Random programs on quads whose inputs the code interpolates from random
 * planes, against the interpreter on the quads sim_raster_inputs fills
 * from them: the rasteriser's values, bit for bit.  The varyings' slots of
 * the compiled side's quad hold a NaN it must not read. */
static void inputs_interpolate_as_the_rasteriser_does(void **state)
{
	(void)state;
	struct sim_jit *j = jit_new(SIM_JIT_SYNC);
	static struct sim_fp_cache c;
	static struct prog p;
	unsigned quads = 0, bad = 0;

	rng_state = 31;
	for (unsigned i = 0; i < 400; i++) {
		rnd_prog(&p, 1 + rnd_below(8));
		memset(&c, 0, sizeof(c));
		sim_fp_cache_reset(&c);
		assert_int_equal(sim_fp_cache_check(&c, p.b, p.len), 1);
		sim_jit_fp_fn *fn = sim_jit_fp(j, &c, 0);
		if (!fn)
			continue;
		for (unsigned k = 0; k < 16; k++, quads++) {
			struct sim_jit_interp ip;
			struct sim_fp_quad a, b;
			float z[4];
			rnd_interp(&ip);
			rnd_quad(&a);
			for (unsigned px = 0; px < 4; px++)
				z[px] = rnd_float();
			b = a;
			sim_raster_inputs(&ip, z, 1, &a);
			sim_raster_inputs(&ip, z, 0, &b);
			for (unsigned n = 0; n < ip.n; n++)
				for (unsigned px = 0; px < 4; px++)
					memset(b.in[px][ip.slot[n]], 0xff, 16);
			assert_int_equal(sim_fp_run_cached(&c, p.b, p.len, 0, &a, sample, NULL), 0);
			fn(&b, c.dec, sample, NULL, &ip);
			if (!same(&a.color[0][0][0], &b.color[0][0][0], 64) && !bad++)
				report(&c, &p, &a, &b);
		}
	}
	printf("%u quads on interpolated inputs, %u differ\n", quads, bad);
	assert_int_equal(bad, 0);
	assert_true(quads > 4000);
	sim_jit_free(j);
}

/* MOV R0, f[COL0]; END */
static void mov_col0(struct prog *p)
{
	fp_prog1(p, NV40_FP_OP_MOV, NV40_FP_INPUT_COL0, FP_SRC_PLAIN(NV40_FP_SRC_INPUT), 0, NULL);
}

static void harness_notices_one_ulp(void **state)
{
	(void)state;
	struct sim_jit *j = jit_new(SIM_JIT_SYNC);
	static struct prog p;

	rng_state = 1;
	mov_col0(&p);
	assert_int_equal(diff_program(j, &p, 0, 8), 0);
	sim_jit_free(j);

	j = jit_new(SIM_JIT_SYNC);
	sim_jit_perturb(j, 1);
	quiet = 1;
	assert_int_equal(diff_program(j, &p, 0, 8), 8);
	quiet = 0;
	sim_jit_free(j);
}

/* MOV H0, f[COL0] rounds through fp16 inline for normal halves, zeros and
 * infinities, through the helper for the rest: both sides of every edge. */
static void fp16_rounding_matches_at_every_edge(void **state)
{
	(void)state;
	static const uint32_t edge[] = { 0x00000000, 0x7f800000, 0x38800000, 0x477ff000,
					 0x33000000, 0x7f800001, 0x00000001, 0x387fe000 };
	struct sim_jit *j = jit_new(SIM_JIT_SYNC);
	static struct sim_fp_cache c;
	static struct prog p;
	struct sim_fp_quad a, b;
	uint32_t w0;

	mov_col0(&p);
	w0 = nv_rd32le(p.b);
	nv_wr32le(p.b, w0 | 1u << NV40_FP_DST_HALF__SHIFT);
	memset(&c, 0, sizeof(c));
	sim_fp_cache_reset(&c);
	assert_int_equal(sim_fp_cache_check(&c, p.b, p.len), 1);
	sim_jit_fp_fn *fn = sim_jit_fp(j, &c, 0);
	assert_non_null(fn);
	for (unsigned e = 0; e < sizeof(edge) / sizeof(edge[0]); e++)
		for (int d = -64; d < 64; d++) {
			memset(&a, 0, sizeof(a));
			for (unsigned q = 0; q < 16; q++)
				a.in[q / 4][NV40_FP_INPUT_COL0][q % 4] =
					bits_f((edge[e] + (uint32_t)d * 0x101u) ^ (q & 1 ? 0x80000000u : 0));
			b = a;
			assert_int_equal(sim_fp_run_cached(&c, p.b, p.len, 0, &a, sample, NULL), 0);
			fn(&b, c.dec, sample, NULL, &from_quad);
			assert_memory_equal(a.color, b.color, sizeof(a.color));
		}
	sim_jit_free(j);
}

/* MUL R0, f[COL0], c; END with the constant c */
static void mul_const(struct prog *p, float k)
{
	fp_prog1(p, NV40_FP_OP_MUL, NV40_FP_INPUT_COL0, FP_SRC_PLAIN(NV40_FP_SRC_INPUT),
		 FP_SRC_PLAIN(NV40_FP_SRC_CONST), &k);
}

static void constants_are_read_at_run_time(void **state)
{
	(void)state;
	struct sim_jit *j = jit_new(SIM_JIT_SYNC);
	struct sim_jit_stats st;
	static struct prog p;

	rng_state = 2;
	for (unsigned i = 0; i < 4; i++) {
		mul_const(&p, (float)i * 0.75f - 1.0f);
		assert_int_equal(diff_program(j, &p, 0, 8), 0);
	}
	sim_jit_stats(j, &st);
	assert_int_equal(st.fp.programs, 1);
	assert_int_equal(st.fp.compiled, 1);
	assert_int_equal(st.fp.lookups, 4);
	assert_int_equal(st.fp.hits, 4);
	sim_jit_free(j);
}

static void background_compile_arrives_and_matches(void **state)
{
	(void)state;
	struct sim_jit *j = jit_new(SIM_JIT_ON);
	static struct sim_fp_cache c;
	static struct prog p;
	sim_jit_fp_fn *fn = NULL;

	rng_state = 3;
	mul_const(&p, 3.0f);
	memset(&c, 0, sizeof(c));
	sim_fp_cache_reset(&c);
	assert_int_equal(sim_fp_cache_check(&c, p.b, p.len), 1);
	for (unsigned t = 0; t < 2000 && !(fn = sim_jit_fp(j, &c, 0)); t++)
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	assert_non_null(fn);
	assert_int_equal(diff_program(j, &p, 0, 8), 0);
	sim_jit_free(j);
}

/* draw.c's per-thread cache outlives a card: a new compiler must not
 * take the entry of the one before for its own. */
static void a_cache_outliving_its_compiler_asks_the_next(void **state)
{
	(void)state;
	static struct sim_fp_cache c;
	static struct prog p;
	struct sim_jit_stats st;

	mul_const(&p, 2.0f);
	memset(&c, 0, sizeof(c));
	sim_fp_cache_reset(&c);
	assert_int_equal(sim_fp_cache_check(&c, p.b, p.len), 1);
	struct sim_jit *j = jit_new(SIM_JIT_SYNC);
	assert_non_null(sim_jit_fp(j, &c, 0));
	sim_jit_free(j);
	j = jit_new(SIM_JIT_SYNC);
	assert_non_null(sim_jit_fp(j, &c, 0));
	sim_jit_stats(j, &st);
	assert_int_equal(st.fp.programs, 1);
	assert_int_equal(st.fp.compiled, 1);
	sim_jit_free(j);
}

/* The check SIM_JIT_VERIFY runs per quad: same bits pass, one ulp is a
 * difference, a NaN for another NaN is counted apart. */
static void verify_counts_what_differs(void **state)
{
	(void)state;
	struct sim_jit *j = jit_new(SIM_JIT_VERIFY);
	static struct sim_fp_quad a, b;
	struct sim_jit_stats st;

	assert_true(sim_jit_verifying(j));
	rng_state = 4;
	rnd_quad(&a);
	a.color[1][2][3] = 0.5f;
	b = a;
	sim_jit_verify(j, &a, &b);
	b.color[1][2][3] = bits_f(0x3f000001);
	sim_jit_verify(j, &a, &b);
	a.color[1][2][3] = bits_f(0x7fc00000);
	b.color[1][2][3] = bits_f(0xffc00000);
	sim_jit_verify(j, &a, &b);
	b = a;
	b.kill = 1;
	sim_jit_verify(j, &a, &b);
	sim_jit_stats(j, &st);
	assert_int_equal(st.fp.verified, 4);
	assert_int_equal(st.fp.mismatches, 2);
	assert_int_equal(st.fp.nan_payloads, 1);
	sim_jit_free(j);
}

/* ---- vertex programs ---- */

static uint32_t vp_code[NV40_VP_INSNS][4], vp_cst[NV40_VP_CONSTS][4];
static float vp_in[NV40_VP_INPUTS][4];

static void vp_report(unsigned n, const float a[NV40_VP_OUTPUTS][4], const float b[NV40_VP_OUTPUTS][4])
{
	char text[256];

	for (unsigned i = 0; i < n; i++)
		fprintf(stderr, "  %s\n", hw_vp_disasm(vp_code[i], text, sizeof(text)));
	for (unsigned i = 0; i < NV40_VP_OUTPUTS * 4; i++) {
		uint32_t u, v;
		memcpy(&u, &a[i / 4][i % 4], 4);
		memcpy(&v, &b[i / 4][i % 4], 4);
		if (u != v)
			fprintf(stderr, "  output %u.%c: interpreted %08x, compiled %08x\n", i / 4,
				"xyzw"[i % 4], u, v);
	}
}

/* Vertices of vp_code's n-instruction program, with random inputs and
 * constants, that end differently compiled and interpreted (the general
 * loop, every output's bits); -1 when it was not compiled. */
static int diff_vertex_program(struct sim_jit *j, unsigned n, unsigned vertices)
{
	static float a[NV40_VP_OUTPUTS][4], b[NV40_VP_OUTPUTS][4];
	sim_jit_vp_fn *fn = sim_jit_vp(j, sim_vp_straight_of((const uint32_t (*)[4])vp_code, 0));
	int bad = 0;

	if (!fn)
		return -1;
	for (unsigned v = 0; v < vertices; v++) {
		for (unsigned k = 0; k < NV40_VP_INPUTS; k++)
			for (unsigned c = 0; c < 4; c++)
				vp_in[k][c] = rnd_float();
		for (unsigned k = 0; k < NV40_VP_CONSTS; k++)
			for (unsigned c = 0; c < 4; c++)
				memcpy(&vp_cst[k][c], &(float){ rnd_float() }, 4);
		for (unsigned o = 0; o < NV40_VP_OUTPUTS; o++)
			for (unsigned c = 0; c < 4; c++)
				a[o][c] = b[o][c] = rnd_float();
		const uint32_t (*cst)[4] = (const uint32_t (*)[4])vp_cst;
		assert_int_equal(sim_vp_interpret((const uint32_t (*)[4])vp_code, 0, cst,
						  (const float (*)[4])vp_in, a), 0);
		fn(cst, (const float (*)[4])vp_in, b);
		if (!same(&a[0][0], &b[0][0], NV40_VP_OUTPUTS * 4) && !bad++ && !quiet)
			vp_report(n, (const float (*)[4])a, (const float (*)[4])b);
	}
	return bad;
}

/* Every straight vertex program compiles, and gives the general loop's
 * bits: every vector and scalar opcode, modifiers, masks, both halves
 * writing, on values full of NaNs, infinities, signed zeros, denormals. */
static void random_vertex_programs_compile_to_the_interpreters_bits(void **state)
{
	(void)state;
	struct sim_jit *j = jit_new(SIM_JIT_SYNC);
	struct sim_jit_stats st;
	unsigned nan0 = nan_payloads;

	rng_state = 7;
	for (unsigned i = 0; i < 1000; i++) {
		unsigned n = 1 + rnd_below(24);
		vp_random_straight(vp_code, n, rnd);
		int bad = diff_vertex_program(j, n, 8);
		if (bad)
			fail_msg("vertex program %u: %d vertices differ", i, bad);
	}
	sim_jit_stats(j, &st);
	printf("%u vertex programs compiled; %u NaNs differed in payload\n", st.vp.compiled,
	       nan_payloads - nan0);
	assert_true(st.vp.programs > 950);
	assert_int_equal(st.vp.compiled, st.vp.programs);
	assert_int_equal(st.vp.refused + st.vp.failed, 0);
	sim_jit_free(j);
}

/* MOV o[HPOS], c[0]: a one-ulp error in the code is noticed, and the
 * constant is read when the code runs (a new value needs no new code). */
static void vertex_harness_notices_one_ulp_and_reads_constants(void **state)
{
	(void)state;
	struct sim_jit *j = jit_new(SIM_JIT_SYNC);
	float o[NV40_VP_OUTPUTS][4];

	rng_state = 3;
	nv40_vp_vec_to_output(vp_code[0], NV40_VP_VEC_MOV, NV40_VP_OUT_POS, 0xf,
			      nv40_vp_src_make(NV40_VP_SRC_CONST, 0, NV40_VP_SWZ_IDENTITY, 0), 0, 0, 0, 1);
	assert_int_equal(diff_vertex_program(j, 1, 8), 0);
	sim_jit_vp_fn *fn = sim_jit_vp(j, sim_vp_straight_of((const uint32_t (*)[4])vp_code, 0));
	for (unsigned c = 0; c < 4; c++)
		memcpy(&vp_cst[0][c], &(float){ 0.5f + (float)c }, 4);
	fn((const uint32_t (*)[4])vp_cst, (const float (*)[4])vp_in, o);
	assert_true(o[0][0] == 0.5f && o[0][3] == 3.5f);
	sim_jit_free(j);

	j = jit_new(SIM_JIT_SYNC);
	sim_jit_perturb(j, 1);
	quiet = 1;
	assert_int_equal(diff_vertex_program(j, 1, 8), 8);
	quiet = 0;
	sim_jit_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_programs_compile_to_the_interpreters_bits),
		cmocka_unit_test(harness_notices_one_ulp),
		cmocka_unit_test(inputs_interpolate_as_the_rasteriser_does),
		cmocka_unit_test(fp16_rounding_matches_at_every_edge),
		cmocka_unit_test(constants_are_read_at_run_time),
		cmocka_unit_test(background_compile_arrives_and_matches),
		cmocka_unit_test(a_cache_outliving_its_compiler_asks_the_next),
		cmocka_unit_test(verify_counts_what_differs),
		cmocka_unit_test(random_vertex_programs_compile_to_the_interpreters_bits),
		cmocka_unit_test(vertex_harness_notices_one_ulp_and_reads_constants),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
