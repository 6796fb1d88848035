package batching_test

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"github.com/jaxsh/jaxsh/trace/batching"
)

// Host operations under vmap (SPEC §5): a print or a tap runs once with
// the whole batched value, a tap's transforms gain one batch entry per
// level, and a call follows its vmap_method.

// recorder is a jit.Host that logs what the program's host operations do.
// Its calls double their operand.
type recorder struct {
	log []string
}

func (h *recorder) Print(e *trace.Eqn, args []jit.HostArg) error {
	h.log = append(h.log, fmt.Sprintf("print %s %s", e.Params.Str("fmt"), hostArgs(args)))
	return nil
}

func (h *recorder) Tap(e *trace.Eqn, args []jit.HostArg) error {
	ts, _ := trace.ParamAs[trace.Transforms](e.Params, "transforms")
	h.log = append(h.log, fmt.Sprintf("tap %v %s", ts, hostArgs(args)))
	return nil
}

func (h *recorder) Call(e *trace.Eqn, args []jit.HostArg) ([][]byte, error) {
	h.log = append(h.log, "call "+hostArgs(args))
	res, _ := trace.ParamAs[[]trace.AVal](e.Params, "result_avals")
	x := decode(args[0].AVal, args[0].Data)
	out := value{aval: res[0], data: make([]float64, res[0].Size())}
	if len(x) != len(out.data) {
		return nil, fmt.Errorf("call: result %s for operand %s", res[0], args[0].AVal)
	}
	for i := range x {
		out.data[i] = 2 * x[i]
	}
	return [][]byte{encode(out)}, nil
}

func hostArgs(args []jit.HostArg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = fmt.Sprintf("%s%v", a.AVal, decode(a.AVal, a.Data))
	}
	return strings.Join(parts, " ")
}

type namedCallback string

func (n namedCallback) CallbackName() string { return string(n) }

func TestPrintRunsOncePerBatch(t *testing.T) {
	b := newJB(t)
	x, y := b.in("f32[2]"), b.in("f32[]")
	b.bind("debug_print", trace.Params{"fmt": "x={} y={}", "ordered": true}, x, y)
	j := b.build(x)
	// x batched along its last axis: the print shows it batch-first.
	bj, err := batching.Jaxpr(j, 3, []int{1, trace.NotBatched}, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	h := &recorder{}
	xs := value{av("f32[2,3]"), []float64{1, 2, 3, 4, 5, 6}}
	if _, err := runWith(compile(t, bj), h, []value{xs, {av("f32[]"), []float64{7}}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"print x={} y={} f32[3,2][1 4 2 5 3 6] f32[][7]"}
	if !reflect.DeepEqual(h.log, want) {
		t.Errorf("got %q, want %q", h.log, want)
	}
}

func TestTapTransforms(t *testing.T) {
	b := newJB(t)
	x, c := b.in("f32[2]"), b.in("f32[]")
	y := b.one("mul", nil, x, x)
	outs := b.bind("id_tap", trace.Params{"callback": namedCallback("tap"), "tap_with_device": false}, x, y, c)
	j := b.build(outs[1])
	if strings.Contains(j.String(), "transforms") {
		t.Errorf("an untransformed tap prints transforms:\n%s", j)
	}
	inner, err := batching.Jaxpr(j, 2, []int{0, trace.NotBatched}, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(inner.String(), "transforms=(('batch', {'batch_dims': (0, 0, None)}),)") {
		t.Errorf("batched tap's params:\n%s", inner)
	}
	// vmap of vmap: the outer level batches x along axis 1, c along 0.
	outer, err := batching.Jaxpr(inner, 3, []int{1, 0}, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	h := &recorder{}
	xs := value{av("f32[2,3,2]"), []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}
	if _, err := runWith(compile(t, outer), h, []value{xs, {av("f32[3]"), []float64{-1, -2, -3}}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"tap [{batch [0 0 -1]} {batch [1 1 0]}] f32[2,3,2][1 2 3 4 5 6 7 8 9 10 11 12] f32[2,3,2][1 4 9 16 25 36 49 64 81 100 121 144] f32[3][-1 -2 -3]"}
	if !reflect.DeepEqual(h.log, want) {
		t.Errorf("got %q\nwant %q", h.log, want)
	}
}

func callJaxpr(t *testing.T, method any) *trace.Jaxpr {
	b := newJB(t)
	x, s := b.in("f32[2]"), b.in("f32[]")
	r := b.one("call", trace.Params{"callback": namedCallback("double"), "result_avals": []trace.AVal{av("f32[2]")},
		"call_with_device": false, "ordered": false, "vmap_method": method}, x, s)
	return b.build(r)
}

func TestCallVmapMethods(t *testing.T) {
	xs := value{av("f32[3,2]"), []float64{1, 2, 3, 4, 5, 6}}
	s := value{av("f32[]"), []float64{9}}
	wantOut := []float64{2, 4, 6, 8, 10, 12}
	for _, c := range []struct {
		method string
		log    []string
	}{
		{"sequential", []string{"call f32[2][1 2] f32[][9]", "call f32[2][3 4] f32[][9]", "call f32[2][5 6] f32[][9]"}},
		{"expand_dims", []string{"call f32[3,2][1 2 3 4 5 6] f32[1][9]"}},
		{"broadcast_all", []string{"call f32[3,2][1 2 3 4 5 6] f32[3][9 9 9]"}},
	} {
		bj, err := batching.Jaxpr(callJaxpr(t, c.method), 3, []int{0, trace.NotBatched}, []int{0})
		if err != nil {
			t.Fatal(err)
		}
		h := &recorder{}
		out, err := runWith(compile(t, bj), h, []value{xs, s})
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.method, err, bj)
		}
		if !reflect.DeepEqual(h.log, c.log) || !reflect.DeepEqual(out[0].data, wantOut) {
			t.Errorf("%s: calls %q, result %v; want %q, %v", c.method, h.log, out[0].data, c.log, wantOut)
		}
	}
	_, err := batching.Jaxpr(callJaxpr(t, nil), 3, []int{0, trace.NotBatched}, []int{0})
	if err == nil || !strings.Contains(err.Error(), "call(double) needs vmap_method=") {
		t.Errorf("vmap_method=None: got %v", err)
	}
}

// A while loop whose predicate is batched prints in its condition once per
// evaluation and in its body once per iteration, as unbatched; the loop
// runs until the longest element is done.
func TestBatchedWhilePrintsOncePerIteration(t *testing.T) {
	cond := body(t, []string{"i32[]", "i32[]"}, func(b *jb, in []*trace.Var) []trace.Atom {
		b.bind("debug_print", trace.Params{"fmt": "cond i={}", "ordered": true}, in[1])
		return []trace.Atom{b.one("lt", nil, in[1], in[0])}
	})
	step := body(t, []string{"i32[]"}, func(b *jb, in []*trace.Var) []trace.Atom {
		b.bind("debug_print", trace.Params{"fmt": "body i={}", "ordered": true}, in[0])
		return []trace.Atom{b.one("add", nil, in[0], b.lit(1, trace.Int32))}
	})
	b := newJB(t)
	n, i := b.in("i32[]"), b.in("i32[]")
	outs := b.bind("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 1, "body_jaxpr": step, "body_nconsts": 0}, n, i)
	bj, err := batching.Jaxpr(b.build(outs[0]), 3, []int{0, trace.NotBatched}, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	h := &recorder{}
	out, err := runWith(compile(t, bj), h, []value{{av("i32[3]"), []float64{1, 0, 2}}, {av("i32[]"), []float64{0}}})
	if err != nil {
		t.Fatalf("%v\n%s", err, bj)
	}
	want := []string{
		"print cond i={} i32[3][0 0 0]",
		"print body i={} i32[3][0 0 0]",
		"print cond i={} i32[3][1 0 1]",
		"print body i={} i32[3][1 0 1]",
		"print cond i={} i32[3][1 0 2]",
	}
	if !reflect.DeepEqual(h.log, want) || !reflect.DeepEqual(out[0].data, []float64{1, 0, 2}) {
		t.Errorf("got %q -> %v\nwant %q -> [1 0 2]\n%s", h.log, out[0].data, want, bj)
	}
}

// A batched predicate runs every branch of a cond; a call in a branch is
// refused then, as JAX refuses IO effects in a vmapped cond.
func TestCondWithCallAndBatchedIndex(t *testing.T) {
	br := func(method string) *trace.Jaxpr {
		return body(t, []string{"f32[2]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			return []trace.Atom{b.one("call", trace.Params{"callback": namedCallback("double"), "result_avals": []trace.AVal{av("f32[2]")},
				"call_with_device": false, "ordered": false, "vmap_method": method}, in[0])}
		})
	}
	b := newJB(t)
	idx, x := b.in("i32[]"), b.in("f32[2]")
	outs := b.bind("cond", trace.Params{"branches": []*trace.Jaxpr{br("sequential"), br("sequential")}}, idx, x)
	j := b.build(outs[0])
	if _, err := batching.Jaxpr(j, 3, []int{0, 0}, []int{0}); err == nil || !strings.Contains(err.Error(), "IO effect not supported in vmap-of-cond") {
		t.Errorf("batched index with a call: got %v", err)
	}
	// With the index unbatched the call batches as its vmap_method says.
	bj, err := batching.Jaxpr(j, 3, []int{trace.NotBatched, 0}, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(5))
	h := &recorder{}
	xs := draw(r, operand{aval: av("f32[3,2]")})
	out, err := runWith(compile(t, bj), h, []value{{av("i32[]"), []float64{1}}, xs})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.log) != 3 {
		t.Errorf("sequential call in a cond ran %d times, want 3: %q", len(h.log), h.log)
	}
	for i := range xs.data {
		if out[0].data[i] != 2*xs.data[i] {
			t.Errorf("result %v for %v", out[0].data, xs.data)
			break
		}
	}
}
