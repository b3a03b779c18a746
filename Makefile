# nvd — one Makefile for the whole tree.  `make` builds into build/,
# `make check` runs every test, `make deps` installs what Debian lacks.

PREFIX    ?= /usr/local
DESTDIR   ?=
BUILD     ?= build
CC        ?= cc
PKG_CONFIG ?= pkg-config
OBJCOPY   ?= objcopy

# Debian 12 packages the build and the tests need.
DEPS_PKGS := build-essential pkg-config libevent-dev libpciaccess-dev libcmocka-dev \
             libpng-dev qemu-user-static gcc-s390x-linux-gnu libc6-dev-s390x-cross \
             libdrm-dev libgbm-dev libegl-dev libgles-dev libgl-dev libegl-mesa0 \
             libgl1-mesa-dri mesa-utils ioquake3 openarena piglit waffle-utils glmark2-drm glmark2-x11 kmscube \
             xserver-xorg-core xserver-xorg-dev x11-xserver-utils x11-utils x11-apps xvfb \
             xserver-xorg-video-dummy libx11-dev libxext-dev libxrender-dev llvm-15-dev \
             scdoc man-db groff-base libsystemd-dev libinih-dev systemd tmux python3 \
             libvncserver-dev

CFLAGS   ?= -O2 -g
# No contraction into fused multiply-adds, whatever -march: the simulator's
# float results are the card model, and the compiled pipeline (sim/3d/jit*)
# must reproduce them bit for bit.
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -fPIC -pthread -ffp-contract=off
CPPFLAGS += -I. -D_GNU_SOURCE
LDFLAGS  += -pthread

PC_EVENT  = $(shell $(PKG_CONFIG) --cflags --libs libevent 2>/dev/null)
PC_PCI    = $(shell $(PKG_CONFIG) --cflags --libs pciaccess 2>/dev/null)
PC_SYSTEMD = $(shell $(PKG_CONFIG) --cflags --libs libsystemd inih 2>/dev/null)
PC_CMOCKA = $(shell $(PKG_CONFIG) --cflags --libs cmocka 2>/dev/null)
PC_PNG    = $(shell $(PKG_CONFIG) --cflags --libs libpng 2>/dev/null)
PC_VNC    = $(shell $(PKG_CONFIG) --cflags --libs libvncserver 2>/dev/null)
PC_DRM    = $(shell $(PKG_CONFIG) --cflags libdrm 2>/dev/null)
PC_DRMLIB = $(shell $(PKG_CONFIG) --cflags --libs libdrm 2>/dev/null)
PC_DRMNV  = $(shell $(PKG_CONFIG) --cflags --libs libdrm_nouveau libdrm 2>/dev/null)
PC_GL     = $(shell $(PKG_CONFIG) --cflags --libs egl glesv2 gl gbm 2>/dev/null)
# The Xorg SDK's headers are system headers: their warnings are not ours.
PC_X11    = $(shell $(PKG_CONFIG) --cflags --libs x11 xext xrender 2>/dev/null)
PC_XORG   = $(patsubst -I%,-isystem %,$(shell $(PKG_CONFIG) --cflags xorg-server 2>/dev/null))

OBJ := $(BUILD)/obj
BIN := $(BUILD)/bin
LIB := $(BUILD)/lib
TST := $(BUILD)/tests

src = $(wildcard $(1))
obj = $(patsubst %.c,$(OBJ)/%.o,$(1))

HW_SRC     := $(call src,hw/*.c)
PROTO_SRC  := $(call src,proto/*.c)
# The fragment pipeline compiler (sim/3d/jit*.c) needs LLVM 15's C API;
# without llvm-config (and for the big-endian cross build) jit-off.c
# stands in for it and the interpreter does all the work.
LLVM_CONFIG ?= llvm-config-15
LLVM_CFLAGS := $(shell $(LLVM_CONFIG) --cflags 2>/dev/null)
LLVM_LIBS   := $(shell $(LLVM_CONFIG) --ldflags --libs 2>/dev/null)
JIT_SRC    := $(filter-out sim/3d/jit-off.c,$(call src,sim/3d/jit*.c))
SIM_SRC    := $(filter-out $(JIT_SRC) sim/3d/jit-off.c,$(call src,sim/*.c sim/*/*.c)) \
              $(if $(LLVM_LIBS),$(JIT_SRC),sim/3d/jit-off.c)
# The live view (nvd --vnc) is nvd's alone: only nvd links libvncserver.
# Without it (and in the big-endian cross build) vnc-off.c refuses --vnc.
VNC_SRC    := $(if $(PC_VNC),nvd/vnc.c,nvd/vnc-off.c)
NVD_SRC    := $(filter-out nvd/main.c nvd/vnc.c nvd/vnc-off.c,$(call src,nvd/*.c))
CLIENT_SRC := $(call src,client/*.c)
TOOLS      := $(patsubst tools/%.c,$(BIN)/%,$(call src,tools/*.c))
UNIT       := $(patsubst tests/unit/%.c,$(TST)/unit/%,$(call src,tests/unit/test_*.c))
INTEG      := $(patsubst tests/%.c,$(TST)/%,$(call src,tests/integration/test_*.c tests/hostile/test_*.c))
TESTLIB_SRC := $(call src,tests/lib/*.c)
BENCH      := $(patsubst bench/%.c,$(BUILD)/bench/%,$(call src,bench/*.c))
GLX_SRC    := $(filter-out glx/nvd-run.c glx/nvd-glinfo.c,$(call src,glx/*.c))
GLPROGS    := $(patsubst tests/gl/%.c,$(TST)/gl/%,$(call src,tests/gl/gl-*.c))
GLTESTS    := $(patsubst tests/gl/%.c,$(TST)/gl/%,$(call src,tests/gl/test_*.c))
GLXTESTS   := $(TST)/glx/glx-probe $(TST)/glx/test_glx $(TST)/glx/kms-probe $(TST)/glx/test_kms \
	      $(TST)/glx/nouveau-probe
DDX_SRC    := $(filter-out ddx/nvd-x.c,$(call src,ddx/*.c))
XTESTS     := $(patsubst tests/x/%.c,$(TST)/x/%,$(call src,tests/x/test_*.c tests/x/x-*.c))
SOAK       := $(patsubst tests/%.c,$(TST)/%,$(call src,tests/soak/test_*.c))

LIBHW     := $(LIB)/libnvhw.a
LIBPROTO  := $(LIB)/libnvproto.a
LIBSIM    := $(LIB)/libnvsim.a
LIBNVDCORE := $(LIB)/libnvdcore.a
LIBNVD_SO := $(LIB)/libnvd.so
LIBNVD_A  := $(LIB)/libnvd.a
LIBNVD_O  := $(OBJ)/client/libnvd.o
LIBNVD_PC := $(LIB)/pkgconfig/libnvd.pc
# libnvd's headers as installed (include/nvd.h, include/nvd/hw/), staged in
# BUILD so that the build tree's libnvd.pc has the installed tree's layout.
INC       := $(BUILD)/include
LIBNVD_H  := $(INC)/nvd.h $(patsubst hw/%,$(INC)/nvd/hw/%,$(call src,hw/*.h))
LIBTEST   := $(LIB)/libnvdtest.a

LIBNVD_DRM := $(LIB)/libnvd-drm.so
NVD_DRV    := $(LIB)/xorg/modules/drivers/nvd_drv.so

# Man pages: man/NAME.SECTION.scd becomes $(BUILD)/man/NAME.SECTION.
MANS      := $(patsubst man/%.scd,$(BUILD)/man/%,$(call src,man/*.scd))

all: $(BIN)/nvd $(LIBNVD_SO) $(LIBNVD_A) $(LIBNVD_PC) $(LIBNVD_H) $(TOOLS) $(BENCH) \
     $(LIBNVD_DRM) $(BIN)/nvd-run $(BIN)/nvd-glinfo $(NVD_DRV) $(LIB)/xorg/xorg.conf $(BIN)/nvd-x \
     $(MANS)

$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(call obj,$(JIT_SRC)): CPPFLAGS += $(LLVM_CFLAGS)
$(LIBHW): $(call obj,$(HW_SRC))
$(LIBPROTO): $(call obj,$(PROTO_SRC))
$(LIBSIM): $(call obj,$(SIM_SRC))
$(LIBNVDCORE): $(call obj,$(NVD_SRC))
$(LIBNVD_A): $(LIBNVD_O)
$(LIBTEST): $(call obj,$(TESTLIB_SRC))
$(LIB)/%.a:
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# libnvd is one object: the client's objects and the proto/ and hw/ members
# they use (ld -r pulls only those from the archives), every symbol but the
# nvc_* API made local.  So libnvd.a alone links statically, and neither it
# nor libnvd.so (whose version script keeps the same nvc_*) lends a program
# its internals or collides with the program's own names.  Tools and tests
# that also use proto/ or hw/ get their own copy from those archives.
$(LIBNVD_O): $(call obj,$(CLIENT_SRC)) $(LIBPROTO) $(LIBHW)
	$(LD) -r -o $@.tmp $^
	$(OBJCOPY) --wildcard --keep-global-symbol='nvc_*' --localize-hidden $@.tmp $@
	rm -f $@.tmp

$(LIBNVD_SO): $(LIBNVD_O) client/libnvd.map
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libnvd.so.0 -Wl,--no-undefined \
		-Wl,--version-script=client/libnvd.map -o $@ $(LIBNVD_O) $(LDFLAGS)
	ln -sf libnvd.so $(LIB)/libnvd.so.0

$(INC)/nvd.h: client/nvd.h
	@mkdir -p $(@D)
	cp $< $@
$(INC)/nvd/hw/%.h: hw/%.h
	@mkdir -p $(@D)
	cp $< $@

# The same libnvd.pc as installed, with prefix the build directory.
$(LIBNVD_PC): client/libnvd.pc.in
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(abspath $(BUILD))|' $< > $@

# A page is dated by the last commit that changed its source (or by
# SOURCE_DATE_EPOCH when the environment sets it), so that the same tree
# builds the same pages.  scdoc leaves half a page behind on a syntax error:
# it writes a temporary file, renamed only when it succeeds.
$(BUILD)/man/%: man/%.scd
	@mkdir -p $(@D)
	d=$$(git log -1 --format=%ct -- $< 2>/dev/null); \
	SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-$${d:-0}} scdoc < $< > $@.tmp && mv $@.tmp $@ || \
	    { rm -f $@.tmp; exit 1; }

$(OBJ)/nvd/vnc.o: CPPFLAGS += $(filter-out -l%,$(PC_VNC))
$(BIN)/nvd: $(OBJ)/nvd/main.o $(call obj,$(VNC_SRC)) $(LIBNVDCORE) $(LIBSIM) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_EVENT) $(PC_PCI) $(PC_SYSTEMD) $(PC_VNC) $(LLVM_LIBS) -lm

# The DRM interposer carries libnvd inside it: Mesa's processes load one
# file.  It exports only the libc functions glx/libc.c stands in for (its
# version script is made from libc.o), so none of our names reaches them.
$(OBJ)/glx/%.o: CPPFLAGS += $(PC_DRM)
$(OBJ)/glx/libnvd-drm.map: $(OBJ)/glx/libc.o
	{ echo '{ global:'; nm -g --defined-only $< | awk '{ print $$3 ";" }'; \
	  echo 'local: *; };'; } > $@
$(LIBNVD_DRM): $(call obj,$(GLX_SRC)) $(LIBNVD_O) $(LIBHW) $(OBJ)/glx/libnvd-drm.map
	@mkdir -p $(@D)
	$(CC) -shared -Wl,--no-undefined -Wl,-z,nodelete -Wl,--version-script=$(OBJ)/glx/libnvd-drm.map \
		-o $@ $(filter %.o %.a,$^) $(LDFLAGS) -ldl

$(BIN)/nvd-run: $(OBJ)/glx/nvd-run.o $(LIBNVD_A) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS)

$(BIN)/nvd-glinfo: $(OBJ)/glx/nvd-glinfo.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_GL)

# The Xorg driver carries libnvd inside it, hidden (Xorg loads modules
# RTLD_GLOBAL).  Its undefined symbols are the server's, bound at load.
$(OBJ)/ddx/%.o: CPPFLAGS += $(PC_XORG)
$(NVD_DRV): $(call obj,$(DDX_SRC)) $(LIBNVD_A) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,--exclude-libs,ALL -o $@ $^ $(LDFLAGS)

$(LIB)/xorg/xorg.conf: ddx/xorg.conf
	@mkdir -p $(@D)
	cp $< $@

$(BIN)/nvd-x: $(OBJ)/ddx/nvd-x.o $(LIBNVD_A) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS)

# Tools and benches link the client library statically so build/bin runs in place.
$(BIN)/%: $(OBJ)/tools/%.o $(LIBNVD_A) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_PNG)

$(BUILD)/bench/%: $(OBJ)/bench/%.o $(LIBTEST) $(LIBNVDCORE) $(LIBNVD_A) $(LIBSIM) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_EVENT) $(PC_PCI) $(PC_GL) $(PC_PNG) $(LLVM_LIBS) -lm

# GL programs (tests/gl/gl-*.c) are ordinary Mesa clients, run under nvd-run
# and under llvmpipe by the GL tests (tests/gl/test_*.c).
$(TST)/gl/gl-%: $(OBJ)/tests/gl/gl-%.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_GL) $(PC_X11) -lm

$(OBJ)/tests/glx/%.o: CPPFLAGS += $(PC_DRM)
$(TST)/glx/glx-probe: $(OBJ)/tests/glx/glx-probe.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS)

# kms-probe is a libdrm (xf86drmMode) program: test_kms runs it under nvd-run.
$(TST)/glx/kms-probe: $(OBJ)/tests/glx/kms-probe.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_DRMLIB)

# nouveau-probe is a libdrm_nouveau program, as Mesa is: test_glx runs it too.
$(OBJ)/tests/glx/nouveau-probe.o: CPPFLAGS += $(shell $(PKG_CONFIG) --cflags libdrm_nouveau 2>/dev/null)
$(TST)/glx/nouveau-probe: $(OBJ)/tests/glx/nouveau-probe.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_DRMNV) -ldl

$(TST)/glx/test_%: $(OBJ)/tests/glx/test_%.o $(LIBTEST) $(LIBNVD_A) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_CMOCKA) $(PC_PNG)

# X clients (tests/x/x-*.c) the X tests run on our X and on Xvfb.
$(TST)/x/x-%: $(OBJ)/tests/x/x-%.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_X11)

$(TST)/x/test_%: $(OBJ)/tests/x/test_%.o $(LIBTEST) $(LIBNVD_A) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_CMOCKA) $(PC_PNG)

$(TST)/gl/test_%: $(OBJ)/tests/gl/test_%.o $(LIBTEST) $(LIBNVD_A) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_CMOCKA) $(PC_PNG)

# The soak runs GL programs and glmark2-drm beside libnvd clients.
$(TST)/soak/test_%: $(OBJ)/tests/soak/test_%.o $(LIBTEST) $(LIBNVD_A) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_CMOCKA) $(PC_PNG)

# Unit tests link only the room they test: test_hw_*, test_sim_*, test_nvd_*.
$(TST)/unit/test_hw_%: $(OBJ)/tests/unit/test_hw_%.o $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_CMOCKA)

$(TST)/unit/test_sim_%: $(OBJ)/tests/unit/test_sim_%.o $(LIBSIM) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_CMOCKA) $(LLVM_LIBS) -lm

$(TST)/unit/test_nvd_%: $(OBJ)/tests/unit/test_nvd_%.o $(LIBNVDCORE) $(LIBSIM) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_CMOCKA) $(PC_EVENT) $(PC_PCI) $(LLVM_LIBS) -lm

# test_nvc_*: one libnvd object, the rest of the library stood in for.
$(TST)/unit/test_nvc_pushbuf: $(OBJ)/tests/unit/test_nvc_pushbuf.o $(OBJ)/client/pushbuf.o $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_CMOCKA)

# Integration and hostile tests are real clients of a real nvd.
$(TST)/integration/%: $(OBJ)/tests/integration/%.o $(LIBTEST) $(LIBNVD_A) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_CMOCKA) $(PC_PNG)

$(TST)/hostile/%: $(OBJ)/tests/hostile/%.o $(LIBTEST) $(LIBNVD_A) $(LIBPROTO) $(LIBHW)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) $(PC_CMOCKA) $(PC_PNG)

# Big-endian: nvd, libnvd, the tools and the unit, integration and hostile
# tests below, cross-built for s390x against Debian's own s390x libraries
# (unpacked by `make deps` into BE_SYSROOT, with the s390x libc they need:
# cmocka ships no .a, so all link dynamically) and run under qemu-user.
# $(BE)/bin holds scripts that run the s390x nvd and tools, so a test finds
# them as $NVD_BIN and $NVD_TOOLS; each test's wrapper (tests/be/same-counts)
# fails unless the s390x test passes every test it has, as its x86-64 twin
# from the same source must in the same run.  The wrappers in $(TST)/be put the run in `make
# check`; `make check-be` runs only them (copies in $(BE)/tests).
BE_CC      ?= s390x-linux-gnu-gcc
BE_AR      ?= s390x-linux-gnu-ar
BE_QEMU    ?= qemu-s390x-static
BE_SYSROOT ?= /var/cache/nvd/s390x-sysroot
BE_PKGS    := libc6 libgcc-s1 zlib1g zlib1g-dev libevent-2.1-7 libevent-core-2.1-7 \
              libevent-extra-2.1-7 libevent-pthreads-2.1-7 libevent-openssl-2.1-7 libevent-dev \
              libpng16-16 libpng-dev libpciaccess0 libpciaccess-dev libdrm2 libdrm-dev \
              libcmocka0 libcmocka-dev libsystemd0 libsystemd-dev libinih1 libinih-dev libcap2 \
              libgcrypt20 libgpg-error0 liblz4-1 liblzma5 libzstd1
BE_PC      = $(shell PKG_CONFIG_SYSROOT_DIR=$(BE_SYSROOT) \
               PKG_CONFIG_LIBDIR=$(BE_SYSROOT)/usr/lib/s390x-linux-gnu/pkgconfig:$(BE_SYSROOT)/usr/share/pkgconfig \
               $(PKG_CONFIG) $(1) 2>/dev/null)
BE_LDFLAGS  = $(LDFLAGS) -Wl,-rpath-link,$(BE_SYSROOT)/lib/s390x-linux-gnu:$(BE_SYSROOT)/usr/lib/s390x-linux-gnu
BE       := $(BUILD)/be
# test_sim_jit* test the LLVM compiler, which the s390x build has not.
BE_UNIT  := $(filter-out tests/unit/test_sim_jit%,$(call src,tests/unit/test_hw_*.c tests/unit/test_sim_*.c \
                                                           tests/unit/test_nvd_validate.c))
# Left out of the s390x run: what needs x86-64 programs (Mesa, the GL
# programs, the benches: test_cli, test_oracle, test_readme, test_vchan_gl),
# the live view (test_vnc: the s390x nvd is built without libvncserver),
# and two attacks qemu-user cannot carry: the FUSE server of test_fd_attacks
# reads the kernel's host-endian FUSE messages untranslated, and recvmsg
# under qemu takes twice the descriptors the daemon's buffer holds and keeps
# the rest open where the daemon cannot close them (test_protocol_attacks'
# count of the daemon's descriptors).  test_service tests the systemd
# plumbing and the config file, nothing byte order touches.
BE_LEFT_OUT := test_cli test_oracle test_readme test_vchan_gl test_vnc test_fd_attacks \
               test_protocol_attacks test_service
BE_INTEG := $(filter-out $(addprefix %/,$(addsuffix .c,$(BE_LEFT_OUT))), \
              $(call src,tests/integration/test_*.c tests/hostile/test_*.c))
BE_NAMES := $(patsubst tests/%.c,%,$(BE_UNIT) $(BE_INTEG) $(call src,tests/be/test_*.c))
BE_WRAP  := $(addprefix $(TST)/be/,$(BE_NAMES))
BE_COPIES:= $(addprefix $(BE)/tests/,$(BE_NAMES))
BE_TOOLS := $(patsubst $(BIN)/%,$(BE)/bin/%,$(BIN)/nvd $(TOOLS))
beobj = $(patsubst %.c,$(BE)/obj/%.o,$(1))
BE_SIM_SRC := $(filter-out $(JIT_SRC),$(SIM_SRC)) sim/3d/jit-off.c

be-tools:
	@command -v $(BE_CC) >/dev/null 2>&1 || { echo "check-be: $(BE_CC) is missing" \
	    "('make deps' installs gcc-s390x-linux-gnu libc6-dev-s390x-cross)" >&2; exit 1; }
	@command -v $(BE_QEMU) >/dev/null 2>&1 || { echo "check-be: $(BE_QEMU) is missing" \
	    "('make deps' installs qemu-user-static)" >&2; exit 1; }
	@test -f $(BE_SYSROOT)/.pkgs || { echo "check-be: no s390x sysroot in $(BE_SYSROOT)" \
	    "('make deps' unpacks it)" >&2; exit 1; }

$(BE)/obj/%.o: %.c | be-tools
	@mkdir -p $(@D)
	$(BE_CC) $(CPPFLAGS) $(call BE_PC,--cflags libevent libpng pciaccess cmocka) $(CFLAGS) \
	    -MMD -MP -c $< -o $@

$(BE)/lib/libnvhw.a: $(call beobj,$(HW_SRC))
$(BE)/lib/libnvproto.a: $(call beobj,$(PROTO_SRC))
$(BE)/lib/libnvsim.a: $(call beobj,$(BE_SIM_SRC))
$(BE)/lib/libnvdcore.a: $(call beobj,$(NVD_SRC))
$(BE)/lib/libnvd.a: $(call beobj,$(CLIENT_SRC))
$(BE)/lib/libnvdtest.a: $(call beobj,$(TESTLIB_SRC))
$(BE)/lib/%.a:
	@mkdir -p $(@D)
	rm -f $@ && $(BE_AR) rcs $@ $^

BE_CLIENT := $(BE)/lib/libnvd.a $(BE)/lib/libnvproto.a $(BE)/lib/libnvhw.a
BE_DAEMON := $(BE)/lib/libnvdcore.a $(BE)/lib/libnvsim.a $(BE)/lib/libnvproto.a $(BE)/lib/libnvhw.a

$(BE)/elf/bin/nvd: $(BE)/obj/nvd/main.o $(BE)/obj/nvd/vnc-off.o $(BE_DAEMON)
	@mkdir -p $(@D)
	$(BE_CC) -o $@ $^ $(BE_LDFLAGS) $(call BE_PC,--libs libevent pciaccess libsystemd inih) -lm
$(BE)/elf/bin/%: $(BE)/obj/tools/%.o $(BE_CLIENT)
	@mkdir -p $(@D)
	$(BE_CC) -o $@ $^ $(BE_LDFLAGS) $(call BE_PC,--libs libpng)

$(BE)/elf/unit/test_hw_%: $(BE)/obj/tests/unit/test_hw_%.o $(BE)/lib/libnvhw.a
	@mkdir -p $(@D)
	$(BE_CC) -o $@ $^ $(BE_LDFLAGS) $(call BE_PC,--libs cmocka)
$(BE)/elf/unit/test_sim_%: $(BE)/obj/tests/unit/test_sim_%.o $(BE)/lib/libnvsim.a $(BE)/lib/libnvhw.a
	@mkdir -p $(@D)
	$(BE_CC) -o $@ $^ $(BE_LDFLAGS) $(call BE_PC,--libs cmocka) -lm
$(BE)/elf/unit/test_nvd_%: $(BE)/obj/tests/unit/test_nvd_%.o $(BE_DAEMON)
	@mkdir -p $(@D)
	$(BE_CC) -o $@ $^ $(BE_LDFLAGS) $(call BE_PC,--libs cmocka libevent pciaccess) -lm
$(BE)/elf/be/test_be_%: $(BE)/obj/tests/be/test_be_%.o $(BE)/lib/libnvhw.a
	@mkdir -p $(@D)
	$(BE_CC) -o $@ $^ $(BE_LDFLAGS) $(call BE_PC,--libs cmocka)
$(BE)/elf/integration/%: $(BE)/obj/tests/integration/%.o $(BE)/lib/libnvdtest.a $(BE_CLIENT)
	@mkdir -p $(@D)
	$(BE_CC) -o $@ $^ $(BE_LDFLAGS) $(call BE_PC,--libs cmocka libpng)
$(BE)/elf/hostile/%: $(BE)/obj/tests/hostile/%.o $(BE)/lib/libnvdtest.a $(BE_CLIENT)
	@mkdir -p $(@D)
	$(BE_CC) -o $@ $^ $(BE_LDFLAGS) $(call BE_PC,--libs cmocka libpng)

# nvd and the tools as the tests run them: through qemu.
$(BE)/bin/%: $(BE)/elf/bin/% tests/be/qemu-run | be-tools
	@mkdir -p $(@D)
	printf '#!/bin/sh\nBE_QEMU=%s BE_SYSROOT=%s exec %s %s "$$@"\n' '$(BE_QEMU)' '$(BE_SYSROOT)' \
	    '$(abspath tests/be/qemu-run)' '$(abspath $<)' > $@.tmp && chmod +x $@.tmp && mv $@.tmp $@

# tests/run runs executables named test_* under BUILD/tests; these run the
# s390x test (its x86-64 twin, BUILD/tests/NAME, is named in what it says).
be_wrap = @mkdir -p $(@D) && \
	printf '\#!/bin/sh\nBE_QEMU=%s BE_SYSROOT=%s exec %s %s %s %s %s "$$@"\n' '$(BE_QEMU)' '$(BE_SYSROOT)' \
	    '$(abspath tests/be/same-counts)' '$(abspath $(BIN))' '$(abspath $(BE)/bin)' \
	    '$(abspath $(TST))/$*' '$(abspath $<)' > $(@D)/.$(@F).tmp && \
	chmod +x $(@D)/.$(@F).tmp && mv $(@D)/.$(@F).tmp $@
$(TST)/be/%: $(BE)/elf/% tests/be/qemu-run tests/be/same-counts $(BE_TOOLS) | be-tools
	$(be_wrap)
$(BE)/tests/%: $(BE)/elf/% tests/be/qemu-run tests/be/same-counts $(BE_TOOLS) | be-tools
	$(be_wrap)

check-be: $(BE_WRAP) $(BE_COPIES)
	tests/run $(BE)

# The s390x sysroot: Debian's own packages, unpacked (as root, by `make
# deps`) once per package list.
be-sysroot:
	@if [ "$$(cat $(BE_SYSROOT)/.pkgs 2>/dev/null)" = "$(BE_PKGS)" ]; then \
	    echo "deps: the s390x sysroot is in $(BE_SYSROOT)"; \
	elif [ "$$(id -u)" != 0 ]; then echo "deps: no s390x sysroot (run 'make deps' as root)"; exit 1; \
	else set -e; dpkg --print-foreign-architectures | grep -qx s390x || \
	        { dpkg --add-architecture s390x; apt-get update -qq; }; \
	    rm -rf $(BE_SYSROOT) $(BE_SYSROOT).debs; mkdir -p $(BE_SYSROOT).debs; \
	    chown _apt $(BE_SYSROOT).debs 2>/dev/null || true; \
	    cd $(BE_SYSROOT).debs && apt-get download -q $(BE_PKGS:%=%:s390x) >/dev/null; \
	    for d in *.deb; do dpkg-deb -x $$d $(BE_SYSROOT); done; \
	    cd / && rm -rf $(BE_SYSROOT).debs && echo "$(BE_PKGS)" > $(BE_SYSROOT)/.pkgs; \
	    echo "deps: unpacked the s390x sysroot in $(BE_SYSROOT)"; fi

# A test_* that execs a script ($<) with arguments $(1): tests/run runs it
# like any test binary.
script_wrap = @mkdir -p $(@D) && printf '\#!/bin/sh\nexec %s %s "$$@"\n' '$(abspath $<)' '$(1)' \
	> $(@D)/.$(@F).tmp && chmod +x $(@D)/.$(@F).tmp && mv $(@D)/.$(@F).tmp $@

# piglit's fast subset on nvd (tests/piglit/run --check): tests/run runs it
# like any test binary and counts each piglit test as one cmocka test.
PIGLIT_WRAP := $(TST)/piglit/test_piglit
$(PIGLIT_WRAP): tests/piglit/run
	$(call script_wrap,--check --build $(abspath $(BUILD)))

# `make install` into a scratch DESTDIR and a client built against it both
# ways, run on a real nvd (tests/install/test_install).
INSTALL_WRAP := $(TST)/install/test_install
$(INSTALL_WRAP): tests/install/test_install
	$(call script_wrap,--build $(abspath $(BUILD)))
# The systemd units as installed, checked by systemd-analyze (tests/install/test_units).
UNITS_WRAP := $(TST)/install/test_units
$(UNITS_WRAP): tests/install/test_units
	$(call script_wrap,--build $(abspath $(BUILD)))

# The installed man pages against the installed programs, and `make
# uninstall` after `make install` (tests/install/test_man).
MAN_WRAP := $(TST)/install/test_man
$(MAN_WRAP): tests/install/test_man
	$(call script_wrap,--build $(abspath $(BUILD)))

tests: all $(UNIT) $(INTEG) $(GLPROGS) $(GLTESTS) $(GLXTESTS) $(XTESTS) $(SOAK) $(BE_WRAP) $(BE_COPIES) $(PIGLIT_WRAP) \
       $(INSTALL_WRAP) $(MAN_WRAP) $(UNITS_WRAP)

check: tests
	tests/run $(BUILD)

deps:
	@missing=""; for p in $(DEPS_PKGS); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: everything is installed"; \
	elif [ "$$(id -u)" != 0 ]; then echo "deps: missing:$$missing (run 'make deps' as root)"; exit 1; \
	else echo "deps: installing$$missing"; apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi
	@$(MAKE) --no-print-directory be-sysroot

# What `make install` puts under $(DESTDIR)$(PREFIX), one MODE:SOURCE:DEST
# entry a file, DEST relative to the prefix; libnvd.so (a link) and
# libnvd.pc (made for PREFIX) are written beside them.  `make uninstall`
# removes the same DESTs, so the two cannot drift apart.
INSTALL_FILES := $(foreach f,$(BIN)/nvd $(BIN)/nvd-run $(BIN)/nvd-glinfo $(BIN)/nvd-x $(TOOLS), \
                   755:$(f):bin/$(notdir $(f))) \
                 755:$(NVD_DRV):lib/xorg/modules/drivers/nvd_drv.so \
                 644:ddx/xorg.conf:lib/xorg/xorg.conf \
                 755:$(LIBNVD_DRM):lib/libnvd-drm.so \
                 644:$(LIBNVD_A):lib/libnvd.a \
                 755:$(LIBNVD_SO):lib/libnvd.so.0 \
                 $(foreach h,$(LIBNVD_H),644:$(h):$(patsubst $(INC)/%,include/%,$(h))) \
                 $(foreach m,$(MANS),644:$(m):share/man/man$(subst .,,$(suffix $(m)))/$(notdir $(m))) \
                 644:systemd/nvd.socket:lib/systemd/system/nvd.socket
INSTALLED     := $(foreach e,$(INSTALL_FILES),$(lastword $(subst :, ,$(e)))) \
                 lib/libnvd.so lib/pkgconfig/libnvd.pc lib/systemd/system/nvd.service
# The example configuration goes beside the real one, outside the prefix.
CONF_EXAMPLE  := /etc/nvd/nvd.conf.example
# Directories only nvd's files live in: uninstall removes them once empty.
INSTALL_OWN_DIRS := include/nvd/hw include/nvd

install: all
	@for e in $(INSTALL_FILES); do \
	    m=$${e%%:*}; f=$${e#*:}; src=$${f%%:*}; dst=$(DESTDIR)$(PREFIX)/$${f#*:}; \
	    echo "install -D -m $$m $$src $$dst"; install -D -m $$m $$src $$dst || exit 1; \
	done
	ln -sf libnvd.so.0 $(DESTDIR)$(PREFIX)/lib/libnvd.so
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	sed -e 's|@PREFIX@|$(PREFIX)|' client/libnvd.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/libnvd.pc
	sed -e 's|@PREFIX@|$(PREFIX)|' systemd/nvd.service.in > $(DESTDIR)$(PREFIX)/lib/systemd/system/nvd.service
	chmod 644 $(DESTDIR)$(PREFIX)/lib/systemd/system/nvd.service
	install -D -m 644 systemd/nvd.conf $(DESTDIR)$(CONF_EXAMPLE)

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED)) $(DESTDIR)$(CONF_EXAMPLE)
	[ ! -d $(DESTDIR)$(dir $(CONF_EXAMPLE)) ] || rmdir --ignore-fail-on-non-empty $(DESTDIR)$(dir $(CONF_EXAMPLE))
	@for d in $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALL_OWN_DIRS)); do \
	    [ ! -d $$d ] || rmdir --ignore-fail-on-non-empty $$d || exit 1; \
	done

clean:
	rm -rf $(BUILD)

.PHONY: all tests check check-be be-tools be-sysroot deps install uninstall clean
.SECONDARY:

-include $(shell find $(OBJ) $(BE)/obj -name '*.d' 2>/dev/null)

# ---- fuzzing (tests/fuzz) ----
# libFuzzer targets, built by clang with ASan and UBSan into their own
# objects ($(FUZZ)/obj): the gcc build above is untouched.  `make fuzz` runs
# each for FUZZ_SECONDS; the wrapper $(TST)/fuzz/test_fuzz puts 30 s of each
# plus every saved finding (tests/fuzz/regress) into `make check`.
DEPS_PKGS    += clang libclang-rt-14-dev
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ         := $(BUILD)/fuzz
# clang warns about the shift in an untaken branch of sim/pfifo.c's RAMFC
# table, which gcc does not.
FUZZ_CFLAGS  := -std=gnu11 -Wall -Wextra -Werror -Wno-shift-count-overflow -pthread -O1 -g \
                -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
                -fno-sanitize-recover=undefined
FUZZ_LINK    := -fsanitize=fuzzer,address,undefined -pthread
FUZZ_NAMES   := proto ioctl pusher stream
FUZZ_BINS    := $(addprefix $(FUZZ)/bin/fuzz_,$(FUZZ_NAMES))
fuzzobj = $(patsubst %.c,$(FUZZ)/obj/%.o,$(1))
# The daemon without its options and config file (nvd/config.c, inih's).
FUZZ_NVD_SRC := $(filter-out nvd/config.c,$(NVD_SRC))
FUZZ_DAEMON  := $(call fuzzobj,tests/fuzz/fuzz.c tests/fuzz/fuzz-daemon.c $(FUZZ_NVD_SRC) $(SIM_SRC) $(PROTO_SRC) $(HW_SRC))

$(call fuzzobj,$(JIT_SRC)): CPPFLAGS += $(LLVM_CFLAGS)
$(FUZZ)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(PC_DRM) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ)/bin/fuzz_proto: $(call fuzzobj,tests/fuzz/fuzz_proto.c) $(FUZZ_DAEMON)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_LINK) -o $@ $^ $(PC_EVENT) $(PC_PCI) $(LLVM_LIBS) -lm

$(FUZZ)/bin/fuzz_ioctl: $(call fuzzobj,tests/fuzz/fuzz_ioctl.c glx/ioctl.c glx/gem.c glx/kms.c glx/event.c glx/lost.c \
                          glx/user.c glx/file.c glx/real.c $(CLIENT_SRC)) $(FUZZ_DAEMON)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_LINK) -o $@ $^ $(PC_EVENT) $(PC_PCI) $(LLVM_LIBS) -lm -ldl

# The pusher's host is the unit tests' (tests/unit/sim-host.h, whose
# asserts are cmocka's: they fail only if the card cannot be made).
$(FUZZ)/obj/tests/fuzz/fuzz_pusher.o: CPPFLAGS += -Itests/unit
$(FUZZ)/bin/fuzz_pusher: $(call fuzzobj,tests/fuzz/fuzz_pusher.c tests/fuzz/fuzz.c $(SIM_SRC) $(HW_SRC))
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_LINK) -o $@ $^ $(PC_CMOCKA) $(LLVM_LIBS) -lm

# The stream target runs nvd's core in-process without its socket.
$(FUZZ)/bin/fuzz_stream: $(call fuzzobj,tests/fuzz/fuzz_stream.c tests/fuzz/fuzz.c $(FUZZ_NVD_SRC) \
                           $(SIM_SRC) $(PROTO_SRC) $(HW_SRC))
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_LINK) -o $@ $^ $(PC_EVENT) $(PC_PCI) $(LLVM_LIBS) -lm

FUZZ_WRAP := $(TST)/fuzz/test_fuzz
$(FUZZ_WRAP): tests/fuzz/run $(FUZZ_BINS)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec %s --build %s "$$@"\n' '$(abspath tests/fuzz/run)' \
	    '$(abspath $(BUILD))' > $(@D)/.$(@F).tmp && chmod +x $(@D)/.$(@F).tmp && mv $(@D)/.$(@F).tmp $@

# The committed seeds (tests/fuzz/corpus) come from tests/fuzz/gen-seeds.c.
$(FUZZ)/gen-seeds: tests/fuzz/gen-seeds.c proto/proto.h hw/pushbuf.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(PC_DRM) -std=gnu11 -Wall -Wextra -Werror -o $@ $<

fuzz-seeds: $(FUZZ)/gen-seeds
	$< tests/fuzz/corpus

# fuzz_stream's seeds: push buffers recorded with NVD_DRM_DUMP (how: the top
# of tests/fuzz/stream-seeds.c), STREAM_DUMPS/NAME.dump, converted.
$(FUZZ)/stream-seeds: tests/fuzz/stream-seeds.c tests/fuzz/stream.h $(LIBHW)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=gnu11 -Wall -Wextra -Werror -o $@ $< $(LIBHW)

fuzz-stream-seeds: $(FUZZ)/stream-seeds
	@test -d "$(STREAM_DUMPS)" || { echo "STREAM_DUMPS=DIR of NAME.dump files"; exit 1; }
	mkdir -p tests/fuzz/corpus/stream
	for f in $(STREAM_DUMPS)/*.dump; do \
	    $< $$f tests/fuzz/corpus/stream/$$(basename $$f .dump) || exit 1; done

fuzz: $(FUZZ_BINS)
	FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run --build $(BUILD) --stats

tests: $(FUZZ_WRAP)

.PHONY: fuzz fuzz-seeds fuzz-stream-seeds
-include $(shell find $(FUZZ)/obj -name '*.d' 2>/dev/null)

# ---- the sanitizer build (check-asan) ----
# check-asan: nvd, the tools and the integration and hostile tests built by
# $(CC) with ASan and UBSan into $(ASAN_BUILD) (relative to the top), then
# tests/run on them (so on those tests only), through the wrapper
# $(TST)/asan/test_asan, which puts them in `make check` too (2 minutes).
# Any report ends the process that makes it: a test that does, or whose nvd
# does (nvt_daemon_stop wants exit status 0 and prints the daemon's log,
# report included), fails.  Leaks count in nvd only (tests/lib/nvt.c).
# Left out: test_readme, test_oracle and test_vchan_gl, whose programs run
# Mesa with the interposer preloaded (ASan is not in them), and test_cli,
# which runs every program, the benches and GL programs this build does not
# make among them.
# The GL tests of Mesa's own programs again with the compiler off (tests/jit-off).
JITOFF_WRAP := $(TST)/jitoff/test_jit_off

$(JITOFF_WRAP): tests/jit-off
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec %s %s "$$@"\n' '$(abspath tests/jit-off)' '$(abspath $(BUILD))' \
	    > $(@D)/.$(@F).tmp && chmod +x $(@D)/.$(@F).tmp && mv $(@D)/.$(@F).tmp $@

tests: $(JITOFF_WRAP)

ASAN_BUILD ?= build-asan
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_ENV   := ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1 \
              UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
ASAN_WRAP  := $(TST)/asan/test_asan
CFLAGS     += $(SAN_FLAGS)
LDFLAGS    += $(SAN_FLAGS)

asan-tests: $(BIN)/nvd $(TOOLS) $(filter-out %/test_readme %/test_oracle %/test_vchan_gl %/test_cli,$(INTEG))

asan-build:
	$(MAKE) BUILD=$(ASAN_BUILD) SAN_FLAGS='$(ASAN_FLAGS)' asan-tests

$(ASAN_WRAP): asan-build
	@mkdir -p $(@D)
	printf '#!/bin/sh\n%s exec %s %s "$$@"\n' '$(strip $(ASAN_ENV))' '$(abspath tests/run)' \
	    '$(ASAN_BUILD)' > $(@D)/.$(@F).tmp && chmod +x $(@D)/.$(@F).tmp && mv $(@D)/.$(@F).tmp $@

check-asan: $(ASAN_WRAP)
	$(ASAN_WRAP)

tests: $(ASAN_WRAP)

.PHONY: asan-tests asan-build check-asan
