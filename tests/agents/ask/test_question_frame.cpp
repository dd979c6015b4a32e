// The question frame's cue table (src/agents/ask/question_frame.cpp), tested as data: each cue put into a question
// that is otherwise plain sets the part of the frame it names, on the yeast network.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "agents/ask/question_impl.hpp"
#include "grappi/grappi.hpp"

namespace {

struct Yeast {
  std::unique_ptr<grappi::KnowledgeGraph> kg;
  std::unique_ptr<grappi::QuestionAnalyzer> analyzer;
  Yeast() {
    grappi::OpenOptions o;
    o.snapshot_cache = false;
    kg = std::make_unique<grappi::KnowledgeGraph>(":memory:", o);
    const std::string data = GRAPPI_DATA_DIR;
    kg->import({{data + "/4932.protein.info.v12.0.txt.gz"}, {data + "/4932.protein.physical.links.v12.0.txt.gz"}});
    analyzer = std::make_unique<grappi::QuestionAnalyzer>(*kg);
  }
};

Yeast &yeast() {
  static Yeast y;
  return y;
}

}  // namespace

// The frame's cues, as data: each cue of the table, put into a question that is otherwise plain, sets its part.
TEST_CASE("Each cue of the question frame's table sets its part in a plain question") {
  Yeast &y = yeast();
  std::size_t checked = 0;
  for (const grappi::detail::FrameCue &c : grappi::detail::frame_cues()) {
    std::string cue = c.words;
    if (cue.back() == '*') cue.pop_back();
    const std::string part = c.part, value = c.value;
    std::string q;
    if (part == "form" && value == "count") q = (std::string(c.where) == "start" ? "" : "Tell me ") + cue + " proteins interact with CDC28?";
    else if (part == "form" && value == "yes_no") q = cue + " CDC28 interact with CLN2?";
    else if (part == "form" && value == "path") {
      if (cue.find('@') != std::string::npos) q = cue.replace(cue.find('@'), 1, "CDC28") + " CLN2?";
      else q = "Which " + cue + " joins CDC28 and CLN2?";
    } else if (part == "confidence") q = "Which proteins interact with CDC28 with " + cue + "?";
    else if (part == "channel") q = "Which proteins interact " + cue + " with CDC28?";
    else continue;
    INFO(q);
    const grappi::QuestionFrame f = y.analyzer->analyze(q).frame;
    if (part == "form") CHECK(f.form == value);
    if (part == "confidence") CHECK(f.min_score == doctest::Approx(std::stod(value)));
    if (part == "channel") CHECK(std::find(f.channels.begin(), f.channels.end(), value) != f.channels.end());
    ++checked;
  }
  CHECK(checked > 50);
}

