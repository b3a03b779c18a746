/* What the 3D class (Curie) touches (access.h).
 *
 * Surfaces: RT_FORMAT holds one colour and one zeta format, TYPE (1 linear,
 * 2 swizzled) and log2 sizes for all of them; every buffer's offset is
 * aligned down to 64 bytes, as the hardware does (Mesa compensates with
 * VIEWPORT_TX_ORIGIN).  A linear buffer covers rows 0 .. y+h-1 of its
 * pitch, (x+w) * bpp bytes each, for the RT_HORIZ/VERT rectangle (x, w;
 * y, h); a swizzled one the whole 2^log2w x 2^log2h Morton surface.
 * Colour buffer i (DMA_COLORi, COLORi_OFFSET/PITCH) is drawn when
 * RT_ENABLE has its bit; zeta (DMA_ZETA) when the depth test, depth
 * writes, either face's stencil test or the depth bounds test is on (the
 * bounds test reads the stored depth).  Blending, logic ops and channel
 * masks read what they write: both are read and written (Mesa lists them
 * NOUVEAU_BO_RDWR).  A surface in use with another TYPE, an unknown
 * format or a swizzled side above 2^12 traps DATA_ERROR.  MSAA modes are
 * not modelled (one sample per pixel).
 *
 * Textures: unit i is sampled when TEX_ENABLE(i) has the enable bit,
 * through DMA_TEXTURE0 when TEX_FORMAT(i) has DMA0, else DMA_TEXTURE1 when
 * it has DMA1 (neither: nothing is read; the unit samples 0), its extent
 * hw/tex-layout.h's (0 for a format the card cannot read: nothing).
 *
 * The fragment program: FP_ACTIVE_PROGRAM's offset (bits 31:2) through
 * DMA_TEXTURE0 (bit 0) or else DMA_TEXTURE1 (bit 1); neither traps
 * DATA_ERROR.  The render condition (UNK1E98, mode 2 in bits 31:24): the
 * 16-byte report at its offset (23:0) in DMA_QUERY is read at every draw.
 *
 * Vertices: attribute i is fetched from memory when VP_ATTRIB_EN has it and
 * VTXFMT(i)'s size is not 0: size * component bytes at VTXBUF(i)'s offset
 * (27:0) + index * stride through DMA_VTXBUF1 (bit 31) or DMA_VTXBUF0.  An
 * indexed vertex is the index plus VB_ELEMENT_BASE (signed), which must
 * stay in 0 .. 2^32 - 1; with PRIMITIVE_RESTART_ENABLE the restart index
 * fetches nothing.  Indices from memory (VB_INDEX_BATCH): IDXBUF_OFFSET +
 * start * size, u16 with IDXBUF_FORMAT's bit 4 else u32, through
 * DMA_VTXBUF1 (bit 0) or DMA_VTXBUF0.  VB_ELEMENT_BASE does not apply to
 * VB_VERTEX_BATCH (Mesa leaves a stale bias in place for non-indexed
 * draws).
 *
 * When: the vertex methods (batches, inline indices, VERTEX_DATA words and
 * the immediate VTX_ATTR_* ones) draw while a primitive is open
 * (VERTEX_BEGIN_END holds a primitive); VERTEX_BEGIN_END draws what is left
 * of an open primitive when it ends it.  Launch functions see the state
 * before the launching method's own value is stored. */
#include "access.h"

#include <stddef.h>

#include "enums-3d-pipe.h"
#include "enums-3d.h"
#include "tex-layout.h"
#include "tex.h"
#include "vp-isa.h"

#define S(NAME) (st->t[NV_TABLE_CURIE][NV_CURIE_##NAME##__SLOT])
#define SI(NAME, i) (st->t[NV_TABLE_CURIE][NV_CURIE_##NAME##__SLOT + (i)])
#define SLOT(NAME) NV_CURIE_##NAME##__SLOT

#define NV40_ACC_LOG2_MAX 12      /* 4096 pixels a side */

static void acc3_trap(struct nv_acc_list *l, enum nv_acc_trap t, const char *why)
{
	l->n = 0;
	l->trap = (uint8_t)t;
	l->why = why;
}

static void acc3_add(struct nv_acc_list *l, unsigned dma, unsigned dir, unsigned kind,
		     unsigned unit, int64_t off, int64_t pitch, uint64_t len, uint32_t rows)
{
	if (l->trap || l->n == NV_ACC_MAX || !rows || !len)
		return;
	l->a[l->n++] = (struct nv_acc){ NV_TABLE_CURIE, (uint8_t)dir, (uint8_t)kind, (uint8_t)unit,
					(uint16_t)dma, rows, off, pitch, len, 0, 0 };
}

static void acc3_start(struct nv_acc_list *l)
{
	l->n = 0;
	l->trap = NV_ACC_OK;
	l->why = NULL;
}

static const uint16_t acc3_color_slots[4][3] = {     /* dma, offset, pitch */
	{ SLOT(DMA_COLOR0), SLOT(COLOR0_OFFSET), SLOT(COLOR0_PITCH) },
	{ SLOT(DMA_COLOR1), SLOT(COLOR1_OFFSET), SLOT(COLOR1_PITCH) },
	{ SLOT(DMA_COLOR2), SLOT(COLOR2_OFFSET), SLOT(COLOR2_PITCH) },
	{ SLOT(DMA_COLOR3), SLOT(COLOR3_OFFSET), SLOT(COLOR3_PITCH) },
};

static int acc3_rect_empty(const struct nv_acc_state *st)
{
	return !NV40_RECT_SIZE(S(RT_HORIZ)) || !NV40_RECT_SIZE(S(RT_VERT));
}

/* One surface of bpp bytes a pixel (0: an unknown format). */
static void acc3_surface(const struct nv_acc_state *st, unsigned dma, uint32_t offset,
			 uint32_t pitch, unsigned bpp, unsigned kind, unsigned unit,
			 struct nv_acc_list *l)
{
	uint32_t fmt = S(RT_FORMAT);
	unsigned type = NV40_RT_FORMAT_TYPE(fmt);

	if (!bpp)
		return acc3_trap(l, NV_ACC_DATA_ERROR, "render target: unknown format");
	if (type == NV40_RT_TYPE_SWIZZLED) {
		unsigned lw = NV40_RT_FORMAT_LOG2W(fmt), lh = NV40_RT_FORMAT_LOG2H(fmt);
		if (lw > NV40_ACC_LOG2_MAX || lh > NV40_ACC_LOG2_MAX)
			return acc3_trap(l, NV_ACC_DATA_ERROR, "render target: swizzled side above 4096");
		return acc3_add(l, dma, NV_ACC_RW, kind, unit, offset & ~63u, 0, (uint64_t)bpp << (lw + lh), 1);
	}
	if (type != NV40_RT_TYPE_LINEAR)
		return acc3_trap(l, NV_ACC_DATA_ERROR, "render target: TYPE neither linear nor swizzled");
	uint64_t rows = (uint64_t)NV40_RECT_ORIGIN(S(RT_VERT)) + NV40_RECT_SIZE(S(RT_VERT));
	uint64_t cols = (uint64_t)NV40_RECT_ORIGIN(S(RT_HORIZ)) + NV40_RECT_SIZE(S(RT_HORIZ));
	acc3_add(l, dma, NV_ACC_RW, kind, unit, offset & ~63u, pitch, cols * bpp, (uint32_t)rows);
}

static void acc3_colors(const struct nv_acc_state *st, struct nv_acc_list *l)
{
	unsigned bpp = nv40_rt_color_bpp(NV40_RT_FORMAT_COLOR(S(RT_FORMAT)));
	for (unsigned i = 0; i < 4; i++)
		if (S(RT_ENABLE) & NV40_RT_ENABLE_COLOR(i))
			acc3_surface(st, acc3_color_slots[i][0], st->t[NV_TABLE_CURIE][acc3_color_slots[i][1]],
				     st->t[NV_TABLE_CURIE][acc3_color_slots[i][2]], bpp, NV_ACC_COLOR, i, l);
}

static void acc3_zeta(const struct nv_acc_state *st, struct nv_acc_list *l)
{
	acc3_surface(st, SLOT(DMA_ZETA), S(ZETA_OFFSET), S(ZETA_PITCH),
		     nv40_rt_zeta_bpp(NV40_RT_FORMAT_ZETA(S(RT_FORMAT))), NV_ACC_ZETA, 0, l);
}

static int acc3_zeta_used(const struct nv_acc_state *st)
{
	return (S(DEPTH_TEST_ENABLE) & 1) || (S(DEPTH_WRITE_ENABLE) & 1) ||
	       (SI(STENCIL_ENABLE, 0) & 1) || (SI(STENCIL_ENABLE, 1) & 1) ||
	       (S(DEPTH_BOUNDS_TEST_ENABLE) & 1);
}

int nv40_acc_texture(const struct nv_acc_state *st, unsigned i, struct nv_acc *a)
{
	uint32_t fmt = SI(TEX_FORMAT, i);
	if (!(SI(TEX_ENABLE, i) & NV40_TEX_ENABLE_ENABLE) ||
	    !(fmt & (NV40_TEX_FORMAT_DMA0 | NV40_TEX_FORMAT_DMA1)))
		return 0;
	uint64_t len = nv40_tex_extent(fmt, SI(TEX_NPOT_SIZE, i), SI(TEX_SIZE1, i));
	if (!len)
		return 0;
	*a = (struct nv_acc){ NV_TABLE_CURIE, NV_ACC_READ, NV_ACC_TEXTURE, (uint8_t)i,
			      fmt & NV40_TEX_FORMAT_DMA0 ? SLOT(DMA_TEXTURE0) : SLOT(DMA_TEXTURE1), 1,
			      SI(TEX_OFFSET, i), 0, len, 0, 0 };
	return 1;
}

void nv40_acc_draw(const struct nv_acc_state *st, struct nv_acc_list *l)
{
	acc3_start(l);
	if (acc3_rect_empty(st))
		return;
	acc3_colors(st, l);
	if (acc3_zeta_used(st))
		acc3_zeta(st, l);
	for (unsigned i = 0; i < NV40_TEX_UNITS; i++) {
		struct nv_acc a;
		if (nv40_acc_texture(st, i, &a))
			acc3_add(l, a.dma, a.dir, a.kind, a.unit, a.off, a.pitch, a.len, a.rows);
	}
	uint32_t rc = S(UNK1E98);
	if (NV40_RENDER_COND_MODE(rc) == NV40_RENDER_COND_IF_SAMPLES)
		acc3_add(l, SLOT(DMA_QUERY), NV_ACC_READ, NV_ACC_COND, 0, NV40_RENDER_COND_OFFSET(rc), 0,
			 NV40_QUERY_REPORT_SIZE, 1);
	uint32_t fp = S(FP_ACTIVE_PROGRAM);
	if (!(fp & (NV40_FP_PROGRAM_DMA0 | NV40_FP_PROGRAM_DMA1)))
		return acc3_trap(l, NV_ACC_DATA_ERROR, "no fragment program bound");
	acc3_add(l, fp & NV40_FP_PROGRAM_DMA0 ? SLOT(DMA_TEXTURE0) : SLOT(DMA_TEXTURE1), NV_ACC_READ,
		 NV_ACC_PROGRAM, 0, fp & ~3u, 0, NV40_FP_FETCH_MAX, 1);
}

/* CLEAR_BUFFERS = data: the colour buffers when a colour bit (7:4) is set,
 * zeta when depth (0) or stencil (1) is.  Nothing for an empty rectangle. */
void nv40_acc_clear(const struct nv_acc_state *st, unsigned elem, uint32_t data,
		    struct nv_acc_list *l)
{
	(void)elem;
	acc3_start(l);
	if (acc3_rect_empty(st))
		return;
	if (data & (NV40_CLEAR_COLOR_R | NV40_CLEAR_COLOR_G | NV40_CLEAR_COLOR_B | NV40_CLEAR_COLOR_A))
		acc3_colors(st, l);
	if (data & (NV40_CLEAR_DEPTH | NV40_CLEAR_STENCIL))
		acc3_zeta(st, l);
}

/* ---- vertices ---- */

static unsigned acc3_comp_bytes(unsigned type)
{
#define NV40_ACC_VTX_CASE_(nm, v, sz) case (v): return (sz);
	switch (type) {
	NV40_VTXFMT_TYPES(NV40_ACC_VTX_CASE_)
	}
	return 0;
}

int nv40_acc_attr(const struct nv_acc_state *st, unsigned i, struct nv_acc *a)
{
	uint32_t f = SI(VTXFMT, i), b = SI(VTXBUF, i);
	unsigned n = NV40_VTXFMT_SIZE(f), cs = acc3_comp_bytes(NV40_VTXFMT_TYPE(f));

	if (!(S(VP_ATTRIB_EN) & (1u << i)) || !n)
		return 1;
	if (!cs || n > 4)
		return -1;
	*a = (struct nv_acc){ NV_TABLE_CURIE, NV_ACC_READ, NV_ACC_VERTEX, (uint8_t)i,
			      b & NV40_VTXBUF_DMA1 ? SLOT(DMA_VTXBUF1) : SLOT(DMA_VTXBUF0), 1,
			      NV40_VTXBUF_OFFSET(b), NV40_VTXFMT_STRIDE(f), (uint64_t)n * cs, 0, 0 };
	return 0;
}

int nv40_acc_index(const struct nv_acc_state *st, uint32_t raw, uint32_t *v)
{
	if ((S(PRIMITIVE_RESTART_ENABLE) & 1) && raw == S(PRIMITIVE_RESTART_INDEX))
		return 0;
	int64_t idx = (int64_t)raw + (int32_t)S(VB_ELEMENT_BASE);
	if (idx < 0 || idx > (int64_t)UINT32_MAX)
		return -1;
	*v = (uint32_t)idx;
	return 1;
}

unsigned nv40_acc_index_size(const struct nv_acc_state *st)
{
	return S(IDXBUF_FORMAT) & NV40_IDXBUF_TYPE_U16 ? 2 : 4;
}

/* Vertices first .. first + count - 1 of every fetched attribute. */
static void acc3_vertices(const struct nv_acc_state *st, uint64_t first, uint32_t count,
			  struct nv_acc_list *l)
{
	for (unsigned i = 0; i < NV40_VP_INPUTS && !l->trap; i++) {
		struct nv_acc a;
		int r = nv40_acc_attr(st, i, &a);
		if (r < 0)
			return acc3_trap(l, NV_ACC_DATA_ERROR, "VTXFMT: unknown type or size");
		if (!r)
			acc3_add(l, a.dma, NV_ACC_READ, NV_ACC_VERTEX, i,
				 a.off + (int64_t)first * a.pitch, a.pitch, a.len, count);
	}
}

static void acc3_indexed(const struct nv_acc_state *st, uint32_t raw, struct nv_acc_list *l)
{
	uint32_t v;
	int r = nv40_acc_index(st, raw, &v);
	if (r < 0)
		return acc3_trap(l, NV_ACC_DATA_ERROR, "index + VB_ELEMENT_BASE outside 0 .. 2^32 - 1");
	if (r)
		acc3_vertices(st, v, 1, l);
}

static int acc3_open(const struct nv_acc_state *st)
{
	return S(VERTEX_BEGIN_END) != NV40_PRIM_STOP;
}

void nv40_acc_vertex(const struct nv_acc_state *st, unsigned elem, uint32_t data,
		     struct nv_acc_list *l)
{
	(void)elem;
	(void)data;
	acc3_start(l);
	if (acc3_open(st))
		nv40_acc_draw(st, l);
}

/* A value above POLYGON traps DATA_ERROR (the primitive stays as it was). */
void nv40_acc_begin(const struct nv_acc_state *st, unsigned elem, uint32_t data,
		    struct nv_acc_list *l)
{
	if (data > NV40_PRIM_POLYGON) {
		acc3_start(l);
		return acc3_trap(l, NV_ACC_DATA_ERROR, "VERTEX_BEGIN_END: no such primitive");
	}
	nv40_acc_vertex(st, elem, data, l);    /* ends the open primitive, if any */
}

void nv40_acc_batch(const struct nv_acc_state *st, unsigned elem, uint32_t data,
		    struct nv_acc_list *l)
{
	nv40_acc_vertex(st, elem, data, l);
	if (acc3_open(st))
		acc3_vertices(st, NV40_BATCH_START(data), NV40_BATCH_COUNT(data), l);
}

void nv40_acc_elements16(const struct nv_acc_state *st, unsigned elem, uint32_t data,
			 struct nv_acc_list *l)
{
	nv40_acc_vertex(st, elem, data, l);
	if (acc3_open(st)) {
		acc3_indexed(st, data & 0xffff, l);
		acc3_indexed(st, data >> 16, l);
	}
}

void nv40_acc_elements32(const struct nv_acc_state *st, unsigned elem, uint32_t data,
			 struct nv_acc_list *l)
{
	nv40_acc_vertex(st, elem, data, l);
	if (acc3_open(st))
		acc3_indexed(st, data, l);
}

/* The indices it reads; the vertices they fetch depend on their values,
 * which nv40_acc_index and nv40_acc_attr give one by one. */
void nv40_acc_index_batch(const struct nv_acc_state *st, unsigned elem, uint32_t data,
			  struct nv_acc_list *l)
{
	nv40_acc_vertex(st, elem, data, l);
	if (!acc3_open(st))
		return;
	unsigned isz = nv40_acc_index_size(st);
	acc3_add(l, S(IDXBUF_FORMAT) & NV40_IDXBUF_DMA1 ? SLOT(DMA_VTXBUF1) : SLOT(DMA_VTXBUF0),
		 NV_ACC_READ, NV_ACC_INDEX, 0,
		 (int64_t)S(IDXBUF_OFFSET) + (int64_t)NV40_BATCH_START(data) * isz, 0,
		 (uint64_t)NV40_BATCH_COUNT(data) * isz, 1);
}

/* ---- reports ---- */

/* QUERY_GET = report << 24 | offset: 16 bytes written at offset of DMA_QUERY. */
void nv40_acc_query(const struct nv_acc_state *st, unsigned elem, uint32_t data,
		    struct nv_acc_list *l)
{
	(void)st;
	(void)elem;
	acc3_start(l);
	acc3_add(l, SLOT(DMA_QUERY), NV_ACC_WRITE, NV_ACC_QUERY, 0, NV40_QUERY_GET_OFFSET(data), 0,
		 NV40_QUERY_REPORT_SIZE, 1);
}

/* FENCE_VALUE: 4 bytes written at FENCE_OFFSET of DMA_FENCE. */
void nv40_acc_fence(const struct nv_acc_state *st, unsigned elem, uint32_t data,
		    struct nv_acc_list *l)
{
	(void)elem;
	(void)data;
	acc3_start(l);
	acc3_add(l, SLOT(DMA_FENCE), NV_ACC_WRITE, NV_ACC_FENCE, 0, S(FENCE_OFFSET), 0, 4, 1);
}
