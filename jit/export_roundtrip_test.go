package jit_test

import (
	"bytes"
	"testing"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/jit"
)

// Every program of this package's end-to-end tests survives export: the
// loaded artifact prints the same jaxpr and computes the same bytes.
func TestProgramsSurviveExport(t *testing.T) {
	dev, err := jit.LookupDevice("cpu")
	if err != nil {
		t.Fatal(err)
	}
	cases := jit.StudyJaxprs(t)
	for name, j := range moreJaxprs(t) {
		cases[name] = j
	}
	for name, j := range cases {
		t.Run(name, func(t *testing.T) {
			e, err := export.New(name, j, nil, nil, "cpu", export.Options{})
			if err != nil {
				t.Fatal(err)
			}
			data, err := e.Serialize(0)
			if err != nil {
				t.Fatal(err)
			}
			loaded, err := export.Deserialize(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := loaded.Jaxpr.String(), j.String(); got != want {
				t.Fatalf("loaded jaxpr:\n%s\nwant:\n%s", got, want)
			}
			var args []jit.Buffer
			for _, a := range j.InAvals() {
				data := make([]byte, a.Size()*a.DType.Size())
				for i := range data {
					data[i] = byte(i*7%61) >> 1 // small positive values of any float width
				}
				buf, err := jit.FromHost(dev, a, data)
				if err != nil {
					t.Fatal(err)
				}
				args = append(args, buf)
			}
			consts, err := export.ConstBuffers(j, dev)
			if err != nil {
				t.Fatal(err)
			}
			want := run(t, j, jit.OptionsFor(dev), append(consts, args...))
			got, err := loaded.Run(dev, args, jit.NoHost)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				g, err := jit.ToHost(got[i])
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(g, want[i]) {
					t.Errorf("output %d differs after export", i)
				}
			}
		})
	}
}
