package plot

import (
	"fmt"
	"path"
	"strings"

	"github.com/jaxsh/jaxsh/internal/colormap"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Module is the plot module.
var Module = &starlarkstruct.Module{Name: "plot", Members: starlark.StringDict{}}

func init() {
	jstarlark.Register(Module, "line", plotSeries("line"))
	jstarlark.Register(Module, "scatter", plotSeries("scatter"))
	jstarlark.Register(Module, "hist", plotSeries("hist"))
	jstarlark.Register(Module, "imshow", imshow)
	jstarlark.Register(Module, "figure", newFigure)
}

// axesArgs are the keyword arguments every plot takes.
type axesArgs struct {
	title, xlabel, ylabel string
	width, height         starlark.Value // inches, int or float
}

func (a *axesArgs) pairs() []any {
	a.width, a.height = starlark.None, starlark.None
	return []any{"title?", &a.title, "xlabel?", &a.xlabel, "ylabel?", &a.ylabel, "width?", &a.width, "height?", &a.height}
}

func (a *axesArgs) figure() (*Figure, error) {
	f := &Figure{Title: a.title, XLabel: a.xlabel, YLabel: a.ylabel}
	for _, d := range []struct {
		name string
		v    starlark.Value
		dst  *float64
	}{{"width", a.width, &f.Width}, {"height", a.height, &f.Height}} {
		if d.v == starlark.None {
			continue
		}
		x, ok := starlark.AsFloat(d.v)
		if !ok || x <= 0 || x > 100 {
			return nil, fmt.Errorf("plot: %s must be a number of inches in (0, 100], got %s", d.name, d.v)
		}
		*d.dst = x
	}
	return f, nil
}

// seriesArgs reads x, y and the labels of plot.line/scatter/hist (and the
// figure methods) into series.
type seriesArgs struct {
	x, y, label, labels starlark.Value
	bins                int
}

func (s *seriesArgs) pairs(kind string) []any {
	s.y, s.label, s.labels = starlark.None, starlark.None, starlark.None
	if kind == "hist" {
		s.bins = 10
		return []any{"x", &s.x, "bins?", &s.bins, "label?", &s.label}
	}
	return []any{"x", &s.x, "y?", &s.y, "label?", &s.label, "labels?", &s.labels}
}

func (s *seriesArgs) series(fn, kind string) ([]Series, error) {
	if kind == "hist" {
		vals, _, err := values(fn, "x", s.x)
		if err != nil {
			return nil, err
		}
		label, err := optString(fn, "label", s.label)
		if err != nil {
			return nil, err
		}
		if s.bins < 1 {
			return nil, fmt.Errorf("%s: bins must be at least 1, got %d", fn, s.bins)
		}
		return []Series{{Kind: kind, Y: vals, Bins: s.bins, Label: label}}, nil
	}
	xv, yv := s.x, s.y
	var xs []float64
	if yv == starlark.None { // plot(y): x is 0, 1, 2, ...
		yv = xv
	} else {
		var shape []int
		var err error
		if xs, shape, err = values(fn, "x", xv); err != nil {
			return nil, err
		}
		if len(shape) != 1 {
			return nil, fmt.Errorf("%s: x must be 1-D, got shape %v", fn, shape)
		}
	}
	ys, shape, err := values(fn, "y", yv)
	if err != nil {
		return nil, err
	}
	// A 2-D y holds one series per column, as matplotlib plots it.
	var cols [][]float64
	switch len(shape) {
	case 1:
		cols = [][]float64{ys}
	case 2:
		for c := 0; c < shape[1]; c++ {
			col := make([]float64, shape[0])
			for r := range col {
				col[r] = ys[r*shape[1]+c]
			}
			cols = append(cols, col)
		}
	default:
		return nil, fmt.Errorf("%s: y must be 1-D or 2-D (one series per column), got shape %v", fn, shape)
	}
	n := len(cols[0])
	if xs == nil {
		xs = make([]float64, n)
		for i := range xs {
			xs[i] = float64(i)
		}
	}
	if len(xs) != n {
		return nil, fmt.Errorf("%s: x has %d values and y has %d rows", fn, len(xs), n)
	}
	labels, err := labelList(fn, s.label, s.labels, len(cols))
	if err != nil {
		return nil, err
	}
	out := make([]Series, len(cols))
	for i, c := range cols {
		out[i] = Series{Kind: kind, X: xs, Y: c, Label: labels[i]}
	}
	return out, nil
}

func labelList(fn string, label, labels starlark.Value, n int) ([]string, error) {
	out := make([]string, n)
	if label != starlark.None {
		if labels != starlark.None {
			return nil, fmt.Errorf("%s: give label= or labels=, not both", fn)
		}
		s, ok := starlark.AsString(label)
		if !ok {
			return nil, fmt.Errorf("%s: label must be a string, got %s", fn, label.Type())
		}
		if n != 1 {
			return nil, fmt.Errorf("%s: %d series need labels= (a list of %d strings), not label=", fn, n, n)
		}
		out[0] = s
		return out, nil
	}
	if labels == starlark.None {
		return out, nil
	}
	seq, ok := labels.(starlark.Indexable)
	if !ok || seq.Len() != n {
		return nil, fmt.Errorf("%s: labels must be a list of %d strings", fn, n)
	}
	for i := range out {
		s, ok := starlark.AsString(seq.Index(i))
		if !ok {
			return nil, fmt.Errorf("%s: labels[%d] is not a string", fn, i)
		}
		out[i] = s
	}
	return out, nil
}

func optString(fn, name string, v starlark.Value) (string, error) {
	if v == starlark.None {
		return "", nil
	}
	s, ok := starlark.AsString(v)
	if !ok {
		return "", fmt.Errorf("%s: %s must be a string, got %s", fn, name, v.Type())
	}
	return s, nil
}

// values reads an array-like argument's elements and shape.
func values(fn, what string, v starlark.Value) ([]float64, []int, error) {
	a, err := jstarlark.EnsureArray(fn, v)
	if err != nil {
		return nil, nil, err
	}
	if a.Size() == 0 {
		return nil, nil, fmt.Errorf("%s: %s is empty", fn, what)
	}
	vals, err := a.Float64s(fn)
	return vals, []int(a.Shape()), err
}

// writeFigure renders f in the format path's extension names and writes it.
func writeFigure(thread *starlark.Thread, fn, p string, f *Figure) error {
	ext := strings.TrimPrefix(strings.ToLower(path.Ext(p)), ".")
	if ext != "png" && ext != "svg" {
		return fmt.Errorf("%s: path %q must end in .png or .svg", fn, p)
	}
	data, err := Render(f, ext)
	if err != nil {
		return fmt.Errorf("%s: %w", fn, err)
	}
	return jstarlark.WriteFile(thread, p, data)
}

// plot.line(x, y=None, path=, label=, labels=, title=, xlabel=, ylabel=,
// width=, height=), and scatter and hist alike.
func plotSeries(kind string) jstarlark.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := "plot." + kind
		var p string
		var ax axesArgs
		var sa seriesArgs
		pairs := append(sa.pairs(kind), "path", &p)
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, append(pairs, ax.pairs()...)...); err != nil {
			return nil, err
		}
		series, err := sa.series(fn, kind)
		if err != nil {
			return nil, err
		}
		f, err := ax.figure()
		if err != nil {
			return nil, err
		}
		f.Series = series
		return starlark.None, writeFigure(thread, fn, p, f)
	}
}

// plot.imshow(x, path=, cmap="viridis", vmin=None, vmax=None, title=, ...)
// draws a 2-D array as a picture on axes (row 0 at the top).
func imshow(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "plot.imshow"
	var x starlark.Value
	var p string
	cmap := "viridis"
	var vminV, vmaxV starlark.Value = starlark.None, starlark.None
	var ax axesArgs
	pairs := []any{"x", &x, "path", &p, "cmap?", &cmap, "vmin?", &vminV, "vmax?", &vmaxV}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, append(pairs, ax.pairs()...)...); err != nil {
		return nil, err
	}
	vals, shape, err := values(fn, "x", x)
	if err != nil {
		return nil, err
	}
	if len(shape) != 2 {
		return nil, fmt.Errorf("%s: x must be 2-D, got shape %v", fn, shape)
	}
	lo, hi := colormap.Range(vals)
	for _, b := range []struct {
		v   starlark.Value
		dst *float64
	}{{vminV, &lo}, {vmaxV, &hi}} {
		if b.v != starlark.None {
			f, ok := starlark.AsFloat(b.v)
			if !ok {
				return nil, fmt.Errorf("%s: vmin and vmax must be numbers, got %s", fn, b.v.Type())
			}
			*b.dst = f
		}
	}
	img, err := colormap.Map(vals, shape[0], shape[1], cmap, lo, hi)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fn, err)
	}
	f, err := ax.figure()
	if err != nil {
		return nil, err
	}
	f.Image = img
	return starlark.None, writeFigure(thread, fn, p, f)
}
