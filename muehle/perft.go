package muehle

// Perft counts the move sequences of length depth from p, counting moves as
// docs/rules.md does: a move closing a mill counts once per stone it may remove.
// Terminal positions have no moves; repetition is not considered.
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth == 1 {
		return uint64(p.CountMoves())
	}
	var buf [MaxMoves]Move
	var n uint64
	for _, m := range p.AppendMoves(buf[:0]) {
		n += Perft(p.Play(m), depth-1)
	}
	return n
}
