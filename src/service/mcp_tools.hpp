// The MCP server's tools (grappi/mcp.hpp): each a table of parameters, from which both its input
// JSON Schema and the check of a call's arguments are made, the schema of its output
// (docs/schemas/, embedded at build time) and a function over the library.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/knowledge_graph.hpp"
#include "grappi/llm.hpp"
#include "grappi/mcp.hpp"
#include "grappi/run_control.hpp"

namespace grappi::detail::mcp {

/// One argument of a tool: its JSON type ("string", "integer", "number", "boolean", "strings":
/// an array of strings, "integers": an array of whole numbers), bounds and default.
struct Param {
  std::string name, type, description;
  bool required = false;
  double lo = 0, hi = 0;          ///< numbers: the range; strings: lo..hi bytes; arrays: at most hi items
  nlohmann::json fallback;        ///< the default (null: none)
  std::vector<std::string> choices;  ///< strings: the values allowed (empty: any)
};

/// A call's arguments, checked against the tool's parameters (Error(invalid_argument) naming the
/// argument otherwise; unknown arguments are refused).
class Args {
 public:
  Args(const nlohmann::json &arguments, const std::vector<Param> &params, const std::string &tool);
  std::string text(const std::string &name) const;
  double number(const std::string &name) const;
  std::size_t count(const std::string &name) const;
  bool flag(const std::string &name) const;
  std::vector<std::string> texts(const std::string &name) const;
  std::vector<std::size_t> counts(const std::string &name) const;
  bool has(const std::string &name) const;

 private:
  const nlohmann::json &value(const std::string &name) const;
  nlohmann::json values_;  // every parameter: given or its default
};

/// What a tool call can use: the graph, the model, the server's options, and the run control the
/// server made for the call (cancellation and progress).
struct Context {
  KnowledgeGraph &graph;
  std::shared_ptr<LanguageModel> model;
  const McpOptions &options;
  RunControl run;
};

/// A tool's answer: the structured content (its schema's JSON) and one line saying what it holds.
struct Output {
  nlohmann::json structured;
  std::string summary;
};

struct Tool {
  std::string name, title, description;
  std::vector<Param> params;
  std::string schema;  ///< the output's schema (docs/schemas/NAME)
  std::string wrap;    ///< not empty: the schema is of one item, the output {wrap: [items]}
  std::function<Output(const Args &, Context &)> run;
};

/// Every tool, in the order tools/list gives them.
const std::vector<Tool> &tools();
/// A tool by name, or nullptr.
const Tool *find_tool(std::string_view name);
/// The tool's entry in tools/list: name, title, description, inputSchema, outputSchema, annotations.
nlohmann::json describe(const Tool &tool);
/// An embedded schema of docs/schemas/ by file name (empty when there is none).
std::string_view schema_text(std::string_view file);
/// The file names of the embedded schemas.
const std::vector<std::string> &schema_files();

}  // namespace grappi::detail::mcp
