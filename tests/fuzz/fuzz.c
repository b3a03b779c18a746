/* Reporting findings past libFuzzer's -close_fd_mask. */
#include "tests/fuzz/fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int report_fd = 2;

void fuzz_report_init(void)
{
	int fd = dup(2);
	if (fd >= 0)
		report_fd = fd;
}

void fuzz_finding(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	dprintf(report_fd, "FINDING: %s\n", line);
	abort();
}
