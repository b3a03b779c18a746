/* Pieces of the PCI backend (nvd/card-pci.c) that do not need a card, so
 * that the tests can check them on any machine. */
#ifndef NVD_CARD_PCI_H
#define NVD_CARD_PCI_H

#include <stddef.h>
#include <stdint.h>

struct nvd_pci_slot {
	uint32_t domain;
	uint8_t bus, dev, func;
	char name[16];           /* canonical "0000:01:00.0" */
};

/* "[DDDD:]BB:DD.F" (hex, domain 0 when absent): 0 or -EINVAL. */
int nvd_pci_slot_parse(const char *s, struct nvd_pci_slot *slot);
/* The slot of --card pci:BDF (NULL: any card) as nvd_card_pci_open reads
 * it: 0, or -EINVAL with a message. */
int nvd_card_pci_check(const char *bdf, struct nvd_pci_slot *slot, char *err, size_t errlen);

/* 0 if no kernel driver has the device in sysfs; -EBUSY with a message
 * naming the driver and how to unbind it otherwise; -EINVAL for a bus_id
 * that is not a slot. */
int nvd_pci_check_unbound(const char *bus_id, char *err, size_t errlen);

#endif
