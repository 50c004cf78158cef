package layers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DamagedError reports a layer file that exists but cannot be used: a bad
// header, a wrong size or key, a body that fails its checksum. It unwraps
// to the cause (ErrFormat, ErrChecksum or ErrVersion) and to ErrMissing:
// for a reader a damaged layer is a missing one.
type DamagedError struct {
	Key Key
	Err error // the cause, naming the file
}

// Error says which layer is damaged and why.
func (e *DamagedError) Error() string {
	return fmt.Sprintf("layer %v is damaged: %v", e.Key, e.Err)
}

// Unwrap returns the cause and ErrMissing.
func (e *DamagedError) Unwrap() []error { return []error{e.Err, ErrMissing} }

// Damaged reports whether err says a layer file is damaged, and which.
func Damaged(err error) (Key, bool) {
	var d *DamagedError
	if errors.As(err, &d) {
		return d.Key, true
	}
	return Key{}, false
}

// Status is what a database holds of one layer.
type Status int

// The states of a layer, from worst to best.
const (
	StatusMissing    Status = iota // no file
	StatusDamaged                  // a file that fails its checks
	StatusUnverified               // a sound file, not yet verified
	StatusVerified                 // a sound file whose values were verified
)

// String returns "missing", "damaged", "unverified" or "verified".
func (s Status) String() string {
	switch s {
	case StatusMissing:
		return "missing"
	case StatusDamaged:
		return "damaged"
	case StatusUnverified:
		return "unverified"
	case StatusVerified:
		return "verified"
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// Check opens layer k and checks its file completely (header, size, body
// checksum), then looks for the record of its verification. The error says
// why a layer is missing or damaged; it is nil for the other states.
//
// A compressed layer is checked by decoding it, which the DB does not keep
// for long (its memory bound): the DB remembers which compressed files it
// has checked in full, and checks one again only when its file has been
// replaced or changed (another file, size or modification time). A solver
// checks every layer of the game before each unit; without this each
// check would decode every compressed layer again.
func (d *DB) Check(k Key) (Status, error) {
	if h, ok := d.soundBefore(k); ok {
		return d.status(k, h), nil
	}
	seen, _ := os.Stat(d.Path(k)) // before opening: a file replaced meanwhile is checked again next time
	f, release, err := d.Borrow(k)
	switch {
	case err == nil:
	case errors.Is(err, ErrMissing) && !isDamaged(err):
		return StatusMissing, err
	default:
		return StatusDamaged, err
	}
	defer release()
	if f.Compressed() && seen != nil {
		d.mu.Lock()
		d.noteSoundLocked(k, seen, f.Header())
		d.mu.Unlock()
	}
	return d.status(k, f.Header()), nil
}

// status is the state of sound layer k whose header is h.
func (d *DB) status(k Key, h Header) Status {
	if d.verifiedRecord(k, h) {
		return StatusVerified
	}
	return StatusUnverified
}

// soundFile is a compressed layer file the DB checked in full: the file as
// it was then, and its header.
type soundFile struct {
	seen os.FileInfo
	h    Header
}

// soundBefore returns the header of layer k when the DB has checked its
// compressed file in full before and the file is still the same one,
// unchanged, and not found damaged since.
func (d *DB) soundBefore(k Key) (Header, bool) {
	d.mu.Lock()
	c, ok := d.sound[k]
	d.mu.Unlock()
	if e := d.cached(k); e != nil && e.err != nil {
		return Header{}, false
	}
	if !ok {
		seen, h, ok := d.soundRecorded(k)
		if ok {
			d.mu.Lock()
			d.rememberSoundLocked(k, seen, h) // the record has its note already
			d.mu.Unlock()
		}
		return h, ok
	}
	if !stillSame(d.Path(k), c.seen) {
		d.mu.Lock()
		delete(d.sound, k)
		d.mu.Unlock()
		return Header{}, false
	}
	return c.h, true
}

// A compressed layer file checked in full (decoded, its body's checksum
// recounted: Check, Compress) is noted in its verification record too,
// after the record's time: "checked <size> <modification time in
// nanoseconds since 1970>". While the file keeps that size and time,
// another process trusts it as this one does (soundBefore) rather than
// decoding it again: a restarted solver checks every layer of its game,
// which in a compressed folder meant decoding every finished layer and
// finding its won depths once more, hours for Lasker Morris. A bit that
// flips in the file later is found as before by the check of its frame
// when a reader decodes it. The record vouches as before for its body
// and header checksums (RecordVouches reads no further), so older
// programs read it as they did.
const soundField = "checked"

// noteSoundLocked notes that the compressed file of layer k, as seen, was
// checked in full and holds header h: in memory, and in the layer's
// verification record when one vouches for h. A folder that cannot be
// written keeps the note in memory only. d.mu is held.
func (d *DB) noteSoundLocked(k Key, seen os.FileInfo, h Header) {
	d.rememberSoundLocked(k, seen, h)
	path := d.VerifiedPath(k)
	b, err := ReadRegular(path, 1<<10)
	if err != nil || !RecordVouches(string(b), k, h) {
		return
	}
	text := strings.TrimSuffix(string(b), "\n")
	if i := strings.Index(text, " "+soundField+" "); i >= 0 {
		text = text[:i]
	}
	text += soundNote(seen) + "\n"
	if text != string(b) {
		WriteAtomic(path, []byte(text)) // a note that saves work: without it the file is decoded again
	}
}

// soundNote returns the note, " checked <size> <time>", that the
// compressed file as seen was checked in full.
func soundNote(seen os.FileInfo) string {
	return fmt.Sprintf(" %s %d %d", soundField, seen.Size(), seen.ModTime().UnixNano())
}

// rememberSoundLocked notes in memory only that the compressed file of
// layer k, as seen, was checked in full and holds header h. d.mu is held.
func (d *DB) rememberSoundLocked(k Key, seen os.FileInfo, h Header) {
	if d.sound == nil {
		d.sound = make(map[Key]soundFile)
	}
	d.sound[k] = soundFile{seen, h}
}

// soundRecorded reports whether the verification record of layer k notes
// its compressed file, as it is now, as checked in full, and vouches for
// the header the file has; it returns the file's state and header.
func (d *DB) soundRecorded(k Key) (os.FileInfo, Header, bool) {
	seen, err := os.Stat(d.Path(k))
	if err != nil {
		return nil, Header{}, false
	}
	b, err := ReadRegular(d.VerifiedPath(k), 1<<10)
	if err != nil {
		return nil, Header{}, false
	}
	f := strings.Fields(string(b))
	i := slices.Index(f, soundField)
	if i < 0 || i+2 >= len(f) {
		return nil, Header{}, false
	}
	size, err1 := strconv.ParseInt(f[i+1], 10, 64)
	nanos, err2 := strconv.ParseInt(f[i+2], 10, 64)
	if err1 != nil || err2 != nil || size != seen.Size() || nanos != seen.ModTime().UnixNano() || !isCompressedFile(d.Path(k)) {
		return nil, Header{}, false
	}
	h, err := d.readHeader(k)
	if err != nil || !RecordVouches(string(b), k, h) {
		return nil, Header{}, false
	}
	return seen, h, true
}

func isDamaged(err error) bool { _, ok := Damaged(err); return ok }

// Damage returns why the file of layer k is damaged, or nil when it is
// missing, sound or not yet known to be damaged. It is cheap: it reads the
// header, not the body, unless the DB has opened the layer before, and then
// it reports what that found. Displays use it; Check is the full check.
func (d *DB) Damage(k Key) error {
	if e := d.cached(k); e != nil && e.err != nil && isDamaged(e.err) {
		return e.err
	}
	if _, err := d.readHeader(k); isDamaged(err) {
		return err
	}
	return nil
}

// The record of a verified layer is a small text file beside the layer,
// m3-4.verified for m3-4.layer (VerifiedPath): "verified <layer> checksum
// <16 hex digits> slots <n> header <8 hex digits> at <time>". It counts
// only while the layer file has that body checksum, slot count and header
// checksum (which covers the whole header: the figures too), so a
// rewritten layer, or one whose header was changed, is unverified until
// verified again. A record written before the header checksum was added
// (no "header" field) vouches for the body checksum and slots alone, as it
// did. The layer files themselves are never changed by it.

// verifiedRecord reports whether a record of the verification of layer k
// with header h exists.
func (d *DB) verifiedRecord(k Key, h Header) bool {
	b, err := ReadRegular(d.VerifiedPath(k), 1<<10)
	return err == nil && RecordVouches(string(b), k, h)
}

// RecordVouches reports whether text, the content of a verification
// record, vouches for layer k with header h: it names k, h's body
// checksum and slots and, when it has the field, h's header checksum.
func RecordVouches(text string, k Key, h Header) bool {
	var name string
	var sum, slots uint64
	if _, err := fmt.Sscanf(text, "verified %s checksum %x slots %d", &name, &sum, &slots); err != nil {
		return false
	}
	if name != k.String() || sum != h.Checksum || slots != h.Slots {
		return false
	}
	f := strings.Fields(text)
	if len(f) >= 8 && f[6] == "header" {
		return f[7] == fmt.Sprintf("%08x", headerSum(h))
	}
	return len(f) < 7 || f[6] == "at" // a record of the older form
}

// headerSum returns the header checksum of h (bytes 72-75 of its file).
func headerSum(h Header) uint32 { return binary.LittleEndian.Uint32(h.marshal()[72:]) }

// Verified reports whether layer k's file is present and recorded as
// verified (by MarkVerified). It reads the header, not the body: Check
// checks both.
func (d *DB) Verified(k Key) bool {
	h, err := ReadHeader(d.Path(k), d.v, k)
	return err == nil && d.verifiedRecord(k, h)
}

// MarkVerified records that layer k, as its file is now, passed
// verification. The record is written to a temporary file and renamed, so
// it is either absent or complete.
func (d *DB) MarkVerified(k Key) error {
	f, release, err := d.Borrow(k)
	if err != nil {
		return err
	}
	defer release()
	return d.markVerifiedLocked(k, f.Header())
}

// markVerifiedLocked writes the record that layer k with header h passed
// verification. It takes no lock of d.
func (d *DB) markVerifiedLocked(k Key, h Header) error {
	text := verifiedText(k, h) + "\n"
	path := d.VerifiedPath(k)
	tmp := path + ".tmp"
	if err := WriteRegular(tmp, []byte(text)); err != nil {
		return fmt.Errorf("layers: recording the verification of %v: %w", k, err)
	}
	if err := ReplaceFile(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("layers: recording the verification of %v: %w", k, err)
	}
	return nil
}

// verifiedText returns the line of a verification record of layer k with
// header h, made now, without its end of line.
func verifiedText(k Key, h Header) string {
	return fmt.Sprintf("verified %s checksum %016x slots %d header %08x at %s", k, h.Checksum, h.Slots, headerSum(h), time.Now().UTC().Format(time.RFC3339))
}

// Remove deletes the file of layer k, its block file and its verification
// record. The solver calls it only for a layer proven wrong or damaged.
func (d *DB) Remove(k Key) error {
	s, ok := keySlot(k)
	if !ok {
		return fmt.Errorf("layers: removing layer %v: not a layer of %s", k, d.v.Name())
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if e := d.slots[s].Swap(nil); e != nil && e.f != nil {
		d.retireLocked(e.f)
	}
	var errs []error
	for _, p := range []string{d.VerifiedPath(k), d.Path(k), blocksPath(d.Path(k))} {
		if err := removeFile(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("layers: removing layer %v: %w", k, err))
		}
	}
	return errors.Join(errs...)
}

// removeVerified deletes the verification record of layer k, if any.
func (d *DB) removeVerified(k Key) error {
	err := removeFile(d.VerifiedPath(k))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("layers: writing layer %v: %w", k, err)
	}
	return nil
}

// ensureDir creates the folder of the DB's layers, for writing.
func (d *DB) ensureDir() error {
	if err := os.MkdirAll(d.sub, 0o755); err != nil {
		return fmt.Errorf("layers: database %s: %w", filepath.Dir(d.sub), err)
	}
	return nil
}
