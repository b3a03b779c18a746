/* What the card touches (access.h): regions, the launch table, and the 2D
 * engines.  The 3D class is in access-3d.c. */
#include "access.h"

#include <stddef.h>

#include "enums-2d.h"
#include "formats.h"
#include "rect.h"
#include "sifm.h"

#define NV_ACC_KIND_NAME_(id, s) s,
const char *const nv_acc_kind_name[NV_ACC_NKINDS] = { NV_ACC_KINDS(NV_ACC_KIND_NAME_) };

int nv_acc_bounds(const struct nv_acc *a, uint64_t *lo, uint64_t *span)
{
	const int64_t lim = (int64_t)1 << 48, plim = (int64_t)1 << 32;
	*lo = *span = 0;
	if (!a->rows || !a->len)
		return 0;
	/* method values are 32-bit: nothing real comes near these bounds,
	 * which keep the sums below from overflowing */
	if (a->rows > (1u << 24) || a->len > (uint64_t)lim || a->pitch > plim || a->pitch < -plim ||
	    a->off >= lim || a->off < -lim)
		return -1;
	int64_t last = (int64_t)(a->rows - 1) * a->pitch;      /* |last| < 2^56 */
	int64_t first = a->off + (last < 0 ? last : 0);
	int64_t end = a->off + (last > 0 ? last : 0) + (int64_t)a->len;
	if (first < 0 || end > lim)
		return -1;
	*lo = (uint64_t)first;
	*span = (uint64_t)(end - first);
	return 0;
}

static void acc_trap(struct nv_acc_list *l, enum nv_acc_trap t, const char *why)
{
	l->n = 0;
	l->trap = (uint8_t)t;
	l->why = why;
}

static struct nv_acc *acc_add(struct nv_acc_list *l, unsigned table, unsigned dma, unsigned dir,
			      unsigned kind, unsigned unit, int64_t off, int64_t pitch, uint64_t len,
			      uint32_t rows)
{
	if (l->trap || l->n == NV_ACC_MAX || !rows || !len)
		return NULL;
	l->a[l->n] = (struct nv_acc){ (uint8_t)table, (uint8_t)dir, (uint8_t)kind, (uint8_t)unit,
				      (uint16_t)dma, rows, off, pitch, len, 0, 0 };
	return &l->a[l->n++];
}

/* A w x h rectangle of pixels at (x, y). */
static void acc_rect(struct nv_acc_list *l, unsigned table, unsigned dma, unsigned dir,
		     unsigned kind, int64_t base, int64_t pitch, unsigned bpp, int64_t x, int64_t y,
		     uint32_t w, uint32_t h)
{
	struct nv_acc *a = acc_add(l, table, dma, dir, kind, 0, base + y * pitch + x * bpp, pitch,
				   (uint64_t)w * bpp, h);
	if (a) {
		a->x = (int32_t)x;
		a->y = (int32_t)y;
	}
}

static void acc_start(struct nv_acc_list *l)
{
	l->n = 0;
	l->trap = NV_ACC_OK;
	l->why = NULL;
}

#define S(T, NAME) (st->t[NV_TABLE_##T][NV_##T##_##NAME##__SLOT])
#define SI(T, NAME, i) (st->t[NV_TABLE_##T][NV_##T##_##NAME##__SLOT + (i)])

static unsigned acc_cls(const struct nv_acc_state *st, unsigned table, unsigned slot)
{
	return st->cls(st, st->t[table][slot]);
}

/* ---- M2MF ----
 *
 * Line i < LINE_COUNT: LINE_LENGTH_IN bytes of input at OFFSET_IN + i *
 * PITCH_IN go to OFFSET_OUT + i * PITCH_OUT (pitches signed 32-bit).
 * FORMAT's increments (input 7:0, output 15:8; 1, 2 or 4) are strides: byte
 * k of a line is read at k * INPUT_INC while that is below LINE_LENGTH_IN,
 * and written at k * OUTPUT_INC (rnndb nv_m2mf.xml; RPCS3's nv0039.cpp).
 * Other increments or FORMAT bits, LINE_LENGTH_IN or LINE_COUNT above
 * their fields trap DATA_ERROR (hwtest pgraph_class_m2mf.cc). */
void nv_acc_m2mf(const struct nv_acc_state *st, unsigned elem, uint32_t data, struct nv_acc_list *l)
{
	uint32_t fmt = S(M2MF, FORMAT), len = S(M2MF, LINE_LENGTH_IN), count = S(M2MF, LINE_COUNT);
	uint32_t in = NV_M2MF_FORMAT_INPUT_INC(fmt), out = NV_M2MF_FORMAT_OUTPUT_INC(fmt);

	(void)elem;
	(void)data;
	acc_start(l);
	if ((fmt & ~NV_M2MF_FORMAT_VALID_MASK) || (in != 1 && in != 2 && in != 4) ||
	    (out != 1 && out != 2 && out != 4))
		return acc_trap(l, NV_ACC_DATA_ERROR, "M2MF FORMAT: increments must be 1, 2 or 4");
	if (len > NV_M2MF_LINE_LENGTH_MAX || count > NV_M2MF_LINE_COUNT_MAX)
		return acc_trap(l, NV_ACC_DATA_ERROR, "M2MF: more lines or bytes than the engine takes");
	if (!len || !count)
		return;
	uint64_t n = (len + in - 1) / in;            /* bytes moved per line */
	acc_add(l, NV_TABLE_M2MF, NV_M2MF_DMA_BUFFER_IN__SLOT, NV_ACC_READ, NV_ACC_M2MF_IN, 0,
		S(M2MF, OFFSET_IN), (int32_t)S(M2MF, PITCH_IN), (n - 1) * in + 1, count);
	acc_add(l, NV_TABLE_M2MF, NV_M2MF_DMA_BUFFER_OUT__SLOT, NV_ACC_WRITE, NV_ACC_M2MF_OUT, 0,
		S(M2MF, OFFSET_OUT), (int32_t)S(M2MF, PITCH_OUT), (n - 1) * out + 1, count);
}

/* ---- the 2D destination: SURF2D ----
 *
 * GDI, BLIT and IFC draw into the SURF2D state (DMA_IMAGE_DESTIN,
 * OFFSET_DESTIN, PITCH 31:16, FORMAT) when their SURFACE(S) handle names a
 * SURF2D object, else they trap STATE_INVALID.  A rectangle is clipped to
 * the coordinate range [0, 2^24) (and a connected CLIP object's rectangle,
 * BLIT and IFC); SRCCOPY only writes it, the other operations read it too
 * (ddx-2d.md §3.3). */
static unsigned acc_surf2d_bpp(const struct nv_acc_state *st, unsigned table, unsigned surface_slot,
			       struct nv_acc_list *l)
{
	if (acc_cls(st, table, surface_slot) != NV_CLASS_SURF2D) {
		acc_trap(l, NV_ACC_STATE_INVALID, "the 2D operation's surface is not a SURF2D object");
		return 0;
	}
	unsigned bpp = nv_surf_format_bpp(S(SURF2D, FORMAT));
	if (!bpp)
		acc_trap(l, NV_ACC_DATA_ERROR, "SURF2D FORMAT is no format");
	return bpp;
}

/* OPERATION: SRCCOPY writes the destination; ROP_AND, with a ROP object
 * connected, reads it too; no other operation is modelled (it traps
 * STATE_INVALID).  The direction, or 0 after trapping. */
static unsigned acc_operation(const struct nv_acc_state *st, unsigned table, uint32_t operation,
			      unsigned rop_slot, struct nv_acc_list *l)
{
	if (operation == NV_2D_OPERATION_SRCCOPY)
		return NV_ACC_WRITE;
	if (operation == NV_2D_OPERATION_ROP_AND && acc_cls(st, table, rop_slot) == NV_CLASS_ROP)
		return NV_ACC_RW;
	acc_trap(l, NV_ACC_STATE_INVALID, "2D OPERATION: not SRCCOPY, nor ROP_AND with a ROP object");
	return 0;
}

static void acc_dst_rect(const struct nv_acc_state *st, const struct nv_rect *r, unsigned bpp,
			 unsigned dir, unsigned kind, struct nv_acc_list *l)
{
	acc_rect(l, NV_TABLE_SURF2D, NV_SURF2D_DMA_IMAGE_DESTIN__SLOT, dir, kind,
		 S(SURF2D, OFFSET_DESTIN), NV_SURF2D_PITCH_DESTIN(S(SURF2D, PITCH)), bpp, r->x, r->y,
		 r->w, r->h);
}

/* A connected CLIP object's rectangle (X 15:0, Y 31:16 signed; W, H). */
static struct nv_rect acc_clip(const struct nv_acc_state *st, unsigned table, unsigned clip_slot)
{
	if (acc_cls(st, table, clip_slot) != NV_CLASS_CLIP)
		return NV_RECT_ALL;
	uint32_t pt = S(CLIP, POINT), sz = S(CLIP, SIZE);
	return (struct nv_rect){ nv_s16(NV_2D_LO16(pt)), nv_s16(NV_2D_HI16(pt)), NV_2D_LO16(sz),
				 NV_2D_HI16(sz) };
}

/* GDI: rectangle i at POINT(i) (X 31:16, Y 15:0, signed), SIZE(i) = data
 * (W 31:16, H 15:0), in COLOR_FORMAT, which must be one. */
void nv_acc_gdi(const struct nv_acc_state *st, unsigned elem, uint32_t data, struct nv_acc_list *l)
{
	uint32_t pt = SI(GDI, UNCLIPPED_RECTANGLE_POINT, elem % 32);
	struct nv_rect r = { nv_s16(NV_2D_HI16(pt)), nv_s16(NV_2D_LO16(pt)), NV_2D_HI16(data),
			     NV_2D_LO16(data) }, all = NV_RECT_ALL;

	acc_start(l);
	if (!r.w || !r.h)
		return;
	unsigned bpp = acc_surf2d_bpp(st, NV_TABLE_GDI, NV_GDI_SURFACE__SLOT, l);
	if (!bpp)
		return;
#define NV_ACC_GDI_CASE_(nm, v, b) case (v):
	switch (S(GDI, COLOR_FORMAT)) {
	NV_GDI_COLOR_FORMATS(NV_ACC_GDI_CASE_)
		break;
	default:
		return acc_trap(l, NV_ACC_DATA_ERROR, "GDI COLOR_FORMAT is no format");
	}
	unsigned dir = acc_operation(st, NV_TABLE_GDI, S(GDI, OPERATION), NV_GDI_ROP__SLOT, l);
	nv_rect_clip(&r, &all);
	if (dir)
		acc_dst_rect(st, &r, bpp, dir, NV_ACC_GDI_DST, l);
}

/* BLIT: SIZE = data (W 15:0, H 31:16) from POINT_IN to POINT_OUT (X 15:0,
 * Y 31:16; the destination signed); the destination clipped, the source
 * moving with it, from the SURF2D source (DMA_IMAGE_SOURCE, OFFSET_SOURCE,
 * PITCH 15:0). */
void nv_acc_blit(const struct nv_acc_state *st, unsigned elem, uint32_t data, struct nv_acc_list *l)
{
	uint32_t pin = S(BLIT, POINT_IN), pout = S(BLIT, POINT_OUT);
	struct nv_rect r = { nv_s16(NV_2D_LO16(pout)), nv_s16(NV_2D_HI16(pout)), NV_2D_LO16(data),
			     NV_2D_HI16(data) }, all = NV_RECT_ALL;

	(void)elem;
	acc_start(l);
	if (!r.w || !r.h)
		return;
	unsigned bpp = acc_surf2d_bpp(st, NV_TABLE_BLIT, NV_BLIT_SURFACES__SLOT, l);
	unsigned dir = bpp ? acc_operation(st, NV_TABLE_BLIT, S(BLIT, OPERATION), NV_BLIT_ROP__SLOT, l) : 0;
	if (!dir)
		return;
	int64_t sx = NV_2D_LO16(pin) - (int64_t)r.x, sy = NV_2D_HI16(pin) - (int64_t)r.y;
	struct nv_rect c = acc_clip(st, NV_TABLE_BLIT, NV_BLIT_CLIP__SLOT);
	nv_rect_clip(&r, &c);
	nv_rect_clip(&r, &all);
	if (!r.w || !r.h)
		return;
	sx += r.x;
	sy += r.y;
	acc_rect(l, NV_TABLE_SURF2D, NV_SURF2D_DMA_IMAGE_SOURCE__SLOT, NV_ACC_READ, NV_ACC_BLIT_SRC,
		 S(SURF2D, OFFSET_SOURCE), NV_SURF2D_PITCH_SOURCE(S(SURF2D, PITCH)), bpp, sx, sy, r.w,
		 r.h);
	acc_dst_rect(st, &r, bpp, dir, NV_ACC_BLIT_DST, l);
}

/* IFC: each COLOR word appends pixels to the image, which lands at POINT
 * (X 15:0, Y 31:16, signed), clipped to SIZE_OUT and a connected CLIP
 * object: every pixel of a COLOR packet lies in that rectangle, whatever
 * the packet's length (sim/ifc.c).  COLOR_FORMAT must be one. */
void nv_acc_ifc(const struct nv_acc_state *st, unsigned elem, uint32_t data, struct nv_acc_list *l)
{
	uint32_t pt = S(IFC, POINT), sz = S(IFC, SIZE_OUT);
	struct nv_rect r = { nv_s16(NV_2D_LO16(pt)), nv_s16(NV_2D_HI16(pt)), NV_2D_LO16(sz),
			     NV_2D_HI16(sz) }, all = NV_RECT_ALL;

	(void)elem;
	(void)data;
	acc_start(l);
	unsigned bpp = acc_surf2d_bpp(st, NV_TABLE_IFC, NV_IFC_SURFACE__SLOT, l);
	if (!bpp)
		return;
	if (!nv_ifc_color_format_bpp(S(IFC, COLOR_FORMAT)))
		return acc_trap(l, NV_ACC_DATA_ERROR, "IFC COLOR_FORMAT is no format");
	unsigned dir = acc_operation(st, NV_TABLE_IFC, S(IFC, OPERATION), NV_IFC_ROP__SLOT, l);
	struct nv_rect c = acc_clip(st, NV_TABLE_IFC, NV_IFC_CLIP__SLOT);
	nv_rect_clip(&r, &c);
	nv_rect_clip(&r, &all);
	if (dir)
		acc_dst_rect(st, &r, bpp, dir, NV_ACC_IFC_DST, l);
}

/* SIFM: POINT = data draws OUT (clipped) from the SIZE image at OFFSET
 * (pitch FORMAT 15:0) into the SURFACE object's state: a SURF2D (linear)
 * or a SWZSURF (swizzled: FORMAT colour 15:0, log2 width 23:16, log2
 * height 31:24, at most 2^11).  hw/sifm.h gives the pixels drawn and the
 * texels they sample.  SIZE must be an even width and a height of 1 to
 * 2047, the origin centre or corner, the filter point or bilinear. */
void nv_acc_sifm(const struct nv_acc_state *st, unsigned elem, uint32_t data, struct nv_acc_list *l)
{
	uint32_t sz = S(SIFM, SIZE), fmt = S(SIFM, FORMAT), w = NV_2D_LO16(sz), h = NV_2D_HI16(sz);
	unsigned bpp = nv_sifm_color_format_bpp(S(SIFM, COLOR_FORMAT)), dbpp = 0, lw = 0, lh = 0;
	uint32_t origin = NV_SIFM_FORMAT_ORIGIN(fmt);

	(void)elem;
	acc_start(l);
	if (!bpp || !w || !h || (w & 1) || w > NV_SIFM_SIZE_MAX || h > NV_SIFM_SIZE_MAX ||
	    (origin != NV_SIFM_ORIGIN_CENTER && origin != NV_SIFM_ORIGIN_CORNER) ||
	    NV_SIFM_FORMAT_FILTER(fmt) > NV_SIFM_FILTER_BILINEAR)
		return acc_trap(l, NV_ACC_DATA_ERROR, "SIFM: colour format, SIZE or FORMAT invalid");
	unsigned dcls = acc_cls(st, NV_TABLE_SIFM, NV_SIFM_SURFACE__SLOT);
	int swz = dcls == NV_CLASS_SWZSURF;
	if (swz) {
		uint32_t f = S(SWZSURF, FORMAT);
		lw = NV_SWZSURF_FORMAT_LOG2W(f);
		lh = NV_SWZSURF_FORMAT_LOG2H(f);
		dbpp = nv_surf_format_bpp(NV_SWZSURF_FORMAT_COLOR(f));
		if (lw > NV_SWZSURF_LOG2_MAX || lh > NV_SWZSURF_LOG2_MAX)
			return acc_trap(l, NV_ACC_DATA_ERROR, "SWZSURF: more than 2^11 texels a side");
	} else if (dcls == NV_CLASS_SURF2D) {
		dbpp = nv_surf_format_bpp(S(SURF2D, FORMAT));
	} else {
		return acc_trap(l, NV_ACC_STATE_INVALID, "SIFM SURFACE is not a SURF2D or SWZSURF");
	}
	if (!dbpp)
		return acc_trap(l, NV_ACC_DATA_ERROR, "SIFM destination: no surface format");
	struct nv_sifm_window win;
	if (!nv_sifm_window(sz, fmt, S(SIFM, COLOR_FORMAT), S(SIFM, OUT_POINT), S(SIFM, OUT_SIZE),
			    S(SIFM, CLIP_POINT), S(SIFM, CLIP_SIZE), S(SIFM, DU_DX), S(SIFM, DV_DY),
			    data, swz, lw, lh, &win))
		return;
	int64_t spitch = NV_SIFM_FORMAT_PITCH(fmt);
	unsigned dir = acc_operation(st, NV_TABLE_SIFM, S(SIFM, OPERATION), NV_SIFM_ROP__SLOT, l);
	if (!dir)
		return;
	acc_rect(l, NV_TABLE_SIFM, NV_SIFM_DMA_IMAGE__SLOT, NV_ACC_READ, NV_ACC_SIFM_SRC,
		 S(SIFM, OFFSET), spitch, bpp, win.ulo, win.vlo, win.uhi - win.ulo + 1,
		 win.vhi - win.vlo + 1);
	if (!swz)
		return acc_dst_rect(st, &win.r, dbpp, dir, NV_ACC_SIFM_DST, l);
	/* every texel of the 2^lw x 2^lh surface lies inside its bytes */
	acc_add(l, NV_TABLE_SWZSURF, NV_SWZSURF_DMA_IMAGE__SLOT, dir, NV_ACC_SIFM_DST, 0,
		S(SWZSURF, OFFSET), 0, (uint64_t)dbpp << (lw + lh), 1);
}

/* ---- notifications ---- */

/* NOTIFY arms a notification that the next NOP, or the next operation of
 * the class, writes through that class's DMA_NOTIFY: every class's
 * DMA_NOTIFY is at one slot (hw/methods.h NV_OBJ_METHODS). */
_Static_assert((unsigned)NV_M2MF_DMA_NOTIFY__SLOT == (unsigned)NV_CURIE_DMA_NOTIFY__SLOT &&
	       (unsigned)NV_GDI_DMA_NOTIFY__SLOT == (unsigned)NV_M2MF_DMA_NOTIFY__SLOT,
	       "every class's DMA_NOTIFY at one slot");
void nv_acc_notify(unsigned table, struct nv_acc_list *l)
{
	acc_start(l);
	acc_add(l, table, NV_M2MF_DMA_NOTIFY__SLOT, NV_ACC_WRITE, NV_ACC_NOTIFY, 0, 0, 0, 16, 1);
}

/* ---- the launch table ---- */

static const struct {
	uint8_t table;
	uint16_t mthd, stride, n;
	nv_acc_fn *fn;
} acc_launches[] = {
#define NV_ACC_LAUNCH_ROW_(T, NAME, f) \
	{ NV_TABLE_##T, NV_##T##_##NAME, NV_##T##_##NAME##__STRIDE, \
	  NV_##T##_##NAME##__SLOT_LAST - NV_##T##_##NAME##__SLOT + 1, f },
	NV_ACC_LAUNCHES(NV_ACC_LAUNCH_ROW_)
};

nv_acc_fn *nv_acc_launch(unsigned table, uint32_t mthd)
{
	for (unsigned i = 0; i < sizeof(acc_launches) / sizeof(acc_launches[0]); i++) {
		uint32_t m0 = acc_launches[i].mthd;
		if (acc_launches[i].table == table && mthd >= m0 &&
		    (mthd - m0) % acc_launches[i].stride == 0 &&
		    (mthd - m0) / acc_launches[i].stride < acc_launches[i].n)
			return acc_launches[i].fn;
	}
	return 0;
}
