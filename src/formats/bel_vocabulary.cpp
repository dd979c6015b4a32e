// The BEL 2.1 vocabulary tables.
#include "formats/bel_vocabulary.hpp"

#include <iterator>

#include "grappi/bel.hpp"

namespace grappi::detail::bel {
namespace {

// Every spelling of every function. The first entry of each Fn is its canonical spelling.
const FunctionInfo kFunctions[] = {
    {Fn::abundance, "abundance", "a", "", false, false},
    {Fn::gene, "geneAbundance", "g", "", false, false},
    {Fn::rna, "rnaAbundance", "r", "", false, false},
    {Fn::mirna, "microRNAAbundance", "m", "", false, false},
    {Fn::protein, "proteinAbundance", "p", "", false, false},
    {Fn::complex, "complexAbundance", "complex", "", false, false},
    {Fn::composite, "compositeAbundance", "composite", "", false, false},
    {Fn::population, "populationAbundance", "pop", "", false, false},
    {Fn::bioprocess, "biologicalProcess", "bp", "", false, false},
    {Fn::pathology, "pathology", "path", "", false, false},
    {Fn::activity, "activity", "act", "", false, false},
    {Fn::molecular_activity, "molecularActivity", "ma", "", false, false},
    {Fn::translocation, "translocation", "tloc", "", false, false},
    {Fn::secretion, "cellSecretion", "sec", "", false, false},
    {Fn::surface, "cellSurfaceExpression", "surf", "", false, false},
    {Fn::degradation, "degradation", "deg", "", false, false},
    {Fn::reaction, "reaction", "rxn", "", false, false},
    {Fn::reactants, "reactants", "reactants", "", false, false},
    {Fn::products, "products", "products", "", false, false},
    {Fn::list, "list", "list", "", false, false},
    {Fn::pmod, "proteinModification", "pmod", "", false, false},
    {Fn::gmod, "geneModification", "gmod", "", false, true},
    {Fn::variant, "variant", "var", "", false, false},
    {Fn::fragment, "fragment", "frag", "", false, false},
    {Fn::fusion, "fusion", "fus", "", false, false},
    {Fn::location, "location", "loc", "", false, false},
    {Fn::from_loc, "fromLoc", "fromLoc", "", false, false},
    {Fn::to_loc, "toLoc", "toLoc", "", false, false},
    {Fn::substitution, "substitution", "sub", "", true, false},
    {Fn::truncation, "truncation", "trunc", "", true, false},
    {Fn::legacy_activity, "catalyticActivity", "cat", "cat", true, false},
    {Fn::legacy_activity, "chaperoneActivity", "chap", "chap", true, false},
    {Fn::legacy_activity, "gtpBoundActivity", "gtp", "gtp", true, false},
    {Fn::legacy_activity, "kinaseActivity", "kin", "kin", true, false},
    {Fn::legacy_activity, "peptidaseActivity", "pep", "pep", true, false},
    {Fn::legacy_activity, "phosphataseActivity", "phos", "phos", true, false},
    {Fn::legacy_activity, "ribosylationActivity", "ribo", "ribo", true, false},
    {Fn::legacy_activity, "transcriptionalActivity", "tscript", "tscript", true, false},
    {Fn::legacy_activity, "transportActivity", "tport", "tport", true, false},
    {Fn::legacy_activity, "guanineNucleotideExchangeFactorActivity", "gef", "gef", true, true},
    {Fn::legacy_activity, "gtpaseActivatingProteinActivity", "gap", "gap", true, true},
    {Fn::pathology, "", "o", "", false, true},  // pybel's extra short form of pathology
};

const RelationInfo kRelations[] = {
    // long name, symbol, alternative, causal, undirected, legacy, nonstandard
    {"increases", "->", "\xE2\x86\x92", true, false, false, false},
    {"decreases", "-|", "", true, false, false, false},
    {"directlyIncreases", "=>", "\xE2\x87\x92", true, false, false, false},
    {"directlyDecreases", "=|", "", true, false, false, false},
    {"regulates", "reg", "", true, false, false, false},
    {"rateLimitingStepOf", "", "", true, false, false, false},
    {"causesNoChange", "cnc", "", true, false, false, false},
    {"association", "--", "", false, true, false, false},
    {"positiveCorrelation", "pos", "", false, true, false, false},
    {"negativeCorrelation", "neg", "", false, true, false, false},
    {"correlation", "cor", "", false, true, false, false},
    {"noCorrelation", "noCor", "", false, true, false, false},
    {"biomarkerFor", "", "", false, false, false, false},
    {"prognosticBiomarkerFor", "", "", false, false, false, false},
    {"orthologous", "", "", false, true, false, false},
    {"transcribedTo", ":>", "", false, false, false, false},
    {"translatedTo", ">>", "", false, false, false, false},
    {"hasMember", "", "", false, false, false, false},
    {"hasMembers", "", "", false, false, false, false},
    {"hasComponent", "", "", false, false, false, false},
    {"hasComponents", "", "", false, false, false, false},
    {"isA", "", "", false, false, false, false},
    {"subProcessOf", "", "", false, false, false, false},
    {"analogousTo", "", "", false, true, false, false},
    {"equivalentTo", "eq", "", false, true, false, false},
    {"partOf", "", "", false, false, false, false},
    {"hasVariant", "", "", false, false, false, false},
    {"hasReactant", "", "", false, false, false, false},
    {"hasProduct", "", "", false, false, false, false},
    {"binds", "", "", false, true, false, true},
    // BEL 1 relations BEL 2 removed: recognised to say so.
    {"actsIn", "", "", false, false, true, false},
    {"includes", "", "", false, false, true, false},
    {"translocates", "", "", false, false, true, false},
    {"hasModification", "", "", false, false, true, false},
    {"reactantIn", "", "", false, false, true, false},
};

struct Pair {
  std::string_view from, to;
};

const Pair kPmods[] = {
    {"Ac", "Ac"}, {"acetylation", "Ac"}, {"ADPRib", "ADPRib"}, {"ADP-ribosylation", "ADPRib"},
    {"adenosine diphosphoribosyl", "ADPRib"}, {"Farn", "Farn"}, {"farnesylation", "Farn"},
    {"Gerger", "Gerger"}, {"geranylgeranylation", "Gerger"}, {"Glyco", "Glyco"},
    {"glycosylation", "Glyco"}, {"Hy", "Hy"}, {"hydroxylation", "Hy"}, {"ISG", "ISG"},
    {"ISGylation", "ISG"}, {"ISG15-protein conjugation", "ISG"}, {"Me", "Me"},
    {"methylation", "Me"}, {"Me1", "Me1"}, {"monomethylation", "Me1"},
    {"mono-methylation", "Me1"}, {"Me2", "Me2"}, {"dimethylation", "Me2"},
    {"di-methylation", "Me2"}, {"Me3", "Me3"}, {"trimethylation", "Me3"},
    {"tri-methylation", "Me3"}, {"Myr", "Myr"}, {"myristoylation", "Myr"}, {"Nedd", "Nedd"},
    {"neddylation", "Nedd"}, {"NGlyco", "NGlyco"}, {"N-linked glycosylation", "NGlyco"},
    {"NO", "NO"}, {"Nitrosylation", "NO"}, {"OGlyco", "OGlyco"},
    {"O-linked glycosylation", "OGlyco"}, {"Palm", "Palm"}, {"palmitoylation", "Palm"},
    {"Ph", "Ph"}, {"phosphorylation", "Ph"}, {"Sulf", "Sulf"}, {"sulfation", "Sulf"},
    {"sulphation", "Sulf"}, {"sulfur addition", "Sulf"}, {"sulphur addition", "Sulf"},
    {"sulfonation", "sulfonation"}, {"sulphonation", "sulfonation"}, {"Sumo", "Sumo"},
    {"SUMOylation", "Sumo"}, {"Ub", "Ub"}, {"ubiquitination", "Ub"}, {"ubiquitinylation", "Ub"},
    {"ubiquitylation", "Ub"}, {"UbK48", "UbK48"}, {"Lysine 48-linked polyubiquitination", "UbK48"},
    {"UbK63", "UbK63"}, {"Lysine 63-linked polyubiquitination", "UbK63"}, {"UbMono", "UbMono"},
    {"monoubiquitination", "UbMono"}, {"UbPoly", "UbPoly"}, {"polyubiquitination", "UbPoly"},
    {"Ox", "Ox"}, {"oxidation", "Ox"},
};

// BEL 1 single-letter modification codes.
const Pair kLegacyPmods[] = {
    {"P", "Ph"}, {"A", "Ac"}, {"F", "Farn"}, {"G", "Glyco"}, {"H", "Hy"},
    {"M", "Me"}, {"R", "ADPRib"}, {"S", "Sumo"}, {"U", "Ub"}, {"O", "Ox"},
};

const Pair kGmods[] = {{"Me", "Me"}, {"M", "Me"}, {"methylation", "Me"}, {"ADPRib", "ADPRib"}};

const Pair kAminoAcids[] = {
    {"A", "Ala"}, {"R", "Arg"}, {"N", "Asn"}, {"D", "Asp"}, {"C", "Cys"}, {"E", "Glu"},
    {"Q", "Gln"}, {"G", "Gly"}, {"H", "His"}, {"I", "Ile"}, {"L", "Leu"}, {"K", "Lys"},
    {"M", "Met"}, {"F", "Phe"}, {"P", "Pro"}, {"S", "Ser"}, {"T", "Thr"}, {"W", "Trp"},
    {"Y", "Tyr"}, {"V", "Val"}, {"U", "Sec"}, {"O", "Pyl"},
};

const Pair kActivities[] = {
    {"catalyticActivity", "cat"}, {"cat", "cat"}, {"chaperoneActivity", "chap"},
    {"chap", "chap"}, {"gtpBoundActivity", "gtp"}, {"gtp", "gtp"}, {"kinaseActivity", "kin"},
    {"kin", "kin"}, {"peptidaseActivity", "pep"}, {"pep", "pep"},
    {"phosphataseActivity", "phos"}, {"phos", "phos"}, {"ribosylationActivity", "ribo"},
    {"ribo", "ribo"}, {"transcriptionalActivity", "tscript"}, {"tscript", "tscript"},
    {"transportActivity", "tport"}, {"tport", "tport"}, {"molecularActivity", "molecularActivity"},
    {"guanineNucleotideExchangeFactorActivity", "gef"}, {"gef", "gef"},
    {"gtpaseActivatingProteinActivity", "gap"}, {"gap", "gap"},
};

template <std::size_t N>
std::string_view lookup(const Pair (&table)[N], std::string_view key) {
  for (const Pair &p : table)
    if (p.from == key) return p.to;
  return {};
}

}  // namespace

const FunctionInfo *find_function(std::string_view name) {
  for (const FunctionInfo &f : kFunctions)
    if (name == f.short_name || (!f.long_name.empty() && name == f.long_name)) return &f;
  return nullptr;
}

std::optional<Fn> function_of(const BelTerm &t) {
  if (t.kind != BelTerm::Kind::function) return std::nullopt;
  const FunctionInfo *f = find_function(t.name);
  return f ? std::optional<Fn>(f->fn) : std::nullopt;
}

const FunctionInfo &function_info(Fn fn) {
  for (const FunctionInfo &f : kFunctions)
    if (f.fn == fn) return f;
  return kFunctions[0];
}

bool is_abundance(Fn fn) {
  switch (fn) {
    case Fn::abundance: case Fn::gene: case Fn::rna: case Fn::mirna: case Fn::protein:
    case Fn::complex: case Fn::composite: case Fn::population:
      return true;
    default:
      return false;
  }
}

bool is_term_function(Fn fn) {
  switch (fn) {
    case Fn::bioprocess: case Fn::pathology: case Fn::activity: case Fn::translocation:
    case Fn::secretion: case Fn::surface: case Fn::degradation: case Fn::reaction:
    case Fn::legacy_activity:
      return true;
    default:
      return is_abundance(fn);
  }
}

const RelationInfo *find_relation(std::string_view spelling) {
  if (spelling.empty()) return nullptr;
  for (const RelationInfo &r : kRelations)
    if (spelling == r.long_name || spelling == r.symbol || spelling == r.alt_symbol) return &r;
  return nullptr;
}

std::string_view pmod_type(std::string_view name, bool &legacy) {
  legacy = false;
  if (auto t = lookup(kPmods, name); !t.empty()) return t;
  if (auto t = lookup(kLegacyPmods, name); !t.empty()) {
    legacy = true;
    return t;
  }
  return {};
}

std::string_view gmod_type(std::string_view name) { return lookup(kGmods, name); }

std::string_view amino_acid(std::string_view code) {
  if (code.size() == 1) return lookup(kAminoAcids, code);
  for (const Pair &p : kAminoAcids)
    if (p.to == code) return p.to;
  return {};
}

std::string_view activity_name(std::string_view name) { return lookup(kActivities, name); }

}  // namespace grappi::detail::bel

namespace grappi {

std::vector<BelNamespace> default_bel_namespaces() {
  const uint32_t gene = bel_gene, fam = bel_family, chem = bel_chemical, cplx = bel_complex,
                 proc = bel_process, path = bel_pathology, loc = bel_location,
                 act = bel_activity, pop = bel_population;
  return {
      {"HGNC", gene, ""},        {"MGI", gene, ""},         {"RGD", gene, ""},
      {"UniProt", gene, ""},     {"UNIPROT", gene, ""},     {"UP", gene, ""},
      {"NCBIGENE", gene, ""},    {"ENTREZ", gene, ""},      {"ENSEMBL", gene, ""},
      {"FlyBase", gene, ""},     {"ZFIN", gene, ""},        {"SGD", gene, ""},
      {"MIRBASE", gene, ""},     {"miRBase", gene, ""},     {"dbSNP", gene, ""},
      {"HGNC.GENEFAMILY", fam, ""},
      {"FPLX", fam | cplx, ""},  {"PFAM", fam, ""},         {"INTERPRO", fam, ""},
      {"CHEBI", chem, ""},       {"ChEBI", chem, "CHEBI"},  {"PUBCHEM", chem, ""},
      {"PUBCHEM.COMPOUND", chem, ""}, {"MESHC", chem, ""},  {"CHEMBL", chem, ""},
      {"DRUGBANK", chem, ""},    {"HMDB", chem, ""},        {"CAS", chem, ""},
      {"GO", cplx | proc | loc | act, ""},
      {"DOID", path, ""},        {"MESHD", path, ""},       {"HP", path, ""},
      {"MONDO", path, ""},       {"ORPHANET", path, ""},    {"OMIM", path, ""},
      {"EFO", path | pop | proc, ""},
      {"MESH", chem | proc | path | loc | cplx | pop, ""},
      {"MESHA", pop, ""},        {"CL", pop, ""},           {"UBERON", pop | loc, ""},
      {"CLO", pop, ""},          {"NCBITAXON", pop, ""},    {"BTO", pop, ""},
      {"MESHCS", loc, ""},
      // Selventa's BEL 1 namespaces: still known, their names are not those of a newer one.
      {"SFAM", fam, ""},         {"SCOMP", cplx, ""},       {"SCHEM", chem, ""},
      {"SDIS", path, ""},        {"MESHPP", proc, ""},
      // BEL 1 spellings of namespaces with the same names under a newer prefix: accepted with
      // a warning, and the canonical form uses the newer prefix.
      {"GOBP", proc, "GO"},      {"GOCC", loc | cplx, "GO"}, {"GOCCACC", loc | cplx, "GO"},
      {"GOBPID", proc, "GO"},    {"GOMF", act, "GO"},       {"EGID", gene, "NCBIGENE"},
      {"SP", gene, "UniProt"},   {"SPAC", gene, "UniProt"},
  };
}

std::string bel_short_name(std::string_view long_name) {
  if (const auto *f = detail::bel::find_function(long_name)) return std::string(f->short_name);
  return std::string(long_name);
}

bool bel_relation_is_undirected(std::string_view relation) {
  const auto *r = detail::bel::find_relation(relation);
  return r && r->undirected;
}

bool bel_relation_is_causal(std::string_view relation) {
  const auto *r = detail::bel::find_relation(relation);
  return r && r->causal;
}

}  // namespace grappi
