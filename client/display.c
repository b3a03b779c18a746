/* The display: outputs and modes, framebuffers, heads, screenshots. */
#include "client/priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

_Static_assert(NVC_DISP_HEADS == NVD_DISP_HEADS && NVC_DISP_OUTPUTS == NVD_DISP_OUTPUTS,
	       "the API's heads and outputs are the protocol's");
_Static_assert(NVC_CURSOR_SIZE == NVD_CURSOR_SIZE, "one cursor size");
_Static_assert(NVC_MODE_PHSYNC == NVD_MODE_PHSYNC && NVC_MODE_NHSYNC == NVD_MODE_NHSYNC &&
	       NVC_MODE_PVSYNC == NVD_MODE_PVSYNC && NVC_MODE_NVSYNC == NVD_MODE_NVSYNC,
	       "mode flags go through unchanged");

static void mode_from_wire(struct nvc_mode *m, const struct nvd_mode *w)
{
	m->clock = w->clock;
	m->hdisplay = w->hdisplay;
	m->hsync_start = w->hsync_start;
	m->hsync_end = w->hsync_end;
	m->htotal = w->htotal;
	m->vdisplay = w->vdisplay;
	m->vsync_start = w->vsync_start;
	m->vsync_end = w->vsync_end;
	m->vtotal = w->vtotal;
	m->flags = w->flags;
	m->preferred = w->preferred;
}

static void mode_to_wire(struct nvd_mode *w, const struct nvc_mode *m)
{
	memset(w, 0, sizeof(*w));
	w->clock = m->clock;
	w->hdisplay = m->hdisplay;
	w->hsync_start = m->hsync_start;
	w->hsync_end = m->hsync_end;
	w->htotal = m->htotal;
	w->vdisplay = m->vdisplay;
	w->vsync_start = m->vsync_start;
	w->vsync_end = m->vsync_end;
	w->vtotal = m->vtotal;
	w->flags = m->flags;
}

int nvc_disp_output(struct nvc *c, unsigned output, struct nvc_output *o)
{
	struct nvd_req_disp_output rq = { output };
	struct nvd_rep_disp_output r;
	if (output >= NVC_DISP_OUTPUTS)
		return nvc_fail(-EINVAL, "nvc_disp_output: no output %u", output);
	int ret = nvc_call(c, NVD_MSG_DISP_OUTPUT, &rq, &r, NULL);
	if (ret < 0)
		return ret;
	memset(o, 0, sizeof(*o));
	memcpy(o->name, r.name, sizeof(o->name));
	o->name[sizeof(o->name) - 1] = 0;
	o->connected = r.connected;
	o->head = r.head;
	o->mm_width = r.mm_width;
	o->mm_height = r.mm_height;
	o->nmodes = r.nmodes;
	memcpy(o->edid, r.edid, sizeof(o->edid));
	return 0;
}

int nvc_disp_mode(struct nvc *c, unsigned output, unsigned index, struct nvc_mode *m)
{
	struct nvd_req_disp_mode rq = { output, index };
	struct nvd_rep_disp_mode r;
	int ret = nvc_call(c, NVD_MSG_DISP_MODE, &rq, &r, NULL);
	if (ret < 0)
		return ret;
	mode_from_wire(m, &r.mode);
	return 0;
}

int nvc_fb_new(struct nvc *c, struct nvc_bo *bo, uint32_t offset, uint32_t width, uint32_t height,
	       uint32_t pitch, uint32_t fourcc, uint32_t *fb)
{
	struct nvd_req_fb_new rq = { bo ? bo->handle : 0, offset, width, height, pitch, fourcc };
	struct nvd_rep_fb_new r;
	if (!bo || bo->c != c)
		return nvc_fail(-EINVAL, "nvc_fb_new: the buffer is not this connection's");
	int ret = nvc_call(c, NVD_MSG_FB_NEW, &rq, &r, NULL);
	if (ret < 0)
		return ret;
	*fb = r.fb;
	return 0;
}

int nvc_fb_free(struct nvc *c, uint32_t fb)
{
	struct nvd_req_fb_free rq = { fb };
	struct nvd_rep_none r;
	return nvc_call(c, NVD_MSG_FB_FREE, &rq, &r, NULL);
}

int nvc_disp_head(struct nvc *c, unsigned head, struct nvc_head *h)
{
	struct nvd_req_disp_head rq = { head };
	struct nvd_rep_disp_head r;
	int ret = nvc_call(c, NVD_MSG_DISP_HEAD, &rq, &r, NULL);
	if (ret < 0)
		return ret;
	memset(h, 0, sizeof(*h));
	h->fb = r.s.fb;
	h->x = r.s.x;
	h->y = r.s.y;
	h->outputs = r.s.outputs;
	mode_from_wire(&h->mode, &r.s.mode);
	return 0;
}

int nvc_disp_set_head(struct nvc *c, unsigned head, const struct nvc_head *h)
{
	struct nvd_req_disp_set_head rq;
	struct nvd_rep_none r;
	memset(&rq, 0, sizeof(rq));
	rq.head = head;
	rq.s.fb = h->fb;
	rq.s.x = h->x;
	rq.s.y = h->y;
	rq.s.outputs = h->outputs;
	mode_to_wire(&rq.s.mode, &h->mode);
	return nvc_call(c, NVD_MSG_DISP_SET_HEAD, &rq, &r, NULL);
}

int nvc_disp_screenshot(struct nvc *c, unsigned head, uint32_t **pixels, uint32_t *w, uint32_t *h)
{
	struct nvd_req_disp_screenshot rq = { head };
	struct nvd_rep_disp_screenshot r;
	struct stat st;
	int fd, ret;

	*pixels = NULL;
	*w = *h = 0;
	ret = nvc_call(c, NVD_MSG_DISP_SCREENSHOT, &rq, &r, &fd);
	if (ret < 0)
		return ret;
	uint64_t bytes = (uint64_t)r.width * r.height * 4;
	if (!r.width || !r.height || bytes > (256u << 20) || fstat(fd, &st) < 0 ||
	    (uint64_t)st.st_size < bytes) {
		close(fd);
		return nvc_fail(-EPROTO, "nvd: DISP_SCREENSHOT: %ux%u pixels in a short memfd",
				r.width, r.height);
	}
	uint32_t *px = malloc(bytes);
	if (!px) {
		close(fd);
		return nvc_fail(-ENOMEM, "out of memory for a %ux%u screenshot", r.width, r.height);
	}
	for (uint64_t done = 0; done < bytes;) {
		ssize_t n = pread(fd, (char *)px + done, bytes - done, (off_t)done);
		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			ret = n < 0 ? -errno : -EPROTO;
			free(px);
			close(fd);
			return nvc_fail(ret, "nvd: DISP_SCREENSHOT: reading the pixels failed");
		}
		done += (uint64_t)n;
	}
	close(fd);
	*pixels = px;
	*w = r.width;
	*h = r.height;
	return 0;
}

int nvc_disp_cursor_set(struct nvc *c, unsigned head, struct nvc_bo *bo, uint32_t offset)
{
	struct nvd_req_disp_cursor_set rq = { head, bo ? bo->handle : 0, offset, 0 };
	struct nvd_rep_none r;
	if (bo && bo->c != c)
		return nvc_fail(-EINVAL, "nvc_disp_cursor_set: the buffer is not this connection's");
	return nvc_call(c, NVD_MSG_DISP_CURSOR_SET, &rq, &r, NULL);
}

int nvc_disp_cursor_move(struct nvc *c, unsigned head, int32_t x, int32_t y)
{
	struct nvd_req_disp_cursor_move rq = { head, x, y };
	struct nvd_rep_none r;
	return nvc_call(c, NVD_MSG_DISP_CURSOR_MOVE, &rq, &r, NULL);
}

int nvc_disp_event_fd(struct nvc *c)
{
	struct nvd_req_none rq = { 0 };
	struct nvd_rep_none r;
	int fd, ret = 0;

	pthread_mutex_lock(&c->disp_lock);
	if (c->disp_events < 0) {
		ret = nvc_call(c, NVD_MSG_DISP_EVENTS, &rq, &r, &fd);
		if (ret == 0)
			c->disp_events = fd;
	}
	fd = c->disp_events;
	pthread_mutex_unlock(&c->disp_lock);
	return ret < 0 ? ret : fd;
}

int nvc_disp_event_read(struct nvc *c, struct nvc_disp_event *ev)
{
	struct nvd_disp_event e;
	int fd = nvc_disp_event_fd(c);
	if (fd < 0)
		return fd;
	ssize_t n = recv(fd, &e, sizeof(e), MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n < 0)
		return nvc_fail(-errno, "nvd: display events: %s", strerror(errno));
	if (n == 0 || (n < 0 && errno == ECONNRESET))
		return nvc_gone(c, "its display events closed");
	if ((size_t)n != sizeof(e))
		return nvc_fail(-EPROTO, "nvd: display events: a %zd-byte event", n);
	memset(ev, 0, sizeof(*ev));
	ev->type = e.type;
	ev->head = e.head;
	ev->user_data = e.user_data;
	ev->sequence = e.sequence;
	ev->time_ns = e.time_ns;
	return 1;
}

int nvc_disp_page_flip(struct nvc *c, unsigned head, uint32_t fb, uint64_t user_data)
{
	struct nvd_req_disp_page_flip rq = { head, fb, user_data };
	struct nvd_rep_none r;
	return nvc_call(c, NVD_MSG_DISP_PAGE_FLIP, &rq, &r, NULL);
}

int nvc_disp_vblank(struct nvc *c, unsigned head, uint64_t *sequence, uint64_t *time_ns)
{
	struct nvd_req_disp_vblank rq = { head };
	struct nvd_rep_disp_vblank r;
	int ret = nvc_call(c, NVD_MSG_DISP_VBLANK, &rq, &r, NULL);
	if (ret < 0)
		return ret;
	if (sequence)
		*sequence = r.sequence;
	if (time_ns)
		*time_ns = r.time_ns;
	return 0;
}

_Static_assert(NVC_VBLANK_RELATIVE == NVD_VBLANK_RELATIVE, "libnvd's flags are the protocol's");
_Static_assert(NVC_VBLANK_EVENTS_MAX == NVD_VBLANK_EVENTS_MAX, "libnvd's limit is nvd's");
_Static_assert(NVC_DISP_EVENT_VBLANK == NVD_DISP_EVENT_VBLANK, "libnvd's events are nvd's");

int nvc_disp_vblank_event(struct nvc *c, unsigned head, unsigned flags, uint64_t sequence,
			  uint64_t user_data, uint64_t *target)
{
	struct nvd_req_disp_vblank_event rq = { head, flags, sequence, user_data };
	struct nvd_rep_disp_vblank_event r;
	/* the socket the event comes on, before it can come */
	int ret = nvc_disp_event_fd(c);
	if (ret < 0)
		return ret;
	ret = nvc_call(c, NVD_MSG_DISP_VBLANK_EVENT, &rq, &r, NULL);
	if (ret < 0)
		return ret;
	if (target)
		*target = r.sequence;
	return 0;
}
