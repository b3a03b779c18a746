/* libFuzzer target: the interposer's decoding of DRM and nouveau ioctls
 * (glx/ioctl.c, gem.c, kms.c) and of mmap offsets, as a buggy or hostile
 * program would issue them on its DRM fds.
 *
 * Why a real nvd, in this process on a thread of its own: every libnvd
 * call the interposer makes is then a real request the real daemon
 * answers (buffer handles, channels and their notifiers, lost channels
 * after refused submissions, names, PRIME, master and framebuffers all
 * behave as they do for Mesa), the sanitizers watch both sides, and a
 * request costs a thread switch rather than a process switch (a stub
 * connection would have to re-implement the daemon's answers, and what
 * the interposer does with them is half of what is fuzzed).  The daemon
 * thread and this one share nothing but the socket.
 *
 * An input is up to 32 operations; each names a file (the primary node,
 * which is the DRM master, or a render node; opened on first use, closed
 * by an operation too) and one of:
 *  - a known ioctl, its struct filled from the input, then fixed up where
 *    a program would be consistent: handles, names, framebuffer ids and
 *    magic cookies the files gave back (most of the time), valid ctxdma
 *    handles for CHANNEL_ALLOC, small counts.  Arrays behind pointers are
 *    exactly as long as their counts say (so ASan sees any access past
 *    them), NULL or wild (the interposer reaches them as the kernel does,
 *    glx/user.c: -EFAULT);
 *  - an ioctl number of DRM's type with any number and size, its struct
 *    now and then at a wild address;
 *  - mmap of a buffer's offset (gem_mmap), with any offset and length;
 *  - words written into a buffer through such a mapping: command streams
 *    for GEM_PUSHBUF, grammar-aware (hw/pushbuf.h) around the fence and
 *    query methods the interposer itself decodes when a channel is lost;
 *  - a read() of the primary node's events (glx/event.c) into a buffer of
 *    any length.
 * CPU_PREP always carries NOWAIT and a blocking WAIT_VBLANK waits two
 * vblanks at most: a wait may otherwise outlast -timeout.
 *
 * Oracles, besides the sanitizers: once the files are closed, nvd (asked
 * through the protocol, as tests/lib's leak check does) holds nothing for
 * them and the process has the fds it had before the input. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <drm_mode.h>
#include <nouveau_drm.h>

#include "glx/shim.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "hw/ramin.h"
#include "tests/fuzz/fuzz-daemon.h"

#define MAX_OPS     32
#define MAX_ARRAY   8             /* counts of the arrays a program passes, most of the time */
#define WILD_PTR    0xffff800000001000ull   /* kernel space: never mapped */
#define IDLE_SECS   5

#define NVIOC(cmd, type) DRM_IOWR(DRM_COMMAND_BASE + DRM_NOUVEAU_##cmd, type)

struct ctx {
	struct fuzz_input in;
	struct drm_file *f[2];
	uint32_t handles[32], names[8], fbs[8], magic;
	unsigned nhandles, nnames, nfbs;
	int fds[16];                  /* PRIME exports the program holds */
	unsigned nfds;
	void *mem[16];                /* the current operation's arrays */
	unsigned nmem;
};

static struct nvc *monitor;

static void remember(uint32_t *list, unsigned *n, unsigned cap, uint32_t v)
{
	if (*n < cap)
		list[(*n)++] = v;
	else
		list[v % cap] = v;
}

static uint32_t pick(struct ctx *c, const uint32_t *list, unsigned n)
{
	uint8_t b = fuzz_u8(&c->in);
	if (n && b < 0xc0)
		return list[b % n];
	return b < 0xe0 ? b & 0x1f : fuzz_u32(&c->in);
}

static uint32_t pick_handle(struct ctx *c) { return pick(c, c->handles, c->nhandles); }

static uint32_t pick_chan(struct ctx *c)
{
	uint8_t b = fuzz_u8(&c->in);
	return b < 0xf0 ? b % (FILE_CHANS + 2) : fuzz_u32(&c->in);
}

static uint32_t pick_count(struct ctx *c, uint32_t max)
{
	uint8_t b = fuzz_u8(&c->in);
	return b < 0xf0 ? b % (max + 1) : fuzz_u32(&c->in);
}

static void *alloc(struct ctx *c, size_t size)
{
	void *p = c->nmem < 16 ? calloc(1, size ? size : 1) : NULL;
	if (p)
		c->mem[c->nmem++] = p;
	return p;
}

/* A user pointer for count elements: right-sized memory, NULL or wild. */
static uint64_t user_ptr(struct ctx *c, uint32_t count, size_t elem)
{
	uint8_t b = fuzz_u8(&c->in);
	if (b >= 0xf0)
		return WILD_PTR + 8 * (b & 0xf);
	if (b >= 0xe0 || (uint64_t)count * elem > (1u << 20))
		return 0;
	return (uintptr_t)alloc(c, (size_t)count * elem);
}

static void fill_raw(struct ctx *c, void *arg, size_t size)
{
	for (size_t i = 0; i < size; i++)
		((uint8_t *)arg)[i] = fuzz_u8(&c->in);
}

/* ---- the known ioctls: fix-ups after the raw fill, and what comes back ---- */

static void fix_version(struct ctx *c, void *a)
{
	struct drm_version *v = a;
	v->name_len = pick_count(c, 16) % 64;
	v->date_len = pick_count(c, 16) % 64;
	v->desc_len = pick_count(c, 64) % 128;
	v->name = (void *)(uintptr_t)user_ptr(c, (uint32_t)v->name_len, 1);
	v->date = (void *)(uintptr_t)user_ptr(c, (uint32_t)v->date_len, 1);
	v->desc = (void *)(uintptr_t)user_ptr(c, (uint32_t)v->desc_len, 1);
}

static void fix_handle32(struct ctx *c, void *a) { *(uint32_t *)a = pick_handle(c); }

static void fix_auth(struct ctx *c, void *a)
{
	((struct drm_auth *)a)->magic = fuzz_u8(&c->in) < 0xc0 ? c->magic : fuzz_u32(&c->in);
}

static void fix_gem_open(struct ctx *c, void *a)
{
	((struct drm_gem_open *)a)->name = pick(c, c->names, c->nnames);
}

static void fix_prime_export(struct ctx *c, void *a)
{
	struct drm_prime_handle *p = a;
	p->handle = pick_handle(c);
	if (fuzz_u8(&c->in) < 0xe0)
		p->flags &= DRM_CLOEXEC | DRM_RDWR;
}

static void fix_prime_import(struct ctx *c, void *a)
{
	struct drm_prime_handle *p = a;
	uint8_t b = fuzz_u8(&c->in);
	p->fd = c->nfds && b < 0xc0 ? c->fds[b % c->nfds] : b < 0xe0 ? -1 : 1000000 + b;
}

static void fix_chan_alloc(struct ctx *c, void *a)
{
	struct drm_nouveau_channel_alloc *ch = a;
	if (fuzz_u8(&c->in) < 0xf0) {
		ch->fb_ctxdma_handle = 0xbeef0201;   /* what Mesa asks for */
		ch->tt_ctxdma_handle = 0xbeef0202;
	}
}

static void fix_chan(struct ctx *c, void *a) { *(uint32_t *)a = pick_chan(c); }

static void fix_grobj(struct ctx *c, void *a)
{
	static const int classes[] = { 0x30, 0x39, 0x43, 0x44, 0x4a, 0x62, 0x72, 0x8a, 0x9f,
				       0x3089, 0x309e, 0x4097, 0x4497, 0x6e, 0x19, 0x12, 0x3d };
	struct drm_nouveau_grobj_alloc *g = a;
	g->channel = (int)pick_chan(c);
	uint8_t b = fuzz_u8(&c->in);
	if (b < 0xf0)
		g->class = classes[b % (sizeof(classes) / sizeof(classes[0]))];
}

static void fix_notifier(struct ctx *c, void *a)
{
	struct drm_nouveau_notifierobj_alloc *n = a;
	n->channel = pick_chan(c);
	if (fuzz_u8(&c->in) < 0xe0)
		n->size = 32u * (1 + fuzz_u8(&c->in) % 8);
}

static void fix_gpuobj_free(struct ctx *c, void *a)
{
	((struct drm_nouveau_gpuobj_free *)a)->channel = (int)pick_chan(c);
}

static void fix_gem_new(struct ctx *c, void *a)
{
	struct drm_nouveau_gem_new *g = a;
	uint8_t b = fuzz_u8(&c->in);
	if (b < 0xf0)
		g->info.size = b < 0xe0 ? 4096u * (1 + fuzz_u8(&c->in) % 64) : fuzz_u16(&c->in);
}

static void fix_cpu_prep(struct ctx *c, void *a)
{
	struct drm_nouveau_gem_cpu_prep *p = a;
	p->handle = pick_handle(c);
	p->flags |= NOUVEAU_GEM_CPU_PREP_NOWAIT;
}

/* An array of count elements, or (when the count is over the kernel's
 * limit, which the interposer must check first) of one. */
static void *array(struct ctx *c, uint32_t count, uint32_t max, size_t elem)
{
	return alloc(c, (count <= max ? count : 1) * elem);
}

static void fix_pushbuf(struct ctx *c, void *a)
{
	struct drm_nouveau_gem_pushbuf *p = a;
	p->channel = pick_chan(c);
	p->nr_buffers = pick_count(c, 4);
	p->nr_push = pick_count(c, 4);
	p->nr_relocs = pick_count(c, 4);
	struct drm_nouveau_gem_pushbuf_bo *b =
		array(c, p->nr_buffers, NOUVEAU_GEM_MAX_BUFFERS, sizeof(*b));
	struct drm_nouveau_gem_pushbuf_push *q = array(c, p->nr_push, NOUVEAU_GEM_MAX_PUSH, sizeof(*q));
	struct drm_nouveau_gem_pushbuf_reloc *r =
		array(c, p->nr_relocs, NOUVEAU_GEM_MAX_RELOCS, sizeof(*r));
	if (!b || !q || !r)
		return;
	uint32_t nb = p->nr_buffers <= NOUVEAU_GEM_MAX_BUFFERS ? p->nr_buffers : 1;
	uint32_t np = p->nr_push <= NOUVEAU_GEM_MAX_PUSH ? p->nr_push : 1;
	uint32_t nr = p->nr_relocs <= NOUVEAU_GEM_MAX_RELOCS ? p->nr_relocs : 1;
	for (uint32_t i = 0; i < nb; i++) {
		b[i].handle = pick_handle(c);
		uint8_t d = fuzz_u8(&c->in);
		b[i].read_domains = d & 6;
		b[i].write_domains = d >> 3 & 6;
		b[i].valid_domains = d >> 5 & 7;
	}
	for (uint32_t i = 0; i < np; i++) {
		uint8_t k = fuzz_u8(&c->in);
		q[i].bo_index = k < 0xf0 ? k % (nb + 1) : fuzz_u32(&c->in);
		q[i].offset = k & 1 ? fuzz_u64(&c->in) : 4u * fuzz_u8(&c->in);
		q[i].length = k & 2 ? fuzz_u64(&c->in) : 4u * fuzz_u8(&c->in);
	}
	for (uint32_t i = 0; i < nr; i++) {
		uint8_t k = fuzz_u8(&c->in);
		r[i].reloc_bo_index = k < 0xf0 ? k % (nb + 1) : fuzz_u32(&c->in);
		r[i].bo_index = fuzz_u8(&c->in) % (nb + 1);
		r[i].reloc_bo_offset = 4u * fuzz_u8(&c->in);
		r[i].flags = fuzz_u8(&c->in);
		r[i].data = fuzz_u32(&c->in);
		r[i].vor = fuzz_u32(&c->in);
		r[i].tor = fuzz_u32(&c->in);
	}
	/* now and then one of them wild: -EFAULT */
	uint8_t w = fuzz_u8(&c->in);
	p->buffers = w == 0xfd ? WILD_PTR : (uintptr_t)b;
	p->push = w == 0xfe ? WILD_PTR : (uintptr_t)q;
	p->relocs = w == 0xff ? WILD_PTR : (uintptr_t)r;
}

static void fix_card_res(struct ctx *c, void *a)
{
	struct drm_mode_card_res *r = a;
	r->count_fbs = pick_count(c, MAX_ARRAY);
	r->count_crtcs = pick_count(c, MAX_ARRAY);
	r->count_connectors = pick_count(c, MAX_ARRAY);
	r->count_encoders = pick_count(c, MAX_ARRAY);
	r->fb_id_ptr = user_ptr(c, r->count_fbs, 4);
	r->crtc_id_ptr = user_ptr(c, r->count_crtcs, 4);
	r->connector_id_ptr = user_ptr(c, r->count_connectors, 4);
	r->encoder_id_ptr = user_ptr(c, r->count_encoders, 4);
}

static uint32_t pick_kms_id(struct ctx *c)
{
	uint8_t b = fuzz_u8(&c->in);
	if (b < 0x80)
		return b % 8;                     /* crtcs 1-2, encoders 3-4, connectors 5-6 */
	if (b < 0xc0 && c->nfbs)
		return c->fbs[b % c->nfbs];
	return b < 0xe0 ? 0x7fff0000u + (b & 0x1f) * 0x80 : fuzz_u32(&c->in);
}

/* A mode the monitors list most of the time (1024x768@60, DMT). */
static void pick_mode(struct ctx *c, struct drm_mode_modeinfo *m)
{
	if (fuzz_u8(&c->in) < 0xc0)
		*m = (struct drm_mode_modeinfo){ .clock = 65000, .hdisplay = 1024, .hsync_start = 1048,
			.hsync_end = 1184, .htotal = 1344, .vdisplay = 768, .vsync_start = 771,
			.vsync_end = 777, .vtotal = 806, .vrefresh = 60,
			.flags = DRM_MODE_FLAG_NHSYNC | DRM_MODE_FLAG_NVSYNC };
}

static void fix_crtc(struct ctx *c, void *a)
{
	struct drm_mode_crtc *r = a;
	r->crtc_id = pick_kms_id(c);
	r->fb_id = fuzz_u8(&c->in) < 0xe0 ? pick(c, c->fbs, c->nfbs) : UINT32_MAX;
	if (fuzz_u8(&c->in) < 0xe0)
		r->x = r->y = 0;
	pick_mode(c, &r->mode);
	r->count_connectors = pick_count(c, 3);
	uint32_t n = r->count_connectors <= 3 ? r->count_connectors : 1;
	uint32_t *ids = alloc(c, 4 * n);
	for (uint32_t i = 0; ids && i < n; i++)
		ids[i] = pick_kms_id(c);
	r->set_connectors_ptr = fuzz_u8(&c->in) < 0xf0 ? (uintptr_t)ids : WILD_PTR;
}

static void fix_encoder(struct ctx *c, void *a)
{
	((struct drm_mode_get_encoder *)a)->encoder_id = pick_kms_id(c);
}

static void fix_connector(struct ctx *c, void *a)
{
	struct drm_mode_get_connector *r = a;
	r->connector_id = pick_kms_id(c);
	r->count_modes = pick_count(c, 16);
	r->count_props = pick_count(c, 2);
	r->count_encoders = pick_count(c, 2);
	r->modes_ptr = user_ptr(c, r->count_modes, sizeof(struct drm_mode_modeinfo));
	r->props_ptr = user_ptr(c, r->count_props, 4);
	r->prop_values_ptr = user_ptr(c, r->count_props, 8);
	r->encoders_ptr = user_ptr(c, r->count_encoders, 4);
}

static void fix_property(struct ctx *c, void *a)
{
	((struct drm_mode_get_property *)a)->prop_id = pick_kms_id(c);
}

static void fix_blob(struct ctx *c, void *a)
{
	struct drm_mode_get_blob *b = a;
	b->blob_id = 0x7fff0100u + fuzz_u8(&c->in) % 4;
	b->length = fuzz_u8(&c->in) < 0xc0 ? 128 : pick_count(c, 256);
	b->data = user_ptr(c, b->length, 1);
}

static void fix_fb_cmd(struct ctx *c, void *a)
{
	struct drm_mode_fb_cmd *f = a;
	f->fb_id = pick_kms_id(c);
	f->handle = pick_handle(c);
	if (fuzz_u8(&c->in) < 0xc0) {
		f->width = 16u * (1 + fuzz_u8(&c->in) % 64);
		f->height = 16u * (1 + fuzz_u8(&c->in) % 64);
		f->bpp = 32;
		f->depth = 24;
		f->pitch = 4 * f->width;
	}
}

static void fix_fb_cmd2(struct ctx *c, void *a)
{
	struct drm_mode_fb_cmd2 *f = a;
	f->handles[0] = pick_handle(c);
	if (fuzz_u8(&c->in) < 0xc0) {
		f->width = 16u * (1 + fuzz_u8(&c->in) % 64);
		f->height = 16u * (1 + fuzz_u8(&c->in) % 64);
		f->pixel_format = NVC_FB_XRGB8888;
		f->pitches[0] = 4 * f->width;
		f->offsets[0] = 0;
		f->flags = 0;
	}
}

static void fix_fb_id(struct ctx *c, void *a) { *(uint32_t *)a = pick_kms_id(c); }

static void fix_page_flip(struct ctx *c, void *a)
{
	struct drm_mode_crtc_page_flip *p = a;
	p->crtc_id = pick_kms_id(c);
	p->fb_id = pick_kms_id(c);
}

/* A blocking wait is for a vblank or two (a head is at 60 Hz or more);
 * any other request is as the input says. */
static void fix_wait_vblank(struct ctx *c, void *a)
{
	union drm_wait_vblank *v = a;
	(void)c;
	if (!(v->request.type & _DRM_VBLANK_EVENT)) {
		v->request.type |= _DRM_VBLANK_RELATIVE;
		v->request.sequence %= 3;
	}
}

static void fix_crtc_sequence(struct ctx *c, void *a) { *(uint32_t *)a = pick_kms_id(c); }

static void fix_dumb(struct ctx *c, void *a)
{
	struct drm_mode_create_dumb *d = a;
	if (fuzz_u8(&c->in) < 0xc0) {
		d->width = 1 + fuzz_u8(&c->in) * 4u;
		d->height = 1 + fuzz_u8(&c->in) * 4u;
		d->bpp = 32;
		d->flags = 0;
	}
}

static void fix_obj_props(struct ctx *c, void *a)
{
	struct drm_mode_obj_get_properties *p = a;
	p->obj_id = pick_kms_id(c);
	p->count_props = pick_count(c, 2);
	p->props_ptr = user_ptr(c, p->count_props, 4);
	p->prop_values_ptr = user_ptr(c, p->count_props, 8);
}

/* What a successful request gave back that later ones may name. */
static void got_handle(struct ctx *c, uint32_t h) { remember(c->handles, &c->nhandles, 32, h); }

static void done_gem_new(struct ctx *c, void *a) { got_handle(c, ((struct drm_nouveau_gem_new *)a)->info.handle); }
static void done_chan_alloc(struct ctx *c, void *a) { got_handle(c, ((struct drm_nouveau_channel_alloc *)a)->notifier_handle); }
static void done_gem_open(struct ctx *c, void *a) { got_handle(c, ((struct drm_gem_open *)a)->handle); }
static void done_prime_import(struct ctx *c, void *a) { got_handle(c, ((struct drm_prime_handle *)a)->handle); }
static void done_dumb(struct ctx *c, void *a) { got_handle(c, ((struct drm_mode_create_dumb *)a)->handle); }
static void done_flink(struct ctx *c, void *a) { remember(c->names, &c->nnames, 8, ((struct drm_gem_flink *)a)->name); }
static void done_magic(struct ctx *c, void *a) { c->magic = ((struct drm_auth *)a)->magic; }
static void done_addfb(struct ctx *c, void *a) { remember(c->fbs, &c->nfbs, 8, ((struct drm_mode_fb_cmd *)a)->fb_id); }
static void done_addfb2(struct ctx *c, void *a) { remember(c->fbs, &c->nfbs, 8, ((struct drm_mode_fb_cmd2 *)a)->fb_id); }

static void done_prime_export(struct ctx *c, void *a)
{
	int fd = ((struct drm_prime_handle *)a)->fd;
	if (c->nfds < 16)
		c->fds[c->nfds++] = fd;
	else
		close(fd);
}

/* The order is part of the input format (tests/fuzz/gen-seeds.c names
 * these indexes): add at the end. */
static const struct op {
	unsigned long req;
	void (*fix)(struct ctx *c, void *arg);
	void (*done)(struct ctx *c, void *arg);
} ops[] = {
	{ DRM_IOCTL_VERSION, fix_version, NULL },
	{ DRM_IOCTL_GET_MAGIC, NULL, done_magic },
	{ DRM_IOCTL_AUTH_MAGIC, fix_auth, NULL },
	{ DRM_IOCTL_SET_MASTER, NULL, NULL },
	{ DRM_IOCTL_DROP_MASTER, NULL, NULL },
	{ DRM_IOCTL_GET_CAP, NULL, NULL },
	{ DRM_IOCTL_SET_CLIENT_CAP, NULL, NULL },
	{ DRM_IOCTL_GEM_CLOSE, fix_handle32, NULL },
	{ DRM_IOCTL_GEM_FLINK, fix_handle32, done_flink },
	{ DRM_IOCTL_GEM_OPEN, fix_gem_open, done_gem_open },
	{ DRM_IOCTL_PRIME_HANDLE_TO_FD, fix_prime_export, done_prime_export },
	{ DRM_IOCTL_PRIME_FD_TO_HANDLE, fix_prime_import, done_prime_import },
	{ NVIOC(GETPARAM, struct drm_nouveau_getparam), NULL, NULL },
	{ NVIOC(CHANNEL_ALLOC, struct drm_nouveau_channel_alloc), fix_chan_alloc, done_chan_alloc },
	{ NVIOC(CHANNEL_FREE, struct drm_nouveau_channel_free), fix_chan, NULL },
	{ NVIOC(GROBJ_ALLOC, struct drm_nouveau_grobj_alloc), fix_grobj, NULL },
	{ NVIOC(NOTIFIEROBJ_ALLOC, struct drm_nouveau_notifierobj_alloc), fix_notifier, NULL },
	{ NVIOC(GPUOBJ_FREE, struct drm_nouveau_gpuobj_free), fix_gpuobj_free, NULL },
	{ NVIOC(GEM_NEW, struct drm_nouveau_gem_new), fix_gem_new, done_gem_new },
	{ NVIOC(GEM_PUSHBUF, struct drm_nouveau_gem_pushbuf), fix_pushbuf, NULL },
	{ NVIOC(GEM_CPU_PREP, struct drm_nouveau_gem_cpu_prep), fix_cpu_prep, NULL },
	{ NVIOC(GEM_CPU_FINI, struct drm_nouveau_gem_cpu_fini), fix_handle32, NULL },
	{ NVIOC(GEM_INFO, struct drm_nouveau_gem_info), fix_handle32, NULL },
	{ DRM_IOCTL_MODE_GETRESOURCES, fix_card_res, NULL },
	{ DRM_IOCTL_MODE_GETCRTC, fix_crtc, NULL },
	{ DRM_IOCTL_MODE_SETCRTC, fix_crtc, NULL },
	{ DRM_IOCTL_MODE_GETENCODER, fix_encoder, NULL },
	{ DRM_IOCTL_MODE_GETCONNECTOR, fix_connector, NULL },
	{ DRM_IOCTL_MODE_GETPROPERTY, fix_property, NULL },
	{ DRM_IOCTL_MODE_GETPROPBLOB, fix_blob, NULL },
	{ DRM_IOCTL_MODE_GETFB, fix_fb_cmd, NULL },
	{ DRM_IOCTL_MODE_ADDFB, fix_fb_cmd, done_addfb },
	{ DRM_IOCTL_MODE_RMFB, fix_fb_id, NULL },
	{ DRM_IOCTL_MODE_PAGE_FLIP, fix_page_flip, NULL },
	{ DRM_IOCTL_MODE_CREATE_DUMB, fix_dumb, done_dumb },
	{ DRM_IOCTL_MODE_MAP_DUMB, fix_handle32, NULL },
	{ DRM_IOCTL_MODE_DESTROY_DUMB, fix_handle32, NULL },
	{ DRM_IOCTL_MODE_GETPLANERESOURCES, NULL, NULL },
	{ DRM_IOCTL_MODE_GETPLANE, NULL, NULL },
	{ DRM_IOCTL_MODE_ADDFB2, fix_fb_cmd2, done_addfb2 },
	{ DRM_IOCTL_MODE_OBJ_GETPROPERTIES, fix_obj_props, NULL },
	{ DRM_IOCTL_WAIT_VBLANK, fix_wait_vblank, NULL },
	{ DRM_IOCTL_CRTC_GET_SEQUENCE, fix_crtc_sequence, NULL },
	{ DRM_IOCTL_CRTC_QUEUE_SEQUENCE, fix_crtc_sequence, NULL },
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

/* ---- operations ---- */

static struct drm_file *file(struct ctx *c, unsigned i)
{
	if (!c->f[i]) {
		int r = file_open(i ? NODE_RENDER : NODE_PRIMARY, &c->f[i]);
		if (r < 0)
			fuzz_finding("cannot open a DRM file on nvd: %s", strerror(-r));
		c->f[i]->refs = 1;    /* the program's fd, as open_node binds it */
	}
	return c->f[i];
}

static void do_ioctl(struct ctx *c, struct drm_file *f, const struct op *o)
{
	size_t size = _IOC_SIZE(o->req);
	void *arg = size ? alloc(c, size) : NULL;
	if (size && !arg)
		return;
	fill_raw(c, arg, size);
	if (o->fix)
		o->fix(c, arg);
	if (shim_ioctl(f, o->req, arg) == 0 && o->done)
		o->done(c, arg);
}

/* Any request number and size of DRM's type, with any bytes. */
static void do_raw_ioctl(struct ctx *c, struct drm_file *f)
{
	unsigned nr = fuzz_u8(&c->in), size = fuzz_u8(&c->in);
	unsigned long req = _IOC(fuzz_u8(&c->in) % 4ul, DRM_IOCTL_BASE, nr, size);
	void *arg = alloc(c, size);
	if (!arg)
		return;
	fill_raw(c, arg, size);
	shim_ioctl(f, req, fuzz_u8(&c->in) < 0xf0 ? arg : (void *)(uintptr_t)WILD_PTR);
}

static uint64_t gem_size(struct drm_file *f, uint32_t handle)
{
	struct drm_nouveau_gem_info i = { .handle = handle };
	return shim_ioctl(f, NVIOC(GEM_INFO, struct drm_nouveau_gem_info), &i) ? 0 : i.size;
}

static void do_mmap(struct ctx *c, struct drm_file *f)
{
	uint32_t h = pick_handle(c);
	uint8_t b = fuzz_u8(&c->in);
	uint64_t in = b & 1 ? fuzz_u32(&c->in) : 4096u * (fuzz_u8(&c->in) % 4);
	size_t len = b & 2 ? fuzz_u64(&c->in) : 4096u * (1 + fuzz_u8(&c->in) % 4);
	uint64_t off = b & 4 ? fuzz_u64(&c->in) : (uint64_t)h << 32 | in;
	void *p = gem_mmap(f, NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, (off_t)off);
	if (p == MAP_FAILED)
		return;
	uint64_t size = gem_size(f, (uint32_t)(off >> 32));
	if ((off & 0xffffffffu) > size || len > size - (off & 0xffffffffu))
		fuzz_finding("mmap of %zu bytes at 0x%llx of a %llu-byte buffer succeeded", len,
			     (unsigned long long)(off & 0xffffffffu), (unsigned long long)size);
	((volatile uint8_t *)p)[len - 1] = ((volatile uint8_t *)p)[0];
	munmap(p, len);
}

/* Command words into a buffer, the way a program fills its push buffer:
 * the fence and query methods on subchannel 7 (Mesa's 3D one) the
 * interposer decodes itself when a channel is lost, other methods, raw
 * words. */
static void do_write(struct ctx *c, struct drm_file *f)
{
	static const uint32_t mthds[] = { 0x1d6c, 0x1d70, 0x1800, 0x0100, 0x0000 };
	uint32_t h = pick_handle(c);
	uint64_t size = gem_size(f, h);
	if (!size || size > (64u << 20))
		return;
	uint8_t *p = gem_mmap(f, NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, (off_t)((uint64_t)h << 32));
	if (p == MAP_FAILED)
		return;
	uint64_t at = 4u * (fuzz_u8(&c->in) % 64);
	unsigned n = 1 + fuzz_u8(&c->in) % 32;
	for (unsigned i = 0; i < n && at + 4 <= size; i++, at += 4) {
		uint8_t k = fuzz_u8(&c->in);
		uint32_t w;
		if (k < 0x80)
			w = NV_CMD_INC_WORD(k & 0x40 ? 7 : k & 7, mthds[k % 5], 1 + (k >> 3) % 3);
		else if (k < 0xa0)
			w = NV_CMD_NONINC_WORD(7, mthds[k % 5], 1 + (k >> 3) % 3);
		else if (k < 0xb0)
			w = NV_CMD_JUMP_WORD(4u * fuzz_u8(&c->in));
		else
			w = fuzz_u32(&c->in);
		nv_wr32le(p + at, w);
	}
	munmap(p, size);
}

/* The primary node's events as read() turns them into records, into a
 * buffer of any length (or a wild one); nvd's socket never blocks. */
static void do_read(struct ctx *c, struct drm_file *f)
{
	size_t len = fuzz_u8(&c->in);
	void *buf = alloc(c, len);
	if (f->node != NODE_PRIMARY || (len && !buf))
		return;
	int fd = nvc_disp_event_fd(f->c);
	if (fd >= 0)
		event_read(f, fd, fuzz_u8(&c->in) < 0xf0 ? buf : (void *)(uintptr_t)WILD_PTR, len);
}

static void close_file(struct ctx *c, unsigned i)
{
	if (c->f[i])
		file_put(c->f[i]);
	c->f[i] = NULL;
}

/* nvd holds nothing for the program and the process has its fds back. */
static void check_idle(int fds)
{
	struct nvc_status st = { 0 };
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int r = nvc_status(monitor, &st);
		if (r < 0)
			fuzz_finding("nvd does not answer: %s", nvc_error());
		int now = fuzz_fds();
		if (st.clients == 1 && !st.bos && !st.channels_used && !st.vram_client &&
		    !st.gart_client && now == fds)
			return;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= IDLE_SECS)
			fuzz_finding("%d s after the files closed nvd counts clients=%u bos=%u "
				     "channels=%u vram=%llu gart=%llu (expected 1 0 0 0 0), %d fds "
				     "(%d before)", IDLE_SECS, st.clients, st.bos, st.channels_used,
				     (unsigned long long)st.vram_client,
				     (unsigned long long)st.gart_client, now, fds);
		usleep(500);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_report_init();
	fuzz_daemon_start();
	fuzz_daemon_thread();
	shim_init();
	if (nvc_connect(fuzz_daemon_socket(), "fuzz-monitor", &monitor) < 0) {
		fprintf(stderr, "fuzz: cannot connect to nvd: %s\n", nvc_error());
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctx c = { .in = { data, size } };
	int fds = fuzz_fds();

	for (unsigned n = 0; n < MAX_OPS && c.in.n; n++) {
		uint8_t op = fuzz_u8(&c.in);
		unsigned which = op >> 7, k = op & 0x7f;
		if (k >= 0x7e) {
			close_file(&c, which);
			continue;
		}
		struct drm_file *f = file(&c, which);
		if (k < NOPS)
			do_ioctl(&c, f, &ops[k]);
		else if (k < 0x60)
			do_ioctl(&c, f, &ops[k % NOPS]);
		else if (k < 0x68)
			do_raw_ioctl(&c, f);
		else if (k < 0x70)
			do_mmap(&c, f);
		else if (k < 0x7c)
			do_write(&c, f);
		else
			do_read(&c, f);
		for (unsigned i = 0; i < c.nmem; i++)
			free(c.mem[i]);
		c.nmem = 0;
	}
	close_file(&c, 0);
	close_file(&c, 1);
	for (unsigned i = 0; i < c.nfds; i++)
		close(c.fds[i]);
	check_idle(fds);
	return 0;
}
