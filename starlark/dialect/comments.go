package dialect

import "go.starlark.net/syntax"

// attachComments gives the comments the scanner kept (syntax.RetainComments)
// to the nodes of root as upstream does: a whole-line comment goes to the
// first node, in preorder, that does not start before it, or else to root's
// After list; a comment after code on its line goes to the last node, in
// postorder, that ends before it.
func (p *parser) attachComments(root syntax.Node) {
	lines, suffixes := p.sc.lineComments, p.sc.suffixComments
	if len(lines)+len(suffixes) == 0 {
		return
	}

	var preorder, postorder, open []syntax.Node
	syntax.Walk(root, func(n syntax.Node) bool {
		if n != nil {
			preorder = append(preorder, n)
			open = append(open, n)
		} else {
			postorder = append(postorder, open[len(open)-1])
			open = open[:len(open)-1]
		}
		return true
	})

	for _, n := range preorder {
		if _, isFile := n.(*syntax.File); isFile {
			continue
		}
		start := syntax.Start(n)
		for len(lines) > 0 && !before(start, lines[0].Start) {
			n.AllocComments()
			n.Comments().Before = append(n.Comments().Before, lines[0])
			lines = lines[1:]
		}
	}
	if len(lines) > 0 {
		root.AllocComments()
		root.Comments().After = append(root.Comments().After, lines...)
	}

	for i := len(postorder) - 1; i >= 0 && len(suffixes) > 0; i-- {
		n := postorder[i]
		if _, isFile := n.(*syntax.File); isFile {
			continue
		}
		last := suffixes[len(suffixes)-1]
		if before(syntax.End(n), last.Start) {
			n.AllocComments()
			n.Comments().Suffix = append(n.Comments().Suffix, last)
			suffixes = suffixes[:len(suffixes)-1]
		}
	}
}

// before reports whether position p comes before q in the same file.
func before(p, q syntax.Position) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}
