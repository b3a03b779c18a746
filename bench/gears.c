/* bench/gears: the glxgears scene (three lit gears, flat and smooth
 * shading, back-face culling, depth test) rendered offscreen
 * (EGL surfaceless + an FBO) at 300x300 and 1024x768, N frames with a
 * glFinish after each (where a window would swap), on nvd (Mesa's nouveau
 * under nvd-run), softpipe and llvmpipe in the same invocation; frames per
 * second and the ratios nvd/softpipe, nvd/llvmpipe.
 *
 * The gears are drawn in immediate mode by default: Mesa compiles display
 * lists (--lists, what glxgears does) into u32 index-buffer draws, which
 * nvd's validator refuses while it cannot bound the indices.
 *
 * The measuring runs are this program again (--child) in a fresh process,
 * as in bench/upload.  The gear angle steps a fixed 2 degrees a frame, so
 * every renderer draws the same frames; each run prints a CRC of its last
 * frame, so runs of one renderer before and after a change can be compared
 * (renderers differ in rounding: their CRCs differ).  Prints; never passes
 * or fails. */
#include <limits.h>
#include <math.h>

#include "bench/glbench.h"
#include "tests/gl/glcommon.h"
#include "tests/lib/nvt.h"

#define GR_N_DEFAULT 50

/* The fixed-function entry points the scene needs (GL 1.x), loaded like
 * glcommon's. */
struct gr_gl {
	void (*Begin)(GLenum);
	void (*End)(void);
	void (*Vertex3f)(GLfloat, GLfloat, GLfloat);
	void (*Normal3f)(GLfloat, GLfloat, GLfloat);
	void (*ShadeModel)(GLenum);
	GLuint (*GenLists)(GLsizei);
	void (*NewList)(GLuint, GLenum);
	void (*EndList)(void);
	void (*CallList)(GLuint);
	void (*DeleteLists)(GLuint, GLsizei);
	void (*Materialfv)(GLenum, GLenum, const GLfloat *);
	void (*Lightfv)(GLenum, GLenum, const GLfloat *);
	void (*MatrixMode)(GLenum);
	void (*LoadIdentity)(void);
	void (*Frustum)(GLdouble, GLdouble, GLdouble, GLdouble, GLdouble, GLdouble);
	void (*Translatef)(GLfloat, GLfloat, GLfloat);
	void (*Rotatef)(GLfloat, GLfloat, GLfloat, GLfloat);
	void (*PushMatrix)(void);
	void (*PopMatrix)(void);
};

static int gr_load(struct gr_gl *f)
{
	GLC_LOAD(f, Begin, "glBegin", NULL);
	GLC_LOAD(f, End, "glEnd", NULL);
	GLC_LOAD(f, Vertex3f, "glVertex3f", NULL);
	GLC_LOAD(f, Normal3f, "glNormal3f", NULL);
	GLC_LOAD(f, ShadeModel, "glShadeModel", NULL);
	GLC_LOAD(f, GenLists, "glGenLists", NULL);
	GLC_LOAD(f, NewList, "glNewList", NULL);
	GLC_LOAD(f, EndList, "glEndList", NULL);
	GLC_LOAD(f, CallList, "glCallList", NULL);
	GLC_LOAD(f, DeleteLists, "glDeleteLists", NULL);
	GLC_LOAD(f, Materialfv, "glMaterialfv", NULL);
	GLC_LOAD(f, Lightfv, "glLightfv", NULL);
	GLC_LOAD(f, MatrixMode, "glMatrixMode", NULL);
	GLC_LOAD(f, LoadIdentity, "glLoadIdentity", NULL);
	GLC_LOAD(f, Frustum, "glFrustum", NULL);
	GLC_LOAD(f, Translatef, "glTranslatef", NULL);
	GLC_LOAD(f, Rotatef, "glRotatef", NULL);
	GLC_LOAD(f, PushMatrix, "glPushMatrix", NULL);
	GLC_LOAD(f, PopMatrix, "glPopMatrix", NULL);
	return 0;
}

/* ---- the scene ---- */

static void gr_vtx(const struct gr_gl *f, float r, float a, float z)
{
	f->Vertex3f(r * cosf(a), r * sinf(a), z);
}

/* One gear: the faces, the teeth's sides and tops, the hub; `teeth` teeth
 * of depth `tooth`, radii r_in .. r_out, `width` thick along z. */
static void gr_gear(const struct gr_gl *f, float r_in, float r_out, float width, int teeth,
		    float tooth)
{
	const float pi = (float)M_PI;
	float r0 = r_in, r1 = r_out - tooth / 2.0f, r2 = r_out + tooth / 2.0f;
	float da = 2.0f * pi / (float)teeth / 4.0f, hw = width * 0.5f;

	f->ShadeModel(GL_FLAT);
	f->Normal3f(0.0f, 0.0f, 1.0f);
	/* front face: a ring through the tooth roots */
	f->Begin(GL_QUAD_STRIP);
	for (int i = 0; i <= teeth; i++) {
		float a = (float)i * 2.0f * pi / (float)teeth;
		gr_vtx(f, r0, a, hw);
		gr_vtx(f, r1, a, hw);
		if (i < teeth) {
			gr_vtx(f, r0, a, hw);
			gr_vtx(f, r1, a + 3 * da, hw);
		}
	}
	f->End();
	/* front of the teeth */
	f->Begin(GL_QUADS);
	for (int i = 0; i < teeth; i++) {
		float a = (float)i * 2.0f * pi / (float)teeth;
		gr_vtx(f, r1, a, hw);
		gr_vtx(f, r2, a + da, hw);
		gr_vtx(f, r2, a + 2 * da, hw);
		gr_vtx(f, r1, a + 3 * da, hw);
	}
	f->End();

	f->Normal3f(0.0f, 0.0f, -1.0f);
	/* back face */
	f->Begin(GL_QUAD_STRIP);
	for (int i = 0; i <= teeth; i++) {
		float a = (float)i * 2.0f * pi / (float)teeth;
		gr_vtx(f, r1, a, -hw);
		gr_vtx(f, r0, a, -hw);
		if (i < teeth) {
			gr_vtx(f, r1, a + 3 * da, -hw);
			gr_vtx(f, r0, a, -hw);
		}
	}
	f->End();
	/* back of the teeth */
	f->Begin(GL_QUADS);
	for (int i = 0; i < teeth; i++) {
		float a = (float)i * 2.0f * pi / (float)teeth;
		gr_vtx(f, r1, a + 3 * da, -hw);
		gr_vtx(f, r2, a + 2 * da, -hw);
		gr_vtx(f, r2, a + da, -hw);
		gr_vtx(f, r1, a, -hw);
	}
	f->End();

	/* the teeth's outward faces, one normal per facet */
	f->Begin(GL_QUAD_STRIP);
	for (int i = 0; i < teeth; i++) {
		float a = (float)i * 2.0f * pi / (float)teeth;
		gr_vtx(f, r1, a, hw);
		gr_vtx(f, r1, a, -hw);
		float u = r2 * cosf(a + da) - r1 * cosf(a), v = r2 * sinf(a + da) - r1 * sinf(a);
		float len = sqrtf(u * u + v * v);
		f->Normal3f(v / len, -u / len, 0.0f);
		gr_vtx(f, r2, a + da, hw);
		gr_vtx(f, r2, a + da, -hw);
		f->Normal3f(cosf(a), sinf(a), 0.0f);
		gr_vtx(f, r2, a + 2 * da, hw);
		gr_vtx(f, r2, a + 2 * da, -hw);
		u = r1 * cosf(a + 3 * da) - r2 * cosf(a + 2 * da);
		v = r1 * sinf(a + 3 * da) - r2 * sinf(a + 2 * da);
		f->Normal3f(v, -u, 0.0f);
		gr_vtx(f, r1, a + 3 * da, hw);
		gr_vtx(f, r1, a + 3 * da, -hw);
		f->Normal3f(cosf(a), sinf(a), 0.0f);
	}
	gr_vtx(f, r1, 0.0f, hw);
	gr_vtx(f, r1, 0.0f, -hw);
	f->End();

	/* the hub's inside, smooth */
	f->ShadeModel(GL_SMOOTH);
	f->Begin(GL_QUAD_STRIP);
	for (int i = 0; i <= teeth; i++) {
		float a = (float)i * 2.0f * pi / (float)teeth;
		f->Normal3f(-cosf(a), -sinf(a), 0.0f);
		gr_vtx(f, r0, a, -hw);
		gr_vtx(f, r0, a, hw);
	}
	f->End();
}

struct gr_scene {
	GLuint list[3];
};

static const GLfloat gr_color[3][4] = {
	{ 0.8f, 0.1f, 0.0f, 1.0f }, { 0.0f, 0.8f, 0.2f, 1.0f }, { 0.2f, 0.2f, 1.0f, 1.0f },
};
static const float gr_geom[3][5] = {
	{ 1.0f, 4.0f, 1.0f, 20, 0.7f }, { 0.5f, 2.0f, 2.0f, 10, 0.7f }, { 1.3f, 2.0f, 0.5f, 10, 0.7f },
};

static void gr_draw_gear(const struct gr_gl *f, unsigned i)
{
	f->Materialfv(GL_FRONT, GL_AMBIENT_AND_DIFFUSE, gr_color[i]);
	gr_gear(f, gr_geom[i][0], gr_geom[i][1], gr_geom[i][2], (int)gr_geom[i][3], gr_geom[i][4]);
}

static void gr_init(const struct gr_gl *f, struct glc_gl *gl, struct gr_scene *sc, int lists)
{
	static const GLfloat pos[4] = { 5.0f, 5.0f, 10.0f, 0.0f };

	f->Lightfv(GL_LIGHT0, GL_POSITION, pos);
	gl->Enable(GL_CULL_FACE);
	gl->Enable(GL_LIGHTING);
	gl->Enable(GL_LIGHT0);
	gl->Enable(GL_DEPTH_TEST);
	for (unsigned i = 0; i < 3; i++) {
		sc->list[i] = 0;
		if (!lists)
			continue;
		sc->list[i] = f->GenLists(1);
		f->NewList(sc->list[i], GL_COMPILE);
		gr_draw_gear(f, i);
		f->EndList();
	}
	gl->Enable(GL_NORMALIZE);
}

static void gr_reshape(const struct gr_gl *f, struct glc_gl *gl, unsigned w, unsigned h)
{
	double a = (double)h / (double)w;
	gl->Viewport(0, 0, (GLsizei)w, (GLsizei)h);
	f->MatrixMode(GL_PROJECTION);
	f->LoadIdentity();
	f->Frustum(-1.0, 1.0, -a, a, 5.0, 60.0);
	f->MatrixMode(GL_MODELVIEW);
	f->LoadIdentity();
	f->Translatef(0.0f, 0.0f, -40.0f);
}

static void gr_frame(const struct gr_gl *f, struct glc_gl *gl, const struct gr_scene *sc,
		     float angle)
{
	static const float at[3][3] = { { -3.0f, -2.0f, 0 }, { 3.1f, -2.0f, 0 }, { -3.1f, 4.2f, 0 } };
	const float rot[3] = { angle, -2.0f * angle - 9.0f, -2.0f * angle - 25.0f };

	gl->Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	f->PushMatrix();
	f->Rotatef(20.0f, 1.0f, 0.0f, 0.0f);
	f->Rotatef(30.0f, 0.0f, 1.0f, 0.0f);
	f->Rotatef(0.0f, 0.0f, 0.0f, 1.0f);
	for (unsigned i = 0; i < 3; i++) {
		f->PushMatrix();
		f->Translatef(at[i][0], at[i][1], at[i][2]);
		f->Rotatef(rot[i], 0.0f, 0.0f, 1.0f);
		if (sc->list[i])
			f->CallList(sc->list[i]);
		else
			gr_draw_gear(f, i);
		f->PopMatrix();
	}
	f->PopMatrix();
}

/* ---- the measuring child ---- */

static uint32_t gr_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = ~0u;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c >> 1 ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

static int gr_child(unsigned n, const char *renderer, unsigned w, unsigned h, int lists)
{
	struct glc_opts o = { .prog = "gears", .renderer = renderer, .timeout = 600 };
	struct glc_egl e;
	struct glc_gl gl;
	struct gr_gl f;
	struct gr_scene sc;
	GLuint fbo, rb[2];

	glc_start(&o);
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
					       NULL);
	if (glc_egl_context(&e, dpy, 0, 0) < 0 || glc_gl_load(&gl, 0) < 0 ||
	    !glc_check_renderer(&gl, &o) || gr_load(&f) < 0)
		return 1;

	gl.GenFramebuffers(1, &fbo);
	gl.BindFramebuffer(GL_FRAMEBUFFER, fbo);
	gl.GenRenderbuffers(2, rb);
	gl.BindRenderbuffer(GL_RENDERBUFFER, rb[0]);
	gl.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, (GLsizei)w, (GLsizei)h);
	gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
	gl.BindRenderbuffer(GL_RENDERBUFFER, rb[1]);
	gl.RenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, (GLsizei)w, (GLsizei)h);
	gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
	GLenum st = gl.CheckFramebufferStatus(GL_FRAMEBUFFER);
	if (st != GL_FRAMEBUFFER_COMPLETE) {
		printf("error: framebuffer incomplete (0x%04x)\n", st);
		return 1;
	}

	gr_init(&f, &gl, &sc, lists);
	gr_reshape(&f, &gl, w, h);
	gl.ClearColor(0.0f, 0.0f, 0.0f, 0.0f);
	double t0 = glc_now();
	for (unsigned i = 0; i < 3 || glc_now() - t0 < GLB_WARMUP_S; i++) {
		gr_frame(&f, &gl, &sc, 0.0f);
		gl.Finish();
	}
	t0 = glc_now();
	for (unsigned i = 0; i < n; i++) {
		gr_frame(&f, &gl, &sc, 2.0f * (float)i);
		gl.Finish();
	}
	double t = glc_now() - t0;

	uint8_t *img = malloc((size_t)w * h * 4);
	uint32_t crc = 0;
	if (img) {
		gl.PixelStorei(GL_PACK_ALIGNMENT, 4);
		gl.ReadPixels(0, 0, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, img);
		crc = gr_crc32(img, (size_t)w * h * 4);
		free(img);
	}
	GLenum err = gl.GetError();
	for (unsigned i = 0; i < 3; i++)
		if (sc.list[i])
			f.DeleteLists(sc.list[i], 1);
	gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
	gl.DeleteFramebuffers(1, &fbo);
	gl.DeleteRenderbuffers(2, rb);
	glc_egl_fini(&e);
	if (err != GL_NO_ERROR) {
		printf("error: GL error 0x%04x\n", err);
		return 1;
	}
	printf("crc: %08x\n", crc);
	printf("result: %u frames in %.3f s = %.2f fps\n", n, t, t > 0 ? (double)n / t : 0.0);
	return 0;
}

/* ---- the parent ---- */

enum { GR_SOFTPIPE, GR_LLVMPIPE, GR_NVD, GR_MODES };
static const char *const gr_mode_name[GR_MODES] = { "softpipe", "llvmpipe", "nvd" };
static const char *const gr_mode_renderer[GR_MODES] = { "softpipe", "llvmpipe", "NV4" };

struct gr_run {
	double fps;                /* < 0: no figure */
	uint32_t crc;
	char renderer[128];
	char why[160];
};

static int gr_line(void *arg, const char *text)
{
	struct gr_run *r = arg;
	double v;
	unsigned c;
	if (sscanf(text, "crc: %x", &c) == 1)
		r->crc = c;
	else if (sscanf(text, "result: %*u frames in %*f s = %lf fps", &v) == 1)
		r->fps = v;
	else
		return 0;
	return 1;
}

/* Runs argv (mode chooses the environment) and parses the child's
 * renderer, crc and result lines into r. */
static void gr_measure(const char *const *argv, int mode, struct gr_run *r)
{
	memset(r, 0, sizeof(*r));
	r->fps = -1;
	if (glb_run(argv, mode != GR_NVD, gr_mode_name[mode], 1200 * 1000, gr_line, r, r->renderer,
		    sizeof(r->renderer), r->why, sizeof(r->why)) != 0)
		r->fps = -1;
}

static void gr_print(const char *what, const struct gr_run *r)
{
	if (r->fps >= 0)
		printf("  %-9s %9.2f fps   crc %08x   (%s)\n", what, r->fps, r->crc, r->renderer);
	else
		printf("  %-9s   no figure: %s%s%s\n", what, r->why[0] ? r->why : "failed",
		       r->renderer[0] ? "; renderer " : "", r->renderer);
}

static void gr_usage(FILE *f)
{
	fprintf(f,
		"usage: gears [-n N] [-s PATH] [-m MODES] [-g WxH] [-l]\n"
		"  -n, --frames N      frames per run (default %d)\n"
		"  -s, --socket PATH   use a running nvd (default: start one, $NVD_BIN or\n"
		"                      ../bin/nvd beside this program)\n"
		"  -m, --modes LIST    comma-separated of nvd,softpipe,llvmpipe (default all)\n"
		"  -g, --size WxH      one size instead of 300x300 and 1024x768\n"
		"  -l, --lists         the gears in display lists, as glxgears (Mesa draws\n"
		"                      them from index buffers); default immediate mode\n"
		"      --sim-check     run the nvd it starts with --sim-check (what the\n"
		"                      access oracle costs)\n"
		"  -h, --help          show this help\n"
		"      --version       show the version\n",
		GR_N_DEFAULT);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "frames", required_argument, 0, 'n' }, { "socket", required_argument, 0, 's' },
		{ "modes", required_argument, 0, 'm' },  { "size", required_argument, 0, 'g' },
		{ "child", required_argument, 0, 'c' },  { "lists", no_argument, 0, 'l' },
		{ "sim-check", no_argument, 0, 'K' },
		{ "help", no_argument, 0, 'h' },         { "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	unsigned n = GR_N_DEFAULT, sizes[2][2] = { { 300, 300 }, { 1024, 768 } }, nsizes = 2;
	const char *sock = NULL, *child = NULL;
	unsigned modes = (1u << GR_MODES) - 1;
	int c, lists = 0;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "gears: ...", not a path */
	while ((c = getopt_long(argc, argv, "n:s:m:g:lh", lo, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (glb_parse_count("--frames", optarg, 1, 100000, &n) < 0)
				return 2;
			break;
		case 's': sock = optarg; break;
		case 'K': glb_sim_check = 1; break;
		case 'c': child = optarg; break;
		case 'l': lists = 1; break;
		case 'g':
			if (glb_parse_size("--size", optarg, &sizes[0][0], &sizes[0][1]) < 0)
				return 2;
			nsizes = 1;
			break;
		case 'm':
			if (glb_parse_modes("--modes", optarg, gr_mode_name, GR_MODES, &modes) < 0)
				return 2;
			break;
		default: return glb_other_option(c, gr_usage);
		}
	}
	if (optind != argc)
		return glb_bad_usage("unexpected argument '%s'", argv[optind]);
	if (child)
		return gr_child(n, child, sizes[0][0], sizes[0][1], lists);

	struct nvt_paths at;
	char nbuf[16], gbuf[32];
	if (nvt_paths(&at, "../bin") < 0) {
		fprintf(stderr, "gears: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	snprintf(nbuf, sizeof(nbuf), "%u", n);

	struct nvt_daemon d;
	int own;
	const char *nvd_why = glb_daemon_start(&d, &sock, !!(modes & 1u << GR_NVD), at.nvd_run,
					       NULL, &own);

	printf("glxgears scene offscreen (%s), %u frames + glFinish each per run after %.1f s of "
	       "warm-up\n", lists ? "display lists" : "immediate mode", n, GLB_WARMUP_S);
	for (unsigned s = 0; s < nsizes; s++) {
		struct gr_run r[GR_MODES];
		snprintf(gbuf, sizeof(gbuf), "%ux%u", sizes[s][0], sizes[s][1]);
		printf("%s:\n", gbuf);
		for (unsigned m = 0; m < GR_MODES; m++) {
			memset(&r[m], 0, sizeof(r[m]));
			r[m].fps = -1;
			if (!(modes & 1u << m))
				continue;
			if (m == GR_NVD && nvd_why) {
				snprintf(r[m].why, sizeof(r[m].why), "%s", nvd_why);
			} else if (m == GR_NVD) {
				const char *argv_hw[] = { at.nvd_run, "--socket", sock, at.self,
							  "--child", gr_mode_renderer[m], "-n", nbuf,
							  "-g", gbuf, lists ? "--lists" : NULL, NULL };
				gr_measure(argv_hw, (int)m, &r[m]);
			} else {
				const char *argv_sw[] = { at.self, "--child", gr_mode_renderer[m],
							  "-n", nbuf, "-g", gbuf,
							  lists ? "--lists" : NULL, NULL };
				gr_measure(argv_sw, (int)m, &r[m]);
			}
			gr_print(gr_mode_name[m], &r[m]);
		}
		if (!(modes & 1u << GR_NVD))
			continue;
		for (unsigned m = 0; m < GR_NVD; m++) {
			if (!(modes & 1u << m))
				continue;
			if (r[m].fps > 0 && r[GR_NVD].fps >= 0)
				printf("  ratio nvd/%s: %.4f\n", gr_mode_name[m], r[GR_NVD].fps / r[m].fps);
			else
				printf("  ratio nvd/%s: n/a\n", gr_mode_name[m]);
		}
	}
	glb_daemon_stop(&d, own);
	return 0;
}
