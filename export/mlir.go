package export

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// MLIRModule prints the program as a StableHLO module in MLIR's generic
// form, which MLIR's parser reads without knowing the dialects
// (mlir-opt --allow-unregistered-dialect) and XLA's tools consume.
//
// main follows JAX's calling convention version 9: a platform index
// (i32, unused: nothing lowers differently per platform) first when the
// artifact lists several platforms, then one !stablehlo.token per ordered
// effect, then the array inputs; it returns the tokens, then the outputs.
// Captured constants are embedded as stablehlo.constant. Control flow
// becomes stablehlo.case and stablehlo.while, nested jits are inlined, and
// host operations are custom calls named jaxsh.debug_print, jaxsh.id_tap
// and jaxsh.call with the callback's name (or the format) in
// backend_config, threading tokens when ordered. Functions of CHLO (XLA's
// client ops: asin, erf, ...) are written as chlo ops, as JAX writes them.
// A primitive without a StableHLO counterpart here is an error naming it.
func (e *Exported) MLIRModule() (string, error) {
	w := &mlirWriter{}
	var sig, argTypes, resTypes []string
	var argAttrs []string // one dictionary per argument, when any has attributes
	if len(e.Platforms) > 1 {
		sig = append(sig, "%platform_index: tensor<i32>")
		argTypes = append(argTypes, "tensor<i32>")
		argAttrs = append(argAttrs, `{jax.global_constant = "_platform_index"}`)
	}
	tokens := map[string]value{}
	for _, eff := range e.OrderedEffects {
		v := value{name: w.fresh(), typ: tokenType}
		tokens[eff.Kind] = v
		sig = append(sig, v.name+": "+tokenType)
		argTypes = append(argTypes, tokenType)
		resTypes = append(resTypes, tokenType)
	}
	j := e.Jaxpr
	var args []value
	body := &strings.Builder{}
	w.out = body
	w.indent = "    "
	for i, v := range j.ConstVars {
		c, err := w.constant(v.Aval(), j.Consts[i])
		if err != nil {
			return "", fmt.Errorf("mlir_module: constant %d: %w", i, err)
		}
		args = append(args, c)
	}
	for _, v := range j.InVars {
		a := value{name: w.fresh(), typ: tensorType(v.Aval())}
		sig = append(sig, a.name+": "+a.typ)
		argTypes = append(argTypes, a.typ)
		args = append(args, a)
	}
	outs, err := w.jaxpr(j, args, tokens)
	if err != nil {
		return "", fmt.Errorf("mlir_module: %w", err)
	}
	var rets []value
	for _, eff := range e.OrderedEffects {
		rets = append(rets, tokens[eff.Kind])
	}
	for _, o := range outs {
		rets = append(rets, o)
		resTypes = append(resTypes, o.typ)
	}
	w.op("func.return", rets, "", nil)

	var m strings.Builder
	m.WriteString("\"builtin.module\"() ({\n")
	props := ""
	if len(argAttrs) > 0 {
		for len(argAttrs) < len(argTypes) {
			argAttrs = append(argAttrs, "{}")
		}
		props = "arg_attrs = [" + strings.Join(argAttrs, ", ") + "], "
	}
	fmt.Fprintf(&m, "  \"func.func\"() <{%sfunction_type = (%s) -> (%s), sym_name = \"main\", sym_visibility = \"public\"}> ({\n",
		props, strings.Join(argTypes, ", "), strings.Join(resTypes, ", "))
	fmt.Fprintf(&m, "  ^bb0(%s):\n", strings.Join(sig, ", "))
	m.WriteString(body.String())
	m.WriteString("  }) : () -> ()\n")
	fmt.Fprintf(&m, "}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32, sym_name = %s} : () -> ()\n",
		mlirString("jit_"+e.FunName))
	return m.String(), nil
}

const tokenType = "!stablehlo.token"

// A value is an SSA value and its MLIR type.
type value struct{ name, typ string }

type mlirWriter struct {
	out    *strings.Builder
	indent string
	next   int
}

func (w *mlirWriter) fresh() string {
	w.next++
	return "%" + strconv.Itoa(w.next-1)
}

// op writes one operation in generic form and returns its results.
// regions, when given, writes the op's regions between its parentheses.
func (w *mlirWriter) op(name string, operands []value, attrs string, results []string, regions ...func() error) ([]value, error) {
	var out []value
	var b strings.Builder
	b.WriteString(w.indent)
	if len(results) > 0 {
		base := w.fresh()
		if len(results) == 1 {
			out = []value{{name: base, typ: results[0]}}
			b.WriteString(base + " = ")
		} else {
			for i, t := range results {
				out = append(out, value{name: base + "#" + strconv.Itoa(i), typ: t})
			}
			b.WriteString(base + ":" + strconv.Itoa(len(results)) + " = ")
		}
	}
	names, types := make([]string, len(operands)), make([]string, len(operands))
	for i, o := range operands {
		names[i], types[i] = o.name, o.typ
	}
	fmt.Fprintf(&b, "%q(%s)", name, strings.Join(names, ", "))
	w.out.WriteString(b.String())
	if len(regions) > 0 {
		w.out.WriteString(" (")
		for i, r := range regions {
			if i > 0 {
				w.out.WriteString(", ")
			}
			w.out.WriteString("{\n")
			outer := w.indent
			w.indent += "  "
			err := r()
			w.indent = outer
			if err != nil {
				return nil, err
			}
			w.out.WriteString(w.indent + "}")
		}
		w.out.WriteString(")")
	}
	if attrs != "" {
		w.out.WriteString(" {" + attrs + "}")
	}
	res := "(" + strings.Join(results, ", ") + ")"
	if len(results) == 1 {
		res = results[0]
	}
	fmt.Fprintf(w.out, " : (%s) -> %s\n", strings.Join(types, ", "), res)
	return out, nil
}

// op1 writes an op with one result and no regions.
func (w *mlirWriter) op1(name string, operands []value, attrs string, result string) value {
	out, _ := w.op(name, operands, attrs, []string{result})
	return out[0]
}

// block starts a region's block with fresh arguments of the given types.
func (w *mlirWriter) block(types []string) []value {
	args := make([]value, len(types))
	decl := make([]string, len(types))
	for i, t := range types {
		args[i] = value{name: w.fresh(), typ: t}
		decl[i] = args[i].name + ": " + t
	}
	fmt.Fprintf(w.out, "%s^bb0(%s):\n", w.indent[:len(w.indent)-2], strings.Join(decl, ", "))
	return args
}

func tensorType(a trace.AVal) string {
	if a.IsToken() {
		return tokenType
	}
	var b strings.Builder
	b.WriteString("tensor<")
	for _, d := range a.Shape {
		b.WriteString(strconv.Itoa(d) + "x")
	}
	b.WriteString(elementType(a.DType) + ">")
	return b.String()
}

func elementType(d trace.DType) string {
	switch {
	case d == trace.Bool:
		return "i1"
	case d.IsSigned():
		return "i" + strconv.Itoa(d.Bits())
	case d.IsUnsigned():
		return "ui" + strconv.Itoa(d.Bits())
	case d == trace.BFloat16:
		return "bf16"
	case d.IsFloat():
		return "f" + strconv.Itoa(d.Bits())
	case d.IsComplex():
		return "complex<" + elementType(d.ComplexPart()) + ">"
	}
	return "none"
}

// mlirString quotes s as an MLIR string literal.
func mlirString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			fmt.Fprintf(&b, "\\%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func i64Array(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	if len(parts) == 0 {
		return "array<i64>"
	}
	return "array<i64: " + strings.Join(parts, ", ") + ">"
}

func intList(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// constant embeds a captured array as a stablehlo.constant with its raw
// little-endian bytes.
func (w *mlirWriter) constant(a trace.AVal, payload any) (value, error) {
	var data []byte
	switch c := payload.(type) {
	case *Constant:
		data = c.Data
	case jit.Buffer:
		var err error
		if data, err = jit.ToHost(c); err != nil {
			return value{}, err
		}
	default:
		return value{}, fmt.Errorf("a constant of type %T", payload)
	}
	t := tensorType(a)
	dense := `dense<"0x` + strings.ToUpper(hex.EncodeToString(data)) + `">`
	if len(data) == 0 {
		dense = "dense<[]>"
	}
	return w.op1("stablehlo.constant", nil, "value = "+dense+" : "+t, t), nil
}

// scalar writes a 0-d constant of dtype dt with the value v (bool,
// int64, float64 or complex128).
func (w *mlirWriter) scalar(dt trace.DType, v any) value {
	t := tensorType(trace.AVal{Shape: trace.Shape{}, DType: dt})
	return w.op1("stablehlo.constant", nil, "value = dense<"+scalarText(dt, v)+"> : "+t, t)
}

func scalarText(dt trace.DType, v any) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int64:
		if dt.IsFloat() || dt.IsComplex() {
			return scalarText(dt, float64(x))
		}
		return strconv.FormatInt(x, 10)
	case float64:
		if dt.IsComplex() {
			return scalarText(dt, complex(x, 0))
		}
		return floatText(dt, x)
	case complex128:
		part := dt.ComplexPart()
		return "(" + floatDecimal(part, real(x)) + ", " + floatDecimal(part, imag(x)) + ")"
	}
	return "0"
}

// floatText writes a float by its bits, exact for every value and for
// NaN and infinities.
func floatText(dt trace.DType, x float64) string {
	switch dt {
	case trace.Float64:
		return fmt.Sprintf("0x%016X", math.Float64bits(x))
	case trace.Float32:
		return fmt.Sprintf("0x%08X", math.Float32bits(float32(x)))
	}
	return floatDecimal(dt, x)
}

func floatDecimal(dt trace.DType, x float64) string {
	bits := 64
	if dt.Bits() <= 32 {
		bits = 32
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return floatText(trace.Float64, x)
	}
	s := strconv.FormatFloat(x, 'e', -1, bits)
	if mant, exp, ok := strings.Cut(s, "e"); ok && !strings.Contains(mant, ".") {
		s = mant + ".0e" + exp // MLIR's float literals need the point
	}
	return s
}

// broadcastTo broadcasts an operand of an elementwise op to the result's
// shape (scalars and size-1 dimensions), as lax's rules allow and
// StableHLO's elementwise ops do not.
func (w *mlirWriter) broadcastTo(v value, from trace.AVal, shape trace.Shape) value {
	if from.Shape.Equal(shape) || from.IsToken() {
		return v
	}
	var dims []int
	if len(from.Shape) == len(shape) {
		dims = trace.AllAxes(len(shape))
	}
	return w.op1("stablehlo.broadcast_in_dim", []value{v}, "broadcast_dimensions = "+i64Array(dims),
		tensorType(from.WithShape(shape)))
}
