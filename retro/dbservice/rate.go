package dbservice

import "time"

// Rate is how every long operation reckons its time left, the window's
// and muehlectl's alike: work (in the operation's own measure: the cost
// model's seconds, bytes, positions) at a prior rate until the operation
// has measured its own, then at the rate measured. A solve's prior is the
// cost model at the speed measured before (Meter), a conversion's the
// disk's usual speed (convertRate); a loop without a prior says nothing
// until it has measured.
type Rate struct {
	Prior   float64       // work a second before a rate is measured; 0: not known
	MinTime time.Duration // how long the operation runs before its own rate counts
	MinWork float64       // how much work it does before its own rate counts
}

// At returns the rate to reckon with when work done took elapsed: done
// over elapsed once both reach their minimum, else Prior.
func (r Rate) At(done float64, elapsed time.Duration) float64 {
	if done > 0 && done >= r.MinWork && elapsed > 0 && elapsed >= r.MinTime {
		return done / elapsed.Seconds()
	}
	return r.Prior
}

// Left returns the time work takes at rate, -1 when the rate is not known.
func Left(work, rate float64) time.Duration {
	if rate <= 0 {
		return -1
	}
	return time.Duration(max(0, work) / rate * float64(time.Second))
}
