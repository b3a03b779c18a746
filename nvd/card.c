/* Which card: "sim", "sim:NV44", "pci", "pci:0000:01:00.0". */
#include "nvd/card.h"
#include "nvd/card-pci.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum card_kind { CARD_UNKNOWN, CARD_SIM, CARD_PCI };

/* The spec's kind; *arg: the chip of a simulated card (NV_DEFAULT_CHIP when
 * not given), the slot of a PCI one (NULL: any). */
static enum card_kind card_kind(const struct nvd_card_opts *o, const char **spec,
				const char **arg)
{
	const char *colon;
	size_t kind;

	*spec = o->spec ? o->spec : "sim";
	colon = strchr(*spec, ':');
	kind = colon ? (size_t)(colon - *spec) : strlen(*spec);
	*arg = colon ? colon + 1 : NULL;
	if (kind == 3 && !strncmp(*spec, "sim", 3)) {
		*arg = *arg ? *arg : NV_DEFAULT_CHIP;
		return CARD_SIM;
	}
	if (kind == 3 && !strncmp(*spec, "pci", 3))
		return CARD_PCI;
	return CARD_UNKNOWN;
}

int nvd_card_check(const struct nvd_card_opts *o, char *err, size_t errlen)
{
	const char *spec, *arg;
	struct nvd_pci_slot slot;

	switch (card_kind(o, &spec, &arg)) {
	case CARD_SIM: return nvd_card_sim_check(o, arg, err, errlen);
	case CARD_PCI:
		if (o->sim_check) {
			snprintf(err, errlen, "--sim-check watches the simulated card's memory accesses; "
				 "a real card (%s) cannot be watched", spec);
			return -EINVAL;
		}
		return nvd_card_pci_check(arg, &slot, err, errlen);
	case CARD_UNKNOWN: break;
	}
	snprintf(err, errlen, "unknown card '%s' (expected sim[:CHIP] or pci[:BDF])", spec);
	return -EINVAL;
}

struct nvd_card *nvd_card_open(const struct nvd_card_opts *o, char *err, size_t errlen)
{
	const char *spec, *arg;

	if (nvd_card_check(o, err, errlen) < 0)
		return NULL;
	if (card_kind(o, &spec, &arg) == CARD_SIM)
		return nvd_card_sim_open(o, arg, err, errlen);
	return nvd_card_pci_open(o, arg, err, errlen);
}
