// READMEs match the tree. For every folder of the checkout that has a README.md (hidden,
// bazel-* and third_party folders are skipped):
//
//   1. Headers. Every header NAME.h directly in the folder is named by the README, as
//      `NAME.h`, `NAME.{h,cc}` or `NAME` in backticks (file tables list stems).
//   2. Paths. Every backticked token without spaces and every link target is read as a path
//      after dropping a leading "//", anything from ':' or '#', a trailing "/..." and '/'.
//      When it contains '/', has none of <>*{}$|=,;()[] (templates, globs, flags), and its
//      first component names an entry of the checkout root or of the README's folder, it
//      must exist relative to that place: a file or folder, or a Bazel target (name = "LAST"
//      in the BUILD.bazel of its parent). Tokens whose first component is nothing in the tree
//      (system paths, example file names, upstream's paths) are not paths of this tree.
//
// The checkout is the one //:WORKSPACE links to. Expected: no violation, and the walk finds
// at least 30 READMEs (else the test is reading the wrong tree).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

fs::path checkout_root() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || workspace == nullptr) return {};
  std::error_code ec;
  const fs::path ws = fs::canonical(fs::path(srcdir) / workspace / "WORKSPACE", ec);
  return ec ? fs::path() : ws.parent_path();
}

bool skipped_folder(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.empty() || name[0] == '.' || name.rfind("bazel-", 0) == 0 || name == "third_party";
}

std::set<std::string> entries(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!skipped_folder(e.path())) out.insert(e.path().filename().string());
  }
  return out;
}

std::string escape(const std::string& s) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(s, special, R"(\$&)");
}

bool names_header(const std::string& text, const std::string& stem) {
  const std::regex named("(^|[^\\w.])" + escape(stem) + "(\\.h\\b|\\.\\{h|`)");
  return std::regex_search(text, named);
}

bool is_target(const fs::path& root, const std::string& path) {
  const fs::path p(path);
  const fs::path build = root / p.parent_path() / "BUILD.bazel";
  if (!fs::exists(build)) return false;
  return read_text(build).find("name = \"" + p.filename().string() + "\"") != std::string::npos;
}

// The path a token names, or "" when it is not read as a path (rule 2).
std::string as_path(std::string t) {
  if (t.rfind("//", 0) == 0) t = t.substr(2);
  t = t.substr(0, t.find_first_of(":#"));
  if (t.size() >= 4 && t.compare(t.size() - 4, 4, "/...") == 0) t.resize(t.size() - 4);
  while (!t.empty() && t.back() == '/') t.pop_back();
  if (t.find('/') == std::string::npos || t.find_first_of("<>*{}$|=,;()[]") != std::string::npos) {
    return "";
  }
  return t;
}

std::vector<std::string> tokens(const std::string& text) {
  std::vector<std::string> out;
  static const std::regex code("`([^`\\s]+)`"), link("\\]\\(([^)\\s]+)\\)");
  for (const std::regex* re : {&code, &link}) {
    for (std::sregex_iterator it(text.begin(), text.end(), *re), end; it != end; ++it) {
      out.push_back((*it)[1].str());
    }
  }
  return out;
}

std::vector<std::string> violations(const fs::path& root, size_t* readmes) {
  std::vector<std::string> out;
  const std::set<std::string> top = entries(root);
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    if (!it->is_directory()) continue;
    if (skipped_folder(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    const fs::path dir = it->path();
    if (!fs::exists(dir / "README.md")) continue;
    ++*readmes;
    const std::string text = read_text(dir / "README.md");
    const std::string rel = fs::relative(dir, root).string();
    const std::string where = rel + "/README.md";
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      if (!e.is_regular_file() || e.path().extension() != ".h") continue;
      if (!names_header(text, name.substr(0, name.size() - 2)))
        out.push_back(where + " omits " + name);
    }
    const std::set<std::string> here = entries(dir);
    for (const std::string& token : tokens(text)) {
      const std::string path = as_path(token);
      if (path.empty()) continue;
      const std::string first = path.substr(0, path.find('/'));
      bool ok = true;
      if (top.count(first) != 0) {
        ok = fs::exists(root / path) || is_target(root, path);
      } else if (here.count(first) != 0) {
        ok = fs::exists(dir / path) || is_target(root, (fs::path(rel) / path).string());
      }
      if (!ok) out.push_back(where + " names a path that does not exist: " + token);
    }
  }
  return out;
}

TEST(ReadmeTest, EveryReadmeNamesItsHeadersAndOnlyExistingPaths) {
  const fs::path root = checkout_root();
  ASSERT_FALSE(root.empty()) << "cannot find the checkout through //:WORKSPACE";
  size_t readmes = 0;
  const std::vector<std::string> bad = violations(root, &readmes);
  EXPECT_GE(readmes, 30u) << "found only " << readmes << " READMEs under " << root;
  std::string all;
  for (const std::string& b : bad) all += "  " + b + "\n";
  EXPECT_TRUE(bad.empty()) << bad.size() << " README problem(s):\n" << all;
}

// The rule itself, on text written here: what counts as naming a header, what is a path.
TEST(ReadmeTest, RuleOnHandWrittenText) {
  EXPECT_TRUE(names_header("| `pte_writer.h` | ...", "pte_writer"));
  EXPECT_TRUE(names_header("`guard_method.{h,cc}`", "guard_method"));
  EXPECT_TRUE(names_header("| `zip_reader` | libzip", "zip_reader"));
  EXPECT_FALSE(names_header("`my_zip_reader.h`", "zip_reader"));
  EXPECT_FALSE(names_header("the zip reader", "zip_reader"));
  EXPECT_EQ(as_path("//apps/lower:lower"), "apps/lower");
  EXPECT_EQ(as_path("//aot/..."), "");  // "aot" alone: no '/' left
  EXPECT_EQ(as_path("aot/emit/"), "aot/emit");
  EXPECT_EQ(as_path("aot/emit/pte_writer.h"), "aot/emit/pte_writer.h");
  EXPECT_EQ(as_path("NN_<stage>.txt/x"), "");
  EXPECT_EQ(as_path("--dump_dir"), "");
}

}  // namespace
