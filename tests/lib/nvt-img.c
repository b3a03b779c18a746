/* nvt-img: comparing two renderings (see nvt-img.h). */
#include "tests/lib/nvt-img.h"

#include <string.h>

void nvt_img_compare(const uint8_t *a, const uint8_t *b, unsigned w, unsigned h,
		     unsigned channels, unsigned tol, struct nvt_img_diff *d)
{
	memset(d, 0, sizeof(*d));
	for (unsigned i = 0; i < w * h; i++) {
		unsigned m = 0;
		for (unsigned c = 0; c < channels; c++) {
			int k = (int)a[i * channels + c] - (int)b[i * channels + c];
			unsigned ak = (unsigned)(k < 0 ? -k : k);
			if (ak > m)
				m = ak;
		}
		if (m > tol)
			d->over++;
		if (m > d->worst) {
			d->worst = m;
			d->wx = i % w;
			d->wy = i / w;
		}
	}
}
