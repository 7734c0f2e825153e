/* mpi_barrier_loop: MPI_Barrier latency by the OSU Micro-Benchmarks convention (osu_barrier),
 * written from scratch for scripts/reference-check, which puts it beside gpubarrier's
 * host.mpi.barrier `loop_latency` row.
 *
 * The convention, as OMB defines it (c/mpi/collective/blocking/osu_barrier.c; defaults in
 * c/util/osu_util.h, COLL_LOOP_SMALL = 1000 iterations and COLL_SKIP_SMALL = 100 skipped):
 * each rank runs `skip` + `iterations` MPI_Barrier calls, reads MPI_Wtime just before and just
 * after every call and adds up the differences of the last `iterations` calls; its latency is
 * that sum / `iterations`. After one more barrier, MPI_Reduce gives the minimum, the maximum and
 * the sum over ranks; the reported figure is the sum / ranks (the average over ranks).
 *
 * Beyond OSU: -r REPS repeats that whole measurement (skip, loop, reduce) and reports the mean
 * over repetitions of the average over ranks, so one run gives a steadier figure. -w (a
 * diagnostic) times the loop as a whole, one MPI_Wtime before the first timed call and one after
 * the last, as gpubarrier's loop_latency does, instead of adding up the calls' own spans.
 * -t LEVEL initialises MPI with MPI_Init_thread at single, funneled, serialized or multiple
 * instead of MPI_Init (OSU's way, which is `single`), as gpubarrier's --mpi-thread-level does.
 *
 * Usage: mpirun -np N mpi_barrier_loop [-i ITERATIONS] [-x SKIP] [-r REPS] [-w] [-t LEVEL]
 * Prints (rank 0) a CSV header and one line (convention "osu_barrier", or "whole loop" with -w);
 * times in ns:
 *   program,convention,ranks,iterations,skip,reps,value_ns,median_ns,min_rank_ns,max_rank_ns
 * value_ns: mean over reps of the average over ranks; median_ns: median over reps of it;
 * min_rank_ns / max_rank_ns: the fastest / slowest rank's figure, averaged over reps.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long parse_count(const char* flag, const char* text, long lowest) {
  char* end = NULL;
  long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < lowest) {
    fprintf(stderr, "mpi_barrier_loop: %s %s: expected an integer >= %ld\n", flag, text, lowest);
    exit(2);
  }
  return v;
}

/* The MPI_THREAD_* constant named by `text` (-t). */
static int thread_level(const char* text) {
  const char* names[] = {"single", "funneled", "serialized", "multiple"};
  const int values[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                        MPI_THREAD_MULTIPLE};
  for (int i = 0; i < 4; ++i)
    if (strcmp(text, names[i]) == 0) return values[i];
  fprintf(stderr, "mpi_barrier_loop: -t %s: expected single, funneled, serialized or multiple\n",
          text);
  exit(2);
}

static int by_value(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* One OSU measurement: this rank's mean time per barrier (s) over `iterations` timed calls. */
static double rank_latency(long iterations, long skip) {
  double total = 0.0;
  for (long i = 0; i < skip + iterations; ++i) {
    double before = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    double after = MPI_Wtime();
    if (i >= skip) total += after - before;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return total / (double)iterations;
}

/* The same loop timed as a whole (-w). */
static double rank_loop_latency(long iterations, long skip) {
  for (long i = 0; i < skip; ++i) MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (long i = 0; i < iterations; ++i) MPI_Barrier(MPI_COMM_WORLD);
  double span = MPI_Wtime() - start;
  MPI_Barrier(MPI_COMM_WORLD);
  return span / (double)iterations;
}

int main(int argc, char** argv) {
  long iterations = 1000, skip = 100, reps = 1;
  int whole = 0, level = -1;
  for (int a = 1; a < argc; ++a) {
    if (a + 1 < argc && strcmp(argv[a], "-i") == 0) {
      iterations = parse_count("-i", argv[++a], 1);
    } else if (a + 1 < argc && strcmp(argv[a], "-x") == 0) {
      skip = parse_count("-x", argv[++a], 0);
    } else if (a + 1 < argc && strcmp(argv[a], "-r") == 0) {
      reps = parse_count("-r", argv[++a], 1);
    } else if (a + 1 < argc && strcmp(argv[a], "-t") == 0) {
      level = thread_level(argv[++a]);
    } else if (strcmp(argv[a], "-w") == 0) {
      whole = 1;
    } else {
      fprintf(stderr, "usage: mpirun -np N %s [-i ITERATIONS] [-x SKIP] [-r REPS] [-w] [-t LEVEL]\n",
              argv[0]);
      return 2;
    }
  }
  int provided = MPI_THREAD_SINGLE;
  if (level < 0) {
    MPI_Init(&argc, &argv);
  } else {
    MPI_Init_thread(&argc, &argv, level, &provided);
    if (provided < level) {
      fprintf(stderr, "mpi_barrier_loop: -t: this MPI provides a lower thread level\n");
      MPI_Finalize();
      return 2;
    }
  }
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks < 2) {
    if (rank == 0) fprintf(stderr, "mpi_barrier_loop: needs at least 2 ranks (as osu_barrier)\n");
    MPI_Finalize();
    return 2;
  }
  double* averages = malloc(sizeof(double) * (size_t)reps);
  double sum_min = 0.0, sum_max = 0.0;
  for (long r = 0; r < reps; ++r) {
    double mine = whole ? rank_loop_latency(iterations, skip) : rank_latency(iterations, skip);
    double lo = 0.0, hi = 0.0, sum = 0.0;
    MPI_Reduce(&mine, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    averages[r] = sum / ranks * 1e9;
    sum_min += lo * 1e9;
    sum_max += hi * 1e9;
  }
  if (rank == 0) {
    double mean = 0.0;
    for (long r = 0; r < reps; ++r) mean += averages[r] / (double)reps;
    qsort(averages, (size_t)reps, sizeof(double), by_value);
    double median =
        reps % 2 ? averages[reps / 2] : 0.5 * (averages[reps / 2 - 1] + averages[reps / 2]);
    printf(
        "program,convention,ranks,iterations,skip,reps,value_ns,median_ns,min_rank_ns,"
        "max_rank_ns\n");
    printf("mpi_barrier_loop,%s avg over ranks,%d,%ld,%ld,%ld,%.2f,%.2f,%.2f,%.2f\n",
           whole ? "whole loop" : "osu_barrier", ranks, iterations, skip, reps, mean, median,
           sum_min / reps, sum_max / reps);
  }
  free(averages);
  MPI_Finalize();
  return 0;
}
