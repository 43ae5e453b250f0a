# bench/plot/targets.gp: every ratio target, measured (bar) against its limit (line).
# gnuplot -c targets.gp OUTDIR   (reads OUTDIR/targets.dat: ord "label" measured target pass;
# the ratio targets only)
out = ARG1
set terminal pngcairo size 1100,600 font "sans,10"
set output out . "/targets.png"
set title noenhanced "ulid vs uuid: targets (ratios, median of interleaved rounds; green = met, red = missed)"
set style fill solid 0.8 border -1
set boxwidth 0.6
set yrange [0:*]
set ylabel "measured ratio (bar) and target limit (black line)"
set xtics rotate by 30 right noenhanced
set grid ytics
set key off
passed(p) = (p > 0.5)
set bmargin 12
set lmargin 22
plot out . "/targets.dat" using 0:3:(passed($5) ? 0x2ca02c : 0xd62728):xtic(2) with boxes lc rgb variable, \
     "" using 0:4:(0.3):(0) with vectors nohead lw 3 lc rgb "black", \
     "" using 0:4:(-0.3):(0) with vectors nohead lw 3 lc rgb "black", \
     "" using 0:3:(sprintf("%.2f", $3)) with labels offset 0,0.7 font "sans,9"
