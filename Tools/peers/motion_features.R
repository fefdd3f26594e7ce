# mhealthtools' tremor / balance / walk features on device-motion recordings, as parity fixtures for taskproc.
#
#   Rscript Tools/peers/motion_features.R MHEALTHTOOLS_DIR LISTING OUT_DIR META_DIR [REPEATS] [DEBUG]
#
# Normally run by Tools/peers/motion.py (see its docstring), which writes LISTING and the input CSVs.
#
# MHEALTHTOOLS_DIR  a checkout of github.com/Sage-Bionetworks/mhealthtools (or its R/ folder). Its R files are
#                   sourced at run time; no mhealthtools code is copied here. seewave, statcomp, EMD (and pracma,
#                   e1071, dplyr, tidyr, purrr, tibble, rlang, magrittr) must be installed: put their library on
#                   R_LIBS.
# LISTING           tab-separated lines `name<TAB>csv`; each CSV has the columns
#                   timestamp,ua_x,ua_y,ua_z,rr_x,rr_y,rr_z (userAcceleration and rotationRate, row order as recorded),
#                   values as C99 hex floats (0x1.8p-3; exact) or decimals.
#                   accelerometer_data = (t = timestamp, x, y, z) = userAcceleration, gyroscope_data = rotationRate,
#                   as in mhealthtools' vignette.
# OUT_DIR           gets <name>.imf1.csv (get_tremor_features(accelerometer_data, gyroscope_data), IMF = 1, all other
#                   arguments default; identical to get_balance_features' defaults) and <name>.imf2.csv
#                   (get_walk_features(...), IMF = 2; identical to get_kinetic_tremor_features' defaults): each
#                   $extracted_features data frame, columns in mhealthtools' order, numbers as "%.17g", NA as an
#                   empty cell, no row names.
# META_DIR          gets timings.tsv (seconds per call, every repeat, one warm process), versions.tsv, warnings.txt,
#                   loaded/<name>.hex.csv (the doubles R loaded, as C99 hex, to prove they are bit-identical to the
#                   source) and, when DEBUG is 1, the intermediates of the IMF = 1 runs (<name>.imf1.debug.txt and
#                   <name>.imf1.spectra.csv), the EMD output of the IMF = 2 runs (<name>.emd.csv), and the R source of
#                   every library function the features use (sources.txt, emd-sources.txt).
# REPEATS           timed calls per recording and function (default 5); the first recording is run once of each
#                   before timing (warm-up).

suppressPackageStartupMessages({
  library(dplyr); library(tidyr); library(purrr); library(tibble); library(magrittr)
  library(seewave); library(statcomp); library(EMD); library(pracma); library(e1071)
})

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 4) stop("usage: motion_features.R MHEALTHTOOLS_DIR LISTING OUT_DIR META_DIR [REPEATS] [DEBUG]")
mdir <- args[1]; listing <- args[2]; out_dir <- args[3]; meta_dir <- args[4]
repeats <- if (length(args) >= 5) as.integer(args[5]) else 5L
debug <- length(args) >= 6 && args[6] == "1"
rdir <- if (file.exists(file.path(mdir, "R", "utils.R"))) file.path(mdir, "R") else mdir
for (f in c("utils.R", "sensors.R", "feature_extraction_functions.R",
            "get_tremor_features.R", "get_walk_features.R")) {
  source(file.path(rdir, f))
}
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
dir.create(file.path(meta_dir, "loaded"), showWarnings = FALSE, recursive = TRUE)

num17 <- function(v) ifelse(is.na(v), "", sprintf("%.17g", unname(v)))
vec17 <- function(v) paste(sprintf("%.17g", unname(v)), collapse = " ")

# ---- inputs ---------------------------------------------------------------------------------------------------
lst <- read.delim(listing, header = FALSE, col.names = c("name", "path"), stringsAsFactors = FALSE)
recordings <- lapply(seq_len(nrow(lst)), function(i) {
  # as.numeric parses C99 hex floats exactly; R's decimal parser (R_strtod) is not always correctly rounded
  d <- as.data.frame(lapply(read.csv(lst$path[i], colClasses = "character"), as.numeric))
  hex <- as.data.frame(lapply(d, function(v) sprintf("%a", v)))
  write.csv(hex, file.path(meta_dir, "loaded", paste0(lst$name[i], ".hex.csv")), row.names = FALSE, quote = FALSE)
  list(name = lst$name[i],
       accelerometer_data = data.frame(t = d$timestamp, x = d$ua_x, y = d$ua_y, z = d$ua_z),
       gyroscope_data = data.frame(t = d$timestamp, x = d$rr_x, y = d$rr_y, z = d$rr_z))
})

# ---- runs -----------------------------------------------------------------------------------------------------
warning_log <- character()
run <- function(what, rec) {
  fun <- switch(what, imf1 = get_tremor_features, imf2 = get_walk_features)
  withCallingHandlers(
    fun(rec$accelerometer_data, rec$gyroscope_data),
    warning = function(w) {
      warning_log[length(warning_log) + 1] <<- paste0(rec$name, ".", what, ": ",
                                                      gsub("\\s*\n\\s*", " ", conditionMessage(w)))
      invokeRestart("muffleWarning")
    },
    message = function(m) invokeRestart("muffleMessage"))  # dplyr's "Joining, by = ..." notes
}

invisible(run("imf1", recordings[[1]])); invisible(run("imf2", recordings[[1]]))  # warm-up
# Some warnings (lifecycle deprecations) are given once per session, i.e. during the warm-up: keep them, marked.
warning_log <- paste(warning_log, "(warm-up call)")

timings <- data.frame(name = character(), fun = character(), rep = integer(), seconds = numeric())
results <- list()
for (rec in recordings) {
  for (what in c("imf1", "imf2")) {
    first <- NULL
    for (r in seq_len(repeats)) {
      t0 <- Sys.time()
      res <- tryCatch(run(what, rec), error = function(e) list(r_error = conditionMessage(e)))
      dt <- as.numeric(difftime(Sys.time(), t0, units = "secs"))
      timings[nrow(timings) + 1, ] <- list(rec$name, what, r, dt)
      if (is.null(first)) first <- res
      else if (!identical(first, res)) warning_log[length(warning_log) + 1] <-
        paste0(rec$name, ".", what, ": repeat ", r, " differs from the first run")
    }
    results[[paste(rec$name, what, sep = ".")]] <- first
  }
}

write_features <- function(df, path) {
  df <- as.data.frame(dplyr::ungroup(df), stringsAsFactors = FALSE)
  cols <- lapply(df, function(v) {
    if (is.character(v) || is.factor(v) || is.logical(v)) ifelse(is.na(v), "", as.character(v))
    else if (is.integer(v)) ifelse(is.na(v), "", as.character(v))
    else num17(v)
  })
  writeLines(c(paste(names(df), collapse = ","), do.call(paste, c(unname(cols), sep = ","))), path)
}

status <- character()
for (key in names(results)) {
  res <- results[[key]]
  path <- file.path(out_dir, paste0(key, ".csv"))
  if (!is.null(res$r_error)) {
    status[key] <- paste("R error:", res$r_error)
  } else if (!is.null(res$extracted_features)) {
    write_features(res$extracted_features, path)
    ef <- res$extracted_features
    status[key] <- sprintf("ok: %d rows x %d columns, %d NA cells", nrow(ef), ncol(ef), sum(is.na(as.data.frame(ef))))
  } else {
    status[key] <- paste("mhealthtools error:", paste(capture.output(print(as.data.frame(res$error))), collapse = " | "))
  }
}

write.table(timings, file.path(meta_dir, "timings.tsv"), sep = "\t", row.names = FALSE, quote = FALSE)
writeLines(c(paste("status", names(status), status, sep = "\t")), file.path(meta_dir, "status.tsv"))
writeLines(if (length(warning_log)) warning_log else "(none)", file.path(meta_dir, "warnings.txt"))
pkgs <- c("seewave", "statcomp", "EMD", "pracma", "e1071", "dplyr", "tidyr", "purrr", "tibble", "rlang", "magrittr",
          "tuneR", "signal", "fields", "locfit")
versions <- c(paste("R", R.version.string, sep = "\t"),
              vapply(pkgs, function(p) {
                d <- suppressWarnings(packageDescription(p))
                if (!is.list(d)) return(paste(p, "not installed", "", sep = "\t"))
                paste(p, d$Version, if (is.null(d$`Date/Publication`)) "" else d$`Date/Publication`, sep = "\t")
              }, ""))
writeLines(versions, file.path(meta_dir, "versions.tsv"))

# ---- debug: intermediates of the IMF = 1 path (the same calls mhealthtools makes, on the same vectors) ----------
if (debug) {
  for (rec in recordings) {
    lines <- character(); spectra <- list()
    say <- function(...) lines[length(lines) + 1] <<- paste0(...)
    ef <- results[[paste0(rec$name, ".imf1")]]$extracted_features
    for (sensor in c("accelerometer", "gyroscope")) {
      sensor_data <- rec[[paste0(sensor, "_data")]]
      sampling_rate <- get_sampling_rate(sensor_data)           # what prepare_kinematic_sensor_args uses
      tidy <- tidy_sensor_data(sensor_data)                      # t - t[1], order(t), gathered by axis
      for (ax in c("x", "y", "z")) {
        values <- tidy$value[tidy$axis == ax]
        say(strrep("=", 100)); say(rec$name, " IMF=1 ", sensor, " ", ax)
        say("sampling_rate (get_sampling_rate = n / (t[n] - t[1])) = ", sprintf("%.17g", sampling_rate))
        say("n = ", length(values), "; t[1] = ", sprintf("%.17g", sensor_data$t[1]), ", t[n] = ",
            sprintf("%.17g", sensor_data$t[nrow(sensor_data)]), "; rows reordered by order(t): ",
            !identical(order(sensor_data$t), seq_len(nrow(sensor_data))))
        # spec.ar(values, n.freq = 500, plot = FALSE) fits ar(as.ts(values), aic = TRUE, order.max = NULL,
        # method = "yule-walker"); refit the same way and check it reproduces get_spectrum exactly.
        fit <- ar(as.ts(values), aic = TRUE, order.max = NULL, na.action = na.fail, method = "yule-walker")
        spect <- get_spectrum(values, sampling_rate)
        from_fit <- stats::spec.ar(fit, n.freq = 500, plot = FALSE)
        say("ar(): method ", fit$method, ", order ", fit$order, ", order.max ", fit$order.max,
            ", n.used ", fit$n.used, ", x.mean ", sprintf("%.17g", fit$x.mean))
        say("ar(): var.pred ", sprintf("%.17g", fit$var.pred))
        say("ar(): ar coefficients ", vec17(fit$ar))
        say("ar(): aic (AIC minus its minimum, orders 0..order.max) ", vec17(fit$aic))
        say("ar(): partialacf ", vec17(fit$partialacf))
        say("spec.ar(fit) identical to get_spectrum: ", identical(as.vector(from_fit$spec), as.vector(spect$pdf)))
        say("spect$freq (= spec.ar freq * sampling_rate) first 10: ", vec17(head(spect$freq, 10)))
        say("spect$freq last 5: ", vec17(tail(spect$freq, 5)))
        say("spect$pdf first 10: ", vec17(head(spect$pdf, 10)))
        say("spect$pdf last 5: ", vec17(tail(spect$pdf, 5)))
        pdf <- spect$pdf / sum(spect$pdf, na.rm = T)
        say("sum(spect$pdf) = ", sprintf("%.17g", sum(spect$pdf)))
        peaks <- pracma::findpeaks(pdf, minpeakheight = 0.1 * max(pdf, na.rm = T), minpeakdistance = 1,
                                   npeaks = 3, sortstr = TRUE)
        say("findpeaks(normalised pdf, minpeakheight = 0.1 max, npeaks = 3, sortstr = TRUE): ",
            if (is.null(peaks)) "NULL" else paste(apply(peaks, 1, function(r)
              sprintf("[height %.17g, index %d, begin %d, end %d]", r[1], as.integer(r[2]), as.integer(r[3]),
                      as.integer(r[4]))), collapse = " "))
        ewt <- get_ewt_spectrum(data.frame(freq = spect$freq, pdf = pdf), sampling_rate = sampling_rate, npeaks = 3)
        ew_energy <- colSums(ewt^2, na.rm = T)
        ew_energy <- ew_energy / sum(ew_energy, na.rm = T)
        say("ew_energy ", vec17(ew_energy))
        vals <- list(
          `seewave::roughness(values)` = seewave::roughness(values),
          `seewave::rugo(values)` = seewave::rugo(values),
          `mean(seewave::TKEO(values, f = sampling_rate, plot = F)[, 2], na.rm = T)` =
            mean(seewave::TKEO(values, f = sampling_rate, plot = F)[, 2], na.rm = T),
          `seewave::sfm(pdf)` = seewave::sfm(pdf),
          `seewave::sh(pdf)` = seewave::sh(pdf),
          `statcomp::permutation_entropy(ew_energy)` = statcomp::permutation_entropy(ew_energy),
          `seewave::sh(ew_energy, alpha = "shannon")` = seewave::sh(ew_energy, alpha = "shannon"),
          `seewave::sh(ew_energy, alpha = "simpson")` = seewave::sh(ew_energy, alpha = "simpson"),
          `seewave::sh(ew_energy, alpha = 2)` = seewave::sh(ew_energy, alpha = 2),
          `pracma::Mode(values)` = pracma::Mode(values),
          `min(values)` = min(values))
        for (k in names(vals)) say(k, " = ", sprintf("%.17g", vals[[k]]))
        row <- as.data.frame(ef)[ef$sensor == sensor & ef$axis == ax, ]
        checks <- c(rough.tm = vals[[1]], rugo.tm = vals[[2]], mtkeo.tm = vals[[3]], sfm.fr = vals[[4]],
                    sh.fr = vals[[5]], ewt.permEnt.fr = vals[[6]], ewt.shannonEnt.fr = vals[[7]],
                    ewt.simpsonEnt.fr = vals[[8]], ewt.renyiEnt.fr = vals[[9]], mode.tm = vals[[10]])
        same <- vapply(names(checks), function(k) identical(unname(row[[k]]), unname(checks[[k]])), TRUE)
        say("identical to the fixture row: ", paste(names(same), same, sep = "=", collapse = " "))
        spectra[[length(spectra) + 1]] <- data.frame(
          sensor = sensor, axis = ax, i = seq_along(spect$freq), freq = num17(spect$freq), pdf = num17(spect$pdf),
          pdf_normalised = num17(pdf), ewt_1 = num17(ewt[, 1]), ewt_2 = num17(ewt[, 2]),
          ewt_3 = if (ncol(ewt) >= 3) num17(ewt[, 3]) else "", ewt_4 = if (ncol(ewt) >= 4) num17(ewt[, 4]) else "",
          stringsAsFactors = FALSE)
      }
    }
    writeLines(lines, file.path(meta_dir, paste0(rec$name, ".imf1.debug.txt")))
    write.csv(do.call(rbind, spectra), file.path(meta_dir, paste0(rec$name, ".imf1.spectra.csv")),
              row.names = FALSE, quote = FALSE)

    # IMF = 2: what EMD::emd returns per axis, on the same vectors transformation_imf_window passes it
    emd_rows <- list()
    for (sensor in c("accelerometer", "gyroscope")) {
      wide <- tidy_sensor_data(rec[[paste0(sensor, "_data")]]) %>% tidyr::spread(key = "axis", value = "value")
      for (ax in c("x", "y", "z")) {
        e <- EMD::emd(wide[[ax]], wide$t, max.imf = 2)
        emd_rows[[length(emd_rows) + 1]] <- data.frame(
          sensor = sensor, axis = ax, i = seq_along(wide$t), t = num17(wide$t), value = num17(wide[[ax]]),
          imf1 = num17(e$imf[, 1]), imf2 = num17(e$imf[, 2]), residue = num17(e$residue),
          stringsAsFactors = FALSE)
      }
    }
    write.csv(do.call(rbind, emd_rows), file.path(meta_dir, paste0(rec$name, ".emd.csv")),
              row.names = FALSE, quote = FALSE)
  }

  # ---- sources of the library functions the features call ----
  call_heads <- function(e) {
    if (is.call(e)) {
      head <- if (is.name(e[[1]])) as.character(e[[1]]) else character()
      c(head, unlist(lapply(as.list(e), call_heads)))
    } else if (is.function(e)) call_heads(body(e)) else character()
  }
  closure <- function(pkg, roots) {     # roots plus every function of the same namespace they call, transitively
    ns <- asNamespace(pkg); seen <- character(); todo <- roots
    while (length(todo)) {
      f <- todo[1]; todo <- todo[-1]
      if (f %in% seen || !exists(f, envir = ns, inherits = FALSE)) next
      seen <- c(seen, f)
      fn <- get(f, envir = ns)
      if (!is.function(fn)) next
      calls <- unique(call_heads(body(fn)))
      calls <- calls[vapply(calls, function(n) exists(n, envir = ns, inherits = FALSE) &&
                                                  is.function(get(n, envir = ns)), TRUE)]
      todo <- c(todo, setdiff(calls, seen))
    }
    seen
  }
  dump_functions <- function(path, groups, header) {
    con <- file(path, "w")
    writeLines(header, con)
    for (pkg in names(groups)) {
      ver <- if (pkg %in% c("stats", "base")) R.version.string else as.character(packageVersion(pkg))
      for (f in groups[[pkg]]) {
        writeLines(c("", strrep("=", 100), paste0(pkg, ":::", f, "   (", pkg, " ", ver, ")"), strrep("=", 100)), con)
        writeLines(capture.output(print(get(f, envir = asNamespace(pkg)))), con)
      }
    }
    close(con)
  }
  dump_functions(
    file.path(meta_dir, "sources.txt"),
    list(seewave = closure("seewave", c("roughness", "rugo", "TKEO", "sfm", "sh", "ftwindow", "hamming.w")),
         statcomp = closure("statcomp", "permutation_entropy"),
         pracma = closure("pracma", c("Mode", "findpeaks", "trapz")),
         e1071 = closure("e1071", c("skewness", "kurtosis")),
         stats = c("spec.ar", "ar", "ar.yw", "ar.yw.default", "acf", "quantile", "quantile.default", "var", "sd",
                   "median", "median.default", "IQR"),
         base = c("table", "factor", "as.character", "sort", "sort.default", "colSums")),
    c("R source of the library functions mhealthtools' tremor/walk feature functions call (printed from the installed",
      "packages; ':::' marks the namespace, not necessarily an unexported function). seewave, statcomp, pracma and",
      "e1071 include every function of the same package that the listed ones call. C/Fortran code behind",
      ".Call/.Internal (stats' C_eureka for ar.yw, C_acf, C_cov) is appended by motion.py when it has R's sources."))
  dump_functions(
    file.path(meta_dir, "emd-sources.txt"),
    list(EMD = closure("EMD", c("emd", "extractimf", "extrema")),
         stats = c("splinefun", ".splinefun", "regularize.values", "sd")),
    c("EMD::emd (as called by mhealthtools' transformation_imf_window: emd(v, t, max.imf = IMF), all other arguments",
      "default: tol = sd(xt) * 0.1^2, max.sift = 20, stoprule = 'type1', boundary = 'periodic', sm = 'none') and what",
      "it calls: extractimf (sifting and boundary handling), extrema, and stats::splinefun (method 'fmm' by default;",
      "its C code, SplineCoef/SplineEval in R's src/library/stats/src/splines.c, is appended by motion.py when it",
      "has R's sources)."))
}

cat(paste(names(status), status, sep = ": "), sep = "\n")
