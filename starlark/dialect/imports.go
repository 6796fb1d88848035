package dialect

import (
	"strconv"
	"strings"

	"go.starlark.net/syntax"
)

// Python's import statements, for the modules the runtime offers, become
// assignments from the hidden builtin __import__(module, name), which
// imports the module (an error naming what exists if there is none) and
// returns the value of the dotted name, itself or a prefix of it (what
// `import a.b` binds) or a member of it (what `from a import b` binds):
//
//	import jax                     jax = __import__("jax", "jax")
//	import jax.numpy               jax = __import__("jax.numpy", "jax")
//	import jax.numpy as jnp        jnp = __import__("jax.numpy", "jax.numpy")
//	from jax import jit, lax as L  jit = __import__("jax", "jax.jit")
//	                               L = __import__("jax", "jax.lax")
//
// `from m import *` and relative imports are refused.

// importStmt parses an import or from statement and appends the
// assignments it stands for.
func (p *parser) importStmt(stmts []syntax.Stmt) []syntax.Stmt {
	p.usedExtension = true
	if p.tok == syntax.FROM {
		p.advance()
		if p.tok == syntax.DOT {
			p.failHere("relative imports are not supported: import a module by its full name (from jax import numpy)")
		}
		module, _ := p.dottedName()
		importPos := p.expect(syntax.IMPORT)
		if p.tok == syntax.STAR {
			p.sc.fail(p.val.pos, "from %s import * is not supported: name what you import (from %s import jit, grad)", module, module)
		}
		parens := p.tok == syntax.LPAREN
		if parens {
			p.advance()
		}
		for {
			name := p.ident()
			local := name
			if p.tok == syntax.AS {
				p.advance()
				local = p.ident()
			}
			stmts = append(stmts, importAssign(local, importPos, module, module+"."+name.Name))
			if p.tok != syntax.COMMA {
				break
			}
			p.advance()
			if parens && p.tok == syntax.RPAREN {
				break
			}
		}
		if parens {
			p.expect(syntax.RPAREN)
		}
		return stmts
	}
	importPos := p.advance()
	for {
		module, first := p.dottedName()
		local, value := first, first.Name
		if p.tok == syntax.AS {
			p.advance()
			local, value = p.ident(), module
		}
		stmts = append(stmts, importAssign(local, importPos, module, value))
		if p.tok != syntax.COMMA {
			return stmts
		}
		p.advance()
	}
}

// dottedName parses name(.name)* and returns it joined, with the first
// name's identifier.
func (p *parser) dottedName() (string, *syntax.Ident) {
	first := p.ident()
	parts := []string{first.Name}
	for p.tok == syntax.DOT {
		p.advance()
		parts = append(parts, p.attrName().Name)
	}
	return strings.Join(parts, "."), first
}

func importAssign(local *syntax.Ident, at syntax.Position, module, value string) *syntax.AssignStmt {
	str := func(s string) *syntax.Literal {
		return &syntax.Literal{Token: syntax.STRING, TokenPos: at, Raw: strconv.Quote(s), Value: s}
	}
	target := &syntax.Ident{NamePos: local.NamePos, Name: local.Name}
	return &syntax.AssignStmt{OpPos: at, Op: syntax.EQ, LHS: target, RHS: hiddenCall("__import__", at, str(module), str(value))}
}

// attrName parses the name after a '.': an identifier, or `load`, which is
// a keyword only at the start of a statement's load(...) (jnp.load).
func (p *parser) attrName() *syntax.Ident {
	if p.tok == syntax.LOAD {
		p.usedExtension = true
		id := &syntax.Ident{NamePos: p.val.pos, Name: "load"}
		p.advance()
		return id
	}
	return p.ident()
}
