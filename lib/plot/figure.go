package plot

import (
	"fmt"

	"go.starlark.net/starlark"
)

// A figureValue is what plot.figure() returns: axes that collect series
// (fig.line, fig.scatter, fig.hist) until fig.save(path) draws them all.
type figureValue struct {
	fig    Figure
	frozen bool
}

var _ starlark.HasAttrs = (*figureValue)(nil)

// plot.figure(title=, xlabel=, ylabel=, width=, height=).
func newFigure(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var ax axesArgs
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, ax.pairs()...); err != nil {
		return nil, err
	}
	f, err := ax.figure()
	if err != nil {
		return nil, err
	}
	return &figureValue{fig: *f}, nil
}

func (f *figureValue) String() string {
	return fmt.Sprintf("<plot.figure %q with %d series>", f.fig.Title, len(f.fig.Series))
}
func (f *figureValue) Type() string          { return "plot.figure" }
func (f *figureValue) Freeze()               { f.frozen = true }
func (f *figureValue) Truth() starlark.Bool  { return true }
func (f *figureValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: plot.figure") }
func (f *figureValue) AttrNames() []string   { return []string{"hist", "line", "save", "scatter"} }

func (f *figureValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "line", "scatter", "hist":
		return starlark.NewBuiltin(name, f.add(name)).BindReceiver(f), nil
	case "save":
		return starlark.NewBuiltin(name, f.save).BindReceiver(f), nil
	}
	return nil, nil
}

// add returns fig.line, fig.scatter or fig.hist: each adds series and
// returns None.
func (f *figureValue) add(kind string) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := "figure." + kind
		if f.frozen {
			return nil, fmt.Errorf("%s: cannot add to a frozen figure", fn)
		}
		var sa seriesArgs
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, sa.pairs(kind)...); err != nil {
			return nil, err
		}
		series, err := sa.series(fn, kind)
		if err != nil {
			return nil, err
		}
		f.fig.Series = append(f.fig.Series, series...)
		return starlark.None, nil
	}
}

// fig.save(path) draws the figure as PNG or SVG.
func (f *figureValue) save(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var p string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "path", &p); err != nil {
		return nil, err
	}
	return starlark.None, writeFigure(thread, "figure.save", p, &f.fig)
}
