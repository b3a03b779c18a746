/* Which card: "sim", "sim:NV44", "pci", "pci:0000:01:00.0". */
#include "nvd/card.h"

#include <stdio.h>
#include <string.h>

struct nvd_card *nvd_card_open(const struct nvd_card_opts *o, char *err, size_t errlen)
{
	const char *spec = o->spec ? o->spec : "sim";
	const char *arg = strchr(spec, ':');
	size_t kind = arg ? (size_t)(arg - spec) : strlen(spec);

	if (kind == 3 && !strncmp(spec, "sim", 3))
		return nvd_card_sim_open(o, arg ? arg + 1 : NV_DEFAULT_CHIP, err, errlen);
	if (kind == 3 && !strncmp(spec, "pci", 3))
		return nvd_card_pci_open(o, arg ? arg + 1 : NULL, err, errlen);
	snprintf(err, errlen, "unknown card '%s' (expected sim[:CHIP] or pci[:BDF])", spec);
	return NULL;
}
