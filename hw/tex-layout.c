/* Texture layout from the unit's method words (see tex-layout.h). */
#include "tex-layout.h"

#include <string.h>

static int tex_is_pot(uint32_t v)
{
	return v && !(v & (v - 1));
}

static unsigned tex_log2(uint32_t v)
{
	unsigned l = 0;
	while (v > 1) {
		v >>= 1;
		l++;
	}
	return l;
}

static uint32_t tex_minify(uint32_t v, unsigned l)
{
	v >>= l;
	return v ? v : 1;
}

unsigned nv40_tex_format_bytes(unsigned code, unsigned *block)
{
	const struct nv40_tex_format *f = nv40_tex_format(code);

	*block = f && nv40_tex_kind_is_dxt(f->kind) ? 4 : 1;
	return f ? f->bytes : 0;
}

int nv40_tex_layout(uint32_t format, uint32_t npot_size, uint32_t size1,
		    struct nv40_tex_layout *l)
{
	const struct nv40_tex_format *f = nv40_tex_format(NV40_TEX_FORMAT_FORMAT(format));
	uint32_t tw = NV40_TEX_NPOT_SIZE_W(npot_size), th = NV40_TEX_NPOT_SIZE_H(npot_size);
	uint32_t td = 1, pitch = NV40_TEX_SIZE1_PITCH(size1);
	unsigned i, full, blk;
	uint64_t size = 0;

	memset(l, 0, sizeof(*l));
	if (!f || (size1 & NV40_TEX_SIZE1_UNK16))
		return -1;
	l->code = f->code;
	l->bytes = f->bytes;
	l->kind = f->kind;
	l->dims = NV40_TEX_FORMAT_DIMS(format);
	l->cube = !!(format & NV40_TEX_FORMAT_CUBIC);
	l->linear = !!(format & NV40_TEX_FORMAT_LINEAR);
	l->rect = !!(format & NV40_TEX_FORMAT_RECT);
	l->dxt = nv40_tex_kind_is_dxt(f->kind);
	l->swizzled = !l->linear && !l->dxt;
	l->levels = NV40_TEX_FORMAT_MIPMAP_COUNT(format);
	l->faces = l->cube ? 6 : 1;

	if (l->dims < 1 || l->dims > 3)
		return -1;
	if (l->dims == 3)
		td = NV40_TEX_SIZE1_DEPTH(size1);
	if (!tw || !th || !td || tw > NV40_TEX_MAX_SIZE || th > NV40_TEX_MAX_SIZE)
		return -1;
	if (l->dims == 3 && (tw > NV40_TEX_MAX_3D || th > NV40_TEX_MAX_3D || td > NV40_TEX_MAX_3D))
		return -1;
	if (l->cube && (l->dims != 2 || tw != th))
		return -1;
	if (l->swizzled && !(tex_is_pot(tw) && tex_is_pot(th) && tex_is_pot(td)))
		return -1;
	full = tex_log2(tw > th ? (tw > td ? tw : td) : (th > td ? th : td)) + 1;
	if (!l->levels || l->levels > full)
		return -1;

	l->log2w = tex_log2(tw);
	l->log2h = tex_log2(th);
	l->log2d = tex_log2(td);
	blk = l->dxt ? 4 : 1;
	for (i = 0; i < l->levels; i++) {
		struct nv40_tex_level *lv = &l->level[i];
		uint32_t row;

		lv->w = tex_minify(tw, i);
		lv->h = tex_minify(th, i);
		lv->d = tex_minify(td, i);
		/* at most 4096 texels of at most 16 bytes: fits */
		row = (lv->w + blk - 1) / blk * f->bytes;
		lv->rows = (lv->h + blk - 1) / blk;
		if (l->linear) {
			if (pitch < row)
				return -1;
			lv->pitch = pitch;
		} else {
			lv->pitch = row;
		}
		lv->offset = size;
		lv->zslice = (uint64_t)lv->pitch * lv->rows;
		lv->size = lv->zslice * lv->d;
		size += lv->size;
	}
	l->face_stride = size;
	if (l->cube && !l->linear)
		l->face_stride = (size + NV40_TEX_CUBE_ALIGN - 1) & ~(uint64_t)(NV40_TEX_CUBE_ALIGN - 1);
	l->extent = l->face_stride * (l->faces - 1) + size;
	return 0;
}

uint64_t nv40_tex_extent(uint32_t format, uint32_t npot_size, uint32_t size1)
{
	struct nv40_tex_layout l;

	return nv40_tex_layout(format, npot_size, size1, &l) ? 0 : l.extent;
}
