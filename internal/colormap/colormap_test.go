package colormap

import (
	"math"
	"testing"
)

// The expected pixels were computed with matplotlib 3.6.3:
// colormaps[name](Normalize(vmin, vmax)(masked_invalid(a)), bytes=True).
func TestMapAsMatplotlib(t *testing.T) {
	a := []float64{0, 1, 2, math.NaN(), 3, 4, -1, 10}
	cases := []struct {
		cmap       string
		vmin, vmax float64
		want       [][4]uint8
	}{
		{"viridis", -1, 10, [][4]uint8{{72, 33, 114, 255}, {66, 61, 132, 255}, {56, 87, 140, 255}, {0, 0, 0, 0}, {45, 111, 142, 255}, {36, 133, 141, 255}, {68, 1, 84, 255}, {253, 231, 36, 255}}},
		{"magma", 0, 4, [][4]uint8{{0, 0, 3, 255}, {80, 18, 123, 255}, {182, 54, 121, 255}, {0, 0, 0, 0}, {251, 136, 97, 255}, {251, 252, 191, 255}, {0, 0, 3, 255}, {251, 252, 191, 255}}},
		{"gray", 2, 2, [][4]uint8{{0, 0, 0, 255}, {0, 0, 0, 255}, {0, 0, 0, 255}, {0, 0, 0, 0}, {0, 0, 0, 255}, {0, 0, 0, 255}, {0, 0, 0, 255}, {0, 0, 0, 255}}},
	}
	if lo, hi := Range(a); lo != -1 || hi != 10 {
		t.Fatalf("Range = %v, %v; want -1, 10", lo, hi)
	}
	for _, c := range cases {
		img, err := Map(a, 2, 4, c.cmap, c.vmin, c.vmax)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range c.want {
			px := img.NRGBAAt(i%4, i/4)
			if got := [4]uint8{px.R, px.G, px.B, px.A}; got != w {
				t.Errorf("%s pixel %d = %v, want %v", c.cmap, i, got, w)
			}
		}
	}
	if _, err := Map(a, 2, 4, "jet", 0, 1); err == nil {
		t.Error("an unknown colormap is not an error")
	}
}

// plt.imsave of [[[0, .5, 1], [1, .2, .999]]] writes (0,127,255) (255,51,254).
func TestChannels(t *testing.T) {
	img, err := Channels([]float64{0, 0.5, 1, 1, 0.2, 0.999}, 1, 2, 3, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Pix; string(got) != string([]uint8{0, 127, 255, 255, 255, 51, 254, 255}) {
		t.Errorf("pixels %v", got)
	}
	img, err = Channels([]float64{10, 20, 30, 40}, 1, 1, 4, false)
	if err != nil || string(img.Pix) != string([]uint8{10, 20, 30, 40}) {
		t.Errorf("RGBA ints: %v %v", img, err)
	}
	for _, bad := range [][]float64{{1.5, 0, 0}, {math.NaN(), 0, 0}, {-0.1, 0, 0}} {
		if _, err := Channels(bad, 1, 1, 3, true); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	if _, err := Channels(make([]float64, 2*2*2), 2, 2, 2, true); err == nil {
		t.Error("two channels: no error")
	}
}
