// grappi/files.hpp — writing output files whole or not at all.
#pragma once

#include "grappi/export.h"

#include <string>
#include <string_view>

namespace grappi {

/// Writes `content` to `path` whole or not at all: into "<path>.part" with a suffix of its own
/// (writers of the same path at once never share one), then renamed into place, so a full disk
/// or a failure leaves the file that was there (or none), never an empty or cut one. A path
/// that names a device or pipe (/dev/stdout, a FIFO) is written directly.
/// Error(io) naming the path (and the system's reason when the rename fails); the part file is
/// removed.
GRAPPI_CXX_API void write_file(const std::string &path, std::string_view content);

}  // namespace grappi
