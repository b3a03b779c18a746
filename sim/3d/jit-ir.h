/* What jit-fp.c and jit-vp.c build their IR with (jit-ir.c): the
 * function being built and its types, <4 x float> constants,
 * compare-and-select, sign-bit operations, intrinsics. */
#ifndef NV_SIM_3D_JIT_IR_H
#define NV_SIM_3D_JIT_IR_H

#include <llvm-c/Core.h>
#include <stddef.h>
#include <stdint.h>

struct jit_ir {
	LLVMContextRef cx;
	LLVMModuleRef m;
	LLVMBuilderRef b;
	LLVMValueRef fn;
	LLVMTypeRef f32, i32, v4, v4i, ptr;
	LLVMValueRef neg_mask, abs_mask;   /* <4 x i32>: 0x80000000, 0x7fffffff */
};

/* Starts function `name` in m of signature sig: its return type, then
 * up to 8 arguments, each 'v' void (return only), 'i' i32 or 'p' pointer
 * ("vpp": void name(ptr, ptr)); the builder at its entry, the sign masks
 * loaded (JIT_FP_SIGNS). */
void jit_ir_begin(struct jit_ir *ir, LLVMModuleRef m, const char *name, const char *sig);

LLVMValueRef jit_ir_splat(struct jit_ir *ir, float v);
/* pr(a, b) ? t : f */
LLVMValueRef jit_ir_sel(struct jit_ir *ir, LLVMRealPredicate pr, LLVMValueRef a, LLVMValueRef b,
			LLVMValueRef t, LLVMValueRef f);
/* |x| (op LLVMAnd, abs_mask) or -x (LLVMXor, neg_mask) as an integer
 * operation with a mask LLVM cannot see: an fneg, fabs, or an xor or and it
 * recognises as one, it moves through multiplications (-x * c into
 * x * -c, -x * -y into x * y), which changes the sign of a NaN that the
 * interpreters keep. */
LLVMValueRef jit_ir_signbit(struct jit_ir *ir, LLVMValueRef x, LLVMOpcode op, LLVMValueRef mask);
/* The scalar x (float, double, i32) on every lane of four. */
LLVMValueRef jit_ir_fill(struct jit_ir *ir, LLVMValueRef x);
/* The <4 x i32> constant v on every lane. */
LLVMValueRef jit_ir_splat_i(struct jit_ir *ir, uint32_t v);
/* Four floats at base + off + p * stride (p = 0..3) as a vector. */
LLVMValueRef jit_ir_gather(struct jit_ir *ir, LLVMValueRef base, size_t off, size_t stride);
/* base + off bytes. */
LLVMValueRef jit_ir_at(struct jit_ir *ir, LLVMValueRef base, size_t off);
/* The <4 x float> of lanes[] from a (0-3) and b (4-7; NULL: a alone). */
LLVMValueRef jit_ir_shuffle(struct jit_ir *ir, LLVMValueRef a, LLVMValueRef b, const unsigned lanes[4]);
/* A call of the helper `name` of type ft (declared in the module on first
 * use; jit.c defines the helpers). */
LLVMValueRef jit_ir_call(struct jit_ir *ir, const char *name, LLVMTypeRef ft, LLVMValueRef *args,
			 unsigned n);
/* The overloaded intrinsic `name` of type t on a. */
LLVMValueRef jit_ir_intrinsic(struct jit_ir *ir, const char *name, LLVMTypeRef t, LLVMValueRef a);

#endif
