/* gl-textures: more texture memory than the card's VRAM, every texel read
 * back through the 3D engine.  It uploads N (default 24) 1024x1024 RGBA8
 * textures, each with its own contents (a hash of texture, x and y, so a
 * texel from the wrong texture or place shows), then draws each 1:1 with
 * GL_NEAREST into an FBO and compares every pixel read back with the texel
 * it must be: textures 0..N-1, then N-1..0, so that the second pass finds
 * the first textures evicted by the last ones.
 *
 * EGL surfaceless, desktop GL.  Run it under nvd-run (GL_RENDERER "NV4x")
 * or with LIBGL_ALWAYS_SOFTWARE=1 --renderer llvmpipe.  Exit 0 only when
 * every check passed. */
#include "tests/gl/glcommon.h"

#define TEX_SIZE 1024u

/* The texel (t, x, y) as RGBA bytes: a 32-bit mix of its coordinates. */
static uint32_t texel(unsigned t, unsigned x, unsigned y)
{
	uint32_t h = (uint32_t)t * 0x9e3779b1u ^ (y * TEX_SIZE + x);
	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	h ^= h >> 16;
	return h;
}

static void texel_bytes(uint8_t *o, uint32_t v)
{
	o[0] = (uint8_t)v;
	o[1] = (uint8_t)(v >> 8);
	o[2] = (uint8_t)(v >> 16);
	o[3] = (uint8_t)(v >> 24);
}

/* Every pixel of `got` (the FBO, TEX_SIZE square) against texture t;
 * prints the first differences. */
static int texture_same(const uint8_t *got, unsigned t, const char *what)
{
	unsigned bad = 0;
	for (unsigned y = 0; y < TEX_SIZE; y++)
		for (unsigned x = 0; x < TEX_SIZE; x++) {
			uint8_t want[4];
			const uint8_t *p = got + ((size_t)y * TEX_SIZE + x) * 4;
			texel_bytes(want, texel(t, x, y));
			if (!memcmp(want, p, 4))
				continue;
			if (bad++ < 4)
				glc_note("%s: pixel (%u,%u) is %02x%02x%02x%02x, expected "
					 "%02x%02x%02x%02x", what, x, y, p[0], p[1], p[2], p[3],
					 want[0], want[1], want[2], want[3]);
		}
	if (bad)
		glc_note("%s: %u of %u pixels differ", what, bad, TEX_SIZE * TEX_SIZE);
	return bad == 0;
}

static int upload(struct glc_gl *gl, GLuint *tex, unsigned n)
{
	size_t bytes = (size_t)TEX_SIZE * TEX_SIZE * 4;
	uint8_t *img = malloc(bytes);
	int ok = 1;
	if (!glc_check(img != NULL, "%zu bytes for a texture image", bytes))
		return 0;
	gl->GenTextures((GLsizei)n, tex);
	gl->PixelStorei(GL_UNPACK_ALIGNMENT, 1);
	for (unsigned t = 0; t < n && ok; t++) {
		for (unsigned y = 0; y < TEX_SIZE; y++)
			for (unsigned x = 0; x < TEX_SIZE; x++)
				texel_bytes(img + ((size_t)y * TEX_SIZE + x) * 4, texel(t, x, y));
		gl->BindTexture(GL_TEXTURE_2D, tex[t]);
		gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
		gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
		gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, TEX_SIZE, TEX_SIZE, 0, GL_RGBA,
			       GL_UNSIGNED_BYTE, img);
		char what[64];
		snprintf(what, sizeof(what), "texture %u upload", t);
		ok = glc_gl_clean(gl, what);
	}
	gl->Finish();
	ok = ok && glc_gl_clean(gl, "glFinish after the uploads");
	free(img);
	return glc_check(ok, "%u textures of %ux%u RGBA8 (%u MiB) uploaded", n, TEX_SIZE, TEX_SIZE,
			 n * 4);
}

/* Draws texture t into the bound TEX_SIZE FBO and checks every pixel. */
static void sample(struct glc_gl *gl, const GLuint *tex, unsigned t, uint8_t *got,
		   const char *pass)
{
	char what[64];
	snprintf(what, sizeof(what), "%s: texture %u", pass, t);
	gl->ClearColor(0, 0, 0, 0);
	gl->Clear(GL_COLOR_BUFFER_BIT);
	glc_draw_quad(gl, tex[t]);
	memset(got, 0x5a, (size_t)TEX_SIZE * TEX_SIZE * 4);
	gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
	gl->ReadPixels(0, 0, TEX_SIZE, TEX_SIZE, GL_RGBA, GL_UNSIGNED_BYTE, got);
	glc_check(glc_gl_clean(gl, what) && texture_same(got, t, what),
		  "%s drawn 1:1, every texel read back exact", what);
}

/* An FBO of one TEX_SIZE RGBA8 colour texture, no depth: a draw's working
 * set is then 8 MiB (this and the sampled texture), which fits beside X on
 * the smallest cards the tests run. 0 or -1. */
static int fbo_new(struct glc_gl *gl, GLuint *fbo, GLuint *colour)
{
	gl->GenTextures(1, colour);
	gl->BindTexture(GL_TEXTURE_2D, *colour);
	gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, TEX_SIZE, TEX_SIZE, 0, GL_RGBA,
		       GL_UNSIGNED_BYTE, NULL);
	gl->GenFramebuffers(1, fbo);
	gl->BindFramebuffer(GL_FRAMEBUFFER, *fbo);
	gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, *colour, 0);
	GLenum st = gl->CheckFramebufferStatus(GL_FRAMEBUFFER);
	gl->Viewport(0, 0, TEX_SIZE, TEX_SIZE);
	int ok = glc_gl_clean(gl, "framebuffer setup") && st == GL_FRAMEBUFFER_COMPLETE;
	return glc_check(ok, "%ux%u FBO of one RGBA8 texture is complete (status 0x%04x)",
			 TEX_SIZE, TEX_SIZE, st) ? 0 : -1;
}

static void run(struct glc_gl *gl, unsigned n)
{
	GLuint tex[64], fbo = 0, colour = 0;
	uint8_t *got = malloc((size_t)TEX_SIZE * TEX_SIZE * 4);

	if (!glc_check(got != NULL, "a read-back buffer"))
		return;
	double t0 = glc_now();
	if (upload(gl, tex, n) && fbo_new(gl, &fbo, &colour) == 0) {
		glc_note("uploads: %.1f s", glc_now() - t0);
		gl->Disable(GL_DEPTH_TEST);
		t0 = glc_now();
		for (unsigned t = 0; t < n; t++)
			sample(gl, tex, t, got, "forwards");
		glc_note("forwards: %.1f s", glc_now() - t0);
		t0 = glc_now();
		for (unsigned t = n; t-- > 0;)
			sample(gl, tex, t, got, "backwards");
		glc_note("backwards: %.1f s", glc_now() - t0);
	}
	gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
	gl->DeleteFramebuffers(1, &fbo);
	gl->DeleteTextures(1, &colour);
	gl->DeleteTextures((GLsizei)n, tex);
	free(got);
}

int main(int argc, char **argv)
{
	struct glc_opts o;
	struct glc_egl e;
	struct glc_gl gl;
	long n = 24;

	glc_parse_num(argc, argv, &o, 170, "textures", 1, 64, &n);
	if (glc_surfaceless_gl(&o, &e, &gl) == 0 && glc_draw_init(&gl) == 0)
		run(&gl, (unsigned)n);
	glc_egl_fini(&e);
	return glc_summary();
}
