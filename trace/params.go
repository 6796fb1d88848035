package trace

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Params are an equation's static parameters, by name. Each primitive
// declares the params it takes and their kinds (see ParamSpec); Bind checks
// them before the shape rule runs, so rules read them with the typed getters
// below. Params must not be modified once bound.
//
// Values are Go values of the kind's type; nil stands for Python's None
// where the spec allows it.
type Params map[string]any

// ParamKind says what Go type a param value has, and how it prints.
type ParamKind uint8

// The param kinds. Each comment gives the Go type and the printed form.
const (
	ParamBool        ParamKind = iota + 1 // bool: True
	ParamInt                              // int: 3
	ParamNumber                           // bool, int or float64: a scalar such as a fill value
	ParamString                           // string: 'x: {}' (quoted, as Python's repr)
	ParamIdent                            // Ident: f (bare, for names such as a jitted function's)
	ParamDType                            // DType: float32
	ParamInts                             // []int: (0, 1)
	ParamAVals                            // []AVal: (ShapedArray(float32[3]),)
	ParamJaxpr                            // *Jaxpr: printed as a nested jaxpr
	ParamJaxprs                           // []*Jaxpr: a parenthesised sequence of nested jaxprs
	ParamDotDims                          // DotDimensionNumbers: (([1], [0]), ([], []))
	ParamGatherDims                       // GatherDimensionNumbers
	ParamScatterDims                      // ScatterDimensionNumbers
	ParamGatherMode                       // GatherScatterMode: GatherScatterMode.CLIP
	ParamPadding                          // PaddingConfig: ((1, 2, 0),)
	ParamPrecision                        // PrecisionConfig: (Precision.HIGHEST, Precision.HIGHEST)
	ParamRounding                         // RoundingMethod: 1
	ParamCallback                         // Callback: as its CallbackName says
	ParamTransforms                       // Transforms: (('batch', {'batch_dims': (0, None)}),)
)

var paramKindNames = map[ParamKind]string{
	ParamBool: "bool", ParamInt: "int", ParamNumber: "number", ParamString: "string",
	ParamIdent: "Ident", ParamDType: "DType", ParamInts: "[]int", ParamAVals: "[]AVal",
	ParamJaxpr: "*Jaxpr", ParamJaxprs: "[]*Jaxpr", ParamDotDims: "DotDimensionNumbers",
	ParamGatherDims: "GatherDimensionNumbers", ParamScatterDims: "ScatterDimensionNumbers",
	ParamGatherMode: "GatherScatterMode", ParamPadding: "PaddingConfig",
	ParamPrecision: "PrecisionConfig", ParamRounding: "RoundingMethod", ParamCallback: "Callback",
	ParamTransforms: "Transforms",
}

func (k ParamKind) String() string { return paramKindNames[k] }

// A ParamSpec declares one param of a primitive. Optional params may hold
// nil (None); every declared param must be present, except Omissible ones,
// which transformations add (id_tap's transforms under vmap) and which a
// jaxpr without them does not print.
type ParamSpec struct {
	Name      string
	Kind      ParamKind
	Optional  bool
	Omissible bool
}

// accepts reports whether v is a value of kind k.
func (k ParamKind) accepts(v any) bool {
	switch k {
	case ParamBool:
		return is[bool](v)
	case ParamInt:
		return is[int](v)
	case ParamNumber:
		return is[bool](v) || is[int](v) || is[float64](v)
	case ParamString:
		return is[string](v)
	case ParamIdent:
		return is[Ident](v)
	case ParamDType:
		d, ok := v.(DType)
		return ok && d.Valid()
	case ParamInts:
		return is[[]int](v)
	case ParamAVals:
		return is[[]AVal](v)
	case ParamJaxpr:
		j, ok := v.(*Jaxpr)
		return ok && j != nil
	case ParamJaxprs:
		js, ok := v.([]*Jaxpr)
		return ok && !slices.Contains(js, nil)
	case ParamDotDims:
		return is[DotDimensionNumbers](v)
	case ParamGatherDims:
		return is[GatherDimensionNumbers](v)
	case ParamScatterDims:
		return is[ScatterDimensionNumbers](v)
	case ParamGatherMode:
		m, ok := v.(GatherScatterMode)
		return ok && m.valid()
	case ParamPadding:
		return is[PaddingConfig](v)
	case ParamPrecision:
		c, ok := v.(PrecisionConfig)
		return ok && c[0].valid() && c[1].valid()
	case ParamRounding:
		r, ok := v.(RoundingMethod)
		return ok && (r == RoundAwayFromZero || r == RoundToNearestEven)
	case ParamCallback:
		c, ok := v.(Callback)
		return ok && c != nil
	case ParamTransforms:
		return is[Transforms](v)
	}
	return false
}

func is[T any](v any) bool { _, ok := v.(T); return ok }

// checkParams validates params against the specs: every spec present with a value
// of its kind, nothing undeclared.
func checkParams(specs []ParamSpec, p Params) error {
	for _, s := range specs {
		v, ok := p[s.Name]
		switch {
		case !ok && s.Omissible:
		case !ok:
			return fmt.Errorf("missing param %s", s.Name)
		case v == nil && s.Optional:
		case v == nil:
			return fmt.Errorf("param %s must not be None", s.Name)
		case !s.Kind.accepts(v):
			return fmt.Errorf("param %s must be a %s, got %T", s.Name, s.Kind, v)
		}
	}
	if len(p) > len(specs) {
		for name := range p {
			if !slices.ContainsFunc(specs, func(s ParamSpec) bool { return s.Name == name }) {
				return fmt.Errorf("unknown param %s", name)
			}
		}
	}
	return nil
}

// ParamAs returns the param called name as a T, and whether it is one.
func ParamAs[T any](p Params, name string) (T, bool) {
	v, ok := p[name].(T)
	return v, ok
}

// Bool is a bool param (false if absent).
func (p Params) Bool(name string) bool { v, _ := ParamAs[bool](p, name); return v }

// Int is an int param (0 if absent).
func (p Params) Int(name string) int { v, _ := ParamAs[int](p, name); return v }

// Ints is a tuple-of-ints param (nil if absent or None).
func (p Params) Ints(name string) []int { v, _ := ParamAs[[]int](p, name); return v }

// Str is a string param ("" if absent).
func (p Params) Str(name string) string { v, _ := ParamAs[string](p, name); return v }

// DType is a dtype param (InvalidDType if absent or None).
func (p Params) DType(name string) DType { v, _ := ParamAs[DType](p, name); return v }

// Jaxpr is a nested-jaxpr param (nil if absent).
func (p Params) Jaxpr(name string) *Jaxpr { v, _ := ParamAs[*Jaxpr](p, name); return v }

// sortedNames lists the param names in the order jaxpr text shows them:
// first those in the primitive's leading list, then the rest by name.
func (p Params) sortedNames(leading []string) []string {
	names := make([]string, 0, len(p))
	for _, l := range leading {
		if _, ok := p[l]; ok {
			names = append(names, l)
		}
	}
	rest := make([]string, 0, len(p))
	for name := range p {
		if !slices.Contains(leading, name) {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// paramRepr prints a param value that is not a jaxpr, in Python syntax.
func paramRepr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		return pyBool(x)
	case int:
		return strconv.Itoa(x)
	case float64:
		return pyFloat(x)
	case string:
		return pyString(x)
	case Ident:
		return string(x)
	case DType:
		return x.Name()
	case RoundingMethod:
		return strconv.Itoa(int(x))
	case []int:
		return pyIntTuple(x)
	case []AVal:
		items := make([]string, len(x))
		for i, a := range x {
			items[i] = a.pyRepr()
		}
		return pyTuple(items)
	case Callback:
		return x.CallbackName()
	case interface{ pyRepr() string }:
		return x.pyRepr()
	}
	return fmt.Sprintf("<%T>", v)
}

// An Ident is a string param that prints bare, as JAX prints a function's
// name: jit[name=f ...].
type Ident string

// A Callback is a host function that an effectful equation calls (id_tap,
// call). The dialect and the embedding API supply their own; the IR only
// prints its name.
type Callback interface {
	CallbackName() string
}

// A Transform is one transformation that a tapped value went through, as
// id_tap's tap function receives it in its transforms list: under vmap,
// ("batch", {"batch_dims": (0, None)}), one batch axis per tapped operand
// (NotBatched, printed None, for an operand the batch does not change).
type Transform struct {
	Name      string
	BatchDims []int
}

// Transforms lists the transformations, innermost first.
type Transforms []Transform

func (ts Transforms) pyRepr() string {
	items := make([]string, len(ts))
	for i, t := range ts {
		dims := make([]string, len(t.BatchDims))
		for k, d := range t.BatchDims {
			dims[k] = "None"
			if d != NotBatched {
				dims[k] = strconv.Itoa(d)
			}
		}
		items[i] = "(" + pyString(t.Name) + ", {'batch_dims': " + pyTuple(dims) + "})"
	}
	return pyTuple(items)
}

// DotDimensionNumbers are dot_general's contracting and batch dimensions.
type DotDimensionNumbers struct {
	LhsContracting, RhsContracting []int
	LhsBatch, RhsBatch             []int
}

func (d DotDimensionNumbers) pyRepr() string {
	return fmt.Sprintf("((%s, %s), (%s, %s))", pyIntList(d.LhsContracting), pyIntList(d.RhsContracting),
		pyIntList(d.LhsBatch), pyIntList(d.RhsBatch))
}

// GatherDimensionNumbers follow XLA's and JAX's: the index vector is always
// the last dimension of the indices.
type GatherDimensionNumbers struct {
	OffsetDims               []int
	CollapsedSliceDims       []int
	StartIndexMap            []int
	OperandBatchingDims      []int
	StartIndicesBatchingDims []int
}

func (g GatherDimensionNumbers) pyRepr() string {
	return fmt.Sprintf("GatherDimensionNumbers(offset_dims=%s, collapsed_slice_dims=%s, start_index_map=%s, operand_batching_dims=%s, start_indices_batching_dims=%s)",
		pyIntTuple(g.OffsetDims), pyIntTuple(g.CollapsedSliceDims), pyIntTuple(g.StartIndexMap),
		pyIntTuple(g.OperandBatchingDims), pyIntTuple(g.StartIndicesBatchingDims))
}

// ScatterDimensionNumbers follow XLA's and JAX's: the index vector is always
// the last dimension of the indices.
type ScatterDimensionNumbers struct {
	UpdateWindowDims           []int
	InsertedWindowDims         []int
	ScatterDimsToOperandDims   []int
	OperandBatchingDims        []int
	ScatterIndicesBatchingDims []int
}

func (s ScatterDimensionNumbers) pyRepr() string {
	return fmt.Sprintf("ScatterDimensionNumbers(update_window_dims=%s, inserted_window_dims=%s, scatter_dims_to_operand_dims=%s, operand_batching_dims=%s, scatter_indices_batching_dims=%s)",
		pyIntTuple(s.UpdateWindowDims), pyIntTuple(s.InsertedWindowDims), pyIntTuple(s.ScatterDimsToOperandDims),
		pyIntTuple(s.OperandBatchingDims), pyIntTuple(s.ScatterIndicesBatchingDims))
}

// GatherScatterMode says what out-of-bounds indices do.
type GatherScatterMode uint8

const (
	// GatherClip clamps indices so the whole window is in bounds.
	GatherClip GatherScatterMode = iota + 1
	// GatherFillOrDrop fills out-of-bounds gathered windows with the fill
	// value and drops out-of-bounds scattered windows.
	GatherFillOrDrop
	// GatherPromiseInBounds trusts the indices (gathers clamp, scatters drop).
	GatherPromiseInBounds
)

func (m GatherScatterMode) valid() bool { return m >= GatherClip && m <= GatherPromiseInBounds }

func (m GatherScatterMode) pyRepr() string {
	switch m {
	case GatherClip:
		return "GatherScatterMode.CLIP"
	case GatherFillOrDrop:
		return "GatherScatterMode.FILL_OR_DROP"
	case GatherPromiseInBounds:
		return "GatherScatterMode.PROMISE_IN_BOUNDS"
	}
	return "GatherScatterMode(" + strconv.Itoa(int(m)) + ")"
}

// PadDim is the padding of one dimension: Lo and Hi elements at the ends
// (negative values cut), Interior elements between neighbours.
type PadDim struct{ Lo, Hi, Interior int }

// PaddingConfig is pad's per-dimension padding.
type PaddingConfig []PadDim

func (c PaddingConfig) pyRepr() string {
	items := make([]string, len(c))
	for i, d := range c {
		items[i] = pyIntTuple([]int{d.Lo, d.Hi, d.Interior})
	}
	return pyTuple(items)
}

// Precision is a matmul precision, as lax.Precision.
type Precision uint8

// The precisions. SPEC §3 makes float32 matmuls full precision whatever is
// asked, so backends may treat them all as Highest.
const (
	PrecisionDefault Precision = iota
	PrecisionHigh
	PrecisionHighest
)

func (p Precision) valid() bool { return p <= PrecisionHighest }

func (p Precision) pyRepr() string {
	return "Precision." + [...]string{"DEFAULT", "HIGH", "HIGHEST"}[p]
}

// PrecisionConfig is dot_general's precision for the lhs and rhs operands.
type PrecisionConfig [2]Precision

func (c PrecisionConfig) pyRepr() string {
	return "(" + c[0].pyRepr() + ", " + c[1].pyRepr() + ")"
}

// RoundingMethod is round's treatment of halfway values; it prints as an
// integer, as lax.RoundingMethod (an IntEnum) does.
type RoundingMethod int

// The rounding methods: lax.round's default, and jnp.round's.
const (
	RoundAwayFromZero  RoundingMethod = 0
	RoundToNearestEven RoundingMethod = 1
)

// String prints params as jaxpr text does, without nested jaxprs' bodies:
// [axes=(0,) index_dtype=int32]. It serves error messages and debugging.
func (p Params) String() string {
	if len(p) == 0 {
		return ""
	}
	var parts []string
	for _, name := range p.sortedNames(nil) {
		v := p[name]
		switch v.(type) {
		case *Jaxpr:
			parts = append(parts, name+"={...}")
		case []*Jaxpr:
			parts = append(parts, name+"=(...)")
		default:
			parts = append(parts, name+"="+paramRepr(v))
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}
