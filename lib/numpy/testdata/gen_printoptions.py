# Writes printoptions_cases.json: str() of arrays under NumPy 1.24's print
# options, for jnp.set_printoptions and jnp.array_str. Run once with
# python3 (NumPy); the tests never need Python.
#   /usr/bin/python3 gen_printoptions.py
# Each case: [options as a dict, jaxsh expression, NumPy's text].
import json
import numpy as np

arrays = [
    ("jnp.array([1.123456789, 2e-5, 300.0])", np.array([1.123456789, 2e-5, 300.0], dtype=np.float32)),
    ("jnp.array([[1e-9, 1.0], [123456.5, -2.25]], dtype=jnp.float64)", np.array([[1e-9, 1.0], [123456.5, -2.25]])),
    ("jnp.arange(100.0)", np.arange(100.0, dtype=np.float32)),
    ("jnp.arange(40).reshape(2, 4, 5)", np.arange(40, dtype=np.int32).reshape(2, 4, 5)),
    ("jnp.linspace(0.0, 1.0, 7)", np.linspace(0.0, 1.0, 7, dtype=np.float32)),
    ("jnp.array([jnp.pi, -jnp.e, 1e10])", np.array([np.pi, -np.e, 1e10], dtype=np.float32)),
]
options = [
    {},
    {"precision": 3},
    {"precision": 2, "suppress": True},
    {"threshold": 10, "edgeitems": 2},
    {"threshold": 5, "edgeitems": 1, "linewidth": 30},
    {"linewidth": 20},
    {"precision": 4, "threshold": 20, "edgeitems": 3, "linewidth": 40, "suppress": True},
]
cases = []
for opts in options:
    for expr, a in arrays:
        with np.printoptions(**opts):
            cases.append([opts, expr, str(a)])
# array_str's own arguments over the defaults.
for kw in [{"precision": 2}, {"suppress_small": True}, {"max_line_width": 25, "precision": 3}]:
    for expr, a in arrays[:2] + arrays[4:]:
        args = ", ".join("%s=%r" % kv for kv in kw.items())
        cases.append([{}, "jnp.array_str(%s, %s)" % (expr, args), np.array_str(a, **kw)])
with open("printoptions_cases.json", "w") as f:
    json.dump(cases, f, indent=0)
    f.write("\n")
print(len(cases), "cases")
