/* A libnvd client built against an installed tree only: it connects, names
 * the card, and writes a buffer through its mapping and reads it back
 * through its fd.  test_install builds it dynamically and statically. */
#include <nvd.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SIZE 65536

static int fail(const char *what)
{
	fprintf(stderr, "nvd-hello: %s: %s\n", what, nvc_error());
	return 1;
}

int main(int argc, char **argv)
{
	struct nvc *c;
	struct nvc_info info;
	struct nvc_bo *bo;

	if (nvc_connect(argc > 1 ? argv[1] : NULL, "nvd-hello", &c) < 0)
		return fail("connect");
	if (nvc_info(c, &info) < 0)
		return fail("info");
	printf("card: %s (NV%02X)\n", info.card, info.chipset);
	if (nvc_bo_new(c, SIZE, NVC_GART, &bo) < 0)
		return fail("bo_new");
	uint32_t *p = nvc_bo_map(bo);
	if (!p)
		return fail("bo_map");
	for (uint32_t i = 0; i < SIZE / 4; i++)
		p[i] = i * 2654435761u;
	/* the mapping is the buffer's memory: the fd reads what it wrote */
	uint32_t back[SIZE / 4];
	if (pread(nvc_bo_fd(bo), back, SIZE, 0) != SIZE || memcmp(p, back, SIZE)) {
		fprintf(stderr, "nvd-hello: the buffer's fd does not read what its mapping wrote\n");
		return 1;
	}
	printf("bo: %u bytes written and read back\n", SIZE);
	if (nvc_bo_free(bo) < 0)
		return fail("bo_free");
	nvc_close(c);
	return 0;
}
