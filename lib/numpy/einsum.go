package numpy

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/jaxsh/jaxsh/lib/lax"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp.einsum(subscripts, *operands, precision=None,
// preferred_element_type=None, optimize=...): the subscripts string with
// implicit ('ij,jk') or explicit ('ij,jk->ik') output, '...' for broadcast
// leading axes, and repeated labels for diagonals and traces. Operands are
// contracted pairwise from left to right (JAX lets opt_einsum choose the
// order; optimize= is accepted and ignored, so sums of three or more
// operands may round differently). Each step is JAX's _einsum step: labels
// used only here are summed out, repeated labels are masked with an eye and
// summed, size-1 axes against a larger partner are squeezed, and the pair is
// one dot_general, transposed to the order wanted. The interleaved form
// einsum(a, [0, 1], b, [1, 2]) is not supported.

func init() {
	jstarlark.Register(Module, "einsum", einsumBuiltin)
}

func einsumBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "einsum"
	var precision, preferred, out starlark.Value = starlark.None, starlark.None, starlark.None
	var rest []starlark.Tuple
	for _, kv := range kwargs {
		switch string(kv[0].(starlark.String)) {
		case "precision":
			precision = kv[1]
		case "preferred_element_type":
			preferred = kv[1]
		case "out":
			out = kv[1]
		case "optimize":
		default:
			rest = append(rest, kv)
		}
	}
	if len(rest) > 0 {
		return nil, fmt.Errorf("%s: unexpected keyword argument %s", fn, rest[0][0])
	}
	if out != starlark.None {
		return nil, fmt.Errorf("%s: the 'out' argument is not supported (arrays are immutable)", fn)
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("%s: missing the subscripts string", fn)
	}
	subscripts, ok := args[0].(starlark.String)
	if !ok {
		return nil, fmt.Errorf("%s: the first argument must be a subscripts string such as 'ij,jk->ik' (the interleaved operand, axes form is not supported), got %s", fn, args[0].Type())
	}
	opts, err := lax.ReadDotOptions(fn, precision, preferred)
	if err != nil {
		return nil, err
	}
	operands, err := linalgOperands(fn, args[1:]...)
	if err != nil {
		return nil, err
	}
	spec, err := parseEinsum(fn, string(subscripts), operands)
	if err != nil {
		return nil, err
	}
	return einsum(fn, spec, operands, opts)
}

// einsumSpec is a parsed subscripts string: one label string per operand
// and the output's, with '...' replaced by labels of their own.
type einsumSpec struct {
	inputs []string
	output string
	sizes  map[byte]int
}

// parseEinsum checks the subscripts against the operands (NumPy's and
// opt_einsum's rules) and names the ellipsis axes with unused letters,
// right-aligned so that operands with fewer of them broadcast.
func parseEinsum(fn, subscripts string, operands []*jstarlark.Array) (*einsumSpec, error) {
	s := strings.ReplaceAll(subscripts, " ", "")
	if len(operands) == 0 {
		return nil, fmt.Errorf("%s: no operands given for subscripts %q", fn, subscripts)
	}
	if strings.Count(s, "->") > 1 {
		return nil, fmt.Errorf("%s: subscripts %q must contain at most one '->'", fn, subscripts)
	}
	lhs, output, explicit := strings.Cut(s, "->")
	terms := strings.Split(lhs, ",")
	if len(terms) != len(operands) {
		return nil, fmt.Errorf("%s: subscripts %q have %d input terms but %d operands were given", fn, subscripts, len(terms), len(operands))
	}
	used := map[byte]bool{}
	checkTerm := func(term string) (string, bool, error) {
		ellipsis := false
		rest := term
		if i := strings.Index(term, "..."); i >= 0 {
			ellipsis = true
			rest = term[:i] + term[i+3:]
		}
		for i := 0; i < len(rest); i++ {
			c := rest[i]
			if !isEinsumLabel(c) {
				return "", false, fmt.Errorf("%s: invalid subscript %q in %q: labels are letters, and '...' stands for broadcast axes", fn, string(c), subscripts)
			}
			used[c] = true
		}
		return term, ellipsis, nil
	}
	ellipsisRank := 0
	for i, term := range terms {
		_, ell, err := checkTerm(term)
		if err != nil {
			return nil, err
		}
		labels := len(term)
		if ell {
			labels -= 3
		}
		nd := operands[i].NDim()
		switch {
		case ell && labels > nd, !ell && labels != nd:
			return nil, fmt.Errorf("%s: operand %d has %d dimensions but its subscripts %q name %d", fn, i, nd, term, labels)
		case ell:
			ellipsisRank = max(ellipsisRank, nd-labels)
		}
	}
	if explicit {
		if _, _, err := checkTerm(output); err != nil {
			return nil, err
		}
	}
	// Letters for the ellipsis axes: the first unused ones.
	var fresh []byte
	for _, c := range []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		if len(fresh) == ellipsisRank {
			break
		}
		if !used[c] {
			fresh = append(fresh, c)
		}
	}
	if len(fresh) < ellipsisRank {
		return nil, fmt.Errorf("%s: too many axes: no letters left to name the %d axes of '...'", fn, ellipsisRank)
	}
	spec := &einsumSpec{sizes: map[byte]int{}}
	counts := map[byte]int{}
	for i, term := range terms {
		if j := strings.Index(term, "..."); j >= 0 {
			k := operands[i].NDim() - (len(term) - 3)
			term = term[:j] + string(fresh[ellipsisRank-k:]) + term[j+3:]
		}
		for d := 0; d < len(term); d++ {
			c, size := term[d], operands[i].Shape()[d]
			prev, seen := spec.sizes[c]
			switch {
			case !seen || prev == 1:
				spec.sizes[c] = size
			case size != 1 && size != prev:
				return nil, fmt.Errorf("%s: size of label '%c' for operand %d (%d) does not match previous terms (%d)", fn, c, i, size, prev)
			}
			counts[c]++
		}
		spec.inputs = append(spec.inputs, term)
	}
	if explicit {
		if j := strings.Index(output, "..."); j >= 0 {
			output = output[:j] + string(fresh) + output[j+3:]
		}
		for d := 0; d < len(output); d++ {
			c := output[d]
			if counts[c] == 0 {
				return nil, fmt.Errorf("%s: output subscript '%c' does not appear in the inputs of %q", fn, c, subscripts)
			}
			if strings.Count(output, string(c)) > 1 {
				return nil, fmt.Errorf("%s: output subscript '%c' appears more than once in %q", fn, c, subscripts)
			}
		}
	} else {
		// Implicit output: the ellipsis axes, then the labels used once, in
		// alphabetical order (upper case first, as Python sorts).
		var once []byte
		for c, n := range counts {
			if n == 1 && !slices.Contains(fresh, c) {
				once = append(once, c)
			}
		}
		slices.Sort(once)
		output = string(fresh) + string(once)
	}
	spec.output = output
	return spec, nil
}

func isEinsumLabel(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// einsum contracts the operands from left to right.
func einsum(fn string, spec *einsumSpec, operands []*jstarlark.Array, opts lax.DotOptions) (*jstarlark.Array, error) {
	t, err := productType(fn, opts, operands...)
	if err != nil {
		return nil, err
	}
	e := einsummer{fn: fn, opts: opts, preferred: t.DType}
	ops := slices.Clone(operands)
	names := slices.Clone(spec.inputs)
	if len(ops) == 1 {
		out, err := e.single(ops[0], names[0], spec.output)
		if err != nil {
			return nil, err
		}
		return jstarlark.ConvertType(out, t)
	}
	for len(ops) > 1 {
		// Labels still needed after this step: those of the operands not
		// yet contracted and of the output.
		needed := spec.output + strings.Join(names[2:], "")
		var result string
		if len(ops) == 2 {
			result = spec.output
		} else {
			result = intermediateLabels(names[0]+names[1], needed, spec.sizes)
		}
		out, err := e.pair(ops[0], names[0], ops[1], names[1], result)
		if err != nil {
			return nil, err
		}
		ops = append([]*jstarlark.Array{out}, ops[2:]...)
		names = append([]string{result}, names[2:]...)
	}
	return jstarlark.ConvertType(ops[0], t)
}

// intermediateLabels are the labels of a pairwise result that later steps
// need, ordered by size then label as opt_einsum orders them.
func intermediateLabels(labels, needed string, sizes map[byte]int) string {
	var keep []byte
	for i := 0; i < len(labels); i++ {
		c := labels[i]
		if strings.IndexByte(needed, c) >= 0 && !slices.Contains(keep, c) {
			keep = append(keep, c)
		}
	}
	sort.Slice(keep, func(i, j int) bool {
		if sizes[keep[i]] != sizes[keep[j]] {
			return sizes[keep[i]] < sizes[keep[j]]
		}
		return keep[i] < keep[j]
	})
	return string(keep)
}

type einsummer struct {
	fn        string
	opts      lax.DotOptions
	preferred trace.DType
}

// single reduces one operand to the labels result.
func (e einsummer) single(x *jstarlark.Array, names, result string) (*jstarlark.Array, error) {
	counts := labelCounts(names)
	var uniques []byte
	for c, n := range counts {
		if n == 1 && strings.IndexByte(result, c) < 0 {
			uniques = append(uniques, c)
		}
	}
	x, names, err := e.sumLabels(x, names, uniques)
	if err != nil {
		return nil, err
	}
	if x, names, err = e.sumRepeats(x, names, counts, result); err != nil {
		return nil, err
	}
	return toLabels(x, names, result)
}

// pair contracts two operands to the labels result.
func (e einsummer) pair(lhs *jstarlark.Array, lnames string, rhs *jstarlark.Array, rnames string, result string) (*jstarlark.Array, error) {
	lhs, lnames, err := dropSingletons(lhs, lnames, rhs, rnames)
	if err != nil {
		return nil, err
	}
	if rhs, rnames, err = dropSingletons(rhs, rnames, lhs, lnames); err != nil {
		return nil, err
	}
	lcounts, rcounts := labelCounts(lnames), labelCounts(rnames)
	// Labels contracted at this step: in the pair but not in the result.
	var contracted []byte
	for _, c := range []byte(lnames + rnames) {
		if strings.IndexByte(result, c) < 0 && !slices.Contains(contracted, c) {
			contracted = append(contracted, c)
		}
	}
	slices.Sort(contracted)
	var lUniques, rUniques []byte
	for _, c := range contracted {
		if lcounts[c] == 1 && rcounts[c] == 0 {
			lUniques = append(lUniques, c)
		}
		if rcounts[c] == 1 && lcounts[c] == 0 {
			rUniques = append(rUniques, c)
		}
	}
	if lhs, lnames, err = e.sumLabels(lhs, lnames, lUniques); err != nil {
		return nil, err
	}
	if rhs, rnames, err = e.sumLabels(rhs, rnames, rUniques); err != nil {
		return nil, err
	}
	if lhs, lnames, err = e.sumRepeats(lhs, lnames, lcounts, result+rnames); err != nil {
		return nil, err
	}
	if rhs, rnames, err = e.sumRepeats(rhs, rnames, rcounts, result+lnames); err != nil {
		return nil, err
	}
	var lc, rc, lb, rb []int
	var batch, removed []byte
	for _, c := range contracted {
		if i, j := strings.IndexByte(lnames, c), strings.IndexByte(rnames, c); i >= 0 && j >= 0 {
			lc, rc = append(lc, i), append(rc, j)
			removed = append(removed, c)
		}
	}
	for _, c := range []byte(result) {
		if i, j := strings.IndexByte(lnames, c), strings.IndexByte(rnames, c); i >= 0 && j >= 0 {
			lb, rb = append(lb, i), append(rb, j)
			batch = append(batch, c)
			removed = append(removed, c)
		}
	}
	strip := func(names string) string {
		var out []byte
		for _, c := range []byte(names) {
			if !slices.Contains(removed, c) {
				out = append(out, c)
			}
		}
		return string(out)
	}
	out, err := dotGeneral(lhs, rhs, lax.DotDims(lc, rc, lb, rb), e.opts, trace.Type{DType: e.preferred})
	if err != nil {
		return nil, err
	}
	return toLabels(out, string(batch)+strip(lnames)+strip(rnames), result)
}

// sumLabels sums out the axes of the given labels (each used once), in the
// preferred dtype when it is wider than x's (JAX's einsum sum).
func (e einsummer) sumLabels(x *jstarlark.Array, names string, labels []byte) (*jstarlark.Array, string, error) {
	if len(labels) == 0 {
		return x, names, nil
	}
	var axes []int
	for _, c := range labels {
		axes = append(axes, strings.IndexByte(names, c))
	}
	out, err := e.reduceSum(x, axes)
	if err != nil {
		return nil, "", err
	}
	var rest []byte
	for _, c := range []byte(names) {
		if !slices.Contains(labels, c) {
			rest = append(rest, c)
		}
	}
	return out, string(rest), nil
}

func (e einsummer) reduceSum(x *jstarlark.Array, axes []int) (*jstarlark.Array, error) {
	if t, err := trace.ResultType(x.AVal().Type(), trace.Type{DType: e.preferred}); err == nil && t.DType != x.DType() {
		if x, err = jstarlark.Astype(x, e.preferred); err != nil {
			return nil, err
		}
	}
	prim := "reduce_sum"
	if x.DType() == trace.Bool {
		prim = "reduce_or"
	}
	sorted := slices.Clone(axes)
	slices.Sort(sorted)
	return jstarlark.Bind1(prim, trace.Params{"axes": sorted}, x)
}

// sumRepeats handles labels repeated within one operand: off-diagonal
// elements are zeroed with an eye mask, then the repeats are summed out —
// all of them when the label is not kept, all but the last when it is.
func (e einsummer) sumRepeats(x *jstarlark.Array, names string, counts map[byte]int, keep string) (*jstarlark.Array, string, error) {
	labels := make([]byte, 0, len(counts))
	for c := range counts {
		labels = append(labels, c)
	}
	slices.Sort(labels)
	for _, c := range labels {
		if counts[c] < 2 {
			continue
		}
		var axes []int
		for i := 0; i < len(names); i++ {
			if names[i] == c {
				axes = append(axes, i)
			}
		}
		mask, err := kroneckerDelta(x, axes)
		if err != nil {
			return nil, "", err
		}
		zeros, err := lax.Full(x.Device(), x.AVal().Type(), x.Shape(), starlark.MakeInt(0))
		if err != nil {
			return nil, "", err
		}
		if x, err = jstarlark.Select(mask, x, zeros); err != nil {
			return nil, "", err
		}
		summed := axes
		if strings.IndexByte(keep, c) >= 0 {
			summed = axes[:len(axes)-1]
		}
		if x, err = e.reduceSum(x, summed); err != nil {
			return nil, "", err
		}
		var rest []byte
		for i := 0; i < len(names); i++ {
			if !slices.Contains(summed, i) {
				rest = append(rest, names[i])
			}
		}
		names = string(rest)
	}
	return x, names, nil
}

// kroneckerDelta is a bool array of x's shape, true where the coordinates
// along axes are all equal (lax._delta).
func kroneckerDelta(x *jstarlark.Array, axes []int) (*jstarlark.Array, error) {
	base := make([]int, len(axes))
	for i, ax := range axes {
		base[i] = x.Shape()[ax]
	}
	var eye *jstarlark.Array
	prev, err := lax.Iota(x.Device(), trace.Uint32, base, 0)
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(axes); i++ {
		next, err := lax.Iota(x.Device(), trace.Uint32, base, i)
		if err != nil {
			return nil, err
		}
		eq, err := jstarlark.Bind1("eq", nil, prev, next)
		if err != nil {
			return nil, err
		}
		if eye == nil {
			eye = eq
		} else if eye, err = jstarlark.Bind1("and", nil, eye, eq); err != nil {
			return nil, err
		}
		prev = next
	}
	return jstarlark.BroadcastInDim(eye, x.Shape(), axes)
}

// dropSingletons squeezes x's size-1 axes whose label the other operand
// has with a larger size: they broadcast, so x contributes no axis there.
func dropSingletons(x *jstarlark.Array, names string, other *jstarlark.Array, otherNames string) (*jstarlark.Array, string, error) {
	var squeeze []int
	var rest []byte
	for i := 0; i < len(names); i++ {
		j := strings.IndexByte(otherNames, names[i])
		if x.Shape()[i] == 1 && j >= 0 && other.Shape()[j] != 1 {
			squeeze = append(squeeze, i)
			continue
		}
		rest = append(rest, names[i])
	}
	out, err := jstarlark.Squeeze(x, squeeze)
	return out, string(rest), err
}

func labelCounts(names string) map[byte]int {
	counts := map[byte]int{}
	for i := 0; i < len(names); i++ {
		counts[names[i]]++
	}
	return counts
}

// toLabels transposes x, labelled names, to the order result.
func toLabels(x *jstarlark.Array, names, result string) (*jstarlark.Array, error) {
	if len(names) != len(result) {
		return nil, fmt.Errorf("einsum: labels %q cannot be arranged as %q", names, result)
	}
	perm := make([]int, len(result))
	for i := 0; i < len(result); i++ {
		perm[i] = strings.IndexByte(names, result[i])
	}
	return lax.Transpose(x, perm)
}
