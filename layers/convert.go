package layers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
)

// Layer files of the format before (OldVersion) number their slots with
// the A rank major, and placement layers of the reachable sweep among
// them have one byte for each slot, the unreachable classes Unused (16.7
// GiB for the 9-stone game against 5.1 GiB dense). This program reads
// neither as it is: ConvertOld rewrites each such file in this format,
// with the same value for every position, so that nobody computes them
// again.

// OldHeader returns the header of layer k's file when it is of the
// format before, and an error otherwise (ErrMissing when there is none).
func (d *DB) OldHeader(k Key) (Header, error) {
	return readHeader(d.Path(k), d.v, k, true)
}

// OldLayers returns the layers of the game whose files are of the format
// before: the layers ConvertOld rewrites. It reads their headers only.
func (d *DB) OldLayers() []Key {
	var ks []Key
	for _, k := range OrderIn(d.v, true) {
		if _, err := d.OldHeader(k); err == nil {
			ks = append(ks, k)
		}
	}
	return ks
}

// ConvertOld rewrites the file of layer k, of the format before, in this
// format: its slots in this order and, with dense set, as a dense file
// storing the slots that hold a value (WriteLayer or WriteDenseLayer, so
// that the file is replaced whole or not at all). It checks the old body
// in full first, and reads the new file back and compares every position
// with the old one before it counts; a layer that was verified stays
// verified, since its values are the verified ones. It returns false when
// the file is not of the format before. An interrupted conversion leaves
// the old file; converting again starts that layer over. A reach file
// beside the layer, which numbers the slots in the order before, is
// removed.
func (d *DB) ConvertOld(k Key, dense bool) (bool, error) {
	if _, err := d.OldHeader(k); err != nil {
		return false, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return false, fmt.Errorf("layers: database %s is closed", d.dir)
	}
	f, _, err := openFile(d.Path(k), d.v, k, false, true)
	if err != nil {
		return false, err
	}
	defer f.Close()
	l := d.x.Layer(k)
	if f.h.Slots != l.Size() {
		return false, fmt.Errorf("layers: %s: %w: %d slots, the index of layer %v has %d", f.path, ErrFormat, f.h.Slots, k, l.Size())
	}
	verified := d.verifiedRecord(k, f.h)
	old := f.body
	flat := l.fromOldOrder(old)
	var dv *Dense
	if dense {
		if dv, err = denseOf(flat); err != nil {
			return false, fmt.Errorf("layers: converting %v: %w", k, err)
		}
	}
	// The old record stays until the new one replaces it: it vouches
	// only for the old header, so an interruption before leaves the old
	// file verified as it was.
	if dv != nil {
		err = WriteDenseLayer(d.Path(k), d.v, k, dv)
	} else {
		err = WriteLayer(d.Path(k), d.v, k, flat)
	}
	if err != nil {
		return false, fmt.Errorf("layers: converting %v: %w", k, err)
	}
	d.forgetLocked(k)
	// A reach file beside it numbers the slots in the order before; a
	// dense layer holds its reachable slots itself, and the solver
	// computes a missing reach file again.
	if err := os.Remove(d.ReachPath(k)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("layers: converting %v: %w", k, err)
	}
	nf, _, err := openFile(d.Path(k), d.v, k, false, false)
	if err != nil {
		return false, fmt.Errorf("layers: converting %v: reading the new file: %w", k, err)
	}
	defer nf.Close()
	if err := l.sameAsOld(nf, old); err != nil {
		removeFile(d.Path(k))
		return false, fmt.Errorf("layers: converting %v: %w; the new file was removed", k, err)
	}
	if verified {
		if err := d.markVerifiedLocked(k, nf.h); err != nil {
			return true, err
		}
	}
	return true, nil
}

// denseOf returns the dense body that stores the slots of flat holding a
// value.
func denseOf(flat []byte) (*Dense, error) {
	stored := make([]uint64, denseWords(uint64(len(flat))))
	n := 0
	for i, v := range flat {
		if v != byte(Unused) {
			stored[i/64] |= 1 << (i % 64)
			n++
		}
	}
	values := make([]byte, 0, n)
	for _, v := range flat {
		if v != byte(Unused) {
			values = append(values, v)
		}
	}
	return NewDense(uint64(len(flat)), stored, values)
}

// oldSlot returns the slot of A rank r and B class c in the order before
// (format 1): A rank major, B class minor; slot gives this format's.
func (s *subLayer) oldSlot(r, c uint64) uint64 { return s.off + r*s.n + c }

// fromOldOrder returns the body of one byte per slot in this order from
// old, a body of the layer in the order before.
func (l *LayerIndex) fromOldOrder(old []byte) []byte {
	nb := make([]byte, len(old))
	for _, s := range l.order {
		for r := range s.na {
			for c, v := range old[s.oldSlot(r, 0):s.oldSlot(r+1, 0)] {
				nb[s.slot(r, uint64(c))] = v
			}
		}
	}
	return nb
}

// errConverted is the cause of a converted file that does not read as
// the old one.
var errConverted = errors.New("the new file differs from the old one")

// sameAsOld compares every slot of f, a file of this format, with the
// same position's slot in old, a body in the order before.
func (l *LayerIndex) sameAsOld(f *File, old []byte) error {
	for _, s := range l.order {
		for r := range s.na {
			for c := range s.n {
				i := s.oldSlot(r, c)
				if got := f.Value(s.slot(r, c)); got != Value(old[i]) {
					return fmt.Errorf("%w: the position of old slot %d reads %v, was %v", errConverted, i, got, Value(old[i]))
				}
			}
		}
	}
	return nil
}

// WriteOld writes layer k in the format before, holding flat (a body of
// one byte per slot in this order), as the program before wrote its
// files: a folder to convert, for the tests of ConvertOld and of the
// packages above.
func (d *DB) WriteOld(k Key, flat []byte) error {
	l := d.x.Layer(k)
	if uint64(len(flat)) != l.Size() {
		return fmt.Errorf("layers: writing layer %v: %d slots, want %d", k, len(flat), l.Size())
	}
	old := make([]byte, len(flat))
	for _, s := range l.order {
		for r := range s.na {
			for c := range s.n {
				old[s.oldSlot(r, c)] = flat[s.slot(r, c)]
			}
		}
	}
	h, sums := headerOf(d.v, k, old, nil)
	h.Version = OldVersion
	head := h.marshal()
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.ensureDir(); err != nil {
		return err
	}
	if err := d.removeVerified(k); err != nil {
		return err
	}
	path := d.Path(k)
	err := writeSynced(path+".tmp", head, old)
	if err == nil {
		err = installLayer(path, h, binary.LittleEndian.Uint32(head[72:]), blockShift, sums)
	}
	if err != nil {
		os.Remove(path + ".tmp")
		return err
	}
	d.forgetLocked(k)
	return nil
}

// MarkVerifiedOld records that layer k, a file of the format before,
// passed verification, as the program before recorded it.
func (d *DB) MarkVerifiedOld(k Key) error {
	h, err := d.OldHeader(k)
	if err != nil {
		return err
	}
	return d.markVerifiedLocked(k, h)
}
