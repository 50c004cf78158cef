// Package pack writes and reads database packages: the layers of one game
// in one file (or a folder of parts), compressed by blocks, with a
// manifest that says for which rules they were computed, so that a
// database computed on one machine can be installed on another, or kept
// as a backup. `muehlectl export` and `muehlectl import` and the window's
// Database ▸ Import… use it; docs/export.md is the manual.
//
// # Files
//
//	doc.go       the format, byte by byte
//	format.go    the framing: preamble, block headers, trailer; the
//	             error sentinels; the reach file derived from a body
//	manifest.go  the manifest and the rules fingerprint
//	streams.go   the coders of a block: the context streams of
//	             layers/codec.go, with the partner layer's values or
//	             without
//	directory.go the coder of a block holding a dense body's rank
//	             directory (left out)
//	derive.go    the layers left out, computed on import from the layers
//	             before them
//	copy.go      the layers kept compressed, copied as their files
//	             (format 5)
//	parts.go     a package as one file or as a folder of parts
//	export.go    Export
//	read.go      Open, and Check: every block read and checked
//	import.go    Import: checked, installed layer by layer, resumable
//
// # What a package holds
//
// For a layer kept compressed (layers/doc.go, "Compressed layer files"):
// its file byte for byte, and its block file (.blocks) when it has one
// (package format 5, below: copied layers). For any other layer: its body
// exactly as its file holds it (layers/doc.go),
// or, for a layer that import computes from the layers before it
// (derived, below), nothing but its manifest entry:
// one byte per slot (layout 0: every moving layer, the placement layers of
// the full sweep), or a dense body (layout 1: the placement layers of the
// reachable sweep), the bits of its stored slots, their rank directory
// and their values. From the body and the manifest's entry the layer file
// and its block file are written again byte for byte (the header and the
// block CRCs follow from them: layers.LayerWriter). Its verification
// record (.verified) travels verbatim. A placement layer's reach file
// (.reach) travels when the folder has one: a dense layer holds its
// reachable slots itself (its bits), and the solver removes the reach
// files once every placement layer is dense and verified
// (retro.RemoveReach), but a folder still being solved has them, and a
// placement layer of one byte per slot with Unused holes needs its
// reach file. A reach file is derived from the body when that
// gives exactly the file (bit i set when slot i is not Unused; of a dense
// body, its own bits, which are word for word the reach file's), and
// stored otherwise. The folder's solve record (solve-record.tsv) travels
// verbatim in the manifest. Nothing else of the folder is exported (not
// the placement book, a cache; not claims or temporary files). A folder
// with layer files of the format before (layers.OldVersion) is not
// exported: `muehlectl convert` rewrites it first.
//
// # The format
//
// A package is a stream of bytes: one file, or a folder of files
// part-0001.mpk, part-0002.mpk, … whose contents, one after another, are
// the stream (cut at any byte, each at most the size asked for; Open
// takes the folder or its first part). All
// integers are little-endian; CRC-32C is crc32.Castagnoli, CRC-64 is
// crc64.ECMA (the layer files' checksum).
//
// The preamble, 24 bytes:
//
//	offset size  field
//	 0      8    magic "MUEHLEPK"
//	 8      4    package format version: 5 (4 in a package that
//	             copies no layer file; 3 in a package that
//	             leaves no layer out; 2 in a package whose blocks are
//	             all zstd frames; 1 in a package of the program before
//	             the layer format 2; Import reads all)
//	12      4    m: the manifest's length in bytes (1 to 16 MiB)
//	16      4    CRC-32C of the manifest
//	20      4    CRC-32C of bytes 0-19
//	24      m    the manifest: UTF-8 JSON (below)
//
// Then the blocks: for each layer in the manifest's order but those it
// says are derived, the blocks of its body (kind 0: the body as its file holds it, bytes 128 on of the
// layer file; slots bytes for one byte per slot,
// layers.DenseBodySize(slots, stored) for a dense layer), or, for a
// layer copied, the blocks of its compressed file (kind 2: the whole
// file, its preamble, header, offset table and frames) and of its block
// file (kind 3) when it has one; then, when its
// reach file is stored, the
// blocks of the reach file (kind 1). Each holds the next blockBytes bytes of its
// data (the last one fewer), coded by one of five coders (byte 9; export
// codes each block of a body as a zstd frame and as context streams, and
// keeps the smaller; a block that holds any of a dense body's rank
// directory is always coded by coder 3; a block of a reach file is always
// a zstd frame; a block of kind 2 or 3 is always coder 4, and no other):
//
//	0  one zstd frame (github.com/klauspost/compress/zstd, without
//	   zstd's own checksum)
//	1  context streams (layers/codec.go, which compressed layers
//	   share): every byte put into the stream of
//	   its context, the classes of the byte before it, of the byte two
//	   before it and of the byte one B class back (stride bytes back in
//	   its part of the layer: layers.LayerIndex.Parts; in a dense body,
//	   which has no such geometry, the byte three back), each stream
//	   coded by FSE (github.com/klauspost/compress/fse); the classes and
//	   the layout of the streams are in layers/codec.go
//	2  context streams whose context holds, instead of the byte two
//	   before, the value of the partner layer's slot of the same stones
//	   with the colours exchanged (layers.LayerIndex.Swapped): only in a
//	   moving layer of one byte per slot whose partner comes before it in
//	   the package, or that is its own partner (then only the slots before
//	   the one coded count, the others as 0)
//	3  a block that holds any of a dense body's rank directory
//	   (layers/dense.go), which follows from the bits and is left out:
//	   uvarint n, then n bytes, the zstd frame of the block's bytes before
//	   the directory (n = 0: none); then, when the block has bytes after
//	   the directory (values), a byte, their coder (0 or 1, without a
//	   geometry), and their coded bytes. The reader derives the
//	   directory's bytes from the layer's bits
//	   (layers.DenseDirectory), which all come before them
//	4  the bytes as they are (package format 5; a copied file's, whose
//	   frames are coded already): the frame is the data
//
// A block decodes on its own, but for coder 2, which reads the partner
// layer (installed before it) or, in a layer that is its own partner, the
// blocks of the layer before it, and coder 3, which reads the bits of the
// blocks before it. Packages of format 2 have zero in byte 9,
// and a reader of format 2 refuses a package of format 3 by its version.
// The block's header:
//
//	offset size  field
//	 0      4    magic "MPKB"
//	 4      4    the layer's number in the manifest, from 0
//	 8      1    kind: 0 the body, 1 the reach file, 2 the compressed
//	             file, 3 the block file
//	 9      1    the coder: 0 to 4 (above; 0 in a package of format 1
//	             or 2, and in a block of a reach file; 4 in a block of
//	             kind 2 or 3)
//	10      2    zero
//	12      4    the block's number within the layer's data of its kind,
//	             from 0
//	16      4    r: bytes of data the block holds
//	20      4    c: bytes of the frame (at most blockBytes + blockBytes/8
//	             + 1024)
//	24      8    CRC-64 of the r bytes of data
//	32      4    CRC-32C of the c bytes of the frame
//	36      4    CRC-32C of bytes 0-35
//	40      c    the frame: the coded data
//
// The trailer, 32 bytes, after the last block; nothing follows it:
//
//	offset size  field
//	 0      8    magic "MUEHLEPE"
//	 8      8    the number of blocks
//	16      8    the package's size in bytes, this trailer included
//	24      4    zero
//	28      4    CRC-32C of bytes 0-27
//
// A reader can check any block on its own (its header's and frame's
// CRC-32C, then the data's CRC-64), knows from the manifest which block
// comes next and how large its data is, and so finds a truncated package
// (it ends inside a block or before the trailer), a missing or extra part
// and blocks out of order. A layer's block CRC-64s need not be combined:
// the layer written from the data must have the header the manifest
// describes (layout, slots, stored, body checksum, counts and depths), and
// a dense body's rank directory must match its bits, or it is not
// installed.
//
// # The manifest
//
// A JSON object (Manifest; unknown members are ignored, missing ones are
// zero):
//
//	format       "muehle database package"
//	version      5 or 4, as in the preamble
//	rules        the rules fingerprint: an object of names and values,
//	             all strings (below)
//	fingerprint  the first 16 bytes of the SHA-256 of the rules as one
//	             line, in hex: "name=value" for each, sorted by name,
//	             separated by one space
//	layerFormat  the format of the layer files (header bytes 8-11):
//	             layers.FileVersion, 2 (a reader that does not know it
//	             refuses the package before reading on)
//	blockBytes   the data per block: a multiple of 64 KiB, at most
//	             64 MiB (export writes 4 MiB; 1 MiB before format 3)
//	created      when it was written, RFC 3339, UTC
//	exported     the program and machine that wrote it: commit (the
//	             build's vcs.revision, "unknown" without), host, os
//	             (GOOS/GOARCH), cores
//	computed     what the solve record says computed the layers: one
//	             entry per commit and number of cores, with the units it
//	             computed (the solve record has no host and no system)
//	solveRecord  k<stones>/solve-record.tsv verbatim, or absent
//	layers       one object per layer, in the order of computation
//	             (layers.Order), each at most once: key ("3-4",
//	             "p5+2-4+2"), layout (header byte 21: 0 one byte per
//	             slot, 1 dense; absent for 0), slots (header bytes
//	             24-31), stored (a dense layer: the slots holding a
//	             value, header bytes 76-83; absent, or 0, for one byte
//	             per slot), crc64 (the header's body checksum, 16 hex
//	             digits), won, lost, drawn, deepestWin, deepestLoss (the
//	             header's statistics; of a dense layer won + lost + drawn
//	             = stored), verified (the .verified record verbatim,
//	             absent when not verified; it must name the header these
//	             fields give, its header checksum included), reach (absent
//	             when the layer has no reach file: bytes, crc64 of the
//	             whole file, stored: whether its blocks follow the body's),
//	             derived (true: the package holds no blocks of the layer,
//	             whose body import computes from the layers before it;
//	             absent otherwise), file (format 5, a layer copied: bytes,
//	             the size of its compressed file; no crc64, as the file
//	             checks itself and export learns the checksum of its
//	             bytes only as it copies them, after the manifest is
//	             written), blockFile (with file, when the layer's block
//	             file travels too: bytes, crc64 of the whole file)
//
// With layerFormat these fields are every field of the layer's 128-byte
// header (the rules id, the stone count and the key follow from the rules
// and the key), so that the header is rebuilt byte for byte, and with it
// the header checksum a verification record names.
//
// # Copied layers
//
// A layer that the exporting folder keeps compressed travels as its file
// (package format 5): export opens it in full (layers.OpenFile: every
// frame decoded and checked against the offset table's CRC-64, the
// header's figures recounted, a dense body's directory checked), makes
// sure the file it copies is the one it checked (the same file, size and
// header), and writes its bytes as they are, then its block file. Import
// writes the bytes to NAME.tmp, synced, opens that in full as export did,
// compares its header field for field with the manifest's (so that the
// verification record still vouches for it), and only then installs it as
// layers.LayerWriter.Commit installs a layer: the verification record of
// the file replaced removed, the block file written (or a stale one
// removed), NAME.tmp renamed over NAME, the reach file and the
// verification record after it. So the imported folder is the exporting
// one byte for byte, and neither end codes a block; import costs the
// package read twice (Check, then the install), the files written once
// and their blocks decoded once. A copied layer is never derived, its
// reach file is always stored (its body is not decoded to tell whether
// the reach file follows from it), and it is no partner for coder 2. A
// flat layer in the same package is coded as in format 4, so a folder
// part flat and part compressed is exported as it lies, and a package
// with no layer copied has format 4, which the program before reads.
//
// # Derived layers
//
// A layer may be derived (package format 4) when it is a verified moving
// layer of one byte per slot and every layer its positions' moves lead to
// (layers.SuccessorsIn: its partner, and the layer of one stone fewer
// after a removal) comes before it in the package, verified too. A verified layer holds
// exactly the values its children give it (retro.VerifyLayer's rule), so
// its body follows from those layers: Import computes it
// (ImportOptions.Derive, retro.DeriveLayer: one ply of look-ups per slot)
// and checks it as it checks a layer it unpacks, against the header the
// manifest describes, CRC-64 included, before it installs it. Export
// leaves out every layer that may be derived (of each moving pair the
// second; not a layer that is its own partner, not the placement layers,
// not a layer whose partner the package lacks), unless asked to store all
// (ExportOptions.StoreAll). A manifest that says derived of a layer that
// may not be is refused.
//
// A package of version 4 is a package of version 5 that copies no layer
// file. A package of version 3 is a package of version 4 that leaves no layer
// out. A package of version 2 is a package of version 3 whose blocks are all
// zstd frames (byte 9 of every block header zero). A package of version 1
// (the program before the layer format 2) has the
// same preamble, blocks and trailer; its manifest says version 1 and
// layerFormat 1 (layers.OldVersion: the slots in the order before, one
// byte per slot, placement layers of the reachable sweep with Unused
// holes and their reach files), and its layers have no layout or stored.
// Import installs those files as they were (layers.DB.NewOldWriter) and
// names them (ImportResult.Old); `muehlectl import` and the window then
// rewrite them in this format (retro.ConvertOld: the placement layers
// dense, the verification kept, the reach files removed). This program
// reads a layer of the format before only to convert it, so Import never
// skips one: run again, it installs it again.
//
// # The rules fingerprint
//
// Every rule the values depend on, by name. The standard game
// (StandardRules, docs/rules.md) is
//
//	game=standard board=standard points=24 lines=32 mills=16 stones=K
//	flyAt=3 loseBelow=3 phases=separate millRemoval=unless-all-in-mills
//	removalsPerMove=1 fullBoard=blocked-loses rulesId=1
//
// (flyAt: a player with at most this many stones on the board and none
// in hand flies, 0 never; loseBelow: fewer stones on the board and in
// hand lose; phases: all stones placed before any moves; millRemoval:
// stones in mills are protected unless all are, or "any"; removalsPerMove:
// the stones a move that closes two mills removes; fullBoard: a player who
// cannot move loses, also right after the last placement; rulesId: the
// layer header's rules id). Each is a field of muehle.Rules. Other games and boards (issue 27: Twelve Men's Morris with
// board=morabaraba and fullBoard=draw, Lasker Morris with phases=mixed,
// the boards of Six and Three Men's Morris) are other values and further
// names (say diagonals); a package is installed only where the program's
// rules for its game and stone count are exactly its rules, and a name or
// value this program does not know is refused with a sentence naming it.
// The fingerprint lets a person compare two packages at a glance; the
// names and values are what is checked. How the layers are stored is not
// a rule (a dense layer holds the values its file of one byte per slot
// would, the unreachable classes left out): layerFormat and each layer's
// layout say it, so that two packages of one database in different layer
// formats or layouts have the same fingerprint.
//
// # Import
//
// Import refuses, before it changes anything, a package of another format
// or other rules, one whose blocks or trailer fail the checks above (it
// reads the whole package first, checking every frame's CRC-32C), and one
// that would replace a verified layer by a different one (unless forced),
// or one that leaves out layers when it is given no way to derive them.
// It then installs the layers in order (a copied layer as above), each under the claim of its unit
// (layers.DB.Claim, as a solver takes it): the blocks decompressed and
// checked (or the body of a derived layer computed), the layer written to a temporary name (layers.DB.NewWriter,
// NewDenseWriter for a dense layer, which checks the rank directory
// against the bits as they come, or NewOldWriter for a layer of the format
// before), its header compared field for field
// with the one the manifest describes, then renamed into place (the block
// file first, as layers.DB.Write does), followed by the reach file and the
// verification record. A layer already there with that very header and a
// body that passes its full check is skipped, its missing side files
// written: an interrupted import, run again, resumes. A damaged or different
// unverified layer is replaced, and the note says so. Finally the folder's
// solve record gets the package's lines it lacks (all of it, in a folder
// without one).
package pack
