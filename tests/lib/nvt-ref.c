/* CPU references of the 2D operations: what the card must have written.
 * Written from the descriptions in ../shared/ref/ddx-2d.md §3.5 and
 * nv40-hardware.md §4.2, deliberately plain (byte loops, no shared code
 * with the simulator). */
#include "tests/lib/nvt.h"

#include <stdlib.h>
#include <string.h>

void nvt_ref_m2mf(uint8_t *dst, int64_t dpitch, const uint8_t *src, int64_t spitch,
		  uint32_t len, uint32_t lines)
{
	for (uint32_t l = 0; l < lines; l++)
		memmove(dst + (int64_t)l * dpitch, src + (int64_t)l * spitch, len);
}

void nvt_ref_fill(uint8_t *dst, uint32_t pitch, unsigned bpp, uint32_t x, uint32_t y,
		  uint32_t w, uint32_t h, uint32_t color)
{
	for (uint32_t r = 0; r < h; r++)
		for (uint32_t c = 0; c < w; c++) {
			uint8_t *px = dst + (size_t)(y + r) * pitch + (size_t)(x + c) * bpp;
			for (unsigned b = 0; b < bpp; b++)
				px[b] = (uint8_t)(color >> (8 * b));   /* little-endian pixel */
		}
}

void nvt_ref_blit(uint8_t *dst, uint32_t dpitch, const uint8_t *src, uint32_t spitch,
		  unsigned bpp, uint32_t sx, uint32_t sy, uint32_t dx, uint32_t dy, uint32_t w,
		  uint32_t h)
{
	/* Read the whole source first: any overlap then behaves like memmove. */
	size_t row = (size_t)w * bpp;
	uint8_t *tmp = malloc(row * h + 1);
	if (!tmp)
		abort();   /* test-side only */
	for (uint32_t r = 0; r < h; r++)
		memcpy(tmp + r * row, src + (size_t)(sy + r) * spitch + (size_t)sx * bpp, row);
	for (uint32_t r = 0; r < h; r++)
		memcpy(dst + (size_t)(dy + r) * dpitch + (size_t)dx * bpp, tmp + r * row, row);
	free(tmp);
}

uint32_t nvt_ref_swz_index(uint32_t x, uint32_t y, unsigned lw, unsigned lh)
{
	/* One bit of x, then one of y, while each still has bits; x's bits go
	 * first at every level. */
	uint32_t idx = 0;
	unsigned out = 0;
	for (unsigned i = 0; i < lw || i < lh; i++) {
		if (i < lw)
			idx |= ((x >> i) & 1u) << out++;
		if (i < lh)
			idx |= ((y >> i) & 1u) << out++;
	}
	return idx;
}

void nvt_ref_sifm_swz(uint8_t *dst, unsigned lw, unsigned lh, const uint8_t *src,
		      uint32_t spitch, unsigned bpp, uint32_t sx, uint32_t sy, uint32_t dx,
		      uint32_t dy, uint32_t w, uint32_t h)
{
	/* Point sampled at 1:1 with the centre origin: destination pixel
	 * (dx+i, dy+j) takes source pixel (sx+i, sy+j) unchanged. */
	for (uint32_t j = 0; j < h; j++)
		for (uint32_t i = 0; i < w; i++) {
			uint32_t t = nvt_ref_swz_index(dx + i, dy + j, lw, lh);
			memcpy(dst + (size_t)t * bpp,
			       src + (size_t)(sy + j) * spitch + (size_t)(sx + i) * bpp, bpp);
		}
}

void nvt_ref_ifc(uint8_t *dst, uint32_t pitch, unsigned bpp, uint32_t x, uint32_t y, uint32_t w,
		 uint32_t h, const uint8_t *pixels)
{
	for (uint32_t r = 0; r < h; r++)
		memcpy(dst + (size_t)(y + r) * pitch + (size_t)x * bpp, pixels + (size_t)r * w * bpp,
		       (size_t)w * bpp);
}
