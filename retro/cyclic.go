package retro

import (
	"errors"
	"fmt"
	"os"

	"muehle/layers"
)

// errOverrun: a cyclic array is full; writing would overwrite unread
// records.
var errOverrun = errors.New("cyclic array full")

// cyclic is a first-in first-out queue of fixed-size records kept in a
// fixed-size file used as a ring buffer. Records are written and read
// sequentially in blocks of blockRecords records; only the block being
// written and the block being read are in memory. The file wraps around;
// writing more than capacity unread records is refused with errOverrun
// rather than losing data.
//
// The stream of records is cut into blocks at multiples of blockRecords;
// stream block b lives in file block b mod (number of file blocks). A block
// goes to the file when it is full; a reader that catches up with the
// writer reads straight from the write block.
//
// A cyclic is not safe for concurrent use. After an I/O error it keeps
// returning that error.
type cyclic struct {
	f        *os.File
	path     string
	rec      int    // bytes per record
	blocks   uint64 // blocks in the file
	capacity uint64 // most records written and not yet read
	w, r     uint64 // records written and read since creation
	wbuf     []byte // the write block, stream block wblock, filled to woff
	wblock   uint64
	woff     int
	rbuf     []byte // stream block rblock when rloaded, read up to roff
	rblock   uint64
	roff     int
	rloaded  bool
	err      error
}

// createCyclic creates (or truncates) the file at path as a cyclic array of
// capacity records of recordSize bytes, moved to and from the file in
// blocks of blockRecords records. The file holds capacity records rounded
// up to whole blocks.
func createCyclic(path string, recordSize int, capacity uint64, blockRecords int) (*cyclic, error) {
	if recordSize < 1 || blockRecords < 1 || capacity < 1 {
		return nil, fmt.Errorf("retro: cyclic array %s: record size %d, capacity %d and block of %d records must be positive", path, recordSize, capacity, blockRecords)
	}
	blockBytes := uint64(recordSize) * uint64(blockRecords)
	blocks := (capacity + uint64(blockRecords) - 1) / uint64(blockRecords)
	if blockBytes > 1<<31 || blocks > (1<<62)/blockBytes {
		return nil, fmt.Errorf("retro: cyclic array %s: too large", path)
	}
	f, err := layers.CreateRegular(path)
	if err != nil {
		return nil, fmt.Errorf("retro: cyclic array: %w", err)
	}
	if err := f.Truncate(int64(blocks * blockBytes)); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("retro: cyclic array: %w", err)
	}
	return &cyclic{
		f: f, path: path, rec: recordSize, blocks: blocks, capacity: capacity,
		wbuf: make([]byte, blockBytes), rbuf: make([]byte, blockBytes),
	}, nil
}

// Len returns the number of records written and not yet read.
func (c *cyclic) Len() uint64 { return c.w - c.r }

// Cap returns the most records the array holds unread.
func (c *cyclic) Cap() uint64 { return c.capacity }

// Write appends one record of the array's record size. It returns an error
// wrapping errOverrun when capacity records are unread.
func (c *cyclic) Write(rec []byte) error {
	if len(rec) != c.rec {
		return fmt.Errorf("retro: cyclic array %s: writing a record of %d bytes, want %d", c.path, len(rec), c.rec)
	}
	return c.WriteRecords(rec)
}

// WriteRecords appends the records in b, whose length must be a multiple
// of the record size, as Write would one by one. On errOverrun nothing is
// written.
func (c *cyclic) WriteRecords(b []byte) error {
	if c.err != nil {
		return c.err
	}
	if len(b)%c.rec != 0 {
		return fmt.Errorf("retro: cyclic array %s: writing %d bytes, not a multiple of the record size %d", c.path, len(b), c.rec)
	}
	n := uint64(len(b) / c.rec)
	if c.w-c.r+n > c.capacity {
		return fmt.Errorf("retro: cyclic array %s: %w: %d records unread, %d more", c.path, errOverrun, c.w-c.r, n)
	}
	for len(b) > 0 {
		k := copy(c.wbuf[c.woff:], b)
		b = b[k:]
		c.woff += k
		c.w += uint64(k / c.rec)
		if c.woff == len(c.wbuf) {
			if err := c.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// ReadRecords reads the oldest unread records into b, as many whole
// records as fit, and returns how many it read; 0 when the array is empty.
func (c *cyclic) ReadRecords(b []byte) (int, error) {
	n := 0
	for len(b) >= c.rec {
		if c.err != nil {
			return n, c.err
		}
		if c.r == c.w {
			break
		}
		src := c.wbuf
		if c.rblock != c.wblock {
			if !c.rloaded {
				if _, err := c.f.ReadAt(c.rbuf, int64((c.rblock%c.blocks)*uint64(len(c.rbuf)))); err != nil {
					c.err = fmt.Errorf("retro: cyclic array %s: %w", c.path, err)
					return n, c.err
				}
				c.rloaded = true
			}
			src = c.rbuf
		}
		// Whole records up to the end of the block, or of what is written.
		avail := uint64(len(src)-c.roff) / uint64(c.rec)
		avail = min(avail, c.w-c.r, uint64(len(b)/c.rec))
		k := copy(b, src[c.roff:c.roff+int(avail)*c.rec])
		b = b[k:]
		n += int(avail)
		c.r += avail
		c.roff += k
		if c.roff == len(c.rbuf) {
			c.rblock++
			c.roff = 0
			c.rloaded = false
		}
	}
	return n, nil
}

// flush writes the full write block to the file and starts the next one.
func (c *cyclic) flush() error {
	b := c.wblock
	if _, err := c.f.WriteAt(c.wbuf, int64((b%c.blocks)*uint64(len(c.wbuf)))); err != nil {
		c.err = fmt.Errorf("retro: cyclic array %s: %w", c.path, err)
		return c.err
	}
	if c.rblock == b {
		// The reader is inside this block: keep it in memory.
		c.rbuf, c.wbuf = c.wbuf, c.rbuf
		c.rloaded = true
	}
	c.wblock++
	c.woff = 0
	return nil
}

// Read copies the oldest unread record into rec and reports true, or
// reports false when the array is empty.
func (c *cyclic) Read(rec []byte) (bool, error) {
	if len(rec) != c.rec {
		return false, fmt.Errorf("retro: cyclic array %s: reading into %d bytes, want %d", c.path, len(rec), c.rec)
	}
	n, err := c.ReadRecords(rec)
	return n == 1, err
}

// Close closes and removes the file.
func (c *cyclic) Close() error {
	if c.f == nil {
		return nil
	}
	err := errors.Join(c.f.Close(), os.Remove(c.path))
	c.f = nil
	c.err = errors.New("retro: cyclic array " + c.path + " is closed")
	if err != nil {
		return fmt.Errorf("retro: cyclic array: %w", err)
	}
	return nil
}
