/* A real GeForce 6 on the PCI bus, through libpciaccess.
 *
 * What works: finding the card, refusing one a kernel driver owns, mapping
 * BAR0 (registers) and BAR1 (VRAM), identifying the chip from PMC_BOOT_0 and
 * sizing VRAM from PFB_CSTATUS.  What does not yet: interrupts and buffer
 * placement, see the comments at irq_fd and pci_card_place. */
#include "nvd/card.h"
#include "nvd/card-pci.h"
#include "hw/regs.h"

#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pciaccess.h>

#define PCI_SYSFS "/sys/bus/pci/devices"
#define NO_CARD_HINT "use --card sim for the simulated card"

struct nvd_card_pci {
	struct nvd_card c;
	struct pci_device *dev;
	volatile uint32_t *mmio; /* BAR0, NULL unless the BARs are mapped */
	void *vram_map;
	uint64_t vram_map_size;
};

static struct nvd_card_pci *pciof(struct nvd_card *c) { return (struct nvd_card_pci *)c; }

static void pci_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void pci_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- slots and drivers (no card needed) ---- */

/* 1 to max hex digits, then the separator sep (0: the end of the string). */
static int pci_field(const char **p, unsigned max, char sep, uint32_t *v)
{
	const char *s = *p;
	unsigned n;

	*v = 0;
	for (n = 0; isxdigit((unsigned char)s[n]); n++) {
		if (n == max)
			return -EINVAL;
		*v = *v << 4 | (uint32_t)(isdigit((unsigned char)s[n]) ? s[n] - '0'
						      : tolower((unsigned char)s[n]) - 'a' + 10);
	}
	if (!n || s[n] != sep)
		return -EINVAL;
	*p = s + n + (sep != 0);
	return 0;
}

int nvd_pci_slot_parse(const char *s, struct nvd_pci_slot *slot)
{
	uint32_t domain = 0, bus, dev, func;
	const char *p = s, *c;
	unsigned colons = 0;

	if (!s)
		return -EINVAL;
	for (c = s; (c = strchr(c, ':')); c++)
		colons++;
	if (colons < 1 || colons > 2)
		return -EINVAL;
	if (colons == 2 && pci_field(&p, 4, ':', &domain))
		return -EINVAL;
	if (pci_field(&p, 2, ':', &bus) || pci_field(&p, 2, '.', &dev) ||
	    pci_field(&p, 1, 0, &func) || dev > 0x1f || func > 7)
		return -EINVAL;
	slot->domain = domain;
	slot->bus = bus;
	slot->dev = dev;
	slot->func = func;
	snprintf(slot->name, sizeof(slot->name), "%04x:%02x:%02x.%u",
		 (unsigned)domain, slot->bus, slot->dev, slot->func);
	return 0;
}

/* The driver bound in sysfs: its name in buf (len > 0) and 1, or 0. */
static int pci_sysfs_driver(const char *bus_id, char *buf, size_t len)
{
	char path[96], link[256];
	ssize_t n;
	const char *base;

	snprintf(path, sizeof(path), PCI_SYSFS "/%s/driver", bus_id);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return 0;
	link[n] = 0;
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	n = strlen(base);
	if ((size_t)n >= len)
		n = len - 1;         /* driver names are short; never overrun */
	memcpy(buf, base, n);
	buf[n] = 0;
	return 1;
}

static int pci_refuse_bound(const char *bus_id, const char *driver, char *err, size_t errlen)
{
	pci_err(err, errlen, "%s is bound to %s%s kernel driver; unbind it first: "
		"echo %s > " PCI_SYSFS "/%s/driver/unbind", bus_id,
		driver ? "the " : "a", driver ? driver : "", bus_id, bus_id);
	return -EBUSY;
}

int nvd_pci_check_unbound(const char *bus_id, char *err, size_t errlen)
{
	struct nvd_pci_slot slot;
	char drv[64];

	if (nvd_pci_slot_parse(bus_id, &slot)) {
		pci_err(err, errlen, "bad PCI slot '%.32s'", bus_id ? bus_id : "(null)");
		return -EINVAL;
	}
	if (pci_sysfs_driver(slot.name, drv, sizeof(drv)))
		return pci_refuse_bound(slot.name, drv, err, errlen);
	return 0;
}

/* sysfs first, for the driver's name; libpciaccess as well, for systems
 * where the link is not where we look. */
static int pci_check_dev_unbound(struct pci_device *dev, const char *bus_id,
				 char *err, size_t errlen)
{
	char drv[64];

	if (pci_sysfs_driver(bus_id, drv, sizeof(drv)))
		return pci_refuse_bound(bus_id, drv, err, errlen);
	if (pci_device_has_kernel_driver(dev))
		return pci_refuse_bound(bus_id, NULL, err, errlen);
	return 0;
}

static void pci_slot_name(const struct pci_device *dev, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%u", (unsigned)dev->domain, dev->bus,
		 dev->dev, dev->func);
}

static int pci_is_nv4x(const struct pci_device *dev)
{
	return dev->vendor_id == NV_PCI_VENDOR_NVIDIA && nv_pci_id_is_nv4x(dev->device_id);
}

/* The device the slot names, or the first free NV4x on the bus. */
static struct pci_device *pci_find(const struct nvd_pci_slot *slot, char *err, size_t errlen)
{
	struct pci_id_match match = {
		.vendor_id = NV_PCI_VENDOR_NVIDIA, .device_id = PCI_MATCH_ANY,
		.subvendor_id = PCI_MATCH_ANY, .subdevice_id = PCI_MATCH_ANY,
	};
	struct pci_device_iterator *it;
	struct pci_device *dev, *found = NULL;
	char name[16];
	int refused = 0;

	if (slot) {
		dev = pci_device_find_by_slot(slot->domain, slot->bus, slot->dev, slot->func);
		if (!dev) {
			pci_err(err, errlen, "no PCI device at %s", slot->name);
			return NULL;
		}
		if (!pci_is_nv4x(dev)) {
			pci_err(err, errlen, "%s is not an NVIDIA NV4x card (PCI id %04x:%04x)",
				slot->name, dev->vendor_id, dev->device_id);
			return NULL;
		}
		return pci_check_dev_unbound(dev, slot->name, err, errlen) ? NULL : dev;
	}

	it = pci_id_match_iterator_create(&match);
	if (!it) {
		pci_err(err, errlen, "cannot scan the PCI bus: out of memory");
		return NULL;
	}
	while (!found && (dev = pci_device_next(it))) {
		if (!pci_is_nv4x(dev))
			continue;
		pci_slot_name(dev, name, sizeof(name));
		/* A bound card is skipped for the next; if all are bound, the
		 * message about the first one stands. */
		if (pci_check_dev_unbound(dev, name, refused ? NULL : err, errlen))
			refused = 1;
		else
			found = dev;
	}
	pci_iterator_destroy(it);
	if (!found && !refused)
		pci_err(err, errlen, "no NVIDIA NV4x card found on the PCI bus (" NO_CARD_HINT ")");
	return found;
}

/* ---- the card ---- */

/* BAR0 is little-endian whatever the host: we leave PMC_BOOT_1 (the card's
 * own byte swapper) alone and convert here. */
static uint32_t pci_card_rd32(struct nvd_card *c, uint32_t reg)
{
	struct nvd_card_pci *p = pciof(c);

	if (!p->mmio || (reg & 3) || reg >= NV_PCI_BAR_MMIO_SIZE)
		return 0xffffffff;   /* what an unmapped or absent register reads */
	return le32toh(p->mmio[reg / 4]);
}

static void pci_card_wr32(struct nvd_card *c, uint32_t reg, uint32_t val)
{
	struct nvd_card_pci *p = pciof(c);

	if (!p->mmio || (reg & 3) || reg >= NV_PCI_BAR_MMIO_SIZE)
		return;
	p->mmio[reg / 4] = htole32(val);
}

/* The VGA ports are byte registers (nouveau's nvif_rd08/wr08). */
static uint8_t pci_card_rd08(struct nvd_card *c, uint32_t reg)
{
	struct nvd_card_pci *p = pciof(c);

	if (!p->mmio || reg >= NV_PCI_BAR_MMIO_SIZE)
		return 0xff;
	return ((volatile uint8_t *)p->mmio)[reg];
}

static void pci_card_wr08(struct nvd_card *c, uint32_t reg, uint8_t val)
{
	struct nvd_card_pci *p = pciof(c);

	if (!p->mmio || reg >= NV_PCI_BAR_MMIO_SIZE)
		return;
	((volatile uint8_t *)p->mmio)[reg] = val;
}

/* Placing a memfd on real silicon is not a remap of our own memory as it is
 * for the model: VRAM placement means copying the pages through BAR1 (and
 * back on eviction), GART placement means pinned pages whose bus addresses
 * we know, which needs a kernel helper (VFIO or UIO with DMA).  Both are a
 * later issue; until then the daemon cannot place buffers on a real card. */
static int pci_card_place(struct nvd_card *c, int gart, uint64_t addr, uint64_t size, int fd)
{
	(void)c; (void)gart; (void)addr; (void)size; (void)fd;
	return -ENOTSUP;
}

static int pci_card_unplace(struct nvd_card *c, int gart, uint64_t addr, uint64_t size)
{
	(void)c; (void)gart; (void)addr; (void)size;
	return -ENOTSUP;
}

static void pci_card_unmap(struct nvd_card_pci *p)
{
	if (p->vram_map)
		pci_device_unmap_range(p->dev, p->vram_map, p->vram_map_size);
	if (p->mmio)
		pci_device_unmap_range(p->dev, (void *)p->mmio, NV_PCI_BAR_MMIO_SIZE);
	p->vram_map = NULL;
	p->mmio = NULL;
}

/* libpciaccess keeps one global state: one PCI card per process. */
static void pci_card_destroy(struct nvd_card *c)
{
	pci_card_unmap(pciof(c));
	free(c);
	pci_system_cleanup();
}

static const struct nvd_card_ops pci_card_ops = {
	.rd32 = pci_card_rd32,
	.wr32 = pci_card_wr32,
	.rd08 = pci_card_rd08,
	.wr08 = pci_card_wr08,
	.place = pci_card_place,
	.unplace = pci_card_unplace,
	.destroy = pci_card_destroy,
};

/* Maps BAR0, asks the card what it is and how much VRAM it has, maps that
 * much of BAR1. */
static int pci_card_map(struct nvd_card_pci *p, char *err, size_t errlen)
{
	struct pci_device *dev = p->dev;
	const struct pci_mem_region *mmio = &dev->regions[NV_PCI_BAR_MMIO];
	const struct pci_mem_region *aper = &dev->regions[NV_PCI_BAR_VRAM];
	const char *id = p->c.bus_id;
	uint32_t boot0, cstatus;
	unsigned chipset;
	void *map;
	int ret;

	if (!mmio->base_addr || mmio->size < NV_PCI_BAR_MMIO_SIZE) {
		pci_err(err, errlen, "%s: BAR0 is %llu KiB at 0x%llx, expected 16 MiB of registers",
			id, (unsigned long long)(mmio->size >> 10),
			(unsigned long long)mmio->base_addr);
		return -ENODEV;
	}
	pci_device_enable(dev);
	ret = pci_device_map_range(dev, mmio->base_addr, NV_PCI_BAR_MMIO_SIZE,
				   PCI_DEV_MAP_FLAG_WRITABLE, &map);
	if (ret) {
		pci_err(err, errlen, "%s: cannot map BAR0: %s", id, strerror(ret));
		return -ret;
	}
	p->mmio = map;

	boot0 = pci_card_rd32(&p->c, NV_PMC_BOOT_0);
	chipset = NV_PMC_BOOT_0_CHIPSET(boot0);
	if (boot0 == 0xffffffff || !nv_chipset_is_nv4x(chipset)) {
		pci_err(err, errlen, "%s: PMC_BOOT_0 reads 0x%08x, not an NV4x "
			"(is the card powered up and its BAR0 decoding?)", id, boot0);
		return -ENODEV;
	}
	cstatus = pci_card_rd32(&p->c, NV_PFB_CSTATUS);
	p->c.vram_size = cstatus & NV_PFB_CSTATUS_SIZE_MASK;
	if (!p->c.vram_size || cstatus == 0xffffffff) {
		pci_err(err, errlen, "%s: PFB_CSTATUS reads 0x%08x: cannot size VRAM", id, cstatus);
		return -ENODEV;
	}

	p->c.chip = nv_chip_by_chipset(chipset);
	if (p->c.chip) {
		snprintf(p->c.desc, sizeof(p->c.desc), "pci %s: %s (%s), %llu MiB VRAM", id,
			 p->c.chip->name, p->c.chip->product,
			 (unsigned long long)(p->c.vram_size >> 20));
	} else {
		p->c.chip = nv_chip_family_default(chipset);
		snprintf(p->c.desc, sizeof(p->c.desc),
			 "pci %s: unknown NV4x chipset 0x%02x, driven as %s, %llu MiB VRAM", id,
			 chipset, p->c.chip->name, (unsigned long long)(p->c.vram_size >> 20));
	}

	/* The daemon addresses all of VRAM through the aperture (RAMIN lives
	 * at its very end), so an aperture smaller than VRAM will not do. */
	if (!aper->base_addr || aper->size < p->c.vram_size) {
		pci_err(err, errlen, "%s: BAR1 is %llu MiB, smaller than the %llu MiB of VRAM",
			id, (unsigned long long)(aper->size >> 20),
			(unsigned long long)(p->c.vram_size >> 20));
		return -ENODEV;
	}
	ret = pci_device_map_range(dev, aper->base_addr, p->c.vram_size,
				   PCI_DEV_MAP_FLAG_WRITABLE | PCI_DEV_MAP_FLAG_WRITE_COMBINE, &map);
	if (ret) {
		pci_err(err, errlen, "%s: cannot map BAR1: %s", id, strerror(ret));
		return -ret;
	}
	p->vram_map = map;
	p->vram_map_size = p->c.vram_size;
	p->c.vram = map;
	return 0;
}

int nvd_card_pci_check(const char *bdf, struct nvd_pci_slot *slot, char *err, size_t errlen)
{
	if (bdf && nvd_pci_slot_parse(bdf, slot)) {
		pci_err(err, errlen, "bad PCI slot '%.32s' (expected [DDDD:]BB:DD.F, e.g. 0000:01:00.0)",
			bdf);
		return -EINVAL;
	}
	return 0;
}

struct nvd_card *nvd_card_pci_open(const struct nvd_card_opts *o, const char *bdf,
				   char *err, size_t errlen)
{
	struct nvd_pci_slot slot;
	struct nvd_card_pci *p;
	struct pci_device *dev;
	int ret;

	if (nvd_card_pci_check(bdf, &slot, err, errlen) < 0)
		return NULL;
	ret = pci_system_init();
	if (ret) {
		pci_err(err, errlen, "cannot scan the PCI bus: %s (" NO_CARD_HINT ")", strerror(ret));
		return NULL;
	}
	dev = pci_find(bdf ? &slot : NULL, err, errlen);
	if (!dev)
		goto fail_sys;
	ret = pci_device_probe(dev);
	if (ret) {
		char name[16];

		pci_slot_name(dev, name, sizeof(name));
		pci_err(err, errlen, "%s: cannot probe the PCI device: %s", name, strerror(ret));
		goto fail_sys;
	}

	p = calloc(1, sizeof(*p));
	if (!p) {
		pci_err(err, errlen, "out of memory");
		goto fail_sys;
	}
	p->dev = dev;
	p->c.ops = &pci_card_ops;
	pci_slot_name(dev, p->c.bus_id, sizeof(p->c.bus_id));
	p->c.pci_vendor = dev->vendor_id;
	p->c.pci_device = dev->device_id;
	/* No bus window yet: see pci_card_place. */
	p->c.gart = NULL;
	p->c.gart_bus = 0;
	p->c.gart_size = 0;
	/* Without a kernel driver there is no interrupt to wait on: real
	 * silicon needs a UIO/VFIO shim to turn the card's IRQ into an fd.
	 * Until then the daemon polls PMC_INTR. */
	p->c.irq_fd = -1;

	if (o && o->map_bars) {
		if (pci_card_map(p, err, errlen) < 0) {
			pci_card_unmap(p);
			free(p);
			goto fail_sys;
		}
	} else {
		/* Not mapped: nothing read from the card.  The chip is a guess
		 * from the PCI id, VRAM unknown, registers read all ones. */
		const struct nv_chip *cp = NULL;

		for (unsigned i = 0; i < NV_NCHIPS; i++)
			if (nv_chips[i].pci_id == dev->device_id)
				cp = &nv_chips[i];
		p->c.chip = cp ? cp : nv_chip_by_name(NV_DEFAULT_CHIP);
		snprintf(p->c.desc, sizeof(p->c.desc),
			 "pci %s: NV4x %04x:%04x, BARs not mapped (chip and VRAM not probed)",
			 p->c.bus_id, dev->vendor_id, dev->device_id);
	}
	return &p->c;

fail_sys:
	pci_system_cleanup();
	return NULL;
}
