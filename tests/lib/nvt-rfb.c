/* A small RFB 3.8 viewer: nvt-rfb.h. */
#include "tests/lib/nvt-rfb.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define RFB_ENC_RAW 0
#define RFB_ENC_DESKTOP_SIZE (-223)

static int64_t rfb_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static uint32_t be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

uint16_t nvt_rfb_free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	uint16_t port = 0;
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

int nvt_rfb_send(struct nvt_rfb *r, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n) {
		ssize_t k = send(r->fd, b, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			int e = k < 0 ? errno : EPIPE;
			fprintf(stderr, "rfb: send: %s\n", strerror(e));
			return -e;
		}
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

int nvt_rfb_recv(struct nvt_rfb *r, void *p, size_t n, int timeout_ms)
{
	uint8_t *b = p;
	int64_t end = rfb_ms() + timeout_ms;
	while (n) {
		int64_t left = end - rfb_ms();
		struct pollfd pf = { .fd = r->fd, .events = POLLIN };
		int k = left > 0 ? poll(&pf, 1, (int)left) : 0;
		if (k < 0 && errno == EINTR)
			continue;
		if (k == 0) {
			fprintf(stderr, "rfb: nothing from the server for %d ms\n", timeout_ms);
			return -ETIMEDOUT;
		}
		ssize_t got = k < 0 ? -1 : recv(r->fd, b, n, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			int e = got < 0 ? errno : ECONNRESET;
			fprintf(stderr, "rfb: recv: %s\n", got < 0 ? strerror(e) : "the server closed");
			return -e;
		}
		b += got;
		n -= (size_t)got;
	}
	return 0;
}

int nvt_rfb_open(struct nvt_rfb *r, uint16_t port, uint8_t *types, unsigned *ntypes)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	uint8_t v[12], n;
	int e = 0;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	for (int64_t end = rfb_ms() + 5000; r->fd < 0;) {
		r->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (r->fd < 0)
			return -errno;
		if (!connect(r->fd, (struct sockaddr *)&a, sizeof(a)))
			break;
		e = errno;
		close(r->fd);
		r->fd = -1;
		if (rfb_ms() > end) {
			fprintf(stderr, "rfb: connect to port %u: %s\n", port, strerror(e));
			return -e;
		}
		usleep(20000);
	}
	if ((e = nvt_rfb_recv(r, v, 12, 5000)) < 0)
		return e;
	if (memcmp(v, "RFB 003.008\n", 12)) {
		fprintf(stderr, "rfb: the server speaks %.11s, not RFB 003.008\n", (char *)v);
		return -EPROTO;
	}
	if ((e = nvt_rfb_send(r, v, 12)) < 0 || (e = nvt_rfb_recv(r, &n, 1, 5000)) < 0)
		return e;
	if (!n || n > 16) {
		fprintf(stderr, "rfb: the server offers %u security types\n", n);
		return -EPROTO;
	}
	*ntypes = n;
	return nvt_rfb_recv(r, types, n, 5000);
}

int nvt_rfb_init(struct nvt_rfb *r)
{
	uint8_t none = 1, result[4], shared = 1, si[24];
	int e;

	if ((e = nvt_rfb_send(r, &none, 1)) < 0 || (e = nvt_rfb_recv(r, result, 4, 5000)) < 0)
		return e;
	if (be32(result)) {
		fprintf(stderr, "rfb: security type None refused\n");
		return -EACCES;
	}
	if ((e = nvt_rfb_send(r, &shared, 1)) < 0 || (e = nvt_rfb_recv(r, si, 24, 5000)) < 0)
		return e;
	r->width = be16(si);
	r->height = be16(si + 2);
	uint32_t len = be32(si + 20);
	if (len >= sizeof(r->name)) {
		fprintf(stderr, "rfb: a desktop name of %u bytes\n", len);
		return -EPROTO;
	}
	if ((e = nvt_rfb_recv(r, r->name, len, 5000)) < 0)
		return e;
	r->name[len] = 0;
	r->px = calloc((size_t)r->width * r->height, 4);
	if (!r->px)
		return -ENOMEM;

	/* 32 bits, depth 24, in this host's byte order: the words are the
	 * screenshot's 0x00RRGGBB */
	const uint16_t one = 1;
	uint8_t spf[20] = { 0, 0, 0, 0, 32, 24, *(const uint8_t *)&one == 0, 1 };
	put16(spf + 8, 255);
	put16(spf + 10, 255);
	put16(spf + 12, 255);
	spf[14] = 16;
	spf[15] = 8;
	spf[16] = 0;
	uint8_t enc[12] = { 2, 0, 0, 2 };
	put32(enc + 4, RFB_ENC_RAW);
	put32(enc + 8, (uint32_t)RFB_ENC_DESKTOP_SIZE);
	if ((e = nvt_rfb_send(r, spf, sizeof(spf))) < 0 || (e = nvt_rfb_send(r, enc, sizeof(enc))) < 0)
		return e;
	return 0;
}

int nvt_rfb_request(struct nvt_rfb *r, int incremental)
{
	uint8_t m[10] = { 3, (uint8_t)!!incremental };
	put16(m + 6, r->width);
	put16(m + 8, r->height);
	return nvt_rfb_send(r, m, sizeof(m));
}

static int rfb_rects(struct nvt_rfb *r, unsigned n, int timeout_ms)
{
	uint8_t h[12];
	int e;
	for (unsigned i = 0; i < n; i++) {
		if ((e = nvt_rfb_recv(r, h, 12, timeout_ms)) < 0)
			return e;
		uint32_t x = be16(h), y = be16(h + 2), w = be16(h + 4), ht = be16(h + 6);
		int32_t enc = (int32_t)be32(h + 8);
		if (enc == RFB_ENC_DESKTOP_SIZE) {
			uint32_t *px = calloc((size_t)w * ht, 4);
			if (!px)
				return -ENOMEM;
			free(r->px);
			r->px = px;
			r->width = w;
			r->height = ht;
			r->resized = 1;
			continue;
		}
		if (enc != RFB_ENC_RAW || x + w > r->width || y + ht > r->height) {
			fprintf(stderr, "rfb: a rectangle %ux%u+%u+%u in encoding %d on %ux%u\n", w, ht,
				x, y, enc, r->width, r->height);
			return -EPROTO;
		}
		for (uint32_t j = 0; j < ht; j++)
			if ((e = nvt_rfb_recv(r, r->px + (size_t)(y + j) * r->width + x, (size_t)w * 4,
					      timeout_ms)) < 0)
				return e;
		if (r->nrects < NVT_RFB_RECTS)
			r->rects[r->nrects++] = (struct nvt_rfb_rect){ x, y, w, ht };
	}
	return 0;
}

int nvt_rfb_update(struct nvt_rfb *r, int timeout_ms)
{
	uint8_t t, h[8];
	int e;
	for (;;) {
		if ((e = nvt_rfb_recv(r, &t, 1, timeout_ms)) < 0)
			return e;
		switch (t) {
		case 0:   /* FramebufferUpdate */
			if ((e = nvt_rfb_recv(r, h, 3, timeout_ms)) < 0)
				return e;
			r->nrects = 0;
			r->resized = 0;
			if ((e = rfb_rects(r, be16(h + 1), timeout_ms)) < 0)
				return e;
			r->updates++;
			return 0;
		case 2:   /* Bell */
			continue;
		case 3: { /* ServerCutText */
			char text[256];
			if ((e = nvt_rfb_recv(r, h, 7, timeout_ms)) < 0)
				return e;
			for (uint32_t left = be32(h + 3); left;) {
				uint32_t k = left < sizeof(text) ? left : sizeof(text);
				if ((e = nvt_rfb_recv(r, text, k, timeout_ms)) < 0)
					return e;
				left -= k;
			}
			continue;
		}
		default:
			fprintf(stderr, "rfb: server message type %u\n", t);
			return -EPROTO;
		}
	}
}

void nvt_rfb_close(struct nvt_rfb *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->px);
	r->px = NULL;
}
