#!/usr/bin/env Rscript
# Generates Tests/Fixtures/tapping/r_reference.csv: the tapping features R itself computes, with
# the upstream R code, on every edge-case fixture in Tests/Fixtures/tapping/*.csv and on the two
# shared samples, for both variants. TappingTests.swift compares taskproc with every value of that file.
#
#   MHEALTHTOOLS_R=<dir with utils.R and get_tapping_features.R> \
#   MPOWER_SDATA_R=<dir with tappingHelpers.R> \
#   Rscript Tools/reference/tapping_reference.R
#
# Run from the repository root. The upstream code is read in place, never copied into this repository:
# - mhealthtools: github.com/Sage-Bionetworks/mhealthtools @ 4340b82fce2aef66ba445f81515749aa1cf599c3, R/utils.R and
#   R/get_tapping_features.R (Apache-2.0);
# - mPower 2016: github.com/Sage-Bionetworks/mPower-sdata @ 90446c37, featureExtraction/tappingHelpers.R.
# Packages: Debian `r-base-core r-cran-dplyr r-cran-e1071 r-cran-jsonlite` (R 4.2.2, dplyr 1.0.10, e1071 1.7-13), and
# for dfaTapInter the archived CRAN package fractal 2.0-4 with its dependencies splus2R, ifultools, wmtsa and sapa
# (`R CMD INSTALL` of their CRAN sources, e.g. the github.com/cran mirrors; put the library in R_LIBS). Without
# fractal, dfaTapInter is written as NA, exactly as the published mPower reference file has it.
#
# Each output row: input (fixture:<file> or shared:<path under shared/data>), variant, every feature column printed
# with 17 significant digits (NA, NaN, Inf, -Inf as R prints them), error ("None" on success, as mhealthtools).

suppressPackageStartupMessages({
  library(dplyr)
  library(jsonlite)
})
options(warn = -1)
mh <- Sys.getenv("MHEALTHTOOLS_R")
mp <- Sys.getenv("MPOWER_SDATA_R")
if (mh == "" || mp == "") stop("set MHEALTHTOOLS_R and MPOWER_SDATA_R (see the header)")
source(file.path(mh, "utils.R"))
source(file.path(mh, "get_tapping_features.R"))
source(file.path(mp, "tappingHelpers.R"))
have_fractal <- suppressWarnings(requireNamespace("fractal", quietly = TRUE))
if (have_fractal) DFA <- fractal::DFA  # tappingHelpers.R calls DFA() inside try(); without it the call fails -> NA

fixtures <- "Tests/Fixtures/tapping"
shared <- "../shared/data"

read_pdkit_json <- function(path) {
  j <- fromJSON(path)
  xy <- do.call(rbind, lapply(strsplit(gsub("[{}]", "", j$TapCoordinate), ", "), as.numeric))
  data.frame(t = j$TapTimeStamp, x = xy[, 1], y = xy[, 2], buttonid = j$TappedButtonId, stringsAsFactors = FALSE)
}

inputs <- list()
for (f in sort(list.files(fixtures, pattern = "\\.csv$"))) {
  if (f == "r_reference.csv") next
  inputs[[paste0("fixture:", f)]] <- read.csv(file.path(fixtures, f), stringsAsFactors = FALSE)
}
inputs[["shared:mpower-samples/mhealthtools_tap_data.csv"]] <-
  read.csv(file.path(shared, "mpower-samples/mhealthtools_tap_data.csv"), stringsAsFactors = FALSE)
inputs[["shared:mpower-samples/pdkit_mpower_finger_tapping.json"]] <-
  read_pdkit_json(file.path(shared, "mpower-samples/pdkit_mpower_finger_tapping.json"))

mh_names <- c(
  paste0(c("mean", "median", "iqr", "min", "max", "skew", "kur", "sd", "mad", "cv", "range", "tkeo", "ar1", "ar2",
           "fatigue10", "fatigue25", "fatigue50"), "TapInter"),
  paste0(c("mean", "median", "iqr", "min", "max", "skew", "kur", "sd", "mad", "cv", "range"), "DriftLeft"),
  paste0(c("mean", "median", "iqr", "min", "max", "skew", "kur", "sd", "mad", "cv", "range"), "DriftRight"),
  "numberTaps", "buttonNoneFreq", "corXY")
columns <- append(mh_names, "dfaTapInter", after = 12)

fmt <- function(v) {
  if (is.null(v) || length(v) == 0) return("NA")
  v <- as.numeric(v)
  if (is.nan(v)) return("NaN")
  if (is.na(v)) return("NA")
  if (is.infinite(v)) return(if (v > 0) "Inf" else "-Inf")
  sprintf("%.17g", v)
}

rows <- list()
for (name in names(inputs)) {
  d <- inputs[[name]]
  # mhealthtools: get_tapping_features() on the t, x, y, buttonid table
  f <- get_tapping_features(d)
  values <- vapply(columns, function(c) if (c %in% names(f)) fmt(f[[c]]) else "NA", "")
  values["dfaTapInter"] <- "NA"
  rows[[length(rows) + 1]] <- c(input = name, variant = "mhealthtools", values, error = as.character(f$error))
  # mPower 2016: extractTapping(CleanTappedButtonNone(x)) on the time, X, Y, buttonid frame
  x <- data.frame(time = d$t, X = d$x, Y = d$y, buttonid = d$buttonid, stringsAsFactors = FALSE)
  r <- extractTapping(CleanTappedButtonNone(x))
  if (is.null(r)) {
    values <- setNames(rep("NA", length(columns)), columns)
    err <- "NULL"  # extractTapping returned no features
  } else {
    values <- vapply(columns, function(c) fmt(r[[c]]), "")
    err <- "None"
  }
  if (!have_fractal) values["dfaTapInter"] <- "NA"
  rows[[length(rows) + 1]] <- c(input = name, variant = "mpower2016", values, error = err)
}

out <- do.call(rbind, rows)
write.csv(out, file.path(fixtures, "r_reference.csv"), row.names = FALSE, quote = TRUE)
cat("wrote", nrow(out), "rows; fractal", if (have_fractal) "used" else "NOT available (dfaTapInter NA)", "\n")
