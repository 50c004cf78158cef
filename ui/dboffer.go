package ui

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2/dialog"

	"muehle/muehle"
)

// quickGameTime bounds the estimated time of a game's complete database
// that the window offers to compute when a game of it starts (offerGame):
// Three, Five and Six Men's Morris take seconds.
const quickGameTime = time.Minute

// offerGame asks, when a game of v starts whose database folder is empty
// and whose complete database takes under quickGameTime, whether to
// compute it now; the Database tab computes it, as its Complete database
// button does. Each variant is offered once a session, and only with its
// own stone count (Three Men's Morris, not Twelve Men's Morris with three
// stones a side). The estimate reads the folder, off the UI thread; the
// question comes only when the tab still shows v and computes nothing.
func (p *dbPanel) offerGame(v muehle.Variant) {
	if p.stop != nil || p.hold || v.Check() != nil || v.Stones != v.Rules().Stones || p.db.Game() != v || p.gameOffered[v] {
		return
	}
	if p.gameOffered == nil {
		p.gameOffered = map[muehle.Variant]bool{}
	}
	p.gameOffered[v] = true
	if !p.db.Empty() {
		return
	}
	go func() {
		est, err := p.db.Estimate(false)
		if err != nil || est.Units == 0 || est.Time > quickGameTime {
			return
		}
		p.do(func() {
			if p.stop != nil || p.hold || p.db.Game() != v {
				return
			}
			msg := fmt.Sprintf("There is no database of %s in\n%s\nyet. Compute it now? %s positions, %s on disk,\n"+
				"about %s on this machine.\n\n"+
				"The perfect player and the perfect-move marks then know\n"+
				"every position of the game. The Database tab shows the progress.",
				v.Name(), p.db.Dir(), count(est.Positions), bytesText(est.Bytes), roughDuration(est.Time))
			dialog.ShowConfirm("Compute the database of "+v.Name()+"?", msg, func(yes bool) {
				if yes && p.stop == nil && p.db.Game() == v {
					p.checked(false, func(DBEstimate, string) { p.compute(false) })
				}
			}, p.u.win)
		})
	}()
}
