/* Pixel formats of the 2D objects, with bytes per pixel.  Rows are
 * X(name, value, bytes per pixel).  Facts from rnndb nv4_2d.xml /
 * nouveau's nv01_2d.xml.h and nv30_transfer.c, ../shared/ref/ddx-2d.md §3.3
 * and nv40-hardware.md §2.2. */
#ifndef NV_HW_FORMATS_H
#define NV_HW_FORMATS_H

#include <stdint.h>

/* NV10_SURFACE_2D FORMAT (0x300); NV40_SURFACE_SWZ FORMAT bits 15:0 use the
 * same values. */
#define NV_SURF_FORMATS(X) \
	X(Y8,                    0x01, 1) \
	X(X1R5G5B5_Z1R5G5B5,     0x02, 2) \
	X(X1R5G5B5_X1R5G5B5,     0x03, 2) \
	X(R5G6B5,                0x04, 2) \
	X(Y16,                   0x05, 2) \
	X(X8R8G8B8_Z8R8G8B8,     0x06, 4) \
	X(X8R8G8B8_X8R8G8B8,     0x07, 4) \
	X(X1A7R8G8B8_Z1A7R8G8B8, 0x08, 4) \
	X(X1A7R8G8B8_X1A7R8G8B8, 0x09, 4) \
	X(A8R8G8B8,              0x0a, 4) \
	X(Y32,                   0x0b, 4)

/* NV40_SIFM COLOR_FORMAT (0x300): the source image. */
#define NV_SIFM_COLOR_FORMATS(X) \
	X(A1R5G5B5,              0x01, 2) \
	X(X1R5G5B5,              0x02, 2) \
	X(A8R8G8B8,              0x03, 4) \
	X(X8R8G8B8,              0x04, 4) \
	X(V8YB8U8YA8,            0x05, 2) \
	X(YB8V8YA8U8,            0x06, 2) \
	X(R5G6B5,                0x07, 2) \
	X(Y8,                    0x08, 1) \
	X(AY8,                   0x09, 1)

#define NV_SURF_FORMAT_ENUM_(nm, v, bpp) NV_SURF_FORMAT_##nm = (v),
enum { NV_SURF_FORMATS(NV_SURF_FORMAT_ENUM_) };
#define NV_SIFM_COLOR_FORMAT_ENUM_(nm, v, bpp) NV_SIFM_COLOR_FORMAT_##nm = (v),
enum { NV_SIFM_COLOR_FORMATS(NV_SIFM_COLOR_FORMAT_ENUM_) };

/* Bytes per pixel, 0 for a value that is no format. */
#define NV_FORMAT_BPP_CASE_(nm, v, bpp) case (v): return (bpp);
static inline unsigned nv_surf_format_bpp(uint32_t fmt)
{
	switch (fmt) { NV_SURF_FORMATS(NV_FORMAT_BPP_CASE_) default: return 0; }
}

static inline unsigned nv_sifm_color_format_bpp(uint32_t fmt)
{
	switch (fmt) { NV_SIFM_COLOR_FORMATS(NV_FORMAT_BPP_CASE_) default: return 0; }
}

#endif
