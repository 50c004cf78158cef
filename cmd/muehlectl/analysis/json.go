package analysis

import (
	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
)

// ValueJSON is a database value in JSON: the outcome for the side it
// belongs to ("won", "lost", "drawn"), the depth in plies of a won or lost
// value, and the text of layers.Value.String ("won in 7").
type ValueJSON struct {
	Outcome string `json:"outcome"`
	Depth   *int   `json:"depth,omitempty"`
	Text    string `json:"text"`
}

// ValueOf returns v in JSON.
func ValueOf(v layers.Value) ValueJSON {
	j := ValueJSON{Outcome: v.Outcome().String(), Text: v.String()}
	if v.IsDecided() {
		d := v.Depth()
		j.Depth = &d
	}
	return j
}

// MoveJSON is one legal move in JSON: its notation on the game's board,
// its parts (from is empty for a placement, remove when it takes a
// stone), its value for the side making it, the position it leads to,
// the opponent's replies there counted by their outcome for the opponent
// (won, drawn, lost), the perfect player's tie-break score and whether the
// perfect player picks it.
type MoveJSON struct {
	Move    string    `json:"move"`
	From    string    `json:"from,omitempty"`
	To      string    `json:"to"`
	Remove  string    `json:"remove,omitempty"`
	Value   ValueJSON `json:"value"`
	Next    string    `json:"next"`
	Replies [3]int    `json:"replies"`
	Score   float64   `json:"score"`
	Pick    bool      `json:"pick"`
}

// AnswerJSON is an Answer in JSON (the API of docs/engine.md).
type AnswerJSON struct {
	Game     string     `json:"game"`
	Stones   int        `json:"stones"`
	Position string     `json:"position"`
	Turn     string     `json:"turn"`
	Phase    string     `json:"phase"`
	Hand     [2]int     `json:"hand"`
	Layer    string     `json:"layer"`
	Source   string     `json:"source"` // "database"
	Value    ValueJSON  `json:"value"`
	Over     bool       `json:"over"`
	Moves    []MoveJSON `json:"moves"`
	Picks    int        `json:"picks"`
	Ties     bool       `json:"ties"` // false: moves by value only, no score or pick (ties=0)
}

// JSON returns a in JSON.
func (a Answer) JSON() AnswerJSON {
	pos := a.Position
	b := pos.Board()
	j := AnswerJSON{
		Game: pos.Game.String(), Stones: a.Variant.Stones, Position: pos.String(),
		Turn: pos.Turn.String(), Phase: pos.Phase().String(),
		Hand:  [2]int{int(pos.Hand[muehle.White]), int(pos.Hand[muehle.Black])},
		Layer: a.Layer.String(), Source: "database", Value: ValueOf(a.Value), Over: a.Over,
		Moves: make([]MoveJSON, len(a.Moves)), Picks: a.Picks, Ties: a.Ties,
	}
	for i, mv := range a.Moves {
		j.Moves[i] = moveJSON(b, pos, mv, i < a.Picks)
	}
	return j
}

// moveJSON returns the move mv of pos in JSON.
func moveJSON(b *muehle.Board, pos muehle.Position, mv play.MoveValue, pick bool) MoveJSON {
	m := mv.Move
	j := MoveJSON{
		Move: b.MoveString(m), To: b.PointName(m.To), Value: ValueOf(mv.Value),
		Next: pos.Play(m).String(), Replies: mv.Replies, Score: mv.Score, Pick: pick,
	}
	if m.From != muehle.NoPoint {
		j.From = b.PointName(m.From)
	}
	if m.Remove != muehle.NoPoint {
		j.Remove = b.PointName(m.Remove)
	}
	return j
}

// EstimateJSON is an Estimate in JSON, marked as the search's: source
// "search", the score from the side to move's view, and whether the search
// proved it (exact).
type EstimateJSON struct {
	Game     string   `json:"game"`
	Stones   int      `json:"stones"`
	Position string   `json:"position"`
	Layer    string   `json:"layer"`
	Source   string   `json:"source"` // "search"
	Note     string   `json:"note"`
	Move     string   `json:"move"`
	Score    int      `json:"score"`
	Depth    int      `json:"depth"`
	Nodes    uint64   `json:"nodes"`
	PV       []string `json:"pv"`
	Exact    bool     `json:"exact"`
}

// JSON returns e, the estimate of pos in a game of stones per side, in JSON.
func (e Estimate) JSON(pos muehle.Position, stones int) EstimateJSON {
	b := pos.Board()
	j := EstimateJSON{
		Game: pos.Game.String(), Stones: stones, Position: pos.String(), Layer: layers.KeyOf(pos).String(),
		Source: "search", Note: "alpha-beta's estimate: the database cannot answer this position (a layer it or its moves need is missing)",
		Move: b.MoveString(e.Move), Score: e.Score, Depth: e.Depth, Nodes: e.Nodes, Exact: e.Exact,
		PV: make([]string, len(e.PV)),
	}
	for i, m := range e.PV {
		j.PV[i] = b.MoveString(m)
	}
	return j
}
