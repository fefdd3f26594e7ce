/* The timing discipline shared with Sources/CompareHarness/Timing.swift and compare.py:
 *  1. warm-up: batches of doubling size until at least warmup_ms have passed;
 *  2. inner = calls per sample, so one sample lasts at least sample_ms;
 *  3. `samples` samples of `inner` back-to-back calls; report the median and minimum per-call time.
 * The measured function receives the number of calls and loops itself (no per-call indirection). */
#ifndef TASKPROC_COMPARE_TIMING_H
#define TASKPROC_COMPARE_TIMING_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int samples;
    double sample_ms;
    double warmup_ms;
    clockid_t clock; /* CLOCK_THREAD_CPUTIME_ID ("thread") or CLOCK_MONOTONIC ("wall") */
} timing_options;

typedef struct {
    double median_ns;
    double min_ns;
    int samples;
    long inner;
} timing_result;

typedef void (*timed_fn)(void *context, long calls);

static double clock_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double time_calls(timed_fn fn, void *context, long calls, clockid_t clock) {
    double start = clock_ns(clock);
    fn(context, calls);
    return clock_ns(clock) - start;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static timing_result measure(timed_fn fn, void *context, timing_options options) {
    double warmup_ns = options.warmup_ms * 1e6;
    long batch = 1, calls = 0;
    double total = 0, per_call = 0;
    for (;;) {
        double t = time_calls(fn, context, batch, options.clock);
        total += t;
        calls += batch;
        per_call = t / (double)batch;
        if (total >= warmup_ns && calls >= 2) break;
        if (t < warmup_ns / 4) batch *= 2;
    }
    long inner = (long)ceil(options.sample_ms * 1e6 / (per_call > 1 ? per_call : 1));
    if (inner < 1) inner = 1;
    double *per = malloc(sizeof(double) * (size_t)options.samples);
    if (!per) { fprintf(stderr, "out of memory\n"); exit(2); }
    for (int i = 0; i < options.samples; i++) per[i] = time_calls(fn, context, inner, options.clock) / (double)inner;
    qsort(per, (size_t)options.samples, sizeof(double), compare_doubles);
    int n = options.samples;
    timing_result r = {
        .median_ns = n % 2 ? per[n / 2] : (per[n / 2 - 1] + per[n / 2]) / 2,
        .min_ns = per[0],
        .samples = n,
        .inner = inner,
    };
    free(per);
    return r;
}

/* Prints one result object of the {"harness": ..., "results": [...]} JSON document. */
static void print_result(int first, const char *op, timing_result r, double check) {
    printf("%s{\"op\": \"%s\", \"ns\": %.3f, \"min_ns\": %.3f, \"samples\": %d, \"inner\": %ld, \"check\": %.17g}",
           first ? "" : ", ", op, r.median_ns, r.min_ns, r.samples, r.inner, check);
}

static timing_options parse_timing(const char *samples, const char *sample_ms, const char *warmup_ms,
                                   const char *clock) {
    timing_options o = {atoi(samples), atof(sample_ms), atof(warmup_ms), CLOCK_THREAD_CPUTIME_ID};
    if (o.samples < 1) o.samples = 1;
    if (strcmp(clock, "wall") == 0) o.clock = CLOCK_MONOTONIC;
    else if (strcmp(clock, "thread") != 0) { fprintf(stderr, "clock must be thread or wall\n"); exit(2); }
    return o;
}

#endif
