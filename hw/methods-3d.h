/* NV40_3D 0x4097 / NV44_3D 0x4497 ("Curie"): method table only; execution
 * comes with the 3D engine.  Filled from rnndb nv30-40_3d.xml. */
#ifndef NV_HW_METHODS_3D_H
#define NV_HW_METHODS_3D_H

#define NV_CURIE_METHODS(M, P) NV_OBJ_METHODS(M, P) \
	M(P, DMA_TEXTURE0,      0x0184, 1, 4, HANDLE, _) \
	M(P, DMA_TEXTURE1,      0x0188, 1, 4, HANDLE, _) \
	M(P, COLOR0_OFFSET,     0x0210, 1, 4, ADDR,   DMA_COLOR0) \
	M(P, DMA_COLOR0,        0x0194, 1, 4, HANDLE, _)

#endif
