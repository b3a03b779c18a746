/* Copy + validate + relocate (validate.h): the walk over the push ranges,
 * the per-class method tables it runs on, object handles, the launches
 * and relocations.  What each launch touches is hw/access.h's, the card's
 * own model: here it is only checked against the submission's buffers.
 *
 * Speed: every word of every submission passes here.  Each segment is
 * copied to the output in large chunks (memcpy), then walked in place.  A
 * per-class table (built once) says for each method whether it is unknown,
 * plain (not looked at: a packet of plain methods costs one header decode),
 * checked once per run of packets (inline image data, vertices), only
 * stored (the values hw/access.h reads) or looked at word by word
 * (handles, launches, privileged methods).  Packets of the first three
 * kinds stay in the fast loop (a once-a-run check only once it passed on
 * the state as it is); the others go through nvd_vw_packet. */
#include "nvd/validate.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/enums-2d.h"
#include "hw/enums-3d.h"
#include "hw/ramin.h"
#include "nvd/validate-priv.h"

_Static_assert((int)NV_ACC_READ == (int)NVD_ACCESS_READ && (int)NV_ACC_WRITE == (int)NVD_ACCESS_WRITE,
	       "one meaning of read and write");

/* ---- the method tables ---- */

enum { NVD_VF_UNKNOWN, NVD_VF_PLAIN, NVD_VF_ONCE, NVD_VF_STORE, NVD_VF_LOOK };

/* Launches whose checks do not read their data word, so that a run of them
 * in a packet is checked once, again only when a stored value changed:
 * inline image data and the vertices that only draw. */
enum { NVD_VO_NONE, NVD_VO_IFC, NVD_VO_VERTEX, NVD_VO_COUNT };

enum {
	NVD_VA_VALUE,          /* stored (an input of hw/access.h) and/or a launch */
	NVD_VA_OBJECT,         /* FIFO OBJECT: bind the subchannel */
	NVD_VA_PRIV,
	NVD_VA_DMA,            /* handle of a ctxdma (DMA_* methods) or NULL */
	NVD_VA_NOTIFIER,       /* DMA_NOTIFY: a notifier ctxdma or NULL */
	NVD_VA_GROBJ,          /* handle of a graphics object or NULL */
	NVD_VA_NOTIFY,         /* NOTIFY: the notification goes to DMA_NOTIFY */
	NVD_VA_PROGRAM,        /* FP_ACTIVE_PROGRAM: the channel's shadow copy */
};

#define NVD_NMTHD (NV_MTHD_END / 4)
#define NVD_CI_NONE   NVD_NCLASSES          /* nothing bound */
#define NVD_CI_DAEMON (NVD_NCLASSES + 1)    /* the daemon's subchannel: nothing passes */
#define NVD_NCI       (NVD_NCLASSES + 2)
#define NVD_NONE  0xffff

struct nvd_vlook {
	const struct nv_mthd_desc *d;
	nv_acc_fn *launch;          /* what the card does at it, NULL: nothing */
	uint16_t elem;
	uint8_t act, table;
	uint8_t once;               /* checked once a run of its packet: NVD_VO_* */
	uint16_t slot;              /* where its value is stored (NVD_VT_* based), NVD_NONE */
	uint16_t hidx;              /* handle: its record */
};

static struct {
	uint8_t flag[NVD_NCI][NVD_NMTHD];
	uint16_t run[NVD_NCI][NVD_NMTHD];     /* PLAIN/ONCE: methods alike from here on */
	uint16_t prun[NVD_NCI][NVD_NMTHD];    /* PLAIN: run; else 0 (the fast path's test) */
	uint16_t srun[NVD_NCI][NVD_NMTHD];    /* PLAIN or STORE from here on (the fast path's stores) */
	uint16_t sslot[NVD_NCI][NVD_NMTHD];   /* STORE: its slot; else NVD_NONE */
	uint16_t orun[NVD_NCI][NVD_NMTHD];    /* ONCE: run; else 0 (the fast path's passed checks) */
	uint8_t okind[NVD_NCI][NVD_NMTHD];    /* ONCE: its NVD_VO_* */
	uint16_t look[NVD_NCI][NVD_NMTHD];    /* ONCE/LOOK: index into looks */
	uint8_t input[NVD_VSLOTS];            /* the slot is read by hw/access.h */
	uint16_t hidx[NVD_VSLOTS];            /* a handle slot's record, NVD_NONE */
	uint16_t tbase[NV_TABLE_COUNT];       /* NVD_VT_<P> by table id */
	char acc_name[NV_ACC_NKINDS][16][24]; /* "texture 3", for refusals */
	struct nvd_vlook *looks;
	unsigned nlooks, looks_cap, nobj;
	int broken;                           /* out of memory building: refuse everything */
} vt;
static pthread_once_t vt_once = PTHREAD_ONCE_INIT;

static const struct nv_class_desc *nvd_vt_class(unsigned ci)
{
	return ci < NVD_NCLASSES ? nv_class_at(ci) : NULL;
}

static void nvd_vt_slots(void)
{
#define NVD_VT_TBASE_(P, rows) vt.tbase[NV_TABLE_##P] = NVD_VT_##P;
	NV_TABLES(NVD_VT_TBASE_)
#define NVD_VT_INPUT_(T, NAME) \
	memset(&vt.input[NVD_VT_##T + NV_##T##_##NAME##__SLOT], 1, \
	       NV_##T##_##NAME##__SLOT_LAST - NV_##T##_##NAME##__SLOT + 1);
	NV_ACC_INPUTS(NVD_VT_INPUT_)
	memset(vt.hidx, 0xff, sizeof vt.hidx);
	for (unsigned t = 0; t < NV_TABLE_COUNT; t++) {
		const struct nv_class_desc *c = NULL;
		for (unsigned ci = 0; ci < NVD_NCLASSES && !c; ci++)
			if (nvd_vt_class(ci) && nvd_vt_class(ci)->table_id == t)
				c = nvd_vt_class(ci);
		for (unsigned r = 0; c && r < c->nmthds; r++) {
			const struct nv_mthd_desc *d = &c->mthds[r];
			if (d->kind != NV_MK_HANDLE)
				continue;
			for (unsigned e = 0; e < d->count; e++) {
				if (vt.nobj >= NVD_NHANDLES) {
					vt.broken = 1;
					return;
				}
				vt.hidx[vt.tbase[t] + d->slot + e] = vt.nobj++;
			}
		}
	}
}

static struct nvd_vlook *nvd_vt_newlook(void)
{
	if (vt.nlooks == vt.looks_cap) {
		unsigned cap = vt.looks_cap ? vt.looks_cap * 2 : 1024;
		struct nvd_vlook *l = cap < NVD_NONE ? realloc(vt.looks, cap * sizeof *l) : NULL;
		if (!l) {
			vt.broken = 1;
			return NULL;
		}
		vt.looks = l;
		vt.looks_cap = cap;
	}
	struct nvd_vlook *l = &vt.looks[vt.nlooks++];
	memset(l, 0, sizeof *l);
	l->slot = l->hidx = NVD_NONE;
	return l;
}

static void nvd_vt_class_build(unsigned ci)
{
	const struct nv_class_desc *c = nvd_vt_class(ci);
	unsigned t = c ? c->table_id : NV_TABLE_COUNT;
	uint8_t *flag = vt.flag[ci];

	for (uint32_t i = 0; i < NVD_NMTHD; i++) {
		unsigned elem = 0;
		uint32_t m = i * 4;
		/* below 0x100 every class (and no class) answers with the FIFO's */
		const struct nv_mthd_desc *d = nv_mthd_find(m < NV_MTHD_FIFO_END ? nv_fifo_desc() : c,
							    m, &elem);
		flag[i] = NVD_VF_UNKNOWN;
		if (!d)
			continue;
		unsigned slot = m >= NV_MTHD_FIFO_END && c ? vt.tbase[t] + d->slot + elem : NVD_NONE;
		nv_acc_fn *launch = m >= NV_MTHD_FIFO_END && c ? nv_acc_launch(t, m) : NULL;
		int input = slot != NVD_NONE && vt.input[slot];
		int notify = m >= NV_MTHD_FIFO_END && !strcmp(d->name, "NOTIFY");
		int program = t == NV_TABLE_CURIE && m == NV_CURIE_FP_ACTIVE_PROGRAM;
		if (d->kind == NV_MK_PLAIN && !input && !launch && !notify) {
			flag[i] = NVD_VF_PLAIN;
			continue;
		}
		struct nvd_vlook *l = nvd_vt_newlook();
		if (!l)
			return;
		l->d = d;
		l->elem = elem;
		l->table = t;
		l->launch = launch;
		l->slot = input ? slot : NVD_NONE;
		switch (d->kind) {
		case NV_MK_HANDLE:
			if (m < NV_MTHD_FIFO_END)
				l->act = NVD_VA_OBJECT;
			else if (!strcmp(d->name, "DMA_NOTIFY"))
				l->act = NVD_VA_NOTIFIER;
			else if (!strncmp(d->name, "DMA_", 4))
				l->act = NVD_VA_DMA;
			else
				l->act = NVD_VA_GROBJ;
			if (m >= NV_MTHD_FIFO_END) {
				l->slot = slot;
				l->hidx = vt.hidx[slot];
			}
			break;
		case NV_MK_PRIV:
			l->act = NVD_VA_PRIV;
			break;
		default:
			l->act = program ? NVD_VA_PROGRAM : notify ? NVD_VA_NOTIFY : NVD_VA_VALUE;
			break;
		}
		l->once = t == NV_TABLE_IFC && launch ? NVD_VO_IFC :
			  launch == nv40_acc_vertex ? NVD_VO_VERTEX : NVD_VO_NONE;
		/* a value hw/access.h reads and nothing else: only stored */
		flag[i] = l->once ? NVD_VF_ONCE :
			  l->act == NVD_VA_VALUE && !launch && l->slot != NVD_NONE ? NVD_VF_STORE :
			  NVD_VF_LOOK;
		vt.look[ci][i] = vt.nlooks - 1;
	}
	/* runs of alike methods, so a packet steps over them in one go */
	for (uint32_t i = NVD_NMTHD; i-- > 0;) {
		vt.run[ci][i] = 1;
		vt.sslot[ci][i] = flag[i] == NVD_VF_STORE ? vt.looks[vt.look[ci][i]].slot : NVD_NONE;
		if (flag[i] == NVD_VF_PLAIN || flag[i] == NVD_VF_STORE)
			vt.srun[ci][i] = i + 1 < NVD_NMTHD ? vt.srun[ci][i + 1] + 1 : 1;
		if (flag[i] == NVD_VF_UNKNOWN || flag[i] == NVD_VF_LOOK)
			continue;
		if (i + 1 < NVD_NMTHD && flag[i + 1] == flag[i] &&
		    (flag[i] != NVD_VF_ONCE ||
		     vt.looks[vt.look[ci][i]].once == vt.looks[vt.look[ci][i + 1]].once))
			vt.run[ci][i] = vt.run[ci][i + 1] + 1;
		if (flag[i] == NVD_VF_PLAIN)
			vt.prun[ci][i] = vt.run[ci][i];
		if (flag[i] == NVD_VF_ONCE) {
			vt.orun[ci][i] = vt.run[ci][i];
			vt.okind[ci][i] = vt.looks[vt.look[ci][i]].once;
		}
	}
}

static void nvd_vt_build(void)
{
	for (unsigned k = 0; k < NV_ACC_NKINDS; k++)
		for (unsigned u = 0; u < 16; u++) {
			int numbered = k == NV_ACC_COLOR || k == NV_ACC_TEXTURE || k == NV_ACC_VERTEX;
			snprintf(vt.acc_name[k][u], sizeof vt.acc_name[k][u], numbered ? "%s %u" : "%s",
				 nv_acc_kind_name[k], u);
		}
	nvd_vt_slots();
	for (unsigned ci = 0; ci < NVD_CI_DAEMON && !vt.broken; ci++)
		nvd_vt_class_build(ci);
}

/* ---- state ---- */

struct nvd_vrel { uint32_t bo, off, val; };

struct nvd_vstate {
	struct nvd_vshadow sh;
	struct nvd_vrel *rel;      /* scratch: this submission's relocations, sorted */
	size_t rel_cap;
	struct nvd_vundo *undo;    /* scratch: the undo log */
	size_t undo_cap;
	uint32_t *order;           /* scratch: the buffers by domain and address */
	size_t order_cap;
};

struct nvd_vstate *nvd_vstate_new(void)
{
	struct nvd_vstate *vs = calloc(1, sizeof *vs);
	if (!vs)
		return NULL;
	for (unsigned s = 0; s < NV_SUBCHANNELS; s++)
		vs->sh.subc_ci[s] = s == NVD_SUBC_DAEMON ? NVD_CI_DAEMON : NVD_CI_NONE;
	return vs;
}

uint32_t nvd_vstate_fp_program(const struct nvd_vstate *vs)
{
	return vs->sh.slot[NVD_VT_CURIE + NV_CURIE_FP_ACTIVE_PROGRAM__SLOT];
}

void nvd_vstate_fp_set_program(struct nvd_vstate *vs, uint32_t v)
{
	vs->sh.slot[NVD_VT_CURIE + NV_CURIE_FP_ACTIVE_PROGRAM__SLOT] = v;
}

void nvd_vstate_free(struct nvd_vstate *vs)
{
	if (!vs)
		return;
	free(vs->rel);
	free(vs->undo);
	free(vs->order);
	free(vs);
}

void nvd_v_change(struct nvd_vctx *x, uint32_t *p, uint32_t v)
{
	if (x->nundo == x->undo_cap) {
		size_t cap = x->undo_cap ? 2 * x->undo_cap : 256;
		struct nvd_vundo *u = realloc(x->undo, cap * sizeof *u);
		if (!u) {
			x->undo_broken = 1;      /* the walk refuses at its end */
			return;
		}
		x->undo = u;
		x->undo_cap = cap;
	}
	x->undo[x->nundo++] = (struct nvd_vundo){ p, *p };
	*p = v;
	x->gen++;
}

static void nvd_v_set_rec(struct nvd_vctx *x, struct nvd_vhobj *h, const struct nvd_vhobj *v)
{
	uint32_t w[sizeof *h / 4];
	memcpy(w, v, sizeof w);
	for (unsigned i = 0; i < sizeof w / 4; i++)
		nvd_v_set(x, (uint32_t *)h + i, w[i]);
}

/* ---- errors ---- */

int nvd_v_fail(struct nvd_vctx *x, int err, const char *fmt, ...)
{
	struct nvd_verror *e = x->e;
	va_list ap;

	if (x->quiet)
		return -err;
	e->err = -err;
	e->push = x->push;
	e->offset = x->off;
	e->subc = x->subc;
	e->cls = x->cls;
	e->mthd = x->mthd;
	e->data = x->data;
	va_start(ap, fmt);
	vsnprintf(e->why, sizeof e->why, fmt, ap);
	va_end(ap);
	return -err;
}

/* ---- handles and accesses ---- */

const struct nvd_vhobj *nvd_v_rec(const struct nvd_vctx *x, unsigned table, unsigned slot)
{
	uint32_t v = x->sh->slot[vt.tbase[table] + slot];
	return v && v <= NVD_NHANDLES ? &x->sh->obj[v - 1] : NULL;
}

/* hw/access.h's view: the class of the object a handle slot names. */
static unsigned nvd_v_view_cls(const struct nv_acc_state *st, uint32_t v)
{
	const struct nvd_vshadow *sh = st->ctx;
	if (!v || v > NVD_NHANDLES || sh->obj[v - 1].kind != NVD_VH(NVD_VOBJ_GR))
		return 0;
	return sh->obj[v - 1].cls;
}

static void nvd_v_view(struct nvd_vctx *x)
{
	memset(&x->view, 0, sizeof x->view);
	for (unsigned t = 0; t < NV_TABLE_COUNT; t++)
		x->view.t[t] = &x->sh->slot[vt.tbase[t]];
	x->view.cls = nvd_v_view_cls;
	x->view.ctx = x->sh;
}

/* The memory a ctxdma names: its NVD_DOMAIN_* for the VRAM and GART
 * windows, 0 for a buffer's own ctxdma (the caller checks against its
 * size), or the error after failing for a NULL or unset one. */
static int nvd_v_dma_domain(struct nvd_vctx *x, const struct nvd_vhobj *dma, const char *what)
{
	switch (dma ? dma->kind : NVD_VH_UNSET) {
	case NVD_VH(NVD_VOBJ_DMA_BO):
		return 0;
	case NVD_VH(NVD_VOBJ_DMA_VRAM):
		return NVD_DOMAIN_VRAM;
	case NVD_VH(NVD_VOBJ_DMA_GART):
		return NVD_DOMAIN_GART;
	case NVD_VH(NVD_VOBJ_NULL):
		return nvd_v_fail(x, EFAULT, "%s through the NULL ctxdma", what);
	default:
		return nvd_v_fail(x, EFAULT, "%s: its ctxdma is not set", what);
	}
}

static unsigned nvd_v_listed(const struct nvd_vsubmit *sub)
{
	return sub->nr_listed ? sub->nr_listed : sub->nr_bos;
}

/* Does a buffer listed with `listed` cover an access?  What the card
 * writes must be listed for writing; what it only reads, for either: a
 * buffer listed for writing is ordered against every other user of it
 * (nvd/sync.c), readers included, so reading it is covered. */
static int nvd_v_covers(unsigned listed, unsigned access)
{
	return access & NVD_ACCESS_WRITE ? !!(listed & NVD_ACCESS_WRITE) : !!(listed & NVD_ACCESS_RW);
}

/* Buffer i of the submission was reached with access: an unlisted one is
 * held by the submission from now on. */
static void nvd_v_use(struct nvd_vctx *x, unsigned i, unsigned access)
{
	unsigned l = nvd_v_listed(x->sub);
	if (i >= l && x->sub->used)
		x->sub->used[i - l] |= (uint8_t)access;
}

/* The submission's buffers never overlap one another in a domain (one
 * allocation each; a buffer listed twice is one entry), so one holds a
 * byte or none.  A few listed buffers are searched in turn, as Mesa's
 * addresses fall in them; past those, a binary search over an order made the
 * first time one is needed: the cost of an address does not grow with the
 * buffers a client holds (up to 4096 unlisted ones), and sorting them is paid
 * once per submission, only by one that reaches past its list. */
#define NVD_V_LINEAR 16

static int nvd_v_order_cmp(const void *a, const void *b, void *ctx)
{
	const struct nvd_vbo *bos = ctx, *p = &bos[*(const uint32_t *)a], *q = &bos[*(const uint32_t *)b];
	if (p->domain != q->domain)
		return p->domain < q->domain ? -1 : 1;
	return p->addr < q->addr ? -1 : p->addr > q->addr;
}

static int nvd_v_holder(struct nvd_vctx *x, unsigned dom, uint64_t at)
{
	const struct nvd_vbo *bos = x->sub->bos;
	unsigned n = x->sub->nr_bos;
	unsigned nl = x->sub->nr_listed ? x->sub->nr_listed : n;
#define NVD_V_HOLDS(i) (bos[i].domain == dom && at >= bos[i].addr && at - bos[i].addr < bos[i].size)
	/* the buffer of the last extent first: operations come in runs */
	if (x->hint < n && NVD_V_HOLDS(x->hint))
		return (int)x->hint;
	if (nl <= NVD_V_LINEAR || !x->order) {
		for (unsigned i = 0; i < nl; i++)
			if (NVD_V_HOLDS(i))
				return (int)i;
		if (nl == n || !x->order) {
			for (unsigned i = nl; i < n; i++)
				if (NVD_V_HOLDS(i))
					return (int)i;
			return -1;
		}
	}
	if (!x->ordered) {
		for (unsigned i = 0; i < n; i++)
			x->order[i] = i;
		qsort_r(x->order, n, sizeof(*x->order), nvd_v_order_cmp, (void *)bos);
		x->ordered = 1;
	}
	/* the last buffer starting at or before (dom, at) */
	unsigned lo = 0, hi = n;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		const struct nvd_vbo *b = &bos[x->order[mid]];
		if (b->domain < dom || (b->domain == dom && b->addr <= at))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && NVD_V_HOLDS(x->order[lo - 1]) ? (int)x->order[lo - 1] : -1;
#undef NVD_V_HOLDS
}

int nvd_v_extent(struct nvd_vctx *x, const struct nvd_vhobj *dma, uint64_t start,
		 uint64_t len, unsigned access, const char *what)
{
	if (!len)
		return 0;
	/* ctxdma offsets are 32-bit: nothing may wrap past 4 GiB */
	if (start > UINT32_MAX || len > (1ull << 32) - start)
		return nvd_v_fail(x, EFAULT, "%s 0x%llx+0x%llx runs past 4 GiB", what,
				  (unsigned long long)start, (unsigned long long)len);
	int dom = nvd_v_dma_domain(x, dma, what);
	if (dom < 0)
		return dom;
	if (!dom) {
		if (start + len <= dma->size)
			return 0;
		return nvd_v_fail(x, EFAULT, "%s 0x%llx+0x%llx outside its ctxdma (0x%llx bytes)",
				  what, (unsigned long long)start, (unsigned long long)len,
				  (unsigned long long)dma->size);
	}

	int i = nvd_v_holder(x, dom, start);
	if (i >= 0 && len > x->sub->bos[i].addr + x->sub->bos[i].size - start)
		i = -1;
	if (i >= 0 && nvd_v_covers(x->sub->bos[i].access, access)) {
		x->hint = (unsigned)i;
		nvd_v_use(x, (unsigned)i, access);
		return 0;
	}
	if (i >= 0)
		return nvd_v_fail(x, EFAULT, "%s 0x%llx+0x%llx: buffer not submitted to %s",
				  what, (unsigned long long)start, (unsigned long long)len,
				  access & NVD_ACCESS_WRITE ? "write" : "read");
	return nvd_v_fail(x, EFAULT, "%s 0x%llx+0x%llx outside the submitted buffers", what,
			  (unsigned long long)start, (unsigned long long)len);
}

int nvd_v_room(struct nvd_vctx *x, const struct nvd_vhobj *dma, uint64_t start,
	       unsigned access, const char *what, uint64_t *room)
{
	*room = 0;
	int dom = nvd_v_dma_domain(x, dma, what);
	if (dom < 0)
		return dom;
	if (!dom) {
		if (start < dma->size) {
			*room = dma->size - start;
			return 0;
		}
		return nvd_v_fail(x, EFAULT, "%s 0x%llx outside its ctxdma (0x%llx bytes)", what,
				  (unsigned long long)start, (unsigned long long)dma->size);
	}
	int i = nvd_v_holder(x, dom, start);
	if (i >= 0 && nvd_v_covers(x->sub->bos[i].access, access)) {
		const struct nvd_vbo *b = &x->sub->bos[i];
		uint64_t r = b->size - (start - b->addr);
		/* ctxdma offsets are 32-bit */
		if (start < (1ull << 32) && r > (1ull << 32) - start)
			r = (1ull << 32) - start;
		*room = r;
		x->hint = (unsigned)i;
		nvd_v_use(x, (unsigned)i, access);
		return 0;
	}
	return nvd_v_fail(x, EFAULT, "%s 0x%llx outside the submitted buffers (to %s)", what,
			  (unsigned long long)start, access & NVD_ACCESS_WRITE ? "write" : "read");
}

int nvd_v_acc(struct nvd_vctx *x, const struct nv_acc *a)
{
	const char *what = vt.acc_name[a->kind][a->unit & 15];
	uint64_t lo, span;

	if (nv_acc_bounds(a, &lo, &span) < 0)
		return nvd_v_fail(x, EFAULT, "%s: below offset 0 or past the address space", what);
	return nvd_v_extent(x, nvd_v_rec(x, a->table, a->dma), lo, span, a->dir, what);
}

int nvd_v_acc_list(struct nvd_vctx *x, const struct nv_acc_list *l)
{
	if (l->trap)
		return nvd_v_fail(x, EINVAL, "%s (the card would trap)", l->why);
	for (unsigned i = 0; i < l->n; i++) {
		int r = nvd_v_acc(x, &l->a[i]);
		if (r)
			return r;
	}
	return 0;
}

/* M2MF: a byte-for-byte copy between two buffers of the submission is
 * remembered, for the reads validate-3d.c and validate-fp.c make of what
 * the card will have copied by then. */
static void nvd_v_copy_seen(struct nvd_vctx *x, const struct nv_acc_list *l, unsigned src,
			    unsigned dst)
{
	const struct nv_acc *in = &l->a[0], *out = &l->a[1];
	const struct nvd_vhobj *din = nvd_v_rec(x, in->table, in->dma);
	const struct nvd_vhobj *dout = nvd_v_rec(x, out->table, out->dma);
	uint32_t fmt = NVD_V(x, M2MF, FORMAT);
	int plain = l->n == 2 && fmt == NV_M2MF_FORMAT(1, 1) && in->pitch >= 0 && out->pitch >= 0 &&
		    din && dout && din->kind != NVD_VH(NVD_VOBJ_DMA_BO) &&
		    dout->kind != NVD_VH(NVD_VOBJ_DMA_BO);
	if (plain && x->ncopies < sizeof(x->copies) / sizeof(x->copies[0]))
		x->copies[x->ncopies++] = (struct nvd_vcopy){
			(uint16_t)src, (uint16_t)dst, (uint32_t)in->off, (uint32_t)out->off,
			(uint32_t)in->pitch, (uint32_t)out->pitch, (uint32_t)in->len, in->rows };
	else
		x->copies_lost++;
}

/* The card acts at this method: what it touches, checked. */
static int nvd_v_launch(struct nvd_vctx *x, const struct nvd_vlook *l, uint32_t data)
{
	struct nv_acc_list acc;
	int r;

	if (l->table == NV_TABLE_CURIE)
		return nvd_v3d_launch(x, l->launch, l->d->offset + l->elem * l->d->stride, l->elem, data);
	l->launch(&x->view, l->elem, data, &acc);
	if (l->table != NV_TABLE_M2MF || acc.n != 2)
		return nvd_v_acc_list(x, &acc);
	if ((r = nvd_v_acc(x, &acc.a[0])))
		return r;
	unsigned src = x->hint;
	if ((r = nvd_v_acc(x, &acc.a[1])))
		return r;
	nvd_v_copy_seen(x, &acc, src, x->hint);
	return 0;
}

static const struct nvd_vobj *nvd_v_lookup(struct nvd_vctx *x, uint32_t handle)
{
	const struct nvd_vobj *o = x->sub->lookup(x->sub->lookup_ctx, handle);
	if (!o)
		nvd_v_fail(x, ENOENT, "no object 0x%08x on this channel", handle);
	return o;
}

static int nvd_v_bind(struct nvd_vctx *x, unsigned subc, uint32_t handle)
{
	const struct nvd_vobj *o = nvd_v_lookup(x, handle);
	if (!o)
		return -ENOENT;
	if (o->kind != NVD_VOBJ_GR)
		return nvd_v_fail(x, EINVAL, "0x%08x is not a graphics object", handle);
	for (unsigned ci = 0; ci < NVD_NCLASSES; ci++) {
		const struct nv_class_desc *c = nv_class_at(ci);
		if (c->cls != o->cls)
			continue;
		if (!c->is_gr)
			break;
		nvd_v_set(x, &x->sh->subc_ci[subc], ci);
		nvd_v_set(x, &x->sh->subc_cls[subc], o->cls);
		return 0;
	}
	return nvd_v_fail(x, EINVAL, "class 0x%04x cannot be bound", o->cls);
}

static int nvd_v_handle(struct nvd_vctx *x, const struct nvd_vlook *l, uint32_t handle)
{
	const struct nvd_vobj *o = nvd_v_lookup(x, handle);
	if (!o)
		return -ENOENT;
	switch (l->act) {
	case NVD_VA_DMA:
		if (o->kind != NVD_VOBJ_NULL && o->kind != NVD_VOBJ_DMA_VRAM &&
		    o->kind != NVD_VOBJ_DMA_GART && o->kind != NVD_VOBJ_DMA_BO)
			return nvd_v_fail(x, EINVAL, "0x%08x is not a ctxdma", handle);
		break;
	case NVD_VA_NOTIFIER:
		/* the card writes notifications whenever a class decides
		 * (hw/access.h nv_acc_notify): only a notifier (or none) may
		 * ever be named, so every one lands in one */
		if (o->kind != NVD_VOBJ_NULL &&
		    (o->kind != NVD_VOBJ_DMA_BO || o->size < NVD_VNOTIFY_SIZE))
			return nvd_v_fail(x, EFAULT, "0x%08x is not a notifier of %u bytes or more",
					  handle, NVD_VNOTIFY_SIZE);
		break;
	default:
		if (o->kind != NVD_VOBJ_NULL && o->kind != NVD_VOBJ_GR)
			return nvd_v_fail(x, EINVAL, "0x%08x is not a graphics object", handle);
		break;
	}
	/* textures and programs read VRAM through the daemon's read-only
	 * ctxdma, the card's guard over daemon memory (validate.h h_tex) */
	if (o->kind == NVD_VOBJ_DMA_VRAM && l->table == NV_TABLE_CURIE && x->sub->fp &&
	    x->sub->fp->h_tex && (l->d->offset == NV_CURIE_DMA_TEXTURE0 ||
				  l->d->offset == NV_CURIE_DMA_TEXTURE1)) {
		x->subst = 1;
		x->subst_val = x->sub->fp->h_tex;
	}
	if (l->hidx != NVD_NONE) {
		struct nvd_vhobj h = { NVD_VH(o->kind), o->domain, o->cls, 0,
				       o->kind == NVD_VOBJ_DMA_BO ? o->size : 0 };
		nvd_v_set_rec(x, &x->sh->obj[l->hidx], &h);
		nvd_v_set(x, &x->sh->slot[l->slot], l->hidx + 1u);
	}
	return 0;
}

static int nvd_v_notify(struct nvd_vctx *x, const struct nvd_vlook *l)
{
	const struct nvd_vhobj *o = nvd_v_rec(x, l->table, NV_M2MF_DMA_NOTIFY__SLOT);
	unsigned kind = o ? o->kind : NVD_VH_UNSET;

	if (kind == NVD_VH(NVD_VOBJ_NULL) ||
	    (kind == NVD_VH(NVD_VOBJ_DMA_BO) && o->size >= NVD_VNOTIFY_SIZE))
		return 0;
	return nvd_v_fail(x, EFAULT, kind ? "DMA_NOTIFY is not a notifier" : "DMA_NOTIFY is not set");
}

/* A method the table says to look at; x->mthd/data/cls are set.  A launch
 * sees the state before the method's own value is stored. */
static int nvd_v_look(struct nvd_vctx *x, unsigned subc, const struct nvd_vlook *l, uint32_t v)
{
	int r = 0;

	switch (l->act) {
	case NVD_VA_PRIV:
		return nvd_v_fail(x, EPERM, "privileged method");
	case NVD_VA_OBJECT:
		return nvd_v_bind(x, subc, v);
	case NVD_VA_DMA:
	case NVD_VA_NOTIFIER:
	case NVD_VA_GROBJ:
		return nvd_v_handle(x, l, v);
	case NVD_VA_NOTIFY:
		r = nvd_v_notify(x, l);
		break;
	case NVD_VA_PROGRAM:
		return nvd_v3d_fp_bind(x, v);
	}
	if (!r && l->launch)
		r = nvd_v_launch(x, l, v);
	if (!r && l->slot != NVD_NONE)
		nvd_v_set(x, &x->sh->slot[l->slot], v);
	return r;
}

/* ---- relocations ---- */

static int nvd_vrel_cmp(const void *a, const void *b)
{
	const struct nvd_vrel *p = a, *q = b;
	if (p->bo != q->bo)
		return p->bo < q->bo ? -1 : 1;
	return p->off < q->off ? -1 : p->off > q->off;
}

static int nvd_v_relocs(struct nvd_vstate *vs, struct nvd_vctx *x, size_t *nrel)
{
	const struct nvd_vsubmit *sub = x->sub;
	unsigned n = sub->nr_relocs;
	int sorted = 1;

	*nrel = 0;
	if (!n)
		return 0;
	if (n > vs->rel_cap) {
		struct nvd_vrel *r = realloc(vs->rel, (size_t)n * sizeof *r);
		if (!r)
			return nvd_v_fail(x, ENOMEM, "no memory for %u relocations", n);
		vs->rel = r;
		vs->rel_cap = n;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct nvd_submit_reloc *r = &sub->relocs[i];
		x->off = r->reloc_offset;
		x->data = r->data;
		if (r->reloc_bo >= nvd_v_listed(sub) || r->bo >= nvd_v_listed(sub))
			return nvd_v_fail(x, EINVAL, "reloc %u: buffer index out of range", i);
		if ((r->reloc_offset & 3) ||
		    (uint64_t)r->reloc_offset + 4 > sub->bos[r->reloc_bo].size)
			return nvd_v_fail(x, EINVAL, "reloc %u: word 0x%x unaligned or outside its buffer",
					  i, r->reloc_offset);
		if ((r->flags & ~(NVD_RELOC_LOW | NVD_RELOC_HIGH | NVD_RELOC_OR)) ||
		    (r->flags & NVD_RELOC_LOW && r->flags & NVD_RELOC_HIGH))
			return nvd_v_fail(x, EINVAL, "reloc %u: bad flags 0x%x", i, r->flags);
		const struct nvd_vbo *t = &sub->bos[r->bo];
		uint64_t a = t->addr + r->data;
		uint32_t v = r->flags & NVD_RELOC_LOW ? (uint32_t)a :
			     r->flags & NVD_RELOC_HIGH ? (uint32_t)(a >> 32) : r->data;
		if (r->flags & NVD_RELOC_OR)
			v |= t->domain == NVD_DOMAIN_VRAM ? r->vor : r->tor;
		vs->rel[i] = (struct nvd_vrel){ r->reloc_bo, r->reloc_offset, v };
		if (i && nvd_vrel_cmp(&vs->rel[i - 1], &vs->rel[i]) >= 0)
			sorted = 0;
	}
	if (!sorted)
		qsort(vs->rel, n, sizeof *vs->rel, nvd_vrel_cmp);
	for (unsigned i = 1; i < n; i++)
		if (!nvd_vrel_cmp(&vs->rel[i - 1], &vs->rel[i])) {
			x->off = vs->rel[i].off;
			return nvd_v_fail(x, EINVAL, "two relocations patch word 0x%x", vs->rel[i].off);
		}
	*nrel = n;
	return 0;
}

/* ---- the walk ----
 *
 * A segment (a push range from its start or a jump target on) is copied
 * into the output in chunks ahead of the cursor, relocations patched into
 * the copy, and then validated there: every client word is read exactly
 * once (by that copy), and what is checked is what the card will execute.
 * Plain packets are only skipped over; a JUMP or RETURN cuts the segment's
 * output at its own word, so none ever reaches the card. */

#define NVD_VCHUNK 4096            /* words copied ahead at a time */

struct nvd_vwalk {
	struct nvd_vctx x;
	uint32_t *out;
	size_t cap, n;             /* output words: room, committed before this segment */
	size_t jumps;
	const struct nvd_vrel *rel, *rel_end;
	/* the segment being read: input word i is output word n + (i - i0) */
	uint32_t bo, base, nw;     /* buffer, byte offset of the range, its words */
	const uint8_t *map;
	uint32_t i0, copied, lim;  /* words [i0, copied) are out; lim: the budget's end */
	const struct nvd_vrel *r;  /* next relocation not yet applied */
	uint32_t split;            /* nvd_vw_packet: the word nvd_vw_split cuts at */
	uint32_t once_gen[NVD_VO_COUNT];   /* x.gen when each once-a-run check last passed */
};

static inline uint32_t *nvd_vw_slot(const struct nvd_vwalk *w, uint32_t i)
{
	return w->out + (w->n + (i - w->i0));
}

static inline uint32_t nvd_vw_rd(const struct nvd_vwalk *w, uint32_t i)
{
	return nv_rd32le(nvd_vw_slot(w, i));
}

/* Enter push range pi at word i. */
static void nvd_vw_seek(struct nvd_vwalk *w, unsigned pi, uint32_t i)
{
	const struct nvd_submit_push *p = &w->x.sub->push[pi];
	const struct nvd_vrel *lo = w->rel, *hi = w->rel_end;
	uint32_t at = p->offset + 4 * i;
	size_t room = w->cap - w->n;

	w->x.push = pi;
	w->bo = p->bo;
	w->base = p->offset;
	w->nw = p->length / 4;
	w->map = w->x.sub->bos[p->bo].map + p->offset;
	w->i0 = w->copied = i;
	w->lim = room < w->nw - i ? i + (uint32_t)room : w->nw;
	while (lo < hi) {
		const struct nvd_vrel *mid = lo + (hi - lo) / 2;
		if (mid->bo < w->bo || (mid->bo == w->bo && mid->off < at))
			lo = mid + 1;
		else
			hi = mid;
	}
	w->r = lo;
}

/* Have input words up to `upto` (<= nw) in the output.  0 when the output
 * would not fit the budget. */
static inline int nvd_vw_ensure(struct nvd_vwalk *w, uint32_t upto)
{
	if (__builtin_expect(upto <= w->copied, 1))
		return 1;
	if (upto > w->lim)
		return 0;
	uint32_t end = w->copied + NVD_VCHUNK;
	if (end > w->lim || end < w->copied)
		end = w->lim;
	if (end < upto)
		end = upto;
	memcpy(nvd_vw_slot(w, w->copied), w->map + 4 * (size_t)w->copied,
	       4 * (size_t)(end - w->copied));
	uint32_t stop = w->base + 4 * end;
	for (; w->r < w->rel_end && w->r->bo == w->bo && w->r->off < stop; w->r++)
		nv_wr32le(nvd_vw_slot(w, (w->r->off - w->base) / 4), w->r->val);
	w->copied = end;
	return 1;
}

static int nvd_vw_budget(struct nvd_vwalk *w)
{
	return nvd_v_fail(&w->x, w->jumps ? ELOOP : E2BIG,
			  w->jumps ? "jumps do not end before the ring is full" :
			  "more words than the ring has room for");
}

static int nvd_vw_unknown(struct nvd_vwalk *w, unsigned ci, uint32_t m)
{
	w->x.mthd = m * 4;
	if (ci == NVD_CI_NONE && m * 4 >= NV_MTHD_FIFO_END)
		return nvd_v_fail(&w->x, EINVAL, "no object bound on subchannel %u", w->x.subc);
	return nvd_v_fail(&w->x, EINVAL, "unknown method");
}

/* The data words [i, i+count) of a method packet that is not all plain;
 * they are in the output already.  1: the word at w->split needs the
 * daemon's words before it (nvd_vw_split). */
static int nvd_vw_packet(struct nvd_vwalk *w, const struct nv_cmd *c, uint32_t i)
{
	struct nvd_vshadow *sh = w->x.sh;
	unsigned subc = c->subc, inc = c->type == NV_CMD_INC;
	uint32_t m = c->mthd / 4, end = i + c->count;
	unsigned ci = sh->subc_ci[subc];

	if (subc == NVD_SUBC_DAEMON)
		return nvd_v_fail(&w->x, EPERM, "subchannel %u is the daemon's", subc);
	if (inc && m + c->count > NVD_NMTHD)
		return nvd_v_fail(&w->x, EINVAL, "packet runs past method 0x%x", NV_MTHD_END - 4);
	while (i < end) {
		uint32_t k = end - i;
		int r;

		w->x.off = w->base + 4 * i;
		w->x.mthd = m * 4;
		switch (vt.flag[ci][m]) {
		case NVD_VF_PLAIN:
			if (inc && vt.run[ci][m] < k)
				k = vt.run[ci][m];
			break;
		case NVD_VF_ONCE: {
			const struct nvd_vlook *l = &vt.looks[vt.look[ci][m]];
			if (inc && vt.run[ci][m] < k)
				k = vt.run[ci][m];
			/* nothing it reads changed since it last passed: it passes */
			if (w->once_gen[l->once] != w->x.gen) {
				w->x.data = 0;
				r = nvd_v_launch(&w->x, l, 0);
				if (r)
					return r;
				w->once_gen[l->once] = w->x.gen;
			}
			break;
		}
		case NVD_VF_STORE:
			if (!inc) {
				/* one method again and again: its last word stays */
				nvd_v_set(&w->x, &sh->slot[vt.looks[vt.look[ci][m]].slot],
					  nvd_vw_rd(w, end - 1));
				break;
			}
			if (vt.run[ci][m] < k)
				k = vt.run[ci][m];
			for (uint32_t j = 0; j < k; j++)
				nvd_v_set(&w->x, &sh->slot[vt.looks[vt.look[ci][m + j]].slot],
					  nvd_vw_rd(w, i + j));
			break;
		case NVD_VF_LOOK: {
			uint32_t v = nvd_vw_rd(w, i);
			k = 1;
			w->x.data = v;
			r = nvd_v_look(&w->x, subc, &vt.looks[vt.look[ci][m]], v);
			if (r)
				return r;
			if (w->x.fp_split) {
				/* FP_ACTIVE_PROGRAM: the card gets the shadow's
				 * address, after the daemon's copy if any */
				if (w->x.fp_nins) {
					w->split = i;
					return 1;
				}
				w->x.fp_split = 0;
				nv_wr32le(nvd_vw_slot(w, i), w->x.fp_val);
			}
			if (w->x.subst) {
				nv_wr32le(nvd_vw_slot(w, i), w->x.subst_val);
				w->x.subst = 0;
			}
			ci = sh->subc_ci[subc];     /* OBJECT rebinds */
			w->x.cls = sh->subc_cls[subc];
			break;
		}
		default:
			w->x.data = nvd_vw_rd(w, i);
			return nvd_vw_unknown(w, ci, m);
		}
		i += k;
		if (inc)
			m += k;
	}
	return 0;
}

/* Find the push range holding card address t: 0 and *pi, *wi, or -1. */
static int nvd_vw_target(const struct nvd_vwalk *w, uint32_t t, unsigned *pi, uint32_t *wi)
{
	const struct nvd_vsubmit *sub = w->x.sub;
	for (unsigned j = 0; j < sub->nr_push; j++) {
		const struct nvd_submit_push *p = &sub->push[j];
		uint64_t start = sub->bos[p->bo].addr + p->offset;
		if (t >= start && t - start < p->length && !((t - start) & 3)) {
			*pi = j;
			*wi = (uint32_t)(t - start) / 4;
			return 0;
		}
	}
	return -1;
}

/* A VB_INDEX_BATCH packet at input word i (in the output already): each
 * batch becomes its indices inline.  The segment is cut before the packet,
 * the replacement written after what is committed, and the walk goes on
 * after the packet.  0: replaced; 1: keep it (validate it as it is). */
static int nvd_vw_index_batches(struct nvd_vwalk *w, const struct nv_cmd *c, uint32_t i)
{
	uint32_t data[NV_CMD_MAX_COUNT];
	unsigned pi = w->x.push;
	for (uint32_t k = 0; k < c->count; k++)   /* before the output is overwritten */
		data[k] = nvd_vw_rd(w, i + 1 + k);
	size_t o = w->n + (i - w->i0);
	for (uint32_t k = 0; k < c->count; k++) {
		size_t n;
		w->x.off = w->base + 4 * (i + 1 + k);
		w->x.data = data[k];
		int r = nvd_v3d_index_expand(&w->x, c->subc, data[k], w->out + o, w->cap - o, &n);
		if (r == 1 && !k)
			return 1;
		if (r == -E2BIG || r == 1)
			return r == 1 ? nvd_v_fail(&w->x, EINVAL, "index buffer changes ctxdma kind "
						   "within one packet") : nvd_vw_budget(w);
		if (r)
			return r;
		o += n;
	}
	w->n = o;
	nvd_vw_seek(w, pi, i + 1 + c->count);
	return 0;
}

/* The packet *c (data from input word at, its header in the output just
 * before) has a FP_ACTIVE_PROGRAM at input word j = w->split, validated,
 * that needs the daemon's words x.fp_ins before it.  Output: the words
 * before j as a packet of their own, the daemon's words, FP_ACTIVE_PROGRAM
 * alone with its new value, and the words after j as a packet with a new
 * header, which *c and *at then describe (count 0: none).  The mapping of
 * input to output words moves with them: the words copied after j (none
 * looked at yet) move in the output, not copied from the client again. */
static int nvd_vw_split(struct nvd_vwalk *w, struct nv_cmd *c, uint32_t *at)
{
	uint32_t j = w->split, k = j - *at, rest = c->count - k - 1;
	unsigned pi = w->x.push, inc = c->type == NV_CMD_INC;
	size_t o = w->n + (*at - 1 - w->i0);     /* the header's output word */
	const uint32_t *ahead = nvd_vw_slot(w, j + 1);
	size_t nahead = w->copied - (j + 1);     /* the packet's rest and beyond */

	w->x.fp_split = 0;
	if (k) {
		nv_wr32le(w->out + o, inc ? NV_CMD_INC_WORD(c->subc, c->mthd, k)
					  : NV_CMD_NONINC_WORD(c->subc, c->mthd, k));
		o += 1 + k;
	}
	size_t need = w->x.fp_nins + 2 + (rest ? 1 + (size_t)rest : 0);
	if (need > w->cap - o)
		return nvd_vw_budget(w);
	/* input word j + 1 goes to `to`: moved first, as the daemon's words
	 * land where it was (to is past it: fp_nins > 0) */
	size_t to = o + w->x.fp_nins + 2 + (rest ? 1 : 0);
	if (nahead > w->cap - to)
		nahead = w->cap - to;
	memmove(w->out + to, ahead, 4 * nahead);
	for (unsigned q = 0; q < w->x.fp_nins; q++)
		nv_wr32le(w->out + o++, w->x.fp_ins[q]);
	nv_wr32le(w->out + o++, NV_CMD_INC_WORD(c->subc, NV_CURIE_FP_ACTIVE_PROGRAM, 1));
	nv_wr32le(w->out + o++, w->x.fp_val);
	c->mthd = inc ? c->mthd + 4 * (k + 1) : c->mthd;
	c->count = rest;
	*at = j + 1;
	/* the rest: a header where input word j maps, its words after it */
	if (rest)
		nv_wr32le(w->out + o, inc ? NV_CMD_INC_WORD(c->subc, c->mthd, rest)
					  : NV_CMD_NONINC_WORD(c->subc, c->mthd, rest));
	w->n = o;
	nvd_vw_seek(w, pi, rest ? j : j + 1);
	w->copied = j + 1 + (uint32_t)nahead < w->lim ? j + 1 + (uint32_t)nahead : w->lim;
	uint32_t stop = w->base + 4 * w->copied;
	for (; w->r < w->rel_end && w->r->bo == w->bo && w->r->off < stop; w->r++)
		;
	return 0;
}

/* Run push range pi as if CALLed: until its end or a RETURN. */
static int nvd_vw_run(struct nvd_vwalk *w, unsigned pi)
{
	struct nvd_vshadow *sh = w->x.sh;
	uint32_t i = 0;

	nvd_vw_seek(w, pi, 0);
	for (;;) {
		/* words ahead for the fast loop (none after a jump or a split) */
		if (i >= w->copied && i < w->nw && !nvd_vw_ensure(w, i + 1))
			goto budget;
		/* the common case first, in a tight loop: packets of plain
		 * methods, already in the output, are only stepped over,
		 * those of plain and only-stored methods store their values
		 * from the output as they go, and those of a once-a-run
		 * launch pass when its check passed on the state as it is */
		{
			const uint32_t *p = nvd_vw_slot(w, i);
			uint32_t avail = w->copied > i ? w->copied - i : 0, left = w->nw - i;
			while (avail) {
				uint32_t word = nv_rd32le(p);
				if ((word & 0xa0030003) != 0)   /* INC and NONINC only */
					break;
				uint32_t count = (word >> 18) & NV_CMD_MAX_COUNT;
				uint32_t m = (word & 0x1ffc) / 4, ni = (word >> 30) & 1;
				unsigned ci = sh->subc_ci[(word >> 13) & 7];
				/* methods needed: count, or for NONINC (one method
				 * repeated) min(count, 1); branch-free */
				uint32_t need = count - ((count - 1) & -(ni & (count > 1)));
				if (count >= avail)
					break;
				if (vt.prun[ci][m] >= need) {
					/* plain: stepped over */
				} else if (vt.srun[ci][m] >= need) {
					if (ni) {      /* its last word stays */
						if (vt.sslot[ci][m] != NVD_NONE)
							nvd_v_set(&w->x, &sh->slot[vt.sslot[ci][m]],
								  nv_rd32le(p + count));
					} else {
						for (uint32_t j = 0; j < count; j++)
							if (vt.sslot[ci][m + j] != NVD_NONE)
								nvd_v_set(&w->x, &sh->slot[vt.sslot[ci][m + j]],
									  nv_rd32le(p + 1 + j));
					}
				} else if (vt.orun[ci][m] < need ||
					   w->once_gen[vt.okind[ci][m]] != w->x.gen) {
					break;   /* else: its once-a-run check passed on this state */
				}
				p += 1 + count;
				avail -= 1 + count;
				left -= 1 + count;
			}
			i = w->nw - left;
		}
		if (i >= w->nw)
			break;
		if (!nvd_vw_ensure(w, i + 1))
			goto budget;
		uint32_t word = nvd_vw_rd(w, i);

		struct nv_cmd c = nv_cmd_decode(word);
		w->x.off = w->base + 4 * i;
		w->x.data = word;
		w->x.subc = w->x.mthd = w->x.cls = 0;
		switch (c.type) {
		case NV_CMD_INC:
		case NV_CMD_NONINC:
			break;
		case NV_CMD_JUMP:
		case NV_CMD_OLD_JUMP: {
			unsigned pj;
			uint32_t wi;
			if (nvd_vw_target(w, c.target, &pj, &wi))
				return nvd_v_fail(&w->x, EFAULT, "jump to 0x%08x: not inside a push range",
						  c.target);
			if (++w->jumps > w->cap)
				return nvd_v_fail(&w->x, ELOOP, "jumps do not end");
			w->n += i - w->i0;          /* the segment ends before the jump */
			nvd_vw_seek(w, pj, wi);
			i = wi;
			continue;
		}
		case NV_CMD_RETURN:
			w->n += i - w->i0;
			return 0;
		case NV_CMD_CALL:
			return nvd_v_fail(&w->x, EINVAL, "CALL inside a push range");
		default:
			return nvd_v_fail(&w->x, EINVAL, "invalid command word");
		}
		w->x.subc = c.subc;
		w->x.mthd = c.mthd;
		w->x.cls = sh->subc_cls[c.subc];
		if (c.count >= w->nw - i)
			return nvd_v_fail(&w->x, EINVAL, "packet runs past its push range");
		if (!nvd_vw_ensure(w, i + 1 + c.count))
			goto budget;
		if (c.count && w->x.cls == NV_CLASS_CURIE_NV40 && c.mthd == NV_CURIE_VB_INDEX_BATCH &&
		    (c.type == NV_CMD_NONINC || c.count == 1)) {
			int r = nvd_vw_index_batches(w, &c, i);
			if (r < 0)
				return r;
			if (!r) {
				i += 1 + c.count;
				continue;
			}
		}
		if (c.count) {
			struct nv_cmd pc = c;
			uint32_t at = i + 1;
			int r;
			while ((r = nvd_vw_packet(w, &pc, at)) > 0)
				if ((r = nvd_vw_split(w, &pc, &at)) < 0 || !pc.count)
					break;
			if (r < 0)
				return r;
		}
		i += 1 + c.count;
	}
	w->n += i - w->i0;
	return 0;
budget:
	w->x.off = w->base + 4 * i;
	w->x.data = w->x.subc = w->x.mthd = w->x.cls = 0;
	if (i < w->copied) {
		struct nv_cmd c = nv_cmd_decode(nvd_vw_rd(w, i));
		w->x.data = nvd_vw_rd(w, i);
		if (c.type == NV_CMD_INC || c.type == NV_CMD_NONINC) {
			w->x.subc = c.subc;
			w->x.mthd = c.mthd;
			w->x.cls = sh->subc_cls[c.subc];
		}
	}
	return nvd_vw_budget(w);
}

static int nvd_v_check_lists(struct nvd_vctx *x)
{
	const struct nvd_vsubmit *sub = x->sub;

	if ((sub->nr_bos && !sub->bos) || (sub->nr_push && !sub->push) ||
	    (sub->nr_relocs && !sub->relocs) || !sub->lookup)
		return nvd_v_fail(x, EINVAL, "malformed submission");
	for (unsigned i = 0; i < sub->nr_bos; i++)
		if (sub->bos[i].addr + sub->bos[i].size < sub->bos[i].addr)
			return nvd_v_fail(x, EINVAL, "buffer %u wraps the address space", i);
	for (unsigned i = 0; i < sub->nr_push; i++) {
		const struct nvd_submit_push *p = &sub->push[i];
		x->push = i;
		x->off = p->offset;
		if (p->bo >= nvd_v_listed(sub))
			return nvd_v_fail(x, EINVAL, "push range %u: buffer index out of range", i);
		if ((p->offset | p->length) & 3 ||
		    (uint64_t)p->offset + p->length > sub->bos[p->bo].size ||
		    (p->length && !sub->bos[p->bo].map))
			return nvd_v_fail(x, EINVAL, "push range %u: unaligned or outside its buffer", i);
	}
	x->push = 0;
	x->off = 0;
	return 0;
}

static long nvd_validate_walk(struct nvd_vstate *vs, struct nvd_vwalk *w, const struct nvd_vsubmit *sub,
			      uint32_t *out, size_t cap)
{
	uint32_t dummy_out;
	size_t nrel;
	int r;

	r = nvd_v_check_lists(&w->x);
	if (r)
		return r;
	r = nvd_v_relocs(vs, &w->x, &nrel);
	if (r)
		return r;
	w->out = cap ? out : &dummy_out;   /* nothing is written when cap is 0 */
	w->cap = cap;
	if (nrel) {
		w->rel = vs->rel;
		w->rel_end = vs->rel + nrel;
	}
	nvd_v3d_prologue(&w->x, w->out, cap, &w->n);
	for (unsigned p = 0; p < sub->nr_push; p++) {
		r = nvd_vw_run(w, p);
		if (r)
			return r;
	}
	if (w->x.undo_broken)
		return nvd_v_fail(&w->x, ENOMEM, "no memory to track the state this submission sets");
	return (long)w->n;
}

/* Walk on the channel's shadow itself; a refusal undoes what it changed. */
static long nvd_validate_run(struct nvd_vstate *vs, const struct nvd_vsubmit *sub,
			     uint32_t *out, size_t cap, struct nvd_verror *e)
{
	struct nvd_verror dummy;
	struct nvd_vwalk w;

	if (!e)
		e = &dummy;
	memset(e, 0, sizeof *e);
	memset(&w, 0, sizeof w);
	w.x.sub = sub;
	w.x.e = e;
	w.x.gen = 1;               /* once_gen 0: no check has passed yet */
	pthread_once(&vt_once, nvd_vt_build);
	if (vt.broken)
		return nvd_v_fail(&w.x, ENOMEM, "validator tables could not be built");
	if (!vs || !sub || (cap && !out))
		return nvd_v_fail(&w.x, EINVAL, "malformed submission");
	w.x.sh = &vs->sh;
	if (sub->nr_bos > NVD_V_LINEAR && sub->nr_bos > vs->order_cap) {
		uint32_t *o = realloc(vs->order, sub->nr_bos * sizeof(*o));
		if (o) {                   /* without it, the linear search */
			vs->order = o;
			vs->order_cap = sub->nr_bos;
		}
	}
	w.x.order = sub->nr_bos <= vs->order_cap ? vs->order : NULL;
	w.x.undo = vs->undo;
	w.x.undo_cap = vs->undo_cap;
	nvd_v_view(&w.x);
	long n = nvd_validate_walk(vs, &w, sub, out, cap);
	if (n < 0)
		while (w.x.nundo--)
			*w.x.undo[w.x.nundo].p = w.x.undo[w.x.nundo].old;
	vs->undo = w.x.undo;
	vs->undo_cap = w.x.undo_cap;
	return n;
}

long nvd_validate(struct nvd_vstate *vs, const struct nvd_vsubmit *sub, uint32_t *out,
		  size_t cap, struct nvd_verror *e)
{
	struct nvd_vfp *fp = sub ? sub->fp : NULL;
	uint32_t head = fp ? fp->head : 0;
	if (fp)
		fp->bound_bo = -1;
	long n = nvd_validate_run(vs, sub, out, cap, e);
	if (n < 0 && fp)
		fp->head = head;          /* the slots it took are given back */
	return n;
}
