/* The simulator's fast paths against the general code they stand for, bit
 * for bit, on random inputs full of the values IEEE treats specially:
 * straight-line fragment programs, which fp.c's cache runs without flow
 * control, against sim_fp_run, the interpreter that decodes and steers
 * every instruction.  Each differential is also shown to notice a one-ulp
 * change made to its fast side.  The seed is printed; NVD_TEST_SEED sets
 * another. */
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
#include "hw/fp-isa.h"
#include "sim/3d/fp.h"
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

int main(void)
{
	const char *env = getenv("NVD_TEST_SEED");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(straight_line_programs_match_the_interpreter),
		cmocka_unit_test(straight_line_differential_notices_one_ulp),
	};

	seed = env ? strtoull(env, NULL, 0) : 0x66617374646966ull;
	printf("test_sim_fastpaths: seed 0x%016" PRIx64 " (set NVD_TEST_SEED to change)\n", seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
