#!/usr/bin/env Rscript
# Generates Tests/SensorSignalTests/Reference/kinematic.json: R's own results for the routines behind mhealthtools'
# kinematic features (stats::ar / spec.ar, pracma Mode / findpeaks / trapz, seewave roughness / rugo).
#
#   R_LIBS=<library with seewave> Rscript Tools/reference/kinematic_reference.R [OUTPUT_DIRECTORY]
#
# seewave is not packaged by Debian; install it (and tuneR) from its CRAN sources into a private library first.
# pracma and jsonlite come from Debian (r-cran-pracma, r-cran-jsonlite). Numbers are written with 17 significant
# digits (reference_json.R): the same doubles.
#
# Last run: none since the switch to JSON. kinematic.json was converted from the Swift literals that this script
# wrote before (KinematicReference.swift, R 4.2.2, pracma 2.4.2, seewave 2.2.4), and this script was checked with
# seewave's roughness and rugo stubbed out by those results (seewave is not on Debian): it wrote the same bytes,
# everything else computed by R 4.2.2 and pracma 2.4.2.
suppressPackageStartupMessages({ library(pracma); library(seewave) })
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))), "reference_json.R"))

set.seed(20261126)
n1 <- 400
ar1 <- as.numeric(arima.sim(list(ar = 0.8), n = n1))
t <- (0:299) / 100
sine <- sin(2 * pi * 5 * t) + 0.3 * rnorm(300)
ar2 <- as.numeric(arima.sim(list(ar = c(0.5, -0.4)), n = 250))
white <- rnorm(120)
inputs <- list(ar1 = ar1, sine = sine, ar2 = ar2, white = white, short3 = c(1, 3, 2), short2 = c(1, 2),
               ramp = c(0, 1, 4, 9, 16, 25, 36, 49, 64, 81))

spectrum_indices <- c(1, 2, 100, 250, 499, 500)
ar_cases <- list()
for (name in names(inputs)) {
  x <- inputs[[name]]
  fit <- tryCatch(ar(x), error = function(e) NULL)
  if (is.null(fit)) next
  sp <- spec.ar(x, n.freq = 500, plot = FALSE)$spec
  ar_cases[[length(ar_cases) + 1]] <- list(
    name = str1(name), input = num(x), order = int1(fit$order), coefficients = num(fit$ar),
    predictionVariance = num1(fit$var.pred), maximumOrder = int1(fit$order.max), aic = num(fit$aic),
    spectrum = num(sp[spectrum_indices]))
}
pr <- list(ties = c(3, 1, 2, 2, 1), digits15 = c(0.1 + 0.2, 0.3, 0.5), plateau = c(0, 1, 0, 2, 2, 0, 3, 1),
           ramp = inputs$ramp, sine = sine[1:60], ar1 = ar1[1:80], rising = c(1, 2, 3, 4))
pracma_cases <- lapply(names(pr), function(name) {
  x <- pr[[name]]
  pk <- findpeaks(x, minpeakheight = 0.1 * max(x), npeaks = 3, sortstr = TRUE)
  list(
    name = str1(name), input = num(x), mode = num1(pracma::Mode(x)), roughness = num1(roughness(x)),
    rugo = num1(rugo(x)), trapz = num1(trapz(seq_along(x) / 7, x)),
    peakValues = num(if (is.null(pk)) numeric() else pk[, 1]),
    peakPositions = if (is.null(pk)) integer() else as.integer(pk[, 2]))
})
write_reference(list(
  generator = str1(sprintf("Tools/reference/kinematic_reference.R with %s, pracma %s, seewave %s, %s",
                           R.version.string, packageVersion("pracma"), packageVersion("seewave"), R.version$platform)),
  spectrumIndices = as.integer(spectrum_indices),
  arCases = ar_cases,
  pracmaCases = pracma_cases
), "kinematic.json")
