/* gl-bigbuffer: a vertex buffer larger than the card's VRAM.  One
 * glBufferData of 256 MiB (--mib), quads written with glBufferSubData at
 * its start, its middle and its end, each drawn from there into its own
 * rectangle of a 64x64 FBO in its own colour; every pixel read back must be
 * its quad's colour or the clear colour.  Then the same three draws again
 * in the other order, after the middle quad was rewritten elsewhere in its
 * rectangle and colour, so that a draw reading stale vertices shows.
 *
 * EGL surfaceless, desktop GL.  Run it under nvd-run (GL_RENDERER "NV4x")
 * or with LIBGL_ALWAYS_SOFTWARE=1 --renderer llvmpipe.  Exit 0 only when
 * every check passed. */
#include "tests/gl/glcommon.h"

#define FB 64u

struct vbo_gl {
	void (*GenBuffers)(GLsizei, GLuint *);
	void (*DeleteBuffers)(GLsizei, const GLuint *);
	void (*BindBuffer)(GLenum, GLuint);
	void (*BufferData)(GLenum, GLsizeiptr, const void *, GLenum);
	void (*BufferSubData)(GLenum, GLintptr, GLsizeiptr, const void *);
};

/* A vertex: position in NDC, colour in k/255 steps (exact in unorm8). */
struct vtx { GLfloat x, y, r, g, b, a; };

/* A quad over pixels [x0, x1) x [y0, y1) of the FBO in one colour. */
struct quad {
	const char *where;
	unsigned x0, y0, x1, y1;
	struct glc_rgba c;
	GLint first;               /* its first vertex in the buffer */
};

static const char vs[] =
	"attribute vec2 pos;\n"
	"attribute vec4 col;\n"
	"varying vec4 c;\n"
	"void main() { c = col; gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char fs[] =
	"varying vec4 c;\n"
	"void main() { gl_FragColor = c; }\n";

static GLfloat ndc(unsigned px)
{
	return -1.0f + 2.0f * (GLfloat)px / FB;
}

static void quad_vertices(const struct quad *q, struct vtx v[4])
{
	const unsigned xs[4] = { q->x0, q->x1, q->x0, q->x1 };
	const unsigned ys[4] = { q->y0, q->y0, q->y1, q->y1 };
	for (unsigned i = 0; i < 4; i++)
		v[i] = (struct vtx){ ndc(xs[i]), ndc(ys[i]), q->c.r / 255.0f, q->c.g / 255.0f,
				     q->c.b / 255.0f, q->c.a / 255.0f };
}

/* The attributes start at the buffer's start and the quad is reached by
 * its first vertex: NV4x's VTXBUF holds 28 bits of offset, so a pointer
 * past 256 MiB into the ctxdma (Mesa puts the pointer's offset there)
 * wraps, while first * stride is added by the card's vertex fetch. */
static void draw(struct glc_gl *gl, GLuint prog, const struct quad *q)
{
	gl->UseProgram(prog);
	gl->VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(struct vtx), NULL);
	gl->VertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(struct vtx),
				(const void *)(2 * sizeof(GLfloat)));
	gl->EnableVertexAttribArray(0);
	gl->EnableVertexAttribArray(1);
	gl->DrawArrays(GL_TRIANGLE_STRIP, q->first, 4);
}

static GLuint program(struct glc_gl *gl)
{
	GLuint v = glc_shader(gl, GL_VERTEX_SHADER, vs);
	GLuint f = glc_shader(gl, GL_FRAGMENT_SHADER, fs);
	GLuint p = gl->CreateProgram();
	GLint linked = 0;
	gl->AttachShader(p, v);
	gl->AttachShader(p, f);
	gl->BindAttribLocation(p, 0, "pos");
	gl->BindAttribLocation(p, 1, "col");
	gl->LinkProgram(p);
	gl->GetProgramiv(p, GL_LINK_STATUS, &linked);
	gl->DeleteShader(v);
	gl->DeleteShader(f);
	if (!glc_check(linked && glc_gl_clean(gl, "program"), "the coloured-quad program links")) {
		gl->DeleteProgram(p);
		return 0;
	}
	return p;
}

/* Clears, draws the quads in the given order, checks every pixel. */
static void draw_and_check(struct glc_gl *gl, GLuint prog, const struct quad *q,
			   const unsigned *order, unsigned n, const char *what)
{
	static const struct glc_rgba clear = { 0x10, 0x20, 0x30, 0x40 };
	uint8_t want[FB * FB * 4];
	glc_clear_color(gl, clear);
	gl->Clear(GL_COLOR_BUFFER_BIT);
	glc_fill_rgba(want, FB, 0, 0, FB, FB, clear);
	for (unsigned i = 0; i < n; i++) {
		draw(gl, prog, &q[order[i]]);
		glc_fill_rgba(want, FB, q[order[i]].x0, q[order[i]].y0, q[order[i]].x1,
			      q[order[i]].y1, q[order[i]].c);
	}
	glc_check(glc_read_rgba_same(gl, FB, FB, want, what), "%s: every pixel read back", what);
}

static void run(struct glc_gl *gl, struct vbo_gl *b, GLsizeiptr size)
{
	GLsizeiptr qb = 4 * sizeof(struct vtx);
	GLint last = (GLint)(size / (GLsizeiptr)sizeof(struct vtx)) - 4;
	struct quad q[3] = {
		{ "start", 2, 3, 30, 20, { 0xff, 0x00, 0x00, 0xff }, 0 },
		{ "middle", 33, 5, 61, 29, { 0x00, 0xcc, 0x33, 0x80 }, last / 2 },
		{ "end", 10, 35, 50, 62, { 0x12, 0x34, 0xfe, 0x01 }, last },
	};
	struct vtx v[4];
	GLuint prog = program(gl), buf = 0;
	struct glc_fb fb;
	if (!prog || glc_fb_new(gl, &fb, FB, FB) < 0)
		return;
	gl->Disable(GL_DEPTH_TEST);
	double t0 = glc_now();
	b->GenBuffers(1, &buf);
	b->BindBuffer(GL_ARRAY_BUFFER, buf);
	b->BufferData(GL_ARRAY_BUFFER, size, NULL, GL_STATIC_DRAW);
	int ok = glc_gl_clean(gl, "glBufferData");
	for (unsigned i = 0; i < 3 && ok; i++) {
		quad_vertices(&q[i], v);
		b->BufferSubData(GL_ARRAY_BUFFER, (GLintptr)q[i].first * qb / 4, qb, v);
		ok = glc_gl_clean(gl, "glBufferSubData");
	}
	if (glc_check(ok, "glBufferData of %lld MiB, 3 quads written at its start, middle "
		      "and end (%.1f s)", (long long)(size >> 20), glc_now() - t0)) {
		static const unsigned fwd[3] = { 0, 1, 2 }, bwd[3] = { 2, 1, 0 };
		t0 = glc_now();
		draw_and_check(gl, prog, q, fwd, 3, "quads from the start, middle and end");
		/* the middle quad moved and recoloured: the draw must see the new
		 * vertices, not the card's old copy */
		q[1] = (struct quad){ "middle", 40, 40, 63, 63, { 0x7f, 0x01, 0xfe, 0xff },
				      last / 2 };
		quad_vertices(&q[1], v);
		b->BufferSubData(GL_ARRAY_BUFFER, (GLintptr)q[1].first * qb / 4, qb, v);
		draw_and_check(gl, prog, q, bwd, 3, "the same after the middle quad was rewritten");
		glc_note("draws: %.1f s", glc_now() - t0);
	}
	b->BindBuffer(GL_ARRAY_BUFFER, 0);
	b->DeleteBuffers(1, &buf);
	gl->DeleteProgram(prog);
	glc_fb_free(gl, &fb);
}

#define VBO_LOAD(b, field, name)                                                    \
	do {                                                                        \
		void *p_ = glc_proc(name, NULL);                                    \
		memcpy(&(b)->field, &p_, sizeof(p_));                               \
		if (!glc_check(p_ != NULL, "entry point %s exists", name))          \
			return -1;                                                  \
	} while (0)

static int vbo_load(struct vbo_gl *b)
{
	VBO_LOAD(b, GenBuffers, "glGenBuffers");
	VBO_LOAD(b, DeleteBuffers, "glDeleteBuffers");
	VBO_LOAD(b, BindBuffer, "glBindBuffer");
	VBO_LOAD(b, BufferData, "glBufferData");
	VBO_LOAD(b, BufferSubData, "glBufferSubData");
	return 0;
}

int main(int argc, char **argv)
{
	struct glc_opts o;
	struct glc_egl e;
	struct glc_gl gl;
	struct vbo_gl b;
	long mib = 256;

	glc_parse_num(argc, argv, &o, 120, "mib", 1, 1024, &mib);
	if (glc_surfaceless_gl(&o, &e, &gl) == 0 && vbo_load(&b) == 0)
		run(&gl, &b, (GLsizeiptr)mib << 20);
	glc_egl_fini(&e);
	return glc_summary();
}
