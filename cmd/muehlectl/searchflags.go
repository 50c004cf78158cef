package main

import (
	"flag"
	"fmt"

	"muehle/layers"
	"muehle/retro/play"
)

// searchFlags are the flags of the commands that run the placement search:
// the book file and the size of the table.
type searchFlags struct {
	book      *string
	tableBits *int
}

// addSearchFlags declares --book and --table-bits on fs.
func addSearchFlags(fs *flag.FlagSet) searchFlags {
	return searchFlags{
		book:      fs.String("book", "default", "placement book `file` (\"default\": placement.book in the database folder; \"\": none)"),
		tableBits: fs.Int("table-bits", play.DefaultPlacementTableBits, "the placement search's table holds 2^`n` entries of 16 bytes"),
	}
}

// check reports a bad --table-bits: out of range, or a table larger than
// half the machine's memory.
func (f searchFlags) check() error {
	if err := inRange("--table-bits", *f.tableBits, 4, 30, ""); err != nil {
		return err
	}
	return checkMemory(fmt.Sprintf("--table-bits %d", *f.tableBits), 16<<*f.tableBits, 0.5)
}

// open returns a placement search over prober, numbering classes with
// db's indexer, with the book the flags name (nil for none).
func (f searchFlags) open(db *layers.DB, prober layers.Prober) (*play.PlacementSearch, error) {
	book, err := f.openBook(db)
	if err != nil {
		return nil, err
	}
	return play.NewPlacementSearch(prober, db.Indexer(), book, *f.tableBits), nil
}

// openBook returns the book the flags name for db, nil for none.
func (f searchFlags) openBook(db *layers.DB) (*play.Book, error) {
	path := *f.book
	switch path {
	case "":
		return nil, nil
	case "default":
		path = play.BookPath(db.Dir(), db.Variant())
	}
	book, err := play.OpenBook(path, db.Stones())
	return book, inputError("--book", path, 0, err)
}
