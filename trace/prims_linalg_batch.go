package trace

// The linalg primitives are already batched over their leading axes: a
// batch axis among them stays where it is (every result has the same
// leading axes); one among the matrix axes goes first. triangular_solve's
// operands must share their batch axes, so an unbatched operand is
// broadcast along the batch.

func linalgBatchRule(name string) BatchRule {
	return func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		d, shared := dims[0], true
		for i, x := range in {
			if dims[i] == NotBatched || dims[i] != d || dims[i] >= x.Aval().Rank()-2 {
				shared = false
			}
		}
		args := in
		if !shared {
			var err error
			if args, err = allAtFront(bt, in, dims); err != nil {
				return nil, nil, err
			}
			d = 0
		}
		outs, err := bt.Builder().Bind(name, args, p, bt.Pos())
		if err != nil {
			return nil, nil, err
		}
		results, outDims := make([]Atom, len(outs)), make([]int, len(outs))
		for i, v := range outs {
			results[i], outDims[i] = v, d
		}
		return results, outDims, nil
	}
}

var _ = addBatchRules(map[string]BatchRule{
	"cholesky":         linalgBatchRule("cholesky"),
	"lu":               linalgBatchRule("lu"),
	"qr":               linalgBatchRule("qr"),
	"eigh":             linalgBatchRule("eigh"),
	"eig":              linalgBatchRule("eig"),
	"svd":              linalgBatchRule("svd"),
	"triangular_solve": linalgBatchRule("triangular_solve"),
})
