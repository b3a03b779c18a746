/* NV4x display: the two heads (PCRTC, VGA CRTC/sequencer ports, PRAMDAC),
 * DDC buses and the formulas between a mode's timings and the CR registers.
 * nvd/display.c writes these registers and the simulator (sim/crtc.c)
 * reads them, through the same helpers, so the two cannot disagree.
 * Offsets and fields follow nouveau's dispnv04 (nvreg.h, hw.c, crtc.c,
 * cursor.c) and envytools; see ../shared/ref/nv40-hardware.md §7.
 *
 * ---- the register contract (what nvd does, what the sim models) ----
 * Access: PCRTC and PRAMDAC are 32-bit registers.  The VGA ports (PRMCIO
 * CRX/CR, PRMVIO SRX/SR/MISC, PRMDIO palette) are byte registers, as in
 * nouveau (nvif_wr08/rd08): use 8-bit MMIO.  The sim also accepts a 32-bit
 * access to the aligned word holding a port and treats it as four byte
 * accesses in address order (so a 32-bit write of idx | val << 8 to
 * NV_PRMCIO_CRX is the VGA "outw" idiom: index, then data).
 * Unlock: write NV_CR1F_UNLOCK to CR1F of each head before touching the
 *   extended CRs (index >= 0x19); while locked they ignore writes and read
 *   0.  CR00-CR07 additionally ignore writes while CR11 bit 7 is set
 *   (standard VGA protect; nouveau clears it around the writes and sets it
 *   again: nv_lock_vga_crtc_base).  The sim powers up locked.
 * Mode: nv_crtc_timing_to_cr() gives the CR values (NV_CR_MODE_REGS lists
 *   the indices written), NV_PRAMDAC_GENERAL_CONTROL and CR28 the pixel
 *   format, CR13/CR19/CR42 the pitch (in the same helper), NV_PCRTC_START
 *   the scanout byte offset in VRAM, NV_PRAMDAC_VPLL_COEFF(_B) the pixel
 *   clock (nv_vpll_coeff()).  MISC_OUT carries the sync polarities.
 * On/off (nouveau's nv_crtc_dpms and mode_set_regs): a head runs (scans out,
 *   counts lines, raises vblank) while all of
 *     - NV_PCRTC_CONFIG start addressing is non-VGA (nouveau on NV10+
 *       writes NV_PCRTC_CONFIG_START_ADDRESS_HSYNC),
 *     - CR17 has NV_CR17_SYNC_ENABLE (nouveau's DPMS on sets it; the mode
 *       values from nv_crtc_timing_to_cr() leave it clear, as
 *       nv_crtc_mode_set_vga does: program the mode, then turn on),
 *     - CR1A has neither NV_CR1A_HSYNC_OFF nor NV_CR1A_VSYNC_OFF,
 *     - the programmed htotal and vtotal are not zero.
 *   The picture is visible (not blanked) when also SR01 lacks
 *   NV_SR01_SCREEN_OFF (NVBlankScreen).  DPMS off: set SR01 SCREEN_OFF,
 *   clear CR17 SYNC_ENABLE, set both CR1A sync-off bits.
 * Vblank: NV_PCRTC_INTR_0 bit 0 rises once a frame (pixel clock / (htotal *
 *   vtotal); 60 Hz while the VPLL is not programmed), write 1 to clear;
 *   masked by NV_PCRTC_INTR_EN_0; PMC_INTR bit 24 (head 0) / 25 (head 1).
 *   NV_PCRTC_RASTER gives the current line and the in-vblank bit.
 * DDC: bit-banged on head 0's CR port (NV_DDC_* below), EEPROM at 0x50.
 */
#ifndef NV_HW_DISPLAY_H
#define NV_HW_DISPLAY_H

#include <stdint.h>

#define NV_PCRTC_HEADS           2

/* ---- MMIO blocks (BAR0 ranges, for dispatch) ---- */
#define NV_PCRTC_BASE            0x600000 /* PCRTC, PRMCIO, PCRTC2, PRMCIO2 */
#define NV_PCRTC_SIZE            0x004000
#define NV_PRAMDAC_BASE          0x680000 /* PRAMDAC, PRMDIO, x2 */
#define NV_PRAMDAC_SIZE          0x004000
#define NV_PRMVIO_BASE           0x0c0000 /* PRMVIO, PRMVIO2 */
#define NV_PRMVIO_SIZE           0x004000

/* Every per-head register of PCRTC, PRMCIO, PRMVIO, PRAMDAC and PRMDIO:
 * head 1's copy is at + head * NV_PCRTC_HEAD_STRIDE. */
#define NV_PCRTC_HEAD_STRIDE     0x2000
#define NV_HEAD_REG(reg, head)   ((reg) + (uint32_t)(head) * NV_PCRTC_HEAD_STRIDE)

/* ---- PCRTC (per head) ---- */
#define NV_PCRTC_INTR_0          0x600100 /* write 1 to clear */
#define   NV_PCRTC_INTR_0_VBLANK   (1u << 0)
#define NV_PCRTC_INTR_EN_0       0x600140
#define   NV_PCRTC_INTR_EN_0_VBLANK (1u << 0)
#define NV_PCRTC_START           0x600800 /* scanout byte offset in VRAM */
#define   NV_PCRTC_START_MASK      0xfffffffcu /* nouveau: fb offset & ~3 */
#define NV_PCRTC_CONFIG          0x600804
#define   NV_PCRTC_CONFIG_START_ADDRESS_MASK   0x3u
#define   NV_PCRTC_CONFIG_START_ADDRESS_VGA    0x0u
#define   NV_PCRTC_CONFIG_START_ADDRESS_NON_VGA 0x1u
#define   NV_PCRTC_CONFIG_START_ADDRESS_HSYNC  0x2u /* what nouveau writes on NV10+ */
#define   NV_PCRTC_CONFIG_SIGNAL_BIG_ENDIAN    (1u << 31) /* stored only */
#define NV_PCRTC_RASTER          0x600808 /* read-only */
#define   NV_PCRTC_RASTER_POSITION(v) ((v) & 0x7ffu) /* current line */
#define   NV_PCRTC_RASTER_VBLANK   (1u << 16) /* line >= vblank start */
#define NV_PCRTC_CURSOR_CONFIG   0x600810
#define   NV_PCRTC_CURSOR_CONFIG_ENABLE      (1u << 0)
#define   NV_PCRTC_CURSOR_CONFIG_DOUBLE_SCAN (1u << 4)
#define   NV_PCRTC_CURSOR_CONFIG_ADDRESS_SPACE_PNVM (1u << 8)
#define   NV_PCRTC_CURSOR_CONFIG_BPP_32      (1u << 12)
#define   NV_PCRTC_CURSOR_CONFIG_PIXELS_64   (1u << 16)
#define   NV_PCRTC_CURSOR_CONFIG_LINES_MASK  (0xfu << 24)
#define   NV_PCRTC_CURSOR_CONFIG_LINES_32    (2u << 24)
#define   NV_PCRTC_CURSOR_CONFIG_LINES_64    (4u << 24)
#define   NV_PCRTC_CURSOR_CONFIG_BLEND_ALPHA (1u << 28) /* non-premultiplied */
/* What nouveau's NV40 cursor setup writes: 64x64 ARGB8888, premultiplied. */
#define   NV_PCRTC_CURSOR_CONFIG_NV40 \
	(NV_PCRTC_CURSOR_CONFIG_ENABLE | NV_PCRTC_CURSOR_CONFIG_ADDRESS_SPACE_PNVM | \
	 NV_PCRTC_CURSOR_CONFIG_BPP_32 | NV_PCRTC_CURSOR_CONFIG_PIXELS_64 | \
	 NV_PCRTC_CURSOR_CONFIG_LINES_64)
#define NV_PCRTC_RASTER_POS      0x600868 /* read-only: line 15:0, pixel 31:16 (nv04_head_rgpos) */
#define   NV_PCRTC_RASTER_POS_LINE(v)  ((v) & 0xffffu)
#define   NV_PCRTC_RASTER_POS_PIXEL(v) (((v) >> 16) & 0xffffu)

/* ---- PRMCIO: VGA CRTC index/data (per head), byte registers ---- */
#define NV_PRMCIO_ARX            0x6013c0 /* attribute index, then data (flip-flop) */
#define NV_PRMCIO_AR_READ        0x6013c1 /* attribute data read */
#define NV_PRMCIO_CRX            0x6013d4 /* CR index */
#define NV_PRMCIO_CR             0x6013d5 /* CR data */
#define NV_PRMCIO_INP0           0x6013da /* input status 1, read-only */
#define   NV_PRMCIO_INP0_VRETRACE  (1u << 3) /* in vertical sync */
#define   NV_PRMCIO_INP0_NOT_DISPLAY (1u << 0) /* outside the visible area */
/* (reading INP0 also resets the attribute flip-flop to "index") */

/* CR indices (nouveau nvreg.h NV_CIO_CR*_INDEX) and their fields.  A field
 * named _<a>_<b> holds bits a..b of a timing value (XLATE in nouveau). */
#define NV_CR_COUNT              0x100
#define NV_CR00_HDT              0x00 /* horizontal total: chars - 5 */
#define NV_CR01_HDE              0x01 /* horizontal display end: chars - 1 */
#define NV_CR02_HBS              0x02 /* horizontal blank start */
#define NV_CR03_HBE              0x03 /* horizontal blank end 4:0; bit 7 set */
#define   NV_CR03_HBE_4_0          0x1fu
#define   NV_CR03_COMPAT_READ      0x80u
#define NV_CR04_HRS              0x04 /* horizontal sync start: chars + 1 */
#define NV_CR05_HRE              0x05
#define   NV_CR05_HRE_4_0          0x1fu /* horizontal sync end: chars + 1 */
#define   NV_CR05_HBE_5            0x80u
#define NV_CR06_VDT              0x06 /* vertical total: lines - 2 */
#define NV_CR07_OVL              0x07 /* overflow */
#define   NV_CR07_VDT_8            0x01u
#define   NV_CR07_VDE_8            0x02u
#define   NV_CR07_VRS_8            0x04u
#define   NV_CR07_VBS_8            0x08u
#define   NV_CR07_LCOMP_8          0x10u /* nouveau sets it (line compare 0x1ff) */
#define   NV_CR07_VDT_9            0x20u
#define   NV_CR07_VDE_9            0x40u
#define   NV_CR07_VRS_9            0x80u
#define NV_CR08_RSAL             0x08 /* preset row scan */
#define NV_CR09_CELL_HT          0x09 /* max scan line */
#define   NV_CR09_LCOMP_9          0x40u /* nouveau sets it */
#define   NV_CR09_VBS_9            0x20u
#define   NV_CR09_SCANDBL          0x80u
#define NV_CR0C_SA_HI            0x0c /* VGA start address: 0 (PCRTC_START is used) */
#define NV_CR0D_SA_LO            0x0d
#define NV_CR10_VRS              0x10 /* vertical sync start: line - 1 */
#define NV_CR11_VRE              0x11
#define   NV_CR11_VRE_3_0          0x0fu /* vertical sync end: line - 1 */
#define   NV_CR11_BIT5             0x20u /* nouveau sets it (no vertical interrupt) */
#define   NV_CR11_LOCK             0x80u /* write-protects CR00-CR07 */
#define NV_CR12_VDE              0x12 /* vertical display end: lines - 1 */
#define NV_CR13_OFFSET           0x13 /* pitch / 8, bits 7:0 */
#define NV_CR14_ULINE            0x14
#define NV_CR15_VBS              0x15 /* vertical blank start: line - 1 */
#define NV_CR16_VBE              0x16 /* vertical blank end: line - 1, 7:0 */
#define NV_CR17_MODE             0x17
#define   NV_CR17_MODE_VALUE       0x43u /* what mode_set_vga writes */
#define   NV_CR17_SYNC_ENABLE      0x80u /* DPMS on: timing generator runs */
#define NV_CR18_LCOMP            0x18 /* line compare 7:0 */
#define NV_CR19_RPC0             0x19 /* repaint 0 */
#define   NV_CR19_OFFSET_10_8      0xe0u /* pitch / 8, bits 10:8 at 7:5 */
#define NV_CR1A_RPC1             0x1a /* repaint 1 */
#define   NV_CR1A_LARGE            0x04u /* set when hdisplay < 1280 (nouveau) */
#define   NV_CR1A_VSYNC_OFF        0x40u
#define   NV_CR1A_HSYNC_OFF        0x80u
#define NV_CR1F_LOCK             0x1f /* extended register lock */
#define   NV_CR1F_UNLOCK           0x57u /* write: unlock read/write */
#define   NV_CR1F_LOCK_VALUE       0x99u /* write: lock */
#define   NV_CR1F_READ_UNLOCKED    0x03u /* sim's read-back of the lock state */
#define   NV_CR1F_READ_LOCKED      0x00u
#define NV_CR_EXTENDED_FIRST     0x19 /* extended registers: the lock applies */
#define NV_CR25_LSR              0x25 /* vertical extra bits */
#define   NV_CR25_VDT_10           0x01u
#define   NV_CR25_VDE_10           0x02u
#define   NV_CR25_VRS_10           0x04u
#define   NV_CR25_VBS_10           0x08u
#define   NV_CR25_HBE_6            0x10u
#define NV_CR28_PIXEL            0x28
#define   NV_CR28_FORMAT_MASK      0x03u
#define   NV_CR28_FORMAT_VGA       0x00u
#define   NV_CR28_FORMAT_8         0x01u /* palettised */
#define   NV_CR28_FORMAT_16        0x02u /* 565 or 555: PRAMDAC_GENERAL_CONTROL */
#define   NV_CR28_FORMAT_32        0x03u /* XRGB8888 */
#define NV_CR2D_HEB              0x2d /* horizontal extra bits */
#define   NV_CR2D_HDT_8            0x01u
#define   NV_CR2D_HDE_8            0x02u
#define   NV_CR2D_HBS_8            0x04u
#define   NV_CR2D_HRS_8            0x08u
#define   NV_CR2D_ILC_8            0x10u
/* Cursor image address in VRAM (2 KiB aligned). */
#define NV_CR2F_HCUR_ADDR2       0x2f /* address bits 31:24 */
#define NV_CR30_HCUR_ADDR0       0x30
#define   NV_CR30_ADR              0x7fu /* address bits 23:17 */
#define   NV_CR30_ASI              0x80u /* VRAM address space */
#define NV_CR31_HCUR_ADDR1       0x31
#define   NV_CR31_ENABLE           0x01u
#define   NV_CR31_CUR_DBL          0x02u
#define   NV_CR31_ADR              0xfcu /* address bits 16:11 at 7:2 */
#define NV_CR36_DDC1_STATUS      0x36
#define NV_CR37_DDC1_WR          0x37
#define NV_CR39_ILACE            0x39 /* 0xff: interlace off */
#define NV_CR3E_DDC0_STATUS      0x3e
#define NV_CR3F_DDC0_WR          0x3f
#define NV_CR41_EBR              0x41 /* vertical extra bits 11 */
#define   NV_CR41_VDT_11           0x01u
#define   NV_CR41_VDE_11           0x04u
#define   NV_CR41_VRS_11           0x10u
#define   NV_CR41_VBS_11           0x40u
#define NV_CR42                  0x42
#define   NV_CR42_OFFSET_11        0x40u /* pitch / 8, bit 11 */
#define NV_CR44_OWNER            0x44 /* head owning the legacy VGA ports; */
#define   NV_CR44_OWNER_HEAD0      0x00u /* stored only: the MMIO ports are per head */
#define   NV_CR44_OWNER_HEAD1      0x03u

/* Cursor address <-> CR2F/CR30/CR31 (nv04_cursor_set_offset). */
static inline void nv_cr_cursor_addr_split(uint32_t addr, uint8_t *cr2f, uint8_t *cr30,
					   uint8_t *cr31_keep)
{
	*cr2f = (uint8_t)(addr >> 24);
	*cr30 = (uint8_t)(((addr >> 17) & NV_CR30_ADR) | NV_CR30_ASI);
	*cr31_keep = (uint8_t)((*cr31_keep & ~NV_CR31_ADR) | (((addr >> 11) << 2) & NV_CR31_ADR));
}

static inline uint32_t nv_cr_cursor_addr(uint8_t cr2f, uint8_t cr30, uint8_t cr31)
{
	return (uint32_t)cr2f << 24 | (uint32_t)(cr30 & NV_CR30_ADR) << 17 |
	       (uint32_t)((cr31 & NV_CR31_ADR) >> 2) << 11;
}

/* ---- PRMVIO: sequencer and misc output (per head), byte registers ---- */
#define NV_PRMVIO_MISC_WRITE     0x0c03c2
#define NV_PRMVIO_SRX            0x0c03c4 /* sequencer index */
#define NV_PRMVIO_SR             0x0c03c5 /* sequencer data */
#define NV_PRMVIO_MISC_READ      0x0c03cc
#define NV_PRMVIO_GRX            0x0c03ce /* graphics controller index */
#define NV_PRMVIO_GR             0x0c03cf
#define   NV_MISC_OUT_BASE         0x23u /* colour, RAM enable, clock select */
#define   NV_MISC_OUT_NHSYNC       0x40u
#define   NV_MISC_OUT_NVSYNC       0x80u
#define NV_SR00_RESET            0x00
#define NV_SR01_CLOCK            0x01
#define   NV_SR01_VALUE            0x21u /* mode_set_vga (0x29 with CLKDIV2) */
#define   NV_SR01_SCREEN_OFF       0x20u
#define NV_SR_COUNT              0x08

/* ---- PRAMDAC (per head unless said) ---- */
#define NV_PRAMDAC_CU_START_POS  0x680300 /* cursor x 15:0, y 31:16, signed */
#define   NV_PRAMDAC_CU_START_POS_VAL(x, y) \
	(((uint32_t)(uint16_t)(int16_t)(x)) | ((uint32_t)(uint16_t)(int16_t)(y)) << 16)
#define   NV_PRAMDAC_CU_START_POS_X(v) ((int16_t)(uint16_t)((v) & 0xffffu))
#define   NV_PRAMDAC_CU_START_POS_Y(v) ((int16_t)(uint16_t)((v) >> 16))
/* Pixel clock PLLs.  Not per head by stride: head 1's VPLL is VPLL2 in head
 * 0's block (nouveau: head ? NV_RAMDAC_VPLL2 : NV_PRAMDAC_VPLL_COEFF). */
#define NV_PRAMDAC_VPLL_COEFF(head)   ((head) ? 0x680520u : 0x680508u)
#define NV_PRAMDAC_VPLL_COEFF_B(head) ((head) ? 0x68057cu : 0x680578u)
#define   NV_VPLL_M(v)             ((v) & 0xffu)
#define   NV_VPLL_N(v)             (((v) >> 8) & 0xffu)
#define   NV_VPLL_LOG2P(v)         (((v) >> 16) & 0x7u)
#define   NV_VPLL_B_VCO2_ENABLE    (1u << 31) /* NV31_RAMDAC_ENABLE_VCO2: N2/M2 used */
#define NV_PRAMDAC_PLL_COEFF_SELECT 0x68050c /* stored only */
#define NV_PRAMDAC_GENERAL_CONTROL 0x680600
#define   NV_PRAMDAC_GENERAL_CONTROL_PIXMIX_ON     (3u << 4)
#define   NV_PRAMDAC_GENERAL_CONTROL_VGA_STATE_SEL (1u << 8)
#define   NV_PRAMDAC_GENERAL_CONTROL_ALT_MODE_SEL  (1u << 12) /* 16 bpp is 565, else 555 */
#define   NV_PRAMDAC_GENERAL_CONTROL_BPC_8BITS     (1u << 20)
#define   NV_PRAMDAC_GENERAL_CONTROL_PIPE_LONG     (2u << 28)
/* What nouveau's mode_set_regs writes; | ALT_MODE_SEL for depth 16. */
#define   NV_PRAMDAC_GENERAL_CONTROL_NV40 \
	(NV_PRAMDAC_GENERAL_CONTROL_BPC_8BITS | NV_PRAMDAC_GENERAL_CONTROL_VGA_STATE_SEL | \
	 NV_PRAMDAC_GENERAL_CONTROL_PIXMIX_ON | NV_PRAMDAC_GENERAL_CONTROL_PIPE_LONG)

/* ---- PRMDIO: VGA palette (per head), byte registers ---- */
#define NV_PRMDIO_PIXEL_MASK     0x6813c6
#define NV_PRMDIO_READ_MODE_ADDRESS 0x6813c7 /* write: read index */
#define NV_PRMDIO_WRITE_MODE_ADDRESS 0x6813c8 /* write: write index */
#define NV_PRMDIO_PALETTE_DATA   0x6813c9 /* r, g, b in turn, then next index */

/* ---- crystal: PEXTDEV_BOOT_0 straps (nouveau nv04 clk/devinit) ---- */
#define NV_PEXTDEV_BOOT_0_XTAL_14318 (1u << 6)
#define NV_PEXTDEV_BOOT_0_XTAL_27000 (1u << 22)
static inline uint32_t nv_crystal_khz(uint32_t boot0)
{
	if (boot0 & NV_PEXTDEV_BOOT_0_XTAL_27000)
		return 27000;
	return (boot0 & NV_PEXTDEV_BOOT_0_XTAL_14318) ? 14318 : 13500;
}

/* Pixel clock in kHz from VPLL_COEFF and VPLL_COEFF_B (nouveau_hw_decode_pll
 * for a two-register PLL, nouveau_hw_pllvals_to_clk).  0: not programmed. */
static inline uint32_t nv_vpll_khz(uint32_t a, uint32_t b, uint32_t ref_khz)
{
	uint32_t n1 = NV_VPLL_N(a), m1 = NV_VPLL_M(a), n2 = 1, m2 = 1;

	if (b & NV_VPLL_B_VCO2_ENABLE) {
		n2 = NV_VPLL_N(b);
		m2 = NV_VPLL_M(b);
	}
	if (!m1 || !m2)
		return 0;
	return (uint32_t)((uint64_t)n1 * n2 * ref_khz / ((uint64_t)m1 * m2) >> NV_VPLL_LOG2P(a));
}

/* Coefficients for a pixel clock (single stage: VPLL_COEFF_B gets 0), the
 * closest over M 1..13, N 1..255, P 0..6 with the VCO (ref * N / M) in
 * 400..1000 MHz, roughly NV4x's VPLL limits.  Returns the clock reached
 * (kHz, 0 if none); nv_vpll_khz(*a, 0, ref) gives the same. */
static inline uint32_t nv_vpll_coeff(uint32_t want_khz, uint32_t ref_khz, uint32_t *a)
{
	uint32_t best = 0, best_err = ~0u;

	*a = 0;
	for (uint32_t p = 0; p <= 6; p++)
		for (uint32_t m = 1; m <= 13; m++) {
			uint64_t n = ((uint64_t)want_khz * m << p) / ref_khz;
			for (uint64_t nn = n; nn <= n + 1; nn++) {
				uint64_t vco = nn * ref_khz / m;
				if (nn < 1 || nn > 255 || vco < 400000 || vco > 1000000)
					continue;
				uint32_t got = (uint32_t)(vco >> p);
				uint32_t err = got > want_khz ? got - want_khz : want_khz - got;
				if (err < best_err) {
					best_err = err;
					best = got;
					*a = p << 16 | (uint32_t)nn << 8 | m;
				}
			}
		}
	return best;
}

/* ---- DDC (I2C) buses: bit-banged through head 0's CR port ----
 * nvkm busnv04: drive writes the WR register (keeping the other bits, with
 * bit 0 set), sense reads the STATUS register.  Open drain: a line reads
 * low if the master or the slave pulls it low. */
#define NV_DDC_BUSES             2
#define NV_DDC_WR(bus)           ((bus) ? NV_CR37_DDC1_WR : NV_CR3F_DDC0_WR)
#define NV_DDC_STATUS(bus)       ((bus) ? NV_CR36_DDC1_STATUS : NV_CR3E_DDC0_STATUS)
#define   NV_DDC_WR_SCL            0x20u
#define   NV_DDC_WR_SDA            0x10u
#define   NV_DDC_WR_ENABLE         0x01u
#define   NV_DDC_STATUS_SCL        0x04u
#define   NV_DDC_STATUS_SDA        0x08u
#define NV_DDC_EDID_ADDR         0x50 /* 7-bit I2C address of the EDID EEPROM */
#define NV_EDID_SIZE             128

/* ---- mode timings <-> CR registers (nv_crtc_mode_set_vga) ---- */
#define NV_CRTC_TIMING_DBLSCAN   (1u << 0)
#define NV_CRTC_TIMING_NHSYNC    (1u << 1) /* negative horizontal sync */
#define NV_CRTC_TIMING_NVSYNC    (1u << 2)

/* DRM's crtc_* values: pixels and lines, counted from the start of the
 * visible area.  Horizontal values must be multiples of 8 (characters). */
struct nv_crtc_timing {
	uint32_t hdisplay, hsync_start, hsync_end, htotal;
	uint32_t vdisplay, vsync_start, vsync_end, vtotal;
	uint32_t flags;
};

/* The CR indices nv_crtc_timing_to_cr fills, in the order to write them
 * (CR11 before CR00-CR07: its bit 7 protects them). */
#define NV_CR_MODE_REGS(X) \
	X(NV_CR11_VRE) X(NV_CR00_HDT) X(NV_CR01_HDE) X(NV_CR02_HBS) X(NV_CR03_HBE) \
	X(NV_CR04_HRS) X(NV_CR05_HRE) X(NV_CR06_VDT) X(NV_CR07_OVL) X(NV_CR08_RSAL) \
	X(NV_CR09_CELL_HT) X(NV_CR0C_SA_HI) X(NV_CR0D_SA_LO) X(NV_CR10_VRS) \
	X(NV_CR12_VDE) X(NV_CR13_OFFSET) X(NV_CR14_ULINE) X(NV_CR15_VBS) X(NV_CR16_VBE) \
	X(NV_CR17_MODE) X(NV_CR18_LCOMP) X(NV_CR19_RPC0) X(NV_CR1A_RPC1) X(NV_CR25_LSR) \
	X(NV_CR2D_HEB) X(NV_CR39_ILACE) X(NV_CR41_EBR) X(NV_CR42)

/* Largest values the registers hold. */
#define NV_CRTC_MAX_HTOTAL       ((0x1ffu + 5) * 8)
#define NV_CRTC_MAX_VTOTAL       (0xfffu + 2)
#define NV_CRTC_MAX_PITCH        (0xfffu * 8)

/* 1 if the timing is representable: ordered, in range, character aligned,
 * sync pulses short enough for their end fields (32 chars, 16 lines). */
static inline int nv_crtc_timing_fits(const struct nv_crtc_timing *t)
{
	return t->hdisplay >= 8 && !(t->hdisplay & 7) && !(t->hsync_start & 7) &&
	       !(t->hsync_end & 7) && !(t->htotal & 7) &&
	       t->hdisplay <= t->hsync_start && t->hsync_start < t->hsync_end &&
	       t->hsync_end <= t->htotal && t->htotal <= NV_CRTC_MAX_HTOTAL &&
	       t->htotal >= 48 && (t->hsync_end - t->hsync_start) <= 32 * 8 &&
	       t->vdisplay >= 1 && t->vdisplay <= t->vsync_start &&
	       t->vsync_start < t->vsync_end && t->vsync_end <= t->vtotal &&
	       t->vtotal <= NV_CRTC_MAX_VTOTAL && t->vtotal >= 2 &&
	       t->vsync_start >= 1 && (t->vsync_end - t->vsync_start) <= 16;
}

#define NV_BIT_TO(v, bit, mask) ((((v) >> (bit)) & 1u) ? (mask) : 0u)

/* Split a mode (and the scanout pitch in bytes, a multiple of 8) into CR
 * values: fills the NV_CR_MODE_REGS entries of cr[].  CR17 comes without
 * NV_CR17_SYNC_ENABLE and CR11 without NV_CR11_LOCK (see the contract at
 * the top). */
static inline void nv_crtc_timing_to_cr(const struct nv_crtc_timing *t, uint32_t pitch,
					uint8_t cr[NV_CR_COUNT])
{
	uint32_t hde = (t->hdisplay >> 3) - 1, hrs = (t->hsync_start >> 3) + 1;
	uint32_t hre = (t->hsync_end >> 3) + 1, hdt = (t->htotal >> 3) - 5;
	uint32_t hbs = hde, hbe = (t->htotal >> 3) - 1;
	uint32_t vde = t->vdisplay - 1, vrs = t->vsync_start - 1;
	uint32_t vre = t->vsync_end - 1, vdt = t->vtotal - 2;
	uint32_t vbs = vde, vbe = t->vtotal - 1;
	uint32_t off = pitch / 8;

	cr[NV_CR00_HDT] = (uint8_t)hdt;
	cr[NV_CR01_HDE] = (uint8_t)hde;
	cr[NV_CR02_HBS] = (uint8_t)hbs;
	cr[NV_CR03_HBE] = (uint8_t)(NV_CR03_COMPAT_READ | (hbe & NV_CR03_HBE_4_0));
	cr[NV_CR04_HRS] = (uint8_t)hrs;
	cr[NV_CR05_HRE] = (uint8_t)(NV_BIT_TO(hbe, 5, NV_CR05_HBE_5) | (hre & NV_CR05_HRE_4_0));
	cr[NV_CR06_VDT] = (uint8_t)vdt;
	cr[NV_CR07_OVL] = (uint8_t)(NV_BIT_TO(vrs, 9, NV_CR07_VRS_9) | NV_BIT_TO(vde, 9, NV_CR07_VDE_9) |
				    NV_BIT_TO(vdt, 9, NV_CR07_VDT_9) | NV_CR07_LCOMP_8 |
				    NV_BIT_TO(vbs, 8, NV_CR07_VBS_8) | NV_BIT_TO(vrs, 8, NV_CR07_VRS_8) |
				    NV_BIT_TO(vde, 8, NV_CR07_VDE_8) | NV_BIT_TO(vdt, 8, NV_CR07_VDT_8));
	cr[NV_CR08_RSAL] = 0;
	cr[NV_CR09_CELL_HT] = (uint8_t)(((t->flags & NV_CRTC_TIMING_DBLSCAN) ? NV_CR09_SCANDBL : 0) |
					NV_CR09_LCOMP_9 | NV_BIT_TO(vbs, 9, NV_CR09_VBS_9));
	cr[NV_CR0C_SA_HI] = 0;
	cr[NV_CR0D_SA_LO] = 0;
	cr[NV_CR10_VRS] = (uint8_t)vrs;
	cr[NV_CR11_VRE] = (uint8_t)(NV_CR11_BIT5 | (vre & NV_CR11_VRE_3_0));
	cr[NV_CR12_VDE] = (uint8_t)vde;
	cr[NV_CR13_OFFSET] = (uint8_t)off;
	cr[NV_CR14_ULINE] = 0;
	cr[NV_CR15_VBS] = (uint8_t)vbs;
	cr[NV_CR16_VBE] = (uint8_t)vbe;
	cr[NV_CR17_MODE] = NV_CR17_MODE_VALUE;
	cr[NV_CR18_LCOMP] = 0xff;
	cr[NV_CR19_RPC0] = (uint8_t)(((off >> 8) << 5) & NV_CR19_OFFSET_10_8);
	cr[NV_CR1A_RPC1] = t->hdisplay < 1280 ? NV_CR1A_LARGE : 0;
	cr[NV_CR25_LSR] = (uint8_t)(NV_BIT_TO(hbe, 6, NV_CR25_HBE_6) | NV_BIT_TO(vbs, 10, NV_CR25_VBS_10) |
				    NV_BIT_TO(vrs, 10, NV_CR25_VRS_10) | NV_BIT_TO(vde, 10, NV_CR25_VDE_10) |
				    NV_BIT_TO(vdt, 10, NV_CR25_VDT_10));
	cr[NV_CR2D_HEB] = (uint8_t)(NV_BIT_TO(hrs, 8, NV_CR2D_HRS_8) | NV_BIT_TO(hbs, 8, NV_CR2D_HBS_8) |
				    NV_BIT_TO(hde, 8, NV_CR2D_HDE_8) | NV_BIT_TO(hdt, 8, NV_CR2D_HDT_8));
	cr[NV_CR39_ILACE] = 0xff;
	cr[NV_CR41_EBR] = (uint8_t)(NV_BIT_TO(vbs, 11, NV_CR41_VBS_11) | NV_BIT_TO(vrs, 11, NV_CR41_VRS_11) |
				    NV_BIT_TO(vde, 11, NV_CR41_VDE_11) | NV_BIT_TO(vdt, 11, NV_CR41_VDT_11));
	cr[NV_CR42] = (uint8_t)NV_BIT_TO(off, 11, NV_CR42_OFFSET_11);
}

/* MISC_OUT for the mode's sync polarities (mode_set_vga with explicit flags). */
static inline uint8_t nv_misc_out(const struct nv_crtc_timing *t)
{
	return (uint8_t)(NV_MISC_OUT_BASE | ((t->flags & NV_CRTC_TIMING_NHSYNC) ? NV_MISC_OUT_NHSYNC : 0) |
			 ((t->flags & NV_CRTC_TIMING_NVSYNC) ? NV_MISC_OUT_NVSYNC : 0));
}

/* Join CR values (and MISC_OUT for the polarities) back into a mode.  The
 * sync ends are the first positions after the starts whose low bits match
 * their 5-bit (horizontal, characters) / 4-bit (vertical) end fields. */
static inline void nv_crtc_timing_from_cr(const uint8_t cr[NV_CR_COUNT], uint8_t misc,
					  struct nv_crtc_timing *t)
{
	uint32_t o = cr[NV_CR07_OVL], l = cr[NV_CR25_LSR], h = cr[NV_CR2D_HEB], e = cr[NV_CR41_EBR];
	uint32_t hdt = cr[NV_CR00_HDT] | NV_BIT_TO(h, 0, 0x100u);
	uint32_t hde = cr[NV_CR01_HDE] | NV_BIT_TO(h, 1, 0x100u);
	uint32_t hrs = cr[NV_CR04_HRS] | NV_BIT_TO(h, 3, 0x100u);
	uint32_t hre = (hrs & ~0x1fu) | (cr[NV_CR05_HRE] & NV_CR05_HRE_4_0);
	uint32_t vdt = cr[NV_CR06_VDT] | NV_BIT_TO(o, 0, 0x100u) | NV_BIT_TO(o, 5, 0x200u) |
		       NV_BIT_TO(l, 0, 0x400u) | NV_BIT_TO(e, 0, 0x800u);
	uint32_t vde = cr[NV_CR12_VDE] | NV_BIT_TO(o, 1, 0x100u) | NV_BIT_TO(o, 6, 0x200u) |
		       NV_BIT_TO(l, 1, 0x400u) | NV_BIT_TO(e, 2, 0x800u);
	uint32_t vrs = cr[NV_CR10_VRS] | NV_BIT_TO(o, 2, 0x100u) | NV_BIT_TO(o, 7, 0x200u) |
		       NV_BIT_TO(l, 2, 0x400u) | NV_BIT_TO(e, 4, 0x800u);
	uint32_t vre = (vrs & ~0xfu) | (cr[NV_CR11_VRE] & NV_CR11_VRE_3_0);

	if (hre <= hrs)
		hre += 0x20;
	if (vre <= vrs)
		vre += 0x10;
	t->htotal = (hdt + 5) * 8;
	t->hdisplay = (hde + 1) * 8;
	t->hsync_start = hrs ? (hrs - 1) * 8 : 0;
	t->hsync_end = (hre - 1) * 8;
	t->vtotal = vdt + 2;
	t->vdisplay = vde + 1;
	t->vsync_start = vrs + 1;
	t->vsync_end = vre + 1;
	t->flags = ((cr[NV_CR09_CELL_HT] & NV_CR09_SCANDBL) ? NV_CRTC_TIMING_DBLSCAN : 0) |
		   ((misc & NV_MISC_OUT_NHSYNC) ? NV_CRTC_TIMING_NHSYNC : 0) |
		   ((misc & NV_MISC_OUT_NVSYNC) ? NV_CRTC_TIMING_NVSYNC : 0);
}

/* Vertical blank start line (CR15 and its overflow bits, + 1). */
static inline uint32_t nv_crtc_vblank_start(const uint8_t cr[NV_CR_COUNT])
{
	return (cr[NV_CR15_VBS] | NV_BIT_TO(cr[NV_CR07_OVL], 3, 0x100u) |
		NV_BIT_TO(cr[NV_CR09_CELL_HT], 5, 0x200u) | NV_BIT_TO(cr[NV_CR25_LSR], 3, 0x400u) |
		NV_BIT_TO(cr[NV_CR41_EBR], 6, 0x800u)) + 1;
}

/* Scanout pitch in bytes: (CR13 | CR19[7:5] << 8 | CR42[6] << 11) * 8. */
static inline uint32_t nv_crtc_pitch_from_cr(const uint8_t cr[NV_CR_COUNT])
{
	return (cr[NV_CR13_OFFSET] | (uint32_t)(cr[NV_CR19_RPC0] & NV_CR19_OFFSET_10_8) << 3 |
		NV_BIT_TO(cr[NV_CR42], 6, 0x800u)) * 8;
}

/* Bytes per pixel of the scanout (0: VGA text/planar, not a framebuffer). */
static inline uint32_t nv_crtc_cpp_from_cr(const uint8_t cr[NV_CR_COUNT])
{
	static const uint8_t cpp[4] = { 0, 1, 2, 4 };
	return cpp[cr[NV_CR28_PIXEL] & NV_CR28_FORMAT_MASK];
}

/* CR28 for a framebuffer depth (nouveau: (depth + 1) / 8); 15 and 16 both
 * give 16 bpp, PRAMDAC_GENERAL_CONTROL's ALT_MODE_SEL tells them apart. */
static inline uint8_t nv_cr28_for_depth(uint32_t depth)
{
	return depth >= 24 ? NV_CR28_FORMAT_32 : (uint8_t)((depth + 1) / 8);
}

#endif
