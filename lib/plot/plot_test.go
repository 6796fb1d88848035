package plot_test

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
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

func TestPlots(t *testing.T) {
	dir := t.TempDir()
	err := run(t, dir, `
steps = jnp.arange(50)
loss = jnp.exp(-steps / 10.0)
plot.line(steps, loss, path = "loss.png", title = "training loss", xlabel = "step", ylabel = "loss", label = "train")
plot.scatter(jnp.array([1.0, 2.0, 3.0]), jnp.array([3.0, 1.0, 2.0]), path = "points.svg", width = 3, height = 2)
plot.hist(random.normal(random.key(0), (500,)), bins = 20, path = "hist.svg", title = "samples")
plot.imshow(jnp.arange(12.0).reshape(3, 4), path = "grid.png")
fig = plot.figure(title = "two curves")
fig.line(steps, loss, label = "train")
fig.line(steps, loss * 1.1, label = "test")
fig.save("both.svg")
plot.line(jnp.stack([loss, 2 * loss], axis = 1), path = "cols.png", labels = ["a", "b"])
`)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	for _, name := range []string{"loss.png", "grid.png", "cols.png"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != 576 || b.Dy() != 384 {
			t.Errorf("%s: %v, want 576x384 (6x4 inches at 96 dpi)", name, b)
		}
	}
	for name, want := range map[string][]string{
		"points.svg": nil,
		"hist.svg":   {"samples"},
		"both.svg":   {"two curves", "train", "test"},
	} {
		texts, elements := parseSVG(t, filepath.Join(dir, name))
		if elements["svg"] != 1 || elements["path"] == 0 {
			t.Errorf("%s: elements %v", name, elements)
		}
		for _, w := range want {
			if !strings.Contains(strings.Join(texts, "|"), w) {
				t.Errorf("%s: no text %q in %v", name, w, texts)
			}
		}
	}
}

func parseSVG(t *testing.T, path string) ([]string, map[string]int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var texts []string
	elements := map[string]int{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return texts, elements
		}
		if err != nil {
			t.Fatalf("%s is not XML: %v", path, err)
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
}

func TestPlotErrors(t *testing.T) {
	dir := t.TempDir()
	for code, want := range map[string]string{
		`plot.line(jnp.ones(3), path = "x.gif")`:                   "must end in .png or .svg",
		`plot.line(jnp.ones(3), jnp.ones(4), path = "x.png")`:      "x has 3 values and y has 4 rows",
		`plot.line(jnp.array([1.0, jnp.nan]), path = "x.png")`:     "finite",
		`plot.line(jnp.ones((2, 2)), path = "x.png", label = "a")`: "labels=",
		`plot.hist(jnp.ones(3), bins = 0, path = "x.png")`:         "bins",
		`plot.line(jnp.ones(3), path = "/tmp/x.png")`:              "absolute paths are not allowed",
		`plot.imshow(jnp.ones(3), path = "x.png")`:                 "2-D",
	} {
		err := run(t, dir, code)
		if err == nil || !strings.Contains(jaxsh.FormatError(err), want) {
			t.Errorf("%s: got %v, want an error containing %q", code, err, want)
		}
	}
}
