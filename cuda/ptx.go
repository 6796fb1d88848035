package cuda

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/jaxsh/jaxsh/trace"
)

// PTX text generation. Every kernel is written for PTX ISA 7.8 and sm_80
// (the driver JIT-compiles it for the GPU it runs on, newer ones included).
// 7.8 is the newest ISA that CUDA 11.8's ptxas accepts, and nothing here
// needs a later one, so the assembler that checks kernels without a GPU
// (ptxas_test.go) reads exactly what the driver will.
// A builder hands out virtual registers by kind and collects instructions;
// ptxas does the register allocation.

const ptxHeader = ".version 7.8\n.target sm_80\n.address_size 64\n"

// A regKind is a PTX register class.
type regKind int

const (
	rPred regKind = iota
	rB16
	rB32
	rB64
	rF32
	rF64
	numRegKinds
)

var regPrefix = [numRegKinds]string{"%p", "%h", "%r", "%rd", "%f", "%fd"}
var regDecl = [numRegKinds]string{".pred", ".b16", ".b32", ".b64", ".f32", ".f64"}

// A builder writes one kernel (.entry).
type builder struct {
	name   string
	params []string // parameter names, all .u64
	nreg   [numRegKinds]int
	body   strings.Builder
	nlabel int
	shared []string // .shared declarations
}

func newBuilder(name string) *builder { return &builder{name: name} }

// param adds a .u64 parameter and returns its name.
func (b *builder) param() string {
	p := fmt.Sprintf("%s_param_%d", b.name, len(b.params))
	b.params = append(b.params, p)
	return p
}

func (b *builder) reg(k regKind) string {
	n := b.nreg[k]
	b.nreg[k]++
	return regPrefix[k] + strconv.Itoa(n)
}

// op writes one instruction.
func (b *builder) op(format string, a ...any) {
	b.body.WriteByte('\t')
	fmt.Fprintf(&b.body, format, a...)
	b.body.WriteString(";\n")
}

func (b *builder) comment(format string, a ...any) {
	b.body.WriteString("\t// ")
	fmt.Fprintf(&b.body, format, a...)
	b.body.WriteByte('\n')
}

func (b *builder) newLabel() string {
	b.nlabel++
	return fmt.Sprintf("$L_%s_%d", b.name, b.nlabel)
}

func (b *builder) label(l string) { b.body.WriteString(l + ":\n") }

// sharedArray declares a shared-memory byte array and returns its name.
func (b *builder) sharedArray(bytes, align int) string {
	name := fmt.Sprintf("%s_smem%d", b.name, len(b.shared))
	b.shared = append(b.shared, fmt.Sprintf("\t.shared .align %d .b8 %s[%d];\n", align, name, max(bytes, align)))
	return name
}

// globalParam loads parameter p as a global-space address.
func (b *builder) globalParam(p string) string {
	r := b.reg(rB64)
	b.op("ld.param.u64 %s, [%s]", r, p)
	b.op("cvta.to.global.u64 %s, %s", r, r)
	return r
}

// text is the finished .entry.
func (b *builder) text() string {
	var s strings.Builder
	fmt.Fprintf(&s, ".visible .entry %s(", b.name)
	for i, p := range b.params {
		if i > 0 {
			s.WriteByte(',')
		}
		fmt.Fprintf(&s, "\n\t.param .u64 %s", p)
	}
	s.WriteString("\n)\n{\n")
	for k := range numRegKinds {
		if b.nreg[k] > 0 {
			fmt.Fprintf(&s, "\t.reg %s %s<%d>;\n", regDecl[k], regPrefix[k], b.nreg[k])
		}
	}
	for _, d := range b.shared {
		s.WriteString(d)
	}
	s.WriteString(b.body.String())
	s.WriteString("\tret;\n}\n")
	return s.String()
}

// Values. Each dtype computes in one register class (ctype): integers of
// 8 and 16 bits in 32-bit registers, kept sign- or zero-extended from their
// width; bool as 0 or 1 in a 32-bit register; float16 and bfloat16 in f32
// registers, rounded to their format after every operation (as the CPU
// backend computes them).

// A val is a computed value: its register and its array dtype.
type val struct {
	r  string
	dt trace.DType
}

// errUnsupported is a compile error for what the generator cannot do yet.
type errUnsupported struct{ what string }

func (e *errUnsupported) Error() string {
	return "cuda: the PTX generator cannot compile " + e.what + " yet"
}

func unsupported(format string, a ...any) error {
	return &errUnsupported{what: fmt.Sprintf(format, a...)}
}

// ctype is the PTX type a dtype computes in.
func ctype(dt trace.DType) (string, error) {
	switch dt {
	case trace.Bool, trace.Uint8, trace.Uint16, trace.Uint32:
		return "u32", nil
	case trace.Int8, trace.Int16, trace.Int32:
		return "s32", nil
	case trace.Int64:
		return "s64", nil
	case trace.Float16, trace.BFloat16, trace.Float32:
		return "f32", nil
	case trace.Float64:
		return "f64", nil
	}
	return "", unsupported("dtype %s", dt)
}

func regKindOf(dt trace.DType) regKind {
	switch dt {
	case trace.Int64:
		return rB64
	case trace.Float16, trace.BFloat16, trace.Float32:
		return rF32
	case trace.Float64:
		return rF64
	}
	return rB32
}

// bits is the register width of a dtype's ctype ("b32" or "b64").
func bitsType(dt trace.DType) string {
	switch regKindOf(dt) {
	case rB64, rF64:
		return "b64"
	}
	return "b32"
}

func isHalf(dt trace.DType) bool { return dt == trace.Float16 || dt == trace.BFloat16 }

// memType is the type of a load or store of dt.
func memType(dt trace.DType) string {
	switch dt {
	case trace.Bool, trace.Uint8:
		return "u8"
	case trace.Int8:
		return "s8"
	case trace.Int16:
		return "s16"
	case trace.Uint16, trace.Float16, trace.BFloat16:
		return "u16"
	case trace.Int32:
		return "s32"
	case trace.Uint32:
		return "u32"
	case trace.Int64:
		return "s64"
	case trace.Float32:
		return "f32"
	case trace.Float64:
		return "f64"
	}
	return "?"
}

// load reads element dt at global address addr.
func (b *builder) load(dt trace.DType, addr string) val {
	switch dt {
	case trace.Float16:
		h := b.reg(rB16)
		b.op("ld.global.b16 %s, [%s]", h, addr)
		f := b.reg(rF32)
		b.op("cvt.f32.f16 %s, %s", f, h)
		return val{f, dt}
	case trace.BFloat16:
		r := b.reg(rB32)
		b.op("ld.global.u16 %s, [%s]", r, addr)
		b.op("shl.b32 %s, %s, 16", r, r)
		f := b.reg(rF32)
		b.op("mov.b32 %s, %s", f, r)
		return val{f, dt}
	case trace.Bool:
		r := b.reg(rB32)
		b.op("ld.global.u8 %s, [%s]", r, addr)
		return val{r, dt}
	}
	r := b.reg(regKindOf(dt))
	b.op("ld.global.%s %s, [%s]", memType(dt), r, addr)
	return val{r, dt}
}

// store writes v (of its dtype) at global address addr.
func (b *builder) store(v val, addr string) {
	switch v.dt {
	case trace.Float16:
		h := b.reg(rB16)
		b.op("cvt.rn.f16.f32 %s, %s", h, v.r)
		b.op("st.global.b16 [%s], %s", addr, h)
		return
	case trace.BFloat16:
		r := b.bf16Bits(v.r)
		b.op("st.global.u16 [%s], %s", addr, r)
		return
	}
	b.op("st.global.%s [%s], %s", memType(v.dt), addr, v.r)
}

// bf16Bits rounds an f32 register to bfloat16 (nearest even; nan stays a
// quiet nan) and returns the 16 bits in the low half of a b32 register.
func (b *builder) bf16Bits(f string) string {
	x, t, r := b.reg(rB32), b.reg(rB32), b.reg(rB32)
	p := b.reg(rPred)
	b.op("mov.b32 %s, %s", x, f)
	b.op("shr.u32 %s, %s, 16", t, x)
	b.op("and.b32 %s, %s, 1", t, t)
	b.op("add.u32 %s, %s, 32767", t, t)
	b.op("add.u32 %s, %s, %s", r, x, t)
	b.op("shr.u32 %s, %s, 16", r, r)
	b.op("testp.notanumber.f32 %s, %s", p, f)
	b.op("shr.u32 %s, %s, 16", t, x)
	b.op("or.b32 %s, %s, 64", t, t) // quiet the nan, keep its sign
	b.op("selp.b32 %s, %s, %s, %s", r, t, r, p)
	return r
}

// roundHalf rounds an f32 register holding a float16 or bfloat16 result
// to that format, in place.
func (b *builder) roundHalf(dt trace.DType, f string) {
	switch dt {
	case trace.Float16:
		h := b.reg(rB16)
		b.op("cvt.rn.f16.f32 %s, %s", h, f)
		b.op("cvt.f32.f16 %s, %s", f, h)
	case trace.BFloat16:
		r := b.bf16Bits(f)
		b.op("shl.b32 %s, %s, 16", r, r)
		b.op("mov.b32 %s, %s", f, r)
	}
}

// normalize brings a freshly computed value back into its dtype's range:
// narrow integers wrap (sign- or zero-extended again), bool is 0 or 1,
// 16-bit floats are rounded.
func (b *builder) normalize(v val) val {
	switch v.dt {
	case trace.Int8:
		b.op("cvt.s32.s8 %s, %s", v.r, v.r)
	case trace.Int16:
		b.op("cvt.s32.s16 %s, %s", v.r, v.r)
	case trace.Uint8:
		b.op("and.b32 %s, %s, 255", v.r, v.r)
	case trace.Uint16:
		b.op("and.b32 %s, %s, 65535", v.r, v.r)
	case trace.Bool:
		b.op("and.b32 %s, %s, 1", v.r, v.r)
	case trace.Float16, trace.BFloat16:
		b.roundHalf(v.dt, v.r)
	}
	return v
}

// constant materialises a scalar of dtype dt in a register. x is a bool,
// int64, float64 (or complex128, refused).
func (b *builder) constant(x any, dt trace.DType) (val, error) {
	r := b.reg(regKindOf(dt))
	switch dt {
	case trace.Float32, trace.Float16, trace.BFloat16:
		f, ok := toFloat(x)
		if !ok {
			return val{}, unsupported("literal %v of %s", x, dt)
		}
		f32 := float32(f)
		// A 16-bit literal holds a value of its format already; round
		// it the way the kernels round results.
		b.op("mov.f32 %s, %s", r, f32Imm(f32))
		v := val{r, dt}
		if isHalf(dt) {
			b.roundHalf(dt, r)
		}
		return v, nil
	case trace.Float64:
		f, ok := toFloat(x)
		if !ok {
			return val{}, unsupported("literal %v of %s", x, dt)
		}
		b.op("mov.f64 %s, %s", r, f64Imm(f))
		return val{r, dt}, nil
	}
	i, ok := toInt(x)
	if !ok {
		return val{}, unsupported("literal %v of %s", x, dt)
	}
	if dt == trace.Int64 {
		b.op("mov.b64 %s, %d", r, i)
	} else {
		b.op("mov.b32 %s, %d", r, int32(i))
	}
	return b.normalize(val{r, dt}), nil
}

func toFloat(x any) (float64, bool) {
	switch x := x.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// f32Imm and f64Imm write float immediates in PTX's exact hex forms.
func f32Imm(f float32) string { return fmt.Sprintf("0f%08X", math.Float32bits(f)) }
func f64Imm(f float64) string { return fmt.Sprintf("0d%016X", math.Float64bits(f)) }

// fImm writes f as an immediate of the float ctype t ("f32" or "f64").
func fImm(t string, f float64) string {
	if t == "f64" {
		return f64Imm(f)
	}
	return f32Imm(float32(f))
}

// module joins kernels into one PTX module.
func module(kernels []string) string {
	var s strings.Builder
	s.WriteString(ptxHeader)
	for _, k := range kernels {
		s.WriteByte('\n')
		s.WriteString(k)
	}
	return s.String()
}
