/* The display heads: PCRTC (vblank, start address, cursor), the VGA CRTC,
 * sequencer, attribute and graphics registers behind their byte ports
 * (PRMCIO, PRMVIO), PRAMDAC (cursor position, format, pixel clock) and the
 * palette (PRMDIO).  Timing follows the programmed mode on the PTIMER
 * clock, so a unit test moves time by writing PTIMER.  The register
 * contract is described at the top of hw/display.h. */
#include <string.h>

#include "priv.h"

#define CRTC_DEFAULT_PERIOD_NS (1000000000ull / 60)
/* A nonsensical mode must neither flood the host with interrupts nor stop
 * vblank for good. */
#define CRTC_MIN_PERIOD_NS 1000000ull
#define CRTC_MAX_PERIOD_NS 1000000000ull
#define PAL_BYTES (256 * 3)

enum { VGA_CIO, VGA_DIO, VGA_VIO };

/* Head and head-0 address of a per-head register. */
static unsigned crtc_head(uint32_t reg, uint32_t base, uint32_t *local)
{
	uint32_t off = reg - base;
	*local = base + off % NV_PCRTC_HEAD_STRIDE;
	return (off / NV_PCRTC_HEAD_STRIDE) & 1;
}

static int crtc_unlocked(const struct sim_head *h)
{
	return h->cr[NV_CR1F_LOCK] == NV_CR1F_READ_UNLOCKED;
}

/* ---- timing ---- */

static uint32_t crtc_clock_khz(struct sim *s, unsigned head)
{
	return nv_vpll_khz(sim_misc_rd(s, NV_PRAMDAC_VPLL_COEFF(head)),
			   sim_misc_rd(s, NV_PRAMDAC_VPLL_COEFF_B(head)),
			   nv_crystal_khz(sim_misc_rd(s, NV_PEXTDEV_BOOT_0)));
}

/* Recompute what the registers say; a change restarts the frame. */
static void crtc_retime(struct sim *s, unsigned head)
{
	struct sim_head *h = &s->head[head];
	struct nv_crtc_timing t;
	uint32_t vbs, clock = crtc_clock_khz(s, head);
	uint64_t period, vbs_ns;
	int running;

	nv_crtc_timing_from_cr(h->cr, h->misc, &t);
	vbs = nv_crtc_vblank_start(h->cr);
	if (vbs >= t.vtotal)
		vbs = t.vtotal - 1;
	running = (h->config & NV_PCRTC_CONFIG_START_ADDRESS_MASK) != NV_PCRTC_CONFIG_START_ADDRESS_VGA &&
		  (h->cr[NV_CR17_MODE] & NV_CR17_SYNC_ENABLE) &&
		  !(h->cr[NV_CR1A_RPC1] & (NV_CR1A_HSYNC_OFF | NV_CR1A_VSYNC_OFF));
	period = clock ? (uint64_t)t.htotal * t.vtotal * 1000000u / clock : CRTC_DEFAULT_PERIOD_NS;
	if (period < CRTC_MIN_PERIOD_NS)
		period = CRTC_MIN_PERIOD_NS;
	if (period > CRTC_MAX_PERIOD_NS)
		period = CRTC_MAX_PERIOD_NS;
	/* Rounded up: at vbs_ns the raster already reads line vbs. */
	vbs_ns = ((uint64_t)vbs * period + t.vtotal - 1) / t.vtotal;

	if (running != h->running || period != h->period_ns || vbs_ns != h->vbs_ns) {
		h->t_frame0 = sim_ptimer_ns(s);
		h->vblanks = 0;
	}
	h->t = t;
	h->vbs = vbs;
	h->clock_khz = clock;
	h->running = running;
	h->period_ns = period;
	h->vbs_ns = vbs_ns;
}

/* Vblank starts since t_frame0 by now (a PTIMER jump backwards restarts). */
static uint64_t crtc_vblanks(struct sim_head *h, uint64_t now)
{
	if (now < h->t_frame0) {
		h->t_frame0 = now;
		h->vblanks = 0;
	}
	now -= h->t_frame0;
	return now < h->vbs_ns ? 0 : (now - h->vbs_ns) / h->period_ns + 1;
}

int sim_crtc_tick(struct sim *s)
{
	int raised = 0;
	uint64_t now = 0;

	for (unsigned i = 0; i < NV_PCRTC_HEADS; i++) {
		struct sim_head *h = &s->head[i];
		if (!h->running)
			continue;
		if (!now)
			now = sim_ptimer_ns(s);
		uint64_t n = crtc_vblanks(h, now);
		if (n > h->vblanks) {
			h->vblanks = n;
			raised |= !(h->intr & NV_PCRTC_INTR_0_VBLANK);
			h->intr |= NV_PCRTC_INTR_0_VBLANK;
		}
	}
	return raised;
}

uint64_t sim_crtc_wait_ns(struct sim *s)
{
	uint64_t best = UINT64_MAX, now = 0;

	for (unsigned i = 0; i < NV_PCRTC_HEADS; i++) {
		struct sim_head *h = &s->head[i];
		if (!h->running || !(h->intr_en & NV_PCRTC_INTR_EN_0_VBLANK) ||
		    (h->intr & NV_PCRTC_INTR_0_VBLANK))
			continue;
		if (!now)
			now = sim_ptimer_ns(s);
		crtc_vblanks(h, now);
		uint64_t next = h->t_frame0 + h->vbs_ns + h->vblanks * h->period_ns;
		uint64_t wait = next > now ? next - now : 0;
		if (wait < best)
			best = wait;
	}
	return best;
}

uint32_t sim_crtc_intr(struct sim *s)
{
	uint32_t v = 0;

	if (s->head[0].intr & s->head[0].intr_en)
		v |= NV_PMC_UNIT_PCRTC0;
	if (s->head[1].intr & s->head[1].intr_en)
		v |= NV_PMC_UNIT_PCRTC1;
	return v;
}

/* Raster position: pixel clocks into the current frame. */
static void crtc_position(struct sim *s, struct sim_head *h, uint32_t *line, uint32_t *pixel)
{
	uint64_t now = sim_ptimer_ns(s), phase, p;

	*line = *pixel = 0;
	if (!h->running)
		return;
	crtc_vblanks(h, now);
	phase = (now - h->t_frame0) % h->period_ns;
	p = phase * h->t.htotal * h->t.vtotal / h->period_ns;
	*line = (uint32_t)(p / h->t.htotal);
	*pixel = (uint32_t)(p % h->t.htotal);
}

/* ---- VGA byte ports ---- */

static uint8_t crtc_cr_rd(struct sim *s, unsigned head, uint8_t i)
{
	struct sim_head *h = &s->head[head];

	if (i == NV_CR1F_LOCK)
		return h->cr[i];
	if (i >= NV_CR_EXTENDED_FIRST && !crtc_unlocked(h))
		return 0;
	if (head == 0)
		for (unsigned b = 0; b < NV_DDC_BUSES; b++)
			if (i == NV_DDC_STATUS(b))
				return (uint8_t)((sim_i2c_scl(&s->ddc[b]) ? NV_DDC_STATUS_SCL : 0) |
						 (sim_i2c_sda(&s->ddc[b]) ? NV_DDC_STATUS_SDA : 0));
	return h->cr[i];
}

static void crtc_cr_wr(struct sim *s, unsigned head, uint8_t i, uint8_t v)
{
	struct sim_head *h = &s->head[head];

	if (i == NV_CR1F_LOCK) {
		h->cr[i] = v == NV_CR1F_UNLOCK ? NV_CR1F_READ_UNLOCKED : NV_CR1F_READ_LOCKED;
		return;
	}
	if (i >= NV_CR_EXTENDED_FIRST && !crtc_unlocked(h))
		return;
	if (i <= NV_CR07_OVL && (h->cr[NV_CR11_VRE] & NV_CR11_LOCK)) {
		if (i != NV_CR07_OVL)
			return;
		/* Standard VGA: the line compare bit stays writable. */
		v = (uint8_t)((h->cr[i] & ~NV_CR07_LCOMP_8) | (v & NV_CR07_LCOMP_8));
	}
	h->cr[i] = v;
	if (head == 0)
		for (unsigned b = 0; b < NV_DDC_BUSES; b++)
			if (i == NV_DDC_WR(b))
				sim_i2c_drive(&s->ddc[b], v & NV_DDC_WR_SCL, v & NV_DDC_WR_SDA);
	crtc_retime(s, head);
}

/* local: the head-0 address of the port. */
static uint8_t vga_rd8(struct sim *s, unsigned head, uint32_t local)
{
	struct sim_head *h = &s->head[head];
	uint32_t line, pixel;

	switch (local) {
	case NV_PRMCIO_CRX:
		return h->crx;
	case NV_PRMCIO_CR:
		return crtc_cr_rd(s, head, h->crx);
	case NV_PRMCIO_INP0:
		h->ar_data = 0;         /* reading input status resets the AR flip-flop */
		if (!h->running)
			return NV_PRMCIO_INP0_NOT_DISPLAY;
		crtc_position(s, h, &line, &pixel);
		return (uint8_t)((line >= h->t.vsync_start && line < h->t.vsync_end ?
				  NV_PRMCIO_INP0_VRETRACE : 0) |
				 (line >= h->t.vdisplay || pixel >= h->t.hdisplay ?
				  NV_PRMCIO_INP0_NOT_DISPLAY : 0));
	case NV_PRMCIO_ARX:
		return h->arx;
	case NV_PRMCIO_AR_READ:
		return h->ar[h->arx & 0x1f];
	case NV_PRMVIO_MISC_READ:
		return h->misc;
	case NV_PRMVIO_SRX:
		return h->srx;
	case NV_PRMVIO_SR:
		return h->sr[h->srx];
	case NV_PRMVIO_GRX:
		return h->grx;
	case NV_PRMVIO_GR:
		return h->gr[h->grx];
	case NV_PRMDIO_PIXEL_MASK:
		return h->pal_mask;
	case NV_PRMDIO_WRITE_MODE_ADDRESS:
		return (uint8_t)(h->pal_w / 3);
	case NV_PRMDIO_PALETTE_DATA: {
		uint8_t v = h->pal[h->pal_r];
		h->pal_r = (uint16_t)((h->pal_r + 1) % PAL_BYTES);
		return v;
	}
	case NV_PRMDIO_READ_MODE_ADDRESS:
		return 0;
	}
	if (local - 0x601000 < 0x1000)
		return h->vga_other[VGA_CIO][local & 0xfff];
	if (local - 0x681000 < 0x1000)
		return h->vga_other[VGA_DIO][local & 0xfff];
	if (local - NV_PRMVIO_BASE < 0x1000)
		return h->vga_other[VGA_VIO][local & 0xfff];
	return 0;
}

static void vga_wr8(struct sim *s, unsigned head, uint32_t local, uint8_t v)
{
	struct sim_head *h = &s->head[head];

	switch (local) {
	case NV_PRMCIO_CRX:
		h->crx = v;
		return;
	case NV_PRMCIO_CR:
		crtc_cr_wr(s, head, h->crx, v);
		return;
	case NV_PRMCIO_INP0:
		return;                 /* read-only (feature control on VGA) */
	case NV_PRMCIO_ARX:
		if (h->ar_data)
			h->ar[h->arx & 0x1f] = v;
		else
			h->arx = v;
		h->ar_data ^= 1;
		return;
	case NV_PRMVIO_MISC_WRITE:
		h->misc = v;
		crtc_retime(s, head);
		return;
	case NV_PRMVIO_SRX:
		h->srx = v;
		return;
	case NV_PRMVIO_SR:
		h->sr[h->srx] = v;
		return;
	case NV_PRMVIO_GRX:
		h->grx = v;
		return;
	case NV_PRMVIO_GR:
		h->gr[h->grx] = v;
		return;
	case NV_PRMDIO_PIXEL_MASK:
		h->pal_mask = v;
		return;
	case NV_PRMDIO_READ_MODE_ADDRESS:
		h->pal_r = (uint16_t)(v * 3);
		return;
	case NV_PRMDIO_WRITE_MODE_ADDRESS:
		h->pal_w = (uint16_t)(v * 3);
		return;
	case NV_PRMDIO_PALETTE_DATA:
		h->pal[h->pal_w] = v;
		h->pal_w = (uint16_t)((h->pal_w + 1) % PAL_BYTES);
		return;
	}
	if (local - 0x601000 < 0x1000)
		h->vga_other[VGA_CIO][local & 0xfff] = v;
	else if (local - 0x681000 < 0x1000)
		h->vga_other[VGA_DIO][local & 0xfff] = v;
	else if (local - NV_PRMVIO_BASE < 0x1000)
		h->vga_other[VGA_VIO][local & 0xfff] = v;
}

/* Byte-port areas of the three blocks: head and head-0 address, or -1. */
static int vga_port(uint32_t reg, uint32_t *local)
{
	if (reg - NV_PCRTC_BASE < NV_PCRTC_SIZE) {
		unsigned head = crtc_head(reg, NV_PCRTC_BASE, local);
		return *local >= 0x601000 ? (int)head : -1;
	}
	if (reg - NV_PRAMDAC_BASE < NV_PRAMDAC_SIZE) {
		unsigned head = crtc_head(reg, NV_PRAMDAC_BASE, local);
		return *local >= 0x681000 ? (int)head : -1;
	}
	if (reg - NV_PRMVIO_BASE < NV_PRMVIO_SIZE)
		return (int)crtc_head(reg, NV_PRMVIO_BASE, local);
	return -1;
}

/* A 32-bit access to byte ports: four byte accesses in address order. */
static uint32_t vga_rd32(struct sim *s, unsigned head, uint32_t local)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < 4; i++)
		v |= (uint32_t)vga_rd8(s, head, local + i) << (8 * i);
	return v;
}

static void vga_wr32(struct sim *s, unsigned head, uint32_t local, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		vga_wr8(s, head, local + i, (uint8_t)(v >> (8 * i)));
}

/* ---- 32-bit registers ---- */

uint32_t sim_pcrtc_rd(struct sim *s, uint32_t reg)
{
	uint32_t local, line, pixel;
	int port = vga_port(reg, &local);
	unsigned head = crtc_head(reg, NV_PCRTC_BASE, &local);
	struct sim_head *h = &s->head[head];

	if (port >= 0)
		return vga_rd32(s, head, local);
	switch (local) {
	case NV_PCRTC_INTR_0:
		return h->intr;
	case NV_PCRTC_INTR_EN_0:
		return h->intr_en;
	case NV_PCRTC_START:
		return h->start;
	case NV_PCRTC_CONFIG:
		return h->config;
	case NV_PCRTC_CURSOR_CONFIG:
		return h->cursor_config;
	case NV_PCRTC_RASTER:
		crtc_position(s, h, &line, &pixel);
		return NV_PCRTC_RASTER_POSITION(line) |
		       (h->running && line >= h->vbs ? NV_PCRTC_RASTER_VBLANK : 0);
	case NV_PCRTC_RASTER_POS:
		crtc_position(s, h, &line, &pixel);
		return (pixel & 0xffffu) << 16 | (line & 0xffffu);
	}
	return sim_misc_rd(s, reg);
}

void sim_pcrtc_wr(struct sim *s, uint32_t reg, uint32_t val)
{
	uint32_t local;
	int port = vga_port(reg, &local);
	unsigned head = crtc_head(reg, NV_PCRTC_BASE, &local);
	struct sim_head *h = &s->head[head];

	if (port >= 0) {
		vga_wr32(s, head, local, val);
		return;
	}
	switch (local) {
	case NV_PCRTC_INTR_0:
		h->intr &= ~val;
		return;
	case NV_PCRTC_INTR_EN_0:
		h->intr_en = val & NV_PCRTC_INTR_EN_0_VBLANK;
		return;
	case NV_PCRTC_START:
		h->start = val;
		return;
	case NV_PCRTC_CONFIG:
		h->config = val;
		crtc_retime(s, head);
		return;
	case NV_PCRTC_CURSOR_CONFIG:
		h->cursor_config = val;
		return;
	case NV_PCRTC_RASTER:
	case NV_PCRTC_RASTER_POS:
		return;                 /* read-only */
	}
	sim_misc_wr(s, reg, val);
}

static int crtc_is_vpll(uint32_t reg)
{
	for (unsigned i = 0; i < NV_PCRTC_HEADS; i++)
		if (reg == NV_PRAMDAC_VPLL_COEFF(i) || reg == NV_PRAMDAC_VPLL_COEFF_B(i))
			return 1;
	return 0;
}

uint32_t sim_pramdac_rd(struct sim *s, uint32_t reg)
{
	uint32_t local;
	int port = vga_port(reg, &local);
	unsigned head = crtc_head(reg, NV_PRAMDAC_BASE, &local);
	struct sim_head *h = &s->head[head];

	if (port >= 0)
		return vga_rd32(s, head, local);
	switch (local) {
	case NV_PRAMDAC_CU_START_POS:
		return h->cu_start_pos;
	case NV_PRAMDAC_GENERAL_CONTROL:
		return h->gen_ctrl;
	}
	return sim_misc_rd(s, reg);
}

void sim_pramdac_wr(struct sim *s, uint32_t reg, uint32_t val)
{
	uint32_t local;
	int port = vga_port(reg, &local);
	unsigned head = crtc_head(reg, NV_PRAMDAC_BASE, &local);
	struct sim_head *h = &s->head[head];

	if (port >= 0) {
		vga_wr32(s, head, local, val);
		return;
	}
	switch (local) {
	case NV_PRAMDAC_CU_START_POS:
		h->cu_start_pos = val;
		return;
	case NV_PRAMDAC_GENERAL_CONTROL:
		h->gen_ctrl = val;
		return;
	}
	sim_misc_wr(s, reg, val);
	if (crtc_is_vpll(reg))
		for (unsigned i = 0; i < NV_PCRTC_HEADS; i++)
			crtc_retime(s, i);
}

uint32_t sim_prmvio_rd(struct sim *s, uint32_t reg)
{
	uint32_t local;
	unsigned head = crtc_head(reg, NV_PRMVIO_BASE, &local);
	return vga_rd32(s, head, local);
}

void sim_prmvio_wr(struct sim *s, uint32_t reg, uint32_t val)
{
	uint32_t local;
	unsigned head = crtc_head(reg, NV_PRMVIO_BASE, &local);
	vga_wr32(s, head, local, val);
}

/* ---- byte access to the display blocks ---- */

uint8_t sim_crtc_rd08(struct sim *s, uint32_t reg)
{
	uint32_t local;
	int head = vga_port(reg, &local);

	if (head >= 0)
		return vga_rd8(s, (unsigned)head, local);
	/* A byte of a 32-bit register. */
	uint32_t w = reg - NV_PCRTC_BASE < NV_PCRTC_SIZE ? sim_pcrtc_rd(s, reg & ~3u)
							 : sim_pramdac_rd(s, reg & ~3u);
	return (uint8_t)(w >> (8 * (reg & 3)));
}

void sim_crtc_wr08(struct sim *s, uint32_t reg, uint8_t val)
{
	uint32_t local, shift = 8 * (reg & 3), w;
	int head = vga_port(reg, &local);

	if (head >= 0) {
		vga_wr8(s, (unsigned)head, local, val);
		return;
	}
	if (reg - NV_PCRTC_BASE < NV_PCRTC_SIZE) {
		w = sim_pcrtc_rd(s, reg & ~3u);
		sim_pcrtc_wr(s, reg & ~3u, (w & ~(0xffu << shift)) | (uint32_t)val << shift);
	} else {
		w = sim_pramdac_rd(s, reg & ~3u);
		sim_pramdac_wr(s, reg & ~3u, (w & ~(0xffu << shift)) | (uint32_t)val << shift);
	}
}

void sim_crtc_reset(struct sim *s)
{
	for (unsigned i = 0; i < NV_PCRTC_HEADS; i++) {
		struct sim_head *h = &s->head[i];
		memset(h, 0, sizeof(*h));
		h->cr[NV_CR1F_LOCK] = NV_CR1F_READ_LOCKED;
		/* DDC lines released. */
		h->cr[NV_CR3F_DDC0_WR] = h->cr[NV_CR37_DDC1_WR] =
			NV_DDC_WR_SCL | NV_DDC_WR_SDA | NV_DDC_WR_ENABLE;
		h->pal_mask = 0xff;
		h->misc = NV_MISC_OUT_BASE;
		crtc_retime(s, i);
	}
}
