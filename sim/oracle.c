/* The access oracle (sim.h): what the host admitted, per channel, and the
 * check every access the card makes goes through.
 *
 * Where accesses are checked: sim_dma_map (every engine's way to memory,
 * mapping what hw/access.h says it touches) checks the range it maps, in
 * the context the pusher and the puller set (channel, push buffer offset,
 * subchannel, method).  Maps that reach further than what is touched, or
 * outlive the command, are deferred and their users check what they touch:
 * the vertex fetch window (each attribute read), and a draw's resolved
 * state (surfaces, textures, program), which the 3D engine keeps across
 * methods and so across submissions: a launch checks what it uses against
 * the submission running it (3d/oracle3d.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "priv.h"

#define ORC_QUEUE 64            /* violations kept until the host takes them */

struct orc_sub {
	struct orc_sub *next;
	uint64_t serial;        /* sim_oracle_sub_serial */
	uint32_t id, begin, end;
	int reported;
	unsigned n, hit;
	struct sim_oracle_range r[];
};

struct orc_chan {
	struct sim_oracle_range *area;
	unsigned narea, cap, hit;
	struct orc_sub *head, *tail, *last;
	int stray_reported;     /* outside every submission, since the last admission */
};

struct sim_oracle {
	unsigned host_subc;
	struct orc_chan ch[NV40_FIFO_CHANNELS];
	int nochan_reported;
	uint64_t serials;
	uint64_t count;
	struct sim_oracle_violation q[ORC_QUEUE];
	unsigned qn;
};

int sim_oracle_enable(struct sim *s, unsigned host_subc)
{
	struct sim_oracle *o = calloc(1, sizeof(*o));

	if (!o)
		return -1;
	o->host_subc = host_subc;
	sim_host_lock(s);
	if (s->orc)
		free(o);
	else
		s->orc = o;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

static void orc_chan_clear(struct orc_chan *ch)
{
	while (ch->head) {
		struct orc_sub *n = ch->head->next;
		free(ch->head);
		ch->head = n;
	}
	free(ch->area);
	memset(ch, 0, sizeof(*ch));
}

/* sim_free */
void sim_oracle_free(struct sim *s)
{
	if (!s->orc)
		return;
	for (unsigned i = 0; i < NV40_FIFO_CHANNELS; i++)
		orc_chan_clear(&s->orc->ch[i]);
	free(s->orc);
	s->orc = NULL;
}

int sim_oracle_area(struct sim *s, unsigned chid, const struct sim_oracle_range *r)
{
	int ret = 0;

	if (!s->orc || chid >= NV40_FIFO_CHANNELS)
		return 0;
	sim_host_lock(s);
	struct orc_chan *ch = &s->orc->ch[chid];
	if (ch->narea == ch->cap) {
		unsigned cap = ch->cap ? 2 * ch->cap : 8;
		struct sim_oracle_range *a = realloc(ch->area, cap * sizeof(*a));
		if (a) {
			ch->area = a;
			ch->cap = cap;
		}
	}
	if (ch->narea < ch->cap)
		ch->area[ch->narea++] = *r;
	else
		ret = -1;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int sim_oracle_admit(struct sim *s, unsigned chid, uint32_t id, uint32_t ring_begin,
		     uint32_t ring_end, const struct sim_oracle_range *r, unsigned n)
{
	if (!s->orc || chid >= NV40_FIFO_CHANNELS)
		return 0;
	struct orc_sub *sub = malloc(sizeof(*sub) + (size_t)n * sizeof(*r));
	if (!sub)
		return -1;
	*sub = (struct orc_sub){ .id = id, .begin = ring_begin, .end = ring_end, .n = n };
	if (n)
		memcpy(sub->r, r, (size_t)n * sizeof(*r));
	sim_host_lock(s);
	struct orc_chan *ch = &s->orc->ch[chid];
	if (ch->tail)
		ch->tail->next = sub;
	else
		ch->head = sub;
	ch->tail = sub;
	ch->stray_reported = 0;
	sub->serial = ++s->orc->serials;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

void sim_oracle_retire(struct sim *s, unsigned chid, uint32_t id)
{
	if (!s->orc || chid >= NV40_FIFO_CHANNELS)
		return;
	sim_host_lock(s);
	struct orc_chan *ch = &s->orc->ch[chid];
	while (ch->head && (int32_t)(id - ch->head->id) >= 0) {
		struct orc_sub *sub = ch->head;
		ch->head = sub->next;
		if (!ch->head)
			ch->tail = NULL;
		if (ch->last == sub)
			ch->last = NULL;
		free(sub);
	}
	pthread_mutex_unlock(&s->lock);
}

void sim_oracle_forget(struct sim *s, unsigned chid)
{
	if (!s->orc || chid >= NV40_FIFO_CHANNELS)
		return;
	sim_host_lock(s);
	orc_chan_clear(&s->orc->ch[chid]);
	pthread_mutex_unlock(&s->lock);
}

unsigned sim_oracle_take(struct sim *s, struct sim_oracle_violation *v, unsigned max,
			 uint64_t *total)
{
	unsigned n = 0;

	if (!s->orc) {
		if (total)
			*total = 0;
		return 0;
	}
	sim_host_lock(s);
	struct sim_oracle *o = s->orc;
	n = o->qn < max ? o->qn : max;
	memcpy(v, o->q, n * sizeof(*v));
	memmove(o->q, o->q + n, (o->qn - n) * sizeof(*v));
	o->qn -= n;
	if (total)
		*total = o->count;
	pthread_mutex_unlock(&s->lock);
	return n;
}

/* ---- the check ---- */

static int orc_inside(const struct sim_oracle_range *r, unsigned target, uint64_t addr,
		      uint64_t len, uint8_t need)
{
	return r->target == target && (r->allow & need) == need && addr >= r->addr &&
	       len <= r->size && addr - r->addr <= r->size - len;
}

/* Inside one of r[0..n), the one at *hit tried first (accesses come in runs). */
static int orc_find(const struct sim_oracle_range *r, unsigned n, unsigned *hit,
		    unsigned target, uint64_t addr, uint64_t len, uint8_t need)
{
	if (*hit < n && orc_inside(&r[*hit], target, addr, len, need))
		return 1;
	for (unsigned i = 0; i < n; i++)
		if (orc_inside(&r[i], target, addr, len, need)) {
			*hit = i;
			return 1;
		}
	return 0;
}

static struct orc_sub *orc_sub_at(struct orc_chan *ch, uint32_t get)
{
	if (ch->last && get - ch->last->begin < ch->last->end - ch->last->begin)
		return ch->last;
	for (struct orc_sub *sub = ch->head; sub; sub = sub->next)
		if (get - sub->begin < sub->end - sub->begin)
			return ch->last = sub;
	return NULL;
}

uint64_t sim_oracle_sub_serial(struct sim *s)
{
	const struct sim_oracle_ctx *c = &s->orc_ctx;
	struct orc_sub *sub;

	if (!s->orc || c->chid >= NV40_FIFO_CHANNELS)
		return 0;
	sub = orc_sub_at(&s->orc->ch[c->chid], c->get);
	return sub ? sub->serial : 0;
}

void sim_oracle_check_(struct sim *s, unsigned target, uint64_t addr, uint64_t len, int write,
		       const char *what)
{
	struct sim_oracle *o = s->orc;
	const struct sim_oracle_ctx *c = &s->orc_ctx;
	struct orc_chan *ch = c->chid < NV40_FIFO_CHANNELS ? &o->ch[c->chid] : NULL;
	struct orc_sub *sub = NULL;
	int *reported = &o->nochan_reported;
	uint8_t need;

	if (!len)
		len = 1;
	if (c->pusher)
		need = write ? 0xff : SIM_ORACLE_PUSH_R;
	else if (c->subc == o->host_subc)
		need = write ? SIM_ORACLE_HOST_W : SIM_ORACLE_HOST_R;
	else
		need = write ? SIM_ORACLE_CLIENT_W : SIM_ORACLE_CLIENT_R;
	if (ch) {
		/* the pusher's reads are the channel's, not a submission's */
		sub = c->pusher ? NULL : orc_sub_at(ch, c->get);
		if (sub && orc_find(sub->r, sub->n, &sub->hit, target, addr, len, need))
			return;
		if (orc_find(ch->area, ch->narea, &ch->hit, target, addr, len, need))
			return;
		reported = sub ? &sub->reported : &ch->stray_reported;
	}
	if (*reported)
		return;
	*reported = 1;
	o->count++;
	if (o->qn == ORC_QUEUE)
		return;
	o->q[o->qn++] = (struct sim_oracle_violation){
		.chid = c->chid, .subc = c->subc, .pusher = c->pusher,
		.mthd = c->pusher ? 0 : c->mthd,
		.cls = !c->pusher && c->mthd >= NV_MTHD_FIFO_END && c->subc < NV_SUBCHANNELS ?
		       s->gr.subc_class[c->subc] : 0,
		.get = c->get, .in_sub = !!sub, .id = sub ? sub->id : 0,
		.target = (uint8_t)target, .write = write, .addr = addr, .len = len, .what = what,
	};
}

void sim_oracle_check_ptr_(struct sim *s, const void *p, uint64_t len, int write,
			   const char *what)
{
	const uint8_t *b = p;

	if (b >= s->vram && (uint64_t)(b - s->vram) < s->vram_size)
		sim_oracle_check_(s, SIM_ORACLE_VRAM, (uint64_t)(b - s->vram), len, write, what);
	else if (s->sysmem && b >= s->sysmem && (uint64_t)(b - s->sysmem) < s->sysmem_size)
		sim_oracle_check_(s, SIM_ORACLE_BUS, (uint64_t)(b - s->sysmem), len, write, what);
}

/* ---- describing ---- */

void sim_oracle_describe(const struct sim_oracle_violation *v, char *buf, size_t len)
{
	char who[96], sub[48];
	const char *space = v->target == SIM_ORACLE_VRAM ? "VRAM" : "bus";

	if (v->in_sub)
		snprintf(sub, sizeof(sub), "submission %u", v->id);
	else
		snprintf(sub, sizeof(sub), "no submission");
	if (v->pusher) {
		snprintf(who, sizeof(who), "the pusher fetching commands");
	} else if (v->mthd < NV_MTHD_FIFO_END) {
		const struct nv_mthd_desc *m = nv_mthd_find(nv_fifo_desc(), v->mthd, NULL);
		snprintf(who, sizeof(who), "PFIFO %s (subc %u)", m ? m->name : "?", v->subc);
	} else {
		const struct nv_class_desc *c = nv_class_find(v->cls);
		const struct nv_mthd_desc *m = c ? nv_mthd_find(c, v->mthd, NULL) : NULL;
		snprintf(who, sizeof(who), "%s %s (subc %u, class 0x%04x, method 0x%04x)",
			 c ? c->name : "?", m ? m->name : "?", v->subc, v->cls, v->mthd);
	}
	snprintf(buf, len, "chid %u %s (push buffer 0x%x): %s%s%s %s 0x%llx bytes at %s 0x%llx, "
		 "outside what was admitted", v->chid, sub, v->get, who, v->what ? ": " : "",
		 v->what ? v->what : "", v->write ? "writes" : "reads", (unsigned long long)v->len,
		 space, (unsigned long long)v->addr);
}
