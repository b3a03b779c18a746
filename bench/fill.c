/* bench/fill: textured, blended fill rate.  Full-screen quads (default
 * 1024x768, 20 layers a frame) sampling a 256x256 mipmapped RGBA8 texture
 * with GL_LINEAR_MIPMAP_LINEAR (the texture repeats 6 times across, so the
 * LOD sits between levels 0 and 1 and both are read), blended with
 * SRC_ALPHA / ONE_MINUS_SRC_ALPHA over an RGBA8 FBO; N frames with a
 * glFinish after each.  nvd (Mesa's nouveau under nvd-run) against llvmpipe
 * in the same invocation: Mpixels/s and the ratio nvd/llvmpipe.
 *
 * The measuring runs are this program again (--child) in a fresh process,
 * as in bench/gears; each prints a CRC of its last frame, so runs of one
 * renderer before and after a change can be compared.  Prints; never
 * passes or fails. */
#include <limits.h>

#include "bench/glbench.h"
#include "tests/gl/glcommon.h"
#include "tests/lib/nvt.h"

#define FL_FRAMES_DEFAULT 3
#define FL_LAYERS_DEFAULT 20
#define FL_TEX 256

static const char fl_vs[] =
	"attribute vec2 pos;\n"
	"varying vec2 uv;\n"
	"void main() {\n"
	"  uv = (pos * 0.5 + 0.5) * vec2(6.0, 4.5);\n"
	"  gl_Position = vec4(pos, 0.0, 1.0);\n"
	"}\n";
static const char fl_fs[] =
	"uniform sampler2D tex;\n"
	"varying vec2 uv;\n"
	"void main() { gl_FragColor = texture2D(tex, uv); }\n";

/* Level l of the texture: a colour pattern with a checker in alpha, each
 * level a 2x2 box filter of the one above so mip blending is visible. */
static void fl_texture(struct glc_gl *gl)
{
	unsigned n = FL_TEX;
	uint8_t *img = malloc((size_t)n * n * 4), *next = malloc((size_t)n * n * 4);
	if (!img || !next) {
		free(img);
		free(next);
		return;
	}
	for (unsigned y = 0; y < n; y++)
		for (unsigned x = 0; x < n; x++) {
			uint8_t *p = img + 4 * ((size_t)y * n + x);
			p[0] = (uint8_t)(x * 255 / (n - 1));
			p[1] = (uint8_t)(y * 255 / (n - 1));
			p[2] = (uint8_t)((x ^ y) & 0xff);
			p[3] = ((x / 8 + y / 8) & 1) ? 0xc0 : 0x40;
		}
	for (unsigned l = 0; n >= 1; l++) {
		gl->TexImage2D(GL_TEXTURE_2D, (GLint)l, GL_RGBA8, (GLsizei)n, (GLsizei)n, 0, GL_RGBA,
			       GL_UNSIGNED_BYTE, img);
		if (n == 1)
			break;
		unsigned m = n / 2;
		for (unsigned y = 0; y < m; y++)
			for (unsigned x = 0; x < m; x++)
				for (unsigned c = 0; c < 4; c++) {
					const uint8_t *s = img + 4 * ((size_t)2 * y * n + 2 * x) + c;
					unsigned v = s[0] + s[4] + s[4 * n] + s[4 * n + 4];
					next[4 * ((size_t)y * m + x) + c] = (uint8_t)((v + 2) / 4);
				}
		uint8_t *t = img;
		img = next;
		next = t;
		n = m;
	}
	free(img);
	free(next);
}

static uint32_t fl_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = ~0u;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c >> 1 ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

static void fl_frame(struct glc_gl *gl, unsigned layers)
{
	static const GLfloat quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	gl->Clear(GL_COLOR_BUFFER_BIT);
	gl->VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	gl->EnableVertexAttribArray(0);
	for (unsigned i = 0; i < layers; i++)
		gl->DrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

static int fl_child(const char *renderer, unsigned n, unsigned layers, unsigned w, unsigned h)
{
	struct glc_opts o = { .prog = "fill", .renderer = renderer, .timeout = 1200 };
	struct glc_egl e;
	struct glc_gl gl;
	GLuint fbo, rb, tex;

	glc_start(&o);
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
					       NULL);
	if (glc_egl_context(&e, dpy, 0, 0) < 0 || glc_gl_load(&gl, 0) < 0 ||
	    !glc_check_renderer(&gl, &o))
		return 1;

	gl.GenFramebuffers(1, &fbo);
	gl.BindFramebuffer(GL_FRAMEBUFFER, fbo);
	gl.GenRenderbuffers(1, &rb);
	gl.BindRenderbuffer(GL_RENDERBUFFER, rb);
	gl.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, (GLsizei)w, (GLsizei)h);
	gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	GLenum st = gl.CheckFramebufferStatus(GL_FRAMEBUFFER);
	if (st != GL_FRAMEBUFFER_COMPLETE) {
		printf("error: framebuffer incomplete (0x%04x)\n", st);
		return 1;
	}

	GLuint vs = glc_shader(&gl, GL_VERTEX_SHADER, fl_vs);
	GLuint fs = glc_shader(&gl, GL_FRAGMENT_SHADER, fl_fs);
	GLuint prog = gl.CreateProgram();
	GLint linked = 0;
	gl.AttachShader(prog, vs);
	gl.AttachShader(prog, fs);
	gl.BindAttribLocation(prog, 0, "pos");
	gl.LinkProgram(prog);
	gl.GetProgramiv(prog, GL_LINK_STATUS, &linked);
	gl.DeleteShader(vs);
	gl.DeleteShader(fs);
	if (!linked) {
		printf("error: the program does not link\n");
		return 1;
	}
	gl.UseProgram(prog);
	gl.Uniform1i(gl.GetUniformLocation(prog, "tex"), 0);

	gl.GenTextures(1, &tex);
	gl.BindTexture(GL_TEXTURE_2D, tex);
	fl_texture(&gl);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
	gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);

	gl.Viewport(0, 0, (GLsizei)w, (GLsizei)h);
	void (*blend_func)(GLenum, GLenum);
	void *bf = glc_proc("glBlendFunc", NULL);
	if (!bf) {
		printf("error: no glBlendFunc\n");
		return 1;
	}
	memcpy(&blend_func, &bf, sizeof(bf));
	gl.Enable(GL_BLEND);
	blend_func(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	gl.ClearColor(0.1f, 0.2f, 0.3f, 1.0f);

	double t0 = glc_now();
	do {
		fl_frame(&gl, 1);
		gl.Finish();
	} while (glc_now() - t0 < GLB_WARMUP_S);
	t0 = glc_now();
	for (unsigned i = 0; i < n; i++) {
		fl_frame(&gl, layers);
		gl.Finish();
	}
	double t = glc_now() - t0;

	uint8_t *img = malloc((size_t)w * h * 4);
	uint32_t crc = 0;
	if (img) {
		gl.PixelStorei(GL_PACK_ALIGNMENT, 4);
		gl.ReadPixels(0, 0, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, img);
		crc = fl_crc32(img, (size_t)w * h * 4);
		free(img);
	}
	GLenum err = gl.GetError();
	gl.DeleteTextures(1, &tex);
	gl.DeleteProgram(prog);
	gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
	gl.DeleteFramebuffers(1, &fbo);
	gl.DeleteRenderbuffers(1, &rb);
	glc_egl_fini(&e);
	if (err != GL_NO_ERROR) {
		printf("error: GL error 0x%04x\n", err);
		return 1;
	}
	double pix = (double)w * h * layers * n;
	printf("crc: %08x\n", crc);
	printf("result: %u frames in %.3f s = %.3f Mpix/s\n", n, t, t > 0 ? pix / t / 1e6 : 0.0);
	return 0;
}

/* ---- the parent ---- */

enum { FL_LLVMPIPE, FL_NVD, FL_MODES };
static const char *const fl_mode_name[FL_MODES] = { "llvmpipe", "nvd" };
static const char *const fl_mode_renderer[FL_MODES] = { "llvmpipe", "NV4" };

struct fl_run {
	double mpix;               /* < 0: no figure */
	double secs;
	uint32_t crc;
	char renderer[128];
	char why[160];
};

static int fl_line(void *arg, const char *text)
{
	struct fl_run *r = arg;
	double v, s;
	unsigned c;
	if (sscanf(text, "crc: %x", &c) == 1)
		r->crc = c;
	else if (sscanf(text, "result: %*u frames in %lf s = %lf Mpix/s", &s, &v) == 2) {
		r->secs = s;
		r->mpix = v;
	} else
		return 0;
	return 1;
}

static void fl_print(const char *what, const struct fl_run *r)
{
	if (r->mpix >= 0)
		printf("  %-9s %9.3f Mpix/s  (%.2f s)  crc %08x   (%s)\n", what, r->mpix, r->secs,
		       r->crc, r->renderer);
	else
		printf("  %-9s   no figure: %s%s%s\n", what, r->why[0] ? r->why : "failed",
		       r->renderer[0] ? "; renderer " : "", r->renderer);
}

static void fl_usage(FILE *f)
{
	fprintf(f,
		"usage: fill [-n N] [-l LAYERS] [-g WxH] [-s PATH] [-m MODES]\n"
		"  -n, --frames N      frames per run (default %d)\n"
		"  -l, --layers N      full-screen quads per frame (default %d)\n"
		"  -g, --size WxH      framebuffer size (default 1024x768)\n"
		"  -s, --socket PATH   use a running nvd (default: start one, $NVD_BIN or\n"
		"                      ../bin/nvd beside this program)\n"
		"  -m, --modes LIST    comma-separated of nvd,llvmpipe (default both)\n"
		"      --sim-check     run the nvd it starts with --sim-check (what the\n"
		"                      access oracle costs)\n"
		"  -h, --help          show this help\n"
		"      --version       show the version\n",
		FL_FRAMES_DEFAULT, FL_LAYERS_DEFAULT);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "frames", required_argument, 0, 'n' }, { "layers", required_argument, 0, 'l' },
		{ "size", required_argument, 0, 'g' },   { "socket", required_argument, 0, 's' },
		{ "modes", required_argument, 0, 'm' },  { "child", required_argument, 0, 'c' },
		{ "sim-check", no_argument, 0, 'K' },
		{ "help", no_argument, 0, 'h' },         { "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	unsigned n = FL_FRAMES_DEFAULT, layers = FL_LAYERS_DEFAULT, w = 1024, h = 768;
	unsigned modes = (1u << FL_MODES) - 1;
	const char *sock = NULL, *child = NULL;
	int c;

	argv[0] = program_invocation_short_name;   /* getopt's messages: "fill: ...", not a path */
	while ((c = getopt_long(argc, argv, "n:l:g:s:m:h", lo, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (glb_parse_count("--frames", optarg, 1, 100000, &n) < 0)
				return 2;
			break;
		case 'l':
			if (glb_parse_count("--layers", optarg, 1, 10000, &layers) < 0)
				return 2;
			break;
		case 'g':
			if (glb_parse_size("--size", optarg, &w, &h) < 0)
				return 2;
			break;
		case 's': sock = optarg; break;
		case 'K': glb_sim_check = 1; break;
		case 'c': child = optarg; break;
		case 'm':
			if (glb_parse_modes("--modes", optarg, fl_mode_name, FL_MODES, &modes) < 0)
				return 2;
			break;
		default: return glb_other_option(c, fl_usage);
		}
	}
	if (optind != argc)
		return glb_bad_usage("unexpected argument '%s'", argv[optind]);
	if (child)
		return fl_child(child, n, layers, w, h);

	struct nvt_paths at;
	char nbuf[16], lbuf[16], gbuf[32];
	if (nvt_paths(&at, "../bin") < 0) {
		fprintf(stderr, "fill: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	snprintf(nbuf, sizeof(nbuf), "%u", n);
	snprintf(lbuf, sizeof(lbuf), "%u", layers);
	snprintf(gbuf, sizeof(gbuf), "%ux%u", w, h);

	struct nvt_daemon d;
	int own;
	const char *nvd_why = glb_daemon_start(&d, &sock, !!(modes & 1u << FL_NVD), at.nvd_run,
					       NULL, &own);

	printf("textured blended fill, %s, %u layers x %u frames after %.1f s of warm-up, %ux%u "
	       "RGBA8 texture, LINEAR_MIPMAP_LINEAR\n", gbuf, layers, n, GLB_WARMUP_S, FL_TEX, FL_TEX);
	struct fl_run r[FL_MODES];
	for (unsigned m = 0; m < FL_MODES; m++) {
		memset(&r[m], 0, sizeof(r[m]));
		r[m].mpix = -1;
		if (!(modes & 1u << m))
			continue;
		if (m == FL_NVD && nvd_why) {
			snprintf(r[m].why, sizeof(r[m].why), "%s", nvd_why);
		} else {
			const char *argv_hw[] = { at.nvd_run, "--socket", sock, at.self, "--child",
						  fl_mode_renderer[m], "-n", nbuf, "-l", lbuf, "-g",
						  gbuf, NULL };
			const char *const *av = m == FL_NVD ? argv_hw : argv_hw + 3;
			if (glb_run(av, m != FL_NVD, NULL, 1800 * 1000, fl_line, &r[m], r[m].renderer,
				    sizeof(r[m].renderer), r[m].why, sizeof(r[m].why)) != 0)
				r[m].mpix = -1;
		}
		fl_print(fl_mode_name[m], &r[m]);
	}
	if ((modes & 1u << FL_NVD) && (modes & 1u << FL_LLVMPIPE)) {
		if (r[FL_LLVMPIPE].mpix > 0 && r[FL_NVD].mpix >= 0)
			printf("  ratio nvd/llvmpipe: %.4f\n", r[FL_NVD].mpix / r[FL_LLVMPIPE].mpix);
		else
			printf("  ratio nvd/llvmpipe: n/a\n");
	}
	glb_daemon_stop(&d, own);
	return 0;
}
