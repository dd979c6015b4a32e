// Self-contained HTML pages: a report view (report_views.cpp) with the embedded web assets
// (html_assets.cpp, generated from web/ at build time).
#include "grappi/html_report.hpp"

#include <algorithm>
#include <sstream>

#include "grappi/error.hpp"
#include "grappi/json_text.hpp"
#include "grappi/version.h"
#include "common/text_util.hpp"

namespace grappi {

namespace detail {
std::string_view html_asset(std::string_view name);  // html_assets.cpp (generated)
}  // namespace detail

namespace {

using detail::markup_text;
using nlohmann::json;

std::string text_of(const json &j, const char *key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (it->is_string()) return it->get<std::string>();
  return dump_json(*it);
}

/// A string field, or `fallback` when absent or not a string.
std::string string_or(const json &j, const char *key, const std::string &fallback) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

/// The digits of the scores (0-6; 3 when absent or not a whole number).
int digits_of(const json &view) {
  const auto it = view.find("score_digits");
  if (it == view.end() || !it->is_number_integer()) return 3;
  return static_cast<int>(std::clamp<int64_t>(it->get<int64_t>(), 0, 6));
}

// cytoscape.js is optional (a build without npm's package draws no network); the page says so.
std::string drawing_script() {
  const std::string_view a = detail::html_asset("cytoscape.js");
  if (!a.empty()) {
    // The fcose layout registers itself with cytoscape.js when it is loaded after it (the two
    // packages it is built on first). (UMD files: one script holds them all.)
    std::string s(a);
    for (const char *name : {"layout-base.js", "cose-base.js", "cytoscape-fcose.js"}) {
      const std::string_view f = detail::html_asset(name);
      if (!f.empty()) s.append("\n;\n").append(f);
    }
    return s;
  }
  return "document.addEventListener('DOMContentLoaded', function () { var r = document.getElementById('report'); "
         "if (r) { var p = document.createElement('p'); p.className = 'hint no-drawing'; p.textContent = 'This grappi "
         "was built without cytoscape.js: the network is not drawn (tools/install-deps.sh installs it).'; "
         "r.parentNode.insertBefore(p, r); } });";
}

std::string asset(std::string_view name) {
  const std::string_view a = detail::html_asset(name);
  if (a.empty()) throw Error(ErrorCode::internal, "html report: the web asset " + std::string(name) + " is missing from the build");
  return std::string(a);
}

/// A script's or style's text made safe inside its element: no "</script" or "</style" (any
/// case) can end it early (in JavaScript strings and regular expressions "<\/" means "</").
std::string script_text(std::string s) {
  for (std::size_t at = 0; (at = s.find("</", at)) != std::string::npos; at += 2) {
    const std::string next = detail::lower_copy(std::string_view(s).substr(at + 2, 6));
    if (next == "script" || next.compare(0, 5, "style") == 0) s.replace(at, 2, "<\\/");
  }
  return s;
}

/// JSON inside <script type="application/json">: '<' escaped as \u003c (only strings hold it).
std::string script_json(const json &j) {
  const std::string text = dump_json(j);
  std::string out;
  out.reserve(text.size() + 64);
  for (const char c : text) {
    if (c == '<') out += "\\u003c";
    else out += c;
  }
  return out;
}

std::string score_text(const json &item, int digits) {
  const auto it = item.find("score");
  if (it == item.end() || !it->is_number()) return {};
  return detail::fixed(it->get<double>(), digits);
}

void write_sections(std::ostream &o, const json &view) {
  const auto it = view.find("sections");
  if (it == view.end() || !it->is_array()) return;
  for (const auto &s : *it) {
    if (!s.is_object()) continue;
    o << "<section class=\"page-section report-section\"><h2>" << markup_text(text_of(s, "title")) << "</h2>\n";
    const std::string intro = text_of(s, "text");
    if (!intro.empty()) o << "<p>" << markup_text(intro) << "</p>\n";
    const auto entries = s.find("entries");
    if (entries != s.end() && entries->is_array()) {
      o << "<ul class=\"entries\">\n";
      for (const auto &e : *entries) {
        const std::string status = e.is_object() ? text_of(e, "status") : std::string();
        o << "<li" << (status.empty() ? "" : " class=\"status-" + markup_text(status) + "\"") << ">"
          << markup_text(e.is_object() ? text_of(e, "text") : e.is_string() ? e.get<std::string>() : dump_json(e));
        if (!status.empty()) o << " <span class=\"status\">[" << markup_text(status) << "]</span>";
        const std::string note = e.is_object() ? text_of(e, "note") : std::string();
        if (!note.empty()) o << "<br><small>" << markup_text(note) << "</small>";
        o << "</li>\n";
      }
      o << "</ul>\n";
    }
    o << "</section>\n";
  }
}

void write_table(std::ostream &o, const json &view) {
  const json &items = view["items"];
  const int digits = digits_of(view);
  const std::string label = string_or(view, "items_label", "Ranked items");
  o << "<section class=\"page-section static\"><h2>" << markup_text(label) << " (table)</h2>\n";
  if (items.empty()) {
    o << "<p>" << markup_text(string_or(view, "empty_text", "Nothing ranked.")) << "</p></section>\n";
    return;
  }
  o << "<table class=\"ranked\"><thead><tr><th>rank</th><th>" << markup_text(string_or(view, "score_label", "score"))
    << "</th><th>item</th><th>explanation</th></tr></thead><tbody>\n";
  for (const auto &it : items) {
    if (!it.is_object()) continue;
    const std::string status = text_of(it, "status");
    std::string text = text_of(it, "brief");  // (the informative part, when the view gives one)
    if (text.empty()) text = text_of(it, "text");
    if (text.empty() && !status.empty() && status != "ok") text = status + (it.contains("error") ? ": " + text_of(it, "error") : "");
    const auto rank = it.find("rank");
    o << "<tr><td class=\"num\">" << (rank != it.end() && rank->is_number() && rank->get<double>() > 0 ? dump_json(*rank) : "")
      << "</td><td class=\"num\">" << score_text(it, digits) << "</td><td>" << markup_text(text_of(it, "title")) << "</td><td>"
      << markup_text(text) << "</td></tr>\n";
  }
  o << "</tbody></table></section>\n";
}

void check_view(const json &view) {
  if (!view.is_object()) throw Error(ErrorCode::invalid_argument, "html report: the view is not a JSON object");
  for (const char *key : {"nodes", "edges", "items"})
    if (!view.contains(key) || !view[key].is_array())
      throw Error(ErrorCode::invalid_argument, std::string("html report: the view has no array \"") + key + "\"");
}

}  // namespace

std::string html_report(std::string_view view_json) {
  json view;
  try {
    view = json::parse(view_json);
  } catch (const json::exception &e) {
    throw Error(ErrorCode::invalid_argument, std::string("html report: the view is not JSON: ") + e.what());
  }
  check_view(view);
  const std::string title = string_or(view, "title", "grappi report");
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       "<meta name=\"generator\" content=\"grappi " GRAPPI_VERSION_STRING "\">\n<title>"
    << markup_text(title) << "</title>\n<style>\n" << script_text(asset("report.css")) << "</style>\n</head>\n<body>\n";
  o << "<header class=\"page\"><h1>" << markup_text(title) << "</h1>\n";
  const std::string subtitle = text_of(view, "subtitle");
  if (!subtitle.empty()) o << "<p class=\"subtitle\">" << markup_text(subtitle) << "</p>\n";
  const std::string offline = text_of(view, "offline_note");
  if (!offline.empty()) o << "<p class=\"offline-note\">" << markup_text(offline) << "</p>\n";
  const auto notes = view.find("notes");
  if (notes != view.end() && notes->is_array() && !notes->empty()) {
    o << "<ul class=\"notes\">\n";
    for (const auto &n : *notes) o << "<li>" << markup_text(n.is_string() ? n.get<std::string>() : dump_json(n)) << "</li>\n";
    o << "</ul>\n";
  }
  o << "</header>\n";
  // The drawing first (above the fold), then the view's sections (an answer, a summary), then the table.
  o << "<noscript><p class=\"page-section\">The drawing and the clickable list need JavaScript; the table below holds the "
       "ranking.</p></noscript>\n<div id=\"report\" class=\"report\"></div>\n";
  write_sections(o, view);
  write_table(o, view);
  const auto provenance = view.find("provenance");
  if (provenance != view.end() && !provenance->is_null())
    o << "<section class=\"page-section\"><details class=\"provenance\" open><summary>Provenance</summary><pre class=\"provenance\">"
      << markup_text(dump_json(*provenance, 2)) << "</pre></details></section>\n";
  o << "<footer class=\"page\">Made by grappi " GRAPPI_VERSION_STRING
    << (detail::html_asset("cytoscape.js").empty()
            ? std::string("; built without cytoscape.js (no drawing).</footer>\n")
            : std::string("; the drawing by cytoscape.js (&copy; The Cytoscape Consortium, MIT licence)") +
                  (detail::html_asset("cytoscape-fcose.js").empty()
                       ? ""
                       : " and cytoscape-fcose, cose-base, layout-base (&copy; iVis-at-Bilkent, MIT licence)") +
                  ", embedded.</footer>\n");
  o << "<script type=\"application/json\" id=\"grappi-view\">" << script_json(view) << "</script>\n";
  o << "<script>\n" << script_text(drawing_script()) << "\n</script>\n";
  o << "<script>\n" << script_text(asset("graph_view.js")) << "\n</script>\n";
  o << "<script>\n" << script_text(asset("report.js")) << "\n</script>\n";
  o << "<script>\nwindow.grappiReport = GrappiReport.render(document.getElementById('report'), "
       "JSON.parse(document.getElementById('grappi-view').textContent));\n</script>\n</body>\n</html>\n";
  return o.str();
}

std::string explorer_page() {
  std::string page = asset("explorer.html");
  const auto put = [&page](const std::string &field, const std::string &text) {
    const auto at = page.find(field);
    if (at != std::string::npos) page.replace(at, field.size(), text);
  };
  put("{{style}}", script_text(asset("report.css")));
  put("{{version}}", GRAPPI_VERSION_STRING);
  put("{{scripts}}", "<script>\n" + script_text(drawing_script()) + "\n</script>\n<script>\n" +
                         script_text(asset("graph_view.js")) + "\n</script>\n<script>\n" + script_text(asset("report.js")) + "\n</script>\n<script>\n" + script_text(asset("explorer.js")) +
                         "\n</script>");
  return page;
}

}  // namespace grappi
