/* kms-probe: libdrm's mode-setting calls on nvd's display, from inside a
 * process libnvd-drm.so is preloaded into (test_kms runs it under nvd-run).
 *
 *   kms-probe query     prints what drmModeGetResources / GetConnector /
 *                       GetEncoder / GetCrtc say ("res ...", "conn ...",
 *                       "mode ...", "enc ...", "crtc ..." lines); test_kms
 *                       compares them with what nvd says directly
 *   kms-probe show FMT W H X Y
 *                       a dumb buffer of W x H pixels (FMT xrgb, argb or
 *                       rgb565) holding kms_pattern(), AddFB2 (rgb565:
 *                       legacy AddFB), SetCrtc on the first connected
 *                       connector's CRTC in its first mode from (X, Y);
 *                       prints "shown CRTC HEAD WxH", then waits for a line
 *                       on stdin (test_kms takes the screenshot) and
 *                       turns the CRTC off
 *   kms-probe hostile   bad ids, short and bad arrays, bad framebuffers,
 *                       SetCrtc by a non-master, render-node refusals
 *   kms-probe events    page flips and vblank waits on the first connected
 *                       connector's CRTC: the events drmHandleEvent and
 *                       read() get, EBUSY while a flip is pending, the
 *                       sequences, and the kernel's errors for bad calls
 *
 * Each check prints "ok - ..." or "not ok - ..."; the last line is
 * "N failures". */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <drm_fourcc.h>
#include <drm_mode.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "tests/glx/kms-pattern.h"

static int failures;

#define CHECK(cond, ...) do { \
	if (cond) { printf("ok - "); } else { printf("not ok - "); failures++; } \
	printf(__VA_ARGS__); printf("\n"); } while (0)

static int open_node(const char *prefix)
{
	char p[64];
	for (unsigned i = 0; i < 256; i++) {
		snprintf(p, sizeof(p), "/dev/dri/%s%u", prefix, i);
		int fd = open(p, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			drmVersionPtr v = drmGetVersion(fd);
			int ours = v && !strcmp(v->name, "nouveau");
			drmFreeVersion(v);
			if (ours)
				return fd;
			close(fd);
		}
	}
	return -1;
}

static int probe_query(int fd)
{
	drmModeResPtr r = drmModeGetResources(fd);
	CHECK(r != NULL, "drmModeGetResources (%s)", r ? "ok" : strerror(errno));
	if (!r)
		return 1;
	printf("res fbs %d crtcs %d encoders %d connectors %d size %u-%u x %u-%u\n", r->count_fbs,
	       r->count_crtcs, r->count_encoders, r->count_connectors, r->min_width, r->max_width,
	       r->min_height, r->max_height);
	for (int i = 0; i < r->count_crtcs; i++) {
		drmModeCrtcPtr c = drmModeGetCrtc(fd, r->crtcs[i]);
		CHECK(c != NULL, "drmModeGetCrtc %u", r->crtcs[i]);
		if (c)
			printf("crtc %u index %d fb %u at %u,%u mode_valid %d %ux%u\n", c->crtc_id, i,
			       c->buffer_id, c->x, c->y, c->mode_valid, c->mode.hdisplay,
			       c->mode.vdisplay);
		drmModeFreeCrtc(c);
	}
	for (int i = 0; i < r->count_encoders; i++) {
		drmModeEncoderPtr e = drmModeGetEncoder(fd, r->encoders[i]);
		CHECK(e != NULL, "drmModeGetEncoder %u", r->encoders[i]);
		if (e)
			printf("enc %u type %u crtc %u possible 0x%x clones 0x%x\n", e->encoder_id,
			       e->encoder_type, e->crtc_id, e->possible_crtcs, e->possible_clones);
		drmModeFreeEncoder(e);
	}
	for (int i = 0; i < r->count_connectors; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(fd, r->connectors[i]);
		CHECK(c != NULL, "drmModeGetConnector %u", r->connectors[i]);
		if (!c)
			continue;
		printf("conn %u index %d type %u connection %d mm %ux%u encoder %u encoders %d first %u "
		       "modes %d props %d\n",
		       c->connector_id, i, c->connector_type, c->connection, c->mmWidth, c->mmHeight,
		       c->encoder_id, c->count_encoders, c->count_encoders ? c->encoders[0] : 0,
		       c->count_modes, c->count_props);
		for (int m = 0; m < c->count_modes; m++) {
			drmModeModeInfoPtr d = &c->modes[m];
			printf("mode %u %d %u %u %u %u %u %u %u %u %u %u %u 0x%x 0x%x %s\n", c->connector_id,
			       m, d->clock, d->hdisplay, d->hsync_start, d->hsync_end, d->htotal,
			       d->vdisplay, d->vsync_start, d->vsync_end, d->vtotal, d->vrefresh,
			       d->hskew, d->flags, d->type, d->name);
		}
		for (int k = 0; k < c->count_props; k++) {
			drmModePropertyPtr p = drmModeGetProperty(fd, c->props[k]);
			CHECK(p && !strcmp(p->name, "EDID") && (p->flags & DRM_MODE_PROP_BLOB) &&
			      (p->flags & DRM_MODE_PROP_IMMUTABLE), "connector %u property %u is EDID",
			      c->connector_id, c->props[k]);
			drmModeFreeProperty(p);
			drmModePropertyBlobPtr b = c->prop_values[k] ?
				drmModeGetPropertyBlob(fd, (uint32_t)c->prop_values[k]) : NULL;
			if (b) {
				printf("edid %u ", c->connector_id);
				for (uint32_t j = 0; j < b->length; j++)
					printf("%02x", ((const uint8_t *)b->data)[j]);
				printf("\n");
			}
			drmModeFreePropertyBlob(b);
		}
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(r);
	uint64_t cap = 7;
	CHECK(drmGetCap(fd, DRM_CAP_DUMB_BUFFER, &cap) == 0 && cap == 1, "DRM_CAP_DUMB_BUFFER is 1");
	CHECK(drmGetCap(fd, DRM_CAP_ASYNC_PAGE_FLIP, &cap) == 0 && cap == 0,
	      "DRM_CAP_ASYNC_PAGE_FLIP is 0");
	return 0;
}

struct dumb { uint32_t handle, pitch; uint64_t size; uint8_t *map; };

static int dumb_new(int fd, uint32_t w, uint32_t h, uint32_t bpp, struct dumb *d)
{
	struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = bpp };
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c) < 0)
		return -errno;
	struct drm_mode_map_dumb m = { .handle = c.handle };
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m) < 0)
		return -errno;
	void *p = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, m.offset);
	if (p == MAP_FAILED)
		return -errno;
	*d = (struct dumb){ c.handle, c.pitch, c.size, p };
	return 0;
}

static void dumb_free(int fd, struct dumb *d)
{
	struct drm_mode_destroy_dumb x = { .handle = d->handle };
	munmap(d->map, d->size);
	drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &x);
}

/* The first connected connector, its CRTC (from the encoder's
 * possible_crtcs) and first mode. */
static int first_output(int fd, uint32_t *conn, uint32_t *crtc, int *crtc_index,
			drmModeModeInfo *mode)
{
	drmModeResPtr r = drmModeGetResources(fd);
	int found = 0;
	for (int i = 0; r && !found && i < r->count_connectors; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(fd, r->connectors[i]);
		if (c && c->connection == DRM_MODE_CONNECTED && c->count_modes && c->count_encoders) {
			drmModeEncoderPtr e = drmModeGetEncoder(fd, c->encoders[0]);
			for (int k = 0; e && k < r->count_crtcs; k++)
				if (e->possible_crtcs & (1u << k)) {
					*conn = c->connector_id;
					*crtc = r->crtcs[k];
					*crtc_index = k;
					*mode = c->modes[0];
					found = 1;
					break;
				}
			drmModeFreeEncoder(e);
		}
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(r);
	return found ? 0 : -ENOENT;
}

static int probe_show(int fd, const char *fmt, uint32_t w, uint32_t h, uint32_t x, uint32_t y)
{
	int rgb565 = !strcmp(fmt, "rgb565");
	uint32_t fourcc = rgb565 ? DRM_FORMAT_RGB565 : !strcmp(fmt, "argb") ? DRM_FORMAT_ARGB8888
									     : DRM_FORMAT_XRGB8888;
	uint32_t conn = 0, crtc = 0, fb = 0;
	int index = -1;
	drmModeModeInfo mode = { 0 };
	struct dumb d;
	CHECK(first_output(fd, &conn, &crtc, &index, &mode) == 0, "a connected connector");
	int r = dumb_new(fd, w, h, rgb565 ? 16 : 32, &d);
	CHECK(r == 0, "CREATE_DUMB + MAP_DUMB + mmap %ux%u (%s)", w, h, strerror(-r));
	if (failures)
		return 1;
	CHECK(d.pitch % 256 == 0 && d.pitch >= w * (rgb565 ? 2 : 4), "dumb pitch %u", d.pitch);
	for (uint32_t j = 0; j < h; j++)
		for (uint32_t i = 0; i < w; i++) {
			uint32_t p = kms_pattern(i, j);
			uint8_t *q = d.map + (size_t)j * d.pitch + (size_t)i * (rgb565 ? 2 : 4);
			if (rgb565) {
				uint16_t v = kms_to_rgb565(p);
				q[0] = v & 0xff;
				q[1] = v >> 8;
			} else {
				q[0] = p & 0xff;
				q[1] = p >> 8 & 0xff;
				q[2] = p >> 16 & 0xff;
				q[3] = fourcc == DRM_FORMAT_ARGB8888 ? 0x80 : 0x5a;   /* ignored */
			}
		}
	if (rgb565) {
		r = drmModeAddFB(fd, w, h, 16, 16, d.pitch, d.handle, &fb);
	} else {
		uint32_t handles[4] = { d.handle }, pitches[4] = { d.pitch }, offsets[4] = { 0 };
		r = drmModeAddFB2(fd, w, h, fourcc, handles, pitches, offsets, &fb, 0);
	}
	CHECK(r == 0, "AddFB%s (%s)", rgb565 ? "" : "2", strerror(-r));
	drmModeFBPtr info = drmModeGetFB(fd, fb);
	CHECK(info && info->width == w && info->height == h && info->pitch == d.pitch &&
	      info->handle == d.handle && info->bpp == (rgb565 ? 16u : 32u), "GetFB says what AddFB got");
	drmModeFreeFB(info);
	r = drmModeSetCrtc(fd, crtc, fb, x, y, &conn, 1, &mode);
	CHECK(r == 0, "SetCrtc %u fb %u %ux%u at %u,%u (%s)", crtc, fb, mode.hdisplay, mode.vdisplay,
	      x, y, strerror(-r));
	drmModeCrtcPtr c = drmModeGetCrtc(fd, crtc);
	CHECK(c && c->buffer_id == fb && c->x == x && c->y == y && c->mode_valid &&
	      c->mode.hdisplay == mode.hdisplay && c->mode.vdisplay == mode.vdisplay,
	      "GetCrtc shows it");
	drmModeFreeCrtc(c);
	drmModeConnectorPtr cn = drmModeGetConnector(fd, conn);
	drmModeEncoderPtr e = cn ? drmModeGetEncoder(fd, cn->encoder_id) : NULL;
	CHECK(cn && e && e->crtc_id == crtc, "the connector's encoder drives the CRTC now");
	drmModeFreeEncoder(e);
	drmModeFreeConnector(cn);
	printf("shown %u %d %ux%u\n", crtc, index, mode.hdisplay, mode.vdisplay);
	fflush(stdout);
	char line[16];
	if (!fgets(line, sizeof(line), stdin))
		CHECK(0, "a line from test_kms");
	r = drmModeSetCrtc(fd, crtc, 0, 0, 0, NULL, 0, NULL);
	CHECK(r == 0, "SetCrtc off (%s)", strerror(-r));
	c = drmModeGetCrtc(fd, crtc);
	CHECK(c && !c->buffer_id && !c->mode_valid, "GetCrtc: off");
	drmModeFreeCrtc(c);
	CHECK(drmModeRmFB(fd, fb) == 0, "RmFB");
	CHECK(drmModeRmFB(fd, fb) == -ENOENT, "RmFB again: ENOENT");
	dumb_free(fd, &d);
	return 0;
}

static int probe_hostile(int fd)
{
	drmModeResPtr res = drmModeGetResources(fd);
	CHECK(res && res->count_crtcs == 2 && res->count_connectors == 2, "resources");
	if (!res)
		return 1;
	uint32_t crtc = res->crtcs[0], enc = res->encoders[0], conn = res->connectors[0];

	/* ids of the wrong type or of nothing */
	errno = 0;
	CHECK(!drmModeGetConnector(fd, crtc) && errno == ENOENT, "GetConnector(a crtc id): ENOENT");
	CHECK(!drmModeGetConnector(fd, 0) && errno == ENOENT, "GetConnector(0): ENOENT");
	CHECK(!drmModeGetEncoder(fd, conn) && errno == ENOENT, "GetEncoder(a connector id): ENOENT");
	CHECK(!drmModeGetCrtc(fd, enc) && errno == ENOENT, "GetCrtc(an encoder id): ENOENT");
	CHECK(!drmModeGetCrtc(fd, 0xffffffffu) && errno == ENOENT, "GetCrtc(~0): ENOENT");

	/* short arrays: only what fits; the rest untouched */
	uint32_t ids[4] = { 0xdead, 0xdead, 0xdead, 0xdead };
	struct drm_mode_card_res cr = { .crtc_id_ptr = (uintptr_t)ids, .count_crtcs = 1 };
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &cr) == 0 && cr.count_crtcs == 2 &&
	      ids[0] == crtc && ids[1] == 0xdead, "GETRESOURCES with room for 1 crtc: 1 written, count 2");
	struct drm_mode_modeinfo modes[2];
	memset(modes, 0x5a, sizeof(modes));
	struct drm_mode_get_connector gc = { .connector_id = conn };
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &gc) == 0 && gc.count_modes >= 2,
	      "GETCONNECTOR counts: %u modes", gc.count_modes);
	uint32_t n = gc.count_modes;
	gc = (struct drm_mode_get_connector){ .connector_id = conn, .count_modes = n - 1,
					      .modes_ptr = (uintptr_t)modes };
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &gc) == 0 && gc.count_modes == n &&
	      modes[0].clock == 0x5a5a5a5a, "GETCONNECTOR with room for fewer modes: none written");
	/* bad pointers: EFAULT, no crash */
	gc = (struct drm_mode_get_connector){ .connector_id = conn, .count_modes = n,
					      .modes_ptr = 16 };
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &gc) < 0 && errno == EFAULT,
	      "GETCONNECTOR into address 16: EFAULT");
	gc = (struct drm_mode_get_connector){ .connector_id = conn, .count_encoders = 1,
					      .encoders_ptr = (uintptr_t)probe_hostile };
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &gc) < 0 && errno == EFAULT,
	      "GETCONNECTOR into read-only code: EFAULT");
	cr = (struct drm_mode_card_res){ .connector_id_ptr = ~0ull - 3, .count_connectors = 2 };
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &cr) < 0 && errno == EFAULT,
	      "GETRESOURCES into a wrapping address: EFAULT");
	struct drm_mode_crtc sc = { .crtc_id = crtc, .set_connectors_ptr = 8, .count_connectors = 1 };
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_SETCRTC, &sc) < 0 && errno == EINVAL,
	      "SETCRTC connectors without a mode: EINVAL");

	/* the EDID blob: copied only with exactly its length */
	drmModeObjectPropertiesPtr op = drmModeObjectGetProperties(fd, conn, DRM_MODE_OBJECT_CONNECTOR);
	CHECK(op && op->count_props == 1 && op->prop_values[0], "the connector's properties: its EDID");
	uint8_t edid[256];
	memset(edid, 0x5a, sizeof(edid));
	struct drm_mode_get_blob gb = { .blob_id = op ? (uint32_t)op->prop_values[0] : 0, .length = 64,
					.data = (uintptr_t)edid };
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_GETPROPBLOB, &gb) == 0 && gb.length == 128 && edid[0] == 0x5a,
	      "GETPROPBLOB with room for 64 bytes: length 128, nothing written");
	gb.data = 16;
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_GETPROPBLOB, &gb) < 0 && errno == EFAULT,
	      "GETPROPBLOB into address 16: EFAULT");
	drmModeFreeObjectProperties(op);
	CHECK(!drmModeGetPropertyBlob(fd, 12345) && errno == ENOENT, "an unknown blob: ENOENT");
	CHECK(!drmModeGetProperty(fd, 12345) && errno == ENOENT, "an unknown property: ENOENT");
	op = drmModeObjectGetProperties(fd, enc, DRM_MODE_OBJECT_ENCODER);
	CHECK(!op && errno == EINVAL, "properties of an encoder: EINVAL (it has no list)");
	op = drmModeObjectGetProperties(fd, conn, DRM_MODE_OBJECT_CRTC);
	CHECK(!op && errno == ENOENT, "a connector's id as a CRTC: ENOENT");

	/* framebuffers */
	struct dumb d;
	CHECK(dumb_new(fd, 64, 64, 32, &d) == 0, "a 64x64 dumb buffer");
	uint32_t h4[4] = { d.handle }, p4[4] = { d.pitch }, o4[4] = { 0 }, fb = 0;
	CHECK(drmModeAddFB2(fd, 64, 64, DRM_FORMAT_XRGB8888, (uint32_t[4]){ 999 }, p4, o4, &fb, 0) ==
	      -ENOENT, "AddFB2 with an unknown handle: ENOENT");
	CHECK(drmModeAddFB2(fd, 64, 64, DRM_FORMAT_NV12, h4, p4, o4, &fb, 0) == -EINVAL,
	      "AddFB2 NV12: EINVAL");
	CHECK(drmModeAddFB2(fd, 64, 64, DRM_FORMAT_XRGB8888, h4, (uint32_t[4]){ 64 }, o4, &fb, 0) ==
	      -EINVAL, "AddFB2 with a pitch shorter than a line: EINVAL");
	CHECK(drmModeAddFB2(fd, 64, 65, DRM_FORMAT_XRGB8888, h4, p4, o4, &fb, 0) < 0,
	      "AddFB2 taller than the buffer: refused");
	CHECK(drmModeAddFB2(fd, 64, 64, DRM_FORMAT_XRGB8888, h4, p4, (uint32_t[4]){ 4096 }, &fb, 0) <
	      0, "AddFB2 at an offset past the room: refused");
	CHECK(drmModeAddFB2(fd, 64, 64, DRM_FORMAT_XRGB8888, h4, (uint32_t[4]){ 0x10000000 },
			    (uint32_t[4]){ 0xfffff000 }, &fb, 0) == -ERANGE,
	      "AddFB2 whose end passes 4 GiB: ERANGE");
	CHECK(drmModeAddFB2(fd, 0, 64, DRM_FORMAT_XRGB8888, h4, p4, o4, &fb, 0) == -EINVAL,
	      "AddFB2 0 wide: EINVAL");
	CHECK(drmModeAddFB(fd, 64, 64, 24, 24, d.pitch, d.handle, &fb) == -EINVAL,
	      "AddFB 24 bpp: EINVAL");
	CHECK(drmModeRmFB(fd, 12345) == -ENOENT, "RmFB of an unknown fb: ENOENT");
	CHECK(drmModeAddFB2(fd, 64, 64, DRM_FORMAT_XRGB8888, h4, p4, o4, &fb, 0) == 0, "AddFB2 64x64");
	drmModeResPtr r2 = drmModeGetResources(fd);
	CHECK(r2 && r2->count_fbs == 1 && r2->fbs[0] == fb, "GetResources lists the fb");
	drmModeFreeResources(r2);

	/* SetCrtc checks */
	drmModeConnectorPtr c = drmModeGetConnector(fd, conn);
	drmModeModeInfo mode = c->modes[0];
	CHECK(drmModeSetCrtc(fd, crtc, fb, 0, 0, &conn, 1, &mode) == -ENOSPC,
	      "SetCrtc %ux%u on a 64x64 fb: ENOSPC", mode.hdisplay, mode.vdisplay);
	CHECK(drmModeSetCrtc(fd, 77, fb, 0, 0, &conn, 1, &mode) == -ENOENT, "SetCrtc on crtc 77: ENOENT");
	CHECK(drmModeSetCrtc(fd, crtc, fb + 1000, 0, 0, &conn, 1, &mode) == -ENOENT,
	      "SetCrtc with an unknown fb: ENOENT");
	/* a mode the 64x64 fb holds, for the checks after the viewport's */
	drmModeModeInfo tiny = mode;
	tiny.hdisplay = tiny.vdisplay = 32;
	uint32_t bad = crtc;
	CHECK(drmModeSetCrtc(fd, crtc, fb, 0, 0, &bad, 1, &tiny) == -ENOENT,
	      "SetCrtc with a crtc id as connector: ENOENT");
	uint32_t other = res->connectors[1];
	CHECK(drmModeSetCrtc(fd, crtc, fb, 0, 0, &other, 1, &tiny) == -EINVAL,
	      "SetCrtc with the other head's connector: EINVAL");
	drmModeModeInfo broken = mode;
	broken.hsync_start = broken.hdisplay - 1;
	CHECK(drmModeSetCrtc(fd, crtc, fb, 0, 0, &conn, 1, &broken) == -EINVAL,
	      "SetCrtc with hsync before the picture ends: EINVAL");
	broken = mode;
	broken.flags |= DRM_MODE_FLAG_INTERLACE;
	CHECK(drmModeSetCrtc(fd, crtc, fb, 0, 0, &conn, 1, &broken) == -EINVAL,
	      "SetCrtc interlaced: EINVAL");
	CHECK(drmModeSetCrtc(fd, crtc, fb, 0x10000, 0, &conn, 1, &mode) == -ERANGE,
	      "SetCrtc x = 65536: ERANGE");
	CHECK(drmModePageFlip(fd, crtc, fb, DRM_MODE_PAGE_FLIP_EVENT, NULL) == -EBUSY,
	      "PageFlip on a CRTC that shows nothing: EBUSY");
	drmModeFreeConnector(c);

	/* a second open of the node is no master: SetCrtc EACCES, looking is fine */
	int fd2 = open_node("card");
	CHECK(fd2 >= 0, "a second open of the primary node");
	drmModeResPtr r3 = drmModeGetResources(fd2);
	CHECK(r3 != NULL, "GetResources by a non-master");
	drmModeFreeResources(r3);
	CHECK(drmModeSetCrtc(fd2, crtc, 0, 0, 0, NULL, 0, NULL) == -EACCES,
	      "SetCrtc by a non-master: EACCES");
	CHECK(drmModeSetCrtc(fd2, 77, 0, 0, 0, NULL, 0, NULL) == -EACCES,
	      "SetCrtc by a non-master on a bad crtc: EACCES first");
	CHECK(drmSetMaster(fd2) < 0 && errno == EBUSY, "SET_MASTER while another file is: EBUSY");
	CHECK(drmModeRmFB(fd2, fb) == -ENOENT, "RmFB of another file's fb: ENOENT");
	close(fd2);

	/* render nodes have no KMS and are never master */
	int rfd = open_node("renderD");
	CHECK(rfd >= 0, "the render node");
	errno = 0;
	CHECK(!drmModeGetResources(rfd) && errno == EACCES, "GetResources on the render node: EACCES");
	CHECK(drmSetMaster(rfd) < 0 && errno == EACCES, "SET_MASTER on the render node: EACCES");
	struct drm_mode_create_dumb cd = { .width = 8, .height = 8, .bpp = 32 };
	CHECK(drmIoctl(rfd, DRM_IOCTL_MODE_CREATE_DUMB, &cd) < 0 && errno == EACCES,
	      "CREATE_DUMB on the render node: EACCES");
	close(rfd);

	/* dumb buffers: sizes */
	struct drm_mode_create_dumb big = { .width = 0x10000, .height = 0x10000, .bpp = 32 };
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &big) < 0, "CREATE_DUMB 65536x65536: refused");
	big = (struct drm_mode_create_dumb){ .width = 0x40000000, .height = 1, .bpp = 32 };
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &big) < 0 && errno == EINVAL,
	      "CREATE_DUMB whose pitch overflows: EINVAL");
	struct drm_mode_map_dumb md = { .handle = 4242 };
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &md) < 0 && errno == ENOENT,
	      "MAP_DUMB of an unknown handle: ENOENT");

	CHECK(drmModeRmFB(fd, fb) == 0, "RmFB");
	dumb_free(fd, &d);
	drmModeFreeResources(res);
	return 0;
}

/* ---- events ---- */

/* What drmHandleEvent handed over last. */
static struct {
	unsigned flips, vblanks, sequences;
	unsigned seq, crtc;
	uint64_t seq64, data;
} got;

static void on_flip(int fd, unsigned seq, unsigned sec, unsigned usec, unsigned crtc, void *data)
{
	(void)fd; (void)sec; (void)usec;
	got.flips++;
	got.seq = seq;
	got.crtc = crtc;
	got.data = (uintptr_t)data;
}

static void on_vblank(int fd, unsigned seq, unsigned sec, unsigned usec, void *data)
{
	(void)fd; (void)sec; (void)usec;
	got.vblanks++;
	got.seq = seq;
	got.data = (uintptr_t)data;
}

static void on_sequence(int fd, uint64_t seq, uint64_t ns, uint64_t data)
{
	(void)fd; (void)ns;
	got.sequences++;
	got.seq64 = seq;
	got.data = data;
}

/* The fd readable within ms, then one drmHandleEvent (never a blocking
 * read on an fd with nothing queued). */
static int handle_one(int fd, int ms)
{
	struct pollfd p = { fd, POLLIN, 0 };
	if (poll(&p, 1, ms) != 1)
		return -ETIMEDOUT;
	drmEventContext ev = { .version = 4, .vblank_handler = on_vblank,
			       .page_flip_handler2 = on_flip, .sequence_handler = on_sequence };
	return drmHandleEvent(fd, &ev);
}

static uint64_t mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + t.tv_nsec;
}

static int probe_events(int fd)
{
	uint32_t conn = 0, crtc = 0, fb[2] = { 0, 0 };
	int index = -1;
	drmModeModeInfo mode = { 0 };
	struct dumb d[2];
	CHECK(first_output(fd, &conn, &crtc, &index, &mode) == 0, "a connected connector");
	for (int i = 0; i < 2; i++) {
		CHECK(dumb_new(fd, mode.hdisplay, mode.vdisplay, 32, &d[i]) == 0, "dumb buffer %d", i);
		if (failures)
			return 1;
		memset(d[i].map, i ? 0xff : 0x40, d[i].size);
		uint32_t h4[4] = { d[i].handle }, p4[4] = { d[i].pitch }, o4[4] = { 0 };
		CHECK(drmModeAddFB2(fd, mode.hdisplay, mode.vdisplay, DRM_FORMAT_XRGB8888, h4, p4, o4,
				    &fb[i], 0) == 0, "AddFB2 %d", i);
	}
	uint64_t cap = 7;
	CHECK(drmGetCap(fd, DRM_CAP_CRTC_IN_VBLANK_EVENT, &cap) == 0 && cap == 1,
	      "DRM_CAP_CRTC_IN_VBLANK_EVENT is 1");
	CHECK(drmGetCap(fd, DRM_CAP_ASYNC_PAGE_FLIP, &cap) == 0 && cap == 0,
	      "DRM_CAP_ASYNC_PAGE_FLIP is 0");
	uint64_t s0 = 0, ns0 = 0;
	CHECK(drmCrtcGetSequence(fd, crtc, &s0, &ns0) == -1 && errno == EINVAL,
	      "CRTC_GET_SEQUENCE on a CRTC that is off: EINVAL");
	CHECK(drmModePageFlip(fd, crtc, fb[1], DRM_MODE_PAGE_FLIP_EVENT, NULL) == -EBUSY,
	      "PageFlip on a CRTC that is off: EBUSY");
	CHECK(drmModeSetCrtc(fd, crtc, fb[0], 0, 0, &conn, 1, &mode) == 0, "SetCrtc fb %u", fb[0]);
	CHECK(drmCrtcGetSequence(fd, crtc, &s0, &ns0) == 0, "CRTC_GET_SEQUENCE");
	uint64_t now = mono_ns();
	CHECK(ns0 <= now && now - ns0 < 1000000000u, "its time is the last vblank's (%llu ns ago)",
	      (unsigned long long)(now - ns0));

	/* flips: each event after its vblank, with the flip's user_data */
	unsigned last = (unsigned)s0;
	for (int i = 1; i <= 4; i++) {
		uint32_t to = fb[i & 1];
		memset(&got, 0, sizeof(got));
		int r = drmModePageFlip(fd, crtc, to, DRM_MODE_PAGE_FLIP_EVENT, (void *)(uintptr_t)(0x1000 + i));
		CHECK(r == 0, "PageFlip %d to fb %u (%s)", i, to, strerror(-r));
		if (i == 1)
			CHECK(drmModePageFlip(fd, crtc, fb[0], DRM_MODE_PAGE_FLIP_EVENT, NULL) == -EBUSY,
			      "a second PageFlip while one is pending: EBUSY");
		CHECK(handle_one(fd, 2000) == 0 && got.flips == 1, "flip %d: one event", i);
		CHECK(got.data == 0x1000u + i, "flip %d: user_data 0x%llx", i, (unsigned long long)got.data);
		CHECK(got.crtc == crtc, "flip %d: crtc_id %u", i, got.crtc);
		CHECK((int)(got.seq - last) >= 1, "flip %d: sequence %u after %u", i, got.seq, last);
		last = got.seq;
		drmModeCrtcPtr c = drmModeGetCrtc(fd, crtc);
		CHECK(c && c->buffer_id == to, "flip %d: GetCrtc shows fb %u", i, to);
		drmModeFreeCrtc(c);
	}
	/* a flip without EVENT has none: the next event is the next flip's */
	CHECK(drmModePageFlip(fd, crtc, fb[1], 0, (void *)1) == 0, "PageFlip without EVENT");
	int r;
	for (unsigned tries = 0; (r = drmModePageFlip(fd, crtc, fb[0], DRM_MODE_PAGE_FLIP_EVENT,
						     (void *)0x2000)) == -EBUSY && tries < 200; tries++)
		usleep(1000);
	CHECK(r == 0, "PageFlip with EVENT once it is done (%s)", strerror(-r));
	memset(&got, 0, sizeof(got));
	CHECK(handle_one(fd, 2000) == 0 && got.flips == 1 && got.data == 0x2000,
	      "the only event is the EVENT flip's (user_data 0x%llx)", (unsigned long long)got.data);

	/* WAIT_VBLANK, blocking: relative +2 */
	drmVBlank vb = { .request = { .type = DRM_VBLANK_RELATIVE, .sequence = 0 } };
	CHECK(drmWaitVBlank(fd, &vb) == 0, "WAIT_VBLANK query");
	unsigned before = vb.reply.sequence;
	vb = (drmVBlank){ .request = { .type = DRM_VBLANK_RELATIVE, .sequence = 2 } };
	CHECK(drmWaitVBlank(fd, &vb) == 0 && (int)(vb.reply.sequence - before) >= 2,
	      "WAIT_VBLANK relative 2: %u after %u", vb.reply.sequence, before);
	now = mono_ns();
	uint64_t at = (uint64_t)vb.reply.tval_sec * 1000000000u + vb.reply.tval_usec * 1000u;
	CHECK(at <= now && now - at < 50000000u, "its time is the vblank just passed");
	before = vb.reply.sequence;
	vb = (drmVBlank){ .request = { .type = DRM_VBLANK_ABSOLUTE, .sequence = before + 1 } };
	CHECK(drmWaitVBlank(fd, &vb) == 0 && (int)(vb.reply.sequence - before) >= 1,
	      "WAIT_VBLANK absolute %u: %u", before + 1, vb.reply.sequence);
	vb = (drmVBlank){ .request = { .type = DRM_VBLANK_ABSOLUTE, .sequence = before - 5 } };
	CHECK(drmWaitVBlank(fd, &vb) == 0 && (int)(vb.reply.sequence - before) >= 0,
	      "WAIT_VBLANK for a vblank passed: at once");

	/* WAIT_VBLANK, EVENT: a 32-byte VBLANK record, crtc_id filled */
	vb = (drmVBlank){ .request = { .type = DRM_VBLANK_RELATIVE | DRM_VBLANK_EVENT, .sequence = 1,
				      .signal = 0x3000 } };
	CHECK(drmWaitVBlank(fd, &vb) == 0, "WAIT_VBLANK EVENT relative 1 (target %u)",
	      vb.reply.sequence);
	unsigned target = vb.reply.sequence;
	struct pollfd p = { fd, POLLIN, 0 };
	uint8_t buf[1024];
	CHECK(poll(&p, 1, 2000) == 1, "the fd becomes readable");
	CHECK(read(fd, buf, 16) == 0, "a read with no room for a record: 0");
	ssize_t n = read(fd, buf, sizeof(buf));
	struct drm_event_vblank ev;
	memcpy(&ev, buf, sizeof(ev));
	CHECK(n == 32 && ev.base.type == DRM_EVENT_VBLANK && ev.base.length == 32 &&
	      ev.user_data == 0x3000 && ev.crtc_id == crtc && ev.sequence == target,
	      "read: one VBLANK record (%zd bytes, type %u, sequence %u, crtc %u)", n, ev.base.type,
	      ev.sequence, ev.crtc_id);
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	errno = 0;
	CHECK(read(fd, buf, sizeof(buf)) == -1 && errno == EAGAIN, "read with nothing queued, O_NONBLOCK: EAGAIN");
	fcntl(fd, F_SETFL, fl);
	/* two events, one read */
	for (unsigned i = 0; i < 2; i++) {
		vb = (drmVBlank){ .request = { .type = DRM_VBLANK_RELATIVE | DRM_VBLANK_EVENT,
					      .sequence = 0, .signal = 0x4000 + i } };
		CHECK(drmWaitVBlank(fd, &vb) == 0, "WAIT_VBLANK EVENT now, %u", i);
	}
	usleep(20000);
	n = read(fd, buf, sizeof(buf));
	memcpy(&ev, buf + 32, sizeof(ev));
	CHECK(n == 64 && ev.user_data == 0x4001, "both in one read (%zd bytes)", n);

	/* CRTC_QUEUE_SEQUENCE: a CRTC_SEQUENCE event at the target */
	uint64_t s1 = 0, queued = 0;
	CHECK(drmCrtcGetSequence(fd, crtc, &s1, &ns0) == 0 && s1 > s0, "the sequence went on: %llu",
	      (unsigned long long)s1);
	CHECK(drmCrtcQueueSequence(fd, crtc, DRM_CRTC_SEQUENCE_RELATIVE, 3, &queued, 0x5000) == 0 &&
	      queued >= s1 + 3, "CRTC_QUEUE_SEQUENCE relative 3: target %llu",
	      (unsigned long long)queued);
	memset(&got, 0, sizeof(got));
	CHECK(handle_one(fd, 2000) == 0 && got.sequences == 1 && got.data == 0x5000 &&
	      got.seq64 == queued, "its event: sequence %llu", (unsigned long long)got.seq64);

	/* bad calls: the kernel's errors */
	struct drm_mode_crtc_page_flip pf = { .crtc_id = crtc, .fb_id = fb[1],
					      .flags = DRM_MODE_PAGE_FLIP_EVENT, .reserved = 1 };
	errno = 0;
	CHECK(drmIoctl(fd, DRM_IOCTL_MODE_PAGE_FLIP, &pf) == -1 && errno == EINVAL,
	      "PageFlip with reserved set: EINVAL");
	CHECK(drmModePageFlip(fd, crtc, fb[1], 0x80, NULL) == -EINVAL, "PageFlip flags 0x80: EINVAL");
	CHECK(drmModePageFlip(fd, crtc, fb[1], DRM_MODE_PAGE_FLIP_ASYNC, NULL) == -EINVAL,
	      "PageFlip ASYNC (the cap is 0): EINVAL");
	CHECK(drmModePageFlip(fd, crtc, fb[1], DRM_MODE_PAGE_FLIP_TARGET_RELATIVE, NULL) == -EINVAL,
	      "PageFlip TARGET_RELATIVE (no targets): EINVAL");
	CHECK(drmModePageFlip(fd, 77, fb[1], DRM_MODE_PAGE_FLIP_EVENT, NULL) == -ENOENT,
	      "PageFlip on crtc 77: ENOENT");
	CHECK(drmModePageFlip(fd, crtc, fb[1] + 1000, DRM_MODE_PAGE_FLIP_EVENT, NULL) == -ENOENT,
	      "PageFlip to an unknown fb: ENOENT");
	struct dumb small;
	uint32_t sfb = 0;
	CHECK(dumb_new(fd, 64, 64, 32, &small) == 0, "a 64x64 dumb buffer");
	uint32_t h4[4] = { small.handle }, p4[4] = { small.pitch }, o4[4] = { 0 };
	CHECK(drmModeAddFB2(fd, 64, 64, DRM_FORMAT_XRGB8888, h4, p4, o4, &sfb, 0) == 0, "AddFB2 64x64");
	CHECK(drmModePageFlip(fd, crtc, sfb, DRM_MODE_PAGE_FLIP_EVENT, NULL) == -ENOSPC,
	      "PageFlip to a fb smaller than the mode: ENOSPC");
	drmModeRmFB(fd, sfb);
	dumb_free(fd, &small);
	vb = (drmVBlank){ .request = { .type = DRM_VBLANK_RELATIVE | DRM_VBLANK_SIGNAL, .sequence = 1 } };
	CHECK(drmIoctl(fd, DRM_IOCTL_WAIT_VBLANK, &vb) == -1 && errno == EINVAL, "WAIT_VBLANK SIGNAL: EINVAL");
	vb = (drmVBlank){ .request = { .type = DRM_VBLANK_RELATIVE | (5 << DRM_VBLANK_HIGH_CRTC_SHIFT),
				      .sequence = 1 } };
	CHECK(drmIoctl(fd, DRM_IOCTL_WAIT_VBLANK, &vb) == -1 && errno == EINVAL, "WAIT_VBLANK on crtc index 5: EINVAL");
	vb = (drmVBlank){ .request = { .type = DRM_VBLANK_RELATIVE | 0x100, .sequence = 1 } };
	CHECK(drmIoctl(fd, DRM_IOCTL_WAIT_VBLANK, &vb) == -1 && errno == EINVAL, "WAIT_VBLANK unknown bit 0x100: EINVAL");
	uint32_t other = crtc == 1 ? 2 : 1;
	vb = (drmVBlank){ .request = { .type = DRM_VBLANK_RELATIVE | DRM_VBLANK_SECONDARY * (other == 2),
				      .sequence = 1 } };
	CHECK(drmIoctl(fd, DRM_IOCTL_WAIT_VBLANK, &vb) == -1 && errno == EINVAL,
	      "WAIT_VBLANK on the CRTC that is off: EINVAL");
	CHECK(drmCrtcGetSequence(fd, 77, &s1, &ns0) == -1 && errno == ENOENT, "CRTC_GET_SEQUENCE crtc 77: ENOENT");
	CHECK(drmCrtcQueueSequence(fd, 77, 0, 1, &queued, 0) == -1 && errno == ENOENT,
	      "CRTC_QUEUE_SEQUENCE crtc 77: ENOENT");
	CHECK(drmCrtcQueueSequence(fd, crtc, 4, 1, &queued, 0) == -1 && errno == EINVAL,
	      "CRTC_QUEUE_SEQUENCE flags 4: EINVAL");
	/* a non-master may look, not flip */
	int fd2 = open_node("card");
	CHECK(drmCrtcGetSequence(fd2, crtc, &s1, &ns0) == 0, "CRTC_GET_SEQUENCE by a non-master");
	CHECK(drmModePageFlip(fd2, crtc, fb[1], DRM_MODE_PAGE_FLIP_EVENT, NULL) == -EACCES,
	      "PageFlip by a non-master: EACCES");
	close(fd2);
	int rfd = open_node("renderD");
	vb = (drmVBlank){ .request = { .type = DRM_VBLANK_RELATIVE, .sequence = 1 } };
	CHECK(drmIoctl(rfd, DRM_IOCTL_WAIT_VBLANK, &vb) == -1 && errno == EACCES,
	      "WAIT_VBLANK on the render node: EACCES");
	close(rfd);

	CHECK(drmModeSetCrtc(fd, crtc, 0, 0, 0, NULL, 0, NULL) == 0, "SetCrtc off");
	for (int i = 0; i < 2; i++) {
		drmModeRmFB(fd, fb[i]);
		dumb_free(fd, &d[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: kms-probe query|show FMT W H X Y|hostile|events\n");
		return 2;
	}
	int fd = open_node("card");
	CHECK(fd >= 0, "open the primary node");
	if (fd < 0) {
		printf("%d failures\n", failures);
		return 1;
	}
	if (!strcmp(argv[1], "query"))
		probe_query(fd);
	else if (!strcmp(argv[1], "show") && argc == 7)
		probe_show(fd, argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6]));
	else if (!strcmp(argv[1], "hostile"))
		probe_hostile(fd);
	else if (!strcmp(argv[1], "events"))
		probe_events(fd);
	else
		CHECK(0, "known check %s", argv[1]);
	close(fd);
	printf("%d failures\n", failures);
	return failures != 0;
}
