# search-errors.gp: the search-with-errors experiment (docs/search.md) as a
# plot. It reads the rows of `muehlectl searcherrors --rows FILE`
# (columns: layer, depth, positions asked, seed, positions, kept, positions
# whose tree holds two or more leaf-disjoint strategies, of those kept,
# seconds) from search-errors.tsv and draws, per layer, the share of moves
# that keep the database's value against the search depth, with two or
# more strategies in the tree (solid) and with fewer (dashed).
# Run by `make plots`.
set terminal pngcairo size 900,560 font "DejaVu Sans,11"
set output "search-errors.png"
set datafile separator "\t"
set title "Alpha-beta with our evaluation, without the database: moves that keep the value"
set xlabel "search depth t below each move (plies)"
set ylabel "moves that keep the value (%)"
set key outside right top
set grid
set xrange [-0.2:6.2]
set xtics 1
layers = system("cut -f1 search-errors.tsv | awk '!seen[$0]++' | tr '\\n' ' '")
two(k)  = sprintf("< awk -F'\\t' '$1==\"%s\" && $7>0' search-errors.tsv", k)
rest(k) = sprintf("< awk -F'\\t' '$1==\"%s\" && $5-$7>0' search-errors.tsv", k)
plot for [i=1:words(layers)] two(word(layers,i)) using 2:(100.0*$8/$7) with linespoints lw 2 lc i dt 1 title word(layers,i)." (≥2 strategies)", \
     for [i=1:words(layers)] rest(word(layers,i)) using 2:(100.0*($6-$8)/($5-$7)) with linespoints lw 2 lc i dt 2 title word(layers,i)." (<2)"
