/* gl-gbm: the GL checks (glcommon.h) on GBM: open /dev/dri/renderD128,
 * gbm_create_device, eglGetPlatformDisplay(EGL_PLATFORM_GBM_KHR), a context
 * with no surface; with --surface also a gbm_surface window: a clear and a
 * scissored box on the default framebuffer, read back with glReadPixels
 * and, after eglSwapBuffers, from the front buffer's gbm_bo_map. */
#include <fcntl.h>

#include <gbm.h>

#include "tests/gl/glcommon.h"

#define GBM_W 96
#define GBM_H 40

/* Expected XRGB8888 front buffer: the clear colour with a box at the
 * bottom-left of GL's (lower-left origin) window, i.e. in the buffer's
 * last rows. */
static void gbm_check_front(struct gbm_surface *gs, struct glc_rgba bg, struct glc_rgba box,
			    unsigned bx, unsigned by, unsigned bw, unsigned bh)
{
	struct gbm_bo *bo = gbm_surface_lock_front_buffer(gs);
	if (!glc_check(bo != NULL, "gbm_surface_lock_front_buffer after eglSwapBuffers"))
		return;
	uint32_t stride = 0;
	void *data = NULL;
	uint8_t *map = gbm_bo_map(bo, 0, 0, GBM_W, GBM_H, GBM_BO_TRANSFER_READ, &stride, &data);
	if (glc_check(map != NULL && stride >= GBM_W * 4, "gbm_bo_map of the front buffer "
		      "(stride %u)", stride)) {
		unsigned bad = 0;
		for (unsigned row = 0; row < GBM_H; row++)
			for (unsigned x = 0; x < GBM_W; x++) {
				unsigned y = GBM_H - 1 - row;       /* GL's row */
				int in = x >= bx && x < bx + bw && y >= by && y < by + bh;
				struct glc_rgba c = in ? box : bg;
				const uint8_t *p = map + (size_t)row * stride + (size_t)x * 4;
				/* XRGB8888 little-endian: B G R X */
				if (p[0] != c.b || p[1] != c.g || p[2] != c.r) {
					if (bad < 4)
						glc_note("front buffer (%u,%u) is %02x%02x%02x, "
							 "expected %02x%02x%02x", x, row, p[2],
							 p[1], p[0], c.r, c.g, c.b);
					bad++;
				}
			}
		glc_check(!bad, "front buffer %ux%u through gbm_bo_map equals the clears "
			  "(%u pixels differ)", GBM_W, GBM_H, bad);
		gbm_bo_unmap(bo, data);
	}
	gbm_surface_release_buffer(gs, bo);
}

static void gbm_check_surface(struct glc_egl *e, struct gbm_surface *gs, const struct glc_opts *o)
{
	struct glc_gl gl;
	e->surf = eglCreatePlatformWindowSurface(e->dpy, e->cfg, gs, NULL);
	if (!glc_egl_check(e->surf != EGL_NO_SURFACE,
			   "eglCreatePlatformWindowSurface on a gbm_surface"))
		return;
	if (!glc_egl_check(eglMakeCurrent(e->dpy, e->surf, e->surf, e->ctx),
			   "eglMakeCurrent with the window surface"))
		return;
	/* the window's results say nothing about the card on another renderer */
	if (glc_gl_load(&gl, o->gles) < 0 || !glc_check_renderer(&gl, o))
		return;
	struct glc_rgba bg = { 0x30, 0x60, 0x90, 0xff }, box = { 0xf0, 0x0f, 0x80, 0xff };
	const unsigned bx = 5, by = 3, bw = 21, bh = 7;
	uint8_t *want = malloc(GBM_W * GBM_H * 4);
	if (!want)
		return;
	gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
	gl.Viewport(0, 0, GBM_W, GBM_H);
	glc_clear_color(&gl, bg);
	gl.Clear(GL_COLOR_BUFFER_BIT);
	gl.Enable(GL_SCISSOR_TEST);
	gl.Scissor(bx, by, bw, bh);
	glc_clear_color(&gl, box);
	gl.Clear(GL_COLOR_BUFFER_BIT);
	gl.Disable(GL_SCISSOR_TEST);
	glc_fill_rgba(want, GBM_W, 0, 0, GBM_W, GBM_H, bg);
	glc_fill_rgba(want, GBM_W, bx, by, bx + bw, by + bh, box);
	/* the config may have no alpha: compare alpha as read */
	uint8_t *got = malloc(GBM_W * GBM_H * 4);
	if (got) {
		gl.PixelStorei(GL_PACK_ALIGNMENT, 1);
		gl.ReadPixels(0, 0, GBM_W, GBM_H, GL_RGBA, GL_UNSIGNED_BYTE, got);
		for (size_t i = 3; i < GBM_W * GBM_H * 4; i += 4)
			want[i] = got[i];
		glc_check(glc_gl_clean(&gl, "window read") &&
			  glc_same(want, got, GBM_W, GBM_H, 4, "window"),
			  "gbm window %ux%u: clear + scissored clear read back with glReadPixels",
			  GBM_W, GBM_H);
		free(got);
	}
	free(want);
	if (glc_egl_check(eglSwapBuffers(e->dpy, e->surf), "eglSwapBuffers"))
		gbm_check_front(gs, bg, box, bx, by, bw, bh);
}

int main(int argc, char **argv)
{
	struct glc_opts o;
	struct glc_egl e = { .dpy = EGL_NO_DISPLAY };
	struct gbm_surface *gs = NULL;

	glc_parse(argc, argv, &o, 1);
	glc_start(&o);
	glc_note("GBM, %s%s", o.gles ? "GLES2" : "desktop GL", o.surface ? ", window surface" : "");
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	if (!glc_check(fd >= 0, "open /dev/dri/renderD128 (%s)", fd < 0 ? strerror(errno) : "ok"))
		return glc_summary();
	struct gbm_device *gbm = gbm_create_device(fd);
	if (!glc_check(gbm != NULL, "gbm_create_device"))
		goto out;
	glc_note("GBM backend %s", gbm_device_get_backend_name(gbm));
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_GBM_KHR, gbm, NULL);
	if (glc_egl_context(&e, dpy, o.gles, o.surface ? GBM_FORMAT_XRGB8888 : 0) == 0) {
		if (o.surface) {
			gs = gbm_surface_create(gbm, GBM_W, GBM_H, GBM_FORMAT_XRGB8888,
						GBM_BO_USE_RENDERING);
			if (glc_check(gs != NULL, "gbm_surface_create %ux%u XRGB8888", GBM_W,
				      GBM_H))
				gbm_check_surface(&e, gs, &o);
		}
		glc_run_checks(&o);
	}
	glc_egl_fini(&e);
	if (gs)
		gbm_surface_destroy(gs);
	gbm_device_destroy(gbm);
out:
	close(fd);
	return glc_summary();
}
