// What the files a distributed build's workers write share (docs/distributed.md "The files"):
// a first line naming the format, a provenance object with the grappi version and the time, and
// numbers in the writer's byte order. Used by the co-occurrence partial counts, the extraction
// parts and the embedding vectors and embedder files.
#pragma once

#include <istream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace grappi::detail {

/// A worker file's provenance: the caller's JSON object text (empty: an empty object) with
/// "grappi" (the version) and "written_at" (UTC) added unless it gives them.
/// Error(invalid_argument) naming `what` for text that is not a JSON object.
nlohmann::json part_provenance(const std::string &text, const std::string &what);

/// Reads a file's first line (at most 64 bytes, so that another kind of file is refused before
/// a long line is read) and says whether it is `magic`.
bool read_magic_line(std::istream &in, std::string_view magic);

/// Whether this machine stores numbers little-endian (the byte order the files are written in).
bool little_endian_host();

}  // namespace grappi::detail
