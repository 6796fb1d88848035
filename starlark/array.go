package starlark

import (
	"fmt"
	"strings"

	"github.com/jaxsh/jaxsh/internal/arrayfmt"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Array is the Starlark value of a jaxsh array: immutable, n-dimensional,
// stored on one device. Its aval carries the weak-type flag of JAX's
// promotion rules (a Python scalar turned array), which text never shows.
type Array struct {
	aval trace.AVal
	buf  jit.Buffer // nil for a traced array and a pending one
	tr   *tracer    // set for a traced array (see tracer.go)
	// fut is set for a result of a program still running or queued
	// (async.go): its buffer is fut.outs[futIndex] once fut is done.
	fut *pending
	// donatedTo names the jitted function this array's buffer was donated
	// to (donate_argnums): the array is deleted and its buffer may hold
	// that call's results. Nil for a live array. (A pointer and an int32
	// index keep an Array in 80 bytes: eager results are made per op.)
	donatedTo *string
	futIndex  int32
	// shared marks an array whose buffer another array may also hold (an
	// eager or jitted result returned its operand's buffer, or a trace
	// captured it): donating it donates a copy, so the other stays intact.
	shared bool
}

var (
	_ starlark.Value      = (*Array)(nil)
	_ starlark.HasAttrs   = (*Array)(nil)
	_ starlark.HasBinary  = (*Array)(nil)
	_ starlark.HasUnary   = (*Array)(nil)
	_ starlark.Mapping    = (*Array)(nil)
	_ starlark.Sequence   = (*Array)(nil)
	_ starlark.Sliceable  = (*Array)(nil)
	_ starlark.Comparable = (*Array)(nil)
	_ HasMatmul           = (*Array)(nil)
)

// NewArray is a concrete array holding buf.
func NewArray(buf jit.Buffer) *Array { return &Array{aval: buf.AVal(), buf: buf} }

// AVal is the array's abstract value: shape, dtype and weak type.
func (a *Array) AVal() trace.AVal { return a.aval }

// Buffer is the array's device storage, once the computation producing it
// has finished (it waits); nil for a traced array. A failed computation's
// error is returned.
func (a *Array) Buffer() (jit.Buffer, error) { return a.buffer() }

// Device is the device that holds the array (for a traced array, the
// device its computation is placed on).
func (a *Array) Device() jit.Device {
	if a.tr != nil {
		return a.tr.ts.Device
	}
	if a.fut != nil {
		return a.fut.fut.Device()
	}
	return a.buf.Device()
}

// live reports a deleted array: one whose buffer was donated to a jitted
// function. Every read of an array's buffer (operations, jit arguments,
// host reads, constants captured by a trace) checks it first.
func (a *Array) live() error {
	if a.donatedTo != nil {
		return fmt.Errorf("Array has been deleted: it was donated to %s", *a.donatedTo)
	}
	return nil
}

// Shape, DType, NDim and Size are those of the array's abstract value.
func (a *Array) Shape() trace.Shape { return a.aval.Shape }
func (a *Array) DType() trace.DType { return a.aval.DType }
func (a *Array) NDim() int          { return len(a.aval.Shape) }
func (a *Array) Size() int          { return a.aval.Size() }

func (a *Array) Type() string { return "Array" }
func (a *Array) Freeze()      {} // arrays are immutable

func (a *Array) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: Array")
}

// String is JAX's repr: Array([1., 2.], dtype=float32); a traced array
// prints as Traced<float32[3]>.
func (a *Array) String() string {
	if a.tr != nil {
		return "Traced<" + a.aval.LongString() + ">"
	}
	if a.aval.DType == trace.Float0 {
		return "Array(" + float0Text(a.aval.Shape, ", ", len("Array(")) + ", dtype=float0)"
	}
	h, err := a.host()
	if err != nil {
		return a.unreadable(err)
	}
	return arrayfmt.Repr(h, PrintOptions())
}

// Str is NumPy's str(x), what print(x) shows: [1. 2.].
func (a *Array) Str() string {
	if a.tr != nil {
		return "Traced<" + a.aval.LongString() + ">"
	}
	if a.aval.DType == trace.Float0 {
		return float0Text(a.aval.Shape, " ", 0)
	}
	h, err := a.host()
	if err != nil {
		return a.unreadable(err)
	}
	return arrayfmt.Str(h, PrintOptions())
}

// unreadable is the text of an array whose values cannot be read. When the
// computation producing it failed, that failure is the error of the
// statement reading it (str, repr, formatting), raised through the running
// thread as Truth's errors are, since String cannot return one.
func (a *Array) unreadable(err error) string {
	failThread(err.Error()) // a failed computation, a donated array: JAX raises

	return fmt.Sprintf("<Array %s: %v>", a.aval.LongString(), err)
}

// Truth follows NumPy: a size-1 array is its value; any other size has no
// truth value. Truth cannot return an error, so that case cancels the thread
// (see truth.go) and reports False.
func (a *Array) Truth() starlark.Bool {
	if a.tr != nil {
		return failTruth(fmt.Sprintf("ConcretizationError: the truth value of the traced value %s is not known while tracing %s "+
			"(an if, while, and, or or not on an array inside jit); use lax.cond or jnp.where to choose by a traced value",
			a.aval.LongString(), a.tr.ts.name))
	}
	if a.Size() != 1 {
		return failTruth(fmt.Sprintf("truth value of an array with %s is ambiguous. Use a.any() or a.all()", pluralElements(a.Size())))
	}
	v, err := a.ScalarValue(0)
	if err != nil {
		return failTruth(err.Error())
	}
	return v.Truth()
}

func pluralElements(n int) string {
	if n == 0 {
		return "no elements"
	}
	return "more than one element"
}

// Len is the length of the first axis (an error for 0-d arrays: see Len's
// callers; Starlark's len() checks Len() < 0 as "no len").
func (a *Array) Len() int {
	if a.NDim() == 0 {
		return -1
	}
	return a.Shape()[0]
}

// Iterate walks the first axis: for row in x.
func (a *Array) Iterate() starlark.Iterator {
	return &rowIterator{a: a}
}

type rowIterator struct {
	a *Array
	i int
}

func (it *rowIterator) Next(p *starlark.Value) bool {
	if it.a.NDim() == 0 {
		// Next cannot fail: the error goes through the thread, as Truth's.
		failThread("TypeError: iteration over a 0-d array")
		return false
	}
	if it.i >= it.a.Shape()[0] {
		return false
	}
	row, err := it.a.GetItem(starlark.MakeInt(it.i))
	if err != nil {
		failThread(err.Error())
		return false
	}
	it.i++
	*p = row
	return true
}

func (it *rowIterator) Done() {}

// CompareSameType serves Starlark's own equality (list membership, ==
// between containers holding arrays): two arrays are equal when shapes,
// dtypes and elements are. The dialect's == on arrays is elementwise and
// never gets here.
func (a *Array) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	b := y.(*Array)
	switch op {
	case syntax.EQL, syntax.NEQ:
		eq, err := arraysEqual(a, b)
		return eq == (op == syntax.EQL), err
	}
	return false, fmt.Errorf("arrays are not ordered: %s %s %s", a.aval.LongString(), op, b.aval.LongString())
}

func arraysEqual(a, b *Array) (bool, error) {
	if a.DType() != b.DType() || !a.Shape().Equal(b.Shape()) {
		return false, nil
	}
	for _, x := range []*Array{a, b} {
		if x.tr != nil {
			return false, concretizationError(x, "comparing arrays with Starlark's ==")
		}
	}
	ha, err := a.hostBytes("==")
	if err != nil {
		return false, err
	}
	hb, err := b.hostBytes("==")
	if err != nil {
		return false, err
	}
	return string(ha) == string(hb), nil
}

// Describe is the short text error messages use for an operand:
// float32[3,4] for arrays, the type for anything else.
func Describe(v starlark.Value) string {
	if a, ok := v.(*Array); ok {
		return a.aval.LongString()
	}
	return v.Type()
}

// DescribeAll is Describe of each value, comma-separated.
func DescribeAll(vs ...starlark.Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = Describe(v)
	}
	return strings.Join(parts, ", ")
}
