/* Vertex fetch: the 16 vertex program inputs of one vertex, from the
 * vertex buffers (VTXFMT size != 0: VTXBUF offset + index * stride in
 * DMA_VTXBUF0/1), from inline VERTEX_DATA words (the same formats, each
 * attribute padded to a word, as Mesa's nv30_push.c packs them) or from the
 * constant attribute values (slot off). */
#include "pipe.h"

#include <string.h>

#include "hw/enums-3d.h"

static const float fetch_default[4] = { 0.0f, 0.0f, 0.0f, 1.0f };

/* Bytes per component of a VTXFMT type, 0 for none. */
static unsigned fetch_csize(unsigned type)
{
	switch (type) {
#define FETCH_CSIZE_(nm, v, sz) case (v): return (sz);
	NV40_VTXFMT_TYPES(FETCH_CSIZE_)
	default:
		return 0;
	}
}

/* Decode n components of type at p (little-endian) into v (rest default). */
static void fetch_decode(unsigned type, unsigned n, const uint8_t *p, float v[4])
{
	memcpy(v, fetch_default, sizeof(fetch_default));
	for (unsigned c = 0; c < n && c < 4; c++) {
		switch (type) {
		case NV40_VTXFMT_B8G8R8A8_UNORM: {
			static const uint8_t order[4] = { 2, 1, 0, 3 };   /* D3DCOLOR: B G R A */
			v[c] = (float)p[order[c]] * (1.0f / 255.0f);
			break;
		}
		case NV40_VTXFMT_V16_SNORM: {
			float f = (float)(int16_t)draw_rd16le(p + 2 * c) * (1.0f / 32767.0f);
			v[c] = f < -1.0f ? -1.0f : f;
			break;
		}
		case NV40_VTXFMT_V32_FLOAT:
			v[c] = sim_u2f(nv_rd32le(p + 4 * c));
			break;
		case NV40_VTXFMT_V16_FLOAT:
			v[c] = sim_h2f(draw_rd16le(p + 2 * c));
			break;
		case NV40_VTXFMT_U8_UNORM:
			v[c] = (float)p[c] * (1.0f / 255.0f);
			break;
		case NV40_VTXFMT_V16_SSCALED:
			v[c] = (float)(int16_t)draw_rd16le(p + 2 * c);
			break;
		case NV40_VTXFMT_U8_USCALED:
			v[c] = (float)p[c];
			break;
		}
	}
}

static void fetch_const(const struct sim_grctx *g, unsigned i, float v[4])
{
	for (unsigned c = 0; c < 4; c++)
		v[c] = sim_u2f(g->c3d.draw.attr[i][c]);
}

/* Each slot's last mapping, reused while a draw lasts (one channel, one
 * VERTEX_BEGIN_END): one ctxdma resolution per batch instead of per vertex. */
static __thread struct {
	const struct sim *s;
	unsigned chid;
	uint32_t gen, dma;
	uint64_t off, len;
	const uint8_t *p;
} fetch_win[NV40_VP_INPUTS];

static const uint8_t *fetch_map_window(struct sim *s, unsigned slot, uint32_t dma,
				       uint64_t off, uint64_t len, unsigned stride)
{
	typeof(fetch_win[0]) *w = &fetch_win[slot];

	if (w->p && w->s == s && w->chid == s->gr_chid && w->gen == sim_draw_gen() &&
	    w->dma == dma && off >= w->off && off - w->off + len <= w->len)
		return w->p + (off - w->off);
	/* a window for the next 256 vertices; the exact range if that faults */
	uint64_t big = (uint64_t)stride * 256 + len;
	const uint8_t *p = sim_dma_map(s, dma, off, big, 0);
	if (!p) {
		big = len;
		p = sim_dma_map(s, dma, off, len, 0);
	}
	w->p = p;
	w->s = s;
	w->chid = s->gr_chid;
	w->gen = sim_draw_gen();
	w->dma = dma;
	w->off = off;
	w->len = p ? big : 0;
	return p;
}

/* The window reaches ahead of what is read: the access oracle checks each
 * read, not the window.  A draw abandoned by a PGRAPH reset reads nothing
 * more through a window it mapped before (its channel may be gone). */
static const uint8_t *fetch_map(struct sim *s, unsigned slot, uint32_t dma, uint64_t off,
				uint64_t len, unsigned stride)
{
	if (sim_gr_abandoned(s))
		return NULL;
	sim_oracle_defer(s, 1);
	const uint8_t *p = fetch_map_window(s, slot, dma, off, len, stride);
	sim_oracle_defer(s, -1);
	if (p)
		sim_oracle_check_ptr(s, p, len, 0, sim_oracle_attr(slot));
	return p;
}

int sim_draw_fetch(struct sim *s, struct sim_grctx *g, const struct nv_acc_state *view,
		   uint64_t index, float in[NV40_VP_INPUTS][4])
{
	uint32_t en = DRAW_C(g, VP_ATTRIB_EN);

	for (unsigned i = 0; i < NV40_VP_INPUTS; i++) {
		uint32_t fmt = DRAW_CI(g, VTXFMT, i);
		struct nv_acc a;
		int r = nv40_acc_attr(view, i, &a);

		if (r < 0) {
			sim_gr_trap(s, NV_PGRAPH_NSOURCE_DATA_ERROR);
			return -1;
		}
		if (r) {                 /* not from memory: the default or the constant */
			if (en & (1u << i))
				fetch_const(g, i, in[i]);
			else
				memcpy(in[i], fetch_default, sizeof(fetch_default));
			continue;
		}
		/* index < 2^32 and stride < 256: no overflow in 64 bits */
		uint64_t off = (uint64_t)a.off + index * (uint64_t)a.pitch;
		const uint8_t *p = fetch_map(s, i, g->curie[a.dma], off, a.len, (unsigned)a.pitch);
		if (!p) {
			sim_gr_trap(s, NV_PGRAPH_NSOURCE_DMA_R_PROTECTION);
			return -1;
		}
		fetch_decode(NV40_VTXFMT_TYPE(fmt), NV40_VTXFMT_SIZE(fmt), p, in[i]);
	}
	return 0;
}

unsigned sim_draw_inline_words(const struct sim_grctx *g)
{
	unsigned words = 0;

	for (unsigned i = 0; i < NV40_VP_INPUTS; i++) {
		uint32_t fmt = DRAW_CI(g, VTXFMT, i);
		unsigned n = NV40_VTXFMT_SIZE(fmt), cs = fetch_csize(NV40_VTXFMT_TYPE(fmt));
		if (n > 4)
			n = 4;
		if (n && cs)
			words += (n * cs + 3) / 4;
	}
	return words;
}

void sim_draw_fetch_inline(struct sim_grctx *g, const uint32_t *w, float in[NV40_VP_INPUTS][4])
{
	uint32_t en = DRAW_C(g, VP_ATTRIB_EN);
	uint8_t bytes[16];

	for (unsigned i = 0; i < NV40_VP_INPUTS; i++) {
		uint32_t fmt = DRAW_CI(g, VTXFMT, i);
		unsigned type = NV40_VTXFMT_TYPE(fmt), n = NV40_VTXFMT_SIZE(fmt);
		unsigned cs = fetch_csize(type), nw;

		if (n > 4)
			n = 4;
		if (!n || !cs) {
			if (en & (1u << i))
				fetch_const(g, i, in[i]);
			else
				memcpy(in[i], fetch_default, sizeof(fetch_default));
			continue;
		}
		nw = (n * cs + 3) / 4;
		for (unsigned k = 0; k < nw; k++)
			nv_wr32le(bytes + 4 * k, w[k]);
		w += nw;
		if (en & (1u << i))
			fetch_decode(type, n, bytes, in[i]);
		else
			memcpy(in[i], fetch_default, sizeof(fetch_default));
	}
}
