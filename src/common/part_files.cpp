// The files of a distributed build's workers (part_files.hpp).
#include "common/part_files.hpp"

#include <cstdint>
#include <cstring>

#include "common/text_util.hpp"
#include "grappi/error.hpp"
#include "grappi/version.h"

namespace grappi::detail {

nlohmann::json part_provenance(const std::string &text, const std::string &what) {
  nlohmann::json j = nlohmann::json::object();
  if (!text.empty()) {
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception &e) {
      throw Error(ErrorCode::invalid_argument, what + ": the provenance is not JSON: " + e.what());
    }
    if (!j.is_object()) throw Error(ErrorCode::invalid_argument, what + ": the provenance must be a JSON object");
  }
  if (!j.contains("grappi")) j["grappi"] = GRAPPI_VERSION_STRING;
  if (!j.contains("written_at")) j["written_at"] = utc_now();
  return j;
}

bool read_magic_line(std::istream &in, std::string_view magic) {
  std::string first;
  char c;
  while (first.size() < 64 && in.get(c) && c != '\n') first += c;
  return first == magic;
}

bool little_endian_host() {
  const uint32_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

}  // namespace grappi::detail
