// Package plot is jaxsh's plot module (SPEC §9): line, scatter, histogram
// and image plots of arrays, written as PNG or SVG files (by the path's
// extension) through the thread's file policy, drawn with gonum.org/v1/plot
// (DESIGN decision 8: a well-kept plotting library rather than hand-drawn
// pixels).
//
// Each plotting function takes path= and the axes' title=, xlabel=,
// ylabel=, width= and height= (inches), and label= (or labels= for several
// series) for a legend. figure() collects several series of any kind on one
// set of axes: fig.line(...), fig.scatter(...), fig.hist(...), then
// fig.save(path).
//
// Members (docs/builtins.md is generated from this table):
//
//	| group | names |
//	|---|---|
//	| plots | `line scatter hist imshow figure` |
package plot
