//go:build long

package play

// With the long tag (make test-long), TestAlphaBetaBeatsRandom plays the
// 200 games of issue 5.
func init() { abVsRandomGames = 200 }
