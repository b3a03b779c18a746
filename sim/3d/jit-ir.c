/* The IR builder's basics shared by the program compilers (jit-ir.h). */
#include "jit-ir.h"
#include "jit-fp.h"

#include <string.h>

void jit_ir_begin(struct jit_ir *ir, LLVMModuleRef m, const char *name, const char *sig)
{
	LLVMTypeRef args[8];
	unsigned n = 0;

	ir->m = m;
	ir->cx = LLVMGetModuleContext(m);
	ir->f32 = LLVMFloatTypeInContext(ir->cx);
	ir->i32 = LLVMInt32TypeInContext(ir->cx);
	ir->v4 = LLVMVectorType(ir->f32, 4);
	ir->v4i = LLVMVectorType(ir->i32, 4);
	ir->ptr = LLVMPointerTypeInContext(ir->cx, 0);
	for (const char *c = sig + 1; *c && n < 8; c++)
		args[n++] = *c == 'i' ? ir->i32 : ir->ptr;
	LLVMTypeRef ret = sig[0] == 'i' ? ir->i32 : LLVMVoidTypeInContext(ir->cx);
	ir->fn = LLVMAddFunction(m, name, LLVMFunctionType(ret, args, n, 0));
	ir->b = LLVMCreateBuilderInContext(ir->cx);
	LLVMPositionBuilderAtEnd(ir->b, LLVMAppendBasicBlockInContext(ir->cx, ir->fn, "entry"));

	LLVMValueRef signs = LLVMAddGlobal(m, LLVMArrayType(ir->i32, 8), JIT_FP_SIGNS);
	ir->neg_mask = LLVMBuildLoad2(ir->b, ir->v4i, signs, "");
	ir->abs_mask = LLVMBuildLoad2(ir->b, ir->v4i, jit_ir_at(ir, signs, 16), "");
	LLVMSetAlignment(ir->neg_mask, 16);
	LLVMSetAlignment(ir->abs_mask, 16);
}

LLVMValueRef jit_ir_splat(struct jit_ir *ir, float v)
{
	LLVMValueRef e = LLVMConstReal(ir->f32, v), l[4] = { e, e, e, e };
	return LLVMConstVector(l, 4);
}

LLVMValueRef jit_ir_sel(struct jit_ir *ir, LLVMRealPredicate pr, LLVMValueRef a, LLVMValueRef b,
			LLVMValueRef t, LLVMValueRef f)
{
	return LLVMBuildSelect(ir->b, LLVMBuildFCmp(ir->b, pr, a, b, ""), t, f, "");
}

LLVMValueRef jit_ir_signbit(struct jit_ir *ir, LLVMValueRef x, LLVMOpcode op, LLVMValueRef mask)
{
	LLVMValueRef u = LLVMBuildBitCast(ir->b, x, ir->v4i, "");
	return LLVMBuildBitCast(ir->b, LLVMBuildBinOp(ir->b, op, u, mask, ""), ir->v4, "");
}

LLVMValueRef jit_ir_intrinsic(struct jit_ir *ir, const char *name, LLVMTypeRef t, LLVMValueRef a)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef f = LLVMGetIntrinsicDeclaration(ir->m, id, &t, 1);
	return LLVMBuildCall2(ir->b, LLVMIntrinsicGetType(ir->cx, id, &t, 1), f, &a, 1, "");
}

LLVMValueRef jit_ir_at(struct jit_ir *ir, LLVMValueRef base, size_t off)
{
	LLVMValueRef i = LLVMConstInt(ir->i32, off, 0);
	return LLVMBuildGEP2(ir->b, LLVMInt8TypeInContext(ir->cx), base, &i, 1, "");
}

LLVMValueRef jit_ir_shuffle(struct jit_ir *ir, LLVMValueRef a, LLVMValueRef b, const unsigned lanes[4])
{
	LLVMValueRef m[4];
	for (unsigned i = 0; i < 4; i++)
		m[i] = LLVMConstInt(ir->i32, lanes[i], 0);
	return LLVMBuildShuffleVector(ir->b, a, b ? b : LLVMGetUndef(ir->v4), LLVMConstVector(m, 4), "");
}

LLVMValueRef jit_ir_fill(struct jit_ir *ir, LLVMValueRef x)
{
	LLVMTypeRef t = LLVMVectorType(LLVMTypeOf(x), 4);
	LLVMValueRef v = LLVMBuildInsertElement(ir->b, LLVMGetUndef(t), x, LLVMConstInt(ir->i32, 0, 0), "");
	return LLVMBuildShuffleVector(ir->b, v, LLVMGetUndef(t), LLVMConstNull(ir->v4i), "");
}

LLVMValueRef jit_ir_splat_i(struct jit_ir *ir, uint32_t v)
{
	LLVMValueRef e = LLVMConstInt(ir->i32, v, 0), l[4] = { e, e, e, e };
	return LLVMConstVector(l, 4);
}

LLVMValueRef jit_ir_gather(struct jit_ir *ir, LLVMValueRef base, size_t off, size_t stride)
{
	LLVMValueRef v = LLVMGetUndef(ir->v4);
	for (unsigned p = 0; p < 4; p++) {
		LLVMValueRef x = LLVMBuildLoad2(ir->b, ir->f32, jit_ir_at(ir, base, off + p * stride), "");
		LLVMSetAlignment(x, 4);
		v = LLVMBuildInsertElement(ir->b, v, x, LLVMConstInt(ir->i32, p, 0), "");
	}
	return v;
}

LLVMValueRef jit_ir_call(struct jit_ir *ir, const char *name, LLVMTypeRef ft, LLVMValueRef *args,
			 unsigned n)
{
	LLVMValueRef f = LLVMGetNamedFunction(ir->m, name);
	if (!f)
		f = LLVMAddFunction(ir->m, name, ft);
	return LLVMBuildCall2(ir->b, ft, f, args, n, "");
}
