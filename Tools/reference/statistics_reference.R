#!/usr/bin/env Rscript
# Generates Tests/SensorSignalTests/StatisticsReference.swift: R's own results for the RStatistics parity tests.
#
#   Rscript Tools/reference/statistics_reference.R > Tests/SensorSignalTests/StatisticsReference.swift
#
# Needs R (>= 4.0, for the R 4 `round`) and e1071: `apt-get install -y r-base-core r-cran-e1071` on Debian.
# Inputs are small literal vectors (written into the generated file) or formulas that StatisticsTests.swift rebuilds
# with the same IEEE operations (the generated file carries a few of their values as a check). Every value is
# printed with 17 significant digits, so the Swift literal is the identical double.

suppressPackageStartupMessages(library(e1071))
options(warn = -1)

fmt <- function(v) {
  if (is.na(v) && !is.nan(v)) return(".nan")
  if (is.nan(v)) return(".nan")
  if (is.infinite(v)) return(if (v > 0) ".infinity" else "-.infinity")
  if (v != 0 && abs(v) < .Machine$double.xmin) return(sprintf("%a", v))  # subnormal: exact hex literal
  s <- sprintf("%.17g", v)
  if (!grepl("[.eE]", s)) s <- paste0(s, ".0")
  s
}
vec <- function(v) paste0("[", paste(vapply(v, fmt, ""), collapse = ", "), "]")
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
    sprintf("        StatisticsReferenceCase(\n            name: \"%s\",", name),
    if (literal) sprintf("            input: %s,", vec(x)) else
      sprintf("            input: nil, count: %d, head: %s, last: %s,", length(x), vec(head(x, 3)), fmt(x[length(x)])),
    sprintf("            mean: %s, variance: %s, standardDeviation: %s,", fmt(mean(x)), fmt(safe(var(x))),
            fmt(safe(sd(x)))),
    sprintf("            median: %s, quantiles: %s,", fmt(median(x)), vec(quants)),
    sprintf("            interquartileRange: %s, medianAbsoluteDeviation: %s,", fmt(safe(IQR(x, type = 7))),
            fmt(safe(mad(x)))),
    sprintf("            skewness: %s,", vec(vapply(1:3, function(t) safe(skewness(x, type = t)), 0))),
    sprintf("            kurtosis: %s,", vec(vapply(1:3, function(t) safe(kurtosis(x, type = t)), 0))),
    sprintf("            coefficientOfVariation: %s, range: %s, meanTKEO: %s,", fmt(safe(cv_feature(x))),
            fmt(safe(diff(range(x)))), fmt(safe(tkeo_feature(x)))),
    sprintf("            autocorrelation: %s),", vec(acf_padded(x, max_lag)))
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

cat("// Generated by Tools/reference/statistics_reference.R -- do not edit.\n")
cat("// Regenerate: Rscript Tools/reference/statistics_reference.R > Tests/SensorSignalTests/StatisticsReference.swift\n")
cat(sprintf("// %s, e1071 %s, %s.\n\n", R.version.string, as.character(packageVersion("e1071")), R.version$platform))
cat("// swift-format-ignore-file\n\n")
cat("/// R's results for one input vector (NaN where R gives NA/NaN or stops with an error).\n")
cat("struct StatisticsReferenceCase: Sendable, CustomStringConvertible {\n")
cat("    var name: String\n")
cat("    /// The literal input, or nil for a formula input that StatisticsTests rebuilds (checked by count/head/last).\n")
cat("    var input: [Double]?\n")
cat("    var count = 0, head: [Double] = [], last = 0.0\n")
cat("    var mean, variance, standardDeviation, median: Double\n")
cat("    /// `quantile(x, p, type = 7)` at ``StatisticsReference/probabilities``.\n")
cat("    var quantiles: [Double]\n")
cat("    var interquartileRange, medianAbsoluteDeviation: Double\n")
cat("    /// e1071 types 1, 2, 3.\n")
cat("    var skewness, kurtosis: [Double]\n")
cat("    var coefficientOfVariation, range, meanTKEO: Double\n")
cat(sprintf("    /// `acf(x, lag.max = %d)`, padded with NaN where R returns fewer lags or fails.\n", max_lag))
cat("    var autocorrelation: [Double]\n")
cat("    var description: String { name }\n")
cat("}\n\n")
cat("/// R's `cor(x, y)` (use = \"everything\") and `cor(x, y, use = \"p\")` for one pair.\n")
cat("struct CorrelationReferenceCase: Sendable, CustomStringConvertible {\n")
cat("    var name: String\n    var x, y: [Double]\n    var everything, pairwise: Double\n")
cat("    var description: String { name }\n}\n\n")
cat("/// R's `round(x, digits)` for one value.\n")
cat("struct RoundReferenceCase: Sendable, CustomStringConvertible {\n")
cat("    var x: Double\n    var digits: Int\n    var expected: Double\n")
cat("    var description: String { \"round(\\(x), \\(digits))\" }\n}\n\n")
cat("enum StatisticsReference {\n")
cat(sprintf("    static let rVersion = \"%s\"\n", R.version.string))
cat(sprintf("    static let probabilities: [Double] = %s\n", vec(probabilities)))
cat(sprintf("    static let maxLag = %d\n\n", max_lag))
cat("    static let cases: [StatisticsReferenceCase] = [\n")
for (nm in names(literal_cases)) cat(stats_case(nm, literal_cases[[nm]], TRUE), sep = "\n")
for (nm in names(formula_cases)) cat(stats_case(nm, formula_cases[[nm]], FALSE), sep = "\n")
cat("    ]\n\n")
cat("    static let correlations: [CorrelationReferenceCase] = [\n")
for (p in correlation_pairs) {
  cat(sprintf("        CorrelationReferenceCase(\n            name: \"%s\", x: %s,\n            y: %s,\n", p[[1]],
              vec(p[[2]]), vec(p[[3]])))
  cat(sprintf("            everything: %s, pairwise: %s),\n", fmt(safe(cor(p[[2]], p[[3]]))),
              fmt(safe(cor(p[[2]], p[[3]], use = "p")))))
}
cat("    ]\n\n")
cat("    static let rounding: [RoundReferenceCase] = [\n")
for (r in round_cases) {
  cat(sprintf("        RoundReferenceCase(x: %s, digits: %d, expected: %s),\n", fmt(r[1]), as.integer(r[2]),
              fmt(round(r[1], r[2]))))
}
cat("    ]\n}\n")
