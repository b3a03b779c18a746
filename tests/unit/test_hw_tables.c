/* The method tables of hw/methods.h checked as data: shape (no overlaps,
 * unique names, kinds, ctxdma links, FIFO/class ranges, dense slots), the
 * run-time lookup against an independent coverage map, the NV44 variant,
 * and spot checks of offsets against the sources (Mesa 22.3's
 * nv30/nv30-40_3d.xml.h and nv30_winsys.h, xf86-video-nouveau's
 * nv40_exa.c, ../shared/ref/nv40-hardware.md §1.3, §2.2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hw/methods.h"

#define MTHD_SPACE 0x2000u     /* 11-bit method field << 2 */

/* Every distinct table once: the FIFO's and each class table. */
static unsigned all_tables(const struct nv_class_desc **out, unsigned max)
{
	unsigned n = 0;

	out[n++] = nv_fifo_desc();
	for (unsigned i = 0; nv_class_at(i); i++) {
		const struct nv_class_desc *c = nv_class_at(i);
		int seen = 0;
		for (unsigned j = 1; j < n; j++)
			if (out[j]->table_id == c->table_id)
				seen = 1;
		if (!seen && n < max)
			out[n++] = c;
	}
	return n;
}

static const struct nv_mthd_desc *row_by_name(const struct nv_class_desc *c, const char *name)
{
	for (unsigned r = 0; r < c->nmthds; r++)
		if (!strcmp(c->mthds[r].name, name))
			return &c->mthds[r];
	return NULL;
}

static void rows_do_not_overlap_and_fit_the_method_space(void **state)
{
	const struct nv_class_desc *t[64];
	unsigned nt = all_tables(t, 64);

	(void)state;
	assert_true(nt >= 15);
	for (unsigned i = 0; i < nt; i++) {
		const char *owner[MTHD_SPACE / 4] = { 0 };
		for (unsigned r = 0; r < t[i]->nmthds; r++) {
			const struct nv_mthd_desc *d = &t[i]->mthds[r];
			assert_true(d->count >= 1);
			assert_true(d->stride >= 4 && d->stride % 4 == 0);
			assert_int_equal(d->offset % 4, 0);
			uint32_t last = d->offset + (uint32_t)(d->count - 1) * d->stride;
			if (last >= MTHD_SPACE)
				fail_msg("%s.%s ends at 0x%x", t[i]->table, d->name, last);
			for (unsigned e = 0; e < d->count; e++) {
				uint32_t a = d->offset + e * d->stride;
				if (owner[a / 4])
					fail_msg("%s: 0x%04x in both %s and %s", t[i]->table, a,
						 owner[a / 4], d->name);
				owner[a / 4] = d->name;
			}
		}
	}
}

/* Names are unique; offsets ascend, after the NV_OBJ_METHODS prefix
 * (NOP, NOTIFY, DMA_NOTIFY) that class tables start with. */
static void names_are_unique_and_rows_sorted_by_offset(void **state)
{
	static const char *const obj[] = { "NOP", "NOTIFY", "DMA_NOTIFY" };
	const struct nv_class_desc *t[64];
	unsigned nt = all_tables(t, 64);

	(void)state;
	for (unsigned i = 0; i < nt; i++) {
		unsigned first = 0;
		while (first < 3 && first < t[i]->nmthds && !strcmp(t[i]->mthds[first].name, obj[first]))
			first++;
		for (unsigned r = 0; r < t[i]->nmthds; r++) {
			assert_non_null(t[i]->mthds[r].name);
			assert_true(t[i]->mthds[r].name[0] != '\0');
			for (unsigned s = r + 1; s < t[i]->nmthds; s++)
				if (!strcmp(t[i]->mthds[r].name, t[i]->mthds[s].name))
					fail_msg("%s: name %s twice", t[i]->table, t[i]->mthds[r].name);
			if (r > first && t[i]->mthds[r].offset <= t[i]->mthds[r - 1].offset)
				fail_msg("%s: %s (0x%x) after %s (0x%x)", t[i]->table,
					 t[i]->mthds[r].name, t[i]->mthds[r].offset,
					 t[i]->mthds[r - 1].name, t[i]->mthds[r - 1].offset);
		}
	}
	/* The 3D table really has the prefix and then its own rows. */
	assert_string_equal(nv_class_find(0x4097)->mthds[2].name, "DMA_NOTIFY");
	assert_string_equal(nv_class_find(0x4097)->mthds[3].name, "UNK0110");
}

static void every_kind_is_valid_and_addr_rows_name_a_handle_row(void **state)
{
	const struct nv_class_desc *t[64];
	unsigned nt = all_tables(t, 64), naddr = 0;

	(void)state;
	for (unsigned i = 0; i < nt; i++)
		for (unsigned r = 0; r < t[i]->nmthds; r++) {
			const struct nv_mthd_desc *d = &t[i]->mthds[r];
			assert_true(d->kind <= NV_MK_PRIV);
			assert_string_not_equal(nv_mthd_kind_name(d->kind), "?");
			if (d->kind != NV_MK_ADDR) {
				assert_int_equal(d->dma, 0);
				continue;
			}
			naddr++;
			const struct nv_mthd_desc *h = NULL;
			for (unsigned s = 0; s < t[i]->nmthds; s++)
				if (t[i]->mthds[s].offset == d->dma)
					h = &t[i]->mthds[s];
			if (!h || h->kind != NV_MK_HANDLE || h->count != 1)
				fail_msg("%s.%s: ctxdma 0x%x is no single HANDLE row", t[i]->table,
					 d->name, d->dma);
		}
	assert_true(naddr >= 18);   /* M2MF 2, SURF2D 2, SWZSURF 1, SIFM 1, CURIE 12 */
	assert_string_equal(nv_mthd_kind_name(NV_MK_PLAIN), "plain");
	assert_string_equal(nv_mthd_kind_name(NV_MK_ADDR), "addr");
	assert_string_equal(nv_mthd_kind_name(99), "?");
}

/* The puller RAMHT-translates data of 0x180-0x1fc (and of OBJECT 0x000):
 * exactly those methods must be HANDLE, or the daemon and the card disagree
 * on what a word means. */
static void handle_rows_are_exactly_the_puller_translated_range(void **state)
{
	const struct nv_class_desc *t[64];
	unsigned nt = all_tables(t, 64);

	(void)state;
	for (unsigned i = 0; i < nt; i++)
		for (unsigned r = 0; r < t[i]->nmthds; r++) {
			const struct nv_mthd_desc *d = &t[i]->mthds[r];
			uint32_t last = d->offset + (uint32_t)(d->count - 1) * d->stride;
			int translated = (d->offset >= 0x180 && last < 0x200) || d->offset == 0;
			int partly = d->offset < 0x200 && last >= 0x180;
			if (partly && !translated)
				fail_msg("%s.%s straddles 0x180-0x1fc", t[i]->table, d->name);
			if ((d->kind == NV_MK_HANDLE) != translated)
				fail_msg("%s.%s at 0x%x is %s", t[i]->table, d->name, d->offset,
					 nv_mthd_kind_name(d->kind));
		}
}

static void fifo_rows_below_0x100_class_rows_at_or_above(void **state)
{
	const struct nv_class_desc *f = nv_fifo_desc();

	(void)state;
	assert_true(f->nmthds >= 7);
	for (unsigned r = 0; r < f->nmthds; r++)
		assert_true(f->mthds[r].offset + (f->mthds[r].count - 1u) * f->mthds[r].stride < 0x100);
	for (unsigned i = 0; nv_class_at(i); i++) {
		const struct nv_class_desc *c = nv_class_at(i);
		for (unsigned r = 0; r < c->nmthds; r++)
			if (c->mthds[r].offset < 0x100)
				fail_msg("%s.%s at 0x%x", c->name, c->mthds[r].name, c->mthds[r].offset);
	}
}

static void slots_are_dense_and_unique(void **state)
{
	const struct nv_class_desc *t[64];
	unsigned nt = all_tables(t, 64);

	(void)state;
	for (unsigned i = 0; i < nt; i++) {
		unsigned next = 0;
		for (unsigned r = 0; r < t[i]->nmthds; r++) {
			if (t[i]->mthds[r].slot != next)
				fail_msg("%s.%s slot %u, expected %u", t[i]->table,
					 t[i]->mthds[r].name, t[i]->mthds[r].slot, next);
			next += t[i]->mthds[r].count;
		}
		assert_int_equal(next, t[i]->nslots);
	}
	/* The enum side agrees with the descriptors. */
	assert_int_equal(NV_CURIE_VTX_ATTR_4F__SLOT_LAST - NV_CURIE_VTX_ATTR_4F__SLOT, 63);
	assert_int_equal(row_by_name(nv_class_find(0x4097), "TEX_OFFSET")->slot,
			 NV_CURIE_TEX_OFFSET__SLOT);
	assert_int_equal(nv_class_find(0x4097)->nslots, NV_CURIE__NSLOTS);
	assert_int_equal(nv_class_find(0x0039)->nslots, NV_M2MF__NSLOTS);
}

/* Against a coverage map computed here from the rows: every element is
 * found with its index, every other 4-aligned offset is NULL, and so is
 * anything unaligned or past the method space. */
static void check_lookup(const struct nv_class_desc *c)
{
	const struct nv_class_desc *f = nv_fifo_desc();
	const struct nv_mthd_desc *want[MTHD_SPACE / 4] = { 0 };
	unsigned want_elem[MTHD_SPACE / 4] = { 0 };
	const struct nv_class_desc *src[2] = { f, c };

	for (unsigned s = 0; s < 2; s++)
		for (unsigned r = 0; r < src[s]->nmthds; r++) {
			const struct nv_mthd_desc *d = &src[s]->mthds[r];
			if (s == 1 && d->offset < 0x100)
				continue;
			for (unsigned e = 0; e < d->count; e++) {
				want[(d->offset + e * d->stride) / 4] = d;
				want_elem[(d->offset + e * d->stride) / 4] = e;
			}
		}
	/* NV44_3D lacks the index-buffer rows. */
	if (c->cls == 0x4497)
		for (unsigned a = 0x181c; a <= 0x1824; a += 4)
			want[a / 4] = NULL;

	for (uint32_t a = 0; a < MTHD_SPACE; a += 4) {
		unsigned elem = ~0u;
		const struct nv_mthd_desc *got = nv_mthd_find(c, a, &elem);
		if (got != want[a / 4])
			fail_msg("%s 0x%04x: got %s, want %s", c->name, a, got ? got->name : "NULL",
				 want[a / 4] ? want[a / 4]->name : "NULL");
		if (got)
			assert_int_equal(elem, want_elem[a / 4]);
		assert_int_equal(nv_mthd_exists(c, a), want[a / 4] != NULL);
		assert_null(nv_mthd_find(c, a + 1, NULL));
		assert_null(nv_mthd_find(c, a + 2, NULL));
	}
	assert_null(nv_mthd_find(c, MTHD_SPACE, NULL));
	assert_null(nv_mthd_find(c, 0xfffffffc, NULL));
}

static void lookup_round_trips_every_element_and_nothing_else(void **state)
{
	(void)state;
	for (unsigned i = 0; nv_class_at(i); i++)
		check_lookup(nv_class_at(i));
	/* The FIFO itself, and a NULL class, see only the FIFO's methods. */
	assert_non_null(nv_mthd_find(NULL, 0x0050, NULL));
	assert_null(nv_mthd_find(NULL, 0x0100, NULL));
	assert_null(nv_mthd_find(nv_fifo_desc(), 0x0180, NULL));
	assert_null(nv_mthd_find(nv_fifo_desc(), 0x0054, NULL));
}

#define COUNT_CLASS_(id, num, tb, kd, nm) + 1
enum { NCLASSES = 0 NV_CLASSES(COUNT_CLASS_) };

static void class_find_finds_every_class_and_nothing_else(void **state)
{
	unsigned n = 0;

	(void)state;
	for (unsigned i = 0; nv_class_at(i); i++, n++) {
		const struct nv_class_desc *c = nv_class_at(i);
		assert_ptr_equal(nv_class_find(c->cls), c);
		assert_true(c->is_gr == 0 || c->is_gr == 1);
		if (c->is_gr)
			assert_true(c->nmthds >= 3);          /* at least NV_OBJ_METHODS */
		for (unsigned j = 0; j < i; j++)
			assert_int_not_equal(nv_class_at(j)->cls, c->cls);
	}
	assert_int_equal(n, NCLASSES);
	assert_true(n >= 18);
	assert_null(nv_class_at(n));
	assert_null(nv_class_find(0x0000));
	assert_null(nv_class_find(0x5097));     /* NV50_3D: not an NV4x class */
	assert_null(nv_class_find(0x0042));     /* NV04_SURFACE_2D: NV40 uses 0x62 */
	assert_null(nv_class_find(0x10039));
	assert_string_equal(nv_class_find(0x4097)->name, "NV40_3D");
	assert_string_equal(nv_class_find(0x4497)->name, "NV44_3D");
	assert_string_equal(nv_class_find(0x4497)->table, "CURIE");
	assert_int_equal(nv_class_find(0x0030)->is_gr, 0);
}

static void nv44_lacks_only_the_index_buffer_methods(void **state)
{
	const struct nv_class_desc *nv40 = nv_class_find(0x4097), *nv44 = nv_class_find(0x4497);
	unsigned differ = 0;

	(void)state;
	assert_ptr_equal(nv40->mthds, nv44->mthds);
	for (uint32_t a = 0; a < MTHD_SPACE; a += 4)
		if (nv_mthd_exists(nv40, a) != nv_mthd_exists(nv44, a)) {
			assert_true(nv_mthd_exists(nv40, a));
			differ++;
		}
	assert_int_equal(differ, 3);
	assert_false(nv_mthd_exists(nv44, 0x181c));       /* IDXBUF_OFFSET */
	assert_false(nv_mthd_exists(nv44, 0x1820));       /* IDXBUF_FORMAT */
	assert_false(nv_mthd_exists(nv44, 0x1824));       /* VB_INDEX_BATCH */
	assert_true(nv_mthd_exists(nv40, 0x1824));
	assert_true(nv_mthd_exists(nv44, 0x1818));        /* VERTEX_DATA */
	assert_true(nv_mthd_exists(nv44, 0x1810));        /* VB_ELEMENT_U32 */
	assert_true(nv_mthd_exists(nv44, 0x0000));        /* FIFO OBJECT */
}

static void expect_row(const struct nv_class_desc *c, uint32_t mthd, const char *name,
		       unsigned elem, unsigned kind)
{
	unsigned e = ~0u;
	const struct nv_mthd_desc *d = nv_mthd_find(c, mthd, &e);

	if (!d)
		fail_msg("%s 0x%04x: none, want %s", c->name, mthd, name);
	assert_string_equal(d->name, name);
	assert_int_equal(e, elem);
	assert_int_equal(d->kind, kind);
}

/* Numbers as the sources print them (Mesa nv30-40_3d.xml.h unless noted). */
static void curie_offsets_match_the_sources(void **state)
{
	const struct nv_class_desc *c = nv_class_find(0x4097);

	(void)state;
	assert_int_equal(NV_CURIE_DMA_NOTIFY, 0x0180);
	assert_int_equal(NV_CURIE_DMA_COLOR0, 0x0194);
	assert_int_equal(NV_CURIE_DMA_COLOR3, 0x01b8);
	assert_int_equal(NV_CURIE_RT_FORMAT, 0x0208);
	assert_int_equal(NV_CURIE_COLOR0_OFFSET, 0x0210);
	assert_int_equal(NV_CURIE_ZETA_PITCH, 0x022c);
	assert_int_equal(NV_CURIE_COLOR3_OFFSET, 0x028c);
	assert_int_equal(NV_CURIE_BLEND_EQUATION, 0x0320);
	assert_int_equal(NV_CURIE_MIPMAP_ROUNDING, 0x03b0);
	assert_int_equal(NV_CURIE_SCISSOR_HORIZ, 0x08c0);
	assert_int_equal(NV_CURIE_FP_ACTIVE_PROGRAM, 0x08e4);
	assert_int_equal(NV_CURIE_VIEWPORT_TRANSLATE, 0x0a20);
	assert_int_equal(NV_CURIE_VIEWPORT_SCALE, 0x0a30);
	assert_int_equal(NV_CURIE_DEPTH_FUNC, 0x0a6c);
	assert_int_equal(NV_CURIE_VP_UPLOAD_INST, 0x0b80);
	assert_int_equal(NV_CURIE_POLYGON_STIPPLE_PATTERN, 0x1480);
	assert_int_equal(NV_CURIE_VTXBUF, 0x1680);
	assert_int_equal(NV_CURIE_VTXFMT, 0x1740);
	assert_int_equal(NV_CURIE_QUERY_GET, 0x1800);
	assert_int_equal(NV_CURIE_VERTEX_BEGIN_END, 0x1808);
	assert_int_equal(NV_CURIE_VB_VERTEX_BATCH, 0x1814);
	assert_int_equal(NV_CURIE_IDXBUF_OFFSET, 0x181c);
	assert_int_equal(NV_CURIE_TEX_SIZE1, 0x1840);
	assert_int_equal(NV_CURIE_TEX_OFFSET, 0x1a00);
	assert_int_equal(NV_CURIE_TEX_OFFSET__STRIDE, 0x20);
	assert_int_equal(NV_CURIE_VTX_ATTR_4F, 0x1c00);
	assert_int_equal(NV_CURIE_FP_CONTROL, 0x1d60);
	assert_int_equal(NV_CURIE_FENCE_OFFSET, 0x1d6c);
	assert_int_equal(NV_CURIE_COORD_CONVENTIONS, 0x1d88);
	assert_int_equal(NV_CURIE_CLEAR_BUFFERS, 0x1d94);
	assert_int_equal(NV_CURIE_VTX_ATTR_1F, 0x1e40);
	assert_int_equal(NV_CURIE_ENGINE, 0x1e94);
	assert_int_equal(NV_CURIE_VP_UPLOAD_CONST_ID, 0x1efc);
	assert_int_equal(NV_CURIE_TEX_CACHE_CTL, 0x1fd8);
	assert_int_equal(NV_CURIE_VP_RESULT_EN, 0x1ff4);
	/* Mesa's nv30_winsys.h / nv30_state.c names */
	assert_int_equal(NV_CURIE_VTX_CACHE_INVALIDATE_1710, 0x1710);
	assert_int_equal(NV_CURIE_MRT_BLEND_ENABLE, 0x036c);
	assert_int_equal(NV_CURIE_VTXTEX_ENABLE, 0x090c);

	/* Array elements: unit/attribute strides of the sources. */
	expect_row(c, 0x1a24, "TEX_FORMAT", 1, NV_MK_PLAIN);          /* TEX_FORMAT(1) */
	expect_row(c, 0x1be0, "TEX_OFFSET", 15, NV_MK_ADDR);          /* 16 units on NV40 */
	expect_row(c, 0x0348, "STENCIL_ENABLE", 1, NV_MK_PLAIN);      /* back face */
	expect_row(c, 0x1920, "VTX_ATTR_2I", 8, NV_MK_PLAIN);         /* DDX's texcoord a8 */
	expect_row(c, 0x18c4, "VTX_ATTR_2F", 17, NV_MK_PLAIN);        /* VTX_ATTR_2F_Y(8) */
	expect_row(c, 0x1588, "VTX_ATTR_3F_Z", 8, NV_MK_PLAIN);       /* VTX_ATTR_3F_Z(8) */
	expect_row(c, 0x1c3c, "VTX_ATTR_4F", 15, NV_MK_PLAIN);        /* VTX_ATTR_4F_W(3) */
	expect_row(c, 0x1f3c, "VP_UPLOAD_CONST", 15, NV_MK_PLAIN);    /* end of the DDX's 17-word burst */
	expect_row(c, 0x0a3c, "VIEWPORT_SCALE", 3, NV_MK_PLAIN);      /* VIEWPORT_SCALE_W */
	expect_row(c, 0x02fc, "VIEWPORT_CLIP_VERT", 7, NV_MK_PLAIN);
	expect_row(c, 0x092c, "VTXTEX_ENABLE", 1, NV_MK_PLAIN);
	expect_row(c, 0x1ea8, "UNK1EA8", 0, NV_MK_PLAIN);             /* zcull init, §2.2 */
	expect_row(c, 0x1e98, "UNK1E98", 0, NV_MK_ADDR);              /* render condition */
	/* holes the sources leave: xyz-only VTX_ATTR_3F, NV30-only blocks */
	assert_null(nv_mthd_find(c, 0x150c, NULL));
	assert_null(nv_mthd_find(c, 0x0900, NULL));                   /* VTXTEX_OFFSET(0): refused */
	assert_null(nv_mthd_find(c, 0x023c, NULL));                   /* NV30 TEX_UNITS_ENABLE */
	assert_null(nv_mthd_find(c, 0x1f80, NULL));                   /* NV30 UNK1F80 */
	assert_null(nv_mthd_find(c, 0x1d80, NULL));
}

static void addr_rows_select_the_documented_ctxdma(void **state)
{
	const struct nv_class_desc *c = nv_class_find(0x4097);
	static const struct { const char *row; uint16_t dma; } want[] = {
		{ "COLOR0_OFFSET", 0x194 }, { "COLOR1_OFFSET", 0x18c },
		{ "COLOR2_OFFSET", 0x1b4 }, { "COLOR3_OFFSET", 0x1b8 },
		{ "ZETA_OFFSET", 0x198 },   { "FENCE_OFFSET", 0x1a4 },
		{ "TEX_OFFSET", 0x184 },    { "VTXBUF", 0x19c },
		{ "IDXBUF_OFFSET", 0x19c }, { "FP_ACTIVE_PROGRAM", 0x184 },
		{ "QUERY_GET", 0x1a8 },     { "UNK1E98", 0x1a8 },
	};
	unsigned naddr = 0;

	(void)state;
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct nv_mthd_desc *d = row_by_name(c, want[i].row);
		assert_non_null(d);
		assert_int_equal(d->kind, NV_MK_ADDR);
		assert_int_equal(d->dma, want[i].dma);
	}
	for (unsigned r = 0; r < c->nmthds; r++)
		naddr += c->mthds[r].kind == NV_MK_ADDR;
	assert_int_equal(naddr, sizeof(want) / sizeof(want[0]));
	/* The 2D side (ddx-2d.md §3.3). */
	c = nv_class_find(0x0039);
	assert_int_equal(row_by_name(c, "OFFSET_IN")->offset, 0x30c);
	assert_int_equal(row_by_name(c, "OFFSET_IN")->dma, 0x184);
	assert_int_equal(row_by_name(c, "OFFSET_OUT")->dma, 0x188);
	c = nv_class_find(0x3089);
	assert_int_equal(row_by_name(c, "OFFSET")->offset, 0x408);
	assert_int_equal(row_by_name(c, "OFFSET")->dma, 0x184);
}

static void fifo_and_2d_offsets_match_the_sources(void **state)
{
	(void)state;
	/* puller methods (envytools puller.rst, nv40-hardware.md §1.3) */
	assert_int_equal(NV_FIFO_OBJECT, 0x0000);
	assert_int_equal(NV_FIFO_REF_CNT, 0x0050);
	assert_int_equal(NV_FIFO_SEMAPHORE_RELEASE, 0x006c);
	assert_int_equal(NV_FIFO_YIELD, 0x0080);
	assert_int_equal(nv_mthd_find(NULL, 0x50, NULL)->kind, NV_MK_PRIV);
	/* 2D (ddx-2d.md §3.3) */
	assert_int_equal(NV_M2MF_BUF_NOTIFY, 0x0328);
	assert_int_equal(NV_GDI_UNCLIPPED_RECTANGLE_SIZE, 0x0404);
	assert_int_equal(NV_GDI_UNCLIPPED_RECTANGLE_SIZE__STRIDE, 8);
	assert_int_equal(NV_BLIT_SURFACES, 0x019c);
	assert_int_equal(NV_SIFM_POINT, 0x040c);
	expect_row(nv_class_find(0x008a), 0x0400 + 4 * 1791, "COLOR", 1791, NV_MK_PLAIN);
	assert_null(nv_mthd_find(nv_class_find(0x008a), 0x0400 + 4 * 1792, NULL));
	expect_row(nv_class_find(0x004a), 0x04fc, "UNCLIPPED_RECTANGLE_SIZE", 31, NV_MK_PLAIN);
	assert_null(nv_mthd_find(nv_class_find(0x004a), 0x0500, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_do_not_overlap_and_fit_the_method_space),
		cmocka_unit_test(names_are_unique_and_rows_sorted_by_offset),
		cmocka_unit_test(every_kind_is_valid_and_addr_rows_name_a_handle_row),
		cmocka_unit_test(handle_rows_are_exactly_the_puller_translated_range),
		cmocka_unit_test(fifo_rows_below_0x100_class_rows_at_or_above),
		cmocka_unit_test(slots_are_dense_and_unique),
		cmocka_unit_test(lookup_round_trips_every_element_and_nothing_else),
		cmocka_unit_test(class_find_finds_every_class_and_nothing_else),
		cmocka_unit_test(nv44_lacks_only_the_index_buffer_methods),
		cmocka_unit_test(curie_offsets_match_the_sources),
		cmocka_unit_test(addr_rows_select_the_documented_ctxdma),
		cmocka_unit_test(fifo_and_2d_offsets_match_the_sources),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
