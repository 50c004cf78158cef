package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"muehle/layers"
	"muehle/muehle"
)

// Rules is the rules fingerprint of a package: every rule the stored values
// depend on, as names and values (doc.go lists them). A package is
// installed only where the program plays exactly these rules; a rule this
// program does not know is a difference, so the rule sets of other games
// and boards slot in as new names and values.
type Rules map[string]string

// RulesOf returns the rules of variant v, written from its entry of
// muehle.Games (docs/rules.md): the board's counts, the flying, phase and
// full-board rules, and the rules id of its layer files (layers.RulesID).
// The rules every game shares are named too, so that a package states all
// its values depend on.
func RulesOf(v muehle.Variant) Rules {
	r := v.Rules()
	phases, full, removal := "separate", "blocked-loses", "unless-all-in-mills"
	if r.TakeFromMills {
		removal = "any"
	}
	if r.Mixed {
		phases = "mixed"
	}
	if r.FullBoardDraw {
		full = "drawn"
	}
	return Rules{
		"game":            r.ID,
		"board":           r.Board.ID(),
		"points":          strconv.Itoa(r.Board.NumPoints()),
		"lines":           strconv.Itoa(len(r.Board.Edges())),
		"mills":           strconv.Itoa(len(r.Board.Mills())),
		"stones":          strconv.Itoa(v.Stones),
		"flyAt":           strconv.Itoa(r.FlyAt),
		"loseBelow":       strconv.Itoa(r.LoseBelow),
		"phases":          phases,
		"millRemoval":     removal,
		"removalsPerMove": strconv.Itoa(r.DoubleMillRemoves),
		"fullBoard":       full,
		"rulesId":         strconv.FormatUint(uint64(layers.RulesID(v.Game)), 10),
	}
}

// Text returns the rules as one line, the names sorted: name=value
// separated by spaces. The fingerprint is computed from it.
func (r Rules) Text() string {
	names := make([]string, 0, len(r))
	for n := range r {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n + "=" + r[n])
	}
	return b.String()
}

// Fingerprint returns the first 16 bytes of the SHA-256 of Text, in hex.
func (r Rules) Fingerprint() string {
	sum := sha256.Sum256([]byte(r.Text()))
	return hex.EncodeToString(sum[:16])
}

// Variant returns the game and stones per side the rules name; ok is
// false when they name a game this program does not know or a stone count
// that game does not allow.
func (r Rules) Variant() (v muehle.Variant, ok bool) {
	g, ok := muehle.GameByName(r["game"])
	if !ok {
		return v, false
	}
	n, err := strconv.Atoi(r["stones"])
	v = g.Game().With(n)
	return v, err == nil && v.Check() == nil
}

// Differences returns a sentence naming how the rules r of a package
// differ from want, the rules of this program, or "" when they are equal.
func (r Rules) Differences(want Rules) string {
	if r["game"] != want["game"] {
		return fmt.Sprintf("this package holds a database of the game %q, and this program plays %q", r["game"], want["game"])
	}
	if r["board"] != want["board"] {
		return fmt.Sprintf("this package holds a database for the board %q, and this program plays on %q", r["board"], want["board"])
	}
	var diffs []string
	for _, n := range slices.Sorted(keys(r, want)) {
		switch got, ok := r[n]; {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("it does not say %s (want %s)", n, want[n]))
		case want[n] == "" && !hasKey(want, n):
			diffs = append(diffs, fmt.Sprintf("it has the rule %s=%s, which this program does not know", n, got))
		case got != want[n]:
			diffs = append(diffs, fmt.Sprintf("%s is %s, this program's is %s", n, got, want[n]))
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	return "this package was made for other rules: " + strings.Join(diffs, "; ")
}

func hasKey(r Rules, n string) bool { _, ok := r[n]; return ok }

// keys returns the names of a and b.
func keys(a, b Rules) func(func(string) bool) {
	return func(yield func(string) bool) {
		for n := range a {
			if !yield(n) {
				return
			}
		}
		for n := range b {
			if _, ok := a[n]; !ok && !yield(n) {
				return
			}
		}
	}
}

// Machine says which program on which machine computed or exported a
// database, as far as known ("" and 0 where not).
type Machine struct {
	Commit string `json:"commit"`
	Host   string `json:"host,omitempty"`
	OS     string `json:"os,omitempty"`
	Cores  int    `json:"cores,omitempty"`
	Units  int    `json:"units,omitempty"` // units of the solve record computed so
}

// Layer is what the manifest says of one layer: its header's layout,
// slots, stored count and figures, its verification record and its reach
// file.
type Layer struct {
	Key         string `json:"key"`
	Layout      int    `json:"layout,omitempty"` // the header's layout (layers.Layout): 0 one byte per slot, 1 dense
	Slots       uint64 `json:"slots"`
	Stored      uint64 `json:"stored,omitempty"` // a dense layer: the slots holding a value
	CRC64       string `json:"crc64"`            // the header's body checksum, 16 hex digits
	Won         uint64 `json:"won"`
	Lost        uint64 `json:"lost"`
	Drawn       uint64 `json:"drawn"`
	DeepestWin  int    `json:"deepestWin"`
	DeepestLoss int    `json:"deepestLoss"`
	Verified    string `json:"verified,omitempty"` // the .verified record, verbatim
	Reach       *Reach `json:"reach,omitempty"`    // the .reach file, when there is one
	Derived     bool   `json:"derived,omitempty"`  // no blocks: import computes the body from the layers before it (derive.go)
	// File: the layer travels as its compressed file, byte for byte
	// (format 5, copy.go), not as its body; BlockFile: its block file
	// travels too.
	File      *Copied `json:"file,omitempty"`
	BlockFile *Copied `json:"blockFile,omitempty"`

	key     layers.Key // parsed
	sum     uint64     // parsed CRC64
	version int        // the layer file format: the manifest's layerFormat
}

// Dense reports whether the layer's file is dense: its body the bits of
// the stored slots, their rank directory and their values.
func (l *Layer) Dense() bool { return layers.Layout(l.Layout) == layers.LayoutDense }

// Old reports whether the layer's file is of the format before
// (layers.OldVersion), as a package of format 1 holds it: the slots in
// the order before, which layers.DB.ConvertOld rewrites.
func (l *Layer) Old() bool { return l.version == layers.OldVersion }

// BodyBytes returns the size of the layer's body as its file holds it:
// one byte per slot, or a dense body.
func (l *Layer) BodyBytes() uint64 {
	if l.Dense() {
		return layers.DenseBodySize(l.Slots, l.Stored)
	}
	return l.Slots
}

// Copied describes a file that travels byte for byte (format 5): a
// compressed layer file, which its own offset table and block checksums
// check (so that its CRC64 is absent: export learns it only as it copies
// the file, after the manifest is written), or a block file.
type Copied struct {
	Bytes uint64 `json:"bytes"`
	CRC64 string `json:"crc64,omitempty"` // of the whole file, 16 hex digits (a block file)

	sum uint64
}

// Copied reports whether the layer travels as its compressed file.
func (l *Layer) Copied() bool { return l.File != nil }

// stream is a kind of a layer's data in a package and its size in
// bytes: the blocks of a layer follow one another in the order of
// streams.
type stream struct {
	kind int
	n    uint64
}

// streams returns the data of layer l that the package holds, in the
// order of its blocks: its body (none when derived) or its compressed
// file and block file, then its reach file when stored.
func (l *Layer) streams() []stream {
	var s []stream
	switch {
	case l.Copied():
		s = append(s, stream{kindFile, l.File.Bytes})
		if l.BlockFile != nil {
			s = append(s, stream{kindBlocks, l.BlockFile.Bytes})
		}
	case !l.Derived:
		s = append(s, stream{kindBody, l.BodyBytes()})
	}
	if l.Reach != nil && l.Reach.Stored {
		s = append(s, stream{kindReach, l.Reach.Bytes})
	}
	return s
}

// work returns the bytes by which export and import count layer l's
// progress: its compressed file when copied, else its body.
func (l *Layer) work() uint64 {
	if l.Copied() {
		return l.File.Bytes
	}
	return l.BodyBytes()
}

// work returns the bytes by which export and import count their progress
// (Layer.work).
func (m *Manifest) work() uint64 {
	var n uint64
	for i := range m.Layers {
		n += m.Layers[i].work()
	}
	return n
}

// Reach describes a placement layer's reach file (the bits of its
// reachable slots, layers/reach.go).
type Reach struct {
	Bytes  uint64 `json:"bytes"`
	CRC64  string `json:"crc64"`  // of the whole file, 16 hex digits
	Stored bool   `json:"stored"` // its bytes follow the body; else derived from it

	sum uint64
}

// Manifest is the package's table of contents (doc.go).
type Manifest struct {
	Format      string    `json:"format"`  // manifestFormat
	Version     int       `json:"version"` // Version (1 in an older package)
	Rules       Rules     `json:"rules"`
	Fingerprint string    `json:"fingerprint"` // Rules.Fingerprint()
	LayerFormat int       `json:"layerFormat"` // the layer files' format (layers.FileVersion; OldVersion in a package of version 1)
	BlockBytes  int       `json:"blockBytes"`
	Created     string    `json:"created"`
	Exported    Machine   `json:"exported"`
	Computed    []Machine `json:"computed"`
	SolveRecord string    `json:"solveRecord,omitempty"` // k<stones>/solve-record.tsv, verbatim
	Layers      []Layer   `json:"layers"`
}

// Key returns layer i's key.
func (m *Manifest) Key(i int) layers.Key { return m.Layers[i].key }

// Variant returns the game and stones per side of the package (the zero
// Variant when its rules name none this program knows; Read refuses such
// a manifest).
func (m *Manifest) Variant() muehle.Variant {
	v, _ := m.Rules.Variant()
	return v
}

// Bytes returns the bytes of all layer bodies, as their files hold them.
func (m *Manifest) Bytes() uint64 {
	var n uint64
	for i := range m.Layers {
		n += m.Layers[i].BodyBytes()
	}
	return n
}

// Slots returns the slots of all layers, stored or not.
func (m *Manifest) Slots() uint64 {
	var n uint64
	for _, l := range m.Layers {
		n += l.Slots
	}
	return n
}

const (
	manifestFormat = "muehle database package"
	minBlockBytes  = 64 << 10
	maxBlockBytes  = 64 << 20
	maxSlots       = 1 << 40
)

// parseManifest decodes and checks a manifest. The error says what is
// wrong, wrapping ErrFormat, ErrVersion or ErrRules.
func parseManifest(b []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%w: the manifest is not valid JSON: %v", ErrFormat, err)
	}
	if m.Format != manifestFormat {
		return nil, fmt.Errorf("%w: the manifest says format %q, want %q", ErrFormat, m.Format, manifestFormat)
	}
	if m.Version < 1 || m.Version > Version {
		return nil, fmt.Errorf("%w: the manifest says package format %d, this program reads formats 1 to %d", ErrVersion, m.Version, Version)
	}
	if want := layerFormat(m.Version); m.LayerFormat != want {
		return nil, fmt.Errorf("%w: the package holds layer files of format %d, this program reads format %d in a package of format %d", ErrVersion, m.LayerFormat, want, m.Version)
	}
	if len(m.Rules) == 0 {
		return nil, fmt.Errorf("%w: the manifest names no rules", ErrFormat)
	}
	if f := m.Rules.Fingerprint(); m.Fingerprint != f {
		return nil, fmt.Errorf("%w: the manifest's rules fingerprint is %q, its rules give %q", ErrFormat, m.Fingerprint, f)
	}
	v, ok := m.Rules.Variant()
	if !ok {
		if _, known := muehle.GameByName(m.Rules["game"]); !known {
			return nil, fmt.Errorf("%w: the package is for the game %q, which this program does not know", ErrRules, m.Rules["game"])
		}
		return nil, fmt.Errorf("%w: the package is for %s with %q stones per side, which it does not allow", ErrRules, m.Rules["game"], m.Rules["stones"])
	}
	if d := m.Rules.Differences(RulesOf(v)); d != "" {
		return nil, fmt.Errorf("%w: %s", ErrRules, d)
	}
	if err := layers.CheckVariant(v); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRules, err)
	}
	if m.BlockBytes < minBlockBytes || m.BlockBytes > maxBlockBytes || m.BlockBytes%minBlockBytes != 0 {
		return nil, fmt.Errorf("%w: blocks of %d bytes, want a multiple of %d up to %d", ErrFormat, m.BlockBytes, minBlockBytes, maxBlockBytes)
	}
	if len(m.Layers) == 0 {
		return nil, fmt.Errorf("%w: the manifest lists no layer", ErrFormat)
	}
	order := map[layers.Key]int{}
	for i, k := range layers.OrderIn(v, true) {
		order[k] = i
	}
	last := -1
	for i := range m.Layers {
		l := &m.Layers[i]
		k, err := layers.ParseKey(l.Key)
		if err != nil || !layers.ValidIn(v, k) {
			return nil, fmt.Errorf("%w: layer %d of the manifest, %q, is not a layer of %s", ErrFormat, i+1, l.Key, v.Name())
		}
		l.key = k
		switch pos := order[k]; {
		case pos == last:
			return nil, fmt.Errorf("%w: the manifest names layer %s twice", ErrFormat, k)
		case pos < last:
			return nil, fmt.Errorf("%w: the manifest lists layer %s after %s, out of the order of computation", ErrFormat, k, m.Layers[i-1].key)
		default:
			last = pos
		}
		l.version = m.LayerFormat
		if l.Layout != int(layers.LayoutFlat) && (l.Old() || !l.Dense()) {
			return nil, fmt.Errorf("%w: layer %s: layout %d in a layer file of format %d", ErrFormat, k, l.Layout, l.version)
		}
		if l.Slots == 0 || l.Slots > maxSlots {
			return nil, fmt.Errorf("%w: layer %s has %d slots", ErrFormat, k, l.Slots)
		}
		if l.sum, err = parseHex(l.CRC64); err != nil {
			return nil, fmt.Errorf("%w: layer %s: crc64 %q: want 16 hex digits", ErrFormat, k, l.CRC64)
		}
		if l.Won > l.Slots || l.Lost > l.Slots || l.Drawn > l.Slots || l.Won+l.Lost+l.Drawn > l.Slots {
			return nil, fmt.Errorf("%w: layer %s: won, lost and drawn exceed its %d slots", ErrFormat, k, l.Slots)
		}
		switch {
		case !l.Dense() && l.Stored != 0:
			return nil, fmt.Errorf("%w: layer %s: %d stored in a layer of one byte per slot, which stores every slot", ErrFormat, k, l.Stored)
		case l.Dense() && l.Won+l.Lost+l.Drawn != l.Stored:
			return nil, fmt.Errorf("%w: layer %s: %d values won, lost or drawn, %d stored", ErrFormat, k, l.Won+l.Lost+l.Drawn, l.Stored)
		}
		if l.DeepestWin < -1 || l.DeepestWin > 253 || l.DeepestLoss < -1 || l.DeepestLoss > 253 {
			return nil, fmt.Errorf("%w: layer %s: deepest win %d, loss %d, want -1 to 253", ErrFormat, k, l.DeepestWin, l.DeepestLoss)
		}
		if l.Verified != "" && !recordMatches(l.Verified, k, l.header(v)) {
			return nil, fmt.Errorf("%w: layer %s: its verification record %q is not of this layer", ErrFormat, k, l.Verified)
		}
		if l.Derived && (m.Version < 4 || !derivable(&m, i)) {
			return nil, fmt.Errorf("%w: layer %s is to be derived from the layers before it, which %s", ErrFormat, k, whyNotDerivable(&m, i))
		}
		if err := checkCopied(&m, l); err != nil {
			return nil, err
		}
		if r := l.Reach; r != nil {
			if k.IsMoving() || r.Bytes != layers.ReachFileBytes(l.Slots) {
				return nil, fmt.Errorf("%w: layer %s: a reach file of %d bytes", ErrFormat, k, r.Bytes)
			}
			if r.sum, err = parseHex(r.CRC64); err != nil {
				return nil, fmt.Errorf("%w: layer %s: reach crc64 %q: want 16 hex digits", ErrFormat, k, r.CRC64)
			}
		}
	}
	return &m, nil
}

// Sizes of the files a package of format 5 copies: a compressed layer
// file holds at least its preamble, header and one offset table entry
// with its checksum (layers/doc.go); a block file at least its header.
const (
	minCopiedFile  = 32 + 128 + 16 + 4
	maxBlockFile   = 64 << 20
	minBlockFile   = 52
	copiedInFormat = 5
)

// checkCopied checks what the manifest m says of layer l's copied files.
func checkCopied(m *Manifest, l *Layer) error {
	k := l.key
	if l.File == nil {
		if l.BlockFile != nil {
			return fmt.Errorf("%w: layer %s: a block file without its compressed file", ErrFormat, k)
		}
		return nil
	}
	switch {
	case m.Version < copiedInFormat:
		return fmt.Errorf("%w: layer %s travels as its compressed file, which a package of format %d does not do", ErrFormat, k, m.Version)
	case l.Derived:
		return fmt.Errorf("%w: layer %s travels as its compressed file and is to be derived", ErrFormat, k)
	case l.File.Bytes < minCopiedFile || l.File.Bytes > 2*maxSlots:
		return fmt.Errorf("%w: layer %s: a compressed file of %d bytes", ErrFormat, k, l.File.Bytes)
	case l.Reach != nil && !l.Reach.Stored:
		return fmt.Errorf("%w: layer %s travels as its compressed file, and its reach file is to be derived from a body the package does not hold", ErrFormat, k)
	}
	if b := l.BlockFile; b != nil {
		var err error
		if b.Bytes < minBlockFile || b.Bytes > maxBlockFile {
			return fmt.Errorf("%w: layer %s: a block file of %d bytes", ErrFormat, k, b.Bytes)
		}
		if b.sum, err = parseHex(b.CRC64); err != nil {
			return fmt.Errorf("%w: layer %s: block file crc64 %q: want 16 hex digits", ErrFormat, k, b.CRC64)
		}
	}
	return nil
}

// layerFormat returns the format of the layer files a package of format
// version holds: the format before (layers.OldVersion) in a package of
// version 1, this program's (layers.FileVersion) from version 2 on.
func layerFormat(version int) int {
	if version == 1 {
		return layers.OldVersion
	}
	return layers.FileVersion
}

// parseHex parses 16 hex digits.
func parseHex(s string) (uint64, error) {
	if len(s) != 16 {
		return 0, fmt.Errorf("want 16 hex digits")
	}
	return strconv.ParseUint(s, 16, 64)
}

// recordMatches reports whether text is a verification record of layer k
// with header h (layers.RecordVouches), one line of at most 200 bytes.
func recordMatches(text string, k layers.Key, h layers.Header) bool {
	return len(text) < 200 && strings.HasSuffix(text, "\n") && layers.RecordVouches(text, k, h)
}

// header returns the header of the layer's file as the manifest describes
// it: field for field the header its file holds, so that its header
// checksum, which a verification record names, is that file's.
func (l *Layer) header(v muehle.Variant) layers.Header {
	return layers.Header{Version: l.version, Game: v.Game, Stones: v.Stones, Key: l.key, Slots: l.Slots,
		Layout: layers.Layout(l.Layout), Stored: l.Stored,
		Won: l.Won, Lost: l.Lost, Drawn: l.Drawn, DeepestWin: l.DeepestWin, DeepestLoss: l.DeepestLoss, Checksum: l.sum}
}

// jsonMarshal returns the manifest's JSON as Export writes it.
func jsonMarshal(m *Manifest) ([]byte, error) { return json.MarshalIndent(m, "", " ") }
