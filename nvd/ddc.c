/* The monitors' EDID, read over DDC as on real hardware: I2C bit-banged
 * through head 0's CR port (nvkm busnv04). */
#include "nvd/disp.h"

#include <errno.h>

struct ddc {
	struct nvd *d;
	unsigned bus;
	uint8_t wr;                /* what the drive register holds */
};

static void ddc_drive(struct ddc *b, int scl, int sda)
{
	b->wr = (uint8_t)((b->wr & ~(NV_DDC_WR_SCL | NV_DDC_WR_SDA)) | (scl ? NV_DDC_WR_SCL : 0) |
			  (sda ? NV_DDC_WR_SDA : 0) | NV_DDC_WR_ENABLE);
	disp_cr_wr(b->d, 0, NV_DDC_WR(b->bus), b->wr);
}

static int ddc_sda(struct ddc *b)
{
	return !!(disp_cr_rd(b->d, 0, NV_DDC_STATUS(b->bus)) & NV_DDC_STATUS_SDA);
}

static void ddc_start(struct ddc *b)
{
	ddc_drive(b, 1, 1);
	ddc_drive(b, 1, 0);
	ddc_drive(b, 0, 0);
}

static void ddc_stop(struct ddc *b)
{
	ddc_drive(b, 0, 0);
	ddc_drive(b, 1, 0);
	ddc_drive(b, 1, 1);
}

/* 1 if the slave acknowledged. */
static int ddc_put(struct ddc *b, uint8_t v)
{
	for (int i = 7; i >= 0; i--) {
		int bit = (v >> i) & 1;
		ddc_drive(b, 0, bit);
		ddc_drive(b, 1, bit);
		ddc_drive(b, 0, bit);
	}
	ddc_drive(b, 0, 1);        /* let go of SDA for the acknowledge */
	ddc_drive(b, 1, 1);
	int ack = !ddc_sda(b);
	ddc_drive(b, 0, 1);
	return ack;
}

static uint8_t ddc_get(struct ddc *b, int ack)
{
	uint8_t v = 0;
	ddc_drive(b, 0, 1);
	for (int i = 0; i < 8; i++) {
		ddc_drive(b, 1, 1);
		v = (uint8_t)(v << 1 | ddc_sda(b));
		ddc_drive(b, 0, 1);
	}
	ddc_drive(b, 0, !ack);
	ddc_drive(b, 1, !ack);
	ddc_drive(b, 0, !ack);
	return v;
}

/* The EEPROM at NV_DDC_EDID_ADDR: offset 0, then 128 bytes.  -ENODEV when
 * nothing acknowledges (no monitor). */
int disp_ddc_read_edid(struct nvd *d, unsigned bus, uint8_t *edid)
{
	struct ddc b = { d, bus, disp_cr_rd(d, 0, NV_DDC_WR(bus)) };
	int r = -ENODEV;

	ddc_start(&b);
	if (!ddc_put(&b, NV_DDC_EDID_ADDR << 1) || !ddc_put(&b, 0))
		goto out;
	ddc_start(&b);             /* repeated start, to read */
	if (!ddc_put(&b, NV_DDC_EDID_ADDR << 1 | 1))
		goto out;
	for (unsigned i = 0; i < NV_EDID_SIZE; i++)
		edid[i] = ddc_get(&b, i + 1 < NV_EDID_SIZE);
	r = 0;
out:
	ddc_stop(&b);
	return r;
}
