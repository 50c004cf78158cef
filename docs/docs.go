// Package docs holds the documents the desktop program shows: the rules
// of the game (rules.md), embedded so that the text lives in one place, the
// file a reader of the repository reads too.
package docs

import _ "embed"

// Rules is rules.md: the rules this program plays and solves, in Markdown.
//
//go:embed rules.md
var Rules string
