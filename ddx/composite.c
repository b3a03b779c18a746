/* Render's Composite on the 3D engine, as nouveau's DDX does it on NV40
 * (nv40_exa.c): the destination is the render target, the source and the
 * mask are texture units 0 and 1 (a solid picture is a 1x1 repeating
 * texture in the scratch buffer), one of the fragment programs of 3d.c
 * multiplies them, the blender applies the operator, and each rectangle is
 * one large triangle cut down to the rectangle by the scissor.
 *
 * Left to software (fb, through EXA), each counted by reason in the Xorg
 * log: operators from Saturate up (the blender has no saturate-add of
 * alpha, nor the disjoint and conjoint modes); formats the texture units or
 * the render target cannot read or write as Render means them; pictures or
 * destinations over 4096 pixels; filters other than nearest and bilinear;
 * gradients; a component-alpha mask with an operator that needs the
 * source's alpha and colour at once (EXA then tries Over as OutReverse +
 * Add); an XRGB picture sampled outside itself (transformed, not
 * repeating), where the texture unit would give opaque black for Render's
 * transparent; a window picture that repeats or is transformed (the
 * texture is the whole screen, its coordinates the screen's). */
#include <string.h>

#include "ddx/nvdx.h"

#include <exa.h>
#include <picturestr.h>

#include "hw/enums-3d.h"
#include "hw/enums-3d-pipe.h"
#include "hw/fp-isa.h"
#include "hw/methods.h"
#include "hw/tex.h"

/* ---- formats ---- */

static const struct { PictFormatShort pict; unsigned rt; } dst_formats[] = {
	{ PICT_a8r8g8b8, NV40_RT_COLOR_A8R8G8B8 },
	/* X = 0 where the card writes it: fb leaves it 0 too */
	{ PICT_x8r8g8b8, NV40_RT_COLOR_X8R8G8B8_Z8R8G8B8 },
	{ PICT_r5g6b5, NV40_RT_COLOR_R5G6B5 },
	/* an a8 picture is the blue channel of a B8 target */
	{ PICT_a8, NV40_RT_COLOR_B8 },
};

/* Texel channels as the unit names them (X the lowest bits), or a
 * constant. */
enum { CH_X, CH_Y, CH_Z, CH_W, CH_ONE, CH_ZERO };

static const struct {
	PictFormatShort pict;
	unsigned code;
	unsigned char r, g, b, a;
} tex_formats[] = {
	{ PICT_a8r8g8b8, NV40_TEX_FMT_A8R8G8B8, CH_Z, CH_Y, CH_X, CH_W },
	{ PICT_x8r8g8b8, NV40_TEX_FMT_A8R8G8B8, CH_Z, CH_Y, CH_X, CH_ONE },
	{ PICT_x8b8g8r8, NV40_TEX_FMT_A8R8G8B8, CH_X, CH_Y, CH_Z, CH_ONE },
	{ PICT_a1r5g5b5, NV40_TEX_FMT_A1R5G5B5, CH_Z, CH_Y, CH_X, CH_W },
	{ PICT_x1r5g5b5, NV40_TEX_FMT_A1R5G5B5, CH_Z, CH_Y, CH_X, CH_ONE },
	{ PICT_r5g6b5, NV40_TEX_FMT_R5G6B5, CH_Z, CH_Y, CH_X, CH_ONE },
	{ PICT_a8, NV40_TEX_FMT_L8, CH_ZERO, CH_ZERO, CH_ZERO, CH_X },
};
#define NFORMATS(t) (sizeof(t) / sizeof((t)[0]))

static int dst_format(PictFormatShort f)
{
	for (unsigned i = 0; i < NFORMATS(dst_formats); i++)
		if (dst_formats[i].pict == f)
			return (int)i;
	return -1;
}

static int tex_format(PictFormatShort f)
{
	for (unsigned i = 0; i < NFORMATS(tex_formats); i++)
		if (tex_formats[i].pict == f)
			return (int)i;
	return -1;
}

static uint32_t swz_one(unsigned out, unsigned ch)
{
	if (ch == CH_ONE)
		return NV40_TEX_SWZ(out, NV40_TEX_SWZ_ONE, 0);
	if (ch == CH_ZERO)
		return NV40_TEX_SWZ(out, NV40_TEX_SWZ_ZERO, 0);
	return NV40_TEX_SWZ(out, NV40_TEX_SWZ_COMPONENT, 3 - ch);   /* codes count from W */
}

static uint32_t tex_swizzle(int i)
{
	return swz_one(0, tex_formats[i].r) | swz_one(1, tex_formats[i].g) |
	       swz_one(2, tex_formats[i].b) | swz_one(3, tex_formats[i].a);
}

/* ---- operators ---- */

/* Render's factors for Clear .. Add, applied to colour and alpha alike;
 * whether they read the source's or the destination's alpha. */
static const struct { uint16_t src, dst; } ops[] = {
	[PictOpClear] = { NV40_BF_ZERO, NV40_BF_ZERO },
	[PictOpSrc] = { NV40_BF_ONE, NV40_BF_ZERO },
	[PictOpDst] = { NV40_BF_ZERO, NV40_BF_ONE },
	[PictOpOver] = { NV40_BF_ONE, NV40_BF_ONE_MINUS_SRC_ALPHA },
	[PictOpOverReverse] = { NV40_BF_ONE_MINUS_DST_ALPHA, NV40_BF_ONE },
	[PictOpIn] = { NV40_BF_DST_ALPHA, NV40_BF_ZERO },
	[PictOpInReverse] = { NV40_BF_ZERO, NV40_BF_SRC_ALPHA },
	[PictOpOut] = { NV40_BF_ONE_MINUS_DST_ALPHA, NV40_BF_ZERO },
	[PictOpOutReverse] = { NV40_BF_ZERO, NV40_BF_ONE_MINUS_SRC_ALPHA },
	[PictOpAtop] = { NV40_BF_DST_ALPHA, NV40_BF_ONE_MINUS_SRC_ALPHA },
	[PictOpAtopReverse] = { NV40_BF_ONE_MINUS_DST_ALPHA, NV40_BF_SRC_ALPHA },
	[PictOpXor] = { NV40_BF_ONE_MINUS_DST_ALPHA, NV40_BF_ONE_MINUS_SRC_ALPHA },
	[PictOpAdd] = { NV40_BF_ONE, NV40_BF_ONE },
};

static int op_src_alpha(int op)
{
	return ops[op].dst == NV40_BF_SRC_ALPHA || ops[op].dst == NV40_BF_ONE_MINUS_SRC_ALPHA;
}

static Bool ca_mask(PicturePtr mask)
{
	return mask && mask->componentAlpha && PICT_FORMAT_RGB(mask->format);
}

/* ---- the prepared operation ---- */

struct unit {
	struct nvc_bo *bo;
	uint32_t offset, format, wrap, swizzle, filter, size, pitch;
	float c[3][4];                 /* the vertex program's constants */
};

static struct {
	struct nvc_bo *dst;
	uint32_t rt_format, pitch, w, h;
	Bool blend;                    /* else the source is written as it is */
	uint32_t blend_src, blend_dst; /* BLEND_FUNC_SRC/DST */
	unsigned nunits;
	struct unit unit[2];
	uint32_t fp;                   /* the program's scratch offset */
	uint32_t gen;
} cs;

#define STATE_WORDS 96
#define RECT_WORDS 24

static void mthd(struct nvdx_push *p, uint32_t m, unsigned n)
{
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_3D, m, n);
}

/* The whole state again: nvd checks each submission with its own buffer
 * list, so every address is written again in a new one. */
static void emit_state(struct nvdx *nx)
{
	struct nvdx_push *p = &nx->push;

	if (cs.blend) {
		mthd(p, NV_CURIE_BLEND_FUNC_ENABLE, 5);
		nvc_pushbuf_data(p->pb, 1);
		nvc_pushbuf_data(p->pb, cs.blend_src);
		nvc_pushbuf_data(p->pb, cs.blend_dst);
		nvc_pushbuf_data(p->pb, 0);
		nvc_pushbuf_data(p->pb, (uint32_t)NV40_BEQ_FUNC_ADD << 16 | NV40_BEQ_FUNC_ADD);
	} else {
		mthd(p, NV_CURIE_BLEND_FUNC_ENABLE, 1);
		nvc_pushbuf_data(p->pb, 0);
	}
	mthd(p, NV_CURIE_RT_HORIZ, 5);
	nvc_pushbuf_data(p->pb, cs.w << 16);
	nvc_pushbuf_data(p->pb, cs.h << 16);
	nvc_pushbuf_data(p->pb, cs.rt_format);
	nvc_pushbuf_data(p->pb, cs.pitch);
	nvc_pushbuf_reloc(p->pb, cs.dst, NVC_READ | NVC_WRITE | NVC_IN_VRAM,
			  (struct nvc_reloc){ .flags = NVC_RELOC_LOW });
	for (unsigned u = 0; u < 2; u++) {
		const struct unit *t = &cs.unit[u];
		if (u >= cs.nunits) {
			mthd(p, NV_CURIE_TEX_ENABLE + u * NV_CURIE_TEX_ENABLE__STRIDE, 1);
			nvc_pushbuf_data(p->pb, 0);
			continue;
		}
		mthd(p, NV_CURIE_TEX_OFFSET + u * NV_CURIE_TEX_OFFSET__STRIDE, 8);
		nvc_pushbuf_reloc(p->pb, t->bo, NVC_READ | NVC_IN_VRAM,
				  (struct nvc_reloc){ .flags = NVC_RELOC_LOW, .data = t->offset });
		nvc_pushbuf_data(p->pb, t->format);
		nvc_pushbuf_data(p->pb, t->wrap);
		nvc_pushbuf_data(p->pb, NV40_TEX_ENABLE_ON);
		nvc_pushbuf_data(p->pb, t->swizzle);
		nvc_pushbuf_data(p->pb, t->filter);
		nvc_pushbuf_data(p->pb, t->size);
		nvc_pushbuf_data(p->pb, 0);                      /* border: transparent black */
		mthd(p, NV_CURIE_TEX_SIZE1 + u * NV_CURIE_TEX_SIZE1__STRIDE, 1);
		nvc_pushbuf_data(p->pb, 1u << NV40_TEX_SIZE1_DEPTH_SHIFT | t->pitch);
		mthd(p, NV_CURIE_VP_UPLOAD_CONST_ID, 13);
		nvc_pushbuf_data(p->pb, 4 * u);
		for (unsigned r = 0; r < 3; r++)
			for (unsigned k = 0; k < 4; k++)
				nvdx_push_float(p, t->c[r][k]);
	}
	mthd(p, NV_CURIE_FP_ACTIVE_PROGRAM, 1);
	nvc_pushbuf_reloc(p->pb, nx->t3d.scratch, NVC_READ | NVC_IN_VRAM,
			  (struct nvc_reloc){ .flags = NVC_RELOC_LOW,
					      .data = cs.fp | NV40_FP_PROGRAM_DMA0 });
	mthd(p, NV_CURIE_FP_CONTROL, 1);
	nvc_pushbuf_data(p->pb, 2u << NV40_FP_CONTROL_TEMP_COUNT_SHIFT);   /* r0, r1 */
	/* nouveau: a texture cache flush, else text comes out garbled */
	mthd(p, NV_CURIE_TEX_CACHE_CTL, 1);
	nvc_pushbuf_data(p->pb, 2);
	mthd(p, NV_CURIE_TEX_CACHE_CTL, 1);
	nvc_pushbuf_data(p->pb, 1);
	cs.gen = p->gen;
}

/* ---- Check ---- */

static Bool refuse(ScreenPtr screen, enum nvdx_refusal why)
{
	nvdx(xf86ScreenToScrn(screen))->stats.refused[why]++;
	return FALSE;
}

static Bool check_picture(ScreenPtr screen, PicturePtr pict, int op, PicturePtr dst, Bool is_mask)
{
	if (pict->pDrawable) {
		if (pict->pDrawable->width > NVDX_3D_MAX || pict->pDrawable->height > NVDX_3D_MAX)
			return refuse(screen, NVDX_REF_SIZE);
		if (pict->pDrawable->type != DRAWABLE_PIXMAP && (pict->repeat || pict->transform))
			return refuse(screen, NVDX_REF_WINDOW);
	} else if (pict->pSourcePict->type != SourcePictTypeSolidFill) {
		return refuse(screen, NVDX_REF_GRADIENT);
	}
	if (tex_format(pict->format) < 0)
		return refuse(screen, NVDX_REF_FORMAT);
	if (pict->filter != PictFilterNearest && pict->filter != PictFilterBilinear)
		return refuse(screen, NVDX_REF_FILTER);
	/* outside itself an XRGB picture is transparent to Render, opaque to
	 * the unit: it matters for a mask always, for a source when the
	 * operator or the destination reads its alpha */
	if (pict->transform && !pict->repeat && !PICT_FORMAT_A(pict->format) &&
	    (is_mask || op_src_alpha(op) || PICT_FORMAT_A(dst->format)))
		return refuse(screen, NVDX_REF_XRGB_BORDER);
	return TRUE;
}

static Bool nvdx_check_composite(int op, PicturePtr src, PicturePtr mask, PicturePtr dst)
{
	ScreenPtr screen = dst->pDrawable->pScreen;

	if (op < 0 || op > PictOpAdd)
		return refuse(screen, NVDX_REF_OP);
	if (dst_format(dst->format) < 0)
		return refuse(screen, NVDX_REF_DST_FORMAT);
	/* a component-alpha source factor would need the source's colour and
	 * its alpha times the mask at once: only ZERO is possible */
	if (ca_mask(mask) && op_src_alpha(op) && ops[op].src != NV40_BF_ZERO)
		return refuse(screen, NVDX_REF_CA_SRC_ALPHA);
	return check_picture(screen, src, op, dst, FALSE) &&
	       (!mask || check_picture(screen, mask, op, dst, TRUE));
}

/* ---- Prepare ---- */

/* Why the engine cannot use the pixmap, or NVDX_REF_COUNT when it can. */
static enum nvdx_refusal pixmap_unusable(PixmapPtr pix)
{
	struct nvdx_pixmap *np = nvdx_pixmap(pix);
	if (!np || !np->bo)
		return NVDX_REF_PIXMAP;
	if (pix->drawable.width > NVDX_3D_MAX || pix->drawable.height > NVDX_3D_MAX)
		return NVDX_REF_SIZE;    /* a screen of two heads side by side */
	return NVDX_REF_COUNT;
}

static void unit_constants(struct unit *t, PictTransformPtr m, float w, float h)
{
	const float scale[3] = { 1.0f / w, 1.0f / h, 1 };

	/* rows (m00, m01, 0, m02) ... dotted with (x, y, 0, 1) */
	for (unsigned r = 0; r < 3; r++) {
		float row[3];
		for (unsigned k = 0; k < 3; k++)
			row[k] = m ? (float)pixman_fixed_to_double(m->matrix[r][k]) : (r == k);
		t->c[r][0] = row[0] * scale[r];
		t->c[r][1] = row[1] * scale[r];
		t->c[r][2] = 0;
		t->c[r][3] = row[2] * scale[r];
	}
}

static const uint32_t wraps[] = {
	[RepeatNone] = NV40_TEX_WRAP_CLAMP_TO_BORDER,
	[RepeatNormal] = NV40_TEX_WRAP_REPEAT,
	[RepeatPad] = NV40_TEX_WRAP_CLAMP_TO_EDGE,
	[RepeatReflect] = NV40_TEX_WRAP_MIRRORED_REPEAT,
};

static uint32_t wrap_word(uint32_t mode)
{
	return mode << NV40_TEX_WRAP_S_SHIFT | mode << NV40_TEX_WRAP_T_SHIFT |
	       mode << NV40_TEX_WRAP_R_SHIFT;
}

static uint32_t format_word(unsigned code)
{
	return code << NV40_TEX_FORMAT_FORMAT_SHIFT | NV40_TEX_FORMAT_LINEAR |
	       2u << NV40_TEX_FORMAT_DIMS_SHIFT | NV40_TEX_FORMAT_UNK15 |
	       NV40_TEX_FORMAT_NO_BORDER | 1u << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT |
	       NV40_TEX_FORMAT_DMA0;
}

static uint32_t filter_word(unsigned f)
{
	return f << NV40_TEX_FILTER_MIN_SHIFT | f << NV40_TEX_FILTER_MAG_SHIFT |
	       NV40_TEX_FILTER_UNK13;
}

#define SOLID_PITCH 64

static enum nvdx_refusal prepare_unit(struct nvdx *nx, struct unit *t, PicturePtr pict,
				       PixmapPtr pix)
{
	if (!pict->pDrawable) {
		/* a solid picture: its colour, a8r8g8b8 and premultiplied */
		t->bo = nx->t3d.scratch;
		t->offset = nvdx_3d_solid(nx, pict->pSourcePict->solidFill.color);
		t->format = format_word(NV40_TEX_FMT_A8R8G8B8);
		t->wrap = wrap_word(NV40_TEX_WRAP_REPEAT);
		t->swizzle = tex_swizzle(tex_format(PICT_a8r8g8b8));
		t->filter = filter_word(NV40_TEX_FILTER_NEAREST);
		t->size = 1u << 16 | 1;
		t->pitch = SOLID_PITCH;
		unit_constants(t, NULL, 1, 1);
		return NVDX_REF_COUNT;
	}
	enum nvdx_refusal why = pix ? pixmap_unusable(pix) : NVDX_REF_PIXMAP;
	if (why != NVDX_REF_COUNT)
		return why;
	struct nvdx_pixmap *np = nvdx_pixmap(pix);
	t->bo = np->bo;
	t->offset = 0;
	t->format = format_word(tex_formats[tex_format(pict->format)].code);
	t->wrap = wrap_word(pict->repeat ? wraps[pict->repeatType] : wraps[RepeatNone]);
	t->swizzle = tex_swizzle(tex_format(pict->format));
	t->filter = filter_word(pict->filter == PictFilterBilinear ? NV40_TEX_FILTER_LINEAR
								   : NV40_TEX_FILTER_NEAREST);
	t->size = (uint32_t)pix->drawable.width << 16 | pix->drawable.height;
	t->pitch = np->pitch;
	unit_constants(t, pict->transform, pix->drawable.width, pix->drawable.height);
	return NVDX_REF_COUNT;
}

/* nouveau's adjustments of the factors: without destination alpha it is
 * one; an a8 destination keeps it in the blue channel (DST_COLOR), and so
 * does the fragment program with the source's alpha, as component alpha
 * makes the source alpha a colour (SRC_COLOR). */
static void prepare_blend(int op, PicturePtr dst, Bool ca)
{
	uint32_t s = ops[op].src, d = ops[op].dst;

	if (!PICT_FORMAT_A(dst->format)) {
		if (s == NV40_BF_DST_ALPHA)
			s = NV40_BF_ONE;
		else if (s == NV40_BF_ONE_MINUS_DST_ALPHA)
			s = NV40_BF_ZERO;
	} else if (dst->format == PICT_a8) {
		if (s == NV40_BF_DST_ALPHA)
			s = NV40_BF_DST_COLOR;
		else if (s == NV40_BF_ONE_MINUS_DST_ALPHA)
			s = NV40_BF_ONE_MINUS_DST_COLOR;
	}
	if (ca || dst->format == PICT_a8) {
		if (d == NV40_BF_SRC_ALPHA)
			d = NV40_BF_SRC_COLOR;
		else if (d == NV40_BF_ONE_MINUS_SRC_ALPHA)
			d = NV40_BF_ONE_MINUS_SRC_COLOR;
	}
	cs.blend = s != NV40_BF_ONE || d != NV40_BF_ZERO;
	cs.blend_src = s << 16 | s;
	cs.blend_dst = d << 16 | d;
}

static unsigned pick_program(int op, PicturePtr mask, PicturePtr dst)
{
	Bool a8 = dst->format == PICT_a8;

	if (!mask)
		return a8 ? NVDX_FP_S_A8 : NVDX_FP_S;
	if (a8)
		return NVDX_FP_C_A8;
	if (ca_mask(mask))
		return op_src_alpha(op) ? NVDX_FP_CCASA : NVDX_FP_CCA;
	return NVDX_FP_C;
}

static Bool nvdx_prepare_composite(int op, PicturePtr src, PicturePtr mask, PicturePtr dst,
				   PixmapPtr psrc, PixmapPtr pmask, PixmapPtr pdst)
{
	ScreenPtr screen = pdst->drawable.pScreen;
	struct nvdx *nx = nvdx(xf86ScreenToScrn(screen));
	struct nvdx_push *p = &nx->push;

	enum nvdx_refusal why;

	if (p->err || !nx->t3d.ok)   /* t3d: it may not come back after a restart of nvd */
		return FALSE;
	if ((why = pixmap_unusable(pdst)) != NVDX_REF_COUNT)
		return refuse(screen, why);
	memset(&cs, 0, sizeof(cs));
	cs.dst = nvdx_pixmap(pdst)->bo;
	cs.rt_format = NV40_RT_TYPE_LINEAR << NV40_RT_FORMAT_TYPE_SHIFT |
		       NV40_RT_ZETA_Z24S8 << NV40_RT_FORMAT_ZETA_SHIFT |
		       dst_formats[dst_format(dst->format)].rt;
	cs.pitch = nvdx_pixmap(pdst)->pitch;
	cs.w = pdst->drawable.width;
	cs.h = pdst->drawable.height;
	cs.nunits = mask ? 2 : 1;
	if ((why = prepare_unit(nx, &cs.unit[0], src, psrc)) != NVDX_REF_COUNT ||
	    (mask && (why = prepare_unit(nx, &cs.unit[1], mask, pmask)) != NVDX_REF_COUNT))
		return refuse(screen, why);
	prepare_blend(op, dst, ca_mask(mask));
	cs.fp = pick_program(op, mask, dst) * NVDX_3D_SLOT;
	nvdx_push_space(p, STATE_WORDS + RECT_WORDS, 4, 4);
	emit_state(nx);
	return TRUE;
}

/* ---- Composite ---- */

static void vertex(struct nvdx_push *p, int sx, int sy, int mx, int my, int x, int y)
{
	mthd(p, NV_CURIE_VTX_ATTR_2I + 8 * NV_CURIE_VTX_ATTR_2I__STRIDE, 2);
	nvc_pushbuf_data(p->pb, (uint32_t)(sy & 0xffff) << 16 | (uint32_t)(sx & 0xffff));
	nvc_pushbuf_data(p->pb, (uint32_t)(my & 0xffff) << 16 | (uint32_t)(mx & 0xffff));
	mthd(p, NV_CURIE_VTX_ATTR_2I, 1);                /* attribute 0 last: it emits */
	nvc_pushbuf_data(p->pb, (uint32_t)(y & 0xffff) << 16 | (uint32_t)(x & 0xffff));
}

/* A triangle twice the rectangle's size, its right angle at the
 * rectangle's top left: the scissor keeps the rectangle, inside it. */
static void nvdx_composite(PixmapPtr pdst, int sx, int sy, int mx, int my, int dx, int dy, int w,
			   int h)
{
	struct nvdx *nx = nvdx(xf86ScreenToScrn(pdst->drawable.pScreen));
	struct nvdx_push *p = &nx->push;

	nvdx_push_space(p, STATE_WORDS + RECT_WORDS, 4, 4);
	if (cs.gen != p->gen)
		emit_state(nx);
	mthd(p, NV_CURIE_SCISSOR_HORIZ, 2);
	nvc_pushbuf_data(p->pb, (uint32_t)w << 16 | (uint32_t)dx);
	nvc_pushbuf_data(p->pb, (uint32_t)h << 16 | (uint32_t)dy);
	mthd(p, NV_CURIE_VERTEX_BEGIN_END, 1);
	nvc_pushbuf_data(p->pb, NV40_PRIM_TRIANGLES);
	vertex(p, sx, sy + 2 * h, mx, my + 2 * h, dx, dy + 2 * h);
	vertex(p, sx, sy, mx, my, dx, dy);
	vertex(p, sx + 2 * w, sy, mx + 2 * w, my, dx + 2 * w, dy);
	mthd(p, NV_CURIE_VERTEX_BEGIN_END, 1);
	nvc_pushbuf_data(p->pb, NV40_PRIM_STOP);
	nx->stats.composite++;
}

static void nvdx_done_composite(PixmapPtr pdst)
{
	(void)pdst;
}

void nvdx_composite_hooks(ExaDriverPtr exa)
{
	exa->CheckComposite = nvdx_check_composite;
	exa->PrepareComposite = nvdx_prepare_composite;
	exa->Composite = nvdx_composite;
	exa->DoneComposite = nvdx_done_composite;
}

void nvdx_composite_report(ScrnInfoPtr scrn)
{
	static const char *const why[NVDX_REF_COUNT] = {
		[NVDX_REF_OP] = "operator", [NVDX_REF_DST_FORMAT] = "destination format",
		[NVDX_REF_FORMAT] = "picture format", [NVDX_REF_SIZE] = "over 4096 pixels",
		[NVDX_REF_FILTER] = "filter", [NVDX_REF_GRADIENT] = "gradient",
		[NVDX_REF_CA_SRC_ALPHA] = "component alpha with source alpha",
		[NVDX_REF_XRGB_BORDER] = "XRGB outside itself",
		[NVDX_REF_WINDOW] = "window repeated or transformed",
		[NVDX_REF_PIXMAP] = "pixmap not in a buffer",
	};
	const struct nvdx_stats *st = &nvdx(scrn)->stats;
	char line[512];
	int n = 0;

	for (unsigned i = 0; i < NVDX_REF_COUNT; i++)
		if (st->refused[i] && n < (int)sizeof(line))
			n += snprintf(line + n, sizeof(line) - (size_t)n, "%s %s %lu",
				      n ? "," : "", why[i], st->refused[i]);
	xf86DrvMsg(scrn->scrnIndex, X_INFO, "Render refusals:%s\n", n ? line : " none");
}
