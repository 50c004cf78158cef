package layers

import (
	"math/rand/v2"
	"slices"
	"testing"

	"muehle/muehle"
)

// TestIndexMoves compares IndexMoves with Index of the played moves on
// random positions of several layers, each kind of move into its own
// layer, on the standard board (with either side to move) and a small one;
// IndexMovesSplit of all the moves of a position where they lead into two
// layers; and IndexUnslides with Index of the parents its un-slides lead
// to, sliding and flying.
func TestIndexMoves(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	small, err := IndexerFor(muehle.SixBoard)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x    *Indexer
		game muehle.GameID
		k    Key
	}{
		{testIndexer(t), muehle.Standard, Moving(3, 3)},
		{testIndexer(t), muehle.Standard, Moving(3, 7)},
		{testIndexer(t), muehle.Standard, Moving(5, 7)},
		{testIndexer(t), muehle.Standard, Moving(8, 8)},
		{testIndexer(t), muehle.Standard, Moving(9, 9)},
		{testIndexer(t), muehle.Standard, Moving(7, 3)},
		{testIndexer(t), muehle.Twelve, Moving(6, 7)},
		{testIndexer(t), muehle.Standard, Key{W: 4, B: 3, WH: 3, BH: 4}},
		{small, muehle.Six, Moving(4, 4)},
	} {
		checked, split, unslides := 0, 0, 0
		var buf [muehle.MaxMoves]muehle.Move
		var ubuf [muehle.MaxUnmoves]muehle.Move
		for range 3000 {
			p := randomPosition(r, int(c.k.W), int(c.k.B))
			if c.x.board != nil {
				p = randomSmallPosition(r, c.x.board, int(c.k.W), int(c.k.B))
			}
			p.Game = c.game
			mover := p.Turn
			p.Hand[mover], p.Hand[mover^1] = c.k.WH, c.k.BH
			byLayer := map[Key][]muehle.Move{}
			for _, m := range p.AppendMoves(buf[:0]) {
				q := p.Play(m)
				k := Key{W: uint8(q.Stones[q.Turn].Count()), B: uint8(q.Stones[q.Turn^1].Count()), WH: q.Hand[q.Turn], BH: q.Hand[q.Turn^1]}
				byLayer[k] = append(byLayer[k], m)
			}
			for k, ms := range byLayer {
				l := c.x.Layer(k)
				out := make([]uint64, len(ms)+1)
				out[len(ms)] = 77
				l.IndexMoves(p, ms, out)
				for i, m := range ms {
					if want := l.Index(p.Play(m)); out[i] != want {
						t.Fatalf("layer %s position %v move %v: IndexMoves gave %d, Index %d", k, p, m, out[i], want)
					}
					checked++
				}
				if out[len(ms)] != 77 {
					t.Fatalf("layer %s: IndexMoves wrote past the moves", k)
				}
			}
			// IndexUnslides of the un-slides, into the partner layer.
			us := p.AppendUnslides(ubuf[:0])
			uout := make([]uint64, len(us)+1)
			uout[len(us)] = 77
			parents := c.x.Layer(c.k.Partner())
			parents.IndexUnslides(p, us, uout)
			for i, u := range us {
				if want := parents.Index(p.Unplay(u)); uout[i] != want {
					t.Fatalf("layer %s position %v un-move %v: IndexUnslides gave %d, Index %d", c.k, p, u, uout[i], want)
				}
				unslides++
			}
			if uout[len(us)] != 77 {
				t.Fatalf("layer %s: IndexUnslides wrote past the un-moves", c.k)
			}
			// The same parents from AppendUnslideCodes, the moves not made.
			codes := parents.AppendUnslideCodes(p, []uint64{77})
			parents.RankUnslides(codes[1:])
			if codes[0] != 77 || !slices.Equal(codes[1:], uout[:len(us)]) {
				t.Fatalf("layer %s position %v: AppendUnslideCodes and RankUnslides gave %v, IndexUnslides %v", c.k, p, codes[1:], uout[:len(us)])
			}
			// IndexMovesSplit of all the moves at once, those without a
			// removal into one layer and those with one into another.
			all := p.AppendMoves(buf[:0])
			var plain, removals *LayerIndex
			for k, ms := range byLayer {
				if ms[0].IsRemoval() {
					removals = c.x.Layer(k)
				} else {
					plain = c.x.Layer(k)
				}
			}
			if plain == nil || removals == nil {
				continue
			}
			out := make([]uint64, len(all)+1)
			out[len(all)] = 77
			plain.IndexMovesSplit(p, all, out, removals)
			for i, m := range all {
				l := plain
				if m.IsRemoval() {
					l = removals
				}
				if want := l.Index(p.Play(m)); out[i] != want {
					t.Fatalf("layers %s and %s position %v move %v: IndexMovesSplit gave %d, Index %d", plain.Key(), removals.Key(), p, m, out[i], want)
				}
				split++
			}
			if out[len(all)] != 77 {
				t.Fatalf("IndexMovesSplit wrote past the moves")
			}
		}
		if checked < 1000 {
			t.Errorf("%s: only %d children checked", c.k, checked)
		}
		if split < 100 && c.k.W > 3 {
			t.Errorf("%s: only %d children checked by IndexMovesSplit", c.k, split)
		}
		if unslides < 1000 && c.k.IsMoving() {
			t.Errorf("%s: only %d parents checked by IndexUnslides", c.k, unslides)
		}
	}
}

// randomSmallPosition returns a random position of board with w and b
// stones, White to move.
func randomSmallPosition(r *rand.Rand, board *muehle.Board, w, b int) muehle.Position {
	var p muehle.Position
	for i, q := range r.Perm(board.NumPoints())[:w+b] {
		c := muehle.White
		if i >= w {
			c = muehle.Black
		}
		p.Stones[c] |= muehle.Point(q).Bit()
	}
	return p
}

// TestPositions compares Positions with Position slot by slot, over
// whole layers and over ranges that start and end anywhere, and stops
// when told; and PositionAt with Position on slots in increasing order.
func TestPositions(t *testing.T) {
	small, err := IndexerFor(muehle.SixBoard)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(31, 32))
	for _, c := range []struct {
		x *Indexer
		k Key
	}{
		{testIndexer(t), Moving(3, 3)},
		{testIndexer(t), Moving(4, 3)},
		{testIndexer(t), Key{W: 2, B: 1, WH: 7, BH: 7}},
		{testIndexer(t), Moving(8, 8)},
		{small, Moving(3, 4)},
	} {
		l := c.x.Layer(c.k)
		ranges := [][2]uint64{{0, l.Size() + 3}}
		if l.Size() > 2_000_000 {
			ranges = nil
		}
		for range 20 {
			lo := r.Uint64N(l.Size())
			ranges = append(ranges, [2]uint64{lo, lo + r.Uint64N(20_000)})
		}
		for _, rg := range ranges {
			next := rg[0]
			for i, p := range l.Positions(rg[0], rg[1]) {
				for ; next < i; next++ {
					if _, ok := l.Position(next); ok {
						t.Fatalf("%s: Positions(%d, %d) left out canonical slot %d", c.k, rg[0], rg[1], next)
					}
				}
				if want, ok := l.Position(i); !ok || p != want {
					t.Fatalf("%s slot %d: Positions gave %v, Position %v (%v)", c.k, i, p, want, ok)
				}
				next = i + 1
			}
			for ; next < min(rg[1], l.Size()); next++ {
				if _, ok := l.Position(next); ok {
					t.Fatalf("%s: Positions(%d, %d) left out canonical slot %d at the end", c.k, rg[0], rg[1], next)
				}
			}
		}
		// PositionAt with a cursor, the slots in increasing order with
		// gaps of any length, one beyond the layer at the end.
		var cur Cursor
		for i := uint64(0); i < l.Size()+2; i += 1 + r.Uint64N(max(l.Size()/50, 2)) {
			p, ok := l.PositionAt(i, &cur)
			if want, wok := l.Position(i); ok != wok || p != want {
				t.Fatalf("%s slot %d: PositionAt gave %v (%v), Position %v (%v)", c.k, i, p, ok, want, wok)
			}
		}
		// and with gaps of one to three (the slots of one B class after
		// another), then backwards, through a window in the middle
		mid := l.Size() / 2
		var near []uint64
		for i := mid; i < min(mid+3000, l.Size()); i += 1 + r.Uint64N(3) {
			near = append(near, i)
		}
		for k := len(near) - 1; k >= 0; k -= 1 + r.IntN(3) {
			near = append(near, near[k])
		}
		for _, i := range near {
			p, ok := l.PositionAt(i, &cur)
			if want, wok := l.Position(i); ok != wok || p != want {
				t.Fatalf("%s slot %d: PositionAt gave %v (%v), Position %v (%v)", c.k, i, p, ok, want, wok)
			}
		}
		n := 0
		for range l.Positions(0, l.Size()) {
			if n++; n == 5 {
				break
			}
		}
		if n != 5 {
			t.Errorf("%s: stopped after %d positions, want 5", c.k, n)
		}
	}
}

// childMoves returns the canonical positions of consecutive slots of
// layer k from a third of the way on, with their moves without a
// removal (into the partner layer), about n moves in all.
func childMoves(l *LayerIndex, n int) ([]muehle.Position, [][]muehle.Move) {
	var ps []muehle.Position
	var mss [][]muehle.Move
	var buf [muehle.MaxMoves]muehle.Move
	total := 0
	for i := l.Size() / 3; total < n; i++ {
		p, ok := l.Position(i)
		if !ok {
			continue
		}
		var ms []muehle.Move
		for _, m := range p.AppendMoves(buf[:0]) {
			if !m.IsRemoval() {
				ms = append(ms, m)
			}
		}
		ps, mss = append(ps, p), append(mss, ms)
		total += len(ms)
	}
	return ps, mss
}

// BenchmarkIndexMovesChildren ranks the children of consecutive slots of
// layer 8-8 from their parents and moves (IndexMoves), as the verifier
// does; BenchmarkIndexAllChildren makes the same children and ranks them
// with IndexAll, as it did before.
func BenchmarkIndexMovesChildren(b *testing.B) {
	x := testIndexer(b)
	ps, mss := childMoves(x.Layer(Moving(8, 8)), 1<<16)
	l, out, n := x.Layer(Moving(8, 8)), make([]uint64, muehle.MaxMoves), 0
	cpu, _ := CPUTime()
	for b.Loop() {
		for i, p := range ps {
			l.IndexMoves(p, mss[i], out)
			n += len(mss[i])
		}
	}
	now, _ := CPUTime()
	reportRanks(b, n, now-cpu)
}

func BenchmarkIndexAllChildren(b *testing.B) {
	x := testIndexer(b)
	ps, mss := childMoves(x.Layer(Moving(8, 8)), 1<<16)
	l, n := x.Layer(Moving(8, 8)), 0
	kids, out := make([]muehle.Position, muehle.MaxMoves), make([]uint64, muehle.MaxMoves)
	cpu, _ := CPUTime()
	for b.Loop() {
		for i, p := range ps {
			for j, m := range mss[i] {
				kids[j] = p.Play(m)
			}
			l.IndexAll(kids[:len(mss[i])], out)
			n += len(mss[i])
		}
	}
	now, _ := CPUTime()
	reportRanks(b, n, now-cpu)
}

// BenchmarkPositions unranks consecutive slots of layer 8-8 by walking
// them (Positions); BenchmarkPositionSequential does it slot by slot.
func BenchmarkPositions(b *testing.B) {
	l := testIndexer(b).Layer(Moving(8, 8))
	var sink muehle.Bitboard
	lo, n := l.Size()/3, 0
	for b.Loop() {
		for _, p := range l.Positions(lo, lo+1<<16) {
			sink += p.Stones[0]
		}
		n += 1 << 16
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "slots/s")
	_ = sink
}
