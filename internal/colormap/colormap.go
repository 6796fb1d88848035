// Package colormap turns arrays of numbers into pictures: a 2-D array of
// values through a colormap, or an array of RGB(A) channels, following the
// rules matplotlib's imsave uses, so that a jaxsh picture looks like the one
// a JAX user would save.
//
// Values map to colours as matplotlib's Normalize and Colormap do: vmin and
// vmax default to the finite minimum and maximum; a value v becomes
// (v - vmin) / (vmax - vmin), clipped to [0, 1], and picks entry
// min(floor(x * 256), 255) of a 256-entry table; when vmin == vmax every
// value picks entry 0; NaN is fully transparent.
package colormap

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
)

// Names lists the colormaps, sorted.
func Names() []string {
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Range is the default vmin and vmax of values: their finite minimum and
// maximum, or 0 and 0 when none is finite.
func Range(values []float64) (vmin, vmax float64) {
	vmin, vmax = math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		vmin, vmax = min(vmin, v), max(vmax, v)
	}
	if vmin > vmax {
		return 0, 0
	}
	return vmin, vmax
}

// Map colours an h x w grid of values (row-major, row 0 at the top) with
// the named colormap between vmin and vmax.
func Map(values []float64, h, w int, cmap string, vmin, vmax float64) (*image.NRGBA, error) {
	table, ok := tables[cmap]
	if !ok {
		return nil, fmt.Errorf("unknown colormap %q (have %s)", cmap, strings.Join(Names(), ", "))
	}
	if len(values) != h*w {
		return nil, fmt.Errorf("%d values for a %dx%d picture", len(values), h, w)
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	span := vmax - vmin
	for i, v := range values {
		if math.IsNaN(v) {
			continue // transparent, as matplotlib's default "bad" colour
		}
		x := 0.0
		if span > 0 {
			x = (v - vmin) / span
		}
		x = min(max(x, 0), 1)
		k := min(int(x*256), 255)
		c := table[k]
		img.SetNRGBA(i%w, i/w, color.NRGBA{c[0], c[1], c[2], 255})
	}
	return img, nil
}

// Channels makes a picture from an h x w x channels array (3: RGB, 4:
// RGBA). Floating values must lie in [0, 1] (as matplotlib demands) and are
// scaled by 255 and truncated, as matplotlib does; integer values must lie
// in [0, 255].
func Channels(values []float64, h, w, channels int, floating bool) (*image.NRGBA, error) {
	if channels != 3 && channels != 4 {
		return nil, fmt.Errorf("a picture needs 3 (RGB) or 4 (RGBA) channels, got %d", channels)
	}
	if len(values) != h*w*channels {
		return nil, fmt.Errorf("%d values for a %dx%dx%d picture", len(values), h, w, channels)
	}
	top, scale := 255.0, 1.0
	if floating {
		top, scale = 1, 255
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i, v := range values {
		if !(v >= 0 && v <= top) { // NaN fails too
			return nil, fmt.Errorf("channel value %v at index %d is outside 0..%v", v, i, top)
		}
		img.Pix[i/channels*4+i%channels] = uint8(v * scale)
		if channels == 3 && i%3 == 2 {
			img.Pix[i/3*4+3] = 255
		}
	}
	return img, nil
}
