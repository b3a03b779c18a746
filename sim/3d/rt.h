/* The 3D engine's render targets: colour buffers 0-3 and the zeta buffer as
 * RT_FORMAT, the pitches and offsets describe them, resolved through their
 * ctxdmas (rt.c).  Clears and the ROP write through these. */
#ifndef NV_SIM_3D_RT_H
#define NV_SIM_3D_RT_H

#include <stdint.h>

#include "sim/priv.h"

struct sim_rt {
	uint8_t *mem;                 /* host memory of the surface, NULL = not bound */
	uint64_t len;
	unsigned format;              /* RT_FORMAT COLOR (colour) or ZETA (zeta) value */
	unsigned bpp, pitch;
	unsigned swizzled, log2w, log2h;
};

struct sim_rts {
	struct sim_rt color[4], zeta;
	unsigned x, y, w, h;          /* RT_HORIZ / RT_VERT */
};

/* Map the surfaces an operation touches: the colour buffers and zeta of
 * its hw/access.h list l (nv40_acc_draw, nv40_acc_clear; l is not a
 * trap).  0, or -1 after raising DMA_W_PROTECTION for one that does not
 * fit its ctxdma.  A surface not in l keeps mem NULL. */
int sim_rt_resolve(struct sim *s, struct sim_grctx *g, const struct nv_acc_list *l,
		   struct sim_rts *rts);

/* Do the n surfaces w keep every pixel's bytes apart from the other
 * pixels' when columns [0, xmax) are written: no linear row reaching into
 * the next, no two surfaces overlapping?  Then threads may share them by
 * rows (bands.c). */
int sim_rt_rows_apart(const struct sim_rt *const w[], unsigned n, int64_t xmax);
/* Does [lo, lo + len) overlap rt's memory? */
int sim_rt_overlaps(const struct sim_rt *rt, const uint8_t *lo, uint64_t len);

/* Byte address of pixel (x, y) in rt (linear or swizzled), NULL outside. */
uint8_t *sim_rt_pixel(const struct sim_rt *rt, unsigned x, unsigned y);
/* Colour pixel as RGBA floats / written from RGBA floats under mask (bit 0
 * R, 1 G, 2 B, 3 A), converted to and from the surface's format. */
void sim_rt_read(const struct sim_rt *rt, unsigned x, unsigned y, float rgba[4]);
void sim_rt_write(const struct sim_rt *rt, unsigned x, unsigned y, const float rgba[4],
		  unsigned mask);

/* A colour format of four 8-bit channels: the byte each of R G B A is in
 * (A -1 for the X formats, whose byte 3 is x whenever a channel is
 * written), so the ROP reads and writes them without the generic packer;
 * on = 0 for other formats. */
struct sim_rt8 {
	int on;
	int8_t at[4];
	uint8_t x;
	const float *unorm;           /* byte -> channel value, as sim_rt_read gives it */
};
void sim_rt8_of(unsigned fmt, struct sim_rt8 *r);

/* Colour format fmt's pixel bytes for rgba and the byte mask of the
 * channels in mask (bit 0 R .. 3 A); returns bytes per pixel, 0 for an
 * unknown format.  For fills (clear.c) and the ROP. */
unsigned sim_rt_pack(unsigned fmt, const float rgba[4], unsigned mask, uint8_t pat[16],
		     uint8_t msk[16]);

#endif
