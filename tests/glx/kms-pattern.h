/* The picture kms-probe puts in its framebuffers and test_kms expects in
 * nvd's screenshots: every pixel different from its neighbours, so a wrong
 * pitch, offset or pan shows. */
#ifndef NVD_TESTS_KMS_PATTERN_H
#define NVD_TESTS_KMS_PATTERN_H

#include <stdint.h>

/* XRGB8888 (X = 0) at (x, y) of the framebuffer. */
static inline uint32_t kms_pattern(uint32_t x, uint32_t y)
{
	return ((x * 7 + y) & 0xff) << 16 | ((y * 5) & 0xff) << 8 | ((x ^ (y * 3)) & 0xff);
}

/* The same pixel in RGB565 (the top bits of each channel). */
static inline uint16_t kms_to_rgb565(uint32_t p)
{
	return (uint16_t)((p >> 19 & 0x1f) << 11 | (p >> 10 & 0x3f) << 5 | (p >> 3 & 0x1f));
}

#endif
