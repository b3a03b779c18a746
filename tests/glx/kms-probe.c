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
 *
 * Each check prints "ok - ..." or "not ok - ..."; the last line is
 * "N failures". */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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
	CHECK(drmModePageFlip(fd, crtc, fb, DRM_MODE_PAGE_FLIP_EVENT, NULL) == -EINVAL,
	      "PageFlip: EINVAL (not yet)");
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

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: kms-probe query|show FMT W H X Y|hostile\n");
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
	else
		CHECK(0, "known check %s", argv[1]);
	close(fd);
	printf("%d failures\n", failures);
	return failures != 0;
}
