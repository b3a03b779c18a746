/* The NV4x chips we know: one row per chip, read by the simulator (what to
 * be), the daemon (how to program it) and the tools (what to call it).
 * X(name, chipset, pci device id, marketing name, 3D class, vertex units,
 *   RAMFC addressed in VRAM (NV44 family)) */
#ifndef NV_HW_CHIPS_H
#define NV_HW_CHIPS_H

#include <stdint.h>
#include <string.h>
#include <strings.h>

#define NV_PCI_VENDOR_NVIDIA 0x10de

#define NV_CHIPS(X) \
	X(NV40, 0x40, 0x0040, "GeForce 6800 Ultra",        0x4097, 6, 0) \
	X(NV43, 0x43, 0x0141, "GeForce 6600",              0x4097, 3, 0) \
	X(NV44, 0x44, 0x0161, "GeForce 6200 TurboCache",   0x4497, 3, 1)

struct nv_chip {
	const char *name;
	uint8_t chipset;
	uint16_t pci_id;
	const char *product;
	uint16_t gr_class;
	uint8_t vs_units;
	uint8_t ramfc_in_vram;
};

static const struct nv_chip nv_chips[] = {
#define NV_CHIP_ROW_(nm, cs, pci, prod, gr, vs, rv) { #nm, cs, pci, prod, gr, vs, rv },
	NV_CHIPS(NV_CHIP_ROW_)
#undef NV_CHIP_ROW_
};
#define NV_NCHIPS (sizeof(nv_chips) / sizeof(nv_chips[0]))
#define NV_DEFAULT_CHIP "NV43"

static inline const struct nv_chip *nv_chip_by_name(const char *name)
{
	for (unsigned i = 0; i < NV_NCHIPS; i++)
		if (!strcasecmp(nv_chips[i].name, name))
			return &nv_chips[i];
	return NULL;
}

static inline const struct nv_chip *nv_chip_by_chipset(unsigned chipset)
{
	for (unsigned i = 0; i < NV_NCHIPS; i++)
		if (nv_chips[i].chipset == chipset)
			return &nv_chips[i];
	return NULL;
}

/* Is this chipset (PMC_BOOT_0 28:20) an NV4x?  nouveau's NV_40 card type:
 * 0x40-0x4f and the 0x6x IGPs (MCP7x). */
static inline int nv_chipset_is_nv4x(unsigned chipset)
{
	return (chipset & 0x1f0) == 0x40 || (chipset & 0x1f0) == 0x60;
}

/* The row to drive an NV4x chipset without a row of its own by: the NV44
 * row for chipsets that keep RAMFC in VRAM (every one but 0x40-0x43, 0x45,
 * 0x47-0x49 and 0x4b: nouveau nv40_fifo_init), the NV43 row otherwise. */
static inline const struct nv_chip *nv_chip_family_default(unsigned chipset)
{
	switch (chipset) {
	case 0x40: case 0x41: case 0x42: case 0x43: case 0x45:
	case 0x47: case 0x48: case 0x49: case 0x4b:
		return nv_chip_by_name("NV43");
	default:
		return nv_chip_by_name("NV44");
	}
}

/* Is this PCI device id an NV4x (GeForce 6 / 7 early) part?  NV40-NV4E ids. */
static inline int nv_pci_id_is_nv4x(uint16_t id)
{
	return (id >= 0x0040 && id <= 0x004f) || (id >= 0x00c0 && id <= 0x00cf) ||
	       (id >= 0x0140 && id <= 0x016f) || (id >= 0x0210 && id <= 0x021f) ||
	       (id >= 0x0220 && id <= 0x022f) || (id >= 0x0090 && id <= 0x009f) ||
	       (id >= 0x01d0 && id <= 0x01df) || (id >= 0x0390 && id <= 0x039f) ||
	       (id >= 0x0240 && id <= 0x024f) || (id >= 0x03d0 && id <= 0x03df) ||
	       (id >= 0x0530 && id <= 0x053f) || (id >= 0x0290 && id <= 0x029f);
}

#endif
