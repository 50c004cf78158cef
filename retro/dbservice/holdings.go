package dbservice

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"muehle/layers"
	"muehle/muehle"
)

// Busy is the layer a computation (or conversion) in this program is on,
// marked * in the tables of Describe, and where Describe learns which
// layers are damaged.
type Busy struct {
	Key         layers.Key
	On          bool // a computation is on Key
	Converting  bool // it converts Key rather than computes it
	Compressing bool // with Converting: the conversion compresses Key
	// Damage says why a layer is damaged (DamagedBy); nil: the DB's own
	// Damage.
	Damage func(layers.Key) error
}

// Holdings is what a database folder holds: the complete layers of each
// kind, and the tables the Database tab shows and muehlectl status prints.
type Holdings struct {
	Moving, MovingAll       int // complete moving layers, of all
	Placement, PlacementAll int // complete layers with stones in hand, of all
	Text                    string
}

// Describe says what db holds: the moving layers as a table (rows: stones
// of the side to move, columns: of the opponent) and a count of the
// placement layers; in a game whose phases mix, a second table groups the
// layers with stones in hand by the stones in each hand. Layers of the
// older file format are marked o (Convert rewrites them), damaged ones !,
// the one busy is on *. It reads the headers of the layer files.
func Describe(db *layers.DB, busy Busy) Holdings {
	v := db.Variant()
	if busy.Damage == nil {
		busy.Damage = db.Damage
	}
	var b strings.Builder
	fmt.Fprintf(&b, "In %s\n\n", db.GameDir())
	busyOn, converting := busy.On, busy.Converting
	anyOld := false
	b.WriteString("Moving phase. Rows: stones of\nthe side to move; columns: of\nthe opponent.\n\n")
	stones := span(layers.LoseBelow, v.Stones)
	moving, movingAll := 0, 0
	writeTable(&b, stones, stones, func(w, o int) string {
		m, ok := layerMark(db, busy, layers.Moving(w, o))
		movingAll++
		if ok {
			moving++
		}
		anyOld = anyOld || m == "o"
		return m
	})
	var hands []layers.Key // the layers with stones in hand
	for _, k := range layers.OrderIn(v, true) {
		if !k.IsMoving() {
			hands = append(hands, k)
		}
	}
	n, bad, old := 0, 0, 0
	var busyHere []string
	for _, k := range hands {
		m, ok := layerMark(db, busy, k)
		if ok {
			n++
		}
		switch m {
		case "o":
			old++
		case "!":
			bad++
		case "*":
			busyHere = append(busyHere, k.String())
		}
	}
	switch {
	case busyOn && converting && busy.Compressing:
		b.WriteString("\n# complete     · missing\n* compressing  ! damaged\n")
	case busyOn && converting:
		b.WriteString("\n# complete    · missing\n* converting  ! damaged\n")
	default:
		b.WriteString("\n# complete   · missing\n* computing  ! damaged\n")
	}
	if anyOld || old > 0 {
		b.WriteString("o older format, to convert\n")
	}
	if v.Rules().Mixed {
		writeHands(&b, db, busy, hands)
		fmt.Fprintf(&b, "%d of %d layers with stones in hand complete", n, len(hands))
	} else {
		fmt.Fprintf(&b, "\nPlacement phase (opening):\n%d of %d layers complete", n, len(hands))
	}
	if len(busyHere) > 0 {
		verb := "computing"
		if converting {
			verb = "converting"
		}
		if converting && busy.Compressing {
			verb = "compressing"
		}
		fmt.Fprintf(&b, ", %s %s", verb, strings.Join(busyHere, " + "))
	}
	if old > 0 {
		fmt.Fprintf(&b, ", %d of the older format", old)
	}
	if bad > 0 {
		fmt.Fprintf(&b, ", %d damaged", bad)
	}
	if d := DamagedBy(v, busy.Damage); len(d) > 0 {
		b.WriteString("\n! damaged, used as missing: " + KeyNames(d))
	}
	return Holdings{Moving: moving, MovingAll: movingAll, Placement: n, PlacementAll: len(hands), Text: b.String()}
}

// writeHands writes the layers with stones in hand of a game whose phases
// mix as a table by the stones in each hand (rows: of the side to move,
// columns: of the opponent); a cell holds the layers of every number of
// stones on the board with those hands, and is marked # when all are
// complete, + when some are, · when none is, * while one is computed and
// ! when one is damaged.
func writeHands(b *strings.Builder, db *layers.DB, busy Busy, hands []layers.Key) {
	type cell struct{ n, complete, busy, bad int }
	cells := map[[2]int]*cell{}
	for _, k := range hands {
		at := [2]int{int(k.WH), int(k.BH)}
		c := cells[at]
		if c == nil {
			c = &cell{}
			cells[at] = c
		}
		c.n++
		switch m, ok := layerMark(db, busy, k); {
		case m == "*":
			c.busy++
		case m == "!":
			c.bad++
		case ok:
			c.complete++
		}
	}
	b.WriteString("\nStones in hand (placing and moving\nmix). Rows: in the hand of the side\nto move; columns: of the opponent.\n" +
		"A cell holds the layers of every\nnumber of stones on the board.\n\n")
	hand := span(0, db.Variant().Stones)
	writeTable(b, hand, hand, func(wh, bh int) string {
		c := cells[[2]int{wh, bh}]
		switch {
		case c == nil:
			return " " // the moving layers, above
		case c.busy > 0:
			return "*"
		case c.bad > 0:
			return "!"
		case c.complete == c.n:
			return "#"
		case c.complete > 0:
			return "+"
		}
		return "·"
	})
	b.WriteString("\n+ some of the cell's layers complete\n")
}

// layerMark returns the mark of layer k in db in the tables: * being
// computed (or converted) by busy, o of the older format, ! damaged, #
// complete, · missing; and whether it counts as complete.
func layerMark(db *layers.DB, busy Busy, k layers.Key) (mark string, complete bool) {
	damage := busy.Damage(k)
	has := damage == nil && db.Has(k)
	switch {
	case busy.On && (busy.Key == k || busy.Key == partnerIn(db.Variant(), k) && !busy.Converting):
		return "*", has
	case errors.Is(damage, layers.ErrOldFormat):
		return "o", false
	case damage != nil:
		return "!", false
	case has:
		return "#", true
	}
	return "·", false
}

// partnerIn returns the layer solved together with layer k of variant v:
// a moving layer's or, in a game whose phases mix, a layer with stones in
// hand's partner (Key.MixedPartner); k itself for a placement layer of a
// game with a placement phase, which is solved alone.
func partnerIn(v muehle.Variant, k layers.Key) layers.Key {
	switch {
	case k.IsMoving():
		return k.Partner()
	case v.Rules().Mixed:
		return k.MixedPartner()
	}
	return k
}

// writeTable writes a table of marks: a header of the column numbers
// cols, then a row for each number in rows, its label and the mark of
// every cell. The columns are wider when a number has two digits.
func writeTable(b *strings.Builder, rows, cols []int, cell func(r, c int) string) {
	w := 2
	if slices.Max(rows) >= 10 || slices.Max(cols) >= 10 {
		w = 3
	}
	b.WriteString("     ")
	for _, c := range cols {
		fmt.Fprintf(b, "%*d", w, c)
	}
	b.WriteByte('\n')
	for _, r := range rows {
		if w == 2 {
			fmt.Fprintf(b, "  %d  ", r)
		} else {
			fmt.Fprintf(b, " %2d  ", r)
		}
		for _, c := range cols {
			b.WriteString(strings.Repeat(" ", w-1) + cell(r, c))
		}
		b.WriteByte('\n')
	}
}

// span returns the numbers from lo to hi.
func span(lo, hi int) []int {
	var s []int
	for i := lo; i <= hi; i++ {
		s = append(s, i)
	}
	return s
}

// KeyNames names layers: "3-4, p5+2-4+2".
func KeyNames(keys []layers.Key) string {
	var names []string
	for _, k := range keys {
		names = append(names, k.String())
	}
	return strings.Join(names, ", ")
}
