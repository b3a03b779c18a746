/* The 3D engine for Render, as nouveau's DDX drives it on NV40
 * (NVAccelInitNV40TCL): the 3D object on subchannel 7, the state set once,
 * a vertex program that passes positions through and makes each texture
 * unit's coordinates from its picture transform, and six fragment
 * programs in a scratch buffer (a source alone, source times mask alpha,
 * component alpha, a8 destinations).  The scratch buffer also holds the
 * 1x1 textures of solid pictures, written by the CPU into a ring of slots.
 *
 * Every program here is built from the ISA's fields (hw/vp-isa.h,
 * hw/fp-isa.h).  nvd copies a fragment program to a buffer of its own at
 * each bind and runs it only up to its END bit; the programs never change
 * after they are written, before the first submission. */
#include <endian.h>
#include <string.h>

#include "ddx/nvdx.h"

#include "hw/chips.h"
#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"
#include "hw/fp-isa.h"
#include "hw/methods.h"
#include "hw/vp-isa.h"

#define SCRATCH_BYTES (128 * 1024)

/* ---- the fragment programs ---- */

/* Source operands: a temp or the interpolated input the instruction names,
 * with a swizzle. */
static uint32_t fp_temp(unsigned reg, unsigned swz)
{
	return NV40_FP_SRC_SET(TYPE, NV40_FP_SRC_TEMP) | NV40_FP_SRC_SET(REG, reg) |
	       NV40_FP_SRC_SET(SWZ, swz);
}

static uint32_t fp_input(void)
{
	return NV40_FP_SRC_SET(TYPE, NV40_FP_SRC_INPUT) |
	       NV40_FP_SRC_SET(SWZ, NV40_FP_SWZ_IDENTITY);
}

#define SWZ_W 0xffu                  /* .wwww */
#define MASK_XYZW 0xfu
#define MASK_W 0x8u

/* op rDST.mask, s0[, s1] at fp32, always executed; tex ops read texture
 * coordinate set `unit` from its texture unit. */
static void fp_insn(uint32_t *w, unsigned op, unsigned dst, unsigned mask, uint32_t s0,
		    uint32_t s1, int unit, int end)
{
	memset(w, 0, NV40_FP_INSN_BYTES);
	NV40_FP_SET(w, OPCODE, op);
	NV40_FP_SET(w, DST, dst);
	NV40_FP_SET(w, MASK, mask);
	NV40_FP_SET(w, PRECISION, NV40_FP_PREC_FP32);
	NV40_FP_SET(w, END, end);
	if (unit >= 0) {
		NV40_FP_SET(w, TEX_UNIT, unit);
		NV40_FP_SET(w, INPUT, NV40_FP_INPUT_TC0 + unit);
	}
	NV40_FP_SET(w, COND, NV40_FP_COND_TR);
	NV40_FP_SET(w, COND_SWZ, NV40_FP_SWZ_IDENTITY);
	NV40_FP_SET(w, SRC0, s0);
	NV40_FP_SET(w, SRC1, s1);
}

/* Three instructions at most: two fetches and their product, or a fetch
 * and a move (a program's last instruction is never a fetch, as in
 * nouveau's). */
struct fp_prog {
	unsigned n;
	uint32_t w[3][NV40_FP_INSN_WORDS];
};

static void fp_tex(struct fp_prog *p, unsigned dst, unsigned mask, unsigned unit)
{
	fp_insn(p->w[p->n++], NV40_FP_OP_TXP, dst, mask, fp_input(), 0, (int)unit, 0);
}

static void fp_last(struct fp_prog *p, unsigned op, uint32_t s0, uint32_t s1)
{
	fp_insn(p->w[p->n++], op, 0, MASK_XYZW, s0, s1, -1, 1);
}

/* The result is r0.  Unit 0 samples the source, unit 1 the mask. */
static void fp_build(unsigned which, struct fp_prog *p)
{
	p->n = 0;
	switch (which) {
	case NVDX_FP_S:              /* src */
		fp_tex(p, 0, MASK_XYZW, 0);
		fp_last(p, NV40_FP_OP_MOV, fp_temp(0, NV40_FP_SWZ_IDENTITY), 0);
		break;
	case NVDX_FP_S_A8:           /* src.a, for the blue channel of a B8 target */
		fp_tex(p, 0, MASK_W, 0);
		fp_last(p, NV40_FP_OP_MOV, fp_temp(0, SWZ_W), 0);
		break;
	case NVDX_FP_C:              /* src * mask.a */
		fp_tex(p, 1, MASK_W, 1);
		fp_tex(p, 0, MASK_XYZW, 0);
		fp_last(p, NV40_FP_OP_MUL, fp_temp(0, NV40_FP_SWZ_IDENTITY), fp_temp(1, SWZ_W));
		break;
	case NVDX_FP_C_A8:           /* src.a * mask.a */
		fp_tex(p, 1, MASK_W, 1);
		fp_tex(p, 0, MASK_W, 0);
		fp_last(p, NV40_FP_OP_MUL, fp_temp(0, SWZ_W), fp_temp(1, SWZ_W));
		break;
	case NVDX_FP_CCA:            /* src * mask, per channel */
		fp_tex(p, 0, MASK_XYZW, 0);
		fp_tex(p, 1, MASK_XYZW, 1);
		fp_last(p, NV40_FP_OP_MUL, fp_temp(0, NV40_FP_SWZ_IDENTITY),
			fp_temp(1, NV40_FP_SWZ_IDENTITY));
		break;
	default:                     /* NVDX_FP_CCASA: src.a * mask, per channel */
		fp_tex(p, 1, MASK_W, 0);
		fp_tex(p, 0, MASK_XYZW, 1);
		fp_last(p, NV40_FP_OP_MUL, fp_temp(1, SWZ_W), fp_temp(0, NV40_FP_SWZ_IDENTITY));
		break;
	}
}

/* ---- the vertex program ---- */

/* Attribute 0 is the position in pixels (w = 1), attributes 8 and 9 the
 * source and mask coordinates in pixels (VTX_ATTR_2I: z = 0, w = 1).
 * Texture coordinate set u is (c[4u] . a, c[4u+1] . a, -, c[4u+2] . a):
 * the rows of the picture's transform scaled to the texture's size, which
 * the fragment program's TXP divides by w. */
enum { VP_ATTR_POS = 0, VP_ATTR_SRC = 8, VP_ATTR_MASK = 9 };

static void vp_insn(uint32_t o[4], unsigned op, unsigned dest, unsigned mask, unsigned input,
		    int cst, int last)
{
	uint32_t in = nv40_vp_src_make(NV40_VP_SRC_INPUT, 0, NV40_VP_SWZ_IDENTITY, 0);
	uint32_t c = nv40_vp_src_make(NV40_VP_SRC_CONST, 0, NV40_VP_SWZ_IDENTITY, 0);

	nv40_vp_vec_to_output(o, op, dest, mask, in, cst >= 0 ? c : 0, input,
			      cst >= 0 ? (unsigned)cst : 0, last);
}

#define VP_INSNS 7
#define VPM_X 0x8u
#define VPM_Y 0x4u
#define VPM_W 0x1u
#define VPM_XYZW 0xfu

static void vp_build(uint32_t prog[VP_INSNS][4])
{
	static const unsigned comp[3] = { VPM_X, VPM_Y, VPM_W };
	unsigned n = 0;

	vp_insn(prog[n++], NV40_VP_VEC_MOV, NV40_VP_OUT_POS, VPM_XYZW, VP_ATTR_POS, -1, 0);
	for (unsigned u = 0; u < 2; u++)
		for (unsigned r = 0; r < 3; r++, n++)
			vp_insn(prog[n], NV40_VP_VEC_DP4, NV40_VP_OUT_TC0 + u, comp[r],
				u ? VP_ATTR_MASK : VP_ATTR_SRC, (int)(4 * u + r), n == VP_INSNS - 1);
}

/* ---- the one-time state ---- */

static void mthd1(struct nvdx_push *p, uint32_t mthd, uint32_t v)
{
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, mthd, 1);
	nvc_pushbuf_data(p->pb, v);
}

void nvdx_push_float(struct nvdx_push *p, float f)
{
	uint32_t v;
	memcpy(&v, &f, 4);
	nvc_pushbuf_data(p->pb, v);
}

static void emit_init(struct nvdx_push *p, uint32_t vram)
{
	static const float vp_translate[4] = { 0, 0, 0, 0 }, vp_scale[4] = { 1, 1, 1, 0 };
	uint32_t vp[VP_INSNS][4];

	nvdx_push_space(p, 256, 0, 0);
	mthd1(p, NV_FIFO_OBJECT, NVDX_H_3D);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, NV_CURIE_DMA_TEXTURE0, 2);
	nvc_pushbuf_data(p->pb, vram);
	nvc_pushbuf_data(p->pb, vram);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, NV_CURIE_DMA_COLOR0, 2);
	nvc_pushbuf_data(p->pb, vram);
	nvc_pushbuf_data(p->pb, vram);

	/* undocumented: the values nouveau's DDX (and Mesa) write once for the
	 * hardware's zcull and vertex program output routing */
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, NV_CURIE_UNK1EA4, 3);
	nvc_pushbuf_data(p->pb, 0x00000010);
	nvc_pushbuf_data(p->pb, 0x01000100);
	nvc_pushbuf_data(p->pb, 0xff800006);
	mthd1(p, NV_CURIE_UNK1FC4, 0x06144321);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, NV_CURIE_UNK1FC8, 2);
	nvc_pushbuf_data(p->pb, 0xedcba987);
	nvc_pushbuf_data(p->pb, 0x00000021);
	mthd1(p, NV_CURIE_UNK1FD0, 0x00171615);
	mthd1(p, NV_CURIE_UNK1FD4, 0x001b1a19);
	mthd1(p, NV_CURIE_UNK1EF8, 0x0020ffff);
	mthd1(p, NV_CURIE_UNK1D64, 0x00d30000);
	mthd1(p, NV_CURIE_ENGINE, NV40_ENGINE_FP);
	mthd1(p, NV_CURIE_FP_REG_CONTROL, 0xf);   /* nouveau: as the blob sets up NV43 */

	/* positions are pixels: the viewport is the identity */
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, NV_CURIE_VIEWPORT_TRANSLATE, 8);
	for (unsigned i = 0; i < 4; i++)
		nvdx_push_float(p, vp_translate[i]);
	for (unsigned i = 0; i < 4; i++)
		nvdx_push_float(p, vp_scale[i]);

	/* a plain pipeline: no tests, no culling, blend set per operation */
	mthd1(p, NV_CURIE_STENCIL_ENABLE, 0);
	mthd1(p, NV_CURIE_STENCIL_ENABLE + NV_CURIE_STENCIL_ENABLE__STRIDE, 0);
	mthd1(p, NV_CURIE_ALPHA_FUNC_ENABLE, 0);
	mthd1(p, NV_CURIE_DEPTH_WRITE_ENABLE, 0);
	mthd1(p, NV_CURIE_DEPTH_TEST_ENABLE, 0);
	mthd1(p, NV_CURIE_COLOR_MASK, NV40_COLOR_MASK_A | NV40_COLOR_MASK_R | NV40_COLOR_MASK_G |
					      NV40_COLOR_MASK_B);
	mthd1(p, NV_CURIE_CULL_FACE_ENABLE, 0);
	mthd1(p, NV_CURIE_BLEND_FUNC_ENABLE, 0);
	mthd1(p, NV_CURIE_COLOR_LOGIC_OP_ENABLE, 0);
	mthd1(p, NV_CURIE_DITHER_ENABLE, 0);
	mthd1(p, NV_CURIE_SHADE_MODEL, NV40_SHADE_SMOOTH);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, NV_CURIE_POLYGON_MODE_FRONT, 2);
	nvc_pushbuf_data(p->pb, NV40_POLYGON_MODE_FILL);
	nvc_pushbuf_data(p->pb, NV40_POLYGON_MODE_FILL);
	mthd1(p, NV_CURIE_POLYGON_STIPPLE_ENABLE, 0);
	for (unsigned i = 0; i < 16; i++)
		mthd1(p, NV_CURIE_TEX_ENABLE + i * NV_CURIE_TEX_ENABLE__STRIDE, 0);
	mthd1(p, NV_CURIE_RT_ENABLE, NV40_RT_ENABLE_COLOR(0));
	/* the scissor is per rectangle, the render target per destination */
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, NV_CURIE_VIEWPORT_HORIZ, 2);
	nvc_pushbuf_data(p->pb, NVDX_3D_MAX << 16);
	nvc_pushbuf_data(p->pb, NVDX_3D_MAX << 16);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, NV_CURIE_VIEWPORT_CLIP_HORIZ, 2);
	nvc_pushbuf_data(p->pb, (NVDX_3D_MAX - 1) << 16);
	nvc_pushbuf_data(p->pb, (NVDX_3D_MAX - 1) << 16);

	vp_build(vp);
	mthd1(p, NV_CURIE_VP_UPLOAD_FROM_ID, 0);
	for (unsigned i = 0; i < VP_INSNS; i++) {
		nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, NV_CURIE_VP_UPLOAD_INST, 4);
		for (unsigned k = 0; k < 4; k++)
			nvc_pushbuf_data(p->pb, vp[i][k]);
	}
	mthd1(p, NV_CURIE_VP_START_FROM_ID, 0);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, NV_CURIE_VP_ATTRIB_EN, 2);
	nvc_pushbuf_data(p->pb, 1u << VP_ATTR_POS | 1u << VP_ATTR_SRC | 1u << VP_ATTR_MASK);
	nvc_pushbuf_data(p->pb, NV40_VP_RESULT_TC(0) | NV40_VP_RESULT_TC(1));
}

/* ---- the scratch buffer ---- */

uint32_t nvdx_3d_solid(struct nvdx *nx, uint32_t argb)
{
	struct nvdx_3d *t = &nx->t3d;

	if (t->solid_last && t->solid_argb == argb)
		return t->solid_last;
	uint32_t at = t->solid_next;
	if (at + NVDX_3D_SLOT > SCRATCH_BYTES) {
		/* the ring is used up: the card must be done reading it */
		nvdx_push_sync(&nx->push, t->scratch, NVDX_SYNC_RW);
		at = NVDX_3D_SOLID_BASE;
	}
	t->map[at / 4] = htole32(argb);
	t->solid_next = at + NVDX_3D_SLOT;
	t->solid_last = at;
	t->solid_argb = argb;
	return at;
}

Bool nvdx_3d_init(ScrnInfoPtr scrn, unsigned chipset)
{
	struct nvdx *nx = nvdx(scrn);
	struct nvdx_3d *t = &nx->t3d;
	const struct nv_chip *chip = nv_chip_by_chipset(chipset);

	memset(t, 0, sizeof(*t));
	if (!chip)
		chip = nv_chip_family_default(chipset);
	if (nvc_obj_new(nx->push.ch, NVDX_H_3D, chip->gr_class) < 0 ||
	    nvc_bo_new(nx->c, SCRATCH_BYTES, NVC_VRAM, &t->scratch) < 0 ||
	    !(t->map = nvc_bo_map(t->scratch))) {
		xf86DrvMsg(scrn->scrnIndex, X_WARNING, "Render in software: no 3D engine: %s\n",
			   nvc_error());
		nvdx_3d_fini(scrn);
		return FALSE;
	}
	for (unsigned i = 0; i < NVDX_FP_COUNT; i++) {
		struct fp_prog fp;
		fp_build(i, &fp);
		for (unsigned k = 0; k < fp.n; k++)
			for (unsigned j = 0; j < NV40_FP_INSN_WORDS; j++)
				t->map[(i * NVDX_3D_SLOT + k * NV40_FP_INSN_BYTES) / 4 + j] =
					htole32(fp.w[k][j]);
	}
	t->solid_next = NVDX_3D_SOLID_BASE;
	emit_init(&nx->push, nvc_chan_vram_dma(nx->push.ch));
	t->ok = TRUE;
	return TRUE;
}

void nvdx_3d_fini(ScrnInfoPtr scrn)
{
	struct nvdx_3d *t = &nvdx(scrn)->t3d;

	if (t->scratch)
		nvc_bo_free(t->scratch);
	memset(t, 0, sizeof(*t));
}
