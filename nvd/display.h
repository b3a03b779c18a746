/* nvd's display: outputs and their monitors (EDID over DDC), framebuffers,
 * the heads programmed through the CRTC registers, screenshots read back
 * from the registers and VRAM. */
#ifndef NVD_DISPLAY_H
#define NVD_DISPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "nvd/edid.h"
#include "proto/proto.h"

struct nvd;
struct nvd_client;
struct nvd_bo;

#define NVD_CLIENT_FBS 64          /* framebuffers per connection */

struct nvd_fb {
	struct nvd_fb *next;
	uint32_t id;
	struct nvd_client *cl;
	struct nvd_bo *bo;             /* referenced */
	uint32_t offset, width, height, pitch, fourcc, cpp;
	unsigned heads;                /* mask of heads showing it (each pins bo) */
};

struct nvd_output {
	char name[16];
	int connected;
	uint8_t edid[EDID_SIZE];
	struct nvd_edid_info info;
};

struct nvd_head {
	struct nvd_fb *fb;             /* NULL: off */
	uint32_t x, y, outputs;
	struct nvd_mode mode;
	/* a page flip: flip_fb is in the start register already, fb until the
	 * vblank that shows it */
	struct nvd_fb *flip_fb;
	struct nvd_client *flip_cl;
	uint64_t flip_data;
	/* Vblanks counted (nvd_disp_vblank_sync) and the CLOCK_MONOTONIC time
	 * of the last; 0: not yet read since the head came on.  The CRTC's
	 * frame: period_ns, vtotal lines, vblank from line vbs. */
	uint64_t vblanks, vblank_ns, period_ns;
	uint32_t vtotal, vbs;
	struct nvd_vblank_wait *waits;   /* by target, then in the order asked */
};

/* A DISP_VBLANK_EVENT waiting for its vblank. */
struct nvd_vblank_wait {
	struct nvd_vblank_wait *next;
	struct nvd_client *cl;
	uint64_t target, user_data;
};

/* A connection's display event socket (nvd's end). */
struct nvd_disp_listener {
	struct nvd_disp_listener *next;
	struct nvd_client *cl;
	int fd;
	unsigned long dropped;         /* events it did not read in time */
};

struct nvd_disp {
	struct nvd_output out[NVD_DISP_OUTPUTS];
	struct nvd_head head[NVD_DISP_HEADS];
	struct nvd_fb *fbs;
	uint32_t next_fb;
	/* the heads' cursor images: nvd's own VRAM, as nouveau's cursor bo */
	uint64_t cursor_addr[NVD_DISP_HEADS];
	uint64_t cursor_bytes;     /* the cursor images in nvd's VRAM (0: no VRAM mapping) */
	struct nvd_disp_listener *listeners;
	/* Moves with every register write that may change what
	 * nvd_disp_scanout reads: while it stays, so do the scanouts. */
	uint64_t scanout_gen;
};

/* Whether any NV4x CRTC can show the mode: one polarity per sync, timings
 * the CR registers hold, a clock in the RAMDAC's range (the VPLL's reach,
 * which depends on the card's crystal, is checked when a head is set).  0
 * or -EINVAL with why. */
int nvd_disp_mode_fits(const struct nvd_mode *m, char *why, size_t whylen);
/* The same for every mode a monitor's EDID offers, as nvd will read it:
 * 0, or the EDID's error or -EINVAL naming the first mode that does not. */
int nvd_disp_monitor_check(const uint8_t edid[EDID_SIZE], char *why, size_t whylen);

/* Read every output's EDID over its DDC bus and turn the heads off. */
void nvd_disp_init(struct nvd *d);
void nvd_disp_fini(struct nvd *d);
/* The client goes: heads showing its framebuffers go off, they go. */
void nvd_disp_client_gone(struct nvd_client *cl);

/* Requests: 0 or -errno with a reason in why. */
int nvd_disp_output(struct nvd_client *cl, const struct nvd_req_disp_output *rq,
		    struct nvd_rep_disp_output *p, char *why, size_t whylen);
int nvd_disp_mode(struct nvd_client *cl, const struct nvd_req_disp_mode *rq,
		  struct nvd_rep_disp_mode *p, char *why, size_t whylen);
int nvd_fb_new(struct nvd_client *cl, const struct nvd_req_fb_new *rq, uint32_t *fb, char *why,
	       size_t whylen);
int nvd_fb_free(struct nvd_client *cl, uint32_t fb, char *why, size_t whylen);
int nvd_disp_head(struct nvd_client *cl, uint32_t head, struct nvd_head_state *s, char *why,
		  size_t whylen);
int nvd_disp_set_head(struct nvd_client *cl, uint32_t head, const struct nvd_head_state *s,
		      char *why, size_t whylen);
int nvd_disp_cursor_set(struct nvd_client *cl, uint32_t head, uint32_t bo, uint32_t offset,
			char *why, size_t whylen);
int nvd_disp_cursor_move(struct nvd_client *cl, uint32_t head, int32_t x, int32_t y, char *why,
			 size_t whylen);
/* *fd: the client's end of its event socket (a dup: the caller closes it). */
int nvd_disp_events(struct nvd_client *cl, int *fd, char *why, size_t whylen);
int nvd_disp_page_flip(struct nvd_client *cl, uint32_t head, uint32_t fb, uint64_t user_data,
		       char *why, size_t whylen);
/* The head's vblank count and the time of its last vblank (-EINVAL when
 * off); an event at a vblank (master only). */
int nvd_disp_vblank(struct nvd_client *cl, uint32_t head, uint64_t *sequence, uint64_t *time_ns,
		    char *why, size_t whylen);
int nvd_disp_vblank_event(struct nvd_client *cl, const struct nvd_req_disp_vblank_event *rq,
			  uint64_t *target, char *why, size_t whylen);
/* PMC_INTR said PCRTC: ack the heads' vblanks, finish their flips, send
 * the vblank events due. */
void nvd_disp_irq(struct nvd *d, uint32_t pmc_intr);
/* What a head scans out, as its registers say. */
struct nvd_scanout {
	uint32_t width, height;
	uint32_t start, pitch, cpp;    /* VRAM address, bytes a row and a pixel */
	int is565;                     /* 2 bytes a pixel: RGB565, else XRGB1555 */
	int cursor;                    /* shown: its image at cursor_addr in VRAM */
	uint64_t cursor_addr;
	int32_t cursor_x, cursor_y;
};
/* Read the head's registers (nvd's loop only: they are the card's): 0,
 * -ENODATA when the head shows no picture, -EINVAL, -ENODEV; why says why. */
int nvd_disp_scanout(struct nvd *d, uint32_t head, struct nvd_scanout *so, char *why,
		     size_t whylen);
/* The part w x h at (x, y) of that picture, the cursor blended in, as
 * XRGB8888 host words in out (stride pixels a row).  It reads only VRAM, so
 * any thread may call it while the card is open; what it reads is what the
 * CRTC would show then (a picture the card is drawing may tear, as it would
 * on the monitor). */
void nvd_disp_compose(struct nvd *d, const struct nvd_scanout *so, uint32_t x, uint32_t y,
		      uint32_t w, uint32_t h, uint32_t *out, size_t stride);
/* *fd: a sealed memfd of w * h XRGB8888 pixels. */
int nvd_disp_screenshot(struct nvd_client *cl, uint32_t head, uint32_t *w, uint32_t *h, int *fd,
			char *why, size_t whylen);

#endif
