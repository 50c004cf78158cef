package muehle

import (
	"errors"
	"strings"
)

// Reason returns err, an error of this package, as a sentence for a
// person: without the "muehle: " prefix and starting with a capital
// letter; a syntax error reads "Not a move: " and what is wrong. The
// window's set-up dialog and muehlectl's play command show errors through
// it.
func Reason(err error) string {
	s := err.Error()
	for _, prefix := range []string{ErrSyntax.Error() + ": ", "muehle: "} {
		s = strings.TrimPrefix(s, prefix)
	}
	if errors.Is(err, ErrSyntax) {
		return "Not a move: " + s
	}
	if s == "" {
		return "Not possible."
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
