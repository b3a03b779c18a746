/* The module, its probe and the screen's life: PreInit connects to nvd
 * and becomes its display master, ScreenInit puts fb on a framebuffer in
 * VRAM, CloseScreen and LeaveVT give the heads back. */
#include <string.h>

#include "ddx/nvdx.h"

#include <fb.h>
#include <micmap.h>
#include <mipointer.h>
#include <xf86Cursor.h>
#include <xf86Module.h>

enum { OPT_SOCKET, OPT_SW_CURSOR, OPT_NO_ACCEL };

static const OptionInfoRec nvdx_options[] = {
	{ OPT_SOCKET, "Socket", OPTV_STRING, { 0 }, FALSE },
	{ OPT_SW_CURSOR, "SWcursor", OPTV_BOOLEAN, { 0 }, FALSE },
	{ OPT_NO_ACCEL, "NoAccel", OPTV_BOOLEAN, { 0 }, FALSE },
	{ -1, NULL, OPTV_NONE, { 0 }, FALSE },
};

/* ---- the screen ---- */

static Bool nvdx_enter_vt(ScrnInfoPtr scrn)
{
	/* with nvd gone the modes wait for it (restart.c) */
	if (!nvdx(scrn)->lost && nvc_set_master(nvdx(scrn)->c) < 0) {
		xf86DrvMsg(scrn->scrnIndex, X_ERROR, "cannot be nvd's display master: %s\n",
			   nvc_error());
		return FALSE;
	}
	return xf86SetDesiredModes(scrn);
}

static void nvdx_leave_vt(ScrnInfoPtr scrn)
{
	nvdx_display_off(scrn);
	nvc_drop_master(nvdx(scrn)->c);
}

/* What the server drew goes to the card before it sleeps. */
static void nvdx_block_handler(ScreenPtr screen, void *timeout)
{
	struct nvdx *nx = nvdx(xf86ScreenToScrn(screen));

	screen->BlockHandler = nx->BlockHandler;
	screen->BlockHandler(screen, timeout);
	nx->BlockHandler = screen->BlockHandler;
	screen->BlockHandler = nvdx_block_handler;
	if (nx->accel)
		nvdx_push_kick(&nx->push);
}

/* With EXA the screen pixmap is made without pixels: they are the
 * framebuffer's buffer, its driver private. */
static Bool nvdx_create_screen_resources(ScreenPtr screen)
{
	struct nvdx *nx = nvdx(xf86ScreenToScrn(screen));

	screen->CreateScreenResources = nx->CreateScreenResources;
	Bool ok = screen->CreateScreenResources(screen);
	screen->CreateScreenResources = nvdx_create_screen_resources;
	if (ok && nx->exa)
		nvdx_exa_set_fb(screen);
	return ok;
}

static Bool nvdx_close_screen(ScreenPtr screen)
{
	ScrnInfoPtr scrn = xf86ScreenToScrn(screen);
	struct nvdx *nx = nvdx(scrn);

	if (scrn->vtSema)
		nvdx_display_off(scrn);
	if (!xf86ReturnOptValBool(nx->options, OPT_SW_CURSOR, FALSE))
		xf86_cursors_fini(screen);
	nvdx_restart_fini(screen);
	nvdx_dri2_fini(screen);
	nvdx_exa_fini(screen);
	if (nx->accel)
		nvdx_accel_fini(scrn);
	nx->accel = FALSE;
	nvdx_fb_release(scrn, &nx->fb);
	scrn->vtSema = FALSE;
	screen->BlockHandler = nx->BlockHandler;
	screen->CreateScreenResources = nx->CreateScreenResources;
	screen->CloseScreen = nx->CloseScreen;
	return screen->CloseScreen(screen);
}

static Bool nvdx_screen_init(ScreenPtr screen, int argc, char **argv)
{
	ScrnInfoPtr scrn = xf86ScreenToScrn(screen);
	struct nvdx *nx = nvdx(scrn);

	(void)argc, (void)argv;
	if (!nvdx_fb_alloc(scrn, &nx->fb, scrn->virtualX, scrn->virtualY))
		return FALSE;
	scrn->displayWidth = nx->fb.pitch / NVDX_CPP;
	nx->accel = !xf86ReturnOptValBool(nx->options, OPT_NO_ACCEL, FALSE) &&
		    nvdx_accel_init(scrn);

	miClearVisualTypes();
	if (!miSetVisualTypes(scrn->depth, miGetDefaultVisualMask(scrn->depth), scrn->rgbBits,
			      scrn->defaultVisual) ||
	    !miSetPixmapDepths())
		return FALSE;
	if (!fbScreenInit(screen, nx->accel ? NULL : nx->fb.map, scrn->virtualX, scrn->virtualY, scrn->xDpi,
			  scrn->yDpi, scrn->displayWidth, scrn->bitsPerPixel))
		return FALSE;
	for (VisualPtr v = screen->visuals; v < screen->visuals + screen->numVisuals; v++) {
		if ((v->class | DynamicClass) != DirectColor)
			continue;
		v->offsetRed = scrn->offset.red;
		v->offsetGreen = scrn->offset.green;
		v->offsetBlue = scrn->offset.blue;
		v->redMask = scrn->mask.red;
		v->greenMask = scrn->mask.green;
		v->blueMask = scrn->mask.blue;
	}
	if (!fbPictureInit(screen, NULL, 0))
		return FALSE;
	if (nx->accel && !nvdx_exa_init(screen)) {
		xf86DrvMsg(scrn->scrnIndex, X_ERROR, "EXA failed to start\n");
		return FALSE;
	}
	if (nx->accel)
		nvdx_dri2_init(screen);
	nvdx_watch(screen);
	xf86SetBlackWhitePixels(screen);
	xf86SetBackingStore(screen);
	xf86SetSilkenMouse(screen);
	miDCInitialize(screen, xf86GetPointerScreenFuncs());
	if (!xf86ReturnOptValBool(nx->options, OPT_SW_CURSOR, FALSE) &&
	    !xf86_cursors_init(screen, NVC_CURSOR_SIZE, NVC_CURSOR_SIZE,
			       HARDWARE_CURSOR_ARGB | HARDWARE_CURSOR_UPDATE_UNHIDDEN |
				       HARDWARE_CURSOR_TRUECOLOR_AT_8BPP |
				       HARDWARE_CURSOR_SOURCE_MASK_INTERLEAVE_32))
		xf86DrvMsg(scrn->scrnIndex, X_WARNING, "no hardware cursor: drawing it in software\n");

	screen->SaveScreen = xf86SaveScreen;
	nx->CloseScreen = screen->CloseScreen;
	screen->CloseScreen = nvdx_close_screen;
	nx->CreateScreenResources = screen->CreateScreenResources;
	screen->CreateScreenResources = nvdx_create_screen_resources;
	nx->BlockHandler = screen->BlockHandler;
	screen->BlockHandler = nvdx_block_handler;
	xf86DPMSInit(screen, xf86DPMSSet, 0);
	if (!xf86CrtcScreenInit(screen) || !miCreateDefColormap(screen))
		return FALSE;
	if (serverGeneration == 1)
		xf86ShowUnusedOptions(scrn->scrnIndex, scrn->options);
	scrn->vtSema = TRUE;
	return xf86SetDesiredModes(scrn);
}

/* ---- PreInit: once per server ---- */

static void nvdx_free_screen(ScrnInfoPtr scrn)
{
	struct nvdx *nx = nvdx(scrn);

	if (!nx)
		return;
	if (nx->c)
		nvc_close(nx->c);
	free(nx->sock);
	free(nx->options);
	free(nx);
	scrn->driverPrivate = NULL;
}

static Bool nvdx_pre_init(ScrnInfoPtr scrn, int flags)
{
	struct nvdx *nx;
	struct nvc_info info;

	if (flags & PROBE_DETECT)
		return FALSE;
	if (scrn->numEntities != 1)
		return FALSE;
	if (!(nx = scrn->driverPrivate = calloc(1, sizeof(*nx))))
		return FALSE;
	nx->event_fd = -1;
	xorg_list_init(&nx->pixmaps);
	scrn->monitor = scrn->confScreen->monitor;

	if (!xf86SetDepthBpp(scrn, 24, 0, 0, Support32bppFb))
		return FALSE;
	if (scrn->depth != 24 || scrn->bitsPerPixel != 32) {
		xf86DrvMsg(scrn->scrnIndex, X_ERROR, "depth %d: only depth 24 (32 bpp) is shown\n",
			   scrn->depth);
		return FALSE;
	}
	xf86PrintDepthBpp(scrn);
	/* after the depth: the options of the Display subsection count too */
	xf86CollectOptions(scrn, xf86GetEntityInfo(scrn->entityList[0])->device->options);
	if (!(nx->options = malloc(sizeof(nvdx_options))))
		return FALSE;
	memcpy(nx->options, nvdx_options, sizeof(nvdx_options));
	xf86ProcessOptions(scrn->scrnIndex, scrn->options, nx->options);
	const char *sock = xf86GetOptValString(nx->options, OPT_SOCKET);
	if (sock && !(nx->sock = strdup(sock)))
		return FALSE;
	if (nvc_connect(sock, "Xorg", &nx->c) < 0) {
		/* libnvd names the socket and asks whether nvd runs */
		xf86DrvMsg(scrn->scrnIndex, X_ERROR, "%s\n", nvc_error());
		nx->c = NULL;
		return FALSE;
	}
	if (nvc_info(nx->c, &info) < 0 || nvc_set_master(nx->c) < 0) {
		xf86DrvMsg(scrn->scrnIndex, X_ERROR, "nvd refuses the display: %s\n", nvc_error());
		return FALSE;
	}
	xf86DrvMsg(scrn->scrnIndex, X_PROBED, "%s (NV%02X), %llu MiB of VRAM, through nvd\n",
		   info.card, info.chipset, (unsigned long long)(info.vram_size >> 20));
	scrn->chipset = "NV4x";
	scrn->videoRam = info.vram_size >> 10;

	rgb zeros = { 0, 0, 0 };
	if (!xf86SetWeight(scrn, zeros, zeros) || !xf86SetDefaultVisual(scrn, -1))
		return FALSE;
	scrn->rgbBits = 8;
	scrn->progClock = TRUE;

	if (!nvdx_display_preinit(scrn)) {
		xf86DrvMsg(scrn->scrnIndex, X_ERROR, "no usable mode on any output\n");
		return FALSE;
	}
	Gamma gzeros = { 0.0, 0.0, 0.0 };
	if (!xf86SetGamma(scrn, gzeros))
		return FALSE;
	if (!scrn->modes) {
		xf86DrvMsg(scrn->scrnIndex, X_ERROR, "no modes\n");
		return FALSE;
	}
	scrn->currentMode = scrn->modes;
	xf86PrintModes(scrn);
	xf86SetDpi(scrn, 0, 0);
	return xf86LoadSubModule(scrn, "fb") != NULL;
}

/* ---- probing: no bus, one screen per Device section naming us ---- */

static Bool nvdx_probe(DriverPtr drv, int flags)
{
	GDevPtr *sections;
	int n = xf86MatchDevice(NVDX_NAME, &sections);
	Bool found = FALSE;

	if (flags & PROBE_DETECT)
		return FALSE;
	for (int i = 0; i < n; i++) {
		int entity = xf86ClaimNoSlot(drv, 0, sections[i], TRUE);
		ScrnInfoPtr scrn = xf86AllocateScreen(drv, 0);
		if (!scrn)
			break;
		xf86AddEntityToScreen(scrn, entity);
		scrn->driverVersion = NVDX_VERSION;
		scrn->driverName = NVDX_NAME;
		scrn->name = NVDX_NAME;
		scrn->Probe = NULL;
		scrn->PreInit = nvdx_pre_init;
		scrn->ScreenInit = nvdx_screen_init;
		scrn->SwitchMode = NULL;
		scrn->AdjustFrame = NULL;
		scrn->EnterVT = nvdx_enter_vt;
		scrn->LeaveVT = nvdx_leave_vt;
		scrn->FreeScreen = nvdx_free_screen;
		found = TRUE;
	}
	free(sections);
	return found;
}

static void nvdx_identify(int flags)
{
	(void)flags;
	xf86Msg(X_INFO, "%s: driver for the GeForce 6 (NV4x) card nvd owns\n", NVDX_NAME);
}

static const OptionInfoRec *nvdx_available_options(int chipid, int busid)
{
	(void)chipid, (void)busid;
	return nvdx_options;
}

/* No console, no I/O ports: the card is nvd's. */
static Bool nvdx_driver_func(ScrnInfoPtr scrn, xorgDriverFuncOp op, void *data)
{
	(void)scrn;
	if (op == GET_REQUIRED_HW_INTERFACES) {
		*(CARD32 *)data = HW_SKIP_CONSOLE;
		return TRUE;
	}
	return FALSE;
}

static DriverRec nvdx_driver = {
	.driverVersion = NVDX_VERSION,
	.driverName = NVDX_NAME,
	.Identify = nvdx_identify,
	.Probe = nvdx_probe,
	.AvailableOptions = nvdx_available_options,
	.driverFunc = nvdx_driver_func,
};

/* ---- the module ---- */

static void *nvdx_setup(void *module, void *opts, int *errmaj, int *errmin)
{
	static Bool done;

	(void)opts, (void)errmin;
	if (done) {
		if (errmaj)
			*errmaj = LDR_ONCEONLY;
		return NULL;
	}
	done = TRUE;
	xf86AddDriver(&nvdx_driver, module, HaveDriverFuncs);
	return (void *)1;
}

static XF86ModuleVersionInfo nvdx_version = {
	NVDX_NAME, "nvd", MODINFOSTRING1, MODINFOSTRING2, XORG_VERSION_CURRENT,
	NVDX_VERSION, 0, 0, ABI_CLASS_VIDEODRV, ABI_VIDEODRV_VERSION, MOD_CLASS_VIDEODRV,
	{ 0, 0, 0, 0 },
};

_X_EXPORT XF86ModuleData nvdModuleData = { &nvdx_version, nvdx_setup, NULL };
