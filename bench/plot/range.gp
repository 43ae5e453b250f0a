# bench/plot/range.gp: range queries by time, b-tree vs BRIN, ms per query (median).
# gnuplot -c range.gp OUTDIR   (reads OUTDIR/range.dat: "window" btree_ms brin_ms)
out = ARG1
set terminal pngcairo size 800,450 font "sans,10"
set output out . "/range.png"
set title "Range queries by time: execution ms per query (median)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel "ms per query (log scale)"
set grid ytics
set key top left
plot out . "/range.dat" using 2:xtic(1) title "b-tree" lc rgb "#1f77b4", \
     "" using 3 title "BRIN" lc rgb "#ff7f0e"
