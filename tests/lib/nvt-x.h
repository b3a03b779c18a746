/* nvt-x: X servers in tests.
 *
 *  - Xorg on nvd (nvd-x, found in $NVD_TOOLS or beside the test) or Xvfb,
 *    on the first free display from :20 up (a lock file left by a server
 *    that is gone is removed), in its own process group,
 *    its log in a fresh temporary directory; it dies with the test;
 *  - X clients run with DISPLAY set, their stdout captured, with a time
 *    limit;
 *  - readers for what xwd, xrandr -q and xdpyinfo print.
 *
 * Like nvt.h, no cmocka here: functions return 0 (or a value) or -errno
 * and say why on stderr. */
#ifndef NVT_X_H
#define NVT_X_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct nvt_x {
	pid_t pid;                 /* 0 before start and after cleanup */
	int reaped;                /* it has exited and been waited for */
	int status;                /* its waitpid status then */
	int xvfb;
	unsigned display;          /* N */
	char name[16];             /* ":N", for DISPLAY */
	char dir[64];              /* temporary directory */
	char log[128];             /* the server's log (Xorg's -logfile; Xvfb's stderr) */
	char out[128];             /* Xorg's (and nvd-x's) stdout and stderr */
	char sock[64];             /* /tmp/.X11-unix/XN */
	char lock[64];             /* /tmp/.XN-lock */
};

/* Xorg on nvd: $NVD_TOOLS/nvd-x --socket nvd_sock --logfile <dir>/Xorg.log
 * :N [-- extra...] (extra NULL-terminated, may be NULL); waits (10 s) until
 * the server completes an X connection setup on its socket (a bare connect
 * succeeds before Xorg has screens).  On failure the log's tail is printed
 * and nothing is left running.  0 or -errno. */
int nvt_x_start(struct nvt_x *x, const char *nvd_sock, const char *const *extra);
/* The same with nvd-x --config CONFIG (another xorg.conf, another driver). */
int nvt_x_start_config(struct nvt_x *x, const char *nvd_sock, const char *config,
		       const char *const *extra);
/* Xvfb :N -screen 0 SCREEN ("320x240x24") -noreset -nolisten tcp [extra...]. */
int nvt_xvfb_start(struct nvt_x *x, const char *screen, const char *const *extra);
/* 1 while the server process has not exited. */
int nvt_x_alive(struct nvt_x *x);
/* An xorg.conf for Xorg's dummy driver (software only) at path: the
 * headless flags of ddx/xorg.conf, video memory for a w x h screen of
 * depth 24, a monitor that takes any mode; for nvt_x_start_config.  The
 * baseline the benches measure nvd_drv.so against.  0 or -errno. */
int nvt_x_dummy_conf(const char *path, unsigned w, unsigned h);
/* SIGTERM, wait (5 s, then SIGKILL); 0 when it exited with status 0 on
 * SIGTERM.  Prints the log's tail otherwise. */
int nvt_x_stop(struct nvt_x *x);
/* SIGKILL its process group now, reap it, remove the socket and lock file
 * it could not. */
void nvt_x_kill(struct nvt_x *x);
/* The last lines of the server's log (and of its stderr when there is no
 * log: nvd-x failed before Xorg ran). */
void nvt_x_print_log(const struct nvt_x *x);
/* Whether the log holds the text. */
int nvt_x_log_contains(const struct nvt_x *x, const char *text);
/* Kill a server still running and remove the directory; again is a no-op. */
void nvt_x_cleanup(struct nvt_x *x);

/* Run argv (searched in PATH) with DISPLAY=x->name, stdin /dev/null, stderr
 * the test's; stdout in *out (malloc'd, *len bytes plus a NUL not counted)
 * when out is not NULL, else /dev/null.  len may be NULL.  Killed after
 * 30 s.  Returns its exit status, 128+signal when it was killed by one,
 * -ETIMEDOUT, or -errno when it could not be started (-ENOENT: no such
 * program). */
int nvt_x_run(const struct nvt_x *x, const char *const *argv, char **out, size_t *len);

/* x11perf ARGS (NULL-terminated) on the server, its stderr with its
 * stdout (in *out, malloc'd, when out is not NULL), within nvt_x_run's time
 * limit.  *rate: the objects per second of its last result line ("N reps @
 * T msec (R/sec): ..."), 0 when there is none.  Returns as nvt_x_run. */
int nvt_x_x11perf(const struct nvt_x *x, const char *const *args, char **out, double *rate);

/* ---- xwd ---- */

/* Parse an XWD file (`xwd -root -silent`): the header's 25 big-endian
 * CARD32s (header_size counts the window name after them), ncolors
 * 12-byte XWDColors, then a ZPixmap of 24 or 32 bits per pixel in the
 * header's byte order, bytes_per_line apart, channels where the masks say.
 * *pixels: *w x *h XRGB8888 (malloc'd).  -EINVAL for a malformed file
 * (said why), -ENOTSUP for a format not handled. */
int nvt_xwd_parse(const uint8_t *data, size_t len, uint32_t **pixels, unsigned *w,
		  unsigned *h);
/* The same from a file. */
int nvt_xwd_read(const char *path, uint32_t **pixels, unsigned *w, unsigned *h);
/* xwd -root -silent on the server, parsed. */
int nvt_x_screenshot(const struct nvt_x *x, uint32_t **pixels, unsigned *w, unsigned *h);

/* Compare sub (sw x sh) with the area of img (iw x ih) at (x0, y0), pixel
 * for pixel (XRGB, the X byte ignored).  Returns how many differ (the area
 * outside img counts as different) and, when some do, prints under `what`
 * their count, the rectangle that holds them and the first few. */
unsigned nvt_x_cmp_area(const uint32_t *img, unsigned iw, unsigned ih, unsigned x0,
			unsigned y0, const uint32_t *sub, unsigned sw, unsigned sh,
			const char *what);

/* ---- a known picture on the root window ---- */

/* A two-colour tile the root background repeats from (0, 0): w x h bits
 * (set: fg), rows of (w + 7) / 8 bytes, leftmost pixel in bit 0 (XBM). */
#define NVT_X_TILE_MAX 64
struct nvt_x_tile {
	unsigned w, h;
	uint32_t fg, bg;           /* 0xRRGGBB */
	uint8_t bits[NVT_X_TILE_MAX * NVT_X_TILE_MAX / 8];
};
/* A w x h tile of pseudo-random bits from seed (w, h up to 64; odd sizes
 * catch offsets that a power of two would hide). */
void nvt_x_tile_make(struct nvt_x_tile *t, unsigned w, unsigned h, uint32_t seed, uint32_t fg,
		     uint32_t bg);
/* What the root shows at (x, y). */
uint32_t nvt_x_tile_pixel(const struct nvt_x_tile *t, unsigned x, unsigned y);
/* xsetroot -bitmap <dir>/tile.xbm -fg -bg: the tile on the root. */
int nvt_x_set_root_tile(const struct nvt_x *x, const struct nvt_x_tile *t);

/* The root window's cursor made fully transparent (xsetroot -cursor with an
 * empty mask): a head's picture is then the root's, pixel for pixel,
 * wherever the pointer is. */
int nvt_x_hide_root_cursor(const struct nvt_x *x);

/* ---- xrandr -q and xdpyinfo ---- */

#define NVT_XRANDR_OUTPUTS 16
#define NVT_XRANDR_MODES   64

struct nvt_xrandr_mode {
	unsigned w, h;
	int current;               /* '*' on one of its rates */
	int preferred;             /* '+' on one of its rates */
};

struct nvt_xrandr_output {
	char name[32];
	int connected;
	int active;                /* it shows a mode: the geometry below is set */
	unsigned w, h;
	int x, y;
	unsigned nmodes;           /* distinct sizes, in xrandr's order */
	struct nvt_xrandr_mode modes[NVT_XRANDR_MODES];
};

struct nvt_xrandr {
	unsigned screen_w, screen_h;           /* "current" */
	unsigned min_w, min_h, max_w, max_h;
	unsigned noutputs;
	struct nvt_xrandr_output out[NVT_XRANDR_OUTPUTS];
};

/* Parse what `xrandr -q` prints.  0, or -EINVAL with the line said. */
int nvt_xrandr_parse(const char *text, struct nvt_xrandr *r);
/* Run xrandr -q on the server and parse it. */
int nvt_x_xrandr(const struct nvt_x *x, struct nvt_xrandr *r);
/* The output called name, or NULL. */
const struct nvt_xrandr_output *nvt_xrandr_output(const struct nvt_xrandr *r, const char *name);

/* xdpyinfo's root window size and depth (of screen 0). */
int nvt_x_dpyinfo(const struct nvt_x *x, unsigned *w, unsigned *h, unsigned *depth);

#endif
