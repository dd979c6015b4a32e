// Question sets for evaluate_qa (grappi/answer.hpp): JSON lines, and the KG-RAG benchmark's CSV
// files (multiple choice: correct_node, options_combined, text; true/false: text, label).
#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "grappi/answer.hpp"
#include "grappi/error.hpp"
#include "common/json_lines.hpp"
#include "formats/csv.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

namespace {

using nlohmann::json;

using detail::csv_records;

std::vector<std::string> string_list(const json &o, const char *key, const std::string &where) {
  std::vector<std::string> out;
  if (!o.contains(key) || o[key].is_null()) return out;
  const json &v = o[key];
  if (v.is_string()) return {v.get<std::string>()};
  if (!v.is_array()) throw Error(ErrorCode::parse, where + ": \"" + key + "\" must be a list of strings");
  for (const json &x : v) {
    if (x.is_string()) out.push_back(x.get<std::string>());
    else if (x.is_number_integer()) out.push_back(dump_json(x));
    else if (x.is_boolean()) out.push_back(x.get<bool>() ? "true" : "false");
    else throw Error(ErrorCode::parse, where + ": \"" + key + "\" must be a list of strings");
  }
  return out;
}

std::vector<QaQuestion> parse_jsonl(std::string_view s, const std::string &name) {
  std::vector<QaQuestion> out;
  detail::for_each_json_line(s, name, "a JSON object {question, answers, ...}", [&](const json &o, const std::string &where) {
    QaQuestion q;
    q.question = o.contains("question") && o["question"].is_string() ? o["question"].get<std::string>() : std::string();
    if (detail::trim_copy(q.question).empty()) throw Error(ErrorCode::parse, where + ": no \"question\" text");
    q.id = o.contains("id") && (o["id"].is_string() || o["id"].is_number_integer())
               ? (o["id"].is_string() ? o["id"].get<std::string>() : dump_json(o["id"]))
               : where.substr(where.rfind(':') + 1);  // (its line)
    q.answers = string_list(o, "answers", where);
    q.options = string_list(o, "options", where);
    if (o.contains("reference") && o["reference"].is_string()) q.reference = o["reference"].get<std::string>();
    q.entities = string_list(o, "entities", where);
    if (o.contains("intent") && !o["intent"].is_null()) {
      if (!o["intent"].is_string()) throw Error(ErrorCode::parse, where + ": \"intent\" must be a string");
      q.intent = o["intent"].get<std::string>();
      const auto &known = question_intents();
      if (std::find(known.begin(), known.end(), q.intent) == known.end())
        throw Error(ErrorCode::parse, where + ": \"intent\" is one of partners, connects, paths, class, open, not '" + q.intent + "'");
    }
    if (o.contains("kind") && o["kind"].is_string()) q.kind = o["kind"].get<std::string>();
    else if (!q.options.empty()) q.kind = "choice";
    if (q.kind != "entities" && q.kind != "choice" && q.kind != "true_false" && q.kind != "count" && q.kind != "unsupported")
      throw Error(ErrorCode::parse, where + ": \"kind\" is entities, choice, true_false, count or unsupported, not '" + q.kind + "'");
    if (o.contains("form") && !o["form"].is_null()) {
      if (!o["form"].is_string()) throw Error(ErrorCode::parse, where + ": \"form\" must be a string");
      q.form = o["form"].get<std::string>();
      if (q.form != "list" && q.form != "yes_no" && q.form != "count" && q.form != "path" && q.form != "unsupported")
        throw Error(ErrorCode::parse, where + ": \"form\" is list, yes_no, count, path or unsupported, not '" + q.form + "'");
    }
    if (q.kind == "count") {
      // (digits only, as the answer's value is written: " 3", "+3" or "03" would never match it)
      const auto digits = [](const std::string &x) {
        return !x.empty() && x.size() <= 15 && (x == "0" || x[0] != '0') &&
               std::all_of(x.begin(), x.end(), [](char c) { return c >= '0' && c <= '9'; });
      };
      if (q.answers.size() != 1 || !digits(q.answers[0]))
        throw Error(ErrorCode::parse, where + ": a count question has one answer, a whole number written in digits");
    }
    if (q.kind == "choice" && (q.options.empty() || q.answers.size() != 1))
      throw Error(ErrorCode::parse, where + ": a choice question has \"options\" and one answer");
    if (q.kind == "true_false") {
      if (q.answers.size() != 1) throw Error(ErrorCode::parse, where + ": a true_false question has one answer, true or false");
      q.answers[0] = detail::lower_copy(q.answers[0]);
      if (q.answers[0] != "true" && q.answers[0] != "false")
        throw Error(ErrorCode::parse, where + ": a true_false answer is true or false, not '" + q.answers[0] + "'");
    }
    if (q.answers.empty() && q.reference.empty() && q.kind != "unsupported")
      throw Error(ErrorCode::parse, where + ": a question needs \"answers\" or a \"reference\" answer");
    if (q.form.empty())
      q.form = q.kind == "true_false" ? "yes_no" : q.kind == "count" || q.kind == "unsupported" ? q.kind : "list";
    out.push_back(std::move(q));
  });
  return out;
}

std::vector<QaQuestion> parse_csv(std::string_view s, const std::string &name) {
  const auto records = csv_records(s, name);
  if (records.empty()) throw Error(ErrorCode::parse, name + ": no header");
  const std::vector<std::string> &head = records[0].second;
  const auto column = [&](const char *c) -> std::size_t {
    const auto it = std::find(head.begin(), head.end(), c);
    return it == head.end() ? std::string::npos : static_cast<std::size_t>(it - head.begin());
  };
  const std::size_t text = column("text"), correct = column("correct_node"), options = column("options_combined"),
                    label = column("label");
  const bool choice = correct != std::string::npos && options != std::string::npos;
  if (text == std::string::npos || (!choice && label == std::string::npos))
    throw Error(ErrorCode::parse, name + ":1: not a KG-RAG question file (columns text and correct_node, "
                                         "options_combined, or text and label)");
  std::vector<QaQuestion> out;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const auto &[line, f] = records[r];
    const std::string where = name + ":" + std::to_string(line);
    if (f.size() != head.size())
      throw Error(ErrorCode::parse, where + ": " + std::to_string(f.size()) + " fields, the header has " + std::to_string(head.size()));
    QaQuestion q;
    q.id = std::to_string(r);
    q.question = f[text];
    if (detail::trim_copy(q.question).empty()) throw Error(ErrorCode::parse, where + ": an empty question");
    if (choice) {
      q.kind = "choice";
      q.answers = {detail::trim_copy(f[correct])};
      for (std::string_view o : detail::split_view(f[options], ','))
        if (const std::string t = detail::trim_copy(o); !t.empty()) q.options.push_back(t);
      if (q.answers[0].empty() || q.options.empty()) throw Error(ErrorCode::parse, where + ": no answer or no options");
    } else {
      q.kind = "true_false";
      const std::string l = detail::lower_copy(detail::trim_copy(f[label]));
      if (l != "true" && l != "false") throw Error(ErrorCode::parse, where + ": the label is True or False, not '" + f[label] + "'");
      q.answers = {l};
    }
    q.form = q.kind == "true_false" ? "yes_no" : "list";
    out.push_back(std::move(q));
  }
  if (out.empty()) throw Error(ErrorCode::parse, name + ": no questions");
  return out;
}

}  // namespace

std::vector<QaQuestion> parse_qa_questions(std::string_view s, const std::string &name) {
  const std::string_view body = s.substr(s.substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0);
  std::size_t i = 0;
  while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i]))) ++i;
  if (i == body.size()) throw Error(ErrorCode::parse, name + ": no questions");
  return body[i] == '{' ? parse_jsonl(body, name) : parse_csv(body, name);
}

std::vector<QaQuestion> read_qa_questions(const std::string &path) {
  const detail::WholeFile file = detail::read_whole_file(path);
  return parse_qa_questions(file.text, path);
}

}  // namespace grappi
