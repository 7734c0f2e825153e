// nccl_allreduce_loop: a small ncclAllReduce timed by the nccl-tests convention, written from
// scratch for scripts/reference-check, which puts it beside gpubarrier's host.nccl.allreduce
// `loop_latency` rows (the message of src/methods/host/nccl_allreduce.cpp: one float, ncclSum, in
// place, one GPU per member).
//
// The convention, as nccl-tests defines it (src/common.cu: TimeTest, BenchTime, startColl,
// completeColl, testStreamSynchronize, Allreduce; defaults -w 5, -n 20, -z 0, -a 1): after
// `warmup` operations and their completion, each member issues one more operation and waits
// for it, meets the others at a barrier, starts its timer, issues `iters` operations back to
// back into its stream, then waits for the stream (a cudaStreamQuery loop that yields the CPU
// while the GPU is busy) and stops the timer: its time per operation = elapsed / iters. The
// members' figures are then combined across threads and ranks: -a 1 (the default) averages
// them, which this program does (min and max are printed too).
//
// --blocking 1 means what it means in gpubarrier (nccl_allreduce.cpp, blocking=1): wait for the
// stream after every operation, no barrier between operations. nccl-tests' -z 1 also puts a
// barrier among threads and ranks after each operation; this program does not.
//
// Members: one thread per GPU of this process (threads mode, ncclCommInitAll), or, when started
// by mpirun with more than one rank and built with MPI (GB_WITH_MPI), one rank per GPU (the
// node-local rank picks it; ncclCommInitRank). Threads are not pinned (nccl-tests does not pin).
//
// Usage: [mpirun -np N] nccl_allreduce_loop [--gpus N] [--blocking 0|1] [--iters N]
//                                           [--warmup N] [--reps N] [--wait query|sync]
// Prints a CSV header and one line; ns per operation:
//   program,convention,launcher,members,blocking,iters,reps,value_ns,median_ns,min_member_ns,
//   max_member_ns
// value_ns: mean over reps of the members' average; min/max_member_ns: averaged over reps.
#include <cuda_runtime.h>
#include <nccl.h>
#include <sched.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#ifdef GB_WITH_MPI
#include <mpi.h>
#endif

namespace {

void fail(const char* what, const char* detail, const char* file, int line) {
  std::fprintf(stderr, "nccl_allreduce_loop: %s failed: %s (%s:%d)\n", what, detail, file, line);
  std::exit(1);
}
#define CUDA_OK(call)                                                               \
  do {                                                                              \
    cudaError_t e_ = (call);                                                        \
    if (e_ != cudaSuccess) fail(#call, cudaGetErrorString(e_), __FILE__, __LINE__); \
  } while (0)
#define NCCL_OK(call)                                                               \
  do {                                                                              \
    ncclResult_t r_ = (call);                                                       \
    if (r_ != ncclSuccess) fail(#call, ncclGetErrorString(r_), __FILE__, __LINE__); \
  } while (0)

struct Options {
  int gpus = 0;  // threads mode: 0 = every visible GPU
  int blocking = 0;
  long iters = 20, warmup = 5, reps = 1;
  bool query = true;  // nccl-tests polls cudaStreamQuery; --wait sync uses cudaStreamSynchronize
};

long parse_count(const char* flag, const char* text, long lowest) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < lowest) {
    std::fprintf(stderr, "nccl_allreduce_loop: %s %s: expected an integer >= %ld\n", flag, text,
                 lowest);
    std::exit(2);
  }
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int a = 1; a < argc; a += 2) {
    const std::string flag = argv[a];
    if (a + 1 >= argc) {
      std::fprintf(stderr,
                   "usage: %s [--gpus N] [--blocking 0|1] [--iters N] [--warmup N] [--reps N] "
                   "[--wait query|sync]\n",
                   argv[0]);
      std::exit(2);
    }
    const char* v = argv[a + 1];
    if (flag == "--gpus") {
      o.gpus = static_cast<int>(parse_count("--gpus", v, 1));
    } else if (flag == "--blocking") {
      if (std::strcmp(v, "0") != 0 && std::strcmp(v, "1") != 0) {
        std::fprintf(stderr, "nccl_allreduce_loop: --blocking %s: expected 0 or 1\n", v);
        std::exit(2);
      }
      o.blocking = v[0] - '0';
    } else if (flag == "--iters") {
      o.iters = parse_count("--iters", v, 1);
    } else if (flag == "--warmup") {
      o.warmup = parse_count("--warmup", v, 0);
    } else if (flag == "--reps") {
      o.reps = parse_count("--reps", v, 1);
    } else if (flag == "--wait" && (std::strcmp(v, "query") == 0 || std::strcmp(v, "sync") == 0)) {
      o.query = std::strcmp(v, "query") == 0;
    } else {
      std::fprintf(stderr, "nccl_allreduce_loop: unknown option %s %s\n", flag.c_str(), v);
      std::exit(2);
    }
  }
  return o;
}

// One member: a GPU, its communicator, stream and float.
struct Member {
  int device = 0;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  float* value = nullptr;

  void allreduce() const {
    NCCL_OK(ncclAllReduce(value, value, 1, ncclFloat, ncclSum, comm, stream));
  }
  void wait(bool query) const {
    if (!query) {
      CUDA_OK(cudaStreamSynchronize(stream));
      return;
    }
    for (;;) {
      const cudaError_t e = cudaStreamQuery(stream);
      if (e == cudaSuccess) return;
      if (e != cudaErrorNotReady) CUDA_OK(e);
      sched_yield();
    }
  }
  // ns per operation of one timed loop (BenchTime's deltaSec); `meet` is the barrier among all
  // members before the timer starts.
  template <class Meet>
  double timed_loop(const Options& o, Meet&& meet) const {
    allreduce();
    wait(o.query);
    meet();
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < o.iters; ++i) {
      allreduce();
      if (o.blocking) wait(o.query);
    }
    if (!o.blocking) wait(o.query);
    const std::chrono::duration<double, std::nano> dt = std::chrono::steady_clock::now() - t0;
    return dt.count() / static_cast<double>(o.iters);
  }
};

void prepare(Member& m) {
  CUDA_OK(cudaSetDevice(m.device));
  CUDA_OK(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking));
  CUDA_OK(cudaMalloc(&m.value, sizeof(float)));
  CUDA_OK(cudaMemset(m.value, 0, sizeof(float)));
}

void warm_up(const Member& m, const Options& o) {
  for (long i = 0; i < o.warmup; ++i) m.allreduce();
  m.wait(o.query);
}

struct Figures {
  std::vector<double> averages;  // one per rep
  double min_sum = 0, max_sum = 0;
  void add(const std::vector<double>& members) {
    double sum = 0;
    for (double v : members) sum += v;
    averages.push_back(sum / static_cast<double>(members.size()));
    min_sum += *std::min_element(members.begin(), members.end());
    max_sum += *std::max_element(members.begin(), members.end());
  }
};

void print(const char* launcher, int members, const Options& o, Figures f) {
  const double n = static_cast<double>(f.averages.size());
  double mean = 0;
  for (double v : f.averages) mean += v / n;
  std::sort(f.averages.begin(), f.averages.end());
  const std::size_t h = f.averages.size() / 2;
  const double median =
      f.averages.size() % 2 ? f.averages[h] : 0.5 * (f.averages[h - 1] + f.averages[h]);
  std::printf(
      "program,convention,launcher,members,blocking,iters,reps,value_ns,median_ns,"
      "min_member_ns,max_member_ns\n");
  std::printf(
      "nccl_allreduce_loop,nccl-tests avg over members,%s,%d,%d,%ld,%ld,%.2f,%.2f,%.2f,"
      "%.2f\n",
      launcher, members, o.blocking, o.iters, o.reps, mean, median, f.min_sum / n, f.max_sum / n);
}

int run_threads(const Options& o) {
  int visible = 0;
  CUDA_OK(cudaGetDeviceCount(&visible));
  const int n = o.gpus ? o.gpus : visible;
  if (n > visible) {
    std::fprintf(stderr, "nccl_allreduce_loop: --gpus %d but %d visible\n", n, visible);
    return 2;
  }
  std::vector<Member> members(n);
  std::vector<ncclComm_t> comms(n);
  std::vector<int> devices(n);
  for (int i = 0; i < n; ++i) devices[i] = members[i].device = i;
  NCCL_OK(ncclCommInitAll(comms.data(), n, devices.data()));
  for (int i = 0; i < n; ++i) {
    members[i].comm = comms[i];
    prepare(members[i]);
  }
  std::vector<double> per_member(n);
  Figures figures;
  std::barrier meet(n, [&]() noexcept {});
  std::barrier collect(n, [&]() noexcept { figures.add(per_member); });
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      const Member& m = members[i];
      CUDA_OK(cudaSetDevice(m.device));
      warm_up(m, o);
      for (long r = 0; r < o.reps; ++r) {
        per_member[i] = m.timed_loop(o, [&] { meet.arrive_and_wait(); });
        collect.arrive_and_wait();  // the last to arrive combines, outside the timed span
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& m : members) {
    CUDA_OK(cudaSetDevice(m.device));
    CUDA_OK(cudaStreamDestroy(m.stream));
    CUDA_OK(cudaFree(m.value));
    NCCL_OK(ncclCommDestroy(m.comm));
  }
  print("threads", n, o, figures);
  return 0;
}

bool started_by_mpirun() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(var)) return true;
  return false;
}

#ifdef GB_WITH_MPI
int run_mpi(const Options& o, int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int local = 0;
  MPI_Comm_rank(node, &local);
  Member m;
  m.device = local;
  ncclUniqueId id;
  if (rank == 0) NCCL_OK(ncclGetUniqueId(&id));
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  CUDA_OK(cudaSetDevice(m.device));
  NCCL_OK(ncclCommInitRank(&m.comm, ranks, id, rank));
  prepare(m);
  warm_up(m, o);
  Figures figures;
  std::vector<double> all(ranks);
  for (long r = 0; r < o.reps; ++r) {
    const double mine = m.timed_loop(o, [] { MPI_Barrier(MPI_COMM_WORLD); });
    MPI_Gather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) figures.add(all);
  }
  CUDA_OK(cudaStreamDestroy(m.stream));
  CUDA_OK(cudaFree(m.value));
  NCCL_OK(ncclCommDestroy(m.comm));
  if (rank == 0) print("mpi", ranks, o, figures);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);  // never NVLink multicast (DESIGN.md 6)
  const Options o = parse(argc, argv);
  if (started_by_mpirun()) {
#ifdef GB_WITH_MPI
    return run_mpi(o, argc, argv);
#else
    const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
    if (size && std::atoi(size) > 1) {
      std::fprintf(stderr, "nccl_allreduce_loop: started by mpirun, but built without MPI\n");
      return 2;
    }
#endif
  }
  return run_threads(o);
}
