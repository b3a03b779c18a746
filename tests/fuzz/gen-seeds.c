/* Writes the fuzz targets' seed inputs, tests/fuzz/corpus/TARGET/NAME,
 * in each target's input format (described at the top of
 * tests/fuzz/fuzz_TARGET.c): sessions a real client would have (a Mesa-
 * like channel and submission, a mode set, sharing) and a few that break
 * the rules, so that fuzzing starts deep in the grammar.  Run by
 * `make fuzz-seeds`; the output is committed. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <drm.h>
#include <drm_mode.h>
#include <nouveau_drm.h>

#include "client/nvd.h"
#include "hw/methods.h"
#include "hw/pushbuf.h"
#include "proto/proto.h"
#include "proto/ring.h"

struct out {
	uint8_t b[8192];
	size_t n;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->n + n > sizeof(o->b)) {
		fprintf(stderr, "gen-seeds: seed too long\n");
		exit(1);
	}
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void put8(struct out *o, uint8_t v) { put(o, &v, 1); }
static void put32(struct out *o, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		put8(o, (uint8_t)(v >> 8 * i));
}

static const char *top;

static void save(const char *target, const char *name, struct out *o)
{
	char path[512];
	mkdir(top, 0755);
	snprintf(path, sizeof(path), "%s/%s", top, target);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", top, target, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(o->b, 1, o->n, f) != o->n || fclose(f)) {
		perror(path);
		exit(1);
	}
	o->n = 0;
}

/* ---- proto: flags, type - 1, fd kinds, body ---- */

static void msg(struct out *o, uint32_t type, const void *body, size_t len, const char *kinds)
{
	put8(o, 0);
	put8(o, (uint8_t)(type - 1));
	for (const char *k = kinds; k && *k; k++)
		put8(o, (uint8_t)(*k - '0'));
	put(o, body, len);
}

static void hello(struct out *o)
{
	struct nvd_req_hello h = { NVD_PROTO_MAGIC, NVD_PROTO_VERSION, "seed" };
	msg(o, NVD_MSG_HELLO, &h, sizeof(h), NULL);
}

static void none(struct out *o, uint32_t type)
{
	struct nvd_req_none n = { 0 };
	msg(o, type, &n, sizeof(n), NULL);
}

static void proto_seeds(void)
{
	struct out o = { .n = 0 };

	hello(&o);
	save("proto", "hello", &o);

	hello(&o);
	none(&o, NVD_MSG_STATUS);
	struct nvd_req_client_at at = { 0 };
	msg(&o, NVD_MSG_CLIENT_AT, &at, sizeof(at), NULL);
	struct nvd_req_bo_new bn = { 4096, NVD_DOMAIN_VRAM, 0 };
	msg(&o, NVD_MSG_BO_NEW, &bn, sizeof(bn), NULL);
	struct nvd_req_bo_info bi = { 1 };
	msg(&o, NVD_MSG_BO_INFO, &bi, sizeof(bi), NULL);
	struct nvd_req_bo_flink fl = { 1 };
	msg(&o, NVD_MSG_BO_FLINK, &fl, sizeof(fl), NULL);
	struct nvd_req_bo_open op = { 1 };
	msg(&o, NVD_MSG_BO_OPEN, &op, sizeof(op), NULL);
	struct nvd_req_bo_wait bw = { 1, NVD_WAIT_NOWAIT, 0 };
	msg(&o, NVD_MSG_BO_WAIT, &bw, sizeof(bw), NULL);
	struct nvd_req_bo_new bg = { 65536, NVD_DOMAIN_GART, 0 };
	msg(&o, NVD_MSG_BO_NEW, &bg, sizeof(bg), NULL);
	struct nvd_req_bo_import im = { 0 };
	msg(&o, NVD_MSG_BO_IMPORT, &im, sizeof(im), "0");   /* the first buffer's memfd */
	msg(&o, NVD_MSG_BO_IMPORT, &im, sizeof(im), "4");   /* a memfd nvd never made */
	struct nvd_req_bo_free bf = { 1 };
	msg(&o, NVD_MSG_BO_FREE, &bf, sizeof(bf), NULL);
	bf.handle = 2;
	msg(&o, NVD_MSG_BO_FREE, &bf, sizeof(bf), NULL);
	save("proto", "buffers", &o);

	hello(&o);
	struct nvd_req_chan_new cn = { 0 };
	msg(&o, NVD_MSG_CHAN_NEW, &cn, sizeof(cn), NULL);
	struct nvd_req_obj_new on = { 0, 0x1000, NV_CLASS_M2MF };
	msg(&o, NVD_MSG_OBJ_NEW, &on, sizeof(on), NULL);
	on = (struct nvd_req_obj_new){ 0, 0x1001, NV_CLASS_CURIE_NV40 };
	msg(&o, NVD_MSG_OBJ_NEW, &on, sizeof(on), NULL);
	msg(&o, NVD_MSG_BO_NEW, &bg, sizeof(bg), NULL);
	struct nvd_req_dma_new dn = { 0, 0x2000, 1, NV_CLASS_DMA_IN_MEMORY, 0, 0, 0, 4096 };
	msg(&o, NVD_MSG_DMA_NEW, &dn, sizeof(dn), NULL);
	struct nvd_req_obj_free of = { 0, 0x1000 };
	msg(&o, NVD_MSG_OBJ_FREE, &of, sizeof(of), NULL);
	struct nvd_req_chan_free cf = { 0 };
	msg(&o, NVD_MSG_CHAN_FREE, &cf, sizeof(cf), NULL);
	save("proto", "channel", &o);

	hello(&o);
	none(&o, NVD_MSG_SET_MASTER);
	struct nvd_req_disp_output dout = { 0 };
	msg(&o, NVD_MSG_DISP_OUTPUT, &dout, sizeof(dout), NULL);
	struct nvd_req_disp_mode dm = { 0, 0 };
	msg(&o, NVD_MSG_DISP_MODE, &dm, sizeof(dm), NULL);
	struct nvd_req_bo_new fbm = { 1024 * 768 * 4, NVD_DOMAIN_VRAM, 0 };
	msg(&o, NVD_MSG_BO_NEW, &fbm, sizeof(fbm), NULL);
	struct nvd_req_fb_new fn = { 1, 0, 1024, 768, 4096, NVC_FB_XRGB8888 };
	msg(&o, NVD_MSG_FB_NEW, &fn, sizeof(fn), NULL);
	struct nvd_req_disp_set_head sh = { 0, 0, { 1, 0, 0, 1,
		{ 65000, 1024, 1048, 1184, 1344, 768, 771, 777, 806,
		  NVD_MODE_NHSYNC | NVD_MODE_NVSYNC, 0 } } };
	msg(&o, NVD_MSG_DISP_SET_HEAD, &sh, sizeof(sh), NULL);
	struct nvd_req_disp_head dh = { 0 };
	msg(&o, NVD_MSG_DISP_HEAD, &dh, sizeof(dh), NULL);
	struct nvd_req_disp_cursor_set cs = { 0, 1, 0, 0 };
	msg(&o, NVD_MSG_DISP_CURSOR_SET, &cs, sizeof(cs), NULL);
	struct nvd_req_disp_cursor_move cm = { 0, 10, 10 };
	msg(&o, NVD_MSG_DISP_CURSOR_MOVE, &cm, sizeof(cm), NULL);
	none(&o, NVD_MSG_DISP_EVENTS);
	struct nvd_req_disp_page_flip pf = { 0, 1, 7 };
	msg(&o, NVD_MSG_DISP_PAGE_FLIP, &pf, sizeof(pf), NULL);
	struct nvd_req_disp_vblank vb = { 0 };
	msg(&o, NVD_MSG_DISP_VBLANK, &vb, sizeof(vb), NULL);
	struct nvd_req_disp_vblank_event ve = { 0, NVD_VBLANK_RELATIVE, 1, 9 };
	msg(&o, NVD_MSG_DISP_VBLANK_EVENT, &ve, sizeof(ve), NULL);
	struct nvd_req_disp_screenshot ss = { 0 };
	msg(&o, NVD_MSG_DISP_SCREENSHOT, &ss, sizeof(ss), NULL);
	struct nvd_req_fb_free ff = { 1 };
	msg(&o, NVD_MSG_FB_FREE, &ff, sizeof(ff), NULL);
	none(&o, NVD_MSG_DROP_MASTER);
	save("proto", "display", &o);

	hello(&o);
	none(&o, NVD_MSG_GET_MAGIC);
	struct nvd_req_auth_magic am = { 1 };
	msg(&o, NVD_MSG_AUTH_MAGIC, &am, sizeof(am), NULL);
	save("proto", "auth", &o);

	/* broken: a STATUS 8 bytes longer than its type, a request before HELLO */
	hello(&o);
	put8(&o, 2);
	put8(&o, NVD_MSG_STATUS - 1);
	put8(&o, 20);
	put8(&o, 0);
	put32(&o, 0);
	put32(&o, 0);
	put32(&o, 0);
	save("proto", "bad-length", &o);
	none(&o, NVD_MSG_STATUS);
	save("proto", "no-hello", &o);
}

/* ---- pusher: flags, limit, [16 PTE bytes when paged], tokens ---- */

static void pusher_seeds(void)
{
	struct out o = { .n = 0 };

	/* methods: REF_CNT, bind the software object, a software method,
	 * a semaphore released then acquired (passes) and acquired (waits) */
	put8(&o, 0);
	put8(&o, 0x10);
	put8(&o, 14); put32(&o, 0x1234);
	put8(&o, 13 | 1 << 5); put8(&o, 0);                 /* OBJECT on subc 1 */
	put8(&o, 0 | 1 << 5); put8(&o, 0xa0); put8(&o, 0x14); put8(&o, 2);   /* 0x150 x2 */
	put8(&o, 0); put8(&o, 1); put8(&o, 0); put8(&o, 2);
	put8(&o, 12); put8(&o, 1); put8(&o, 0); put8(&o, 0); put8(&o, 1);   /* release 1 */
	put8(&o, 12); put8(&o, 1); put8(&o, 0); put8(&o, 1); put8(&o, 1);   /* acquire 1 */
	put8(&o, 12); put8(&o, 1); put8(&o, 0); put8(&o, 1); put8(&o, 2);   /* acquire 2 */
	put8(&o, 5); put8(&o, 1); put8(&o, 3);                              /* NONINC REF x3 */
	for (unsigned i = 0; i < 3; i++) {
		put8(&o, 0); put8(&o, (uint8_t)i);
	}
	save("pusher", "methods", &o);

	/* control flow: JUMP over a word, OLD_JUMP, CALL a subroutine, RETURN;
	 * targets are word indexes */
	put8(&o, 0);
	put8(&o, 0x10);
	put8(&o, 6); put8(&o, 2); put8(&o, 0);       /* 0: JUMP to 2 */
	put8(&o, 10); put32(&o, 0);                  /* 1: invalid, skipped */
	put8(&o, 7); put8(&o, 4); put8(&o, 0);       /* 2: OLD_JUMP to 4 */
	put8(&o, 15);                                /* 3: skipped */
	put8(&o, 8); put8(&o, 8); put8(&o, 0);       /* 4: CALL 8 */
	put8(&o, 14); put32(&o, 5);                  /* 5, 6: REF_CNT 5 */
	put8(&o, 6); put8(&o, 11); put8(&o, 0);      /* 7: JUMP to 11, the end */
	put8(&o, 14); put32(&o, 7);                  /* 8, 9: the subroutine */
	put8(&o, 9);                                 /* 10: RETURN to 5 */
	save("pusher", "jumps", &o);

	/* a paged ctxdma, pages shuffled, one absent, over a long stream */
	put8(&o, 1);
	put8(&o, 0x30);
	for (unsigned i = 0; i < 16; i++)
		put8(&o, i == 3 ? 0xf3 : (uint8_t)((i * 7 + 3) % 16));
	for (unsigned i = 0; i < 1100; i++)
		put8(&o, 15);
	put8(&o, 14); put32(&o, 9);
	save("pusher", "paged", &o);

	/* errors: RETURN without CALL; CALL within a subroutine; a bad FIFO method */
	put8(&o, 0); put8(&o, 0x10);
	put8(&o, 9);
	save("pusher", "return-without-call", &o);
	put8(&o, 0); put8(&o, 0x10);
	put8(&o, 8); put8(&o, 1); put8(&o, 0);       /* 0: CALL 4 */
	put8(&o, 8); put8(&o, 0); put8(&o, 0);       /* 1: CALL 0 inside */
	save("pusher", "call-in-subroutine", &o);
	put8(&o, 0); put8(&o, 0x10);
	put8(&o, 0); put8(&o, 0xe0); put32(&o, 0x44); put8(&o, 1); put8(&o, 0); put8(&o, 0);
	save("pusher", "invalid-method", &o);

	/* a loop: the budget stops it */
	put8(&o, 0); put8(&o, 0x10);
	put8(&o, 14); put32(&o, 1);
	put8(&o, 6); put8(&o, 0); put8(&o, 0);
	save("pusher", "loop", &o);
}

/* ---- ioctl: op, the struct's bytes, then each fix-up's bytes ---- */

/* Indexes in fuzz_ioctl.c's table. */
enum {
	OP_GET_MAGIC = 1, OP_AUTH_MAGIC = 2, OP_GEM_CLOSE = 7, OP_GEM_FLINK = 8, OP_GEM_OPEN = 9,
	OP_PRIME_EXPORT = 10, OP_PRIME_IMPORT = 11, OP_GETPARAM = 12, OP_CHANNEL_ALLOC = 13,
	OP_CHANNEL_FREE = 14, OP_GROBJ_ALLOC = 15, OP_NOTIFIER_ALLOC = 16, OP_GEM_NEW = 18,
	OP_PUSHBUF = 19, OP_CPU_PREP = 20, OP_GEM_INFO = 22, OP_GETRESOURCES = 23, OP_GETCRTC = 24,
	OP_SETCRTC = 25, OP_GETENCODER = 26, OP_GETCONNECTOR = 27, OP_GETPROPBLOB = 29,
	OP_GETFB = 30, OP_ADDFB = 31, OP_RMFB = 32, OP_CREATE_DUMB = 34, OP_DESTROY_DUMB = 36,
	OP_WRITE = 0x70, OP_RENDER = 0x80,
};

static void ioc(struct out *o, unsigned op, const void *arg, size_t size)
{
	put8(o, (uint8_t)op);
	put(o, arg, size);
}

/* A command word of do_write's: INC on subchannel 7 of the method at index
 * m of its table ({FENCE_OFFSET, FENCE_VALUE, QUERY_GET, 0x100, 0}), one
 * data word, then that word (raw). */
static void write_mthd(struct out *o, unsigned m, uint32_t data)
{
	for (unsigned k = 0x40; k < 0x80; k++)
		if (k % 5 == m && (k >> 3) % 3 == 0) {
			put8(o, (uint8_t)k);
			break;
		}
	put8(o, 0xff);
	put32(o, data);
}

static void ioctl_seeds(void)
{
	struct out o = { .n = 0 };

	/* Mesa on the render node: a channel, its objects, a buffer with a
	 * fence in it, a submission, a wait, cleanup */
	struct drm_nouveau_getparam gp = { NOUVEAU_GETPARAM_CHIPSET_ID, 0 };
	ioc(&o, OP_RENDER | OP_GETPARAM, &gp, sizeof(gp));
	struct drm_nouveau_channel_alloc ca = { 0 };
	ioc(&o, OP_RENDER | OP_CHANNEL_ALLOC, &ca, sizeof(ca));
	put8(&o, 0);                                  /* Mesa's ctxdma handles */
	struct drm_nouveau_grobj_alloc ga = { 1, 0xbeef4097, 0x4097 };
	ioc(&o, OP_RENDER | OP_GROBJ_ALLOC, &ga, sizeof(ga));
	put8(&o, 1); put8(&o, 11);                    /* channel 1, class 0x4097 */
	struct drm_nouveau_notifierobj_alloc na = { 1, 0xbeef1e00, 32, 0 };
	ioc(&o, OP_RENDER | OP_NOTIFIER_ALLOC, &na, sizeof(na));
	put8(&o, 1); put8(&o, 0); put8(&o, 0);        /* channel 1, 32 bytes */
	struct drm_nouveau_gem_new gn = { .info = { .size = 65536, .domain = NOUVEAU_GEM_DOMAIN_GART } };
	ioc(&o, OP_RENDER | OP_GEM_NEW, &gn, sizeof(gn));
	put8(&o, 0xf0);                               /* its size as given */
	put8(&o, OP_RENDER | OP_WRITE);
	put8(&o, 1); put8(&o, 0); put8(&o, 5);        /* handle 2 of 2, at 0, 6 words */
	write_mthd(&o, 4, 0xbeef4097);                /* OBJECT: the 3D object */
	write_mthd(&o, 0, 0);                         /* FENCE_OFFSET 0 */
	write_mthd(&o, 1, 1);                         /* FENCE_VALUE 1 */
	struct drm_nouveau_gem_pushbuf pb = { 0 };
	ioc(&o, OP_RENDER | OP_PUSHBUF, &pb, sizeof(pb));
	put8(&o, 1); put8(&o, 1); put8(&o, 1); put8(&o, 0);   /* chan 1, 1 buffer, 1 push */
	put8(&o, 1); put8(&o, 4 | 4 << 5);            /* buffer: handle 2, read GART, valid GART */
	put8(&o, 4); put8(&o, 0); put8(&o, 6);        /* push: bo 0, offset 0, 24 bytes */
	put8(&o, 0);                                  /* no wild pointer */
	struct drm_nouveau_gem_cpu_prep cp = { 0 };
	ioc(&o, OP_RENDER | OP_CPU_PREP, &cp, sizeof(cp));
	put8(&o, 1);
	struct drm_nouveau_gem_info gi = { 0 };
	ioc(&o, OP_RENDER | OP_GEM_INFO, &gi, sizeof(gi));
	put8(&o, 1);
	struct drm_gem_close gc = { 0 };
	ioc(&o, OP_RENDER | OP_GEM_CLOSE, &gc, sizeof(gc));
	put8(&o, 1);
	struct drm_nouveau_channel_free cf = { 1 };
	ioc(&o, OP_RENDER | OP_CHANNEL_FREE, &cf, sizeof(cf));
	put8(&o, 1);
	save("ioctl", "mesa", &o);

	/* KMS on the primary node: resources, a dumb buffer, a framebuffer
	 * on it, a mode set, what the CRTC shows, cleanup */
	struct drm_mode_card_res cr = { 0 };
	ioc(&o, OP_GETRESOURCES, &cr, sizeof(cr));
	for (unsigned i = 0; i < 4; i++)
		put8(&o, 4);                          /* counts */
	for (unsigned i = 0; i < 4; i++)
		put8(&o, 0);                          /* right-sized arrays */
	struct drm_mode_get_connector gcn = { 0 };
	ioc(&o, OP_GETCONNECTOR, &gcn, sizeof(gcn));
	put8(&o, 5); put8(&o, 16); put8(&o, 1); put8(&o, 1);
	for (unsigned i = 0; i < 4; i++)
		put8(&o, 0);
	struct drm_mode_get_encoder ge = { 0 };
	ioc(&o, OP_GETENCODER, &ge, sizeof(ge));
	put8(&o, 3);
	struct drm_mode_create_dumb cd = { 0 };
	ioc(&o, OP_CREATE_DUMB, &cd, sizeof(cd));
	put8(&o, 0); put8(&o, 255); put8(&o, 192);   /* 1021 x 769: pitch 4096 */
	struct drm_mode_fb_cmd fc = { 0 };
	ioc(&o, OP_ADDFB, &fc, sizeof(fc));
	put8(&o, 0xc0); put8(&o, 0);                 /* fb id (raw), handle 1 */
	put8(&o, 0); put8(&o, 63); put8(&o, 47);     /* 1024 x 768, XRGB */
	struct drm_mode_crtc sc = { .mode_valid = 1 };
	ioc(&o, OP_SETCRTC, &sc, sizeof(sc));
	put8(&o, 1); put8(&o, 0); put8(&o, 0);       /* crtc 1, the fb */
	put8(&o, 0); put8(&o, 0);                    /* at 0,0, 1024x768@60 */
	put8(&o, 1); put8(&o, 5); put8(&o, 0);       /* connector 5 */
	struct drm_mode_crtc gcr = { 0 };
	ioc(&o, OP_GETCRTC, &gcr, sizeof(gcr));
	put8(&o, 1);
	for (unsigned i = 0; i < 6; i++)
		put8(&o, 0);
	struct drm_mode_fb_cmd gf = { 0 };
	ioc(&o, OP_GETFB, &gf, sizeof(gf));
	put8(&o, 0x80); put8(&o, 0); put8(&o, 0xff);
	struct drm_mode_get_blob gb = { 0 };
	ioc(&o, OP_GETPROPBLOB, &gb, sizeof(gb));
	put8(&o, 0); put8(&o, 0); put8(&o, 0);
	uint32_t id = 0;
	ioc(&o, OP_RMFB, &id, sizeof(id));
	put8(&o, 0x80);
	struct drm_mode_destroy_dumb dd = { 0 };
	ioc(&o, OP_DESTROY_DUMB, &dd, sizeof(dd));
	put8(&o, 0);
	save("ioctl", "kms", &o);

	/* sharing: flink and open by name, PRIME export and import on the
	 * other file, authentication */
	gn = (struct drm_nouveau_gem_new){ .info = { .size = 8192, .domain = NOUVEAU_GEM_DOMAIN_VRAM } };
	ioc(&o, OP_GEM_NEW, &gn, sizeof(gn));
	put8(&o, 0xf0);
	struct drm_gem_flink gfl = { 0 };
	ioc(&o, OP_GEM_FLINK, &gfl, sizeof(gfl));
	put8(&o, 0);
	struct drm_gem_open go = { 0 };
	ioc(&o, OP_GEM_OPEN, &go, sizeof(go));
	put8(&o, 0);
	struct drm_prime_handle ph = { 0, DRM_CLOEXEC, 0 };
	ioc(&o, OP_PRIME_EXPORT, &ph, sizeof(ph));
	put8(&o, 0); put8(&o, 0);
	ioc(&o, OP_RENDER | OP_PRIME_IMPORT, &ph, sizeof(ph));
	put8(&o, 0);
	struct drm_auth au = { 0 };
	ioc(&o, OP_GET_MAGIC, &au, sizeof(au));
	ioc(&o, OP_AUTH_MAGIC, &au, sizeof(au));
	put8(&o, 0);
	save("ioctl", "sharing", &o);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	top = argv[1];
	proto_seeds();
	pusher_seeds();
	ioctl_seeds();
	return 0;
}
