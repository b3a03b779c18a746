/* Page flips and the display events that tell of them and of vblanks: a
 * connection's event socket, written without ever waiting for its reader. */
#include "nvd/disp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A pending flip is dropped (a new mode, the head off): no event. */
void disp_flip_cancel(struct nvd *d, unsigned head)
{
	struct nvd_head *h = &d->disp.head[head];
	if (!h->flip_fb)
		return;
	nvd_bo_unpin(h->flip_fb->bo);
	h->flip_fb = NULL;
	h->flip_cl = NULL;
	disp_vblank_irq(d, head);
}

/* ---- page flips and their events ---- */

int nvd_disp_events(struct nvd_client *cl, int *fd, char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	struct nvd_disp_listener *l = NULL;
	int sv[2];

	for (l = d->disp.listeners; l && l->cl != cl; l = l->next)
		;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv) < 0) {
		snprintf(why, whylen, "socketpair: %s", strerror(errno));
		return -errno;
	}
	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l) {
			close(sv[0]);
			close(sv[1]);
			snprintf(why, whylen, "out of memory");
			return -ENOMEM;
		}
		l->cl = cl;
		l->next = d->disp.listeners;
		d->disp.listeners = l;
	} else {
		close(l->fd);   /* a new socket replaces the old one */
	}
	shutdown(sv[0], SHUT_RD);
	l->fd = sv[0];
	*fd = sv[1];
	return 0;
}

void disp_event_send(struct nvd *d, struct nvd_client *cl, const struct nvd_disp_event *ev)
{
	for (struct nvd_disp_listener *l = d->disp.listeners; l; l = l->next)
		if (l->cl == cl) {
			/* A client that does not read loses events, never stalls nvd
			 * (nor fills its log: the first drop and every 1024th). */
			if (send(l->fd, ev, sizeof(*ev), MSG_DONTWAIT | MSG_NOSIGNAL) < 0 &&
			    (++l->dropped == 1 || l->dropped % 1024 == 0))
				nvd_clog(cl, NULL, "display event dropped: %s (%lu so far)",
					 strerror(errno), l->dropped);
			return;
		}
}

int nvd_disp_page_flip(struct nvd_client *cl, uint32_t head, uint32_t id, uint64_t user_data,
		       char *why, size_t whylen)
{
	struct nvd *d = cl->d;
	if (!disp_master(cl, "flip", why, whylen))
		return -EACCES;
	struct nvd_head *h = disp_head_get(d, head, ": set it first", why, whylen);
	if (!h)
		return -EINVAL;
	if (h->flip_fb) {
		snprintf(why, whylen, "head %u has a flip pending", head);
		return -EBUSY;
	}
	struct nvd_fb *fb = disp_fb_get(cl, id);
	if (!fb) {
		snprintf(why, whylen, "no framebuffer %u", id);
		return -ENOENT;
	}
	if (fb->cpp != h->fb->cpp) {
		snprintf(why, whylen, "framebuffer %u has another pixel size than the one shown", id);
		return -EINVAL;
	}
	if ((uint64_t)h->x + h->mode.hdisplay > fb->width ||
	    (uint64_t)h->y + h->mode.vdisplay > fb->height ||
	    (((uint64_t)fb->offset + (uint64_t)h->y * fb->pitch + (uint64_t)h->x * fb->cpp) & 3)) {
		snprintf(why, whylen, "the %ux%u screen at (%u, %u) does not fit framebuffer %u",
			 h->mode.hdisplay, h->mode.vdisplay, h->x, h->y, id);
		return -EINVAL;
	}
	char how[NVD_REPLY_WHY];
	int r = nvd_bo_pin(d, fb->bo, NVD_DOMAIN_VRAM, how, sizeof(how));
	if (r < 0) {
		snprintf(why, whylen, "cannot move framebuffer %u to VRAM: %s", id, how);
		return r;
	}
	h->flip_fb = fb;
	h->flip_cl = cl;
	h->flip_data = user_data;
	/* The start address (and pitch) latch at the next vblank; its interrupt
	 * says the new picture is up. */
	if (fb->pitch != h->fb->pitch) {
		uint8_t cr[NV_CR_COUNT] = { 0 };
		struct nv_crtc_timing t;
		disp_mode_timing(&h->mode, &t);
		nv_crtc_timing_to_cr(&t, fb->pitch, cr);
		disp_cr_wr(d, head, NV_CR13_OFFSET, cr[NV_CR13_OFFSET]);
		disp_cr_wr(d, head, NV_CR19_RPC0, cr[NV_CR19_RPC0]);
		disp_cr_wr(d, head, NV_CR42, cr[NV_CR42]);
	}
	disp_vblank_sync(d, head);      /* the interrupt cleared next may be theirs */
	disp_vblank_waits_due(d, head);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_INTR_0, head), NV_PCRTC_INTR_0_VBLANK);
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_START, head), disp_fb_start(fb, h->x, h->y));
	d->disp.scanout_gen++;
	nvd_wr32(d->card, NV_HEAD_REG(NV_PCRTC_INTR_EN_0, head), NV_PCRTC_INTR_EN_0_VBLANK);
	return 0;
}

/* The vblank that showed head's pending flip has come (the count is up to
 * date): the flip is done and its event goes. */
void disp_flip_done(struct nvd *d, unsigned head)
{
	struct nvd_head *h = &d->disp.head[head];
	struct nvd_disp_event ev = { NVD_DISP_EVENT_FLIP, head, h->flip_data, h->vblanks,
				     h->vblank_ns };
	struct nvd_client *cl = h->flip_cl;
	/* the old framebuffer's pin goes, the new one's stays as the head's */
	h->fb->heads &= ~(1u << head);
	nvd_bo_unpin(h->fb->bo);
	h->fb = h->flip_fb;
	h->fb->heads |= 1u << head;
	h->flip_fb = NULL;
	h->flip_cl = NULL;
	disp_vblank_irq(d, head);
	disp_event_send(d, cl, &ev);
}
