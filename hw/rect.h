/* Rectangles of the 2D engines' destination coordinates: points are signed
 * 16-bit fields (X 15:0, Y 31:16), sizes unsigned; the coordinate range is
 * [0, 2^24).  Shared by the simulator and the validator. */
#ifndef NV_HW_RECT_H
#define NV_HW_RECT_H

#include <stdint.h>

struct nv_rect {
	int32_t x, y;
	uint32_t w, h;
};
#define NV_RECT_ALL ((struct nv_rect){ 0, 0, 1u << 24, 1u << 24 })

/* Sign-extend a 16-bit field. */
static inline int32_t nv_s16(uint32_t v)
{
	return (int32_t)(int16_t)(uint16_t)v;
}

/* r = r intersected with c (w or h 0 when empty). */
static inline void nv_rect_clip(struct nv_rect *r, const struct nv_rect *c)
{
	int64_t x0 = r->x > c->x ? r->x : c->x, y0 = r->y > c->y ? r->y : c->y;
	int64_t x1 = (int64_t)r->x + r->w, y1 = (int64_t)r->y + r->h;
	int64_t cx1 = (int64_t)c->x + c->w, cy1 = (int64_t)c->y + c->h;
	if (x1 > cx1)
		x1 = cx1;
	if (y1 > cy1)
		y1 = cy1;
	r->x = (int32_t)x0;
	r->y = (int32_t)y0;
	r->w = x1 > x0 ? (uint32_t)(x1 - x0) : 0;
	r->h = y1 > y0 ? (uint32_t)(y1 - y0) : 0;
}

#endif
