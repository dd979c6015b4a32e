#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "grappi/error.hpp"
#include "grappi/json_text.hpp"
#include "test_util.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"

using grappi::detail::LineReader;
using grappi::detail::valid_utf8;
using namespace testutil;

static std::vector<std::string> all_lines(const std::string &path) {
  LineReader r(path);
  std::vector<std::string> out;
  std::string_view l;
  while (r.next(l)) out.emplace_back(l);
  return out;
}

TEST_CASE("LineReader reads plain and gzip files the same way") {
  TempDir d;
  const std::string text = "a b c\r\nsecond line\n\nlast without newline";
  write_file(d.file("p.txt"), text);
  write_gz(d.file("g.txt.gz"), text);
  std::vector<std::string> want{"a b c", "second line", "", "last without newline"};
  CHECK(all_lines(d.file("p.txt")) == want);
  CHECK(all_lines(d.file("g.txt.gz")) == want);
  LineReader r(d.file("g.txt.gz"));
  CHECK(r.gzipped());
}

TEST_CASE("LineReader follows concatenated gzip members") {
  TempDir d;
  write_gz(d.file("a.gz"), "one\ntwo\n");
  write_gz(d.file("b.gz"), "three\n");
  write_file(d.file("ab.gz"), read_file(d.file("a.gz")) + read_file(d.file("b.gz")));
  CHECK(all_lines(d.file("ab.gz")) == std::vector<std::string>{"one", "two", "three"});
}

TEST_CASE("LineReader computes the SHA-256 of the bytes on disk") {
  TempDir d;
  write_file(d.file("abc"), "abc");
  LineReader r(d.file("abc"));
  std::string_view l;
  while (r.next(l)) {
  }
  CHECK(r.sha256_hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(r.file_size() == 3);
}

TEST_CASE("LineReader reports truncated and corrupt gzip streams") {
  TempDir d;
  std::string big;
  for (int i = 0; i < 20000; ++i) big += "9606.ENSP" + std::to_string(i) + " 9606.ENSP" + std::to_string(i * 7) + " 900\n";
  write_gz(d.file("full.gz"), big);
  std::string gz = read_file(d.file("full.gz"));
  write_file(d.file("trunc.gz"), gz.substr(0, gz.size() / 2));
  CHECK_THROWS_WITH_AS(all_lines(d.file("trunc.gz")), doctest::Contains("truncated gzip"), grappi::Error);
  std::string bad = gz;
  for (std::size_t i = 100; i < 200; ++i) bad[i] = static_cast<char>(bad[i] ^ 0x5a);
  write_file(d.file("corrupt.gz"), bad);
  CHECK_THROWS_AS(all_lines(d.file("corrupt.gz")), grappi::Error);
}

TEST_CASE("LineReader rejects NUL bytes and names the line") {
  TempDir d;
  write_file(d.file("bin"), std::string("ok\nbad\0line\n", 12));
  CHECK_THROWS_WITH_AS(all_lines(d.file("bin")), doctest::Contains("bin:2: NUL byte"), grappi::Error);
}

TEST_CASE("LineReader: missing file and directory") {
  CHECK_THROWS_AS(LineReader("/nonexistent/x.txt"), grappi::Error);
  try {
    LineReader r("/nonexistent/x.txt");
  } catch (const grappi::Error &e) {
    CHECK(e.code() == grappi::ErrorCode::not_found);
    CHECK(std::string(e.what()).find("/nonexistent/x.txt") != std::string::npos);
  }
  CHECK_THROWS_AS(LineReader("/tmp"), grappi::Error);
}

TEST_CASE("valid_utf8") {
  CHECK(valid_utf8("plain ascii text of some length"));
  CHECK(valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  CHECK_FALSE(valid_utf8("\xff"));
  CHECK_FALSE(valid_utf8("abc\xc3"));              // truncated sequence
  CHECK_FALSE(valid_utf8("\xc0\xaf"));             // overlong
  CHECK_FALSE(valid_utf8("\xed\xa0\x80"));         // surrogate
  CHECK_FALSE(valid_utf8("\xf4\x90\x80\x80"));     // above U+10FFFF
  CHECK_FALSE(valid_utf8("12345678\x80"));         // after the 8-byte fast path
}

TEST_CASE("Clipped text stays valid UTF-8 and every output survives invalid UTF-8") {
  const std::string tau = "tau \xce\xb1\xce\xb2";  // "tau αβ": 4 + 2 + 2 bytes
  CHECK(grappi::detail::utf8_prefix(tau, 5) == "tau ");
  CHECK(grappi::detail::utf8_prefix(tau, 6) == "tau \xce\xb1");
  CHECK(grappi::detail::utf8_prefix(tau, 7) == "tau \xce\xb1");
  CHECK(grappi::detail::utf8_prefix(tau, 100) == tau);
  CHECK(valid_utf8(grappi::detail::utf8_prefix(tau, 7)));
  nlohmann::json j = {{"name", std::string("cut \xce")}, {"file", std::string("a\xff.tsv")}};
  CHECK_THROWS(j.dump());
  const std::string text = grappi::dump_json(j);
  CHECK(valid_utf8(text));
  CHECK(text.find("\xef\xbf\xbd") != std::string::npos);  // U+FFFD
  CHECK(grappi::dump_json(j, 2).find("\n  \"file\"") != std::string::npos);
}

TEST_CASE("Markdown text from names is shown and never run") {
  CHECK(grappi::detail::markdown_text("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
  CHECK(grappi::detail::markdown_text("a|b\nc\rd & e") == "a\\|b c d &amp; e");
  CHECK(grappi::detail::markdown_text("TP53 (human)") == "TP53 (human)");
  // A model's links that run code are no links; http(s) links stay; invalid UTF-8 becomes U+FFFD.
  CHECK(grappi::detail::markdown_text("[x](javascript:alert(1))") == "[x]\\(javascript:alert(1))");
  CHECK(grappi::detail::markdown_text("[x]( JavaScript:alert(1))") == "[x]\\( JavaScript:alert(1))");
  CHECK(grappi::detail::markdown_text("[x](data:text/html,hi)") == "[x]\\(data:text/html,hi)");
  CHECK(grappi::detail::markdown_text("[PMID:1](https://pubmed.ncbi.nlm.nih.gov/1/)") ==
        "[PMID:1](https://pubmed.ncbi.nlm.nih.gov/1/)");
  CHECK(grappi::detail::markdown_text("tau \xce\xb1 a\xff b \xce") == "tau \xce\xb1 a\xef\xbf\xbd b \xef\xbf\xbd");
  CHECK(grappi::detail::markdown_text("\xed\xa0\x80") == "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // (a surrogate)
}

TEST_CASE("XML and HTML text from names: the five special characters as entities and no control characters") {
  CHECK(grappi::detail::markup_text("<a href=\"x\">O'Brien & co</a>") ==
        "&lt;a href=&quot;x&quot;&gt;O&#39;Brien &amp; co&lt;/a&gt;");
  CHECK(grappi::detail::markup_text(std::string("a\x01" "b\tc\nd\x1f")) == "a b\tc\nd ");
  CHECK(grappi::detail::markup_text("MAPT \xce\xb1") == "MAPT \xce\xb1");  // UTF-8 kept
}
