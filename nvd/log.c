/* Log lines on stderr: a timestamp, then who (client, channel) and what.
 * When stderr is the journal's stream, each line starts with its syslog
 * priority instead (sd-daemon(3)), and the journal adds the time. */
#include "nvd/nvd.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include <time.h>

int nvd_verbose;
static int to_journal;

void nvd_log_init(void)
{
	/* systemd sets $JOURNAL_STREAM to the device and inode of the stream
	 * it connects; a child whose stderr went elsewhere inherits the
	 * variable, hence the comparison. */
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	to_journal = js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && !fstat(2, &st) &&
		     st.st_dev == dev && st.st_ino == ino;
}

uint64_t nvd_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void nvd_vlog(const char *prio, const char *who, const char *fmt, va_list ap)
{
	char line[1024];
	vsnprintf(line, sizeof(line), fmt, ap);
	if (to_journal) {
		fprintf(stderr, "%snvd: %s%s\n", prio, who, line);
		return;
	}
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	struct tm tm;
	localtime_r(&t.tv_sec, &tm);
	fprintf(stderr, "%02d:%02d:%02d.%03ld nvd: %s%s\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
		t.tv_nsec / 1000000, who, line);
}

void nvd_log(int verbose, const char *fmt, ...)
{
	if (verbose > nvd_verbose)
		return;
	va_list ap;
	va_start(ap, fmt);
	nvd_vlog(verbose ? SD_DEBUG : SD_INFO, "", fmt, ap);
	va_end(ap);
}

void nvd_err(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%snvd: %s\n", to_journal ? SD_ERR : "", line);
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
	nvd_vlog(SD_INFO, who, fmt, ap);
	va_end(ap);
}
