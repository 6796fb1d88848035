package arrayfmt

import "strings"

// summaryMarker replaces the elided middle of a summarised axis.
const summaryMarker = "..."

// layout is NumPy's _formatArray (legacy=False): nested brackets, elements
// of the last axis wrapped at the line width, rows of higher axes separated
// by the separator's non-space part and one newline per remaining axis.
type layout struct {
	shape     []int
	strides   []int // row-major strides in elements
	format    func(flat int) string
	separator string
	edgeItems int
	summarise bool // the array has more elements than the threshold
}

// render lays the array out; lineWidth is the usable width and
// nextLinePrefix the indentation of continuation lines (one space for the
// opening bracket plus the width of any caller's prefix such as "Array(").
func (l *layout) render(lineWidth int, nextLinePrefix string) string {
	return l.recurse(0, 0, nextLinePrefix, lineWidth)
}

// recurse formats the sub-array starting at element offset along axis.
// The result starts with "[" (the hanging indent is only for the lines
// after the first) and ends with "]".
func (l *layout) recurse(axis, offset int, hangingIndent string, width int) string {
	if axis == len(l.shape) {
		return l.format(offset)
	}
	// Nested rows are indented one more place for their "[" and have one
	// place less for their "]".
	nextIndent := hangingIndent + " "
	nextWidth := width - len("]")

	n := l.shape[axis]
	stride := l.strides[axis]
	showSummary := l.summarise && 2*l.edgeItems < n
	leading, trailing := 0, n
	if showSummary {
		leading, trailing = l.edgeItems, l.edgeItems
	}
	// Element order: the leading items, then the trailing ones; when not
	// summarising, "trailing" is the whole axis.
	child := func(i int) string {
		return l.recurse(axis+1, offset+i*stride, nextIndent, nextWidth)
	}

	var s strings.Builder
	if axis == len(l.shape)-1 {
		trimmedSeparator := strings.TrimRight(l.separator, " ")
		// Room until the separator or closing bracket that follows a word.
		elemWidth := width - max(len(trimmedSeparator), len("]"))
		line := hangingIndent
		for i := 0; i < leading; i++ {
			line = extendLine(&s, line, child(i), elemWidth, hangingIndent)
			line += l.separator
		}
		if showSummary {
			line = extendLine(&s, line, summaryMarker, elemWidth, hangingIndent)
			line += l.separator
		}
		for i := n - trailing; i < n-1; i++ {
			line = extendLine(&s, line, child(i), elemWidth, hangingIndent)
			line += l.separator
		}
		line = extendLine(&s, line, child(n-1), elemWidth, hangingIndent)
		s.WriteString(line)
	} else {
		rowSeparator := strings.TrimRight(l.separator, " ") +
			strings.Repeat("\n", len(l.shape)-axis-1)
		for i := 0; i < leading; i++ {
			s.WriteString(hangingIndent + child(i) + rowSeparator)
		}
		if showSummary {
			s.WriteString(hangingIndent + summaryMarker + rowSeparator)
		}
		for i := n - trailing; i < n-1; i++ {
			s.WriteString(hangingIndent + child(i) + rowSeparator)
		}
		s.WriteString(hangingIndent + child(n-1))
	}
	return "[" + s.String()[len(hangingIndent):] + "]"
}

// extendLine is NumPy's _extendLine: append word to the current line, first
// moving to a new line (flushing the old one, trailing spaces removed) if it
// would run past lineWidth, unless the line holds nothing but the indent,
// where wrapping would not help.
func extendLine(s *strings.Builder, line, word string, lineWidth int, nextLinePrefix string) string {
	needsWrap := len(line)+len(word) > lineWidth
	if len(line) <= len(nextLinePrefix) {
		needsWrap = false
	}
	if needsWrap {
		s.WriteString(strings.TrimRight(line, " "))
		s.WriteString("\n")
		line = nextLinePrefix
	}
	return line + word
}

// displayedOffsets lists, in row-major order, the flat offsets of the
// elements that will be printed: all of them, or when summarising only the
// first and last edgeItems along every axis longer than 2*edgeItems (NumPy's
// _leading_trailing). The column format is chosen from these alone.
func displayedOffsets(shape, strides []int, edgeItems int, summarise bool) []int {
	var out []int
	var walk func(axis, offset int)
	walk = func(axis, offset int) {
		if axis == len(shape) {
			out = append(out, offset)
			return
		}
		n := shape[axis]
		// With edgeItems == 0 NumPy's trailing slice a[-0:] is the whole
		// axis, so nothing is dropped from the data that sets the format.
		if summarise && n > 2*edgeItems && edgeItems > 0 {
			for i := 0; i < edgeItems; i++ {
				walk(axis+1, offset+i*strides[axis])
			}
			for i := n - edgeItems; i < n; i++ {
				walk(axis+1, offset+i*strides[axis])
			}
			return
		}
		for i := 0; i < n; i++ {
			walk(axis+1, offset+i*strides[axis])
		}
	}
	walk(0, 0)
	return out
}
