// Package dbservice is the database service the window's Database tab and
// muehlectl share: what a folder holds, computing it with one record of
// what each finished unit took, repairing damaged layers, importing a
// package, converting the layers of the older format, compressing the
// layers lying flat, and the one model
// of progress and time left every long operation reports through. It
// imports no Fyne, so it builds and tests with CGO_ENABLED=0; the window
// and muehlectl only show what it reports.
//
// The files, one concern each:
//
//	estimate.go   what a computation will cost (Estimate): the cost model
//	              of retro/cost.go at the speed measured in the folder's
//	              solve record, else in the machine's last run, else the
//	              share of the cores the machine's load leaves (StartSpeed)
//	speed.go      the speed measured in a solve record (MeasuredSpeed)
//	load.go       the machine's load average
//	holdings.go   what a folder holds, the tables of layers (Describe)
//	rate.go       the time left of every long operation (Rate, Left)
//	progress.go   the state of a run for a person (Progress), the meter
//	              that turns the solver's events into it with the time
//	              left (Meter), what a paused run keeps (Base)
//	solve.go      a computation (Solve): the solver run, each finished
//	              unit appended to the solve record (Recorder), the speed
//	              the run measured
//	repair.go     which layers are damaged, and what recomputing them
//	              solves (the repair policy)
//	convert.go    the layers of the older format (Old) and their
//	              conversion with its progress
//	compress.go   the layers lying flat (Flat) and keeping them
//	              compressed in place (Compress), refused without the
//	              disk it needs (ErrNoRoom)
//	import.go     a package installed into a folder, and the layers of
//	              the format before it brings converted
//	words.go      numbers, sizes and durations as a person reads them
//	peakmem.go    the peak memory of a unit, for the solve record
//	peakmem_windows.go peakmem.go's on Windows: the peak working set
//	              since the process started
package dbservice
