/* nvdctl top in a tmux pane of a tmux server of the test's own (no user
 * configuration), read back with capture-pane as a user would see it. */
#ifndef NVT_TOP_H
#define NVT_TOP_H

#include <stddef.h>

struct nvt_top {
	char server[64];           /* tmux -L */
	char screen[65536];        /* the pane as last captured, or a command's output */
	char err[4096];
};

/* Start `nvdctl --socket SOCK top -d 0.5` in a 160x50 pane ($NVD_TOOLS's
 * nvdctl).  0, or -1 with the reason in t->err. */
int nvt_top_start(struct nvt_top *t, const char *sock);
/* Capture the pane until the line of the client called name shows
 * SUBMIT/s above 0 (busy) or 0 (not busy) and, when vram_mib >= 0, that
 * much VRAM; 0, or -1 after 10 s.  t->screen holds the last capture. */
int nvt_top_wait(struct nvt_top *t, const char *name, int busy, double vram_mib);
/* 'q', and the session must end; else the server is killed.  0 or -1. */
int nvt_top_quit(struct nvt_top *t);

#endif
