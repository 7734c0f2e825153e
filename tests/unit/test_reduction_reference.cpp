// The reductions, host side: the input is never zero, the exact reference sum agrees with
// a long double and a Kahan sum of the same values, the relative error and the 1e-10 rule, the
// bytes refusals, and the new methods' names, axes and requirements.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/registry.hpp"
#include "reduction/reference_sum.hpp"

using namespace gb;
using namespace gb::reduction;

TEST(ReductionReference, InputIsNeverZeroAndVaries) {
  double lo = 2, hi = 0;
  for (std::uint64_t i = 0; i < 100000; ++i) {
    const double v = data_value(i);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_GE(lo, 0.5);
  EXPECT_LT(hi, 1.5);
  EXPECT_GT(hi - lo, 0.9);  // spread over the whole interval
}

TEST(ReductionReference, ExactSumAgreesWithLongDoubleAndKahan) {
  for (std::uint64_t first : {0ull, 12345ull}) {
    for (std::uint64_t n : {1ull, 32ull, 1000ull, 1ull << 20}) {
      long double plain = 0;
      double kahan = 0, c = 0;
      for (std::uint64_t i = first; i < first + n; ++i) {
        plain += data_value(i);
        const double y = data_value(i) - c, t = kahan + y;
        c = (t - kahan) - y;
        kahan = t;
      }
      const long double exact = reference_sum(first, n);
      EXPECT_LT(relative_error(static_cast<double>(plain), exact), 1e-15) << n;
      EXPECT_LT(relative_error(kahan, exact), 1e-15) << n;
    }
  }
  // A GPU's share plus the rest is the whole.
  EXPECT_EQ(reference_sum(0, 1000) + reference_sum(1000, 24), reference_sum(0, 1024));
}

TEST(ReductionReference, RelativeErrorAndItsRule) {
  const long double exact = reference_sum(0, 4096);
  EXPECT_EQ(relative_error(static_cast<double>(exact), exact) <= kMaxRelativeError, true);
  const double off = static_cast<double>(exact) * (1 + 1e-9);
  EXPECT_GT(relative_error(off, exact), kMaxRelativeError);
  EXPECT_EQ(error_note(2.5e-3), "relative error 0.0025");
}

TEST(ReductionReference, BytesMustBeWholeDoubles) {
  EXPECT_EQ(bytes_refusal(8), nullptr);
  EXPECT_EQ(bytes_refusal(4L << 30), nullptr);
  EXPECT_NE(bytes_refusal(0), nullptr);
  EXPECT_NE(bytes_refusal(12), nullptr);
}

TEST(ReductionReference, MethodsAndTheAxesTheModelReads) {
  std::map<std::string, std::string> axes;
  for (const auto& m : Registry::instance().create_all()) {
    std::string a;
    for (const Axis& x : m->axes()) a += x.name + " ";
    axes[std::string(m->name())] = a;
    if (m->name().starts_with("reduction.") || m->name().starts_with("model.") ||
        m->name() == "gpu.warp.reduce")
      EXPECT_EQ(m->requirements().min_gpus, 1) << m->name();
  }
  EXPECT_EQ(axes["model.smem.stream"], "threads_per_block ");
  EXPECT_EQ(axes["model.gmem.stream"], "grid cache ");
  EXPECT_EQ(axes["gpu.warp.reduce"], "variant ");
  EXPECT_EQ(axes["reduction.block"], "threads_per_block bytes cache ");
  EXPECT_EQ(axes["reduction.single.grid-sync"], "grid bytes cache ");
  for (const char* n : {"reduction.single.two-kernel", "reduction.single.cub", "reduction.copy"})
    EXPECT_EQ(axes[n], "bytes cache ") << n;
}
