/* The fake device as the filesystem shows it: a render node and a primary
 * node in /dev/dri (the first free minors, so real nodes keep theirs), and
 * the sysfs entries libdrm's drmGetDevice2 and Mesa's loader read about them
 * (/sys/dev/char/226:<minor>/...).  The PCI slot, 4e56:00:00.0, is one no
 * real device has, so libdrm never folds ours into a real GPU. */
#include "glx/shim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#define DRM_MAJOR 226
#define PCI_SLOT  "4e56:00:00.0"

const char node_subsystem_link[] = "../../../bus/pci";

static struct node_info info;
static int have_info, real_dri_dir;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* sysfs file contents */
static char dev_uevent[256], dev_vendor[16], dev_device[16], dev_svendor[16], dev_sdevice[16];
static char dev_revision[16], dev_class[16];
static unsigned char dev_config[64];
static char minor_uevent[2][96];
static char sys_base[2][32];          /* /sys/dev/char/226:<minor> for render, primary */
static char ent_render[16], ent_primary[16];
static const char *dri_entries[3], *drm_entries[3];

static unsigned free_minor(const char *fmt, unsigned first, unsigned last)
{
	char p[32];
	struct stat st;
	for (unsigned m = first; m <= last; m++) {
		snprintf(p, sizeof(p), fmt, m);
		if (real.stat(p, &st) < 0 && errno == ENOENT)
			return m;
	}
	return first;
}

static void probe(void)
{
	struct nvc *c;
	struct stat st;
	shim_init();
	real_dri_dir = real.stat("/dev/dri", &st) == 0;
	if (nvc_connect(NULL, "nvd-drm probe", &c) < 0)
		return;
	struct nvc_info ni;
	int r = nvc_info(c, &ni);
	nvc_close(c);
	if (r < 0)
		return;
	info.chipset = ni.chipset;
	info.pci_device = ni.pci_device;
	info.render_minor = free_minor("/dev/dri/renderD%u", 128, 191);
	unsigned card = free_minor("/dev/dri/card%u", 0, 63);
	info.primary_minor = card;
	snprintf(info.render_path, sizeof(info.render_path), "/dev/dri/renderD%u", info.render_minor);
	snprintf(info.primary_path, sizeof(info.primary_path), "/dev/dri/card%u", card);
	snprintf(ent_render, sizeof(ent_render), "renderD%u", info.render_minor);
	snprintf(ent_primary, sizeof(ent_primary), "card%u", card);
	dri_entries[0] = ent_render;
	dri_entries[1] = ent_primary;
	drm_entries[0] = ent_render;
	drm_entries[1] = ent_primary;
	snprintf(sys_base[0], sizeof(sys_base[0]), "/sys/dev/char/%u:%u", DRM_MAJOR, info.render_minor);
	snprintf(sys_base[1], sizeof(sys_base[1]), "/sys/dev/char/%u:%u", DRM_MAJOR, card);
	snprintf(minor_uevent[0], sizeof(minor_uevent[0]), "MAJOR=%u\nMINOR=%u\nDEVNAME=dri/%s\n",
		 DRM_MAJOR, info.render_minor, ent_render);
	snprintf(minor_uevent[1], sizeof(minor_uevent[1]), "MAJOR=%u\nMINOR=%u\nDEVNAME=dri/%s\n",
		 DRM_MAJOR, card, ent_primary);
	snprintf(dev_uevent, sizeof(dev_uevent),
		 "DRIVER=nouveau\nPCI_CLASS=30000\nPCI_ID=10DE:%04X\nPCI_SUBSYS_ID=10DE:0000\n"
		 "PCI_SLOT_NAME=" PCI_SLOT "\nMODALIAS=pci:v000010DEd0000%04Xsv000010DEsd00000000bc03sc00i00\n",
		 ni.pci_device, ni.pci_device);
	snprintf(dev_vendor, sizeof(dev_vendor), "0x%04x\n", ni.pci_vendor);
	snprintf(dev_device, sizeof(dev_device), "0x%04x\n", ni.pci_device);
	snprintf(dev_svendor, sizeof(dev_svendor), "0x%04x\n", ni.pci_vendor);
	snprintf(dev_sdevice, sizeof(dev_sdevice), "0x0000\n");
	snprintf(dev_revision, sizeof(dev_revision), "0xa1\n");
	snprintf(dev_class, sizeof(dev_class), "0x030000\n");
	/* PCI config space header: little-endian ids, revision, class code */
	dev_config[0] = ni.pci_vendor & 0xff;
	dev_config[1] = ni.pci_vendor >> 8;
	dev_config[2] = ni.pci_device & 0xff;
	dev_config[3] = ni.pci_device >> 8;
	dev_config[8] = 0xa1;
	dev_config[11] = 0x03;
	dev_config[44] = ni.pci_vendor & 0xff;
	dev_config[45] = ni.pci_vendor >> 8;
	have_info = 1;
}

const struct node_info *node_info(void)
{
	pthread_once(&once, probe);
	return have_info ? &info : NULL;
}

static const struct { const char *name; const char *data; size_t len; } dev_files[] = {
	{ "uevent", dev_uevent, 0 },
	{ "vendor", dev_vendor, 0 },
	{ "device", dev_device, 0 },
	{ "subsystem_vendor", dev_svendor, 0 },
	{ "subsystem_device", dev_sdevice, 0 },
	{ "revision", dev_revision, 0 },
	{ "class", dev_class, 0 },
	{ "config", (const char *)dev_config, sizeof(dev_config) },
};

/* Which node a /sys/dev/char/226:<minor> prefix names; *rest after it. */
static enum node_kind sys_node(const char *path, const char **rest)
{
	for (unsigned i = 0; i < 2; i++) {
		size_t n = strlen(sys_base[i]);
		if (!strncmp(path, sys_base[i], n) && (path[n] == 0 || path[n] == '/')) {
			*rest = path + n;
			return i ? NODE_PRIMARY : NODE_RENDER;
		}
	}
	return NODE_NONE;
}

enum path_kind node_path(const char *path, enum node_kind *node)
{
	const char *rest;
	*node = NODE_NONE;
	if (!path || (strncmp(path, "/dev/dri", 8) && strncmp(path, "/sys/dev/char/", 14)))
		return PATH_OTHER;
	if (!node_info())
		return PATH_OTHER;
	if (!strcmp(path, "/dev/dri") || !strcmp(path, "/dev/dri/"))
		return real_dri_dir ? PATH_OTHER : PATH_DRI_DIR;
	if (!strcmp(path, info.render_path)) {
		*node = NODE_RENDER;
		return PATH_NODE;
	}
	if (!strcmp(path, info.primary_path)) {
		*node = NODE_PRIMARY;
		return PATH_NODE;
	}
	if ((*node = sys_node(path, &rest)) == NODE_NONE)
		return PATH_OTHER;
	if (!*rest || !strcmp(rest, "/device") || !strcmp(rest, "/device/drm"))
		return PATH_SYS_DIR;
	if (!strcmp(rest, "/uevent"))
		return PATH_SYS_FILE;
	if (!strcmp(rest, "/device/subsystem"))
		return PATH_SYS_LINK;
	if (!strncmp(rest, "/device/", 8))
		for (unsigned i = 0; i < sizeof(dev_files) / sizeof(dev_files[0]); i++)
			if (!strcmp(rest + 8, dev_files[i].name))
				return PATH_SYS_FILE;
	/* Under our device but not one of its files: it does not exist. */
	*node = NODE_NONE;
	return PATH_OTHER;
}

const char *node_file(const char *path, size_t *len)
{
	const char *rest;
	enum node_kind n = sys_node(path, &rest);
	if (n == NODE_NONE)
		return NULL;
	if (!strcmp(rest, "/uevent")) {
		*len = strlen(minor_uevent[n == NODE_PRIMARY]);
		return minor_uevent[n == NODE_PRIMARY];
	}
	for (unsigned i = 0; i < sizeof(dev_files) / sizeof(dev_files[0]); i++)
		if (!strncmp(rest, "/device/", 8) && !strcmp(rest + 8, dev_files[i].name)) {
			*len = dev_files[i].len ? dev_files[i].len : strlen(dev_files[i].data);
			return dev_files[i].data;
		}
	return NULL;
}

const char *const *node_dir(const char *path)
{
	const char *rest;
	if (!node_info())
		return NULL;
	if (!strncmp(path, "/dev/dri", 8) && (!path[8] || !strcmp(path + 8, "/")))
		return dri_entries;
	if (sys_node(path, &rest) != NODE_NONE && !strcmp(rest, "/device/drm"))
		return drm_entries;
	return NULL;
}

void node_stat(enum path_kind k, enum node_kind node, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_nlink = 1;
	st->st_blksize = 4096;
	switch (k) {
	case PATH_NODE: {
		unsigned minor = node == NODE_PRIMARY ? info.primary_minor : info.render_minor;
		st->st_mode = S_IFCHR | 0666;
		st->st_rdev = makedev(DRM_MAJOR, minor);
		st->st_dev = makedev(0, 6);
		st->st_ino = 0x4e56d000u + minor;   /* the same for every fd of a node */
		break;
	}
	case PATH_SYS_FILE:
		st->st_mode = S_IFREG | 0444;
		st->st_size = 4096;
		break;
	case PATH_SYS_LINK:
		st->st_mode = S_IFLNK | 0777;
		break;
	default:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		break;
	}
}
