package layers

import (
	"math/bits"

	"muehle/muehle"
)

// The board splits into two groups of points that every symmetry maps onto
// themselves: group A, the middle ring, and group B, the outer and inner
// rings. The index canonicalises the B part with a big table and ranks the A
// part combinatorially.
var (
	// aPoints lists group A; bit j of an A mask is point aPoints[j].
	aPoints = [8]muehle.Point{3, 4, 5, 10, 13, 18, 19, 20}
	// bPoints lists group B; bit j of a B mask and digit j of a B code
	// stand for point bPoints[j].
	bPoints = [16]muehle.Point{0, 1, 2, 6, 7, 8, 9, 11, 12, 14, 15, 16, 17, 21, 22, 23}
)

// Sizes of the group codes.
const (
	numACodes = 6561     // 3^8
	numBCodes = 43046721 // 3^16
	half3     = 6561     // 3^8: the weight of the upper eight B digits
)

// Small tables for the group parts, all built in init.
var (
	// bCodeByte[k][v] is the base-3 code, with digit 1 for each stone, of
	// the group-B points among the points of byte k of a bitboard.
	bCodeByte [3][256]uint32
	// aMaskToBoard and bMaskToBoard turn group masks back into bitboards
	// (bMaskToBoard per byte of the 16-bit B mask).
	aMaskToBoard [256]muehle.Bitboard
	bMaskToBoard [2][256]muehle.Bitboard
	// aCode8[m] is the base-3 code of A mask m with digit 1 per stone; the
	// same table serves either half of a B mask.
	aCode8 [256]uint16
	// symA[s][m] is the image of A mask m under symmetry s; symACode[s][m]
	// is its base-3 code.
	symA     [muehle.NumSymmetries][256]uint8
	symACode [muehle.NumSymmetries][256]uint16
	// symB[s][h][v] is the image under s of the B mask whose byte h is v.
	symB [muehle.NumSymmetries][2][256]uint16
	// decode8[c] holds the two 8-bit masks (stones of digit 1 in the low
	// byte, of digit 2 in the high byte) of a base-3 code of 8 digits.
	decode8 [numACodes]uint16
	// aRank[c] is the rank of the A configuration with code c among the
	// configurations with the same numbers of stones; aUnrank[w][b] lists
	// the codes of w mover's and b opponent's stones in rank order.
	aRank   [numACodes]uint16
	aUnrank [9][9][]uint16
)

func init() {
	var aPos, bPos [muehle.NumPoints]int
	for p := range aPos {
		aPos[p], bPos[p] = -1, -1
	}
	for j, p := range aPoints {
		aPos[p] = j
	}
	for j, p := range bPoints {
		bPos[p] = j
	}
	var pow3 [16]uint32
	pow3[0] = 1
	for j := 1; j < 16; j++ {
		pow3[j] = 3 * pow3[j-1]
	}
	for k := range 3 {
		for v := range 256 {
			var c uint32
			for i := range 8 {
				if v&(1<<i) != 0 && bPos[8*k+i] >= 0 {
					c += pow3[bPos[8*k+i]]
				}
			}
			bCodeByte[k][v] = c
		}
	}
	for v := range 256 {
		var c uint32
		for i := range 8 {
			if v&(1<<i) != 0 {
				c += pow3[i]
				aMaskToBoard[v] |= aPoints[i].Bit()
				bMaskToBoard[0][v] |= bPoints[i].Bit()
				bMaskToBoard[1][v] |= bPoints[8+i].Bit()
			}
		}
		aCode8[v] = uint16(c)
	}
	for s := range muehle.Symmetry(muehle.NumSymmetries) {
		for v := range 256 {
			var a uint8
			var b0, b1 uint16
			for i := range 8 {
				if v&(1<<i) == 0 {
					continue
				}
				a |= 1 << aPos[s.Point(aPoints[i])]
				b0 |= 1 << bPos[s.Point(bPoints[i])]
				b1 |= 1 << bPos[s.Point(bPoints[8+i])]
			}
			symA[s][v] = a
			symACode[s][v] = aCode8[a]
			symB[s][0][v] = b0
			symB[s][1][v] = b1
		}
	}
	for w := range 256 {
		for b := range 256 {
			if w&b == 0 {
				decode8[aCode8[w]+2*aCode8[b]] = uint16(w) | uint16(b)<<8
			}
		}
	}
	for c := range numACodes {
		m := decode8[c]
		w, b := bits.OnesCount8(uint8(m)), bits.OnesCount8(uint8(m>>8))
		aRank[c] = uint16(len(aUnrank[w][b]))
		aUnrank[w][b] = append(aUnrank[w][b], uint16(c))
	}
}

// aMask returns the group-A stones of bb as an 8-bit mask.
func aMask(bb muehle.Bitboard) uint8 {
	return uint8(bb>>3&7 | bb>>10&1<<3 | bb>>13&1<<4 | bb>>18&7<<5)
}

// bCode returns the base-3 code of the group-B part of a position with the
// mover's stones m and the opponent's o (disjoint): digit 1 for the mover,
// 2 for the opponent.
func bCode(m, o muehle.Bitboard) uint32 {
	t := &bCodeByte
	return t[0][m&0xff] + t[1][m>>8&0xff] + t[2][m>>16&0xff] +
		2*(t[0][o&0xff]+t[1][o>>8&0xff]+t[2][o>>16&0xff])
}

// bMasks returns the 16-bit B masks of the mover and the opponent of a B code.
func bMasks(c uint32) (w, b uint16) {
	lo, hi := decode8[c%half3], decode8[c/half3]
	return lo&0xff | hi<<8, lo>>8 | hi&0xff00
}

// bCodeOf returns the B code of the B masks w and b.
func bCodeOf(w, b uint16) uint32 {
	return uint32(aCode8[w&0xff]) + half3*uint32(aCode8[w>>8]) +
		2*(uint32(aCode8[b&0xff])+half3*uint32(aCode8[b>>8]))
}

// symBMask returns the image of the B mask m under s.
func symBMask(s muehle.Symmetry, m uint16) uint16 {
	return symB[s][0][m&0xff] | symB[s][1][m>>8]
}

// bGroup returns the number of the B sub-group (stone counts w and b).
func bGroup(w, b int) int { return w*17 + b }

// numBGroups is the number of (w, b) count pairs of group B, 0 ≤ w,b ≤ 16.
const numBGroups = 17 * 17
