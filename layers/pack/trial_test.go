package pack

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"muehle/layers"
	"muehle/muehle"
)

// trialSetup serves the trials of the package format on a database of the
// standard game (of MUEHLE_TRIAL_STONES stones per side, 9 when unset): it opens the folder the environment variable dbVar names
// (skipping t when it names none), reads the moving layers layersVar lists
// (def when it is unset), and returns a function that compresses a body as
// a package does (blocks of BlockBytes, zstd at the default level) and
// says how many bytes that takes.
func trialSetup(t *testing.T, dbVar, layersVar, def string) (*layers.DB, []layers.Key, func([]byte) int) {
	t.Helper()
	dir := os.Getenv(dbVar)
	if dir == "" {
		t.Skip(dbVar + " names no database folder")
	}
	stones := muehle.StonesPerSide
	if s := os.Getenv("MUEHLE_TRIAL_STONES"); s != "" {
		stones, _ = strconv.Atoi(s)
	}
	db, err := layers.OpenDB(dir, muehle.Standard.With(stones))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	names := os.Getenv(layersVar)
	if names == "" {
		names = def
	}
	var keys []layers.Key
	for name := range strings.SplitSeq(names, ",") {
		k, err := layers.ParseKey(strings.TrimSpace(name))
		if err != nil || !k.IsMoving() {
			t.Fatalf("%s: layer %q: want a moving layer (%v)", layersVar, name, err)
		}
		keys = append(keys, k)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { enc.Close() })
	packed := func(b []byte) int {
		n := 0
		for lo := 0; lo < len(b); lo += BlockBytes {
			n += len(enc.EncodeAll(b[lo:min(lo+BlockBytes, len(b))], nil))
		}
		return n
	}
	return db, keys, packed
}
