#include "textflag.h"

// callNative enters generated code (native_code_amd64.go) with the
// address of its argument block in DI. Generated code keeps to the
// registers Go lets an assembly function clobber, needs no stack beyond
// the return address CALL pushes (the frame below reserves room for it),
// and returns with VZEROUPPER done.
//
// func callNative(code uintptr, args *uintptr)
TEXT ·callNative(SB), NOSPLIT, $16-16
	MOVQ code+0(FP), AX
	MOVQ args+8(FP), DI
	CALL AX
	RET
