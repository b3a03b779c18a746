/* gl-device: the GL checks (glcommon.h) on the EGL device platform:
 * eglQueryDevicesEXT, the first device with a DRM node (else the first,
 * which is Mesa's software device), eglGetPlatformDisplay
 * (EGL_PLATFORM_DEVICE_EXT).  Desktop GL or, with --gles, GLES2. */
#include "tests/gl/glcommon.h"

int main(int argc, char **argv)
{
	struct glc_opts o;
	struct glc_egl e = { .dpy = EGL_NO_DISPLAY };
	EGLDeviceEXT devs[16];
	EGLint n = 0;

	glc_parse(argc, argv, &o, 0);
	glc_start(&o);
	glc_note("EGL device platform, %s", o.gles ? "GLES2" : "desktop GL");
	const char *cext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	if (!glc_check(glc_has_ext(cext, "EGL_EXT_device_enumeration") &&
		       glc_has_ext(cext, "EGL_EXT_platform_device"),
		       "EGL client extensions include EGL_EXT_device_enumeration and "
		       "EGL_EXT_platform_device"))
		return glc_summary();
	PFNEGLQUERYDEVICESEXTPROC query_devices =
		(PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
	PFNEGLQUERYDEVICESTRINGEXTPROC device_string =
		(PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
	PFNEGLGETPLATFORMDISPLAYEXTPROC platform_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!glc_check(query_devices && device_string && platform_display,
		       "eglQueryDevicesEXT, eglQueryDeviceStringEXT, eglGetPlatformDisplayEXT"))
		return glc_summary();
	EGLBoolean listed = query_devices(16, devs, &n);
	if (!glc_check(listed && n > 0, "eglQueryDevicesEXT lists %d devices", n))
		return glc_summary();
	int pick = -1;
	for (EGLint i = 0; i < n; i++) {
		const char *ext = device_string(devs[i], EGL_EXTENSIONS);
		const char *file = NULL, *render = NULL;
		if (glc_has_ext(ext, "EGL_EXT_device_drm"))
			file = device_string(devs[i], EGL_DRM_DEVICE_FILE_EXT);
		if (glc_has_ext(ext, "EGL_EXT_device_drm_render_node"))
			render = device_string(devs[i], EGL_DRM_RENDER_NODE_FILE_EXT);
		glc_note("device %d: %s; DRM file %s, render node %s", i,
			 ext ? ext : "(no extensions)", file ? file : "none",
			 render ? render : "none");
		if (file && pick < 0)
			pick = i;
	}
	if (pick < 0) {
		glc_note("no device has a DRM node: using device 0 (software)");
		pick = 0;
	}
	glc_note("using device %d", pick);
	EGLDisplay dpy = platform_display(EGL_PLATFORM_DEVICE_EXT, devs[pick], NULL);
	if (glc_egl_context(&e, dpy, o.gles, 0) == 0)
		glc_run_checks(&o);
	glc_egl_fini(&e);
	return glc_summary();
}
