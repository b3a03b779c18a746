/* The extent checks of the operations that touch memory: at the method that
 * starts one (M2MF BUF_NOTIFY, GDI rectangle size, BLIT SIZE, IFC COLOR,
 * SIFM POINT) the whole range it reads or writes, computed from the shadowed
 * state in 64 bits, must lie inside one buffer of the submission (or a
 * DMA_BO ctxdma).  Method semantics: ../shared/ref/ddx-2d.md §3.3-3.5,
 * nv40-hardware.md §2.2, rnndb nv_m2mf.xml.
 *
 * The 3D engine's extents (render targets, textures, vertex and index
 * buffers, programs) are not checked here: only the start address of each
 * 3D address method is (validate.c, nvd_v_addr).  Their extents come with
 * the 3D engine. */
#include <errno.h>

#include "hw/enums-2d.h"
#include "hw/formats.h"
#include "hw/sifm.h"
#include "nvd/validate-priv.h"

/* 2D coordinates, sizes and surface pitches are 16-bit fields.  Above this
 * they read differently as signed and as unsigned numbers; no NV4x surface
 * is that large (4096 pixels), so both readings must agree. */
#define NVD_V2D_MAX 0x7fff

#define lo16 NV_2D_LO16
#define hi16 NV_2D_HI16

static int nvd_v2d_is(const struct nvd_vhobj *o, uint16_t cls)
{
	return o && o->kind == NVD_VH(NVD_VOBJ_GR) && o->cls == cls;
}

/* Values the engines would refuse are refused here too, so that no
 * operation reaches the card with them. */
static int nvd_v2d_operation(struct nvd_vctx *x, uint32_t op, const char *what)
{
#define NVD_V2D_OP_CASE_(nm, v) case (v):
	switch (op) {
	NV_2D_OPERATIONS(NVD_V2D_OP_CASE_)
		return 0;
	}
	return nvd_v_fail(x, EINVAL, "%s: unknown OPERATION %u", what, op);
}

static int nvd_v2d_surf_bpp(struct nvd_vctx *x, uint32_t fmt, const char *what, unsigned *bpp)
{
	*bpp = nv_surf_format_bpp(fmt);
	if (!*bpp)
		return nvd_v_fail(x, EINVAL, "%s: unknown surface format 0x%x", what, fmt);
	return 0;
}

/* A w x h rectangle at (rx, ry) of a linear surface at `off`. */
static int nvd_v2d_rect(struct nvd_vctx *x, const struct nvd_vhobj *dma, uint32_t off,
			uint32_t pitch, unsigned bpp, uint32_t rx, uint32_t ry, uint32_t w,
			uint32_t h, unsigned access, const char *what)
{
	if (!w || !h)
		return 0;
	if (rx > NVD_V2D_MAX || ry > NVD_V2D_MAX || w > NVD_V2D_MAX || h > NVD_V2D_MAX ||
	    pitch > NVD_V2D_MAX)
		return nvd_v_fail(x, EINVAL, "%s: coordinate, size or pitch above %u", what,
				  NVD_V2D_MAX);
	uint64_t start = (uint64_t)off + (uint64_t)ry * pitch + (uint64_t)rx * bpp;
	uint64_t len = (uint64_t)(h - 1) * pitch + (uint64_t)w * bpp;
	return nvd_v_extent(x, dma, start, len, access, what);
}

/* The 2D surface state (SURF2D) as the destination of GDI, BLIT and IFC. */
static int nvd_v2d_dst(struct nvd_vctx *x, uint32_t rx, uint32_t ry, uint32_t w, uint32_t h,
		       const char *what)
{
	const uint32_t *v = x->sh->val;
	unsigned bpp;
	int r = nvd_v2d_surf_bpp(x, v[NVD_W_SURF2D_FORMAT], what, &bpp);
	if (r)
		return r;
	return nvd_v2d_rect(x, nvd_v_obj(x, NV_TABLE_SURF2D, NV_SURF2D_DMA_IMAGE_DESTIN),
			    v[NVD_W_SURF2D_OFFSET_DESTIN], NV_SURF2D_PITCH_DESTIN(v[NVD_W_SURF2D_PITCH]), bpp,
			    rx, ry, w, h, NVD_ACCESS_WRITE, what);
}

/* M2MF lines: `count` lines of `bytes` at off + i * pitch (pitch signed). */
static int nvd_v2d_lines(struct nvd_vctx *x, const struct nvd_vhobj *dma, uint32_t off,
			 int32_t pitch, uint32_t count, uint64_t bytes, unsigned access,
			 const char *what)
{
	uint64_t apitch = pitch < 0 ? (uint64_t)(-(int64_t)pitch) : (uint64_t)pitch;
	uint64_t span = (uint64_t)(count - 1) * apitch;   /* < 2^63 */
	uint64_t start = off;

	if (pitch < 0) {
		if (span > off)
			return nvd_v_fail(x, EFAULT, "%s: lines start below offset 0", what);
		start = off - span;
	}
	return nvd_v_extent(x, dma, start, span + bytes, access, what);
}

static int nvd_v2d_inc_ok(uint32_t inc)
{
	return inc == 1 || inc == 2 || inc == 4;
}

/* BUF_NOTIFY starts the copy.  FORMAT increments (1, 2, 4) space the bytes of
 * a line (hw/enums-2d.h); a line of LINE_LENGTH_IN bytes is taken to span
 * length * increment bytes on either side: more than any reading of the
 * increments touches. */
int nvd_v2d_m2mf(struct nvd_vctx *x, unsigned elem, uint32_t data)
{
	const uint32_t *v = x->sh->val;
	uint32_t fmt = v[NVD_W_M2MF_FORMAT];
	uint32_t in = NV_M2MF_FORMAT_INPUT_INC(fmt), out = NV_M2MF_FORMAT_OUTPUT_INC(fmt);
	uint32_t len = v[NVD_W_M2MF_LINE_LENGTH_IN], count = v[NVD_W_M2MF_LINE_COUNT];
	int r;

	(void)elem;
	(void)data;
	if ((fmt & ~NV_M2MF_FORMAT_VALID_MASK) || !nvd_v2d_inc_ok(in) || !nvd_v2d_inc_ok(out))
		return nvd_v_fail(x, EINVAL, "M2MF FORMAT 0x%x: increments must be 1, 2 or 4", fmt);
	if (len > NV_M2MF_LINE_LENGTH_MAX || count > NV_M2MF_LINE_COUNT_MAX)
		return nvd_v_fail(x, EINVAL, "M2MF: %u lines of %u bytes: above what the engine takes",
				  count, len);
	if (!len || !count)
		return 0;
	const struct nvd_vhobj *din = nvd_v_obj(x, NV_TABLE_M2MF, NV_M2MF_DMA_BUFFER_IN);
	const struct nvd_vhobj *dout = nvd_v_obj(x, NV_TABLE_M2MF, NV_M2MF_DMA_BUFFER_OUT);
	r = nvd_v2d_lines(x, din, v[NVD_W_M2MF_OFFSET_IN], (int32_t)v[NVD_W_M2MF_PITCH_IN], count,
			  (uint64_t)len * in, NVD_ACCESS_READ, "M2MF input");
	if (r)
		return r;
	unsigned src = x->hint;
	r = nvd_v2d_lines(x, dout, v[NVD_W_M2MF_OFFSET_OUT], (int32_t)v[NVD_W_M2MF_PITCH_OUT], count,
			  (uint64_t)len * out, NVD_ACCESS_WRITE, "M2MF output");
	if (r)
		return r;
	/* a byte-for-byte copy between two buffers of the submission */
	int plain = in == 1 && out == 1 && (int32_t)v[NVD_W_M2MF_PITCH_IN] >= 0 &&
		    (int32_t)v[NVD_W_M2MF_PITCH_OUT] >= 0 && din && dout &&
		    din->kind != NVD_VH(NVD_VOBJ_DMA_BO) && dout->kind != NVD_VH(NVD_VOBJ_DMA_BO);
	if (plain && x->ncopies < sizeof(x->copies) / sizeof(x->copies[0]))
		x->copies[x->ncopies++] = (struct nvd_vcopy){
			src, x->hint, v[NVD_W_M2MF_OFFSET_IN], v[NVD_W_M2MF_OFFSET_OUT],
			v[NVD_W_M2MF_PITCH_IN], v[NVD_W_M2MF_PITCH_OUT], len, count };
	else
		x->copies_lost++;
	return 0;
}

/* UNCLIPPED_RECTANGLE_SIZE(i) fills POINT(i): X 31:16, Y 15:0; W 31:16, H 15:0. */
int nvd_v2d_gdi(struct nvd_vctx *x, unsigned elem, uint32_t size)
{
	const uint32_t *v = x->sh->val;
	uint32_t pt = v[NVD_W_GDI_UNCLIPPED_RECTANGLE_POINT + elem];
	int r;

	if (!nvd_v2d_is(nvd_v_obj(x, NV_TABLE_GDI, NV_GDI_SURFACE), NV_CLASS_SURF2D))
		return nvd_v_fail(x, EINVAL, "GDI SURFACE is not a SURF2D object");
	r = nvd_v2d_operation(x, v[NVD_W_GDI_OPERATION], "GDI");
	if (r)
		return r;
#define NVD_V2D_GDI_CASE_(nm, val, b) case (val):
	switch (v[NVD_W_GDI_COLOR_FORMAT]) {
	NV_GDI_COLOR_FORMATS(NVD_V2D_GDI_CASE_)
		break;
	default:
		return nvd_v_fail(x, EINVAL, "GDI: unknown COLOR_FORMAT %u", v[NVD_W_GDI_COLOR_FORMAT]);
	}
	return nvd_v2d_dst(x, hi16(pt), lo16(pt), hi16(size), lo16(size), "GDI rectangle");
}

/* SIZE copies POINT_IN to POINT_OUT: X 15:0, Y 31:16; W 15:0, H 31:16. */
int nvd_v2d_blit(struct nvd_vctx *x, unsigned elem, uint32_t size)
{
	const uint32_t *v = x->sh->val;
	uint32_t in = v[NVD_W_BLIT_POINT_IN], out = v[NVD_W_BLIT_POINT_OUT];
	unsigned bpp;
	int r;

	(void)elem;
	if (!nvd_v2d_is(nvd_v_obj(x, NV_TABLE_BLIT, NV_BLIT_SURFACES), NV_CLASS_SURF2D))
		return nvd_v_fail(x, EINVAL, "BLIT SURFACES is not a SURF2D object");
	r = nvd_v2d_operation(x, v[NVD_W_BLIT_OPERATION], "BLIT");
	if (r)
		return r;
	r = nvd_v2d_surf_bpp(x, v[NVD_W_SURF2D_FORMAT], "BLIT", &bpp);
	if (r)
		return r;
	r = nvd_v2d_rect(x, nvd_v_obj(x, NV_TABLE_SURF2D, NV_SURF2D_DMA_IMAGE_SOURCE),
			 v[NVD_W_SURF2D_OFFSET_SOURCE], NV_SURF2D_PITCH_SOURCE(v[NVD_W_SURF2D_PITCH]), bpp,
			 lo16(in), hi16(in), lo16(size), hi16(size), NVD_ACCESS_READ,
			 "BLIT source");
	if (r)
		return r;
	return nvd_v2d_dst(x, lo16(out), hi16(out), lo16(size), hi16(size), "BLIT destination");
}

/* A COLOR packet writes pixels of the rectangle POINT (X 15:0, Y 31:16),
 * SIZE_OUT (W 15:0, H 31:16) only, whatever its length. */
int nvd_v2d_ifc(struct nvd_vctx *x, unsigned elem, uint32_t data)
{
	const uint32_t *v = x->sh->val;
	uint32_t pt = v[NVD_W_IFC_POINT], sz = v[NVD_W_IFC_SIZE_OUT];

	int r;

	(void)elem;
	(void)data;
	if (!nvd_v2d_is(nvd_v_obj(x, NV_TABLE_IFC, NV_IFC_SURFACE), NV_CLASS_SURF2D))
		return nvd_v_fail(x, EINVAL, "IFC SURFACE is not a SURF2D object");
	r = nvd_v2d_operation(x, v[NVD_W_IFC_OPERATION], "IFC");
	if (r)
		return r;
	if (!nv_ifc_color_format_bpp(v[NVD_W_IFC_COLOR_FORMAT]))
		return nvd_v_fail(x, EINVAL, "IFC: unknown COLOR_FORMAT %u", v[NVD_W_IFC_COLOR_FORMAT]);
	return nvd_v2d_dst(x, lo16(pt), hi16(pt), lo16(sz), hi16(sz), "IFC destination");
}

/* POINT draws OUT (clipped) from the SIZE image: the window of pixels
 * drawn and of texels sampled is hw/sifm.h's, the simulator's own. */
int nvd_v2d_sifm(struct nvd_vctx *x, unsigned elem, uint32_t data)
{
	const uint32_t *v = x->sh->val;
	uint32_t sz = v[NVD_W_SIFM_SIZE];
	unsigned bpp = nv_sifm_color_format_bpp(v[NVD_W_SIFM_COLOR_FORMAT]);
	unsigned lw = 0, lh = 0, dbpp = 0;
	int r;

	(void)elem;
	if (!bpp)
		return nvd_v_fail(x, EINVAL, "SIFM: unknown colour format 0x%x",
				  v[NVD_W_SIFM_COLOR_FORMAT]);
	r = nvd_v2d_operation(x, v[NVD_W_SIFM_OPERATION], "SIFM");
	if (r)
		return r;
	if (!lo16(sz) || !hi16(sz) || (lo16(sz) & 1) || lo16(sz) > NV_SIFM_SIZE_MAX ||
	    hi16(sz) > NV_SIFM_SIZE_MAX)
		return nvd_v_fail(x, EINVAL, "SIFM SIZE %ux%u: not an even width and a height of 1 "
				  "to %u", lo16(sz), hi16(sz), NV_SIFM_SIZE_MAX);
	const struct nvd_vhobj *s = nvd_v_obj(x, NV_TABLE_SIFM, NV_SIFM_SURFACE);
	int swz = nvd_v2d_is(s, NV_CLASS_SWZSURF);
	if (swz) {
		/* swizzled: FORMAT colour 15:0, log2 width 23:16, log2 height 31:24 */
		uint32_t f = v[NVD_W_SWZSURF_FORMAT];
		lw = NV_SWZSURF_FORMAT_LOG2W(f);
		lh = NV_SWZSURF_FORMAT_LOG2H(f);
		r = nvd_v2d_surf_bpp(x, NV_SWZSURF_FORMAT_COLOR(f), "SIFM swizzled destination", &dbpp);
		if (r)
			return r;
		if (lw > NV_SWZSURF_LOG2_MAX || lh > NV_SWZSURF_LOG2_MAX)
			return nvd_v_fail(x, EINVAL, "SIFM swizzled destination: 2^%u x 2^%u texels",
					  lw, lh);
	} else if (!nvd_v2d_is(s, NV_CLASS_SURF2D)) {
		return nvd_v_fail(x, EINVAL, "SIFM SURFACE is not a SURF2D or SWZSURF object");
	}
	struct nv_sifm_window win;
	if (!nv_sifm_window(sz, v[NVD_W_SIFM_FORMAT], v[NVD_W_SIFM_COLOR_FORMAT],
			    v[NVD_W_SIFM_OUT_POINT], v[NVD_W_SIFM_OUT_SIZE], v[NVD_W_SIFM_CLIP_POINT],
			    v[NVD_W_SIFM_CLIP_SIZE], v[NVD_W_SIFM_DU_DX], v[NVD_W_SIFM_DV_DY], data,
			    swz, lw, lh, &win))
		return 0;
	r = nvd_v2d_rect(x, nvd_v_obj(x, NV_TABLE_SIFM, NV_SIFM_DMA_IMAGE), v[NVD_W_SIFM_OFFSET],
			 NV_SIFM_FORMAT_PITCH(v[NVD_W_SIFM_FORMAT]), bpp, win.ulo, win.vlo,
			 win.uhi - win.ulo + 1, win.vhi - win.vlo + 1, NVD_ACCESS_READ, "SIFM source");
	if (r)
		return r;
	if (!swz)
		return nvd_v2d_dst(x, (uint32_t)win.r.x, (uint32_t)win.r.y, win.r.w, win.r.h,
				   "SIFM destination");
	/* every texel inside the 2^lw x 2^lh surface lands inside its bytes */
	return nvd_v_extent(x, nvd_v_obj(x, NV_TABLE_SWZSURF, NV_SWZSURF_DMA_IMAGE),
			    v[NVD_W_SWZSURF_OFFSET], (uint64_t)dbpp << (lw + lh), NVD_ACCESS_WRITE,
			    "SIFM swizzled destination");
}
