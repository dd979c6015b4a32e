// The name linker's keys and derived names (src/store/name_keys.hpp), as data: Greek letters
// as gene symbols write them, punctuation and case left out, the names papers write for a full
// name, slashed aliases.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "store/name_keys.hpp"

TEST_CASE("The name linker's key spells Greek letters as symbols write them and leaves out punctuation and case") {
  using grappi::detail::name_key;
  CHECK(name_key("GSK-3\xCE\xB2") == "gsk3b");
  CHECK(name_key("GSK3beta") == "gsk3b");
  CHECK(name_key("GSK 3 beta") == "gsk3b");
  CHECK(name_key("GSK3B") == "gsk3b");
  CHECK(name_key("NF-kappaB") == "nfkb");
  CHECK(name_key("NFkappaB") == "nfkb");
  CHECK(name_key("NF-\xCE\xBA"
                 "B") == "nfkb");
  CHECK(name_key("IFNgamma") == "ifng");
  CHECK(name_key("PPAR-\xCE\xB3") == "pparg");
  CHECK(name_key("beta-catenin") == "bcatenin");
  CHECK(name_key("PKC\xCE\xB8") == "pkcq");  // (theta is Q in symbols: PRKCQ)
  // Not a Greek letter: inside a word, or a letter symbols keep spelled ("tau", "mu").
  CHECK(name_key("Betaine") == "betaine");
  CHECK(name_key("alphavirus") == "alphavirus");
  CHECK(name_key("tau") == "tau");
  CHECK(name_key("\xCF\x84") == "tau");
  // A name that is little more than its Greek letter keeps it spelled: "a 1" is not "ALPHA1".
  CHECK(name_key("ALPHA1") == "alpha1");
  CHECK(name_key("a 1") == "a1");
  CHECK(name_key("ER\xCE\xB1") == "era");
  // Derived names.
  using grappi::detail::full_name_variants;
  const auto names = [](const std::vector<grappi::detail::DerivedName> &v) {
    std::vector<std::string> out;
    for (const auto &d : v) out.push_back(d.name + " (" + d.how + ")");
    return out;
  };
  // (a closing number up to 10 is also its Roman numeral)
  CHECK(names(full_name_variants("catenin beta 1", true)) ==
        std::vector<std::string>{"catenin beta (without_number)", "catenin beta I (roman_number)", "beta-catenin (greek_first)"});
  CHECK(names(full_name_variants("presenilin 1", false)) == std::vector<std::string>{"presenilin I (roman_number)"});
  // (nothing without the number where what is left reads as running text: a participle, an
  // adjective, a process)
  for (const char *phrase : {"glucocorticoid induced 1", "metastasis associated 1", "myogenic differentiation 1",
                             "hippocalcin like 1", "VPS9 domain containing 1", "aspartate rich 1"}) {
    CAPTURE(phrase);
    for (const auto &d : full_name_variants(phrase, true)) CHECK(d.how != "without_number");
  }
  CHECK(names(full_name_variants("acrosomal vesicle protein 1", true)).at(0) == "acrosomal vesicle protein (without_number)");
  CHECK(names(full_name_variants("estrogen receptor 1", false)) ==
        std::vector<std::string>{"estrogen receptor alpha (greek_number)", "estrogen receptor I (roman_number)"});
  CHECK(names(full_name_variants("estrogen receptor 2", false)) ==
        std::vector<std::string>{"estrogen receptor beta (greek_number)", "estrogen receptor II (roman_number)"});
  CHECK(names(full_name_variants("estrogen receptor 3", false)) == std::vector<std::string>{"estrogen receptor III (roman_number)"});
  CHECK(names(full_name_variants("estrogen receptor 11", false)).empty());
  CHECK(names(full_name_variants("thymidylate synthetase", false)) == std::vector<std::string>{"thymidylate synthase (synthase)"});
  CHECK(names(full_name_variants("amyloid beta precursor protein", false)) ==
        std::vector<std::string>{"amyloid precursor protein (without_greek)"});
  CHECK(names(full_name_variants("cytochrome c, somatic", false)) ==
        std::vector<std::string>{"cytochrome c (without_qualifier)"});
  CHECK(names(full_name_variants("Muscle, skeletal receptor tyrosine-protein kinase", false)).empty());
  CHECK(names(grappi::detail::slash_variants("BCL-XL/S")) ==
        std::vector<std::string>{"BCL-XL (slash)", "BCL-XS (slash)"});
  CHECK(grappi::detail::slash_variants("HIV-1/ab").empty());
  CHECK(grappi::detail::name_like_description("Microtubule-associated protein tau"));
  CHECK(grappi::detail::name_like_description("Cadherin-1"));
  CHECK_FALSE(grappi::detail::name_like_description("Transcription factor"));
  CHECK_FALSE(grappi::detail::name_like_description("Uncharacterized protein C1orf112"));
  CHECK_FALSE(grappi::detail::name_like_description("Protein kinase of the mitotic exit network"));
}
