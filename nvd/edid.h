/* EDID 1.3: making a monitor's (for the simulated card) and reading one
 * (from any card's DDC bus).  Timings of DMT modes come from hw/edid.h,
 * others from VESA CVT. */
#ifndef NVD_EDID_H
#define NVD_EDID_H

#include <stddef.h>
#include <stdint.h>

#include "hw/edid.h"
#include "proto/proto.h"

#define NVD_EDID_MAX_MODES 32
#define NVD_MONITOR_NAME   14          /* 13 characters and the NUL */

/* What a simulated monitor is: its modes (the first preferred) and name. */
struct nvd_monitor {
	unsigned nmodes;                    /* 0: nothing on the output */
	struct { uint16_t w, h, hz; } modes[NVD_EDID_MAX_MODES];
	char name[NVD_MONITOR_NAME];
};

/* What nvd learns from an EDID. */
struct nvd_edid_info {
	char name[NVD_MONITOR_NAME];        /* "" when it names none */
	unsigned mm_width, mm_height;
	unsigned nmodes;
	struct nvd_mode modes[NVD_EDID_MAX_MODES];   /* sorted, preferred first */
};

/* Parse "none" or "WxH[@HZ][,WxH[@HZ]...][:NAME]".  0, or -EINVAL with a
 * reason in why. */
int nvd_monitor_parse(const char *spec, struct nvd_monitor *m, char *why, size_t whylen);
/* nvd's default monitors: output 0 a 1920x1080 one, output 1 a 1280x1024. */
void nvd_monitor_default(unsigned output, struct nvd_monitor *m);
/* The spec nvd_monitor_default parses, as --monitor takes it. */
const char *nvd_monitor_default_spec(unsigned output);

/* The timing of w x h at hz: DMT when it has one, else CVT (reduced
 * blanking when rb).  -EINVAL for sizes CVT cannot describe. */
int nvd_mode_timing(unsigned w, unsigned h, unsigned hz, int rb, struct nvd_mode *m);
/* VESA CVT 1.1 alone (no DMT look-up). */
int nvd_mode_cvt(unsigned w, unsigned h, unsigned hz, int rb, struct nvd_mode *m);
/* A mode's refresh rate, rounded to whole Hz. */
unsigned nvd_mode_hz(const struct nvd_mode *m);

/* Build the monitor's EDID.  -E2BIG (with why) when its modes do not fit
 * the base block. */
int nvd_edid_build(const struct nvd_monitor *m, uint8_t edid[EDID_SIZE], char *why,
		   size_t whylen);
/* Parse an EDID: -EINVAL for a bad header or checksum, -ENOTSUP for a
 * version before 1.3 or a block without modes. */
int nvd_edid_parse(const uint8_t edid[EDID_SIZE], struct nvd_edid_info *info, char *why,
		   size_t whylen);

#endif
