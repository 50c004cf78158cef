package layers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// Adopt gives d, the database of one game, layer k verified in src, the
// database of another game that shares it (muehle.Rules.SharesMovingLayer:
// a moving layer of both games under the same moves and ends, so the same
// values slot by slot): the file as it lies in src, flat or compressed,
// with its header naming d's game and stones (those bytes and the
// header's checksum are all that change; the body, its checksum and the
// figures stay), its block file renamed to match, and a verification
// record that says where it was verified: a value re-derived from its
// children in one game is re-derived so in the other, whose children are
// the same layers. It writes the copies beside the layer's path and
// renames them, the block file first, as WriteLayer does.
//
// It reports whether it adopted the layer: false, with no error, when d
// has it verified already. A file of the layer in d that is not verified
// is replaced. The caller holds the claim of the layer's unit in d, so
// that no solver computes it meanwhile. The copy is not read back in
// full: its blocks are checked as they are read, as any layer's are.
func (d *DB) Adopt(src *DB, k Key) (bool, error) {
	r, o := d.v.Rules(), src.v.Rules()
	if r == nil || o == nil || k.WH != 0 || k.BH != 0 || !ValidIn(d.v, k) || !ValidIn(src.v, k) ||
		!r.SharesMovingLayer(o, int(k.W), int(k.B)) {
		return false, fmt.Errorf("layers: layer %v of %s is not one of %s's", k, src.v.Name(), d.v.Name())
	}
	if d.Verified(k) {
		return false, nil
	}
	from := src.Path(k)
	h, err := ReadHeader(from, src.v, k)
	if err != nil {
		return false, err
	}
	if !src.verifiedRecord(k, h) {
		return false, fmt.Errorf("layers: adopting layer %v: it is not verified in %s", k, src.GameDir())
	}
	nh := h
	nh.Game, nh.Stones = d.v.Game, d.v.Stones

	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return false, fmt.Errorf("layers: database %s is closed", d.dir)
	}
	if err := d.ensureDir(); err != nil {
		return false, err
	}
	path, bpath := d.Path(k), d.BlocksPath(k)
	if err := copyWithHeader(from, path+".tmp", h, nh); err != nil {
		os.Remove(path + ".tmp")
		return false, fmt.Errorf("layers: adopting layer %v from %s: %w", k, src.GameDir(), err)
	}
	if _, err := ReadHeader(path+".tmp", d.v, k); err != nil {
		os.Remove(path + ".tmp")
		return false, fmt.Errorf("layers: adopting layer %v from %s: the copy: %w", k, src.GameDir(), err)
	}
	if err := d.removeVerified(k); err != nil {
		os.Remove(path + ".tmp")
		return false, err
	}
	// With the block file, where src has a sound one: the same block
	// sums, naming the new header. Without one a reader checks the body
	// in full once and writes it.
	if shift, sums, berr := readBlocks(from, h, headerSum(h)); berr == nil {
		err = installLayer(path, nh, headerSum(nh), shift, sums)
	} else {
		os.Remove(bpath)
		if err = ReplaceFile(path+".tmp", path); err == nil {
			syncDir(path)
		}
	}
	if err != nil {
		os.Remove(path + ".tmp")
		return false, fmt.Errorf("layers: adopting layer %v: %w", k, err)
	}
	d.forgetLocked(k)
	text := verifiedText(k, nh) + fmt.Sprintf(" adopted from %s k%d", src.v.Game, src.v.Stones)
	// A compressed file src checked in full (its record's "checked"
	// note, status.go) is checked in full here too: its frames and body
	// are the same bytes, and its header was read back. Noted, the
	// solver does not decode it once more on starting.
	if _, _, ok := src.soundRecorded(k); ok {
		if seen, err := os.Stat(path); err == nil {
			text += soundNote(seen)
		}
	}
	if err := WriteAtomic(d.VerifiedPath(k), []byte(text+"\n")); err != nil {
		return false, fmt.Errorf("layers: recording the adoption of %v: %w", k, err)
	}
	return true, nil
}

// copyWithHeader copies the layer file from, whose header is old, to the
// new file to, synced, with h in place of its header (at the start of a
// flat file, after the preamble of a compressed one). A header that is
// not byte for byte the one this program writes for old is refused: its
// other bytes would be lost.
func copyWithHeader(from, to string, old, h Header) error {
	in, err := OpenRegular(from)
	if err != nil {
		return err
	}
	defer in.Close()
	head := make([]byte, zHead)
	n, err := io.ReadFull(in, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	head = head[:n]
	at := 0
	if isCompressed(head) {
		at = zPreamble
	}
	if len(head) < at+HeaderSize {
		return fmt.Errorf("%s: %w: %d bytes, shorter than the header", from, ErrFormat, len(head))
	}
	if !bytes.Equal(head[at:at+HeaderSize], old.marshal()) {
		return fmt.Errorf("%s: %w: a header other than the one this program writes", from, ErrFormat)
	}
	copy(head[at:], h.marshal())
	out, err := CreateRegular(to)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(out, 1<<20)
	w.Write(head)
	_, err = io.Copy(w, in)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
