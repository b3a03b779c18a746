/* The PCI backend (nvd/card-pci.c) on a machine without a GeForce 6: slot
 * parsing, and the exact messages for every way of not finding a card.
 * Expectations come from reading sysfs here, not through libpciaccess. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "hw/chips.h"
#include "nvd/card.h"
#include "nvd/card-pci.h"

#define SYSFS "/sys/bus/pci/devices"

static int sysfs_hex(const char *bdf, const char *file, unsigned *v)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), SYSFS "/%s/%s", bdf, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%x", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* Calls fn(bdf, arg) for each device in sysfs until it returns nonzero. */
static int sysfs_each(int (*fn)(const char *bdf, void *arg), void *arg)
{
	DIR *d = opendir(SYSFS);
	struct dirent *e;
	int r = 0;

	if (!d)
		return -1;
	while (!r && (e = readdir(d)))
		if (e->d_name[0] != '.')
			r = fn(e->d_name, arg);
	closedir(d);
	return r;
}

static int is_nv4x(const char *bdf, void *arg)
{
	unsigned v, id;

	(void)arg;
	return !sysfs_hex(bdf, "vendor", &v) && !sysfs_hex(bdf, "device", &id) &&
	       v == NV_PCI_VENDOR_NVIDIA && nv_pci_id_is_nv4x(id);
}

static void skip_unless_pci_without_nv4x(void)
{
	struct stat st;

	if (stat(SYSFS, &st)) {
		printf("no " SYSFS " here: skipped\n");
		skip();
	}
	if (sysfs_each(is_nv4x, NULL) > 0) {
		printf("this machine has an NV4x: skipped\n");
		skip();
	}
}

static void slot_parse_accepts_both_forms_and_canonicalises(void **state)
{
	struct nvd_pci_slot s;

	(void)state;
	assert_int_equal(nvd_pci_slot_parse("0000:01:00.0", &s), 0);
	assert_string_equal(s.name, "0000:01:00.0");
	assert_int_equal(s.domain, 0);
	assert_int_equal(s.bus, 1);
	assert_int_equal(s.dev, 0);
	assert_int_equal(s.func, 0);
	assert_int_equal(nvd_pci_slot_parse("01:00.0", &s), 0);
	assert_string_equal(s.name, "0000:01:00.0");
	assert_int_equal(nvd_pci_slot_parse("ABCD:eF:1f.7", &s), 0);
	assert_string_equal(s.name, "abcd:ef:1f.7");
	assert_int_equal(s.domain, 0xabcd);
	assert_int_equal(s.bus, 0xef);
	assert_int_equal(s.dev, 0x1f);
	assert_int_equal(s.func, 7);
	assert_int_equal(nvd_pci_slot_parse("1:2.3", &s), 0);
	assert_string_equal(s.name, "0000:01:02.3");
}

static void malformed_slot_is_rejected_before_touching_the_bus(void **state)
{
	static const char *bad[] = {
		"", "01:00", "0000:01:00", "01.00.0", "01:00.8", "01:20.0", "01:00.10",
		"00000:01:00.0", "0000:100:00.0", "0000:01:000.0", "01:00.0x", " 01:00.0",
		"01:00.0 ", "0000:01:00.0:1", "1:0000:01:00.0", "g1:00.0", "01-00.0",
		"01:00..0", ":01:00.0", "0000::00.0", "01:.0", "01:00.", "-1:00.0", "+1:00.0",
		"0x1:00.0",
	};
	struct nvd_card_opts o = { .spec = "pci" };
	struct nvd_pci_slot s;
	char err[256], want[256], longbdf[300];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (nvd_pci_slot_parse(bad[i], &s) != -EINVAL)
			fail_msg("'%s' parsed", bad[i]);
		err[0] = 0;
		assert_null(nvd_card_pci_open(&o, bad[i], err, sizeof(err)));
		snprintf(want, sizeof(want),
			 "bad PCI slot '%s' (expected [DDDD:]BB:DD.F, e.g. 0000:01:00.0)", bad[i]);
		assert_string_equal(err, want);
	}
	/* A long one is quoted in part, and the message still fits. */
	memset(longbdf, '1', sizeof(longbdf) - 1);
	longbdf[sizeof(longbdf) - 1] = 0;
	assert_null(nvd_card_pci_open(&o, longbdf, err, sizeof(err)));
	assert_string_equal(err, "bad PCI slot '11111111111111111111111111111111' "
			    "(expected [DDDD:]BB:DD.F, e.g. 0000:01:00.0)");
	/* No error buffer at all is not a crash. */
	assert_null(nvd_card_pci_open(&o, "nonsense", NULL, 0));
}

static void no_nv4x_card_on_this_machine_gives_the_exact_message(void **state)
{
	struct nvd_card_opts o = { .spec = "pci" };
	char err[256] = "";

	(void)state;
	skip_unless_pci_without_nv4x();
	assert_null(nvd_card_pci_open(&o, NULL, err, sizeof(err)));
	assert_string_equal(err, "no NVIDIA NV4x card found on the PCI bus "
			    "(use --card sim for the simulated card)");
	/* The same when asked to map the BARs, and a second time (the PCI
	 * system state was cleaned up after the first). */
	o.map_bars = 1;
	err[0] = 0;
	assert_null(nvd_card_pci_open(&o, NULL, err, sizeof(err)));
	assert_string_equal(err, "no NVIDIA NV4x card found on the PCI bus "
			    "(use --card sim for the simulated card)");
}

static void empty_slot_is_named_in_canonical_form(void **state)
{
	struct nvd_card_opts o = { .spec = "pci" };
	struct stat st;
	char err[256] = "";

	(void)state;
	skip_unless_pci_without_nv4x();
	if (!stat(SYSFS "/0000:ff:1f.7", &st))
		skip();
	assert_null(nvd_card_pci_open(&o, "ff:1f.7", err, sizeof(err)));
	assert_string_equal(err, "no PCI device at 0000:ff:1f.7");
	assert_null(nvd_card_pci_open(&o, "0000:FF:1F.7", err, sizeof(err)));
	assert_string_equal(err, "no PCI device at 0000:ff:1f.7");
}

static int first_other(const char *bdf, void *arg)
{
	unsigned v;

	if (strlen(bdf) != 12 || sysfs_hex(bdf, "vendor", &v) || v == NV_PCI_VENDOR_NVIDIA)
		return 0;
	strcpy(arg, bdf);
	return 1;
}

static void other_vendors_device_is_refused_with_its_ids(void **state)
{
	struct nvd_card_opts o = { .spec = "pci", .map_bars = 1 };
	char bdf[16], err[256] = "", want[256];
	unsigned v, id;

	(void)state;
	skip_unless_pci_without_nv4x();
	if (sysfs_each(first_other, bdf) <= 0)
		skip();
	assert_int_equal(sysfs_hex(bdf, "vendor", &v), 0);
	assert_int_equal(sysfs_hex(bdf, "device", &id), 0);
	snprintf(want, sizeof(want), "%s is not an NVIDIA NV4x card (PCI id %04x:%04x)", bdf, v, id);
	assert_null(nvd_card_pci_open(&o, bdf, err, sizeof(err)));
	assert_string_equal(err, want);
}

struct drv_search {
	int want_bound;
	char bdf[16];
	char drv[256];
};

static int find_by_binding(const char *bdf, void *arg)
{
	struct drv_search *d = arg;
	char path[128], link[256];
	ssize_t n;

	if (strlen(bdf) != 12)
		return 0;
	snprintf(path, sizeof(path), SYSFS "/%s/driver", bdf);
	n = readlink(path, link, sizeof(link) - 1);
	if ((n >= 0) != d->want_bound)
		return 0;
	strcpy(d->bdf, bdf);
	if (n >= 0) {
		link[n] = 0;
		strcpy(d->drv, strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
	}
	return 1;
}

static void bound_device_is_refused_naming_driver_and_unbind(void **state)
{
	struct drv_search d = { .want_bound = 1 };
	char err[512] = "", want[512];
	struct stat st;

	(void)state;
	if (stat(SYSFS, &st) || sysfs_each(find_by_binding, &d) <= 0)
		skip();
	snprintf(want, sizeof(want), "%s is bound to the %s kernel driver; unbind it first: "
		 "echo %s > /sys/bus/pci/devices/%s/driver/unbind", d.bdf, d.drv, d.bdf, d.bdf);
	assert_int_equal(nvd_pci_check_unbound(d.bdf, err, sizeof(err)), -EBUSY);
	assert_string_equal(err, want);
	/* The short form of the same slot is the same device. */
	err[0] = 0;
	if (!strncmp(d.bdf, "0000:", 5)) {
		assert_int_equal(nvd_pci_check_unbound(d.bdf + 5, err, sizeof(err)), -EBUSY);
		assert_string_equal(err, want);
	}
}

static void unbound_device_passes_and_bad_slot_is_einval(void **state)
{
	struct drv_search d = { .want_bound = 0 };
	char err[256] = "";

	(void)state;
	assert_int_equal(nvd_pci_check_unbound("../../../etc", err, sizeof(err)), -EINVAL);
	assert_int_equal(nvd_pci_check_unbound(NULL, err, sizeof(err)), -EINVAL);
	if (sysfs_each(find_by_binding, &d) <= 0)
		skip();
	assert_int_equal(nvd_pci_check_unbound(d.bdf, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slot_parse_accepts_both_forms_and_canonicalises),
		cmocka_unit_test(malformed_slot_is_rejected_before_touching_the_bus),
		cmocka_unit_test(no_nv4x_card_on_this_machine_gives_the_exact_message),
		cmocka_unit_test(empty_slot_is_named_in_canonical_form),
		cmocka_unit_test(other_vendors_device_is_refused_with_its_ids),
		cmocka_unit_test(bound_device_is_refused_naming_driver_and_unbind),
		cmocka_unit_test(unbound_device_passes_and_bad_slot_is_einval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
