package cpu

// AVX kernels for float block ops (elementwise_simd_amd64.s), used when the
// CPU and OS support AVX, and AVX2 ones for int32/int64 add, sub and mul. n is a positive multiple of the vector width.

//go:noescape
func addF32AVX(dst, x, y *float32, n int)

//go:noescape
func subF32AVX(dst, x, y *float32, n int)

//go:noescape
func mulF32AVX(dst, x, y *float32, n int)

//go:noescape
func divF32AVX(dst, x, y *float32, n int)

//go:noescape
func maxF32AVX(dst, x, y *float32, n int)

//go:noescape
func minF32AVX(dst, x, y *float32, n int)

//go:noescape
func negF32AVX(dst, x *float32, n int)

//go:noescape
func squareF32AVX(dst, x *float32, n int)

//go:noescape
func absF32AVX(dst, x *float32, n int)

//go:noescape
func addF64AVX(dst, x, y *float64, n int)

//go:noescape
func subF64AVX(dst, x, y *float64, n int)

//go:noescape
func mulF64AVX(dst, x, y *float64, n int)

//go:noescape
func divF64AVX(dst, x, y *float64, n int)

//go:noescape
func maxF64AVX(dst, x, y *float64, n int)

//go:noescape
func minF64AVX(dst, x, y *float64, n int)

//go:noescape
func negF64AVX(dst, x *float64, n int)

//go:noescape
func squareF64AVX(dst, x *float64, n int)

//go:noescape
func absF64AVX(dst, x *float64, n int)

//go:noescape
func cvtI32F32AVX(dst *float32, x *int32, n int)

//go:noescape
func addI32AVX2(dst, x, y *int32, n int)

//go:noescape
func subI32AVX2(dst, x, y *int32, n int)

//go:noescape
func mulI32AVX2(dst, x, y *int32, n int)

//go:noescape
func addI64AVX2(dst, x, y *int64, n int)

//go:noescape
func subI64AVX2(dst, x, y *int64, n int)

// elemHasAVX2 gates the integer kernels, whose 256-bit integer
// instructions need AVX2.
var elemHasAVX2 = func() bool {
	if !reduceHasAVX {
		return false
	}
	if maxLeaf, _, _, _ := dotCPUID(0, 0); maxLeaf < 7 {
		return false
	}
	_, ebx7, _, _ := dotCPUID(7, 0)
	return ebx7&(1<<5) != 0
}()

// binaryAsm returns the kernel for kind on T and its vector width in
// elements, or nil.
func binaryAsm[T any](kind simdKind) (func(dst, x, y *T, n int), int) {
	if !reduceHasAVX {
		return nil, 0
	}
	var k any
	step := 0
	switch any(*new(T)).(type) {
	case float32:
		step = 8
		k = map[simdKind]func(dst, x, y *float32, n int){
			simdAdd: addF32AVX, simdSub: subF32AVX, simdMul: mulF32AVX, simdDiv: divF32AVX,
			simdMax: maxF32AVX, simdMin: minF32AVX,
		}[kind]
	case float64:
		step = 4
		k = map[simdKind]func(dst, x, y *float64, n int){
			simdAdd: addF64AVX, simdSub: subF64AVX, simdMul: mulF64AVX, simdDiv: divF64AVX,
			simdMax: maxF64AVX, simdMin: minF64AVX,
		}[kind]
	case int32:
		if elemHasAVX2 {
			step = 8
			k = map[simdKind]func(dst, x, y *int32, n int){simdAdd: addI32AVX2, simdSub: subI32AVX2, simdMul: mulI32AVX2}[kind]
		}
	case int64:
		if elemHasAVX2 {
			step = 4
			k = map[simdKind]func(dst, x, y *int64, n int){simdAdd: addI64AVX2, simdSub: subI64AVX2}[kind]
		}
	}
	f, _ := k.(func(dst, x, y *T, n int))
	if f == nil {
		return nil, 0
	}
	return f, step
}

// unaryAsm returns the kernel for kind from T to R and its vector width in
// elements, or nil.
func unaryAsm[T, R any](kind simdKind) (func(dst *R, x *T, n int), int) {
	if !reduceHasAVX {
		return nil, 0
	}
	var k any
	step := 0
	switch any(*new(T)).(type) {
	case float32:
		step = 8
		k = map[simdKind]func(dst, x *float32, n int){simdNeg: negF32AVX, simdSquare: squareF32AVX, simdAbs: absF32AVX}[kind]
	case float64:
		step = 4
		k = map[simdKind]func(dst, x *float64, n int){simdNeg: negF64AVX, simdSquare: squareF64AVX, simdAbs: absF64AVX}[kind]
	case int32:
		step = 8
		if kind == simdConvert {
			k = cvtI32F32AVX
		}
	}
	f, _ := k.(func(dst *R, x *T, n int))
	if f == nil {
		return nil, 0
	}
	return f, step
}
