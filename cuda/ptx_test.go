package cuda

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

var update = flag.Bool("update", false, "rewrite the golden PTX files in testdata")

// pb builds jaxprs for tests.
type pb struct {
	t *testing.T
	b *trace.Builder
}

func newPB(t *testing.T) *pb { return &pb{t: t, b: trace.NewBuilder()} }

func (p *pb) in(dt trace.DType, shape ...int) *trace.Var {
	return p.b.Input(trace.AVal{Shape: trace.Shape(shape), DType: dt})
}

func (p *pb) op(prim string, params trace.Params, in ...trace.Atom) *trace.Var {
	p.t.Helper()
	if params == nil {
		params = trace.Params{}
	}
	out, err := p.b.Bind(prim, in, params, trace.Pos{})
	if err != nil {
		p.t.Fatalf("%s: %v", prim, err)
	}
	return out[0]
}

func (p *pb) lit(x any, dt trace.DType) *trace.Literal {
	p.t.Helper()
	l, err := trace.NewLiteral(x, dt, false)
	if err != nil {
		p.t.Fatal(err)
	}
	return l
}

func (p *pb) build(outs ...trace.Atom) *trace.Jaxpr {
	p.t.Helper()
	j, err := p.b.Build(outs)
	if err != nil {
		p.t.Fatal(err)
	}
	return j
}

// fusedProgram compiles j as for a backend that fuses.
func fusedProgram(t *testing.T, j *trace.Jaxpr, fuse bool) *jit.Program {
	t.Helper()
	opts := jit.DefaultOptions()
	opts.Fuse = fuse
	p, err := jit.CompileWith(j, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The golden programs: the study's f_well_fused, a row reduction, a
// matrix product, a transpose, and dtype coverage.
var goldenCases = []struct {
	name  string
	fuse  bool
	build func(p *pb) *trace.Jaxpr
}{
	{"well_fused", true, func(p *pb) *trace.Jaxpr {
		// a = x*2; b = arange(n)[:, None]*3; c = x[0] + x - a;
		// sin(a) + a**2 + b + c
		const n = 1024
		f32, i32 := trace.Float32, trace.Int32
		x := p.in(f32, n, 2)
		a := p.op("mul", nil, x, p.lit(2.0, f32))
		io := p.op("iota", trace.Params{"dtype": i32, "shape": []int{n}, "dimension": 0})
		bb := p.op("broadcast_in_dim", trace.Params{"shape": []int{n, 1}, "broadcast_dimensions": []int{0}}, io)
		bb = p.op("mul", nil, bb, p.lit(int64(3), i32))
		x0 := p.op("slice", trace.Params{"start_indices": []int{0, 0}, "limit_indices": []int{1, 2}, "strides": nil}, x)
		x0 = p.op("squeeze", trace.Params{"dimensions": []int{0}}, x0)
		x0 = p.op("broadcast_in_dim", trace.Params{"shape": []int{n, 2}, "broadcast_dimensions": []int{1}}, x0)
		c := p.op("sub", nil, p.op("add", nil, x0, x), a)
		s := p.op("add", nil, p.op("sin", nil, a), p.op("integer_pow", trace.Params{"y": 2}, a))
		bf := p.op("convert_element_type", trace.Params{"new_dtype": f32, "weak_type": false}, bb)
		bf = p.op("broadcast_in_dim", trace.Params{"shape": []int{n, 2}, "broadcast_dimensions": []int{0, 1}}, bf)
		return p.build(p.op("add", nil, p.op("add", nil, s, bf), c))
	}},
	{"row_sum", true, func(p *pb) *trace.Jaxpr {
		x := p.in(trace.Float32, 64, 1000)
		y := p.op("exp", nil, x)
		return p.build(p.op("reduce_sum", trace.Params{"axes": []int{1}}, y), p.op("reduce_max", trace.Params{"axes": []int{1}}, y))
	}},
	{"short_reduce", true, func(p *pb) *trace.Jaxpr {
		x := p.in(trace.Int32, 1000, 3)
		return p.build(p.op("reduce_min", trace.Params{"axes": []int{1}}, x))
	}},
	{"matmul", false, func(p *pb) *trace.Jaxpr {
		a := p.in(trace.Float32, 100, 70)
		b := p.in(trace.Float32, 70, 50)
		return p.build(p.op("dot_general", trace.Params{"dimension_numbers": trace.DotDimensionNumbers{
			LhsContracting: []int{1}, RhsContracting: []int{0}}, "precision": nil, "preferred_element_type": trace.Float32}, a, b))
	}},
	{"transpose", false, func(p *pb) *trace.Jaxpr {
		a := p.in(trace.Float64, 300, 200)
		return p.build(p.op("transpose", trace.Params{"permutation": []int{1, 0}}, a))
	}},
	{"dtypes", true, func(p *pb) *trace.Jaxpr {
		i8 := p.in(trace.Int8, 16)
		u16 := p.in(trace.Uint16, 16)
		h := p.in(trace.Float16, 16)
		bf := p.in(trace.BFloat16, 16)
		i64 := p.in(trace.Int64, 16)
		cv := func(x trace.Atom, dt trace.DType) *trace.Var {
			return p.op("convert_element_type", trace.Params{"new_dtype": dt, "weak_type": false}, x)
		}
		q := p.op("div", nil, i8, p.lit(int64(3), trace.Int8))
		sh := p.op("shift_right_logical", nil, u16, p.lit(int64(2), trace.Uint16))
		hs := p.op("mul", nil, h, cv(bf, trace.Float16))
		lt := p.op("lt", nil, cv(q, trace.Int64), i64)
		return p.build(p.op("select_n", nil, lt, cv(sh, trace.Float16), hs), p.op("log", nil, bf))
	}},
}

func TestGoldenPTX(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			prog := fusedProgram(t, c.build(newPB(t)), c.fuse)
			comp, err := compileProgram(prog)
			if err != nil {
				t.Fatal(err)
			}
			checkPTX(t, comp.ptx)
			path := filepath.Join("testdata", c.name+".ptx")
			if *update {
				if err := os.WriteFile(path, []byte(comp.ptx), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if string(want) != comp.ptx {
				t.Errorf("PTX for %s differs from %s (go test -update rewrites it):\n%s", c.name, path, firstDiff(string(want), comp.ptx))
			}
		})
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, x, y)
		}
	}
	return ""
}

var (
	reEntry   = regexp.MustCompile(`(?s)\.visible \.entry (\w+)\((.*?)\)\n\{\n(.*?)\n\}\n`)
	reRegDecl = regexp.MustCompile(`\.reg \.\w+ (%[a-z]+)<(\d+)>;`)
	reRegUse  = regexp.MustCompile(`%([a-z]+)(\d+)\b`)
	reParam   = regexp.MustCompile(`\.param \.u64 (\w+)`)
	reLabel   = regexp.MustCompile(`(?m)^(\$L_\w+):$`)
	reBranch  = regexp.MustCompile(`bra(?:\.uni)? (\$L_\w+);`)
)

// checkPTX checks what ptxas would reject first: the module header,
// balanced braces and brackets, every register used declared, every
// parameter used declared and every declared one used, every branch target
// defined, every instruction ended by a semicolon.
func checkPTX(t *testing.T, ptx string) {
	t.Helper()
	assemble(t, ptx)
	if !strings.HasPrefix(ptx, ptxHeader) {
		t.Errorf("PTX lacks its header")
	}
	if strings.Count(ptx, "{") != strings.Count(ptx, "}") || strings.Count(ptx, "[") != strings.Count(ptx, "]") {
		t.Errorf("unbalanced braces or brackets")
	}
	entries := reEntry.FindAllStringSubmatch(ptx, -1)
	if n := strings.Count(ptx, ".entry"); n != len(entries) {
		t.Fatalf("%d .entry, %d parsed", n, len(entries))
	}
	for _, m := range entries {
		name, params, body := m[1], m[2], m[3]
		declared := map[string]int{}
		for _, d := range reRegDecl.FindAllStringSubmatch(body, -1) {
			n, _ := strconv.Atoi(d[2])
			declared[d[1]] = n
		}
		for _, u := range reRegUse.FindAllStringSubmatch(body, -1) {
			prefix := "%" + u[1]
			switch prefix {
			case "%tid", "%ntid", "%ctaid", "%nctaid":
				continue
			}
			n, _ := strconv.Atoi(u[2])
			if lim, ok := declared[prefix]; !ok || n >= lim {
				t.Errorf("%s: register %s%d not declared", name, prefix, n)
			}
		}
		for _, p := range reParam.FindAllStringSubmatch(params, -1) {
			if !strings.Contains(body, "["+p[1]+"]") {
				t.Errorf("%s: parameter %s never loaded", name, p[1])
			}
		}
		for _, ld := range regexp.MustCompile(`ld\.param\.u64 %rd\d+, \[(\w+)\]`).FindAllStringSubmatch(body, -1) {
			if !strings.Contains(params, ld[1]) {
				t.Errorf("%s: loads undeclared parameter %s", name, ld[1])
			}
		}
		labels := map[string]bool{}
		for _, l := range reLabel.FindAllStringSubmatch(body, -1) {
			labels[l[1]] = true
		}
		for _, br := range reBranch.FindAllStringSubmatch(body, -1) {
			if !labels[br[1]] {
				t.Errorf("%s: branch to undefined label %s", name, br[1])
			}
		}
		for _, line := range strings.Split(body, "\n") {
			l := strings.TrimSpace(line)
			if l == "" || strings.HasPrefix(l, "//") || strings.HasSuffix(l, ":") {
				continue
			}
			if !strings.HasSuffix(l, ";") {
				t.Errorf("%s: line without ';': %q", name, l)
			}
			if strings.Contains(l, "%!") || strings.Contains(l, "<nil>") {
				t.Errorf("%s: formatting error in %q", name, l)
			}
		}
	}
}

// TestElementwiseCoverage generates a one-equation loop kernel for every
// elementwise primitive on every dtype its shape rule accepts: the result
// is well-formed PTX, or an error that names what is not supported yet.
func TestElementwiseCoverage(t *testing.T) {
	var unsupportedList []string
	compiled := 0
	for _, prim := range trace.Primitives() {
		if jit.FusionClassOf(prim) != jit.FuseElementwise {
			continue
		}
		for _, dt := range trace.DTypes() {
			p := newPB(t)
			x := p.in(dt, 5, 3)
			var params trace.Params
			switch prim.Name {
			case "integer_pow":
				params = trace.Params{"y": 3}
			case "round":
				params = trace.Params{"rounding_method": trace.RoundToNearestEven}
			case "convert_element_type":
				params = trace.Params{"new_dtype": trace.Float32, "weak_type": false}
			case "reduce_precision":
				params = trace.Params{"exponent_bits": 5, "mantissa_bits": 10}
			}
			args := make([]trace.Atom, max(prim.MinIn, 1))
			for i := range args {
				args[i] = x
			}
			if prim.Name == "select_n" {
				args[0] = p.in(trace.Bool, 5, 3)
			}
			if prim.Name == "clamp" {
				args = []trace.Atom{x, x, x}
			}
			outs, err := p.b.Bind(prim.Name, args, params, trace.Pos{})
			if err != nil {
				continue // the shape rule refuses the dtype
			}
			j, err := p.b.Build([]trace.Atom{outs[0]})
			if err != nil {
				t.Fatal(err)
			}
			prog := fusedProgram(t, j, false)
			comp, err := compileProgram(prog)
			if err != nil {
				if _, ok := err.(interface{ Unwrap() error }); !ok && !strings.Contains(err.Error(), "cannot compile") {
					t.Errorf("%s on %s: %v", prim.Name, dt, err)
				}
				if !strings.Contains(err.Error(), prim.Name) {
					t.Errorf("%s on %s: the error does not name the primitive: %v", prim.Name, dt, err)
				}
				unsupportedList = append(unsupportedList, prim.Name+"/"+dt.ShortName())
				continue
			}
			compiled++
			checkPTX(t, comp.ptx)
		}
	}
	t.Logf("%d primitive/dtype pairs compiled; not yet: %s", compiled, strings.Join(unsupportedList, " "))
}

func TestUnsupportedNamesPrimitive(t *testing.T) {
	p := newPB(t)
	x := p.in(trace.Float32, 4)
	y := p.op("erf", nil, x)
	prog := fusedProgram(t, p.build(y), true)
	_, err := compileProgram(prog)
	if err == nil || !strings.Contains(err.Error(), "erf") || !strings.Contains(err.Error(), "cannot compile") {
		t.Fatalf("got %v, want an error naming erf", err)
	}
}
