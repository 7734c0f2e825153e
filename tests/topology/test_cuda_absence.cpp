// Why CUDA found no GPU: a machine without a driver is told so, not asked to upgrade one.
#include <gtest/gtest.h>

#include "topology/cuda_absence.hpp"

namespace gb::topo {
namespace {

// The cudaError_t codes, which the CUDA runtime keeps stable across versions.
constexpr int kInsufficientCode = 35, kNoDeviceCode = 100, kDevicesUnavailableCode = 46;
const std::string kInsufficient = "cudaErrorInsufficientDriver";
const std::string kInsufficientText =
    "CUDA driver version is insufficient for CUDA runtime version";

TEST(CudaAbsence, NoDriverLibraryIsNoDriver) {
  const std::string got =
      cuda_unavailable_reason(kInsufficientCode, kInsufficient, kInsufficientText, {false, false});
  EXPECT_EQ(got,
            "no NVIDIA driver or GPU found: libcuda.so.1, the driver's library, cannot be loaded");
  EXPECT_EQ(cuda_unavailable_reason(kNoDeviceCode, "cudaErrorNoDevice",
                                    "no CUDA-capable device is detected", {false, true}),
            got);
}

TEST(CudaAbsence, NoKernelDriverIsNoDriver) {
  EXPECT_EQ(cuda_unavailable_reason(kNoDeviceCode, "cudaErrorNoDevice",
                                    "no CUDA-capable device is detected", {true, false}),
            "no NVIDIA driver or GPU found: no NVIDIA kernel driver, /proc/driver/nvidia is "
            "missing");
}

// With a driver present, an insufficient driver is an old one: CUDA's own words stay.
TEST(CudaAbsence, AnOldDriverKeepsCudasWords) {
  EXPECT_EQ(
      cuda_unavailable_reason(kInsufficientCode, kInsufficient, kInsufficientText, {true, true}),
      kInsufficient + ": " + kInsufficientText);
  EXPECT_EQ(cuda_unavailable_reason(kNoDeviceCode, "cudaErrorNoDevice",
                                    "no CUDA-capable device is detected", {true, true}),
            "cudaErrorNoDevice: no CUDA-capable device is detected");
}

TEST(CudaAbsence, OtherErrorsKeepCudasWords) {
  EXPECT_EQ(cuda_unavailable_reason(kDevicesUnavailableCode, "cudaErrorDevicesUnavailable",
                                    "CUDA-capable device(s) is/are "
                                    "busy or unavailable",
                                    {false, false}),
            "cudaErrorDevicesUnavailable: CUDA-capable device(s) is/are busy or unavailable");
}

// The runtime's own answer on this machine reads the same as its parts.
TEST(CudaAbsence, ThisMachine) {
  const DriverPresence here = nvidia_driver_presence();
  EXPECT_EQ(cuda_unavailable_reason(kInsufficientCode),
            cuda_unavailable_reason(kInsufficientCode, kInsufficient, kInsufficientText, here));
}

}  // namespace
}  // namespace gb::topo
