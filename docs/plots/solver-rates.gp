# solver-rates.gp: the solver's speed per moving unit, the standard game (its
# run from an empty folder on the idle machine) against Twelve Men's Morris
# (solved beside other work; docs/solver.md). It reads the rows
# solver-rates.awk makes from the two games' solve records
# (solver-rates-standard.tsv, solver-rates-twelve.tsv: unit, slots, slots a
# second solving, slots a second verifying). Run by `make plots`.
set terminal pngcairo size 900,560 font "DejaVu Sans,11"
set output "solver-rates.png"
set datafile separator "\t"
set title "Moving units on 2 cores: slots a second against the unit's size"
set xlabel "slots of the unit (both layers of a pair)"
set ylabel "slots a second (millions)"
set logscale x
set format x "10^{%L}"
set key top right
set grid
plot "solver-rates-standard.tsv" using 2:($3/1e6) with points pt 7 ps 1.2 lc 1 title "Nine Men's Morris, solving (idle machine)", \
     "solver-rates-standard.tsv" using 2:($4/1e6) with points pt 6 ps 1.2 lc 1 title "Nine Men's Morris, verifying (idle)", \
     "solver-rates-twelve.tsv" using 2:($3/1e6) with points pt 5 ps 1.2 lc 2 title "Twelve Men's Morris, solving (shared machine)", \
     "solver-rates-twelve.tsv" using 2:($4/1e6) with points pt 4 ps 1.2 lc 2 title "Twelve Men's Morris, verifying (shared)"
