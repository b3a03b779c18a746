/* The NV40 fragment texture units: fields of the TEX_* method words and the
 * texel formats.  Facts from rnndb graph/nv30-40_3d.xml (NV40 variants) and
 * Mesa nv30_texture.c / nv30_fragtex.c / nv30_format.c, summarised in
 * ../shared/ref/nv40-hardware.md §4.1.
 *
 * Native channels.  The texture unit names a texel's channels X, Y, Z, W
 * (rnndb nv30_tex_swz_comp), X being the lowest-addressed: in A8R8G8B8 X = B,
 * Y = G, Z = R, W = A.  TEX_SWIZZLE's component code c selects native
 * channel 3 - c (code 0 = W ... 3 = X), and its output slots are, by Mesa's
 * placement, A at bits 1:0 / 9:8, R at 3:2 / 11:10, G at 5:4 / 13:12 and
 * B at 7:6 / 15:14 (2-bit component code / 2-bit source select).  The sRGB
 * bits of TEX_WRAP 23:20 and the signed bits of TEX_FILTER 31:28 are per
 * native channel too (see nv40_tex_srgb_ch / NV40_TEX_SIGNED_CH). */
#ifndef NV_HW_TEX_H
#define NV_HW_TEX_H

#include <stdint.h>

#define NV40_TEX_UNITS 16

/* TEX_FORMAT (0x1a04 + 0x20 i) */
#define NV40_TEX_FORMAT_DMA0            0x00000001u  /* DMA_TEXTURE0 */
#define NV40_TEX_FORMAT_DMA1            0x00000002u  /* DMA_TEXTURE1 */
#define NV40_TEX_FORMAT_CUBIC           0x00000004u
#define NV40_TEX_FORMAT_NO_BORDER       0x00000008u
#define NV40_TEX_FORMAT_DIMS_SHIFT      4
#define NV40_TEX_FORMAT_FORMAT_SHIFT    8
#define NV40_TEX_FORMAT_LINEAR          0x00002000u  /* pitch-linear, TEX_SIZE1 pitch */
#define NV40_TEX_FORMAT_RECT            0x00004000u  /* unnormalised coordinates */
#define NV40_TEX_FORMAT_UNK15           0x00008000u  /* Mesa always sets it */
#define NV40_TEX_FORMAT_MIPMAP_COUNT_SHIFT 16
#define NV40_TEX_FORMAT_DIMS(v)         (((v) >> 4) & 0xfu)
#define NV40_TEX_FORMAT_FORMAT(v)       (((v) >> 8) & 0x1fu)
#define NV40_TEX_FORMAT_MIPMAP_COUNT(v) (((v) >> 16) & 0xfu)

/* TEX_WRAP (0x1a08): S 3:0, T 11:8, R 19:16 */
#define NV40_TEX_WRAP_S_SHIFT           0
#define NV40_TEX_WRAP_T_SHIFT           8
#define NV40_TEX_WRAP_R_SHIFT           16
#define NV40_TEX_WRAP_S(v)              ((v) & 0xfu)
#define NV40_TEX_WRAP_T(v)              (((v) >> 8) & 0xfu)
#define NV40_TEX_WRAP_R(v)              (((v) >> 16) & 0xfu)
#define NV40_TEX_WRAP_ANISO_MIP_OPT(v)  (((v) >> 4) & 0x7u)
#define NV40_TEX_WRAP_EXPAND_NORMAL(v)  (((v) >> 12) & 0xfu)
#define NV40_TEX_WRAP_SRGB_SHIFT        20           /* GAMMA_DECREASE_FILTER */
#define NV40_TEX_WRAP_SRGB(v)           (((v) >> 20) & 0xfu)
#define NV40_TEX_WRAP_SRGB_RGB          0x00700000u  /* what Mesa writes */
#define NV40_TEX_WRAP_RCOMP_SHIFT       28
#define NV40_TEX_WRAP_RCOMP(v)          (((v) >> 28) & 0xfu)
enum {
	NV40_TEX_WRAP_REPEAT = 1,
	NV40_TEX_WRAP_MIRRORED_REPEAT = 2,
	NV40_TEX_WRAP_CLAMP_TO_EDGE = 3,
	NV40_TEX_WRAP_CLAMP_TO_BORDER = 4,
	NV40_TEX_WRAP_CLAMP = 5,
	NV40_TEX_WRAP_MIRROR_CLAMP_TO_EDGE = 6,
	NV40_TEX_WRAP_MIRROR_CLAMP_TO_BORDER = 7,
	NV40_TEX_WRAP_MIRROR_CLAMP = 8,
};
/* RCOMP: result = (reference OP texel depth) */
enum {
	NV40_TEX_RCOMP_NEVER = 0,
	NV40_TEX_RCOMP_GREATER = 1,
	NV40_TEX_RCOMP_EQUAL = 2,
	NV40_TEX_RCOMP_GEQUAL = 3,
	NV40_TEX_RCOMP_LESS = 4,
	NV40_TEX_RCOMP_NOTEQUAL = 5,
	NV40_TEX_RCOMP_LEQUAL = 6,
	NV40_TEX_RCOMP_ALWAYS = 7,
};
/* GAMMA_DECREASE_FILTER bits: 1 red, 2 green, 4 blue (rnndb); 8 taken as
 * alpha.  Native channel of sRGB bit b (0..3). */
static inline unsigned nv40_tex_srgb_ch(unsigned b)
{
	return b == 0 ? 2 : b == 1 ? 1 : b == 2 ? 0 : 3;
}

/* TEX_ENABLE (0x1a0c): min/max LOD in 4.8 fixed point (Mesa
 * min_lod << 19 | max_lod << 7, each lod * 256) */
#define NV40_TEX_ENABLE_ENABLE          0x80000000u
#define NV40_TEX_ENABLE_ON              NV40_TEX_ENABLE_ENABLE
#define NV40_TEX_ENABLE_ANISO_SHIFT     4
#define NV40_TEX_ENABLE_ANISO(v)        (((v) >> 4) & 0x7u)
#define NV40_TEX_ENABLE_MAX_LOD_SHIFT   7
#define NV40_TEX_ENABLE_MIN_LOD_SHIFT   19
#define NV40_TEX_ENABLE_MAX_LOD(v)      (((v) >> 7) & 0xfffu)
#define NV40_TEX_ENABLE_MIN_LOD(v)      (((v) >> 19) & 0xfffu)

/* ANISO (rnndb nv40_tex_aniso: NONE, 2X, 4X, 6X, 8X, 10X, 12X, 16X): the
 * most probes along the footprint's major axis, 1 for NONE. */
static inline unsigned nv40_tex_aniso_max(unsigned aniso)
{
	static const uint8_t n[8] = { 1, 2, 4, 6, 8, 10, 12, 16 };
	return n[aniso & 7];
}

/* TEX_SWIZZLE (0x1a10): per output channel (0 R, 1 G, 2 B, 3 A) a 2-bit
 * component code and a 2-bit source select 8 bits above it. */
#define NV40_TEX_SWZ_SHIFT(out)         ((((out) + 1) & 3) * 2)
#define NV40_TEX_SWZ_COMP(v, out)       (((v) >> NV40_TEX_SWZ_SHIFT(out)) & 3u)
#define NV40_TEX_SWZ_SRC(v, out)        (((v) >> (8 + NV40_TEX_SWZ_SHIFT(out))) & 3u)
#define NV40_TEX_SWZ(out, src, comp) \
	((uint32_t)((src) << 8 | (comp)) << NV40_TEX_SWZ_SHIFT(out))
enum { NV40_TEX_SWZ_ZERO = 0, NV40_TEX_SWZ_ONE = 1, NV40_TEX_SWZ_COMPONENT = 2 };
/* Native channel (0 X .. 3 W) a component code selects. */
#define NV40_TEX_SWZ_NATIVE(comp)       (3u - ((comp) & 3u))

/* TEX_FILTER (0x1a14) */
#define NV40_TEX_FILTER_LOD_BIAS(v)     ((int32_t)((v) << 19) >> 19)  /* 13-bit signed, 5.8 */
#define NV40_TEX_FILTER_LOD_BIAS_MASK   0x1fffu
#define NV40_TEX_FILTER_UNK13           0x00002000u  /* Mesa always sets it */
#define NV40_TEX_FILTER_MIN_SHIFT       16
#define NV40_TEX_FILTER_MAG_SHIFT       24
#define NV40_TEX_FILTER_MIN(v)          (((v) >> 16) & 0xfu)
#define NV40_TEX_FILTER_MAG(v)          (((v) >> 24) & 0xfu)
#define NV40_TEX_FILTER_SIGNED_SHIFT    28
#define NV40_TEX_FILTER_SIGNED(v)       ((v) >> 28)  /* bit i: native channel i signed */
enum {
	NV40_TEX_FILTER_NEAREST = 1,
	NV40_TEX_FILTER_LINEAR = 2,
	NV40_TEX_FILTER_NEAREST_MIPMAP_NEAREST = 3,
	NV40_TEX_FILTER_LINEAR_MIPMAP_NEAREST = 4,
	NV40_TEX_FILTER_NEAREST_MIPMAP_LINEAR = 5,
	NV40_TEX_FILTER_LINEAR_MIPMAP_LINEAR = 6,
};
/* SIGNED_BLUE 28, GREEN 29, RED 30, ALPHA 31: bit 28 + native channel. */
#define NV40_TEX_SIGNED_CH(ch)          (1u << (28 + (ch)))

/* TEX_NPOT_SIZE (0x1a18): w << 16 | h */
#define NV40_TEX_NPOT_SIZE_W(v)         ((v) >> 16)
#define NV40_TEX_NPOT_SIZE_H(v)         ((v) & 0xffffu)
#define NV40_TEX_NPOT_W(v)              NV40_TEX_NPOT_SIZE_W(v)
#define NV40_TEX_NPOT_H(v)              NV40_TEX_NPOT_SIZE_H(v)
/* TEX_SIZE1 (0x1840 + 4 i): depth << 20 | pitch */
#define NV40_TEX_SIZE1_DEPTH_SHIFT      20
#define NV40_TEX_SIZE1_DEPTH(v)         ((v) >> 20)
#define NV40_TEX_SIZE1_PITCH(v)         ((v) & 0xffffu)
#define NV40_TEX_SIZE1_UNK16            0x000f0000u  /* between pitch and depth */
/* TEX_BORDER_COLOR (0x1a1c): A8R8G8B8, B in 7:0 */

/* Texel formats (TEX_FORMAT 12:8).  Rows are
 *   X(name, code, bytes, kind, xlo, xn, ylo, yn, zlo, zn, wlo, wn)
 * bytes per texel (per 4x4 block for DXT); each native channel X Y Z W as
 * (lowest bit, bits) of the little-endian texel, bits 0 = absent (reads 0,
 * W reads 1).  Single-channel formats give the value to every channel
 * (Mesa selects X for L8 and A8, Y for L16/A16, Z for R32F).  The Z
 * formats are read as depth (31:8 of Z24S8, all of Z16): Mesa samples them
 * only with RCOMP, and as A8L8 / A16L16 otherwise.  Uncertain: HILO8's
 * channel order (no Mesa use), the channels of A8L8 / A16L16 other than
 * X and W. */
enum { NV40_TEXK_UNORM, NV40_TEXK_HALF, NV40_TEXK_FLOAT, NV40_TEXK_DXT1, NV40_TEXK_DXT3,
       NV40_TEXK_DXT5, NV40_TEXK_DEPTH };
#define NV40_TEX_FORMATS(X) \
	X(L8,       0x01,  1, UNORM, 0,  8,  0,  8,  0,  8,  0,  8) \
	X(A1R5G5B5, 0x02,  2, UNORM, 0,  5,  5,  5, 10,  5, 15,  1) \
	X(A4R4G4B4, 0x03,  2, UNORM, 0,  4,  4,  4,  8,  4, 12,  4) \
	X(R5G6B5,   0x04,  2, UNORM, 0,  5,  5,  6, 11,  5,  0,  0) \
	X(A8R8G8B8, 0x05,  4, UNORM, 0,  8,  8,  8, 16,  8, 24,  8) \
	X(DXT1,     0x06,  8, DXT1,  0,  0,  0,  0,  0,  0,  0,  0) \
	X(DXT3,     0x07, 16, DXT3,  0,  0,  0,  0,  0,  0,  0,  0) \
	X(DXT5,     0x08, 16, DXT5,  0,  0,  0,  0,  0,  0,  0,  0) \
	X(A8L8,     0x0b,  2, UNORM, 0,  8,  0,  8,  0,  8,  8,  8) \
	X(Z24,      0x10,  4, DEPTH, 8, 24,  8, 24,  8, 24,  8, 24) \
	X(Z16,      0x12,  2, DEPTH, 0, 16,  0, 16,  0, 16,  0, 16) \
	X(A16,      0x14,  2, UNORM, 0, 16,  0, 16,  0, 16,  0, 16) \
	X(A16L16,   0x15,  4, UNORM, 0, 16,  0, 16,  0, 16, 16, 16) \
	X(HILO8,    0x18,  2, UNORM, 0,  8,  0,  8,  8,  8,  8,  8) \
	X(RGBA16F,  0x1a,  8, HALF, 32, 16, 16, 16,  0, 16, 48, 16) \
	X(RGBA32F,  0x1b, 16, FLOAT, 64, 32, 32, 32,  0, 32, 96, 32) \
	X(R32F,     0x1c,  4, FLOAT, 0, 32,  0, 32,  0, 32,  0, 32) \
	X(RG16F,    0x1f,  4, HALF,  0,  0, 16, 16,  0, 16,  0,  0)

#define NV40_TEX_FMT_ENUM_(nm, v, ...) NV40_TEX_FMT_##nm = (v),
enum { NV40_TEX_FORMATS(NV40_TEX_FMT_ENUM_) };

struct nv40_tex_format {
	uint8_t code, bytes, kind;
	uint8_t lo[4], bits[4];       /* native channels X Y Z W */
};

#define NV40_TEX_FMT_CASE_(nm, v, by, k, xl, xn, yl, yn, zl, zn, wl, wn) \
	case (v): { static const struct nv40_tex_format f_ = { (v), (by), NV40_TEXK_##k, \
		{ (xl), (yl), (zl), (wl) }, { (xn), (yn), (zn), (wn) } }; return &f_; }
/* The format a TEX_FORMAT FORMAT code names, NULL for a code that is none. */
static inline const struct nv40_tex_format *nv40_tex_format(uint32_t code)
{
	switch (code) { NV40_TEX_FORMATS(NV40_TEX_FMT_CASE_) default: return 0; }
}

static inline int nv40_tex_kind_is_dxt(unsigned kind)
{
	return kind == NV40_TEXK_DXT1 || kind == NV40_TEXK_DXT3 || kind == NV40_TEXK_DXT5;
}

#endif
