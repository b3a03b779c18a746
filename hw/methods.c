/* Run-time view of the method tables in methods.h: descriptors per class and
 * a method-offset lookup table per class table, built once. */
#include "methods.h"

#include <pthread.h>
#include <stddef.h>

#define NV_DESC_ROW_(P, nm, off, n, st, kd, dm) \
	{ .name = #nm, .offset = (off), .count = (n), .stride = (st), \
	  .kind = NV_MK_##kd, .dma = NV_##P##_##dm, .slot = NV_##P##_##nm##__SLOT },
#define NV_DESC_TABLE_(P, rows) \
	static const struct nv_mthd_desc nv_mthds_##P[] = { rows(NV_DESC_ROW_, P) { 0 } };
NV_TABLES(NV_DESC_TABLE_)

static const struct { const struct nv_mthd_desc *mthds; unsigned n, nslots; } nv_tables[] = {
#define NV_TABLE_ROW_(P, rows) \
	{ nv_mthds_##P, sizeof(nv_mthds_##P) / sizeof(nv_mthds_##P[0]) - 1, NV_##P##__NSLOTS },
	NV_TABLES(NV_TABLE_ROW_)
};

static const struct nv_class_desc nv_classes[] = {
#define NV_CLASS_ROW_(id, num, tb, kd, nm) \
	{ .name = nm, .table = #tb, .cls = (num), .is_gr = NV_IS_##kd, \
	  .table_id = NV_TABLE_##tb, .mthds = nv_mthds_##tb, \
	  .nmthds = sizeof(nv_mthds_##tb) / sizeof(nv_mthds_##tb[0]) - 1, \
	  .nslots = NV_##tb##__NSLOTS },
#define NV_IS_GR 1
#define NV_IS_DMA 0
#define NV_IS_SW 0
	NV_CLASSES(NV_CLASS_ROW_)
};
#define NV_NCLASSES (sizeof(nv_classes) / sizeof(nv_classes[0]))

/* Per class with absent rows, the offsets of those rows. */
#define NV_ABSENT_OFF_(P, nm) NV_##P##_##nm,
#define NV_ABSENT_LIST_(id, tb, list) \
	static const uint16_t nv_absent_##id[] = { list(NV_ABSENT_OFF_, tb) };
NV_CLASS_ABSENT(NV_ABSENT_LIST_)

static const struct { uint16_t cls; const uint16_t *offs; unsigned n; } nv_absent[] = {
#define NV_ABSENT_ROW_(id, tb, list) \
	{ NV_CLASS_##id, nv_absent_##id, sizeof(nv_absent_##id) / sizeof(nv_absent_##id[0]) },
	NV_CLASS_ABSENT(NV_ABSENT_ROW_)
};

static int nv_row_absent(const struct nv_class_desc *c, const struct nv_mthd_desc *d)
{
	for (unsigned i = 0; i < sizeof(nv_absent) / sizeof(nv_absent[0]); i++) {
		if (nv_absent[i].cls != c->cls)
			continue;
		for (unsigned j = 0; j < nv_absent[i].n; j++)
			if (nv_absent[i].offs[j] == d->offset)
				return 1;
	}
	return 0;
}

static const struct nv_class_desc nv_fifo = {
	.name = "FIFO", .table = "FIFO", .cls = 0, .is_gr = 0, .table_id = NV_TABLE_FIFO,
	.mthds = nv_mthds_FIFO,
	.nmthds = sizeof(nv_mthds_FIFO) / sizeof(nv_mthds_FIFO[0]) - 1,
	.nslots = NV_FIFO__NSLOTS,
};

/* lut[table][mthd >> 2] = row + 1, 0 when no method there */
static uint16_t nv_lut[NV_TABLE_COUNT][0x2000 / 4];
static pthread_once_t nv_lut_once = PTHREAD_ONCE_INIT;

static void nv_lut_build(void)
{
	for (unsigned t = 0; t < NV_TABLE_COUNT; t++)
		for (unsigned r = 0; r < nv_tables[t].n; r++) {
			const struct nv_mthd_desc *d = &nv_tables[t].mthds[r];
			for (unsigned e = 0; e < d->count; e++)
				nv_lut[t][(d->offset + e * d->stride) >> 2] = r + 1;
		}
}

const struct nv_class_desc *nv_class_find(uint32_t cls)
{
	for (unsigned i = 0; i < NV_NCLASSES; i++)
		if (nv_classes[i].cls == cls)
			return &nv_classes[i];
	return NULL;
}

const struct nv_class_desc *nv_class_at(unsigned i)
{
	return i < NV_NCLASSES ? &nv_classes[i] : NULL;
}

const struct nv_class_desc *nv_fifo_desc(void)
{
	return &nv_fifo;
}

const struct nv_mthd_desc *nv_mthd_find(const struct nv_class_desc *c, uint32_t mthd,
					unsigned *elem)
{
	if (mthd >= 0x2000 || (mthd & 3))
		return NULL;
	if (mthd < NV_FIFO_MTHD_END)
		c = &nv_fifo;
	if (!c)
		return NULL;
	pthread_once(&nv_lut_once, nv_lut_build);
	unsigned r = nv_lut[c->table_id][mthd >> 2];
	if (!r)
		return NULL;
	const struct nv_mthd_desc *d = &c->mthds[r - 1];
	if (c != &nv_fifo && nv_row_absent(c, d))
		return NULL;
	if (elem)
		*elem = (mthd - d->offset) / d->stride;
	return d;
}

int nv_mthd_exists(const struct nv_class_desc *c, uint32_t mthd)
{
	return nv_mthd_find(c, mthd, NULL) != NULL;
}

const char *nv_mthd_kind_name(unsigned kind)
{
	static const char *const names[] = { "plain", "handle", "addr", "priv" };
	return kind < 4 ? names[kind] : "?";
}
