/* FFTW's own execute time for a real forward transform (r2c), the peer of taskproc's
 * RealFFT.executeForward() in compare.py.
 *
 *   cc -O2 -o fftw_bench fftw_bench.c -lfftw3 -lfftw3f -lm
 *   ./fftw_bench INPUT.f64 INPUT.f32 estimate|measure SAMPLES SAMPLE_MS WARMUP_MS thread|wall N [N ...]
 *
 * For each N (in the order given) it plans single then double precision, as the Swift harness does,
 * planning the inverse (c2r) right after the forward one like RealFFT does, so FFTW's accumulated
 * wisdom evolves the same way on both sides. Then it times fftw_execute(plan) on the planned
 * arrays holding the first N samples of the input file. Prints JSON on stdout. */
#include <fftw3.h>

#include "timing.h"

static void *read_file(const char *path, size_t *bytes) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "fftw_bench: cannot open %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = malloc((size_t)size);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "fftw_bench: cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    *bytes = (size_t)size;
    return data;
}

static void run_double(void *plan, long calls) {
    for (long i = 0; i < calls; i++) fftw_execute((fftw_plan)plan);
}

static void run_single(void *plan, long calls) {
    for (long i = 0; i < calls; i++) fftwf_execute((fftwf_plan)plan);
}

int main(int argc, char **argv) {
    if (argc < 9) {
        fprintf(stderr, "usage: %s INPUT.f64 INPUT.f32 estimate|measure SAMPLES SAMPLE_MS WARMUP_MS thread|wall N...\n",
                argv[0]);
        return 2;
    }
    size_t bytes64, bytes32;
    const double *in64 = read_file(argv[1], &bytes64);
    const float *in32 = read_file(argv[2], &bytes32);
    unsigned flags;
    if (strcmp(argv[3], "estimate") == 0) flags = FFTW_ESTIMATE;
    else if (strcmp(argv[3], "measure") == 0) flags = FFTW_MEASURE;
    else { fprintf(stderr, "fftw_bench: effort must be estimate or measure\n"); return 2; }
    timing_options options = parse_timing(argv[4], argv[5], argv[6], argv[7]);

    printf("{\"harness\": \"fftw\", \"version\": \"%s\", \"results\": [", fftw_version);
    int first = 1;
    for (int a = 8; a < argc; a++) {
        int n = atoi(argv[a]);
        if (n < 1 || (size_t)n > bytes64 / sizeof(double) || (size_t)n > bytes32 / sizeof(float)) {
            fprintf(stderr, "fftw_bench: bad size %s\n", argv[a]);
            return 2;
        }
        char op[64];
        {   /* single precision */
            float *real = fftwf_alloc_real((size_t)n);
            fftwf_complex *spectrum = fftwf_alloc_complex((size_t)n / 2 + 1);
            /* MEASURE overwrites the arrays while planning: fill them afterwards. */
            fftwf_plan plan = fftwf_plan_dft_r2c_1d(n, real, spectrum, flags);
            fftwf_plan inverse = fftwf_plan_dft_c2r_1d(n, spectrum, real, flags);
            memcpy(real, in32, sizeof(float) * (size_t)n);
            timing_result r = measure(run_single, plan, options);
            double check = 0;
            for (int k = 0; k <= n / 2; k++) check += fabs((double)spectrum[k][0]) + fabs((double)spectrum[k][1]);
            snprintf(op, sizeof op, "fft/f32/%d", n);
            print_result(first, op, r, check);
            first = 0;
            fftwf_destroy_plan(inverse);
            fftwf_destroy_plan(plan);
            fftwf_free(spectrum);
            fftwf_free(real);
        }
        {   /* double precision */
            double *real = fftw_alloc_real((size_t)n);
            fftw_complex *spectrum = fftw_alloc_complex((size_t)n / 2 + 1);
            fftw_plan plan = fftw_plan_dft_r2c_1d(n, real, spectrum, flags);
            fftw_plan inverse = fftw_plan_dft_c2r_1d(n, spectrum, real, flags);
            memcpy(real, in64, sizeof(double) * (size_t)n);
            timing_result r = measure(run_double, plan, options);
            double check = 0;
            for (int k = 0; k <= n / 2; k++) check += fabs(spectrum[k][0]) + fabs(spectrum[k][1]);
            snprintf(op, sizeof op, "fft/f64/%d", n);
            print_result(first, op, r, check);
            fftw_destroy_plan(inverse);
            fftw_destroy_plan(plan);
            fftw_free(spectrum);
            fftw_free(real);
        }
        fflush(stdout);
    }
    printf("]}\n");
    return 0;
}
