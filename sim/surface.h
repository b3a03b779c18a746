/* What the 2D engines (m2mf.c, gdi.c, blit.c, ifc.c, sifm.c) share: pixel
 * formats and conversions, the ternary ROP, the pattern, rectangles, SIFM
 * sampling (surface.c: pure functions, no simulator state), and what reads
 * the card: 2D regions of memory through ctxdmas and the state objects
 * (span.c).
 *
 * The pixel pipeline as modelled: a source pixel is converted to the
 * destination format, then written (SRCCOPY) or combined bitwise with the
 * pattern and the destination (ROP_AND), all in the destination format.
 * Conversion rule: when source and destination share a bit layout (565,
 * 1555, 8888, Y8...) the bits pass unchanged, alpha and X bits included;
 * otherwise the source is decoded to A8R8G8B8 (5/6-bit channels widened by
 * bit replication, X bits read as opaque) and encoded into the destination
 * (channels truncated; X bits written 0 for the _Z formats, 1 for the _X/_O
 * ones; Y8/Y16/Y32 take the low 8/16/32 bits of the A8R8G8B8 value, the
 * "index mode" of envytools' 2D pipeline notes).  Every sequence nouveau's
 * DDX and Mesa's nv30 driver emit is a same-layout copy, so they come out
 * bit exact.  Dithering (COLOR_CONVERSION DITHER) is not modelled: the
 * simulator always truncates. */
#ifndef NV_SIM_SURFACE_H
#define NV_SIM_SURFACE_H

#include <stdint.h>

#include "hw/enums-2d.h"
#include "hw/formats.h"
#include "hw/sifm.h"
#include "priv.h"

/* ---- pixel formats (surface.c) ---- */

enum sim_layout {
	SIM_LY_NONE,
	SIM_LY_Y8,      /* 8-bit index or luminance */
	SIM_LY_Y16,
	SIM_LY_Y32,
	SIM_LY_565,
	SIM_LY_1555,    /* bit 15 alpha or X */
	SIM_LY_8888,    /* bits 31:24 alpha or X */
	SIM_LY_1788,    /* X1A7R8G8B8 */
	SIM_LY_YUY2,    /* V8YB8U8YA8: two pixels per 32-bit word */
	SIM_LY_UYVY,    /* YB8V8YA8U8 */
};

/* What a format's non-colour bits hold. */
enum sim_xbits {
	SIM_X_ALPHA,    /* real alpha (AY8: alpha = Y) */
	SIM_X_ONE,      /* read: opaque; written: ones */
	SIM_X_ZERO,     /* read: opaque; written: zeros */
};

struct sim_pixfmt {
	uint8_t bpp;    /* bytes per pixel (YUV: 2, pixels come in pairs) */
	uint8_t layout; /* enum sim_layout */
	uint8_t xbits;  /* enum sim_xbits */
};

/* Format descriptors by method value; NULL for a value that is no format
 * (or one the simulator does not model). */
const struct sim_pixfmt *sim_surf_fmt(uint32_t v);   /* SURF2D / SWZSURF FORMAT */
const struct sim_pixfmt *sim_gdi_fmt(uint32_t v);    /* GDI COLOR_FORMAT */
const struct sim_pixfmt *sim_ifc_fmt(uint32_t v);    /* IFC COLOR_FORMAT */
const struct sim_pixfmt *sim_sifm_fmt(uint32_t v);   /* SIFM COLOR_FORMAT */

/* Raw pixel (low bpp bytes) <-> A8R8G8B8.  YUV formats decode through
 * sim_px_yuv, not here (they decode as black). */
uint32_t sim_px_decode(const struct sim_pixfmt *f, uint32_t raw);
uint32_t sim_px_encode(const struct sim_pixfmt *f, uint32_t argb);
/* A source pixel in the destination format, by the rule above. */
uint32_t sim_px_convert(const struct sim_pixfmt *src, const struct sim_pixfmt *dst, uint32_t raw);
/* BT.601 limited-range YCbCr to A8R8G8B8 (alpha 0xff), integer, rounded.
 * [approximate: the hardware's matrix is not documented] */
uint32_t sim_px_yuv(uint8_t y, uint8_t u, uint8_t v);

static inline uint32_t sim_px_mask(unsigned bpp)
{
	return bpp >= 4 ? 0xffffffffu : (1u << (8 * bpp)) - 1;
}

/* Card memory is little-endian whatever the host. */
static inline uint32_t sim_px_load(const uint8_t *p, unsigned bpp)
{
	switch (bpp) {
	case 1: return p[0];
	case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
	default: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			(uint32_t)p[3] << 24;
	}
}

static inline void sim_px_store(uint8_t *p, unsigned bpp, uint32_t v)
{
	p[0] = v;
	if (bpp >= 2)
		p[1] = v >> 8;
	if (bpp >= 4) {
		p[2] = v >> 16;
		p[3] = v >> 24;
	}
}

/* Fill n pixels at p with v. */
void sim_px_fill(uint8_t *p, unsigned bpp, uint32_t v, uint32_t n);

/* ---- ROP and pattern (surface.c) ---- */

/* Ternary raster operation, bitwise: bit i of the result is bit
 * (p_i << 2 | s_i << 1 | d_i) of rop (GDI codes: P = 0xf0, S = 0xcc,
 * D = 0xaa). */
uint32_t sim_rop3(uint32_t rop, uint32_t p, uint32_t s, uint32_t d);

/* The monochrome pattern as the operations read it.  Pattern coordinates
 * are absolute destination coordinates.  The colours are taken as raw
 * values in the destination's format (nouveau writes them so; the
 * pattern's COLOR_FORMAT is not applied). */
struct sim_patt {
	uint32_t color[2];    /* MONOCHROME_COLOR(0) for 0 bits, (1) for 1 bits */
	uint32_t bits[2];     /* MONOCHROME_PATTERN, bit b at bits[b >> 5] bit (b & 31) */
	unsigned shape;       /* NV_PATT_SHAPE_* */
};

/* From the PATTERN object state (g->patt). */
void sim_patt_load(struct sim_patt *pt, const uint32_t *patt);

static inline uint32_t sim_patt_at(const struct sim_patt *pt, uint32_t x, uint32_t y)
{
	unsigned b;
	if (pt->shape == NV_PATT_SHAPE_64X1)
		b = x & 63;
	else if (pt->shape == NV_PATT_SHAPE_1X64)
		b = y & 63;
	else
		b = (y & 7) << 3 | (x & 7);
	return pt->color[(pt->bits[b >> 5] >> (b & 31)) & 1];
}

/* The per-pixel stage of BLIT, GDI, IFC and SIFM. */
struct sim_2d_op {
	unsigned op;          /* NV_2D_OPERATION_SRCCOPY or _ROP_AND */
	uint32_t rop;
	uint32_t mask;        /* destination bits */
	int has_patt;         /* no PATTERN object: P is all ones */
	struct sim_patt patt;
};

/* One destination pixel at (x, y): source s (destination format) against
 * the current value d. */
static inline uint32_t sim_2d_apply(const struct sim_2d_op *op, uint32_t x, uint32_t y,
				    uint32_t s, uint32_t d)
{
	uint32_t p;
	if (op->op == NV_2D_OPERATION_SRCCOPY)
		return s & op->mask;
	p = op->has_patt ? sim_patt_at(&op->patt, x, y) : 0xffffffffu;
	return sim_rop3(op->rop, p, s, d) & op->mask;
}

/* ---- rectangles (surface.c) ---- */

/* Destination rectangles: hw/rect.h.  Pixels left of or above the surface
 * origin are not drawn (the surfaces have no size: their right and bottom
 * ends are the ctxdma's). */

/* ---- SIFM sampling (surface.c) ---- */

/* Positions and the window an operation samples: hw/sifm.h. */

/* The source image of a SIFM operation, as host memory.  base points at
 * texel (u_lo, v_lo); texels with u < u_lo or v < v_lo are never read (the
 * caller maps the window the operation samples). */
struct sim_sifm_src {
	const uint8_t *base;
	int64_t pitch;
	const struct sim_pixfmt *fmt;
	uint32_t w, h;        /* SIZE: coordinates clamp to [0, w-1] x [0, h-1] */
	uint32_t u_lo, v_lo;
};

/* Texel (u, v) (clamped) as A8R8G8B8. */
uint32_t sim_sifm_texel(const struct sim_sifm_src *src, int64_t u, int64_t v);
/* Raw texel (u, v) (clamped), for same-layout copies. */
uint32_t sim_sifm_texel_raw(const struct sim_sifm_src *src, int64_t u, int64_t v);

/* Bilinear sample at (su, sv), positions as nv_sifm_pos gives them.  The
 * texel grid is shifted by half a texel for the centre origin (texel k's
 * centre at k + 1/2), not for the corner origin; the fractions are cut to
 * 8 bits (floor) and each channel is
 *     (c00 (256-fu)(256-fv) + c10 fu (256-fv) + c01 (256-fu) fv + c11 fu fv
 *      + 2^15) >> 16,
 * so an integer position returns its texel exactly. */
uint32_t sim_sifm_bilinear(const struct sim_sifm_src *src, int64_t su, int64_t sv, int center);

/* ---- what reads the card: state objects, 2D regions (span.c) ---- */

/* Set op up from an OPERATION value and the class's ROP and PATTERN slots
 * (RAMIN offsets).  0, or the NSOURCE bits to trap with: an operation the
 * simulator does not model (the blends, SRCCOPY_AND, SRCCOPY_PREMULT),
 * ROP_AND without a ROP object, a colour pattern. */
uint32_t sim_2d_op_setup(struct sim *s, const struct sim_grctx *g, struct sim_2d_op *op,
			 uint32_t operation, uint32_t rop_inst, uint32_t patt_inst, unsigned bpp);

/* Whether the object at RAMIN offset inst is of class cls. */
static inline int sim_obj_is(struct sim *s, uint32_t inst, uint32_t cls)
{
	return sim_obj_class(s, inst) == cls;
}


#define SIM_SPAN_R 1
#define SIM_SPAN_W 2
#define SIM_SPAN_RW (SIM_SPAN_R | SIM_SPAN_W)

/* rows x len bytes, row r at byte off + r * pitch of ctxdma dma. */
struct sim_span {
	uint8_t *row0;        /* row 0 when the whole span mapped at once, else NULL */
	struct sim *s;
	uint32_t dma;
	int64_t off, pitch;
	uint64_t len;
	int access;
};

/* Map a span, checking every row against the ctxdma before anything is
 * touched, and finish the 3D engine's queued work first if it touches
 * the span (sim_3d_sync_touch).  0, or the NSOURCE bit of the fault
 * (DMA_R_PROTECTION, DMA_W_PROTECTION).  rows and len must be nonzero and
 * within the limits
 * below (every engine's are: 16-bit sizes, 32-bit pitches), else it is a
 * fault too. */
#define SIM_SPAN_ROWS_MAX  0x10000u
#define SIM_SPAN_PITCH_MAX ((int64_t)1 << 32)
#define SIM_SPAN_LEN_MAX   ((uint64_t)1 << 32)
uint32_t sim_span_map(struct sim_span *sp, struct sim *s, uint32_t dma, int64_t off,
		      int64_t pitch, uint64_t len, uint32_t rows, int access);
uint8_t *sim_span_row_slow(struct sim_span *sp, uint32_t r);
/* Map what the model says an operation touches (hw/access.h), through the
 * ctxdma its method holds. */
uint32_t sim_span_acc(struct sim_span *sp, struct sim *s, const struct nv_acc_state *st,
		      const struct nv_acc *a);

/* Host pointer to row r (< rows); NULL only if memory changed under a
 * mapped span, which the caller treats as a fault. */
static inline uint8_t *sim_span_row(struct sim_span *sp, uint32_t r)
{
	if (sp->row0)
		return sp->row0 + (int64_t)r * sp->pitch;
	return sim_span_row_slow(sp, r);
}

#endif
