package retro

// distinct is a small set of slot indices, emptied in constant time, for
// counting each child (or parent) once however many moves reach it: moves
// to symmetric positions share an index (Bahnsen §4.7). It holds up to 256
// values; a position has far fewer distinct children or parents.
type distinct struct {
	keys [256]uint64
	gen  [256]uint32 // a slot is in use when its stamp is the current one
	cur  uint32
}

// reset empties the set.
func (d *distinct) reset() {
	d.cur++
	if d.cur == 0 { // the stamps wrapped: clear them once
		d.gen = [256]uint32{}
		d.cur = 1
	}
}

// add inserts x and reports whether it was new.
func (d *distinct) add(x uint64) bool {
	h := (x * 0x9e3779b97f4a7c15) >> 56
	for {
		if d.gen[h] != d.cur {
			d.gen[h], d.keys[h] = d.cur, x
			return true
		}
		if d.keys[h] == x {
			return false
		}
		h = (h + 1) & 255
	}
}
