/* nvdctl top in a tmux pane (nvt-top.h). */
#include "tests/lib/nvt-top.h"
#include "tests/lib/nvt.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NVT_TOP_RUN_MS 20000

/* tmux ARGS... NULL on t's server: its exit code, its output in t->screen. */
static int nvt_tmux(struct nvt_top *t, const char *const *args)
{
	const char *argv[16] = { "/usr/bin/env", "tmux", "-L", t->server, "-f", "/dev/null" };
	unsigned n = 6;
	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	return nvt_run(argv, t->screen, sizeof(t->screen), t->err, sizeof(t->err), NVT_TOP_RUN_MS);
}

int nvt_top_start(struct nvt_top *t, const char *sock)
{
	const char *tools = getenv("NVD_TOOLS");
	char cmd[2 * PATH_MAX + 64];

	snprintf(t->server, sizeof(t->server), "nvdtop-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "exec '%s/nvdctl' --socket '%s' top -d 0.5",
		 tools && *tools ? tools : "build/bin", sock);
	const char *start[] = { "new-session", "-d", "-x", "160", "-y", "50", "-s", "top", cmd, NULL };
	return nvt_tmux(t, start) == 0 ? 0 : -1;
}

/* In the pane, the line of the client called name: its SUBMIT/s and VRAM
 * MiB columns.  0 when the pane has no such line. */
static int nvt_top_line(const char *screen, const char *name, double *submits, double *vram)
{
	char want[64];
	snprintf(want, sizeof(want), " %s ", name);
	for (const char *l = strstr(screen, want); l; l = strstr(l + 1, want)) {
		const char *bol = l;
		while (bol > screen && bol[-1] != '\n')
			bol--;
		unsigned id, pid;
		char nm[32];
		double card, fences;
		if (sscanf(bol, "%u %u %31s %lf %lf %lf %lf", &id, &pid, nm, &card, submits, &fences,
			   vram) == 7 && !strcmp(nm, name))
			return 1;
	}
	return 0;
}

int nvt_top_wait(struct nvt_top *t, const char *name, int busy, double vram_mib)
{
	/* a refresh every 0.5 s: it shows within a few */
	for (int64_t end = nvt_now_ns() + 10000000000ll; nvt_now_ns() < end;) {
		double submits = 0, vram = 0;
		nvt_sleep_ms(250);
		const char *cap[] = { "capture-pane", "-p", "-t", "top", NULL };
		if (nvt_tmux(t, cap) != 0)
			return -1;
		if (nvt_top_line(t->screen, name, &submits, &vram) &&
		    (vram_mib < 0 || vram == vram_mib) && (busy ? submits > 0 : submits == 0))
			return 0;
	}
	return -1;
}

int nvt_top_quit(struct nvt_top *t)
{
	const char *q[] = { "send-keys", "-t", "top", "q", NULL };
	if (nvt_tmux(t, q) != 0)
		return -1;
	for (int i = 0; i < 40; i++) {
		nvt_sleep_ms(50);
		const char *has[] = { "has-session", "-t", "top", NULL };
		if (nvt_tmux(t, has) != 0)
			return 0;
	}
	const char *kill[] = { "kill-server", NULL };
	nvt_tmux(t, kill);
	return -1;
}
