package export_test

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/trace"
)

var update = flag.Bool("update", false, "rewrite the golden artifacts of the current format version in testdata/")

// mixedArtifact serializes the corpus program with every kind of effect.
func mixedArtifact(t *testing.T) (*export.Exported, []byte) {
	t.Helper()
	e := mustExport(t, "mixed", mixedPrograms(t)["mixed"])
	data, err := e.Serialize(0)
	if err != nil {
		t.Fatal(err)
	}
	return e, data
}

func wantFormatError(t *testing.T, data []byte, binds map[string]export.BindFunc, want string) {
	t.Helper()
	_, err := export.Deserialize(data, binds)
	var fe *export.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("Deserialize: %v, want a FormatError", err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("Deserialize: %v, want it to say %q", err, want)
	}
}

func TestHeaderErrors(t *testing.T) {
	e, data := mixedArtifact(t)
	binds := callbackBindings(e)
	if _, err := export.Deserialize(data, binds); err != nil {
		t.Fatal(err)
	}
	withVersion := func(v uint32) []byte {
		out := append([]byte(nil), data...)
		binary.LittleEndian.PutUint32(out[8:], v)
		return out
	}
	wantFormatError(t, withVersion(2), binds, "the artifact has format version 2, newer than this jaxsh reads (1 to 1); load it with a newer jaxsh")
	wantFormatError(t, withVersion(0), binds, "format version 0, which no jaxsh reads")
	wantFormatError(t, []byte("PK\x03\x04 a zip file"), binds, `not a jaxsh export artifact (it does not start with "JAXSHEXP")`)
	wantFormatError(t, data[:10], binds, "truncated artifact: 10 bytes, shorter than its 24-byte header")
	wantFormatError(t, data[:len(data)-1], binds, fmt.Sprintf("truncated artifact: the header announces %d bytes of payload, %d are present", len(data)-24, len(data)-25))
	wantFormatError(t, append(append([]byte(nil), data...), 0), binds, "1 stray bytes after the artifact's payload")
	corrupt := append([]byte(nil), data...)
	corrupt[len(corrupt)/2] ^= 0x10
	wantFormatError(t, corrupt, binds, "the artifact is corrupted: its checksum is")
}

// Every prefix and every single-bit flip of an artifact is an error, never
// a panic or a silently different program.
func TestEveryTruncationAndBitFlipFails(t *testing.T) {
	e, data := mixedArtifact(t)
	binds := callbackBindings(e)
	for n := range len(data) {
		if _, err := export.Deserialize(data[:n], binds); err == nil {
			t.Fatalf("a prefix of %d of %d bytes loaded", n, len(data))
		}
	}
	for i := range data {
		for bit := range 8 {
			flipped := append([]byte(nil), data...)
			flipped[i] ^= 1 << bit
			if _, err := export.Deserialize(flipped, binds); err == nil {
				t.Fatalf("flipping bit %d of byte %d went unnoticed", bit, i)
			}
		}
	}
}

func TestCallbackBindings(t *testing.T) {
	e, data := mixedArtifact(t)
	if got, want := strings.Join(e.CallbackNames(), " "), "host_fn tap_fn"; got != want {
		t.Fatalf("CallbackNames = %s, want %s", got, want)
	}
	for _, tc := range []struct {
		binds map[string]export.BindFunc
		want  string
	}{
		{nil, "deserialize: the artifact calls host callbacks that are not bound: host_fn, tap_fn (pass them in callbacks=)"},
		{map[string]export.BindFunc{"tap_fn": bindTest("tap_fn")},
			"deserialize: the artifact calls host callbacks that are not bound: host_fn (pass them in callbacks=)"},
		{map[string]export.BindFunc{"tap_fn": bindTest("tap_fn"), "host_fn": bindTest("host_fn"), "zeta": bindTest("zeta"), "alpha": bindTest("alpha")},
			"deserialize: callbacks= binds names the artifact does not use: alpha, zeta (it uses: host_fn, tap_fn)"},
		{map[string]export.BindFunc{"tap_fn": bindTest("tap_fn"), "other": bindTest("other")},
			"deserialize: the artifact calls host callbacks that are not bound: host_fn (pass them in callbacks=); " +
				"callbacks= binds names the artifact does not use: other (it uses: host_fn, tap_fn)"},
		{map[string]export.BindFunc{"tap_fn": bindTest("tap_fn"), "host_fn": func(string, []byte) (trace.Callback, error) {
			return nil, errors.New("not today")
		}}, "binding host callback host_fn: not today"},
	} {
		_, err := export.Deserialize(data, tc.binds)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Deserialize: %v\nwant: %s", err, tc.want)
		}
	}
	// The binder sees each use's kind and description.
	var seen []string
	binds := map[string]export.BindFunc{}
	for _, n := range e.CallbackNames() {
		binds[n] = func(kind string, spec []byte) (trace.Callback, error) {
			seen = append(seen, fmt.Sprintf("%s %s %q", n, kind, spec))
			return &testCallback{name: n, kind: kind, spec: spec}, nil
		}
	}
	if _, err := export.Deserialize(data, binds); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(seen, "; "), `tap_fn id_tap "{}"; host_fn call ""`; got != want {
		t.Errorf("binder calls: %s, want %s", got, want)
	}
	// Inspect loads without bindings.
	in, err := export.Inspect(data)
	if err != nil {
		t.Fatal(err)
	}
	if in.Jaxpr.String() != e.Jaxpr.String() {
		t.Errorf("Inspect's jaxpr differs")
	}
}

func TestPlatformCheck(t *testing.T) {
	j := paramPrograms(t)["round"]
	e, err := export.New("cos", j, nil, nil, "cpu", export.Options{Platforms: []string{"tpu"}})
	if err != nil {
		t.Fatal(err)
	}
	const want = "Function 'cos' was lowered for platforms '('tpu',)' but it is used on '('cpu',)'."
	if err := e.CheckPlatform("cpu"); err == nil || err.Error() != want {
		t.Errorf("CheckPlatform: %v, want %s", err, want)
	}
	loaded := roundTrip(t, e)
	if err := loaded.CheckPlatform("cpu"); err == nil || err.Error() != want {
		t.Errorf("loaded CheckPlatform: %v, want %s", err, want)
	}
	unsafe, err := export.New("cos", j, nil, nil, "cpu", export.Options{Platforms: []string{"tpu"}, DisabledChecks: []export.DisabledCheck{export.PlatformCheck}})
	if err != nil {
		t.Fatal(err)
	}
	if err := roundTrip(t, unsafe).CheckPlatform("cpu"); err != nil {
		t.Errorf("with the platform check disabled: %v", err)
	}
	multi, err := export.New("cos", j, nil, nil, "cpu", export.Options{Platforms: []string{"tpu", "cpu", "cuda"}})
	if err != nil {
		t.Fatal(err)
	}
	runBoth(t, j, roundTrip(t, multi))
	if _, err := export.New("cos", j, nil, nil, "cpu", export.Options{Platforms: []string{"quantum"}}); err == nil ||
		err.Error() != "export: unknown platform 'quantum'; known platforms: cpu, cuda, rocm, tpu" {
		t.Errorf("unknown platform: %v", err)
	}
}

// goldenPrograms are serialized into testdata/v<N>/ for each format
// version; later versions must keep loading them.
var goldenPrograms = []string{"mixed", "cond", "while", "scan", "jit", "gather_fill", "dot_general", "pad", "sort", "scatter-add", "id_tap", "call"}

func TestGoldenArtifacts(t *testing.T) {
	progs := corpus(t)
	for version := export.MinFormatVersion; version <= export.FormatVersion; version++ {
		dir := filepath.Join("testdata", fmt.Sprintf("v%d", version))
		if *update && version == export.FormatVersion {
			writeGolden(t, dir, progs)
		}
		for _, name := range goldenPrograms {
			t.Run(fmt.Sprintf("v%d/%s", version, name), func(t *testing.T) {
				data, err := os.ReadFile(filepath.Join(dir, name+".jaxsh-export"))
				if err != nil {
					t.Fatalf("%v (run go test ./export -run TestGoldenArtifacts -update to write the current version's)", err)
				}
				text, err := os.ReadFile(filepath.Join(dir, name+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				inspected, err := export.Inspect(data)
				if err != nil {
					t.Fatal(err)
				}
				loaded, err := export.Deserialize(data, callbackBindings(inspected))
				if err != nil {
					t.Fatal(err)
				}
				if got := loaded.String() + loaded.Jaxpr.String() + "\n"; got != string(text) {
					t.Errorf("loaded artifact:\n%s\nwant:\n%s", got, text)
				}
				runBoth(t, progs[name], loaded)
			})
		}
	}
}

func writeGolden(t *testing.T, dir string, progs map[string]*trace.Jaxpr) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range goldenPrograms {
		e := mustExport(t, name, progs[name])
		data, err := e.Serialize(0)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".jaxsh-export"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(e.String()+e.Jaxpr.String()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Builtin bindings cover names the user need not bind; the user's win.
func TestBuiltinBindings(t *testing.T) {
	_, data := mixedArtifact(t)
	var builtinKinds []string
	builtin := func(name, kind string, spec []byte) (trace.Callback, error) {
		if name != "tap_fn" {
			return nil, errors.New("not a builtin")
		}
		builtinKinds = append(builtinKinds, kind)
		return &testCallback{name: name, kind: "builtin"}, nil
	}
	e, err := export.DeserializeWith(data, export.DeserializeOptions{
		Callbacks: map[string]export.BindFunc{"host_fn": bindTest("host_fn")}, Builtin: builtin})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.Jaxpr.String(), "callback=tap_fn") || len(builtinKinds) == 0 {
		t.Errorf("tap_fn was not bound by the builtin binder: %v", builtinKinds)
	}
	if _, err := export.DeserializeWith(data, export.DeserializeOptions{Builtin: builtin}); err == nil ||
		!strings.Contains(err.Error(), "not bound: host_fn (pass") {
		t.Errorf("host_fn unbound: %v", err)
	}
}
