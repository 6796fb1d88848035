// Package export is the serialized form of a traced function (SPEC §7): an
// Exported holds the jaxpr a jitted function traced to, with the metadata
// JAX's jax.export.Exported has, and compiles it on load for whichever
// backend runs it. Serialize and Deserialize write and read the versioned
// binary format of docs/export-format.md; MLIRModule prints the program as
// StableHLO.
//
// Host callbacks survive export: each is stored under its name with an
// opaque description of its use, and Deserialize binds them again from a
// name → BindFunc map.
package export

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jaxsh/jaxsh/trace"
)

// CallingConventionVersion is the calling convention of MLIRModule's main
// function: JAX's version 9 (a platform index argument when there are
// several platforms, then one token per ordered effect, then the arrays).
const CallingConventionVersion = 9

// KnownPlatforms are the platform names an artifact may be exported for,
// as JAX spells them. jaxsh runs cpu and cuda; the others may be named so
// that an artifact carries them (and their platform check).
var KnownPlatforms = []string{"cpu", "cuda", "rocm", "tpu"}

// An Exported is a traced function ready to be serialized or called.
type Exported struct {
	FunName  string
	InAvals  []trace.AVal
	OutAvals []trace.AVal
	InTree   *TreeDef
	OutTree  *TreeDef
	// Platforms the function was exported for; a call elsewhere is an error
	// unless DisabledChecks holds PlatformCheck.
	Platforms                []string
	OrderedEffects           trace.Effects
	UnorderedEffects         trace.Effects
	CallingConventionVersion int
	NrDevices                int
	DisabledChecks           []DisabledCheck
	// Jaxpr is the traced function. Its Consts are jit.Buffer (a function
	// exported in this process) or *Constant (one deserialized).
	Jaxpr *trace.Jaxpr
	// Poly is set for a shape-polymorphic export (poly.go).
	Poly *Polymorphism

	vjp func() (*Exported, error)
	// storedVJP is the VJP a deserialized artifact carried.
	storedVJP *Exported
	// loaded marks a deserialized artifact.
	loaded bool

	mu       sync.Mutex
	compiled map[string]*Compiled
}

// A Constant is the host value of a deserialized constant input.
type Constant struct {
	AVal trace.AVal
	Data []byte
}

// A DisabledCheck turns off one safety check, as JAX's DisabledSafetyCheck.
type DisabledCheck string

// The checks that can be disabled.
const (
	PlatformCheck        DisabledCheck = "platform"
	ShapeAssertionsCheck DisabledCheck = "shape_assertions"
)

// CustomCallCheck disables the check of one custom call target. jaxsh
// emits no custom calls whose compatibility is in doubt; the check exists
// so that artifacts written with it load.
func CustomCallCheck(target string) DisabledCheck { return DisabledCheck("custom_call:" + target) }

func (c DisabledCheck) valid() bool {
	return c == PlatformCheck || c == ShapeAssertionsCheck ||
		(strings.HasPrefix(string(c), "custom_call:") && len(c) > len("custom_call:"))
}

// String is JAX's repr of the check.
func (c DisabledCheck) String() string {
	if t, ok := strings.CutPrefix(string(c), "custom_call:"); ok {
		return "DisabledSafetyCheck.custom_call(" + pyStr(t) + ")"
	}
	return "DisabledSafetyCheck." + string(c) + "()"
}

// Options are what export takes beyond the function: the platforms
// (default: the platform of the device it was traced for) and the disabled
// checks.
type Options struct {
	Platforms      []string
	DisabledChecks []DisabledCheck
}

// New makes an Exported from a jaxpr traced for the given inputs. The
// caller (the dialect or the embedding API) has traced the function; New
// checks the metadata and splits the effects. defaultPlatform is used
// when opts.Platforms is empty.
func New(funName string, j *trace.Jaxpr, inTree, outTree *TreeDef, defaultPlatform string, opts Options) (*Exported, error) {
	platforms := opts.Platforms
	if len(platforms) == 0 {
		platforms = []string{defaultPlatform}
	}
	if err := checkPlatforms(platforms); err != nil {
		return nil, err
	}
	for _, c := range opts.DisabledChecks {
		if !c.valid() {
			return nil, fmt.Errorf("export: unknown disabled check %q", string(c))
		}
	}
	if inTree != nil && inTree.NumLeaves() != len(j.InVars) {
		return nil, fmt.Errorf("export: the input structure %s has %d leaves for %d inputs", inTree, inTree.NumLeaves(), len(j.InVars))
	}
	if outTree != nil && outTree.NumLeaves() != len(j.OutVars) {
		return nil, fmt.Errorf("export: the output structure %s has %d leaves for %d outputs", outTree, outTree.NumLeaves(), len(j.OutVars))
	}
	e := &Exported{
		FunName: funName, InAvals: j.InAvals(), OutAvals: j.OutAvals(),
		InTree: inTree, OutTree: outTree,
		Platforms:                slices.Clone(platforms),
		CallingConventionVersion: CallingConventionVersion,
		NrDevices:                1,
		DisabledChecks:           slices.Clone(opts.DisabledChecks),
		Jaxpr:                    j,
	}
	e.OrderedEffects, e.UnorderedEffects = splitEffects(j.Effects)
	e.vjp = lazyVJP(e)
	return e, nil
}

func splitEffects(all trace.Effects) (ordered, unordered trace.Effects) {
	for _, eff := range all {
		if eff.Ordered {
			ordered = append(ordered, eff)
		} else {
			unordered = append(unordered, eff)
		}
	}
	return ordered, unordered
}

func checkPlatforms(platforms []string) error {
	for i, p := range platforms {
		if !slices.Contains(KnownPlatforms, p) {
			return fmt.Errorf("export: unknown platform %s; known platforms: %s", pyStr(p), strings.Join(KnownPlatforms, ", "))
		}
		if slices.Contains(platforms[:i], p) {
			return fmt.Errorf("export: platform %s is listed twice", pyStr(p))
		}
	}
	if len(platforms) == 0 {
		return errors.New("export: no platforms")
	}
	return nil
}

// SetVJP gives the function that computes this function's VJP as another
// Exported, called when serializing with vjp_order > 0 (JAX computes it
// lazily too, while the program is still at hand).
func (e *Exported) SetVJP(f func() (*Exported, error)) { e.vjp = f }

// ErrNoVJP is the error of VJP on an artifact serialized without it.
var ErrNoVJP = errors.New("No VJP is available")

// VJP returns the exported VJP of the function: it takes the primal inputs
// followed by one cotangent per output and returns one cotangent per
// input.
func (e *Exported) VJP() (*Exported, error) {
	if e.vjp == nil {
		return nil, ErrNoVJP
	}
	return e.vjp()
}

// HasVJP reports whether VJP can succeed.
func (e *Exported) HasVJP() bool { return e.vjp != nil }

// CheckPlatform is the platform safety check of a call on platform.
func (e *Exported) CheckPlatform(platform string) error {
	if slices.Contains(e.Platforms, platform) || slices.Contains(e.DisabledChecks, PlatformCheck) {
		return nil
	}
	return fmt.Errorf("Function %s was lowered for platforms '%s' but it is used on '%s'.",
		pyStr(e.FunName), pyStrTuple(e.Platforms), pyStrTuple([]string{platform}))
}

// CallbackNames lists the names of the host callbacks the program calls,
// sorted, each once.
func (e *Exported) CallbackNames() []string {
	var names []string
	walkCallbacks(e.Jaxpr, func(c trace.Callback) { names = append(names, exportName(c)) })
	slices.Sort(names)
	return slices.Compact(names)
}

func walkCallbacks(j *trace.Jaxpr, f func(trace.Callback)) {
	for _, eqn := range j.Eqns {
		for _, v := range eqn.Params {
			switch x := v.(type) {
			case trace.Callback:
				f(x)
			case *trace.Jaxpr:
				walkCallbacks(x, f)
			case []*trace.Jaxpr:
				for _, sub := range x {
					walkCallbacks(sub, f)
				}
			}
		}
	}
}

// String summarises the artifact as `jaxsh inspect` shows it.
func (e *Exported) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "fun_name: %s\n", e.FunName)
	fmt.Fprintf(&b, "in_avals: %s\n", e.InAvalsText())
	fmt.Fprintf(&b, "out_avals: %s\n", avalTuple(e.OutAvals))
	if e.InTree != nil {
		fmt.Fprintf(&b, "in_tree: %s\n", e.InTree)
	}
	if e.OutTree != nil {
		fmt.Fprintf(&b, "out_tree: %s\n", e.OutTree)
	}
	fmt.Fprintf(&b, "platforms: %s\n", pyStrTuple(e.Platforms))
	fmt.Fprintf(&b, "ordered_effects: %s\n", effectTuple(e.OrderedEffects))
	fmt.Fprintf(&b, "unordered_effects: %s\n", effectTuple(e.UnorderedEffects))
	fmt.Fprintf(&b, "calling_convention_version: %d\n", e.CallingConventionVersion)
	fmt.Fprintf(&b, "nr_devices: %d\n", e.NrDevices)
	checks := make([]string, len(e.DisabledChecks))
	for i, c := range e.DisabledChecks {
		checks[i] = c.String()
	}
	fmt.Fprintf(&b, "disabled_checks: %s\n", pyTuple(checks))
	if names := e.CallbackNames(); len(names) > 0 {
		fmt.Fprintf(&b, "callbacks: %s\n", pyStrTuple(names))
	}
	order := 0
	for v := e; v.storedVJP != nil; v = v.storedVJP {
		order++
	}
	if order > 0 {
		fmt.Fprintf(&b, "vjp_order: %d\n", order)
	}
	return b.String()
}

func avalTuple(avals []trace.AVal) string {
	items := make([]string, len(avals))
	for i, a := range avals {
		items[i] = ShapedArrayRepr(a)
	}
	return pyTuple(items)
}

// ShapedArrayRepr prints an aval as JAX's repr of a ShapedArray.
func ShapedArrayRepr(a trace.AVal) string {
	if a.IsToken() {
		return "AbstractToken()"
	}
	if a.Weak {
		return "ShapedArray(" + a.LongString() + ", weak_type=True)"
	}
	return "ShapedArray(" + a.LongString() + ")"
}

func effectTuple(effs trace.Effects) string {
	items := make([]string, len(effs))
	for i, e := range effs {
		items[i] = e.String()
	}
	return pyTuple(items)
}

func pyTuple(items []string) string {
	switch len(items) {
	case 0:
		return "()"
	case 1:
		return "(" + items[0] + ",)"
	}
	return "(" + strings.Join(items, ", ") + ")"
}

func pyStrTuple(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = pyStr(s)
	}
	return pyTuple(quoted)
}

// pyStr quotes s as Python's repr of a str does for the plain names used
// here (platforms, function and callback names).
func pyStr(s string) string {
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
