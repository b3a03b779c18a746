/* nvt-rfb: a small RFB 3.8 viewer (RFC 6143) for the tests and the bench
 * of nvd's live view.  It takes security type None (or leaves the choice
 * to the caller), asks for raw pixels in the screenshot's format (host
 * XRGB8888 words), follows DesktopSize and keeps the rectangles each
 * update brought.  Functions return 0 or -errno and say why on stderr. */
#ifndef NVT_RFB_H
#define NVT_RFB_H

#include <stddef.h>
#include <stdint.h>

#define NVT_RFB_RECTS 4096

struct nvt_rfb_rect {
	uint32_t x, y, w, h;
};

struct nvt_rfb {
	int fd;
	uint32_t width, height;
	uint32_t *px;                  /* width * height, painted by the updates */
	char name[64];
	/* the last update */
	struct nvt_rfb_rect rects[NVT_RFB_RECTS];   /* its pixel rectangles */
	unsigned nrects;
	int resized;                   /* it said the desktop has a new size */
	unsigned long updates;         /* updates read so far */
};

/* A free TCP port on 127.0.0.1 (the kernel's pick, then closed), 0 on error. */
uint16_t nvt_rfb_free_port(void);
/* Connect to 127.0.0.1:port (tries for 5 s), agree on RFB 3.8 and read the
 * security types the server offers (at most 16) into types. */
int nvt_rfb_open(struct nvt_rfb *r, uint16_t port, uint8_t *types, unsigned *ntypes);
/* After nvt_rfb_open: security type None, ServerInit, then our pixel
 * format and encodings (Raw, DesktopSize). */
int nvt_rfb_init(struct nvt_rfb *r);
/* Ask for the whole desktop, as an incremental update or not. */
int nvt_rfb_request(struct nvt_rfb *r, int incremental);
/* Read messages until an update has been applied, for at most timeout_ms:
 * 0, -ETIMEDOUT, -EPROTO. */
int nvt_rfb_update(struct nvt_rfb *r, int timeout_ms);
/* Raw bytes, for what the helpers above do not cover. */
int nvt_rfb_send(struct nvt_rfb *r, const void *p, size_t n);
int nvt_rfb_recv(struct nvt_rfb *r, void *p, size_t n, int timeout_ms);
void nvt_rfb_close(struct nvt_rfb *r);

#endif
