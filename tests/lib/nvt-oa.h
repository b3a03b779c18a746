/* nvt-oa: OpenArena's shipped timedemo (demo088-test1), played offscreen
 * through SDL's EGL "offscreen" video driver, under nvd-run or on llvmpipe;
 * for tests/gl/test_openarena and bench/openarena.
 *
 * Each run gets its own HOME (the game writes its config and screenshots
 * there) and its own process group, killed whole on a timeout: the engine
 * can hang in its GL shutdown on SIGTERM.  A screenshot at a demo frame is
 * taken by the game itself (`wait N; screenshot`), so it is the same frame
 * on every renderer. */
#ifndef NVT_OA_H
#define NVT_OA_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#define NVT_OA_GAME   "/usr/games/openarena"
#define NVT_OA_FRAMES 3398     /* demo088-test1 from start to end */

struct nvt_oa {
	pid_t pid;                 /* its process group too */
	char home[PATH_MAX];
	char log[PATH_MAX];        /* the game's stdout and stderr */
	char shot[PATH_MAX + 64];  /* where its screenshot lands */
};

struct nvt_oa_opts {
	const char *nvd_run;       /* NULL: llvmpipe */
	const char *sock;          /* nvd's socket, with nvd_run */
	unsigned width, height;
	unsigned shot_frame;       /* 0: no screenshot */
	int whole;                 /* play to the end; else quit after the shot */
};

/* Starts a run with its HOME in dir/tag (created), its output in
 * dir/tag.log; a screenshot of an earlier run there is removed. */
int nvt_oa_spawn(struct nvt_oa *r, const char *dir, const char *tag,
		 const struct nvt_oa_opts *o);
/* Waits for it at most timeout_ms, then kills its process group: its exit
 * code, 128+signal, or -ETIMEDOUT. */
int nvt_oa_wait(struct nvt_oa *r, int timeout_ms);

struct nvt_oa_result {
	unsigned frames;           /* of the timedemo line, 0 when missing */
	double seconds, fps;
	char renderer[128];        /* the game's GL_RENDERER line */
	char error[160];           /* its first "ERROR:" line, if any */
};
/* Reads what the game printed. */
void nvt_oa_result(const struct nvt_oa *r, struct nvt_oa_result *res);

/* An uncompressed 24- or 32-bit TGA (what the game's `screenshot` writes)
 * as RGB rows top-down; malloc'd, NULL with errno on a bad file. */
uint8_t *nvt_tga_read(const char *path, unsigned *w, unsigned *h);

#endif
