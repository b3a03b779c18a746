/* nvt-img: comparing two renderings of the same thing pixel by pixel. */
#ifndef NVT_IMG_H
#define NVT_IMG_H

#include <stdint.h>

struct nvt_img_diff {
	unsigned worst;            /* largest channel difference */
	unsigned over;             /* pixels with a channel over the tolerance */
	unsigned wx, wy;           /* where the worst is (the first such pixel) */
};

/* a and b: w*h pixels of `channels` bytes each, rows packed. */
void nvt_img_compare(const uint8_t *a, const uint8_t *b, unsigned w, unsigned h,
		     unsigned channels, unsigned tol, struct nvt_img_diff *d);

#endif
