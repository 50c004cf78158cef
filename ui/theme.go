package ui

import (
	"image/color"
	"math"
	"strconv"

	"muehle/layers"
	"muehle/muehle"
)

// The colours of the board. They do not follow the light or dark theme:
// a wooden board looks the same in both.
var (
	boardColor     = color.NRGBA{R: 0xe8, G: 0xc8, B: 0x8a, A: 0xff}
	lineColor      = color.NRGBA{R: 0x4a, G: 0x32, B: 0x1a, A: 0xff}
	labelColor     = color.NRGBA{R: 0x6a, G: 0x4a, B: 0x2a, A: 0xff}
	whiteStone     = color.NRGBA{R: 0xf8, G: 0xf6, B: 0xf0, A: 0xff}
	blackStone     = color.NRGBA{R: 0x22, G: 0x22, B: 0x26, A: 0xff}
	whiteRim       = color.NRGBA{R: 0x80, G: 0x78, B: 0x70, A: 0xff}
	blackRim       = color.NRGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xff}
	targetColor    = color.NRGBA{R: 0x20, G: 0x80, B: 0xff, A: 0x90}
	selectColor    = color.NRGBA{R: 0x20, G: 0x80, B: 0xff, A: 0xff}
	removeColor    = color.NRGBA{R: 0xe0, G: 0x30, B: 0x30, A: 0xff}
	lastMoveColor  = color.NRGBA{R: 0xff, G: 0x9a, B: 0x00, A: 0xff}
	millColor      = color.NRGBA{R: 0xff, G: 0x9a, B: 0x00, A: 0xc0}
	wonColor       = color.NRGBA{R: 0x10, G: 0x9a, B: 0x30, A: 0xff}
	bestColor      = color.NRGBA{R: 0x10, G: 0x9a, B: 0x30, A: 0xe0} // the review's best move
	pickColor      = color.NRGBA{R: 0xff, G: 0xc8, B: 0x00, A: 0xff} // the frame of the perfect player's pick
	drawnColor     = color.NRGBA{R: 0x70, G: 0x70, B: 0x70, A: 0xff}
	lostColor      = color.NRGBA{R: 0xd0, G: 0x20, B: 0x20, A: 0xff}
	transparent    = color.NRGBA{}
	markTextOnDark = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
)

// stoneColors returns the fill and rim colour of a stone of c.
func stoneColors(c muehle.Color) (fill, rim color.Color) {
	if c == muehle.White {
		return whiteStone, whiteRim
	}
	return blackStone, blackRim
}

// valueColor returns the colour of a perfect-move mark of value v.
func valueColor(v layers.Value) color.Color {
	switch v.Outcome() {
	case layers.Win:
		return wonColor
	case layers.Loss:
		return lostColor
	case layers.Draw:
		return drawnColor
	}
	return transparent
}

// markText returns the short label of a perfect-move mark: "W7", "D" or
// "L12"; a draw with a win chance (ok) shows it in percent: "D 33%".
func markText(v layers.Value, chance float64, ok bool) string {
	switch v.Outcome() {
	case layers.Win:
		return "W" + strconv.Itoa(v.Depth())
	case layers.Loss:
		return "L" + strconv.Itoa(v.Depth())
	case layers.Draw:
		if ok {
			return "D " + percent(chance)
		}
		return "D"
	}
	return "?"
}

// percent returns a share as a whole percentage, "33%"; a share above 0
// never shows as 0 %, nor one below 1 as 100 %.
func percent(x float64) string {
	n := int(math.Round(100 * x))
	switch {
	case x > 0 && n == 0:
		n = 1
	case x < 1 && n == 100:
		n = 99
	}
	return strconv.Itoa(n) + "%"
}
