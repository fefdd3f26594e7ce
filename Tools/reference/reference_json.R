# Writes a reference-data JSON file for the Swift tests; sourced by the R generators in this folder.
#
# jsonlite writes the structure (toJSON(pretty = TRUE): the layout reference_json.py copies for the Python
# generators) but not the numbers: jsonlite 1.8.4 prints at most 15 significant digits whatever `digits` says
# (toJSON(0.1 + 0.2, digits = I(17)) is [0.3]), which does not round-trip a double. So every double goes in verbatim
# (json_verbatim = TRUE), formatted here with %.17g (C's printf: 17 significant digits give the same double back).
# NA and NaN are written "NaN", the infinities "Inf" and "-Inf" (jsonlite's na = "string" spelling), which
# Tests/TestSupport/ReferenceData.swift decodes.
suppressPackageStartupMessages(library(jsonlite))

num_text <- function(x) {
  ifelse(is.na(x), "\"NaN\"", ifelse(is.infinite(x), ifelse(x > 0, "\"Inf\"", "\"-Inf\""), sprintf("%.17g", x)))
}
# A double vector as a JSON array, whatever its length (0 and 1 included).
num <- function(x) structure(paste0("[", paste(num_text(as.numeric(x)), collapse = ", "), "]"), class = "json")
# One double as a JSON number ("NaN" for NULL, an empty vector or NA).
num1 <- function(x) {
  if (is.null(x) || length(x) == 0) x <- NA_real_
  stopifnot(length(x) == 1)
  structure(num_text(as.numeric(x)), class = "json")
}
int1 <- function(x) unbox(as.integer(x))
str1 <- function(x) unbox(as.character(x))
json_null <- structure("null", class = "json")

# The repository root, from the running script's path (Rscript --file=...).
script_path <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
repository_root <- normalizePath(file.path(dirname(script_path), "..", ".."))

# Writes `value` (a named list) to `name` (e.g. "emd.json") in the folder given as the script's one argument, or
# else in Tests/SensorSignalTests/Reference/, where the tests read it.
write_reference <- function(value, name) {
  args <- commandArgs(trailingOnly = TRUE)
  folder <- if (length(args) >= 1) args[1] else file.path(repository_root, "Tests", "SensorSignalTests", "Reference")
  path <- file.path(folder, name)
  dir.create(dirname(path), recursive = TRUE, showWarnings = FALSE)
  writeLines(toJSON(value, pretty = TRUE, json_verbatim = TRUE), path)
  cat("wrote", path, "\n")
}
