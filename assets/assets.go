// Package assets holds the files the desktop program bundles: the icon
// (icon.png, 512×512) and, under screenshots/, the pictures of the README
// made by .ci/screenshots.
package assets

import _ "embed"

// Icon is the program's icon, a PNG image.
//
//go:embed icon.png
var Icon []byte
