/* DDC: the slave end of a bit-banged I2C bus with a 24C01-style EEPROM at
 * NV_DDC_EDID_ADDR holding a monitor's EDID.  The lines are open drain: each
 * reads high only while neither the master nor the slave pulls it low; the
 * master has no clock stretching to expect.  The slave changes SDA only
 * while SCL is low, samples on SCL's rising edge, and sees a START or STOP
 * when SDA moves while SCL is high. */
#include <string.h>

#include "priv.h"

enum {
	I2C_IDLE,          /* waiting for a START */
	I2C_RX,            /* receiving a byte (address, word address, data) */
	I2C_ACK_OUT,       /* driving our ACK (or not) for the 9th clock */
	I2C_TX,            /* sending a byte */
	I2C_ACK_IN,        /* the master ACKs (more) or NACKs (done) */
};

/* What the byte being received is. */
enum { I2C_BYTE_ADDR, I2C_BYTE_WADDR, I2C_BYTE_DATA };

void sim_i2c_reset(struct sim_i2c *b, const uint8_t *edid)
{
	memset(b, 0, sizeof(*b));
	b->scl = b->sda = 1;
	if (edid) {
		memcpy(b->rom, edid, NV_EDID_SIZE);
		b->present = 1;
	}
}

uint8_t sim_i2c_scl(const struct sim_i2c *b)
{
	return b->scl;
}

uint8_t sim_i2c_sda(const struct sim_i2c *b)
{
	return b->sda && !b->slave_low;
}

static void i2c_load(struct sim_i2c *b)
{
	b->shift = b->rom[b->ptr % NV_EDID_SIZE];
	b->bits = 0;
	b->slave_low = !(b->shift & 0x80);
	b->state = I2C_TX;
}

static void i2c_rise(struct sim_i2c *b, int sda)
{
	switch (b->state) {
	case I2C_RX:
		if (b->bits < 8) {
			b->shift = (uint8_t)(b->shift << 1 | sda);
			b->bits++;
		}
		break;
	case I2C_ACK_OUT:
		b->acked = 1;           /* the master clocked our answer */
		break;
	case I2C_TX:
		if (b->bits < 8)
			b->bits++;
		break;
	case I2C_ACK_IN:
		b->acked = 1;
		b->bits = (uint8_t)!sda;       /* 1: master ACK, wants more */
		break;
	}
}

static void i2c_fall(struct sim_i2c *b)
{
	switch (b->state) {
	case I2C_RX:
		if (b->bits < 8)
			break;
		/* 8 bits in: answer during the 9th clock. */
		if (b->rd == I2C_BYTE_ADDR)
			b->slave_low = b->present && (b->shift >> 1) == NV_DDC_EDID_ADDR;
		else
			b->slave_low = 1;       /* word address and data are ACKed */
		b->acked = 0;
		b->state = I2C_ACK_OUT;
		break;
	case I2C_ACK_OUT:
		if (!b->acked)
			break;
		if (!b->slave_low) {            /* not us: wait for the next START */
			b->state = I2C_IDLE;
			break;
		}
		b->slave_low = 0;
		if (b->rd == I2C_BYTE_ADDR && (b->shift & 1)) {
			i2c_load(b);            /* read: first bit out now */
			break;
		}
		if (b->rd == I2C_BYTE_WADDR)
			b->ptr = b->shift;
		else if (b->rd == I2C_BYTE_DATA)
			b->ptr++;               /* write-protected: data dropped */
		b->rd = b->rd == I2C_BYTE_ADDR ? I2C_BYTE_WADDR : I2C_BYTE_DATA;
		b->bits = 0;
		b->shift = 0;
		b->state = I2C_RX;
		break;
	case I2C_TX:
		if (b->bits == 0)
			break;
		if (b->bits < 8) {
			b->slave_low = !((b->shift << b->bits) & 0x80);
			break;
		}
		b->slave_low = 0;               /* release for the master's ACK */
		b->acked = 0;
		b->state = I2C_ACK_IN;
		break;
	case I2C_ACK_IN:
		if (!b->acked)
			break;
		if (b->bits) {                  /* ACK: the next byte */
			b->ptr++;
			i2c_load(b);
		} else {
			b->ptr++;               /* the next current-address read */
			b->state = I2C_IDLE;    /* NACK ends the read */
		}
		break;
	}
}

void sim_i2c_drive(struct sim_i2c *b, uint8_t scl, uint8_t sda)
{
	uint8_t scl0 = sim_i2c_scl(b), sda0 = sim_i2c_sda(b);

	scl = !!scl;
	sda = !!sda;
	b->scl = scl;
	b->sda = sda;
	if (scl0 && scl) {
		uint8_t sda1 = sim_i2c_sda(b);
		if (sda0 && !sda1) {            /* START (or repeated START) */
			b->slave_low = 0;
			b->state = I2C_RX;
			b->rd = I2C_BYTE_ADDR;
			b->bits = 0;
			b->shift = 0;
		} else if (!sda0 && sda1) {     /* STOP */
			b->slave_low = 0;
			b->state = I2C_IDLE;
		}
	} else if (!scl0 && scl) {
		i2c_rise(b, sim_i2c_sda(b));
	} else if (scl0 && !scl) {
		i2c_fall(b);
	}
}
