package plot

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// A Series is one set of points drawn on a figure.
type Series struct {
	Kind  string // "line", "scatter" or "hist"
	X, Y  []float64
	Label string // shown in the legend when not empty
	Bins  int    // for "hist"
}

// A Figure is everything one plot call draws: axes text, the series, or a
// picture placed on the axes (image plots).
type Figure struct {
	Title, XLabel, YLabel string
	Series                []Series
	Image                 image.Image // drawn over [0, width] x [0, height] when set
	// Width and Height are in inches (the plot library's points are 1/72
	// inch; PNG pixels are at 96 per inch).
	Width, Height float64
}

// Formats are the file formats Render writes, by extension.
var Formats = []string{"png", "svg"}

// Render draws the figure in a format ("png" or "svg").
func Render(f *Figure, format string) ([]byte, error) {
	format = strings.ToLower(format)
	if format != "png" && format != "svg" {
		return nil, fmt.Errorf("cannot draw a %q file: plots are png or svg", format)
	}
	p := gplot.New()
	p.Title.Text = f.Title
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	legend := false
	for i, s := range f.Series {
		if err := checkFinite(s); err != nil {
			return nil, err
		}
		var thing gplot.Plotter
		switch s.Kind {
		case "line", "scatter":
			if len(s.X) != len(s.Y) {
				return nil, fmt.Errorf("%s: %d x values and %d y values", s.Kind, len(s.X), len(s.Y))
			}
			xys := make(plotter.XYs, len(s.X))
			for k := range s.X {
				xys[k].X, xys[k].Y = s.X[k], s.Y[k]
			}
			if s.Kind == "line" {
				l, err := plotter.NewLine(xys)
				if err != nil {
					return nil, err
				}
				l.Color = plotutil.Color(i)
				l.Width = vg.Points(1.5)
				thing = l
			} else {
				sc, err := plotter.NewScatter(xys)
				if err != nil {
					return nil, err
				}
				sc.Color = plotutil.Color(i)
				sc.Shape = plotutil.Shape(0)
				thing = sc
			}
		case "hist":
			bins := s.Bins
			if bins <= 0 {
				bins = 10
			}
			h, err := plotter.NewHist(plotter.Values(s.Y), bins)
			if err != nil {
				return nil, err
			}
			h.FillColor = plotutil.Color(i)
			thing = h
		default:
			return nil, fmt.Errorf("unknown series kind %q", s.Kind)
		}
		p.Add(thing)
		if s.Label != "" {
			legend = true
			if t, ok := thing.(gplot.Thumbnailer); ok {
				p.Legend.Add(s.Label, t)
			}
		}
	}
	if f.Image != nil {
		b := f.Image.Bounds()
		p.Add(plotter.NewImage(f.Image, 0, 0, float64(b.Dx()), float64(b.Dy())))
	}
	if legend {
		p.Legend.Top = true
	}
	w, h := f.Width, f.Height
	if w <= 0 {
		w = 6
	}
	if h <= 0 {
		h = 4
	}
	wt, err := p.WriterTo(vg.Length(w)*vg.Inch, vg.Length(h)*vg.Inch, format)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// checkFinite refuses NaN and infinite points, which the plot library
// would draw as nothing or fail on with a less helpful message.
func checkFinite(s Series) error {
	for _, vs := range [][]float64{s.X, s.Y} {
		for i, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s: value %d is %v; plots need finite values", s.Kind, i, v)
			}
		}
	}
	return nil
}
