/* The live view (nvd --vnc) through a real nvd and a small RFB 3.8 viewer
 * (tests/lib/nvt-rfb.c): the desktop is the heads side by side, each pixel
 * the one `nvdctl screenshot` gives, hardware cursors included; a change
 * comes as the changed tiles only; a mode change resizes the desktop and a
 * head turned off leaves black; keyboard and pointer events are dropped;
 * four viewers at most, each with 10 s to authenticate; a port in use
 * stops nvd before it listens on its socket;
 * an address other than loopback is refused without a password and asks
 * for VNC authentication with one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <png.h>
#include <netinet/in.h>
#include <poll.h>

#include "hw/ramin.h"
#include "tests/lib/nvt-rfb.h"
#include "tests/lib/nvt-test.h"

#define TILE 64

static char vnc_loopback[32], vnc_any[32], password_file[64];
static const char *const args_loopback[] = { "--vnc", vnc_loopback, NULL };
static const char *const args_password[] = { "--vnc", vnc_any, "--vnc-password-file",
					      password_file, NULL };
static uint16_t port;

struct head_fb {
	struct nvc_bo *bo;
	uint8_t *map;
	uint32_t fb, w, h;
};

static struct nvc *master(void **state)
{
	struct nvc *c;
	if (nvc_connect(nvt_d(state)->sock, "vnc-test", &c) < 0)
		fail_msg("connect: %s", nvc_error());
	NVT_OK(nvc_set_master(c));
	return c;
}

static uint32_t pixel(unsigned head, uint32_t x, uint32_t y)
{
	uint32_t v = (x * 2654435761u) ^ (y * 40503u) ^ (head * 0x9e3779b9u);
	return (v ^ v >> 13) & 0xffffff;
}

/* A w x h XRGB8888 framebuffer of pixel(seed, ...). */
static void make_fb(struct nvc *c, unsigned seed, uint32_t w, uint32_t h, struct head_fb *f)
{
	NVT_OK(nvc_bo_new(c, (uint64_t)w * h * 4, NVC_VRAM, &f->bo));
	f->map = nvc_bo_map(f->bo);
	assert_non_null(f->map);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)   /* X is not shown */
			nv_wr32le(f->map + ((size_t)y * w + x) * 4, pixel(seed, x, y) | 0xa5u << 24);
	NVT_OK(nvc_fb_new(c, f->bo, 0, w, h, w * 4, NVC_FB_XRGB8888, &f->fb));
	f->w = w;
	f->h = h;
}

/* The head shows f (made for it at w x h if it has no buffer yet) at
 * w x h@60. */
static void show(struct nvc *c, unsigned head, uint32_t w, uint32_t h, struct head_fb *f)
{
	struct nvc_output o;
	struct nvc_mode m;
	unsigned i;

	NVT_OK(nvc_disp_output(c, head, &o));
	for (i = 0; i < o.nmodes; i++) {
		NVT_OK(nvc_disp_mode(c, head, i, &m));
		if (m.hdisplay == w && m.vdisplay == h)
			break;
	}
	if (i == o.nmodes)
		fail_msg("output %u has no %ux%u", head, w, h);
	if (!f->bo)
		make_fb(c, head, w, h, f);
	struct nvc_head hd = { .fb = f->fb, .outputs = 1u << head, .mode = m };
	NVT_OK(nvc_disp_set_head(c, head, &hd));
}

static void fill(struct head_fb *f, uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t v)
{
	for (uint32_t j = y; j < y + h; j++)
		for (uint32_t i = x; i < x + w; i++)
			nv_wr32le(f->map + ((size_t)j * f->w + i) * 4, v);
}

static void cursor(struct nvc *c, unsigned head, struct nvc_bo **bo, int x, int y)
{
	NVT_OK(nvc_bo_new(c, NVC_CURSOR_SIZE * NVC_CURSOR_SIZE * 4, NVC_GART, bo));
	uint8_t *map = nvc_bo_map(*bo);
	assert_non_null(map);
	for (uint32_t j = 0; j < NVC_CURSOR_SIZE; j++)
		for (uint32_t i = 0; i < NVC_CURSOR_SIZE; i++) {
			uint32_t a = (i * 5 + j * 3) & 255, r = a * i / 63, g = a * j / 63;
			nv_wr32le(map + (j * NVC_CURSOR_SIZE + i) * 4, a << 24 | r << 16 | g << 8 | a / 3);
		}
	NVT_OK(nvc_disp_cursor_move(c, head, x, y));
	NVT_OK(nvc_disp_cursor_set(c, head, *bo, 0));
}

/* `nvdctl screenshot HEAD` as pixels 0x00RRGGBB. */
static uint32_t *nvdctl_screenshot(void **state, unsigned head, uint32_t *w, uint32_t *h)
{
	const char *tools = getenv("NVD_TOOLS");
	char nvdctl[PATH_MAX], png[128], hs[4], out[256], err[1024];
	snprintf(nvdctl, sizeof(nvdctl), "%s/nvdctl", tools ? tools : "build/bin");
	snprintf(png, sizeof(png), "%s/head%u.png", nvt_d(state)->dir, head);
	snprintf(hs, sizeof(hs), "%u", head);
	const char *const argv[] = { nvdctl, "--socket", nvt_d(state)->sock, "screenshot", hs, png,
				     NULL };
	if (nvt_run(argv, out, sizeof(out), err, sizeof(err), 10000))
		fail_msg("nvdctl screenshot %u: %s", head, err);
	png_image im = { .version = PNG_IMAGE_VERSION };
	assert_true(png_image_begin_read_from_file(&im, png));
	im.format = PNG_FORMAT_RGB;
	uint8_t *rgb = malloc(PNG_IMAGE_SIZE(im));
	uint32_t *px = malloc((size_t)im.width * im.height * 4);
	assert_non_null(rgb);
	assert_non_null(px);
	assert_true(png_image_finish_read(&im, NULL, rgb, 0, NULL));
	for (size_t i = 0; i < (size_t)im.width * im.height; i++)
		px[i] = (uint32_t)rgb[3 * i] << 16 | (uint32_t)rgb[3 * i + 1] << 8 | rgb[3 * i + 2];
	*w = im.width;
	*h = im.height;
	free(rgb);
	unlink(png);
	return px;
}

/* The desktop the viewer must see: the heads' screenshots side by side in
 * rooms of room_w[i] x room_h[i], black where a head (off: not in on) or
 * its room shows nothing. */
static uint32_t *desktop(void **state, unsigned on, const uint32_t *room_w,
			 const uint32_t *room_h, uint32_t *dw, uint32_t *dh)
{
	*dw = room_w[0] + room_w[1];
	*dh = room_h[0] > room_h[1] ? room_h[0] : room_h[1];
	uint32_t *d = calloc((size_t)*dw * *dh, 4);
	assert_non_null(d);
	for (unsigned i = 0, x0 = 0; i < NVC_DISP_HEADS; x0 += room_w[i], i++) {
		if (!(on & 1u << i))
			continue;
		uint32_t w, h, *px = nvdctl_screenshot(state, i, &w, &h);
		assert_int_equal(w, room_w[i]);
		assert_int_equal(h, room_h[i]);
		for (uint32_t y = 0; y < h; y++)
			memcpy(d + (size_t)y * *dw + x0, px + (size_t)y * w, (size_t)w * 4);
		free(px);
	}
	return d;
}

/* The first pixel where the viewer's picture differs from want, or -1. */
static long differs(const struct nvt_rfb *r, const uint32_t *want, uint32_t w, uint32_t h)
{
	if (r->width != w || r->height != h)
		return 0;
	for (size_t i = 0; i < (size_t)w * h; i++)
		if (r->px[i] != want[i])
			return (long)i;
	return -1;
}

static void assert_shows(const struct nvt_rfb *r, const uint32_t *want, uint32_t w, uint32_t h)
{
	assert_int_equal(r->width, w);
	assert_int_equal(r->height, h);
	long i = differs(r, want, w, h);
	if (i >= 0)
		fail_msg("the viewer's pixel (%ld, %ld) is 0x%06x, the screenshot's 0x%06x",
			 i % (long)w, i / (long)w, r->px[i], want[i]);
}

static void viewer(struct nvt_rfb *r)
{
	uint8_t types[16];
	unsigned n;
	NVT_OK(nvt_rfb_open(r, port, types, &n));
	assert_int_equal(n, 1);
	assert_int_equal(types[0], 1);   /* None, on loopback without a password */
	NVT_OK(nvt_rfb_init(r));
	assert_string_equal(r->name, "nvd");
}

/* Incremental updates until the viewer shows want (5 s); with boxes, every
 * pixel sent must lie in one of them (x0, y0, x1, y1 in the desktop). */
static void updates_until(struct nvt_rfb *r, const uint32_t *want, uint32_t w, uint32_t h,
			  const uint32_t (*boxes)[4], unsigned nboxes)
{
	int64_t end = nvt_now_ns() + 5000000000ll;
	while (differs(r, want, w, h) >= 0 && nvt_now_ns() < end) {
		NVT_OK(nvt_rfb_request(r, !r->resized));
		NVT_OK(nvt_rfb_update(r, 5000));
		assert_true(r->nrects < NVT_RFB_RECTS);
		for (unsigned k = 0; boxes && k < r->nrects; k++) {
			const struct nvt_rfb_rect *q = &r->rects[k];
			for (uint32_t y = q->y; y < q->y + q->h; y++)
				for (uint32_t x = q->x; x < q->x + q->w; x++) {
					unsigned b = 0;
					while (b < nboxes && !(x >= boxes[b][0] && x < boxes[b][2] &&
							       y >= boxes[b][1] && y < boxes[b][3]))
						b++;
					if (b == nboxes)
						fail_msg("an update sent %ux%u+%u+%u: pixel (%u, %u) "
							 "is in no changed tile", q->w, q->h, q->x,
							 q->y, x, y);
				}
		}
	}
	assert_shows(r, want, w, h);
}

/* The viewer, the framebuffers and the master go; nothing is left. */
static void finish(void **state, struct nvc *c, struct head_fb *f, struct nvt_rfb *r)
{
	nvt_rfb_close(r);
	free(r);
	for (unsigned i = 0; i < NVC_DISP_HEADS; i++) {
		NVT_OK(nvc_fb_free(c, f[i].fb));
		nvc_bo_free(f[i].bo);
	}
	nvc_close(c);
	nvt_end(nvt_d(state));
}

static void test_viewer_sees_both_heads_and_their_cursors(void **state)
{
	struct nvc *c = master(state);
	struct head_fb f[2] = { 0 };
	struct nvc_bo *cur0, *cur1;
	struct nvt_rfb *r = calloc(1, sizeof(*r));
	const uint32_t room_w[2] = { 1024, 800 }, room_h[2] = { 768, 600 };
	uint32_t w, h;

	assert_non_null(r);
	show(c, 0, 1024, 768, &f[0]);
	show(c, 1, 800, 600, &f[1]);
	cursor(c, 0, &cur0, 1000, 740);   /* partly off the screen */
	cursor(c, 1, &cur1, 100, 50);
	viewer(r);
	assert_int_equal(r->width, 1824);   /* head 1 to the right of head 0, as X has it */
	assert_int_equal(r->height, 768);
	uint32_t *want = desktop(state, 3, room_w, room_h, &w, &h);
	NVT_OK(nvt_rfb_request(r, 0));
	NVT_OK(nvt_rfb_update(r, 5000));
	assert_shows(r, want, w, h);
	free(want);

	/* A viewer's keyboard and pointer go nowhere. */
	const uint8_t key[8] = { 4, 1, 0, 0, 0, 0, 0, 'a' }, ptr[6] = { 5, 1, 0, 10, 0, 10 };
	NVT_OK(nvt_rfb_send(r, key, sizeof(key)));
	NVT_OK(nvt_rfb_send(r, ptr, sizeof(ptr)));

	/* Changes on both heads and a cursor that moves: only their tiles come. */
	fill(&f[0], 300, 200, 100, 40, 0x123456);
	fill(&f[1], 500, 500, 30, 30, 0xfedcba);
	NVT_OK(nvc_disp_cursor_move(c, 1, 200, 300));
	const uint32_t boxes[][4] = {
		{ 256, 192, 448, 256 },                          /* head 0's fill */
		{ 1024 + 448, 448, 1024 + 576, 576 },            /* head 1's fill */
		{ 1024 + 64, 0, 1024 + 192, 128 },               /* where its cursor was */
		{ 1024 + 192, 256, 1024 + 320, 384 },            /* and is */
	};
	want = desktop(state, 3, room_w, room_h, &w, &h);
	updates_until(r, want, w, h, boxes, 4);
	free(want);
	assert_true(nvt_log_contains(nvt_d(state), "keyboard and pointer events from viewers are ignored"));

	NVT_OK(nvc_disp_cursor_set(c, 0, NULL, 0));
	NVT_OK(nvc_disp_cursor_set(c, 1, NULL, 0));
	nvc_bo_free(cur0);
	nvc_bo_free(cur1);
	finish(state, c, f, r);
}

static void test_a_mode_change_resizes_and_a_head_off_is_black(void **state)
{
	struct nvc *c = master(state);
	struct head_fb f[2] = { 0 };
	struct nvt_rfb *r = calloc(1, sizeof(*r));
	uint32_t room_w[2] = { 1024, 800 }, room_h[2] = { 768, 600 }, w, h;

	assert_non_null(r);
	show(c, 0, 1024, 768, &f[0]);
	show(c, 1, 800, 600, &f[1]);
	viewer(r);
	uint32_t *want = desktop(state, 3, room_w, room_h, &w, &h);
	updates_until(r, want, w, h, NULL, 0);
	free(want);

	/* head 0 at 800x600: the desktop is 1600x600 */
	show(c, 0, 800, 600, &f[0]);
	room_w[0] = 800;
	room_h[0] = 600;
	want = desktop(state, 3, room_w, room_h, &w, &h);
	assert_int_equal(w, 1600);
	updates_until(r, want, w, h, NULL, 0);
	free(want);

	/* a page flip on head 0 */
	struct head_fb back = { 0 };
	make_fb(c, 2, 1024, 768, &back);   /* the same pitch: only the start moves */
	NVT_OK(nvc_disp_page_flip(c, 0, back.fb, 7));
	want = desktop(state, 3, room_w, room_h, &w, &h);
	updates_until(r, want, w, h, NULL, 0);
	free(want);

	/* head 1 off: its room stays, black */
	struct nvc_head off = { 0 };
	NVT_OK(nvc_disp_set_head(c, 1, &off));
	want = desktop(state, 1, room_w, room_h, &w, &h);
	updates_until(r, want, w, h, NULL, 0);
	free(want);

	NVT_OK(nvc_fb_free(c, back.fb));
	nvc_bo_free(back.bo);
	finish(state, c, f, r);
}

/* Whether the server closes the connection within timeout_ms. */
static int closed_by_server(struct nvt_rfb *r, int timeout_ms)
{
	char c;
	struct pollfd p = { .fd = r->fd, .events = POLLIN };
	return poll(&p, 1, timeout_ms) == 1 && recv(r->fd, &c, 1, 0) <= 0;
}

static void test_four_viewers_each_given_10_s_to_authenticate(void **state)
{
	struct nvt_rfb r[5];
	uint8_t types[16];
	unsigned n;

	for (unsigned i = 0; i < 4; i++)   /* they never choose a security type */
		NVT_OK(nvt_rfb_open(&r[i], port, types, &n));
	NVT_FAILS(nvt_rfb_open(&r[4], port, types, &n));   /* a fifth is refused at once */
	nvt_rfb_close(&r[4]);
	assert_true(nvt_log_contains(nvt_d(state), "a viewer refused: 4 are connected already"));
	for (unsigned i = 0; i < 4; i++) {
		assert_true(closed_by_server(&r[i], 15000));
		nvt_rfb_close(&r[i]);
	}
	assert_true(nvt_log_contains(nvt_d(state), "did not authenticate in 10 s"));
	viewer(&r[0]);
	nvt_rfb_close(&r[0]);
	nvt_end(nvt_d(state));
}

static void test_other_addresses_need_a_password(void **state)
{
	(void)state;
	const char *bin = getenv("NVD_BIN");
	char out[256], err[1024];
	const char *const argv[] = { bin ? bin : "build/bin/nvd", "--socket", "/nonexistent/x",
				     "--vnc", vnc_any, NULL };
	assert_int_equal(nvt_run(argv, out, sizeof(out), err, sizeof(err), 10000), 2);
	if (!strstr(err, "viewers from other hosts must give a password") ||
	    !strstr(err, "--vnc-password-file"))
		fail_msg("nvd --vnc %s said: %s", vnc_any, err);
}

static void test_a_port_in_use_is_an_error(void **state)
{
	(void)state;
	const char *bin = getenv("NVD_BIN");
	char out[256], err[1024], sock[64];
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
	assert_true(fd >= 0);   /* the last nvd's connections may linger in TIME_WAIT */
	assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)), 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(fd, 1), 0);
	snprintf(sock, sizeof(sock), "/tmp/nvd-vnc-test.%d.sock", (int)getpid());
	const char *const argv[] = { bin ? bin : "build/bin/nvd", "--socket", sock, "--vnc",
				     vnc_loopback, NULL };
	assert_int_equal(nvt_run(argv, out, sizeof(out), err, sizeof(err), 20000), 1);
	if (!strstr(err, "VNC: cannot listen on 127.0.0.1:"))
		fail_msg("nvd --vnc %s said: %s", vnc_loopback, err);
	assert_int_equal(access(sock, F_OK), -1);   /* it stopped before its socket */
	close(fd);
}

static void test_with_a_password_only_vnc_authentication(void **state)
{
	struct nvt_rfb r;
	uint8_t types[16], challenge[16], result[8], answer[16] = { 0 }, vnc_auth = 2;
	char reason[64] = "";
	unsigned n;

	NVT_OK(nvt_rfb_open(&r, port, types, &n));
	assert_int_equal(n, 1);
	assert_int_equal(types[0], 2);   /* VNC authentication, never None */
	NVT_OK(nvt_rfb_send(&r, &vnc_auth, 1));
	NVT_OK(nvt_rfb_recv(&r, challenge, 16, 5000));
	NVT_OK(nvt_rfb_send(&r, answer, 16));   /* not the password's */
	NVT_OK(nvt_rfb_recv(&r, result, 8, 5000));
	assert_int_equal(result[3], 1);         /* failed */
	uint32_t len = (uint32_t)result[4] << 24 | result[5] << 16 | result[6] << 8 | result[7];
	assert_true(len < sizeof(reason));
	NVT_OK(nvt_rfb_recv(&r, reason, len, 5000));
	assert_non_null(strstr(reason, "password check failed"));
	nvt_rfb_close(&r);
	nvt_end(nvt_d(state));
}

int main(void)
{
	port = nvt_rfb_free_port();
	assert_true(port != 0);
	snprintf(vnc_loopback, sizeof(vnc_loopback), "127.0.0.1:%u", port);
	snprintf(vnc_any, sizeof(vnc_any), "0.0.0.0:%u", port);
	snprintf(password_file, sizeof(password_file), "/tmp/nvd-vnc-test.%d", (int)getpid());
	int pw = open(password_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(pw >= 0);
	assert_int_equal(write(pw, "sesame\n", 7), 7);
	close(pw);
	const struct CMUnitTest tests[] = {
		NVT_TEST_ARGS(test_viewer_sees_both_heads_and_their_cursors, args_loopback),
		NVT_TEST_ARGS(test_a_mode_change_resizes_and_a_head_off_is_black, args_loopback),
		NVT_TEST_ARGS(test_four_viewers_each_given_10_s_to_authenticate, args_loopback),
		cmocka_unit_test(test_other_addresses_need_a_password),
		cmocka_unit_test(test_a_port_in_use_is_an_error),
		NVT_TEST_ARGS(test_with_a_password_only_vnc_authentication, args_password),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(password_file);
	return failed;
}
