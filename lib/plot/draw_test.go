package plot

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"
)

func TestRenderPNG(t *testing.T) {
	f := &Figure{Title: "loss", XLabel: "step", YLabel: "value", Series: []Series{
		{Kind: "line", X: []float64{0, 1, 2, 3}, Y: []float64{4, 2, 1, 0.5}, Label: "train"},
		{Kind: "scatter", X: []float64{0, 3}, Y: []float64{3, 1}, Label: "test"},
	}}
	data, err := Render(f, "png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// 6 x 4 inches at the library's 96 dots per inch.
	if b := img.Bounds(); b.Dx() != 576 || b.Dy() != 384 {
		t.Errorf("size %v, want 576x384", b)
	}
	// The background is white; the first series' colour appears somewhere.
	if r, g, b, _ := img.At(2, 2).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff {
		t.Errorf("corner is not white: %v", img.At(2, 2))
	}
	if !hasColorNear(img, color.NRGBA{R: 0xf1, G: 0x5a, B: 0x60, A: 0xff}) {
		t.Errorf("the line's colour is nowhere in the picture")
	}
}

func hasColorNear(img image.Image, want color.NRGBA) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			if absDiff(c.R, want.R) < 8 && absDiff(c.G, want.G) < 8 && absDiff(c.B, want.B) < 8 && c.A > 200 {
				return true
			}
		}
	}
	return false
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// An SVG plot parses as XML and holds the texts and one path per line.
func TestRenderSVG(t *testing.T) {
	f := &Figure{Title: "histogram of samples", XLabel: "x", Series: []Series{
		{Kind: "hist", Y: []float64{1, 2, 2, 3, 3, 3, 4}, Bins: 4},
	}}
	data, err := Render(f, "svg")
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var texts []string
	elements := map[string]int{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			elements[e.Name.Local]++
		case xml.CharData:
			if s := strings.TrimSpace(string(e)); s != "" {
				texts = append(texts, s)
			}
		}
	}
	if elements["svg"] != 1 || elements["path"] < 4 {
		t.Errorf("elements %v: want one svg and a path per bar at least", elements)
	}
	joined := strings.Join(texts, "|")
	for _, want := range []string{"histogram of samples", "x"} {
		if !strings.Contains(joined, want) {
			t.Errorf("text %q missing from %q", want, joined)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	for name, f := range map[string]*Figure{
		"nan":        {Series: []Series{{Kind: "line", X: []float64{0, 1}, Y: []float64{0, nan()}}}},
		"mismatched": {Series: []Series{{Kind: "line", X: []float64{0, 1}, Y: []float64{0}}}},
	} {
		if _, err := Render(f, "png"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Render(&Figure{}, "gif"); err == nil {
		t.Error("gif: no error")
	}
}

func nan() float64 { var z float64; return z / z }
