/* The simulated display: per-head register files behind the VGA ports and
 * the lock, a bit-banging I2C master reading each monitor's EDID over DDC,
 * the hw/display.h timing formulas against hand-computed CR values and
 * real modes, and vblank interrupts timed by PTIMER (which the test moves,
 * so the manual-mode card is deterministic). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>
#include <cmocka.h>

#include "hw/display.h"
#include "hw/regs.h"
#include "sim/sim.h"

/* lo <= v <= hi, with the value in the message (the big-endian runner's
 * cmocka has no assert_in_range). */
#define assert_true_range(v, lo, hi) do { \
	unsigned long v_ = (v); \
	if (v_ < (lo) || v_ > (hi)) \
		fail_msg("%s = %lu, not in [%lu, %lu]", #v, v_, (unsigned long)(lo), (unsigned long)(hi)); \
} while (0)

static uint8_t edid0[NV_EDID_SIZE], edid1[NV_EDID_SIZE];

static struct sim *new_card(const uint8_t *e0, const uint8_t *e1)
{
	struct sim_config cfg = { .chipset = 0x43, .vram_size = 32u << 20, .manual = 1 };
	char err[128];

	cfg.edid[0] = e0;
	cfg.edid[1] = e1;
	struct sim *s = sim_new(&cfg, err, sizeof(err));
	assert_non_null(s);
	return s;
}

static int setup(void **state)
{
	/* Distinct, non-trivial bytes per output (a valid header is not needed
	 * by the EEPROM). */
	uint32_t x = 0x12345678u;
	for (unsigned i = 0; i < NV_EDID_SIZE; i++) {
		x = x * 1103515245u + 12345u;
		edid0[i] = (uint8_t)(x >> 16);
		edid1[i] = (uint8_t)(x >> 8) ^ 0x5a;
	}
	*state = new_card(edid0, edid1);
	return 0;
}

static int teardown(void **state)
{
	sim_free(*state);
	return 0;
}

static void cr_wr(struct sim *s, unsigned head, uint8_t i, uint8_t v)
{
	sim_wr08(s, NV_HEAD_REG(NV_PRMCIO_CRX, head), i);
	sim_wr08(s, NV_HEAD_REG(NV_PRMCIO_CR, head), v);
}

static uint8_t cr_rd(struct sim *s, unsigned head, uint8_t i)
{
	sim_wr08(s, NV_HEAD_REG(NV_PRMCIO_CRX, head), i);
	return sim_rd08(s, NV_HEAD_REG(NV_PRMCIO_CR, head));
}

static void unlock(struct sim *s, unsigned head)
{
	cr_wr(s, head, NV_CR1F_LOCK, NV_CR1F_UNLOCK);
}

/* ---- registers ---- */

static void test_cr_registers_per_head(void **state)
{
	struct sim *s = *state;

	unlock(s, 0);
	unlock(s, 1);
	for (unsigned i = 0; i < 0x19; i++) {
		cr_wr(s, 0, (uint8_t)i, (uint8_t)(0x10 + i));
		cr_wr(s, 1, (uint8_t)i, (uint8_t)(0x80 + i));
	}
	cr_wr(s, 0, NV_CR28_PIXEL, NV_CR28_FORMAT_32);
	cr_wr(s, 1, NV_CR28_PIXEL, NV_CR28_FORMAT_16);
	cr_wr(s, 0, NV_CR42, 0x40);
	for (unsigned i = 0; i < 0x19; i++) {
		assert_int_equal(cr_rd(s, 0, (uint8_t)i), 0x10 + i);
		assert_int_equal(cr_rd(s, 1, (uint8_t)i), 0x80 + i);
	}
	assert_int_equal(cr_rd(s, 0, NV_CR28_PIXEL), NV_CR28_FORMAT_32);
	assert_int_equal(cr_rd(s, 1, NV_CR28_PIXEL), NV_CR28_FORMAT_16);
	assert_int_equal(cr_rd(s, 0, NV_CR42), 0x40);
	assert_int_equal(cr_rd(s, 1, NV_CR42), 0);
	/* Each head has its own index register. */
	sim_wr08(s, NV_HEAD_REG(NV_PRMCIO_CRX, 0), 0x13);
	sim_wr08(s, NV_HEAD_REG(NV_PRMCIO_CRX, 1), 0x28);
	assert_int_equal(sim_rd08(s, NV_PRMCIO_CRX), 0x13);
	assert_int_equal(sim_rd08(s, NV_HEAD_REG(NV_PRMCIO_CRX, 1)), 0x28);
	/* A 32-bit write to the port word is index then data ("outw"). */
	sim_wr32(s, NV_HEAD_REG(NV_PRMCIO_CRX, 1), NV_CR13_OFFSET | 0xa5u << 8);
	assert_int_equal(cr_rd(s, 1, NV_CR13_OFFSET), 0xa5);
	assert_int_equal(cr_rd(s, 0, NV_CR13_OFFSET), 0x23);
	assert_int_equal(sim_rd32(s, NV_HEAD_REG(NV_PRMCIO_CRX, 1)) & 0xffff, NV_CR13_OFFSET | 0xa5u << 8);
}

static void test_extended_crs_locked_until_cr1f_unlock(void **state)
{
	struct sim *s = *state;

	/* Power-on: locked, extended writes dropped, reads 0. */
	assert_int_equal(cr_rd(s, 0, NV_CR1F_LOCK), NV_CR1F_READ_LOCKED);
	cr_wr(s, 0, NV_CR28_PIXEL, 3);
	assert_int_equal(cr_rd(s, 0, NV_CR28_PIXEL), 0);
	cr_wr(s, 0, NV_CR13_OFFSET, 0x50);       /* standard CRs are not behind CR1F */
	assert_int_equal(cr_rd(s, 0, NV_CR13_OFFSET), 0x50);
	unlock(s, 0);
	assert_int_equal(cr_rd(s, 0, NV_CR1F_LOCK), NV_CR1F_READ_UNLOCKED);
	cr_wr(s, 0, NV_CR28_PIXEL, 3);
	assert_int_equal(cr_rd(s, 0, NV_CR28_PIXEL), 3);
	/* Head 1 is still locked. */
	cr_wr(s, 1, NV_CR28_PIXEL, 2);
	unlock(s, 1);
	assert_int_equal(cr_rd(s, 1, NV_CR28_PIXEL), 0);
	/* Locking again hides the value, unlocking shows it unchanged. */
	cr_wr(s, 0, NV_CR1F_LOCK, NV_CR1F_LOCK_VALUE);
	assert_int_equal(cr_rd(s, 0, NV_CR28_PIXEL), 0);
	unlock(s, 0);
	assert_int_equal(cr_rd(s, 0, NV_CR28_PIXEL), 3);
}

static void test_cr11_bit7_protects_cr00_to_cr07(void **state)
{
	struct sim *s = *state;

	cr_wr(s, 0, NV_CR00_HDT, 0x5f);
	cr_wr(s, 0, NV_CR07_OVL, 0x0e);
	cr_wr(s, 0, NV_CR11_VRE, NV_CR11_LOCK | 0x0b);
	cr_wr(s, 0, NV_CR00_HDT, 0x11);
	cr_wr(s, 0, NV_CR07_OVL, 0xff);           /* only bit 4 gets in */
	cr_wr(s, 0, NV_CR10_VRS, 0xe9);           /* CR10 is not protected */
	assert_int_equal(cr_rd(s, 0, NV_CR00_HDT), 0x5f);
	assert_int_equal(cr_rd(s, 0, NV_CR07_OVL), 0x1e);
	assert_int_equal(cr_rd(s, 0, NV_CR10_VRS), 0xe9);
	cr_wr(s, 0, NV_CR11_VRE, 0x0b);
	cr_wr(s, 0, NV_CR00_HDT, 0x11);
	assert_int_equal(cr_rd(s, 0, NV_CR00_HDT), 0x11);
}

static void test_pcrtc_pramdac_registers_per_head(void **state)
{
	struct sim *s = *state;

	sim_wr32(s, NV_PCRTC_START, 0x00123400);
	sim_wr32(s, NV_HEAD_REG(NV_PCRTC_START, 1), 0x00abc000);
	sim_wr32(s, NV_PCRTC_CURSOR_CONFIG, NV_PCRTC_CURSOR_CONFIG_NV40);
	sim_wr32(s, NV_HEAD_REG(NV_PCRTC_CONFIG, 1), NV_PCRTC_CONFIG_START_ADDRESS_HSYNC);
	sim_wr32(s, NV_PRAMDAC_CU_START_POS, NV_PRAMDAC_CU_START_POS_VAL(-5, 300));
	sim_wr32(s, NV_HEAD_REG(NV_PRAMDAC_GENERAL_CONTROL, 1),
		 NV_PRAMDAC_GENERAL_CONTROL_NV40 | NV_PRAMDAC_GENERAL_CONTROL_ALT_MODE_SEL);
	sim_wr32(s, NV_PCRTC_INTR_EN_0, 1);

	assert_int_equal(sim_rd32(s, NV_PCRTC_START), 0x00123400);
	assert_int_equal(sim_rd32(s, NV_HEAD_REG(NV_PCRTC_START, 1)), 0x00abc000);
	assert_int_equal(sim_rd32(s, NV_PCRTC_CURSOR_CONFIG), NV_PCRTC_CURSOR_CONFIG_NV40);
	assert_int_equal(sim_rd32(s, NV_HEAD_REG(NV_PCRTC_CURSOR_CONFIG, 1)), 0);
	assert_int_equal(sim_rd32(s, NV_PCRTC_CONFIG), 0);
	assert_int_equal(sim_rd32(s, NV_HEAD_REG(NV_PCRTC_CONFIG, 1)), NV_PCRTC_CONFIG_START_ADDRESS_HSYNC);
	uint32_t pos = sim_rd32(s, NV_PRAMDAC_CU_START_POS);
	assert_int_equal(NV_PRAMDAC_CU_START_POS_X(pos), -5);
	assert_int_equal(NV_PRAMDAC_CU_START_POS_Y(pos), 300);
	assert_int_equal(sim_rd32(s, NV_HEAD_REG(NV_PRAMDAC_CU_START_POS, 1)), 0);
	assert_int_equal(sim_rd32(s, NV_PRAMDAC_GENERAL_CONTROL), 0);
	assert_int_equal(sim_rd32(s, NV_HEAD_REG(NV_PRAMDAC_GENERAL_CONTROL, 1)),
			 NV_PRAMDAC_GENERAL_CONTROL_NV40 | NV_PRAMDAC_GENERAL_CONTROL_ALT_MODE_SEL);
	assert_int_equal(sim_rd32(s, NV_PCRTC_INTR_EN_0), 1);
	assert_int_equal(sim_rd32(s, NV_HEAD_REG(NV_PCRTC_INTR_EN_0, 1)), 0);
	/* RASTER is read-only; off heads sit at line 0. */
	sim_wr32(s, NV_PCRTC_RASTER, 0x1234);
	assert_int_equal(sim_rd32(s, NV_PCRTC_RASTER), 0);
	/* A register nobody models still stores. */
	sim_wr32(s, NV_HEAD_REG(0x680630, 1), 0x77);
	assert_int_equal(sim_rd32(s, NV_HEAD_REG(0x680630, 1)), 0x77);
	assert_int_equal(sim_rd32(s, 0x680630), 0);
}

static void test_sequencer_misc_palette_per_head(void **state)
{
	struct sim *s = *state;

	sim_wr08(s, NV_PRMVIO_SRX, NV_SR01_CLOCK);
	sim_wr08(s, NV_PRMVIO_SR, NV_SR01_VALUE | NV_SR01_SCREEN_OFF);
	sim_wr08(s, NV_HEAD_REG(NV_PRMVIO_SRX, 1), NV_SR01_CLOCK);
	sim_wr08(s, NV_HEAD_REG(NV_PRMVIO_SR, 1), NV_SR01_VALUE);
	sim_wr08(s, NV_HEAD_REG(NV_PRMVIO_MISC_WRITE, 1), 0xe3);
	assert_int_equal(sim_rd08(s, NV_PRMVIO_SR), NV_SR01_VALUE | NV_SR01_SCREEN_OFF);
	assert_int_equal(sim_rd08(s, NV_HEAD_REG(NV_PRMVIO_SR, 1)), NV_SR01_VALUE);
	assert_int_equal(sim_rd08(s, NV_HEAD_REG(NV_PRMVIO_MISC_READ, 1)), 0xe3);
	assert_int_equal(sim_rd08(s, NV_PRMVIO_MISC_READ), NV_MISC_OUT_BASE);

	/* Palette: entry 7 of head 1 = (1, 2, 3), read back through the read index. */
	sim_wr08(s, NV_HEAD_REG(NV_PRMDIO_WRITE_MODE_ADDRESS, 1), 7);
	for (unsigned i = 1; i <= 3; i++)
		sim_wr08(s, NV_HEAD_REG(NV_PRMDIO_PALETTE_DATA, 1), (uint8_t)i);
	sim_wr08(s, NV_HEAD_REG(NV_PRMDIO_READ_MODE_ADDRESS, 1), 7);
	for (unsigned i = 1; i <= 3; i++)
		assert_int_equal(sim_rd08(s, NV_HEAD_REG(NV_PRMDIO_PALETTE_DATA, 1)), i);
	sim_wr08(s, NV_PRMDIO_READ_MODE_ADDRESS, 7);
	assert_int_equal(sim_rd08(s, NV_PRMDIO_PALETTE_DATA), 0);
}

/* ---- DDC ---- */

/* The master side, as nvkm's busnv04 drives it: WR register keeps its
 * other bits and bit 0, STATUS gives the lines. */
static void ddc_set(struct sim *s, unsigned bus, int scl, int sda)
{
	cr_wr(s, 0, NV_DDC_WR(bus), (uint8_t)(NV_DDC_WR_ENABLE | (scl ? NV_DDC_WR_SCL : 0) |
					      (sda ? NV_DDC_WR_SDA : 0)));
}

static int ddc_sda(struct sim *s, unsigned bus)
{
	return !!(cr_rd(s, 0, NV_DDC_STATUS(bus)) & NV_DDC_STATUS_SDA);
}

static void i2c_start(struct sim *s, unsigned bus)
{
	ddc_set(s, bus, 0, 1);
	ddc_set(s, bus, 1, 1);
	ddc_set(s, bus, 1, 0);
	ddc_set(s, bus, 0, 0);
}

static void i2c_stop(struct sim *s, unsigned bus)
{
	ddc_set(s, bus, 0, 0);
	ddc_set(s, bus, 1, 0);
	ddc_set(s, bus, 1, 1);
}

/* 1 if the slave ACKed. */
static int i2c_write(struct sim *s, unsigned bus, uint8_t byte)
{
	for (int i = 7; i >= 0; i--) {
		int bit = (byte >> i) & 1;
		ddc_set(s, bus, 0, bit);
		ddc_set(s, bus, 1, bit);
		ddc_set(s, bus, 0, bit);
	}
	ddc_set(s, bus, 0, 1);
	ddc_set(s, bus, 1, 1);
	int ack = !ddc_sda(s, bus);
	ddc_set(s, bus, 0, 1);
	return ack;
}

static uint8_t i2c_read(struct sim *s, unsigned bus, int ack)
{
	uint8_t v = 0;

	for (int i = 0; i < 8; i++) {
		ddc_set(s, bus, 0, 1);
		ddc_set(s, bus, 1, 1);
		v = (uint8_t)(v << 1 | ddc_sda(s, bus));
		ddc_set(s, bus, 0, 1);
	}
	ddc_set(s, bus, 0, !ack);
	ddc_set(s, bus, 1, !ack);
	ddc_set(s, bus, 0, !ack);
	return v;
}

/* Random read: word address, repeated START, sequential read of n. */
static int eeprom_read(struct sim *s, unsigned bus, uint8_t at, uint8_t *buf, unsigned n)
{
	i2c_start(s, bus);
	if (!i2c_write(s, bus, NV_DDC_EDID_ADDR << 1)) {
		i2c_stop(s, bus);
		return -1;
	}
	if (!i2c_write(s, bus, at))
		return -1;
	i2c_start(s, bus);
	if (!i2c_write(s, bus, NV_DDC_EDID_ADDR << 1 | 1))
		return -1;
	for (unsigned i = 0; i < n; i++)
		buf[i] = i2c_read(s, bus, i + 1 < n);
	i2c_stop(s, bus);
	return 0;
}

static void test_ddc_reads_each_outputs_edid(void **state)
{
	struct sim *s = *state;
	uint8_t buf[NV_EDID_SIZE];

	unlock(s, 0);
	/* Released lines read high. */
	assert_int_equal(cr_rd(s, 0, NV_CR3E_DDC0_STATUS), NV_DDC_STATUS_SCL | NV_DDC_STATUS_SDA);
	assert_int_equal(eeprom_read(s, 0, 0, buf, sizeof(buf)), 0);
	assert_memory_equal(buf, edid0, sizeof(buf));
	assert_int_equal(eeprom_read(s, 1, 0, buf, sizeof(buf)), 0);
	assert_memory_equal(buf, edid1, sizeof(buf));
	/* Random read in the middle. */
	assert_int_equal(eeprom_read(s, 1, 0x45, buf, 9), 0);
	assert_memory_equal(buf, edid1 + 0x45, 9);
	/* Sequential reads wrap at the end of the 128 bytes. */
	assert_int_equal(eeprom_read(s, 0, 0x7e, buf, 4), 0);
	assert_memory_equal(buf, edid0 + 0x7e, 2);
	assert_memory_equal(buf + 2, edid0, 2);
	/* The write register reads back as written; the status follows lines. */
	ddc_set(s, 0, 1, 0);
	assert_int_equal(cr_rd(s, 0, NV_CR3F_DDC0_WR), NV_DDC_WR_ENABLE | NV_DDC_WR_SCL);
	assert_int_equal(cr_rd(s, 0, NV_CR3E_DDC0_STATUS), NV_DDC_STATUS_SCL);
	ddc_set(s, 0, 1, 1);                      /* a STOP */
}

static void test_ddc_current_address_read_without_word_address(void **state)
{
	struct sim *s = *state;
	uint8_t buf[16];

	unlock(s, 0);
	/* A fresh EEPROM starts at 0. */
	i2c_start(s, 1);
	assert_true(i2c_write(s, 1, NV_DDC_EDID_ADDR << 1 | 1));
	for (unsigned i = 0; i < 5; i++)
		buf[i] = i2c_read(s, 1, i < 4);
	i2c_stop(s, 1);
	assert_memory_equal(buf, edid1, 5);
	/* The next one goes on after the last byte read. */
	i2c_start(s, 1);
	assert_true(i2c_write(s, 1, NV_DDC_EDID_ADDR << 1 | 1));
	for (unsigned i = 0; i < 3; i++)
		buf[i] = i2c_read(s, 1, i < 2);
	i2c_stop(s, 1);
	assert_memory_equal(buf, edid1 + 5, 3);
}

static void test_ddc_no_monitor_and_wrong_address_not_acked(void **state)
{
	struct sim *s = *state;
	struct sim *bare = new_card(edid0, NULL);
	uint8_t buf[4];

	unlock(bare, 0);
	assert_int_equal(eeprom_read(bare, 1, 0, buf, 4), -1);
	assert_int_equal(eeprom_read(bare, 0, 0, buf, 4), 0);
	assert_memory_equal(buf, edid0, 4);
	sim_free(bare);

	unlock(s, 0);
	i2c_start(s, 0);
	assert_false(i2c_write(s, 0, 0x51 << 1 | 1));
	i2c_stop(s, 0);
	/* The bus still works afterwards. */
	assert_int_equal(eeprom_read(s, 0, 0x10, buf, 4), 0);
	assert_memory_equal(buf, edid0 + 0x10, 4);
}

static void test_ddc_on_head1_port_is_not_a_bus(void **state)
{
	struct sim *s = *state;

	unlock(s, 1);
	cr_wr(s, 1, NV_CR3F_DDC0_WR, NV_DDC_WR_ENABLE);   /* both lines "low" */
	unlock(s, 0);
	assert_int_equal(cr_rd(s, 0, NV_CR3E_DDC0_STATUS), NV_DDC_STATUS_SCL | NV_DDC_STATUS_SDA);
}

/* ---- timings ---- */

struct mode {
	const char *name;
	uint32_t khz;
	struct nv_crtc_timing t;
};

static const struct mode modes[] = {
	{ "640x480@60 DMT", 25175, { 640, 656, 752, 800, 480, 490, 492, 525,
				     NV_CRTC_TIMING_NHSYNC | NV_CRTC_TIMING_NVSYNC } },
	{ "800x600@60 DMT", 40000, { 800, 840, 968, 1056, 600, 601, 605, 628, 0 } },
	{ "1024x768@60 DMT", 65000, { 1024, 1048, 1184, 1344, 768, 771, 777, 806,
				      NV_CRTC_TIMING_NHSYNC | NV_CRTC_TIMING_NVSYNC } },
	{ "1280x1024@60 DMT", 108000, { 1280, 1328, 1440, 1688, 1024, 1025, 1028, 1066, 0 } },
	{ "1600x1200@60 DMT", 162000, { 1600, 1664, 1856, 2160, 1200, 1201, 1204, 1250, 0 } },
	{ "1920x1200@60 CVT-RB", 154000, { 1920, 1968, 2000, 2080, 1200, 1203, 1209, 1235,
					   NV_CRTC_TIMING_NVSYNC } },
	{ "1920x1080@60 CVT-RB", 138500, { 1920, 1968, 2000, 2080, 1080, 1083, 1088, 1111,
					   NV_CRTC_TIMING_NVSYNC } },
	{ "320x200 doublescan", 12588, { 320, 336, 376, 400, 400, 412, 414, 449,
					 NV_CRTC_TIMING_DBLSCAN | NV_CRTC_TIMING_NVSYNC } },
};

static void test_timing_640x480_hand_computed_crs(void **state)
{
	uint8_t cr[NV_CR_COUNT] = { 0 };
	(void)state;

	nv_crtc_timing_to_cr(&modes[0].t, 2560, cr);
	/* htotal 800/8 - 5, hdisplay 80 - 1, hsync 656/8 + 1, end 95 & 31 | HBE bit 5 */
	assert_int_equal(cr[NV_CR00_HDT], 0x5f);
	assert_int_equal(cr[NV_CR01_HDE], 0x4f);
	assert_int_equal(cr[NV_CR02_HBS], 0x4f);
	assert_int_equal(cr[NV_CR03_HBE], 0x80 | (99 & 0x1f));
	assert_int_equal(cr[NV_CR04_HRS], 0x53);
	assert_int_equal(cr[NV_CR05_HRE], 0x80 | 0x1f);
	/* vtotal 523 = 0x20b, vdisplay 479 = 0x1df, vsync 489 = 0x1e9 */
	assert_int_equal(cr[NV_CR06_VDT], 0x0b);
	assert_int_equal(cr[NV_CR07_OVL], 0x3e);     /* the classic VGA 640x480 value */
	assert_int_equal(cr[NV_CR09_CELL_HT], 0x40);
	assert_int_equal(cr[NV_CR10_VRS], 0xe9);
	assert_int_equal(cr[NV_CR11_VRE], 0x20 | (491 & 0xf));
	assert_int_equal(cr[NV_CR12_VDE], 0xdf);
	assert_int_equal(cr[NV_CR15_VBS], 0xdf);
	assert_int_equal(cr[NV_CR16_VBE], 524 & 0xff);
	assert_int_equal(cr[NV_CR17_MODE], 0x43);
	/* pitch 2560 / 8 = 320 = 0x140 */
	assert_int_equal(cr[NV_CR13_OFFSET], 0x40);
	assert_int_equal(cr[NV_CR19_RPC0], 1 << 5);
	assert_int_equal(cr[NV_CR42], 0);
	assert_int_equal(cr[NV_CR1A_RPC1], NV_CR1A_LARGE);
	assert_int_equal(cr[NV_CR25_LSR], 0x10);       /* HBE bit 6 of 99 */
	assert_int_equal(cr[NV_CR2D_HEB], 0);
	assert_int_equal(cr[NV_CR41_EBR], 0);
	assert_int_equal(nv_misc_out(&modes[0].t), 0xe3);
	assert_int_equal(nv_crtc_pitch_from_cr(cr), 2560);
	assert_int_equal(nv_crtc_vblank_start(cr), 480);
}

static void test_timing_split_join_round_trips_real_modes(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		const struct nv_crtc_timing *t = &modes[i].t;
		struct nv_crtc_timing back;
		uint8_t cr[NV_CR_COUNT];
		uint32_t pitch = t->hdisplay * 4;

		memset(cr, 0xcc, sizeof(cr));
		assert_true(nv_crtc_timing_fits(t));
		nv_crtc_timing_to_cr(t, pitch, cr);
		nv_crtc_timing_from_cr(cr, nv_misc_out(t), &back);
		if (memcmp(&back, t, sizeof(back)))
			fail_msg("%s: got %ux%u %u %u %u / %u %u %u flags %x", modes[i].name,
				 back.hdisplay, back.vdisplay, back.hsync_start, back.hsync_end,
				 back.htotal, back.vsync_start, back.vsync_end, back.vtotal, back.flags);
		assert_int_equal(nv_crtc_pitch_from_cr(cr), pitch);
		assert_int_equal(nv_crtc_vblank_start(cr), t->vdisplay);
	}
}

static void test_timing_large_pitch_uses_cr42(void **state)
{
	uint8_t cr[NV_CR_COUNT] = { 0 };
	(void)state;

	nv_crtc_timing_to_cr(&modes[6].t, 16384 + 8 * 0x123, cr);   /* off = 0x923 */
	assert_int_equal(cr[NV_CR13_OFFSET], 0x23);
	assert_int_equal(cr[NV_CR19_RPC0], 1 << 5);
	assert_int_equal(cr[NV_CR42], NV_CR42_OFFSET_11);
	assert_int_equal(nv_crtc_pitch_from_cr(cr), 16384 + 8 * 0x123);
}

static void test_timing_fits_refuses_unrepresentable(void **state)
{
	struct nv_crtc_timing t = modes[0].t;
	(void)state;

	t.hsync_start = 652;                      /* not a character boundary */
	assert_false(nv_crtc_timing_fits(&t));
	t = modes[0].t;
	t.vsync_end = t.vsync_start + 17;         /* CR11 holds 4 bits */
	assert_false(nv_crtc_timing_fits(&t));
	t = modes[0].t;
	t.htotal = NV_CRTC_MAX_HTOTAL + 8;
	assert_false(nv_crtc_timing_fits(&t));
	t = modes[0].t;
	t.vtotal = NV_CRTC_MAX_VTOTAL + 1;
	assert_false(nv_crtc_timing_fits(&t));
}

static void test_vpll_coefficients_reach_the_clock(void **state)
{
	(void)state;
	assert_int_equal(nv_crystal_khz(0), 13500);
	assert_int_equal(nv_crystal_khz(NV_PEXTDEV_BOOT_0_XTAL_14318), 14318);
	/* 13500 * 0x70 / 0x0f >> 2 = 25200 */
	assert_int_equal(nv_vpll_khz(2u << 16 | 0x70u << 8 | 0x0f, 0, 13500), 25200);
	/* Stage 2 only with its enable bit: x 3 / 2 */
	assert_int_equal(nv_vpll_khz(2u << 16 | 0x70u << 8 | 0x0f, NV_VPLL_B_VCO2_ENABLE | 3u << 8 | 2,
				     13500), 37800);
	assert_int_equal(nv_vpll_khz(2u << 16 | 0x70u << 8 | 0x0f, 3u << 8 | 2, 13500), 25200);
	assert_int_equal(nv_vpll_khz(0, 0, 13500), 0);
	for (unsigned i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		uint32_t a, got = nv_vpll_coeff(modes[i].khz, 13500, &a);
		assert_int_equal(nv_vpll_khz(a, 0, 13500), got);
		assert_true(got * 200ull > modes[i].khz * 199ull && got * 200ull < modes[i].khz * 201ull);
	}
}

/* ---- vblank ---- */

static void set_time(struct sim *s, uint64_t ns)
{
	sim_wr32(s, NV_PTIMER_TIME_HI, (uint32_t)(ns >> 32));
	sim_wr32(s, NV_PTIMER_TIME_LO, (uint32_t)ns);
}

/* Program a mode the way the contract in hw/display.h says, then turn on. */
static void head_on(struct sim *s, unsigned head, const struct mode *m, int vpll)
{
	uint8_t cr[NV_CR_COUNT] = { 0 };
	uint32_t a;

	unlock(s, head);
	nv_crtc_timing_to_cr(&m->t, m->t.hdisplay * 4, cr);
#define W(i) cr_wr(s, head, i, cr[i]);
	NV_CR_MODE_REGS(W)
#undef W
	cr_wr(s, head, NV_CR28_PIXEL, nv_cr28_for_depth(24));
	sim_wr08(s, NV_HEAD_REG(NV_PRMVIO_MISC_WRITE, head), nv_misc_out(&m->t));
	if (vpll) {
		assert_true(nv_vpll_coeff(m->khz, 13500, &a));
		sim_wr32(s, NV_PRAMDAC_VPLL_COEFF(head), a);
		sim_wr32(s, NV_PRAMDAC_VPLL_COEFF_B(head), 0);
	}
	sim_wr32(s, NV_HEAD_REG(NV_PCRTC_CONFIG, head), NV_PCRTC_CONFIG_START_ADDRESS_HSYNC);
	cr_wr(s, head, NV_CR17_MODE, cr[NV_CR17_MODE] | NV_CR17_SYNC_ENABLE);
}

static int irq_fired(struct sim *s)
{
	uint64_t n;
	return read(sim_irq_fd(s), &n, sizeof(n)) == sizeof(n) && n > 0;
}

/* 640x480 at 25.2 MHz (what the PLL search reaches): 800 * 525 / 25.2 MHz
 * = 16.667 ms a frame, vblank from line 480: 15.238 ms in. */
static void test_vblank_raises_intr_w1c_clears(void **state)
{
	struct sim *s = *state;

	sim_wr32(s, NV_PMC_INTR_EN, NV_PMC_INTR_EN_HOST);
	set_time(s, 1000000);
	head_on(s, 0, &modes[0], 1);
	sim_wr32(s, NV_PCRTC_INTR_EN_0, NV_PCRTC_INTR_EN_0_VBLANK);
	/* Time going backwards restarts the frame: it begins now, at 0,
	 * however long programming the head took (qemu is slow). */
	set_time(s, 0);
	assert_int_equal(sim_rd32(s, NV_PCRTC_INTR_0), 0);
	while (irq_fired(s)) {
	}

	set_time(s, 14000000);
	assert_int_equal(sim_rd32(s, NV_PCRTC_INTR_0), 0);
	uint32_t r = sim_rd32(s, NV_PCRTC_RASTER);
	assert_false(r & NV_PCRTC_RASTER_VBLANK);
	assert_true_range(NV_PCRTC_RASTER_POSITION(r), 435, 445);   /* 14 ms / 31.75 us */
	assert_false(sim_rd32(s, NV_PMC_INTR) & NV_PMC_UNIT_PCRTC0);
	assert_false(irq_fired(s));

	set_time(s, 15800000);
	assert_int_equal(sim_rd32(s, NV_PCRTC_INTR_0), NV_PCRTC_INTR_0_VBLANK);
	r = sim_rd32(s, NV_PCRTC_RASTER);
	assert_true(r & NV_PCRTC_RASTER_VBLANK);
	assert_true_range(NV_PCRTC_RASTER_POSITION(r), 490, 505);
	assert_true(sim_rd32(s, NV_PMC_INTR) & NV_PMC_UNIT_PCRTC0);
	assert_false(sim_rd32(s, NV_PMC_INTR) & NV_PMC_UNIT_PCRTC1);
	assert_true(irq_fired(s));

	sim_wr32(s, NV_PCRTC_INTR_0, NV_PCRTC_INTR_0_VBLANK);
	assert_int_equal(sim_rd32(s, NV_PCRTC_INTR_0), 0);
	assert_false(sim_rd32(s, NV_PMC_INTR) & NV_PMC_UNIT_PCRTC0);
	/* Same frame: nothing new.  Next frame's vblank: again. */
	set_time(s, 16500000);
	assert_int_equal(sim_rd32(s, NV_PCRTC_INTR_0), 0);
	set_time(s, 16666667 + 15800000);
	assert_int_equal(sim_rd32(s, NV_PCRTC_INTR_0), NV_PCRTC_INTR_0_VBLANK);
	/* The head that is off raised nothing. */
	assert_int_equal(sim_rd32(s, NV_HEAD_REG(NV_PCRTC_INTR_0, 1)), 0);
}

static void test_vblank_intr_en_masks_pmc(void **state)
{
	struct sim *s = *state;

	sim_wr32(s, NV_PMC_INTR_EN, NV_PMC_INTR_EN_HOST);
	set_time(s, 0);
	head_on(s, 1, &modes[0], 1);
	while (irq_fired(s)) {
	}
	set_time(s, 15800000);
	/* Pending in PCRTC, but masked: no PMC bit, no interrupt. */
	assert_int_equal(sim_rd32(s, NV_HEAD_REG(NV_PCRTC_INTR_0, 1)), NV_PCRTC_INTR_0_VBLANK);
	assert_false(sim_rd32(s, NV_PMC_INTR) & NV_PMC_UNIT_PCRTC1);
	assert_false(irq_fired(s));
	/* Enabling delivers the pending one. */
	sim_wr32(s, NV_HEAD_REG(NV_PCRTC_INTR_EN_0, 1), NV_PCRTC_INTR_EN_0_VBLANK);
	assert_true(sim_rd32(s, NV_PMC_INTR) & NV_PMC_UNIT_PCRTC1);
	assert_false(sim_rd32(s, NV_PMC_INTR) & NV_PMC_UNIT_PCRTC0);
	assert_true(irq_fired(s));
}

static void test_head_off_raises_nothing(void **state)
{
	struct sim *s = *state;

	sim_wr32(s, NV_PMC_INTR_EN, NV_PMC_INTR_EN_HOST);
	sim_wr32(s, NV_PCRTC_INTR_EN_0, 1);
	sim_wr32(s, NV_HEAD_REG(NV_PCRTC_INTR_EN_0, 1), 1);
	set_time(s, 0);
	/* Head 0 fully programmed but DPMS off (syncs off); head 1 in VGA
	 * start addressing. */
	head_on(s, 0, &modes[0], 1);
	cr_wr(s, 0, NV_CR1A_RPC1, cr_rd(s, 0, NV_CR1A_RPC1) | NV_CR1A_HSYNC_OFF | NV_CR1A_VSYNC_OFF);
	head_on(s, 1, &modes[1], 1);
	sim_wr32(s, NV_HEAD_REG(NV_PCRTC_CONFIG, 1), NV_PCRTC_CONFIG_START_ADDRESS_VGA);
	for (uint64_t t = 0; t < 200000000; t += 5000000) {
		set_time(s, t);
		assert_int_equal(sim_rd32(s, NV_PCRTC_INTR_0), 0);
		assert_int_equal(sim_rd32(s, NV_HEAD_REG(NV_PCRTC_INTR_0, 1)), 0);
		assert_int_equal(sim_rd32(s, NV_PCRTC_RASTER), 0);
	}
	assert_false(sim_rd32(s, NV_PMC_INTR) & (NV_PMC_UNIT_PCRTC0 | NV_PMC_UNIT_PCRTC1));
	/* Back on: vblanks come. */
	cr_wr(s, 0, NV_CR1A_RPC1, NV_CR1A_LARGE);
	set_time(s, 300000000);
	set_time(s, 320000000);
	assert_int_equal(sim_rd32(s, NV_PCRTC_INTR_0), NV_PCRTC_INTR_0_VBLANK);
}

/* Vblanks seen in one second of PTIMER time, stepping by 1 ms and clearing. */
static unsigned count_vblanks(struct sim *s, unsigned head)
{
	unsigned n = 0;
	for (uint64_t t = 1; t <= 1000; t++) {
		set_time(s, 1000000000ull + t * 1000000);
		if (sim_rd32(s, NV_HEAD_REG(NV_PCRTC_INTR_0, head)) & NV_PCRTC_INTR_0_VBLANK) {
			n++;
			sim_wr32(s, NV_HEAD_REG(NV_PCRTC_INTR_0, head), NV_PCRTC_INTR_0_VBLANK);
		}
	}
	return n;
}

static void test_vblank_rate_follows_mode(void **state)
{
	struct sim *s = *state;
	struct mode fast = modes[0];

	/* 640x480 timings at 31.5 MHz: 75 Hz; 1024x768 at 65 MHz: 60.0 Hz. */
	fast.khz = 31500;
	set_time(s, 1000000000ull);
	head_on(s, 0, &fast, 1);
	head_on(s, 1, &modes[2], 1);
	unsigned n0 = count_vblanks(s, 0);
	assert_true_range(n0, 74, 76);
	set_time(s, 1000000000ull);
	head_on(s, 1, &modes[2], 1);
	unsigned n1 = count_vblanks(s, 1);
	assert_true_range(n1, 59, 61);
}

static void test_vblank_60hz_without_vpll(void **state)
{
	struct sim *s = *state;

	set_time(s, 1000000000ull);
	head_on(s, 0, &modes[6], 0);
	assert_true_range(count_vblanks(s, 0), 59, 61);
}

/* With the worker thread, the eventfd fires on its own at the vblank: a
 * host sleeping in poll() is woken without touching a register. */
static void test_vblank_wakes_a_sleeping_host(void **state)
{
	struct sim_config cfg = { .chipset = 0x43, .vram_size = 32u << 20 };
	char err[128];
	struct sim *s = sim_new(&cfg, err, sizeof(err));
	struct pollfd p = { .fd = sim_irq_fd(s), .events = POLLIN };
	(void)state;

	assert_non_null(s);
	sim_wr32(s, NV_PMC_INTR_EN, NV_PMC_INTR_EN_HOST);
	head_on(s, 0, &modes[0], 1);
	sim_wr32(s, NV_PCRTC_INTR_EN_0, NV_PCRTC_INTR_EN_0_VBLANK);
	for (int frames = 0; frames < 3; frames++) {
		assert_int_equal(poll(&p, 1, 1000), 1);
		assert_true(irq_fired(s));
		assert_true(sim_rd32(s, NV_PMC_INTR) & NV_PMC_UNIT_PCRTC0);
		sim_wr32(s, NV_PCRTC_INTR_0, NV_PCRTC_INTR_0_VBLANK);
		while (irq_fired(s)) {
		}
	}
	/* Masked: silence. */
	sim_wr32(s, NV_PCRTC_INTR_EN_0, 0);
	while (irq_fired(s)) {
	}
	assert_int_equal(poll(&p, 1, 100), 0);
	sim_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_cr_registers_per_head),
		T(test_extended_crs_locked_until_cr1f_unlock),
		T(test_cr11_bit7_protects_cr00_to_cr07),
		T(test_pcrtc_pramdac_registers_per_head),
		T(test_sequencer_misc_palette_per_head),
		T(test_ddc_reads_each_outputs_edid),
		T(test_ddc_current_address_read_without_word_address),
		T(test_ddc_no_monitor_and_wrong_address_not_acked),
		T(test_ddc_on_head1_port_is_not_a_bus),
		cmocka_unit_test(test_timing_640x480_hand_computed_crs),
		cmocka_unit_test(test_timing_split_join_round_trips_real_modes),
		cmocka_unit_test(test_timing_large_pitch_uses_cr42),
		cmocka_unit_test(test_timing_fits_refuses_unrepresentable),
		cmocka_unit_test(test_vpll_coefficients_reach_the_clock),
		T(test_vblank_raises_intr_w1c_clears),
		T(test_vblank_intr_en_masks_pmc),
		T(test_head_off_raises_nothing),
		T(test_vblank_rate_follows_mode),
		T(test_vblank_60hz_without_vpll),
		cmocka_unit_test(test_vblank_wakes_a_sleeping_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
