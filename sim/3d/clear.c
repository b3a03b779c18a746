/* CLEAR_BUFFERS: fill the enabled colour buffers with CLEAR_COLOR_VALUE
 * and zeta with CLEAR_DEPTH_VALUE.
 *
 * What is cleared (rnndb CLEAR_BUFFERS, Mesa nv30_clear.c):
 *  - bits 4-7 (R, G, B, A) write those channels of every colour buffer
 *    RT_ENABLE names.  CLEAR_COLOR_VALUE is already packed in the buffer's
 *    format (Mesa: util_pack_color with the surface format); 8- and 16-byte
 *    float pixels get the 32-bit value repeated, as a memory fill would
 *    (Mesa packs R,G as fp16 or R as fp32 there).  X bits of the X formats
 *    are written 0 (Z variants) or 1 (O variants).
 *  - bit 0 writes depth and bit 1 stencil: Z24S8 = z << 8 | s (bits 31:8 /
 *    7:0 of the value), Z16 = the low 16 bits.  Stencil is written under
 *    STENCIL_MASK(0): Mesa sets STENCIL_ENABLE(0) = 0 and MASK(0) = 0xff
 *    right before a stencil clear, which only makes sense if the mask
 *    applies.
 *  - the rectangle is RT_HORIZ/VERT ∩ SCISSOR_HORIZ/VERT, in surface
 *    pixels.  The window clip (VIEWPORT_CLIP) and VIEWPORT_TX_ORIGIN are
 *    not applied: Mesa's clear_render_target / clear_depth_stencil set only
 *    the RT and the scissor and leave the clip of the previous framebuffer,
 *    so they cannot be in the clear's path.
 * Which buffers it touches and where, and when it traps instead, is
 * hw/access.h's (nv40_acc_clear); all are mapped before anything is
 * written. */
#include "curie.h"
#include "bands.h"

#include <string.h>

#include "hw/enums-3d.h"
#include "rt.h"
#include "sim/swizzle.h"

struct clear_rect { unsigned x0, y0, x1, y1; };

static int clear_full(const uint8_t *msk, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (msk[i] != 0xff)
			return 0;
	return 1;
}

static void clear_fill(const struct sim_rt *rt, struct clear_rect r, const uint8_t *pat,
		       const uint8_t *msk)
{
	unsigned n = rt->bpp;
	int full = clear_full(msk, n);

	if (rt->swizzled) {
		if (r.x1 > 1u << rt->log2w)
			r.x1 = 1u << rt->log2w;
		if (r.y1 > 1u << rt->log2h)
			r.y1 = 1u << rt->log2h;
		for (unsigned y = r.y0; y < r.y1; y++)
			for (unsigned x = r.x0; x < r.x1; x++) {
				uint8_t *p = sim_rt_pixel(rt, x, y);
				if (!p)
					continue;
				for (unsigned i = 0; i < n; i++)
					p[i] = (uint8_t)((p[i] & ~msk[i]) | (pat[i] & msk[i]));
			}
		return;
	}
	if (r.x0 >= r.x1 || r.y0 >= r.y1)
		return;
	size_t row = (size_t)(r.x1 - r.x0) * n;
	for (unsigned y = r.y0; y < r.y1; y++) {
		uint8_t *p = sim_rt_pixel(rt, r.x0, y);
		/* rt.c mapped (y+h-1) * pitch + (x+w) * bpp: the row fits */
		if (!p || (uint64_t)(p - rt->mem) + row > rt->len)
			continue;
		if (full) {
			/* one pixel, then doubling copies */
			memcpy(p, pat, n);
			for (size_t done = n; done < row;) {
				size_t k = done < row - done ? done : row - done;
				memcpy(p + done, p, k);
				done += k;
			}
			continue;
		}
		if (n == 4) {
			/* four pixels at once, then one (depth without stencil:
			 * every Z24S8 clear of a GL depth buffer), as the loop
			 * below */
			typedef uint32_t clear_u4 __attribute__((vector_size(16)));
			uint32_t m, v, w;
			memcpy(&m, msk, 4);
			memcpy(&v, pat, 4);
			v &= m;
			clear_u4 m4 = { m, m, m, m }, v4 = { v, v, v, v }, w4;
			size_t o = 0;
			for (; o + 16 <= row; o += 16) {
				memcpy(&w4, p + o, 16);
				w4 = (w4 & ~m4) | v4;
				memcpy(p + o, &w4, 16);
			}
			for (; o < row; o += 4) {
				memcpy(&w, p + o, 4);
				w = (w & ~m) | v;
				memcpy(p + o, &w, 4);
			}
			continue;
		}
		for (size_t o = 0; o < row; o += n)
			for (unsigned i = 0; i < n; i++)
				p[o + i] = (uint8_t)((p[o + i] & ~msk[i]) | (pat[i] & msk[i]));
	}
}

/* The clear value's bytes in colour format fmt. */
static void clear_color_pattern(unsigned fmt, unsigned bpp, uint32_t v, uint8_t pat[16])
{
	for (unsigned i = 0; i < bpp && i < 16; i++)
		pat[i] = (uint8_t)(v >> (8 * (i % 4)));
	switch (fmt) {
	case NV40_RT_COLOR_X1R5G5B5_Z1R5G5B5:
		pat[1] &= 0x7f;
		break;
	case NV40_RT_COLOR_X1R5G5B5_O1R5G5B5:
		pat[1] |= 0x80;
		break;
	case NV40_RT_COLOR_X8R8G8B8_Z8R8G8B8:
	case NV40_RT_COLOR_X8B8G8R8_Z8B8G8R8:
		pat[3] = 0;
		break;
	case NV40_RT_COLOR_X8R8G8B8_O8R8G8B8:
	case NV40_RT_COLOR_X8B8G8R8_O8B8G8R8:
		pat[3] = 0xff;
		break;
	}
}

/* What one CLEAR_BUFFERS writes: each surface's pattern under its mask
 * over the rectangle, done by rows (sim_bands_rows). */
struct clear_plan {
	struct clear_rect r;
	unsigned n;
	struct clear_target {
		const struct sim_rt *rt;
		uint8_t pat[16], msk[16];
	} t[5];
};

static void clear_rows(void *arg, int y0, int y1)
{
	const struct clear_plan *p = arg;
	struct clear_rect r = p->r;

	r.y0 = (unsigned)y0;
	r.y1 = (unsigned)y1;
	for (unsigned i = 0; i < p->n; i++)
		clear_fill(p->t[i].rt, r, p->t[i].pat, p->t[i].msk);
}

void sim_3d_clear(struct sim *s, struct sim_grctx *g, uint32_t mode)
{
	const uint32_t *c = g->curie;
	unsigned cmask = (mode >> 4) & 0xf;
	struct nv_acc_state view;
	struct nv_acc_list l;
	struct sim_rts rts;
	struct clear_plan p = { .n = 0 };
	struct clear_rect *r = &p.r;

	sim_acc_view(s, g, &view);
	nv40_acc_clear(&view, 0, mode, &l);
	if (l.trap) {
		sim_gr_trap(s, sim_acc_nsource(l.trap));
		return;
	}
	if (!l.n || sim_rt_resolve(s, g, &l, &rts))
		return;

	uint32_t sh = c[NV_CURIE_SCISSOR_HORIZ__SLOT], sv = c[NV_CURIE_SCISSOR_VERT__SLOT];
	uint32_t sx0 = NV40_RECT_ORIGIN(sh), sx1 = sx0 + NV40_RECT_SIZE(sh);
	uint32_t sy0 = NV40_RECT_ORIGIN(sv), sy1 = sy0 + NV40_RECT_SIZE(sv);
	r->x0 = rts.x > sx0 ? rts.x : sx0;
	r->y0 = rts.y > sy0 ? rts.y : sy0;
	r->x1 = rts.x + rts.w < sx1 ? rts.x + rts.w : sx1;
	r->y1 = rts.y + rts.h < sy1 ? rts.y + rts.h : sy1;
	if (r->x0 >= r->x1 || r->y0 >= r->y1)
		return;

	for (unsigned i = 0; cmask && i < 4; i++) {
		static const float zero[4];
		struct clear_target *t = &p.t[p.n];
		if (!rts.color[i].mem)
			continue;
		/* the masks of the channels; the pattern is the packed value */
		t->rt = &rts.color[i];
		sim_rt_pack(t->rt->format, zero, cmask, t->pat, t->msk);
		clear_color_pattern(t->rt->format, t->rt->bpp, c[NV_CURIE_CLEAR_COLOR_VALUE__SLOT], t->pat);
		p.n++;
	}

	if (rts.zeta.mem) {
		uint32_t v = c[NV_CURIE_CLEAR_DEPTH_VALUE__SLOT], m = 0;
		struct clear_target *t = &p.t[p.n];
		if (rts.zeta.format == NV40_RT_ZETA_Z24S8) {
			if (mode & NV40_CLEAR_DEPTH)
				m |= 0xffffff00u;
			if (mode & NV40_CLEAR_STENCIL)
				m |= c[NV_CURIE_STENCIL_MASK__SLOT] & 0xff;
		} else if (mode & NV40_CLEAR_DEPTH) {
			m = 0xffff;
		}
		memset(t, 0, sizeof(*t));
		t->rt = &rts.zeta;
		for (unsigned i = 0; i < rts.zeta.bpp; i++) {
			t->pat[i] = (uint8_t)(v >> (8 * i));
			t->msk[i] = (uint8_t)(m >> (8 * i));
		}
		p.n += m != 0;
	}

	/* the fragment threads' bands share it when no row's bytes are
	 * another's; else one thread, surface after surface */
	const struct sim_rt *w[5];
	for (unsigned i = 0; i < p.n; i++)
		w[i] = p.t[i].rt;
	if (sim_rt_rows_apart(w, p.n, r->x1))
		sim_bands_rows(s, g, (int)r->y0, (int)r->y1,
			       (uint64_t)(r->x1 - r->x0) * (r->y1 - r->y0), clear_rows, &p);
	else
		clear_rows(&p, (int)r->y0, (int)r->y1);
}
