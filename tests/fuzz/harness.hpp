// The fuzz targets' bodies (tests/fuzz/README.md): one function per parser, called by the
// libFuzzer entry point of each target (entry.cpp, built with GRAPPI_FUZZ=ON and clang) and by
// the replay program the normal test suite runs over the seed corpora and the regression files
// (replay.cpp). A body returns normally for any input; a crash, a sanitizer report, an exception
// other than grappi::Error, or a broken invariant (an import that failed but changed the
// database) aborts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace grappi_fuzz {

/// Every target's name.
const std::vector<std::string> &targets();
/// Runs one input through a target; false for an unknown target name.
bool run(const std::string &target, const uint8_t *data, std::size_t size);

}  // namespace grappi_fuzz
