/* Float helpers the 3D engine shares: bit views, saturation, and IEEE
 * fp16 <-> float for every part that meets halves: fp16 render targets
 * (rt.c), the fragment program's fp16 precision and PK2H/UP2H (fp.c), half
 * vertex attributes (fetch.c), half textures (tex.c), the blend colour
 * (draw.c). */
#ifndef NV_SIM_3D_HALF_H
#define NV_SIM_3D_HALF_H

#include <stdint.h>
#include <string.h>

static inline uint32_t sim_f2u(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static inline float sim_u2f(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* Clamp to [0, 1]; NaN (and -0) give +0. */
static inline float sim_sat(float f)
{
	return f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f;
}

/* |f|'s bits in the range of normal halves: below 65520 (which overflows
 * to inf) and at least 2^-14. */
static inline int sim_h_normal(uint32_t a)
{
	return a >= 0x38800000 && a < 0x477ff000;
}

/* A normal half's magnitude, rounded to nearest even, still as float bits
 * (its mantissa cut to 10 bits). */
static inline uint32_t sim_h_round(uint32_t a)
{
	return (a + 0x0fff + ((a >> 13) & 1)) & ~0x1fffu;
}

/* float -> half, round to nearest even (denormals too), overflow to inf,
 * NaN stays NaN (quiet, top mantissa bits kept). */
static inline uint16_t sim_f2h(float f)
{
	uint32_t u = sim_f2u(f), s = (u >> 16) & 0x8000, a = u & 0x7fffffff;

	if (a > 0x7f800000)
		return (uint16_t)(s | 0x7e00 | ((a >> 13) & 0x3ff));
	if (a >= 0x477ff000)                     /* >= 65520: overflows to inf */
		return (uint16_t)(s | 0x7c00);
	if (sim_h_normal(a))
		return (uint16_t)(s | ((sim_h_round(a) - 0x38000000) >> 13));
	if (a <= 0x33000000)                     /* <= 2^-25: rounds to zero */
		return (uint16_t)s;
	uint32_t e = a >> 23, m = (a & 0x7fffff) | 0x800000, sh = 126 - e;
	uint32_t r = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
	if (rem > half || (rem == half && (r & 1)))
		r++;
	return (uint16_t)(s | r);
}

/* half -> float, exact; NaN keeps its payload. */
static inline float sim_h2f(uint16_t h)
{
	uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;

	if (e == 0x1f)
		return sim_u2f(s | 0x7f800000 | m << 13);
	if (e)
		return sim_u2f(s | (e + 112) << 23 | m << 13);
	float v = (float)m * 0x1p-24f;           /* denormal: m * 2^-24 */
	return s ? -v : v;
}

#endif
