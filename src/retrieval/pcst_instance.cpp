// Reading pcst-instance v1 files ("n m", n prizes, m "u v cost" lines, '#' comments; plain or
// gzip).
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

#include "grappi/error.hpp"
#include "grappi/pcst.hpp"
#include "common/text_reader.hpp"

namespace grappi {

PcstInstance read_pcst_instance(const std::string &path) {
  detail::LineReader r(path);
  std::string_view line;
  auto next = [&]() -> bool {
    while (r.next(line)) {
      std::size_t i = 0;
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i == line.size() || line[i] == '#') continue;
      line = line.substr(i);
      return true;
    }
    return false;
  };
  auto where = [&] { return path + ":" + std::to_string(r.line_number()) + ": "; };
  auto num = [&](std::string_view &s, double &v) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc() || !std::isfinite(v)) return false;
    s.remove_prefix(static_cast<std::size_t>(res.ptr - s.data()));
    return true;
  };
  auto end_of = [](std::string_view s) {
    for (char c : s)
      if (c != ' ' && c != '\t') return false;
    return true;
  };
  if (!next()) throw Error(ErrorCode::parse, path + ": empty instance (expected 'n m')");
  double dn, dm;
  std::string_view s = line;
  if (!num(s, dn) || !num(s, dm) || !end_of(s) || dn < 0 || dm < 0 || dn != std::floor(dn) || dm != std::floor(dm) ||
      dn > 1e9 || dm > 1e9)
    throw Error(ErrorCode::parse, where() + "expected two non-negative integers 'n m'");
  PcstInstance inst;
  const auto n = static_cast<std::size_t>(dn), m = static_cast<std::size_t>(dm);
  inst.prizes.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!next()) throw Error(ErrorCode::parse, path + ": ends after " + std::to_string(i) + " of " + std::to_string(n) + " prizes");
    s = line;
    double p;
    if (!num(s, p) || !end_of(s)) throw Error(ErrorCode::parse, where() + "expected one prize");
    inst.prizes.push_back(p);
  }
  inst.edges.reserve(m);
  inst.costs.reserve(m);
  for (std::size_t e = 0; e < m; ++e) {
    if (!next()) throw Error(ErrorCode::parse, path + ": ends after " + std::to_string(e) + " of " + std::to_string(m) + " edges");
    s = line;
    double u, v, c;
    if (!num(s, u) || !num(s, v) || !num(s, c) || !end_of(s) || u != std::floor(u) || v != std::floor(v))
      throw Error(ErrorCode::parse, where() + "expected 'u v cost'");
    inst.edges.emplace_back(static_cast<int64_t>(u), static_cast<int64_t>(v));
    inst.costs.push_back(c);
  }
  if (next()) throw Error(ErrorCode::parse, where() + "unexpected data after the last edge");
  return inst;
}

}  // namespace grappi
