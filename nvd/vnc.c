/* The live view: nvd --vnc serves the heads over RFB (libvncserver), side
 * by side as X lays them out by default (head 0 at x = 0, head 1 to its
 * right), each with its hardware cursor blended in as in a screenshot.
 *
 * Threads.  nvd's loop only reads the heads' registers when asked, and
 * only after the display wrote some (vnc_on_ask).  Everything else runs on the live
 * view's own thread: accepting viewers, libvncserver's parsing of what they
 * send, composing the picture from VRAM, comparing it with the last one in
 * tiles and sending the tiles that changed.  libvncserver runs in its
 * one-thread mode, driven by our poll(): the frame buffer changes only
 * between sends, and its own listener thread (which reuses a stale client
 * after a failed accept) and select() on descriptors past FD_SETSIZE (nvd
 * holds many) stay out of the way: a viewer whose socket would be one is
 * refused.
 *
 * Viewers only look: keyboard and pointer events are read and dropped
 * (logged once).  No HTTP server, no file transfer.  At most VNC_VIEWERS,
 * each given VNC_HANDSHAKE_MS to authenticate. */
#include "nvd/nvd.h"
#include "nvd/vnc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <rfb/rfb.h>
#include <rfb/rfbregion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#define VNC_TILE 64            /* damage is found and sent in tiles of 64 x 64 */
#define VNC_HZ 60              /* pictures a second at most, while a viewer asks */
#define VNC_VIEWERS 4
#define VNC_MAX 4096           /* the CRTC's largest picture, each way */
#define VNC_IDLE_W 640         /* the desktop before any head has shown a picture */
#define VNC_IDLE_H 480
#define VNC_CLIENT_WAIT_MS 2000   /* a viewer that stops mid-message holds the view this long */
#define VNC_HANDSHAKE_MS 10000    /* and one that does not finish authenticating, its place */
#define VNC_ASK_WAIT_S 1
#define VNC_PASSWORD_MAX 255

struct vnc_head {
	int on;
	struct nvd_scanout so;
};

#define VNC_CURSOR_BYTES (NVD_CURSOR_SIZE * NVD_CURSOR_SIZE * 4)

/* A head's room in the desktop: the size of the last picture it showed. */
struct vnc_room {
	uint32_t w, h;
	int painted;                   /* the room holds so's picture (else it is black) */
	struct nvd_scanout so;
	uint8_t *raw;                  /* the scanout's bytes that picture was made of */
	uint8_t cursor[VNC_CURSOR_BYTES];   /* the cursor image blended in (so.cursor) */
};

struct nvd_vnc {
	struct nvd *d;
	char where[80];                /* "127.0.0.1:5900", for the log */
	struct sockaddr_storage addr;
	socklen_t addrlen;
	char password[VNC_PASSWORD_MAX + 1];
	char *passwords[2];            /* libvncserver's list: the password, NULL */
	int listen_fd, stop_fd, ask_fd;
	struct event *ask_evt;
	pthread_t thread;
	int running;

	/* nvd's loop's: the heads as last read, at the display's scanout_gen */
	struct vnc_head read[NVD_DISP_HEADS];
	uint64_t read_gen;
	int read_once;

	/* Between nvd's loop and the thread. */
	pthread_mutex_t lock;
	pthread_cond_t answered;
	int stopping;
	unsigned answers;
	struct vnc_head heads[NVD_DISP_HEADS];

	/* The thread's. */
	rfbScreenInfoPtr screen;
	uint32_t *fb, width, height;   /* what the viewers were last sent or will be */
	struct vnc_room room[NVD_DISP_HEADS];
	uint32_t tile[VNC_TILE * VNC_TILE];
	unsigned pictures;             /* taken so far */
	rfbClientPtr viewers[VNC_VIEWERS];
	uint64_t joined_ms[VNC_VIEWERS];
	unsigned nviewers;
	int input_told;
};

/* ---- options ---- */

static int vnc_is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24 == 127;
	const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
	return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
}

static int vnc_parse_listen(struct nvd_vnc *v, const char *listen, char *why, size_t whylen)
{
	char host[64] = "127.0.0.1";
	const char *port = listen, *colon = strrchr(listen, ':');
	if (colon) {
		const char *h = listen;
		size_t n = (size_t)(colon - listen);
		if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
			h++;
			n -= 2;
		}
		if (!n || n >= sizeof(host)) {
			snprintf(why, whylen, "--vnc %s: expected [ADDR:]PORT", listen);
			return -EINVAL;
		}
		memcpy(host, h, n);
		host[n] = 0;
		port = colon + 1;
	}
	char *end;
	errno = 0;
	unsigned long p = strtoul(port, &end, 10);
	if (errno || end == port || *end || !p || p > 65535 || port[0] == '-' || port[0] == '+') {
		snprintf(why, whylen, "--vnc %s: the port must be 1 to 65535", listen);
		return -EINVAL;
	}
	struct sockaddr_in *a4 = (struct sockaddr_in *)&v->addr;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&v->addr;
	if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons((uint16_t)p);
		v->addrlen = sizeof(*a4);
	} else if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)p);
		v->addrlen = sizeof(*a6);
	} else {
		snprintf(why, whylen, "--vnc %s: '%s' is not an IPv4 or IPv6 address", listen, host);
		return -EINVAL;
	}
	snprintf(v->where, sizeof(v->where), strchr(host, ':') ? "[%s]:%lu" : "%s:%lu", host, p);
	return 0;
}

/* The password is the file's first line; VNC authentication uses its
 * first 8 characters only. */
static int vnc_read_password(struct nvd_vnc *v, const char *path, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(why, whylen, "--vnc-password-file %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	ssize_t n = read(fd, v->password, VNC_PASSWORD_MAX);
	close(fd);
	if (n < 0) {
		snprintf(why, whylen, "--vnc-password-file %s: %s", path, strerror(errno));
		return -EINVAL;
	}
	v->password[n] = 0;
	v->password[strcspn(v->password, "\r\n")] = 0;
	if (!v->password[0]) {
		snprintf(why, whylen, "--vnc-password-file %s: the first line is empty", path);
		return -EINVAL;
	}
	if (strlen(v->password) > 8)
		nvd_log(0, "VNC: only the first 8 characters of the password in %s count", path);
	if (st.st_mode & S_IROTH)
		nvd_log(0, "VNC: every user may read the password in %s", path);
	v->passwords[0] = v->password;
	return 0;
}

struct nvd_vnc *nvd_vnc_new(const char *listen, const char *password_file, char *why,
			    size_t whylen)
{
	if (!listen) {
		snprintf(why, whylen, "--vnc-password-file needs --vnc");
		return NULL;
	}
	struct nvd_vnc *v = calloc(1, sizeof(*v));
	if (!v) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	v->listen_fd = v->stop_fd = v->ask_fd = -1;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&v->answered, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&v->lock, NULL);
	if (vnc_parse_listen(v, listen, why, whylen) < 0 ||
	    (password_file && vnc_read_password(v, password_file, why, whylen) < 0)) {
		nvd_vnc_free(v);
		return NULL;
	}
	if (!password_file && !vnc_is_loopback((struct sockaddr *)&v->addr)) {
		snprintf(why, whylen, "--vnc %s: viewers from other hosts must give a password: "
			 "add --vnc-password-file FILE, or listen on 127.0.0.1", listen);
		nvd_vnc_free(v);
		return NULL;
	}
	return v;
}

/* ---- nvd's loop: the heads' registers, when the thread asks ---- */

/* The registers are read again only after the display wrote some: every
 * access to a simulated card's registers takes the lock its engines run
 * under, and a few hundred a frame cost the card's work a third. */
static void vnc_on_ask(evutil_socket_t fd, short what, void *arg)
{
	struct nvd_vnc *v = arg;
	struct vnc_head *h = v->read;
	uint64_t n;
	char why[128];
	(void)what;

	if (read(fd, &n, sizeof(n)) != sizeof(n))
		return;
	if (!v->read_once || v->read_gen != v->d->disp.scanout_gen)
		for (unsigned i = 0; i < NVD_DISP_HEADS; i++)
			h[i].on = nvd_disp_scanout(v->d, i, &h[i].so, why, sizeof(why)) == 0 &&
				  h[i].so.width <= VNC_MAX && h[i].so.height <= VNC_MAX;
	v->read_once = 1;
	v->read_gen = v->d->disp.scanout_gen;
	pthread_mutex_lock(&v->lock);
	memcpy(v->heads, h, sizeof(v->heads));
	v->answers++;
	pthread_cond_signal(&v->answered);
	pthread_mutex_unlock(&v->lock);
}

/* ---- the thread ---- */

static uint64_t vnc_now_ms(void)
{
	return nvd_now_ns() / 1000000u;
}

/* The heads as nvd's loop reads them now: 0, or -1 when it did not answer
 * in time or nvd is stopping. */
static int vnc_ask(struct nvd_vnc *v, struct vnc_head *h)
{
	uint64_t one = 1;
	struct timespec until;
	int r = 0;

	pthread_mutex_lock(&v->lock);
	unsigned seen = v->answers;
	pthread_mutex_unlock(&v->lock);
	if (write(v->ask_fd, &one, sizeof(one)) != sizeof(one))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += VNC_ASK_WAIT_S;
	pthread_mutex_lock(&v->lock);
	while (v->answers == seen && !v->stopping && r == 0)
		r = pthread_cond_timedwait(&v->answered, &v->lock, &until);
	int ok = v->answers != seen;
	if (ok)
		memcpy(h, v->heads, sizeof(v->heads));
	pthread_mutex_unlock(&v->lock);
	return ok ? 0 : -1;
}

/* Our pixels are host words 0x00RRGGBB, the screenshot's. */
static void vnc_format(struct nvd_vnc *v)
{
	rfbPixelFormat *f = &v->screen->serverFormat;
	f->depth = 24;
	f->redShift = 16;
	f->greenShift = 8;
	f->blueShift = 0;
	for (unsigned i = 0; i < v->nviewers; i++)
		v->screen->setTranslateFunction(v->viewers[i]);
}

static int vnc_resize(struct nvd_vnc *v, uint32_t w, uint32_t h)
{
	uint32_t *fb = calloc((size_t)w * h, 4);
	if (!fb) {
		nvd_log(0, "VNC: no memory for a %ux%u desktop", w, h);
		return -ENOMEM;
	}
	/* rfbNewFramebuffer sets its own pixel format back */
	rfbNewFramebuffer(v->screen, (char *)fb, (int)w, (int)h, 8, 3, 4);
	vnc_format(v);
	free(v->fb);
	v->fb = fb;
	v->width = w;
	v->height = h;
	nvd_log(1, "VNC: the desktop is %ux%u", w, h);
	return 0;
}

static int vnc_overlap(uint32_t x, uint32_t y, uint32_t w, uint32_t h, int cx, int cy)
{
	return cx < (int64_t)x + w && cx + NVD_CURSOR_SIZE > (int64_t)x && cy < (int64_t)y + h &&
	       cy + NVD_CURSOR_SIZE > (int64_t)y;
}

/* Whether the tile w x h at (x, y) of the room's picture may have changed
 * since it was sent, and if so, remember the scanout bytes it is made of
 * now.  The bytes compared are the scanout's, not the picture's, and only
 * every other row, the even rows in one picture and the odd ones in the
 * next: every row is compared VNC_HZ / 2 times a second, a change two
 * rows high or more is found in the first picture after it, and an
 * unchanged picture costs a memcmp of half its bytes. */
static int vnc_tile_dirty(struct nvd_vnc *v, struct vnc_room *r, const struct nvd_scanout *so,
			  int full, int cursor_moved, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
	size_t bytes = (size_t)w * so->cpp, row = (size_t)r->w * so->cpp;
	const uint8_t *src = v->d->card->vram + so->start + (uint64_t)y * so->pitch +
			     (uint64_t)x * so->cpp;
	uint8_t *raw = r->raw + (size_t)y * row + (size_t)x * so->cpp;
	int dirty = full ||
		    (cursor_moved && ((r->so.cursor && vnc_overlap(x, y, w, h, r->so.cursor_x,
								      r->so.cursor_y)) ||
				      (so->cursor && vnc_overlap(x, y, w, h, so->cursor_x,
								 so->cursor_y))));
	for (uint32_t j = (y + v->pictures) & 1; j < h && !dirty; j += 2)
		dirty = memcmp(src + (size_t)j * so->pitch, raw + j * row, bytes);
	if (dirty)
		for (uint32_t j = 0; j < h; j++)
			memcpy(raw + j * row, src + (size_t)j * so->pitch, bytes);
	return dirty;
}

/* Bring the room at column x0 of the desktop up to date with the head's
 * picture (black when it has none), tile by tile, and tell libvncserver
 * the runs of tiles whose pixels changed. */
static void vnc_room_update(struct nvd_vnc *v, struct vnc_room *r, const struct vnc_head *h,
			    uint32_t x0)
{
	const struct nvd_scanout *so = &h->so;
	if (!h->on) {
		if (r->painted) {
			for (uint32_t y = 0; y < r->h; y++)
				memset(v->fb + (size_t)y * v->width + x0, 0, (size_t)r->w * 4);
			rfbMarkRectAsModified(v->screen, (int)x0, 0, (int)(x0 + r->w), (int)r->h);
		}
		r->painted = 0;
		return;
	}
	int full = !r->painted || so->cpp != r->so.cpp || so->is565 != r->so.is565;
	if (full) {
		free(r->raw);
		r->raw = malloc((size_t)r->w * r->h * so->cpp);
		if (!r->raw) {
			nvd_log(0, "VNC: no memory for a %ux%u picture", r->w, r->h);
			r->painted = 0;
			return;
		}
	}
	const uint8_t *img = v->d->card->vram + so->cursor_addr;
	int cursor_moved = so->cursor != r->so.cursor ||
			   (so->cursor && (so->cursor_x != r->so.cursor_x ||
					   so->cursor_y != r->so.cursor_y ||
					   memcmp(img, r->cursor, VNC_CURSOR_BYTES)));
	for (uint32_t y = 0; y < r->h; y += VNC_TILE) {
		uint32_t rows = r->h - y < VNC_TILE ? r->h - y : VNC_TILE, run_x = 0, tx;
		/* [run_x, tx): tiles that changed, marked as one rectangle */
		for (tx = 0; tx < r->w; tx += VNC_TILE) {
			uint32_t cols = r->w - tx < VNC_TILE ? r->w - tx : VNC_TILE, *fb;
			int changed = 0;
			if (vnc_tile_dirty(v, r, so, full, cursor_moved, tx, y, cols, rows)) {
				nvd_disp_compose(v->d, so, tx, y, cols, rows, v->tile, VNC_TILE);
				fb = v->fb + (size_t)y * v->width + x0 + tx;
				for (uint32_t j = 0; j < rows; j++) {
					uint32_t *t = v->tile + (size_t)j * VNC_TILE;
					if (memcmp(fb + (size_t)j * v->width, t, cols * 4)) {
						memcpy(fb + (size_t)j * v->width, t, cols * 4);
						changed = 1;
					}
				}
			}
			if (changed)
				continue;
			if (run_x < tx)
				rfbMarkRectAsModified(v->screen, (int)(x0 + run_x), (int)y, (int)(x0 + tx),
						      (int)(y + rows));
			run_x = tx + VNC_TILE;
		}
		if (run_x < r->w)
			rfbMarkRectAsModified(v->screen, (int)(x0 + run_x), (int)y, (int)(x0 + r->w),
					      (int)(y + rows));
	}
	r->so = *so;
	if (so->cursor)
		memcpy(r->cursor, img, VNC_CURSOR_BYTES);
	r->painted = 1;
}

/* One picture: the heads read, the desktop made anew when a head's size
 * changed, the tiles that changed marked. */
static void vnc_frame(struct nvd_vnc *v)
{
	struct vnc_head h[NVD_DISP_HEADS];
	uint32_t w = 0, ht = 0;
	int resized = 0;

	if (vnc_ask(v, h) < 0)
		return;
	for (unsigned i = 0; i < NVD_DISP_HEADS; i++) {
		struct vnc_room *r = &v->room[i];
		/* a head that goes off keeps its room, black */
		if (h[i].on && (h[i].so.width != r->w || h[i].so.height != r->h)) {
			r->w = h[i].so.width;
			r->h = h[i].so.height;
			resized = 1;
		}
		w += r->w;
		ht = r->h > ht ? r->h : ht;
	}
	if (!w) {
		w = VNC_IDLE_W;
		ht = VNC_IDLE_H;
	}
	if (resized || w != v->width || ht != v->height) {
		if (vnc_resize(v, w, ht) < 0)
			return;
		for (unsigned i = 0; i < NVD_DISP_HEADS; i++)
			v->room[i].painted = 0;   /* the new desktop is black */
	}
	for (unsigned i = 0, x0 = 0; i < NVD_DISP_HEADS; x0 += v->room[i].w, i++)
		vnc_room_update(v, &v->room[i], &h[i], x0);
	v->pictures++;
}

static void vnc_accept(struct nvd_vnc *v)
{
	int fd = accept4(v->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
			nvd_log(0, "VNC: accept: %s", strerror(errno));
		return;
	}
	if (v->nviewers == VNC_VIEWERS) {
		nvd_log(0, "VNC: a viewer refused: %u are connected already", VNC_VIEWERS);
		close(fd);
		return;
	}
	if (fd >= FD_SETSIZE) {
		nvd_log(0, "VNC: a viewer refused: its socket would be descriptor %d, and "
			"libvncserver select()s only below %d", fd, FD_SETSIZE);
		close(fd);
		return;
	}
	vnc_frame(v);   /* its ServerInit gives the desktop as it is now */
	rfbClientPtr cl = rfbNewClient(v->screen, fd);
	if (!cl)
		return;   /* libvncserver said why and closed the socket */
	v->joined_ms[v->nviewers] = vnc_now_ms();
	v->viewers[v->nviewers++] = cl;
	nvd_log(0, "VNC: viewer %s connected", cl->host);
}

/* Viewers gone, and those past their time to authenticate, go; the time
 * until the next one's runs out (-1: none waits). */
static int vnc_reap(struct nvd_vnc *v)
{
	uint64_t now = vnc_now_ms();
	int next = -1;
	for (unsigned i = 0; i < v->nviewers;) {
		rfbClientPtr cl = v->viewers[i];
		if (cl->sock != RFB_INVALID_SOCKET && cl->state != RFB_NORMAL) {
			uint64_t end = v->joined_ms[i] + VNC_HANDSHAKE_MS;
			if (now < end) {
				next = next < 0 || end - now < (uint64_t)next ? (int)(end - now) : next;
			} else {
				nvd_log(0, "VNC: viewer %s did not authenticate in %u s", cl->host,
					VNC_HANDSHAKE_MS / 1000);
				rfbCloseClient(cl);
			}
		}
		if (cl->sock != RFB_INVALID_SOCKET) {
			i++;
			continue;
		}
		nvd_log(0, "VNC: viewer %s gone", cl->host);
		rfbClientConnectionGone(cl);
		v->nviewers--;
		v->viewers[i] = v->viewers[v->nviewers];
		v->joined_ms[i] = v->joined_ms[v->nviewers];
	}
	return next;
}

/* Whether a viewer waits for an update. */
static int vnc_wanted(struct nvd_vnc *v)
{
	for (unsigned i = 0; i < v->nviewers; i++) {
		rfbClientPtr cl = v->viewers[i];
		if (cl->sock != RFB_INVALID_SOCKET && cl->state == RFB_NORMAL &&
		    !sraRgnEmpty(cl->requestedRegion))
			return 1;
	}
	return 0;
}

static void *vnc_run(void *arg)
{
	struct nvd_vnc *v = arg;
	uint64_t next = 0;

	for (;;) {
		int timeout = vnc_reap(v);
		struct pollfd p[2 + VNC_VIEWERS] = {
			{ .fd = v->stop_fd, .events = POLLIN }, { .fd = v->listen_fd, .events = POLLIN }
		};
		unsigned n = v->nviewers;
		for (unsigned i = 0; i < n; i++)
			p[2 + i] = (struct pollfd){ .fd = v->viewers[i]->sock, .events = POLLIN };
		if (vnc_wanted(v)) {
			uint64_t now = vnc_now_ms();
			int due = next > now ? (int)(next - now) : 0;
			timeout = timeout < 0 || due < timeout ? due : timeout;
		}
		if (poll(p, 2 + n, timeout) < 0 && errno != EINTR) {
			nvd_log(0, "VNC: poll: %s; the live view stops", strerror(errno));
			break;
		}
		if (p[0].revents)
			break;
		if (p[1].revents)
			vnc_accept(v);
		for (unsigned i = 0; i < n; i++)
			if (p[2 + i].revents)
				rfbProcessClientMessage(v->viewers[i]);
		uint64_t now = vnc_now_ms();
		if (vnc_wanted(v) && now >= next) {
			vnc_frame(v);
			for (unsigned i = 0; i < v->nviewers; i++)
				rfbUpdateClient(v->viewers[i]);
			next = now + 1000 / VNC_HZ;
		}
	}
	return NULL;
}

/* ---- libvncserver's hooks ---- */

static void vnc_vlog(int verbose, const char *fmt, va_list ap)
{
	char line[512];
	vsnprintf(line, sizeof(line), fmt, ap);
	line[strcspn(line, "\n")] = 0;
	nvd_log(verbose, "VNC: libvncserver: %s", line);
}

static void vnc_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vnc_vlog(1, fmt, ap);
	va_end(ap);
}

static void vnc_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vnc_vlog(0, fmt, ap);
	va_end(ap);
}

static void vnc_input_dropped(rfbClientPtr cl)
{
	struct nvd_vnc *v = cl->screen->screenData;
	if (!v->input_told)
		nvd_log(0, "VNC: keyboard and pointer events from viewers are ignored: "
			"the live view only shows");
	v->input_told = 1;
}

static void vnc_key(rfbBool down, rfbKeySym key, rfbClientPtr cl)
{
	(void)down;
	(void)key;
	vnc_input_dropped(cl);
}

static void vnc_pointer(int buttons, int x, int y, rfbClientPtr cl)
{
	(void)buttons;
	(void)x;
	(void)y;
	vnc_input_dropped(cl);
}

/* ---- start and stop ---- */

int nvd_vnc_start(struct nvd_vnc *v, struct nvd *d, char *why, size_t whylen)
{
	int one = 1, e;

	v->d = d;
	v->listen_fd = socket(v->addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (v->listen_fd < 0 ||
	    setsockopt(v->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(v->listen_fd, (struct sockaddr *)&v->addr, v->addrlen) < 0 ||
	    listen(v->listen_fd, VNC_VIEWERS) < 0) {
		e = errno;
		snprintf(why, whylen, "VNC: cannot listen on %s: %s", v->where, strerror(e));
		return -e;
	}
	v->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	v->ask_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (v->stop_fd < 0 || v->ask_fd < 0) {
		e = errno;
		snprintf(why, whylen, "VNC: eventfd: %s", strerror(e));
		return -e;
	}
	v->ask_evt = event_new(d->base, v->ask_fd, EV_READ | EV_PERSIST, vnc_on_ask, v);
	if (!v->ask_evt || event_add(v->ask_evt, NULL) < 0) {
		snprintf(why, whylen, "VNC: cannot watch the live view's requests");
		return -ENOMEM;
	}
	rfbLog = vnc_log;
	rfbErr = vnc_err;
	/* When nvd takes its socket from systemd (sd_listen_fds), it must do
	 * so with sd_listen_fds(1) before this point: a libvncserver built
	 * with systemd adopts an inherited descriptor 3 as its listener in
	 * rfbInitServer.  Debian's is built without. */
	v->width = VNC_IDLE_W;
	v->height = VNC_IDLE_H;
	v->fb = calloc((size_t)v->width * v->height, 4);
	/* NULL, NULL: libvncserver parses no options of ours */
	v->screen = v->fb ? rfbGetScreen(NULL, NULL, (int)v->width, (int)v->height, 8, 3, 4) : NULL;
	if (!v->screen) {
		snprintf(why, whylen, "VNC: out of memory");
		return -ENOMEM;
	}
	rfbScreenInfoPtr s = v->screen;
	s->frameBuffer = (char *)v->fb;
	s->screenData = v;
	s->desktopName = "nvd";
	s->port = s->ipv6port = 0;        /* we listen and accept: vnc_accept */
	s->httpDir = NULL;
	s->permitFileTransfer = FALSE;
	s->cursor = NULL;                 /* the hardware cursor is in the pixels */
	s->alwaysShared = TRUE;           /* a viewer cannot push out another */
	s->deferUpdateTime = 0;           /* vnc_run paces the updates */
	s->maxClientWait = VNC_CLIENT_WAIT_MS;
	s->kbdAddEvent = vnc_key;
	s->ptrAddEvent = vnc_pointer;
	if (v->passwords[0]) {
		s->authPasswdData = v->passwords;
		s->passwordCheck = rfbCheckPasswordByList;
	}
	vnc_format(v);
	rfbInitServer(s);
	e = pthread_create(&v->thread, NULL, vnc_run, v);
	if (e) {
		snprintf(why, whylen, "VNC: cannot start its thread: %s", strerror(e));
		return -e;
	}
	pthread_setname_np(v->thread, "nvd-vnc");   /* for top -H, and bench/vnc */
	v->running = 1;
	nvd_log(0, "VNC: serving the heads on %s%s", v->where,
		v->passwords[0] ? " (password)" : "");
	return 0;
}

void nvd_vnc_free(struct nvd_vnc *v)
{
	if (!v)
		return;
	if (v->running) {
		uint64_t one = 1;
		pthread_mutex_lock(&v->lock);
		v->stopping = 1;
		pthread_cond_signal(&v->answered);
		pthread_mutex_unlock(&v->lock);
		if (write(v->stop_fd, &one, sizeof(one)) != sizeof(one))
			nvd_log(0, "VNC: cannot stop the live view's thread: %s", strerror(errno));
		pthread_join(v->thread, NULL);
	}
	if (v->screen) {
		rfbShutdownServer(v->screen, TRUE);
		rfbScreenCleanup(v->screen);
	}
	if (v->ask_evt)
		event_free(v->ask_evt);
	pthread_mutex_destroy(&v->lock);
	pthread_cond_destroy(&v->answered);
	if (v->listen_fd >= 0)
		close(v->listen_fd);
	if (v->stop_fd >= 0)
		close(v->stop_fd);
	if (v->ask_fd >= 0)
		close(v->ask_fd);
	free(v->fb);
	for (unsigned i = 0; i < NVD_DISP_HEADS; i++)
		free(v->room[i].raw);
	explicit_bzero(v->password, sizeof(v->password));
	free(v);
}
