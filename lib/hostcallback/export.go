package hostcallback

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/jaxsh/jaxsh/export"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Host callbacks in artifacts: an artifact stores each callback by its
// name with a description of its use (callbackSpec, as JSON), and
// deserialize rebuilds the hostCallback around the function bound to that
// name. id_print needs no function: it binds itself.

var _ export.ExportableCallback = (*hostCallback)(nil)

// ExportName is the name the callback is stored and bound under: id_print
// with an output_stream binds the stream.
func (c *hostCallback) ExportName() string {
	if c.storedName != "" {
		return c.storedName
	}
	if c.print != nil && c.print.stream != nil {
		return c.print.stream.Name()
	}
	return c.name
}

// callbackSpec is what a hostCallback holds besides its function.
type callbackSpec struct {
	ArgTree     *export.TreeDef `json:"arg_tree"`
	NArgs       int             `json:"n_args"`
	Kwargs      [][2]any        `json:"kwargs,omitempty"`
	Threshold   int             `json:"threshold,omitempty"`
	ResultTree  *export.TreeDef `json:"result_tree,omitempty"`
	ResultAvals []specAVal      `json:"result_avals,omitempty"`
	WithDevice  bool            `json:"with_device,omitempty"`
	// Stream: an id_print whose output_stream is the bound function.
	Stream bool `json:"stream,omitempty"`
}

type specAVal struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Weak  bool   `json:"weak,omitempty"`
}

func (c *hostCallback) ExportSpec() ([]byte, error) {
	s := callbackSpec{ArgTree: jstarlark.ExportTree(c.argTree), NArgs: c.nArgs, ResultTree: jstarlark.ExportTree(c.resultTree), WithDevice: c.withDevice}
	for _, kv := range c.kwargs {
		v, err := jsonScalar(kv[1])
		if err != nil {
			return nil, fmt.Errorf("keyword argument %s: %v", kv[0], err)
		}
		s.Kwargs = append(s.Kwargs, [2]any{string(kv[0].(starlark.String)), v})
	}
	if c.print != nil {
		s.Threshold = c.print.threshold
		s.Stream = c.print.stream != nil
	}
	for _, a := range c.resultAvals {
		s.ResultAvals = append(s.ResultAvals, specAVal{DType: a.DType.Name(), Shape: a.Shape, Weak: a.Weak})
	}
	return json.Marshal(s)
}

// jsonScalar keeps the Starlark values a tap's keyword arguments may hold
// in an artifact: None, bools, ints, floats and strings.
func jsonScalar(v starlark.Value) (any, error) {
	switch x := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(x), nil
	case starlark.Int:
		n, ok := x.Int64()
		if !ok {
			return nil, fmt.Errorf("the integer %s is too large to export", x)
		}
		return map[string]int64{"int": n}, nil
	case starlark.Float:
		f := float64(x)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return map[string]string{"float": fmt.Sprint(f)}, nil
		}
		return map[string]float64{"float": f}, nil
	case starlark.String:
		return string(x), nil
	}
	return nil, fmt.Errorf("a %s cannot be exported (only None, bool, int, float and str can)", v.Type())
}

func starlarkScalar(v any) (starlark.Value, error) {
	switch x := v.(type) {
	case nil:
		return starlark.None, nil
	case bool:
		return starlark.Bool(x), nil
	case string:
		return starlark.String(x), nil
	case map[string]any:
		if n, ok := x["int"].(json.Number); ok {
			i, err := n.Int64()
			if err != nil {
				return nil, err
			}
			return starlark.MakeInt64(i), nil
		}
		switch f := x["float"].(type) {
		case json.Number:
			v, err := f.Float64()
			if err != nil {
				return nil, err
			}
			return starlark.Float(v), nil
		case string:
			switch f {
			case "+Inf":
				return starlark.Float(math.Inf(1)), nil
			case "-Inf":
				return starlark.Float(math.Inf(-1)), nil
			case "NaN":
				return starlark.Float(math.NaN()), nil
			}
		}
	}
	return nil, fmt.Errorf("a stored keyword argument of unknown form %v", v)
}

// decodeCallback rebuilds a stored callback around fn (nil for id_print).
func decodeCallback(name string, fn starlark.Callable, kind string, spec []byte) (*hostCallback, error) {
	if !slices.Contains([]string{"id_tap", "id_print", "call"}, kind) {
		return nil, fmt.Errorf("unknown callback kind %q", kind)
	}
	var s callbackSpec
	dec := json.NewDecoder(strings.NewReader(string(spec)))
	dec.UseNumber()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("its stored description does not decode: %v", err)
	}
	if s.ArgTree == nil || s.ArgTree.NumLeaves() != s.NArgs {
		return nil, fmt.Errorf("its stored argument structure does not match its %d arguments", s.NArgs)
	}
	c := &hostCallback{fn: fn, name: name, storedName: name, kind: kind, argTree: jstarlark.TreeFromExport(s.ArgTree), nArgs: s.NArgs,
		resultTree: jstarlark.TreeFromExport(s.ResultTree), withDevice: s.WithDevice}
	for _, kv := range s.Kwargs {
		k, ok := kv[0].(string)
		if !ok {
			return nil, fmt.Errorf("a stored keyword argument without a name")
		}
		v, err := starlarkScalar(kv[1])
		if err != nil {
			return nil, err
		}
		c.kwargs = append(c.kwargs, starlark.Tuple{starlark.String(k), v})
	}
	if kind == "id_print" {
		c.fn, c.name = nil, "id_print"
		c.print = &printOptions{threshold: s.Threshold}
		if s.Stream {
			if fn == nil {
				return nil, fmt.Errorf("its output_stream is not bound")
			}
			c.print.stream = fn
		}
	}
	for _, a := range s.ResultAvals {
		dt, err := trace.ParseDType(a.DType)
		if err != nil {
			return nil, err
		}
		c.resultAvals = append(c.resultAvals, trace.AVal{Shape: trace.Shape(a.Shape), DType: dt, Weak: a.Weak})
	}
	if c.resultTree != nil && c.resultTree.NumLeaves() != len(c.resultAvals) {
		return nil, fmt.Errorf("its stored result structure does not match its %d results", len(c.resultAvals))
	}
	return c, nil
}

// CallbackBindings are the options export.DeserializeWith needs to bind
// an artifact's host callbacks: each stored name to the function callbacks
// gives it (Starlark functions or Go functions, GoFunction), and id_print,
// which needs none.
func CallbackBindings(callbacks map[string]starlark.Callable) export.DeserializeOptions {
	binds := map[string]export.BindFunc{}
	for name, fn := range callbacks {
		binds[name] = func(kind string, spec []byte) (trace.Callback, error) {
			return decodeCallback(name, fn, kind, spec)
		}
	}
	return export.DeserializeOptions{Callbacks: binds, Builtin: builtinCallback}
}

// builtinCallback binds id_print, which needs no user function.
func builtinCallback(name, kind string, spec []byte) (trace.Callback, error) {
	if kind != "id_print" || name != "id_print" {
		return nil, fmt.Errorf("not a builtin callback")
	}
	if spec == nil {
		return nil, nil // only asking
	}
	return decodeCallback(name, nil, kind, spec)
}

// CheckCallbackNames refuses to export two different functions under one
// name: deserialize could bind only one of them.
func CheckCallbackNames(e *export.Exported) error {
	if _, clash, ok := functions(e.Jaxpr); !ok {
		return fmt.Errorf("export(%s): two different host callbacks are named %s; deserialize binds callbacks by name, so give them distinct names (call's name=, or named functions)",
			e.FunName, clash)
	}
	return nil
}

// Functions are the functions of the host callbacks in j by the names an
// artifact stores them under (id_print without an output_stream has none:
// it binds itself), as CallbackBindings takes them to bind a loaded
// artifact again.
func Functions(j *trace.Jaxpr) map[string]starlark.Callable {
	fns, _, _ := functions(j)
	out := map[string]starlark.Callable{}
	for name, fn := range fns {
		if fn != nil {
			out[name] = fn
		}
	}
	return out
}

// functions walks j's host callbacks (nested jaxprs included); ok is false
// when two different functions share a name, the first such name clash.
func functions(j *trace.Jaxpr) (fns map[string]starlark.Callable, clash string, ok bool) {
	fns, ok = map[string]starlark.Callable{}, true
	var walk func(j *trace.Jaxpr)
	walk = func(j *trace.Jaxpr) {
		for _, eqn := range j.Eqns {
			for _, v := range eqn.Params {
				switch x := v.(type) {
				case *hostCallback:
					name, fn := x.ExportName(), x.fn
					if x.print != nil {
						fn = x.print.stream
					}
					if prev, seen := fns[name]; seen && prev != fn && ok {
						clash, ok = name, false
					}
					fns[name] = fn
				case *trace.Jaxpr:
					walk(x)
				case []*trace.Jaxpr:
					for _, s := range x {
						walk(s)
					}
				}
			}
		}
	}
	walk(j)
	return fns, clash, ok
}
