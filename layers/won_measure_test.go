package layers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"muehle/muehle"
)

// TestForm2Sizes measures what the moving layers of the standard game take
// in compressed form 2 (the won slots without their depth): each flat
// layer of MUEHLE_FORM2_SIZES (never written) coded as Compress codes it,
// into a temporary file (removed at once), one layer at a time; bits per
// stored value and the share of the flat file, per layer and in total.
// MUEHLE_FORM2_LAYERS lists the layers (all moving layers of the folder
// when unset):
//
//	MUEHLE_FORM2_SIZES=/tmp/bench-k9 nice -n 5 go test -run Form2Sizes -v ./layers/
func TestForm2Sizes(t *testing.T) {
	dir := os.Getenv("MUEHLE_FORM2_SIZES")
	if dir == "" {
		t.Skip("MUEHLE_FORM2_SIZES names no folder of flat layer files")
	}
	keys := form2Layers(t, dir)
	x := indexerOrFatal(t)
	tmp, err := os.MkdirTemp("", "h51g-sizes-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	var flat, coded, values int64
	for _, k := range keys {
		data, err := os.ReadFile(filepath.Join(dir, "m"+k.String()+".layer"))
		if err != nil {
			t.Fatal(err)
		}
		body := data[HeaderSize:]
		if uint64(len(body)) != x.Layer(k).Size() {
			t.Fatalf("%s: a body of %d bytes, not one byte for each of %d slots (not flat?)", k, len(body), x.Layer(k).Size())
		}
		n := int64(0)
		for _, v := range body {
			if v != 0 {
				n++
			}
		}
		path := filepath.Join(tmp, "z")
		size, err := writeCompressed(path, data[:HeaderSize], body, zShift, x.Layer(k).Parts(), 0)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(path)
		t.Logf("%-5s %13d slots  %8.3f bits per value  %5.1f %% of flat", k, len(body), 8*float64(size)/float64(n), 100*float64(size)/float64(len(data)))
		flat, coded, values = flat+int64(len(data)), coded+size, values+n
		data, body = nil, nil
	}
	t.Logf("%d layers: %d bytes flat, %d in form 2 (%.1f %%), %.3f bits per value", len(keys), flat, coded, 100*float64(coded)/float64(flat), 8*float64(coded)/float64(values))
}

// form2Layers returns the layers MUEHLE_FORM2_LAYERS names, or the moving
// layers of dir.
func form2Layers(t *testing.T, dir string) []Key {
	var keys []Key
	if s := os.Getenv("MUEHLE_FORM2_LAYERS"); s != "" {
		for name := range strings.SplitSeq(s, ",") {
			k, err := ParseKey(name)
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, k)
		}
		return keys
	}
	for _, k := range Order(9, false) {
		if _, err := os.Stat(filepath.Join(dir, "m"+k.String()+".layer")); err == nil {
			keys = append(keys, k)
		}
	}
	return keys
}

// TestForm2Cost compresses the layers MUEHLE_FORM2_LAYERS of the standard
// game's folder MUEHLE_FORM2_DB (a copy: written) in place in form 2, as
// `muehlectl compress` does (the won depths found again by one ply and
// compared), and then reads each in full through a database opened
// afresh (DB.Layer: decoded, its won depths found by one ply over the
// layers beside it, checked): the time of each, and seconds per GB of
// slots.
//
//	MUEHLE_FORM2_DB=/tmp/h51g-k9 MUEHLE_FORM2_LAYERS=6-6 nice -n 5 go test -run Form2Cost -v ./layers/
func TestForm2Cost(t *testing.T) {
	dir := os.Getenv("MUEHLE_FORM2_DB")
	if dir == "" {
		t.Skip("MUEHLE_FORM2_DB names no folder to compress")
	}
	keys := form2Layers(t, GameDir(dir, muehle.NineMensMorris))
	db, err := OpenDB(dir, muehle.NineMensMorris)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	for _, k := range keys {
		t0 := time.Now()
		before, after, done, err := db.Compress(k)
		if err != nil {
			t.Fatal(err)
		}
		h, _ := db.Header(k)
		took := time.Since(t0)
		t.Logf("compress %-5s done %v: %d -> %d bytes (%.3f bits per value) in %v (%.1f s per GB of slots)", k, done, before, after,
			8*float64(after)/float64(h.Won+h.Lost+h.Drawn), took.Round(time.Millisecond), took.Seconds()/(float64(h.Slots)/1e9))
	}
	for _, k := range keys {
		db.Close()
		if db, err = OpenDB(dir, muehle.NineMensMorris); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(t0)
		t.Logf("read in full %-5s (form %d): %v (%.1f s per GB of slots; %d won slots)", k, db.Form(k), took.Round(time.Millisecond), took.Seconds()/(float64(f.Header().Slots)/1e9), f.Header().Won)
	}
}

// BenchmarkProbeForms times single random probes of one layer of a solved
// game in folders of each compressed form (MUEHLE_PROBE_FORMS: a folder in
// form 1, one in form 2, the same game and values), as BenchmarkProbeFirst
// does: "first", each probe the first into its block (the DB opened again,
// untimed, when a probe would find its block decoded already; in form 2 a
// won slot's children are probed too, their blocks decoded as needed),
// and "hit", every block of the layer decoded already. It reports the
// median and the 99th percentile (ns-median, ns-p99):
//
//	MUEHLE_PROBE_FORMS=/tmp/h51g-s5old,/tmp/h51g-s5new MUEHLE_PROBE_STONES=5 MUEHLE_PROBE_LAYER=5-5 \
//	  go test -run '^$' -bench ProbeForms -count 4 ./layers/
func BenchmarkProbeForms(b *testing.B) {
	dirs := os.Getenv("MUEHLE_PROBE_FORMS")
	if dirs == "" {
		b.Skip("MUEHLE_PROBE_FORMS names no folders")
	}
	stones := 9
	if s := os.Getenv("MUEHLE_PROBE_STONES"); s != "" {
		fmt.Sscan(s, &stones)
	}
	k := Moving(5, 5)
	if s := os.Getenv("MUEHLE_PROBE_LAYER"); s != "" {
		var err error
		if k, err = ParseKey(s); err != nil {
			b.Fatal(err)
		}
	}
	v := muehle.Standard.With(stones)
	ps := benchPositions(k, 1<<12)
	for _, dir := range strings.Split(dirs, ",") {
		probe, err := OpenDB(dir, v)
		if err != nil {
			b.Fatal(err)
		}
		form := probe.Form(k)
		probe.Close()
		for _, hit := range []bool{false, true} {
			name := fmt.Sprintf("form%d-first", form)
			if hit {
				name = fmt.Sprintf("form%d-hit", form)
			}
			b.Run(name, func(b *testing.B) { probeTimes(b, dir, v, k, ps, zShift, hit) })
		}
	}
}
