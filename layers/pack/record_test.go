package pack

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// TestImportMergesValidRecordLines exports a folder whose solve record
// holds, besides two good lines, garbage, binary bytes and a line of 1 MB,
// and imports the package into a folder with a good record of its own:
// only the good lines are added, the folder's record still reads
// completely, and the import says how many lines it left out (issue 48,
// item 2: the record was merged verbatim).
func TestImportMergesValidRecordLines(t *testing.T) {
	dir, keys := testDB(t)
	good := "2026-11-26T06:18:57Z\tm3-3\t183512\t0.417\tcount=0.029\t384\t2\t2\t012dcc6566fc\n" +
		"2026-11-26T06:19:57Z\tp0+1-0+1\t12\t0.001\tcount=0.001 verify:p0+1-0+1=0.001\t384\t2\t2\tunknown\n"
	bad := "not a record\n" + "\x00\x01\xff binary\n" + strings.Repeat("x", 1<<20) + "\n" +
		strings.Replace(strings.SplitN(good, "\n", 2)[0], "012dcc6566fc", "012dcc\x1b[2J", 1) + "\n"
	rec := filepath.Join(dir, "k3", "solve-record.tsv")
	if err := os.WriteFile(rec, []byte(good+bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "p.mpk")
	export(t, dir, keys, out, 0)

	to := t.TempDir()
	own := "2026-11-20T10:00:00Z\tm3-3\t183512\t0.5\tcount=0.03\t300\t2\t2\tunknown\n"
	if err := os.MkdirAll(filepath.Join(to, "k3"), 0o755); err != nil {
		t.Fatal(err)
	}
	toRec := filepath.Join(to, "k3", "solve-record.tsv")
	if err := os.WriteFile(toRec, []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	var notes []string
	ir, err := Import(context.Background(), to, out, ImportOptions{ClaimName: testClaim, Note: func(s string) { notes = append(notes, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if ir.RecordLines != 2 || ir.RecordRefused != 4 {
		t.Errorf("record lines added %d, left out %d; want 2 and 4", ir.RecordLines, ir.RecordRefused)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "4 left out") {
		t.Errorf("notes %q: want one saying 4 lines were left out", notes)
	}
	b, err := os.ReadFile(toRec)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != own+good {
		t.Errorf("the folder's record: got %d bytes %.200q, want %q", len(b), b, own+good)
	}
	if recs, err := layers.ReadRecordFile(toRec); err != nil || len(recs) != 3 {
		t.Errorf("the folder's record read back: %d records, %v; want 3", len(recs), err)
	}
}

// TestImportClaimErrors checks what an import says when it cannot claim a
// layer (issue 48, item 8: every failure was "a solver is working on it"):
// a claim held by a live process names that process's command; a folder
// where no claim can be made (k3 is a file) says so and blames no solver.
func TestImportClaimErrors(t *testing.T) {
	dir, keys := testDB(t)
	out := filepath.Join(t.TempDir(), "p.mpk")
	export(t, dir, keys, out, 0)

	to := t.TempDir()
	db, err := layers.OpenDB(to, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	held, err := db.Claim(context.Background(), testClaim(keys[0]), false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Import(context.Background(), to, out, ImportOptions{ClaimName: testClaim})
	held.Release()
	if err == nil || !strings.Contains(err.Error(), "another process is working on it") || !errors.Is(err, layers.ErrLocked) {
		t.Errorf("import with a claim held: got %v, want another process named", err)
	}

	file := t.TempDir()
	if err := os.WriteFile(filepath.Join(file, "k3"), []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Import(context.Background(), file, out, ImportOptions{ClaimName: testClaim})
	if err == nil || strings.Contains(err.Error(), "solver") || strings.Contains(err.Error(), "another process") {
		t.Errorf("import into a folder whose k3 is a file: got %v, want an error that blames no other process", err)
	}
}

// FuzzManifestSolveRecord puts arbitrary text in the solve record of a
// package's manifest and merges what the manifest accepts into a
// folder's good record: no panic, and the folder's record still reads
// completely, its own line and the lines added (issue 48, item 2).
func FuzzManifestSolveRecord(f *testing.F) {
	good, err := os.ReadFile(examplePath)
	if err != nil {
		f.Fatal(err)
	}
	_, n, _, err := parsePreamble(good)
	if err != nil {
		f.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(good[preambleSize:preambleSize+n], &raw); err != nil {
		f.Fatal(err)
	}
	line := "2026-11-26T06:18:57Z\tm3-3\t183512\t0.417\tcount=0.029\t384\t2\t2\t012dcc6566fc\n"
	for _, s := range []string{line, "\uFEFF" + line, line + "garbage\n\x00\xff\n", strings.Repeat("x", 5000) + "\n" + line,
		strings.Replace(line, "\n", "\r\n", 1), strings.Replace(line, "0.417", "NaN", 1), strings.Replace(line, "012dcc6566fc", "\x1b[2J", 1)} {
		f.Add(s)
	}
	own := "2026-11-20T10:00:00Z\tm3-3\t183512\t0.5\tcount=0.03\t300\t2\t2\tunknown\n"
	f.Fuzz(func(t *testing.T, rec string) {
		raw["solveRecord"] = rec
		js, err := json.Marshal(raw)
		if err != nil {
			return
		}
		m, err := parseManifest(js)
		if err != nil {
			return
		}
		path := filepath.Join(t.TempDir(), "solve-record.tsv")
		if err := os.WriteFile(path, []byte(own), 0o644); err != nil {
			t.Fatal(err)
		}
		added, _, err := layers.MergeRecord(path, []byte(m.SolveRecord))
		if err != nil && !errors.Is(err, layers.ErrFormat) {
			t.Fatalf("MergeRecord: %v", err)
		}
		recs, err := layers.ReadRecordFile(path)
		if err != nil || len(recs) != 1+added {
			t.Errorf("the folder's record after merging %q: %d records, %v; want %d", rec, len(recs), err, 1+added)
		}
	})
}
