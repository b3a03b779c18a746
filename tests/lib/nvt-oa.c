/* nvt-oa: OpenArena's timedemo offscreen (see nvt-oa.h). */
#include "tests/lib/nvt-oa.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/nvt.h"

int nvt_oa_spawn(struct nvt_oa *r, const char *dir, const char *tag,
		 const struct nvt_oa_opts *o)
{
	char size[2][16], wait[16];
	const char *argv[64];
	unsigned n = 0;

	memset(r, 0, sizeof(*r));
	snprintf(r->home, sizeof(r->home), "%s/%s", dir, tag);
	snprintf(r->log, sizeof(r->log), "%s/%s.log", dir, tag);
	snprintf(r->shot, sizeof(r->shot), "%s/.openarena/baseoa/screenshots/shot0000.tga",
		 r->home);
	if (mkdir(r->home, 0755) < 0 && errno != EEXIST)
		return -errno;
	unlink(r->shot);
	snprintf(size[0], sizeof(size[0]), "%u", o->width);
	snprintf(size[1], sizeof(size[1]), "%u", o->height);
	snprintf(wait, sizeof(wait), "%u", o->shot_frame);

	if (o->nvd_run) {
		argv[n++] = o->nvd_run;
		argv[n++] = "--socket";
		argv[n++] = o->sock;
	}
	static const char *const game[] = {
		NVT_OA_GAME, "+set", "fs_game", "baseoa",
		"+set", "com_hunkmegs", "256",     /* the demo's map needs it */
		"+set", "s_initsound", "0", "+set", "cl_renderer", "opengl1",
		"+set", "r_fullscreen", "0", "+set", "r_mode", "-1",
		"+set", "com_maxfps", "0", "+set", "r_swapInterval", "0",
		/* these follow wall-clock time, not the demo's */
		"+set", "cg_lagometer", "0", "+set", "con_notifytime", "0",
		"+set", "nextdemo", "quit", "+set", "timedemo", "1",
	};
	for (size_t i = 0; i < sizeof(game) / sizeof(game[0]); i++)
		argv[n++] = game[i];
	argv[n++] = "+set";
	argv[n++] = "r_customwidth";
	argv[n++] = size[0];
	argv[n++] = "+set";
	argv[n++] = "r_customheight";
	argv[n++] = size[1];
	argv[n++] = "+demo";
	argv[n++] = "demo088-test1";
	if (o->shot_frame) {
		argv[n++] = "+wait";
		argv[n++] = wait;
		argv[n++] = "+screenshot";
		if (!o->whole)
			argv[n++] = "+quit";
	}
	argv[n] = NULL;

	/* the child inherits these; nvt_spawn_gl picks the renderer */
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	setenv("HOME", r->home, 1);
	setenv("SDL_VIDEODRIVER", "offscreen", 1);
	pid_t pid = nvt_spawn_gl(argv, !o->nvd_run, r->log);
	if (home) {
		setenv("HOME", home, 1);
		free(home);
	} else {
		unsetenv("HOME");
	}
	unsetenv("SDL_VIDEODRIVER");
	if (pid < 0)
		return (int)pid;
	r->pid = pid;
	return 0;
}

int nvt_oa_wait(struct nvt_oa *r, int timeout_ms)
{
	int code;
	for (int left = timeout_ms; left > 0; left -= 20) {
		if (nvt_child_done(r->pid, &code))
			return code;
		nanosleep(&(struct timespec){ 0, 20 * 1000000 }, NULL);
	}
	fprintf(stderr, "nvt-oa: %s still runs after %d ms: killed\n", r->home, timeout_ms);
	kill(-r->pid, SIGKILL);
	nvt_wait_child(r->pid, 5000);
	return -ETIMEDOUT;
}

void nvt_oa_result(const struct nvt_oa *r, struct nvt_oa_result *res)
{
	char line[1024];
	FILE *f = fopen(r->log, "r");

	memset(res, 0, sizeof(*res));
	while (f && fgets(line, sizeof(line), f)) {
		unsigned frames;
		double s, fps;
		line[strcspn(line, "\r\n")] = 0;
		if (sscanf(line, "%u frames %lf seconds %lf fps", &frames, &s, &fps) == 3) {
			res->frames = frames;
			res->seconds = s;
			res->fps = fps;
		} else if (!strncmp(line, "GL_RENDERER: ", 13)) {
			snprintf(res->renderer, sizeof(res->renderer), "%.127s", line + 13);
		} else if (!res->error[0] && strstr(line, "ERROR:")) {
			snprintf(res->error, sizeof(res->error), "%.159s", line);
		}
	}
	if (f)
		fclose(f);
}

uint8_t *nvt_tga_read(const char *path, unsigned *w, unsigned *h)
{
	FILE *f = fopen(path, "rb");
	uint8_t hd[18];
	uint8_t *px = NULL, *rgb = NULL;

	if (!f)
		return NULL;
	if (fread(hd, 1, sizeof(hd), f) != sizeof(hd))
		goto bad;
	unsigned bpp = hd[16] / 8;
	*w = hd[12] | (unsigned)hd[13] << 8;
	*h = hd[14] | (unsigned)hd[15] << 8;
	/* type 2: uncompressed true colour, no colour map */
	if (hd[2] != 2 || hd[1] != 0 || (bpp != 3 && bpp != 4) || !*w || !*h ||
	    fseek(f, hd[0], SEEK_CUR) != 0)
		goto bad;
	size_t row = (size_t)*w * bpp;
	px = malloc(row * *h);
	rgb = malloc((size_t)*w * *h * 3);
	if (!px || !rgb || fread(px, 1, row * *h, f) != row * *h)
		goto bad;
	int top_down = hd[17] & 0x20;
	for (unsigned y = 0; y < *h; y++) {
		const uint8_t *s = px + row * (top_down ? y : *h - 1 - y);
		uint8_t *d = rgb + (size_t)y * *w * 3;
		for (unsigned x = 0; x < *w; x++, s += bpp, d += 3) {
			d[0] = s[2];  /* stored as BGR(A) */
			d[1] = s[1];
			d[2] = s[0];
		}
	}
	free(px);
	fclose(f);
	return rgb;
bad:
	free(px);
	free(rgb);
	fclose(f);
	errno = EINVAL;
	return NULL;
}
