package image_test

import (
	"bytes"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
	"github.com/jaxsh/jaxsh/internal/casetest"
)

func run(t *testing.T, dir, code string) error {
	t.Helper()
	_, err := casetest.RunWithFiles(t, dir, code)
	return err
}

func pixels(t *testing.T, path string) (w, h int, at func(x, y int) color.NRGBA) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	return b.Dx(), b.Dy(), func(x, y int) color.NRGBA { return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) }
}

// The pixel values are matplotlib 3.6.3's for the same arrays (see
// internal/colormap's tests).
func TestSave(t *testing.T) {
	dir := t.TempDir()
	err := run(t, dir, `
a = jnp.array([[0.0, 1.0, 2.0, jnp.nan], [3.0, 4.0, -1.0, 10.0]])
image.save("v.png", a)
image.save("m.png", a, cmap = "magma", vmin = 0, vmax = 4)
image.save("rgb.png", jnp.array([[[0.0, 0.5, 1.0], [1.0, 0.2, 0.999]]]))
image.save("rgba.png", jnp.array([[[10, 20, 30, 40]]], dtype = jnp.uint8))
`)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	w, h, at := pixels(t, filepath.Join(dir, "v.png"))
	if w != 4 || h != 2 {
		t.Fatalf("v.png is %dx%d, want 4x2", w, h)
	}
	for _, c := range []struct {
		x, y int
		want color.NRGBA
	}{{0, 0, color.NRGBA{72, 33, 114, 255}}, {3, 0, color.NRGBA{0, 0, 0, 0}}, {2, 1, color.NRGBA{68, 1, 84, 255}}, {3, 1, color.NRGBA{253, 231, 36, 255}}} {
		if got := at(c.x, c.y); got != c.want {
			t.Errorf("v.png (%d, %d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	_, _, at = pixels(t, filepath.Join(dir, "m.png"))
	if got := at(1, 0); got != (color.NRGBA{80, 18, 123, 255}) {
		t.Errorf("m.png (1, 0) = %v", got)
	}
	_, _, at = pixels(t, filepath.Join(dir, "rgb.png"))
	if got := at(1, 0); got != (color.NRGBA{255, 51, 254, 255}) {
		t.Errorf("rgb.png (1, 0) = %v", got)
	}
	_, _, at = pixels(t, filepath.Join(dir, "rgba.png"))
	if got := at(0, 0); got != (color.NRGBA{10, 20, 30, 40}) {
		t.Errorf("rgba.png = %v", got)
	}
}

func TestSaveErrors(t *testing.T) {
	dir := t.TempDir()
	for code, want := range map[string]string{
		`image.save("x.png", jnp.ones((2, 2, 2)))`:            "(h, w, 3|4)",
		`image.save("x.png", jnp.ones(3))`:                    "2-D array",
		`image.save("x.png", jnp.ones((2, 2)), cmap = "jet")`: "unknown colormap",
		`image.save("x.png", jnp.full((1, 1, 3), 2.0))`:       "outside 0..1",
		`image.save("/tmp/x.png", jnp.ones((2, 2)))`:          "absolute paths are not allowed",
		`image.save("../x.png", jnp.ones((2, 2)))`:            "leaves the directory",
		`image.save("x.png", jnp.ones((0, 2)))`:               "at least one pixel",
	} {
		err := run(t, dir, code)
		if err == nil || !strings.Contains(jaxsh.FormatError(err), want) {
			t.Errorf("%s: got %v, want an error containing %q", code, err, want)
		}
	}
}
