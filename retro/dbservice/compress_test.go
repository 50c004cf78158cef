package dbservice

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"muehle/layers"
	"muehle/layers/layerstest"
	"muehle/muehle"
	"muehle/retro"
)

// TestCompress solves the moving layers 3-3, 3-4 and 4-3 and
// compresses them as the Database tab and `muehlectl compress` do:
// refused, changing nothing, when the disk lacks the room of the largest
// layer; cancelled while the second layer is under way, it finishes that
// layer and keeps both compressed; run again, it compresses the rest, the
// values of a sample of each layer the same before and after (Sample),
// and the folder holds nothing flat.
func TestCompress(t *testing.T) {
	_, db := copiedDB(t)
	flat := FlatOf(db)
	if flat.Layers != 3 || flat.Largest == 0 || flat.Bytes < flat.Largest {
		t.Fatalf("flat before compressing: %+v; want the 3 moving layers 3-3, 3-4, 4-3", flat)
	}
	if w := flat.Words(); !strings.HasPrefix(w, "This folder holds 3 layers lying flat (") {
		t.Errorf("words: %q", w)
	}

	_, err := Compress(context.Background(), db, CompressRun{Free: func(string) (uint64, error) { return flat.Largest - 1, nil }})
	if !errors.Is(err, ErrNoRoom) || !strings.Contains(err.Error(), "the largest may take "+Bytes(flat.Largest)) {
		t.Errorf("without the room: got %v, want ErrNoRoom naming the room needed", err)
	}
	if got := FlatOf(db); got != flat {
		t.Errorf("refused, yet the folder changed: %+v, want %+v", got, flat)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var lines []string
	run := CompressRun{Sample: 500, Free: func(string) (uint64, error) { return flat.Largest, nil },
		Begin: func(layers.Key) {
			if len(lines) == 1 {
				cancel()
			}
		},
		Progress: func(p Progress) {
			if !p.Converting || !p.Compressing || !strings.HasPrefix(p.Lines(), "Compressing layer ") {
				t.Errorf("progress %+v: %q", p, p.Lines())
			}
		},
		Layer: func(r LayerResult) { lines = append(lines, r.Key.String()) }}
	res, err := Compress(ctx, db, run)
	if !errors.Is(err, context.Canceled) || res.Done != 2 || len(lines) != 2 {
		t.Fatalf("cancelled in the second layer: %v, %d compressed (%v); want context.Canceled, 2", err, res.Done, lines)
	}
	if got := FlatOf(db); got.Layers != 1 {
		t.Errorf("after the pause %d layers flat, want 1", got.Layers)
	}
	lines = nil
	run.Begin = nil
	if res, err = Compress(context.Background(), db, run); err != nil || res.Done != 1 || res.Left != 2 || res.After >= res.Before {
		t.Fatalf("resumed: %v, %+v; want the third compressed, 2 left as they are, smaller", err, res)
	}
	if got := FlatOf(db); got.Layers != 0 {
		t.Errorf("after compressing: %+v flat, want none", got)
	}
	for _, k := range []layers.Key{layers.Moving(3, 3), layers.Moving(3, 4), layers.Moving(4, 3)} {
		if st, err := db.Check(k); st != layers.StatusVerified || !db.Compressed(k) {
			t.Errorf("layer %s: %v, %v, compressed %v; want verified and compressed", k, st, err, db.Compressed(k))
		}
	}
}

// TestCompressOwnDB compresses the layers of a database that has them
// mapped, as `muehlectl compress` does (OwnDB): each flat file replaced is
// unmapped, so no deleted file stays mapped, its disk space taken, until
// the database is closed.
func TestCompressOwnDB(t *testing.T) {
	dir, db := solvedDB(t)
	res, err := Compress(context.Background(), db, CompressRun{OwnDB: true})
	if err != nil || res.Done != 3 {
		t.Fatalf("compress: %+v, %v; want the 3 layers compressed", res, err)
	}
	if names := layerstest.DeletedMappings(t, dir); len(names) > 0 {
		t.Errorf("after compressing, before Close: deleted files still mapped: %v", names)
	}
}

// TestCompressLeavesFormTwo runs Compress, with a sample to compare, over
// a folder compressed already: each layer is left as it is without being
// read in full (which would find the depth of each of its won slots over
// its children, minutes for a large layer, for nothing). Layer 3-3 is
// gone, so reading 3-4 in full would fail: the won depths of 3-4 need
// the capture children in 3-3.
func TestCompressLeavesFormTwo(t *testing.T) {
	dir, db := copiedDB(t)
	if res, err := Compress(context.Background(), db, CompressRun{OwnDB: true}); err != nil || res.Done != 3 {
		t.Fatalf("compress: %+v, %v; want the 3 layers compressed", res, err)
	}
	gone := layers.Moving(3, 3)
	if err := db.Remove(gone); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err := layers.OpenDB(dir, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Layer(layers.Moving(3, 4)); err == nil {
		t.Fatalf("layer 3-4 read in full without 3-3: the test would prove nothing")
	}
	res, err := Compress(context.Background(), db, CompressRun{Sample: 500})
	if err != nil || res.Left != 2 || res.Done != 0 {
		t.Errorf("compress again: %+v, %v; want 3-4 and 4-3 left as they are, not read", res, err)
	}
}

// TestCompressOneAtATime starts a conversion of a folder while another
// holds it: refused, naming the holder, and nothing of the folder
// touched (the other's temporary file stays).
func TestCompressOneAtATime(t *testing.T) {
	_, db := copiedDB(t)
	other, err := layers.AcquireLock(context.Background(), db.ClaimPath(compressClaim), false)
	if err != nil {
		t.Fatal(err)
	}
	tmp := db.Path(layers.Moving(3, 4)) + ".z.tmp"
	if err := os.WriteFile(tmp, []byte("being written"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Compress(context.Background(), db, CompressRun{})
	if !errors.Is(err, layers.ErrLocked) || !strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())) {
		t.Errorf("a second conversion: got %v, want it refused naming pid %d", err, os.Getpid())
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Errorf("the first conversion's temporary file: %v", err)
	}
	if err := other.Release(); err != nil {
		t.Fatal(err)
	}
	if res, err := Compress(context.Background(), db, CompressRun{}); err != nil || res.Done != 3 {
		t.Errorf("once the other is done: %+v, %v; want the 3 layers compressed", res, err)
	}
}

// solvedDB returns a database folder of the 4-stone game holding the
// moving layers 3-3, 3-4 and 4-3, solved flat through the database
// returned (which holds their files as the solve left them), open until
// the test ends.
func solvedDB(t *testing.T) (string, *layers.DB) {
	t.Helper()
	dir := t.TempDir()
	db, err := layers.OpenDB(dir, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := Solve(context.Background(), db, Run{Opts: retro.SolveOptions{MaxStones: 7}}); err != nil {
		t.Fatal(err)
	}
	return dir, db
}

// solvedOnce is solvedDB's folder solved once for the test binary, which
// copiedDB copies and TestMain removes.
var solvedOnce struct {
	once sync.Once
	dir  string
	err  error
}

// copiedDB returns a database folder holding what solvedDB's does, a copy
// of the one solved once for the test binary, and the database opened
// there, open until the test ends: for the tests to which how the files
// came there does not matter (under the race detector a solve takes half
// a minute).
func copiedDB(t *testing.T) (string, *layers.DB) {
	t.Helper()
	s := &solvedOnce
	s.once.Do(func() {
		if s.dir, s.err = os.MkdirTemp("", "dbservice-k4-"); s.err != nil {
			return
		}
		db, err := layers.OpenDB(s.dir, muehle.Standard.With(4))
		if err != nil {
			s.err = err
			return
		}
		defer db.Close()
		_, s.err = Solve(context.Background(), db, Run{Opts: retro.SolveOptions{MaxStones: 7}})
	})
	if s.err != nil {
		t.Fatalf("solving the moving layers 3-3, 3-4 and 4-3: %v", s.err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(s.dir)); err != nil {
		t.Fatal(err)
	}
	db, err := layers.OpenDB(dir, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return dir, db
}

func TestMain(m *testing.M) {
	code := m.Run()
	if solvedOnce.dir != "" {
		os.RemoveAll(solvedOnce.dir)
	}
	os.Exit(code)
}

// TestCompressWhileProbed compresses the layers of a database as the
// Database tab does (not OwnDB), the database that solved them, while two
// goroutines probe it, as the window's players do: every probe gives the
// value it gave before compressing, and each flat file replaced is given
// up as soon as it is replaced, though the database stays open and its
// layers are probed, so that its disk space is back for the next layer.
func TestCompressWhileProbed(t *testing.T) {
	dir, db := solvedDB(t)
	type probe struct {
		p muehle.Position
		v layers.Value
	}
	var probes []probe
	for _, k := range []layers.Key{layers.Moving(3, 3), layers.Moving(3, 4), layers.Moving(4, 3)} {
		l := db.Indexer().Layer(k)
		for i := uint64(0); i < l.Size(); i += 97 {
			p, ok := l.Position(i)
			if !ok {
				continue
			}
			p.Game = db.Variant().Game
			v, err := db.Probe(p) // opens the layer for probes, mapped flat
			if err != nil {
				t.Fatal(err)
			}
			probes = append(probes, probe{p, v})
		}
	}
	stop := layerstest.Hammer(2, func(g, n int) error {
		pr := probes[(n*7919+g*31)%len(probes)]
		if v, err := db.Probe(pr.p); err != nil || v != pr.v {
			return fmt.Errorf("probe %v while compressing: %v, %v; want %v", pr.p, v, err, pr.v)
		}
		return nil
	})
	res, err := Compress(context.Background(), db, CompressRun{Sample: 200})
	errs, calls := stop()
	for _, err := range errs {
		t.Error(err)
	}
	if err != nil || res.Done != 3 {
		t.Fatalf("compress: %+v, %v; want the 3 layers compressed", res, err)
	}
	t.Logf("%d probes while compressing", calls)
	if names := layerstest.DeletedMappings(t, dir); len(names) > 0 {
		t.Errorf("after compressing, the database open and probed: deleted files still mapped: %v", names)
	}
	for _, pr := range probes {
		if v, err := db.Probe(pr.p); err != nil || v != pr.v {
			t.Fatalf("probe %v after compressing: %v, %v; want %v", pr.p, v, err, pr.v)
		}
	}
}
