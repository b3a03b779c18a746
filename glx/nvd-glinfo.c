/* nvd-glinfo: which GL implementation a program gets, per API, on EGL's
 * surfaceless platform: vendor, renderer and version strings of a desktop GL
 * and a GLES2 context.  Under nvd-run it names the NV4x chip nvd simulates
 * (Debian's eglinfo prints no renderer; es2_info needs an X display). */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "proto/proto.h"

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

static void usage(FILE *f)
{
	fprintf(f, "usage: nvd-glinfo\n"
		   "Print the GL and GLES2 vendor, renderer and version on EGL's surfaceless\n"
		   "platform.  Run it as `nvd-run nvd-glinfo` to see nvd's.\n\n"
		   "  -h, --help      this text\n"
		   "      --version   show the version\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	int o;
	argv[0] = program_invocation_short_name;   /* getopt's messages: "nvd-glinfo: ...", not a path */
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case 'h': usage(stdout); return 0;
		case 'V': printf("nvd-glinfo %s\n", NVD_VERSION); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "nvd-glinfo: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
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
