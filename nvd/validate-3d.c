/* The 3D class's launches: what hw/access.h says a draw, a clear, a query
 * or a fence touches, checked against the submission's buffers at the
 * method where the card acts (with the state before its own value).
 *
 * A draw: every vertex method while a primitive is open (batches, inline
 * indices, VERTEX_DATA words, immediate VTX_ATTR_* writes) and
 * VERTEX_BEGIN_END ending one check nv40_acc_draw's surfaces, textures,
 * render condition and program, cached until a stored value changes
 * (x->gen) and never across submissions: a primitive left open by the
 * last submission is checked against this one's buffers at its first
 * vertex.  The program is the channel's shadow copy (validate-fp.c): its
 * fetch must be that and through the VRAM ctxdma.
 *
 * Vertices: nv40_acc_attr gives each fetched attribute's buffer; the
 * largest index every one of them holds (vtx_max, cached like the draw)
 * bounds VB_VERTEX_BATCH start + count - 1 and every inline index
 * (nv40_acc_index: through VB_ELEMENT_BASE, the restart index fetching
 * nothing).
 *
 * VB_INDEX_BATCH (0x4097): the index values are client memory the card
 * would read after validation, so the walker replaces each batch with the
 * same indices inline (nvd_v3d_index_expand), each checked as an inline
 * index: the card never reads them from the client.  Indices an M2MF copy
 * earlier in the submission writes are read from that copy's source (Mesa
 * uploads an index buffer and draws from it in one submission; what else
 * the card writes first is read as it is now, which may be stale but never
 * unsafe).  Only when the index buffer is behind a client's own ctxdma
 * (DMA_BO, not mapped here) does the batch stay, and then every index the
 * type can hold (u16: 0..65535, u32: any) plus the base must be inside the
 * vertex buffers.
 *
 * What cannot be checked: what a vertex program computes (it reads only
 * program and constant RAM, inside the card). */
#include <errno.h>

#include "hw/enums-3d.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "hw/tex.h"
#include "hw/vp-isa.h"
#include "nvd/validate-priv.h"

#define V(name) NVD_V(x, CURIE, name)

/* Everything a primitive's pixels touch, until the state changes. */
static int nvd_v3d_draw(struct nvd_vctx *x)
{
	struct nv_acc_list l;

	if (x->gen3d_draw == x->gen)
		return 0;
	nv40_acc_draw(&x->view, &l);
	if (l.trap)
		return nvd_v_fail(x, EINVAL, "%s (the card would trap)", l.why);
	for (unsigned i = 0; i < l.n; i++) {
		const struct nv_acc *a = &l.a[i];
		int r;
		if (a->kind != NV_ACC_PROGRAM) {
			if ((r = nvd_v_acc(x, a)))
				return r;
			continue;
		}
		/* the program: the shadow copy, fetched through the VRAM ctxdma */
		const struct nvd_vfp *fp = x->sub->fp;
		const struct nvd_vhobj *dma = nvd_v_rec(x, a->table, a->dma);
		if (!dma || dma->kind != NVD_VH(NVD_VOBJ_DMA_VRAM))
			return nvd_v_fail(x, EFAULT, "fragment program: its DMA_TEXTURE is no longer the "
					  "VRAM ctxdma");
		/* the card's whole fetch window, which branches may reach */
		if (!fp || a->off < fp->addr || (uint64_t)a->off + a->len > (uint64_t)fp->addr + fp->size)
			return nvd_v_fail(x, EFAULT, "fragment program 0x%llx: its fetch window is not in "
					  "the channel's copies", (unsigned long long)a->off);
	}
	x->gen3d_draw = x->gen;
	return 0;
}

/* The largest vertex index every fetched attribute's buffer holds. */
static int nvd_v3d_vtx_max(struct nvd_vctx *x, uint64_t *max)
{
	if (x->gen3d_vtx == x->gen) {
		*max = x->vtx_max;
		return 0;
	}
	uint64_t m = UINT64_MAX;
	for (unsigned i = 0; i < NV40_VP_INPUTS; i++) {
		static const char *names[NV40_VP_INPUTS] = {
			"vertex buffer 0", "vertex buffer 1", "vertex buffer 2", "vertex buffer 3",
			"vertex buffer 4", "vertex buffer 5", "vertex buffer 6", "vertex buffer 7",
			"vertex buffer 8", "vertex buffer 9", "vertex buffer 10", "vertex buffer 11",
			"vertex buffer 12", "vertex buffer 13", "vertex buffer 14", "vertex buffer 15",
		};
		struct nv_acc a;
		uint64_t room;
		int r = nv40_acc_attr(&x->view, i, &a);
		if (r < 0)
			return nvd_v_fail(x, EINVAL, "%s: VTXFMT 0x%x is no format", names[i],
					  NVD_VE(x, CURIE, VTXFMT, i));
		if (r)
			continue;
		if ((r = nvd_v_room(x, nvd_v_rec(x, a.table, a.dma), (uint64_t)a.off, NVD_ACCESS_READ,
				    names[i], &room)))
			return r;
		if (room < a.len)
			return nvd_v_fail(x, EFAULT, "%s 0x%llx: %llu bytes left, a vertex takes %llu",
					  names[i], (unsigned long long)a.off, (unsigned long long)room,
					  (unsigned long long)a.len);
		if (a.pitch && (room - a.len) / (uint64_t)a.pitch < m) {
			m = (room - a.len) / (uint64_t)a.pitch;
			x->vtx_max_attr = i;
		}
	}
	x->vtx_max = m;
	x->gen3d_vtx = x->gen;
	*max = m;
	return 0;
}

/* Vertices up to `last` are fetched. */
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

/* One index from the stream. */
static int nvd_v3d_index(struct nvd_vctx *x, uint32_t raw)
{
	uint32_t v;
	int r = nv40_acc_index(&x->view, raw, &v);
	if (r < 0)
		return nvd_v_fail(x, EINVAL, "index %u + VB_ELEMENT_BASE leaves 0 .. 2^32 - 1 (the card "
				  "would trap)", raw);
	return r ? nvd_v3d_fetch(x, v, "VB_ELEMENT") : 0;
}

static int nvd_v3d_open(const struct nvd_vctx *x)
{
	return V(VERTEX_BEGIN_END) != NV40_PRIM_STOP;
}

/* An index batch the walker could not expand: through a client's own
 * ctxdma, any value may come from memory the daemon does not read. */
static int nvd_v3d_index_batch(struct nvd_vctx *x, uint32_t data)
{
	struct nv_acc_list l;
	uint64_t max;
	int r;

	nv40_acc_index_batch(&x->view, 0, data, &l);
	if ((r = nvd_v_acc_list(x, &l)) || (r = nvd_v3d_vtx_max(x, &max)))
		return r;
	int u16 = nv40_acc_index_size(&x->view) == 2;
	int32_t base = (int32_t)V(VB_ELEMENT_BASE);
	/* idx + base for idx in 0..hi: the sums in 0..2^32-1 (the others
	 * trap) are fetched, the largest must be <= max */
	int64_t top = (int64_t)(u16 ? 0xffff : 0xffffffffu) + base;
	if (top > (int64_t)UINT32_MAX)
		top = UINT32_MAX;
	if (top >= 0 && (uint64_t)top > max)
		return nvd_v_fail(x, EFAULT, "VB_INDEX_BATCH: %s indices (base %d) can reach past "
				  "the vertex buffers (last vertex %llu)", u16 ? "u16" : "u32", base,
				  (unsigned long long)max);
	return 0;
}

int nvd_v3d_launch(struct nvd_vctx *x, nv_acc_fn *fn, uint32_t mthd, unsigned elem, uint32_t data)
{
	struct nv_acc_list l;
	int r;

	switch (mthd) {
	case NV_CURIE_CLEAR_BUFFERS:
	case NV_CURIE_QUERY_GET:
	case NV_CURIE_FENCE_VALUE:
		fn(&x->view, elem, data, &l);
		return nvd_v_acc_list(x, &l);
	case NV_CURIE_VERTEX_BEGIN_END:
		if (data > NV40_PRIM_POLYGON)
			return nvd_v_fail(x, EINVAL, "VERTEX_BEGIN_END %u: no such primitive", data);
		break;
	}
	if (!nvd_v3d_open(x))
		return 0;                /* outside a primitive nothing is drawn */
	if ((r = nvd_v3d_draw(x)))
		return r;
	switch (mthd) {
	case NV_CURIE_VB_VERTEX_BATCH:
		return nvd_v3d_fetch(x, (uint64_t)NV40_BATCH_START(data) + NV40_BATCH_COUNT(data) - 1,
				     "VB_VERTEX_BATCH");
	case NV_CURIE_VB_ELEMENT_U16:
		if ((r = nvd_v3d_index(x, data & 0xffff)))
			return r;
		return nvd_v3d_index(x, data >> 16);
	case NV_CURIE_VB_ELEMENT_U32:
		return nvd_v3d_index(x, data);
	case NV_CURIE_VB_INDEX_BATCH:
		return nvd_v3d_index_batch(x, data);
	}
	return 0;                        /* vertex data: nothing fetched */
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

/* A VB_INDEX_BATCH's indices, read once from the daemon's view of the
 * buffer (or of the source of an M2MF copy into it earlier in the
 * submission), each checked as an inline index, go to the card as a
 * VB_ELEMENT_U32 packet: out gets it (header and indices, little-endian),
 * *n its words.  1: the index buffer is behind a client's own ctxdma: the
 * batch stays and nvd_v3d_index_batch judges it. */
int nvd_v3d_index_expand(struct nvd_vctx *x, unsigned subc, uint32_t data, uint32_t *out,
			 size_t room, size_t *n)
{
	struct nv_acc_list l;
	const struct nv_acc *ib = NULL;
	int r;

	if (!nvd_v3d_open(x))
		return 1;                /* nothing is drawn: the card reads nothing */
	nv40_acc_index_batch(&x->view, 0, data, &l);
	for (unsigned i = 0; i < l.n; i++)
		if (l.a[i].kind == NV_ACC_INDEX)
			ib = &l.a[i];
	const struct nvd_vhobj *dma = ib ? nvd_v_rec(x, ib->table, ib->dma) : NULL;
	if (!ib || (dma && dma->kind == NVD_VH(NVD_VOBJ_DMA_BO)))
		return 1;
	if ((r = nvd_v3d_draw(x)) || (r = nvd_v_acc(x, ib)))
		return r;
	unsigned isz = nv40_acc_index_size(&x->view);
	uint32_t count = (uint32_t)(ib->len / isz);
	if (room < 1 + (size_t)count)
		return -E2BIG;
	unsigned bo = x->hint;
	const struct nvd_vbo *b = &x->sub->bos[bo];
	if (!b->map)
		return 1;
	uint64_t start = (uint64_t)ib->off;
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

/* Before the submission: a texture unit left enabled over memory this
 * submission may not read (a buffer freed since, perhaps another client's
 * now) is turned off, on the subchannel the 3D object is bound to.  The card
 * reads only the units the fragment program samples, and Mesa leaves a
 * destroyed context's units enabled on the channel the next context shares;
 * refusing every draw of that context would punish a state it never
 * touches.  A program that still samples such a unit gets an off unit. */
void nvd_v3d_prologue(struct nvd_vctx *x, uint32_t *out, size_t cap, size_t *n)
{
	unsigned subc = NV_SUBCHANNELS;

	*n = 0;
	for (unsigned s = 0; s < NV_SUBCHANNELS; s++) {
		const struct nv_class_desc *c = nv_class_find((uint16_t)x->sh->subc_cls[s]);
		if (c && c->table_id == NV_TABLE_CURIE)
			subc = s;
	}
	if (subc == NV_SUBCHANNELS)
		return;
	for (unsigned i = 0; i < NV40_TEX_UNITS && *n + 2 <= cap; i++) {
		struct nv_acc a;
		x->quiet = 1;          /* not this submission's fault */
		int off = nv40_acc_texture(&x->view, i, &a) && nvd_v_acc(x, &a);
		x->quiet = 0;
		if (!off)
			continue;
		uint32_t *en = &NVD_VE(x, CURIE, TEX_ENABLE, i);
		nvd_v_set(x, en, *en & ~NV40_TEX_ENABLE_ON);
		nv_wr32le(out + (*n)++, NV_CMD_INC_WORD(subc, NV_CURIE_TEX_ENABLE + i * NV_CURIE_TEX_ENABLE__STRIDE, 1));
		nv_wr32le(out + (*n)++, *en);
	}
}
