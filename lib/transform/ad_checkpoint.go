package transform

import (
	"fmt"
	"slices"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// checkpoint (remat): fun is traced into a checkpoint equation, whose
// primal computation reverse mode does again in the backward pass instead
// of saving what the policy does not let it save.

// A checkpointPolicy is one of jax.checkpoint_policies.
type checkpointPolicy string

func (p checkpointPolicy) String() string        { return "checkpoint_policies." + string(p) }
func (p checkpointPolicy) Type() string          { return "checkpoint_policy" }
func (p checkpointPolicy) Freeze()               {}
func (p checkpointPolicy) Truth() starlark.Bool  { return true }
func (p checkpointPolicy) Hash() (uint32, error) { return starlark.String(p).Hash() }

var checkpointPolicies = func() *starlarkstruct.Module {
	m := &starlarkstruct.Module{Name: "checkpoint_policies", Members: starlark.StringDict{}}
	for _, name := range trace.CheckpointPolicies {
		m.Members[name] = checkpointPolicy(name)
	}
	return m
}()

type checkpointFun struct {
	fun        starlark.Callable
	preventCSE bool
	policy     any // trace.Ident or nil
	static     []int
}

// checkpoint(fun, prevent_cse=True, policy=None, static_argnums=())
func builtinCheckpoint(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	c := &checkpointFun{preventCSE: true}
	var policy, static starlark.Value = starlark.None, starlark.Tuple{}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fun", &c.fun, "prevent_cse?", &c.preventCSE,
		"policy?", &policy, "static_argnums?", &static); err != nil {
		return nil, err
	}
	switch p := policy.(type) {
	case starlark.NoneType:
	case checkpointPolicy:
		c.policy = trace.Ident(p)
	case starlark.String:
		if !slices.Contains(trace.CheckpointPolicies, string(p)) {
			return nil, fmt.Errorf("unknown policy %q; checkpoint_policies has %v", string(p), trace.CheckpointPolicies)
		}
		c.policy = trace.Ident(p)
	default:
		return nil, fmt.Errorf("policy must be one of checkpoint_policies (%v), got %s", trace.CheckpointPolicies, policy.Type())
	}
	var err error
	if c.static, err = jstarlark.IntsArg(b.Name()+": static_argnums", static); err != nil {
		return nil, err
	}
	return starlark.NewBuiltin("checkpoint("+funName(c.fun)+")", c.call), nil
}

func (c *checkpointFun) call(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := funName(c.fun)
	diffArgs, fixed, err := splitNondiff("checkpoint", args, c.static)
	if err != nil {
		return nil, err
	}
	return jstarlark.ControlFlow(thread, "checkpoint", devicesOf(thread, diffArgs), func(ts *jstarlark.Trace) (starlark.Value, error) {
		leaves, tree, err := jstarlark.FlattenTree(name, diffArgs)
		if err != nil {
			return nil, err
		}
		arrays, err := jstarlark.LeafArrays(name, leaves, ts.Device)
		if err != nil {
			return nil, err
		}
		body, err := jstarlark.TraceBody(ts, name, jstarlark.AValsOf(arrays), func(a []*jstarlark.Array) (starlark.Value, error) {
			argv, err := tree.Unflatten(jstarlark.ValuesOf(a))
			if err != nil {
				return nil, err
			}
			return starlark.Call(thread, c.fun, mergeNondiff(argv.(starlark.Tuple), fixed, c.static), kwargs)
		})
		if err != nil {
			return nil, err
		}
		outs, err := jstarlark.BindTraced(ts, "checkpoint", trace.Params{
			"jaxpr": body.Jaxpr, "prevent_cse": c.preventCSE, "differentiated": false, "policy": c.policy,
		}, append(append([]*jstarlark.Array(nil), body.Consts...), arrays...)...)
		if err != nil {
			return nil, err
		}
		return body.OutTree.Unflatten(jstarlark.ValuesOf(outs))
	})
}
