#!/usr/bin/env Rscript
# Generates Tests/SensorSignalTests/Reference/fluctuation.json: R's cumsum and fractal::DFA on seeded series.
#
#   R_LIBS=<library with fractal 2.0-4> Rscript Tools/reference/fluctuation_reference.R [OUTPUT_DIRECTORY]
#
# Needs R 4.2 (Debian r-base-core), jsonlite (r-cran-jsonlite) and the archived CRAN package fractal 2.0-4 with its
# dependencies splus2R, ifultools, wmtsa and sapa, installed from their CRAN sources with `R CMD INSTALL` (see
# Tools/reference/tapping_reference.R). Series come from R's own generators, so they are written out in full
# (17 significant digits, reference_json.R: the same doubles).
#
# Last run: none since the switch to JSON. fluctuation.json was converted from the Swift literals that this script
# wrote before (FluctuationReference.swift, R 4.2.2, fractal 2.0-4), and this script was checked with fractal's DFA
# stubbed out by those results (fractal is not on Debian): it wrote the same bytes, the series and their cumsum from
# R 4.2.2 itself.

suppressPackageStartupMessages(library(fractal))
options(warn = -1)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))), "reference_json.R"))
dfa <- function(x, order) tryCatch(DFA(x, sum.order = order)[[1]], error = function(e) NA_real_)

cases <- list()
set.seed(1); cases[["runif40"]] <- runif(40)
set.seed(2); cases[["rnorm100"]] <- rnorm(100)
set.seed(3); cases[["walk64"]] <- cumsum(rnorm(64))
set.seed(4); cases[["short17"]] <- runif(17)

write_reference(list(
  generator = str1(sprintf("Tools/reference/fluctuation_reference.R with R %s, fractal %s", getRversion(),
                           packageVersion("fractal"))),
  cases = lapply(names(cases), function(name) {
    x <- cases[[name]]
    list(name = str1(name), series = num(x), cumulativeSum = num(cumsum(x)), dfaSumOrder0 = num1(dfa(x, 0)),
         dfaSumOrder1 = num1(dfa(x, 1)))
  })
), "fluctuation.json")
