/* nvd-glinfo: which GL implementation a program gets, per API, on EGL's
 * surfaceless platform: vendor, renderer and version strings of a desktop GL
 * and a GLES2 context.  Under nvd-run it names the NV4x chip nvd simulates
 * (Debian's eglinfo prints no renderer; es2_info needs an X display). */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

static int show(EGLDisplay dpy, EGLenum api, EGLint version, const char *name)
{
	if (!eglBindAPI(api)) {
		printf("%s: not available (EGL error 0x%x)\n", name, eglGetError());
		return 1;
	}
	EGLint attrs[] = { EGL_CONTEXT_MAJOR_VERSION, version, EGL_NONE };
	EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
					  api == EGL_OPENGL_ES_API ? attrs : NULL);
	if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
		printf("%s: no context (EGL error 0x%x)\n", name, eglGetError());
		return 1;
	}
	/* glGetString has the same entry point in GL and GLES */
	printf("%s vendor:   %s\n", name, (const char *)glGetString(GL_VENDOR));
	printf("%s renderer: %s\n", name, (const char *)glGetString(GL_RENDERER));
	printf("%s version:  %s\n", name, (const char *)glGetString(GL_VERSION));
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, { 0 } };
	int o;
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (o == 'h') {
			printf("usage: nvd-glinfo\nPrint the GL and GLES2 vendor, renderer and version on EGL's\n"
			       "surfaceless platform.  Run it as `nvd-run nvd-glinfo` to see nvd's.\n");
			return 0;
		}
		fprintf(stderr, "usage: nvd-glinfo [--help]\n");
		return 2;
	}
	if (optind < argc) {
		fprintf(stderr, "usage: nvd-glinfo [--help]\n");
		return 2;
	}
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	EGLDisplay dpy = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)
				     : EGL_NO_DISPLAY;
	EGLint major, minor;
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
		fprintf(stderr, "nvd-glinfo: no EGL surfaceless display (EGL error 0x%x)\n", eglGetError());
		return 1;
	}
	printf("EGL %d.%d, %s\n", major, minor, eglQueryString(dpy, EGL_VENDOR));
	int r = show(dpy, EGL_OPENGL_API, 2, "GL") | show(dpy, EGL_OPENGL_ES_API, 2, "GLES2");
	eglTerminate(dpy);
	return r;
}
