// ExportSession over the committed mlp fixture (training IR): the stage list and order, every
// stage's artifact kept and printable, run_until, dump, run_method through a runner hook (a
// fake that echoes, to test the plumbing), and the named errors (unknown recipe, no runner,
// unknown stage, missing file).
#include "aot/recipe/export_session.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

using ember::testing::committed_pt2_fixture;

RecipeRegistry recipes() {
  RecipeRegistry r;
  EXPECT_EQ(register_builtin_recipes(&r), Error::Ok);
  return r;
}

TEST(ExportSessionTest, StagesInOrderWithArtifacts) {
  std::vector<std::string> done;
  SessionOptions so;
  so.on_stage_done = [&](const Stage& s) { done.push_back(s.name()); };
  auto session = ExportSession::create(recipes(), "portable",
                                       committed_pt2_fixture("mlp.training_ir.torch2_6.pt2"), {}, std::move(so));
  ASSERT_TRUE(session.ok()) << format_error(session.error());
  ASSERT_EQ(session->run_until("to_edge"), Error::Ok);
  EXPECT_EQ(done, (std::vector<std::string>{"load", "to_edge"}));
  EXPECT_EQ(session->pte(), nullptr);
  auto edge = session->print("to_edge");
  ASSERT_TRUE(edge.ok());
  EXPECT_NE(edge->find("aten::addmm.default"), std::string::npos) << *edge;
  EXPECT_EQ(edge->find("aten::linear"), std::string::npos) << *edge;
  EXPECT_EQ(session->print("emit").error(), Error::InvalidState);
  ASSERT_EQ(session->run(), Error::Ok);
  EXPECT_EQ(done, (std::vector<std::string>{"load", "to_edge", "transform", "to_backend",
                                            "to_executorch", "emit"}));
  ASSERT_NE(session->pte(), nullptr);
  EXPECT_EQ(std::string(session->pte()->begin() + 4, session->pte()->begin() + 8), "ET12");
  auto load = session->print("load");
  ASSERT_TRUE(load.ok());
  EXPECT_NE(load->find("aten::linear.default"), std::string::npos);  // kept, not overwritten
  auto exec = session->print("to_executorch");
  ASSERT_TRUE(exec.ok());
  EXPECT_NE(exec->find("aten::addmm.out"), std::string::npos);
  EXPECT_EQ(session->memory_report().arena_size, 1024u);  // see pte_summary_test
  EXPECT_EQ(session->print("nope").error(), Error::NotFound);

  std::string dir = ::testing::TempDir() + "/session_dump";
  mkdir(dir.c_str(), 0755);
  ASSERT_EQ(session->dump(dir), Error::Ok);
  std::ifstream f(dir + "/01_to_edge.txt");
  EXPECT_TRUE(f.good());

  EXPECT_EQ(session->run_method("forward", {}).error(), Error::InvalidState);
}

TEST(ExportSessionTest, RunMethodUsesTheRunner) {
  SessionOptions so;
  size_t seen = 0;
  so.runner = [&](const std::vector<uint8_t>& pte, const std::string& method,
                  const std::vector<HostTensor>& in) -> Result<std::vector<HostTensor>> {
    seen = pte.size();
    if (method != "forward") return not_found(method);
    return in;
  };
  auto session = ExportSession::create(recipes(), "portable",
                                       committed_pt2_fixture("mlp.core_aten.torch2_6.pt2"), {}, std::move(so));
  ASSERT_TRUE(session.ok());
  ASSERT_EQ(session->run(), Error::Ok);
  HostTensor t;
  t.sizes = {1};
  t.bytes = {0, 0, 128, 63};
  auto out = session->run_method("forward", {t});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(seen, session->pte()->size());
  EXPECT_EQ((*out)[0].bytes, t.bytes);
}

TEST(ExportSessionTest, NamedErrors) {
  auto unknown = ExportSession::create(recipes(), "tpu", committed_pt2_fixture("mlp.core_aten.torch2_6.pt2"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error(), Error::NotFound);
  EXPECT_NE(std::string(last_error_message()).find("known: portable"), std::string::npos);
  auto missing = ExportSession::create(recipes(), "portable", "/nonexistent/model.pt2");
  ASSERT_TRUE(missing.ok());
  Error st = missing->run();
  ASSERT_NE(st, Error::Ok);
  EXPECT_NE(std::string(last_error_message()).find("stage 'load'"), std::string::npos) << std::string(last_error_message());
  EXPECT_NE(std::string(last_error_message()).find("/nonexistent/model.pt2"), std::string::npos) << std::string(last_error_message());
  RecipeRegistry r = recipes();
  EXPECT_EQ(register_builtin_recipes(&r), Error::InvalidArgument);  // duplicate
}

}  // namespace
}  // namespace ember::aot
