/* omp_barrier_loop: OpenMP barrier time by the EPCC OpenMP micro-benchmark convention (syncbench,
 * test BARRIER), written from scratch for scripts/reference-check, which puts it beside
 * gpubarrier's host.omp.barrier `loop_latency` row.
 *
 * The convention, as the EPCC suite defines it (openmpbench_C_v40/syncbench.c testbar(),
 * common.c benchmark(), getinnerreps(), reference(), stats(); defaults in common.h: 20 outer
 * repetitions, 1000 us test time, 0.1 us delay): the master thread times, with omp_get_wtime,
 * a whole parallel region in which every thread runs `innerreps` times "delay, then barrier";
 * time per barrier = that span / innerreps. innerreps starts at 10 and doubles until one such
 * region lasts the test time (the value after the last doubling is used). The region runs once
 * untimed, then `outerreps` timed; the figure is the mean over them (with median, min, max, sd).
 * The overhead subtracts the same statistic of a reference loop, the delays alone on one thread.
 *
 * Here the delay is 0 by default (--delay-us), as gpubarrier's loop has no work between
 * barriers: the reference loop is then empty and the overhead equals the time. --inner fixes
 * innerreps instead of calibrating (scripts/reference-check passes gpubarrier's steps per loop).
 *
 * Usage: omp_barrier_loop [--threads T] [--outer N] [--test-time US] [--inner N] [--delay-us US]
 *                         [--shared-store 0|1]
 * Prints a CSV header and one line; times in ns per barrier:
 *   program,convention,threads,innerreps,outerreps,delay_us,value_ns,median_ns,min_ns,max_ns,
 *   sd_ns,time_ns,reference_ns
 * value_ns = overhead (time_ns - reference_ns), EPCC's headline; median/min/max/sd are of the
 * timed repetitions, less the reference mean.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* About `length` dependent float adds, kept by a use of the result that never prints, as EPCC's
 * delay() does (common.c). --shared-store 1 stores the result into one shared volatile
 * variable instead, so every thread writes the same cache line between every two barriers, a
 * cost EPCC's loop does not have: the variant exists so that one run can show what it costs
 * (scripts/reference-check's `threads=T shared-store` rows). */
static int shared_store = 0;
static volatile float delay_sink;

static void delay(long length) {
  float a = 0.0f;
  for (long i = 0; i < length; ++i) a += (float)i;
  if (shared_store)
    delay_sink = a;
  else if (a < 0.0f)
    printf("%f\n", (double)a);
}

/* Delay length (iterations) that takes about `us` microseconds. */
static long delay_length_for(double us) {
  if (us <= 0.0) return 0;
  const int reps = 1000;
  long length = 0;
  double each = 0.0;
  while (each < us * 1e-6) {
    length = length + length / 10 + 1;
    double t0 = omp_get_wtime();
    for (int i = 0; i < reps; ++i) delay(length);
    each = (omp_get_wtime() - t0) / reps;
  }
  return length;
}

static void barrier_test(int threads, long inner, long delay_len) {
#pragma omp parallel num_threads(threads)
  for (long j = 0; j < inner; ++j) {
    delay(delay_len);
#pragma omp barrier
  }
}

static void reference_test(int threads, long inner, long delay_len) {
  (void)threads;
  for (long j = 0; j < inner; ++j) delay(delay_len);
}

typedef void (*test_fn)(int, long, long);

/* innerreps: doubled from 10 after every calibration run until a run lasts test_us. */
static long calibrate(test_fn test, int threads, long delay_len, double test_us) {
  long inner = 10;
  double us = 0.0;
  while (us < test_us) {
    double t0 = omp_get_wtime();
    test(threads, inner, delay_len);
    us = (omp_get_wtime() - t0) * 1e6;
    inner *= 2;
  }
  return inner;
}

static int by_value(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

struct stats {
  double mean, median, min, max, sd;
};

/* One warm-up run, then `outer` timed runs of the test: ns per inner repetition. */
static struct stats measure(test_fn test, int threads, long inner, long outer, long delay_len) {
  double* t = malloc(sizeof(double) * (size_t)outer);
  test(threads, inner, delay_len);
  for (long k = 0; k < outer; ++k) {
    double t0 = omp_get_wtime();
    test(threads, inner, delay_len);
    t[k] = (omp_get_wtime() - t0) * 1e9 / (double)inner;
  }
  struct stats s = {0.0, 0.0, t[0], t[0], 0.0};
  for (long k = 0; k < outer; ++k) s.mean += t[k] / (double)outer;
  for (long k = 0; k < outer; ++k) s.sd += (t[k] - s.mean) * (t[k] - s.mean);
  s.sd = outer > 1 ? sqrt(s.sd / (double)(outer - 1)) : 0.0;
  qsort(t, (size_t)outer, sizeof(double), by_value);
  s.min = t[0];
  s.max = t[outer - 1];
  s.median = outer % 2 ? t[outer / 2] : 0.5 * (t[outer / 2 - 1] + t[outer / 2]);
  free(t);
  return s;
}

static double parse_number(const char* flag, const char* text, double lowest) {
  char* end = NULL;
  double v = strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= lowest)) {
    fprintf(stderr, "omp_barrier_loop: %s %s: expected a number >= %g\n", flag, text, lowest);
    exit(2);
  }
  return v;
}

int main(int argc, char** argv) {
  int threads = omp_get_max_threads();
  long outer = 20, inner = 0;
  double test_us = 1000.0, delay_us = 0.0;
  for (int a = 1; a < argc; ++a) {
    const char* flag = argv[a];
    if (a + 1 >= argc) {
      fprintf(stderr,
              "usage: %s [--threads T] [--outer N] [--test-time US] [--inner N] "
              "[--delay-us US] [--shared-store 0|1]\n",
              argv[0]);
      return 2;
    }
    const char* v = argv[++a];
    if (strcmp(flag, "--threads") == 0) {
      threads = (int)parse_number(flag, v, 1);
    } else if (strcmp(flag, "--outer") == 0) {
      outer = (long)parse_number(flag, v, 1);
    } else if (strcmp(flag, "--test-time") == 0) {
      test_us = parse_number(flag, v, 1);
    } else if (strcmp(flag, "--inner") == 0) {
      inner = (long)parse_number(flag, v, 1);
    } else if (strcmp(flag, "--delay-us") == 0) {
      delay_us = parse_number(flag, v, 0);
    } else if (strcmp(flag, "--shared-store") == 0) {
      shared_store = (int)parse_number(flag, v, 0) != 0;
    } else {
      fprintf(stderr, "omp_barrier_loop: unknown option %s\n", flag);
      return 2;
    }
  }
  /* The first parallel region starts the thread pool; EPCC's init() opens one first too. */
#pragma omp parallel num_threads(threads)
  delay(0);
  const long delay_len = delay_length_for(delay_us);
  const long ref_inner = inner ? inner : calibrate(reference_test, threads, delay_len, test_us);
  const struct stats ref = measure(reference_test, threads, ref_inner, outer, delay_len);
  if (!inner) inner = calibrate(barrier_test, threads, delay_len, test_us);
  const struct stats bar = measure(barrier_test, threads, inner, outer, delay_len);
  printf(
      "program,convention,threads,innerreps,outerreps,delay_us,value_ns,median_ns,min_ns,"
      "max_ns,sd_ns,time_ns,reference_ns\n");
  printf(
      "omp_barrier_loop,EPCC syncbench master span,%d,%ld,%ld,%g,%.2f,%.2f,%.2f,%.2f,%.2f,"
      "%.2f,%.2f\n",
      threads, inner, outer, delay_us, bar.mean - ref.mean, bar.median - ref.mean,
      bar.min - ref.mean, bar.max - ref.mean, bar.sd, bar.mean, ref.mean);
  return 0;
}
