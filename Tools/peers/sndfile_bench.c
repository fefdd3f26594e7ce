/* libsndfile's own decode time, the peer of taskproc's SoundFile in compare.py.
 *
 *   cc -O2 -o sndfile_bench sndfile_bench.c -lsndfile -lm
 *   ./sndfile_bench SAMPLES SAMPLE_MS WARMUP_MS thread|wall BLOCK MONO.wav STEREO.wav
 *
 * Operations per file (the same as the Swift harness's):
 *   read/f32, read/f64  sf_open + sf_readf_float/sf_readf_double of every frame into a freshly
 *                       malloc'ed buffer + sf_close + free: "decode the whole file into new memory",
 *                       as SoundFile.read does (it returns new arrays);
 *   stream/f32          sf_open + sf_readf_float in BLOCK-frame pieces into one reused buffer + sf_close,
 *                       as SoundFile.forEachBlock does.
 * libsndfile returns interleaved frames; taskproc also de-interleaves stereo into one array per
 * channel (extra work the C side does not do). Prints JSON on stdout. */
#include <sndfile.h>

#include "timing.h"

typedef struct {
    const char *path;
    int use_double;
    sf_count_t block;
    void *reused; /* stream: one buffer of BLOCK frames, allocated outside the timing */
} decode_job;

static SNDFILE *open_or_die(const char *path, SF_INFO *info) {
    memset(info, 0, sizeof *info);
    SNDFILE *f = sf_open(path, SFM_READ, info);
    if (!f) { fprintf(stderr, "sndfile_bench: %s: %s\n", path, sf_strerror(NULL)); exit(2); }
    return f;
}

static void read_whole(void *context, long calls) {
    decode_job *job = context;
    for (long i = 0; i < calls; i++) {
        SF_INFO info;
        SNDFILE *f = open_or_die(job->path, &info);
        size_t count = (size_t)info.frames * (size_t)info.channels;
        sf_count_t got;
        if (job->use_double) {
            double *buffer = malloc(count * sizeof(double));
            got = sf_readf_double(f, buffer, info.frames);
            free(buffer);
        } else {
            float *buffer = malloc(count * sizeof(float));
            got = sf_readf_float(f, buffer, info.frames);
            free(buffer);
        }
        sf_close(f);
        if (got != info.frames) { fprintf(stderr, "sndfile_bench: short read of %s\n", job->path); exit(2); }
    }
}

static void stream_blocks(void *context, long calls) {
    decode_job *job = context;
    for (long i = 0; i < calls; i++) {
        SF_INFO info;
        SNDFILE *f = open_or_die(job->path, &info);
        sf_count_t total = 0, got;
        while ((got = sf_readf_float(f, job->reused, job->block)) > 0) total += got;
        sf_close(f);
        if (total != info.frames) { fprintf(stderr, "sndfile_bench: short stream of %s\n", job->path); exit(2); }
    }
}

/* Σ|x| over every decoded sample: equal on every side if all decoded the same data. */
static double absolute_sum(const char *path, int use_double) {
    SF_INFO info;
    SNDFILE *f = open_or_die(path, &info);
    size_t count = (size_t)info.frames * (size_t)info.channels;
    double sum = 0;
    if (use_double) {
        double *b = malloc(count * sizeof(double));
        sf_readf_double(f, b, info.frames);
        for (size_t i = 0; i < count; i++) sum += fabs(b[i]);
        free(b);
    } else {
        float *b = malloc(count * sizeof(float));
        sf_readf_float(f, b, info.frames);
        for (size_t i = 0; i < count; i++) sum += fabs((double)b[i]);
        free(b);
    }
    sf_close(f);
    return sum;
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: %s SAMPLES SAMPLE_MS WARMUP_MS thread|wall BLOCK MONO.wav STEREO.wav\n", argv[0]);
        return 2;
    }
    timing_options options = parse_timing(argv[1], argv[2], argv[3], argv[4]);
    sf_count_t block = atol(argv[5]);
    const char *layouts[2] = {"mono", "stereo"};
    printf("{\"harness\": \"libsndfile\", \"version\": \"%s\", \"results\": [", sf_version_string());
    int first = 1;
    for (int i = 0; i < 2; i++) {
        const char *path = argv[6 + i];
        char op[64];
        for (int use_double = 0; use_double <= 1; use_double++) {
            decode_job job = {path, use_double, block, NULL};
            timing_result r = measure(read_whole, &job, options);
            snprintf(op, sizeof op, "wav/%s/read/%s", layouts[i], use_double ? "f64" : "f32");
            print_result(first, op, r, absolute_sum(path, use_double));
            first = 0;
        }
        SF_INFO info;
        sf_close(open_or_die(path, &info));
        decode_job job = {path, 0, block, malloc((size_t)block * (size_t)info.channels * sizeof(float))};
        timing_result r = measure(stream_blocks, &job, options);
        snprintf(op, sizeof op, "wav/%s/stream/f32", layouts[i]);
        print_result(first, op, r, absolute_sum(path, 0));
        free(job.reused);
        fflush(stdout);
    }
    printf("]}\n");
    return 0;
}
