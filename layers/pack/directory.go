package pack

import (
	"muehle/layers"
)

// The rank directory (coder 3). A dense body's rank directory follows from
// its bits (layers.DenseDirectory), so a block that holds any of it is
// coded without it: the bytes before it (bits) and after it (values), each
// coded apart, the directory's bytes left out and derived on import from
// the layer's bits, which all come before it. The block's data:
//
//	uvarint  the length of the first part's zstd frame (0: the block has
//	         no bytes before the directory)
//	         that frame
//	then, when the block has bytes after the directory: a byte, their
//	coder (0 a zstd frame, 1 context streams without a geometry), and
//	their coded bytes.
const coderDirectory = 3

// directoryPart returns, for a block of n bytes from byte base on of layer
// l's body, how many of its bytes lie before the rank directory (head) and
// after it (tail); ok is false when the block holds none of the directory
// or the layer is not dense.
func directoryPart(l *Layer, base uint64, n int) (head, tail int, ok bool) {
	if !l.Dense() || l.Old() {
		return 0, 0, false
	}
	dir, val := layers.DenseRegions(l.Slots, l.Stored)
	end := base + uint64(n)
	if end <= dir || base >= val {
		return 0, 0, false
	}
	if base < dir {
		head = int(dir - base)
	}
	if end > val {
		tail = int(end - val)
	}
	return head, tail, true
}
