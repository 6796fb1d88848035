package trace

// fft transforms trailing axes: a batch axis among the leading ones stays
// where it is; one among the transformed axes goes first.

var _ = addBatchRules(map[string]BatchRule{
	"fft": func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error) {
		x, d := in[0], dims[0]
		if d >= x.Aval().Rank()-len(p.Ints("fft_lengths")) {
			var err error
			if x, err = MoveAxis(bt, x, d, 0); err != nil {
				return nil, nil, err
			}
			d = 0
		}
		out, err := batchBind(bt, "fft", p, x)
		return []Atom{out}, []int{d}, err
	},
})
