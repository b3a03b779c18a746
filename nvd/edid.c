/* EDID 1.3 for the simulated monitors (build) and for whatever answers on
 * a DDC bus (parse).  DMT modes take their timings from hw/edid.h, others
 * from VESA CVT 1.1 (reduced blanking for the 60 Hz detailed timings, as
 * LCD monitors do). */
#include "nvd/edid.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dmt {
	uint16_t w, h, hz;
	int8_t est;
	uint32_t clock;
	uint16_t hss, hse, htot, vss, vse, vtot;
	uint8_t flags;
};

static const struct dmt dmt_modes[] = {
#define DMT_ROW_(w, h, hz, est, clk, hss, hse, ht, vss, vse, vt, fl) \
	{ w, h, hz, est, clk, hss, hse, ht, vss, vse, vt, fl },
	NV_DMT_MODES(DMT_ROW_)
#undef DMT_ROW_
};
#define NDMT (sizeof(dmt_modes) / sizeof(dmt_modes[0]))

static const struct dmt *dmt_find(unsigned w, unsigned h, unsigned hz)
{
	for (unsigned i = 0; i < NDMT; i++)
		if (dmt_modes[i].w == w && dmt_modes[i].h == h && dmt_modes[i].hz == hz)
			return &dmt_modes[i];
	return NULL;
}

static void dmt_mode(const struct dmt *t, struct nvd_mode *m)
{
	memset(m, 0, sizeof(*m));
	m->clock = t->clock;
	m->hdisplay = t->w;
	m->hsync_start = t->hss;
	m->hsync_end = t->hse;
	m->htotal = t->htot;
	m->vdisplay = t->h;
	m->vsync_start = t->vss;
	m->vsync_end = t->vse;
	m->vtotal = t->vtot;
	m->flags = t->flags;
}

unsigned nvd_mode_hz(const struct nvd_mode *m)
{
	uint64_t px = (uint64_t)m->htotal * m->vtotal;
	return px ? (unsigned)(((uint64_t)m->clock * 1000 + px / 2) / px) : 0;
}

/* CVT's vertical sync width says the aspect ratio. */
static unsigned cvt_vsync(unsigned w, unsigned h)
{
	if (w * 3 == h * 4)
		return 4;
	if (w * 9 == h * 16)
		return 5;
	if (w * 10 == h * 16)
		return 6;
	if (w * 4 == h * 5 || w * 9 == h * 15)
		return 7;
	return 10;
}

/* VESA CVT 1.1, progressive, no margins. */
int nvd_mode_cvt(unsigned w, unsigned h, unsigned hz, int rb, struct nvd_mode *m)
{
	const double clock_step = 0.25;            /* MHz */
	unsigned hpix = w / 8 * 8, vsync = cvt_vsync(w, h);
	double frame_us = 1e6 / hz;
	unsigned htot, vtot, hss, hse;
	double mhz;

	memset(m, 0, sizeof(*m));
	if (w < 8 || !h || hz < 1 || hz > 1000)
		return -EINVAL;
	if (rb) {
		const double min_vblank_us = 460;
		double hperiod = (frame_us - min_vblank_us) / h;
		unsigned vbi = (unsigned)(min_vblank_us / hperiod) + 1;
		if (vbi < 3 + vsync + 6)
			vbi = 3 + vsync + 6;
		vtot = h + vbi;
		htot = hpix + 160;
		mhz = (double)hz * vtot * htot / 1e6;
		hse = hpix + 80;
		hss = hse - 32;
		m->flags = NVD_MODE_PHSYNC | NVD_MODE_NVSYNC;
	} else {
		const double min_vsync_bp_us = 550;
		double hperiod = (frame_us - min_vsync_bp_us) / (h + 3);
		unsigned vsbp = (unsigned)(min_vsync_bp_us / hperiod) + 1;
		if (vsbp < vsync + 6)
			vsbp = vsync + 6;
		vtot = h + vsbp + 3;
		double duty = 30.0 - 300.0 * hperiod / 1000.0;
		if (duty < 20)
			duty = 20;
		unsigned hblank = (unsigned)(hpix * duty / (100.0 - duty) / 16.0) * 16;
		htot = hpix + hblank;
		mhz = htot / hperiod;
		unsigned hsw = (unsigned)(0.08 * htot / 8.0) * 8;
		hse = hpix + hblank / 2;
		hss = hse - hsw;
		m->flags = NVD_MODE_NHSYNC | NVD_MODE_PVSYNC;
	}
	if (htot > 0xffff || vtot > 0xffff)
		return -EINVAL;
	m->clock = (uint32_t)((unsigned)(mhz / clock_step) * clock_step * 1000.0 + 0.5);
	m->hdisplay = (uint16_t)hpix;
	m->hsync_start = (uint16_t)hss;
	m->hsync_end = (uint16_t)hse;
	m->htotal = (uint16_t)htot;
	m->vdisplay = (uint16_t)h;
	m->vsync_start = (uint16_t)(h + 3);
	m->vsync_end = (uint16_t)(h + 3 + vsync);
	m->vtotal = (uint16_t)vtot;
	return 0;
}

int nvd_mode_timing(unsigned w, unsigned h, unsigned hz, int rb, struct nvd_mode *m)
{
	const struct dmt *t = dmt_find(w, h, hz);
	if (t) {
		dmt_mode(t, m);
		return 0;
	}
	/* Sizes a DTD can carry; refresh rates CVT is meant for. */
	if (w < 64 || w > 4095 || w % 8 || h < 64 || h > 4095 || hz < 24 || hz > 240)
		return -EINVAL;
	return nvd_mode_cvt(w, h, hz, rb, m);
}

/* ---- monitors ---- */

static int monitor_add(struct nvd_monitor *m, unsigned w, unsigned h, unsigned hz, char *why,
		       size_t whylen)
{
	struct nvd_mode t;
	if (m->nmodes == NVD_EDID_MAX_MODES) {
		snprintf(why, whylen, "more than %u modes", NVD_EDID_MAX_MODES);
		return -EINVAL;
	}
	for (unsigned i = 0; i < m->nmodes; i++)
		if (m->modes[i].w == w && m->modes[i].h == h && m->modes[i].hz == hz) {
			snprintf(why, whylen, "mode %ux%u@%u listed twice", w, h, hz);
			return -EINVAL;
		}
	if (nvd_mode_timing(w, h, hz, hz == 60, &t) < 0) {
		snprintf(why, whylen, "no timing for %ux%u@%u (not DMT; CVT needs a width that is a "
			 "multiple of 8, sizes 64..4095 and 24..240 Hz)", w, h, hz);
		return -EINVAL;
	}
	m->modes[m->nmodes].w = (uint16_t)w;
	m->modes[m->nmodes].h = (uint16_t)h;
	m->modes[m->nmodes].hz = (uint16_t)hz;
	m->nmodes++;
	return 0;
}

static int parse_uint(const char **s, unsigned max, unsigned *out)
{
	unsigned long v = 0;
	const char *p = *s;
	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (unsigned)(*p++ - '0');
		if (v > max)
			return -1;
	}
	*s = p;
	*out = (unsigned)v;
	return 0;
}

int nvd_monitor_parse(const char *spec, struct nvd_monitor *m, char *why, size_t whylen)
{
	const char *p = spec, *colon = strchr(spec, ':');
	memset(m, 0, sizeof(*m));
	if (!strcmp(spec, "none"))
		return 0;
	if (colon) {
		size_t n = strlen(colon + 1);
		if (!n || n >= NVD_MONITOR_NAME) {
			snprintf(why, whylen, "monitor name must have 1 to %u characters",
				 NVD_MONITOR_NAME - 1);
			return -EINVAL;
		}
		for (size_t i = 0; i < n; i++)
			if (colon[1 + i] < 0x20 || colon[1 + i] > 0x7e) {
				snprintf(why, whylen, "monitor name must be printable ASCII");
				return -EINVAL;
			}
		memcpy(m->name, colon + 1, n + 1);
	}
	for (;;) {
		unsigned w, h, hz = 60;
		if (parse_uint(&p, 65535, &w) < 0 || *p++ != 'x' || parse_uint(&p, 65535, &h) < 0)
			goto bad;
		if (*p == '@' && (p++, parse_uint(&p, 1000, &hz) < 0))
			goto bad;
		int r = monitor_add(m, w, h, hz, why, whylen);
		if (r < 0)
			return r;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p && p != colon)
			goto bad;
		break;
	}
	if (!m->name[0])
		snprintf(m->name, sizeof(m->name), "nvd %ux%u", m->modes[0].w % 10000u,
			 m->modes[0].h % 10000u);
	return 0;
bad:
	memset(m, 0, sizeof(*m));
	snprintf(why, whylen, "'%s' is not none or WxH[@HZ][,WxH[@HZ]...][:NAME]", spec);
	return -EINVAL;
}

const char *nvd_monitor_default_spec(unsigned output)
{
	return output == 0 ? "1920x1080,1680x1050,1280x1024,1024x768,800x600,640x480"
		: output == 1 ? "1280x1024,1024x768,800x600,640x480" : "none";
}

void nvd_monitor_default(unsigned output, struct nvd_monitor *m)
{
	char why[128];
	if (nvd_monitor_parse(nvd_monitor_default_spec(output), m, why, sizeof(why)) < 0)
		memset(m, 0, sizeof(*m));
}

/* ---- building ---- */

static void put_dtd(uint8_t *d, const struct nvd_mode *m, unsigned mm_w, unsigned mm_h)
{
	unsigned hblank = m->htotal - m->hdisplay, vblank = m->vtotal - m->vdisplay;
	unsigned hso = m->hsync_start - m->hdisplay, hsw = m->hsync_end - m->hsync_start;
	unsigned vso = m->vsync_start - m->vdisplay, vsw = m->vsync_end - m->vsync_start;
	unsigned clk = m->clock / 10;

	memset(d, 0, EDID_DESC_LEN);
	d[EDID_DTD_CLOCK] = clk & 0xff;
	d[EDID_DTD_CLOCK + 1] = (clk >> 8) & 0xff;
	d[EDID_DTD_HACTIVE] = m->hdisplay & 0xff;
	d[EDID_DTD_HBLANK] = hblank & 0xff;
	d[EDID_DTD_H_HI] = (uint8_t)(((m->hdisplay >> 8) & 15) << 4 | ((hblank >> 8) & 15));
	d[EDID_DTD_VACTIVE] = m->vdisplay & 0xff;
	d[EDID_DTD_VBLANK] = vblank & 0xff;
	d[EDID_DTD_V_HI] = (uint8_t)(((m->vdisplay >> 8) & 15) << 4 | ((vblank >> 8) & 15));
	d[EDID_DTD_HSO] = hso & 0xff;
	d[EDID_DTD_HSW] = hsw & 0xff;
	d[EDID_DTD_VSO_VSW] = (uint8_t)((vso & 15) << 4 | (vsw & 15));
	d[EDID_DTD_SYNC_HI] = (uint8_t)(((hso >> 8) & 3) << 6 | ((hsw >> 8) & 3) << 4 |
					((vso >> 4) & 3) << 2 | ((vsw >> 4) & 3));
	d[EDID_DTD_HSIZE_MM] = mm_w & 0xff;
	d[EDID_DTD_VSIZE_MM] = mm_h & 0xff;
	d[EDID_DTD_SIZE_HI] = (uint8_t)(((mm_w >> 8) & 15) << 4 | ((mm_h >> 8) & 15));
	d[EDID_DTD_FLAGS] = EDID_DTD_DIGITAL_SEPARATE |
		(m->flags & NVD_MODE_PVSYNC ? EDID_DTD_VSYNC_POS : 0) |
		(m->flags & NVD_MODE_PHSYNC ? EDID_DTD_HSYNC_POS : 0);
}

/* A DTD carries 12-bit sizes and blanks, 10-bit h sync, 6-bit v sync. */
static int dtd_fits(const struct nvd_mode *m)
{
	return m->clock / 10 <= 0xffff && m->hdisplay <= 4095 && m->vdisplay <= 4095 &&
	       m->htotal - m->hdisplay <= 4095 && m->vtotal - m->vdisplay <= 4095 &&
	       m->hsync_start - m->hdisplay <= 1023 && m->hsync_end - m->hsync_start <= 1023 &&
	       m->vsync_start - m->vdisplay <= 63 && m->vsync_end - m->vsync_start <= 63;
}

static int std_aspect(unsigned w, unsigned h)
{
	if (w * 10 == h * 16)
		return EDID_STD_ASPECT_16_10;
	if (w * 3 == h * 4)
		return EDID_STD_ASPECT_4_3;
	if (w * 4 == h * 5)
		return EDID_STD_ASPECT_5_4;
	if (w * 9 == h * 16)
		return EDID_STD_ASPECT_16_9;
	return -1;
}

static void put_text(uint8_t *d, unsigned tag, const char *s)
{
	size_t n = strlen(s);
	memset(d, 0, EDID_DESC_LEN);
	d[EDID_DESC_TAG] = (uint8_t)tag;
	memset(d + EDID_DESC_TEXT_AT, 0x20, EDID_DESC_TEXT_LEN);
	if (n > EDID_DESC_TEXT_LEN)
		n = EDID_DESC_TEXT_LEN;
	memcpy(d + EDID_DESC_TEXT_AT, s, n);
	if (n < EDID_DESC_TEXT_LEN)
		d[EDID_DESC_TEXT_AT + n] = 0x0a;
}

int nvd_edid_build(const struct nvd_monitor *m, uint8_t e[EDID_SIZE], char *why, size_t whylen)
{
	static const uint8_t header[EDID_HEADER_LEN] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	/* sRGB primaries and D65 white, as most monitors report them */
	static const uint8_t chroma[EDID_CHROMA_LEN] = { 0xee, 0x91, 0xa3, 0x54, 0x4c, 0x99,
							 0x26, 0x0f, 0x50, 0x54 };
	const uint16_t vendor = ('N' - '@') << 10 | ('V' - '@') << 5 | ('D' - '@');
	unsigned ndtd = 0, nstd = 0;
	struct nvd_mode t;

	memset(e, 0, EDID_SIZE);
	if (!m->nmodes) {
		snprintf(why, whylen, "a monitor needs a mode");
		return -EINVAL;
	}
	/* ~96 dpi */
	unsigned mm_w = (m->modes[0].w * 2646u + 5000) / 10000;
	unsigned mm_h = (m->modes[0].h * 2646u + 5000) / 10000;
	memcpy(e + EDID_HEADER, header, sizeof(header));
	e[EDID_VENDOR] = vendor >> 8;
	e[EDID_VENDOR + 1] = vendor & 0xff;
	e[EDID_PRODUCT] = (uint8_t)(m->modes[0].w & 0xff);
	e[EDID_PRODUCT + 1] = (uint8_t)(m->modes[0].w >> 8);
	e[EDID_SERIAL] = 1;
	e[EDID_WEEK] = 1;
	e[EDID_YEAR] = 2004 - 1990;
	e[EDID_VERSION] = 1;
	e[EDID_REVISION] = 3;
	e[EDID_INPUT] = EDID_INPUT_ANALOG_SEPARATE;
	e[EDID_MAX_HSIZE_CM] = (uint8_t)((mm_w + 5) / 10);
	e[EDID_MAX_VSIZE_CM] = (uint8_t)((mm_h + 5) / 10);
	e[EDID_GAMMA] = 220 - 100;
	e[EDID_FEATURES] = EDID_FEATURE_DPMS | EDID_FEATURE_RGB | EDID_FEATURE_SRGB |
			   EDID_FEATURE_PREFERRED;
	memcpy(e + EDID_CHROMA, chroma, sizeof(chroma));
	for (unsigned i = 0; i < EDID_STD_COUNT; i++)
		e[EDID_STD + 2 * i] = e[EDID_STD + 2 * i + 1] = EDID_STD_UNUSED;

	for (unsigned i = 0; i < m->nmodes; i++) {
		unsigned w = m->modes[i].w, h = m->modes[i].h, hz = m->modes[i].hz;
		const struct dmt *dm = dmt_find(w, h, hz);
		int asp = std_aspect(w, h);
		/* The preferred mode must be the first DTD; the others go where
		 * they cost least: established bit, standard timing, DTD. */
		if (i && dm && dm->est >= 0) {
			e[EDID_ESTABLISHED + dm->est / 8] |= (uint8_t)(0x80 >> (dm->est % 8));
			continue;
		}
		if (i && asp >= 0 && w % 8 == 0 && w >= 256 && w <= 2288 && hz >= 60 && hz <= 123 &&
		    nstd < EDID_STD_COUNT && nvd_mode_timing(w, h, hz, 0, &t) == 0) {
			e[EDID_STD + 2 * nstd] = (uint8_t)(w / 8 - 31);
			e[EDID_STD + 2 * nstd + 1] = (uint8_t)(asp << 6 | (hz - 60));
			nstd++;
			continue;
		}
		if (ndtd == EDID_DESC_COUNT - 1 || nvd_mode_timing(w, h, hz, hz == 60, &t) < 0 ||
		    !dtd_fits(&t)) {
			snprintf(why, whylen, "mode %ux%u@%u does not fit the EDID (%u detailed and %u "
				 "standard timings are full)", w, h, hz, EDID_DESC_COUNT - 1,
				 EDID_STD_COUNT);
			return -E2BIG;
		}
		put_dtd(e + EDID_DESC + EDID_DESC_LEN * ndtd++, &t, mm_w, mm_h);
	}
	put_text(e + EDID_DESC + EDID_DESC_LEN * ndtd++, EDID_DESC_NAME, m->name);
	while (ndtd < EDID_DESC_COUNT) {
		uint8_t *d = e + EDID_DESC + EDID_DESC_LEN * ndtd++;
		d[EDID_DESC_TAG] = EDID_DESC_DUMMY;
	}
	uint8_t sum = 0;
	for (unsigned i = 0; i < EDID_CHECKSUM; i++)
		sum = (uint8_t)(sum + e[i]);
	e[EDID_CHECKSUM] = (uint8_t)(0x100 - sum);
	return 0;
}

/* ---- parsing ---- */

static int get_dtd(const uint8_t *d, unsigned *mm_w, unsigned *mm_h, struct nvd_mode *m)
{
	unsigned hact = d[EDID_DTD_HACTIVE] | (d[EDID_DTD_H_HI] >> 4) << 8;
	unsigned hbl = d[EDID_DTD_HBLANK] | (d[EDID_DTD_H_HI] & 15) << 8;
	unsigned vact = d[EDID_DTD_VACTIVE] | (d[EDID_DTD_V_HI] >> 4) << 8;
	unsigned vbl = d[EDID_DTD_VBLANK] | (d[EDID_DTD_V_HI] & 15) << 8;
	unsigned hi = d[EDID_DTD_SYNC_HI];
	unsigned hso = d[EDID_DTD_HSO] | ((hi >> 6) & 3) << 8;
	unsigned hsw = d[EDID_DTD_HSW] | ((hi >> 4) & 3) << 8;
	unsigned vso = (d[EDID_DTD_VSO_VSW] >> 4) | ((hi >> 2) & 3) << 4;
	unsigned vsw = (d[EDID_DTD_VSO_VSW] & 15) | (hi & 3) << 4;
	unsigned fl = d[EDID_DTD_FLAGS];

	/* Interlaced modes and nonsense (no active area, sync past the blank)
	 * are not offered. */
	if (fl & EDID_DTD_INTERLACED || !hact || !vact || !hsw || !vsw ||
	    hso + hsw > hbl || vso + vsw > vbl)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	m->clock = (d[EDID_DTD_CLOCK] | d[EDID_DTD_CLOCK + 1] << 8) * 10u;
	m->hdisplay = (uint16_t)hact;
	m->hsync_start = (uint16_t)(hact + hso);
	m->hsync_end = (uint16_t)(hact + hso + hsw);
	m->htotal = (uint16_t)(hact + hbl);
	m->vdisplay = (uint16_t)vact;
	m->vsync_start = (uint16_t)(vact + vso);
	m->vsync_end = (uint16_t)(vact + vso + vsw);
	m->vtotal = (uint16_t)(vact + vbl);
	if ((fl & EDID_DTD_DIGITAL_SEPARATE) == EDID_DTD_DIGITAL_SEPARATE)
		m->flags = (fl & EDID_DTD_HSYNC_POS ? NVD_MODE_PHSYNC : NVD_MODE_NHSYNC) |
			   (fl & EDID_DTD_VSYNC_POS ? NVD_MODE_PVSYNC : NVD_MODE_NVSYNC);
	else
		m->flags = NVD_MODE_NHSYNC | NVD_MODE_NVSYNC;
	*mm_w = d[EDID_DTD_HSIZE_MM] | (d[EDID_DTD_SIZE_HI] >> 4) << 8;
	*mm_h = d[EDID_DTD_VSIZE_MM] | (d[EDID_DTD_SIZE_HI] & 15) << 8;
	return 0;
}

static void info_add(struct nvd_edid_info *in, const struct nvd_mode *m)
{
	unsigned hz = nvd_mode_hz(m);
	for (unsigned i = 0; i < in->nmodes; i++)
		if (in->modes[i].hdisplay == m->hdisplay && in->modes[i].vdisplay == m->vdisplay &&
		    nvd_mode_hz(&in->modes[i]) == hz)
			return;
	if (in->nmodes < NVD_EDID_MAX_MODES)
		in->modes[in->nmodes++] = *m;
}

/* Preferred first, then the larger, then the faster. */
static int mode_order(const void *a_, const void *b_)
{
	const struct nvd_mode *a = a_, *b = b_;
	uint32_t aa = (uint32_t)a->hdisplay * a->vdisplay, ba = (uint32_t)b->hdisplay * b->vdisplay;
	if (a->preferred != b->preferred)
		return a->preferred ? -1 : 1;
	if (aa != ba)
		return aa > ba ? -1 : 1;
	if (a->hdisplay != b->hdisplay)
		return a->hdisplay > b->hdisplay ? -1 : 1;
	unsigned ah = nvd_mode_hz(a), bh = nvd_mode_hz(b);
	if (ah != bh)
		return ah > bh ? -1 : 1;
	return 0;
}

int nvd_edid_parse(const uint8_t e[EDID_SIZE], struct nvd_edid_info *in, char *why, size_t whylen)
{
	static const uint8_t header[EDID_HEADER_LEN] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	struct nvd_mode m;
	uint8_t sum = 0;
	int first_dtd = 1;

	memset(in, 0, sizeof(*in));
	if (memcmp(e + EDID_HEADER, header, sizeof(header))) {
		snprintf(why, whylen, "no EDID header");
		return -EINVAL;
	}
	for (unsigned i = 0; i < EDID_SIZE; i++)
		sum = (uint8_t)(sum + e[i]);
	if (sum) {
		snprintf(why, whylen, "EDID checksum is off by 0x%02x", sum);
		return -EINVAL;
	}
	if (e[EDID_VERSION] != 1) {
		snprintf(why, whylen, "EDID version %u.%u", e[EDID_VERSION], e[EDID_REVISION]);
		return -ENOTSUP;
	}
	in->mm_width = e[EDID_MAX_HSIZE_CM] * 10u;
	in->mm_height = e[EDID_MAX_VSIZE_CM] * 10u;
	for (unsigned i = 0; i < EDID_DESC_COUNT; i++) {
		const uint8_t *d = e + EDID_DESC + EDID_DESC_LEN * i;
		if (d[0] || d[1]) {
			unsigned mw, mh;
			if (get_dtd(d, &mw, &mh, &m) == 0) {
				/* EDID 1.3: the first DTD is the preferred mode */
				m.preferred = first_dtd && (e[EDID_FEATURES] & EDID_FEATURE_PREFERRED);
				if (first_dtd && mw && mh) {
					in->mm_width = mw;
					in->mm_height = mh;
				}
				info_add(in, &m);
			}
			first_dtd = 0;
			continue;
		}
		if (d[EDID_DESC_TAG] == EDID_DESC_NAME) {
			unsigned n = 0;
			for (; n < EDID_DESC_TEXT_LEN && d[EDID_DESC_TEXT_AT + n] != 0x0a; n++) {
				char c = (char)d[EDID_DESC_TEXT_AT + n];
				in->name[n] = c >= 0x20 && c <= 0x7e ? c : '?';
			}
			while (n && in->name[n - 1] == ' ')
				n--;
			in->name[n] = 0;
		}
	}
	for (unsigned i = 0; i < NDMT; i++) {
		int b = dmt_modes[i].est;
		if (b >= 0 && e[EDID_ESTABLISHED + b / 8] & (0x80 >> (b % 8))) {
			dmt_mode(&dmt_modes[i], &m);
			info_add(in, &m);
		}
	}
	for (unsigned i = 0; i < EDID_STD_COUNT; i++) {
		uint8_t b0 = e[EDID_STD + 2 * i], b1 = e[EDID_STD + 2 * i + 1];
		if ((b0 == EDID_STD_UNUSED && b1 == EDID_STD_UNUSED) || !b0)
			continue;
		unsigned w = (b0 + 31u) * 8, hz = (b1 & 63u) + 60, h;
		switch (b1 >> 6) {
		case EDID_STD_ASPECT_16_10: h = w * 10 / 16; break;
		case EDID_STD_ASPECT_4_3: h = w * 3 / 4; break;
		case EDID_STD_ASPECT_5_4: h = w * 4 / 5; break;
		default: h = w * 9 / 16; break;
		}
		if (nvd_mode_timing(w, h, hz, 0, &m) == 0)
			info_add(in, &m);
	}
	if (!in->nmodes) {
		snprintf(why, whylen, "EDID lists no mode nvd can use");
		return -ENOTSUP;
	}
	qsort(in->modes, in->nmodes, sizeof(in->modes[0]), mode_order);
	return 0;
}
