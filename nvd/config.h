/* nvd's settings: built-in defaults, then the config file (INI, read with
 * inih), then the command line, from one table of options (config.c). */
#ifndef NVD_CONFIG_H
#define NVD_CONFIG_H

#include "nvd/nvd.h"
#include "nvd/edid.h"

#define NVD_CONFIG_FILE "/etc/nvd/nvd.conf"
/* The longest value a file can give: inih's line buffer (its INI_MAX_LINE). */
#define NVD_CONFIG_VALUE 200
#define NVD_CONFIG_SLOTS (14 + NVD_CARD_OUTPUTS)   /* config.c checks it */

struct nvd_config {
	struct nvd_opts *o;                  /* what nvd will run with */
	struct nvd_monitor mon[NVD_CARD_OUTPUTS];
	uint8_t edid[NVD_CARD_OUTPUTS][EDID_SIZE];
	const char *file;                    /* the config file read (NULL: none) */
	int check;                           /* --check-config */
	unsigned errors;
	/* where each setting's value came from, one slot per key */
	struct nvd_config_slot {
		const char *cmd;             /* the command line's value, NULL: not given */
		char cmd_buf[16];            /* a flag's or counted option's value */
		char val[NVD_CONFIG_VALUE];  /* the file's value */
		unsigned line;               /* its line in the file, 0: not in the file */
	} slot[NVD_CONFIG_SLOTS];
	unsigned line;                       /* the file's line being read */
};

/* Fills c->o (and the monitors' EDIDs) from the defaults, the file and the
 * command line, the later winning.  Returns -1 when nvd is to run, else
 * the status to exit with (--help, --version, --check-config, bad usage or
 * a bad file: every error is said on stderr first). */
int nvd_config_load(struct nvd_config *c, int argc, char **argv);

#endif
