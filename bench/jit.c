/* bench/jit: the program compiler (sim/3d/jit.c) on its own.
 *  - compile latency: N random straight-line programs of 1 to 10
 *    instructions (tests/lib/fp-random.h) compiled at first use: median,
 *    p99 and max per program;
 *  - the cache at work: a stream of primitives (64 quads each) cycling
 *    through those programs with the background compiler, as a draw
 *    stream would: the share of primitives that found their code ready;
 *  - speed: quads per second through the compiled code against the
 *    interpreter (sim_fp_run_cached), same programs, same quads;
 *  - vertex programs: N random straight programs of 1 to 24 instructions
 *    (tests/lib/vp-random.h), their compile latency and vertices per
 *    second through the code against sim_vp_run's decoded copy;
 *  - ROP states: N random states of the 8-bit-channel ROP
 *    (tests/lib/rop-random.h), their compile latency and quads per second
 *    through the code against rop.c.
 * Prints; never passes or fails. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/glbench.h"
#include "sim/3d/jit.h"
#include "tests/lib/fp-random.h"
#include "tests/lib/rop-random.h"
#include "tests/lib/vp-random.h"

#define JB_QUADS     64          /* per primitive */
#define JB_PASSES    20          /* the stream goes through the programs this often */

struct jb_prog {
	struct prog p;
	uint32_t control;
};

static double jb_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int jb_cmp(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return x < y ? -1 : x > y;
}

static const struct sim_jit_interp from_quad;   /* every input read from the quad */

static void jb_sample(void *ctx, const struct sim_tex_req *rq, float out[4][4])
{
	(void)ctx;
	memcpy(out, rq->coord, sizeof(rq->coord));
}

static struct sim_jit *jb_jit(unsigned mode)
{
	char err[256];
	struct sim_jit *j = sim_jit_new(mode, err, sizeof(err));
	if (!j)
		fprintf(stderr, "jit: %s\n", err);
	return j;
}

static void jb_check(struct sim_fp_cache *c, const struct jb_prog *jp)
{
	memset(c, 0, sizeof(*c));
	sim_fp_cache_reset(c);
	sim_fp_cache_check(c, jp->p.b, jp->p.len);
}

/* The compile times of kind k, sorted: median, p99 and max. */
static void jb_print_latency(struct sim_jit_kind *k)
{
	qsort(k->compile_ms, k->ntimes, sizeof(float), jb_cmp);
	printf("  compile median %.2f ms, p99 %.2f ms, max %.2f ms\n", k->compile_ms[k->ntimes / 2],
	       k->compile_ms[(k->ntimes * 99) / 100], k->compile_ms[k->ntimes - 1]);
}

/* Compile every program once; the latencies the compiler measured. */
static int jb_latency(const struct jb_prog *ps, unsigned n)
{
	static struct sim_fp_cache c;
	static struct sim_jit_stats st;
	struct sim_jit *j = jb_jit(SIM_JIT_SYNC);

	if (!j)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		jb_check(&c, &ps[i]);
		sim_jit_fp(j, &c, ps[i].control);
	}
	sim_jit_stats(j, &st);
	sim_jit_free(j);
	if (!st.fp.ntimes)
		return -1;
	printf("fragment programs, %u compiled (%u left to the interpreter):\n", st.fp.compiled,
	       st.fp.refused);
	jb_print_latency(&st.fp);
	return 0;
}

/* Primitives cycling through the programs with the background compiler:
 * interpreted until their code arrives, as the rasteriser does. */
static int jb_stream(const struct jb_prog *ps, unsigned n)
{
	static struct sim_fp_cache c;
	static struct sim_jit_stats st;
	struct sim_jit *j = jb_jit(SIM_JIT_ON);
	struct sim_fp_quad q;

	if (!j)
		return -1;
	double t0 = jb_now();
	for (unsigned pass = 0; pass < JB_PASSES; pass++)
		for (unsigned i = 0; i < n; i++) {
			jb_check(&c, &ps[i]);
			sim_jit_fp_fn *fn = sim_jit_fp(j, &c, ps[i].control);
			for (unsigned k = 0; k < JB_QUADS; k++) {
				rnd_quad(&q);
				if (fn)
					fn(&q, c.dec, jb_sample, NULL, &from_quad);
				else
					sim_fp_run_cached(&c, ps[i].p.b, ps[i].p.len, ps[i].control, &q, jb_sample, NULL);
			}
		}
	double t = jb_now() - t0;
	sim_jit_stats(j, &st);
	sim_jit_free(j);
	printf("background compiler, %u primitives of %u quads over %u programs (%.2f s):\n",
	       JB_PASSES * n, JB_QUADS, n, t);
	printf("  cache hit rate %.1f%% of primitives (%u compiled, %u refused)\n",
	       st.fp.lookups ? 100.0 * (double)st.fp.hits / (double)st.fp.lookups : 0.0, st.fp.compiled, st.fp.refused);
	return 0;
}

/* Quads per second through the compiled programs and the interpreter. */
static int jb_speed(const struct jb_prog *ps, unsigned n, unsigned quads)
{
	static struct sim_fp_cache c;
	static struct sim_fp_quad in[256];
	struct sim_jit *j = jb_jit(SIM_JIT_SYNC);
	double tj = 0, ti = 0;
	unsigned used = 0;

	if (!j)
		return -1;
	for (unsigned k = 0; k < 256; k++)
		rnd_quad(&in[k]);
	for (unsigned i = 0; i < n; i++) {
		jb_check(&c, &ps[i]);
		sim_jit_fp_fn *fn = sim_jit_fp(j, &c, ps[i].control);
		if (!fn)
			continue;
		used++;
		double t0 = jb_now();
		for (unsigned k = 0; k < quads; k++) {
			struct sim_fp_quad q = in[k & 255];
			fn(&q, c.dec, jb_sample, NULL, &from_quad);
		}
		double t1 = jb_now();
		for (unsigned k = 0; k < quads; k++) {
			struct sim_fp_quad q = in[k & 255];
			sim_fp_run_cached(&c, ps[i].p.b, ps[i].p.len, ps[i].control, &q, jb_sample, NULL);
		}
		tj += t1 - t0;
		ti += jb_now() - t1;
	}
	sim_jit_free(j);
	if (!used || tj <= 0)
		return -1;
	printf("fragment program speed, %u programs x %u quads:\n", used, quads);
	printf("  compiled %.2f Mquads/s, interpreted %.2f Mquads/s, ratio %.2f\n",
	       used * (double)quads / tj / 1e6, used * (double)quads / ti / 1e6, ti / tj);
	return 0;
}

/* n random vertex programs: compile latency, then vertices per second
 * compiled and interpreted. */
static int jb_vertex(unsigned n, unsigned vertices)
{
	static uint32_t code[NV40_VP_INSNS][4], cst[NV40_VP_CONSTS][4];
	static float in[NV40_VP_INPUTS][4], out[NV40_VP_OUTPUTS][4];
	static struct sim_jit_stats st;
	struct sim_jit *j = jb_jit(SIM_JIT_SYNC);
	double tj = 0, ti = 0;

	if (!j)
		return -1;
	for (unsigned k = 0; k < NV40_VP_INPUTS; k++)
		for (unsigned c = 0; c < 4; c++)
			in[k][c] = rnd_float();
	for (unsigned k = 0; k < NV40_VP_CONSTS; k++)
		for (unsigned c = 0; c < 4; c++)
			memcpy(&cst[k][c], &(float){ rnd_float() }, 4);
	for (unsigned i = 0; i < n; i++) {
		vp_random_straight(code, 1 + rnd_below(24), rnd);
		sim_jit_vp_fn *fn = sim_jit_vp(j, sim_vp_straight_of((const uint32_t (*)[4])code, 0));
		if (!fn)
			continue;
		double t0 = jb_now();
		for (unsigned k = 0; k < vertices; k++)
			fn((const uint32_t (*)[4])cst, (const float (*)[4])in, out);
		double t1 = jb_now();
		for (unsigned k = 0; k < vertices; k++)
			sim_vp_run((const uint32_t (*)[4])code, 0, (const uint32_t (*)[4])cst,
				   (const float (*)[4])in, out);
		tj += t1 - t0;
		ti += jb_now() - t1;
	}
	sim_jit_stats(j, &st);
	sim_jit_free(j);
	if (!st.vp.ntimes || tj <= 0)
		return -1;
	printf("vertex programs, %u compiled (%u left to the interpreter):\n", st.vp.compiled,
	       st.vp.refused);
	jb_print_latency(&st.vp);
	printf("  compiled %.2f Mvertices/s, interpreted %.2f Mvertices/s, ratio %.2f\n",
	       st.vp.compiled * (double)vertices / tj / 1e6, st.vp.compiled * (double)vertices / ti / 1e6,
	       ti / tj);
	return 0;
}

/* n random ROP states (tests/lib/rop-random.h): compile latency, then
 * quads per second through the code and through rop.c. */
static int jb_rop(unsigned n, unsigned quads)
{
	static uint8_t mem[5][ROP_RBYTES];
	static struct draw_setup d;
	static struct sim_fp_quad q[16];
	static struct sim_jit_stats st;
	struct sim_jit *j = jb_jit(SIM_JIT_SYNC);
	uint32_t samples = 0;
	float z[16][4];
	double tj = 0, ti = 0;

	if (!j)
		return -1;
	for (unsigned k = 0; k < 16; k++)
		rop_random_quad(&q[k], z[k], rnd);
	for (unsigned i = 0; i < n; i++) {
		rop_random_state(&d, rnd);
		rop_bind(&d, mem);
		const struct sim_jit_rop *r = sim_jit_rop(j, sim_jit_rop_find(j, &d));
		if (!r)
			continue;
		double t0 = jb_now();
		for (unsigned k = 0; k < quads; k++)
			r->quad(&d, &samples, (int)(k & 3) * 2 - 1, (int)(k >> 2 & 3) * 2 - 1, 0xf, z[k & 15],
				&q[k & 15]);
		double t1 = jb_now();
		for (unsigned k = 0; k < quads; k++)
			sim_rop_quad(&d, &samples, (int)(k & 3) * 2 - 1, (int)(k >> 2 & 3) * 2 - 1, 0xf,
				     z[k & 15], 1, &q[k & 15]);
		tj += t1 - t0;
		ti += jb_now() - t1;
	}
	sim_jit_stats(j, &st);
	sim_jit_free(j);
	if (!st.rop.ntimes || tj <= 0)
		return -1;
	printf("ROP states, %u compiled:\n", st.rop.compiled);
	jb_print_latency(&st.rop);
	printf("  compiled %.2f Mquads/s, rop.c %.2f Mquads/s, ratio %.2f\n",
	       st.rop.compiled * (double)quads / tj / 1e6, st.rop.compiled * (double)quads / ti / 1e6,
	       ti / tj);
	return 0;
}

static void jb_usage(FILE *f)
{
	fprintf(f,
"usage: jit [-n N]\n"
"The program compiler on N random fragment programs (compile latency, the\n"
"background compiler's cache hit rate, compiled against interpreted speed)\n"
"N random vertex programs and N random ROP states (compile latency, speed).\n"
"\n"
"  -n, --programs N  random programs (default 200)\n"
"  -h, --help        show this help\n"
"      --version     show the version\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "programs", required_argument, 0, 'n' },
		{ "help", no_argument, 0, 'h' }, { "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 }
	};
	unsigned n = 200;
	int o;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "jit: ...", not a path */
	while ((o = getopt_long(argc, argv, "n:h", lo, NULL)) != -1) {
		switch (o) {
		case 'n':
			if (glb_parse_count("--programs", optarg, 1, 100000, &n) < 0)
				return 2;
			break;
		default: return glb_other_option(o, jb_usage);
		}
	}
	if (optind < argc)
		return glb_bad_usage("unexpected argument '%s'", argv[optind]);
	struct jb_prog *ps = calloc(n, sizeof(*ps));
	if (!ps) {
		fprintf(stderr, "jit: out of memory\n");
		return 1;
	}
	rng_state = 42;
	for (unsigned i = 0; i < n; i++) {
		rnd_prog(&ps[i].p, 1 + rnd_below(10));
		ps[i].control = rnd_below(2) ? NV40_FP_CONTROL_DEPTH : 0;
	}
	int r = jb_latency(ps, n) < 0 || jb_stream(ps, n) < 0 || jb_speed(ps, n, 20000) < 0 ||
		jb_vertex(n, 20000) < 0 || jb_rop(n, 20000) < 0;
	free(ps);
	return r;
}
