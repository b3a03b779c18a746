/* EXA (mixed pixmaps) on the card's 2D engine: a pixmap the card may draw
 * lives in a VRAM buffer; solid fills go to the GDI rectangle, copies to
 * the blitter, small uploads inline through IFC, as nouveau does on NV40.
 * Every nvd buffer is memory the server has mapped, so the CPU reads and
 * writes pixmaps in place once the card is done with them (PrepareAccess,
 * downloads and large uploads), where nouveau has to stage through GART.
 * Render's Composite runs on the 3D engine (composite.c). */
#include <string.h>

#include "ddx/nvdx.h"

#include <exa.h>

#include "hw/enums-2d.h"
#include "hw/formats.h"
#include "hw/methods.h"

/* IFC takes at most 1792 words of a line and nouveau keeps to 1024 lines;
 * above this many bytes the CPU copies (the IFC words are copies too). */
#define IFC_MAX_WORDS   1792
#define IFC_MAX_BYTES   (64 * 1024)

static struct nvdx *screen_nvdx(ScreenPtr screen)
{
	return nvdx(xf86ScreenToScrn(screen));
}

struct nvdx_pixmap *nvdx_pixmap(PixmapPtr pix)
{
	return exaGetPixmapDriverPrivate(pix);
}

static struct nvc_bo *pix_bo(PixmapPtr pix)
{
	struct nvdx_pixmap *np = nvdx_pixmap(pix);
	return np ? np->bo : NULL;
}

/* ---- pixmaps ---- */

static void *exa_create_pixmap(ScreenPtr screen, int w, int h, int depth, int usage, int bpp,
			       int *new_pitch)
{
	struct nvdx *nx = screen_nvdx(screen);
	struct nvdx_pixmap *np = calloc(1, sizeof(*np));

	(void)depth, (void)usage;
	if (!np || !w || !h)
		return np;   /* a header (the screen's, scratch): storage comes later */
	unsigned pitch = ((unsigned)w * (bpp / 8) + 63) & ~63u;
	/* nvd gone: in system memory, and on the card when EXA next tries */
	if (bpp < 8 || nx->lost || nvc_bo_new(nx->c, (uint64_t)pitch * h, NVC_VRAM, &np->bo) < 0 ||
	    !nvc_bo_map(np->bo)) {
		if (np->bo)
			nvc_bo_free(np->bo);
		free(np);
		return NULL;   /* EXA keeps it in system memory */
	}
	np->pitch = pitch;
	*new_pitch = pitch;
	xorg_list_append(&np->link, &nx->pixmaps);
	return np;
}

static void exa_destroy_pixmap(ScreenPtr screen, void *priv)
{
	struct nvdx *nx = screen_nvdx(screen);
	struct nvdx_pixmap *np = priv;

	if (!np)
		return;
	if (np->bo && !np->is_fb) {
		/* commands still to be submitted name it: they go first */
		nvdx_push_sync(&nx->push, np->bo, NVDX_SYNC_SUBMIT);
		nvc_bo_free(np->bo);
		xorg_list_del(&np->link);
	}
	free(np);
}

static Bool exa_pixmap_is_offscreen(PixmapPtr pix)
{
	return pix_bo(pix) != NULL;
}

static Bool exa_prepare_access(PixmapPtr pix, int index)
{
	struct nvc_bo *bo = pix_bo(pix);

	(void)index;
	if (!bo)
		return FALSE;
	if (nvdx_push_sync(&screen_nvdx(pix->drawable.pScreen)->push, bo, NVDX_SYNC_RW) < 0)
		return FALSE;
	pix->devPrivate.ptr = nvc_bo_map(bo);
	return TRUE;
}

static void exa_finish_access(PixmapPtr pix, int index)
{
	(void)pix, (void)index;
}

static int exa_mark_sync(ScreenPtr screen)
{
	(void)screen;
	return 0;
}

static void exa_wait_marker(ScreenPtr screen, int marker)
{
	(void)screen, (void)marker;   /* the CPU waits per buffer in PrepareAccess */
}

/* ---- raster operations ---- */

/* The 2D engine's ternary code of an X raster op: its function of S and D
 * evaluated on the codes' S (0xcc) and D (0xaa) columns. */
static uint8_t alu_rop(int alu)
{
	const unsigned s = 0xcc, d = 0xaa;
	unsigned v;

	switch (alu) {
	case GXclear: v = 0; break;
	case GXand: v = s & d; break;
	case GXandReverse: v = s & ~d; break;
	case GXcopy: v = s; break;
	case GXandInverted: v = ~s & d; break;
	case GXnoop: v = d; break;
	case GXxor: v = s ^ d; break;
	case GXor: v = s | d; break;
	case GXnor: v = ~(s | d); break;
	case GXequiv: v = ~(s ^ d); break;
	case GXinvert: v = ~d; break;
	case GXorReverse: v = s | ~d; break;
	case GXcopyInverted: v = ~s; break;
	case GXorInverted: v = ~s | d; break;
	case GXnand: v = ~(s & d); break;
	default: v = ~0u; break;   /* GXset */
	}
	return v & 0xff;
}

/* OPERATION of the object on subc for alu and planemask: SRCCOPY for a
 * plain copy, else the ROP with the pattern as the planemask (P selects
 * the result, ~P keeps D).  At 32 bpp only the plain copy, as nouveau:
 * the rest goes to fb.  FALSE when the card cannot do it. */
static Bool set_rop(struct nvdx_push *p, unsigned subc, uint32_t mthd, unsigned bpp, int alu,
		    Pixel planemask)
{
	uint32_t full = bpp >= 32 ? ~0u : (1u << bpp) - 1;
	uint32_t mask = (uint32_t)planemask & full;

	if (alu == GXcopy && mask == full) {
		nvc_pushbuf_mthd(p->pb, subc, mthd, 1);
		nvc_pushbuf_data(p->pb, NV_2D_OPERATION_SRCCOPY);
		return TRUE;
	}
	if (bpp >= 32)
		return FALSE;
	uint8_t rop = alu_rop(alu);
	if (mask != full)
		rop = (rop & 0xf0) | 0x0a;
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_MISC, NV_FIFO_OBJECT, 1);
	nvc_pushbuf_data(p->pb, NVDX_H_PATT);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_MISC, NV_PATT_MONOCHROME_COLOR, 2);
	nvc_pushbuf_data(p->pb, mask | ~full);
	nvc_pushbuf_data(p->pb, mask | ~full);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_MISC, NV_FIFO_OBJECT, 1);
	nvc_pushbuf_data(p->pb, NVDX_H_ROP);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_MISC, NV_ROP_ROP, 1);
	nvc_pushbuf_data(p->pb, rop);
	nvc_pushbuf_mthd(p->pb, subc, mthd, 1);
	nvc_pushbuf_data(p->pb, NV_2D_OPERATION_ROP_AND);
	return TRUE;
}

/* SURFACE_2D's format for a pixmap; the GDI rectangle forces alpha to
 * 0xff on A8R8G8B8, so fills use Y32 (nouveau's workaround). */
static unsigned surf_format(PixmapPtr pix, Bool fill)
{
	switch (pix->drawable.bitsPerPixel) {
	case 8: return NV_SURF_FORMAT_Y8;
	case 16: return pix->drawable.depth == 16 ? NV_SURF_FORMAT_R5G6B5
						  : NV_SURF_FORMAT_X1R5G5B5_Z1R5G5B5;
	default: return fill ? NV_SURF_FORMAT_Y32 : NV_SURF_FORMAT_A8R8G8B8;
	}
}

static Bool pixmap_ok(PixmapPtr pix)
{
	unsigned bpp = pix->drawable.bitsPerPixel;
	return pix_bo(pix) && (bpp == 8 || bpp == 16 || bpp == 32);
}

/* SURFACE_2D on src and dst (the same pixmap for fills and uploads). */
static void set_surfaces(struct nvdx_push *p, PixmapPtr src, PixmapPtr dst, unsigned format)
{
	struct nvdx_pixmap *s = nvdx_pixmap(src), *d = nvdx_pixmap(dst);

	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_SURF, NV_SURF2D_FORMAT, 4);
	nvc_pushbuf_data(p->pb, format);
	nvc_pushbuf_data(p->pb, d->pitch << 16 | s->pitch);
	nvc_pushbuf_reloc(p->pb, s->bo, NVC_READ | NVC_IN_VRAM,
			  (struct nvc_reloc){ .flags = NVC_RELOC_LOW });
	nvc_pushbuf_reloc(p->pb, d->bo, NVC_WRITE | NVC_IN_VRAM,
			  (struct nvc_reloc){ .flags = NVC_RELOC_LOW });
}

/* The prepared operation's state, written again at the start of every
 * submission: nvd checks each one on its own, with its own buffer list. */
struct op {
	PixmapPtr src, dst;
	unsigned format, bpp;
	int alu;
	Pixel planemask, fg;
	uint32_t gen;
};

static struct op op;

#define STATE_WORDS 40

static Bool op_state(struct nvdx_push *p, unsigned subc, uint32_t opmthd)
{
	set_surfaces(p, op.src, op.dst, op.format);
	if (subc == NVDX_SUBC_GDI) {
		nvc_pushbuf_mthd(p->pb, NVDX_SUBC_GDI, NV_GDI_COLOR_FORMAT, 1);
		nvc_pushbuf_data(p->pb, op.bpp == 16 ? (op.dst->drawable.depth == 16
							  ? NV_GDI_COLOR_FORMAT_A16R5G6B5
							  : NV_GDI_COLOR_FORMAT_X16A1R5G5B5)
					       : NV_GDI_COLOR_FORMAT_A8R8G8B8);
	}
	op.gen = p->gen;
	return set_rop(p, subc, opmthd, op.bpp, op.alu, op.planemask);
}

/* Room for words more, and the state again if a submission began since. */
static void op_space(struct nvdx_push *p, unsigned subc, uint32_t opmthd, uint32_t words)
{
	nvdx_push_space(p, words + STATE_WORDS, 2, 2);
	if (op.gen != p->gen)
		op_state(p, subc, opmthd);
}

/* ---- solid fills ---- */

static Bool exa_prepare_solid(PixmapPtr pix, int alu, Pixel planemask, Pixel fg)
{
	struct nvdx_push *p = &screen_nvdx(pix->drawable.pScreen)->push;

	if (p->err || !pixmap_ok(pix))
		return FALSE;
	op = (struct op){ .src = pix, .dst = pix, .format = surf_format(pix, TRUE),
			  .bpp = pix->drawable.bitsPerPixel, .alu = alu, .planemask = planemask,
			  .fg = fg };
	nvdx_push_space(p, STATE_WORDS, 2, 2);
	return op_state(p, NVDX_SUBC_GDI, NV_GDI_OPERATION);
}

static void exa_solid(PixmapPtr pix, int x1, int y1, int x2, int y2)
{
	struct nvdx *nx = screen_nvdx(pix->drawable.pScreen);
	struct nvdx_push *p = &nx->push;

	nx->stats.solid++;
	op_space(p, NVDX_SUBC_GDI, NV_GDI_OPERATION, 5);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_GDI, NV_GDI_COLOR1_A, 1);
	nvc_pushbuf_data(p->pb, op.fg);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_GDI, NV_GDI_UNCLIPPED_RECTANGLE_POINT, 2);
	nvc_pushbuf_data(p->pb, (uint32_t)x1 << 16 | (uint32_t)y1);   /* GDI: Y low, X high */
	nvc_pushbuf_data(p->pb, (uint32_t)(x2 - x1) << 16 | (uint32_t)(y2 - y1));
}

static void exa_done(PixmapPtr pix)
{
	(void)pix;
}

/* ---- copies ---- */

static Bool exa_prepare_copy(PixmapPtr src, PixmapPtr dst, int dx, int dy, int alu,
			     Pixel planemask)
{
	struct nvdx_push *p = &screen_nvdx(dst->drawable.pScreen)->push;

	(void)dx, (void)dy;   /* the blitter copies overlapping rectangles right */
	if (p->err || !pixmap_ok(src) || !pixmap_ok(dst) ||
	    src->drawable.bitsPerPixel != dst->drawable.bitsPerPixel)
		return FALSE;
	op = (struct op){ .src = src, .dst = dst, .format = surf_format(dst, FALSE),
			  .bpp = dst->drawable.bitsPerPixel, .alu = alu, .planemask = planemask };
	nvdx_push_space(p, STATE_WORDS, 2, 2);
	return op_state(p, NVDX_SUBC_BLIT, NV_BLIT_OPERATION);
}

static void exa_copy(PixmapPtr dst, int sx, int sy, int dx, int dy, int w, int h)
{
	struct nvdx *nx = screen_nvdx(dst->drawable.pScreen);
	struct nvdx_push *p = &nx->push;

	nx->stats.copy++;
	op_space(p, NVDX_SUBC_BLIT, NV_BLIT_OPERATION, 4);
	nvc_pushbuf_mthd(p->pb, NVDX_SUBC_BLIT, NV_BLIT_POINT_IN, 3);
	nvc_pushbuf_data(p->pb, (uint32_t)sy << 16 | (uint32_t)sx);
	nvc_pushbuf_data(p->pb, (uint32_t)dy << 16 | (uint32_t)dx);
	nvc_pushbuf_data(p->pb, (uint32_t)h << 16 | (uint32_t)w);
}

/* ---- uploads and downloads ---- */

/* Lines of w*cpp bytes from src to (x, y) of the mapped buffer, after the
 * card is done with it. */
static Bool cpu_upload(struct nvdx *nx, PixmapPtr pix, int x, int y, int w, int h,
		       const char *src, int src_pitch)
{
	struct nvdx_pixmap *np = nvdx_pixmap(pix);
	unsigned cpp = pix->drawable.bitsPerPixel / 8;

	if (nvdx_push_sync(&nx->push, np->bo, NVDX_SYNC_RW) < 0)
		return FALSE;
	char *dst = (char *)nvc_bo_map(np->bo) + (size_t)y * np->pitch + (size_t)x * cpp;
	for (int i = 0; i < h; i++)
		memcpy(dst + (size_t)i * np->pitch, src + (size_t)i * src_pitch, (size_t)w * cpp);
	return TRUE;
}

/* Word k of a line for IFC: its pixels, the first in the low bits, zeros
 * past the line's w pixels. */
static uint32_t line_word(const char *row, unsigned k, unsigned cpp, unsigned w)
{
	unsigned per = 4 / cpp;
	uint32_t v = 0;

	for (unsigned i = 0; i < per && k * per + i < w; i++) {
		uint32_t px;
		if (cpp == 4) {
			memcpy(&px, row + (size_t)(k * per + i) * 4, 4);
		} else {
			uint16_t h;
			memcpy(&h, row + (size_t)(k * per + i) * 2, 2);
			px = h;
		}
		v |= px << (i * 8 * cpp);
	}
	return v;
}

/* The IFC colour format of the pixmap's surface format: the engine
 * converts between the two, so they must have the same layout (nouveau
 * sends 15-bit pixels as R5G6B5, which the card would convert). */
static unsigned ifc_format(PixmapPtr pix)
{
	if (pix->drawable.bitsPerPixel == 32)
		return NV_IFC_COLOR_FORMAT_A8R8G8B8;
	return pix->drawable.depth == 16 ? NV_IFC_COLOR_FORMAT_R5G6B5 : NV_IFC_COLOR_FORMAT_X1R5G5B5;
}

/* IFC: the lines inline in the push buffer, each padded to 8 bytes. */
static void ifc_upload(struct nvdx_push *p, PixmapPtr pix, int x, int y, int w, int h,
		       const char *src, int src_pitch)
{
	unsigned cpp = pix->drawable.bitsPerPixel / 8;
	unsigned line = ((unsigned)w * cpp + 7) & ~7u, words = line / 4;
	int done = 0;

	while (done < h) {
		/* as many lines as fit the push buffer's free part */
		nvdx_push_space(p, STATE_WORDS + words + 1, 2, 2);
		int n = (int)((p->cap - nvc_pushbuf_offset(p->pb) / 4 - STATE_WORDS) / (words + 1));
		if (p->err)
			return;   /* nothing reaches the card any more */
		if (n <= 0) {
			nvdx_push_space(p, p->cap, 0, 0);
			continue;
		}
		if (n > h - done)
			n = h - done;
		set_surfaces(p, pix, pix, surf_format(pix, FALSE));
		nvc_pushbuf_mthd(p->pb, NVDX_SUBC_IFC, NV_IFC_OPERATION, 5);
		nvc_pushbuf_data(p->pb, NV_2D_OPERATION_SRCCOPY);
		nvc_pushbuf_data(p->pb, ifc_format(pix));
		nvc_pushbuf_data(p->pb, (uint32_t)(y + done) << 16 | (uint32_t)x);
		nvc_pushbuf_data(p->pb, (uint32_t)n << 16 | (uint32_t)w);
		nvc_pushbuf_data(p->pb, (uint32_t)n << 16 | (line / cpp));
		for (int i = 0; i < n; i++) {
			const char *row = src + (size_t)(done + i) * src_pitch;
			nvc_pushbuf_mthd(p->pb, NVDX_SUBC_IFC, NV_IFC_COLOR, words);
			for (unsigned k = 0; k < words; k++)
				nvc_pushbuf_data(p->pb, line_word(row, k, cpp, (unsigned)w));
		}
		done += n;
	}
}

static Bool exa_upload(PixmapPtr pix, int x, int y, int w, int h, char *src, int src_pitch)
{
	struct nvdx *nx = screen_nvdx(pix->drawable.pScreen);
	unsigned cpp = pix->drawable.bitsPerPixel / 8;

	if (!pixmap_ok(pix))
		return FALSE;
	if (nx->push.err || cpp == 1 || (unsigned)w * cpp > IFC_MAX_WORDS * 4 ||
	    (size_t)w * h * cpp > IFC_MAX_BYTES) {
		nx->stats.upload_cpu++;
		return cpu_upload(nx, pix, x, y, w, h, src, src_pitch);
	}
	nx->stats.upload_ifc++;
	ifc_upload(&nx->push, pix, x, y, w, h, src, src_pitch);
	return TRUE;
}

static Bool exa_download(PixmapPtr pix, int x, int y, int w, int h, char *dst, int dst_pitch)
{
	struct nvdx *nx = screen_nvdx(pix->drawable.pScreen);
	struct nvdx_pixmap *np = nvdx_pixmap(pix);
	unsigned cpp = pix->drawable.bitsPerPixel / 8;

	if (!np || !np->bo || nvdx_push_sync(&nx->push, np->bo, NVDX_SYNC_READ) < 0)
		return FALSE;
	nx->stats.download++;
	const char *src = (const char *)nvc_bo_map(np->bo) + (size_t)y * np->pitch + (size_t)x * cpp;
	for (int i = 0; i < h; i++)
		memcpy(dst + (size_t)i * dst_pitch, src + (size_t)i * np->pitch, (size_t)w * cpp);
	return TRUE;
}

/* ---- the screen ---- */

/* The screen pixmap's storage is the framebuffer the heads show. */
void nvdx_exa_set_fb(ScreenPtr screen)
{
	struct nvdx *nx = screen_nvdx(screen);
	PixmapPtr root = screen->GetScreenPixmap(screen);
	struct nvdx_pixmap *np = nvdx_pixmap(root);

	if (!np)
		return;
	np->bo = nx->fb.bo;
	np->pitch = nx->fb.pitch;
	np->is_fb = TRUE;
}

Bool nvdx_exa_init(ScreenPtr screen)
{
	ScrnInfoPtr scrn = xf86ScreenToScrn(screen);
	struct nvdx *nx = nvdx(scrn);
	ExaDriverPtr exa;

	if (!xf86LoadSubModule(scrn, "exa") || !(exa = exaDriverAlloc()))
		return FALSE;
	exa->exa_major = EXA_VERSION_MAJOR;
	exa->exa_minor = EXA_VERSION_MINOR;
	exa->flags = EXA_OFFSCREEN_PIXMAPS | EXA_HANDLES_PIXMAPS | EXA_MIXED_PIXMAPS;
	exa->pixmapOffsetAlign = 256;
	exa->pixmapPitchAlign = 64;
	exa->maxX = 4096;   /* the 2D engine's 16-bit pitches and NV40's 4096 */
	exa->maxY = 4096;
	exa->CreatePixmap2 = exa_create_pixmap;
	exa->DestroyPixmap = exa_destroy_pixmap;
	exa->PixmapIsOffscreen = exa_pixmap_is_offscreen;
	exa->PrepareAccess = exa_prepare_access;
	exa->FinishAccess = exa_finish_access;
	exa->MarkSync = exa_mark_sync;
	exa->WaitMarker = exa_wait_marker;
	exa->PrepareSolid = exa_prepare_solid;
	exa->Solid = exa_solid;
	exa->DoneSolid = exa_done;
	exa->PrepareCopy = exa_prepare_copy;
	exa->Copy = exa_copy;
	exa->DoneCopy = exa_done;
	exa->UploadToScreen = exa_upload;
	exa->DownloadFromScreen = exa_download;
	if (nx->t3d.ok)
		nvdx_composite_hooks(exa);
	if (!exaDriverInit(screen, exa)) {
		free(exa);
		return FALSE;
	}
	nx->exa = exa;
	return TRUE;
}

void nvdx_exa_fini(ScreenPtr screen)
{
	ScrnInfoPtr scrn = xf86ScreenToScrn(screen);
	struct nvdx *nx = nvdx(scrn);
	const struct nvdx_stats *st = &nx->stats;

	if (!nx->exa)
		return;
	xf86DrvMsg(scrn->scrnIndex, X_INFO,
		   "EXA on the card: %lu solid fills, %lu copies, %lu uploads through IFC "
		   "(%lu by the CPU), %lu downloads, %lu Render rectangles\n",
		   st->solid, st->copy, st->upload_ifc, st->upload_cpu, st->download,
		   st->composite);
	if (nx->t3d.ok)
		nvdx_composite_report(scrn);
	exaDriverFini(screen);
	free(nx->exa);
	nx->exa = NULL;
}
