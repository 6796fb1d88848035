package pyfmt

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Python's own values, for checking against CPython's output: str and repr
// as Python writes them.

type pyInt struct{ x *big.Int }

func (v pyInt) Type() string     { return "int" }
func (v pyInt) Str() string      { return v.x.String() }
func (v pyInt) Repr() string     { return v.x.String() }
func (v pyInt) BigInt() *big.Int { return v.x }
func (v pyInt) IsBool() bool     { return false }
func (v pyInt) Item(any) (Value, error) {
	return nil, typeError("'int' object is not subscriptable")
}

type pyBool bool

func (v pyBool) Type() string { return "bool" }
func (v pyBool) Str() string {
	if v {
		return "True"
	}
	return "False"
}
func (v pyBool) Repr() string { return v.Str() }
func (v pyBool) BigInt() *big.Int {
	if v {
		return big.NewInt(1)
	}
	return big.NewInt(0)
}
func (v pyBool) IsBool() bool { return true }

type pyFloat float64

func (v pyFloat) Type() string     { return "float" }
func (v pyFloat) Str() string      { return ReprFloat(float64(v)) }
func (v pyFloat) Repr() string     { return ReprFloat(float64(v)) }
func (v pyFloat) Float64() float64 { return float64(v) }

type pyStr string

func (v pyStr) Type() string { return "str" }
func (v pyStr) Str() string  { return string(v) }
func (v pyStr) Repr() string { return QuoteString(string(v)) }
func (v pyStr) Text() string { return string(v) }

type pyNone struct{}

func (pyNone) Type() string { return "NoneType" }
func (pyNone) Str() string  { return "None" }
func (pyNone) Repr() string { return "None" }

type pyTuple []Value

func (v pyTuple) Type() string   { return "tuple" }
func (v pyTuple) Str() string    { return v.Repr() }
func (v pyTuple) Elems() []Value { return v }
func (v pyTuple) Repr() string {
	if len(v) == 1 {
		return "(" + v[0].Repr() + ",)"
	}
	return "(" + joinRepr(v) + ")"
}
func (v pyTuple) Item(key any) (Value, error) { return sequenceIndex("tuple", v, key) }

type pyList []Value

func (v pyList) Type() string { return "list" }
func (v pyList) Str() string  { return v.Repr() }
func (v pyList) Repr() string { return "[" + joinRepr(v) + "]" }
func (v pyList) Lookup(key string) (Value, error) {
	return nil, typeError("list indices must be integers or slices, not str")
}
func (v pyList) Item(key any) (Value, error) { return sequenceIndex("list", v, key) }

type pyDict struct {
	keys []string
	vals map[string]Value
}

func (v pyDict) Type() string { return "dict" }
func (v pyDict) Str() string  { return v.Repr() }
func (v pyDict) Repr() string {
	var parts []string
	for _, k := range v.keys {
		parts = append(parts, QuoteString(k)+": "+v.vals[k].Repr())
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
func (v pyDict) Lookup(key string) (Value, error) {
	if x, ok := v.vals[key]; ok {
		return x, nil
	}
	return nil, &Error{"KeyError", QuoteString(key)}
}
func (v pyDict) Item(key any) (Value, error) {
	if k, ok := key.(string); ok {
		return v.Lookup(k)
	}
	return nil, &Error{"KeyError", fmt.Sprint(key)}
}

func joinRepr(vs []Value) string {
	var parts []string
	for _, x := range vs {
		parts = append(parts, x.Repr())
	}
	return strings.Join(parts, ", ")
}

func sequenceIndex(typ string, vs []Value, key any) (Value, error) {
	i, ok := key.(int)
	if !ok {
		return nil, typeError("%s indices must be integers or slices, not str", typ)
	}
	if i >= len(vs) {
		return nil, &Error{"IndexError", typ + " index out of range"}
	}
	return vs[i], nil
}

// decodeValue reads a value as gen_cases.py encodes it.
func decodeValue(raw json.RawMessage) (Value, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	for tag, body := range m {
		switch tag {
		case "none":
			return pyNone{}, nil
		case "bool":
			var b bool
			err := json.Unmarshal(body, &b)
			return pyBool(b), err
		case "int":
			var s string
			if err := json.Unmarshal(body, &s); err != nil {
				return nil, err
			}
			x, ok := new(big.Int).SetString(s, 10)
			if !ok {
				return nil, fmt.Errorf("bad int %q", s)
			}
			return pyInt{x}, nil
		case "float":
			var s string
			if err := json.Unmarshal(body, &s); err != nil {
				return nil, err
			}
			if s == "-nan" {
				return pyFloat(math.Copysign(math.NaN(), -1)), nil
			}
			f, err := strconv.ParseFloat(s, 64)
			return pyFloat(f), err
		case "str":
			var s string
			err := json.Unmarshal(body, &s)
			return pyStr(s), err
		case "tuple", "list":
			var items []json.RawMessage
			if err := json.Unmarshal(body, &items); err != nil {
				return nil, err
			}
			var vs []Value
			for _, item := range items {
				v, err := decodeValue(item)
				if err != nil {
					return nil, err
				}
				vs = append(vs, v)
			}
			if tag == "tuple" {
				return pyTuple(vs), nil
			}
			return pyList(vs), nil
		case "dict":
			d, err := decodePairs(body)
			return d, err
		}
	}
	return nil, fmt.Errorf("bad value %s", raw)
}

func decodePairs(body json.RawMessage) (pyDict, error) {
	var pairs [][2]json.RawMessage
	d := pyDict{vals: map[string]Value{}}
	if err := json.Unmarshal(body, &pairs); err != nil {
		return d, err
	}
	for _, p := range pairs {
		var k string
		if err := json.Unmarshal(p[0], &k); err != nil {
			return d, err
		}
		v, err := decodeValue(p[1])
		if err != nil {
			return d, err
		}
		d.keys = append(d.keys, k)
		d.vals[k] = v
	}
	return d, nil
}
