/* gl-scenes: the golden-image scenes.  Renders one named scene (desktop GL
 * 2.1: fixed function, GLSL 1.10 and ARB programs as Mesa's nv30 driver
 * exposes them) into an RGBA8 FBO on EGL's surfaceless platform and writes
 * its pixels, glReadPixels order (bottom row first), as raw RGBA8 to --out.
 * test_gl_scenes runs every scene under nvd-run and on llvmpipe and
 * compares the two images.
 *
 *   gl-scenes --scene NAME --out FILE [--size WxH] [--renderer SUBSTR]
 *   gl-scenes --list
 *
 * Exit 0 written, 1 failed (GL error, incomplete FBO, shader that does not
 * compile, wrong renderer), 2 usage, 77 the context lacks what the scene
 * needs (GL_MAX_DRAW_BUFFERS < 2 for mrt).
 *
 * Scenes keep their geometry off the ties of the rasterisation rules where
 * they can (edges between pixel centres, odd point sizes centred on pixel
 * centres): both renderers must then cover the same pixels. */
#define GL_GLEXT_PROTOTYPES 1
#include "tests/gl/glcommon.h"

#include <math.h>
#include <stddef.h>

#define SC_UNSUPPORTED 77

struct sc {
	int w, h;                  /* the FBO's size */
	GLuint fbo;                /* bound while the scene draws */
};

/* ---- small helpers ---- */

static int sc_gl_ok(const char *what)
{
	GLenum e = glGetError();
	if (e == GL_NO_ERROR)
		return 1;
	fprintf(stderr, "gl-scenes: %s: GL error 0x%04x\n", what, e);
	return 0;
}

/* Pixel coordinates: (0,0) the bottom-left corner of the FBO. */
static void sc_ortho_pixels(const struct sc *s)
{
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glOrtho(0, s->w, 0, s->h, -1, 1);
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
}

/* Unit coordinates: (0,0)-(1,1) the whole FBO. */
static void sc_ortho_unit(void)
{
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glOrtho(0, 1, 0, 1, -1, 1);
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
}

/* Unit coordinates, the colour buffer cleared to (r,g,b,a). */
static void sc_clear_unit(float r, float g, float b, float a)
{
	sc_ortho_unit();
	glClearColor(r, g, b, a);
	glClear(GL_COLOR_BUFFER_BIT);
}

/* Pixel coordinates, the colour buffer cleared to (r,g,b,a). */
static void sc_clear_pixels(const struct sc *s, float r, float g, float b, float a)
{
	sc_ortho_pixels(s);
	glClearColor(r, g, b, a);
	glClear(GL_COLOR_BUFFER_BIT);
}

static void sc_rect(float x0, float y0, float x1, float y1)
{
	glBegin(GL_QUADS);
	glTexCoord2f(0, 0);
	glVertex2f(x0, y0);
	glTexCoord2f(1, 0);
	glVertex2f(x1, y0);
	glTexCoord2f(1, 1);
	glVertex2f(x1, y1);
	glTexCoord2f(0, 1);
	glVertex2f(x0, y1);
	glEnd();
}

static void sc_rect_flat(float x0, float y0, float x1, float y1)
{
	glBegin(GL_QUADS);
	glVertex2f(x0, y0);
	glVertex2f(x1, y0);
	glVertex2f(x1, y1);
	glVertex2f(x0, y1);
	glEnd();
}

/* A quad with its own RGBA at each corner, (x0,y0) (x1,y0) (x1,y1) (x0,y1). */
static void sc_quad_colors(float x0, float y0, float x1, float y1, const float c[4][4])
{
	glBegin(GL_QUADS);
	glColor4fv(c[0]);
	glVertex2f(x0, y0);
	glColor4fv(c[1]);
	glVertex2f(x1, y0);
	glColor4fv(c[2]);
	glVertex2f(x1, y1);
	glColor4fv(c[3]);
	glVertex2f(x0, y1);
	glEnd();
}

/* A background with every channel (alpha too) varying: what blending,
 * logic ops and masks work against. */
static void sc_backdrop(void)
{
	static const float c[4][4] = {
		{ 0.9f, 0.1f, 0.2f, 0.1f },
		{ 0.1f, 0.8f, 0.3f, 0.4f },
		{ 0.2f, 0.3f, 0.9f, 0.9f },
		{ 0.7f, 0.7f, 0.1f, 0.6f },
	};
	sc_quad_colors(0, 0, 1, 1, c);
}

/* The same in flat rectangles of exact bytes: logic ops turn a one-step
 * difference of interpolation into any difference. */
static void sc_backdrop_flat(void)
{
	for (unsigned y = 0; y < 5; y++)
		for (unsigned x = 0; x < 5; x++) {
			glColor4ub((GLubyte)(x * 61 + 7), (GLubyte)(y * 53 + 11),
				   (GLubyte)((x * 5 + y) * 10 + 3), (GLubyte)(255 - (x + y) * 25));
			sc_rect_flat((float)x / 5, (float)y / 5, (float)(x + 1) / 5,
				     (float)(y + 1) / 5);
		}
}

/* Panel i of a cols x rows grid, in unit coordinates, with a margin. */
static void sc_panel(unsigned i, unsigned cols, unsigned rows, float *x0, float *y0, float *x1,
		     float *y1)
{
	float pw = 1.0f / (float)cols, ph = 1.0f / (float)rows;
	unsigned cx = i % cols, cy = i / cols;
	*x0 = (float)cx * pw + pw * 0.1f;
	*x1 = (float)(cx + 1) * pw - pw * 0.1f;
	*y0 = (float)cy * ph + ph * 0.1f;
	*y1 = (float)(cy + 1) * ph - ph * 0.1f;
}

/* An RGBA8 texture of w x h from a function of the texel. */
static GLuint sc_tex(unsigned w, unsigned h, void (*fn)(unsigned x, unsigned y, uint8_t *p),
		     GLenum filter)
{
	uint8_t *px = malloc((size_t)w * h * 4);
	GLuint t = 0;
	if (!px)
		return 0;
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++)
			fn(x, y, px + ((size_t)y * w + x) * 4);
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, (GLsizei)w, (GLsizei)h, 0, GL_RGBA,
		     GL_UNSIGNED_BYTE, px);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, (GLint)filter);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, (GLint)filter);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
	free(px);
	return t;
}

/* 8x8 checker of four colours, a different one in each quadrant */
static void sc_texel_checker(unsigned x, unsigned y, uint8_t *p)
{
	static const uint8_t c[4][4] = {
		{ 230, 40, 40, 255 }, { 40, 200, 60, 255 }, { 50, 70, 220, 200 }, { 240, 230, 60, 120 },
	};
	unsigned q = (x >= 4) + 2 * (y >= 4);
	int dark = (x + y) & 1;
	for (unsigned i = 0; i < 3; i++)
		p[i] = (uint8_t)(dark ? c[q][i] / 3 : c[q][i]);
	p[3] = c[q][3];
}

/* a smooth 16x16 pattern: bilinear filtering shows */
static void sc_texel_smooth(unsigned x, unsigned y, uint8_t *p)
{
	p[0] = (uint8_t)(x * 17);
	p[1] = (uint8_t)(y * 17);
	p[2] = (uint8_t)(((x ^ y) & 1) ? 220 : 40);
	p[3] = (uint8_t)(255 - x * 8);
}

static GLuint sc_shader(GLenum kind, const char *src)
{
	GLuint sh = glCreateShader(kind);
	GLint ok = 0;
	glShaderSource(sh, 1, &src, NULL);
	glCompileShader(sh);
	glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[1024] = "";
		glGetShaderInfoLog(sh, sizeof(log), NULL, log);
		fprintf(stderr, "gl-scenes: shader does not compile: %s\n", log);
		glDeleteShader(sh);
		return 0;
	}
	return sh;
}

/* A linked program of vs (may be NULL: fixed-function vertex stage) and
 * fs; 0 when it does not compile or link. */
static GLuint sc_program(const char *vs, const char *fs)
{
	GLuint p = glCreateProgram(), v = 0, f = 0;
	GLint ok = 0;
	if (vs) {
		if (!(v = sc_shader(GL_VERTEX_SHADER, vs)))
			return 0;
		glAttachShader(p, v);
	}
	if (fs) {
		if (!(f = sc_shader(GL_FRAGMENT_SHADER, fs)))
			return 0;
		glAttachShader(p, f);
	}
	glBindAttribLocation(p, 0, "pos");
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (v)
		glDeleteShader(v);
	if (f)
		glDeleteShader(f);
	if (!ok) {
		char log[1024] = "";
		glGetProgramInfoLog(p, sizeof(log), NULL, log);
		fprintf(stderr, "gl-scenes: program does not link: %s\n", log);
		glDeleteProgram(p);
		return 0;
	}
	return p;
}

/* ---- glxgears ---- */

/* The gear of glxgears: front and back faces, teeth sides, the outward
 * faces (flat shaded), the inside cylinder (smooth). */
static void sc_gear(float inner, float outer, float width, int teeth, float depth)
{
	const float pi = 3.14159265f;
	float r0 = inner, r1 = outer - depth / 2, r2 = outer + depth / 2;
	float da = 2 * pi / (float)teeth / 4;
	float hw = width * 0.5f;

	glShadeModel(GL_FLAT);
	glNormal3f(0, 0, 1);
	glBegin(GL_QUAD_STRIP);
	for (int i = 0; i <= teeth; i++) {
		float a = (float)i * 2 * pi / (float)teeth;
		glVertex3f(r0 * cosf(a), r0 * sinf(a), hw);
		glVertex3f(r1 * cosf(a), r1 * sinf(a), hw);
		if (i < teeth) {
			glVertex3f(r0 * cosf(a), r0 * sinf(a), hw);
			glVertex3f(r1 * cosf(a + 3 * da), r1 * sinf(a + 3 * da), hw);
		}
	}
	glEnd();
	glBegin(GL_QUADS);
	for (int i = 0; i < teeth; i++) {
		float a = (float)i * 2 * pi / (float)teeth;
		glVertex3f(r1 * cosf(a), r1 * sinf(a), hw);
		glVertex3f(r2 * cosf(a + da), r2 * sinf(a + da), hw);
		glVertex3f(r2 * cosf(a + 2 * da), r2 * sinf(a + 2 * da), hw);
		glVertex3f(r1 * cosf(a + 3 * da), r1 * sinf(a + 3 * da), hw);
	}
	glEnd();

	glNormal3f(0, 0, -1);
	glBegin(GL_QUAD_STRIP);
	for (int i = 0; i <= teeth; i++) {
		float a = (float)i * 2 * pi / (float)teeth;
		glVertex3f(r1 * cosf(a), r1 * sinf(a), -hw);
		glVertex3f(r0 * cosf(a), r0 * sinf(a), -hw);
		if (i < teeth) {
			glVertex3f(r1 * cosf(a + 3 * da), r1 * sinf(a + 3 * da), -hw);
			glVertex3f(r0 * cosf(a), r0 * sinf(a), -hw);
		}
	}
	glEnd();
	glBegin(GL_QUADS);
	for (int i = 0; i < teeth; i++) {
		float a = (float)i * 2 * pi / (float)teeth;
		glVertex3f(r1 * cosf(a + 3 * da), r1 * sinf(a + 3 * da), -hw);
		glVertex3f(r2 * cosf(a + 2 * da), r2 * sinf(a + 2 * da), -hw);
		glVertex3f(r2 * cosf(a + da), r2 * sinf(a + da), -hw);
		glVertex3f(r1 * cosf(a), r1 * sinf(a), -hw);
	}
	glEnd();

	glBegin(GL_QUAD_STRIP);
	for (int i = 0; i < teeth; i++) {
		float a = (float)i * 2 * pi / (float)teeth;
		float u, v, len;
		glVertex3f(r1 * cosf(a), r1 * sinf(a), hw);
		glVertex3f(r1 * cosf(a), r1 * sinf(a), -hw);
		u = r2 * cosf(a + da) - r1 * cosf(a);
		v = r2 * sinf(a + da) - r1 * sinf(a);
		len = sqrtf(u * u + v * v);
		u /= len;
		v /= len;
		glNormal3f(v, -u, 0);
		glVertex3f(r2 * cosf(a + da), r2 * sinf(a + da), hw);
		glVertex3f(r2 * cosf(a + da), r2 * sinf(a + da), -hw);
		glNormal3f(cosf(a), sinf(a), 0);
		glVertex3f(r2 * cosf(a + 2 * da), r2 * sinf(a + 2 * da), hw);
		glVertex3f(r2 * cosf(a + 2 * da), r2 * sinf(a + 2 * da), -hw);
		u = r1 * cosf(a + 3 * da) - r2 * cosf(a + 2 * da);
		v = r1 * sinf(a + 3 * da) - r2 * sinf(a + 2 * da);
		glNormal3f(v, -u, 0);
		glVertex3f(r1 * cosf(a + 3 * da), r1 * sinf(a + 3 * da), hw);
		glVertex3f(r1 * cosf(a + 3 * da), r1 * sinf(a + 3 * da), -hw);
		glNormal3f(cosf(a), sinf(a), 0);
	}
	glVertex3f(r1, 0, hw);
	glVertex3f(r1, 0, -hw);
	glEnd();

	glShadeModel(GL_SMOOTH);
	glBegin(GL_QUAD_STRIP);
	for (int i = 0; i <= teeth; i++) {
		float a = (float)i * 2 * pi / (float)teeth;
		glNormal3f(-cosf(a), -sinf(a), 0);
		glVertex3f(r0 * cosf(a), r0 * sinf(a), -hw);
		glVertex3f(r0 * cosf(a), r0 * sinf(a), hw);
	}
	glEnd();
}

static const GLfloat sc_gear_col[3][4] = {
	{ 0.8f, 0.1f, 0, 1 }, { 0, 0.8f, 0.2f, 1 }, { 0.2f, 0.2f, 1, 1 },
};

/* Gear i of glxgears with its material. */
static void sc_gear_n(int i)
{
	glMaterialfv(GL_FRONT, GL_AMBIENT_AND_DIFFUSE, sc_gear_col[i]);
	if (i == 0)
		sc_gear(1.0f, 4.0f, 1.0f, 20, 0.7f);
	else if (i == 1)
		sc_gear(0.5f, 2.0f, 2.0f, 10, 0.7f);
	else
		sc_gear(1.3f, 2.0f, 0.5f, 10, 0.7f);
}

/* glxgears' first frame moved on a little: three gears, one directional
 * light, flat-shaded faces, depth test.  `glxgears` as that program draws
 * them: from display lists (which Mesa turns into indexed draws from an
 * element buffer) with back faces culled; otherwise in immediate mode
 * without culling, which gives the same image for these closed solids. */
static int sc_gears_draw(const struct sc *s, int glxgears)
{
	static const GLfloat pos[4] = { 5, 5, 10, 0 };
	static const struct { float x, y, mul, add; } place[3] = {
		{ -3, -2, 1, 0 }, { 3.1f, -2, -2, -9 }, { -3.1f, 4.2f, -2, -25 },
	};
	const float angle = 17.0f;
	float ar = (float)s->h / (float)s->w;
	GLuint list = 0;

	glLightfv(GL_LIGHT0, GL_POSITION, pos);
	if (glxgears)
		glEnable(GL_CULL_FACE);
	glEnable(GL_LIGHTING);
	glEnable(GL_LIGHT0);
	glEnable(GL_DEPTH_TEST);
	glEnable(GL_NORMALIZE);
	if (glxgears) {
		list = glGenLists(3);
		for (int i = 0; i < 3; i++) {
			glNewList(list + (GLuint)i, GL_COMPILE);
			sc_gear_n(i);
			glEndList();
		}
	}
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glFrustum(-1, 1, -ar, ar, 5, 60);
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
	glTranslatef(0, 0, -40);
	glClearColor(0, 0, 0, 0);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glPushMatrix();
	glRotatef(20, 1, 0, 0);
	glRotatef(30, 0, 1, 0);
	glRotatef(0, 0, 0, 1);
	for (int i = 0; i < 3; i++) {
		glPushMatrix();
		glTranslatef(place[i].x, place[i].y, 0);
		glRotatef(place[i].mul * angle + place[i].add, 0, 0, 1);
		if (glxgears)
			glCallList(list + (GLuint)i);
		else
			sc_gear_n(i);
		glPopMatrix();
	}
	glPopMatrix();
	if (glxgears)
		glDeleteLists(list, 3);
	return 0;
}

static int sc_gears(const struct sc *s) { return sc_gears_draw(s, 0); }
static int sc_glxgears(const struct sc *s) { return sc_gears_draw(s, 1); }

/* ---- primitives ---- */

static int sc_triangle(const struct sc *s)
{
	(void)s;
	sc_clear_unit(0.1f, 0.1f, 0.15f, 1);
	glShadeModel(GL_SMOOTH);
	glBegin(GL_TRIANGLES);
	glColor4f(1, 0, 0, 1);
	glVertex2f(0.1f, 0.12f);
	glColor4f(0, 1, 0, 0.5f);
	glVertex2f(0.93f, 0.3f);
	glColor4f(0, 0, 1, 0.2f);
	glVertex2f(0.4f, 0.91f);
	glEnd();
	return 0;
}

static int sc_tri_strip(const struct sc *s)
{
	(void)s;
	sc_clear_unit(0, 0, 0, 1);
	glBegin(GL_TRIANGLE_STRIP);
	for (int i = 0; i <= 8; i++) {
		float x = 0.05f + (float)i * 0.11f;
		glColor3f((float)i / 8, 1 - (float)i / 8, 0.5f);
		glVertex2f(x, 0.1f + 0.05f * (float)(i & 1));
		glColor3f(0.2f, (float)i / 8, 1 - (float)i / 8);
		glVertex2f(x + 0.03f, 0.45f + 0.1f * (float)(i % 3));
	}
	glEnd();
	/* flat shading: each triangle the colour of its last vertex */
	glShadeModel(GL_FLAT);
	glBegin(GL_TRIANGLE_STRIP);
	for (int i = 0; i <= 6; i++) {
		glColor3f((float)(i % 3) / 2, (float)((i + 1) % 4) / 3, (float)i / 6);
		glVertex2f(0.07f + (float)i * 0.14f, (i & 1) ? 0.96f : 0.71f);
	}
	glEnd();
	return 0;
}

static int sc_tri_fan(const struct sc *s)
{
	(void)s;
	sc_clear_unit(0, 0.05f, 0.1f, 1);
	glBegin(GL_TRIANGLE_FAN);
	glColor3f(1, 1, 1);
	glVertex2f(0.5f, 0.5f);
	for (int i = 0; i <= 12; i++) {
		float a = (float)i * 2 * 3.14159265f / 12 + 0.1f;
		glColor3f(0.5f + 0.5f * cosf(a), 0.5f + 0.5f * sinf(a), (float)(i & 1));
		glVertex2f(0.5f + 0.43f * cosf(a), 0.5f + 0.41f * sinf(a));
	}
	glEnd();
	return 0;
}

static int sc_quads(const struct sc *s)
{
	(void)s;
	sc_clear_unit(0.2f, 0.2f, 0.2f, 1);
	glBegin(GL_QUADS);
	for (int i = 0; i < 4; i++) {
		float x = 0.05f + (float)i * 0.23f;
		glColor3f(1, (float)i / 4, 0);
		glVertex2f(x, 0.07f);
		glColor3f(0, 1, (float)i / 4);
		glVertex2f(x + 0.2f, 0.1f);
		glColor3f(0, 0, 1);
		glVertex2f(x + 0.17f, 0.43f);
		glColor3f(1, 1, 1);
		glVertex2f(x + 0.02f, 0.38f);
	}
	glEnd();
	glBegin(GL_QUAD_STRIP);
	for (int i = 0; i <= 6; i++) {
		float x = 0.04f + (float)i * 0.15f;
		glColor3f((float)i / 6, 0.3f, 1 - (float)i / 6);
		glVertex2f(x, 0.55f + 0.04f * (float)(i & 1));
		glColor3f(0.9f, (float)i / 6, 0.1f);
		glVertex2f(x + 0.01f, 0.93f);
	}
	glEnd();
	return 0;
}

static int sc_polygon(const struct sc *s)
{
	(void)s;
	sc_clear_unit(0.05f, 0.05f, 0, 1);
	/* a convex heptagon, smooth, then a flat one (GL_POLYGON's colour is
	 * its first vertex's) */
	glBegin(GL_POLYGON);
	for (int i = 0; i < 7; i++) {
		float a = (float)i * 2 * 3.14159265f / 7 + 0.3f;
		glColor3f(0.5f + 0.5f * sinf(a), (float)i / 7, 0.5f + 0.5f * cosf(a));
		glVertex2f(0.3f + 0.27f * cosf(a), 0.5f + 0.4f * sinf(a));
	}
	glEnd();
	glShadeModel(GL_FLAT);
	glBegin(GL_POLYGON);
	for (int i = 0; i < 5; i++) {
		float a = (float)i * 2 * 3.14159265f / 5 + 0.7f;
		glColor3f(i == 0 ? 1.0f : 0.2f, 0.6f, (float)i / 5);
		glVertex2f(0.76f + 0.2f * cosf(a), 0.5f + 0.3f * sinf(a));
	}
	glEnd();
	return 0;
}

/* Non-smooth wide points are squares; odd sizes sit on pixel centres and
 * even ones on pixel corners, so no pixel centre is on a square's edge. */
static int sc_points(const struct sc *s)
{
	static const float sizes[] = { 1, 2, 3, 4, 5, 7, 8, 12, 13 };
	sc_clear_pixels(s, 0, 0, 0, 1);
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		float off = ((int)sizes[i] & 1) ? 0.5f : 0.0f;
		glPointSize(sizes[i]);
		glBegin(GL_POINTS);
		for (int k = 0; k < 4; k++) {
			glColor3f((float)i / 9, 1 - (float)k / 4, 0.5f + 0.1f * (float)k);
			glVertex2f((float)(s->w * (int)(i + 1) / 11) + off,
				   (float)(s->h * (k + 1) / 6) + off);
		}
		glEnd();
	}
	return 0;
}

/* Lines of widths 1..7: horizontal, vertical and steep/shallow ones, a
 * strip and a loop, endpoints away from the diamond-exit ties. */
static int sc_lines(const struct sc *s)
{
	static const float widths[] = { 1, 2, 3, 5, 7 };
	sc_clear_pixels(s, 0, 0, 0.1f, 1);
	float W = (float)s->w, H = (float)s->h;
	for (unsigned i = 0; i < 5; i++) {
		float y = H * (0.08f + 0.08f * (float)i) + 0.5f;
		float x = W * (0.1f + 0.16f * (float)i) + 0.5f;
		glLineWidth(widths[i]);
		glBegin(GL_LINES);
		glColor3f(1, 0.2f * (float)i, 0);
		glVertex2f(W * 0.05f + 0.5f, y);
		glColor3f(0, 0.2f * (float)i, 1);
		glVertex2f(W * 0.45f + 0.5f, y);
		glColor3f(0.3f, 1, 0.2f * (float)i);
		glVertex2f(x, H * 0.5f + 0.5f);
		glVertex2f(x, H * 0.95f + 0.5f);
		glColor3f(1, 1, 0.2f * (float)i);
		glVertex2f(W * 0.55f + 0.3f, H * (0.05f + 0.08f * (float)i) + 0.2f);
		glVertex2f(W * 0.95f + 0.3f, H * (0.15f + 0.08f * (float)i) + 0.2f);
		glEnd();
	}
	glLineWidth(1);
	glBegin(GL_LINE_STRIP);
	for (int i = 0; i < 6; i++) {
		glColor3f(0.5f, (float)i / 6, 1);
		glVertex2f(W * (0.55f + 0.07f * (float)i) + 0.3f,
			   H * (0.55f + ((i & 1) ? 0.15f : 0.0f)) + 0.2f);
	}
	glEnd();
	glLineWidth(2);
	glBegin(GL_LINE_LOOP);
	glColor3f(1, 0.5f, 0.5f);
	glVertex2f(W * 0.6f + 0.3f, H * 0.78f + 0.2f);
	glVertex2f(W * 0.9f + 0.3f, H * 0.8f + 0.2f);
	glColor3f(0.5f, 1, 0.5f);
	glVertex2f(W * 0.85f + 0.3f, H * 0.95f + 0.2f);
	glEnd();
	return 0;
}

/* ---- textures ---- */

static int sc_tex_filter(const struct sc *s, GLenum filter)
{
	(void)s;
	GLuint t = filter == GL_NEAREST ? sc_tex(8, 8, sc_texel_checker, filter)
					: sc_tex(16, 16, sc_texel_smooth, filter);
	sc_clear_unit(0, 0, 0, 1);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
	/* rotated a little and repeated 1.5 times: magnified, not aligned */
	glMatrixMode(GL_MODELVIEW);
	glTranslatef(0.5f, 0.5f, 0);
	glRotatef(13, 0, 0, 1);
	glTranslatef(-0.5f, -0.5f, 0);
	glBegin(GL_QUADS);
	glTexCoord2f(0.03f, 0.01f);
	glVertex2f(0.12f, 0.1f);
	glTexCoord2f(1.53f, 0.01f);
	glVertex2f(0.9f, 0.12f);
	glTexCoord2f(1.53f, 1.47f);
	glVertex2f(0.88f, 0.88f);
	glTexCoord2f(0.03f, 1.47f);
	glVertex2f(0.1f, 0.9f);
	glEnd();
	glDeleteTextures(1, &t);
	return 0;
}

static int sc_tex_nearest(const struct sc *s) { return sc_tex_filter(s, GL_NEAREST); }
static int sc_tex_linear(const struct sc *s) { return sc_tex_filter(s, GL_LINEAR); }

/* A floor receding in perspective with a 64x64 mipmapped texture whose
 * levels are tinted apart a little: trilinear filtering blends them. */
static int sc_mipmap(const struct sc *s)
{
	GLuint t;
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	uint8_t *px = malloc(64 * 64 * 4);
	if (!px)
		return -1;
	for (unsigned lvl = 0, n = 64; n; lvl++, n /= 2) {
		for (unsigned y = 0; y < n; y++)
			for (unsigned x = 0; x < n; x++) {
				uint8_t *p = px + ((size_t)y * n + x) * 4;
				int on = (x * 8 / n + y * 8 / n) & 1;   /* 8x8 checks at every level */
				p[0] = (uint8_t)(on ? 200 : 60 + 12 * lvl);
				p[1] = (uint8_t)(on ? 180 - 16 * lvl : 70);
				p[2] = (uint8_t)(60 + 20 * lvl);
				p[3] = 255;
			}
		glTexImage2D(GL_TEXTURE_2D, (GLint)lvl, GL_RGBA8, (GLsizei)n, (GLsizei)n, 0, GL_RGBA,
			     GL_UNSIGNED_BYTE, px);
	}
	free(px);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glFrustum(-1, 1, -(double)s->h / s->w, (double)s->h / s->w, 1, 50);
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
	glClearColor(0.3f, 0.3f, 0.4f, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glRotatef(10, 0, 0, 1);
	glBegin(GL_QUADS);
	glTexCoord2f(0, 0);
	glVertex3f(-3, -1, -1.2f);
	glTexCoord2f(3, 0);
	glVertex3f(3, -1, -1.2f);
	glTexCoord2f(3, 24);
	glVertex3f(3, -1, -40);
	glTexCoord2f(0, 24);
	glVertex3f(-3, -1, -40);
	glEnd();
	glDeleteTextures(1, &t);
	return 0;
}

/* REPEAT, MIRRORED_REPEAT, CLAMP_TO_EDGE, CLAMP_TO_BORDER (border colour):
 * texture coordinates -1..2 over each panel. */
static int sc_tex_wrap(const struct sc *s)
{
	static const GLenum modes[] = { GL_REPEAT, GL_MIRRORED_REPEAT, GL_CLAMP_TO_EDGE,
					GL_CLAMP_TO_BORDER };
	static const GLfloat border[4] = { 0.2f, 0.6f, 0.9f, 1 };
	(void)s;
	GLuint t = sc_tex(8, 8, sc_texel_checker, GL_NEAREST);
	glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
	sc_clear_unit(0, 0, 0, 1);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
	for (unsigned i = 0; i < 4; i++) {
		float x0, y0, x1, y1;
		sc_panel(i, 2, 2, &x0, &y0, &x1, &y1);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, (GLint)modes[i]);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, (GLint)modes[i]);
		glBegin(GL_QUADS);
		glTexCoord2f(-1.03f, -0.97f);
		glVertex2f(x0, y0);
		glTexCoord2f(2.03f, -0.97f);
		glVertex2f(x1, y0);
		glTexCoord2f(2.03f, 1.97f);
		glVertex2f(x1, y1);
		glTexCoord2f(-1.03f, 1.97f);
		glVertex2f(x0, y1);
		glEnd();
	}
	glDeleteTextures(1, &t);
	return 0;
}

/* Two texture units through the fixed-function combiner: MODULATE on unit
 * 0, ADD on unit 1; the vertex colour comes in too. */
static int sc_texenv(const struct sc *s)
{
	(void)s;
	GLuint t0 = sc_tex(8, 8, sc_texel_checker, GL_NEAREST);
	GLuint t1 = sc_tex(16, 16, sc_texel_smooth, GL_LINEAR);
	sc_clear_unit(0, 0, 0, 1);
	glActiveTexture(GL_TEXTURE0);
	glBindTexture(GL_TEXTURE_2D, t0);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
	glActiveTexture(GL_TEXTURE1);
	glBindTexture(GL_TEXTURE_2D, t1);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
	glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_RGB, GL_ADD_SIGNED);
	glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_ALPHA, GL_REPLACE);
	glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE0_RGB, GL_PREVIOUS);
	glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE1_RGB, GL_TEXTURE);
	glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE0_ALPHA, GL_PREVIOUS);
	glBegin(GL_QUADS);
	glColor4f(1, 0.8f, 0.6f, 1);
	glMultiTexCoord2f(GL_TEXTURE0, 0.01f, 0.02f);
	glMultiTexCoord2f(GL_TEXTURE1, 0.0f, 0.0f);
	glVertex2f(0.05f, 0.05f);
	glColor4f(0.6f, 1, 0.8f, 0.8f);
	glMultiTexCoord2f(GL_TEXTURE0, 2.01f, 0.02f);
	glMultiTexCoord2f(GL_TEXTURE1, 1.0f, 0.0f);
	glVertex2f(0.95f, 0.05f);
	glColor4f(0.8f, 0.6f, 1, 0.6f);
	glMultiTexCoord2f(GL_TEXTURE0, 2.01f, 2.02f);
	glMultiTexCoord2f(GL_TEXTURE1, 1.0f, 1.0f);
	glVertex2f(0.95f, 0.95f);
	glColor4f(1, 1, 1, 1);
	glMultiTexCoord2f(GL_TEXTURE0, 0.01f, 2.02f);
	glMultiTexCoord2f(GL_TEXTURE1, 0.0f, 1.0f);
	glVertex2f(0.05f, 0.95f);
	glEnd();
	glDisable(GL_TEXTURE_2D);
	glActiveTexture(GL_TEXTURE0);
	glDeleteTextures(1, &t0);
	glDeleteTextures(1, &t1);
	return 0;
}

/* ---- per-fragment operations ---- */

static int sc_blend_funcs(const struct sc *s)
{
	static const struct { GLenum sc, dc, sa, da; } f[] = {
		{ GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA },
		{ GL_ONE, GL_ONE, GL_ONE, GL_ONE },
		{ GL_DST_COLOR, GL_ZERO, GL_DST_ALPHA, GL_ZERO },
		{ GL_ONE_MINUS_DST_COLOR, GL_ONE, GL_ONE, GL_ZERO },
		{ GL_CONSTANT_COLOR, GL_ONE_MINUS_CONSTANT_COLOR, GL_CONSTANT_ALPHA, GL_ZERO },
		{ GL_SRC_ALPHA_SATURATE, GL_ONE, GL_ONE, GL_ONE },
		{ GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ZERO },
		{ GL_ZERO, GL_SRC_COLOR, GL_ONE_MINUS_DST_ALPHA, GL_DST_ALPHA },
		{ GL_DST_ALPHA, GL_ONE_MINUS_DST_ALPHA, GL_ZERO, GL_ONE },
	};
	static const float c[4][4] = {
		{ 0.9f, 0.5f, 0.1f, 0.7f },
		{ 0.1f, 0.9f, 0.5f, 0.3f },
		{ 0.5f, 0.1f, 0.9f, 0.9f },
		{ 1, 1, 1, 0.5f },
	};
	(void)s;
	sc_clear_unit(0, 0, 0, 0);
	sc_backdrop();
	glEnable(GL_BLEND);
	glBlendColor(0.25f, 0.5f, 0.75f, 0.4f);
	for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		float x0, y0, x1, y1;
		sc_panel(i, 3, 3, &x0, &y0, &x1, &y1);
		glBlendFuncSeparate(f[i].sc, f[i].dc, f[i].sa, f[i].da);
		sc_quad_colors(x0, y0, x1, y1, c);
	}
	return 0;
}

static int sc_blend_equations(const struct sc *s)
{
	static const struct { GLenum rgb, a; } e[] = {
		{ GL_FUNC_ADD, GL_FUNC_ADD },
		{ GL_FUNC_SUBTRACT, GL_FUNC_SUBTRACT },
		{ GL_FUNC_REVERSE_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT },
		{ GL_MIN, GL_MIN },
		{ GL_MAX, GL_MAX },
		{ GL_FUNC_ADD, GL_MAX },
	};
	static const float c[4][4] = {
		{ 0.8f, 0.2f, 0.4f, 0.9f },
		{ 0.2f, 0.7f, 0.1f, 0.5f },
		{ 0.4f, 0.4f, 1, 0.2f },
		{ 1, 0.6f, 0.3f, 0.7f },
	};
	(void)s;
	sc_clear_unit(0, 0, 0, 0);
	sc_backdrop();
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE);
	for (unsigned i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		float x0, y0, x1, y1;
		sc_panel(i, 3, 2, &x0, &y0, &x1, &y1);
		glBlendEquationSeparate(e[i].rgb, e[i].a);
		sc_quad_colors(x0, y0, x1, y1, c);
	}
	return 0;
}

/* Alpha running 0..1 across each panel (over more pixels than 255, so a
 * reference falls between two pixels' alphas). */
static int sc_alpha_test(const struct sc *s)
{
	static const struct { GLenum fn; float ref; } a[] = {
		{ GL_GREATER, 0.3f }, { GL_LESS, 0.62f },  { GL_GEQUAL, 0.5f },
		{ GL_LEQUAL, 0.21f }, { GL_NOTEQUAL, 0.4f }, { GL_NEVER, 0.0f },
	};
	static const float c[4][4] = {
		{ 1, 0.3f, 0.1f, 0.013f },
		{ 0.1f, 1, 0.3f, 0.987f },
		{ 0.1f, 0.3f, 1, 0.987f },
		{ 1, 1, 0.3f, 0.013f },
	};
	(void)s;
	sc_clear_unit(0.1f, 0.1f, 0.1f, 1);
	glEnable(GL_ALPHA_TEST);
	for (unsigned i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		float x0, y0, x1, y1;
		sc_panel(i, 2, 3, &x0, &y0, &x1, &y1);
		glAlphaFunc(a[i].fn, a[i].ref);
		sc_quad_colors(x0, y0, x1, y1, c);
	}
	return 0;
}

/* Each depth function against a reference quad sloping in depth: the test
 * quad, flat at window depth 0.5, crosses it in the middle of the panel;
 * EQUAL draws the reference quad again (the same depth exactly). */
static int sc_depth_funcs(const struct sc *s)
{
	static const GLenum fn[] = { GL_LESS,     GL_LEQUAL, GL_GREATER, GL_GEQUAL,
				     GL_NOTEQUAL, GL_ALWAYS, GL_NEVER,   GL_EQUAL };
	(void)s;
	sc_ortho_unit();
	glClearColor(0, 0, 0, 1);
	glClearDepth(1.0);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	for (unsigned i = 0; i < 8; i++) {
		float x0, y0, x1, y1;
		sc_panel(i, 4, 2, &x0, &y0, &x1, &y1);
		glDepthFunc(GL_ALWAYS);
		glBegin(GL_QUADS);
		glColor3f(0.4f, 0.4f, 0.4f);
		glVertex3f(x0, y0, -0.83f);
		glVertex3f(x1, y0, 0.77f);
		glColor3f(0.6f, 0.6f, 0.6f);
		glVertex3f(x1, y1, 0.77f);
		glVertex3f(x0, y1, -0.83f);
		glEnd();
		glDepthFunc(fn[i]);
		glBegin(GL_QUADS);
		glColor3f(1, 0.2f, 0.1f);
		if (fn[i] == GL_EQUAL) {
			glVertex3f(x0, y0, -0.83f);
			glVertex3f(x1, y0, 0.77f);
			glColor3f(0.1f, 0.3f, 1);
			glVertex3f(x1, y1, 0.77f);
			glVertex3f(x0, y1, -0.83f);
		} else {
			glVertex3f(x0 + 0.02f, y0 + 0.03f, 0);
			glVertex3f(x1 - 0.02f, y0 + 0.03f, 0);
			glColor3f(0.1f, 0.3f, 1);
			glVertex3f(x1 - 0.02f, y1 - 0.03f, 0);
			glVertex3f(x0 + 0.02f, y1 - 0.03f, 0);
		}
		glEnd();
	}
	return 0;
}

/* A closed prism volume, drawn with colour and depth writes off: front
 * faces increment, back faces decrement (two-sided stencil, z-pass), so the
 * stencil is 1 where the floor and a box are inside one volume and 2
 * inside both (a wrong facing makes them 255 and 254); full-screen quads
 * then darken those pixels. */
static void sc_prism(float x0, float x1, float y0, float y1, float z0, float z1)
{
	/* six faces, each counter-clockwise seen from outside */
	const float v[8][3] = {
		{ x0, y0, z0 }, { x1, y0, z0 }, { x1, y1, z0 }, { x0, y1, z0 },
		{ x0, y0, z1 }, { x1, y0, z1 }, { x1, y1, z1 }, { x0, y1, z1 },
	};
	static const int f[6][4] = {
		{ 4, 5, 6, 7 }, { 1, 0, 3, 2 }, { 0, 4, 7, 3 }, { 5, 1, 2, 6 }, { 3, 7, 6, 2 }, { 0, 1, 5, 4 },
	};
	glBegin(GL_QUADS);
	for (int i = 0; i < 6; i++)
		for (int k = 0; k < 4; k++)
			glVertex3fv(v[f[i][k]]);
	glEnd();
}

static int sc_stencil(const struct sc *s)
{
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glFrustum(-1, 1, -(double)s->h / s->w, (double)s->h / s->w, 2, 30);
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
	glTranslatef(0, -0.5f, -6);
	glRotatef(25, 1, 0, 0);
	glRotatef(-20, 0, 1, 0);
	glClearColor(0.1f, 0.1f, 0.2f, 1);
	glClearStencil(0);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	/* the scene: a floor and a box */
	glBegin(GL_QUADS);
	glColor3f(0.7f, 0.7f, 0.5f);
	glVertex3f(-3, 0, 3);
	glVertex3f(3, 0, 3);
	glColor3f(0.5f, 0.6f, 0.7f);
	glVertex3f(3, 0, -3);
	glVertex3f(-3, 0, -3);
	glEnd();
	glColor3f(0.8f, 0.3f, 0.2f);
	sc_prism(-0.5f, 0.5f, 0, 1.1f, -0.4f, 0.6f);
	/* the volume */
	glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
	glDepthMask(GL_FALSE);
	glEnable(GL_STENCIL_TEST);
	glStencilFunc(GL_ALWAYS, 0, 0xff);
	glStencilOpSeparate(GL_FRONT, GL_KEEP, GL_KEEP, GL_INCR_WRAP);
	glStencilOpSeparate(GL_BACK, GL_KEEP, GL_KEEP, GL_DECR_WRAP);
	sc_prism(-1.7f, 0.2f, -0.5f, 0.8f, -0.9f, 1.9f);
	sc_prism(0.1f, 1.3f, -0.3f, 0.5f, -2.1f, 0.3f);
	/* darken inside */
	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	glDisable(GL_DEPTH_TEST);
	glStencilFunc(GL_EQUAL, 1, 0xff);
	glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	sc_ortho_unit();
	glColor4f(0, 0, 0.1f, 0.6f);
	sc_rect(0, 0, 1, 1);
	/* and a second pass where two volumes overlap (stencil 2) */
	glStencilFunc(GL_EQUAL, 2, 0xff);
	glColor4f(0.3f, 0, 0, 0.5f);
	sc_rect(0, 0, 1, 1);
	glDepthMask(GL_TRUE);
	return 0;
}

/* Coplanar quads: the second wins only through its polygon offset (and
 * loses in the panels where the offset pushes it back). */
static int sc_polygon_offset(const struct sc *s)
{
	static const struct { float factor, units; } o[] = {
		{ -1, -1 }, { 0, -4 }, { -2, 0 }, { 1, 1 },
	};
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glFrustum(-1, 1, -(double)s->h / s->w, (double)s->h / s->w, 1, 20);
	glMatrixMode(GL_MODELVIEW);
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_LESS);
	for (unsigned i = 0; i < 4; i++) {
		glLoadIdentity();
		glTranslatef(-0.75f + 0.5f * (float)(i & 1) * 3, (i & 2) ? 0.45f : -0.45f, -3);
		glRotatef(50, 0, 1, 0);
		glRotatef(20, 1, 0, 0);
		glDisable(GL_POLYGON_OFFSET_FILL);
		glColor3f(0.8f, 0.1f, 0.1f);
		glBegin(GL_QUADS);
		glVertex2f(-0.5f, -0.4f);
		glVertex2f(0.5f, -0.4f);
		glVertex2f(0.5f, 0.4f);
		glVertex2f(-0.5f, 0.4f);
		glEnd();
		glEnable(GL_POLYGON_OFFSET_FILL);
		glPolygonOffset(o[i].factor, o[i].units);
		glColor3f(0.1f, 0.9f, 0.2f);
		glBegin(GL_TRIANGLES);
		glVertex2f(-0.3f, -0.3f);
		glVertex2f(0.45f, -0.2f);
		glVertex2f(0.0f, 0.35f);
		glEnd();
	}
	glDisable(GL_POLYGON_OFFSET_FILL);
	return 0;
}

/* Two user clip planes (eye space) cut a lit, smooth fan. */
static int sc_clip_plane(const struct sc *s)
{
	static const GLdouble p0[4] = { 1, 0.4, 0, 0.15 }, p1[4] = { -0.3, -1, 0, 0.55 };
	(void)s;
	sc_clear_unit(0.05f, 0.05f, 0.05f, 1);
	glMatrixMode(GL_MODELVIEW);
	glTranslatef(0.5f, 0.5f, 0);
	glClipPlane(GL_CLIP_PLANE0, p0);
	glClipPlane(GL_CLIP_PLANE1, p1);
	glEnable(GL_CLIP_PLANE0);
	glEnable(GL_CLIP_PLANE1);
	glBegin(GL_TRIANGLE_FAN);
	glColor3f(1, 1, 1);
	glVertex2f(0.01f, 0.02f);
	for (int i = 0; i <= 10; i++) {
		float a = (float)i * 2 * 3.14159265f / 10;
		glColor3f(0.5f + 0.5f * cosf(a), 0.5f + 0.5f * sinf(a), 0.3f);
		glVertex2f(0.45f * cosf(a), 0.45f * sinf(a));
	}
	glEnd();
	glDisable(GL_CLIP_PLANE0);
	glDisable(GL_CLIP_PLANE1);
	return 0;
}

/* Point sprites: 8x8 checker on points of even sizes at pixel corners
 * (no texel boundary or point edge at a pixel centre). */
static int sc_point_sprites(const struct sc *s)
{
	GLuint t = sc_tex(8, 8, sc_texel_checker, GL_NEAREST);
	sc_clear_pixels(s, 0, 0, 0, 1);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
	glEnable(GL_POINT_SPRITE);
	glTexEnvi(GL_POINT_SPRITE, GL_COORD_REPLACE, GL_TRUE);
	static const float sizes[] = { 16, 24, 32, 40 };
	for (unsigned i = 0; i < 4; i++) {
		glPointSize(sizes[i]);
		glBegin(GL_POINTS);
		for (int k = 0; k < 3; k++) {
			glColor3f(1, 1 - 0.3f * (float)k, 0.6f + 0.2f * (float)k);
			glVertex2f((float)(s->w * (int)(i * 2 + 1) / 8),
				   (float)(s->h * (k * 2 + 1) / 6));
		}
		glEnd();
	}
	glDisable(GL_POINT_SPRITE);
	glDisable(GL_TEXTURE_2D);
	glDeleteTextures(1, &t);
	return 0;
}

/* ---- shaders ---- */

static const char sc_vs_uv[] =
	"#version 110\n"
	"varying vec2 uv;\n"
	"void main() { uv = gl_MultiTexCoord0.xy; gl_Position = ftransform(); }\n";

/* A cube map (each face its own checker) looked up with the reflection of
 * the view ray off a sphere drawn on a full-screen quad. */
static int sc_cube_map(const struct sc *s)
{
	static const char fs[] =
		"#version 110\n"
		"uniform samplerCube cube;\n"
		"varying vec2 uv;\n"
		"void main() {\n"
		"  vec2 p = uv * 2.0 - 1.0 + vec2(0.0131, -0.0077);\n"
		"  float r2 = dot(p, p);\n"
		"  if (r2 > 0.95) { gl_FragColor = vec4(0.1, 0.1, 0.1, 1.0); return; }\n"
		"  vec3 n = vec3(p, sqrt(1.0 - r2));\n"
		"  vec3 r = reflect(vec3(0.0, 0.0, -1.0), n);\n"
		"  gl_FragColor = textureCube(cube, r);\n"
		"}\n";
	static const uint8_t face[6][3] = {
		{ 230, 60, 60 }, { 60, 230, 60 }, { 60, 60, 230 },
		{ 230, 230, 60 }, { 60, 230, 230 }, { 230, 60, 230 },
	};
	(void)s;
	GLuint prog = sc_program(sc_vs_uv, fs), t;
	if (!prog)
		return -1;
	uint8_t px[8 * 8 * 4];
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_CUBE_MAP, t);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	for (unsigned f = 0; f < 6; f++) {
		for (unsigned i = 0; i < 64; i++) {
			int on = ((i % 8) / 2 + (i / 8) / 2) & 1;
			for (unsigned c = 0; c < 3; c++)
				px[i * 4 + c] = (uint8_t)(on ? face[f][c] : face[f][c] / 2);
			px[i * 4 + 3] = 255;
		}
		glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, 8, 8, 0, GL_RGBA,
			     GL_UNSIGNED_BYTE, px);
	}
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	sc_clear_unit(0, 0, 0, 1);
	glUseProgram(prog);
	glUniform1i(glGetUniformLocation(prog, "cube"), 0);
	sc_rect(0, 0, 1, 1);
	glUseProgram(0);
	glDeleteProgram(prog);
	glDeleteTextures(1, &t);
	return 0;
}

/* Many fragment operations on a full-screen quad: normalize, dot, pow,
 * sin/cos, mix, texture2D, exp2/log2, sqrt/inversesqrt, smoothstep, clamp,
 * length, abs, min/max, fract on smooth inputs. */
static int sc_glsl_fragment(const struct sc *s)
{
	static const char fs[] =
		"#version 110\n"
		"uniform sampler2D tex;\n"
		"uniform vec3 light;\n"
		"varying vec2 uv;\n"
		"void main() {\n"
		"  vec3 n = normalize(vec3(uv - 0.5, 0.6));\n"
		"  float d = max(dot(n, normalize(light)), 0.0);\n"
		"  float sp = pow(d, 12.0);\n"
		"  float w = 0.5 + 0.5 * sin(uv.x * 9.0) * cos(uv.y * 7.0);\n"
		"  vec4 t = texture2D(tex, uv * 1.5);\n"
		"  vec3 c = mix(vec3(d, sp, w), t.rgb, 0.35);\n"
		"  float e = exp2(-2.0 * uv.y) * log2(1.0 + uv.x);\n"
		"  float q = sqrt(uv.x) * inversesqrt(1.0 + uv.y);\n"
		"  float ss = smoothstep(0.2, 0.8, length(uv - vec2(0.3, 0.6)));\n"
		"  c.r = clamp(c.r + 0.2 * e - 0.1 * abs(uv.x - uv.y), 0.0, 1.0);\n"
		"  c.g = max(c.g, 0.4 * q);\n"
		"  c.b = min(c.b, 0.3 + 0.7 * ss);\n"
		"  gl_FragColor = vec4(c, 0.5 + 0.5 * t.a * ss);\n"
		"}\n";
	(void)s;
	GLuint prog = sc_program(sc_vs_uv, fs);
	if (!prog)
		return -1;
	GLuint t = sc_tex(16, 16, sc_texel_smooth, GL_LINEAR);
	sc_clear_unit(0, 0, 0, 1);
	glUseProgram(prog);
	glUniform1i(glGetUniformLocation(prog, "tex"), 0);
	glUniform3f(glGetUniformLocation(prog, "light"), 0.3f, 0.5f, 0.8f);
	sc_rect(0, 0, 1, 1);
	glUseProgram(0);
	glDeleteProgram(prog);
	glDeleteTextures(1, &t);
	return 0;
}

/* A 16x16 grid displaced and lit in the vertex shader: sin/cos, cross,
 * normalize, dot, reflect, pow, matrix products, exp, max/min, mix. */
static int sc_glsl_vertex(const struct sc *s)
{
	static const char vs[] =
		"#version 110\n"
		"attribute vec2 pos;\n"
		"uniform mat4 mvp;\n"
		"uniform float phase;\n"
		"varying vec4 col;\n"
		"void main() {\n"
		"  float h = 0.15 * sin(pos.x * 6.0 + phase) * cos(pos.y * 5.0);\n"
		"  vec3 dx = vec3(1.0, 0.0, 0.9 * cos(pos.x * 6.0 + phase) * cos(pos.y * 5.0));\n"
		"  vec3 dy = vec3(0.0, 1.0, -0.75 * sin(pos.x * 6.0 + phase) * sin(pos.y * 5.0));\n"
		"  vec3 n = normalize(cross(dx, dy));\n"
		"  vec3 l = normalize(vec3(0.4, 0.6, 1.0));\n"
		"  float diff = max(dot(n, l), 0.0);\n"
		"  vec3 r = reflect(-l, n);\n"
		"  float spec = pow(max(r.z, 0.0), 16.0);\n"
		"  float fade = exp(-abs(pos.x));\n"
		"  col = vec4(mix(vec3(0.2, 0.3, 0.8), vec3(1.0, 0.8, 0.3), diff) * fade + spec,\n"
		"             min(1.0, 0.5 + h));\n"
		"  gl_Position = mvp * vec4(pos, h, 1.0);\n"
		"}\n";
	static const char fs[] =
		"#version 110\n"
		"varying vec4 col;\n"
		"void main() { gl_FragColor = clamp(col, 0.0, 1.0); }\n";
	(void)s;
	GLuint prog = sc_program(vs, fs);
	if (!prog)
		return -1;
	enum { N = 16 };
	GLfloat *v = malloc(sizeof(GLfloat) * 2 * (N + 1) * (N + 1));
	GLushort *idx = malloc(sizeof(GLushort) * 6 * N * N);
	if (!v || !idx) {
		free(v);
		free(idx);
		return -1;
	}
	for (int y = 0; y <= N; y++)
		for (int x = 0; x <= N; x++) {
			v[(y * (N + 1) + x) * 2 + 0] = -1 + 2 * (float)x / N;
			v[(y * (N + 1) + x) * 2 + 1] = -1 + 2 * (float)y / N;
		}
	unsigned k = 0;
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++) {
			GLushort a = (GLushort)(y * (N + 1) + x), b = (GLushort)(a + 1),
				 c = (GLushort)(a + N + 1), d = (GLushort)(c + 1);
			idx[k++] = a, idx[k++] = b, idx[k++] = d;
			idx[k++] = a, idx[k++] = d, idx[k++] = c;
		}
	/* a perspective tilt, column-major */
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glFrustum(-1, 1, -1, 1, 2, 10);
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
	glTranslatef(0, 0, -3);
	glRotatef(-35, 1, 0, 0);
	glRotatef(15, 0, 0, 1);
	GLfloat p[16], m[16], mvp[16];
	glGetFloatv(GL_PROJECTION_MATRIX, p);
	glGetFloatv(GL_MODELVIEW_MATRIX, m);
	for (int c = 0; c < 4; c++)
		for (int r = 0; r < 4; r++) {
			float acc = 0;
			for (int i = 0; i < 4; i++)
				acc += p[i * 4 + r] * m[c * 4 + i];
			mvp[c * 4 + r] = acc;
		}
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	glUseProgram(prog);
	glUniformMatrix4fv(glGetUniformLocation(prog, "mvp"), 1, GL_FALSE, mvp);
	glUniform1f(glGetUniformLocation(prog, "phase"), 0.7f);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, v);
	glEnableVertexAttribArray(0);
	glDrawElements(GL_TRIANGLES, (GLsizei)k, GL_UNSIGNED_SHORT, idx);
	glDisableVertexAttribArray(0);
	glUseProgram(0);
	glDeleteProgram(prog);
	free(v);
	free(idx);
	return 0;
}

/* ARB_vertex_program + ARB_fragment_program: per-vertex colour from a
 * DP3 light term, per-fragment LRP with a texture and POW/RSQ/FRC-free
 * arithmetic. */
static int sc_arb_programs(const struct sc *s)
{
	static const char vp[] =
		"!!ARBvp1.0\n"
		"PARAM mvp[4] = { state.matrix.mvp };\n"
		"PARAM l = { 0.267, 0.534, 0.802, 0 };\n"
		"TEMP n, t;\n"
		"DP4 result.position.x, mvp[0], vertex.position;\n"
		"DP4 result.position.y, mvp[1], vertex.position;\n"
		"DP4 result.position.z, mvp[2], vertex.position;\n"
		"DP4 result.position.w, mvp[3], vertex.position;\n"
		"DP3 t.x, vertex.normal, vertex.normal;\n"
		"RSQ t.x, t.x;\n"
		"MUL n, vertex.normal, t.x;\n"
		"DP3 t.y, n, l;\n"
		"MAX t.y, t.y, 0;\n"
		"MAD result.color, vertex.color, t.y, { 0.1, 0.1, 0.1, 0 };\n"
		"MOV result.texcoord[0], vertex.texcoord[0];\n"
		"END\n";
	static const char fp[] =
		"!!ARBfp1.0\n"
		"PARAM two = { 2.0, 0.3, 1.0, 4.0 };\n"
		"TEMP t, c, p;\n"
		"TEX t, fragment.texcoord[0], texture[0], 2D;\n"
		"LRP c, 0.6, t, fragment.color;\n"
		"MUL p.x, fragment.texcoord[0].x, 4.0;\n"
		"POW p.y, fragment.texcoord[0].y, two.x;\n"
		"MAD c.g, p.y, 0.3, c.g;\n"
		"SUB p.z, 1.0, fragment.texcoord[0].x;\n"
		"MUL c.b, c.b, p.z;\n"
		"MIN c, c, 1.0;\n"
		"MOV result.color, c;\n"
		"END\n";
	(void)s;
	GLuint t = sc_tex(16, 16, sc_texel_smooth, GL_LINEAR), pr[2];
	glGenProgramsARB(2, pr);
	glBindProgramARB(GL_VERTEX_PROGRAM_ARB, pr[0]);
	glProgramStringARB(GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB, (GLsizei)strlen(vp),
			   vp);
	if (!sc_gl_ok("ARB vertex program")) {
		fprintf(stderr, "gl-scenes: %s\n", glGetString(GL_PROGRAM_ERROR_STRING_ARB));
		return -1;
	}
	glBindProgramARB(GL_FRAGMENT_PROGRAM_ARB, pr[1]);
	glProgramStringARB(GL_FRAGMENT_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB,
			   (GLsizei)strlen(fp), fp);
	if (!sc_gl_ok("ARB fragment program")) {
		fprintf(stderr, "gl-scenes: %s\n", glGetString(GL_PROGRAM_ERROR_STRING_ARB));
		return -1;
	}
	glEnable(GL_VERTEX_PROGRAM_ARB);
	glEnable(GL_FRAGMENT_PROGRAM_ARB);
	sc_clear_unit(0, 0, 0, 1);
	glBegin(GL_TRIANGLE_FAN);
	for (int i = 0; i < 6; i++) {
		float a = (float)i * 2 * 3.14159265f / 6 + 0.2f;
		glNormal3f(cosf(a), sinf(a), 1.2f);
		glColor3f(0.5f + 0.5f * cosf(a), 0.5f + 0.5f * sinf(a), 0.8f);
		glTexCoord2f(0.5f + 0.5f * cosf(a), 0.5f + 0.5f * sinf(a));
		glVertex2f(0.5f + 0.45f * cosf(a), 0.5f + 0.45f * sinf(a));
	}
	glEnd();
	glDisable(GL_VERTEX_PROGRAM_ARB);
	glDisable(GL_FRAGMENT_PROGRAM_ARB);
	glDeleteProgramsARB(2, pr);
	glDeleteTextures(1, &t);
	return 0;
}

/* Linear, exp and exp2 fog over floors receding in depth. */
static int sc_fog(const struct sc *s)
{
	static const GLfloat fogc[4] = { 0.6f, 0.65f, 0.7f, 1 };
	static const GLenum mode[] = { GL_LINEAR, GL_EXP, GL_EXP2 };
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glFrustum(-1, 1, -(double)s->h / s->w, (double)s->h / s->w, 1, 60);
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_FOG);
	glFogfv(GL_FOG_COLOR, fogc);
	glFogf(GL_FOG_START, 2);
	glFogf(GL_FOG_END, 30);
	glFogf(GL_FOG_DENSITY, 0.08f);
	for (int i = 0; i < 3; i++) {
		float x0 = -1.6f + (float)i * 1.1f;
		glFogi(GL_FOG_MODE, (GLint)mode[i]);
		glBegin(GL_QUADS);
		glColor3f(0.9f, 0.2f, 0.1f + 0.3f * (float)i);
		glVertex3f(x0, -0.6f, -1.1f);
		glVertex3f(x0 + 1, -0.6f, -1.1f);
		glColor3f(0.1f, 0.8f, 0.3f);
		glVertex3f(x0 + 1, -0.6f, -40);
		glVertex3f(x0, -0.6f, -40);
		glEnd();
	}
	glDisable(GL_FOG);
	return 0;
}

/* ---- vertex data ---- */

/* Vertex arrays from VBOs: float positions with ubyte colours
 * (interleaved), short positions with float colours, and generic
 * attributes of normalized shorts and ubytes through a shader. */
static int sc_vbo_formats(const struct sc *s)
{
	struct fv { GLfloat x, y; GLubyte c[4]; };
	static const struct fv a[] = {
		{ 0.05f, 0.55f, { 255, 0, 0, 255 } }, { 0.45f, 0.57f, { 0, 255, 0, 255 } },
		{ 0.27f, 0.95f, { 0, 0, 255, 255 } }, { 0.5f, 0.6f, { 255, 255, 0, 255 } },
		{ 0.95f, 0.53f, { 0, 255, 255, 255 } }, { 0.71f, 0.93f, { 255, 0, 255, 255 } },
	};
	static const GLshort sp[] = { 10, 10, 90, 14, 47, 92 };     /* x100 */
	static const GLfloat sc_[] = { 1, 0.5f, 0, 0, 1, 0.5f, 0.5f, 0, 1 };
	static const GLshort np[] = { 3277, -29491, 32000, -32000, 18000, -3300 };  /* normalized */
	static const GLubyte nc[] = { 255, 128, 0, 255, 0, 200, 100, 128, 60, 60, 255, 255 };
	static const char vs[] =
		"#version 110\n"
		"attribute vec2 pos;\n"
		"attribute vec4 colour;\n"
		"varying vec4 c;\n"
		"void main() { c = colour; gl_Position = vec4(pos * 0.5 + vec2(0.5, 0.0), 0.0, 1.0); }\n";
	static const char fs[] =
		"#version 110\n"
		"varying vec4 c;\n"
		"void main() { gl_FragColor = c; }\n";
	(void)s;
	GLuint prog = sc_program(vs, fs);
	if (!prog)
		return -1;
	glBindAttribLocation(prog, 1, "colour");
	glLinkProgram(prog);
	GLuint b[5];
	glGenBuffers(5, b);
	glBindBuffer(GL_ARRAY_BUFFER, b[0]);
	glBufferData(GL_ARRAY_BUFFER, sizeof(a), a, GL_STATIC_DRAW);
	glBindBuffer(GL_ARRAY_BUFFER, b[1]);
	glBufferData(GL_ARRAY_BUFFER, sizeof(sp), sp, GL_STATIC_DRAW);
	glBindBuffer(GL_ARRAY_BUFFER, b[2]);
	glBufferData(GL_ARRAY_BUFFER, sizeof(sc_), sc_, GL_STATIC_DRAW);
	glBindBuffer(GL_ARRAY_BUFFER, b[3]);
	glBufferData(GL_ARRAY_BUFFER, sizeof(np), np, GL_STATIC_DRAW);
	glBindBuffer(GL_ARRAY_BUFFER, b[4]);
	glBufferData(GL_ARRAY_BUFFER, sizeof(nc), nc, GL_STATIC_DRAW);

	sc_clear_unit(0.1f, 0.1f, 0.1f, 1);
	glEnableClientState(GL_VERTEX_ARRAY);
	glEnableClientState(GL_COLOR_ARRAY);
	glBindBuffer(GL_ARRAY_BUFFER, b[0]);
	glVertexPointer(2, GL_FLOAT, sizeof(struct fv), (void *)0);
	glColorPointer(4, GL_UNSIGNED_BYTE, sizeof(struct fv), (void *)offsetof(struct fv, c));
	glDrawArrays(GL_TRIANGLES, 0, 6);
	glMatrixMode(GL_MODELVIEW);
	glScalef(0.005f, 0.005f, 1);
	glBindBuffer(GL_ARRAY_BUFFER, b[1]);
	glVertexPointer(2, GL_SHORT, 0, (void *)0);
	glBindBuffer(GL_ARRAY_BUFFER, b[2]);
	glColorPointer(3, GL_FLOAT, 0, (void *)0);
	glDrawArrays(GL_TRIANGLES, 0, 3);
	glDisableClientState(GL_VERTEX_ARRAY);
	glDisableClientState(GL_COLOR_ARRAY);
	glUseProgram(prog);
	glBindBuffer(GL_ARRAY_BUFFER, b[3]);
	glVertexAttribPointer(0, 2, GL_SHORT, GL_TRUE, 0, (void *)0);
	glBindBuffer(GL_ARRAY_BUFFER, b[4]);
	glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, (void *)0);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glDrawArrays(GL_TRIANGLES, 0, 3);
	glDisableVertexAttribArray(0);
	glDisableVertexAttribArray(1);
	glUseProgram(0);
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glDeleteBuffers(5, b);
	glDeleteProgram(prog);
	return 0;
}

/* glDrawElements with ubyte, ushort and uint indices into a shared
 * vertex buffer; the ushort and uint ones from element buffers when `ebo`,
 * else (like the rest) from client memory. */
static int sc_draw_elements_do(const struct sc *s, int ebo)
{
	enum { N = 12 };
	GLfloat v[(N + 1) * 2 * 5];
	(void)s;
	for (int i = 0; i <= N; i++)
		for (int r = 0; r < 2; r++) {
			GLfloat *p = v + (i * 2 + r) * 5;
			p[0] = 0.04f + 0.92f * (float)i / N;
			p[1] = r ? 0.3f : 0.05f;
			p[2] = (float)i / N;
			p[3] = (float)r;
			p[4] = 1 - (float)i / N;
		}
	GLushort i16[N * 2 + 2];
	GLuint i32[N * 3];
	GLubyte i8[6] = { 0, 3, 1, 8, 9, 11 };
	for (int i = 0; i < N * 2 + 2; i++)
		i16[i] = (GLushort)i;
	unsigned k = 0;
	for (int i = 0; i < N; i++) {
		i32[k++] = (GLuint)(i * 2);
		i32[k++] = (GLuint)(i * 2 + 2);
		i32[k++] = (GLuint)(i * 2 + 1 + (i & 1) * 2);
	}
	GLuint b[3];
	glGenBuffers(3, b);
	glBindBuffer(GL_ARRAY_BUFFER, b[0]);
	glBufferData(GL_ARRAY_BUFFER, sizeof(v), v, GL_STATIC_DRAW);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, b[1]);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(i16), i16, GL_STATIC_DRAW);
	sc_clear_unit(0, 0, 0, 1);
	glEnableClientState(GL_VERTEX_ARRAY);
	glEnableClientState(GL_COLOR_ARRAY);
	glVertexPointer(2, GL_FLOAT, 5 * sizeof(GLfloat), (void *)0);
	glColorPointer(3, GL_FLOAT, 5 * sizeof(GLfloat), (void *)(2 * sizeof(GLfloat)));
	/* a u16 strip, then u32 triangles moved up */
	if (!ebo)
		glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
	glDrawElements(GL_TRIANGLE_STRIP, N * 2 + 2, GL_UNSIGNED_SHORT, ebo ? (void *)0 : i16);
	if (ebo) {
		glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, b[2]);
		glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(i32), i32, GL_STATIC_DRAW);
	}
	glMatrixMode(GL_MODELVIEW);
	glTranslatef(0, 0.33f, 0);
	glDrawElements(GL_TRIANGLES, (GLsizei)k, GL_UNSIGNED_INT, ebo ? (void *)0 : i32);
	/* u16 from client memory, a subrange, and ubyte indices */
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
	glTranslatef(0, 0.33f, 0);
	glDrawElements(GL_TRIANGLE_STRIP, 10, GL_UNSIGNED_SHORT, i16 + 6);
	glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_BYTE, i8);
	glTranslatef(0.02f, 0.3f, 0);
	glDrawRangeElements(GL_TRIANGLES, 0, N * 2, (GLsizei)k - 9, GL_UNSIGNED_INT, i32 + 9);
	glDisableClientState(GL_VERTEX_ARRAY);
	glDisableClientState(GL_COLOR_ARRAY);
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glDeleteBuffers(3, b);
	return 0;
}

static int sc_draw_elements(const struct sc *s) { return sc_draw_elements_do(s, 0); }
static int sc_draw_elements_ebo(const struct sc *s) { return sc_draw_elements_do(s, 1); }

/* ---- framebuffer state ---- */

static int sc_scissor(const struct sc *s)
{
	sc_clear_unit(0, 0, 0, 1);
	glEnable(GL_SCISSOR_TEST);
	for (int i = 0; i < 5; i++) {
		glScissor(s->w * (3 + 17 * i) / 100, s->h * (5 + 11 * i) / 100, s->w * 29 / 100,
			  s->h * (20 + 7 * i) / 100);
		glBegin(GL_TRIANGLES);
		glColor3f(1, 0.2f * (float)i, 0);
		glVertex2f(-0.2f, -0.1f);
		glColor3f(0, 1, 0.2f * (float)i);
		glVertex2f(1.3f, 0.4f);
		glColor3f(0.2f * (float)i, 0, 1);
		glVertex2f(0.3f, 1.2f);
		glEnd();
	}
	/* a scissored clear over it */
	glScissor(s->w / 2, s->h / 3, s->w / 3, s->h / 5);
	glClearColor(0.9f, 0.9f, 0.2f, 0.5f);
	glClear(GL_COLOR_BUFFER_BIT);
	glDisable(GL_SCISSOR_TEST);
	return 0;
}

static int sc_color_mask(const struct sc *s)
{
	static const GLboolean m[6][4] = {
		{ 1, 0, 0, 0 }, { 0, 1, 1, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 }, { 1, 0, 1, 1 }, { 0, 0, 0, 0 },
	};
	(void)s;
	sc_clear_unit(0, 0, 0, 0);
	sc_backdrop();
	for (unsigned i = 0; i < 6; i++) {
		float x0, y0, x1, y1;
		sc_panel(i, 3, 2, &x0, &y0, &x1, &y1);
		glColorMask(m[i][0], m[i][1], m[i][2], m[i][3]);
		glColor4f(1, 1, 1, 1);
		sc_rect(x0, y0, x1, y1);
		glColor4f(0, 0, 0, 0);
		sc_rect(x0 + 0.05f, y0 + 0.05f, x1 - 0.05f, y1 - 0.05f);
	}
	glColorMask(1, 1, 1, 1);
	return 0;
}

static int sc_logic_op(const struct sc *s)
{
	static const GLenum op[] = { GL_XOR, GL_AND, GL_OR, GL_INVERT, GL_NAND, GL_COPY_INVERTED,
				     GL_EQUIV, GL_OR_REVERSE, GL_CLEAR };
	(void)s;
	sc_clear_unit(0, 0, 0, 0);
	sc_backdrop_flat();
	glEnable(GL_COLOR_LOGIC_OP);
	for (unsigned i = 0; i < sizeof(op) / sizeof(op[0]); i++) {
		float x0, y0, x1, y1;
		sc_panel(i, 3, 3, &x0, &y0, &x1, &y1);
		glLogicOp(op[i]);
		/* flat colours: the logic op of two exact bytes */
		glColor4ub(0x5a, 0xc3, 0x0f, 0x96);
		sc_rect_flat(x0, y0, x1, y1);
	}
	glDisable(GL_COLOR_LOGIC_OP);
	return 0;
}

/* Culling both windings, a CW front face, and two-sided lighting. */
static int sc_cull_face(const struct sc *s)
{
	static const GLfloat pos[4] = { 0.3f, 0.4f, 1, 0 };
	static const GLfloat front[4] = { 0.9f, 0.3f, 0.2f, 1 }, back[4] = { 0.2f, 0.4f, 0.9f, 1 };
	(void)s;
	sc_clear_unit(0, 0, 0, 1);
	for (int pass = 0; pass < 4; pass++) {
		float y = 0.05f + 0.24f * (float)pass;
		if (pass == 0)
			glDisable(GL_CULL_FACE);
		else
			glEnable(GL_CULL_FACE);
		glCullFace(pass == 2 ? GL_FRONT : GL_BACK);
		glFrontFace(pass == 3 ? GL_CW : GL_CCW);
		glBegin(GL_TRIANGLES);
		/* CCW */
		glColor3f(1, 0.5f, 0);
		glVertex2f(0.05f, y);
		glVertex2f(0.4f, y + 0.03f);
		glVertex2f(0.2f, y + 0.2f);
		/* CW */
		glColor3f(0, 0.6f, 1);
		glVertex2f(0.55f, y);
		glVertex2f(0.7f, y + 0.2f);
		glVertex2f(0.9f, y + 0.02f);
		glEnd();
	}
	/* two-sided lighting on both windings, no culling (right column) */
	glDisable(GL_CULL_FACE);
	glFrontFace(GL_CCW);
	glEnable(GL_LIGHTING);
	glEnable(GL_LIGHT0);
	glLightfv(GL_LIGHT0, GL_POSITION, pos);
	glLightModeli(GL_LIGHT_MODEL_TWO_SIDE, GL_TRUE);
	glMaterialfv(GL_FRONT, GL_AMBIENT_AND_DIFFUSE, front);
	glMaterialfv(GL_BACK, GL_AMBIENT_AND_DIFFUSE, back);
	glNormal3f(0, 0, 1);
	glBegin(GL_TRIANGLES);
	glVertex2f(0.92f, 0.1f);
	glVertex2f(0.99f, 0.1f);
	glVertex2f(0.95f, 0.45f);
	glVertex2f(0.92f, 0.55f);
	glVertex2f(0.95f, 0.9f);
	glVertex2f(0.99f, 0.55f);
	glEnd();
	glDisable(GL_LIGHTING);
	return 0;
}

/* A smooth lit sphere: two lights (one positional with attenuation),
 * specular, a material with emission. */
static int sc_lighting(const struct sc *s)
{
	static const GLfloat l0[4] = { -0.5f, 0.8f, 1, 0 }, l1[4] = { 2, -1, 2, 1 };
	static const GLfloat d1[4] = { 0.3f, 0.6f, 1, 1 }, spec[4] = { 1, 1, 1, 1 };
	static const GLfloat mat[4] = { 0.8f, 0.5f, 0.3f, 1 }, em[4] = { 0.05f, 0, 0.05f, 1 };
	const float pi = 3.14159265f;
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glFrustum(-1, 1, -(double)s->h / s->w, (double)s->h / s->w, 2, 10);
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	glEnable(GL_LIGHTING);
	glEnable(GL_LIGHT0);
	glEnable(GL_LIGHT1);
	glLightfv(GL_LIGHT0, GL_POSITION, l0);
	glLightfv(GL_LIGHT1, GL_POSITION, l1);
	glLightfv(GL_LIGHT1, GL_DIFFUSE, d1);
	glLightfv(GL_LIGHT1, GL_SPECULAR, spec);
	glLightf(GL_LIGHT1, GL_LINEAR_ATTENUATION, 0.2f);
	glMaterialfv(GL_FRONT, GL_AMBIENT_AND_DIFFUSE, mat);
	glMaterialfv(GL_FRONT, GL_SPECULAR, spec);
	glMaterialfv(GL_FRONT, GL_EMISSION, em);
	glMaterialf(GL_FRONT, GL_SHININESS, 30);
	glTranslatef(0, 0, -4);
	enum { ST = 24, SL = 12 };
	for (int j = 0; j < SL; j++) {
		float t0 = pi * (float)j / SL - pi / 2, t1 = pi * (float)(j + 1) / SL - pi / 2;
		glBegin(GL_QUAD_STRIP);
		for (int i = 0; i <= ST; i++) {
			float p = 2 * pi * (float)i / ST;
			glNormal3f(cosf(t1) * cosf(p), sinf(t1), cosf(t1) * sinf(p));
			glVertex3f(1.2f * cosf(t1) * cosf(p), 1.2f * sinf(t1), 1.2f * cosf(t1) * sinf(p));
			glNormal3f(cosf(t0) * cosf(p), sinf(t0), cosf(t0) * sinf(p));
			glVertex3f(1.2f * cosf(t0) * cosf(p), 1.2f * sinf(t0), 1.2f * cosf(t0) * sinf(p));
		}
		glEnd();
	}
	glDisable(GL_LIGHTING);
	return 0;
}

/* ---- render targets ---- */

/* A 64x64 texture drawn into (clear + smooth triangle), then drawn
 * rotated and filtered into the scene's framebuffer. */
static int sc_render_to_texture(const struct sc *s)
{
	GLuint t, fbo;
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	glGenFramebuffersEXT(1, &fbo);
	glBindFramebufferEXT(GL_FRAMEBUFFER_EXT, fbo);
	glFramebufferTexture2DEXT(GL_FRAMEBUFFER_EXT, GL_COLOR_ATTACHMENT0_EXT, GL_TEXTURE_2D, t, 0);
	if (glCheckFramebufferStatusEXT(GL_FRAMEBUFFER_EXT) != GL_FRAMEBUFFER_COMPLETE_EXT) {
		fprintf(stderr, "gl-scenes: the 64x64 texture FBO is not complete\n");
		return -1;
	}
	glViewport(0, 0, 64, 64);
	sc_clear_unit(0.2f, 0.1f, 0.3f, 1);
	glBegin(GL_TRIANGLES);
	glColor3f(1, 0, 0);
	glVertex2f(0.1f, 0.1f);
	glColor3f(0, 1, 0);
	glVertex2f(0.9f, 0.2f);
	glColor3f(0, 0, 1);
	glVertex2f(0.3f, 0.85f);
	glEnd();
	glColor3f(1, 1, 0.5f);
	sc_rect(0.6f, 0.6f, 0.85f, 0.9f);

	glBindFramebufferEXT(GL_FRAMEBUFFER_EXT, s->fbo);
	glViewport(0, 0, s->w, s->h);
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glBindTexture(GL_TEXTURE_2D, t);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
	glMatrixMode(GL_MODELVIEW);
	glTranslatef(0.5f, 0.5f, 0);
	glRotatef(30, 0, 0, 1);
	glTranslatef(-0.5f, -0.5f, 0);
	sc_rect(0.17f, 0.17f, 0.83f, 0.83f);
	glDisable(GL_TEXTURE_2D);
	glDeleteFramebuffersEXT(1, &fbo);
	glDeleteTextures(1, &t);
	return 0;
}

/* Two (or more, up to 4) colour attachments written at once by
 * gl_FragData, then each drawn 1:1 into a quadrant of the output. */
static int sc_mrt(const struct sc *s)
{
	static const char fs[] =
		"#version 110\n"
		"varying vec2 uv;\n"
		"void main() {\n"
		"  gl_FragData[0] = vec4(uv, 0.2, 1.0);\n"
		"  gl_FragData[1] = vec4(1.0 - uv.x, 0.5, uv.y, 0.8);\n"
		"  gl_FragData[2] = vec4(uv.x * uv.y, 1.0 - uv.y, 0.7, 1.0);\n"
		"  gl_FragData[3] = vec4(0.9, uv.y * 0.5, 1.0 - uv.x * uv.y, 0.6);\n"
		"}\n";
	GLint maxdb = 0;
	glGetIntegerv(GL_MAX_DRAW_BUFFERS, &maxdb);
	if (maxdb < 2) {
		fprintf(stderr, "gl-scenes: GL_MAX_DRAW_BUFFERS is %d\n", maxdb);
		return SC_UNSUPPORTED;
	}
	int n = maxdb < 4 ? maxdb : 4;
	int hw = s->w / 2, hh = s->h / 2;
	GLuint prog = sc_program(sc_vs_uv, fs), t[4], fbo;
	if (!prog)
		return -1;
	static const GLenum att[4] = { GL_COLOR_ATTACHMENT0_EXT, GL_COLOR_ATTACHMENT1_EXT,
				       GL_COLOR_ATTACHMENT2_EXT, GL_COLOR_ATTACHMENT3_EXT };
	glGenTextures(n, t);
	glGenFramebuffersEXT(1, &fbo);
	glBindFramebufferEXT(GL_FRAMEBUFFER_EXT, fbo);
	for (int i = 0; i < n; i++) {
		glBindTexture(GL_TEXTURE_2D, t[i]);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, hw, hh, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		glFramebufferTexture2DEXT(GL_FRAMEBUFFER_EXT, att[i], GL_TEXTURE_2D, t[i], 0);
	}
	glDrawBuffers(n, att);
	if (glCheckFramebufferStatusEXT(GL_FRAMEBUFFER_EXT) != GL_FRAMEBUFFER_COMPLETE_EXT) {
		fprintf(stderr, "gl-scenes: the MRT FBO is not complete\n");
		return -1;
	}
	glViewport(0, 0, hw, hh);
	sc_clear_unit(0, 0, 0, 0);
	glUseProgram(prog);
	glBegin(GL_TRIANGLES);
	glTexCoord2f(0, 0);
	glVertex2f(0.05f, 0.05f);
	glTexCoord2f(1, 0);
	glVertex2f(0.95f, 0.1f);
	glTexCoord2f(0.5f, 1);
	glVertex2f(0.4f, 0.93f);
	glEnd();
	glUseProgram(0);

	glBindFramebufferEXT(GL_FRAMEBUFFER_EXT, s->fbo);
	glViewport(0, 0, s->w, s->h);
	glClearColor(0.5f, 0.5f, 0.5f, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
	for (int i = 0; i < n; i++) {
		glBindTexture(GL_TEXTURE_2D, t[i]);
		float x = (float)(i & 1) * 0.5f, y = (float)(i >> 1) * 0.5f;
		sc_rect(x, y, x + 0.5f, y + 0.5f);
	}
	glDisable(GL_TEXTURE_2D);
	glDeleteFramebuffersEXT(1, &fbo);
	glDeleteTextures(n, t);
	glDeleteProgram(prog);
	return 0;
}

/* ---- session 4: the rest of issue #4 ---- */

/* 1 when the context lists extension `name`; scenes that need one return
 * SC_UNSUPPORTED without it (llvmpipe has every one of them). */
static int sc_ext(const char *name)
{
	const char *e = (const char *)glGetString(GL_EXTENSIONS);
	size_t n = strlen(name);
	for (const char *p = e; p && (p = strstr(p, name)); p += n)
		if ((p == e || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
			return 1;
	fprintf(stderr, "gl-scenes: no %s\n", name);
	return 0;
}

/* A 64x64 mipmapped checker (levels tinted apart) on the bound 2D texture. */
static void sc_mip_checker(void)
{
	uint8_t *px = malloc(64 * 64 * 4);
	if (!px)
		return;
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	for (unsigned lvl = 0, n = 64; n; lvl++, n /= 2) {
		for (unsigned y = 0; y < n; y++)
			for (unsigned x = 0; x < n; x++) {
				uint8_t *p = px + ((size_t)y * n + x) * 4;
				int on = n >= 8 ? ((x * 8 / n + y * 8 / n) & 1) : (int)((x + y) & 1);
				p[0] = (uint8_t)(on ? 220 : 30 + 25 * lvl);
				p[1] = (uint8_t)(on ? 200 - 20 * lvl : 40);
				p[2] = (uint8_t)(on ? 60 : 200 - 15 * lvl);
				p[3] = 255;
			}
		glTexImage2D(GL_TEXTURE_2D, (GLint)lvl, GL_RGBA8, (GLsizei)n, (GLsizei)n, 0, GL_RGBA,
			     GL_UNSIGNED_BYTE, px);
	}
	free(px);
}

/* A mipmapped checker plane at five tilts (trilinear) and, with `aniso`
 * and the extension, the steepest again with 8x anisotropic filtering. */
static int sc_tex_angles_do(const struct sc *s, int want_aniso)
{
	static const float tilt[6] = { 0, 30, 55, 70, 80, 80 };
	GLuint t;
	float maxaniso = 0;
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	sc_mip_checker();
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	int aniso = want_aniso && sc_ext("GL_EXT_texture_filter_anisotropic");
	if (want_aniso && !aniso)
		return SC_UNSUPPORTED;
	if (aniso)
		glGetFloatv(GL_MAX_TEXTURE_MAX_ANISOTROPY_EXT, &maxaniso);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
	glClearColor(0.2f, 0.2f, 0.25f, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	for (unsigned i = 0; i < 6; i++) {
		if (i == 5 && !aniso)
			break;
		if (aniso)
			glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY_EXT,
					i == 5 ? (maxaniso < 8 ? maxaniso : 8) : 1);
		glViewport((int)(i % 3) * s->w / 3, (int)(i / 3) * s->h / 2, s->w / 3, s->h / 2);
		glMatrixMode(GL_PROJECTION);
		glLoadIdentity();
		glFrustum(-0.6, 0.6, -0.9, 0.9, 1, 30);
		glMatrixMode(GL_MODELVIEW);
		glLoadIdentity();
		glTranslatef(0, 0, -2.2f);
		glRotatef(-tilt[i], 1, 0, 0);
		glRotatef(12, 0, 0, 1);
		glBegin(GL_QUADS);
		glTexCoord2f(0, 0);
		glVertex2f(-1, -1.5f);
		glTexCoord2f(4, 0);
		glVertex2f(1, -1.5f);
		glTexCoord2f(4, 6);
		glVertex2f(1, 1.5f);
		glTexCoord2f(0, 6);
		glVertex2f(-1, 1.5f);
		glEnd();
	}
	glViewport(0, 0, s->w, s->h);
	glDisable(GL_TEXTURE_2D);
	glDeleteTextures(1, &t);
	return 0;
}

static int sc_tex_angles(const struct sc *s) { return sc_tex_angles_do(s, 0); }
static int sc_tex_aniso(const struct sc *s) { return sc_tex_angles_do(s, 1); }

/* An 8x8x4 volume texture, nearest between slices and linear, sliced by a
 * quad whose r runs across it. */
static int sc_tex_3d(const struct sc *s)
{
	enum { N = 8, D = 4 };
	uint8_t px[N * N * D * 4];
	GLuint t;
	(void)s;
	for (unsigned z = 0; z < D; z++)
		for (unsigned y = 0; y < N; y++)
			for (unsigned x = 0; x < N; x++) {
				uint8_t *p = px + ((z * N + y) * N + x) * 4;
				p[0] = (uint8_t)(x * 32);
				p[1] = (uint8_t)(((x + y + z) & 1) ? 220 : 40);
				p[2] = (uint8_t)(z * 80);
				p[3] = 255;
			}
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_3D, t);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, N, N, D, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
	glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_S, GL_REPEAT);
	glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_T, GL_REPEAT);
	glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
	sc_clear_unit(0, 0, 0, 1);
	glEnable(GL_TEXTURE_3D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
	for (int i = 0; i < 2; i++) {
		GLenum f = i ? GL_LINEAR : GL_NEAREST;
		float y0 = 0.05f + 0.5f * (float)i;
		glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, (GLint)f);
		glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, (GLint)f);
		glBegin(GL_QUADS);
		glTexCoord3f(0.01f, 0.02f, 0.03f);
		glVertex2f(0.05f, y0);
		glTexCoord3f(1.51f, 0.02f, 0.97f);
		glVertex2f(0.95f, y0);
		glTexCoord3f(1.51f, 1.02f, 0.97f);
		glVertex2f(0.95f, y0 + 0.4f);
		glTexCoord3f(0.01f, 1.02f, 0.03f);
		glVertex2f(0.05f, y0 + 0.4f);
		glEnd();
	}
	glDisable(GL_TEXTURE_3D);
	glDeleteTextures(1, &t);
	return 0;
}

/* A 24x20 rectangle texture (unnormalised coordinates), nearest and
 * linear, clamped to its edge. */
static int sc_tex_rect(const struct sc *s)
{
	enum { W = 24, H = 20 };
	uint8_t px[W * H * 4];
	GLuint t;
	(void)s;
	if (!sc_ext("GL_ARB_texture_rectangle"))
		return SC_UNSUPPORTED;
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			uint8_t *p = px + (y * W + x) * 4;
			p[0] = (uint8_t)(x * 10);
			p[1] = (uint8_t)(y * 12);
			p[2] = (uint8_t)(((x / 3 + y / 3) & 1) ? 230 : 20);
			p[3] = 255;
		}
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_RECTANGLE_ARB, t);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	glTexImage2D(GL_TEXTURE_RECTANGLE_ARB, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
	glTexParameteri(GL_TEXTURE_RECTANGLE_ARB, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_RECTANGLE_ARB, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	sc_clear_unit(0, 0, 0, 1);
	glEnable(GL_TEXTURE_RECTANGLE_ARB);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
	for (int i = 0; i < 2; i++) {
		GLenum f = i ? GL_LINEAR : GL_NEAREST;
		float x0 = 0.04f + 0.48f * (float)i;
		glTexParameteri(GL_TEXTURE_RECTANGLE_ARB, GL_TEXTURE_MIN_FILTER, (GLint)f);
		glTexParameteri(GL_TEXTURE_RECTANGLE_ARB, GL_TEXTURE_MAG_FILTER, (GLint)f);
		glBegin(GL_QUADS);
		glTexCoord2f(-2.03f, -1.01f);
		glVertex2f(x0, 0.06f);
		glTexCoord2f(W + 2.03f, -1.01f);
		glVertex2f(x0 + 0.44f, 0.06f);
		glTexCoord2f(W + 2.03f, H + 1.01f);
		glVertex2f(x0 + 0.44f, 0.94f);
		glTexCoord2f(-2.03f, H + 1.01f);
		glVertex2f(x0, 0.94f);
		glEnd();
	}
	glDisable(GL_TEXTURE_RECTANGLE_ARB);
	glDeleteTextures(1, &t);
	return 0;
}

/* A 16x16 depth texture compared against r (GL_COMPARE_R_TO_TEXTURE),
 * LEQUAL and GREATER, nearest (and linear: NV4x filters the results). */
static int sc_tex_shadow(const struct sc *s)
{
	enum { N = 16 };
	float dz[N * N];
	GLuint t;
	(void)s;
	for (unsigned y = 0; y < N; y++)
		for (unsigned x = 0; x < N; x++)
			dz[y * N + x] = ((x / 2 + y / 2) & 1) ? 0.25f + 0.03f * (float)x
							      : 0.7f - 0.02f * (float)y;
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, N, N, 0, GL_DEPTH_COMPONENT, GL_FLOAT,
		     dz);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_R_TO_TEXTURE);
	glTexParameteri(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, GL_LUMINANCE);
	sc_clear_unit(0.1f, 0, 0.2f, 1);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
	for (int i = 0; i < 2; i++) {
		float y0 = 0.05f + 0.48f * (float)i;
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, i ? GL_GREATER : GL_LEQUAL);
		glColor3f(1, 0.8f, 0.5f);
		/* r runs 0.2..0.8 across, off the texels' depths */
		glBegin(GL_QUADS);
		glTexCoord3f(0.01f, 0.01f, 0.213f);
		glVertex2f(0.05f, y0);
		glTexCoord3f(0.99f, 0.01f, 0.813f);
		glVertex2f(0.95f, y0);
		glTexCoord3f(0.99f, 0.99f, 0.813f);
		glVertex2f(0.95f, y0 + 0.42f);
		glTexCoord3f(0.01f, 0.99f, 0.213f);
		glVertex2f(0.05f, y0 + 0.42f);
		glEnd();
	}
	glDisable(GL_TEXTURE_2D);
	glDeleteTextures(1, &t);
	return 0;
}

/* One 16x16 S3TC texture per format, the blocks written by hand (two
 * colours and indices per 4x4 block, explicit and interpolated alpha). */
static int sc_tex_s3tc(const struct sc *s)
{
	static const GLenum fmt[3] = { GL_COMPRESSED_RGBA_S3TC_DXT1_EXT,
				       GL_COMPRESSED_RGBA_S3TC_DXT3_EXT,
				       GL_COMPRESSED_RGBA_S3TC_DXT5_EXT };
	uint8_t blk[16 * 16];          /* 16 blocks of at most 16 bytes */
	GLuint t[3];
	(void)s;
	if (!sc_ext("GL_EXT_texture_compression_s3tc"))
		return SC_UNSUPPORTED;
	glGenTextures(3, t);
	for (unsigned f = 0; f < 3; f++) {
		unsigned bs = f ? 16 : 8, o = 0;
		for (unsigned b = 0; b < 16; b++) {
			uint8_t *p = blk + o;
			if (f == 1) {            /* DXT3: 4-bit alpha per texel */
				for (unsigned k = 0; k < 8; k++)
					p[k] = (uint8_t)(((b + k) * 37) & 0xff);
				p += 8;
			} else if (f == 2) {     /* DXT5: two alphas, 3-bit indices */
				p[0] = (uint8_t)(40 + b * 12);
				p[1] = (uint8_t)(b & 1 ? 250 : 10);
				for (unsigned k = 2; k < 8; k++)
					p[k] = (uint8_t)((b * 29 + k * 71) & 0xff);
				p += 8;
			}
			/* colour: c0, c1 as R5G6B5, then 2-bit indices */
			uint16_t c0 = (uint16_t)(((b * 2) << 11) | ((63 - b * 3) << 5) | (b + 8));
			uint16_t c1 = (uint16_t)(((31 - b) << 11) | ((b * 4) << 5) | (31 - b));
			if (f == 0 && (b & 3) == 1) {   /* DXT1 three-colour + transparent */
				uint16_t tt = c0; c0 = c1 < c0 ? c1 : c0; c1 = tt > c1 ? tt : c1;
			}
			p[0] = (uint8_t)c0; p[1] = (uint8_t)(c0 >> 8);
			p[2] = (uint8_t)c1; p[3] = (uint8_t)(c1 >> 8);
			for (unsigned k = 4; k < 8; k++)
				p[k] = (uint8_t)((b * 53 + k * 97) & 0xff);
			o += bs;
		}
		glBindTexture(GL_TEXTURE_2D, t[f]);
		glCompressedTexImage2D(GL_TEXTURE_2D, 0, fmt[f], 16, 16, 0, (GLsizei)(16 * bs), blk);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	}
	sc_clear_unit(0.3f, 0.3f, 0.3f, 1);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	for (unsigned f = 0; f < 3; f++) {
		/* 16 texels over 64 pixels: texel edges on pixel edges */
		float x = (float)(f % 2) * 0.5f, y = (float)(f / 2) * 0.5f;
		glBindTexture(GL_TEXTURE_2D, t[f]);
		sc_rect(x, y, x + 0.5f, y + 0.5f);
	}
	glDisable(GL_BLEND);
	glDisable(GL_TEXTURE_2D);
	glDeleteTextures(3, t);
	return 0;
}

/* L8, A8, L8A8, RGBA4, RGB5A1 and R5G6B5 sources (the internal formats
 * NV4x has for them), blended over the backdrop so alpha shows. */
static int sc_tex_formats(const struct sc *s)
{
	static const struct { GLenum ifmt, fmt, type; unsigned bpp; } f[6] = {
		{ GL_LUMINANCE8, GL_LUMINANCE, GL_UNSIGNED_BYTE, 1 },
		{ GL_ALPHA8, GL_ALPHA, GL_UNSIGNED_BYTE, 1 },
		{ GL_LUMINANCE8_ALPHA8, GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, 2 },
		{ GL_RGBA4, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, 2 },
		{ GL_RGB5_A1, GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1, 2 },
		{ GL_RGB5, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 2 },
	};
	uint8_t px[8 * 8 * 2];
	GLuint t;
	(void)s;
	sc_clear_unit(0, 0, 0, 1);
	sc_backdrop_flat();
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	for (unsigned i = 0; i < 6; i++) {
		float x0, y0, x1, y1;
		for (unsigned k = 0; k < 64 * f[i].bpp; k++)
			px[k] = (uint8_t)(k * 47 + i * 13 + (k >> 3) * 29);
		glTexImage2D(GL_TEXTURE_2D, 0, (GLint)f[i].ifmt, 8, 8, 0, f[i].fmt, f[i].type, px);
		sc_panel(i, 3, 2, &x0, &y0, &x1, &y1);
		glColor4f(1, 0.9f, 0.8f, 1);
		/* 8 texels over about 34 pixels: no texel edge on a pixel centre */
		sc_rect(x0, y0, x0 + 8 * 4.25f / 128, y0 + 8 * 4.25f / 128);
	}
	glDisable(GL_BLEND);
	glDisable(GL_TEXTURE_2D);
	glDeleteTextures(1, &t);
	return 0;
}

/* Render to an R5G6B5 texture and to a Z16 depth texture (the depth of a
 * sloped quad), then draw both: the colour one filtered, the depth one as
 * luminance. */
static int sc_rt_formats(const struct sc *s)
{
	GLuint t[2], fbo, rb;
	glGenTextures(2, t);
	glBindTexture(GL_TEXTURE_2D, t[0]);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB5, 32, 32, 0, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, NULL);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glBindTexture(GL_TEXTURE_2D, t[1]);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT16, 32, 32, 0, GL_DEPTH_COMPONENT,
		     GL_UNSIGNED_SHORT, NULL);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, GL_LUMINANCE);
	glGenFramebuffersEXT(1, &fbo);
	glGenRenderbuffersEXT(1, &rb);
	glBindFramebufferEXT(GL_FRAMEBUFFER_EXT, fbo);
	/* colour: R5G6B5 with a Z16 depth buffer (NV4x pairs 16-bit colour
	 * with 16-bit depth) */
	glBindRenderbufferEXT(GL_RENDERBUFFER_EXT, rb);
	glRenderbufferStorageEXT(GL_RENDERBUFFER_EXT, GL_DEPTH_COMPONENT16, 32, 32);
	glFramebufferTexture2DEXT(GL_FRAMEBUFFER_EXT, GL_COLOR_ATTACHMENT0_EXT, GL_TEXTURE_2D, t[0],
				  0);
	glFramebufferRenderbufferEXT(GL_FRAMEBUFFER_EXT, GL_DEPTH_ATTACHMENT_EXT,
				     GL_RENDERBUFFER_EXT, rb);
	if (glCheckFramebufferStatusEXT(GL_FRAMEBUFFER_EXT) != GL_FRAMEBUFFER_COMPLETE_EXT) {
		fprintf(stderr, "gl-scenes: the R5G6B5 FBO is not complete\n");
		return SC_UNSUPPORTED;
	}
	glViewport(0, 0, 32, 32);
	sc_ortho_unit();
	glClearColor(0.1f, 0.2f, 0.3f, 1);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	static const float c[4][4] = {
		{ 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 1, 1 },
	};
	sc_quad_colors(0.1f, 0.1f, 0.9f, 0.9f, c);
	glColor3f(1, 1, 0);
	glBegin(GL_TRIANGLES);      /* crosses the quad in depth */
	glVertex3f(0.05f, 0.5f, 0.9f);
	glVertex3f(0.95f, 0.3f, -0.9f);
	glVertex3f(0.6f, 0.95f, -0.9f);
	glEnd();
	/* depth only: Z16 texture, no colour buffer */
	glFramebufferTexture2DEXT(GL_FRAMEBUFFER_EXT, GL_COLOR_ATTACHMENT0_EXT, GL_TEXTURE_2D, 0, 0);
	glFramebufferTexture2DEXT(GL_FRAMEBUFFER_EXT, GL_DEPTH_ATTACHMENT_EXT, GL_TEXTURE_2D, t[1],
				  0);
	glDrawBuffer(GL_NONE);
	glReadBuffer(GL_NONE);
	if (glCheckFramebufferStatusEXT(GL_FRAMEBUFFER_EXT) != GL_FRAMEBUFFER_COMPLETE_EXT) {
		fprintf(stderr, "gl-scenes: the Z16 FBO is not complete\n");
		return SC_UNSUPPORTED;
	}
	glClearDepth(1.0);
	glClear(GL_DEPTH_BUFFER_BIT);
	glBegin(GL_QUADS);
	glVertex3f(0.05f, 0.05f, -0.8f);
	glVertex3f(0.95f, 0.05f, 0.1f);
	glVertex3f(0.95f, 0.95f, 0.7f);
	glVertex3f(0.05f, 0.95f, -0.2f);
	glEnd();
	glDisable(GL_DEPTH_TEST);
	glDrawBuffer(GL_COLOR_ATTACHMENT0_EXT);
	glReadBuffer(GL_COLOR_ATTACHMENT0_EXT);

	glBindFramebufferEXT(GL_FRAMEBUFFER_EXT, s->fbo);
	glViewport(0, 0, s->w, s->h);
	sc_clear_unit(0, 0, 0, 1);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
	for (int i = 0; i < 2; i++) {
		glBindTexture(GL_TEXTURE_2D, t[i]);
		/* 32 texels over 64 pixels */
		sc_rect(0.5f * (float)i, 0.25f, 0.5f * (float)i + 0.5f, 0.75f);
	}
	glDisable(GL_TEXTURE_2D);
	glDeleteFramebuffersEXT(1, &fbo);
	glDeleteRenderbuffersEXT(1, &rb);
	glDeleteTextures(2, t);
	return 0;
}

/* Shadow-volume style two-sided stencil in one pass (glStencilFuncSeparate,
 * glStencilOpSeparate with INCR_WRAP / DECR_WRAP on depth fail, z-fail
 * "Carmack's reverse"), a reference masked, then a count shown in bands. */
static int sc_two_sided_stencil(const struct sc *s)
{
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glFrustum(-1, 1, -(double)s->h / s->w, (double)s->h / s->w, 2, 30);
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
	glTranslatef(0.2f, -0.3f, -6);
	glRotatef(30, 1, 0, 0);
	glRotatef(25, 0, 1, 0);
	glClearColor(0.1f, 0.15f, 0.1f, 1);
	glClearStencil(0x80);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	glBegin(GL_QUADS);
	glColor3f(0.6f, 0.7f, 0.5f);
	glVertex3f(-3, 0, 3);
	glVertex3f(3, 0, 3);
	glColor3f(0.4f, 0.5f, 0.8f);
	glVertex3f(3, 0, -3);
	glVertex3f(-3, 0, -3);
	glEnd();
	glColor3f(0.8f, 0.4f, 0.2f);
	sc_prism(-0.6f, 0.4f, 0, 0.9f, -0.5f, 0.5f);
	glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
	glDepthMask(GL_FALSE);
	glEnable(GL_STENCIL_TEST);
	/* z-fail: back faces increment, front faces decrement where the depth
	 * test fails; both sides' functions pass with different references */
	glStencilFuncSeparate(GL_FRONT, GL_ALWAYS, 0, 0xff);
	glStencilFuncSeparate(GL_BACK, GL_NOTEQUAL, 0x13, 0x0f);
	glStencilOpSeparate(GL_BACK, GL_KEEP, GL_INCR_WRAP, GL_KEEP);
	glStencilOpSeparate(GL_FRONT, GL_KEEP, GL_DECR_WRAP, GL_KEEP);
	sc_prism(-1.5f, 0.3f, -0.5f, 0.7f, -1.2f, 1.6f);
	sc_prism(-0.2f, 1.4f, -0.4f, 0.5f, -2.0f, 0.4f);
	sc_prism(-2.0f, -0.8f, -0.3f, 1.3f, -0.3f, 2.2f);
	/* wrap both ways around zero: a 0x00 / 0xff pair in a corner */
	glStencilFunc(GL_ALWAYS, 0, 0xff);
	glStencilOpSeparate(GL_FRONT_AND_BACK, GL_KEEP, GL_KEEP, GL_INVERT);
	glStencilMask(0x0f);
	glDisable(GL_DEPTH_TEST);
	sc_ortho_unit();
	sc_rect_flat(0.02f, 0.8f, 0.2f, 0.98f);
	glStencilMask(0xff);
	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	static const struct { GLenum fn; GLint ref; float c[4]; } band[4] = {
		{ GL_LESS, 0x80, { 0, 0, 0.2f, 0.6f } },         /* count >= 1 */
		{ GL_LESS, 0x81, { 0.5f, 0, 0, 0.5f } },         /* count >= 2 */
		{ GL_GREATER, 0x80, { 0, 0.6f, 0.6f, 0.5f } },   /* below the clear */
		{ GL_EQUAL, 0x8f, { 1, 1, 0, 0.7f } },           /* the inverted corner */
	};
	for (unsigned i = 0; i < 4; i++) {
		glStencilFunc(band[i].fn, band[i].ref, 0xff);
		glColor4fv(band[i].c);
		sc_rect_flat(0, 0, 1, 1);
	}
	glDisable(GL_BLEND);
	glDisable(GL_STENCIL_TEST);
	glDepthMask(GL_TRUE);
	return 0;
}

/* Two-sided lighting: a lit cylinder open at its ends, seen from above, so
 * its inside (back faces, back material) shows beside its outside; the
 * fixed-function path and a GLSL vertex shader with
 * GL_VERTEX_PROGRAM_TWO_SIDE writing gl_BackColor. */
static int sc_two_sided_lighting(const struct sc *s)
{
	static const GLfloat pos[4] = { 0.4f, 1, 0.8f, 0 };
	static const GLfloat front[4] = { 0.9f, 0.5f, 0.2f, 1 }, back[4] = { 0.2f, 0.5f, 0.9f, 1 };
	static const char vs[] =
		"#version 110\n"
		"void main() {\n"
		"  vec3 n = normalize(gl_NormalMatrix * gl_Normal);\n"
		"  float d = dot(n, vec3(0.0, 0.6, 0.8));\n"
		"  gl_FrontColor = vec4(0.2 + 0.8 * max(d, 0.0), 0.8, 0.3, 1.0);\n"
		"  gl_BackColor = vec4(0.8, 0.2, 0.2 + 0.8 * max(-d, 0.0), 1.0);\n"
		"  gl_Position = ftransform();\n"
		"}\n";
	const float pi = 3.14159265f;
	GLuint prog = sc_program(vs, NULL);
	if (!prog)
		return -1;
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glFrustum(-1, 1, -(double)s->h / s->w, (double)s->h / s->w, 2, 20);
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	glLightfv(GL_LIGHT0, GL_POSITION, pos);
	glLightModeli(GL_LIGHT_MODEL_TWO_SIDE, GL_TRUE);
	glMaterialfv(GL_FRONT, GL_AMBIENT_AND_DIFFUSE, front);
	glMaterialfv(GL_BACK, GL_AMBIENT_AND_DIFFUSE, back);
	for (int pass = 0; pass < 2; pass++) {
		glMatrixMode(GL_MODELVIEW);
		glLoadIdentity();
		glTranslatef(pass ? 0.9f : -0.9f, 0, -5);
		glRotatef(50, 1, 0, 0);
		glRotatef(20, 0, 0, 1);
		if (pass) {
			glUseProgram(prog);
			glEnable(GL_VERTEX_PROGRAM_TWO_SIDE);
		} else {
			glEnable(GL_LIGHTING);
			glEnable(GL_LIGHT0);
		}
		glBegin(GL_QUAD_STRIP);
		for (int i = 0; i <= 20; i++) {
			float a = 2 * pi * (float)i / 20;
			glNormal3f(cosf(a), 0, sinf(a));
			glVertex3f(0.7f * cosf(a), -0.8f, 0.7f * sinf(a));
			glVertex3f(0.7f * cosf(a), 0.8f, 0.7f * sinf(a));
		}
		glEnd();
		glDisable(GL_LIGHTING);
		glUseProgram(0);
		glDisable(GL_VERTEX_PROGRAM_TWO_SIDE);
	}
	glLightModeli(GL_LIGHT_MODEL_TWO_SIDE, GL_FALSE);
	glDeleteProgram(prog);
	return 0;
}

/* Flat shading with the provoking vertex: each primitive type (last
 * vertex; first for GL_POLYGON; glProvokingVertex first if exposed). */
static int sc_flat_shading(const struct sc *s)
{
	static const GLenum prim[6] = { GL_TRIANGLES, GL_TRIANGLE_STRIP, GL_TRIANGLE_FAN,
					GL_QUADS, GL_QUAD_STRIP, GL_POLYGON };
	(void)s;
	sc_clear_unit(0, 0, 0, 1);
	glShadeModel(GL_FLAT);
	int pvx = sc_ext("GL_EXT_provoking_vertex");
	for (unsigned pass = 0; pass < (pvx ? 2u : 1u); pass++) {
		if (pvx)
			glProvokingVertexEXT(pass ? GL_FIRST_VERTEX_CONVENTION_EXT
						  : GL_LAST_VERTEX_CONVENTION_EXT);
		for (unsigned i = 0; i < 6; i++) {
			float x0 = 0.02f + 0.163f * (float)i, y0 = 0.04f + 0.5f * (float)pass;
			glBegin(prim[i]);
			for (int k = 0; k < 6; k++) {
				glColor3f((float)(k % 3) / 2, (float)((k + 1) % 4) / 3, (float)k / 5);
				float fx, fy;
				if (prim[i] == GL_TRIANGLE_FAN || prim[i] == GL_POLYGON) {
					float a = (float)k * 1.05f;
					fx = k ? 0.07f + 0.07f * cosf(a) : 0.07f;
					fy = k ? 0.2f + 0.18f * sinf(a) : 0.2f;
					if (prim[i] == GL_POLYGON) {
						fx = 0.07f + 0.07f * cosf(a);
						fy = 0.2f + 0.18f * sinf(a);
					}
				} else if (prim[i] == GL_TRIANGLES || prim[i] == GL_QUADS) {
					static const float q[6][2] = {
						{ 0, 0 }, { 0.14f, 0.02f }, { 0.12f, 0.2f },
						{ 0.01f, 0.22f }, { 0.13f, 0.41f }, { 0.02f, 0.38f },
					};
					fx = q[k][0];
					fy = q[k][1];
				} else {
					fx = (k & 1) ? 0.13f : 0.01f;
					fy = 0.02f + 0.08f * (float)k;
				}
				glVertex2f(x0 + fx, y0 + fy);
			}
			glEnd();
		}
	}
	if (pvx)
		glProvokingVertexEXT(GL_LAST_VERTEX_CONVENTION_EXT);
	glShadeModel(GL_SMOOTH);
	return 0;
}

/* glPolygonMode LINE and POINT, front and back apart, on triangles, quads,
 * a quad strip and a polygon (only the primitives' own edges, not the
 * diagonals they are drawn with), with polygon offset on the lines over a
 * filled copy; a primitive whose edge flag is false throughout draws
 * nothing.  Edge flags that differ within a primitive are left out: Mesa's
 * nv30 drops the vertex program's edge-flag output [Mesa:
 * nvfx_vertprog.c, TGSI_SEMANTIC_EDGEFLAG], so the card draws every edge. */
static int sc_polygon_mode(const struct sc *s)
{
	float W = (float)s->w, H = (float)s->h;
	sc_clear_pixels(s, 0, 0, 0.1f, 1);
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glOrtho(0, s->w, 0, s->h, -1, 1);
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_LEQUAL);
	glClear(GL_DEPTH_BUFFER_BIT);
	for (int pass = 0; pass < 2; pass++) {
		float oy = pass ? H * 0.5f : 0;
		if (pass) {
			glPolygonMode(GL_FRONT, GL_POINT);
			glPolygonMode(GL_BACK, GL_LINE);
			glPointSize(3);
		} else {
			glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
		}
		/* a CCW triangle and a CW one */
		glColor3f(1, 0.4f, 0.2f);
		glBegin(GL_TRIANGLES);
		glVertex2f(W * 0.05f + 0.3f, oy + H * 0.05f + 0.2f);
		glVertex2f(W * 0.3f + 0.3f, oy + H * 0.08f + 0.2f);
		glVertex2f(W * 0.15f + 0.3f, oy + H * 0.4f + 0.2f);
		glColor3f(0.3f, 1, 0.4f);
		glVertex2f(W * 0.35f + 0.3f, oy + H * 0.05f + 0.2f);
		glVertex2f(W * 0.38f + 0.3f, oy + H * 0.42f + 0.2f);
		glVertex2f(W * 0.55f + 0.3f, oy + H * 0.1f + 0.2f);
		glEnd();
		/* a quad, then a quad strip of two */
		glBegin(GL_QUADS);
		glColor3f(1, 1, 0.3f);
		glVertex2f(W * 0.6f + 0.3f, oy + H * 0.05f + 0.2f);
		glVertex2f(W * 0.93f + 0.3f, oy + H * 0.07f + 0.2f);
		glVertex2f(W * 0.9f + 0.3f, oy + H * 0.2f + 0.2f);
		glVertex2f(W * 0.62f + 0.3f, oy + H * 0.19f + 0.2f);
		glEnd();
		glBegin(GL_QUAD_STRIP);
		glColor3f(0.4f, 0.8f, 1);
		for (int i = 0; i < 3; i++) {
			glVertex2f(W * (0.6f + 0.15f * (float)i) + 0.3f, oy + H * 0.25f + 0.2f);
			glVertex2f(W * (0.62f + 0.15f * (float)i) + 0.3f, oy + H * 0.43f + 0.2f);
		}
		glEnd();
		/* nothing: every edge flag false */
		glEdgeFlag(GL_FALSE);
		glBegin(GL_TRIANGLES);
		glVertex2f(W * 0.1f, oy + H * 0.3f);
		glVertex2f(W * 0.5f, oy + H * 0.3f);
		glVertex2f(W * 0.3f, oy + H * 0.45f);
		glEnd();
		glEdgeFlag(GL_TRUE);
	}
	/* a filled pentagon in the middle, its outline over it through polygon
	 * offset (the lines pulled forward, the fill coplanar) */
	glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
	glMatrixMode(GL_MODELVIEW);
	glTranslatef(W * 0.5f, H * 0.48f, 0);
	glRotatef(35, 1, 0, 0);
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
			glEnable(GL_POLYGON_OFFSET_LINE);
			glPolygonOffset(-1, -2);
			glColor3f(1, 1, 1);
			glLineWidth(2);
		} else {
			glColor3f(0.5f, 0.2f, 0.6f);
		}
		glBegin(GL_POLYGON);
		for (int i = 0; i < 5; i++) {
			float a = (float)i * 2 * 3.14159265f / 5 + 0.4f;
			glVertex3f(W * 0.13f * cosf(a) + 0.3f, H * 0.1f * sinf(a) + 0.2f,
				   0.3f * cosf(a));
		}
		glEnd();
	}
	glDisable(GL_POLYGON_OFFSET_LINE);
	glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
	glLineWidth(1);
	glPointSize(1);
	glDisable(GL_DEPTH_TEST);
	return 0;
}

/* Wide lines (integer widths: llvmpipe rounds them), stippled lines with
 * factors 1..4, a stippled wide line, smooth colour along them. */
static int sc_lines_wide_stipple(const struct sc *s)
{
	static const GLushort pat[4] = { 0xf0f0, 0x3333, 0xff18, 0x0fff };
	float W = (float)s->w, H = (float)s->h;
	sc_clear_pixels(s, 0, 0.05f, 0, 1);
	glEnable(GL_LINE_STIPPLE);
	for (int i = 0; i < 4; i++) {
		float y = H * (0.06f + 0.09f * (float)i) + 0.3f;
		glLineStipple(i + 1, pat[i]);
		glLineWidth((float)(1 + (i == 3) * 3));
		glBegin(GL_LINES);
		glColor3f(1, 0.3f * (float)i, 0);
		glVertex2f(W * 0.04f + 0.3f, y);
		glColor3f(0, 0.3f * (float)i, 1);
		glVertex2f(W * 0.96f + 0.3f, y + H * 0.05f * (float)(i & 1));
		/* a steep one */
		glColor3f(0.3f, 1, 0.3f * (float)i);
		glVertex2f(W * (0.1f + 0.1f * (float)i) + 0.3f, H * 0.45f + 0.2f);
		glVertex2f(W * (0.14f + 0.12f * (float)i) + 0.3f, H * 0.95f + 0.2f);
		glEnd();
	}
	glDisable(GL_LINE_STIPPLE);
	for (int i = 0; i < 4; i++) {
		float w = (float)(2 + 2 * i);
		glLineWidth(w);
		glBegin(GL_LINES);
		glColor3f(1, 1, 0.25f * (float)i);
		glVertex2f(W * 0.62f + 0.3f, H * (0.48f + 0.12f * (float)i) + 0.2f);
		glColor3f(0.8f, 0.2f, 1);
		glVertex2f(W * 0.95f + 0.3f, H * (0.52f + 0.13f * (float)i) + 0.2f);
		glEnd();
	}
	glLineWidth(1);
	return 0;
}

/* An ARB fragment program per band, the bands together using every
 * opcode of ARB_fragment_program: each maps fragment.texcoord[0] (0..1
 * across the band) and the colour to a result in 0..1. */
static int sc_arb_fp_opcodes(const struct sc *s)
{
	static const char *const body[] = {
		/* ABS ADD CMP MAD SUB */
		"SUB t, fragment.texcoord[0], 0.5;\n"
		"ABS a, t;\n"
		"CMP r.x, t.x, 0.2, 0.8;\n"
		"ADD r.y, a.x, a.y;\n"
		"MAD r.z, a.y, 1.5, 0.1;\n"
		"MOV r.w, 1;\n",
		/* COS SIN SCS */
		"MUL t, fragment.texcoord[0], 6.0;\n"
		"COS a.x, t.x;\n"
		"SIN a.y, t.y;\n"
		"SCS b.xy, t.x;\n"
		"MAD r.xy, a, 0.5, 0.5;\n"
		"MAD r.z, b.y, 0.25, 0.5;\n"
		"MOV r.w, 1;\n",
		/* DP3 DP4 DPH */
		"DP3 r.x, fragment.texcoord[0], { 0.5, 0.3, 0.2, 0 };\n"
		"DP4 r.y, fragment.color, { 0.3, 0.3, 0.2, 0.1 };\n"
		"DPH r.z, fragment.texcoord[0], { 0.4, -0.3, 0.1, 0.45 };\n"
		"MOV r.w, 1;\n",
		/* DST EX2 LG2 */
		"ADD t, fragment.texcoord[0], 0.5;\n"
		"DST a, { 1, 0.6, 0.8, 1 }, { 1, 0.5, 1, 0.4 };\n"
		"EX2 r.x, -t.x;\n"
		"LG2 r.y, t.y;\n"
		"MUL r.z, a.y, a.z;\n"
		"MOV r.w, a.w;\n",
		/* FLR FRC */
		"MUL t, fragment.texcoord[0], 3.7;\n"
		"FLR a, t;\n"
		"FRC b, t;\n"
		"MUL r.x, a.x, 0.25;\n"
		"MOV r.y, b.x;\n"
		"MOV r.z, b.y;\n"
		"MOV r.w, 1;\n",
		/* KIL LIT */
		"SUB t, fragment.texcoord[0], { 0.3, 0.2, 0, 0 };\n"
		"KIL t;\n"
		"MOV a, { 0, 0, 0, 8 };\n"
		"MOV a.xy, fragment.texcoord[0];\n"
		"LIT b, a;\n"
		"MOV r.xyz, b.yzww;\n"
		"MOV r.w, 1;\n",
		/* LRP MAX MIN */
		"LRP r.x, fragment.texcoord[0].x, 0.9, 0.1;\n"
		"MAX r.y, fragment.texcoord[0].x, fragment.texcoord[0].y;\n"
		"MIN r.z, fragment.texcoord[0].x, fragment.texcoord[0].y;\n"
		"MOV r.w, 1;\n",
		/* POW RCP RSQ */
		"ADD t, fragment.texcoord[0], 0.25;\n"
		"POW r.x, t.x, { 2.5 }.x;\n"
		"RCP a.x, t.y;\n"
		"RSQ a.y, t.x;\n"
		"MUL r.y, a.x, 0.25;\n"
		"MUL r.z, a.y, 0.4;\n"
		"MOV r.w, 1;\n",
		/* SGE SLT SWZ XPD */
		"SGE a.x, fragment.texcoord[0].x, 0.5;\n"
		"SLT a.y, fragment.texcoord[0].y, 0.4;\n"
		"SWZ b, fragment.texcoord[0], y, 1, -x, 0;\n"
		"XPD c, fragment.texcoord[0], { 0.3, 0.6, 0.9, 0 };\n"
		"MAD r.x, a.x, 0.5, a.y;\n"
		"MAD r.y, b.z, 0.5, b.y;\n"
		"MAD r.z, c.x, 0.8, 0.5;\n"
		"MOV r.w, 1;\n",
		/* TEX TXB TXP */
		"TEX a, fragment.texcoord[0], texture[0], 2D;\n"
		"TXB b, { 0.3, 0.6, 0, 1.5 }, texture[0], 2D;\n"
		"MUL t, fragment.texcoord[0], { 1, 1, 1, 2 };\n"
		"ADD t.w, t.w, 1;\n"
		"TXP c, t, texture[0], 2D;\n"
		"MOV r.x, a.x;\n"
		"MUL r.y, b.y, c.y;\n"
		"ADD r.z, c.z, 0.1;\n"
		"MOV r.w, 1;\n",
	};
	enum { NB = sizeof(body) / sizeof(body[0]) };
	GLuint pr[NB];
	char src[2048];
	(void)s;
	GLuint t = sc_tex(16, 16, sc_texel_smooth, GL_LINEAR);
	glGenerateMipmapEXT(GL_TEXTURE_2D);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
	glGenProgramsARB(NB, pr);
	sc_clear_unit(0.5f, 0.5f, 0.5f, 1);
	glEnable(GL_FRAGMENT_PROGRAM_ARB);
	for (unsigned i = 0; i < NB; i++) {
		snprintf(src, sizeof(src),
			 "!!ARBfp1.0\nTEMP t, a, b, c, r;\n%sMOV_SAT result.color, r;\nEND\n", body[i]);
		glBindProgramARB(GL_FRAGMENT_PROGRAM_ARB, pr[i]);
		glProgramStringARB(GL_FRAGMENT_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB,
				   (GLsizei)strlen(src), src);
		if (!sc_gl_ok("ARB fragment program")) {
			fprintf(stderr, "gl-scenes: band %u: %s\n", i,
				glGetString(GL_PROGRAM_ERROR_STRING_ARB));
			return -1;
		}
		float x0, y0, x1, y1;
		sc_panel(i, 4, 3, &x0, &y0, &x1, &y1);
		glColor4f(0.8f, 0.3f, 0.6f, 0.9f);
		sc_rect(x0, y0, x1, y1);
	}
	glDisable(GL_FRAGMENT_PROGRAM_ARB);
	glDeleteProgramsARB(NB, pr);
	glDeleteTextures(1, &t);
	return 0;
}

/* An ARB vertex program per band on a 6x6 grid: ABS ADD ARL DP3 DP4 DPH
 * DST EX2 EXP FLR FRC LG2 LIT LOG MAD MAX MIN MOV MUL POW RCP RSQ SGE SLT
 * SUB SWZ XPD, relative addressing into a constant table included. */
static int sc_arb_vp_opcodes(const struct sc *s)
{
	static const char *const body[] = {
		"ABS a, p;\nADD a, a, -0.2;\nSUB b, 1, a;\nMAD r.xyz, a, b, 0.3;\n",
		"MUL a.x, p.x, 3;\nARL A0.x, a.x;\nMOV r.xyz, tab[A0.x + 1];\n",
		"DP3 r.x, p, { 0.5, 0.7, 0, 0 };\nDP4 r.y, p, { 0.4, -0.6, 0, 0.5 };\n"
		"DPH r.z, p, { -0.3, 0.2, 0, 0.6 };\n",
		"DST a, { 1, 0.5, 0.4, 1 }, p.yxzw;\nEX2 r.x, -p.x;\nEXP b, p.y;\n"
		"MUL r.y, b.y, 0.8;\nMUL r.z, a.y, 1.5;\n",
		"MUL a, p, 2.7;\nFLR b, a;\nFRC c, a;\nMUL r.x, b.x, 0.3;\nMOV r.yz, c.xyxx;\n",
		"ADD a, p, 0.5;\nLG2 r.x, a.x;\nLOG b, a.y;\nMOV r.y, b.y;\nMUL r.z, b.z, 0.1;\n",
		"MOV a, { 0, 0, 0, 4 };\nMOV a.xy, p;\nLIT b, a;\nMOV r.xyz, b.yzww;\n",
		"MAX r.x, p.x, p.y;\nMIN r.y, p.x, p.y;\nADD a, p, 0.3;\nPOW r.z, a.x, { 1.7 }.x;\n",
		"ADD a, p, 0.4;\nRCP b.x, a.x;\nRSQ b.y, a.y;\nMUL r.xy, b, 0.35;\nMOV r.z, 0.5;\n",
		"SGE a.x, p.x, 0.45;\nSLT a.y, p.y, 0.55;\nSWZ b, p, -y, x, 1, 0;\n"
		"XPD c, p, { 0.2, 0.5, 0.8, 0 };\nMAD r.x, a.x, 0.5, a.y;\n"
		"MAD r.y, b.x, 0.5, 0.7;\nMAD r.z, c.z, -1, 0.5;\n",
	};
	enum { NB = sizeof(body) / sizeof(body[0]), G = 6 };
	GLuint pr[NB];
	char src[2048];
	(void)s;
	glGenProgramsARB(NB, pr);
	sc_clear_unit(0, 0, 0, 1);
	glEnable(GL_VERTEX_PROGRAM_ARB);
	for (unsigned i = 0; i < NB; i++) {
		snprintf(src, sizeof(src),
			 "!!ARBvp1.0\n"
			 "PARAM mvp[4] = { state.matrix.mvp };\n"
			 "PARAM tab[5] = { {1,0,0,1}, {0,1,0,1}, {0,0,1,1}, {1,1,0,1}, {0,1,1,1} };\n"
			 "ADDRESS A0;\nTEMP p, a, b, c, r;\n"
			 "MOV p, vertex.texcoord[0];\nMOV r, 0;\n%s"
			 "MOV r.w, 1;\nMOV result.color, r;\n"
			 "DP4 result.position.x, mvp[0], vertex.position;\n"
			 "DP4 result.position.y, mvp[1], vertex.position;\n"
			 "DP4 result.position.z, mvp[2], vertex.position;\n"
			 "DP4 result.position.w, mvp[3], vertex.position;\n"
			 "END\n", body[i]);
		glBindProgramARB(GL_VERTEX_PROGRAM_ARB, pr[i]);
		glProgramStringARB(GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB,
				   (GLsizei)strlen(src), src);
		if (!sc_gl_ok("ARB vertex program")) {
			fprintf(stderr, "gl-scenes: band %u: %s\n", i,
				glGetString(GL_PROGRAM_ERROR_STRING_ARB));
			return -1;
		}
		float x0, y0, x1, y1;
		sc_panel(i, 4, 3, &x0, &y0, &x1, &y1);
		for (int y = 0; y < G; y++) {
			glBegin(GL_QUAD_STRIP);
			for (int x = 0; x <= G; x++)
				for (int k = 1; k >= 0; k--) {
					float u = (float)x / G, v = (float)(y + k) / G;
					glTexCoord2f(u, v);
					glVertex2f(x0 + (x1 - x0) * u, y0 + (y1 - y0) * v);
				}
			glEnd();
		}
	}
	glDisable(GL_VERTEX_PROGRAM_ARB);
	glDeleteProgramsARB(NB, pr);
	return 0;
}

/* GLSL flow control: if/else chains and a loop with a uniform count in the
 * fragment shader, a loop with a data-dependent break and an if in the
 * vertex shader. */
static int sc_glsl_flow(const struct sc *s)
{
	static const char vs[] =
		"#version 110\n"
		"uniform int n;\n"
		"varying vec2 uv;\n"
		"varying vec3 vc;\n"
		"void main() {\n"
		"  vec3 c = vec3(0.0);\n"
		"  for (int i = 0; i < 8; i++) {\n"
		"    if (i >= n) break;\n"
		"    c += vec3(0.1, 0.05 * float(i), 0.02);\n"
		"  }\n"
		"  if (gl_Vertex.x > 0.5) c.b += 0.4; else c.r += 0.2;\n"
		"  vc = c;\n"
		"  uv = gl_MultiTexCoord0.xy;\n"
		"  gl_Position = ftransform();\n"
		"}\n";
	static const char fs[] =
		"#version 110\n"
		"uniform int m;\n"
		"varying vec2 uv;\n"
		"varying vec3 vc;\n"
		"void main() {\n"
		"  vec3 c = vc;\n"
		"  if (uv.x < 0.3) c.g += 0.3;\n"
		"  else if (uv.y < 0.5) c.r += 0.25;\n"
		"  else c *= 0.5;\n"
		"  float acc = 0.0;\n"
		"  for (int i = 0; i < m; i++) acc += uv.x * uv.y * 0.3;\n"
		"  c.b += acc;\n"
		"  gl_FragColor = vec4(clamp(c, 0.0, 1.0), 1.0);\n"
		"}\n";
	(void)s;
	GLuint prog = sc_program(vs, fs);
	if (!prog)
		return -1;
	sc_clear_unit(0, 0, 0, 1);
	glUseProgram(prog);
	glUniform1i(glGetUniformLocation(prog, "n"), 5);
	glUniform1i(glGetUniformLocation(prog, "m"), 3);
	sc_rect(0.05f, 0.05f, 0.95f, 0.48f);
	glUniform1i(glGetUniformLocation(prog, "n"), 8);
	glUniform1i(glGetUniformLocation(prog, "m"), 1);
	sc_rect(0.05f, 0.52f, 0.95f, 0.95f);
	glUseProgram(0);
	glDeleteProgram(prog);
	return 0;
}

/* A long fragment program drawn 256 times, its uniform new each time:
 * Mesa's nv30 keeps uniforms as the program's inline constants and copies
 * the whole program again before each draw, some 12 KiB a draw, and binds
 * 32 of them in one submission: more than nvd's program shadow holds at
 * once.  Each 8x8 cell shows its own k in red and green, constants of the
 * copy made for its draw: a draw that ran another draw's copy shows.  (The
 * chain only makes the program long: it ends near its fixed point whatever
 * k is.) */
static int sc_uniform_per_draw(const struct sc *s)
{
	char fs[16384];
	int n = snprintf(fs, sizeof(fs), "#version 110\n"
			 "uniform vec4 k;\n"
			 "void main() {\n"
			 "  vec4 c = k;\n");
	/* abs keeps the steps from folding into one; the factor under 1
	 * keeps rounding differences from growing */
	for (unsigned i = 0; i < 200; i++)
		n += snprintf(fs + n, sizeof(fs) - (size_t)n,
			      "  c = abs(c * %.4f - vec4(%.4f, %.4f, %.4f, %.4f));\n",
			      0.95 - 0.001 * (i % 7), 0.02 * (i % 5), 0.01 * (i % 3), 0.03 * (i % 4),
			      0.015 * (i % 6));
	snprintf(fs + n, sizeof(fs) - (size_t)n,
		 "  gl_FragColor = vec4(k.x, k.y, clamp(c.z * 4.0, 0.0, 1.0), 1.0);\n"
		 "}\n");
	GLuint prog = sc_program(NULL, fs);
	if (!prog)
		return -1;
	sc_clear_pixels(s, 0, 0, 0, 1);
	glUseProgram(prog);
	GLint k = glGetUniformLocation(prog, "k");
	float cw = (float)s->w / 16, ch = (float)s->h / 16;
	for (unsigned y = 0; y < 16; y++)
		for (unsigned x = 0; x < 16; x++) {
			glUniform4f(k, (float)x / 15, (float)y / 15, (float)(x + y) / 30, 1.0f);
			sc_rect((float)x * cw, (float)y * ch, (float)(x + 1) * cw, (float)(y + 1) * ch);
		}
	glUseProgram(0);
	glDeleteProgram(prog);
	return 0;
}

/* glBlendColor with separate colour and alpha factors and equations,
 * alpha visible: the RGB and A of each panel follow different rules. */
static int sc_blend_color_separate(const struct sc *s)
{
	static const struct { GLenum sc, dc, sa, da, er, ea; float k[4]; } f[6] = {
		{ GL_CONSTANT_COLOR, GL_ONE, GL_ONE, GL_CONSTANT_ALPHA, GL_FUNC_ADD, GL_FUNC_SUBTRACT,
		  { 0.3f, 0.6f, 0.9f, 0.25f } },
		{ GL_ONE_MINUS_CONSTANT_ALPHA, GL_CONSTANT_ALPHA, GL_ZERO, GL_ONE, GL_FUNC_REVERSE_SUBTRACT,
		  GL_FUNC_ADD, { 0.9f, 0.1f, 0.5f, 0.7f } },
		{ GL_SRC_ALPHA, GL_ONE_MINUS_CONSTANT_COLOR, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_FUNC_ADD,
		  GL_MAX, { 0.2f, 0.8f, 0.4f, 0.5f } },
		{ GL_ONE, GL_ONE, GL_ONE, GL_ONE, GL_MIN, GL_FUNC_REVERSE_SUBTRACT,
		  { 0, 0, 0, 0 } },
		{ GL_CONSTANT_ALPHA, GL_ONE_MINUS_SRC_COLOR, GL_DST_ALPHA, GL_ONE_MINUS_CONSTANT_ALPHA,
		  GL_FUNC_SUBTRACT, GL_FUNC_ADD, { 0.5f, 0.5f, 0.5f, 0.35f } },
		{ GL_ZERO, GL_CONSTANT_COLOR, GL_CONSTANT_ALPHA, GL_ONE_MINUS_DST_ALPHA, GL_FUNC_ADD,
		  GL_MIN, { 0.7f, 0.4f, 0.9f, 0.6f } },
	};
	static const float c[4][4] = {
		{ 0.9f, 0.4f, 0.2f, 0.8f }, { 0.2f, 0.8f, 0.6f, 0.4f },
		{ 0.5f, 0.2f, 0.9f, 0.1f }, { 1, 0.9f, 0.7f, 0.6f },
	};
	(void)s;
	sc_clear_unit(0, 0, 0, 0);
	sc_backdrop();
	glEnable(GL_BLEND);
	for (unsigned i = 0; i < 6; i++) {
		float x0, y0, x1, y1;
		sc_panel(i, 3, 2, &x0, &y0, &x1, &y1);
		glBlendColor(f[i].k[0], f[i].k[1], f[i].k[2], f[i].k[3]);
		glBlendFuncSeparate(f[i].sc, f[i].dc, f[i].sa, f[i].da);
		glBlendEquationSeparate(f[i].er, f[i].ea);
		sc_quad_colors(x0, y0, x1, y1, c);
	}
	glBlendEquation(GL_FUNC_ADD);
	glDisable(GL_BLEND);
	return 0;
}

/* Every blend factor as a source and as a destination of both RGB and
 * alpha (blend-funcs has the common pairs). */
static int sc_blend_factors(const struct sc *s)
{
	static const GLenum fac[15] = {
		GL_ZERO, GL_ONE, GL_SRC_COLOR, GL_ONE_MINUS_SRC_COLOR, GL_DST_COLOR,
		GL_ONE_MINUS_DST_COLOR, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_DST_ALPHA,
		GL_ONE_MINUS_DST_ALPHA, GL_CONSTANT_COLOR, GL_ONE_MINUS_CONSTANT_COLOR,
		GL_CONSTANT_ALPHA, GL_ONE_MINUS_CONSTANT_ALPHA, GL_SRC_ALPHA_SATURATE,
	};
	static const float c[4][4] = {
		{ 0.9f, 0.5f, 0.1f, 0.7f }, { 0.1f, 0.9f, 0.5f, 0.3f },
		{ 0.5f, 0.1f, 0.9f, 0.9f }, { 1, 1, 1, 0.5f },
	};
	(void)s;
	sc_clear_unit(0, 0, 0, 0);
	sc_backdrop();
	glEnable(GL_BLEND);
	glBlendColor(0.3f, 0.55f, 0.8f, 0.45f);
	for (unsigned i = 0; i < 16; i++) {
		float x0, y0, x1, y1;
		sc_panel(i, 4, 4, &x0, &y0, &x1, &y1);
		/* source i, destination 14 - i (SRC_ALPHA_SATURATE only as a
		 * source in GL 2.1); alpha shifted by 5 and 9 */
		unsigned si = i % 15, di = (14 - i % 15) % 14, sa = (i + 5) % 15, da = (i + 9) % 14;
		glBlendFuncSeparate(fac[si], fac[di], fac[sa], fac[da]);
		sc_quad_colors(x0, y0, x1, y1, c);
	}
	glDisable(GL_BLEND);
	return 0;
}

/* glDepthRange (reversed too) and viewports off the origin and partly
 * outside the buffer: overlapping quads at depths the ranges reorder. */
static int sc_depth_range_viewport(const struct sc *s)
{
	static const struct { float n, f; int x, y, w, h; } v[4] = {
		{ 0.0f, 1.0f, 4, 6, 60, 56 },
		{ 0.6f, 0.2f, 66, 2, 58, 60 },
		{ 0.3f, 0.7f, -20, 66, 90, 58 },
		{ 1.0f, 0.0f, 70, 64, 80, 80 },
	};
	glClearColor(0, 0, 0, 1);
	glClearDepth(1.0);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_LESS);
	sc_ortho_unit();
	/* a reference at window depth 0.5 everywhere */
	glViewport(0, 0, s->w, s->h);
	glColor3f(0.3f, 0.3f, 0.3f);
	glBegin(GL_QUADS);
	glVertex3f(0, 0, 0); glVertex3f(1, 0, 0); glVertex3f(1, 1, 0); glVertex3f(0, 1, 0);
	glEnd();
	for (unsigned i = 0; i < 4; i++) {
		glViewport(v[i].x, v[i].y, v[i].w, v[i].h);
		glDepthRange(v[i].n, v[i].f);
		/* a quad sloping in z from -0.9 to 0.9, and a smooth triangle */
		glBegin(GL_QUADS);
		glColor3f(1, 0.3f, 0.1f);
		glVertex3f(0.05f, 0.1f, -0.9f);
		glVertex3f(0.95f, 0.1f, 0.9f);
		glColor3f(0.1f, 0.4f, 1);
		glVertex3f(0.95f, 0.6f, 0.9f);
		glVertex3f(0.05f, 0.6f, -0.9f);
		glEnd();
		glBegin(GL_TRIANGLES);
		glColor3f(0.2f, 1, 0.3f);
		glVertex3f(0.1f, 0.4f, 0.5f);
		glColor3f(1, 1, 0.2f);
		glVertex3f(0.9f, 0.45f, -0.5f);
		glColor3f(1, 0.2f, 1);
		glVertex3f(0.5f, 0.97f, 0.1f);
		glEnd();
	}
	glDepthRange(0, 1);
	glViewport(0, 0, s->w, s->h);
	glDisable(GL_DEPTH_TEST);
	return 0;
}

/* ---- the list ---- */

static const struct scene {
	const char *name;
	int (*draw)(const struct sc *s);
} sc_scenes[] = {
	{ "gears", sc_gears },
	{ "glxgears", sc_glxgears },
	{ "triangle", sc_triangle },
	{ "tri-strip", sc_tri_strip },
	{ "tri-fan", sc_tri_fan },
	{ "quads", sc_quads },
	{ "polygon", sc_polygon },
	{ "points", sc_points },
	{ "lines", sc_lines },
	{ "tex-nearest", sc_tex_nearest },
	{ "tex-linear", sc_tex_linear },
	{ "mipmap-trilinear", sc_mipmap },
	{ "tex-wrap", sc_tex_wrap },
	{ "texenv", sc_texenv },
	{ "blend-funcs", sc_blend_funcs },
	{ "blend-equations", sc_blend_equations },
	{ "alpha-test", sc_alpha_test },
	{ "depth-funcs", sc_depth_funcs },
	{ "stencil-shadow", sc_stencil },
	{ "polygon-offset", sc_polygon_offset },
	{ "clip-plane", sc_clip_plane },
	{ "point-sprites", sc_point_sprites },
	{ "cube-map", sc_cube_map },
	{ "glsl-fragment", sc_glsl_fragment },
	{ "glsl-vertex", sc_glsl_vertex },
	{ "arb-programs", sc_arb_programs },
	{ "fog", sc_fog },
	{ "vbo-formats", sc_vbo_formats },
	{ "draw-elements", sc_draw_elements },
	{ "draw-elements-ebo", sc_draw_elements_ebo },
	{ "scissor", sc_scissor },
	{ "color-mask", sc_color_mask },
	{ "logic-op", sc_logic_op },
	{ "cull-face", sc_cull_face },
	{ "lighting", sc_lighting },
	{ "render-to-texture", sc_render_to_texture },
	{ "mrt", sc_mrt },
	{ "tex-angles", sc_tex_angles },
	{ "tex-aniso", sc_tex_aniso },
	{ "tex-3d", sc_tex_3d },
	{ "tex-rect", sc_tex_rect },
	{ "tex-shadow", sc_tex_shadow },
	{ "tex-s3tc", sc_tex_s3tc },
	{ "tex-formats", sc_tex_formats },
	{ "rt-formats", sc_rt_formats },
	{ "two-sided-stencil", sc_two_sided_stencil },
	{ "two-sided-lighting", sc_two_sided_lighting },
	{ "flat-shading", sc_flat_shading },
	{ "polygon-mode", sc_polygon_mode },
	{ "lines-wide-stipple", sc_lines_wide_stipple },
	{ "arb-fp-opcodes", sc_arb_fp_opcodes },
	{ "arb-vp-opcodes", sc_arb_vp_opcodes },
	{ "glsl-flow", sc_glsl_flow },
	{ "blend-color-separate", sc_blend_color_separate },
	{ "blend-factors", sc_blend_factors },
	{ "depth-range-viewport", sc_depth_range_viewport },
	{ "uniform-per-draw", sc_uniform_per_draw },
};

#include "tests/gl/sc-window.h"

/* ---- main ---- */

static void sc_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s --scene NAME --out FILE [--size WxH] [--renderer SUBSTR] [--timeout S]\n"
		"       %s --scene NAME --window X,Y [--frames N] [--move X,Y,W,H] [--cover X,Y,W,H]\n"
		"          [--swap-interval N] [--oml] [--wait-msc K]\n"
		"          [--size WxH] [--renderer SUBSTR] [--timeout S]\n"
		"       %s --list\n"
		"  writes the scene's pixels as raw RGBA8, bottom row first (WxH default 128x128,\n"
		"  renderer default NV4); with --window draws it in a window on $DISPLAY through\n"
		"  GLX, prints \"shown\" and waits for stdin to close\n", prog, prog, prog);
}

static void sc_on_alarm(int sig)
{
	static const char msg[] = "gl-scenes: timed out\n";
	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(3);
}

/* The FBO (RGBA8 texture, packed depth/stencil renderbuffer), the scene,
 * the read back.  0, -1 or SC_UNSUPPORTED. */
static int sc_render(const struct scene *sc, int w, int h, const char *out)
{
	struct sc s = { .w = w, .h = h };
	GLuint tex, ds;
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	glBindTexture(GL_TEXTURE_2D, 0);
	glGenRenderbuffersEXT(1, &ds);
	glBindRenderbufferEXT(GL_RENDERBUFFER_EXT, ds);
	glRenderbufferStorageEXT(GL_RENDERBUFFER_EXT, GL_DEPTH24_STENCIL8_EXT, w, h);
	glGenFramebuffersEXT(1, &s.fbo);
	glBindFramebufferEXT(GL_FRAMEBUFFER_EXT, s.fbo);
	glFramebufferTexture2DEXT(GL_FRAMEBUFFER_EXT, GL_COLOR_ATTACHMENT0_EXT, GL_TEXTURE_2D, tex,
				  0);
	glFramebufferRenderbufferEXT(GL_FRAMEBUFFER_EXT, GL_DEPTH_ATTACHMENT_EXT,
				     GL_RENDERBUFFER_EXT, ds);
	glFramebufferRenderbufferEXT(GL_FRAMEBUFFER_EXT, GL_STENCIL_ATTACHMENT_EXT,
				     GL_RENDERBUFFER_EXT, ds);
	GLenum st = glCheckFramebufferStatusEXT(GL_FRAMEBUFFER_EXT);
	if (st != GL_FRAMEBUFFER_COMPLETE_EXT || !sc_gl_ok("FBO setup")) {
		fprintf(stderr, "gl-scenes: %dx%d FBO is not complete (0x%04x)\n", w, h, st);
		return -1;
	}
	glViewport(0, 0, w, h);
	int r = sc->draw(&s);
	if (r)
		return r;
	if (!sc_gl_ok(sc->name))
		return -1;
	glBindFramebufferEXT(GL_FRAMEBUFFER_EXT, s.fbo);
	size_t n = (size_t)w * h * 4;
	uint8_t *px = malloc(n);
	if (!px)
		return -1;
	memset(px, 0x5a, n);
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
	if (!sc_gl_ok("glReadPixels")) {
		free(px);
		return -1;
	}
	FILE *f = fopen(out, "wb");
	int ok = f && fwrite(px, 1, n, f) == n;
	if (f && fclose(f) != 0)
		ok = 0;
	free(px);
	if (!ok) {
		fprintf(stderr, "gl-scenes: cannot write %s: %s\n", out, strerror(errno));
		return -1;
	}
	glBindFramebufferEXT(GL_FRAMEBUFFER_EXT, 0);
	glDeleteFramebuffersEXT(1, &s.fbo);
	glDeleteRenderbuffersEXT(1, &ds);
	glDeleteTextures(1, &tex);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "scene", required_argument, 0, 's' }, { "out", required_argument, 0, 'o' },
		{ "size", required_argument, 0, 'z' },  { "renderer", required_argument, 0, 'r' },
		{ "timeout", required_argument, 0, 't' }, { "list", no_argument, 0, 'l' },
		{ "window", required_argument, 0, 'w' }, { "frames", required_argument, 0, 'f' },
		{ "move", required_argument, 0, 'm' },   { "cover", required_argument, 0, 'c' },
		{ "swap-interval", required_argument, 0, 'i' }, { "oml", no_argument, 0, 'O' },
		{ "wait-msc", required_argument, 0, 'W' },
		{ "help", no_argument, 0, 'h' },         { 0, 0, 0, 0 },
	};
	const char *name = NULL, *out = NULL, *renderer = "NV4";
	int w = 128, h = 128, list = 0, window = 0, c;
	unsigned timeout = 60;
	struct sc_window_opts wo = { .frames = 1, .swap_interval = -1 };
	char *end;

	while ((c = getopt_long(argc, argv, "s:o:z:r:t:lw:f:m:c:i:OW:h", lo, NULL)) != -1) {
		int bad = 0;
		switch (c) {
		case 's': name = optarg; break;
		case 'o': out = optarg; break;
		case 'r': renderer = optarg; break;
		case 'l': list = 1; break;
		case 'z':
			bad = sscanf(optarg, "%dx%d", &w, &h) != 2 || w < 16 || h < 16 || w > 2048 ||
			      h > 2048;
			break;
		case 't':
			timeout = (unsigned)strtoul(optarg, &end, 0);
			bad = *end || !timeout;
			break;
		case 'w': window = 1; bad = sc_parse_ints(optarg, &wo.x, 2); break;
		case 'm': wo.move = 1; bad = sc_parse_ints(optarg, &wo.mx, 4); break;
		case 'c': wo.cover = 1; bad = sc_parse_ints(optarg, &wo.cx, 4); break;
		case 'f':
			wo.frames = (unsigned)strtoul(optarg, &end, 0);
			bad = *end || !wo.frames;
			break;
		case 'i':
			wo.swap_interval = (int)strtol(optarg, &end, 0);
			bad = *end || wo.swap_interval < 0 || wo.swap_interval > 100;
			break;
		case 'O': wo.oml = 1; break;
		case 'W':
			wo.wait_msc = (unsigned)strtoul(optarg, &end, 0);
			bad = *end || !wo.wait_msc || wo.wait_msc > 1000;
			break;
		default:
			sc_usage(argv[0]);
			return c == 'h' ? 0 : 2;
		}
		if (bad) {
			sc_usage(argv[0]);
			return 2;
		}
	}
	if (list) {
		for (size_t i = 0; i < sizeof(sc_scenes) / sizeof(sc_scenes[0]); i++)
			printf("%s\n", sc_scenes[i].name);
		return 0;
	}
	const struct scene *sc = NULL;
	for (size_t i = 0; name && i < sizeof(sc_scenes) / sizeof(sc_scenes[0]); i++)
		if (!strcmp(sc_scenes[i].name, name))
			sc = &sc_scenes[i];
	if (!sc || !(out || window) || optind != argc) {
		if (name && !sc)
			fprintf(stderr, "gl-scenes: no scene \"%s\" (--list)\n", name);
		sc_usage(argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, sc_on_alarm);
	alarm(timeout);
	if (window)
		return sc_window_run(sc, w, h, renderer, &wo);

	struct glc_egl e;
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
					       NULL);
	if (glc_egl_context(&e, dpy, 0, 0) < 0) {
		glc_egl_fini(&e);
		return 1;
	}
	const char *r = (const char *)glGetString(GL_RENDERER);
	printf("renderer: %s\n", r ? r : "(null)");
	int rc;
	if (!r || !strstr(r, renderer)) {
		fprintf(stderr, "gl-scenes: renderer \"%s\" does not contain \"%s\"\n", r ? r : "",
			renderer);
		rc = 1;
	} else {
		rc = sc_render(sc, w, h, out);
		if (rc == 0)
			printf("scene %s: %dx%d written to %s\n", sc->name, w, h, out);
		else if (rc != SC_UNSUPPORTED)
			rc = 1;
	}
	glc_egl_fini(&e);
	return rc;
}
