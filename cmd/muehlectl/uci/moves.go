package uci

import (
	"errors"
	"fmt"
	"strings"

	"muehle/muehle"
)

// position sets the position: "startpos" or "fen TEXT" (the position
// text of muehle.Position.String, or the mill FEN of fen.go), then optionally "moves" and moves in
// the notation of muehle.Board.MoveString ("d6", "d6-d5", "d6-d5xa1"); a
// removal may also follow as a move of its own ("d6-d5 xa1"). A bad
// position or an illegal move is reported on an info string line and
// leaves no position: go answers "bestmove (none)" until the next
// position command.
func (e *Engine) position(f []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.game, e.pending = nil, nil
	g, pending, err := e.parsePosition(f)
	if err != nil {
		e.printf("info string position: %s", oneLine(err))
		return
	}
	e.game, e.pending = g, pending
}

// parsePosition reads the arguments of a position command.
func (e *Engine) parsePosition(f []string) (*muehle.Game, *muehle.Move, error) {
	v, err := e.variantLocked()
	if err != nil {
		return nil, nil, err
	}
	r := v.Rules()
	var pos muehle.Position
	moves := -1
	for i, w := range f {
		if w == "moves" {
			moves = i
			break
		}
	}
	head := f
	if moves >= 0 {
		head = f[:moves]
	}
	switch {
	case len(head) == 1 && head[0] == "startpos":
		pos = v.NewPosition()
	case len(head) > 1 && head[0] == "fen" && isMillFEN(head[1:]):
		if pos, err = fenPosition(head[1:], v); err != nil {
			return nil, nil, err
		}
	case len(head) > 1 && head[0] == "fen":
		if pos, err = r.ParsePosition(strings.Join(head[1:], " ")); err != nil {
			return nil, nil, err
		}
	default:
		return nil, nil, errors.New(`want "startpos" or "fen POSITION", then optionally "moves" and the moves`)
	}
	g, err := muehle.NewGameFrom(pos, v.Stones)
	if err != nil {
		return nil, nil, err
	}
	if err := pos.CheckReachable(v.Stones); err != nil {
		return nil, nil, err
	}
	if moves < 0 {
		return g, nil, nil
	}
	var pending *muehle.Move
	for _, w := range f[moves+1:] {
		if pending, err = playToken(g, pending, w); err != nil {
			return nil, nil, err
		}
	}
	return g, pending, nil
}

// playToken plays the move w on g. pending is the first part of a move
// whose removal comes as the token "xPOINT"; playToken returns the new
// pending part: a move that closes a mill without naming the stone to
// take waits for it.
func playToken(g *muehle.Game, pending *muehle.Move, w string) (*muehle.Move, error) {
	pos := g.Position()
	b := pos.Board()
	if pending != nil {
		if !strings.HasPrefix(w, "x") {
			return nil, fmt.Errorf("%s closed a mill: want the stone to take (xPOINT), got %q", b.MoveString(*pending), w)
		}
		p, err := b.ParsePoint(w[1:])
		if err != nil {
			return nil, err
		}
		m := *pending
		m.Remove = p
		return nil, g.Play(m) // Play checks the move
	}
	m, err := b.ParseMove(w)
	if err != nil {
		return nil, err
	}
	if m.Remove == muehle.NoPoint && pos.CheckMove(m) != nil && closesMill(&pos, m) {
		return &m, nil
	}
	if err := pos.CheckMove(m); err != nil {
		return nil, err
	}
	return nil, g.Play(m)
}

// closesMill reports whether some legal move of pos is m with a stone
// taken.
func closesMill(pos *muehle.Position, m muehle.Move) bool {
	var buf [muehle.MaxMoves]muehle.Move
	for _, l := range pos.AppendMoves(buf[:0]) {
		if l.From == m.From && l.To == m.To && l.Remove != muehle.NoPoint {
			return true
		}
	}
	return false
}
