/* Every method at which the card touches memory (hw/access.h
 * NV_ACC_LAUNCHES), of every class, tried against the validator with random
 * states aimed at another client's buffers and at the daemon's memory.
 *
 * For each launch row, each round sets every value the model reads
 * (NV_ACC_INPUTS) and every handle method to random values through a real
 * command stream (addresses drawn from the submission's buffers and their
 * edges, an unlisted buffer of "another client", the daemon's program
 * shadow area and VRAM above the clients', random words; ctxdmas and
 * linked objects from the channel's), then the launch.  What the card would
 * touch is the model's answer for the same state; what the submission may
 * touch, its listed buffers.  The validator must accept a launch only when
 * every region lies in a listed buffer of its ctxdma's domain (listed for
 * writing where the card writes), and refuse every trap.  It must also
 * accept every such safe launch, but for vertex fetches, which it bounds
 * per attribute buffer (stricter than the model across adjacent buffers).
 * Each row must be seen both accepted and refused, so a row is never
 * passed vacuously; a new row of the table gets tried without anyone
 * writing its test. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/access.h"
#include "hw/enums-2d.h"
#include "hw/formats.h"
#include "hw/enums-3d.h"
#include "hw/fp-isa.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "nvd/validate.h"

#define ROUNDS 1500

/* ---- the submission's buffers, another client's, the daemon's ---- */

#define PB_ADDR   0x00100000u
#define PB_SIZE   0x20000u
#define VA_ADDR   0x00200000u           /* VRAM, read-write */
#define VA_SIZE   0x00100000u
#define VIC_ADDR  0x00300000u           /* VRAM, another client's (unlisted) */
#define VR_ADDR   0x00400000u           /* VRAM, read-only */
#define VR_SIZE   0x00010000u
#define FPB_ADDR  0x00600000u           /* VRAM, the program, read-only */
#define GA_ADDR   0x00800000u           /* GART, read-write */
#define GA_SIZE   0x00010000u
#define GVIC_ADDR 0x00810000u           /* GART, another client's (unlisted) */
#define FP_AREA   0x07000000u           /* the daemon's program shadow */
#define FP_SIZE   (256u << 10)
#define DAEMON    0x07400000u           /* VRAM above the clients' */

enum { BO_PUSH, BO_VA, BO_VR, BO_FP, BO_GA, NBOS };

static uint8_t pushmem[PB_SIZE], fpmem[4096];
static struct nvd_vbo bos[NBOS] = {
	[BO_PUSH] = { PB_ADDR, PB_SIZE, NVD_DOMAIN_GART, NVD_ACCESS_READ, pushmem },
	[BO_VA]   = { VA_ADDR, VA_SIZE, NVD_DOMAIN_VRAM, NVD_ACCESS_RW, NULL },
	[BO_VR]   = { VR_ADDR, VR_SIZE, NVD_DOMAIN_VRAM, NVD_ACCESS_READ, NULL },
	[BO_FP]   = { FPB_ADDR, 4096, NVD_DOMAIN_VRAM, NVD_ACCESS_READ, fpmem },
	[BO_GA]   = { GA_ADDR, GA_SIZE, NVD_DOMAIN_GART, NVD_ACCESS_RW, NULL },
};

enum {
	H_NULL = 0, H_VRAM = 0xbeef0201, H_GART = 0xbeef0202, H_NTFY = 0xd8000003,
	H_SURF2D = 0x5a000062, H_SWZ = 0x5a00309e, H_CLIP = 0x5a000019, H_ROP = 0x5a000043,
	H_PATT = 0x5a000044,
};
#define NTFY_SIZE 32u

/* One object of every class, under its class number; the state objects. */
static struct nvd_vobj objs[64];
static unsigned nobjs;

static const struct nvd_vobj *lookup(void *ctx, uint32_t handle)
{
	(void)ctx;
	for (unsigned i = 0; i < nobjs; i++)
		if (objs[i].handle == handle)
			return &objs[i];
	return NULL;
}

static void make_objects(void)
{
	static const struct nvd_vobj fixed[] = {
		{ H_NULL, NV_CLASS_NULL_OBJ, NVD_VOBJ_NULL, 0, 0, 0 },
		{ H_VRAM, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_VRAM, 0, 0, 0 },
		{ H_GART, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_GART, 0, 0, 0 },
		{ H_NTFY, NV_CLASS_DMA_IN_MEMORY, NVD_VOBJ_DMA_BO, NVD_DOMAIN_GART, GA_ADDR, NTFY_SIZE },
	};
	memcpy(objs, fixed, sizeof(fixed));
	nobjs = sizeof(fixed) / sizeof(fixed[0]);
	for (unsigned i = 0; nv_class_at(i); i++)
		if (nv_class_at(i)->is_gr)
			objs[nobjs++] = (struct nvd_vobj){ 0x5a000000u | nv_class_at(i)->cls,
							   nv_class_at(i)->cls, NVD_VOBJ_GR, 0, 0, 0 };
}

/* ---- the test's own copy of the state, as hw/access.h reads it ---- */

#define TAB_(P, rows) uint32_t P[NV_##P##__NSLOTS + 1];
static struct { NV_TABLES(TAB_) } tabs;
static struct nv_acc_state view;

static const struct nvd_vobj *handle_obj(uint32_t h)
{
	return lookup(NULL, h);
}

static unsigned view_cls(const struct nv_acc_state *st, uint32_t h)
{
	const struct nvd_vobj *o = handle_obj(h);
	(void)st;
	return o && o->kind == NVD_VOBJ_GR ? o->cls : 0;
}

static void make_view(void)
{
#define VIEW_(P, rows) view.t[NV_TABLE_##P] = tabs.P;
	NV_TABLES(VIEW_)
	view.cls = view_cls;
}

/* ---- random values ---- */

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static uint32_t small(void)
{
	switch (rnd() % 8) {
	case 0: return 0;
	case 1: return rnd() % 4;
	case 2: return rnd() % 256;
	case 3: return (rnd() % 64) << 16 | (rnd() % 64);
	case 4: return 1u << (rnd() % 32);
	case 5: return rnd() & 0x00ffffff;
	case 6: return (rnd() % 16) << 16 | (rnd() % 16) << 8 | (rnd() % 16);
	default: return rnd();
	}
}

/* An address near the edges of what matters. */
static uint32_t address(void)
{
	static const uint32_t at[] = {
		VA_ADDR, VA_ADDR + VA_SIZE, VR_ADDR, VR_ADDR + VR_SIZE, GA_ADDR, GA_ADDR + GA_SIZE,
		VIC_ADDR, GVIC_ADDR, FP_AREA, FP_AREA + FP_SIZE / 2, DAEMON, 0, NTFY_SIZE,
	};
	uint32_t a = at[rnd() % (sizeof(at) / sizeof(at[0]))];
	switch (rnd() % 4) {
	case 0: return a;
	case 1: return a - (rnd() % 64) * 16;
	case 2: return a + (rnd() % 64) * 16;
	default: return a | (rnd() & 0x80000003u);      /* DMA bits of VTXBUF, IDXBUF */
	}
}

/* Half the time a valid encoding of the fields the engines trap on, from
 * hw/'s own tables, so that every engine gets past its traps as often as
 * into them; -1 for any other method. */
#define VAL_(nm, v, ...) (v),
static const uint32_t surf_fmts[] = { NV_SURF_FORMATS(VAL_) };
static const uint32_t gdi_fmts[] = { NV_GDI_COLOR_FORMATS(VAL_) };
static const uint32_t ifc_fmts[] = { NV_IFC_COLOR_FORMATS(VAL_) };
static const uint32_t sifm_fmts[] = { NV_SIFM_COLOR_FORMATS(VAL_) };
static const uint32_t rt_colors[] = { NV40_RT_COLOR_FORMATS(VAL_) };
static const uint32_t rt_zetas[] = { NV40_RT_ZETA_FORMATS(VAL_) };
#define PICK(a) ((int64_t)(a)[rnd() % (sizeof(a) / sizeof((a)[0]))])

static int64_t hinted(unsigned table, uint32_t m)
{
	if (rnd() % 2)
		return -1;
	uint32_t inc[3] = { 1, 2, 4 };
	int64_t op = rnd() % 2 ? NV_2D_OPERATION_SRCCOPY : NV_2D_OPERATION_ROP_AND;
	switch (table) {
	case NV_TABLE_M2MF:
		return m == NV_M2MF_FORMAT ? (int64_t)NV_M2MF_FORMAT(PICK(inc), PICK(inc)) : -1;
	case NV_TABLE_SURF2D:
		return m == NV_SURF2D_FORMAT ? PICK(surf_fmts) : -1;
	case NV_TABLE_SWZSURF:
		return m == NV_SWZSURF_FORMAT ? PICK(surf_fmts) | (int64_t)((rnd() % 12) << 16 | (rnd() % 12) << 24)
					      : -1;
	case NV_TABLE_GDI:
		return m == NV_GDI_OPERATION ? op : m == NV_GDI_COLOR_FORMAT ? PICK(gdi_fmts) : -1;
	case NV_TABLE_BLIT:
		return m == NV_BLIT_OPERATION ? op : -1;
	case NV_TABLE_IFC:
		return m == NV_IFC_OPERATION ? op : m == NV_IFC_COLOR_FORMAT ? PICK(ifc_fmts) : -1;
	case NV_TABLE_SIFM:
		return m == NV_SIFM_OPERATION ? op : m == NV_SIFM_COLOR_FORMAT ? PICK(sifm_fmts) :
		       m == NV_SIFM_FORMAT ? (int64_t)((rnd() % 2 + 1) << 16 | (rnd() % 2) << 24 | (rnd() % 4096)) :
		       m == NV_SIFM_SIZE ? (int64_t)((2 + 2 * (rnd() % 64)) | (1 + rnd() % 64) << 16) : -1;
	case NV_TABLE_CURIE:
		return m == NV_CURIE_RT_FORMAT ? PICK(rt_colors) | PICK(rt_zetas) << 5 |
						 (int64_t)((1 + rnd() % 2) << 8 | (rnd() % 8) << 16 |
							   (rnd() % 8) << 24)
					       : -1;
	}
	return -1;
}

static uint32_t handle_for(const struct nv_mthd_desc *d)
{
	static const uint32_t dmas[] = { H_VRAM, H_GART, H_NTFY, H_NULL };
	static const uint32_t grs[] = { H_SURF2D, H_SWZ, H_CLIP, H_ROP, H_PATT, H_NULL };
	if (!strcmp(d->name, "DMA_NOTIFY"))
		return rnd() % 2 ? H_NTFY : H_NULL;
	if (!strncmp(d->name, "DMA_", 4))
		return dmas[rnd() % 4];
	return grs[rnd() % 6];
}

/* ---- the stream ---- */

static uint32_t pn;

static void emit(uint32_t w)
{
	nv_wr32le(pushmem + 4 * pn++, w);
}

static void mthd(unsigned subc, uint32_t m, uint32_t v)
{
	emit(NV_CMD_INC_WORD(subc, m, 1));
	emit(v);
}

static const struct nv_class_desc *class_of(unsigned table)
{
	for (unsigned i = 0; nv_class_at(i); i++)
		if (nv_class_at(i)->table_id == table && nv_class_at(i)->is_gr)
			return nv_class_at(i);
	return NULL;
}

static int is_input(unsigned table, const struct nv_mthd_desc *d)
{
#define IS_INPUT_(T, NAME) if (table == NV_TABLE_##T && d->offset == NV_##T##_##NAME) return 1;
	NV_ACC_INPUTS(IS_INPUT_)
	return 0;
}

/* What this round's stream must keep as it is. */
static int kept(unsigned table, const struct nv_mthd_desc *d)
{
	return table == NV_TABLE_CURIE &&
	       (d->offset == NV_CURIE_FP_ACTIVE_PROGRAM || d->offset == NV_CURIE_DMA_TEXTURE0 ||
		d->offset == NV_CURIE_VERTEX_BEGIN_END);
}

/* Every input and handle of every table, random, in the stream and in the
 * test's copy; subchannel 0 takes each class in turn. */
static void random_state(void)
{
	/* first the 3D class on subchannel 7 with a program bound through
	 * VRAM (its bind leaves the daemon's copy in the M2MF state, which
	 * the random values then replace) */
	memset(&tabs, 0, sizeof(tabs));
	mthd(7, NV_FIFO_OBJECT, 0x5a000000u | class_of(NV_TABLE_CURIE)->cls);
	mthd(7, NV_CURIE_DMA_TEXTURE0, H_VRAM);
	mthd(7, NV_CURIE_FP_ACTIVE_PROGRAM, FPB_ADDR | NV40_FP_PROGRAM_DMA0);
	tabs.CURIE[NV_CURIE_DMA_TEXTURE0__SLOT] = H_VRAM;
	tabs.CURIE[NV_CURIE_FP_ACTIVE_PROGRAM__SLOT] = FP_AREA | NV40_FP_PROGRAM_DMA0;
	for (unsigned t = 0; t < NV_TABLE_COUNT; t++) {
		const struct nv_class_desc *c = class_of(t);
		if (!c || t == NV_TABLE_NVSW)
			continue;
		mthd(0, NV_FIFO_OBJECT, 0x5a000000u | c->cls);
		for (unsigned r = 0; r < c->nmthds; r++) {
			const struct nv_mthd_desc *d = &c->mthds[r];
			int handle = d->kind == NV_MK_HANDLE && d->offset >= NV_MTHD_FIFO_END;
			if ((!handle && !is_input(t, d)) || kept(t, d))
				continue;
			for (unsigned e = 0; e < d->count; e++) {
				int64_t hint = hinted(t, d->offset);
				uint32_t v = handle ? handle_for(d) : hint >= 0 ? (uint32_t)hint :
					     d->kind == NV_MK_ADDR ? address() : small();
				mthd(0, d->offset + e * d->stride, v);
				((uint32_t *)view.t[t])[d->slot + e] = v;
			}
		}
	}
}

/* ---- what the submission may touch ---- */

static int region_ok(const struct nv_acc *a)
{
	uint64_t lo, span;
	if (nv_acc_bounds(a, &lo, &span) < 0)
		return 0;
	if (lo > UINT32_MAX || span > (1ull << 32) - lo)
		return 0;
	uint32_t h = view.t[a->table][a->dma];
	const struct nvd_vobj *o = handle_obj(h);
	if (!o || (a->kind == NV_ACC_PROGRAM && o->kind != NVD_VOBJ_DMA_VRAM))
		return 0;
	if (a->kind == NV_ACC_PROGRAM)
		return 1;                        /* the daemon's copy of the program */
	if (o->kind == NVD_VOBJ_DMA_BO)
		return lo + span <= o->size;
	unsigned dom = o->kind == NVD_VOBJ_DMA_VRAM ? NVD_DOMAIN_VRAM :
		       o->kind == NVD_VOBJ_DMA_GART ? NVD_DOMAIN_GART : 0;
	for (unsigned i = 0; dom && i < NBOS; i++) {
		const struct nvd_vbo *b = &bos[i];
		unsigned need = a->dir & NV_ACC_WRITE ? NVD_ACCESS_WRITE : NVD_ACCESS_RW;
		if (b->domain == dom && lo >= b->addr && lo + span <= b->addr + b->size &&
		    (b->access & need))
			return 1;
	}
	return 0;
}

/* ---- the rows ---- */

struct row {
	unsigned table;
	const struct nv_mthd_desc *d;
	unsigned accepted, refused, trapped, mismatch;
};

static unsigned all_rows(struct row *rows, unsigned max)
{
	unsigned n = 0;
	for (unsigned i = 0; nv_class_at(i); i++) {
		const struct nv_class_desc *c = nv_class_at(i);
		int seen = 0;
		for (unsigned k = 0; k < n; k++)
			seen |= rows[k].table == c->table_id;
		for (unsigned r = 0; r < c->nmthds && !seen; r++)
			if (nv_acc_launch(c->table_id, c->mthds[r].offset) && n < max)
				rows[n++] = (struct row){ c->table_id, &c->mthds[r], 0, 0, 0, 0 };
	}
	return n;
}

static void try_row(struct row *w)
{
	static uint32_t out[PB_SIZE / 4 + 4096];
	static struct nvd_vfp fpsh = { 0, FP_AREA, FP_SIZE, 0x6e766401, 0x6e766402, 0x6e766403,
				       0x6e766404, 0x6e766400, 0x6e766405, -1 };
	const struct nv_class_desc *c = class_of(w->table);
	unsigned subc = w->table == NV_TABLE_CURIE ? 7 : 0;
	unsigned e = rnd() % w->d->count;
	uint32_t m = w->d->offset + e * w->d->stride;
	nv_acc_fn *fn = nv_acc_launch(w->table, m);
	uint32_t data = w->d->offset == NV_CURIE_QUERY_GET && w->table == NV_TABLE_CURIE ?
			(rnd() % 4) << 24 | (address() & 0xffffff) : small();
	struct nv_acc_list l;
	int vertex = 0, safe = 1;

	pn = 0;
	random_state();
	mthd(subc, NV_FIFO_OBJECT, 0x5a000000u | c->cls);
	if (w->table == NV_TABLE_CURIE && fn != nv40_acc_clear && fn != nv40_acc_query &&
	    fn != nv40_acc_fence) {
		/* a vertex method draws in an open primitive */
		uint32_t prim = 1 + rnd() % NV40_PRIM_POLYGON;
		mthd(7, NV_CURIE_VERTEX_BEGIN_END, prim);
		tabs.CURIE[NV_CURIE_VERTEX_BEGIN_END__SLOT] = prim;
	}
	mthd(subc, m, data);
	fn(&view, e, data, &l);
	for (unsigned i = 0; i < l.n; i++) {
		vertex |= l.a[i].kind == NV_ACC_VERTEX || l.a[i].kind == NV_ACC_INDEX;
		safe &= region_ok(&l.a[i]);
	}
	if (l.trap)
		safe = 0;

	struct nvd_vstate *vs = nvd_vstate_new();
	struct nvd_submit_push p = { BO_PUSH, 0, pn * 4 };
	struct nvd_vsubmit s = { bos, NBOS, &p, 1, NULL, 0, lookup, NULL, 0, NULL, &fpsh };
	struct nvd_verror err;
	assert_non_null(vs);
	fpsh.head = 0;
	long n = nvd_validate(vs, &s, out, sizeof(out) / 4, &err);
	nvd_vstate_free(vs);
	int accepted = n >= 0;
	w->accepted += accepted;
	w->refused += !accepted;
	w->trapped += l.trap != 0;
	if (accepted && !safe) {
		fail_msg("%s.%s(%u) = 0x%08x accepted, but the card would %s", c->table, w->d->name,
			 e, data, l.trap ? "trap" : "touch memory the submission does not hold");
	}
	/* a state the stream's own setup refused proves nothing about the launch */
	if (!accepted && safe && !vertex && err.mthd == m) {
		w->mismatch++;
		print_error("%s.%s(%u) = 0x%08x: safe, refused: %s\n", c->table, w->d->name, e, data,
			    err.why);
	}
}

static void every_launch_refuses_what_the_submission_does_not_hold(void **state)
{
	struct row rows[64];
	unsigned n = all_rows(rows, 64);
	(void)state;
	make_objects();
	make_view();
	assert_true(n >= 20);
	for (unsigned round = 0; round < ROUNDS; round++)
		for (unsigned i = 0; i < n; i++)
			try_row(&rows[i]);
	unsigned bad = 0;
	for (unsigned i = 0; i < n; i++) {
		print_message("%-6s %-26s accepted %5u refused %5u (card traps %5u)\n",
			      class_of(rows[i].table)->table, rows[i].d->name, rows[i].accepted,
			      rows[i].refused, rows[i].trapped);
		if (!rows[i].accepted || !rows[i].refused || rows[i].mismatch)
			bad++;
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_launch_refuses_what_the_submission_does_not_hold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
