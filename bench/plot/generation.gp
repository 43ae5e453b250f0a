# bench/plot/generation.gp: CPU ns per call of each generator and of the executor floor, over the
# target's generate_series (a tuplestore that spills) and over a cross join of two small series.
# gnuplot -c generation.gp OUTDIR   (reads OUTDIR/gen.dat: "function" ns_series ns_crossjoin; ? = not run)
out = ARG1
set terminal pngcairo size 1100,500 font "sans,10"
set output out . "/generation.png"
set title noenhanced "Generation: CPU ns per call, SELECT count(f()) over 1M rows (median of interleaved rounds)"
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [10:*]
set ylabel "ns per call (log scale)"
set grid ytics
set key top left noenhanced
set xtics noenhanced rotate by 20 right
plot out . "/gen.dat" using 2:xtic(1) title "generate_series(1, 1M) (the target's floor; spills to disk)" lc rgb "#1f77b4", \
     "" using 3 title "cross join 100 x 10000 (no spill)" lc rgb "#ff7f0e"
