package layers

import "fmt"

// A placement layer of the reachable sweep written before the dense files
// (file version 1) has one byte for each slot and leaves the slots of
// unreachable classes Unused: 16.7 GiB for the 9-stone game against
// 5.1 GiB dense. Such files are read as they are; ConvertDense rewrites
// one as a dense file with the same values.

// Sparse reports whether layer k's file is a placement layer of one byte
// per slot that leaves classes Unused: one that ConvertDense would make
// smaller. It reads the header only.
func (d *DB) Sparse(k Key) bool {
	if k.IsMoving() {
		return false
	}
	h, err := d.Header(k)
	return err == nil && !h.Dense() && h.Won+h.Lost+h.Drawn < d.x.Layer(k).Classes()
}

// OneBytePerSlot reports whether layer k's file is a placement layer of
// one byte per slot (file version 1), with holes or without.
func (d *DB) OneBytePerSlot(k Key) bool {
	if k.IsMoving() {
		return false
	}
	h, err := d.Header(k)
	return err == nil && !h.Dense()
}

// ConvertDense rewrites the file of placement layer k, if it has one byte
// per slot, as a dense file holding the same value in every slot: the bits of the stored slots,
// their rank directory and their values (WriteDenseLayer, so that the
// file is replaced whole or not at all). It reads the new file back and
// compares every slot with the old one before it counts; a layer that
// was verified stays verified, since its values are the verified ones.
// It returns false when there was nothing to convert. An interrupted
// conversion leaves the old file; converting again starts that layer
// over.
func (d *DB) ConvertDense(k Key) (bool, error) {
	if !d.OneBytePerSlot(k) {
		return false, nil
	}
	f, err := d.Layer(k) // the whole body checked
	if err != nil {
		return false, err
	}
	verified := d.verifiedRecord(k, f.Header())
	old := f.Body()
	stored := make([]uint64, denseWords(uint64(len(old))))
	n := 0
	for i, v := range old {
		if v != byte(Unused) {
			stored[i/64] |= 1 << (i % 64)
			n++
		}
	}
	values := make([]byte, 0, n)
	for _, v := range old {
		if v != byte(Unused) {
			values = append(values, v)
		}
	}
	dv, err := NewDense(uint64(len(old)), stored, values)
	if err != nil {
		return false, fmt.Errorf("layers: converting %v: %w", k, err)
	}
	// The old file stays mapped (Write keeps it until Close) for the
	// comparison.
	if err := d.WriteDense(k, dv); err != nil {
		return false, fmt.Errorf("layers: converting %v: %w", k, err)
	}
	nf, err := d.Layer(k)
	if err != nil {
		return false, fmt.Errorf("layers: converting %v: reading the new file: %w", k, err)
	}
	nd := nf.Dense()
	if nd == nil {
		return false, fmt.Errorf("layers: converting %v: the new file is not dense", k)
	}
	set, vals, r := nd.Bits(), nd.Values(), 0
	for i, v := range old {
		in := set[i/64]>>(i%64)&1 != 0
		if in != (v != byte(Unused)) || in && (r >= len(vals) || vals[r] != v) {
			d.Remove(k)
			return false, fmt.Errorf("layers: converting %v: slot %d reads %v, was %v; the layer was removed", k, i, nd.Value(uint64(i)), Value(v))
		}
		if in {
			r++
		}
	}
	if verified {
		if err := d.MarkVerified(k); err != nil {
			return true, err
		}
	}
	return true, nil
}
