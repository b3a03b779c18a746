/* gl-surfaceless: the GL checks (glcommon.h) on the EGL surfaceless
 * platform (EGL_MESA_platform_surfaceless), desktop GL or, with --gles,
 * GLES2.  Run it under nvd-run (GL_RENDERER "NV4x") or with
 * LIBGL_ALWAYS_SOFTWARE=1 --renderer llvmpipe.  Exit 0 only when every
 * check passed. */
#include "tests/gl/glcommon.h"

int main(int argc, char **argv)
{
	struct glc_opts o;
	struct glc_egl e;

	glc_parse(argc, argv, &o, 0);
	glc_start(&o);
	glc_note("EGL surfaceless, %s", o.gles ? "GLES2" : "desktop GL");
	const char *cext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	if (glc_check(glc_has_ext(cext, "EGL_MESA_platform_surfaceless"),
		      "EGL client extensions include EGL_MESA_platform_surfaceless")) {
		EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA,
						       EGL_DEFAULT_DISPLAY, NULL);
		if (glc_egl_context(&e, dpy, o.gles, 0) == 0)
			glc_run_checks(&o);
		glc_egl_fini(&e);
	}
	return glc_summary();
}
