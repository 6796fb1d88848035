package export_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/trace"
)

// mlirOpt finds MLIR's mlir-opt (Debian's mlir-N-tools), or "".
func mlirOpt() string {
	if p, err := exec.LookPath("mlir-opt"); err == nil {
		return p
	}
	paths, _ := filepath.Glob("/usr/lib/llvm-*/bin/mlir-opt")
	slices.Sort(paths)
	if len(paths) > 0 {
		return paths[len(paths)-1]
	}
	return ""
}

// withoutLowering are the corpus programs whose primitives have no
// StableHLO lowering yet, with the reason MLIRModule gives.
var withoutLowering = map[string]string{
	"argmax":       "no StableHLO lowering for primitive argmax",
	"argmin":       "no StableHLO lowering for primitive argmin",
	"threefry2x32": "no StableHLO lowering for primitive threefry2x32",
	"gather_fill":  "gather with mode FILL_OR_DROP has no StableHLO lowering here yet",
	"custom_lin":   "no StableHLO lowering for primitive custom_lin",
	"lu":           "lu lowers to a platform's LAPACK or cuSOLVER custom call in XLA; not lowered here",
	"qr":           "qr lowers to a platform's LAPACK or cuSOLVER custom call in XLA; not lowered here",
	"eig":          "eig lowers to a platform's LAPACK or cuSOLVER custom call in XLA; not lowered here",
	"eigh":         "eigh lowers to a platform's LAPACK or cuSOLVER custom call in XLA; not lowered here",
	"svd":          "svd lowers to a platform's LAPACK or cuSOLVER custom call in XLA; not lowered here",
}

// Every corpus program lowers (or fails with its listed reason), and what
// it lowers to parses with MLIR's own parser where mlir-opt is installed
// (one run for all modules; one per module to find a module it rejects).
func TestMLIRModuleParses(t *testing.T) {
	modules := map[string]string{}
	for name, j := range corpus(t) {
		e, err := export.New(name, j, nil, nil, "cpu", export.Options{Platforms: []string{"cpu", "cuda"}})
		if err != nil {
			t.Fatal(err)
		}
		text, err := e.MLIRModule()
		if want, skip := withoutLowering[name]; skip {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: MLIRModule: %v, want an error saying %q", name, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		modules[name] = text
	}
	opt := mlirOpt()
	if opt == "" {
		t.Skip("mlir-opt not found (apt-get install mlir-19-tools): lowering checked, parsing not")
	}
	parse := func(text string, split bool) ([]byte, error) {
		args := []string{"--allow-unregistered-dialect", "--mlir-print-op-generic"}
		if split {
			args = append(args, "--split-input-file")
		}
		cmd := exec.Command(opt, args...)
		cmd.Stdin = strings.NewReader(text)
		return cmd.CombinedOutput()
	}
	var all []string
	for _, text := range modules {
		all = append(all, text)
	}
	if _, err := parse(strings.Join(all, "// -----\n"), true); err == nil {
		return
	}
	for name, text := range modules {
		if out, err := parse(text, false); err != nil {
			t.Errorf("%s: mlir-opt rejects the module: %v\n%s\nmodule:\n%s", name, err, out, text)
		}
	}
}

// Golden StableHLO text of a few programs: calling convention, effects
// with tokens, control flow, constants.
func TestMLIRModuleGolden(t *testing.T) {
	progs := corpus(t)
	for _, tc := range []struct {
		name      string
		platforms []string
	}{
		{"mixed", nil}, {"cond", nil}, {"while", nil}, {"scan", []string{"cpu", "cuda"}}, {"cumsum", nil}, {"integer_pow", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := export.New(tc.name, progs[tc.name], nil, nil, "cpu", export.Options{Platforms: tc.platforms})
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.MLIRModule()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "mlir", tc.name+".mlir")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs; got:\n%s", path, got)
			}
		})
	}
}

// The seed's example: main's signature for f(x) = 2 * x * x on f32[].
func TestMLIRModuleSeedExample(t *testing.T) {
	j := newJB(t)
	x := j.in(trace.Float32)
	y := j.one("mul", nil, j.one("mul", nil, lit(t, 2.0, trace.Float32, true), x), x)
	e := mustExport(t, "f", j.build(y))
	text, err := e.MLIRModule()
	if err != nil {
		t.Fatal(err)
	}
	const want = `"func.func"() <{function_type = (tensor<f32>) -> (tensor<f32>), sym_name = "main", sym_visibility = "public"}> ({`
	if !strings.Contains(text, want) {
		t.Errorf("main:\n%s\nwant a line %s", text, want)
	}
}
