/* The push-buffer writer: command words in a GART buffer, the buffer list
 * and the relocations beside them, one nvc_submit per kick.  It behaves as
 * libdrm's nouveau_pushbuf does for Mesa: make room, write a method header
 * and its data, write a buffer's address as a relocation, kick. */
#include "client/priv.h"

#include "hw/pushbuf.h"
#include "hw/ramin.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct nvc_pushbuf {
	struct nvc_chan *ch;
	struct nvc_bo *bo;           /* GART, refs[0] of every submission */
	uint32_t *map;
	uint32_t cap, pos, start;    /* words: size, next, first not submitted */
	uint32_t left;               /* data words the last method header still takes */
	uint32_t fence;              /* the last submission's */
	int err;                     /* the first failure since the last kick */
	void (*notify)(struct nvc_pushbuf *p, void *data);
	void *notify_data;
	unsigned nrefs, nrelocs;
	int listed;                  /* buffers put on the list since the last submission */
	struct nvc_bo_ref refs[NVD_SUBMIT_MAX_BOS];
	struct nvc_reloc relocs[NVD_SUBMIT_MAX_RELOCS];
};

int nvc_pushbuf_new(struct nvc_chan *ch, uint32_t size, struct nvc_pushbuf **out)
{
	struct nvc_pushbuf *p;
	int r;

	*out = NULL;
	if (size < 4)
		return nvc_fail(-EINVAL, "nvc_pushbuf_new: %u bytes hold no command", size);
	p = calloc(1, sizeof(*p));
	if (!p)
		return nvc_fail(-ENOMEM, "out of memory");
	r = nvc_bo_new(ch->c, size, NVC_GART, &p->bo);
	if (r < 0) {
		free(p);
		return r;
	}
	p->map = nvc_bo_map(p->bo);
	if (!p->map) {
		nvc_bo_free(p->bo);
		free(p);
		return nvc_fail(-ENOMEM, "nvc_pushbuf_new: cannot map the push buffer");
	}
	p->ch = ch;
	p->cap = size / 4;
	p->refs[0] = (struct nvc_bo_ref){ p->bo, NVC_READ };
	p->nrefs = 1;
	*out = p;
	return 0;
}

void nvc_pushbuf_free(struct nvc_pushbuf *p)
{
	if (!p)
		return;
	nvc_bo_free(p->bo);
	free(p);
}

/* The first failure stays until the kick that reports it. */
static void pushbuf_fail(struct nvc_pushbuf *p, int err, const char *what)
{
	if (!p->err)
		p->err = nvc_fail(err, "nvc_pushbuf: %s", what);
}

static int pushbuf_submit(struct nvc_pushbuf *p, int keep_list);

int nvc_pushbuf_space(struct nvc_pushbuf *p, uint32_t words, unsigned bos, unsigned relocs)
{
	int list_full = p->nrefs + bos > NVD_SUBMIT_MAX_BOS ||
			p->nrelocs + relocs > NVD_SUBMIT_MAX_RELOCS;

	if (p->err)
		return p->err;
	if (p->pos + words <= p->cap && !list_full)
		return 0;
	if (words > p->cap || bos >= NVD_SUBMIT_MAX_BOS || relocs > NVD_SUBMIT_MAX_RELOCS) {
		pushbuf_fail(p, -E2BIG, "more room asked for than a submission has");
		return p->err;
	}
	/* Out of words only: the commands to come may use the listed buffers
	 * without relocations, so the list stays (libdrm re-validates its
	 * buffer contexts after such a flush). */
	int r = pushbuf_submit(p, !list_full);
	if (r < 0)
		return r;
	if (p->pos + words > p->cap) {
		/* start over at the beginning once the card has read it all */
		r = nvc_fence_wait(p->ch, p->fence, -1);
		if (r < 0 && r != -ENODEV && r != -ENOTCONN)
			r = 0;   /* refused or faulted: done with the buffer all the same */
		if (r < 0) {
			pushbuf_fail(p, r, "waiting for the push buffer");
			return r;
		}
		p->pos = p->start = 0;
	}
	return 0;
}

static void pushbuf_word(struct nvc_pushbuf *p, uint32_t w)
{
	if (p->err)
		return;
	if (p->pos == p->cap) {
		pushbuf_fail(p, -ENOSPC, "push buffer full (nvc_pushbuf_space asks for room)");
		return;
	}
	nv_wr32le(&p->map[p->pos++], w);
}

static void pushbuf_header(struct nvc_pushbuf *p, uint32_t w, unsigned count)
{
	if (count > NV_CMD_MAX_COUNT) {
		pushbuf_fail(p, -EINVAL, "a method header counts at most 2047 words");
		return;
	}
	pushbuf_word(p, w);
	p->left = p->err ? 0 : count;
}

void nvc_pushbuf_mthd(struct nvc_pushbuf *p, unsigned subc, uint32_t mthd, unsigned count)
{
	pushbuf_header(p, NV_CMD_INC_WORD(subc, mthd, count), count);
}

void nvc_pushbuf_mthd_ni(struct nvc_pushbuf *p, unsigned subc, uint32_t mthd, unsigned count)
{
	pushbuf_header(p, NV_CMD_NONINC_WORD(subc, mthd, count), count);
}

void nvc_pushbuf_data(struct nvc_pushbuf *p, uint32_t v)
{
	if (!p->left) {
		pushbuf_fail(p, -EINVAL, "data word without a method header for it");
		return;
	}
	p->left--;
	pushbuf_word(p, v);
}

void nvc_pushbuf_raw(struct nvc_pushbuf *p, uint32_t w)
{
	pushbuf_word(p, w);
}

/* bo's index on the list, its access merged in; -1 when it cannot be. */
static int pushbuf_ref(struct nvc_pushbuf *p, struct nvc_bo *bo, unsigned access)
{
	if (p->err)
		return -1;
	if (!bo || bo->c != p->ch->c) {
		pushbuf_fail(p, -EINVAL, "a buffer of another connection");
		return -1;
	}
	p->listed = 1;
	for (unsigned i = 0; i < p->nrefs; i++)
		if (p->refs[i].bo == bo) {
			p->refs[i].access |= access;
			return (int)i;
		}
	if (p->nrefs == NVD_SUBMIT_MAX_BOS) {
		pushbuf_fail(p, -E2BIG, "too many buffers in one submission");
		return -1;
	}
	p->refs[p->nrefs] = (struct nvc_bo_ref){ bo, access };
	return (int)p->nrefs++;
}

int nvc_pushbuf_refn(struct nvc_pushbuf *p, struct nvc_bo *bo, unsigned access)
{
	return pushbuf_ref(p, bo, access) < 0 ? p->err : 0;
}

void nvc_pushbuf_reloc(struct nvc_pushbuf *p, struct nvc_bo *bo, unsigned access,
		       struct nvc_reloc r)
{
	int i = pushbuf_ref(p, bo, access);
	if (i < 0)
		return;
	if (p->nrelocs == NVD_SUBMIT_MAX_RELOCS) {
		pushbuf_fail(p, -E2BIG, "too many relocations in one submission");
		return;
	}
	/* the word as it is now; nvd writes it again if the buffer moves */
	uint64_t a = nvc_bo_addr(bo) + r.data;
	uint32_t v = r.flags & NVC_RELOC_LOW ? (uint32_t)a :
		     r.flags & NVC_RELOC_HIGH ? (uint32_t)(a >> 32) : r.data;
	if (r.flags & NVC_RELOC_OR)
		v |= nvc_bo_domain(bo) == NVC_VRAM ? r.vor : r.tor;
	r.reloc_bo = 0;
	r.offset = p->pos * 4;
	r.bo = (unsigned)i;
	p->relocs[p->nrelocs++] = r;
	if (p->left)
		p->left--;
	pushbuf_word(p, v);
}

const uint32_t *nvc_pushbuf_pending(const struct nvc_pushbuf *p, uint32_t *words)
{
	*words = p->pos - p->start;
	return p->map + p->start;
}

struct nvc_bo *nvc_pushbuf_bo(const struct nvc_pushbuf *p)
{
	return p->bo;
}

uint32_t nvc_pushbuf_offset(const struct nvc_pushbuf *p)
{
	return p->pos * 4;
}

void nvc_pushbuf_notify(struct nvc_pushbuf *p, void (*fn)(struct nvc_pushbuf *p, void *data),
			void *data)
{
	p->notify = fn;
	p->notify_data = data;
}

unsigned nvc_pushbuf_refd(const struct nvc_pushbuf *p, const struct nvc_bo *bo)
{
	for (unsigned i = 0; i < p->nrefs; i++)
		if (p->refs[i].bo == bo)
			return p->refs[i].access;
	return 0;
}

uint32_t nvc_pushbuf_fence(const struct nvc_pushbuf *p)
{
	return p->fence;
}

void nvc_pushbuf_drop(struct nvc_pushbuf *p)
{
	p->err = 0;
	p->left = 0;
	p->start = p->pos;
	p->nrelocs = 0;
	p->listed = 0;
	p->nrefs = 1;
	p->refs[0].access = NVC_READ;
}

static int pushbuf_submit(struct nvc_pushbuf *p, int keep_list)
{
	int r = p->err;

	/* a list kept from the last submission alone is nothing to submit;
	 * nothing to submit still says when nvd has gone */
	if (!r && p->pos == p->start && !p->listed) {
		r = nvc_check(p->ch->c);
	} else if (!r) {
		struct nvc_push range = { 0, p->start * 4, (p->pos - p->start) * 4 };
		struct nvc_submission s = { p->refs, p->nrefs, &range, p->pos > p->start,
					    p->relocs, p->nrelocs };
		if (p->notify)
			p->notify(p, p->notify_data);
		r = nvc_submit(p->ch, &s, &p->fence);
	}
	/* refused or not, what was pending is gone */
	if (keep_list) {
		p->err = 0;
		p->left = 0;
		p->start = p->pos;
		p->nrelocs = 0;
		p->listed = 0;
	} else {
		nvc_pushbuf_drop(p);
	}
	return r;
}

int nvc_pushbuf_kick(struct nvc_pushbuf *p, uint32_t *fence)
{
	int r = pushbuf_submit(p, 0);
	if (fence)
		*fence = p->fence;
	return r;
}
