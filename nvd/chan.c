/* Channels and their objects: RAMHT entries, ctxdmas, graphics objects and
 * the memory a channel shares with its client.  Its hardware channel, when
 * it has one, and the ring and grctx that go with it are vchan.c's. */
#include "nvd/nvd.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHAN_MAX_OBJS 1024

static int obj_cmp(const void *k, const void *e)
{
	uint32_t h = *(const uint32_t *)k, o = ((const struct nvd_obj *)e)->v.handle;
	return h < o ? -1 : h > o;
}

static struct nvd_obj *obj_find(struct nvd_chan *ch, uint32_t handle)
{
	/* bsearch's array may not be NULL, even empty (C11 7.22.5) */
	if (!ch->nobjs)
		return NULL;
	return bsearch(&handle, ch->objs, ch->nobjs, sizeof(*ch->objs), obj_cmp);
}

const struct nvd_vobj *nvd_obj_lookup(void *ctx, uint32_t handle)
{
	struct nvd_obj *o = obj_find(ctx, handle);
	return o ? &o->v : NULL;
}

/* Insert an object: RAMIN instance, RAMHT entry, sorted table slot. */
static int obj_add(struct nvd_chan *ch, const struct nvd_obj *tmpl, unsigned engine, char *why,
		   size_t whylen)
{
	struct nvd *d = ch->cl->d;
	struct nvd_obj o = *tmpl;
	unsigned i;

	if (o.v.handle >= NVD_HANDLE_DAEMON_FIRST && o.v.handle <= NVD_HANDLE_DAEMON_LAST) {
		snprintf(why, whylen, "handle 0x%08x is reserved by nvd (0x%08x..0x%08x are its own)",
			 o.v.handle, NVD_HANDLE_DAEMON_FIRST, NVD_HANDLE_DAEMON_LAST);
		return -EEXIST;
	}
	if (obj_find(ch, o.v.handle)) {
		snprintf(why, whylen, "handle 0x%08x is already in use", o.v.handle);
		return -EEXIST;
	}
	unsigned nz = 0;
	for (struct nvd_obj *z = ch->zombies; z; z = z->next) {
		if (z->hashed && z->v.handle == o.v.handle) {
			snprintf(why, whylen, "handle 0x%08x was freed while submission %u, which may "
				 "name it, was still queued: it can be used again once that one has "
				 "completed", o.v.handle, z->retire_seq);
			return -EBUSY;
		}
		nz++;
	}
	if (ch->nobjs + nz >= CHAN_MAX_OBJS) {
		snprintf(why, whylen, "channel limit of %u objects reached", CHAN_MAX_OBJS);
		return -EMFILE;
	}
	if (ch->nobjs == ch->objs_cap) {
		unsigned cap = ch->objs_cap ? ch->objs_cap * 2 : 16;
		struct nvd_obj *n = realloc(ch->objs, cap * sizeof(*n));
		if (!n) {
			snprintf(why, whylen, "out of memory");
			return -ENOMEM;
		}
		ch->objs = n;
		ch->objs_cap = cap;
	}
	/* other channels' entries make room if they can go */
	while (ch->chid != NVD_CHID_NONE &&
	       nvd_ramht_insert(d, ch->chid, o.v.handle, engine, o.inst, &o.ramht_slot) < 0)
		if (nvd_vchan_ramht_room(ch) < 0) {
			snprintf(why, whylen, "hash table full around handle 0x%08x", o.v.handle);
			return -ENOSPC;
		}
	for (i = ch->nobjs; i > 0 && ch->objs[i - 1].v.handle > o.v.handle; i--)
		ch->objs[i] = ch->objs[i - 1];
	ch->objs[i] = o;
	ch->nobjs++;
	return 0;
}

/* Its RAMHT entry is gone already (nvd_chan_unhash). */
static void obj_release(struct nvd_chan *ch, struct nvd_obj *o)
{
	struct nvd *d = ch->cl->d;
	nvd_ramin_free(d, o->inst, o->inst_size);
	if (o->bo) {
		nvd_bo_unpin(o->bo);
		nvd_bo_unref(d, o->bo);
	}
}

static int ctxdma_add(struct nvd_chan *ch, uint32_t handle, uint8_t kind, unsigned cls,
		      unsigned target, unsigned access, uint64_t base, uint64_t size,
		      struct nvd_bo *bo, char *why, size_t whylen)
{
	struct nvd *d = ch->cl->d;
	struct nvd_obj o = { .v = { .handle = handle, .cls = cls, .kind = kind }, .inst_size = NV_DMA_SIZE };
	int r = nvd_ramin_alloc(d, NV_DMA_SIZE, NV_DMA_SIZE, &o.inst);
	if (r < 0) {
		snprintf(why, whylen, "instance memory full");
		return r;
	}
	nvd_ctxdma_write(d, o.inst, cls, target, access, base, size);
	if (bo) {
		o.v.domain = bo->domain;
		o.v.base = base - (bo->domain == NVD_DOMAIN_GART ? d->card->gart_bus : 0);
		o.v.size = size;
		o.bo = bo;
	}
	r = obj_add(ch, &o, NV_ENGINE_SW, why, whylen);
	if (r < 0) {
		nvd_ramin_free(d, o.inst, o.inst_size);
		return r;
	}
	if (bo) {
		bo->pins++;   /* its address is in RAMIN now: it stays */
		nvd_bo_ref(bo);
		if (ch->chid != NVD_CHID_NONE)
			nvd_oracle_dma(ch, &o.v, access);
	}
	return 0;
}

int nvd_obj_new(struct nvd_chan *ch, uint32_t handle, uint32_t cls, char *why, size_t whylen)
{
	struct nvd *d = ch->cl->d;
	const struct nv_class_desc *c = nv_class_find(cls);
	struct nvd_obj o = { .v = { .handle = handle, .cls = cls }, .inst_size = NV_GROBJ_SIZE };
	int r;

	if (ch->lost)
		return ch->lost;
	if (!c || (!c->is_gr && cls != NV_CLASS_NULL_OBJ)) {
		snprintf(why, whylen, "class 0x%04x is not a graphics class nvd offers", cls);
		return -EINVAL;
	}
	if (c->is_gr && c->cls >= 0x4000 && cls != d->card->chip->gr_class) {
		snprintf(why, whylen, "the %s has 3D class 0x%04x, not 0x%04x", d->card->chip->name,
			 d->card->chip->gr_class, cls);
		return -EINVAL;
	}
	o.v.kind = cls == NV_CLASS_NULL_OBJ ? NVD_VOBJ_NULL : NVD_VOBJ_GR;
	r = nvd_ramin_alloc(d, NV_GROBJ_SIZE, 16, &o.inst);
	if (r < 0) {
		snprintf(why, whylen, "instance memory full");
		return r;
	}
	nv_wr32le(nvd_ramin(d, o.inst), cls);
	r = obj_add(ch, &o, NV_ENGINE_GR, why, whylen);
	if (r < 0)
		nvd_ramin_free(d, o.inst, o.inst_size);
	return r;
}

int nvd_dma_new(struct nvd_chan *ch, const struct nvd_req_dma_new *rq, char *why, size_t whylen)
{
	struct nvd *d = ch->cl->d;
	struct nvd_bo *bo = nvd_bo_get(ch->cl, rq->bo);

	if (ch->lost)
		return ch->lost;
	if (!bo) {
		snprintf(why, whylen, "no buffer %u", rq->bo);
		return -ENOENT;
	}
	if (rq->cls != NV_CLASS_DMA_FROM_MEMORY && rq->cls != NV_CLASS_DMA_TO_MEMORY &&
	    rq->cls != NV_CLASS_DMA_IN_MEMORY) {
		snprintf(why, whylen, "class 0x%04x is not a DMA class (0x02, 0x03, 0x3d)", rq->cls);
		return -EINVAL;
	}
	if (rq->access > NV_DMA_ACCESS_WO || rq->_pad) {
		snprintf(why, whylen, "access %u is not 0 (rw), 1 (ro) or 2 (wo)", rq->access);
		return -EINVAL;
	}
	if (!rq->size || rq->offset > bo->size || rq->size > bo->size - rq->offset) {
		snprintf(why, whylen, "range 0x%llx+0x%llx is outside buffer %u (0x%llx bytes)",
			 (unsigned long long)rq->offset, (unsigned long long)rq->size, rq->bo,
			 (unsigned long long)bo->size);
		return -EINVAL;
	}
	/* Its address goes into RAMIN: a buffer in host memory goes back first. */
	char how[NVD_REPLY_WHY];
	int r = nvd_bo_move(d, bo, bo->domain == NVD_DOMAIN_HOST ? bo->pref : bo->domain, 0, how,
			    sizeof(how));
	if (r < 0) {
		snprintf(why, whylen, "buffer %u cannot be placed: %s", rq->bo, how);
		return r;
	}
	int gart = bo->domain == NVD_DOMAIN_GART;
	return ctxdma_add(ch, rq->handle, NVD_VOBJ_DMA_BO, rq->cls,
			  gart ? NV_DMA_TARGET_PCI : NV_DMA_TARGET_VRAM, rq->access,
			  (gart ? d->card->gart_bus : 0) + bo->addr + rq->offset, rq->size, bo, why,
			  whylen);
}

/* Submissions validated from now on cannot name the handle.  Those already
 * taken were validated against this object, and the card looks the handle
 * up in RAMHT again when it runs them (FIFO OBJECT binds, every handle
 * method): the entry stays, meaning what it meant, until the last of them
 * has retired (nvd_obj_retired), and the handle cannot be reused before
 * (-EBUSY), as the nouveau kernel keeps an object until its channel is
 * done with it.  The instance stays until the channel goes, since the
 * channel's PGRAPH context may still name it and instance memory handed
 * to another channel must never be reachable from this one. */
int nvd_obj_free(struct nvd_chan *ch, uint32_t handle, char *why, size_t whylen)
{
	struct nvd_obj *o = obj_find(ch, handle), *z;
	if (!o) {
		snprintf(why, whylen, "no object 0x%08x", handle);
		return -ENOENT;
	}
	z = malloc(sizeof(*z));
	if (!z) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	*z = *o;
	if (ch->if_count) {   /* only a channel on the card has work in flight */
		z->hashed = 1;
		z->retire_seq = ch->inflight[(ch->if_head + ch->if_count - 1) % NVD_FENCE_STATUS].seq;
		ch->nhashed++;
	} else if (ch->chid != NVD_CHID_NONE) {
		nvd_ramht_remove(ch->cl->d, z->ramht_slot);
	}
	z->next = ch->zombies;
	ch->zombies = z;
	unsigned i = o - ch->objs;
	memmove(o, o + 1, (ch->nobjs - i - 1) * sizeof(*o));
	ch->nobjs--;
	return 0;
}

void nvd_obj_retired(struct nvd_chan *ch)
{
	for (struct nvd_obj *z = ch->zombies; z && ch->nhashed; z = z->next)
		if (z->hashed && (int32_t)(ch->completed - z->retire_seq) >= 0) {
			nvd_ramht_remove(ch->cl->d, z->ramht_slot);
			z->hashed = 0;
			ch->nhashed--;
		}
}

static void chan_doorbell(evutil_socket_t fd, short what, void *arg)
{
	struct nvd_chan *ch = arg;
	uint64_t v;
	(void)fd;
	(void)what;
	if (read(ch->doorbell, &v, sizeof(v)) < 0 && errno != EAGAIN)
		nvd_clog(ch->cl, ch, "doorbell: %s", strerror(errno));
	nvd_take(ch->cl->d);
}

/* Memory shared with the client: ring (rw), fence page (ro for the client). */
static int chan_shared(struct nvd_chan *ch, char *why, size_t whylen)
{
	ch->ring_fd = memfd_create("nvd-submit-ring", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	ch->fence_fd = memfd_create("nvd-fence-page", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	ch->doorbell = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ch->fence_ev = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ch->ring_fd < 0 || ch->fence_fd < 0 || ch->doorbell < 0 || ch->fence_ev < 0 ||
	    ftruncate(ch->ring_fd, NVD_RING_SIZE) < 0 ||
	    ftruncate(ch->fence_fd, NVD_FENCE_PAGE_SIZE) < 0 ||
	    fcntl(ch->ring_fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0)
		goto fail;
	void *ring = mmap(NULL, NVD_RING_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, ch->ring_fd, 0);
	if (ring == MAP_FAILED)
		goto fail;
	ch->ctl = ring;
	ch->sring = (uint8_t *)ring + NVD_RING_CTL_SIZE;
	void *fence = mmap(NULL, NVD_FENCE_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
			   ch->fence_fd, 0);
	if (fence == MAP_FAILED)
		goto fail;
	ch->fence = fence;
	/* Our mapping stays writable; nobody can make a new writable one. */
	if (fcntl(ch->fence_fd, F_ADD_SEALS,
		  F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) < 0)
		goto fail;
	return 0;
fail:
	snprintf(why, whylen, "cannot set up the channel's shared memory: %s", strerror(errno));
	return -errno ? -errno : -ENOMEM;
}

/* The daemon's objects for the program shadow, private to the channel
 * (RAMHT only, not in ch->objs): an M2MF and four ctxdmas.  The one over
 * the area follows the hardware channel whose area it uses (vchan.c). */
static const struct {
	uint32_t handle;
	unsigned target, access;
} chan_fp_objs[NVD_FP_NOBJS] = {
	{ NVD_FP_M2MF_HANDLE, 0, 0 },
	{ NVD_FP_VRAM_HANDLE, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RO },
	{ NVD_FP_GART_HANDLE, NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RO },
	{ NVD_FP_AREA_HANDLE, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RW },
	{ NVD_FP_TEX_HANDLE, NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RO },
};

static int chan_fp_setup(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;
	const uint64_t base[NVD_FP_NOBJS] = { 0, 0, d->card->gart_bus, 0, 0 };
	const uint64_t size[NVD_FP_NOBJS] = {
		0, d->vram_client_size, d->gart_client_size, NVD_FP_AREA_SIZE,
		d->fp_areas + (uint64_t)NVD_CLIENT_CHIDS * NVD_FP_AREA_SIZE,
	};

	for (unsigned i = 0; i < NVD_FP_NOBJS; i++) {
		int r = nvd_ramin_alloc(d, i ? NV_DMA_SIZE : NV_GROBJ_SIZE, 16, &ch->fp_inst[i]);
		if (r < 0)
			return r;
		if (!i)
			nv_wr32le(nvd_ramin(d, ch->fp_inst[i]), NV_CLASS_M2MF);
		else
			nvd_ctxdma_write(d, ch->fp_inst[i], NV_CLASS_DMA_IN_MEMORY, chan_fp_objs[i].target,
					 chan_fp_objs[i].access, base[i], size[i]);
	}
	ch->vfp = (struct nvd_vfp){
		0, 0, NVD_FP_AREA_SIZE,
		NVD_FP_M2MF_HANDLE, NVD_FP_VRAM_HANDLE, NVD_FP_GART_HANDLE, NVD_FP_AREA_HANDLE,
		NVD_SW_HANDLE, NVD_FP_TEX_HANDLE, -1,
	};
	return 0;
}

static void chan_fp_release(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;
	for (unsigned i = 0; i < NVD_FP_NOBJS; i++) {
		if (!ch->fp_inst[i])
			continue;
		nvd_ramin_free(d, ch->fp_inst[i], i ? NV_DMA_SIZE : NV_GROBJ_SIZE);
		ch->fp_inst[i] = 0;
	}
}

static unsigned obj_engine(const struct nvd_obj *o)
{
	return o->v.kind == NVD_VOBJ_GR || o->v.kind == NVD_VOBJ_NULL ? NV_ENGINE_GR : NV_ENGINE_SW;
}

void nvd_chan_unhash(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;

	if (ch->chid == NVD_CHID_NONE)
		return;
	for (unsigned i = 0; i < ch->nobjs; i++)
		nvd_ramht_remove(d, ch->objs[i].ramht_slot);
	for (struct nvd_obj *z = ch->zombies; z; z = z->next)
		if (z->hashed) {
			nvd_ramht_remove(d, z->ramht_slot);
			z->hashed = 0;
		}
	ch->nhashed = 0;
	for (unsigned i = 0; i < NVD_FP_NOBJS; i++)
		if (ch->fp_inst[i])
			nvd_ramht_remove(d, ch->fp_slot[i]);
	if (ch->sw_inst)
		nvd_ramht_remove(d, ch->sw_slot);
}

/* Every entry for ch->chid, or none (-ENOSPC).  No freed handle is hashed:
 * the channel was idle. */
int nvd_chan_hash(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;
	unsigned nfp = 0, nobj = 0;
	int r = nvd_ramht_insert(d, ch->chid, NVD_SW_HANDLE, NV_ENGINE_SW, ch->sw_inst, &ch->sw_slot);

	if (r < 0)
		return r;
	while (!r && nfp < NVD_FP_NOBJS) {
		r = nvd_ramht_insert(d, ch->chid, chan_fp_objs[nfp].handle,
				     nfp ? NV_ENGINE_SW : NV_ENGINE_GR, ch->fp_inst[nfp], &ch->fp_slot[nfp]);
		nfp += !r;
	}
	while (!r && nobj < ch->nobjs) {
		struct nvd_obj *o = &ch->objs[nobj];
		r = nvd_ramht_insert(d, ch->chid, o->v.handle, obj_engine(o), o->inst, &o->ramht_slot);
		nobj += !r;
	}
	if (!r)
		return 0;
	while (nobj)
		nvd_ramht_remove(d, ch->objs[--nobj].ramht_slot);
	while (nfp)
		nvd_ramht_remove(d, ch->fp_slot[--nfp]);
	nvd_ramht_remove(d, ch->sw_slot);
	return r;
}

static void obj_oracle(struct nvd_chan *ch, const struct nvd_obj *o)
{
	if (o->bo)
		nvd_oracle_dma(ch, &o->v, NV_DMA_W0_ACCESS(nv_rd32le(nvd_ramin(ch->cl->d, o->inst))));
}

/* On a hardware channel: the oracle learns what the channel's own memory
 * is, freed ctxdmas included (its PGRAPH state may still name them). */
void nvd_chan_oracle(struct nvd_chan *ch)
{
	nvd_oracle_chan(ch);
	for (unsigned i = 0; i < ch->nobjs; i++)
		obj_oracle(ch, &ch->objs[i]);
	for (const struct nvd_obj *z = ch->zombies; z; z = z->next)
		obj_oracle(ch, z);
}

uint32_t nvd_chan_3d_handle(const struct nvd_chan *ch)
{
	for (unsigned i = 0; i < ch->nobjs; i++)
		if (ch->objs[i].v.cls == ch->cl->d->card->chip->gr_class)
			return ch->objs[i].v.handle;
	return 0;
}

void nvd_chan_release(struct nvd_chan *ch)
{
	struct nvd *d = ch->cl->d;

	if (ch->chid != NVD_CHID_NONE)
		nvd_oracle_forget(ch);
	nvd_chan_unhash(ch);
	while (ch->nobjs)
		obj_release(ch, &ch->objs[--ch->nobjs]);
	while (ch->zombies) {
		struct nvd_obj *z = ch->zombies;
		ch->zombies = z->next;
		obj_release(ch, z);
		free(z);
	}
	free(ch->objs);
	ch->objs = NULL;
	if (ch->sw_inst)
		nvd_ramin_free(d, ch->sw_inst, NV_GROBJ_SIZE);
	ch->sw_inst = 0;
	if (ch->doorbell_evt)
		event_free(ch->doorbell_evt);
	ch->doorbell_evt = NULL;
	chan_fp_release(ch);
	nvd_chan_fp_pin(ch, NULL);
	nvd_vstate_free(ch->vs);
	ch->vs = NULL;
	free(ch->inflight);
	ch->inflight = NULL;
	nvd_sync_taken(ch);
	free(ch->marked);
	ch->marked = NULL;
	nvd_vchan_remove(ch);
}

/* The channel starts virtual: the objects go to RAMIN only, and into RAMHT
 * when it gets a hardware channel (at once, when one is free). */
int nvd_chan_new(struct nvd_client *cl, struct nvd_chan **out, char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_chan *ch;
	unsigned id;
	int r;

	for (id = 0; id < NVD_CLIENT_CHANS && cl->chans[id]; id++)
		;
	if (id == NVD_CLIENT_CHANS) {
		snprintf(why, whylen, "the client has all the %u channels a client may open",
			 NVD_CLIENT_CHANS);
		return -EBUSY;
	}
	if (d->nchans >= NVD_MAX_CHANS) {
		snprintf(why, whylen, "nvd has all the %u channels it opens (%u of them on the "
			 "card's %u hardware channels)", NVD_MAX_CHANS, d->nchans_hw, NVD_CLIENT_CHIDS);
		return -EBUSY;
	}
	ch = calloc(1, sizeof(*ch));
	if (!ch) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	ch->cl = cl;
	ch->id = id;
	ch->chid = NVD_CHID_NONE;
	ch->ring_fd = ch->fence_fd = ch->doorbell = ch->fence_ev = -1;
	ch->vs = nvd_vstate_new();
	ch->inflight = calloc(NVD_FENCE_STATUS, sizeof(*ch->inflight));
	if (!ch->vs || !ch->inflight) {
		snprintf(why, whylen, "out of memory");
		r = -ENOMEM;
		goto fail;
	}
	r = chan_shared(ch, why, whylen);
	if (r < 0)
		goto fail;
	if ((r = nvd_ramin_alloc(d, NV_GROBJ_SIZE, 16, &ch->sw_inst)) < 0) {
		snprintf(why, whylen, "instance memory full");
		goto fail;
	}
	nv_wr32le(nvd_ramin(d, ch->sw_inst), NV_CLASS_NVSW);
	if ((r = chan_fp_setup(ch)) < 0) {
		snprintf(why, whylen, "instance memory full");
		goto fail;
	}
	/* The ctxdmas Mesa and the DDX expect: all of the clients' VRAM and
	 * GART, and nothing of the daemon's (its textures and programs go
	 * through NVD_FP_TEX_HANDLE, validate-fp.c). */
	if ((r = ctxdma_add(ch, NVD_VRAM_DMA_HANDLE, NVD_VOBJ_DMA_VRAM, NV_CLASS_DMA_IN_MEMORY,
			    NV_DMA_TARGET_VRAM, NV_DMA_ACCESS_RW, 0, d->vram_client_size, NULL, why,
			    whylen)) < 0 ||
	    (r = ctxdma_add(ch, NVD_GART_DMA_HANDLE, NVD_VOBJ_DMA_GART, NV_CLASS_DMA_IN_MEMORY,
			    NV_DMA_TARGET_PCI, NV_DMA_ACCESS_RW, d->card->gart_bus,
			    d->gart_client_size, NULL, why, whylen)) < 0)
		goto fail;
	ch->doorbell_evt = event_new(d->base, ch->doorbell, EV_READ | EV_PERSIST, chan_doorbell, ch);
	if (!ch->doorbell_evt || event_add(ch->doorbell_evt, NULL) < 0) {
		snprintf(why, whylen, "event loop refused the doorbell");
		r = -ENOMEM;
		goto fail;
	}
	nvd_vchan_add(ch);
	cl->chans[id] = ch;
	cl->nchans++;
	*out = ch;
	return 0;
fail:
	nvd_chan_release(ch);
	nvd_chan_close_fds(ch);
	free(ch);
	return r;
}

void nvd_chan_close_fds(struct nvd_chan *ch)
{
	if (ch->ctl)
		munmap(ch->ctl, NVD_RING_SIZE);
	if (ch->fence)
		munmap(ch->fence, NVD_FENCE_PAGE_SIZE);
	ch->ctl = NULL;
	ch->fence = NULL;
	int *fds[] = { &ch->ring_fd, &ch->fence_fd, &ch->doorbell, &ch->fence_ev };
	for (unsigned i = 0; i < 4; i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

void nvd_chan_delete(struct nvd_chan *ch)
{
	struct nvd_client *cl = ch->cl;

	nvd_chan_close_fds(ch);
	cl->chans[ch->id] = NULL;
	cl->nchans--;
	if (!cl->nchans)
		nvd_bo_kept_release(cl);   /* no submission can come for them now */
	free(ch);
}
