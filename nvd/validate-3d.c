/* The 3D engine's extent checks: at every operation of the 3D class that
 * touches memory, everything it may read or write, computed from the
 * shadowed state in 64 bits, must lie inside one buffer of the submission
 * (or a DMA_BO ctxdma), with write access for what the card writes and read
 * access for what it reads.  The start-only check of each 3D address method
 * (validate.c) still runs when the address is written; this is the check
 * that counts, made when the state is used.
 *
 * When (Mesa nv30_clear.c, nv30_vbo.c, nv30_push.c, nv30_query.c):
 *  - CLEAR_BUFFERS: the colour buffers RT_ENABLE names if any colour bit is
 *    set; zeta if the depth or stencil bit is.
 *  - VERTEX_BEGIN_END with a primitive, and every VB_VERTEX_BATCH,
 *    VB_INDEX_BATCH, VB_ELEMENT_U16/U32 word and VERTEX_DATA packet (open
 *    primitive or not: checking is cheaper than knowing what the card does
 *    outside one): the draw surfaces, i.e. the enabled colour buffers,
 *    zeta when DEPTH_TEST, DEPTH_WRITE or either STENCIL_ENABLE is set
 *    (Mesa writes DEPTH_WRITE_ENABLE even with the test off), every enabled
 *    texture unit (hw/tex-layout.h, the same extent the sampler reads), and
 *    the fragment program's ctxdma (the program itself is the channel's
 *    shadow copy, validate-fp.c).  Cached per submission until
 *    a watched method or handle changes, so runs of batches cost one compare.
 *  - vertex fetches: each enabled attribute (VTXFMT size != 0) reads
 *    VTXBUF + index * stride .. + size * component bytes; the largest index
 *    every attribute's buffer holds (vtx_max) bounds VB_VERTEX_BATCH
 *    start + count - 1 and each inline index + VB_ELEMENT_BASE (mod 2^32;
 *    an index equal to PRIMITIVE_RESTART_INDEX while restart is enabled
 *    fetches nothing).  VB_ELEMENT_BASE applies to indexed fetches only:
 *    Mesa leaves a stale bias in place for non-indexed draws, so the card
 *    cannot be applying it there (the simulator must agree).
 *  - VB_INDEX_BATCH (0x4097): the index values are client memory the card
 *    would read after validation, so the walker replaces each batch with
 *    the same indices inline (nvd_v3d_index_expand), each checked as an
 *    inline index: the card never reads them from the client.  Indices an
 *    M2MF copy earlier in the submission writes are read from that copy's
 *    source (Mesa uploads an index buffer and draws from it in one
 *    submission; what else the card writes first is read as it is now,
 *    which may be stale but never unsafe).  Only when
 *    the index buffer is behind a client's own ctxdma (DMA_BO, not mapped
 *    here) does the batch stay, and then every index the type can hold
 *    (u16: 0..65535, u32: any) plus the base must be inside the vertex
 *    buffers.
 *  - QUERY_GET: 16 bytes at DMA_QUERY + offset, written; FENCE_VALUE: 4
 *    bytes at DMA_FENCE + FENCE_OFFSET, written; UNK1E98 (render condition)
 *    with mode 2: the 16-byte report at DMA_QUERY + offset, read.
 * What cannot be checked: what a vertex program computes (it reads only
 * program and constant RAM, inside the card).
 *
 * Surfaces: RT_FORMAT holds one colour and one zeta format, TYPE (1 linear,
 * 2 swizzled) and log2 sizes for all of them; the offset is aligned down
 * to 64 bytes as the hardware does.  A linear buffer covers rows
 * 0 .. y+h-1 of its pitch, (x+w) * bpp bytes each (RT_HORIZ/VERT from the
 * surface origin, whatever the origin means to the card); a swizzled one
 * bpp << (log2w + log2h) bytes. */
#include <errno.h>

#include "hw/enums-3d.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "hw/tex-layout.h"
#include "nvd/validate-priv.h"

#define V(name) (x->sh->val[NVD_W_CURIE_##name])
#define VE(name, i) (x->sh->val[NVD_W_CURIE_##name + (i)])
#define OBJ(name) nvd_v_obj(x, NV_TABLE_CURIE, NV_CURIE_##name)

#define NVD_V3D_LOG2_MAX 12      /* 4096 pixels */

static const uint32_t nvd_v3d_color_dma[4] = {
	NV_CURIE_DMA_COLOR0, NV_CURIE_DMA_COLOR1, NV_CURIE_DMA_COLOR2, NV_CURIE_DMA_COLOR3,
};
static const unsigned nvd_v3d_color_w[4][2] = {      /* offset, pitch */
	{ NVD_W_CURIE_COLOR0_OFFSET, NVD_W_CURIE_COLOR0_PITCH },
	{ NVD_W_CURIE_COLOR1_OFFSET, NVD_W_CURIE_COLOR1_PITCH },
	{ NVD_W_CURIE_COLOR2_OFFSET, NVD_W_CURIE_COLOR2_PITCH },
	{ NVD_W_CURIE_COLOR3_OFFSET, NVD_W_CURIE_COLOR3_PITCH },
};

/* One render target of bpp bytes per pixel at offset. */
static int nvd_v3d_surface(struct nvd_vctx *x, const struct nvd_vhobj *dma, uint32_t offset,
			   uint32_t pitch, unsigned bpp, const char *what)
{
	uint32_t fmt = V(RT_FORMAT);
	unsigned type = NV40_RT_FORMAT_TYPE(fmt);
	uint64_t len;

	if (type == NV40_RT_TYPE_SWIZZLED) {
		unsigned lw = NV40_RT_FORMAT_LOG2W(fmt), lh = NV40_RT_FORMAT_LOG2H(fmt);
		if (lw > NVD_V3D_LOG2_MAX || lh > NVD_V3D_LOG2_MAX)
			return nvd_v_fail(x, EINVAL, "%s: swizzled 2^%u x 2^%u pixels", what, lw, lh);
		len = (uint64_t)bpp << (lw + lh);
	} else if (type == NV40_RT_TYPE_LINEAR) {
		uint64_t rows = (uint64_t)NV40_RECT_ORIGIN(V(RT_VERT)) + NV40_RECT_SIZE(V(RT_VERT));
		uint64_t cols = (uint64_t)NV40_RECT_ORIGIN(V(RT_HORIZ)) + NV40_RECT_SIZE(V(RT_HORIZ));
		if (!rows || !cols)
			return 0;
		len = (rows - 1) * pitch + cols * bpp;
	} else {
		return nvd_v_fail(x, EINVAL, "%s: RT_FORMAT type %u is neither linear nor swizzled",
				  what, type);
	}
	return nvd_v_extent(x, dma, offset & ~63u, len, NVD_ACCESS_WRITE, what);
}

static int nvd_v3d_colors(struct nvd_vctx *x)
{
	static const char *names[4] = { "colour buffer 0", "colour buffer 1", "colour buffer 2",
					"colour buffer 3" };
	uint32_t en = V(RT_ENABLE);
	unsigned bpp = nv40_rt_color_bpp(NV40_RT_FORMAT_COLOR(V(RT_FORMAT)));

	for (unsigned i = 0; i < 4; i++) {
		if (!(en & NV40_RT_ENABLE_COLOR(i)))
			continue;
		if (!bpp)
			return nvd_v_fail(x, EINVAL, "%s: unknown colour format 0x%x", names[i],
					  NV40_RT_FORMAT_COLOR(V(RT_FORMAT)));
		int r = nvd_v3d_surface(x, nvd_v_obj(x, NV_TABLE_CURIE, nvd_v3d_color_dma[i]),
					x->sh->val[nvd_v3d_color_w[i][0]],
					x->sh->val[nvd_v3d_color_w[i][1]], bpp, names[i]);
		if (r)
			return r;
	}
	return 0;
}

static int nvd_v3d_zeta(struct nvd_vctx *x)
{
	unsigned bpp = nv40_rt_zeta_bpp(NV40_RT_FORMAT_ZETA(V(RT_FORMAT)));
	if (!bpp)
		return nvd_v_fail(x, EINVAL, "zeta buffer: unknown format %u",
				  NV40_RT_FORMAT_ZETA(V(RT_FORMAT)));
	return nvd_v3d_surface(x, OBJ(DMA_ZETA), V(ZETA_OFFSET), V(ZETA_PITCH), bpp, "zeta buffer");
}

int nvd_v3d_clear(struct nvd_vctx *x, unsigned elem, uint32_t mode)
{
	int r = 0;

	(void)elem;
	if (mode & (NV40_CLEAR_COLOR_R | NV40_CLEAR_COLOR_G | NV40_CLEAR_COLOR_B | NV40_CLEAR_COLOR_A))
		r = nvd_v3d_colors(x);
	if (!r && (mode & (NV40_CLEAR_DEPTH | NV40_CLEAR_STENCIL)))
		r = nvd_v3d_zeta(x);
	return r;
}

/* ---- draws ---- */

static const char *const nvd_v3d_tex_names[16] = {
	"texture 0", "texture 1", "texture 2", "texture 3", "texture 4", "texture 5",
	"texture 6", "texture 7", "texture 8", "texture 9", "texture 10", "texture 11",
	"texture 12", "texture 13", "texture 14", "texture 15",
};

/* Enabled unit i's texture lies in memory the submission may read. */
static int nvd_v3d_texture(struct nvd_vctx *x, unsigned i)
{
	uint32_t fmt = VE(TEX_FORMAT, i);
	uint64_t len = nv40_tex_extent(fmt, VE(TEX_NPOT_SIZE, i), VE(TEX_SIZE1, i));
	if (!len)
		return nvd_v_fail(x, EINVAL, "%s: not a texture (format 0x%08x, size 0x%08x)",
				  nvd_v3d_tex_names[i], fmt, VE(TEX_NPOT_SIZE, i));
	const struct nvd_vhobj *dma = fmt & NV40_TEX_FORMAT_DMA1 ? OBJ(DMA_TEXTURE1)
								 : OBJ(DMA_TEXTURE0);
	return nvd_v_extent(x, dma, VE(TEX_OFFSET, i), len, NVD_ACCESS_READ,
			    nvd_v3d_tex_names[i]);
}

static int nvd_v3d_textures(struct nvd_vctx *x)
{
	for (unsigned i = 0; i < 16; i++) {
		if (!(VE(TEX_ENABLE, i) & NV40_TEX_ENABLE_ON))
			continue;
		int r = nvd_v3d_texture(x, i);
		if (r)
			return r;
	}
	return 0;
}

/* Before the submission: a texture unit left enabled over memory this
 * submission may not read (a buffer freed since, perhaps another client's
 * now) is turned off, on the subchannel the 3D object is bound to.  The card
 * reads only the units the fragment program samples, and Mesa leaves a
 * destroyed context's units enabled on the channel the next context shares;
 * refusing every draw of that context would punish a state it never
 * touches.  A program that still samples such a unit gets an off unit.
 * out: room for 2 words a unit; *n: words written. */
void nvd_v3d_prologue(struct nvd_vctx *x, uint32_t *out, size_t cap, size_t *n)
{
	struct nvd_verror keep = *x->e;
	unsigned subc = NV_SUBCHANNELS;

	*n = 0;
	for (unsigned s = 0; s < NV_SUBCHANNELS; s++) {
		const struct nv_class_desc *c = nv_class_find(x->sh->subc_cls[s]);
		if (c && c->table_id == NV_TABLE_CURIE)
			subc = s;
	}
	if (subc == NV_SUBCHANNELS)
		return;
	for (unsigned i = 0; i < 16 && *n + 2 <= cap; i++) {
		if (!(VE(TEX_ENABLE, i) & NV40_TEX_ENABLE_ON) || !nvd_v3d_texture(x, i))
			continue;
		*x->e = keep;          /* not this submission's fault */
		VE(TEX_ENABLE, i) &= ~NV40_TEX_ENABLE_ON;
		nv_wr32le(out + (*n)++, NV_CMD_INC_WORD(subc, NV_CURIE_TEX_ENABLE + i * NV_CURIE_TEX_ENABLE__STRIDE, 1));
		nv_wr32le(out + (*n)++, VE(TEX_ENABLE, i));
	}
}

/* Everything a draw writes and reads but its vertices: cached until the
 * watched state changes. */
static int nvd_v3d_draw(struct nvd_vctx *x)
{
	int r;

	if (x->gen3d_draw == x->gen)
		return 0;
	r = nvd_v3d_colors(x);
	if (!r && (V(DEPTH_TEST_ENABLE) || V(DEPTH_WRITE_ENABLE) || VE(STENCIL_ENABLE, 0) ||
		   VE(STENCIL_ENABLE, 1)))
		r = nvd_v3d_zeta(x);
	if (!r)
		r = nvd_v3d_textures(x);
	if (!r) {
		/* the program is the channel's shadow copy (validate-fp.c): it
		 * must still be fetched through the channel's VRAM ctxdma,
		 * which ends where the channel's shadow area does */
		uint32_t fp = V(FP_ACTIVE_PROGRAM);
		const struct nvd_vhobj *dma = fp & NV40_FP_PROGRAM_DMA0 ? OBJ(DMA_TEXTURE0)
									: OBJ(DMA_TEXTURE1);
		if (!fp)
			r = nvd_v_fail(x, EFAULT, "no fragment program bound");
		else if (!dma || dma->kind != NVD_VH(NVD_VOBJ_DMA_VRAM))
			r = nvd_v_fail(x, EFAULT, "fragment program: DMA_TEXTURE%u is no longer the "
				       "VRAM ctxdma", fp & NV40_FP_PROGRAM_DMA0 ? 0 : 1);
	}
	if (!r)
		x->gen3d_draw = x->gen;
	return r;
}

static unsigned nvd_v3d_comp_bytes(unsigned type)
{
#define NVD_V3D_VTX_CASE_(nm, v, sz) case (v): return (sz);
	switch (type) {
	NV40_VTXFMT_TYPES(NVD_V3D_VTX_CASE_)
	}
	return 4;              /* unknown: the widest */
}

/* The largest vertex index every fetched attribute's buffer holds.  The
 * card fetches the attributes the vertex program reads (VP_ATTRIB_EN);
 * Mesa leaves a destroyed context's other formats on the channel. */
static int nvd_v3d_vtx_max(struct nvd_vctx *x, uint64_t *max)
{
	static const char *names[16] = {
		"vertex buffer 0", "vertex buffer 1", "vertex buffer 2", "vertex buffer 3",
		"vertex buffer 4", "vertex buffer 5", "vertex buffer 6", "vertex buffer 7",
		"vertex buffer 8", "vertex buffer 9", "vertex buffer 10", "vertex buffer 11",
		"vertex buffer 12", "vertex buffer 13", "vertex buffer 14", "vertex buffer 15",
	};
	if (x->gen3d_vtx == x->gen) {
		*max = x->vtx_max;
		return 0;
	}
	uint64_t m = UINT64_MAX;
	for (unsigned i = 0; i < 16; i++) {
		uint32_t f = VE(VTXFMT, i), b = VE(VTXBUF, i);
		unsigned size = NV40_VTXFMT_SIZE(f), stride = NV40_VTXFMT_STRIDE(f);
		uint64_t room, elem;
		if (!size || !(V(VP_ATTRIB_EN) & (1u << i)))
			continue;
		elem = (uint64_t)size * nvd_v3d_comp_bytes(NV40_VTXFMT_TYPE(f));
		int r = nvd_v_room(x, b & NV40_VTXBUF_DMA1 ? OBJ(DMA_VTXBUF1) : OBJ(DMA_VTXBUF0),
				   NV40_VTXBUF_OFFSET(b), NVD_ACCESS_READ, names[i], &room);
		if (r)
			return r;
		if (room < elem)
			return nvd_v_fail(x, EFAULT, "%s 0x%x: %llu bytes left, a vertex takes %llu",
					  names[i], NV40_VTXBUF_OFFSET(b), (unsigned long long)room,
					  (unsigned long long)elem);
		if (stride && (room - elem) / stride < m) {
			m = (room - elem) / stride;
			x->vtx_max_attr = i;
		}
	}
	x->vtx_max = m;
	x->gen3d_vtx = x->gen;
	*max = m;
	return 0;
}

/* Vertices first .. last (inclusive) are fetched. */
static int nvd_v3d_fetch(struct nvd_vctx *x, uint64_t last, const char *what)
{
	uint64_t max;
	int r = nvd_v3d_vtx_max(x, &max);
	if (r)
		return r;
	if (last > max)
		return nvd_v_fail(x, EFAULT, "%s: vertex %llu is past vertex buffer %u (last %llu)",
				  what, (unsigned long long)last, x->vtx_max_attr,
				  (unsigned long long)max);
	return 0;
}

/* One index from the stream, through VB_ELEMENT_BASE. */
static int nvd_v3d_index(struct nvd_vctx *x, uint32_t idx)
{
	if (V(PRIMITIVE_RESTART_ENABLE) && idx == V(PRIMITIVE_RESTART_INDEX))
		return 0;
	return nvd_v3d_fetch(x, (uint32_t)(idx + V(VB_ELEMENT_BASE)), "VB_ELEMENT");
}

int nvd_v3d_begin(struct nvd_vctx *x, unsigned elem, uint32_t prim)
{
	(void)elem;
	return prim == NV40_PRIM_STOP ? 0 : nvd_v3d_draw(x);
}

int nvd_v3d_vertex_batch(struct nvd_vctx *x, unsigned elem, uint32_t data)
{
	(void)elem;
	int r = nvd_v3d_draw(x);
	if (r)
		return r;
	return nvd_v3d_fetch(x, (uint64_t)NV40_BATCH_START(data) + NV40_BATCH_COUNT(data) - 1,
			     "VB_VERTEX_BATCH");
}

/* The bytes [a, a+n) of submission buffer `bo` as the card will find them
 * after the M2MF copies recorded before this point: from the source of the
 * last copy that writes them (one line of it), else from the buffer. */
const uint8_t *nvd_v3d_forward(const struct nvd_vctx *x, unsigned bo, uint64_t a, unsigned n)
{
	const struct nvd_vbo *bos = x->sub->bos;
	for (unsigned k = x->ncopies; k--;) {
		const struct nvd_vcopy *c = &x->copies[k];
		if (c->dst != bo || a < c->out)
			continue;
		uint64_t rel = a - c->out;
		uint64_t line = c->pitch_out ? rel / c->pitch_out : 0, col = rel - line * c->pitch_out;
		if (line >= c->count || col >= c->len)
			continue;
		if (col + n > c->len)
			return NULL;                 /* split across lines: not forwarded */
		uint64_t s = (uint64_t)c->in + line * c->pitch_in + col;
		const struct nvd_vbo *b = &bos[c->src];
		if (!b->map || s < b->addr || s + n > b->addr + b->size)
			return NULL;
		return b->map + (s - b->addr);
	}
	return bos[bo].map + (a - bos[bo].addr);
}

/* VB_INDEX_BATCH (class 0x4097 only) makes the card read indices from a
 * buffer after validation, when the client may have changed them.  So the
 * walker replaces each batch with the same indices inline
 * (VB_ELEMENT_U32): read here, once, from the daemon's view of the buffer
 * (or of the source of an M2MF copy into it earlier in the submission), each
 * one checked as an inline index is.  out gets the packet (header and
 * indices, little-endian); *n its words.  1: the index buffer is behind a
 * client's own ctxdma, whose memory the validator does not map: the batch
 * stays and nvd_v3d_index_batch judges it. */
int nvd_v3d_index_expand(struct nvd_vctx *x, unsigned subc, uint32_t data, uint32_t *out,
			 size_t room, size_t *n)
{
	uint32_t f = V(IDXBUF_FORMAT);
	unsigned isz = (f & 0xf0) == NV40_IDXBUF_TYPE_U16 ? 2 : 4;
	uint32_t count = NV40_BATCH_COUNT(data);
	int r;

	if ((f & 0xf0) != NV40_IDXBUF_TYPE_U16 && (f & 0xf0) != 0)
		return nvd_v_fail(x, EINVAL, "IDXBUF_FORMAT 0x%x: unknown index type", f);
	const struct nvd_vhobj *dma = f & NV40_IDXBUF_DMA1 ? OBJ(DMA_VTXBUF1) : OBJ(DMA_VTXBUF0);
	if (dma && dma->kind == NVD_VH(NVD_VOBJ_DMA_BO))
		return 1;
	if ((r = nvd_v3d_draw(x)))
		return r;
	uint64_t start = (uint64_t)V(IDXBUF_OFFSET) + (uint64_t)NV40_BATCH_START(data) * isz;
	if ((r = nvd_v_extent(x, dma, start, (uint64_t)count * isz, NVD_ACCESS_READ, "index buffer")))
		return r;
	if (room < 1 + (size_t)count)
		return -E2BIG;
	unsigned bo = x->hint;
	const struct nvd_vbo *b = &x->sub->bos[bo];
	if (!b->map)
		return 1;
	/* written by the card earlier in this submission: read what it copies */
	int fwd = (b->access & NVD_ACCESS_WRITE) && x->ncopies;
	const uint8_t *p = b->map + (start - b->addr);
	nv_wr32le(out, NV_CMD_NONINC_WORD(subc, NV_CURIE_VB_ELEMENT_U32, count));
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *q = fwd ? nvd_v3d_forward(x, bo, start + (uint64_t)i * isz, isz)
				       : p + (size_t)i * isz;
		if (!q)
			q = p + (size_t)i * isz;
		uint32_t v = isz == 2 ? (uint32_t)q[0] | (uint32_t)q[1] << 8 : nv_rd32le(q);
		if ((r = nvd_v3d_index(x, v)))
			return r;
		nv_wr32le(out + 1 + i, v);
	}
	*n = 1 + (size_t)count;
	return 0;
}

int nvd_v3d_index_batch(struct nvd_vctx *x, unsigned elem, uint32_t data)
{
	uint32_t f = V(IDXBUF_FORMAT);
	int u16 = (f & 0xf0) == NV40_IDXBUF_TYPE_U16;
	uint64_t isz = u16 ? 2 : 4;
	int r;

	(void)elem;
	if ((f & 0xf0) != NV40_IDXBUF_TYPE_U16 && (f & 0xf0) != 0)
		return nvd_v_fail(x, EINVAL, "IDXBUF_FORMAT 0x%x: unknown index type", f);
	r = nvd_v3d_draw(x);
	if (r)
		return r;
	r = nvd_v_extent(x, f & NV40_IDXBUF_DMA1 ? OBJ(DMA_VTXBUF1) : OBJ(DMA_VTXBUF0),
			 (uint64_t)V(IDXBUF_OFFSET) + NV40_BATCH_START(data) * isz,
			 NV40_BATCH_COUNT(data) * isz, NVD_ACCESS_READ, "index buffer");
	if (r)
		return r;
	/* through a client's own ctxdma: the indices are not the daemon's to
	 * read, any value may come */
	uint64_t max;
	r = nvd_v3d_vtx_max(x, &max);
	if (r)
		return r;
	uint32_t base = V(VB_ELEMENT_BASE);
	uint64_t hi = u16 ? 0xffff : 0xffffffffu;
	if (max == UINT64_MAX || (!u16 && max >= 0xffffffffu))
		return 0;
	/* idx + base (mod 2^32) for idx in 0..hi must stay <= max: no wrap and
	 * base + hi <= max */
	if ((uint64_t)base + hi > max)
		return nvd_v_fail(x, EFAULT, "VB_INDEX_BATCH: %s indices (base %u) can reach past "
				  "the vertex buffers (last vertex %llu)", u16 ? "u16" : "u32", base,
				  (unsigned long long)max);
	return 0;
}

int nvd_v3d_elements16(struct nvd_vctx *x, unsigned elem, uint32_t data)
{
	(void)elem;
	int r = nvd_v3d_draw(x);
	if (!r)
		r = nvd_v3d_index(x, data & 0xffff);
	if (!r)
		r = nvd_v3d_index(x, data >> 16);
	return r;
}

int nvd_v3d_elements32(struct nvd_vctx *x, unsigned elem, uint32_t data)
{
	(void)elem;
	int r = nvd_v3d_draw(x);
	if (!r)
		r = nvd_v3d_index(x, data);
	return r;
}

/* Inline vertices fetch nothing from memory; the draw still writes. */
int nvd_v3d_vertex_data(struct nvd_vctx *x, unsigned elem, uint32_t data)
{
	(void)elem;
	(void)data;
	return nvd_v3d_draw(x);
}

/* ---- reports ---- */

int nvd_v3d_query(struct nvd_vctx *x, unsigned elem, uint32_t data)
{
	(void)elem;
	return nvd_v_extent(x, OBJ(DMA_QUERY), NV40_QUERY_GET_OFFSET(data), NV40_QUERY_REPORT_SIZE,
			    NVD_ACCESS_WRITE, "QUERY_GET report");
}

int nvd_v3d_fence(struct nvd_vctx *x, unsigned elem, uint32_t data)
{
	(void)elem;
	(void)data;
	return nvd_v_extent(x, OBJ(DMA_FENCE), V(FENCE_OFFSET), 4, NVD_ACCESS_WRITE, "fence");
}

/* Render condition: 0x02000000 | offset reads the report at offset. */
#define NVD_V3D_COND_MODE(v)   ((v) >> 24)
#define NVD_V3D_COND_QUERY     2

int nvd_v3d_cond(struct nvd_vctx *x, unsigned elem, uint32_t data)
{
	(void)elem;
	if (NVD_V3D_COND_MODE(data) != NVD_V3D_COND_QUERY)
		return 0;
	return nvd_v_extent(x, OBJ(DMA_QUERY), data & 0xffffff, NV40_QUERY_REPORT_SIZE,
			    NVD_ACCESS_READ, "render condition report");
}
