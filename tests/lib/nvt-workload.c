/* The 2D workload every integration and hostile test leans on, and the
 * "honest client" that runs it in a child process beside an attacker.
 * Deterministic for a seed: the same seed gives the same bytes, whatever
 * else the card is doing. */
#include "tests/lib/nvt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { WL_V0, WL_V1, WL_V2, WL_V3, WL_G0, WL_NBUFS };
static const struct { uint32_t size; unsigned domain; const char *name; } wl_bufdesc[WL_NBUFS] = {
	[WL_V0] = { 128 << 10, NVC_VRAM, "VRAM buffer 0 (32-bit surfaces)" },
	[WL_V1] = { 128 << 10, NVC_VRAM, "VRAM buffer 1 (16-bit surfaces)" },
	[WL_V2] = { 64 << 10, NVC_VRAM, "VRAM buffer 2 (8-bit surface)" },
	[WL_V3] = { 64 << 10, NVC_VRAM, "VRAM buffer 3 (swizzled textures)" },
	[WL_G0] = { 256 << 10, NVC_GART, "GART buffer (linear sources, M2MF area)" },
};
#define WL_G0_M2MF_FROM (64u << 10)   /* G0 below this holds the SIFM sources */

struct wl {
	struct nvt_buf b[WL_NBUFS];
	struct nvt_surf s32, s32b, s16, s15, s8, l32, l16, l8;
	struct nvt_swz t32, t16, t8;
	uint32_t rng;
};

static void wl_layout(struct wl *x)
{
	x->s32 = (struct nvt_surf){ &x->b[WL_V0], 0, 576, 128, 96, NV_SURF_FORMAT_A8R8G8B8, 4 };
	x->s32b = (struct nvt_surf){ &x->b[WL_V0], 65536, 256, 64, 64, NV_SURF_FORMAT_A8R8G8B8, 4 };
	x->s16 = (struct nvt_surf){ &x->b[WL_V1], 0, 384, 160, 100, NV_SURF_FORMAT_R5G6B5, 2 };
	x->s15 = (struct nvt_surf){ &x->b[WL_V1], 65536, 256, 96, 64,
				    NV_SURF_FORMAT_X1R5G5B5_Z1R5G5B5, 2 };
	x->s8 = (struct nvt_surf){ &x->b[WL_V2], 0, 256, 200, 80, NV_SURF_FORMAT_Y8, 1 };
	x->l32 = (struct nvt_surf){ &x->b[WL_G0], 0, 256, 64, 32, NV_SURF_FORMAT_A8R8G8B8, 4 };
	x->l16 = (struct nvt_surf){ &x->b[WL_G0], 16384, 64, 32, 64, NV_SURF_FORMAT_R5G6B5, 2 };
	x->l8 = (struct nvt_surf){ &x->b[WL_G0], 32768, 64, 16, 16, NV_SURF_FORMAT_Y8, 1 };
	x->t32 = (struct nvt_swz){ &x->b[WL_V3], 0, 6, 5, NV_SURF_FORMAT_A8R8G8B8, 4 };
	x->t16 = (struct nvt_swz){ &x->b[WL_V3], 8192, 5, 6, NV_SURF_FORMAT_R5G6B5, 2 };
	x->t8 = (struct nvt_swz){ &x->b[WL_V3], 12288, 4, 4, NV_SURF_FORMAT_Y8, 1 };
}

static void wl_rect(uint32_t *rng, uint32_t sw, uint32_t sh, uint32_t maxw, uint32_t maxh,
		    uint32_t *x, uint32_t *y, uint32_t *w, uint32_t *h)
{
	*w = nvt_range(rng, 1, maxw < sw ? maxw : sw);
	*h = nvt_range(rng, 1, maxh < sh ? maxh : sh);
	*x = nvt_range(rng, 0, sw - *w);
	*y = nvt_range(rng, 0, sh - *h);
}

static void wl_m2mf(struct nvt_push *p, struct wl *x)
{
	static const uint8_t pairs[][2] = {
		{ WL_G0, WL_V0 }, { WL_G0, WL_V1 }, { WL_G0, WL_V2 }, { WL_V0, WL_G0 },
		{ WL_V1, WL_G0 }, { WL_V2, WL_G0 }, { WL_V0, WL_V1 }, { WL_V1, WL_V2 },
		{ WL_V2, WL_V0 }, { WL_V3, WL_G0 },
	};
	unsigned k = nvt_range(&x->rng, 0, sizeof(pairs) / sizeof(pairs[0]) - 1);
	struct nvt_buf *src = &x->b[pairs[k][0]], *dst = &x->b[pairs[k][1]];
	uint32_t len = nvt_range(&x->rng, 1, 256), lines = nvt_range(&x->rng, 1, 32);
	uint32_t spitch = nvt_range(&x->rng, 0, 3) ? len + nvt_range(&x->rng, 0, 200) : len;
	uint32_t dpitch = nvt_range(&x->rng, 0, 3) ? len + nvt_range(&x->rng, 0, 300) : len;
	uint32_t sext = (lines - 1) * spitch + len, dext = (lines - 1) * dpitch + len;
	uint32_t dlo = dst == &x->b[WL_G0] ? WL_G0_M2MF_FROM : 0;
	uint32_t soff = nvt_range(&x->rng, 0, (uint32_t)src->size - sext);
	uint32_t doff = nvt_range(&x->rng, dlo, (uint32_t)dst->size - dext);
	nvt_m2mf(p, src, soff, (int32_t)spitch, dst, doff, (int32_t)dpitch, len, lines);
}

static void wl_fill(struct nvt_push *p, struct wl *x)
{
	struct nvt_surf s;
	unsigned cf;
	switch (nvt_range(&x->rng, 0, 3)) {
	case 0:   /* nouveau fills 32-bit pixmaps as Y32 with an A8R8G8B8 colour */
		s = x->s32;
		s.fmt = NV_SURF_FORMAT_Y32;
		cf = NV_GDI_COLOR_FORMAT_A8R8G8B8;
		break;
	case 1:
		s = x->s16;
		cf = NV_GDI_COLOR_FORMAT_A16R5G6B5;
		break;
	case 2:
		s = x->s15;
		cf = NV_GDI_COLOR_FORMAT_X16A1R5G5B5;
		break;
	default:
		s = x->s8;
		cf = NV_GDI_COLOR_FORMAT_A8R8G8B8;
		break;
	}
	uint32_t rx, ry, rw, rh, color = nvt_rand(&x->rng);
	wl_rect(&x->rng, s.w, s.h, s.w, s.h, &rx, &ry, &rw, &rh);
	nvt_surf2d(p, &s, &s);
	nvt_fill(p, &s, cf, color, rx, ry, rw, rh);
}

static void wl_blit(struct nvt_push *p, struct wl *x)
{
	const struct nvt_surf *src, *dst;
	uint32_t sx, sy, w, h, dx, dy;
	unsigned k = nvt_range(&x->rng, 0, 4);

	if (k < 3) {
		/* within one surface, shifted by a few pixels: mostly overlapping */
		src = dst = k == 0 ? &x->s32 : k == 1 ? &x->s16 : &x->s8;
		wl_rect(&x->rng, src->w, src->h, src->w - 8, src->h - 8, &sx, &sy, &w, &h);
		int32_t ox = (int32_t)nvt_range(&x->rng, 0, 16) - 8;
		int32_t oy = (int32_t)nvt_range(&x->rng, 0, 16) - 8;
		int32_t tx = (int32_t)sx + ox, ty = (int32_t)sy + oy;
		if (tx < 0)
			tx = 0;
		if (ty < 0)
			ty = 0;
		if (tx + w > dst->w)
			tx = (int32_t)(dst->w - w);
		if (ty + h > dst->h)
			ty = (int32_t)(dst->h - h);
		dx = (uint32_t)tx;
		dy = (uint32_t)ty;
	} else {
		/* between two surfaces of one buffer, different pitches */
		src = k == 3 ? &x->s32b : &x->s32;
		dst = k == 3 ? &x->s32 : &x->s32b;
		wl_rect(&x->rng, src->w, src->h, dst->w, dst->h, &sx, &sy, &w, &h);
		dx = nvt_range(&x->rng, 0, dst->w - w);
		dy = nvt_range(&x->rng, 0, dst->h - h);
	}
	nvt_surf2d(p, src, dst);
	nvt_blit(p, src, dst, sx, sy, dx, dy, w, h);
}

static void wl_sifm(struct nvt_push *p, struct wl *x)
{
	const struct nvt_surf *src;
	const struct nvt_swz *dst;
	unsigned fmt;
	switch (nvt_range(&x->rng, 0, 2)) {
	case 0: src = &x->l32; dst = &x->t32; fmt = NV_SIFM_COLOR_FORMAT_A8R8G8B8; break;
	case 1: src = &x->l16; dst = &x->t16; fmt = NV_SIFM_COLOR_FORMAT_R5G6B5; break;
	default: src = &x->l8; dst = &x->t8; fmt = NV_SIFM_COLOR_FORMAT_AY8; break;
	}
	uint32_t dw = 1u << dst->lw, dh = 1u << dst->lh, sx, sy, w, h;
	/* Mostly whole-texture uploads (as Mesa's), sometimes a sub-rectangle. */
	if (nvt_range(&x->rng, 0, 2) == 0) {
		sx = sy = 0;
		w = src->w < dw ? src->w : dw;
		h = src->h < dh ? src->h : dh;
	} else {
		wl_rect(&x->rng, src->w, src->h, dw, dh, &sx, &sy, &w, &h);
	}
	uint32_t dx = nvt_range(&x->rng, 0, dw - w), dy = nvt_range(&x->rng, 0, dh - h);
	nvt_sifm_swz(p, src, fmt, sx, sy, dst, dx, dy, w, h);
}

static void wl_ifc(struct nvt_push *p, struct wl *x)
{
	const struct nvt_surf *s = nvt_range(&x->rng, 0, 1) ? &x->s32 : &x->s16;
	unsigned fmt = s->bpp == 4 ? NV_IFC_COLOR_FORMAT_A8R8G8B8 : NV_IFC_COLOR_FORMAT_R5G6B5;
	uint32_t rx, ry, rw, rh;
	uint8_t px[24 * 12 * 4];
	wl_rect(&x->rng, s->w, s->h, 24, 12, &rx, &ry, &rw, &rh);
	for (unsigned i = 0; i < rw * rh * s->bpp; i++)
		px[i] = (uint8_t)nvt_rand(&x->rng);
	nvt_surf2d(p, s, s);
	nvt_ifc(p, s, fmt, rx, ry, rw, rh, px);
}

static void wl_op(struct nvt_push *p, struct wl *x)
{
	unsigned k = nvt_range(&x->rng, 0, 9);
	if (k < 2)
		wl_m2mf(p, x);
	else if (k < 5)
		wl_fill(p, x);
	else if (k < 8)
		wl_blit(p, x);
	else if (k < 9)
		wl_sifm(p, x);
	else
		wl_ifc(p, x);
}

int nvt_workload_run(struct nvt_workload *w, void (*ready)(struct nvt_workload *w, void *arg),
		     void *arg)
{
	struct nvt_client t;
	struct wl *x = calloc(1, sizeof(*x));
	int ret = -1, r;

	w->result = NULL;
	w->result_len = 0;
	if (!x)
		return -1;
	if (nvt_client_open(&t, w->sock, w->name ? w->name : "nvt-workload") < 0) {
		free(x);
		return -1;
	}
	t.p.relocate = 1;   /* as Mesa: its buffers may move under memory pressure */
	for (unsigned i = 0; i < WL_NBUFS; i++)
		if (nvt_buf_new(t.c, wl_bufdesc[i].size, wl_bufdesc[i].domain, w->seed * 8 + i,
				&x->b[i]) < 0)
			goto out;
	wl_layout(x);
	x->rng = w->seed * 0x27d4eb2d + 12345;
	w->victim_addr = x->b[WL_V0].addr;
	w->victim_size = x->b[WL_V0].size;
	w->victim_domain = x->b[WL_V0].domain;
	if (ready)
		ready(w, arg);

	for (unsigned round = 0; round < w->rounds; round++) {
		for (unsigned i = 0; i < w->ops; i++)
			wl_op(&t.p, x);
		uint32_t fence;
		if ((r = nvt_submit(&t.p, &fence)) < 0) {
			fprintf(stderr, "nvt: %s: round %u: submit: %s\n", w->name, round, strerror(-r));
			goto out;
		}
		if (w->wait_every && (round + 1) % w->wait_every == 0 &&
		    (r = nvt_wait(&t.p, fence)) < 0) {
			fprintf(stderr, "nvt: %s: round %u: fence %u: %s\n", w->name, round, fence,
				nvc_error());
			goto out;
		}
	}
	if ((r = nvt_finish(&t.p)) < 0) {
		fprintf(stderr, "nvt: %s: final fence: %s\n", w->name, nvc_error());
		goto out;
	}
	ret = 0;
	for (unsigned i = 0; i < WL_NBUFS; i++) {
		char what[160];
		snprintf(what, sizeof(what), "%s (seed %u): %s", w->name ? w->name : "workload",
			 w->seed, wl_bufdesc[i].name);
		if (nvt_buf_check(&x->b[i], what) < 0)
			ret = -1;
		w->result_len += x->b[i].size;
	}
	w->result = malloc(w->result_len);
	if (!w->result) {
		ret = -1;
		goto out;
	}
	size_t at = 0;
	for (unsigned i = 0; i < WL_NBUFS; i++) {
		memcpy(w->result + at, x->b[i].map, x->b[i].size);
		at += x->b[i].size;
	}
	if (w->hold)
		w->hold(w, w->hold_arg);
out:
	for (unsigned i = 0; i < WL_NBUFS; i++)
		if (x->b[i].bo)
			nvt_buf_free(&x->b[i]);
	nvt_client_close(&t);
	free(x);
	return ret;
}

/* ---- the honest client ---- */

struct honest_child {
	struct nvt_honest *h;
	const char *sock;
	uint32_t seed;
};

struct honest_hello {
	uint64_t addr, size;
	uint32_t domain, ok;
};

static void honest_ready(struct nvt_workload *w, void *arg)
{
	struct nvt_honest *h = arg;
	struct honest_hello m = { w->victim_addr, w->victim_size, w->victim_domain, 1 };
	char go;
	if (write(h->from_child, &m, sizeof(m)) != (ssize_t)sizeof(m) ||
	    read(h->to_child, &go, 1) != 1)
		_exit(3);
}

/* Results to the file, then hold the buffers until the parent releases us. */
static void honest_hold(struct nvt_workload *w, void *arg)
{
	struct nvt_honest *h = arg;
	char rel;
	int fd = open(h->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		_exit(2);
	size_t at = 0;
	while (at < w->result_len) {
		ssize_t n = write(fd, w->result + at, w->result_len - at);
		if (n <= 0)
			_exit(2);
		at += (size_t)n;
	}
	close(fd);
	if (read(h->to_child, &rel, 1) != 1) {
		/* the parent went away: let go anyway */
	}
}

static int honest_main(void *arg)
{
	struct honest_child *hc = arg;
	struct nvt_workload w = { .sock = hc->sock, .name = "honest", .seed = hc->seed,
				  .rounds = 6, .ops = 40, .wait_every = 2,
				  .hold = honest_hold, .hold_arg = hc->h };
	if (nvt_workload_run(&w, honest_ready, hc->h) < 0) {
		struct honest_hello m = { 0, 0, 0, 0 };
		if (write(hc->h->from_child, &m, sizeof(m)) < 0) {
			/* the parent notices the exit status anyway */
		}
		return 1;
	}
	free(w.result);
	return 0;
}

int nvt_honest_start(struct nvt_honest *h, const struct nvt_daemon *d, uint32_t seed)
{
	int a[2], b[2];
	memset(h, 0, sizeof(*h));
	signal(SIGPIPE, SIG_IGN);   /* a child that died must not take us along */
	if (pipe2(a, O_CLOEXEC) < 0 || pipe2(b, O_CLOEXEC) < 0)
		return -errno;
	static unsigned serial;
	snprintf(h->out, sizeof(h->out), "%s/honest-%d-%u.bin", d->dir, (int)getpid(), ++serial);
	h->to_child = a[0];      /* the child reads "go" here */
	h->from_child = b[1];    /* and writes its hello here */
	struct honest_child hc = { h, d->sock, seed };
	pid_t pid = nvt_fork(honest_main, &hc);
	if (pid < 0)
		return (int)pid;
	close(a[0]);
	close(b[1]);
	h->pid = pid;
	h->to_child = a[1];
	h->from_child = b[0];

	struct pollfd pf = { h->from_child, POLLIN, 0 };
	struct honest_hello m;
	if (poll(&pf, 1, 10000) <= 0 || read(h->from_child, &m, sizeof(m)) != (ssize_t)sizeof(m) ||
	    !m.ok) {
		fprintf(stderr, "nvt: the honest client did not get ready\n");
		nvt_wait_child(h->pid, 1000);
		close(h->to_child);
		close(h->from_child);
		h->pid = 0;
		return -EIO;
	}
	h->victim_addr = m.addr;
	h->victim_size = m.size;
	h->victim_domain = m.domain;
	return 0;
}

int nvt_honest_go(struct nvt_honest *h)
{
	return write(h->to_child, "g", 1) == 1 ? 0 : -EIO;
}

int nvt_honest_finish(struct nvt_honest *h, uint8_t **bytes, size_t *len)
{
	*bytes = NULL;
	*len = 0;
	if (!h->pid)
		return -ECHILD;
	if (write(h->to_child, "r", 1) != 1) {
		/* it has already exited: its status says how */
	}
	int st = nvt_wait_child(h->pid, 30000);
	close(h->to_child);
	close(h->from_child);
	h->pid = 0;
	if (st != 0) {
		fprintf(stderr, "nvt: the honest client failed (exit %d)\n", st);
		unlink(h->out);
		return -EIO;
	}
	int fd = open(h->out, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	off_t size = lseek(fd, 0, SEEK_END);
	lseek(fd, 0, SEEK_SET);
	uint8_t *buf = malloc(size > 0 ? (size_t)size : 1);
	size_t at = 0;
	while (buf && at < (size_t)size) {
		ssize_t n = read(fd, buf + at, (size_t)size - at);
		if (n <= 0)
			break;
		at += (size_t)n;
	}
	close(fd);
	unlink(h->out);
	if (!buf || at != (size_t)size) {
		free(buf);
		return -EIO;
	}
	*bytes = buf;
	*len = at;
	return 0;
}

int nvt_honest_alone(const struct nvt_daemon *d, uint32_t seed, uint8_t **bytes, size_t *len)
{
	struct nvt_honest h;
	int r = nvt_honest_start(&h, d, seed);
	if (r < 0)
		return r;
	if ((r = nvt_honest_go(&h)) < 0)
		return r;
	return nvt_honest_finish(&h, bytes, len);
}

/* ---- load that keeps a channel busy ---- */

/* n copies, in submissions of at most 4000 (48000 words: each must fit the
 * daemon's ring of the card at once). */
static uint32_t busy_copies(struct nvt_push *p, struct nvt_buf *src, struct nvt_buf *dst,
			    unsigned n)
{
	uint32_t f = 0;
	nvt_space(p, n * 12);
	while (n) {
		unsigned k = n < 4000 ? n : 4000;
		for (unsigned i = 0; i < k; i++)
			nvt_m2mf_cmd(p, src, 0, 4096, dst, 0, 4096, 4096, (uint32_t)(src->size / 4096));
		if (nvt_submit(p, &f) < 0)
			return 0;
		n -= k;
	}
	return f;
}

uint32_t nvt_keep_busy(struct nvt_push *p, struct nvt_buf *src, struct nvt_buf *dst, unsigned ms)
{
	unsigned n = 4, most = p->cap / 12 - 64;
	int64_t t;
	/* The first copies fault the buffers' pages in: not counted. */
	uint32_t warm = busy_copies(p, src, dst, 2);
	if (!warm || nvt_wait(p, warm) < 0)
		return 0;
	for (;;) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		uint32_t f = busy_copies(p, src, dst, n);
		if (!f || nvt_wait(p, f) < 0)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &b);
		t = (b.tv_sec - a.tv_sec) * 1000000000ll + (b.tv_nsec - a.tv_nsec);
		if (t >= 20000000 || n * 4 > most)
			break;
		n *= 4;
	}
	uint64_t reps = (uint64_t)n * ms * 1000000 / (uint64_t)(t > 0 ? t : 1) + 1;
	if (reps > most) {
		fprintf(stderr, "nvt: keep_busy: %u ms needs %llu copies, the push buffer holds %u\n", ms,
			(unsigned long long)reps, most);
		reps = most;
	}
	return busy_copies(p, src, dst, (unsigned)reps);
}
