/* jit.h without LLVM (no llvm-config at build time, and the big-endian
 * cross build): there is no compiler, the interpreter runs every program. */
#include "jit.h"

#include <stdio.h>
#include <string.h>

int sim_jit_built(void)
{
	return 0;
}

struct sim_jit *sim_jit_new(unsigned mode, char *err, size_t errlen)
{
	if (mode != SIM_JIT_OFF)
		snprintf(err, errlen, "built without LLVM");
	return NULL;
}

void sim_jit_free(struct sim_jit *j)
{
	(void)j;
}

sim_jit_fp_fn *sim_jit_fp(struct sim_jit *j, struct sim_fp_cache *c, uint32_t control)
{
	(void)j;
	(void)c;
	(void)control;
	return NULL;
}

sim_jit_vp_fn *sim_jit_vp(struct sim_jit *j, const struct sim_vp_straight *p)
{
	(void)j;
	(void)p;
	return NULL;
}

const void *sim_jit_rop_find(struct sim_jit *j, const struct draw_setup *d)
{
	(void)j;
	(void)d;
	return NULL;
}

const struct sim_jit_rop *sim_jit_rop(struct sim_jit *j, const void *entry)
{
	(void)j;
	(void)entry;
	return NULL;
}

void sim_jit_stats(struct sim_jit *j, struct sim_jit_stats *st)
{
	(void)j;
	memset(st, 0, sizeof(*st));
}

int sim_jit_verifying(const struct sim_jit *j)
{
	(void)j;
	return 0;
}

void sim_jit_verify(struct sim_jit *j, const struct sim_fp_quad *compiled,
		    const struct sim_fp_quad *interpreted)
{
	(void)j;
	(void)compiled;
	(void)interpreted;
}

void sim_jit_verify_vp(struct sim_jit *j, const float compiled[NV40_VP_OUTPUTS][4],
		       const float interpreted[NV40_VP_OUTPUTS][4])
{
	(void)j;
	(void)compiled;
	(void)interpreted;
}

void sim_jit_verify_rop(struct sim_jit *j, int differ)
{
	(void)j;
	(void)differ;
}

void sim_jit_perturb(struct sim_jit *j, int ulps)
{
	(void)j;
	(void)ulps;
}
