package layers

import (
	"errors"
	"fmt"
)

// Errors wrapped by the functions of this package, for callers that branch
// on the kind of failure. The wrapping error names the file or the layer.
var (
	// ErrMissing: the layer is not in the database.
	ErrMissing = errors.New("layer missing")
	// ErrFormat: a file is not a layer file of the expected shape
	// (magic, rules, stone count, key, size).
	ErrFormat = errors.New("bad file format")
	// ErrChecksum: a file's body does not match the checksum in its header.
	ErrChecksum = errors.New("checksum mismatch")
	// ErrVersion: a file has a format version this program does not read.
	ErrVersion = errors.New("unsupported format version")
	// ErrOldFormat: a layer file of the format before (OldVersion), which
	// ConvertOld rewrites; it wraps ErrVersion.
	ErrOldFormat = fmt.Errorf("%w: the layer format before", ErrVersion)
	// ErrUnverified: a DB that reads verified layers only (DB.VerifiedOnly)
	// holds the layer, but no verification record matches its file; it
	// wraps ErrMissing, so that readers treat it as a missing layer.
	ErrUnverified = fmt.Errorf("%w: not verified (muehlectl verify checks it)", ErrMissing)
)
