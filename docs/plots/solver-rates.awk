# solver-rates.awk: from a solve record (solve-record.tsv of a database
# folder: time, unit, slots, seconds, phases, peak MiB, workers, cores,
# commit, and in newer records processor seconds) the moving units' rates for solver-rates.gp: slots, slots a
# second solving (count + propagate + write), slots a second verifying.
# Units of under a million slots, and those only verified, are left out;
# older records name a moving unit "3-4+4-3", newer ones "m3-4".
BEGIN { FS = "\t"; OFS = "\t" }
($2 ~ /^m/ || $2 ~ /^[0-9]+-[0-9]+/) && $3 >= 1000000 {
	solve = 0; verify = 0
	n = split($5, ph, " ")
	for (i = 1; i <= n; i++) {
		split(ph[i], kv, "=")
		if (kv[1] ~ /^verify/) verify += kv[2]; else solve += kv[2]
	}
	if (solve > 0 && verify > 0) print $2, $3, $3 / solve, $3 / verify
}
