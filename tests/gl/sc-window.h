/* gl-scenes --window: the scene drawn in an X window through GLX (direct
 * rendering: DRI2 under nvd-run, drisw on llvmpipe) instead of an FBO, for
 * the X tests.  The window is override-redirect (no window manager), the
 * scene goes to the back buffer and glXSwapBuffers shows it; after the last
 * frame the program prints "shown" and waits for its stdin to close, so
 * that the test can take the screen's picture while the window is there.
 *
 *   --window X,Y      the window's place (its size is --size)
 *   --frames N        draw and swap N times (default 1)
 *   --move X,Y,W,H    then move and resize the window, draw and swap again
 *   --cover X,Y,W,H   a plain window in a solid colour (0x40c0a0) above it,
 *                     made before the GL window's first frame
 *   --swap-interval N glXSwapIntervalMESA(N) before the first frame (else
 *                     Mesa's own: 1, or what vblank_mode says)
 *   --oml             print GLX_OML_sync_control's (UST, MSC, SBC) before the
 *                     first frame ("oml before: ...") and once every swap has
 *                     completed (glXWaitForSbcOML, then glXGetSyncValuesOML:
 *                     "oml after: ...")
 *   --wait-msc K      with --oml, then glXWaitForMscOML to the MSC after + K
 *                     ("oml wait: target T msc M") */
#ifndef SC_WINDOW_H
#define SC_WINDOW_H

#include <GL/glx.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

struct sc_window_opts {
	int x, y;
	unsigned frames;
	int move;                  /* then mx, my, mw, mh */
	int mx, my, mw, mh;
	int cover;                 /* cx, cy, cw, ch */
	int cx, cy, cw, ch;
	int swap_interval;         /* -1: Mesa's */
	int oml;
	unsigned wait_msc;
};

typedef Bool (*sc_get_sync_values_fn)(Display *, GLXDrawable, int64_t *, int64_t *, int64_t *);
typedef Bool (*sc_wait_for_sbc_fn)(Display *, GLXDrawable, int64_t, int64_t *, int64_t *,
				   int64_t *);
typedef Bool (*sc_wait_for_msc_fn)(Display *, GLXDrawable, int64_t, int64_t, int64_t, int64_t *,
				   int64_t *, int64_t *);
typedef int (*sc_swap_interval_fn)(unsigned);

static void *sc_glx_proc(const char *name)
{
	return (void *)glXGetProcAddressARB((const GLubyte *)name);
}

/* The swap interval before the frames; 0 or -1 (said why). */
static int sc_window_interval(Display *dpy, const struct sc_window_opts *o)
{
	if (o->swap_interval < 0)
		return 0;
	const char *ext = glXQueryExtensionsString(dpy, DefaultScreen(dpy));
	sc_swap_interval_fn set = (sc_swap_interval_fn)sc_glx_proc("glXSwapIntervalMESA");
	if (!ext || !strstr(ext, "GLX_MESA_swap_control") || !set) {
		fprintf(stderr, "gl-scenes: no GLX_MESA_swap_control\n");
		return -1;
	}
	int r = set((unsigned)o->swap_interval);
	printf("swap interval %d: %s\n", o->swap_interval, r ? "refused" : "set");
	return r ? -1 : 0;
}

/* "oml WHAT: ust U msc M sbc S"; 0 or -1. */
static int sc_window_oml(Display *dpy, Window win, const char *what, int wait_sbc, int64_t *msc)
{
	const char *ext = glXQueryExtensionsString(dpy, DefaultScreen(dpy));
	sc_get_sync_values_fn get = (sc_get_sync_values_fn)sc_glx_proc("glXGetSyncValuesOML");
	sc_wait_for_sbc_fn wait = (sc_wait_for_sbc_fn)sc_glx_proc("glXWaitForSbcOML");
	int64_t ust = 0, sbc = 0;
	if (!ext || !strstr(ext, "GLX_OML_sync_control") || !get || !wait) {
		fprintf(stderr, "gl-scenes: no GLX_OML_sync_control\n");
		return -1;
	}
	/* target 0: until every swap asked for has completed (a swap the
	 * server did at once, interval 0, reports MSC 0: ask again) */
	if ((wait_sbc && !wait(dpy, win, 0, &ust, msc, &sbc)) || !get(dpy, win, &ust, msc, &sbc)) {
		fprintf(stderr, "gl-scenes: glXWaitForSbcOML or glXGetSyncValuesOML failed\n");
		return -1;
	}
	printf("oml %s: ust %lld msc %lld sbc %lld\n", what, (long long)ust, (long long)*msc,
	       (long long)sbc);
	return 0;
}

/* glXWaitForMscOML to target: "oml wait: target T msc M"; 0 or -1. */
static int sc_window_wait_msc(Display *dpy, Window win, int64_t target)
{
	sc_wait_for_msc_fn wait = (sc_wait_for_msc_fn)sc_glx_proc("glXWaitForMscOML");
	int64_t ust = 0, msc = 0, sbc = 0;
	if (!wait || !wait(dpy, win, target, 0, 0, &ust, &msc, &sbc)) {
		fprintf(stderr, "gl-scenes: glXWaitForMscOML failed\n");
		return -1;
	}
	printf("oml wait: target %lld msc %lld ust %lld\n", (long long)target, (long long)msc,
	       (long long)ust);
	return 0;
}

#define SC_COVER_RGB 0x40c0a0

/* "X,Y" or "X,Y,W,H" (n numbers) into v; 0 or -1. */
static int sc_parse_ints(const char *s, int *v, int n)
{
	for (int i = 0; i < n; i++) {
		char *end;
		long x = strtol(s, &end, 10);
		if (end == s || x < -4096 || x > 8192 || (i + 1 < n ? *end != ',' : *end != 0))
			return -1;
		v[i] = (int)x;
		s = end + 1;
	}
	return 0;
}

static Bool sc_is_map(Display *d, XEvent *e, XPointer w)
{
	(void)d;
	return e->type == MapNotify && e->xmap.window == *(Window *)w;
}

static Bool sc_is_config(Display *d, XEvent *e, XPointer w)
{
	(void)d;
	return e->type == ConfigureNotify && e->xconfigure.window == *(Window *)w;
}

/* vi NULL: the root's visual (the cover: its pixel is its colour, where a
 * GL visual may be DirectColor). */
static Window sc_make_window(Display *dpy, const XVisualInfo *vi, Colormap cmap, int x, int y,
			     int w, int h, unsigned long bg)
{
	XSetWindowAttributes a = { .override_redirect = True, .colormap = cmap,
				   .background_pixel = bg, .border_pixel = 0,
				   .event_mask = StructureNotifyMask };
	unsigned long mask = CWOverrideRedirect | CWBackPixel | CWBorderPixel | CWEventMask;
	if (vi)
		mask |= CWColormap;
	Window win = XCreateWindow(dpy, DefaultRootWindow(dpy), x, y, (unsigned)w, (unsigned)h, 0,
				   vi ? vi->depth : CopyFromParent, InputOutput,
				   vi ? vi->visual : CopyFromParent, mask, &a);
	XEvent e;
	XMapRaised(dpy, win);
	XIfEvent(dpy, &e, sc_is_map, (XPointer)&win);
	return win;
}

/* Draw the scene `frames` times at w x h, swapping each time. */
static int sc_window_frames(const struct scene *sc, Display *dpy, Window win, int w, int h,
			    unsigned frames)
{
	struct sc s = { .w = w, .h = h, .fbo = 0 };
	for (unsigned i = 0; i < frames; i++) {
		glViewport(0, 0, w, h);
		int r = sc->draw(&s);
		if (r)
			return r;
		if (!sc_gl_ok(sc->name))
			return -1;
		glXSwapBuffers(dpy, win);
	}
	return 0;
}

static int sc_window_run(const struct scene *sc, int w, int h, const char *renderer,
			 const struct sc_window_opts *o)
{
	static int attrs[] = { GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8,
			       GLX_BLUE_SIZE, 8, GLX_DEPTH_SIZE, 24, GLX_STENCIL_SIZE, 8, None };
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy) {
		fprintf(stderr, "gl-scenes: cannot open display \"%s\"\n", XDisplayName(NULL));
		return 1;
	}
	XVisualInfo *vi = glXChooseVisual(dpy, DefaultScreen(dpy), attrs);
	if (!vi) {
		fprintf(stderr, "gl-scenes: no double-buffered RGB visual with depth and stencil\n");
		XCloseDisplay(dpy);
		return 1;
	}
	Colormap cmap = XCreateColormap(dpy, DefaultRootWindow(dpy), vi->visual, AllocNone);
	if (o->cover)
		sc_make_window(dpy, NULL, cmap, o->cx, o->cy, o->cw, o->ch, SC_COVER_RGB);
	Window win = sc_make_window(dpy, vi, cmap, o->x, o->y, w, h, 0);
	if (o->cover)   /* the cover stays on top */
		XLowerWindow(dpy, win);
	GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
	int rc = 1;
	if (!ctx || !glXMakeCurrent(dpy, win, ctx)) {
		fprintf(stderr, "gl-scenes: no GLX context\n");
		goto out;
	}
	const char *r = (const char *)glGetString(GL_RENDERER);
	GLint depth = 0, stencil = 0;
	glGetIntegerv(GL_DEPTH_BITS, &depth);
	glGetIntegerv(GL_STENCIL_BITS, &stencil);
	printf("renderer: %s\ndirect: %s\ndepth %d, stencil %d bits\n", r ? r : "(null)",
	       glXIsDirect(dpy, ctx) ? "yes" : "no", depth, stencil);
	if (!r || !strstr(r, renderer)) {
		fprintf(stderr, "gl-scenes: renderer \"%s\" does not contain \"%s\"\n", r ? r : "",
			renderer);
		goto out;
	}
	int64_t msc = 0;
	if (sc_window_interval(dpy, o) < 0 || (o->oml && sc_window_oml(dpy, win, "before", 0, &msc)))
		goto out;
	rc = sc_window_frames(sc, dpy, win, w, h, o->frames);
	if (!rc && o->oml && (sc_window_oml(dpy, win, "after", 1, &msc) < 0 ||
			      (o->wait_msc && sc_window_wait_msc(dpy, win, msc + o->wait_msc) < 0)))
		rc = 1;
	if (!rc && o->move) {
		XEvent e;
		XMoveResizeWindow(dpy, win, o->mx, o->my, (unsigned)o->mw, (unsigned)o->mh);
		XIfEvent(dpy, &e, sc_is_config, (XPointer)&win);
		/* DRI2's InvalidateBuffers may follow ConfigureNotify: read it, so
		 * that Mesa asks for buffers of the new size */
		XSync(dpy, False);
		rc = sc_window_frames(sc, dpy, win, o->mw, o->mh, o->frames);
	}
	if (rc) {
		rc = rc == SC_UNSUPPORTED ? rc : 1;
		goto out;
	}
	glFinish();
	XSync(dpy, False);
	printf("shown\n");
	fflush(stdout);
	char b[64];
	while (read(0, b, sizeof(b)) > 0)
		;
out:
	if (ctx) {
		glXMakeCurrent(dpy, None, NULL);
		glXDestroyContext(dpy, ctx);
	}
	XFree(vi);
	XCloseDisplay(dpy);
	return rc;
}

#endif
