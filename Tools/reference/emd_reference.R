#!/usr/bin/env Rscript
# Generates Tests/SensorSignalTests/Reference/emd.json and emd/: R's EMD::emd(x, tt, max.imf = k)$imf / $residue /
# $nimf (CRAN EMD 1.5.9, every other argument at its default, as mhealthtools' get_walk_features calls it) and
# stats::splinefun(x, y)(u) (method "fmm") for small hand cases.
#
#   R_LIBS=<library with EMD 1.5.9 and jsonlite> Rscript Tools/reference/emd_reference.R [OUTPUT_DIRECTORY]
#
# EMD and its dependencies (fields, spam, dotCall64, locfit, ...) come from their CRAN sources; jsonlite from
# Debian (r-cran-jsonlite). The recording case reads ../shared/data/mhealthtools-motion/rest_tremor_data_deviceMotion.json
# beside the repository (override with EMD_MOTION_JSON). Inputs are written out in full (%.17g: the same doubles).
# emd.json lists the cases and holds the spline cases; each EMD case is two files, emd/<name>-signal.json (x and
# the times) and emd/<name>.json (the call and R's result), so that no file in Tests/ is over 64 KB.
#
# Last run: none since the switch to JSON. The files were converted from the Swift literals that this script wrote
# before (EMDReference.swift, R 4.2.2 with EMD 1.5.9), and the JSON-writing code was checked with emd() stubbed out
# by those results (EMD is not on Debian): it wrote the same bytes, the splines from R's own splinefun.
suppressPackageStartupMessages({ library(EMD); library(jsonlite) })
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))), "reference_json.R"))

motion <- Sys.getenv("EMD_MOTION_JSON",
                     file.path(dirname(repository_root), "shared/data/mhealthtools-motion/rest_tremor_data_deviceMotion.json"))

cases <- list()
add <- function(name, x, tt, max.imf = 2) cases[[name]] <<- list(x = x, tt = tt, max.imf = max.imf)

# Two tones (1.5 Hz and 11 Hz) at ~100 Hz with jittered sample times, first time 0.
set.seed(20261126)
tt <- (0:599) / 100 + runif(600, -0.002, 0.002); tt <- tt - tt[1]
add("twoTones", sin(2 * pi * 1.5 * tt) + 0.5 * sin(2 * pi * 11 * tt), tt)
# A linear chirp 1 -> 15 Hz over 4 s, uniform times.
tt <- (0:399) / 100
add("chirp", cos(2 * pi * (1 * tt + 1.75 * tt^2)), tt)
# Seeded Gaussian noise, irregular steps (0.008-0.012 s); five IMFs asked for.
set.seed(7)
tt <- c(0, cumsum(runif(299, 0.008, 0.012)))
add("noise", rnorm(300), tt, max.imf = 5)
# Quantized noise: plateaus (equal neighbours) and tied extrema.
set.seed(3)
add("quantized", round(rnorm(200) * 2) / 2, (0:199) / 50)
# A short series of 20 samples.
set.seed(11)
add("short20", sin(1:20) + 0.3 * rnorm(20), (0:19) / 10)
# Too few extrema: one oscillating IMF then a monotone residue (nimf 1), and a single bump (nimf 0).
tt <- seq(0, 1.2, length.out = 120)
add("toneOnTrend", sin(2 * pi * 3 * tt) + 3 * tt, tt)
add("oneBump", c(0, 1, 3, 2, 2.5, 4, 5, 6), 0:7)
# Repeated and out-of-order sample times: splinefun sorts the knots and averages tied ones (regularize.values).
set.seed(5)
tt <- (0:79) / 100; tt[11] <- tt[10]; tt[41] <- tt[40]; tt[c(60, 61)] <- tt[c(61, 60)]
add("irregularTimes", sin(2 * pi * 4 * (0:79) / 100) + 0.4 * rnorm(80), tt)
# A real recording: the first 512 samples of userAcceleration.x, times from the first timestamp (s).
d <- fromJSON(motion)
ts <- d$timestamp[1:512]
add("restTremorX", d$userAcceleration$x[1:512], ts - ts[1])

splines <- list(
  list(name = "irregular", x = c(0, 1, 2.5, 3, 4.2, 6), y = c(1, -1, 2, 0.5, 3, 2), u = seq(-1, 7, by = 0.37)),
  list(name = "cubic", x = c(-1, 0, 0.5, 2, 3, 5), y = c(-1, 0, 0.5, 2, 3, 5)^3 - 2 * c(-1, 0, 0.5, 2, 3, 5) + 1,
       u = c(-2, -1, -0.3, 0, 0.25, 1, 1.7, 2, 4.4, 5, 6.5)),
  list(name = "unsortedTies", x = c(3, 1, 2, 2, 5, 4, 2), y = c(1, 2, 3, 4.5, 5, 0, -1), u = c(0, 1, 1.5, 2, 2.2, 3.9, 5, 6)),
  list(name = "threeKnots", x = c(0, 1, 3), y = c(2, -1, 4), u = c(-1, 0, 0.5, 1, 2, 3, 4)),
  list(name = "twoKnots", x = c(1, 2), y = c(3, 5), u = c(0, 1, 1.5, 2, 3)),
  list(name = "oneKnot", x = c(2), y = c(7), u = c(1, 2, 3)))

for (name in names(cases)) {
  k <- cases[[name]]
  r <- suppressWarnings(emd(k$x, k$tt, max.imf = k$max.imf))
  write_reference(list(x = num(k$x), times = num(k$tt)), sprintf("emd/%s-signal.json", name))
  write_reference(list(
    name = str1(name), maximumIMFs = int1(k$max.imf), imfCount = int1(r$nimf),
    imfs = if (is.null(r$imf)) list() else lapply(seq_len(ncol(r$imf)), function(j) num(r$imf[, j])),  # the columns
    residue = num(r$residue)
  ), sprintf("emd/%s.json", name))
}
write_reference(list(
  generator = str1(sprintf("Tools/reference/emd_reference.R with %s, EMD %s, jsonlite %s, %s", R.version.string,
                           packageVersion("EMD"), packageVersion("jsonlite"), R.version$platform)),
  emdCases = names(cases),
  splineCases = lapply(splines, function(s) list(
    name = str1(s$name), x = num(s$x), y = num(s$y), points = num(s$u),
    values = num(suppressWarnings(splinefun(s$x, s$y)(s$u)))))
), "emd.json")
