/* Random straight NV40 vertex programs (sim/3d/vp.h's straight: no flow,
 * address register, condition test or indexing), for the tests of the
 * decoded and the compiled vertex programs (tests/unit/test_sim_vp.c,
 * test_sim_jit.c).  Static: each program includes it once. */
#ifndef NV_TESTS_VP_RANDOM_H
#define NV_TESTS_VP_RANDOM_H

#include <stdint.h>

#include "hw/vp-isa.h"

/* n random instructions into code[0 .. n): random words, opcodes that
 * exist and are straight, LAST on the last.  rnd: the caller's numbers. */
static void vp_random_straight(uint32_t (*code)[4], unsigned n, uint32_t (*rnd)(void))
{
	static const uint32_t vops[] = {
#define VOP_(name, value, reads) value,
		NV40_VP_VEC_OPS(VOP_)
#undef VOP_
	};
	static const uint32_t sops[] = {
#define SOP_(name, value) value,
		NV40_VP_SCA_OPS(SOP_)
#undef SOP_
	};
	for (unsigned k = 0; k < n; k++) {
		uint32_t *i = code[k], v, o;
		for (unsigned w = 0; w < 4; w++)
			i[w] = rnd();
		do
			v = vops[rnd() % (sizeof vops / sizeof vops[0])];
		while (v == NV40_VP_VEC_ARL || v == NV40_VP_VEC_ARR || v == NV40_VP_VEC_ARA ||
		       v == NV40_VP_VEC_TXL);
		do
			o = sops[rnd() % (sizeof sops / sizeof sops[0])];
		while (o == NV40_VP_SCA_BRA || o == NV40_VP_SCA_CAL || o == NV40_VP_SCA_RET ||
		       o == NV40_VP_SCA_PUSHA || o == NV40_VP_SCA_POPA);
		nv40_vp_set_VEC_OPCODE(i, v);
		nv40_vp_set_SCA_OPCODE(i, o);
		nv40_vp_set_COND_TEST_EN(i, 0);
		nv40_vp_set_INDEX_INPUT(i, 0);
		nv40_vp_set_INDEX_OUTPUT(i, 0);
		nv40_vp_set_INDEX_CONST(i, 0);
		nv40_vp_set_LAST(i, k == n - 1);
	}
}

#endif
