/* glcommon.h: what the GL test programs (tests/gl/gl-*.c) share — options,
 * the ok/not ok report, EGL context creation on a display, and the checks
 * themselves, which run the same on every platform (surfaceless, device,
 * GBM) and API (desktop GL 2.1, GLES2).
 *
 * Each program is linked alone (see the Makefile), so this header holds
 * static functions.  GL entry points are loaded with eglGetProcAddress into
 * struct glc_gl: GL/gl.h and GL/glext.h give only the enum values, which
 * GLES2 shares, and no prototype of ours binds to libGL or libGLESv2.
 *
 * Every comparison is exact against data kept on the CPU, except depth,
 * which is compared within one step of the depth buffer's precision. */
#ifndef GLCOMMON_H
#define GLCOMMON_H

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

/* Each program uses some of these. */
#define GLC_API static __attribute__((unused))

/* ---- options ---- */

struct glc_opts {
	const char *prog;
	const char *renderer;      /* GL_RENDERER must contain this */
	int gles;                  /* GLES2 instead of desktop GL */
	long loop;                 /* after the checks: this many clear/read frames */
	unsigned timeout;          /* seconds for the whole program */
	int surface;               /* platform-specific: render to a window surface too */
	int draw;                  /* also checks that draw (textured quads, a query) */
};

GLC_API void glc_usage(const struct glc_opts *o, const char *extra)
{
	fprintf(stderr,
		"usage: %s [--renderer SUBSTR] [--gles] [--loop N] [--timeout S] [--draw]%s\n"
		"  --renderer SUBSTR  GL_RENDERER must contain SUBSTR (default NV4)\n"
		"  --gles             a GLES2 context instead of desktop GL\n"
		"  --loop N           after the checks, N frames of clear + read back\n"
		"  --timeout S        the whole program fails after S seconds (default 60)\n"
		"  --draw             also draw: textures read back through a textured quad\n"
		"                     (L8/A8 on GLES2), an occlusion query that counts samples\n",
		o->prog, extra ? extra : "");
}

/* Parses the common options; `with_surface` adds --surface. 0 or exits. */
GLC_API int glc_parse(int argc, char **argv, struct glc_opts *o, int with_surface)
{
	static const struct option lo[] = {
		{ "renderer", required_argument, 0, 'r' }, { "gles", no_argument, 0, 'g' },
		{ "loop", required_argument, 0, 'l' },     { "timeout", required_argument, 0, 't' },
		{ "surface", no_argument, 0, 's' },        { "draw", no_argument, 0, 'd' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c;
	char *end;

	memset(o, 0, sizeof(*o));
	o->prog = argv[0];
	o->renderer = "NV4";
	o->timeout = 60;
	while ((c = getopt_long(argc, argv, "r:gl:t:sdh", lo, NULL)) != -1) {
		switch (c) {
		case 'r': o->renderer = optarg; break;
		case 'g': o->gles = 1; break;
		case 'd': o->draw = 1; break;
		case 'l':
			errno = 0;
			o->loop = strtol(optarg, &end, 0);
			if (errno || *end || o->loop < 0) {
				glc_usage(o, with_surface ? " [--surface]" : NULL);
				exit(2);
			}
			break;
		case 't':
			o->timeout = (unsigned)strtoul(optarg, &end, 0);
			if (*end || !o->timeout) {
				glc_usage(o, with_surface ? " [--surface]" : NULL);
				exit(2);
			}
			break;
		case 's':
			if (with_surface) {
				o->surface = 1;
				break;
			}
			/* fall through */
		default:
			glc_usage(o, with_surface ? " [--surface]" : NULL);
			exit(c == 'h' ? 0 : 2);
		}
	}
	if (optind != argc) {
		glc_usage(o, with_surface ? " [--surface]" : NULL);
		exit(2);
	}
	return 0;
}

/* Options of a program with one number of its own (--NAME N, lo..hi, its
 * default in *val): --renderer and --timeout as glc_parse has them, the
 * given default timeout.  0 or exits. */
GLC_API int glc_parse_num(int argc, char **argv, struct glc_opts *o, unsigned timeout,
			  const char *name, long lo, long hi, long *val)
{
	const struct option lo_[] = {
		{ "renderer", required_argument, 0, 'r' }, { "timeout", required_argument, 0, 't' },
		{ name, required_argument, 0, 'n' },       { 0, 0, 0, 0 },
	};
	int c;
	long v;
	char *end;

	memset(o, 0, sizeof(*o));
	o->prog = argv[0];
	o->renderer = "NV4";
	o->timeout = timeout;
	while ((c = getopt_long(argc, argv, "", lo_, NULL)) != -1) {
		v = c == 't' || c == 'n' ? strtol(optarg, &end, 0) : 0;
		if (c == 'r')
			o->renderer = optarg;
		else if (c == 't' && !*end && v > 0)
			o->timeout = (unsigned)v;
		else if (c == 'n' && !*end && v >= lo && v <= hi)
			*val = v;
		else
			break;
	}
	if (c != -1 || optind != argc) {
		fprintf(stderr, "usage: %s [--renderer SUBSTR] [--timeout S] [--%s N (%ld..%ld, "
			"default %ld)]\n", argv[0], name, lo, hi, *val);
		exit(2);
	}
	return 0;
}

/* ---- the report ---- */

static unsigned glc_passed, glc_failed, glc_skipped;
static unsigned glc_timeout_s;

/* One line per check; returns ok so callers can stop early. */
__attribute__((format(printf, 2, 3))) GLC_API int glc_check(int ok, const char *fmt, ...)
{
	va_list ap;
	printf("%s - ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (ok)
		glc_passed++;
	else
		glc_failed++;
	return ok;
}

__attribute__((format(printf, 1, 2))) GLC_API void glc_skip(const char *fmt, ...)
{
	va_list ap;
	printf("skip - ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	glc_skipped++;
}

__attribute__((format(printf, 1, 2))) GLC_API void glc_note(const char *fmt, ...)
{
	va_list ap;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* The last line; the exit status: 0 only when every check passed (and at
 * least one ran). */
GLC_API int glc_summary(void)
{
	printf("summary: %u passed, %u failed, %u skipped\n", glc_passed, glc_failed, glc_skipped);
	fflush(stdout);
	return glc_failed || !glc_passed ? 1 : 0;
}

/* A hang (a fence that never comes, a query that never lands) fails the
 * program instead of blocking whoever runs it. */
GLC_API void glc_on_alarm(int sig)
{
	char msg[96];
	(void)sig;
	int n = snprintf(msg, sizeof(msg), "not ok - the program did not finish within %u s\n",
			 glc_timeout_s);
	if (n > 0 && write(1, msg, (size_t)n) < 0)
		_exit(3);
	_exit(3);
}

GLC_API void glc_start(const struct glc_opts *o)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	glc_timeout_s = o->timeout;
	signal(SIGALRM, glc_on_alarm);
	alarm(o->timeout);
}

/* ---- GL entry points ---- */

struct glc_gl {
	int gles;
	const GLubyte *(*GetString)(GLenum);
	GLenum (*GetError)(void);
	void (*GetIntegerv)(GLenum, GLint *);
	void (*Enable)(GLenum);
	void (*Disable)(GLenum);
	void (*Viewport)(GLint, GLint, GLsizei, GLsizei);
	void (*Scissor)(GLint, GLint, GLsizei, GLsizei);
	void (*ClearColor)(GLfloat, GLfloat, GLfloat, GLfloat);
	void (*ClearDepth)(GLdouble);          /* desktop */
	void (*ClearDepthf)(GLfloat);          /* GLES2 */
	void (*Clear)(GLbitfield);
	void (*ColorMask)(GLboolean, GLboolean, GLboolean, GLboolean);
	void (*DepthMask)(GLboolean);
	void (*PixelStorei)(GLenum, GLint);
	void (*ReadPixels)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
	void (*Finish)(void);
	void (*Flush)(void);
	void (*GenTextures)(GLsizei, GLuint *);
	void (*DeleteTextures)(GLsizei, const GLuint *);
	void (*BindTexture)(GLenum, GLuint);
	void (*TexParameteri)(GLenum, GLenum, GLint);
	void (*TexImage2D)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum,
			   const void *);
	void (*TexSubImage2D)(GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLenum,
			      const void *);
	void (*GetTexImage)(GLenum, GLint, GLenum, GLenum, void *);   /* desktop */
	/* framebuffer objects: the EXT entry points on desktop GL 2.1 */
	void (*GenFramebuffers)(GLsizei, GLuint *);
	void (*DeleteFramebuffers)(GLsizei, const GLuint *);
	void (*BindFramebuffer)(GLenum, GLuint);
	void (*FramebufferTexture2D)(GLenum, GLenum, GLenum, GLuint, GLint);
	void (*FramebufferRenderbuffer)(GLenum, GLenum, GLenum, GLuint);
	GLenum (*CheckFramebufferStatus)(GLenum);
	void (*GenRenderbuffers)(GLsizei, GLuint *);
	void (*DeleteRenderbuffers)(GLsizei, const GLuint *);
	void (*BindRenderbuffer)(GLenum, GLuint);
	void (*RenderbufferStorage)(GLenum, GLenum, GLsizei, GLsizei);
	/* queries: core on desktop GL, EXT_occlusion_query_boolean on GLES2 */
	void (*GenQueries)(GLsizei, GLuint *);
	void (*DeleteQueries)(GLsizei, const GLuint *);
	void (*BeginQuery)(GLenum, GLuint);
	void (*EndQuery)(GLenum);
	void (*GetQueryObjectuiv)(GLuint, GLenum, GLuint *);
	/* drawing (--draw): GLSL 1.10 / GLSL ES 1.00, both 2.0 core */
	GLuint (*CreateShader)(GLenum);
	void (*ShaderSource)(GLuint, GLsizei, const GLchar *const *, const GLint *);
	void (*CompileShader)(GLuint);
	void (*GetShaderiv)(GLuint, GLenum, GLint *);
	void (*GetShaderInfoLog)(GLuint, GLsizei, GLsizei *, GLchar *);
	void (*DeleteShader)(GLuint);
	GLuint (*CreateProgram)(void);
	void (*AttachShader)(GLuint, GLuint);
	void (*BindAttribLocation)(GLuint, GLuint, const GLchar *);
	void (*LinkProgram)(GLuint);
	void (*GetProgramiv)(GLuint, GLenum, GLint *);
	void (*UseProgram)(GLuint);
	void (*DeleteProgram)(GLuint);
	GLint (*GetUniformLocation)(GLuint, const GLchar *);
	void (*Uniform1i)(GLint, GLint);
	void (*VertexAttribPointer)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void *);
	void (*EnableVertexAttribArray)(GLuint);
	void (*DrawArrays)(GLenum, GLint, GLsizei);
	GLuint prog;               /* the textured-quad program; 0 without --draw */
	int have_query;
	GLenum query_target;
	char exts[8192];
};

GLC_API int glc_has_ext(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
			return 1;
	return 0;
}

/* Loads name, else name + suffix; NULL when neither exists. */
GLC_API void *glc_proc(const char *name, const char *suffix)
{
	char buf[96];
	void *f = NULL;
	if (suffix) {
		snprintf(buf, sizeof(buf), "%s%s", name, suffix);
		f = (void *)eglGetProcAddress(buf);
	} else {
		f = (void *)eglGetProcAddress(name);
	}
	return f;
}

#define GLC_LOAD(gl, field, name, suffix)                                                   \
	do {                                                                                \
		void *p_ = glc_proc(name, suffix);                                          \
		memcpy(&(gl)->field, &p_, sizeof(p_));                                      \
		if (!p_) {                                                                  \
			glc_check(0, "entry point %s%s exists", name, suffix ? suffix : ""); \
			return -1;                                                          \
		}                                                                           \
	} while (0)

/* After eglMakeCurrent: the entry points and extensions of the context. */
GLC_API int glc_gl_load(struct glc_gl *gl, int gles)
{
	memset(gl, 0, sizeof(*gl));
	gl->gles = gles;
	GLC_LOAD(gl, GetString, "glGetString", NULL);
	const char *e = (const char *)gl->GetString(GL_EXTENSIONS);
	snprintf(gl->exts, sizeof(gl->exts), "%s", e ? e : "");
	const char *fbo = NULL;
	if (!gles) {
		if (!glc_check(glc_has_ext(gl->exts, "GL_EXT_framebuffer_object"),
			       "desktop GL exposes GL_EXT_framebuffer_object"))
			return -1;
		fbo = "EXT";
	}
	GLC_LOAD(gl, GetError, "glGetError", NULL);
	GLC_LOAD(gl, GetIntegerv, "glGetIntegerv", NULL);
	GLC_LOAD(gl, Enable, "glEnable", NULL);
	GLC_LOAD(gl, Disable, "glDisable", NULL);
	GLC_LOAD(gl, Viewport, "glViewport", NULL);
	GLC_LOAD(gl, Scissor, "glScissor", NULL);
	GLC_LOAD(gl, ClearColor, "glClearColor", NULL);
	if (gles)
		GLC_LOAD(gl, ClearDepthf, "glClearDepthf", NULL);
	else
		GLC_LOAD(gl, ClearDepth, "glClearDepth", NULL);
	GLC_LOAD(gl, Clear, "glClear", NULL);
	GLC_LOAD(gl, ColorMask, "glColorMask", NULL);
	GLC_LOAD(gl, DepthMask, "glDepthMask", NULL);
	GLC_LOAD(gl, PixelStorei, "glPixelStorei", NULL);
	GLC_LOAD(gl, ReadPixels, "glReadPixels", NULL);
	GLC_LOAD(gl, Finish, "glFinish", NULL);
	GLC_LOAD(gl, Flush, "glFlush", NULL);
	GLC_LOAD(gl, GenTextures, "glGenTextures", NULL);
	GLC_LOAD(gl, DeleteTextures, "glDeleteTextures", NULL);
	GLC_LOAD(gl, BindTexture, "glBindTexture", NULL);
	GLC_LOAD(gl, TexParameteri, "glTexParameteri", NULL);
	GLC_LOAD(gl, TexImage2D, "glTexImage2D", NULL);
	GLC_LOAD(gl, TexSubImage2D, "glTexSubImage2D", NULL);
	if (!gles)
		GLC_LOAD(gl, GetTexImage, "glGetTexImage", NULL);
	GLC_LOAD(gl, GenFramebuffers, "glGenFramebuffers", fbo);
	GLC_LOAD(gl, DeleteFramebuffers, "glDeleteFramebuffers", fbo);
	GLC_LOAD(gl, BindFramebuffer, "glBindFramebuffer", fbo);
	GLC_LOAD(gl, FramebufferTexture2D, "glFramebufferTexture2D", fbo);
	GLC_LOAD(gl, FramebufferRenderbuffer, "glFramebufferRenderbuffer", fbo);
	GLC_LOAD(gl, CheckFramebufferStatus, "glCheckFramebufferStatus", fbo);
	GLC_LOAD(gl, GenRenderbuffers, "glGenRenderbuffers", fbo);
	GLC_LOAD(gl, DeleteRenderbuffers, "glDeleteRenderbuffers", fbo);
	GLC_LOAD(gl, BindRenderbuffer, "glBindRenderbuffer", fbo);
	GLC_LOAD(gl, RenderbufferStorage, "glRenderbufferStorage", fbo);
	const char *q = NULL;
	if (!gles) {
		gl->have_query = 1;               /* core since GL 1.5 */
		gl->query_target = GL_SAMPLES_PASSED;
	} else if (glc_has_ext(gl->exts, "GL_EXT_occlusion_query_boolean")) {
		gl->have_query = 1;
		gl->query_target = GL_ANY_SAMPLES_PASSED;   /* = GL_ANY_SAMPLES_PASSED_EXT */
		q = "EXT";
	}
	GLC_LOAD(gl, CreateShader, "glCreateShader", NULL);
	GLC_LOAD(gl, ShaderSource, "glShaderSource", NULL);
	GLC_LOAD(gl, CompileShader, "glCompileShader", NULL);
	GLC_LOAD(gl, GetShaderiv, "glGetShaderiv", NULL);
	GLC_LOAD(gl, GetShaderInfoLog, "glGetShaderInfoLog", NULL);
	GLC_LOAD(gl, DeleteShader, "glDeleteShader", NULL);
	GLC_LOAD(gl, CreateProgram, "glCreateProgram", NULL);
	GLC_LOAD(gl, AttachShader, "glAttachShader", NULL);
	GLC_LOAD(gl, BindAttribLocation, "glBindAttribLocation", NULL);
	GLC_LOAD(gl, LinkProgram, "glLinkProgram", NULL);
	GLC_LOAD(gl, GetProgramiv, "glGetProgramiv", NULL);
	GLC_LOAD(gl, UseProgram, "glUseProgram", NULL);
	GLC_LOAD(gl, DeleteProgram, "glDeleteProgram", NULL);
	GLC_LOAD(gl, GetUniformLocation, "glGetUniformLocation", NULL);
	GLC_LOAD(gl, Uniform1i, "glUniform1i", NULL);
	GLC_LOAD(gl, VertexAttribPointer, "glVertexAttribPointer", NULL);
	GLC_LOAD(gl, EnableVertexAttribArray, "glEnableVertexAttribArray", NULL);
	GLC_LOAD(gl, DrawArrays, "glDrawArrays", NULL);
	if (gl->have_query) {
		GLC_LOAD(gl, GenQueries, "glGenQueries", q);
		GLC_LOAD(gl, DeleteQueries, "glDeleteQueries", q);
		GLC_LOAD(gl, BeginQuery, "glBeginQuery", q);
		GLC_LOAD(gl, EndQuery, "glEndQuery", q);
		GLC_LOAD(gl, GetQueryObjectuiv, "glGetQueryObjectuiv", q);
	}
	return 0;
}

/* ---- EGL ---- */

/* The check of an EGL call already made (ok computed before this runs):
 * on failure the line says eglGetError's code. */
GLC_API int glc_egl_check(int ok, const char *what)
{
	EGLint err = eglGetError();
	if (ok)
		return glc_check(1, "%s", what);
	return glc_check(0, "%s: EGL error 0x%04x", what, (unsigned)err);
}

struct glc_egl {
	EGLDisplay dpy;
	EGLConfig cfg;
	EGLContext ctx;
	EGLSurface surf;
};

/* eglInitialize on dpy, a context of the requested API made current with no
 * surface (EGL_KHR_surfaceless_context).  `visual`, when non-zero, asks for
 * a config with that EGL_NATIVE_VISUAL_ID (a GBM format). 0 or -1. */
GLC_API int glc_egl_context(struct glc_egl *e, EGLDisplay dpy, int gles, EGLint visual)
{
	EGLint major, minor, n = 0;
	EGLConfig cfgs[64];

	memset(e, 0, sizeof(*e));
	e->dpy = dpy;
	e->surf = EGL_NO_SURFACE;
	if (!glc_egl_check(dpy != EGL_NO_DISPLAY, "an EGL display"))
		return -1;
	if (!glc_egl_check(eglInitialize(dpy, &major, &minor), "eglInitialize"))
		return -1;
	glc_note("EGL %d.%d, vendor %s", major, minor, eglQueryString(dpy, EGL_VENDOR));
	const char *ext = eglQueryString(dpy, EGL_EXTENSIONS);
	if (!glc_check(glc_has_ext(ext, "EGL_KHR_surfaceless_context"),
		       "the display has EGL_KHR_surfaceless_context"))
		return -1;
	if (!glc_check(eglBindAPI(gles ? EGL_OPENGL_ES_API : EGL_OPENGL_API), "eglBindAPI(%s)",
		       gles ? "EGL_OPENGL_ES_API" : "EGL_OPENGL_API"))
		return -1;
	const EGLint attrs[] = {
		EGL_RENDERABLE_TYPE, gles ? EGL_OPENGL_ES2_BIT : EGL_OPENGL_BIT,
		EGL_RED_SIZE, 1, EGL_GREEN_SIZE, 1, EGL_BLUE_SIZE, 1,
		EGL_SURFACE_TYPE, visual ? EGL_WINDOW_BIT : 0,
		EGL_NONE,
	};
	EGLBoolean chose = eglChooseConfig(dpy, attrs, cfgs, 64, &n);
	if (!glc_egl_check(chose && n > 0, "eglChooseConfig finds a config"))
		return -1;
	glc_note("%d configs", n);
	e->cfg = cfgs[0];
	if (visual) {
		int found = 0;
		for (EGLint i = 0; i < n && !found; i++) {
			EGLint id = 0;
			if (eglGetConfigAttrib(dpy, cfgs[i], EGL_NATIVE_VISUAL_ID, &id) && id == visual) {
				e->cfg = cfgs[i];
				found = 1;
			}
		}
		if (!glc_check(found, "a config with native visual 0x%x", (unsigned)visual))
			return -1;
	}
	const EGLint es2[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	e->ctx = eglCreateContext(dpy, e->cfg, EGL_NO_CONTEXT, gles ? es2 : NULL);
	if (!glc_egl_check(e->ctx != EGL_NO_CONTEXT, "eglCreateContext"))
		return -1;
	if (!glc_egl_check(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, e->ctx),
			   "eglMakeCurrent with no surface"))
		return -1;
	return 0;
}

GLC_API void glc_egl_fini(struct glc_egl *e)
{
	if (e->dpy == EGL_NO_DISPLAY)
		return;
	eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	if (e->surf != EGL_NO_SURFACE)
		eglDestroySurface(e->dpy, e->surf);
	if (e->ctx != EGL_NO_CONTEXT)
		eglDestroyContext(e->dpy, e->ctx);
	eglTerminate(e->dpy);
	e->dpy = EGL_NO_DISPLAY;
}

/* ---- CPU helpers ---- */

GLC_API uint32_t glc_rand(uint32_t *s)
{
	uint32_t x = *s ? *s : 0x2545f491u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

struct glc_rgba { uint8_t r, g, b, a; };

/* Compares w x h pixels of bpp bytes (rows packed); on a difference prints
 * the first few and returns 0. */
GLC_API int glc_same(const uint8_t *want, const uint8_t *got, unsigned w, unsigned h, unsigned bpp,
		    const char *what)
{
	unsigned bad = 0;
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			const uint8_t *a = want + ((size_t)y * w + x) * bpp;
			const uint8_t *b = got + ((size_t)y * w + x) * bpp;
			if (memcmp(a, b, bpp)) {
				if (bad < 4) {
					char sa[24] = "", sb[24] = "";
					for (unsigned i = 0; i < bpp && i < 4; i++) {
						snprintf(sa + 2 * i, 3, "%02x", a[i]);
						snprintf(sb + 2 * i, 3, "%02x", b[i]);
					}
					glc_note("%s: pixel (%u,%u) is %s, expected %s", what, x, y, sb, sa);
				}
				bad++;
			}
		}
	if (bad)
		glc_note("%s: %u of %u pixels differ", what, bad, w * h);
	return bad == 0;
}

GLC_API int glc_gl_clean(struct glc_gl *gl, const char *what)
{
	GLenum e = gl->GetError();
	if (e != GL_NO_ERROR) {
		glc_note("%s: GL error 0x%04x", what, e);
		while (gl->GetError() != GL_NO_ERROR)
			;
		return 0;
	}
	return 1;
}

/* ---- framebuffer checks: clears, scissored clears, depth ---- */

struct glc_fb {
	GLuint fbo, tex, depth;
	unsigned w, h;
	int depth_bits;
};

/* An FBO with an RGBA8 colour texture and a depth renderbuffer. */
GLC_API int glc_fb_new(struct glc_gl *gl, struct glc_fb *fb, unsigned w, unsigned h)
{
	memset(fb, 0, sizeof(*fb));
	fb->w = w;
	fb->h = h;
	gl->GenTextures(1, &fb->tex);
	gl->BindTexture(GL_TEXTURE_2D, fb->tex);
	gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, (GLsizei)w, (GLsizei)h, 0, GL_RGBA,
		       GL_UNSIGNED_BYTE, NULL);
	/* 24-bit depth beside a 32-bit colour buffer: NV4x wants both the same
	 * size (nv30_state_validate picks Z24S8 with 32-bit colour). */
	GLenum dfmt = GL_DEPTH_COMPONENT24;
	if (gl->gles) {
		if (glc_has_ext(gl->exts, "GL_OES_packed_depth_stencil"))
			dfmt = GL_DEPTH24_STENCIL8;
		else if (!glc_has_ext(gl->exts, "GL_OES_depth24"))
			dfmt = GL_DEPTH_COMPONENT16;
	}
	gl->GenRenderbuffers(1, &fb->depth);
	gl->BindRenderbuffer(GL_RENDERBUFFER, fb->depth);
	gl->RenderbufferStorage(GL_RENDERBUFFER, dfmt, (GLsizei)w, (GLsizei)h);
	gl->GenFramebuffers(1, &fb->fbo);
	gl->BindFramebuffer(GL_FRAMEBUFFER, fb->fbo);
	gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, fb->tex, 0);
	gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
				    fb->depth);
	GLenum st = gl->CheckFramebufferStatus(GL_FRAMEBUFFER);
	int clean = glc_gl_clean(gl, "framebuffer setup");
	if (!glc_check(st == GL_FRAMEBUFFER_COMPLETE && clean,
		       "%ux%u FBO (RGBA8 texture + depth 0x%04x) is complete (status 0x%04x)", w, h,
		       dfmt, st))
		return -1;
	gl->GetIntegerv(GL_DEPTH_BITS, &fb->depth_bits);
	gl->GetError();    /* GL_DEPTH_BITS is not in every core profile; fine here */
	gl->Viewport(0, 0, (GLsizei)w, (GLsizei)h);
	return 0;
}

GLC_API void glc_fb_free(struct glc_gl *gl, struct glc_fb *fb)
{
	gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
	gl->DeleteFramebuffers(1, &fb->fbo);
	gl->DeleteRenderbuffers(1, &fb->depth);
	gl->DeleteTextures(1, &fb->tex);
}

/* Reads the bound FBO's colour as RGBA8 and compares with want. */
GLC_API int glc_read_rgba_same(struct glc_gl *gl, unsigned w, unsigned h, const uint8_t *want,
			      const char *what)
{
	size_t n = (size_t)w * h * 4;
	uint8_t *got = malloc(n);
	if (!got)
		return 0;
	memset(got, 0x5a, n);
	gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
	gl->ReadPixels(0, 0, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, got);
	int ok = glc_gl_clean(gl, what) && glc_same(want, got, w, h, 4, what);
	free(got);
	return ok;
}

GLC_API void glc_fill_rgba(uint8_t *img, unsigned w, unsigned x0, unsigned y0, unsigned x1,
			  unsigned y1, struct glc_rgba c)
{
	for (unsigned y = y0; y < y1; y++)
		for (unsigned x = x0; x < x1; x++)
			memcpy(img + ((size_t)y * w + x) * 4, &c, 4);
}

/* Colours whose components are k/255: they convert to unorm8 exactly. */
GLC_API void glc_clear_color(struct glc_gl *gl, struct glc_rgba c)
{
	gl->ClearColor(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f);
}

GLC_API void glc_check_clears(struct glc_gl *gl, struct glc_fb *fb, const char *kind)
{
	static const struct glc_rgba colours[] = {
		{ 0xff, 0x00, 0x00, 0xff }, { 0x00, 0xff, 0x00, 0x80 }, { 0x12, 0x34, 0x56, 0x78 },
		{ 0xfe, 0x01, 0x7f, 0x00 }, { 0x00, 0x00, 0x00, 0x00 }, { 0xff, 0xff, 0xff, 0xff },
	};
	size_t n = (size_t)fb->w * fb->h * 4;
	uint8_t *want = malloc(n);
	if (!want)
		return;
	gl->Disable(GL_SCISSOR_TEST);
	for (unsigned i = 0; i < sizeof(colours) / sizeof(colours[0]); i++) {
		struct glc_rgba c = colours[i];
		glc_clear_color(gl, c);
		gl->Clear(GL_COLOR_BUFFER_BIT);
		glc_fill_rgba(want, fb->w, 0, 0, fb->w, fb->h, c);
		glc_check(glc_read_rgba_same(gl, fb->w, fb->h, want, "clear"),
			  "%s %ux%u: glClear to %02x%02x%02x%02x, every pixel read back", kind, fb->w,
			  fb->h, c.r, c.g, c.b, c.a);
	}

	/* scissor boxes: odd positions and sizes, one past the edges, one
	 * empty; each later box over the earlier ones */
	struct box { int x, y, w, h; struct glc_rgba c; } boxes[] = {
		{ 1, 1, 7, 5, { 0x10, 0x20, 0x30, 0x40 } },
		{ 3, 2, 13, 11, { 0xa0, 0xb0, 0xc0, 0xd0 } },
		{ (int)fb->w - 9, (int)fb->h - 5, 20, 20, { 0x01, 0x02, 0x03, 0x04 } },
		{ 0, (int)fb->h / 2, (int)fb->w, 3, { 0xff, 0x00, 0xff, 0x00 } },
		{ (int)fb->w / 3, 0, 1, (int)fb->h, { 0x55, 0xaa, 0x55, 0xaa } },
		{ 5, 5, 0, 9, { 0x99, 0x99, 0x99, 0x99 } },
	};
	struct glc_rgba base = { 0x20, 0x40, 0x60, 0x80 };
	glc_clear_color(gl, base);
	gl->Clear(GL_COLOR_BUFFER_BIT);
	glc_fill_rgba(want, fb->w, 0, 0, fb->w, fb->h, base);
	gl->Enable(GL_SCISSOR_TEST);
	for (unsigned i = 0; i < sizeof(boxes) / sizeof(boxes[0]); i++) {
		struct box b = boxes[i];
		gl->Scissor(b.x, b.y, b.w, b.h);
		glc_clear_color(gl, b.c);
		gl->Clear(GL_COLOR_BUFFER_BIT);
		unsigned x1 = (unsigned)(b.x + b.w) < fb->w ? (unsigned)(b.x + b.w) : fb->w;
		unsigned y1 = (unsigned)(b.y + b.h) < fb->h ? (unsigned)(b.y + b.h) : fb->h;
		glc_fill_rgba(want, fb->w, (unsigned)b.x, (unsigned)b.y, x1, y1, b.c);
	}
	gl->Disable(GL_SCISSOR_TEST);
	glc_check(glc_read_rgba_same(gl, fb->w, fb->h, want, "scissored clears"),
		  "%s %ux%u: %u scissored glClear boxes, every pixel read back", kind, fb->w, fb->h,
		  (unsigned)(sizeof(boxes) / sizeof(boxes[0])));

	/* a colour mask keeps the masked channels */
	gl->ColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
	struct glc_rgba m = { 0x00, 0xee, 0xff, 0x11 };
	glc_clear_color(gl, m);
	gl->Clear(GL_COLOR_BUFFER_BIT);
	gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	for (size_t i = 0; i < n; i += 4) {
		want[i + 0] = m.r;
		want[i + 2] = m.b;
	}
	glc_check(glc_read_rgba_same(gl, fb->w, fb->h, want, "masked clear"),
		  "%s %ux%u: glClear with glColorMask(1,0,1,0) keeps green and alpha", kind, fb->w,
		  fb->h);
	free(want);
}

GLC_API void glc_clear_depth(struct glc_gl *gl, double d)
{
	if (gl->gles)
		gl->ClearDepthf((GLfloat)d);
	else
		gl->ClearDepth(d);
}

/* Desktop GL: depth read back as floats, within one step of the buffer's
 * precision of what was cleared. */
GLC_API int glc_read_depth_same(struct glc_gl *gl, struct glc_fb *fb, const float *want,
			       const char *what)
{
	size_t n = (size_t)fb->w * fb->h;
	float *got = malloc(n * sizeof(float));
	if (!got)
		return 0;
	for (size_t i = 0; i < n; i++)
		got[i] = -1.0f;
	int bits = fb->depth_bits > 0 && fb->depth_bits <= 32 ? fb->depth_bits : 16;
	double tol = 1.0 / (double)((1ull << bits) - 1) + 1e-7;
	gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
	gl->ReadPixels(0, 0, (GLsizei)fb->w, (GLsizei)fb->h, GL_DEPTH_COMPONENT, GL_FLOAT, got);
	int ok = glc_gl_clean(gl, what);
	unsigned bad = 0;
	for (size_t i = 0; ok && i < n; i++) {
		double diff = (double)got[i] - (double)want[i];
		if (diff > tol || diff < -tol) {
			if (bad < 4)
				glc_note("%s: depth (%zu,%zu) is %.8f, expected %.8f", what,
					 i % fb->w, i / fb->w, got[i], want[i]);
			bad++;
		}
	}
	if (bad)
		glc_note("%s: %u of %zu depth values differ (tolerance %.3g, %d bits)", what, bad,
			 n, tol, bits);
	free(got);
	return ok && !bad;
}

GLC_API void glc_check_depth(struct glc_gl *gl, struct glc_fb *fb, const char *kind)
{
	static const double values[] = { 1.0, 0.0, 0.5, 0.25, 0.875, 0.1 };
	if (gl->gles) {
		/* still clear it: the clear must run, only the read is missing */
		glc_clear_depth(gl, 0.5);
		gl->Clear(GL_DEPTH_BUFFER_BIT);
		glc_check(glc_gl_clean(gl, "depth clear"), "%s %ux%u: glClearDepthf + glClear", kind,
			  fb->w, fb->h);
		glc_skip("%s %ux%u: depth values not read back: GLES2 has no "
			 "glReadPixels(GL_DEPTH_COMPONENT)", kind, fb->w, fb->h);
		return;
	}
	size_t n = (size_t)fb->w * fb->h;
	float *want = malloc(n * sizeof(float));
	if (!want)
		return;
	glc_note("%s %ux%u: %d depth bits", kind, fb->w, fb->h, fb->depth_bits);
	gl->Disable(GL_SCISSOR_TEST);
	gl->DepthMask(GL_TRUE);
	for (unsigned i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		glc_clear_depth(gl, values[i]);
		gl->Clear(GL_DEPTH_BUFFER_BIT);
		for (size_t k = 0; k < n; k++)
			want[k] = (float)values[i];
		glc_check(glc_read_depth_same(gl, fb, want, "depth clear"),
			  "%s %ux%u: glClearDepth(%g), every depth value read back", kind, fb->w,
			  fb->h, values[i]);
	}
	/* scissored depth clears over a full one */
	glc_clear_depth(gl, 0.75);
	gl->Clear(GL_DEPTH_BUFFER_BIT);
	for (size_t k = 0; k < n; k++)
		want[k] = 0.75f;
	gl->Enable(GL_SCISSOR_TEST);
	struct { unsigned x, y, w, h; double d; } boxes[] = {
		{ 2, 3, 9, 7, 0.125 }, { 5, 1, 3, 20, 0.625 }, { fb->w - 4, fb->h - 6, 4, 6, 0.0 },
	};
	for (unsigned i = 0; i < 3; i++) {
		gl->Scissor((GLint)boxes[i].x, (GLint)boxes[i].y, (GLsizei)boxes[i].w,
			    (GLsizei)boxes[i].h);
		glc_clear_depth(gl, boxes[i].d);
		gl->Clear(GL_DEPTH_BUFFER_BIT);
		for (unsigned y = boxes[i].y; y < boxes[i].y + boxes[i].h && y < fb->h; y++)
			for (unsigned x = boxes[i].x; x < boxes[i].x + boxes[i].w && x < fb->w; x++)
				want[(size_t)y * fb->w + x] = (float)boxes[i].d;
	}
	gl->Disable(GL_SCISSOR_TEST);
	glc_check(glc_read_depth_same(gl, fb, want, "scissored depth clears"),
		  "%s %ux%u: 3 scissored glClearDepth boxes, every depth value read back", kind,
		  fb->w, fb->h);
	/* a colour clear leaves depth alone, a depth clear leaves colour alone */
	glc_clear_depth(gl, 0.3);
	gl->Clear(GL_DEPTH_BUFFER_BIT);
	struct glc_rgba c = { 0x31, 0x41, 0x59, 0x26 };
	glc_clear_color(gl, c);
	gl->Clear(GL_COLOR_BUFFER_BIT);
	glc_clear_depth(gl, 0.9);
	gl->DepthMask(GL_FALSE);
	gl->Clear(GL_DEPTH_BUFFER_BIT);    /* masked: no effect */
	gl->DepthMask(GL_TRUE);
	for (size_t k = 0; k < n; k++)
		want[k] = 0.3f;
	uint8_t *cw = malloc(n * 4);
	if (cw) {
		glc_fill_rgba(cw, fb->w, 0, 0, fb->w, fb->h, c);
		int ok = glc_read_depth_same(gl, fb, want, "depth after colour clear");
		ok = glc_read_rgba_same(gl, fb->w, fb->h, cw, "colour after depth clear") && ok;
		glc_check(ok, "%s %ux%u: colour and depth clears (and a masked depth clear) "
			  "leave each other alone", kind, fb->w, fb->h);
		free(cw);
	}
	free(want);
}

GLC_API void glc_check_framebuffers(struct glc_gl *gl)
{
	/* POT surfaces are swizzled on NV4x (read back through the 3D engine),
	 * NPOT ones linear (read back by M2MF) */
	static const struct { unsigned w, h; const char *kind; } sizes[] = {
		{ 64, 64, "POT" }, { 128, 32, "POT" }, { 100, 75, "NPOT" }, { 33, 17, "NPOT" },
	};
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct glc_fb fb;
		if (glc_fb_new(gl, &fb, sizes[i].w, sizes[i].h) == 0) {
			glc_check_clears(gl, &fb, sizes[i].kind);
			glc_check_depth(gl, &fb, sizes[i].kind);
		}
		glc_fb_free(gl, &fb);
	}
}

/* ---- drawing (--draw) ---- */

/* A full-viewport quad sampling texture unit 0 at each pixel's centre:
 * with NEAREST filtering and a viewport the texture's size, pixel (x, y)
 * gets texel (x, y) exactly. */
static const char glc_vs[] =
	"attribute vec2 pos;\n"
	"varying vec2 uv;\n"
	"void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char glc_fs[] =
	"#ifdef GL_ES\n"
	"precision mediump float;\n"
	"#endif\n"
	"uniform sampler2D tex;\n"
	"varying vec2 uv;\n"
	"void main() { gl_FragColor = texture2D(tex, uv); }\n";

GLC_API GLuint glc_shader(struct glc_gl *gl, GLenum kind, const char *src)
{
	GLuint sh = gl->CreateShader(kind);
	GLint ok = 0;
	gl->ShaderSource(sh, 1, &src, NULL);
	gl->CompileShader(sh);
	gl->GetShaderiv(sh, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[512] = "";
		gl->GetShaderInfoLog(sh, sizeof(log), NULL, log);
		glc_note("shader: %s", log);
	}
	return sh;
}

/* The textured-quad program in gl->prog; 0 or -1. */
GLC_API int glc_draw_init(struct glc_gl *gl)
{
	GLuint vs = glc_shader(gl, GL_VERTEX_SHADER, glc_vs);
	GLuint fs = glc_shader(gl, GL_FRAGMENT_SHADER, glc_fs);
	GLint linked = 0;
	gl->prog = gl->CreateProgram();
	gl->AttachShader(gl->prog, vs);
	gl->AttachShader(gl->prog, fs);
	gl->BindAttribLocation(gl->prog, 0, "pos");
	gl->LinkProgram(gl->prog);
	gl->GetProgramiv(gl->prog, GL_LINK_STATUS, &linked);
	gl->DeleteShader(vs);
	gl->DeleteShader(fs);
	if (!glc_check(linked && glc_gl_clean(gl, "program"), "the textured-quad program links")) {
		gl->DeleteProgram(gl->prog);
		gl->prog = 0;
		return -1;
	}
	gl->UseProgram(gl->prog);
	gl->Uniform1i(gl->GetUniformLocation(gl->prog, "tex"), 0);
	return 0;
}

/* Draws the quad into the bound framebuffer, sampling tex. */
GLC_API void glc_draw_quad(struct glc_gl *gl, GLuint tex)
{
	static const GLfloat quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	gl->UseProgram(gl->prog);
	gl->BindTexture(GL_TEXTURE_2D, tex);
	gl->VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	gl->EnableVertexAttribArray(0);
	gl->DrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* ---- textures ---- */

struct glc_texfmt {
	const char *name;
	GLenum format, type;
	unsigned bpp;
	int renderable;            /* may be read back through an FBO */
};

static const struct glc_texfmt glc_texfmts[] = {
	{ "RGBA8", GL_RGBA, GL_UNSIGNED_BYTE, 4, 1 },
	{ "RGB565", GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 2, 1 },
	{ "L8", GL_LUMINANCE, GL_UNSIGNED_BYTE, 1, 0 },
	{ "A8", GL_ALPHA, GL_UNSIGNED_BYTE, 1, 0 },
};

/* FBO read back of a colour-renderable texture in its own format:
 * RGBA8 as RGBA/UNSIGNED_BYTE; RGB565 as RGB/UNSIGNED_SHORT_5_6_5, which is
 * exact whatever the driver stores it in (a 5- or 6-bit value widened by any
 * rule comes back as itself), where reading RGBA8 would depend on the
 * widening rule.  1 passed, 0 failed, -1 not possible (message printed). */
GLC_API int glc_tex_read_fbo(struct glc_gl *gl, GLuint tex, const struct glc_texfmt *f,
			    unsigned w, unsigned h, const uint8_t *want, const char *what)
{
	GLuint fbo;
	int r = 0;
	gl->GenFramebuffers(1, &fbo);
	gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
	gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
	GLenum st = gl->CheckFramebufferStatus(GL_FRAMEBUFFER);
	if (st != GL_FRAMEBUFFER_COMPLETE) {
		glc_note("%s: FBO with the texture is not complete (0x%04x)", what, st);
		r = -1;
		goto out;
	}
	if (gl->gles && f->type != GL_UNSIGNED_BYTE) {
		GLint rf = 0, rt = 0;
		gl->GetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &rf);
		gl->GetIntegerv(GL_IMPLEMENTATION_COLOR_READ_TYPE, &rt);
		if ((GLenum)rf != f->format || (GLenum)rt != f->type) {
			glc_note("%s: GLES2 reads this FBO as 0x%04x/0x%04x only", what, rf, rt);
			r = -1;
			goto out;
		}
	}
	size_t n = (size_t)w * h * f->bpp;
	uint8_t *got = malloc(n);
	if (!got)
		goto out;
	memset(got, 0xa5, n);
	gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
	gl->ReadPixels(0, 0, (GLsizei)w, (GLsizei)h, f->format, f->type, got);
	r = glc_gl_clean(gl, what) && glc_same(want, got, w, h, f->bpp, what);
	free(got);
out:
	gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
	gl->DeleteFramebuffers(1, &fbo);
	return r;
}

GLC_API int glc_tex_read_get(struct glc_gl *gl, GLuint tex, const struct glc_texfmt *f, unsigned w,
			    unsigned h, const uint8_t *want, const char *what)
{
	size_t n = (size_t)w * h * f->bpp;
	uint8_t *got = malloc(n);
	if (!got)
		return 0;
	memset(got, 0xa5, n);
	gl->BindTexture(GL_TEXTURE_2D, tex);
	gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
	gl->GetTexImage(GL_TEXTURE_2D, 0, f->format, f->type, got);
	int ok = glc_gl_clean(gl, what) && glc_same(want, got, w, h, f->bpp, what);
	free(got);
	return ok;
}

GLC_API void glc_check_texture(struct glc_gl *gl, const struct glc_texfmt *f, unsigned w,
				unsigned h, const char *kind, uint32_t seed)
{
	size_t n = (size_t)w * h * f->bpp;
	uint8_t *shadow = malloc(n), *sub = malloc(n);
	char what[96];
	if (!shadow || !sub) {
		free(shadow);
		free(sub);
		return;
	}
	for (size_t i = 0; i < n; i++)
		shadow[i] = (uint8_t)glc_rand(&seed);
	snprintf(what, sizeof(what), "%s %s %ux%u texture", kind, f->name, w, h);

	GLuint tex;
	gl->GenTextures(1, &tex);
	gl->BindTexture(GL_TEXTURE_2D, tex);
	gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	gl->PixelStorei(GL_UNPACK_ALIGNMENT, 1);
	gl->TexImage2D(GL_TEXTURE_2D, 0, (GLint)f->format, (GLsizei)w, (GLsizei)h, 0, f->format,
		       f->type, shadow);
	/* sub-rectangles at odd offsets, the last one the bottom-right corner */
	struct { unsigned x, y, w, h; } rects[] = {
		{ 1, 1, 7, 3 }, { 3, 5, 17, 9 }, { w - 5, h - 3, 5, 3 }, { w / 2 + 1, 0, 1, h },
	};
	for (unsigned i = 0; i < 4; i++) {
		size_t rn = (size_t)rects[i].w * rects[i].h * f->bpp;
		for (size_t k = 0; k < rn; k++)
			sub[k] = (uint8_t)glc_rand(&seed);
		gl->TexSubImage2D(GL_TEXTURE_2D, 0, (GLint)rects[i].x, (GLint)rects[i].y,
				  (GLsizei)rects[i].w, (GLsizei)rects[i].h, f->format, f->type, sub);
		for (unsigned y = 0; y < rects[i].h; y++)
			memcpy(shadow + (((size_t)rects[i].y + y) * w + rects[i].x) * f->bpp,
			       sub + (size_t)y * rects[i].w * f->bpp, (size_t)rects[i].w * f->bpp);
	}
	if (!glc_check(glc_gl_clean(gl, what), "%s: glTexImage2D + 4 glTexSubImage2D", what))
		goto out;

	int read = 0;
	if (f->renderable) {
		int r = glc_tex_read_fbo(gl, tex, f, w, h, shadow, what);
		if (r >= 0) {
			glc_check(r, "%s: read back through an FBO equals the upload", what);
			read = 1;
		} else if (!gl->gles) {
			glc_check(0, "%s: read back through an FBO", what);
		}
	}
	if (!gl->gles) {
		glc_check(glc_tex_read_get(gl, tex, f, w, h, shadow, what),
			  "%s: glGetTexImage equals the upload%s", what,
			  f->renderable ? "" : " (not colour-renderable: no FBO read back)");
		read = 1;
	}
	if (gl->prog) {
		/* what texture2D returns, as RGBA8: L8 (L,L,L,1), A8 (0,0,0,A),
		 * RGB565 widened (not compared: the widening rule is the
		 * driver's), RGBA8 itself */
		if (f->bpp == 1 || f->bpp == 4) {
			uint8_t *want = malloc((size_t)w * h * 4);
			struct glc_fb fb;
			if (want && glc_fb_new(gl, &fb, w, h) == 0) {
				for (size_t i = 0; i < (size_t)w * h; i++) {
					uint8_t *o = want + i * 4;
					if (f->bpp == 4)
						memcpy(o, shadow + i * 4, 4);
					else if (f->format == GL_LUMINANCE)
						o[0] = o[1] = o[2] = shadow[i], o[3] = 0xff;
					else
						o[0] = o[1] = o[2] = 0, o[3] = shadow[i];
				}
				glc_draw_quad(gl, tex);
				glc_check(glc_read_rgba_same(gl, w, h, want, what),
					  "%s: drawn as a textured quad equals the upload", what);
				read = 1;
			}
			glc_fb_free(gl, &fb);
			free(want);
		}
	}
	if (!read)
		glc_skip("%s: not read back: %s, and GLES2 has no glGetTexImage", what,
			 f->renderable ? "no FBO read back in this format" : "not colour-renderable");
out:
	gl->DeleteTextures(1, &tex);
	free(shadow);
	free(sub);
}

GLC_API void glc_check_textures(struct glc_gl *gl)
{
	static const struct { unsigned w, h; const char *kind; } sizes[] = {
		{ 64, 32, "POT" }, { 32, 64, "POT" }, { 45, 27, "NPOT" }, { 100, 33, "NPOT" },
	};
	uint32_t seed = 12345;
	for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (unsigned i = 0; i < sizeof(glc_texfmts) / sizeof(glc_texfmts[0]); i++)
			glc_check_texture(gl, &glc_texfmts[i], sizes[s].w, sizes[s].h,
					  sizes[s].kind, seed + s * 100 + i);
}

/* ---- glFinish, queries ---- */

GLC_API double glc_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

GLC_API void glc_check_finish(struct glc_gl *gl)
{
	double t0 = glc_now();
	gl->Finish();
	glc_check(glc_gl_clean(gl, "glFinish"), "glFinish returns (%.1f ms)",
		  (glc_now() - t0) * 1e3);
}

/* glFinish after long work sleeps: Mesa's nouveau waits for its fence
 * with a sched_yield every eighth look, which on nvd's card (simulated on
 * the same CPUs) must not keep a core busy.  Twenty full-screen textured
 * quads at 1024x1024 take the NV4x at least 20 ms; the waiting thread may
 * use an eighth of that (Mesa's spin took 80%).  Other renderers are only
 * reported. */
GLC_API void glc_check_finish_sleeps(struct glc_gl *gl, const struct glc_opts *o)
{
	static const uint8_t texel[4 * 4 * 4] = { 0x40 };
	struct glc_fb fb;
	GLuint t;
	if (glc_fb_new(gl, &fb, 1024, 1024) < 0)
		return;
	gl->GenTextures(1, &t);
	gl->BindTexture(GL_TEXTURE_2D, t);
	gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
	gl->Finish();
	for (unsigned i = 0; i < 20; i++)
		glc_draw_quad(gl, t);
	struct timespec c0, c1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	double t0 = glc_now();
	gl->Finish();
	double wall = glc_now() - t0;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	double cpu = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9;
	if (strstr(o->renderer, "NV4"))
		glc_check(glc_gl_clean(gl, "long glFinish") && wall >= 0.02 && cpu <= wall / 8,
			  "glFinish after 20 quads of 1024x1024 sleeps: %.1f ms, %.1f ms of CPU "
			  "in the waiting thread (an eighth at most)", wall * 1e3, cpu * 1e3);
	else
		glc_note("glFinish after 20 quads of 1024x1024: %.1f ms, %.1f ms of CPU",
			 wall * 1e3, cpu * 1e3);
	gl->DeleteTextures(1, &t);
	glc_fb_free(gl, &fb);
}

/* A query around clears (which pass no samples): the result must come
 * back, and be 0. */
GLC_API void glc_check_query(struct glc_gl *gl)
{
	if (!gl->have_query) {
		glc_skip("occlusion query: GLES2 context without GL_EXT_occlusion_query_boolean");
		return;
	}
	struct glc_fb fb;
	if (glc_fb_new(gl, &fb, 64, 64) == 0) {
		GLuint q, avail = 0, result = 0xdeadbeef;
		gl->GenQueries(1, &q);
		gl->BeginQuery(gl->query_target, q);
		gl->ClearColor(0, 0, 1, 1);
		gl->Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
		gl->EndQuery(gl->query_target);
		gl->GetQueryObjectuiv(q, GL_QUERY_RESULT, &result);
		gl->GetQueryObjectuiv(q, GL_QUERY_RESULT_AVAILABLE, &avail);
		int clean = glc_gl_clean(gl, "query");
		glc_check(clean && avail == GL_TRUE && result == 0,
			  "occlusion query (%s) around clears returns %u samples (expected 0), "
			  "available %u", gl->gles ? "GL_ANY_SAMPLES_PASSED_EXT" : "GL_SAMPLES_PASSED",
			  result, avail);
		if (gl->prog) {
			/* a quad over the 64x64 framebuffer: every pixel passes */
			static const uint8_t texel[4 * 4 * 4] = { 0x80 };
			GLuint t;
			gl->GenTextures(1, &t);
			gl->BindTexture(GL_TEXTURE_2D, t);
			gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
			gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
				       texel);
			GLuint expect = gl->gles ? GL_TRUE : 64 * 64;
			avail = 0;
			result = 0xdeadbeef;
			gl->BeginQuery(gl->query_target, q);
			glc_draw_quad(gl, t);
			gl->EndQuery(gl->query_target);
			gl->GetQueryObjectuiv(q, GL_QUERY_RESULT, &result);
			gl->GetQueryObjectuiv(q, GL_QUERY_RESULT_AVAILABLE, &avail);
			clean = glc_gl_clean(gl, "query");
			glc_check(clean && avail == GL_TRUE && result == expect,
				  "occlusion query around a 64x64 quad returns %u (expected %u), "
				  "available %u", result, expect, avail);
			gl->DeleteTextures(1, &t);
		}
		gl->DeleteQueries(1, &q);
	}
	glc_fb_free(gl, &fb);
}

/* ---- the loop: frames to interrupt ---- */

GLC_API void glc_loop(struct glc_gl *gl, long frames)
{
	struct glc_fb fb[2];
	int ok = glc_fb_new(gl, &fb[0], 64, 64) == 0 && glc_fb_new(gl, &fb[1], 50, 30) == 0;
	long bad = 0, i;
	uint8_t *want = malloc(64 * 64 * 4);
	if (!ok || !want) {
		glc_check(0, "loop: setup");
		free(want);
		return;
	}
	printf("looping: %ld frames\n", frames);
	fflush(stdout);
	for (i = 0; i < frames; i++) {
		struct glc_fb *f = &fb[i & 1];
		struct glc_rgba c = { (uint8_t)i, (uint8_t)(i >> 8), (uint8_t)(i * 7), 0xff };
		gl->BindFramebuffer(GL_FRAMEBUFFER, f->fbo);
		gl->Viewport(0, 0, (GLsizei)f->w, (GLsizei)f->h);
		glc_clear_color(gl, c);
		gl->Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
		glc_fill_rgba(want, f->w, 0, 0, f->w, f->h, c);
		if (!glc_read_rgba_same(gl, f->w, f->h, want, "loop frame"))
			if (bad++ > 3)
				break;
	}
	glc_check(!bad, "loop: %ld frames of clear + read back (%ld wrong)", i, bad);
	glc_fb_free(gl, &fb[0]);
	glc_fb_free(gl, &fb[1]);
	free(want);
}

/* ---- everything ---- */

/* The renderer line (harnesses look for "renderer: ") and its check. */
GLC_API int glc_check_renderer(struct glc_gl *gl, const struct glc_opts *o)
{
	const char *r = (const char *)gl->GetString(GL_RENDERER);
	const char *v = (const char *)gl->GetString(GL_VERSION);
	printf("renderer: %s\n", r ? r : "(null)");
	glc_note("version: %s", v ? v : "(null)");
	return glc_check(r && strstr(r, o->renderer), "GL_RENDERER \"%s\" contains \"%s\"",
			 r ? r : "", o->renderer);
}

/* glc_start, then a desktop GL context on the EGL surfaceless platform
 * with its entry points loaded and its renderer checked: 0 or -1 (the
 * failed check printed).  glc_egl_fini(e) in either case. */
GLC_API int glc_surfaceless_gl(const struct glc_opts *o, struct glc_egl *e, struct glc_gl *gl)
{
	glc_start(o);
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
					       NULL);
	if (glc_egl_context(e, dpy, 0, 0) < 0 || glc_gl_load(gl, 0) < 0 ||
	    !glc_check_renderer(gl, o))
		return -1;
	return 0;
}

/* After a context is current: every check (with --loop, the frames come
 * first).  A context on the wrong renderer stops here: its results would
 * say nothing about the card. */
GLC_API void glc_run_checks(const struct glc_opts *o)
{
	struct glc_gl gl;
	if (glc_gl_load(&gl, o->gles) < 0)
		return;
	if (!glc_check_renderer(&gl, o))
		return;
	if (o->draw && glc_draw_init(&gl) < 0)
		return;
	/* the loop first: a harness that kills a looping program need not
	 * wait for the checks */
	if (o->loop)
		glc_loop(&gl, o->loop);
	glc_check_framebuffers(&gl);
	glc_check_textures(&gl);
	glc_check_finish(&gl);
	if (gl.prog)
		glc_check_finish_sleeps(&gl, o);
	glc_check_query(&gl);
	glc_check_finish(&gl);
}

#endif
