#!/usr/bin/env Rscript
# Generates Tests/SensorSignalTests/Reference/statistics.json: R's own results for the RStatistics parity tests.
#
#   Rscript Tools/reference/statistics_reference.R [OUTPUT_DIRECTORY]
#
# Needs R (>= 4.0, for the R 4 `round`), e1071 and jsonlite:
# `apt-get install -y r-base-core r-cran-e1071 r-cran-jsonlite` on Debian.
# Inputs are small literal vectors (written into the file) or formulas that StatisticsTests.swift rebuilds with the
# same IEEE operations (the file carries a few of their values as a check). Every value is printed with 17
# significant digits (reference_json.R), so the decoded JSON number is the identical double.
# Last run: R 4.2.2 with e1071 1.7-13 and jsonlite 1.8.4 (Debian 12), which wrote statistics.json byte for byte as
# the conversion from the Swift literals of StatisticsReference.swift had.

suppressPackageStartupMessages(library(e1071))
options(warn = -1)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))), "reference_json.R"))

safe <- function(expr) tryCatch(expr, error = function(e) NA_real_)

# mhealthtools feature definitions, written from their documented formulas (walking-tapping.md §1.1):
# cv = sd / mean * 100 on the non-NA values; tkeo = mean over i = 2..n-1 of x_i^2 - x_{i+1} x_{i-1} on the non-NA
# values, NA terms dropped.
cv_feature <- function(x) { x <- x[!is.na(x)]; (sd(x) / mean(x)) * 100 }
tkeo_feature <- function(x) {
  x <- x[!is.na(x)]
  n <- length(x)
  if (n < 3) return(NaN)
  y <- x[2:(n - 1)]^2 - x[3:n] * x[1:(n - 2)]
  mean(y[!is.na(y)])
}
acf_padded <- function(x, lag.max) {
  out <- rep(NA_real_, lag.max + 1)
  r <- safe(as.vector(acf(x, lag.max = lag.max, plot = FALSE)$acf))
  if (!all(is.na(r))) out[seq_along(r)] <- r
  out
}

probabilities <- c(0, 0.1, 0.25, 1 / 3, 0.5, 0.9, 0.99, 1)
max_lag <- 3

i1000 <- 1:1000
literal_cases <- list(
  empty = numeric(0),
  one = c(3.7),
  two = c(1.5, -2.25),
  three = c(0.1, 0.2, 0.3),
  ties = c(2, 2, 3, 3, 3, 1, 1, 5),
  negatives = c(-3.5, -1.25, 0, 2.75, -8.125, 4.5, -0.3),
  constant = rep(4.2, 6),
  evenSix = c(10.5, 3.25, 7.75, 1.125, 9.0, 4.4),
  decimals = c(0.1, 0.7, 0.3, 0.2, 0.9, 0.4, 0.6, 0.8, 0.5),
  largeOffset = 1e9 + c(0.1, 0.2, 0.3, 0.4, 0.5),
  skewed = c(1, 1, 1, 2, 2, 3, 10, 50),
  withNaN = c(0.2, NA, 0.4, 0.35, NaN, 0.3),
  tapIntervals = c(0.187, 0.201, 0.176, 0, 0.214, 0.193, 0.834, 0.182, 0.205, 0.199, 0.176, 0.188, 0.21, 0.0003,
                   0.195, 0.223, 0.181, 0.19, 0.207, 0.186, 0.198, 0.177, 0.2, 0.192, 0.216)
)
formula_cases <- list(
  # Rebuilt in Swift as Double((i * 7919) % 1009) / 97 - 4 + Double(i % 3) * 0.001 for i in 1...1000.
  modular1000 = ((i1000 * 7919L) %% 1009L) / 97 - 4 + (i1000 %% 3L) * 0.001,
  # Rebuilt as 0.15 + Double((i * 37) % 23) / 200 for i in 1...181 (a tap-interval-like series).
  taps181 = 0.15 + ((1:181 * 37L) %% 23L) / 200
)

stats_case <- function(name, x, literal) {
  quants <- vapply(probabilities, function(p) safe(unname(quantile(x, p, type = 7))), 0)
  c(
    list(name = str1(name)),
    if (literal) list(input = num(x)) else
      list(input = json_null, count = int1(length(x)), head = num(head(x, 3)), last = num1(x[length(x)])),
    list(
      mean = num1(mean(x)), variance = num1(safe(var(x))), standardDeviation = num1(safe(sd(x))),
      median = num1(median(x)), quantiles = num(quants),
      interquartileRange = num1(safe(IQR(x, type = 7))), medianAbsoluteDeviation = num1(safe(mad(x))),
      skewness = num(vapply(1:3, function(t) safe(skewness(x, type = t)), 0)),
      kurtosis = num(vapply(1:3, function(t) safe(kurtosis(x, type = t)), 0)),
      coefficientOfVariation = num1(safe(cv_feature(x))), range = num1(safe(diff(range(x)))),
      meanTKEO = num1(safe(tkeo_feature(x))),
      autocorrelation = num(acf_padded(x, max_lag)))
  )
}

correlation_pairs <- list(
  list("short", c(1, 2, 3, 4, 5), c(2.1, 3.9, 6.2, 7.8, 10.1)),
  list("negative", c(0.5, -1.25, 3, 2.2, -0.7, 1.1), c(-1, 2.5, -4.75, -3.3, 0.9, -2)),
  list("ties", c(1, 1, 2, 2, 3, 3, 3), c(5, 4, 4, 3, 3, 2, 1)),
  list("perfect", c(0.1, 0.2, 0.3, 0.4), c(0.3, 0.5, 0.7, 0.9)),
  list("constantY", c(1, 2, 3, 4), c(7, 7, 7, 7)),
  list("one", c(1), c(2)),
  list("empty", numeric(0), numeric(0)),
  list("twoPairs", c(1, 2), c(3, 1)),
  list("withNaN", c(160.5, 161, NA, 310.25, 158, 300.5, 305), c(480, 475.5, 470, NaN, 482.25, 471, 469.75)),
  list("tapXY", c(160.5, 161, 159.75, 310.25, 158, 300.5, 305, 162.5, 311, 157.25),
       c(480, 475.5, 470, 482, 482.25, 471, 469.75, 478.5, 473, 481.25))
)

round_cases <- list(
  c(0.5, 0), c(1.5, 0), c(2.5, 0), c(3.5, 0), c(-0.5, 0), c(-1.5, 0), c(-2.5, 0), c(0.4999999999999999, 0),
  c(0.125, 2), c(0.375, 2), c(-0.125, 2), c(2.675, 2), c(1.005, 2), c(0.285, 2), c(0.045, 2), c(2.345, 2),
  c(0.15, 1), c(0.25, 1), c(0.35, 1), c(0.45, 1), c(123.456, 1), c(-123.456, 2), c(1 / 3, 5), c(2 / 3, 10),
  c(12345.6789, -2), c(1250, -2), c(1350, -2), c(-1250, -2), c(987654321, -5), c(5, -1), c(15, -1), c(25, -1),
  c(1e300, 2), c(1.23456789e-300, 305), c(0.1 + 0.2, 15), c(0.1 + 0.2, 16), c(5e-324, 323), c(1e-320, 322),
  c(0, 3), c(7.777, 400), c(7.777, -400), c(123456789.123456789, 3)
)
for (n in 0:60) round_cases[[length(round_cases) + 1]] <- c(0.1 * n, 0)
for (n in 0:60) round_cases[[length(round_cases) + 1]] <- c(0.25 * n, 0)

write_reference(list(
  generator = str1(sprintf("Tools/reference/statistics_reference.R with %s, e1071 %s, %s", R.version.string,
                           as.character(packageVersion("e1071")), R.version$platform)),
  rVersion = str1(R.version.string),
  probabilities = num(probabilities),
  maxLag = int1(max_lag),
  cases = c(lapply(names(literal_cases), function(nm) stats_case(nm, literal_cases[[nm]], TRUE)),
            lapply(names(formula_cases), function(nm) stats_case(nm, formula_cases[[nm]], FALSE))),
  correlations = lapply(correlation_pairs, function(p) list(
    name = str1(p[[1]]), x = num(p[[2]]), y = num(p[[3]]),
    everything = num1(safe(cor(p[[2]], p[[3]]))), pairwise = num1(safe(cor(p[[2]], p[[3]], use = "p"))))),
  rounding = lapply(round_cases, function(r) list(x = num1(r[1]), digits = int1(r[2]),
                                                  expected = num1(round(r[1], r[2]))))
), "statistics.json")
