// FamPlex's tables (famplex.hpp).
#include "formats/famplex.hpp"

#include <sys/stat.h>

#include <set>

#include "common/text_reader.hpp"
#include "common/text_util.hpp"
#include "formats/csv.hpp"
#include "grappi/error.hpp"

namespace grappi::detail {

namespace {

bool is_file(const std::string &path) {
  struct stat sb {};
  return ::stat(path.c_str(), &sb) == 0 && S_ISREG(sb.st_mode);
}

// The table's path in the directory, plain or gzipped; empty when neither is there.
std::string table(const std::string &dir, const char *name) {
  const std::string plain = dir + "/" + name;
  if (is_file(plain)) return plain;
  if (is_file(plain + ".gz")) return plain + ".gz";
  return {};
}

struct Reader {
  FamplexData &out;
  bool skip_bad;
  std::size_t max_examples;
  uint64_t max_rows;
  std::string digests;  // "name sha256\n" per table read

  // The table's records (blank cells trimmed), or nothing when it is optional and absent.
  std::vector<std::pair<std::size_t, std::vector<std::string>>> records(const std::string &dir, const char *name,
                                                                        bool required) {
    const std::string path = table(dir, name);
    if (path.empty()) {
      if (required)
        throw Error(ErrorCode::io, "famplex: '" + dir + "' holds no " + name + " (nor " + name +
                                       ".gz): give the directory of FamPlex's tables (entities.csv, relations.csv, "
                                       "grounding_map.csv, equivalences.csv, descriptions.csv)");
      return {};
    }
    const WholeFile f = read_whole_file(path, max_rows);
    out.bytes += f.size;
    digests += std::string(name) + " " + f.sha256 + "\n";
    auto rows = csv_records(f.text, path);
    for (auto &[line, fields] : rows)
      for (std::string &x : fields) x = trim_copy(x);
    out.rows += rows.size();
    return rows;
  }
  void bad(const std::string &path, std::size_t line, const std::string &problem) {
    const std::string where = path + ":" + std::to_string(line) + ": " + problem;
    if (!skip_bad) throw Error(ErrorCode::parse, where);
    ++out.bad_rows;
    if (out.bad_examples.size() < max_examples) out.bad_examples.push_back(where);
  }
};

}  // namespace

FamplexData read_famplex(const std::string &dir, bool skip_bad, std::size_t max_examples, uint64_t max_rows) {
  struct stat sb {};
  if (::stat(dir.c_str(), &sb) != 0 || !S_ISDIR(sb.st_mode))
    throw Error(ErrorCode::io, "famplex: '" + dir + "' is not a directory (give the directory of FamPlex's tables)");
  FamplexData out;
  Reader r{out, skip_bad, max_examples, max_rows, {}};
  std::set<std::string> known;
  {
    const std::string path = table(dir, "entities.csv");
    for (const auto &[line, f] : r.records(dir, "entities.csv", true)) {
      if (f.size() != 1 || f[0].empty()) {
        r.bad(path, line, "an entity line holds one FamPlex id");
        continue;
      }
      if (known.insert(f[0]).second) out.entities.push_back(f[0]);
    }
    if (out.entities.empty()) throw Error(ErrorCode::parse, path + ": no entity");
  }
  {
    const std::string path = table(dir, "relations.csv");
    for (const auto &[line, f] : r.records(dir, "relations.csv", true)) {
      if (f.size() != 5) {
        r.bad(path, line, std::to_string(f.size()) + " fields, a relation has 5 (ns,id,isa|partof,ns,id)");
        continue;
      }
      if (f[2] != "isa" && f[2] != "partof") {
        r.bad(path, line, "relation '" + f[2] + "' (isa or partof)");
        continue;
      }
      if (f[0].empty() || f[1].empty() || f[3].empty() || f[4].empty()) {
        r.bad(path, line, "an empty namespace or id");
        continue;
      }
      if ((f[0] == "FPLX" && !known.count(f[1])) || (f[3] == "FPLX" && !known.count(f[4]))) {
        r.bad(path, line, "FPLX:" + (f[0] == "FPLX" && !known.count(f[1]) ? f[1] : f[4]) + " is not in entities.csv");
        continue;
      }
      out.relations.push_back({f[0], f[1], f[2], f[3], f[4]});
    }
  }
  {
    const std::string path = table(dir, "grounding_map.csv");
    for (const auto &[line, f] : r.records(dir, "grounding_map.csv", false)) {
      FamplexGrounding g;
      g.text = f.empty() ? std::string() : f[0];
      for (std::size_t i = 1; i + 1 < f.size(); i += 2)
        if (!f[i].empty() && !f[i + 1].empty()) g.ids.emplace_back(f[i], f[i + 1]);
      if (g.text.empty() || g.ids.empty()) {
        r.bad(path, line, g.text.empty() ? "an empty text" : "'" + g.text + "' is grounded to no namespace and id");
        continue;
      }
      if (g.ids[0].first == "FPLX" && !known.count(g.ids[0].second)) {
        r.bad(path, line, "FPLX:" + g.ids[0].second + " is not in entities.csv");
        continue;
      }
      out.groundings.push_back(std::move(g));
    }
  }
  {
    const std::string path = table(dir, "equivalences.csv");
    for (const auto &[line, f] : r.records(dir, "equivalences.csv", false)) {
      if (f.size() != 3 || f[0].empty() || f[1].empty() || f[2].empty()) {
        r.bad(path, line, "an equivalence has 3 fields (namespace,id,FamPlex id)");
        continue;
      }
      if (!known.count(f[2])) {
        r.bad(path, line, "FPLX:" + f[2] + " is not in entities.csv");
        continue;
      }
      out.equivalences.push_back({f[0], f[1], f[2]});
    }
  }
  {
    const std::string path = table(dir, "descriptions.csv");
    for (const auto &[line, f] : r.records(dir, "descriptions.csv", false)) {
      if (f.size() != 3 || f[0].empty()) {
        r.bad(path, line, "a description has 3 fields (FamPlex id,source,text)");
        continue;
      }
      if (known.count(f[0]) && !f[2].empty()) out.descriptions.emplace(f[0], f[2]);
    }
  }
  out.sha256 = sha256_hex(r.digests);
  return out;
}

}  // namespace grappi::detail
