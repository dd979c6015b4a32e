// The libFuzzer entry point of one target (GRAPPI_FUZZ_TARGET names it; built with GRAPPI_FUZZ=ON).
#include <cstdlib>

#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size) {
  if (!grappi_fuzz::run(GRAPPI_FUZZ_TARGET, data, size)) std::abort();
  return 0;
}
