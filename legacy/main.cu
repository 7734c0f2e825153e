// gpubarrier-legacy: the part of gpubarrier that needs a CUDA 11.x/12.x toolkit, because CUDA 13
// removed this_multi_grid() and cudaLaunchCooperativeKernelMultiDevice. gpubarrier
// runs it as a child process and speaks src/methods/legacy/protocol.hpp with it; this program only
// launches, times and checks, every statistic is gpubarrier's.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "methods/legacy/protocol.hpp"
#include "multi_device.hpp"
#include "multi_grid.hpp"
#include "reduction.hpp"

namespace legacy {
namespace {

constexpr const char* kUsage =
    "usage: gpubarrier-legacy --gpus 0,1 [--blocks-per-sm B] [--threads T] [--unit-ns U]\n"
    "                         [--host-wait 0|1|2]\n"
    "       gpubarrier-legacy --help | --version\n"
    "\n"
    "Runs this_multi_grid().sync() and cudaLaunchCooperativeKernelMultiDevice (removed in CUDA\n"
    "13) for gpubarrier, which starts it per configuration and sends one request per line on\n"
    "stdin; each reply is one line on stdout. The format is src/methods/legacy/protocol.hpp:\n"
    "  check <n> | sync <reps> | launch <warmup> <steps> | launch-check <rounds> |\n"
    "  fuse <launches> <units> | reduce-check <bytes> | reduce <bytes> <warmup> <steps> |\n"
    "  quit\n"
    "By hand: printf 'check 64\\nsync 512\\nsync 5632\\n' | gpubarrier-legacy --gpus 0,1\n";

struct Options {
  std::vector<int> gpus;
  int blocks_per_sm = 1;
  int threads = 128;
  unsigned unit_ns = 1000;
  int host_wait = 0;
};

long to_long(const std::string& text, const std::string& what, long lo, long hi) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end || v < lo || v > hi)
    throw Failure(what + " must be an integer in " + std::to_string(lo) + ".." +
                  std::to_string(hi) + ", got '" + text + "'");
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) throw Failure("unknown or incomplete option '" + arg + "'\n" + kUsage);
    const std::string value = argv[++i];
    if (arg == "--gpus") {
      std::stringstream in(value);
      for (std::string id; std::getline(in, id, ',');)
        o.gpus.push_back(static_cast<int>(to_long(id, "--gpus", 0, 1 << 20)));
    } else if (arg == "--blocks-per-sm") {
      o.blocks_per_sm = static_cast<int>(to_long(value, arg, 1, 1 << 20));
    } else if (arg == "--threads") {
      o.threads = static_cast<int>(to_long(value, arg, 1, 1024));
    } else if (arg == "--unit-ns") {
      o.unit_ns = static_cast<unsigned>(to_long(value, arg, 1, 1000000));
    } else if (arg == "--host-wait") {
      o.host_wait = static_cast<int>(to_long(value, arg, 0, 2));
    } else {
      throw Failure("unknown option '" + arg + "'\n" + kUsage);
    }
  }
  if (o.gpus.empty()) throw Failure(std::string("--gpus is required\n") + kUsage);
  return o;
}

// Answers requests until `quit` or the end of input.
void serve(const Options& o) {
  Devices devices(o.gpus, o.host_wait);
  if (std::string why = multi_grid_residency(o.blocks_per_sm, o.threads); !why.empty())
    throw Unsupported(why);
  if (std::string why = sleep_residency(o.blocks_per_sm, o.threads); !why.empty())
    throw Unsupported(why);
  // Made on first use: only the stamp check needs peer access.
  std::unique_ptr<MultiGrid> multi_grid;
  auto grid = [&]() -> MultiGrid& {
    if (!multi_grid) multi_grid = std::make_unique<MultiGrid>(devices, o.blocks_per_sm, o.threads);
    return *multi_grid;
  };
  // The reduction's array, made on first use and again when another size is asked for.
  std::unique_ptr<Reduction> reduction;
  auto reduce = [&](long bytes) -> Reduction& {
    if (!reduction || reduction->bytes() != bytes) {
      reduction.reset();
      reduction = std::make_unique<Reduction>(devices, bytes);
    }
    return *reduction;
  };
  int runtime = 0, driver = 0;
  LEGACY_CHECK(cudaRuntimeGetVersion(&runtime));
  LEGACY_CHECK(cudaDriverGetVersion(&driver));
  std::cout << "ready protocol=" << gb::legacy::kProtocolVersion << " cudart=" << runtime
            << " driver=" << driver << " gpus=" << devices.count()
            << " blocks=" << o.blocks_per_sm * devices.sms() << std::endl;
  const long kMax = 1L << 40;
  for (std::string line; std::getline(std::cin, line);) {
    std::stringstream in(line);
    std::vector<std::string> w;
    for (std::string word; in >> word;) w.push_back(word);
    if (w.empty()) continue;
    auto arg = [&](std::size_t i) {
      if (i >= w.size()) throw Failure("request '" + line + "' lacks an argument");
      return to_long(w[i], w[0] + "'s argument", 0, kMax);
    };
    const std::size_t arity = w[0] == "reduce"                     ? 4
                              : w[0] == "launch" || w[0] == "fuse" ? 3
                              : w[0] == "quit"                     ? 1
                                                                   : 2;
    if (w.size() > arity) throw Failure("request '" + line + "' has too many arguments");
    std::ostringstream out;
    out.precision(17);
    if (w[0] == "quit") return;
    if (w[0] == "check") {
      out << "check crossings=" << arg(1) << " stale=" << grid().check(arg(1));
    } else if (w[0] == "sync") {
      out << "sync reps=" << arg(1) << " seconds=" << grid().sync(arg(1));
    } else if (w[0] == "launch") {
      out << "launch ns=";
      const std::vector<double> ns = launch_steps(devices, arg(1), arg(2));
      for (std::size_t i = 0; i < ns.size(); ++i) out << (i ? "," : "") << ns[i];
    } else if (w[0] == "launch-check") {
      out << "launch-check rounds=" << arg(1) << " stale=" << launch_check(devices, arg(1));
    } else if (w[0] == "fuse") {
      out << "fuse launches=" << arg(1) << " units=" << arg(2)
          << " seconds=" << fuse(devices, o.blocks_per_sm, o.threads, arg(1), arg(2), o.unit_ns);
    } else if (w[0] == "reduce-check") {
      Reduction& r = reduce(arg(1));
      const double sum = r.sum();
      out << "reduce-check bytes=" << r.bytes() << " blocks=" << r.blocks() << " sum=" << sum;
    } else if (w[0] == "reduce") {
      const long bytes = arg(1);
      const std::vector<double> ns = reduce(bytes).steps(arg(2), arg(3));
      out << "reduce bytes=" << bytes << " ns=";
      for (std::size_t i = 0; i < ns.size(); ++i) out << (i ? "," : "") << ns[i];
    } else {
      throw Failure("unknown request '" + line + "'");
    }
    std::cout << out.str() << std::endl;
  }
}

}  // namespace
}  // namespace legacy

int main(int argc, char** argv) {
  const std::string first = argc > 1 ? argv[1] : "";
  if (first == "--help" || first == "-h") {
    std::cout << legacy::kUsage;
    return 0;
  }
  if (first == "--version") {
    std::cout << gb::legacy::kHelperName << " protocol " << gb::legacy::kProtocolVersion
              << ", built with CUDA " << CUDART_VERSION / 1000 << "." << CUDART_VERSION % 1000 / 10
              << "\n";
    return 0;
  }
  try {
    legacy::serve(legacy::parse(argc, argv));
    return 0;
  } catch (const legacy::Unsupported& e) {
    std::cout << "unsupported " << e.what() << std::endl;
    return 3;
  } catch (const std::exception& e) {
    // One line: the reader takes the line, the rest goes to stderr for the row's note.
    std::string what = e.what();
    const std::size_t nl = what.find('\n');
    std::cout << "error " << what.substr(0, nl) << std::endl;
    if (nl != std::string::npos) std::cerr << what.substr(nl + 1);
    return 1;
  }
}
