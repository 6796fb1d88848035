package image

import (
	"bytes"
	"fmt"
	stdimage "image"
	"image/png"

	"github.com/jaxsh/jaxsh/internal/colormap"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Module is the image module.
var Module = &starlarkstruct.Module{Name: "image", Members: starlark.StringDict{}}

func init() {
	jstarlark.Register(Module, "save", save)
	names := make([]starlark.Value, 0, len(colormap.Names()))
	for _, n := range colormap.Names() {
		names = append(names, starlark.String(n))
	}
	jstarlark.RegisterValue(Module, "colormaps", starlark.Tuple(names))
}

// image.save(path, x, cmap="viridis", vmin=None, vmax=None) writes a PNG:
// a 2-D array through the colormap (vmin and vmax default to the finite
// minimum and maximum), or an (h, w, 3|4) array of RGB(A) channels, floats
// in [0, 1] or integers in [0, 255].
func save(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var path string
	var x starlark.Value
	cmap := "viridis"
	var vminV, vmaxV starlark.Value = starlark.None, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "path", &path, "x", &x, "cmap?", &cmap, "vmin?", &vminV, "vmax?", &vmaxV); err != nil {
		return nil, err
	}
	const fn = "image.save"
	a, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	values, err := a.Float64s(fn)
	if err != nil {
		return nil, err
	}
	shape := a.Shape()
	if len(shape) >= 2 && (shape[0] == 0 || shape[1] == 0) {
		return nil, fmt.Errorf("%s: a picture needs at least one pixel, got shape %v", fn, []int(shape))
	}
	var img *stdimage.NRGBA
	switch {
	case len(shape) == 2:
		lo, hi := colormap.Range(values)
		if lo, err = bound(fn, "vmin", vminV, lo); err != nil {
			return nil, err
		}
		if hi, err = bound(fn, "vmax", vmaxV, hi); err != nil {
			return nil, err
		}
		img, err = colormap.Map(values, shape[0], shape[1], cmap, lo, hi)
	case len(shape) == 3 && (shape[2] == 3 || shape[2] == 4):
		img, err = colormap.Channels(values, shape[0], shape[1], shape[2], a.DType().IsFloat())
	default:
		return nil, fmt.Errorf("%s: want a 2-D array (coloured by cmap) or an (h, w, 3|4) array of channels, got shape %v", fn, []int(shape))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fn, err)
	}
	var data bytes.Buffer
	if err := png.Encode(&data, img); err != nil {
		return nil, fmt.Errorf("%s: %w", fn, err)
	}
	return starlark.None, jstarlark.WriteFile(thread, path, data.Bytes())
}

func bound(fn, name string, v starlark.Value, dflt float64) (float64, error) {
	if v == starlark.None {
		return dflt, nil
	}
	f, ok := starlark.AsFloat(v)
	if !ok {
		return 0, fmt.Errorf("%s: %s must be a number, got %s", fn, name, v.Type())
	}
	return f, nil
}
