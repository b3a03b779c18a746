/* Log lines on stderr: a timestamp, then who (client, channel) and what. */
#include "nvd/nvd.h"

#include <stdio.h>
#include <time.h>

int nvd_verbose;

uint64_t nvd_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void nvd_vlog(const char *who, const char *fmt, va_list ap)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	struct tm tm;
	localtime_r(&t.tv_sec, &tm);
	char line[1024];
	vsnprintf(line, sizeof(line), fmt, ap);
	fprintf(stderr, "%02d:%02d:%02d.%03ld nvd: %s%s\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
		t.tv_nsec / 1000000, who, line);
}

void nvd_log(int verbose, const char *fmt, ...)
{
	if (verbose > nvd_verbose)
		return;
	va_list ap;
	va_start(ap, fmt);
	nvd_vlog("", fmt, ap);
	va_end(ap);
}

void nvd_clog(struct nvd_client *cl, struct nvd_chan *ch, const char *fmt, ...)
{
	char who[96], where[16];
	if (ch) {
		if (ch->chid == NVD_CHID_NONE)
			snprintf(where, sizeof(where), "virtual");
		else
			snprintf(where, sizeof(where), "chid %u", ch->chid);
		snprintf(who, sizeof(who), "client %u (%s, pid %d) chan %u (%s): ", cl->id,
			 cl->name[0] ? cl->name : "?", (int)cl->pid, ch->id, where);
	}
	else
		snprintf(who, sizeof(who), "client %u (%s, pid %d): ", cl->id,
			 cl->name[0] ? cl->name : "?", (int)cl->pid);
	va_list ap;
	va_start(ap, fmt);
	nvd_vlog(who, fmt, ap);
	va_end(ap);
}
