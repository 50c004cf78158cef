package layers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"unsafe"
)

// A dense layer stores a value only for some of its slots: the placement
// classes a game can reach from the empty board, 17.8 % of the 9-stone
// game's placement slots. Its body (file version 2, see doc.go) is the
// set of stored slots as one bit per slot, a rank directory over those
// bits, and one Value per stored slot in slot order; the value of slot i
// is at the number of stored slots before i, its rank.
//
// The rank directory has two levels: for every superblock of 2^16 slots
// the stored slots before it (uint64), and for every block of 512 slots
// the stored slots before it within its superblock (uint16). A rank is
// then two directory entries and the population count of at most eight
// words, all of one 64-byte line of the bits. The directory costs 3.1 %
// of the bits.
const (
	rankBlockShift = 9  // 512 slots, 8 words of bits
	rankSuperShift = 16 // 65,536 slots
)

// Dense is the body of a dense layer, held in memory or mapped from its
// file: which slots are stored, their ranks, and their values. It is
// read-only and safe for concurrent use.
type Dense struct {
	slots  uint64
	bits   []uint64 // bit i%64 of word i/64: slot i is stored
	super  []uint64 // stored slots before each superblock
	sub    []uint16 // stored slots before each block, within its superblock
	values []byte   // one Value per stored slot, in slot order
}

// NewDense returns the dense body of a layer of slots slots that stores a
// value for each set bit of stored (bit i%64 of word i/64 for slot i),
// values holding them in slot order. The slices are kept, not copied.
func NewDense(slots uint64, stored []uint64, values []byte) (*Dense, error) {
	if uint64(len(stored)) != denseWords(slots) {
		return nil, fmt.Errorf("layers: %d words of bits for %d slots, want %d", len(stored), slots, denseWords(slots))
	}
	if tail := slots % 64; tail != 0 && stored[len(stored)-1]>>tail != 0 {
		return nil, fmt.Errorf("layers: bits set beyond the layer's %d slots", slots)
	}
	d := &Dense{slots: slots, bits: stored, values: values}
	d.super, d.sub = rankDirectory(slots, stored)
	if n := d.count(); n != uint64(len(values)) {
		return nil, fmt.Errorf("layers: %d slots marked stored, %d values", n, len(values))
	}
	return d, nil
}

// denseWords returns the words of bits of a layer of slots slots.
func denseWords(slots uint64) uint64 { return (slots + 63) / 64 }

// denseLayout returns the offsets in a dense body of its rank directory's
// two levels and of its values, and the body's size, for a layer of
// slots slots storing stored values.
func denseLayout(slots, stored uint64) (super, sub, values, size uint64) {
	super = 8 * denseWords(slots)
	sub = super + 8*((slots+1<<rankSuperShift-1)>>rankSuperShift)
	values = sub + 2*((slots+1<<rankBlockShift-1)>>rankBlockShift)
	return super, sub, values, values + stored
}

// DenseBodySize returns the size in bytes of the body of a dense layer of
// slots slots storing stored values.
func DenseBodySize(slots, stored uint64) uint64 {
	_, _, _, size := denseLayout(slots, stored)
	return size
}

// rankDirectory computes the two levels of the rank directory of bits.
func rankDirectory(slots uint64, bitWords []uint64) (super []uint64, sub []uint16) {
	super = make([]uint64, (slots+1<<rankSuperShift-1)>>rankSuperShift)
	sub = make([]uint16, (slots+1<<rankBlockShift-1)>>rankBlockShift)
	var total, inSuper uint64
	const wordsPerBlock = 1 << (rankBlockShift - 6)
	const blocksPerSuper = 1 << (rankSuperShift - rankBlockShift)
	for b := range sub {
		if b%blocksPerSuper == 0 {
			super[b/blocksPerSuper] = total
			inSuper = 0
		}
		sub[b] = uint16(inSuper)
		n := uint64(0)
		for _, w := range bitWords[b*wordsPerBlock : min((b+1)*wordsPerBlock, len(bitWords))] {
			n += uint64(bits.OnesCount64(w))
		}
		total += n
		inSuper += n
	}
	return super, sub
}

// count returns the number of stored slots.
func (d *Dense) count() uint64 {
	if d.slots == 0 {
		return 0
	}
	return d.rank(d.slots-1) + d.bit(d.slots-1)
}

// bit returns 1 when slot i is stored, else 0.
func (d *Dense) bit(i uint64) uint64 { return d.bits[i>>6] >> (i & 63) & 1 }

// rank returns the number of stored slots before slot i < slots.
func (d *Dense) rank(i uint64) uint64 {
	w := i >> 6
	r := d.super[i>>rankSuperShift] + uint64(d.sub[i>>rankBlockShift])
	for j := w &^ (1<<(rankBlockShift-6) - 1); j < w; j++ {
		r += uint64(bits.OnesCount64(d.bits[j]))
	}
	return r + uint64(bits.OnesCount64(d.bits[w]&(1<<(i&63)-1)))
}

// Slots returns the slots of the layer, stored or not.
func (d *Dense) Slots() uint64 { return d.slots }

// Stored returns the number of stored slots.
func (d *Dense) Stored() uint64 { return uint64(len(d.values)) }

// Has reports whether slot i is stored.
func (d *Dense) Has(i uint64) bool { return i < d.slots && d.bit(i) != 0 }

// Value returns the value of slot i: Unused when it is not stored or out
// of range.
func (d *Dense) Value(i uint64) Value {
	if !d.Has(i) {
		return Unused
	}
	return Value(d.values[d.rank(i)])
}

// Rank returns the position of slot i's value among the stored values:
// the number of stored slots before it. ok is false when i is not stored.
func (d *Dense) Rank(i uint64) (r uint64, ok bool) {
	if !d.Has(i) {
		return 0, false
	}
	return d.rank(i), true
}

// Before returns the number of stored slots before slot i (all of them
// for i ≥ Slots).
func (d *Dense) Before(i uint64) uint64 {
	if i >= d.slots {
		return d.Stored()
	}
	return d.rank(i)
}

// Bits returns the stored slots, bit i%64 of word i/64 for slot i; the
// caller must not change them.
func (d *Dense) Bits() []uint64 { return d.bits }

// Values returns the stored values in slot order; the caller must not
// change them.
func (d *Dense) Values() []byte { return d.values }

// encode returns the body of the dense layer as its file holds it.
func (d *Dense) encode() []byte {
	super, sub, values, size := denseLayout(d.slots, d.Stored())
	b := make([]byte, size)
	le := binary.LittleEndian
	for i, w := range d.bits {
		le.PutUint64(b[8*i:], w)
	}
	for i, r := range d.super {
		le.PutUint64(b[super+8*uint64(i):], r)
	}
	for i, r := range d.sub {
		le.PutUint16(b[sub+2*uint64(i):], r)
	}
	copy(b[values:], d.values)
	return b
}

// denseView returns the dense body held in the bytes body of a layer of
// slots slots storing stored values, without checking it (see check).
// Where the machine is little-endian and the parts are aligned, as in a
// mapped file, the bits and the directory are read in place; otherwise
// they are decoded into new slices.
func denseView(body []byte, slots, stored uint64) (*Dense, error) {
	super, sub, values, size := denseLayout(slots, stored)
	if uint64(len(body)) != size {
		return nil, fmt.Errorf("%d bytes, want %d", len(body), size)
	}
	d := &Dense{slots: slots, values: body[values:]}
	nw, ns, nb := int(denseWords(slots)), int((sub-super)/8), int((values-sub)/2)
	if littleEndian && uintptr(unsafe.Pointer(unsafe.SliceData(body)))%8 == 0 {
		if nw > 0 {
			d.bits = unsafe.Slice((*uint64)(unsafe.Pointer(&body[0])), nw)
		}
		if ns > 0 {
			d.super = unsafe.Slice((*uint64)(unsafe.Pointer(&body[super])), ns)
		}
		if nb > 0 {
			d.sub = unsafe.Slice((*uint16)(unsafe.Pointer(&body[sub])), nb)
		}
		return d, nil
	}
	le := binary.LittleEndian
	d.bits, d.super, d.sub = make([]uint64, nw), make([]uint64, ns), make([]uint16, nb)
	for i := range d.bits {
		d.bits[i] = le.Uint64(body[8*i:])
	}
	for i := range d.super {
		d.super[i] = le.Uint64(body[super+8*uint64(i):])
	}
	for i := range d.sub {
		d.sub[i] = le.Uint16(body[sub+2*uint64(i):])
	}
	return d, nil
}

// errDirectory is the cause of a dense body whose parts do not agree.
var errDirectory = errors.New("the rank directory does not match the bits")

// check compares the rank directory and the number of values with the
// bits: a body whose parts disagree (written wrong, or forged with a
// fitting checksum) fails.
func (d *Dense) check() error {
	if tail := d.slots % 64; tail != 0 && len(d.bits) > 0 && d.bits[len(d.bits)-1]>>tail != 0 {
		return errors.New("bits set beyond the layer's slots")
	}
	super, sub := rankDirectory(d.slots, d.bits)
	for i := range super {
		if super[i] != d.super[i] {
			return fmt.Errorf("%w (superblock %d)", errDirectory, i)
		}
	}
	for i := range sub {
		if sub[i] != d.sub[i] {
			return fmt.Errorf("%w (block %d)", errDirectory, i)
		}
	}
	if n := d.count(); n != d.Stored() {
		return fmt.Errorf("%d slots marked stored, %d values", n, d.Stored())
	}
	return nil
}

// directoryOffsets returns the offsets in the body of the bytes that
// finding the rank of slot i < slots reads: the word of its bit (and the
// words before it in its 64-byte line) and the two directory entries.
func (d *Dense) directoryOffsets(i uint64) (word, super, sub uint64) {
	superOff, subOff, _, _ := denseLayout(d.slots, d.Stored())
	return 8 * (i >> 6), superOff + 8*(i>>rankSuperShift), subOff + 2*(i>>rankBlockShift)
}

// valueOffset returns the offset in the body of the value of slot i;
// ok is false when the slot is not stored.
func (d *Dense) valueOffset(i uint64) (off uint64, ok bool) {
	r, ok := d.Rank(i)
	if !ok {
		return 0, false
	}
	_, _, values, _ := denseLayout(d.slots, d.Stored())
	return values + r, true
}

// DenseRegions returns where the parts of a dense body of a layer of
// slots slots storing stored values begin: its rank directory at dir, its
// values at values (the bits of the stored slots at 0).
func DenseRegions(slots, stored uint64) (dir, values uint64) {
	dir, _, values, _ = denseLayout(slots, stored)
	return dir, values
}

// DenseDirectory returns the rank directory of a dense body of a layer of
// slots slots whose bits are bits (the body's first bytes: bit i%8 of
// byte i/8 for slot i), as the body holds it: it follows from the bits,
// so a package need not carry it (layers/pack).
func DenseDirectory(slots uint64, bits []byte) []byte {
	words := make([]uint64, denseWords(slots))
	for i := range words {
		words[i] = binary.LittleEndian.Uint64(bits[8*i:])
	}
	super, sub := rankDirectory(slots, words)
	b := make([]byte, 0, 8*len(super)+2*len(sub))
	for _, s := range super {
		b = binary.LittleEndian.AppendUint64(b, s)
	}
	for _, s := range sub {
		b = binary.LittleEndian.AppendUint16(b, s)
	}
	return b
}
