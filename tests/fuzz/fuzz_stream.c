/* libFuzzer target: command streams through nvd's validator onto the
 * simulated card, with the card's access oracle on: a differential test of
 * the validator (what it admits) against the card (what it touches).
 *
 * The world is the daemon's own code, in this process and without its
 * socket: libnvdcore on a simulated NV43 in manual mode (nvd_card_open
 * with sim_manual and sim_check, 32 MiB of VRAM: the least nvd accepts),
 * brought up by nvd_fifo_init, so RAMIN, the cursors, the channels'
 * program shadows and the client heap lie where nvd puts them.  Two
 * clients: a victim, whose buffers (VRAM and GART, interleaved with the
 * attacker's) and channel (ring, program shadow) nobody admits, and an
 * attacker, whose stream is the input.  Every input gets a new attacker
 * channel (nvd_chan_new: RAMIN, RAMHT, grctx, ctxdmas, shadow, oracle
 * areas, as for any client), the objects Mesa and the DDX create (same
 * handles and classes) and a few ctxdmas over its buffers (nvd_dma_new),
 * and it goes again after the input (nvd_chan_free): every input starts
 * from the state a new client's channel has.  Submissions go through the
 * channel's shared submit ring and nvd_take (sched.c), i.e. submit.c's
 * copy, validation, fences and oracle admission (oracle.c) exactly as nvd runs
 * them; the card runs (ops->run, i.e. sim_run) and nvd_irq retires the
 * fences, until the card is idle.
 *
 * Findings (fuzz_finding), besides the sanitizers:
 *  - ORACLE: the card touched memory the validator did not admit for the
 *    submission (or the channel's areas);
 *  - the card stopped short of the last fence without losing the channel
 *    (a trap or a pusher error on an accepted submission is no finding:
 *    the card refuses it and only the attacker's channel is lost, as on
 *    silicon; FUZZ_STREAM_STATS counts them);
 *  - runaway: the card is not idle, with every fence retired, after
 *    RUN_ROUNDS rounds of run + interrupts.  Geometry is capped in
 *    generation (render targets, batches: see cap()) so that an accepted
 *    stream is short work; one slower than libFuzzer's -timeout is kept as
 *    a timeout.
 *
 * An input is a header and then ops, each a byte (op % STREAM_NOPS, subchannel
 * op >> 5) and its arguments, so that most mutations keep the grammar:
 *
 *   nsub   u8   submissions - 1 (% MAX_SUBS)
 *   lists  u8 x MAX_SUBS   per submission, 2 bits per attacker buffer
 *               (surface, data, gdata, notifier): unlisted, R, W, RW; the
 *               push buffer is always listed for reading
 *   ops    method packets from the classes' tables (hw/methods.h) with
 *          values picked by kind (handles from the world, addresses in,
 *          near and outside buffers, plain values from a dictionary),
 *          launches (hw/access.h NV_ACC_LAUNCHES), 3D/2D/M2MF setups,
 *          immediate and fetched draws, program binds, CPU writes into
 *          the attacker's buffers, relocations, jumps, raw words and
 *          tagged packets (what tests/fuzz/stream-seeds.c converts
 *          recorded streams to), and "next submission".
 *
 * FUZZ_STREAM_STATS=1 prints, at exit, how many submissions the validator
 * accepted (to stderr: run without -close_fd_mask to see refusals). */
#include <errno.h>
#include <poll.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hw/access.h"
#include "hw/enums-2d.h"
#include "hw/enums-3d.h"
#include "hw/fp-isa.h"
#include "hw/tex.h"
#include "nvd/edid.h"
#include "nvd/nvd.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/stream.h"

#define RUN_ROUNDS  64            /* run + interrupt rounds before the card counts as runaway */

/* ---- the world ---- */

static struct nvd d;
static struct nvd_client attacker, victim;
static struct nvd_chan *vch;      /* the victim's channel: never admitted to the attacker */

struct wbuf {
	unsigned domain;
	uint64_t size;
	int victim;
	struct nvd_bo *bo;
	uint32_t handle;
};
/* Created in this order, so that each attacker buffer has a victim's on
 * either side (nvd's allocator is first fit). */
static struct wbuf bufs[STREAM_NBUFS] = {
	[STREAM_V_VRAM0]  = { NVD_DOMAIN_VRAM, 16 << 10, 1, NULL, 0 },
	[STREAM_A_SURF]   = { NVD_DOMAIN_VRAM, STREAM_SURF_SIZE, 0, NULL, 0 },
	[STREAM_V_VRAM1]  = { NVD_DOMAIN_VRAM, 16 << 10, 1, NULL, 0 },
	[STREAM_A_DATA]   = { NVD_DOMAIN_VRAM, STREAM_DATA_SIZE, 0, NULL, 0 },
	[STREAM_V_VRAM2]  = { NVD_DOMAIN_VRAM, 16 << 10, 1, NULL, 0 },
	[STREAM_V_GART0]  = { NVD_DOMAIN_GART, 16 << 10, 1, NULL, 0 },
	[STREAM_A_PUSH]   = { NVD_DOMAIN_GART, STREAM_PUSH_SIZE, 0, NULL, 0 },
	[STREAM_V_GART1]  = { NVD_DOMAIN_GART, 16 << 10, 1, NULL, 0 },
	[STREAM_A_GDATA]  = { NVD_DOMAIN_GART, STREAM_GDATA_SIZE, 0, NULL, 0 },
	[STREAM_A_NOTIFY] = { NVD_DOMAIN_GART, STREAM_NOTIFY_SIZE, 0, NULL, 0 },
	[STREAM_V_GART2]  = { NVD_DOMAIN_GART, 16 << 10, 1, NULL, 0 },
};
static const unsigned creation_order[STREAM_NBUFS] = {
	STREAM_V_VRAM0, STREAM_A_SURF, STREAM_V_VRAM1, STREAM_A_DATA, STREAM_V_VRAM2,
	STREAM_V_GART0, STREAM_A_PUSH, STREAM_V_GART1, STREAM_A_GDATA, STREAM_A_NOTIFY,
	STREAM_V_GART2,
};
/* The attacker's buffers a list byte describes, 2 bits each from bit 0. */
static const unsigned listable[4] = { STREAM_A_SURF, STREAM_A_DATA, STREAM_A_GDATA, STREAM_A_NOTIFY };

/* The attacker channel's objects (tests/fuzz/stream.h STREAM_OBJECTS). */
struct wobj {
	uint32_t handle, cls;
	int buf;                  /* DMA_BO: the buffer, else -1 */
	uint32_t off, size, access;
};
#define STREAM_OBJ_ROW_(h, c, b, o, s, a) { h, c, b, o, s, a },
static struct wobj objs[] = { STREAM_OBJECTS(STREAM_OBJ_ROW_) };
#define NOBJS (sizeof(objs) / sizeof(objs[0]))

/* Handles a ctxdma method may name, and graphics objects. */
static uint32_t dma_pool[NOBJS + 8], gr_pool[NOBJS + 4];
static unsigned ndma, ngr;

/* Addresses worth aiming at: every buffer's edges, the daemon's areas. */
static uint32_t points[64];
static unsigned npoints;

static void add_point(uint64_t a)
{
	if (npoints < sizeof(points) / sizeof(points[0]))
		points[npoints++] = (uint32_t)a;
}

static void die(const char *what, const char *why)
{
	fprintf(stderr, "fuzz_stream: %s: %s\n", what, why);
	exit(1);
}

static void client_init(struct nvd_client *cl, unsigned id, const char *name)
{
	cl->d = &d;
	cl->id = id;
	cl->sock = -1;
	cl->pid = getpid();
	snprintf(cl->name, sizeof(cl->name), "%s", name);
	cl->next = d.clients;
	d.clients = cl;
	d.nclients++;
}

static void world_init(void)
{
	static struct nvd_monitor mon[NVD_CARD_OUTPUTS];
	static uint8_t edid[NVD_CARD_OUTPUTS][EDID_SIZE];
	char err[256];

	d.o.card.spec = "sim";
	d.o.card.vram_size = 32u << 20;       /* nvd_card_sim_check's least */
	d.o.card.gart_size = 64u << 20;       /* the channels' rings take 32 MiB */
	d.o.card.sim_threads = 1;
	d.o.card.sim_check = 1;
	d.o.card.sim_manual = 1;
	d.o.quota = 48u << 20;
	d.o.max_bos = 256;
	d.listen_fd = -1;
	for (unsigned i = 0; i < NVD_CARD_OUTPUTS; i++) {
		nvd_monitor_default(i, &mon[i]);
		if (nvd_edid_build(&mon[i], edid[i], err, sizeof(err)) < 0)
			die("monitor", err);
		d.o.card.edid[i] = edid[i];
	}
	d.base = event_base_new();
	if (!d.base)
		die("libevent", "no event base");
	d.card = nvd_card_open(&d.o.card, err, sizeof(err));
	if (!d.card || !d.card->ops->run)
		die("card", d.card ? "no manual mode" : err);
	if (nvd_fifo_init(&d, err, sizeof(err)) < 0)
		die("fifo", err);
	client_init(&victim, 1, "victim");
	client_init(&attacker, 2, "attacker");
	for (unsigned k = 0; k < STREAM_NBUFS; k++) {
		struct wbuf *b = &bufs[creation_order[k]];
		if (nvd_bo_new(b->victim ? &victim : &attacker, b->size, b->domain, &b->bo,
			       &b->handle, err, sizeof(err)) < 0)
			die("buffer", err);
	}
	if (nvd_chan_new(&victim, &vch, err, sizeof(err)) < 0)
		die("victim channel", err);

	for (unsigned i = 0; i < NOBJS; i++)
		if (objs[i].buf >= 0 || objs[i].cls == NV_CLASS_NULL_OBJ)
			dma_pool[ndma++] = objs[i].handle;
		else
			gr_pool[ngr++] = objs[i].handle;
	dma_pool[ndma++] = NVD_VRAM_DMA_HANDLE;
	dma_pool[ndma++] = NVD_GART_DMA_HANDLE;
	dma_pool[ndma++] = NVD_FP_TEX_HANDLE;     /* the daemon's: no client may name them */
	dma_pool[ndma++] = NVD_FP_AREA_HANDLE;
	gr_pool[ngr++] = NVD_SW_HANDLE;
	gr_pool[ngr++] = NVD_FP_M2MF_HANDLE;

	for (unsigned k = 0; k < STREAM_NBUFS; k++) {
		add_point(bufs[k].bo->addr);
		add_point(bufs[k].bo->addr + bufs[k].bo->size);
	}
	add_point(0);
	add_point(d.fp_areas);                                   /* the first shadow: chid 1's */
	add_point(vch->fp_area);
	add_point(d.fp_areas + (uint64_t)NVD_CLIENT_CHIDS * NVD_FP_AREA_SIZE);
	add_point(d.cursors);
	add_point(d.card->vram_size - NV40_RAMIN_SIZE);          /* RAMIN */
	add_point(d.card->vram_size - 64);
	add_point(d.gart_client_size);                           /* the rings */
	add_point(vch->ring_addr);
	add_point(0xffffffc0u);
	if (getenv("FUZZ_STREAM_WORLD"))
		for (unsigned k = 0; k < STREAM_NBUFS; k++)
			fprintf(stderr, "buffer %u: %s %s 0x%llx+0x%llx\n", k,
				bufs[k].victim ? "victim" : "attacker",
				bufs[k].domain == NVD_DOMAIN_VRAM ? "VRAM" : "GART",
				(unsigned long long)bufs[k].bo->addr,
				(unsigned long long)bufs[k].bo->size);
}

/* The attacker's channel for one input, with its objects. */
static struct nvd_chan *chan_open(void)
{
	struct nvd_chan *ch;
	char why[256];

	if (nvd_chan_new(&attacker, &ch, why, sizeof(why)) < 0)
		fuzz_finding("the attacker's channel: %s", why);
	for (unsigned i = 0; i < NOBJS; i++) {
		const struct wobj *o = &objs[i];
		int r;
		if (o->buf >= 0) {
			struct nvd_req_dma_new rq = { .chan = ch->id, .handle = o->handle,
						      .cls = o->cls, .bo = bufs[o->buf].handle,
						      .access = o->access, .offset = o->off,
						      .size = o->size };
			r = nvd_dma_new(ch, &rq, why, sizeof(why));
		} else {
			uint32_t cls = o->cls == NV_CLASS_CURIE_NV40 ? d.card->chip->gr_class : o->cls;
			r = nvd_obj_new(ch, o->handle, cls, why, sizeof(why));
		}
		if (r < 0)
			fuzz_finding("object 0x%08x: %s", o->handle, why);
	}
	return ch;
}

/* ---- the oracle ---- */

static uint64_t violations;

static void on_violation(void *arg, unsigned chid, int has_seq, uint32_t seq, const char *what)
{
	(void)arg;
	fuzz_finding("ORACLE: chid %u%s submission %u: %s", chid, has_seq ? "" : " (outside any)",
		     has_seq ? seq : 0, what);
}

static void oracle_check(void)
{
	uint64_t total = d.card->ops->oracle_poll(d.card, on_violation, NULL);
	if (total != violations)
		fuzz_finding("ORACLE: %llu violations counted, none reported",
			     (unsigned long long)(total - violations));
}

/* ---- the stream ---- */

struct sub {
	uint8_t list;
	uint32_t words;                     /* in its region of the push buffer */
	struct nvd_submit_reloc rel[STREAM_MAX_RELOCS];
	unsigned nrel;
};

struct gen {
	struct fuzz_input in;
	struct sub sub[STREAM_MAX_SUBS];
	unsigned nsub, cur;
	uint32_t subc_cls[NV_SUBCHANNELS];  /* what the stream bound, as far as it knows */
	uint32_t *pb;                       /* the push buffer, as the client writes it */
	int reloc_next;                     /* the next word gets this relocation (-1: none) */
	uint8_t reloc_buf, reloc_flags;
	uint32_t reloc_data;
};

static uint32_t *word_at(struct gen *g, unsigned s, uint32_t i)
{
	return g->pb + (size_t)s * STREAM_REGION_WORDS + i;
}

static int room(const struct gen *g, unsigned n)
{
	return g->sub[g->cur].words + n <= STREAM_REGION_WORDS;
}

static void emit(struct gen *g, uint32_t w)
{
	struct sub *s = &g->sub[g->cur];
	if (s->words >= STREAM_REGION_WORDS)
		return;
	if (g->reloc_next >= 0 && s->nrel < STREAM_MAX_RELOCS) {
		s->rel[s->nrel++] = (struct nvd_submit_reloc){
			0, g->cur * STREAM_REGION_WORDS * 4u + s->words * 4u, g->reloc_buf,
			g->reloc_flags, g->reloc_data, 0, 0 };
	}
	g->reloc_next = -1;
	nv_wr32le(word_at(g, g->cur, s->words++), w);
}

/* Geometry caps: a render target of 256 x 256 at most, batches of 64
 * vertices, so that an accepted stream is short work for the card. */
static uint32_t cap(uint32_t cls, uint32_t mthd, uint32_t v)
{
	const struct nv_class_desc *c = nv_class_find(cls);
	if (!c || c->table_id != NV_TABLE_CURIE)
		return v;
	switch (mthd) {
	case NV_CURIE_RT_HORIZ:
	case NV_CURIE_RT_VERT:
		return (NV40_RECT_SIZE(v) & 0xff) << 16 | (NV40_RECT_ORIGIN(v) & 0xff);
	case NV_CURIE_VB_VERTEX_BATCH:
	case NV_CURIE_VB_INDEX_BATCH:
		return (v & 0x3f000000u) | NV40_BATCH_START(v);
	case NV_CURIE_RT_FORMAT:     /* swizzled: 2^8 a side */
		if (NV40_RT_FORMAT_TYPE(v) == NV40_RT_TYPE_SWIZZLED)
			v = (v & 0xffff) | (NV40_RT_FORMAT_LOG2W(v) & 7) << 16 |
			    (NV40_RT_FORMAT_LOG2H(v) & 7) << 24;
		return v;
	}
	return v;
}

/* One method packet of one word. */
static void mthd1(struct gen *g, unsigned subc, uint32_t mthd, uint32_t v)
{
	if (!room(g, 2))
		return;
	emit(g, NV_CMD_INC_WORD(subc, mthd, 1));
	emit(g, cap(g->subc_cls[subc], mthd, v));
}

static void bind_obj(struct gen *g, unsigned subc, uint32_t handle)
{
	mthd1(g, subc, NV_FIFO_OBJECT, handle);
	g->subc_cls[subc] = 0;
	for (unsigned i = 0; i < NOBJS; i++)
		if (objs[i].handle == handle && objs[i].buf < 0)
			g->subc_cls[subc] = objs[i].cls;
}

/* The subchannel with class cls bound, binding it on subc if none has. */
static unsigned ensure(struct gen *g, unsigned subc, uint32_t cls)
{
	for (unsigned s = 0; s < NV_SUBCHANNELS; s++)
		if (g->subc_cls[s] == cls)
			return s;
	if (subc == NVD_SUBC_DAEMON)
		subc = 0;
	for (unsigned i = 0; i < NOBJS; i++)
		if (objs[i].cls == cls && objs[i].buf < 0) {
			bind_obj(g, subc, objs[i].handle);
			break;
		}
	return subc;
}

/* ---- values ---- */

static const float floats[] = { 0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 16.0f, 255.0f, 1e6f, -1e6f,
				1e30f, 0.25f, 64.0f, 128.0f, -0.5f, 3.0f, 1e-30f };

static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u;
}

static uint32_t pick_addr(struct gen *g)
{
	uint8_t sel = fuzz_u8(&g->in);
	if (sel < 0x90) {                                    /* inside an attacker buffer */
		static const unsigned a[] = { STREAM_A_SURF, STREAM_A_DATA, STREAM_A_GDATA,
					      STREAM_A_NOTIFY, STREAM_A_PUSH };
		const struct nvd_bo *bo = bufs[a[sel % 5]].bo;
		uint32_t off = (uint32_t)fuzz_u16(&g->in) * (sel & 0x10 ? 4 : 64);
		return (uint32_t)(bo->addr + off % bo->size);
	}
	if (sel < 0xf0) {                                    /* near an edge of the world */
		int8_t delta = (int8_t)fuzz_u8(&g->in);
		uint32_t p = points[sel % npoints];
		return p + (uint32_t)((int32_t)delta * (sel & 1 ? 4 : 64));
	}
	return fuzz_u32(&g->in);
}

static uint32_t pick_dma(struct gen *g)
{
	uint8_t sel = fuzz_u8(&g->in);
	if (sel < 0x60)
		return sel & 1 ? NVD_GART_DMA_HANDLE : NVD_VRAM_DMA_HANDLE;
	if (sel < 0xf8)
		return dma_pool[sel % ndma];
	return sel & 1 ? gr_pool[sel % ngr] : fuzz_u32(&g->in);
}

static uint32_t pick_gr(struct gen *g)
{
	uint8_t sel = fuzz_u8(&g->in);
	if (sel < 0xf0)
		return gr_pool[sel % ngr];
	return sel & 1 ? dma_pool[sel % ndma] : fuzz_u32(&g->in);
}

static uint32_t pick_plain(struct gen *g)
{
	uint8_t sel = fuzz_u8(&g->in);
	switch (sel >> 5) {
	case 0: case 1:
		return sel & 0x1f;
	case 2:                                              /* a rectangle, a point, a size */
		return (uint32_t)fuzz_u8(&g->in) | (uint32_t)fuzz_u8(&g->in) << 16;
	case 3:
		return fbits(floats[sel & 15]);
	case 4:
		return 1u << (sel & 31);
	case 5:
		return (uint32_t)fuzz_u16(&g->in) * 4;
	case 6:
		return ~0u - (sel & 7);
	}
	return fuzz_u32(&g->in);
}

/* A value for method m of class cls. */
static uint32_t pick_value(struct gen *g, uint32_t cls, uint32_t m)
{
	const struct nv_class_desc *c = nv_class_find(cls);
	const struct nv_mthd_desc *md = nv_mthd_find(m < NV_MTHD_FIFO_END ? nv_fifo_desc() : c, m, NULL);
	if (!md)
		return pick_plain(g);
	switch (md->kind) {
	case NV_MK_HANDLE:
		if (m == NV_FIFO_OBJECT)
			return pick_gr(g);
		return !strncmp(md->name, "DMA_", 4) ? pick_dma(g) : pick_gr(g);
	case NV_MK_ADDR: {
		uint32_t a = pick_addr(g);
		if (c && c->table_id == NV_TABLE_CURIE && m == NV_CURIE_FP_ACTIVE_PROGRAM)
			a = (a & ~3u) | (fuzz_u8(&g->in) % 3 + 1) % 3;
		return a;
	}
	}
	return pick_plain(g);
}

/* ---- ops ---- */

/* Any method of the class bound on subc (a random class when none). */
static void op_method(struct gen *g, unsigned subc)
{
	uint32_t cls = g->subc_cls[subc];
	const struct nv_class_desc *c = nv_class_find(cls);
	uint8_t r = fuzz_u8(&g->in), e = fuzz_u8(&g->in), n = fuzz_u8(&g->in);
	if (!c || !c->is_gr) {
		c = nv_class_find(objs[r % NOBJS].cls);
		if (!c || !c->is_gr)
			c = nv_class_find(NV_CLASS_M2MF);
	}
	const struct nv_mthd_desc *md = &c->mthds[r % c->nmthds];
	uint32_t m = md->offset + (e % md->count) * md->stride;
	unsigned count = n < 0xc0 ? 1 + n % 4 : n < 0xf8 ? 1 + n % 16 : 1 + n % 64;
	int ni = n & 0x80 && n >= 0xc0;
	if (!ni && m + 4 * count > NV_MTHD_END)
		count = (NV_MTHD_END - m) / 4;
	if (!room(g, 1 + count))
		return;
	emit(g, ni ? NV_CMD_NONINC_WORD(subc, m, count) : NV_CMD_INC_WORD(subc, m, count));
	for (unsigned i = 0; i < count; i++) {
		uint32_t mi = ni ? m : m + 4 * i;
		emit(g, cap(c->cls, mi, pick_value(g, c->cls, mi)));
	}
	if (m == NV_FIFO_OBJECT)
		g->subc_cls[subc] = 0;   /* unknown now */
}

/* The methods of class c at which the card acts (64 at most), found once
 * per class: scanning them all per op took an eighth of the target's time. */
static unsigned launch_rows(const struct nv_class_desc *c, const struct nv_mthd_desc *const **rows)
{
	static struct {
		const struct nv_class_desc *c;
		unsigned n;
		const struct nv_mthd_desc *row[64];
	} seen[64];
	static unsigned nseen;
	unsigned k = 0;

	while (k < nseen && seen[k].c != c)
		k++;
	if (k == nseen) {
		if (nseen == 64)
			return 0;
		seen[nseen].c = c;
		for (unsigned i = 0; i < c->nmthds && seen[k].n < 64; i++) {
			const struct nv_mthd_desc *md = &c->mthds[i];
			if (nv_acc_launch(c->table_id, md->offset) || !strcmp(md->name, "NOTIFY"))
				seen[k].row[seen[k].n++] = md;
		}
		nseen++;
	}
	*rows = seen[k].row;
	return seen[k].n;
}

/* A launch of the class bound on subc, with a value of its kind. */
static void op_launch(struct gen *g, unsigned subc)
{
	uint32_t cls = g->subc_cls[subc];
	const struct nv_class_desc *c = nv_class_find(cls);
	uint8_t r = fuzz_u8(&g->in);
	if (!c || !c->is_gr)
		return;
	const struct nv_mthd_desc *const *rows;
	unsigned n = launch_rows(c, &rows);
	if (!n)
		return;
	const struct nv_mthd_desc *md = rows[r % n];
	uint32_t m = md->offset + (r >> 4) % md->count * md->stride, v;
	uint8_t k = fuzz_u8(&g->in);
	switch (c->table_id == NV_TABLE_CURIE ? m : 0) {
	case NV_CURIE_VERTEX_BEGIN_END:
		v = k < 0xf0 ? k % 11 : k;
		break;
	case NV_CURIE_VB_VERTEX_BATCH:
	case NV_CURIE_VB_INDEX_BATCH:
		v = (uint32_t)(k % 16) << 24 | fuzz_u8(&g->in);
		break;
	case NV_CURIE_CLEAR_BUFFERS:
		v = k;
		break;
	case NV_CURIE_QUERY_GET:
		v = NV40_QUERY_REPORT_SAMPLES << 24 | (fuzz_u16(&g->in) & 0xfff0);
		break;
	default:
		v = k < 0x80 ? pick_plain(g) : (uint32_t)(k & 0x3f) | (uint32_t)fuzz_u8(&g->in) % 64 << 16;
		break;
	}
	unsigned count = 1 + fuzz_u8(&g->in) % 4;
	if (!room(g, 1 + count))
		return;
	emit(g, NV_CMD_NONINC_WORD(subc, m, count));
	for (unsigned i = 0; i < count; i++)
		emit(g, cap(cls, m, v));
}

static const uint8_t rt_colors[] = { NV40_RT_COLOR_A8R8G8B8, NV40_RT_COLOR_R5G6B5,
				     NV40_RT_COLOR_X8R8G8B8_Z8R8G8B8, NV40_RT_COLOR_B8,
				     NV40_RT_COLOR_A16B16G16R16_FLOAT, NV40_RT_COLOR_A32B32G32R32_FLOAT,
				     NV40_RT_COLOR_G8B8, 0x11 };

/* Render target: colour buffer 0 (and zeta), its format, size and place. */
static void op_rt(struct gen *g, unsigned subc)
{
	uint8_t f = fuzz_u8(&g->in), sz = fuzz_u8(&g->in);
	subc = ensure(g, subc, NV_CLASS_CURIE_NV40);
	uint32_t fmt = rt_colors[f & 7] | (uint32_t)(f >> 3 & 3) << NV40_RT_FORMAT_ZETA_SHIFT |
		       (uint32_t)(f & 0x20 ? NV40_RT_TYPE_SWIZZLED : NV40_RT_TYPE_LINEAR)
				<< NV40_RT_FORMAT_TYPE_SHIFT |
		       (uint32_t)(sz & 7) << 16 | (uint32_t)(sz >> 3 & 7) << 24;
	uint32_t w = 1 + (sz & 0x3f), h = 1 + fuzz_u8(&g->in) % 64;
	mthd1(g, subc, NV_CURIE_DMA_COLOR0, f & 0x40 ? pick_dma(g) : NVD_VRAM_DMA_HANDLE);
	mthd1(g, subc, NV_CURIE_RT_FORMAT, fmt);
	mthd1(g, subc, NV_CURIE_COLOR0_OFFSET, pick_addr(g));
	mthd1(g, subc, NV_CURIE_COLOR0_PITCH, 64u << (fuzz_u8(&g->in) % 6));
	mthd1(g, subc, NV_CURIE_RT_HORIZ, w << 16);
	mthd1(g, subc, NV_CURIE_RT_VERT, h << 16);
	mthd1(g, subc, NV_CURIE_RT_ENABLE, f & 0x80 ? pick_plain(g) : 1);
	if (f >> 3 & 3) {
		mthd1(g, subc, NV_CURIE_DMA_ZETA, NVD_VRAM_DMA_HANDLE);
		mthd1(g, subc, NV_CURIE_ZETA_OFFSET, pick_addr(g));
		mthd1(g, subc, NV_CURIE_ZETA_PITCH, 64u << (fuzz_u8(&g->in) % 6));
		mthd1(g, subc, NV_CURIE_DEPTH_TEST_ENABLE, 1);
	}
}

/* A fragment program: END instructions written where it points, bound. */
static void op_fp(struct gen *g, unsigned subc)
{
	uint8_t f = fuzz_u8(&g->in);
	subc = ensure(g, subc, NV_CLASS_CURIE_NV40);
	mthd1(g, subc, f & 1 ? NV_CURIE_DMA_TEXTURE1 : NV_CURIE_DMA_TEXTURE0,
	      f & 2 ? pick_dma(g) : f & 4 ? NVD_GART_DMA_HANDLE : NVD_VRAM_DMA_HANDLE);
	uint32_t a = pick_addr(g);
	mthd1(g, subc, NV_CURIE_FP_ACTIVE_PROGRAM, (a & ~3u) | (f & 1 ? NV40_FP_PROGRAM_DMA1 : NV40_FP_PROGRAM_DMA0));
}

static void op_imm_draw(struct gen *g, unsigned subc)
{
	uint8_t p = fuzz_u8(&g->in), n = fuzz_u8(&g->in);
	subc = ensure(g, subc, NV_CLASS_CURIE_NV40);
	mthd1(g, subc, NV_CURIE_VERTEX_BEGIN_END, p % 11);
	for (unsigned v = 0; v < n % 8u + 1 && room(g, 5); v++) {
		emit(g, NV_CMD_INC_WORD(subc, NV_CURIE_VTX_ATTR_4F, 4));
		for (unsigned k = 0; k < 4; k++)
			emit(g, fbits(floats[fuzz_u8(&g->in) & 15]));
	}
	if (!(p & 0x80))
		mthd1(g, subc, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
}

/* Vertices fetched from memory: attribute 0 (and one more) from buffers. */
static void op_array_draw(struct gen *g, unsigned subc)
{
	uint8_t f = fuzz_u8(&g->in), p = fuzz_u8(&g->in);
	subc = ensure(g, subc, NV_CLASS_CURIE_NV40);
	unsigned a = f & 0x10 ? fuzz_u8(&g->in) % 16 : 0;
	mthd1(g, subc, f & 1 ? NV_CURIE_DMA_VTXBUF1 : NV_CURIE_DMA_VTXBUF0,
	      f & 2 ? pick_dma(g) : f & 1 ? NVD_GART_DMA_HANDLE : NVD_VRAM_DMA_HANDLE);
	mthd1(g, subc, NV_CURIE_VTXFMT + 4 * a, (uint32_t)fuzz_u8(&g->in) << 8 |
	      (uint32_t)(1 + fuzz_u8(&g->in) % 4) << 4 | (f >> 5 & 7));
	mthd1(g, subc, NV_CURIE_VTXBUF + 4 * a, (pick_addr(g) & 0x0fffffffu) | (f & 1 ? NV40_VTXBUF_DMA1 : 0));
	mthd1(g, subc, NV_CURIE_VP_ATTRIB_EN, f & 0x80 ? pick_plain(g) : 1u << a);
	mthd1(g, subc, NV_CURIE_VERTEX_BEGIN_END, 1 + p % 10);
	uint32_t batch = (uint32_t)(fuzz_u8(&g->in) % 64) << 24 | fuzz_u8(&g->in);
	if (p & 0x80) {                                      /* indexed */
		uint8_t i = fuzz_u8(&g->in);
		if (i & 1 && g->subc_cls[subc] != NV_CLASS_CURIE_NV44) {
			mthd1(g, subc, NV_CURIE_IDXBUF_OFFSET, pick_addr(g));
			mthd1(g, subc, NV_CURIE_IDXBUF_FORMAT, (i & 2 ? NV40_IDXBUF_TYPE_U16 : 0) | (i >> 2 & 1));
			mthd1(g, subc, NV_CURIE_VB_INDEX_BATCH, batch);
		} else {
			mthd1(g, subc, i & 2 ? NV_CURIE_VB_ELEMENT_U16 : NV_CURIE_VB_ELEMENT_U32,
			      i & 4 ? pick_plain(g) : (uint32_t)fuzz_u8(&g->in) << 16 | fuzz_u8(&g->in));
		}
	} else {
		mthd1(g, subc, NV_CURIE_VB_VERTEX_BATCH, batch);
	}
	mthd1(g, subc, NV_CURIE_VERTEX_BEGIN_END, NV40_PRIM_STOP);
}

static void op_texture(struct gen *g, unsigned subc)
{
	uint8_t f = fuzz_u8(&g->in), u = fuzz_u8(&g->in) % NV40_TEX_UNITS;
	subc = ensure(g, subc, NV_CLASS_CURIE_NV40);
	uint32_t s = u * NV_CURIE_TEX_OFFSET__STRIDE;
	mthd1(g, subc, f & 1 ? NV_CURIE_DMA_TEXTURE1 : NV_CURIE_DMA_TEXTURE0,
	      f & 2 ? pick_dma(g) : NVD_VRAM_DMA_HANDLE);
	mthd1(g, subc, NV_CURIE_TEX_OFFSET + s, pick_addr(g));
	uint32_t fmt = (f & 1 ? NV40_TEX_FORMAT_DMA1 : NV40_TEX_FORMAT_DMA0) |
		       (uint32_t)(1 + fuzz_u8(&g->in) % 3) << NV40_TEX_FORMAT_DIMS_SHIFT |
		       (uint32_t)(fuzz_u8(&g->in) & 0x1f) << NV40_TEX_FORMAT_FORMAT_SHIFT |
		       (f & 4 ? NV40_TEX_FORMAT_LINEAR : 0) | (f & 8 ? NV40_TEX_FORMAT_CUBIC : 0) |
		       NV40_TEX_FORMAT_UNK15 | (uint32_t)(1 + (f >> 4) % 8) << NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT;
	mthd1(g, subc, NV_CURIE_TEX_FORMAT + s, f & 0x80 ? pick_plain(g) : fmt);
	mthd1(g, subc, NV_CURIE_TEX_NPOT_SIZE + s, (uint32_t)(1 + fuzz_u8(&g->in)) << 16 | (1 + fuzz_u8(&g->in)));
	mthd1(g, subc, NV_CURIE_TEX_SIZE1 + 4 * u, (uint32_t)fuzz_u8(&g->in) << 20 | 64u << (fuzz_u8(&g->in) % 5));
	mthd1(g, subc, NV_CURIE_TEX_ENABLE + s, NV40_TEX_ENABLE_ON);
}

static void op_report(struct gen *g, unsigned subc)
{
	uint8_t f = fuzz_u8(&g->in);
	subc = ensure(g, subc, NV_CLASS_CURIE_NV40);
	switch (f % 3) {
	case 0:
		mthd1(g, subc, NV_CURIE_DMA_QUERY, f & 8 ? pick_dma(g) : 0xbeef0351u);
		mthd1(g, subc, NV_CURIE_QUERY_GET, NV40_QUERY_REPORT_SAMPLES << 24 |
		      (f & 4 ? (pick_addr(g) & 0xffffff) : fuzz_u16(&g->in) & 0xfff0));
		break;
	case 1:
		mthd1(g, subc, NV_CURIE_DMA_FENCE, f & 8 ? pick_dma(g) : 0xbeef1e00u);
		mthd1(g, subc, NV_CURIE_FENCE_OFFSET, f & 4 ? pick_addr(g) : fuzz_u8(&g->in) & 0x3c);
		mthd1(g, subc, NV_CURIE_FENCE_VALUE, fuzz_u32(&g->in));
		break;
	default:
		mthd1(g, subc, NV_CURIE_DMA_QUERY, f & 8 ? pick_dma(g) : 0xbeef0351u);
		mthd1(g, subc, NV_CURIE_UNK1E98, f & 4 ? 0x01000000u :
		      0x02000000u | (f & 0x10 ? (pick_addr(g) & 0xffffff) : fuzz_u16(&g->in) & 0xfff0));
		break;
	}
}

static void op_clear(struct gen *g, unsigned subc)
{
	uint8_t f = fuzz_u8(&g->in);
	subc = ensure(g, subc, NV_CLASS_CURIE_NV40);
	mthd1(g, subc, NV_CURIE_CLEAR_COLOR_VALUE, fuzz_u32(&g->in));
	mthd1(g, subc, NV_CURIE_CLEAR_BUFFERS, f);
}

static void op_m2mf(struct gen *g, unsigned subc)
{
	uint8_t f = fuzz_u8(&g->in);
	subc = ensure(g, subc, NV_CLASS_M2MF);
	mthd1(g, subc, NV_M2MF_DMA_BUFFER_IN, f & 1 ? pick_dma(g) : f & 2 ? NVD_GART_DMA_HANDLE : NVD_VRAM_DMA_HANDLE);
	mthd1(g, subc, NV_M2MF_DMA_BUFFER_OUT, f & 4 ? pick_dma(g) : f & 8 ? NVD_GART_DMA_HANDLE : NVD_VRAM_DMA_HANDLE);
	mthd1(g, subc, NV_M2MF_OFFSET_IN, pick_addr(g));
	mthd1(g, subc, NV_M2MF_OFFSET_OUT, pick_addr(g));
	mthd1(g, subc, NV_M2MF_PITCH_IN, f & 0x10 ? pick_plain(g) : 64u << (fuzz_u8(&g->in) % 6));
	mthd1(g, subc, NV_M2MF_PITCH_OUT, f & 0x10 ? pick_plain(g) : 64u << (fuzz_u8(&g->in) % 6));
	mthd1(g, subc, NV_M2MF_LINE_LENGTH_IN, f & 0x20 ? pick_plain(g) : 1 + fuzz_u16(&g->in) % 4096);
	mthd1(g, subc, NV_M2MF_LINE_COUNT, f & 0x20 ? pick_plain(g) : 1 + fuzz_u8(&g->in) % 64);
	mthd1(g, subc, NV_M2MF_FORMAT, f & 0x40 ? pick_plain(g) : NV_M2MF_FORMAT(1, 1));
	if (f & 0x80) {
		mthd1(g, subc, NV_M2MF_DMA_NOTIFY, pick_dma(g));
		mthd1(g, subc, NV_M2MF_NOTIFY, 0);
	}
	mthd1(g, subc, NV_M2MF_BUF_NOTIFY, 0);
}

/* 2D: the surfaces, then a blit, a solid rectangle, an inline image or a
 * scaled image from memory. */
static void op_2d(struct gen *g, unsigned subc)
{
	uint8_t f = fuzz_u8(&g->in), sz = fuzz_u8(&g->in);
	unsigned s2 = ensure(g, (subc + 1) % NV_SUBCHANNELS, NV_CLASS_SURF2D);
	mthd1(g, s2, NV_SURF2D_DMA_IMAGE_SOURCE, f & 1 ? pick_dma(g) : NVD_VRAM_DMA_HANDLE);
	mthd1(g, s2, NV_SURF2D_DMA_IMAGE_DESTIN, f & 1 ? pick_dma(g) : NVD_VRAM_DMA_HANDLE);
	mthd1(g, s2, NV_SURF2D_FORMAT, 1 + fuzz_u8(&g->in) % 12);
	uint32_t pitch = 64u << (fuzz_u8(&g->in) % 5);
	mthd1(g, s2, NV_SURF2D_PITCH, pitch << 16 | pitch);
	mthd1(g, s2, NV_SURF2D_OFFSET_SOURCE, pick_addr(g));
	mthd1(g, s2, NV_SURF2D_OFFSET_DESTIN, pick_addr(g));
	uint32_t size = (uint32_t)(1 + (sz & 0x3f)) | (uint32_t)(1 + fuzz_u8(&g->in) % 64) << 16;
	uint32_t point = (uint32_t)fuzz_u8(&g->in) % 64 | (uint32_t)(fuzz_u8(&g->in) % 64) << 16;
	uint32_t handle = 0;
	switch (f >> 1 & 3) {
	case 0:
		subc = ensure(g, subc, NV_CLASS_BLIT);
		if (g->subc_cls[subc] == NV_CLASS_BLIT) {
			for (unsigned i = 0; i < NOBJS; i++)
				if (objs[i].cls == NV_CLASS_SURF2D && objs[i].buf < 0)
					handle = objs[i].handle;
			mthd1(g, subc, NV_BLIT_SURFACES, handle);
		}
		mthd1(g, subc, NV_BLIT_OPERATION, NV_2D_OPERATION_SRCCOPY);
		mthd1(g, subc, NV_BLIT_POINT_IN, point);
		mthd1(g, subc, NV_BLIT_POINT_OUT, (uint32_t)fuzz_u8(&g->in) % 64 | (uint32_t)(fuzz_u8(&g->in) % 64) << 16);
		mthd1(g, subc, NV_BLIT_SIZE, size);
		break;
	case 1:
		subc = ensure(g, subc, NV_CLASS_GDI);
		if (g->subc_cls[subc] == NV_CLASS_GDI) {
			for (unsigned i = 0; i < NOBJS; i++)
				if (objs[i].cls == NV_CLASS_SURF2D && objs[i].buf < 0)
					handle = objs[i].handle;
			mthd1(g, subc, NV_GDI_SURFACE, handle);
		}
		mthd1(g, subc, NV_GDI_OPERATION, NV_2D_OPERATION_SRCCOPY);
		mthd1(g, subc, NV_GDI_COLOR_FORMAT, 1 + fuzz_u8(&g->in) % 3);
		mthd1(g, subc, NV_GDI_UNCLIPPED_RECTANGLE_POINT, point);
		mthd1(g, subc, NV_GDI_UNCLIPPED_RECTANGLE_SIZE, size);
		break;
	case 2: {
		subc = ensure(g, subc, NV_CLASS_IFC);
		if (g->subc_cls[subc] == NV_CLASS_IFC) {
			for (unsigned i = 0; i < NOBJS; i++)
				if (objs[i].cls == NV_CLASS_SURF2D && objs[i].buf < 0)
					handle = objs[i].handle;
			mthd1(g, subc, NV_IFC_SURFACE, handle);
		}
		mthd1(g, subc, NV_IFC_OPERATION, NV_2D_OPERATION_SRCCOPY);
		mthd1(g, subc, NV_IFC_COLOR_FORMAT, 1 + fuzz_u8(&g->in) % 5);
		mthd1(g, subc, NV_IFC_POINT, point);
		uint32_t w = 1 + (sz & 7), h = 1 + (sz >> 3 & 7);
		mthd1(g, subc, NV_IFC_SIZE_OUT, w | h << 16);
		mthd1(g, subc, NV_IFC_SIZE_IN, w | h << 16);
		unsigned n = w * h;
		if (room(g, 1 + n)) {
			emit(g, NV_CMD_NONINC_WORD(subc, NV_IFC_COLOR, n));
			for (unsigned i = 0; i < n; i++)
				emit(g, 0x00ff00ffu * i);
		}
		break;
	}
	default: {
		unsigned sw = ensure(g, (subc + 2) % NV_SUBCHANNELS, NV_CLASS_SWZSURF);
		mthd1(g, sw, NV_SWZSURF_DMA_IMAGE, f & 1 ? pick_dma(g) : NVD_VRAM_DMA_HANDLE);
		mthd1(g, sw, NV_SWZSURF_FORMAT, (1 + fuzz_u8(&g->in) % 12) | (uint32_t)(sz & 7) << 16 |
		      (uint32_t)(sz >> 3 & 7) << 24);
		mthd1(g, sw, NV_SWZSURF_OFFSET, pick_addr(g));
		subc = ensure(g, subc, NV_CLASS_SIFM);
		if (g->subc_cls[subc] == NV_CLASS_SIFM) {
			for (unsigned i = 0; i < NOBJS; i++)
				if (objs[i].cls == (f & 0x40 ? NV_CLASS_SURF2D : NV_CLASS_SWZSURF) && objs[i].buf < 0)
					handle = objs[i].handle;
			mthd1(g, subc, NV_SIFM_SURFACE, handle);
		}
		mthd1(g, subc, NV_SIFM_DMA_IMAGE, f & 0x20 ? pick_dma(g) : NVD_VRAM_DMA_HANDLE);
		mthd1(g, subc, NV_SIFM_COLOR_FORMAT, 1 + fuzz_u8(&g->in) % 8);
		mthd1(g, subc, NV_SIFM_OPERATION, NV_2D_OPERATION_SRCCOPY);
		mthd1(g, subc, NV_SIFM_CLIP_POINT, 0);
		mthd1(g, subc, NV_SIFM_CLIP_SIZE, size);
		mthd1(g, subc, NV_SIFM_OUT_POINT, point);
		mthd1(g, subc, NV_SIFM_OUT_SIZE, size);
		mthd1(g, subc, NV_SIFM_DU_DX, 1u << 20);
		mthd1(g, subc, NV_SIFM_DV_DY, 1u << 20);
		mthd1(g, subc, NV_SIFM_SIZE, (size & 0x3e003e) + 0x20002);
		mthd1(g, subc, NV_SIFM_FORMAT, (uint32_t)NV_SIFM_ORIGIN_CORNER << 16 | pitch);
		mthd1(g, subc, NV_SIFM_OFFSET, pick_addr(g));
		mthd1(g, subc, NV_SIFM_POINT, 0);
		break;
	}
	}
}

/* A program that samples: TEX R0 (all of it) from texture coordinate 0
 * on unit, the last instruction. */
static void fp_tex(uint8_t *p, unsigned unit)
{
	uint32_t w[NV40_FP_INSN_WORDS] = { 0 };
	NV40_FP_SET(w, OPCODE, NV40_FP_OP_TEX);
	NV40_FP_SET(w, END, 1);
	NV40_FP_SET(w, MASK, 0xf);
	NV40_FP_SET(w, TEX_UNIT, unit);
	NV40_FP_SET(w, INPUT, NV40_FP_INPUT_TC0);
	NV40_FP_SET(w, SRC0, NV40_FP_SRC_SET(TYPE, NV40_FP_SRC_INPUT) |
			     NV40_FP_SRC_SET(SWZ, NV40_FP_SWZ_IDENTITY));
	for (unsigned i = 0; i < NV40_FP_INSN_WORDS; i++)
		nv_wr32le(p + 4 * i, w[i]);
}

/* The client writes into one of its buffers before submitting: index
 * data, vertices, or a program: END instructions, or a texture sample. */
static void op_data(struct gen *g)
{
	static const unsigned a[] = { STREAM_A_SURF, STREAM_A_DATA, STREAM_A_GDATA, STREAM_A_NOTIFY };
	uint8_t f = fuzz_u8(&g->in);
	const struct nvd_bo *bo = bufs[a[f & 3]].bo;
	uint32_t off = (uint32_t)(fuzz_u16(&g->in) * 4u) % (uint32_t)bo->size;
	unsigned n = fuzz_u8(&g->in);
	if (f & 4) {                     /* a program's END */
		off &= ~(uint32_t)(NV40_FP_INSN_BYTES - 1);
		n = n % 4 + 1;
		if (off + n * NV40_FP_INSN_BYTES > bo->size)
			return;
		nvd_vfp_fill(bo->map + off, n * NV40_FP_INSN_BYTES);
		if (f & 0x10)
			fp_tex(bo->map + off, f >> 5 & 7);
		return;
	}
	for (unsigned i = 0; i < n && off + 4 <= bo->size; i++, off += 4)
		nv_wr32le(bo->map + off, f & 8 ? fuzz_u32(&g->in) : (uint32_t)fuzz_u8(&g->in));
}

/* A packet as recorded: header, then each data word tagged (literal, or
 * an offset into an attacker buffer: its address is added). */
static void op_packet(struct gen *g)
{
	uint32_t hdr = fuzz_u32(&g->in);
	struct nv_cmd c = nv_cmd_decode(hdr);
	unsigned n = c.type == NV_CMD_INC || c.type == NV_CMD_NONINC ? c.count : 0;
	if (!room(g, 1 + n))
		return;
	emit(g, hdr);
	if (c.type == NV_CMD_INC && c.mthd == NV_FIFO_OBJECT && n)
		g->subc_cls[c.subc] = 0;
	for (unsigned i = 0; i < n; i++) {
		uint8_t tag = fuzz_u8(&g->in);
		uint32_t v = fuzz_u32(&g->in);
		if (tag >= STREAM_TAG_BUF && tag < STREAM_TAG_BUF + STREAM_NBUFS)
			v += (uint32_t)bufs[tag - STREAM_TAG_BUF].bo->addr;
		emit(g, v);
		if (c.type == NV_CMD_INC && c.mthd + 4 * i == NV_FIFO_OBJECT)
			for (unsigned k = 0; k < NOBJS; k++)
				if (objs[k].handle == v && objs[k].buf < 0)
					g->subc_cls[c.subc] = objs[k].cls;
	}
}

static void op_jump(struct gen *g)
{
	uint8_t f = fuzz_u8(&g->in);
	struct sub *s = &g->sub[g->cur];
	uint32_t base = (uint32_t)bufs[STREAM_A_PUSH].bo->addr + g->cur * STREAM_REGION_WORDS * 4u;
	if (f < 0xe0) {                  /* forward, over words nobody runs */
		unsigned skip = f % 8;
		if (!room(g, 1 + skip))
			return;
		emit(g, NV_CMD_JUMP_WORD(base + 4 * (s->words + 1 + skip)));
		for (unsigned i = 0; i < skip; i++)
			emit(g, fuzz_u32(&g->in));
	} else {                         /* back, or anywhere */
		uint16_t t = fuzz_u16(&g->in);
		emit(g, f & 1 ? NV_CMD_OLD_JUMP_WORD(base + 4u * (t % (s->words + 1)))
			      : NV_CMD_JUMP_WORD(f & 2 ? fuzz_u32(&g->in) : base + 4u * t));
	}
}

static void op_reloc(struct gen *g)
{
	uint8_t f = fuzz_u8(&g->in);
	g->reloc_next = 1;
	g->reloc_buf = f % 5;            /* a list index: 0 the push buffer, then listable[] */
	g->reloc_flags = f & 0x80 ? fuzz_u8(&g->in) : NVD_RELOC_LOW;
	g->reloc_data = f & 0x40 ? fuzz_u32(&g->in) : (uint32_t)fuzz_u16(&g->in) * 64;
}

static void build(struct gen *g)
{
	while (g->in.n) {
		uint8_t op = fuzz_u8(&g->in);
		unsigned subc = op >> 5;
		switch (op % STREAM_NOPS) {
		case STREAM_OP_BIND: {
			uint8_t sel = fuzz_u8(&g->in);
			bind_obj(g, subc, sel < 0xf0 ? gr_pool[sel % ngr] : sel & 1 ? dma_pool[sel % ndma]
										 : fuzz_u32(&g->in));
			break;
		}
		case STREAM_OP_METHOD: case STREAM_OP_METHOD2: case STREAM_OP_METHOD3: op_method(g, subc); break;
		case STREAM_OP_LAUNCH: case STREAM_OP_LAUNCH2: op_launch(g, subc); break;
		case STREAM_OP_RT: op_rt(g, subc); break;
		case STREAM_OP_FP: op_fp(g, subc); break;
		case STREAM_OP_IMM_DRAW: op_imm_draw(g, subc); break;
		case STREAM_OP_ARRAY_DRAW: op_array_draw(g, subc); break;
		case STREAM_OP_TEXTURE: op_texture(g, subc); break;
		case STREAM_OP_REPORT: op_report(g, subc); break;
		case STREAM_OP_CLEAR: op_clear(g, subc); break;
		case STREAM_OP_M2MF: op_m2mf(g, subc); break;
		case STREAM_OP_2D: op_2d(g, subc); break;
		case STREAM_OP_DATA: op_data(g); break;
		case STREAM_OP_PACKET: op_packet(g); break;
		case STREAM_OP_JUMP: op_jump(g); break;
		case STREAM_OP_RELOC: op_reloc(g); break;
		case STREAM_OP_RAW: {
			unsigned n = 1 + fuzz_u8(&g->in) % 8;
			for (unsigned i = 0; i < n; i++)
				emit(g, fuzz_u32(&g->in));
			break;
		}
		case STREAM_OP_NEXT:
			if (g->cur + 1 < g->nsub)
				g->cur++;
			break;
		}
	}
}

/* ---- submitting and running ---- */

static struct {
	unsigned long inputs, subs, accepted, inputs_accepted, trapped, lost;
} stats;

static void print_stats(void)
{
	fprintf(stderr, "fuzz_stream: %lu inputs, %lu submissions, %lu accepted (%.1f%%); "
		"%lu inputs with one accepted (%.1f%%); %lu accepted ones trapped, %lu channels lost\n",
		stats.inputs, stats.subs, stats.accepted,
		stats.subs ? 100.0 * stats.accepted / stats.subs : 0.0, stats.inputs_accepted,
		stats.inputs ? 100.0 * stats.inputs_accepted / stats.inputs : 0.0, stats.trapped,
		stats.lost);
}

/* Entry seq of the submission into the channel's shared submit ring, as
 * libnvd writes it. */
static void publish(struct nvd_chan *ch, const struct gen *g, unsigned k)
{
	const struct sub *s = &g->sub[k];
	struct nvd_submit_bo sb[5];
	unsigned nb = 0;
	sb[nb++] = (struct nvd_submit_bo){ bufs[STREAM_A_PUSH].handle, NVD_ACCESS_READ };
	for (unsigned i = 0; i < 4; i++)
		if (s->list >> (2 * i) & 3)
			sb[nb++] = (struct nvd_submit_bo){ bufs[listable[i]].handle, s->list >> (2 * i) & 3u };
	struct nvd_submit_push sp = { 0, k * STREAM_REGION_WORDS * 4u, s->words * 4u };
	struct nvd_submit_reloc rel[STREAM_MAX_RELOCS];
	for (unsigned i = 0; i < s->nrel; i++) {
		rel[i] = s->rel[i];
		rel[i].bo = nb ? rel[i].bo % nb : 0;
	}
	struct nvd_submit_hdr h = { nvd_submit_size(nb, 1, s->nrel), k + 1, (uint16_t)nb, 1,
				    (uint16_t)s->nrel, 0, k + 1 };
	uint32_t head = ch->ctl->head;
	uint8_t *p = ch->sring + head % NVD_RING_DATA_SIZE;
	memset(p, 0, h.size);
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	memcpy(p, sb, nb * sizeof(*sb));
	p += nb * sizeof(*sb);
	memcpy(p, &sp, sizeof(sp));
	p += sizeof(sp);
	memcpy(p, rel, s->nrel * sizeof(*rel));
	__atomic_store_n(&ch->ctl->head, head + h.size, __ATOMIC_RELEASE);
}

/* Run the card until it is idle: every fence retired.  Its interrupt
 * eventfd says when nvd_irq has work, as on nvd's loop: the card acks the
 * fences it publishes itself, leaving PMC_INTR down. */
static void run_card(struct nvd_chan *ch, uint32_t last)
{
	unsigned round;
	for (round = 0; round < RUN_ROUNDS; round++) {
		unsigned long words = d.card->ops->run(d.card);
		oracle_check();
		struct pollfd irq = { d.card->irq_fd, POLLIN, 0 };
		int raised = poll(&irq, 1, 0) > 0;
		if (!words && !raised)
			break;
		if (raised)
			nvd_irq(&d);
	}
	if (round == RUN_ROUNDS)
		fuzz_finding("runaway: the card is still busy after %u rounds (fence %u of %u)",
			     RUN_ROUNDS, ch->completed, last);
	if (!ch->lost && ch->completed != last)
		fuzz_finding("the card stopped at fence %u of %u", ch->completed, last);
}

static void reset_buffers(void)
{
	for (unsigned k = 0; k < STREAM_NBUFS; k++)
		if (!bufs[k].victim)
			memset(bufs[k].bo->map, 0, bufs[k].bo->size);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_report_init();
	world_init();
	if (getenv("FUZZ_STREAM_STATS"))
		atexit(print_stats);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gen g;

	memset(&g, 0, sizeof(g));
	g.in = (struct fuzz_input){ data, size };
	g.nsub = 1 + fuzz_u8(&g.in) % STREAM_MAX_SUBS;
	for (unsigned k = 0; k < STREAM_MAX_SUBS; k++)
		g.sub[k].list = fuzz_u8(&g.in);
	g.reloc_next = -1;
	g.pb = (uint32_t *)bufs[STREAM_A_PUSH].bo->map;
	reset_buffers();
	build(&g);

	struct nvd_chan *ch = chan_open();
	int refused[STREAM_MAX_SUBS];
	unsigned accepted = 0;
	for (unsigned k = 0; k < g.nsub; k++)
		publish(ch, &g, k);
	nvd_take(&d);
	for (unsigned k = 0; k < g.nsub; k++) {
		if (ch->seq < k + 1)
			fuzz_finding("nvd did not take submission %u of %u", k + 1, g.nsub);
		refused[k] = ch->fence->status[(k + 1) % NVD_FENCE_STATUS];
		accepted += !refused[k];
	}
	stats.inputs++;
	stats.subs += g.nsub;
	stats.accepted += accepted;
	stats.inputs_accepted += !!accepted;

	run_card(ch, g.nsub);
	stats.lost += ch->lost != 0;
	for (unsigned k = 0; k < g.nsub; k++)
		stats.trapped += !refused[k] && ch->fence->status[(k + 1) % NVD_FENCE_STATUS];
	nvd_chan_free(ch);
	oracle_check();
	return 0;
}
