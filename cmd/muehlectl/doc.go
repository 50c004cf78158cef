// Command muehlectl is the command-line tool of the Mühle perfect player:
// it solves, verifies, queries, exports and imports the database, counts
// perft, benchmarks and plays in the terminal. Run "muehlectl help" for
// the commands.
//
// Each command lives in a file of its own, named after it, and registers
// itself in init; "muehlectl help" prints each one's summary.
//
// # Files
//
//	main.go       the command table, flag parsing, signals, exit codes
//	solve.go      solve: compute the missing layers (resumable)
//	verify.go     verify
//	stats.go      stats
//	report.go     report: the database's figures as Markdown
//	export.go     export: the database to a package (layers/pack)
//	import.go     import: a package into the database, checked,
//	              resumable; --verify
//	compress.go   compress: a folder's verified layers kept compressed in place
//	adopt.go      adopt: the moving layers another game has verified and
//	              shares, copied into this game's folder
//	convert.go    convert: placement layers of one byte per slot made dense
//	packprogress.go what export and import show: a bar on a terminal,
//	              else a line a minute with the time left
//	status.go     status: what a folder holds, the window's tables
//	repair.go     repair: the damaged layers recomputed, as the window does
//	query.go      query
//	uci.go        uci: the UCI-like mill engine protocol (package uci)
//	serve.go      serve: the position server and the analysis page
//	              (package serve)
//	loadtest.go   loadtest: the server under load, on loopback
//	loadtest_*.go the server process ends with loadtest (on Linux by
//	              the parent-death signal)
//	layers.go     layers
//	plan.go       plan: the units, their dependencies and cost
//	calibrate.go  plan --calibrate: the cost model against solve logs and
//	              records
//	slurm.go      slurm: the units as Slurm jobs
//	reach.go      reach: counting reachable placement classes
//	placement.go  placement: timing the placement search or a player's move
//	perft.go      perft
//	bench.go      bench: the fixed workloads of the hot loops
//	bench_retro.go the solver's workloads of bench
//	benchperfect.go bench perfect: the time of a perfect move, the layers
//	              open or from a cold start (issue 51)
//	offcpu_*.go   bench perfect's account of a move's time off the
//	              processor: waiting for a core, blocked (Linux)
//	play.go       play: a game in the terminal
//	match.go      match: games between computer players, the player names
//	opening.go    match --opening: the random openings of pairs of games
//	levels.go     levels: calibrating the difficulty levels
//	review.go     review: the database's verdict on every move of a game
//	train.go      train: training positions and the check of an answer
//	tree.go       tree: the alpha-beta search tree beside minimax, or the
//	              conspiracy number player's (--ccns)
//	searcherrors.go searcherrors: Lorenz's search-with-errors experiment
//	              (docs/search.md)
//	tactics.go    tactics: the share of one-move positions each player
//	              finds by time per move (docs/search.md)
//	rows.go       the --rows files of searcherrors, tactics and match
//	jobs.go       forEach: the pool of jobs of match, tactics and
//	              searcherrors
//	countlines.go the progress lines of a tactics or searcherrors row
//	record.go     the solve record, k<stones>/solve-record.tsv (its
//	              format: layers/record.go; written by retro/dbservice's
//	              Recorder)
//	progress.go   what solve shows: a bar per phase on a terminal, else a
//	              line per unit and a line a minute on the phase under way
//	              with the run's time left (retro/dbservice)
//	dbflags.go    --db and --stones, shared by the commands; memory-sized
//	              flags checked against the machine's memory
//	inputs.go     every file a command line names is opened regular-only
//	              and bounded (a FIFO or /dev/zero refused at once)
//	searchflags.go --book and --table-bits of the placement search
//	unreachable.go --unreachable, and the refusal of positions no game reaches
//	profile.go    MUEHLE_CPUPROFILE=FILE: a CPU profile of any command
package main
