// An argument the command line does not know, said as such with the nearest names it does know
// ("unknown option --protien; did you mean --protein?"), instead of whatever CLI11 found missing
// afterwards ("--protein is required"). Checked whenever parsing fails.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"

namespace grappi::cli {

namespace {

// Levenshtein distance (insertions, deletions, substitutions), and a swap of two neighbouring
// letters counted as one edit ("protien").
std::size_t distance(const std::string &a, const std::string &b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

// The nearest of `known` to `word` (at most three, closest first), when near enough to be a
// slip: at most a third of the word's length in edits, at least two; or a name it begins.
std::vector<std::string> nearest(const std::string &word, const std::vector<std::string> &known) {
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const std::string &k : known) {
    std::size_t dist = distance(word, k);
    if (word.size() >= 3 && k.rfind(word, 0) == 0) dist = std::min<std::size_t>(dist, 1);
    if (dist <= limit) scored.emplace_back(dist, k);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (const auto &s : scored)
    if (out.size() < 3 && std::find(out.begin(), out.end(), s.second) == out.end()) out.push_back(s.second);
  return out;
}

std::string did_you_mean(const std::vector<std::string> &names) {
  if (names.empty()) return "";
  std::string out = "; did you mean ";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? (i + 1 == names.size() ? " or " : ", ") : "") + names[i];
  return out + "?";
}

std::vector<std::string> subcommand_names(const CLI::App &app) {
  std::vector<std::string> out;
  for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; })) out.push_back(sub->get_name());
  return out;
}

// The long and short option names of a command and of the commands above it ("--db", "-h").
std::vector<std::string> option_names(const CLI::App *app) {
  std::vector<std::string> out;
  for (; app; app = app->get_parent())
    for (const CLI::Option *o : app->get_options()) {
      for (const std::string &l : o->get_lnames()) out.push_back("--" + l);
      for (const std::string &s : o->get_snames()) out.push_back("-" + s);
    }
  return out;
}

// Whether an option of the command chain takes a value after it ("--db FILE").
bool takes_value(const CLI::App *app, const std::string &name) {
  for (; app; app = app->get_parent())
    if (const CLI::Option *o = app->get_option_no_throw(name)) return o->get_expected_min() > 0;
  return false;
}

// Whether the command chain declares an option of this name.
bool known_option(const CLI::App *app, const std::string &name) {
  for (; app; app = app->get_parent())
    if (app->get_option_no_throw(name)) return true;
  return false;
}

// Whether a command line word is written as an option: "--name", "--name=value" or "-x", not a
// negative number ("-1", "-0.5") nor "-" (standard input).
bool option_like(const std::string &w) {
  return w.size() >= 2 && w[0] == '-' && (std::isalpha(static_cast<unsigned char>(w[1])) || (w[1] == '-' && w.size() > 2));
}

// "explore: ", "cooc build: " - the commands chosen, before a message; "" at the top.
std::string chain(const CLI::App *app) {
  std::string out;
  for (; app && app->get_parent(); app = app->get_parent()) out = app->get_name() + (out.empty() ? "" : " ") + out;
  return out.empty() ? out : out + ": ";
}

}  // namespace

std::string unknown_argument(const CLI::App &app, int argc, char **argv) {
  // The commands chosen, as far as parsing got.
  const CLI::App *command = &app;
  for (;;) {
    const auto chosen = command->get_subcommands();
    if (chosen.empty()) break;
    command = chosen.front();
  }
  std::vector<std::string> words(argv + 1, argv + argc);
  // A command word where one was required and none was chosen: an unknown command.
  if (command->get_subcommands([](const CLI::App *) { return true; }).size() > 0) {
    std::size_t at = 0;
    for (const CLI::App *c = &app; c != command; c = c->get_subcommands().front())
      while (at < words.size() && words[at] != c->get_subcommands().front()->get_name()) ++at;
    if (command != &app) ++at;
    const std::vector<std::string> commands = subcommand_names(*command);
    for (; at < words.size(); ++at) {
      if (words[at] == "--") break;
      if (option_like(words[at])) {
        // (its value; an option this command does not know may be its command's: "eval --db X qa")
        const std::string &w = words[at];
        if (w.find('=') == std::string::npos &&
            (takes_value(command, w) || (!known_option(command, w) && at + 1 < words.size() && !option_like(words[at + 1]) &&
                                         std::find(commands.begin(), commands.end(), words[at + 1]) == commands.end())))
          ++at;
        continue;
      }
      return chain(command) + "unknown command " + words[at] + did_you_mean(nearest(words[at], commands));
    }
  }
  // An option no command of the chain declares.
  const std::vector<std::string> known = option_names(command);
  for (const std::string &w : words) {
    if (w == "--") break;
    if (!option_like(w)) continue;
    const std::string name = w.substr(0, w.find('='));
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::vector<std::string> longs;
    for (const std::string &k : known)
      if (k.rfind("--", 0) == 0) longs.push_back(k);
    return chain(command) + "unknown option " + name + did_you_mean(nearest(name, name.rfind("--", 0) == 0 ? longs : known));
  }
  return "";
}

}  // namespace grappi::cli
