// Papers as documents: PubTator, BioC XML and BioC JSON of the same BioRED abstracts read to the
// same passages and mentions (checked against an independent reading of the PubTator lines), a
// PubTator Central full text, the BioInfer PPI corpus XML, plain text and Markdown; bad input
// named by file and line.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "grappi/documents.hpp"
#include "grappi/error.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::Document;
using grappi::DocumentFormat;

namespace {

// Every mention as (pmid, document start in characters, end, text, type, id), from the
// PubTator lines themselves.
std::multiset<std::string> pubtator_mentions(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::multiset<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');) f.push_back(c);
    if (f.size() == 6) out.insert(f[0] + "|" + f[1] + "|" + f[2] + "|" + f[3] + "|" + f[4] + "|" + f[5]);
  }
  return out;
}

std::size_t chars(const std::string &s, std::size_t bytes) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < bytes && i < s.size(); ++i) n += (static_cast<unsigned char>(s[i]) & 0xc0) != 0x80;
  return n;
}

// The same mentions as a reader gave them, back in document characters.
std::multiset<std::string> mentions(const std::vector<Document> &docs) {
  std::multiset<std::string> out;
  for (const Document &d : docs)
    for (const auto &p : d.passages)
      for (const auto &a : p.annotations) {
        CHECK(p.text.substr(a.offset, a.length) == a.text);  // the offsets are the mention's
        const std::size_t start = p.offset + chars(p.text, a.offset);
        out.insert(d.pmid + "|" + std::to_string(start) + "|" + std::to_string(start + chars(a.text, a.text.size())) + "|" +
                   a.text + "|" + a.type + "|" + a.id);
      }
  return out;
}

void expect_parse_error(const std::string &content, DocumentFormat f, const std::string &where) {
  INFO(content.substr(0, 80));
  CHECK_THROWS_WITH_AS(grappi::parse_documents(content, f, "bad"), doctest::Contains(where.c_str()), grappi::Error);
}

}  // namespace

TEST_CASE("Files that are not papers are refused by the detection naming what they look like") {
  using grappi::DocumentFormat;
  const auto refused = [](const std::string &content, const std::string &what) {
    CAPTURE(content);
    const std::string expected = "in.txt: this looks like " + what + ", not papers";
    CHECK_THROWS_WITH_AS(grappi::parse_documents(content, DocumentFormat::detect, "in.txt"),
                         doctest::Contains(expected.c_str()), grappi::Error);
    // Asked for as text, it is read as text.
    CHECK(grappi::parse_documents(content, DocumentFormat::text, "in.txt").size() == 1);
  };
  refused("protein1 protein2 combined_score\n4932.YAL001C 4932.YBR160W 900\n", "a STRING links file");
  refused("#string_protein_id\tpreferred_name\tprotein_size\tannotation\n4932.A\tA\t10\tx\n",
          "a STRING info or aliases file");
  refused("#ID(s) interactor A\tID(s) interactor B\tAlt. ID(s) interactor A\nuniprotkb:P1\tuniprotkb:P2\t-\n",
          "a PSI-MITAB file");
  refused("format-version: 1.2\nontology: mi\n", "an OBO ontology");
  std::string table = "symbol\tname\tgo\n";
  for (int i = 0; i < 6; ++i) table += "G" + std::to_string(i) + "\tgene " + std::to_string(i) + "\tGO:000" + std::to_string(i) + "\n";
  refused(table, "a table of 3 tab-separated columns");
  // Papers stay papers: prose, a title and paragraphs, a table inside a Markdown paper.
  CHECK(grappi::parse_documents("# Title\n\nCDC28 binds CLN2.\n\na\tb\tc\nd\te\tf\n", DocumentFormat::detect, "p.md").size() == 1);
  CHECK(grappi::parse_documents("CDC28 binds CLN2 in yeast.\n", DocumentFormat::detect, "p.txt").size() == 1);
}

TEST_CASE("BioRED abstracts read the same from PubTator and BioC XML and JSON") {
  const auto expected = pubtator_mentions(lit("BioRED.Test.first3.PubTator"));
  REQUIRE(expected.size() > 50);
  for (const std::string file : {"BioRED.Test.first3.PubTator", "BioRED.Test.first3.BioC.xml", "BioRED.Test.first3.BioC.json"}) {
    INFO(file);
    const auto docs = grappi::read_documents(lit(file));
    REQUIRE(docs.size() == 3);
    CHECK(docs[0].pmid == "15485686");
    REQUIRE(docs[0].passages.size() == 2);
    // (BioRED's BioC JSON gives its passages no type.)
    const bool typed = file.find("json") == std::string::npos;
    CHECK(docs[0].passages[0].type == (typed ? "title" : ""));
    CHECK(docs[0].passages[1].type == (typed ? "abstract" : ""));
    CHECK(docs[0].passages[0].text.rfind("A novel SCN5A mutation", 0) == 0);
    CHECK(docs[0].passages[1].offset == 122);
    CHECK(docs[0].text().find("\n\nOBJECTIVE: Congenital long QT") != std::string::npos);
    CHECK(mentions(docs) == expected);
  }
  // Forced formats, and the names of the formats.
  CHECK(grappi::read_documents(lit("BioRED.Test.first3.PubTator"), DocumentFormat::pubtator).size() == 3);
  CHECK(grappi::document_format("bioc-json") == DocumentFormat::bioc_json);
  CHECK_THROWS_AS(grappi::document_format("xml"), grappi::Error);
}

TEST_CASE("JSON lines documents read like the PubTator file they were written from") {
  // Each PubTator document written as one JSON line, its mentions as concepts with offsets.
  std::ifstream in(lit("BioRED.Test.first3.PubTator"), std::ios::binary);
  REQUIRE(in);
  std::map<std::string, nlohmann::json> by_pmid;
  std::vector<std::string> order;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto bar = line.find('|');
    if (bar != std::string::npos && line.find('\t') == std::string::npos) {
      const std::string pmid = line.substr(0, bar);
      if (!by_pmid.count(pmid)) order.push_back(pmid), by_pmid[pmid] = {{"pmid", std::stoll(pmid)}, {"year", 2004}};
      by_pmid[pmid][line[bar + 1] == 't' ? "title" : "text"] = line.substr(bar + 3);
      continue;
    }
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');) f.push_back(c);
    if (f.size() != 6) continue;
    by_pmid[f[0]]["concepts"].push_back({{"id", f[5]}, {"type", f[4]}, {"text", f[3]}, {"offset", std::stoul(f[1])},
                                         {"length", std::stoul(f[2]) - std::stoul(f[1])}});
  }
  std::string jsonl;
  for (const std::string &p : order) jsonl += by_pmid[p].dump() + "\n";
  const auto docs = grappi::parse_documents(jsonl, DocumentFormat::detect, "corpus.jsonl");
  REQUIRE(docs.size() == 3);
  CHECK(docs[0].pmid == "15485686");
  CHECK(docs[0].year == "2004");
  CHECK(docs[0].passages[1].offset == 122);
  CHECK(mentions(docs) == pubtator_mentions(lit("BioRED.Test.first3.PubTator")));
  CHECK(grappi::document_format("jsonl") == DocumentFormat::jsonl);

  // Concepts without offsets: placed where their text is written (whole words, any case), else
  // a mention of the document without a place.
  const auto loose = grappi::parse_documents(
      R"({"pmid": "1", "title": "TP53 and MDM2", "text": "Mdm2 binds p53; MDM2s is no word match.", )"
      R"("concepts": [{"id": "4193", "type": "Gene", "name": "mdm2"}, "MESH:D009369", {"id": "7157", "text": "absent"}]})",
      DocumentFormat::jsonl, "loose");
  REQUIRE(loose.size() == 1);
  std::vector<std::string> placed;
  for (const auto &p : loose[0].passages)
    for (const auto &a : p.annotations) placed.push_back(p.type + ":" + std::to_string(a.offset) + "+" + std::to_string(a.length) + ":" + a.text + ":" + a.id);
  CHECK(placed == std::vector<std::string>{"title:0+0:MESH:D009369:MESH:D009369", "title:0+0:absent:7157",
                                           "title:9+4:MDM2:4193", "abstract:0+4:Mdm2:4193"});
}

TEST_CASE("The whole BioRED test split reads alike in its three formats (when ../shared has it)") {
  const std::string dir = std::string(GRAPPI_DATA_DIR) + "/../../shared/data/literature/pubtator/BioRED/";
  if (!std::ifstream(dir + "Test.PubTator")) {
    MESSAGE("../shared/data/literature/pubtator/BioRED not present: skipped");
    return;
  }
  const auto expected = pubtator_mentions(dir + "Test.PubTator");
  CHECK(expected.size() == 3535);
  for (const std::string file : {"Test.PubTator", "Test.BioC.XML", "Test.BioC.JSON"}) {
    INFO(file);
    const auto docs = grappi::read_documents(dir + file);
    CHECK(docs.size() == 100);
    std::size_t passages = 0;
    for (const auto &d : docs) passages += d.passages.size();
    CHECK(passages == 200);
    CHECK(mentions(docs) == expected);
  }
}

TEST_CASE("A PubTator Central full text keeps its sections ids and year") {
  const auto docs = grappi::read_documents(lit("PTC.PMC4272812.BioC.xml"));
  REQUIRE(docs.size() == 1);
  const Document &d = docs[0];
  CHECK(d.id == "4272812");
  CHECK(d.pmid == "25497491");
  CHECK(d.pmcid == "4272812");
  CHECK(d.doi == "10.1186/s40478-014-0176-9");
  CHECK(d.year == "2014");
  // Independent counts from the raw file.
  const std::string raw = read_file(lit("PTC.PMC4272812.BioC.xml"));
  std::size_t passages = 0, annotations = 0;
  for (std::size_t at = raw.find("<passage>"); at != std::string::npos; at = raw.find("<passage>", at + 1)) ++passages;
  for (std::size_t at = raw.find("<annotation "); at != std::string::npos; at = raw.find("<annotation ", at + 1)) ++annotations;
  CHECK(d.passages.size() == passages);
  std::size_t seen = 0;
  std::set<std::string> sections;
  for (const auto &p : d.passages) {
    seen += p.annotations.size();
    sections.insert(p.type);
    for (const auto &a : p.annotations) CHECK(p.text.substr(a.offset, a.length) == a.text);
  }
  CHECK(seen == annotations);
  CHECK(sections.count("TITLE"));
  CHECK(sections.count("ABSTRACT"));
  CHECK(sections.count("REF"));
  CHECK(d.passages[0].text == "Models of alpha-synuclein aggregation in Parkinson's disease");
}

TEST_CASE("The BioInfer PPI corpus XML gives sentences with entities and interacting pairs") {
  const auto docs = grappi::read_documents(lit("BioInfer-test.first6.xml"));
  REQUIRE(docs.size() == 6);
  CHECK(docs[0].id == "BioInfer.d13");
  CHECK(docs[0].pmid == "9234509");
  const std::string raw = read_file(lit("BioInfer-test.first6.xml"));
  std::size_t sentences = 0, entities = 0, interactions = 0;
  for (std::size_t at = raw.find("<sentence "); at != std::string::npos; at = raw.find("<sentence ", at + 1)) ++sentences;
  for (std::size_t at = raw.find("<entity "); at != std::string::npos; at = raw.find("<entity ", at + 1)) ++entities;
  for (std::size_t at = raw.find("<interaction "); at != std::string::npos; at = raw.find("<interaction ", at + 1)) ++interactions;
  std::size_t s = 0, e = 0, pairs = 0;
  for (const auto &d : docs) {
    s += d.passages.size();
    pairs += d.pairs.size();
    for (const auto &p : d.passages) {
      CHECK(p.type == "sentence");
      e += p.annotations.size();
      for (const auto &a : p.annotations) CHECK(p.text.substr(a.offset, a.length) == a.text);
    }
    for (const auto &pr : d.pairs) {
      REQUIRE(pr.passage < d.passages.size());
      CHECK(pr.a < d.passages[pr.passage].annotations.size());
      CHECK(pr.b < d.passages[pr.passage].annotations.size());
    }
  }
  CHECK(s == sentences);
  CHECK(e == entities);
  CHECK(pairs == interactions);
  // The first pair of the first sentence: ActA and profilin.
  const auto &p0 = docs[0].passages[0];
  REQUIRE_FALSE(docs[0].pairs.empty());
  CHECK(p0.annotations[docs[0].pairs[0].a].text == "ActA");
  CHECK(p0.annotations[docs[0].pairs[0].b].text == "profilin");
}

TEST_CASE("Plain text and Markdown become paragraphs without the reference sections") {
  const std::string md =
      "# Cdc28 phosphorylates Sic1\r\n\r\nWe show that Cdc28\r\nphosphorylates Sic1.\r\n\r\n## Methods\n\nTwo-hybrid assays.\n\n"
      "## References\n\n1. Someone et al. 2001.\n\n### Older\n\n2. Another.\n\n## Discussion\n\nSic1 is degraded.\n";
  const auto docs = grappi::parse_documents(md, DocumentFormat::detect, "papers/PMID12345678.md");
  REQUIRE(docs.size() == 1);
  const Document &d = docs[0];
  CHECK(d.pmid == "12345678");
  std::vector<std::string> texts;
  for (const auto &p : d.passages) texts.push_back(p.type + ":" + p.text);
  CHECK(texts == std::vector<std::string>{"heading:Cdc28 phosphorylates Sic1", "paragraph:We show that Cdc28\r\nphosphorylates Sic1.",
                                          "heading:Methods", "paragraph:Two-hybrid assays.", "heading:Discussion",
                                          "paragraph:Sic1 is degraded."});
  CHECK(md.substr(d.passages[1].offset, 11) == "We show tha");
  CHECK(grappi::parse_documents("plain words", DocumentFormat::detect, "9234509.txt")[0].pmid == "9234509");
  CHECK(grappi::parse_documents("plain words", DocumentFormat::detect, "notes.txt")[0].pmid.empty());
  // Never a number that only begins the name (a STRING file is no paper), nor one without a mark.
  CHECK(grappi::parse_documents("plain words", DocumentFormat::detect, "4932.protein.info.v12.0.txt")[0].pmid.empty());
  CHECK(grappi::parse_documents("plain words", DocumentFormat::detect, "dir/run12345.txt")[0].pmid.empty());
  CHECK(grappi::parse_documents("plain words", DocumentFormat::detect, "a/BioInfer.d403.PMID11418599.txt")[0].pmid == "11418599");
  CHECK(grappi::parse_documents("plain words", DocumentFormat::detect, "pmid_8076212.md")[0].pmid == "8076212");
  CHECK(grappi::parse_documents("plain words", DocumentFormat::detect, "9234509.txt.gz")[0].pmid == "9234509");
}

TEST_CASE("Bad documents are named by file and line") {
  // XML: truncated, wrong root, a mention outside its passage, a location that is no number.
  expect_parse_error("<?xml version='1.0'?>\n<collection><document><id>1</id>\n<passage><text>abc", DocumentFormat::detect,
                     "bad:3: not well-formed XML");
  expect_parse_error("<?xml version='1.0'?><other/>", DocumentFormat::bioc_xml, "has a <collection> root, found <other>");
  expect_parse_error("<collection><document><id>1</id><passage><offset>0</offset><text>abc</text>\n<annotation id=\"1\">"
                     "<location offset=\"2\" length=\"9\"/><text>zz</text></annotation></passage></document></collection>",
                     DocumentFormat::bioc_xml, "bad:2: the annotation 'zz' lies outside its passage");
  expect_parse_error("<collection><document><passage><offset>x</offset></passage></document></collection>",
                     DocumentFormat::bioc_xml, "a passage <offset> is not a number");
  expect_parse_error("<corpus><document id=\"d\"><sentence text=\"abc\"><entity id=\"e\" charOffset=\"7\" text=\"a\"/>"
                     "</sentence></document></corpus>",
                     DocumentFormat::detect, "charOffset is not 'start-end'");
  expect_parse_error("<corpus><document id=\"d\"><sentence text=\"abc\"><entity id=\"e\" charOffset=\"0-1\" text=\"a\"/>"
                     "<interaction e1=\"e\" e2=\"x\"/></sentence></document></corpus>",
                     DocumentFormat::ppi_xml, "an interaction names an entity the sentence does not have");
  // Entities the file declares are refused, external (never fetched) or internal (one 1 KB
  // entity used 300 times would be 300 KB of text; larger ones, gigabytes).
  expect_parse_error("<?xml version='1.0'?><!DOCTYPE c [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><collection><document>"
                     "<id>1</id><passage><offset>0</offset><text>a&x;b</text></passage></document></collection>",
                     DocumentFormat::bioc_xml, "declares the entity 'x'");
  std::string bomb = "<?xml version='1.0'?>\n<!DOCTYPE collection [\n<!ENTITY big \"" + std::string(1000, 'A') +
                     "\">\n]>\n<collection><document><id>1</id><passage><offset>0</offset><text>";
  for (int i = 0; i < 300; ++i) bomb += "&big;";
  bomb += "</text></passage></document></collection>";
  expect_parse_error(bomb, DocumentFormat::detect, "bad: the document declares the entity 'big'");
  // XML's own entities and character references are read.
  const auto own = grappi::parse_documents(
      "<collection><document><id>1</id><passage><offset>0</offset><text>a &amp; b &#946;</text></passage></document>"
      "</collection>",
      DocumentFormat::bioc_xml, "own");
  REQUIRE(own.size() == 1);
  CHECK(own[0].passages[0].text == "a & b \xce\xb2");
  // PubTator: a bad line, an annotation of another document, one past the text.
  expect_parse_error("123|t|Title\n123|a|Abstract\nnot a pubtator line\n", DocumentFormat::pubtator, "bad:3: expected 'PMID|t|title'");
  expect_parse_error("123|t|Title\n456\t0\t5\tTitle\tGene\t1\n", DocumentFormat::pubtator,
                     "bad:2: an annotation of PubMed id 456 outside that document's lines");
  expect_parse_error("123|t|Title\n123\t3\t90\tle\tGene\t1\n", DocumentFormat::pubtator, "bad:2: the annotation 3-90 lies outside");
  expect_parse_error("abc|t|Title\n", DocumentFormat::pubtator, "bad:1: a PubTator text line starts with a PubMed id");
  // JSON: malformed, not a collection, an annotation without a location.
  expect_parse_error("{\"documents\": [\n{\"id\": 1,", DocumentFormat::detect, "bad:2: not valid JSON");
  expect_parse_error("{\"docs\": []}", DocumentFormat::bioc_json, "an object with a \"documents\" array");
  expect_parse_error("{\"documents\": " + std::string(100000, '[') + std::string(100000, ']') + "}", DocumentFormat::bioc_json,
                     "bad: JSON nested deeper than 128 levels");
  expect_parse_error("{\"title\": \"a\", \"x\": " + std::string(200, '[') + std::string(200, ']') + "}\n",
                     DocumentFormat::jsonl, "bad:1: not a JSON object on one line");
  expect_parse_error("{\"documents\": [{\"id\": \"1\", \"passages\": [{\"offset\": 0, \"text\": \"abc\", \"annotations\": "
                     "[{\"text\": \"a\"}]}]}]}",
                     DocumentFormat::bioc_json, "document 1, passage 1: an annotation without a location");
  // JSON lines: not JSON, not an object, no text, a bad year, a concept outside the text.
  expect_parse_error("{\"pmid\": 1, \"title\": \"a\"}\n{\"pmid\": 2, \"title\"", DocumentFormat::jsonl,
                     "bad:2: not a JSON object on one line");
  expect_parse_error("[1, 2]\n", DocumentFormat::jsonl, "bad:1: each line is a JSON object");
  expect_parse_error("{\"pmid\": 1}\n", DocumentFormat::jsonl, "bad:1: a document needs a \"title\" or a \"text\"");
  expect_parse_error("{\"pmid\": 1, \"year\": \"2O04\", \"title\": \"a\"}\n", DocumentFormat::jsonl, "\"year\" must be a year");
  expect_parse_error("{\"pmid\": [1], \"title\": \"a\"}\n", DocumentFormat::jsonl, "\"pmid\" must be a string or an integer");
  expect_parse_error("{\"title\": \"abc\", \"concepts\": [{\"id\": \"x\", \"offset\": 2, \"length\": 5}]}\n",
                     DocumentFormat::jsonl, "bad:1: concept 1: the concept at 2+5 lies outside");
  expect_parse_error("{\"title\": \"abc\", \"concepts\": [{\"id\": \"x\", \"offset\": -1, \"length\": 1}]}\n",
                     DocumentFormat::jsonl, "both non-negative integers");
  expect_parse_error("{\"title\": \"abc\", \"concepts\": [7]}\n", DocumentFormat::jsonl, "a concept is an id");
  expect_parse_error("{\"title\": \"abc\", \"concepts\": \"x\"}\n", DocumentFormat::jsonl, "\"concepts\" must be an array");
  expect_parse_error("\n\n", DocumentFormat::jsonl, "bad: no documents");
  // Binary garbage is text with no sentence, or an error; never a crash.
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919) % 256);
  for (DocumentFormat f : {DocumentFormat::detect, DocumentFormat::pubtator, DocumentFormat::bioc_xml, DocumentFormat::bioc_json,
                           DocumentFormat::ppi_xml, DocumentFormat::jsonl}) {
    try {
      (void)grappi::parse_documents(garbage, f, "garbage");
    } catch (const grappi::Error &e) {
      CHECK(std::string(e.what()).find("garbage") != std::string::npos);
    }
  }
  CHECK_THROWS_AS(grappi::read_documents(lit("no-such-file.xml")), grappi::Error);
}
