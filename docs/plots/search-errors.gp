# search-errors.gp: the search-with-errors experiment (docs/search.md) as a
# plot. It reads the rows of `muehlectl searcherrors --rows FILE` from
# search-errors.tsv (columns: layer, depth, positions asked, seed; of all
# positions: positions, kept, with two or more leaf-disjoint strategies,
# of those kept; the same four of the critical positions, those with a
# move that gives up the value; seconds; "critical" when the draw was of
# critical positions only, `--critical`) and draws, per layer, the share
# of critical positions whose searched move keeps the database's value
# against the search depth: with two or more strategies in the tree
# (solid), with fewer (dashed). Of a layer with rows of the critical draw
# only those are drawn (they hold far more critical positions), and its
# name says so.
# Run by `make plots`.
if (system("test -s search-errors.tsv && echo yes") ne "yes") {
    print "search-errors.gp: no rows in search-errors.tsv yet, nothing drawn"
    exit
}
set terminal pngcairo size 900,600 font "DejaVu Sans,11"
set output "search-errors.png"
set datafile separator "\t"
set title "Alpha-beta with our evaluation, no database: critical positions whose move keeps the value"
set xlabel "search depth t below each move (plies)"
set ylabel "kept (%)"
set key below maxcols 2
set grid
set xrange [-0.2:6.2]
set xtics 1
# six colours that read on white (gnuplot's fifth is a pale yellow)
do for [i=1:6] { set linetype i lc rgb word("#7b3294 #008837 #2c7bb6 #e66101 #8c510a #d01c8b", i) }
rows = "awk -F'\\t' 'NR==FNR {if ($14==\"critical\") c[$1]=1; next} ($14==\"critical\") == ($1 in c)' search-errors.tsv search-errors.tsv"
layers = system(rows." | cut -f1 | awk '!seen[$0]++' | tr '\\n' ' '")
critical = system("awk -F'\\t' '$14==\"critical\" {print $1}' search-errors.tsv | sort -u | tr '\\n' ' '")
name(k) = strstrt(" ".critical, " ".k." ") ? k." critical" : k
two(k)  = sprintf("< %s | awk -F'\\t' '$1==\"%s\" && $11>0'", rows, k)
rest(k) = sprintf("< %s | awk -F'\\t' '$1==\"%s\" && $9-$11>0'", rows, k)
plot for [i=1:words(layers)] two(word(layers,i)) using 2:(100.0*$12/$11) with linespoints lw 2 lc i dt 1 title name(word(layers,i))." ≥2 strategies", \
     for [i=1:words(layers)] rest(word(layers,i)) using 2:(100.0*($10-$12)/($9-$11)) with linespoints lw 2 lc i dt 2 title name(word(layers,i))." <2"
