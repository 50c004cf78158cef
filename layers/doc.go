// Package layers splits the positions of Mühle into layers, numbers the
// positions of each layer up to symmetry, and stores one byte per position
// in one file per layer.
//
// # Files
//
//	layer.go      Key, the catalogue of moving and placement layers, their
//	              successors and partners, the order of computation
//	groups.go     group A (middle ring) and group B (outer and inner rings),
//	              their small tables
//	table.go      the group-B table: class and symmetry of each of the 3^16
//	              B codes; building, caching, loading
//	index.go      Indexer and LayerIndex: rank (Index) and unrank (Position)
//	value.go      Value, the one-byte entry
//	file.go       the layer file: header, WriteLayer, OpenFile, File
//	db.go         DB, a database directory, and Probe
//	cyclic.go     Cyclic, the disk-backed ring buffers of the solver
//	dir.go        DefaultDir, the database folder of the programs
//	status.go     damaged layers, layer status, verification records
//	lock.go       lock files (owner, heartbeat, stale takeover)
//	claim.go      the claim of a unit of work in a database folder
//	errors.go     the error sentinels
//
// # Layers
//
// A Key counts stones from the view of the side to move: W and B on the
// board (mover, opponent) and WH, BH in hand. Moving layers M(w,b) have
// empty hands and 3 ≤ w,b ≤ k for a game of k stones per side (3 to 9). A
// move without removal leads from M(w,b) to its partner M(b,w); a removal
// to M(b-1,w), or ends the game when b-1 = 2. Order computes the pairs by
// total stones, smallest first. Placement layers have WH ≥ 1 and
// WH == BH (White to move) or WH == BH+1 (Black to move); they come after
// the moving layers, from the last placement back to the empty board.
//
// # The index
//
// Group A is the middle ring {3,4,5,10,13,18,19,20}, group B the other 16
// points; each of the 16 symmetries maps each group onto itself. The B part
// of a position is a base-3 code (digit j for point j of group B: 0 empty,
// 1 mover, 2 opponent). The group-B table, built once in about 2 s and
// cached as groupb-v2.tab (183 MB) in the user's cache directory, gives for
// each code its class among the codes with the same stone counts, the
// symmetry s that maps it to the class representative (the smallest code)
// and the stabilizer of the representative. Within a layer, the sub-layer
// of a split of the stones between the groups starts at an offset, and
//
//	index = offset + rank(s(A part)) × classes(B) + class(B)
//
// where the A part is ranked among the 8-point configurations with its
// stone counts. When the representative is symmetric, the A parts that its
// stabilizer maps onto each other describe one position; the smallest rank
// among them is canonical and the other slots are never used (Unused in
// the files). So every position, up to the 16 symmetries and the exchange
// of colours with the side to move, has exactly one index, and the
// canonical slots of a layer are its symmetry classes: 8,904,593,601 over
// the 49 moving layers of the 9-stone game, within 8,951,158,172 slots.
//
// Index reads one entry of the table at random; it is fastest when the
// positions ranked one after another are related (children of neighbouring
// slots). The table lives in memory outside the Go heap, in huge pages where
// Linux allows it.
//
// # Values
//
// One byte per slot, from the view of the side to move (see Value):
//
//	0        unused: not the index of any position, or (placement
//	         layers) a class not reachable from the empty board, which
//	         the solver does not compute
//	1        drawn
//	2 + d    decided at depth d plies (0 ≤ d ≤ 253): won if d is odd,
//	         lost if d is even
//
// # Layer files
//
// A database directory holds one file per layer in the sub-directory
// k<stones>: m<w>-<b>.layer for moving layers, p<W>+<WH>-<B>+<BH>.layer for
// placement layers. A file is a 128-byte header followed by the body, one
// Value per slot of the layer's index, in slot order. The header, all
// integers little-endian:
//
//	offset size  field
//	 0      8    magic "MUEHLEDB"
//	 8      4    format version, 1
//	12      4    rules id, 1 = the rules of docs/rules.md
//	16      1    stones per side of the game (3 to 9)
//	17      1    key W: stones of the side to move on the board
//	18      1    key B: stones of the opponent on the board
//	19      1    key WH: stones of the side to move in hand
//	20      1    key BH: stones of the opponent in hand
//	21      3    zero
//	24      8    slots: the body size in bytes
//	32      8    won: slots holding a win
//	40      8    lost: slots holding a loss
//	48      8    drawn: slots holding Drawn
//	56      2    deepest win in plies, int16, -1 when there is no win
//	58      2    deepest loss in plies, int16, -1 when there is no loss
//	60      4    zero
//	64      8    body checksum: CRC-64 with the ECMA polynomial
//	             (hash/crc64.ECMA) of the body
//	72      4    header checksum: CRC-32C (Castagnoli) of bytes 0-71 and
//	             76-127
//	76     52    zero
//	128  slots   body
//
// WriteLayer writes name.tmp, syncs it and renames it, so a file under its
// final name is complete. OpenFile refuses, with an error naming the file
// and the problem, a file that is too short or too long for its slot count,
// has another magic, version (ErrVersion), rules, stone count or key
// (ErrFormat), or whose header or body checksum does not match
// (ErrChecksum); it maps the file read-only with github.com/edsrzf/mmap-go.
//
// A layer file that fails any of these checks is damaged: DB.Layer returns
// a *DamagedError, which wraps the cause and ErrMissing, so readers treat
// the layer as missing; the solver recomputes it.
//
// # Beside the layer files
//
// k<stones>/m3-4.verified records that layer 3-4 passed verification: one
// line "verified 3-4 checksum <body CRC-64, 16 hex digits> slots <n> at
// <RFC 3339 time>", written to a temporary file and renamed. It counts only
// while the layer's header has that checksum and slot count; writing a
// layer removes it first. The layer files are never changed by it.
//
// k<stones>/m3-4.claim (p5+2-4+2.claim for a placement layer) is held by
// the one solver computing that unit (the pair 3-4 + 4-3, named by its
// first layer): created with O_EXCL, one line of JSON {"host", "pid",
// "command", "start", "heartbeat"}, the heartbeat rewritten every 15
// seconds, removed when the unit is done. It is stale, and taken over, when
// its process has ended (same host) or its heartbeat is over two minutes
// old (another host); the taker redoes the unit. Several solvers share a
// folder this way; readers never take a claim. The folder and k<stones> are
// created by the first write or claim, never by opening.
//
// # The group-B cache file
//
// groupb-v2.tab: a 64-byte header (magic "MUEHLEGB", version 2, number of
// codes, number of representatives, CRC-32C of the rest), then the
// stabilizer masks, the group offsets, the representatives per group and
// stabilizer, the table (one uint32 per code: class in bits 0-17, symmetry
// in 18-21, stabilizer id in 22-27) and the representatives (code in bits
// 0-25, stabilizer id in 26-31). A file that fails its checks is rebuilt.
//
// # Cyclic arrays
//
// A Cyclic is a file of fixed size used as a ring buffer of fixed-size
// records: written and read in blocks, only the current write and read
// blocks in memory, ErrOverrun when the writer would overwrite unread
// records.
package layers
