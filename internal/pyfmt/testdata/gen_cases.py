# Generates cases.json: (operation, format, arguments, expected text or
# error) for the pyfmt tests, computed with CPython's own %, str.format and
# format(). Run once with python3 and commit the output; the Go tests read
# only the JSON.
#
#   python3 gen_cases.py > cases.json
import itertools
import json
import math
import sys


def enc(v):
    if v is None:
        return {"none": True}
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        if math.isnan(v):
            return {"float": "-nan" if math.copysign(1, v) < 0 else "nan"}
        if math.isinf(v):
            return {"float": "inf" if v > 0 else "-inf"}
        return {"float": v.hex()}
    if isinstance(v, str):
        return {"str": v}
    if isinstance(v, tuple):
        return {"tuple": [enc(x) for x in v]}
    if isinstance(v, list):
        return {"list": [enc(x) for x in v]}
    if isinstance(v, dict):
        return {"dict": [[k, enc(x)] for k, x in v.items()]}
    raise TypeError(v)


cases = []


def add(op, fmt, args=(), kwargs=None, operand=None):
    case = {"op": op, "fmt": fmt}
    try:
        if op == "percent":
            case["operand"] = enc(operand)
            got = fmt % operand
        elif op == "format":
            case["args"] = [enc(a) for a in args]
            if kwargs:
                case["kwargs"] = [[k, enc(v)] for k, v in kwargs.items()]
            got = fmt.format(*args, **(kwargs or {}))
        elif op == "value":
            case["args"] = [enc(args[0])]
            got = format(args[0], fmt)
        else:
            raise ValueError(op)
        case["want"] = got
    except Exception as e:  # the expected error
        case["error"] = type(e).__name__ + ": " + str(e)
    cases.append(case)


floats = [0.0, -0.0, 1.0, -1.5, 0.1, 2.5, 3.14159265358979, -2.675, 1e16, 1e15,
          123456789.125, 1.5e-7, 1e-5, 0.0001, 1e300, 5e-324, 1.7976931348623157e308,
          float("inf"), float("-inf"), float("nan"), -float("nan"), 100.0, 0.5, 1234.5678,
          9.999999, 0.000123456, 2 ** 53 + 0.0, 1/3]
ints = [0, 1, -1, 42, -42, 255, 1234, -1234567, 10 ** 20, -(2 ** 64), 2 ** 100, 65, 0x10ffff]
strs = ["", "a", "abc", "héllo", "it's", 'say "hi"', "tab\there", "€uro"]

# format(value, spec) on floats.
float_specs = ["", ".3f", ".0f", "#.0f", ".2e", "E", ".3g", "g", "#g", "G", ".10g",
               "10.2f", "<10.2f", "^10.2f", "=+10.2f", "+.1f", " .1f", "010.3f",
               ",.2f", "_.1f", ",", ".2%", "%", "z.1f", "z.0f", "n", ".3", ".1",
               ">12", "*^12.3e", "012", ".0e", "#.3g", "-.2f", ".20f", ".17g", "+g", ",g", "015,.2f"]
for f, s in itertools.product(floats, float_specs):
    add("value", s, (f,))

# format(value, spec) on ints.
int_specs = ["", "d", "5d", "<5d", "^6d", "=+8d", "+d", " d", "08d", ",", "_", "010,",
             "09,", "08,", "b", "#b", "o", "#o", "x", "#x", "X", "#X", "#010x", "_x",
             "#_b", "c", "n", ">5c", "e", ".2f", "%", "g", ".3e", ",.1f", "x<8", "0>5",
             "+#x", " ^9", "z", ".2", ",x", ",n", "+c", "#c", "s", "-", "0=7", "q"]
for i, s in itertools.product(ints, int_specs):
    add("value", s, (i,))
for b, s in itertools.product([True, False], ["", "d", ">6", "x", ".1f", "s", "^7"]):
    add("value", s, (b,))

# format(value, spec) on strings and other values.
str_specs = ["", "s", "10", "<10", ">10", "^10", "^9", "*^11", ".2", "10.2", "05", "<05",
             "+", " ", "#", "=10", ",", "d", "z", "x^7", "{^5", "é>4"]
for v, s in itertools.product(strs, str_specs):
    add("value", s, (v,))
for v, s in itertools.product([None, [1, 2], (1,), {"a": 1}], ["", "10", "s"]):
    add("value", s, (v,))
for s in ["10.2.3", ".f", "abc", "1000000000000000000000", "<<<", "10,_", "10_,"]:
    add("value", s, (1,))
    add("value", s, (1.5,))

# printf-style %.
percent_convs = ["%s", "%r", "%a", "%d", "%i", "%u", "%x", "%X", "%o", "%e", "%E", "%f",
                 "%F", "%g", "%G", "%c", "%5d", "%-5d|", "%05d", "%+d", "% d", "%.3d",
                 "%#x", "%#o", "%#X", "%#08x", "%-#8x|", "%10.3f", "%-10.3f|", "%010.3f",
                 "%+.2e", "%#.0f", "%#g", "%.0e", "%.10g", "%5s|", "%-5s|", "%.2s", "%5.1s|",
                 "%ld", "%hd", "%Lf", "%5r", "%.1r", "%+s", "%05s", "% 05d", "%+05d", "%-+5d|"]
percent_values = [0, 42, -7, 255, 2 ** 70, 3.7, -0.0, 2.5, 1e16, float("inf"), float("nan"),
                  "hi", "x", "é", True, None, [1, "a"], 0x41]
for c, v in itertools.product(percent_convs, percent_values):
    add("percent", c, operand=v)
for fmt, operand in [
        ("%s and %s", (1, "two")), ("%d%%", (50,)), ("%*d", (6, 42)), ("%-*d|", (6, 42)),
        ("%*d|", (-6, 42)), ("%.*f", (2, 3.14159)), ("%*.*f", (9, 3, 2.71828)),
        ("%.*f", (-1, 1.5)), ("%(a)s-%(b)05.1f", {"a": "x", "b": 2.25}),
        ("%(a)s %(a)r", {"a": "q"}), ("%(missing)s", {"a": 1}), ("%(a)s", (1,)),
        ("%s %s", (1,)), ("%s", (1, 2)), ("%s", ()), ("", ()), ("", 5), ("", {}),
        ("abc", {"a": 1}), ("%", (1,)), ("%5", (1,)), ("%y", (1,)), ("%5%", (1,)),
        ("%*d", ("a", 1)), ("%c", ("ab",)), ("%c", (0x110000,)), ("%c", (-1,)),
        ("%c", (3.0,)), ("%x", (3.0,)), ("%d", ("3",)), ("%f", ("3",)), ("%d", (float("nan"),)),
        ("%d", (float("inf"),)), ("%f", (10 ** 400,)), ("%s", ((1, 2),)), ("%r", ("a'b",)),
        ("%a", ("€",)), ("%(a", {"a": 1}), ("%(a)", {"a": 1}), ("%((a))s", {"(a)": 1}),
        ("%s %(a)s", {"a": 1}), ("%#5.3x", (255,)), ("%.3x", (-255,)), ("%+x", (255,)),
        ("%#.3o", (8,)), ("%.0f", (0.5,)), ("%.0f", (1.5,)), ("%.2f", (2.675,)),
        ("%.1f", (0.05,)), ("%.15g", (0.1,)), ("%.17g", (0.1,)), ("%e", (0.0,)), ("%g", (1e-5,)),
        ("%g", (123456789.0,)), ("%G", (1e-10,)), ("%.3g", (0.0001234,)), ("%#.3g", (1.0,)),
        ("%10.4s|", ("abcdefg",)), ("%c%c", (72, "i")), ("%s", ("€uro",)), ("%5s|", ("€",)),
        ("%.1000f", (1.0,)), ("%d", (True,)), ("%f", (False,)), ("%i", (-0.9,)), ("%u", (7,)),
]:
    add("percent", fmt, operand=operand)

# str.format templates.
for fmt, args, kwargs in [
        ("{}", (1,), None), ("{} {}", (1, "a"), None), ("{1} {0} {1}", ("a", "b"), None),
        ("{name}", (), {"name": "n"}), ("{0[1]}", ([4, 5, 6],), None),
        ("{0[a]}", ({"a": 7},), None), ("{d[x]}", (), {"d": {"x": 1.5}}),
        ("{0[0][1]}", ([[1, 2]],), None), ("{!r}", ("s",), None), ("{!s}", ("s",), None),
        ("{!a}", ("é",), None), ("{!r:>10}", ("s",), None), ("{0!r:^9}", (1.5,), None),
        ("{:{}}", (3.14159, ".2f"), None), ("{:{}.{}f}", (3.14159, 10, 3), None),
        ("{:>{w}}", ("x",), {"w": 5}), ("{0:{1}{2}}", (7, "<", 4), None),
        ("{{}}", (), None), ("{{{}}}", (1,), None), ("}}{{", (), None), ("{", (), None),
        ("}", (), None), ("a{b", (), None), ("{0", (1,), None), ("{}{0}", (1,), None),
        ("{0}{}", (1,), None), ("{2}", (1, 2), None), ("{}", (), None), ("{x}", (), {"y": 1}),
        ("{!x}", (1,), None), ("{!}", (1,), None), ("{!rr}", (1,), None), ("{0!r", (1,), None),
        ("{0[}", ([1],), None), ("{0[0]x}", ([1],), None), ("{0.}", (1,), None),
        ("{0[]}", ([1],), None), ("{:{:{}}}", (1, 2, 3), None), ("{a{b}}", (), None),
        ("{:}", ("z",), None), ("{0:}", ("z",), None), ("{:d}", ("z",), None),
        ("{:s}", (1,), None), ("{:,}", (1234567,), None), ("{:_}", (1234567,), None),
        ("{:,.2f}", (1234567.891,), None), ("{:.1%}", (0.256,), None), ("{:e}", (12345,), None),
        ("{:10}|{:<10}|", (1, "a"), None), ("{:*^20}", ("center",), None),
        ("{:#x} {:#o} {:#b}", (255, 8, 5), None), ("{0:c}{1:c}", (72, 105), None),
        ("{:+} {:+}", (1, -1.0), None), ("{0[1]:>4}", ([1, 22],), None),
        ("{0[-1]}", ({"-1": "neg"},), None), ("{-1}", (), {"-1": "kw"}),
        ("{0:{fill}>5}", (1,), {"fill": "*"}), ("{a}{b}{a}", (), {"a": 1, "b": 2}),
        ("{0}{0}", ((1, 2),), None), ("{}", ([1, "a", None],), None), ("{}", ({"k": (1,)},), None),
        ("{:>5}", (None,), None), ("{:5}", ([1],), None), ("{!r:5}", (None,), None),
        ("{0!s:.1}", ([1],), None), ("{:.3}", ("abcdef",), None), ("{:.3}", (3.14159,), None),
        ("{:=5}", ("a",), None), ("{:0=+8.2f}", (-3.5,), None), ("{:<08}", (1.5,), None),
        ("{:^+9.2e}", (12345.678,), None), ("{:z}", (-0.0,), None), ("{:z.2f}", (-0.001,), None),
        ("{0:.{1}}", ("hello", 2), None), ("{:{}{}{}}", (5, "*", "^", 7), None),
]:
    add("format", fmt, args, kwargs)

# Random floats across magnitudes: rounding of every layout.
import random
rng = random.Random(16)
for _ in range(150):
    f = rng.uniform(-10, 10) * 10 ** rng.randint(-12, 18)
    for s in ["", ".3f", ".6e", ".4g", ".12g", ".1%", ",.2f", "#.5g"]:
        add("value", s, (f,))
    add("percent", "%.7g|%.2f|%r", operand=(f, f, f))
for _ in range(40):
    i = rng.randint(-10 ** 25, 10 ** 25)
    for s in [",", "_x", "#o", "+015,", ".3e"]:
        add("value", s, (i,))

json.dump(cases, sys.stdout, ensure_ascii=False, indent=0)
sys.stdout.write("\n")
print(len(cases), file=sys.stderr)
