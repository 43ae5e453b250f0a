# bench/plot/insert_batches.gp: time of every batch of the primary-key load (median over rounds).
# gnuplot -c insert_batches.gp OUTDIR   (reads OUTDIR/insert_batches.dat: Mrows gen_ulid gen_random_uuid seq_uuid gen_random_ulid)
out = ARG1
set terminal pngcairo size 1000,520 font "sans,10"
set output out . "/insert_batches.png"
set title "Primary-key inserts, shared\\_buffers = 32MB: time per batch (median over rounds)"
set xlabel "rows in the table (millions)"
set ylabel "ms per batch (log scale)"
set logscale y
set grid
set key top left
plot out . "/insert_batches.dat" using 1:3 with lines lw 2 lc rgb "#d62728" title "gen\\_random\\_uuid()", \
     "" using 1:5 with lines lw 2 lc rgb "#ff7f0e" title "gen\\_random\\_ulid() (random within the ms)", \
     "" using 1:2 with lines lw 2 lc rgb "#1f77b4" title "gen\\_ulid()", \
     "" using 1:4 with lines lw 2 dt 2 lc rgb "#2ca02c" title "increasing uuid (sequence)"
