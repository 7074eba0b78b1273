// CorpusService (coordinator/corpus_service.h) on a real Coordinator on
// 127.0.0.1, and the `qipu import` / `qipu export` commands against it and
// against a database opened in-process (exit status, JSON summary; the
// text summary's normalisations and skipped games for the inputs of issue
// 16).
#include "coordinator/corpus_service.h"

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/client_context.h"
#include "grpcpp/create_channel.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/coordinator/corpus_test_util.h"

namespace qipu::coordinator::testing {
namespace {

std::unique_ptr<qipu::v1::CorpusService::Stub> Stub(const Coordinator& c) {
  return qipu::v1::CorpusService::NewStub(
      grpc::CreateChannel(c.address(), grpc::InsecureChannelCredentials()));
}

void Deadline(grpc::ClientContext* ctx) {
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(60));
}

qipu::v1::ImportRequest Request(const std::string& file,
                                const std::string& data,
                                const std::string& source = "") {
  qipu::v1::ImportRequest r;
  r.set_file(file);
  r.set_data(data);
  r.set_source(source);
  return r;
}

TEST(CorpusService, ImportAnswersEachFileInOrder) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  auto stub = Stub(*c);
  std::string collection;
  for (uint64_t i = 0; i < 30; ++i) {
    collection += rules::WriteSgf(PlayedRecord(9, 3, i));
  }
  std::vector<qipu::v1::ImportRequest> reqs = {
      Request("many.sgf", collection),
      Request("bad.sgf", "(;GM[1]SZ[9];B[ee];W[ee])"),
      Request("again.sgf", rules::WriteSgf(PlayedRecord(9, 3, 4))),
      Request("refused.sgf", "(;GM[1]SZ[9];B[ee])", "job:7"),
      Request("junk.sgf", "hello"),
      Request("bad.sgf", "(;GM[1]SZ[9];B[ee];W[ee])"),
  };
  // The last one under --strict: refused as before (the one above is kept,
  // cut at move 2).
  reqs.back().set_strict(true);
  grpc::ClientContext ctx;
  Deadline(&ctx);
  auto stream = stub->Import(&ctx);
  for (const auto& r : reqs) ASSERT_TRUE(stream->Write(r));
  stream->WritesDone();
  std::vector<qipu::v1::ImportResponse> got;
  qipu::v1::ImportResponse resp;
  while (stream->Read(&resp)) got.push_back(resp);
  ASSERT_TRUE(stream->Finish().ok());
  ASSERT_EQ(got.size(), reqs.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].file(), reqs[i].file());
  }
  EXPECT_EQ(got[0].games(), 30u);
  EXPECT_EQ(got[0].imported(), 30u);
  EXPECT_EQ(got[1].imported(), 1u);
  EXPECT_EQ(got[1].cut(), 1u);
  ASSERT_EQ(got[1].kept_size(), 1);
  EXPECT_EQ(got[1].kept(0).move(), 2u);
  EXPECT_EQ(got[1].kept(0).reason(),
            "cut at move 2 (W E5): the point is occupied");
  EXPECT_EQ(got[5].rejected(), 1u);
  ASSERT_EQ(got[5].errors_size(), 1);
  EXPECT_EQ(got[5].errors(0).move(), 2u);
  EXPECT_EQ(got[2].duplicates(), 1u);
  ASSERT_EQ(got[3].errors_size(), 1);
  EXPECT_TRUE(absl::StrContains(got[3].errors(0).reason(), "job:"));
  EXPECT_EQ(got[3].games(), 0u);
  ASSERT_EQ(got[4].errors_size(), 1);
  EXPECT_EQ(got[4].errors(0).game(), 0u);
  for (const StoredGame& g : StoredGames(c->store())) {
    EXPECT_EQ(g.game.provenance().source(), "import");
    EXPECT_EQ(g.game.provenance().file(),
              g.game.has_cut() ? "bad.sgf" : "many.sgf");
  }
}

TEST(CorpusService, ExportStreamsFilteredGames) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  for (uint64_t i = 0; i < 12; ++i) {
    WriteFile(tmp.Sub("in/" + std::to_string(i) + ".sgf"),
              rules::WriteSgf(PlayedRecord(i < 8 ? 9 : 13, 4, i)));
  }
  ASSERT_EQ(c->importer().ImportPaths({tmp.Sub("in")}, {}).imported, 12u);
  auto stub = Stub(*c);
  qipu::v1::ExportRequest req;
  req.mutable_filter()->set_width(13);
  req.mutable_filter()->set_height(13);
  grpc::ClientContext ctx;
  Deadline(&ctx);
  auto reader = stub->Export(&ctx, req);
  qipu::v1::Game g;
  int n = 0;
  while (reader->Read(&g)) {
    EXPECT_EQ(g.width(), 13u);
    ++n;
  }
  EXPECT_TRUE(reader->Finish().ok());
  EXPECT_EQ(n, 4);

  req.mutable_filter()->set_width(0);
  grpc::ClientContext bad;
  Deadline(&bad);
  auto r2 = stub->Export(&bad, req);
  while (r2->Read(&g)) {
  }
  EXPECT_EQ(r2->Finish().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

// --- The qipu command ------------------------------------------------------

struct CommandRun {
  int status = -1;
  std::string out;
};

// Runs the qipu binary with `args`; stdout captured, stderr to /dev/null.
CommandRun Qipu(const std::string& args) {
  const std::string cmd =
      absl::StrCat(QIPU_BINARY_DIR, "/ops/qipu ", args, " 2>/dev/null");
  CommandRun r;
  std::FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

nlohmann::json Json(const CommandRun& r) {
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out;
  return j;
}

TEST(QipuCommand, ImportExportLocallyAndThroughTheServer) {
  TempDir tmp;
  for (uint64_t i = 0; i < 10; ++i) {
    WriteFile(tmp.Sub("in/" + std::to_string(i) + ".sgf"),
              rules::WriteSgf(PlayedRecord(9, 8, i)));
  }
  WriteFile(tmp.Sub("in/bad.sgf"), "(;GM[1]SZ[9];B[ee];W[ee])");
  const std::string db = tmp.Sub("db");
  // --strict: the occupied point is refused (by default the game is kept,
  // cut: import_records_test.cc).
  CommandRun r =
      Qipu("import --db " + db + " " + tmp.Sub("in") + " --json --strict");
  EXPECT_EQ(r.status, 0);  // Ran, although a game was rejected.
  nlohmann::json j = Json(r);
  EXPECT_EQ(j["files"], 11);
  EXPECT_EQ(j["imported"], 10);
  EXPECT_EQ(j["rejected"], 1);
  EXPECT_EQ(j["errors"].size(), 1u);
  EXPECT_EQ(Qipu("import --db " + db + " " + tmp.Sub("nothing-here")).status,
            1);
  EXPECT_EQ(Qipu("import " + tmp.Sub("in")).status, 2);

  r = Qipu("export --db " + db + " --format jsonl --out " +
           tmp.Sub("all.jsonl") + " --json");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(Json(r)["games"], 10);
  r = Qipu("export --db " + db + " --format sgf --size 9 --out -");
  EXPECT_EQ(r.status, 0);
  WriteFile(tmp.Sub("all.sgf"), r.out);

  auto c = StartCoordinator(tmp.Sub("served"));
  ASSERT_NE(c, nullptr);
  const std::string server = " --server " + c->address();
  j = Json(Qipu("import" + server + " " + tmp.Sub("all.jsonl") + " --json"));
  EXPECT_EQ(j["imported"], 10);
  j = Json(Qipu("import" + server + " " + tmp.Sub("all.sgf") + " " +
                tmp.Sub("in") + " --json --strict"));
  EXPECT_EQ(j["imported"], 0);
  EXPECT_EQ(j["duplicates"], 20);
  EXPECT_EQ(j["rejected"], 1);
  r = Qipu("export" + server + " --format sgf --out " + tmp.Sub("served.sgf") +
           " --json");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(Json(r)["games"], 10);
  j = Json(Qipu("import --db " + db + " " + tmp.Sub("served.sgf") + " --json"));
  EXPECT_EQ(j["duplicates"], 10);
  EXPECT_EQ(
      Qipu("import --server 127.0.0.1:1 --timeout 2 " + tmp.Sub("in")).status,
      1);
}

// Issue 16: `qipu import` of the inputs under tests/rules/sgf_corpus says
// what it normalised (plain winners with other reasons, UTF-16) and which
// games it skipped (not Go, with their place), locally and through a
// server alike.
TEST(QipuCommand, ImportSummarySaysWhatWasNormalisedAndSkipped) {
  TempDir tmp;
  const auto corpus = [](const char* name) {
    return absl::StrCat(QIPU_SOURCE_DIR, "/tests/rules/sgf_corpus/", name);
  };
  const std::string files = absl::StrCat(
      corpus("results_nonstandard.sgf"), " ", corpus("mixed_games.sgf"), " ",
      corpus("unicode_utf16le_bom.sgf"), " ", corpus("utf16le_truncated.sgf"));
  auto c = StartCoordinator(tmp.Sub("served"));
  ASSERT_NE(c, nullptr);
  for (const std::string& target :
       {"--db " + tmp.Sub("db"), "--server " + c->address()}) {
    SCOPED_TRACE(target);
    const CommandRun r = Qipu("import " + target + " " + files);
    EXPECT_EQ(r.status, 0);
    const std::string& t = r.out;
    for (const char* line : {
             "files 4  games 16  imported 14  duplicates 0  rejected 0  "
             "skipped 2  errors 1",
             "         1  RE[W+Illegal] read as a win for White by an illegal "
             "move (not an SGF result reason)\n",
             // One in results_nonstandard.sgf, one in the UTF-16 file.
             "         2  RE[B+Illegal] read as a win for Black by an illegal "
             "move (not an SGF result reason)\n",
             "         1  RE[W+J] read as a win for White, reason 'J' kept as "
             "written (not an SGF result reason)\n",
             "         1  RE[B+AW] read as a win for Black, reason 'AW' kept "
             "as "
             "written (not an SGF result reason)\n",
             "         1  RE[W] read as a win for White, no reason given\n",
             "         1  RE[B] read as a win for Black, no reason given\n",
             "         2  the file is UTF-16LE (told by its byte order mark): "
             "decoded to UTF-8 before reading\n",
         }) {
      EXPECT_TRUE(absl::StrContains(t, line)) << line << "\n" << t;
    }
    const std::string skipped = absl::StrCat(
        "skipped (not Go):\n  ", corpus("mixed_games.sgf"),
        ": game 2, byte 39: GM[19] at byte 41 (line 2, column 3): not a game "
        "of Go (Go is GM[1])\n  ",
        corpus("mixed_games.sgf"), ": game 4, byte ");
    EXPECT_TRUE(absl::StrContains(t, skipped)) << t;
    EXPECT_TRUE(absl::StrContains(
        t, absl::StrCat("errors:\n  ", corpus("utf16le_truncated.sgf"),
                        ": the input is UTF-16LE")))
        << t;
    const nlohmann::json j =
        Json(Qipu("import " + target + " " + files + " --json"));
    EXPECT_EQ(j["duplicates"], 14);
    EXPECT_EQ(j["skipped"], 2);
    ASSERT_EQ(j["skipped_games"].size(), 2u);
    EXPECT_EQ(j["skipped_games"][0]["game"], 2);
    EXPECT_EQ(j["skipped_games"][0]["byte_offset"], 39);
    EXPECT_EQ(j["skipped_games"][1]["game"], 4);
    EXPECT_EQ(j["normalised"]["RE[W] read as a win for White, no reason given"],
              1);
  }
}

}  // namespace
}  // namespace qipu::coordinator::testing
