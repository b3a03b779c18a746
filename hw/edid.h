/* EDID 1.3 facts (VESA E-EDID A2) and the VESA DMT 1.13 timings nvd knows.
 * The EDID generator (the simulated monitors) and the parser (what nvd
 * reads over DDC) both take their numbers from here. */
#ifndef NV_HW_EDID_H
#define NV_HW_EDID_H

#include <stdint.h>

#define EDID_SIZE            128
#define EDID_DDC_ADDR        0x50      /* the monitor's EEPROM on the DDC bus (7-bit) */

/* Base block layout (byte offsets). */
#define EDID_HEADER          0x00      /* 00 ff ff ff ff ff ff 00 */
#define EDID_HEADER_LEN      8
#define EDID_VENDOR          0x08      /* 3 letters, 5 bits each, big-endian */
#define EDID_PRODUCT         0x0a      /* little-endian */
#define EDID_SERIAL          0x0c      /* little-endian */
#define EDID_WEEK            0x10
#define EDID_YEAR            0x11      /* year - 1990 */
#define EDID_VERSION         0x12
#define EDID_REVISION        0x13
#define EDID_INPUT           0x14      /* bit 7: digital; analog: bit 3 separate syncs */
#define EDID_INPUT_ANALOG_SEPARATE 0x08
#define EDID_MAX_HSIZE_CM    0x15
#define EDID_MAX_VSIZE_CM    0x16
#define EDID_GAMMA           0x17      /* (gamma * 100) - 100 */
#define EDID_FEATURES        0x18
#define EDID_FEATURE_DPMS    0xe0      /* standby, suspend, active off */
#define EDID_FEATURE_RGB     0x08      /* display type: RGB colour */
#define EDID_FEATURE_SRGB    0x04
#define EDID_FEATURE_PREFERRED 0x02    /* the first DTD is the preferred mode (must in 1.3) */
#define EDID_CHROMA          0x19      /* 10 bytes */
#define EDID_CHROMA_LEN      10
#define EDID_ESTABLISHED     0x23      /* 3 bytes of bits, see EDID_EST_* */
#define EDID_STD             0x26      /* 8 standard timings of 2 bytes */
#define EDID_STD_COUNT       8
#define EDID_STD_UNUSED      0x01      /* both bytes of an unused slot */
#define EDID_DESC            0x36      /* 4 descriptors of 18 bytes */
#define EDID_DESC_COUNT      4
#define EDID_DESC_LEN        18
#define EDID_EXTENSIONS      0x7e
#define EDID_CHECKSUM        0x7f      /* the 128 bytes sum to 0 mod 256 */

/* Standard timing: byte 0 = hactive / 8 - 31, byte 1 = aspect << 6 | (Hz - 60). */
#define EDID_STD_ASPECT_16_10 0        /* EDID 1.3 meaning of 00 (1.0-1.2: 1:1) */
#define EDID_STD_ASPECT_4_3   1
#define EDID_STD_ASPECT_5_4   2
#define EDID_STD_ASPECT_16_9  3

/* Display descriptors (a DTD when the first two bytes, its clock, are 0). */
#define EDID_DESC_TAG        3         /* byte 3 of a display descriptor */
#define EDID_DESC_NAME       0xfc      /* monitor name: 13 bytes, 0x0a ends, 0x20 pads */
#define EDID_DESC_SERIAL     0xff
#define EDID_DESC_TEXT       0xfe
#define EDID_DESC_RANGE      0xfd
#define EDID_DESC_DUMMY      0x10
#define EDID_DESC_TEXT_LEN   13
#define EDID_DESC_TEXT_AT    5

/* Detailed timing descriptor (18 bytes). */
#define EDID_DTD_CLOCK       0         /* 2 bytes LE, 10 kHz units */
#define EDID_DTD_HACTIVE     2
#define EDID_DTD_HBLANK      3
#define EDID_DTD_H_HI        4         /* hactive[11:8] << 4 | hblank[11:8] */
#define EDID_DTD_VACTIVE     5
#define EDID_DTD_VBLANK      6
#define EDID_DTD_V_HI        7
#define EDID_DTD_HSO         8         /* h sync offset (front porch) [7:0] */
#define EDID_DTD_HSW         9         /* h sync width [7:0] */
#define EDID_DTD_VSO_VSW     10        /* v offset [3:0] << 4 | v width [3:0] */
#define EDID_DTD_SYNC_HI     11        /* hso[9:8]<<6 | hsw[9:8]<<4 | vso[5:4]<<2 | vsw[5:4] */
#define EDID_DTD_HSIZE_MM    12
#define EDID_DTD_VSIZE_MM    13
#define EDID_DTD_SIZE_HI     14
#define EDID_DTD_HBORDER     15
#define EDID_DTD_VBORDER     16
#define EDID_DTD_FLAGS       17
#define EDID_DTD_INTERLACED  0x80
#define EDID_DTD_DIGITAL_SEPARATE 0x18 /* sync type bits 4:3 = 11 */
#define EDID_DTD_VSYNC_POS   0x04      /* with digital separate sync */
#define EDID_DTD_HSYNC_POS   0x02

/* Sync polarities of a DMT mode (DRM's flag values). */
#define NV_DMT_PH 1
#define NV_DMT_NH 2
#define NV_DMT_PV 4
#define NV_DMT_NV 8

/* Established timing bits: bit n is byte EDID_ESTABLISHED + n / 8, bit
 * 7 - n % 8.  Only those DMT has a timing for are listed. */
#define EDID_EST_720x400_70   0
#define EDID_EST_640x480_60   2
#define EDID_EST_640x480_72   4
#define EDID_EST_640x480_75   5
#define EDID_EST_800x600_56   6
#define EDID_EST_800x600_60   7
#define EDID_EST_800x600_72   8
#define EDID_EST_800x600_75   9
#define EDID_EST_1024x768_60  12
#define EDID_EST_1024x768_70  13
#define EDID_EST_1024x768_75  14
#define EDID_EST_1280x1024_75 15
#define EDID_EST_NONE         -1

/* VESA DMT: X(w, h, Hz, established bit, clock kHz, hss, hse, htotal,
 *             vss, vse, vtotal, sync flags) */
#define NV_DMT_MODES(X) \
	X( 640,  480, 60, EDID_EST_640x480_60,   25175,  656,  752,  800,  490,  492,  525, NV_DMT_NH | NV_DMT_NV) \
	X( 640,  480, 72, EDID_EST_640x480_72,   31500,  664,  704,  832,  489,  492,  520, NV_DMT_NH | NV_DMT_NV) \
	X( 640,  480, 75, EDID_EST_640x480_75,   31500,  656,  720,  840,  481,  484,  500, NV_DMT_NH | NV_DMT_NV) \
	X( 720,  400, 70, EDID_EST_720x400_70,   28322,  738,  846,  900,  412,  414,  449, NV_DMT_NH | NV_DMT_PV) \
	X( 800,  600, 56, EDID_EST_800x600_56,   36000,  824,  896, 1024,  601,  603,  625, NV_DMT_PH | NV_DMT_PV) \
	X( 800,  600, 60, EDID_EST_800x600_60,   40000,  840,  968, 1056,  601,  605,  628, NV_DMT_PH | NV_DMT_PV) \
	X( 800,  600, 72, EDID_EST_800x600_72,   50000,  856,  976, 1040,  637,  643,  666, NV_DMT_PH | NV_DMT_PV) \
	X( 800,  600, 75, EDID_EST_800x600_75,   49500,  816,  896, 1056,  601,  604,  625, NV_DMT_PH | NV_DMT_PV) \
	X(1024,  768, 60, EDID_EST_1024x768_60,  65000, 1048, 1184, 1344,  771,  777,  806, NV_DMT_NH | NV_DMT_NV) \
	X(1024,  768, 70, EDID_EST_1024x768_70,  75000, 1048, 1184, 1328,  771,  777,  806, NV_DMT_NH | NV_DMT_NV) \
	X(1024,  768, 75, EDID_EST_1024x768_75,  78750, 1040, 1136, 1312,  769,  772,  800, NV_DMT_PH | NV_DMT_PV) \
	X(1152,  864, 75, EDID_EST_NONE,        108000, 1216, 1344, 1600,  865,  868,  900, NV_DMT_PH | NV_DMT_PV) \
	X(1280,  720, 60, EDID_EST_NONE,         74250, 1390, 1430, 1650,  725,  730,  750, NV_DMT_PH | NV_DMT_PV) \
	X(1280,  800, 60, EDID_EST_NONE,         83500, 1352, 1480, 1680,  803,  809,  831, NV_DMT_NH | NV_DMT_PV) \
	X(1280,  960, 60, EDID_EST_NONE,        108000, 1376, 1488, 1800,  961,  964, 1000, NV_DMT_PH | NV_DMT_PV) \
	X(1280, 1024, 60, EDID_EST_NONE,        108000, 1328, 1440, 1688, 1025, 1028, 1066, NV_DMT_PH | NV_DMT_PV) \
	X(1280, 1024, 75, EDID_EST_1280x1024_75,135000, 1296, 1440, 1688, 1025, 1028, 1066, NV_DMT_PH | NV_DMT_PV) \
	X(1366,  768, 60, EDID_EST_NONE,         85500, 1436, 1579, 1792,  771,  774,  798, NV_DMT_PH | NV_DMT_PV) \
	X(1440,  900, 60, EDID_EST_NONE,        106500, 1520, 1672, 1904,  903,  909,  934, NV_DMT_NH | NV_DMT_PV) \
	X(1600, 1200, 60, EDID_EST_NONE,        162000, 1664, 1856, 2160, 1201, 1204, 1250, NV_DMT_PH | NV_DMT_PV) \
	X(1680, 1050, 60, EDID_EST_NONE,        146250, 1784, 1960, 2240, 1053, 1059, 1089, NV_DMT_NH | NV_DMT_PV) \
	X(1920, 1080, 60, EDID_EST_NONE,        148500, 2008, 2052, 2200, 1084, 1089, 1125, NV_DMT_PH | NV_DMT_PV) \
	X(1920, 1200, 60, EDID_EST_NONE,        154000, 1968, 2000, 2080, 1203, 1209, 1235, NV_DMT_PH | NV_DMT_NV)

#endif
