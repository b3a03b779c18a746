/* hw/access.h, the one model of what the card touches, checked as a model:
 *  - it reads only the method values it declares (NV_ACC_INPUTS) and the
 *    handle slots: every launch function, and the draw, attribute, index
 *    and texture pieces, give the same answer for two states that differ
 *    in every other slot (random states, biased towards valid encodings so
 *    that most operations touch memory rather than trap).  The validator
 *    keeps only those values, so this is what makes its view the card's;
 *  - the launch table: every row's function answers for every element;
 *  - the facts the audit of #17 turned on, as the model states them: a
 *    texture with both DMA bits reads through DMA_TEXTURE0, the depth
 *    bounds test reads zeta, the render condition is read at every draw,
 *    immediate vertices draw inside a primitive and nothing outside one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/access.h"
#include "hw/enums-2d.h"
#include "hw/enums-3d-pipe.h"
#include "hw/enums-3d.h"
#include "hw/formats.h"
#include "hw/tex-layout.h"
#include "hw/tex.h"
#include "hw/vp-isa.h"

#define ROUNDS 20000

/* One channel's method state: every table's slots. */
#define TAB_ARRAY_(P, rows) uint32_t P[NV_##P##__NSLOTS + 1];
struct tabs {
	NV_TABLES(TAB_ARRAY_)
};

struct state {
	struct tabs t;
	struct nv_acc_state st;
};

/* Handle values name a class by their low three bits. */
static unsigned test_cls(const struct nv_acc_state *st, uint32_t v)
{
	static const unsigned cls[8] = { 0, NV_CLASS_SURF2D, NV_CLASS_SWZSURF, NV_CLASS_CLIP,
					 NV_CLASS_ROP, NV_CLASS_SURF2D, 0, 0 };
	(void)st;
	return cls[v & 7];
}

static void state_view(struct state *s)
{
	memset(&s->st, 0, sizeof(s->st));
#define TAB_VIEW_(P, rows) s->st.t[NV_TABLE_##P] = s->t.P;
	NV_TABLES(TAB_VIEW_)
	s->st.cls = test_cls;
}

static uint32_t *slot_of(struct state *s, unsigned table)
{
	return (uint32_t *)s->st.t[table];
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* Small values, bits and fields most encodings use, sometimes anything. */
static uint32_t biased(void)
{
	switch (rnd() % 8) {
	case 0: return 0;
	case 1: return rnd() % 4;
	case 2: return rnd() % 256;
	case 3: return (rnd() % 64) << 16 | (rnd() % 64);
	case 4: return 1u << (rnd() % 32);
	case 5: return rnd() & 0x00ffffff;
	case 6: return 0x80000000u | (rnd() % 4);
	default: return rnd();
	}
}

/* Which slots the model may read: declared inputs and handle methods. */
static uint8_t readable[NV_TABLE_COUNT][2048];

static void mark_readable(void)
{
#define MARK_INPUT_(T, NAME) \
	for (unsigned k = NV_##T##_##NAME##__SLOT; k <= (unsigned)NV_##T##_##NAME##__SLOT_LAST; k++) \
		readable[NV_TABLE_##T][k] = 1;
	NV_ACC_INPUTS(MARK_INPUT_)
	for (unsigned i = 0; nv_class_at(i); i++) {
		const struct nv_class_desc *c = nv_class_at(i);
		for (unsigned r = 0; r < c->nmthds; r++)
			if (c->mthds[r].kind == NV_MK_HANDLE)
				for (unsigned e = 0; e < c->mthds[r].count; e++)
					readable[c->table_id][c->mthds[r].slot + e] = 1;
	}
}

static unsigned nslots[NV_TABLE_COUNT];

static void mark_sizes(void)
{
	for (unsigned i = 0; nv_class_at(i); i++)
		nslots[nv_class_at(i)->table_id] = nv_class_at(i)->nslots;
}

static void randomize(struct state *s, int readable_too)
{
	for (unsigned t = 0; t < NV_TABLE_COUNT; t++) {
		uint32_t *v = slot_of(s, t);
		for (unsigned k = 0; k < nslots[t]; k++)
			if (readable_too || !readable[t][k])
				v[k] = biased();
	}
}

static int same_acc(const struct nv_acc *x, const struct nv_acc *y)
{
	return x->table == y->table && x->dir == y->dir && x->kind == y->kind &&
	       x->unit == y->unit && x->dma == y->dma && x->rows == y->rows && x->off == y->off &&
	       x->pitch == y->pitch && x->len == y->len && x->x == y->x && x->y == y->y;
}

static int lists_equal(const struct nv_acc_list *a, const struct nv_acc_list *b)
{
	int same = a->trap == b->trap && a->n == b->n && a->why == b->why;
	for (unsigned i = 0; same && i < a->n; i++)
		same = same_acc(&a->a[i], &b->a[i]);
	return same;
}

static void same_list(const struct nv_acc_list *a, const struct nv_acc_list *b, const char *what)
{
	if (!lists_equal(a, b))
		fail_msg("%s: the answer depends on a value the model does not declare", what);
}

/* ---- every launch, every piece: only declared inputs count ---- */

static void model_reads_only_its_declared_inputs(void **state)
{
	static struct state a, b;
	unsigned touched = 0, trapped = 0;
	(void)state;
	mark_readable();
	mark_sizes();
	/* every row of every table the card acts at */
	struct { unsigned table; const struct nv_mthd_desc *d; } launch[64];
	unsigned nlaunch = 0;
	for (unsigned i = 0; nv_class_at(i); i++) {
		const struct nv_class_desc *c = nv_class_at(i);
		int seen = 0;
		for (unsigned k = 0; k < nlaunch; k++)
			seen |= launch[k].table == c->table_id;
		for (unsigned r = 0; r < c->nmthds && !seen; r++)
			if (nv_acc_launch(c->table_id, c->mthds[r].offset) && nlaunch < 64)
				launch[nlaunch++] = (typeof(launch[0])){ c->table_id, &c->mthds[r] };
	}
	assert_true(nlaunch >= 20);
	state_view(&a);
	state_view(&b);
	for (unsigned round = 0; round < ROUNDS; round++) {
		randomize(&a, 1);
		/* a primitive open half the time, a program bound */
		slot_of(&a, NV_TABLE_CURIE)[NV_CURIE_VERTEX_BEGIN_END__SLOT] = rnd() % 2 ? rnd() % 11 : 0;
		memcpy(&b.t, &a.t, sizeof(a.t));
		randomize(&b, 0);
		for (unsigned i = 0; i < nlaunch; i++) {
			const struct nv_mthd_desc *d = launch[i].d;
			unsigned e = rnd() % d->count;
			nv_acc_fn *fn = nv_acc_launch(launch[i].table, d->offset + e * d->stride);
			struct nv_acc_list la, lb;
			uint32_t data = biased();
			fn(&a.st, e, data, &la);
			fn(&b.st, e, data, &lb);
			same_list(&la, &lb, d->name);
			touched += la.n > 0;
			trapped += la.trap != 0;
		}
		struct nv_acc_list da, db;
		nv40_acc_draw(&a.st, &da);
		nv40_acc_draw(&b.st, &db);
		same_list(&da, &db, "nv40_acc_draw");
		for (unsigned i = 0; i < NV40_VP_INPUTS; i++) {
			struct nv_acc x = { 0 }, y = { 0 };
			int rx = nv40_acc_attr(&a.st, i, &x), ry = nv40_acc_attr(&b.st, i, &y);
			assert_int_equal(rx, ry);
			assert_true(rx || same_acc(&x, &y));
			rx = nv40_acc_texture(&a.st, i, &x);
			ry = nv40_acc_texture(&b.st, i, &y);
			assert_int_equal(rx, ry);
			assert_true(!rx || same_acc(&x, &y));
		}
		uint32_t raw = biased(), va = 0, vb = 0;
		assert_int_equal(nv40_acc_index(&a.st, raw, &va), nv40_acc_index(&b.st, raw, &vb));
		assert_int_equal(va, vb);
		assert_int_equal(nv40_acc_index_size(&a.st), nv40_acc_index_size(&b.st));
	}
	print_message("%u operations touched memory, %u trapped, in %u rounds\n", touched, trapped,
		      ROUNDS);
	/* the states reached both kinds of answer */
	assert_true(touched > ROUNDS);
	assert_true(trapped > ROUNDS);
}

/* The comparison catches a model that reads what it does not declare: a
 * fence whose offset also takes CLEAR_COLOR_VALUE. */
static void bad_fence(const struct nv_acc_state *st, unsigned elem, uint32_t data,
		      struct nv_acc_list *l)
{
	nv40_acc_fence(st, elem, data, l);
	l->a[0].off += st->t[NV_TABLE_CURIE][NV_CURIE_CLEAR_COLOR_VALUE__SLOT] & 0xfc;
}

static void harness_catches_an_undeclared_read(void **state)
{
	static struct state a, b;
	unsigned caught = 0;
	(void)state;
	mark_readable();
	mark_sizes();
	state_view(&a);
	state_view(&b);
	for (unsigned round = 0; round < 100; round++) {
		randomize(&a, 1);
		memcpy(&b.t, &a.t, sizeof(a.t));
		randomize(&b, 0);
		struct nv_acc_list la, lb;
		bad_fence(&a.st, 0, 0, &la);
		bad_fence(&b.st, 0, 0, &lb);
		caught += !lists_equal(&la, &lb);
	}
	assert_true(caught > 50);
}

/* ---- the launch table ---- */

static void launch_rows_name_methods_of_their_tables(void **state)
{
	(void)state;
	/* one spot check per engine, then every element of an array row */
	assert_ptr_equal(nv_acc_launch(NV_TABLE_M2MF, NV_M2MF_BUF_NOTIFY), nv_acc_m2mf);
	assert_null(nv_acc_launch(NV_TABLE_M2MF, NV_M2MF_OFFSET_IN));
	assert_ptr_equal(nv_acc_launch(NV_TABLE_SIFM, NV_SIFM_POINT), nv_acc_sifm);
	for (unsigned e = 0; e < 32; e++)
		assert_ptr_equal(nv_acc_launch(NV_TABLE_GDI, NV_GDI_UNCLIPPED_RECTANGLE_SIZE +
					       e * NV_GDI_UNCLIPPED_RECTANGLE_SIZE__STRIDE), nv_acc_gdi);
	for (unsigned e = 0; e < 16; e++)
		assert_ptr_equal(nv_acc_launch(NV_TABLE_CURIE, NV_CURIE_VTX_ATTR_4F +
					       e * NV_CURIE_VTX_ATTR_4F__STRIDE), nv40_acc_vertex);
	assert_null(nv_acc_launch(NV_TABLE_CURIE, NV_CURIE_RT_FORMAT));
	assert_null(nv_acc_launch(NV_TABLE_CURIE, NV_CURIE_FP_ACTIVE_PROGRAM));
}

/* ---- the facts ---- */

static struct state *drawable(void)
{
	static struct state s;
	memset(&s.t, 0, sizeof(s.t));
	state_view(&s);
	uint32_t *c = s.t.CURIE;
	c[NV_CURIE_RT_HORIZ__SLOT] = 64u << 16;
	c[NV_CURIE_RT_VERT__SLOT] = 32u << 16;
	c[NV_CURIE_RT_FORMAT__SLOT] = NV40_RT_COLOR_A8R8G8B8 | NV40_RT_ZETA_Z24S8 << NV40_RT_FORMAT_ZETA_SHIFT |
				      NV40_RT_TYPE_LINEAR << NV40_RT_FORMAT_TYPE_SHIFT;
	c[NV_CURIE_RT_ENABLE__SLOT] = NV40_RT_ENABLE_COLOR(0);
	c[NV_CURIE_COLOR0_PITCH__SLOT] = 256;
	c[NV_CURIE_COLOR0_OFFSET__SLOT] = 0x10000;
	c[NV_CURIE_ZETA_PITCH__SLOT] = 256;
	c[NV_CURIE_ZETA_OFFSET__SLOT] = 0x20000;
	c[NV_CURIE_FP_ACTIVE_PROGRAM__SLOT] = 0x30000 | NV40_FP_PROGRAM_DMA0;
	return &s;
}

static const struct nv_acc *find(const struct nv_acc_list *l, unsigned kind)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->a[i].kind == kind)
			return &l->a[i];
	return NULL;
}

static void texture_with_both_dma_bits_reads_through_dma_texture0(void **state)
{
	struct state *s = drawable();
	struct nv_acc_list l;
	(void)state;
	s->t.CURIE[NV_CURIE_TEX_ENABLE__SLOT] = NV40_TEX_ENABLE_ENABLE;
	s->t.CURIE[NV_CURIE_TEX_FORMAT__SLOT] = NV40_TEX_FORMAT_DMA0 | NV40_TEX_FORMAT_DMA1 |
		2u << NV40_TEX_FORMAT_DIMS_SHIFT | NV40_TEX_FMT_A8R8G8B8 << NV40_TEX_FORMAT_FORMAT_SHIFT |
		NV40_TEX_FORMAT_UNK15 | 1u << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT;
	s->t.CURIE[NV_CURIE_TEX_NPOT_SIZE__SLOT] = 16u << 16 | 16;
	nv40_acc_draw(&s->st, &l);
	const struct nv_acc *t = find(&l, NV_ACC_TEXTURE);
	assert_non_null(t);
	assert_int_equal(t->dma, NV_CURIE_DMA_TEXTURE0__SLOT);
	assert_int_equal(t->dir, NV_ACC_READ);
}

static void depth_bounds_test_alone_reads_zeta(void **state)
{
	struct state *s = drawable();
	struct nv_acc_list l;
	(void)state;
	nv40_acc_draw(&s->st, &l);
	assert_null(find(&l, NV_ACC_ZETA));
	s->t.CURIE[NV_CURIE_DEPTH_BOUNDS_TEST_ENABLE__SLOT] = 1;
	nv40_acc_draw(&s->st, &l);
	const struct nv_acc *z = find(&l, NV_ACC_ZETA);
	assert_non_null(z);
	assert_int_equal(z->off, 0x20000);
	assert_int_equal(z->rows, 32);
	assert_int_equal(z->len, 64 * 4);
}

static void render_condition_is_read_at_every_draw(void **state)
{
	struct state *s = drawable();
	struct nv_acc_list l;
	(void)state;
	s->t.CURIE[NV_CURIE_UNK1E98__SLOT] = (uint32_t)NV40_RENDER_COND_IF_SAMPLES << 24 | 0x40;
	nv40_acc_draw(&s->st, &l);
	const struct nv_acc *c = find(&l, NV_ACC_COND);
	assert_non_null(c);
	assert_int_equal(c->dma, NV_CURIE_DMA_QUERY__SLOT);
	assert_int_equal(c->off, 0x40);
	assert_int_equal(c->len, NV40_QUERY_REPORT_SIZE);
}

static void immediate_vertices_draw_inside_a_primitive_only(void **state)
{
	struct state *s = drawable();
	struct nv_acc_list l;
	nv_acc_fn *attr0 = nv_acc_launch(NV_TABLE_CURIE, NV_CURIE_VTX_ATTR_4F);
	(void)state;
	attr0(&s->st, 0, 0, &l);
	assert_int_equal(l.n, 0);
	s->t.CURIE[NV_CURIE_VERTEX_BEGIN_END__SLOT] = NV40_PRIM_TRIANGLES;
	attr0(&s->st, 0, 0, &l);
	assert_non_null(find(&l, NV_ACC_COLOR));
	assert_non_null(find(&l, NV_ACC_PROGRAM));
	/* growing the render target inside the primitive grows what it writes */
	s->t.CURIE[NV_CURIE_RT_VERT__SLOT] = 4096u << 16;
	attr0(&s->st, 0, 0, &l);
	assert_int_equal(find(&l, NV_ACC_COLOR)->rows, 4096);
}

static void ifc_pixels_stay_in_point_and_size_out(void **state)
{
	static struct state s;
	struct nv_acc_list l;
	(void)state;
	memset(&s.t, 0, sizeof(s.t));
	state_view(&s);
	s.t.IFC[NV_IFC_SURFACE__SLOT] = 1;                       /* a SURF2D */
	s.t.IFC[NV_IFC_COLOR_FORMAT__SLOT] = NV_IFC_COLOR_FORMAT_A8R8G8B8;
	s.t.IFC[NV_IFC_OPERATION__SLOT] = NV_2D_OPERATION_SRCCOPY;
	s.t.IFC[NV_IFC_POINT__SLOT] = 3u << 16 | 2;              /* x 2, y 3 */
	s.t.IFC[NV_IFC_SIZE_OUT__SLOT] = 5u << 16 | 4;           /* 4 x 5 */
	s.t.SURF2D[NV_SURF2D_FORMAT__SLOT] = NV_SURF_FORMAT_A8R8G8B8;
	s.t.SURF2D[NV_SURF2D_PITCH__SLOT] = 1024u << 16;
	s.t.SURF2D[NV_SURF2D_OFFSET_DESTIN__SLOT] = 0x1000;
	nv_acc_ifc(&s.st, 0, 0, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.a[0].off, 0x1000 + 3 * 1024 + 2 * 4);
	assert_int_equal(l.a[0].rows, 5);
	assert_int_equal(l.a[0].len, 16);
	uint64_t lo, span;
	assert_int_equal(nv_acc_bounds(&l.a[0], &lo, &span), 0);
	assert_int_equal(span, 4 * 1024 + 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(model_reads_only_its_declared_inputs),
		cmocka_unit_test(harness_catches_an_undeclared_read),
		cmocka_unit_test(launch_rows_name_methods_of_their_tables),
		cmocka_unit_test(texture_with_both_dma_bits_reads_through_dma_texture0),
		cmocka_unit_test(depth_bounds_test_alone_reads_zeta),
		cmocka_unit_test(render_condition_is_read_at_every_draw),
		cmocka_unit_test(immediate_vertices_draw_inside_a_primitive_only),
		cmocka_unit_test(ifc_pixels_stay_in_point_and_size_out),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
