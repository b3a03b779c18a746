/* What a draw touches, for the access oracle (sim/oracle.c).
 *
 * The 3D engine resolves a draw's state once (struct draw_setup: surfaces,
 * textures, the fragment program's window, the render condition, each as
 * hw/access.h lists it) and keeps it while the method state stays the
 * same: across methods, and so across submissions.  Its maps are deferred
 * (draw.c) and checked here instead, at the launch that resolved it and
 * again at the first launch of every later submission that uses it: each
 * with the pointer and length the setup holds, named by the model's kind. */
#include "pipe.h"

static const char *const oracle_color[4] = {
	"colour buffer 0", "colour buffer 1", "colour buffer 2", "colour buffer 3",
};
static const char *const oracle_tex[16] = {
	"texture 0", "texture 1", "texture 2", "texture 3", "texture 4", "texture 5",
	"texture 6", "texture 7", "texture 8", "texture 9", "texture 10", "texture 11",
	"texture 12", "texture 13", "texture 14", "texture 15",
};
_Static_assert(NV40_TEX_UNITS <= 16, "a name per texture unit");

static const char *oracle_name(const struct nv_acc *a)
{
	if (a->kind == NV_ACC_COLOR && a->unit < 4)
		return oracle_color[a->unit];
	if (a->kind == NV_ACC_TEXTURE && a->unit < 16)
		return oracle_tex[a->unit];
	return a->kind < NV_ACC_NKINDS ? nv_acc_kind_name[a->kind] : NULL;
}

static const char *const oracle_attr_names[16] = {
	"vertex attribute 0", "vertex attribute 1", "vertex attribute 2", "vertex attribute 3",
	"vertex attribute 4", "vertex attribute 5", "vertex attribute 6", "vertex attribute 7",
	"vertex attribute 8", "vertex attribute 9", "vertex attribute 10", "vertex attribute 11",
	"vertex attribute 12", "vertex attribute 13", "vertex attribute 14", "vertex attribute 15",
};
_Static_assert(NV40_VP_INPUTS <= 16, "a name per vertex attribute");

const char *sim_oracle_attr(unsigned slot)
{
	return slot < 16 ? oracle_attr_names[slot] : "vertex attribute";
}

/* Both directions of a region the setup holds. */
static void oracle_region(struct sim *s, const struct nv_acc *a, const uint8_t *p, uint64_t len)
{
	if (!p)
		return;
	if (a->dir & NV_ACC_READ)
		sim_oracle_check_ptr(s, p, len, 0, oracle_name(a));
	if (a->dir & NV_ACC_WRITE)
		sim_oracle_check_ptr(s, p, len, 1, oracle_name(a));
}

void sim_oracle_draw(struct sim *s, struct sim_grctx *g, const struct draw_setup *d, int built)
{
	/* the worker's: one setup checked per submission */
	static __thread const struct sim *last_s;
	static __thread const struct draw_setup *last;
	static __thread uint64_t last_serial;
	struct nv_acc_state view;
	struct nv_acc_list l;
	uint64_t serial;

	if (!s->orc)
		return;
	serial = sim_oracle_sub_serial(s);
	if (!built && s == last_s && d == last && serial && serial == last_serial)
		return;
	last_s = s;
	last = d;
	last_serial = serial;
	sim_acc_view(s, g, &view);
	nv40_acc_draw(&view, &l);
	for (unsigned i = 0; i < l.n; i++) {
		const struct nv_acc *a = &l.a[i];
		uint64_t lo, span;
		switch (a->kind) {
		case NV_ACC_COLOR:
			if (!d->broken && d->render && a->unit < 4)
				oracle_region(s, a, d->rts.color[a->unit].mem, d->rts.color[a->unit].len);
			break;
		case NV_ACC_ZETA:
			if (!d->broken && d->render)
				oracle_region(s, a, d->rts.zeta.mem, d->rts.zeta.len);
			break;
		case NV_ACC_PROGRAM:
			if (!d->broken && d->render)
				oracle_region(s, a, d->fp, d->fp_len);
			break;
		case NV_ACC_TEXTURE:
			if (!d->broken && d->render && a->unit < NV40_TEX_UNITS)
				oracle_region(s, a, d->texmem[a->unit], a->len);
			break;
		default:
			/* the render condition's report, read when the setup was
			 * resolved: the region the model gives */
			if (nv_acc_bounds(a, &lo, &span) < 0)
				break;
			sim_oracle_defer(s, 1);
			const uint8_t *p = sim_dma_map(s, g->curie[a->dma], lo, span, 0);
			sim_oracle_defer(s, -1);
			oracle_region(s, a, p, span);
			break;
		}
	}
}
