// QueryService over gRPC on 127.0.0.1 (games uploaded through WorkService
// UploadGames, as workers do): answers equal the engine's, errors map to
// the right codes with clear messages, and GetGame round-trips games and
// their SGF.
#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "grpcpp/create_channel.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "qipu/v1/query.grpc.pb.h"
#include "qipu/v1/work.grpc.pb.h"
#include "rules/sgf_reader.h"
#include "store/game_id.h"
#include "tests/coordinator/query_fixture.h"

namespace qipu::coordinator {
namespace {

using ::testing::HasSubstr;
using testing::Import;
using testing::JobConfigFor;
using testing::RecordOf;
using testing::StartCoordinator;
using testing::TempDir;

constexpr uint64_t kGames = 40;

void SetDeadline(grpc::ClientContext* ctx, int seconds = 10) {
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(seconds));
}

class QueryServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    coord_ = StartCoordinator(dir_.path());
    ASSERT_NE(coord_, nullptr);
    auto channel = grpc::CreateChannel(coord_->address(),
                                       grpc::InsecureChannelCredentials());
    stub_ = qipu::v1::QueryService::NewStub(channel);
    work_ = qipu::v1::WorkService::NewStub(channel);
    config_ = JobConfigFor(9, "chinese", 10, 77);
    auto job = coord_->jobs().Submit(kGames, config_);
    ASSERT_TRUE(job.ok()) << job.status();
    job_ = *job;
    Upload();
  }

  // Plays every game of the job and uploads it on one stream.
  void Upload() {
    grpc::ClientContext ctx;
    SetDeadline(&ctx, 60);
    auto stream = work_->UploadGames(&ctx);
    for (uint64_t i = 0; i < kGames; ++i) {
      rules::SelfPlaySpec spec;
      spec.width = spec.height = 9;
      spec.rules = *wire::RulesFromProto(config_.rules());
      spec.job_seed = config_.seed();
      spec.index = i;
      rules::Game game(9, 9, spec.rules);
      rules::SelfPlayOutcome outcome;
      ASSERT_TRUE(rules::PlaySelfPlay(spec, &game, &outcome).ok());
      qipu::v1::GameUpload up;
      up.set_seq(i);
      wire::SelfPlayToProto(game, spec, outcome, job_, "service-test",
                            up.mutable_game());
      uploaded_[i] = up.game();
      ASSERT_TRUE(stream->Write(up));
    }
    stream->WritesDone();
    qipu::v1::GameAck ack;
    uint64_t stored = 0;
    while (stream->Read(&ack)) {
      EXPECT_EQ(ack.status(), qipu::v1::ACK_STATUS_STORED) << ack.reason();
      ++stored;
    }
    EXPECT_TRUE(stream->Finish().ok());
    EXPECT_EQ(stored, kGames);
  }

  TempDir dir_;
  std::unique_ptr<Coordinator> coord_;
  std::unique_ptr<qipu::v1::QueryService::Stub> stub_;
  std::unique_ptr<qipu::v1::WorkService::Stub> work_;
  qipu::v1::JobConfig config_;
  uint64_t job_ = 0;
  std::map<uint64_t, qipu::v1::Game> uploaded_;
};

TEST_F(QueryServiceTest, AnswersEqualTheEngine) {
  qipu::v1::OpeningsRequest req;
  req.mutable_filter()->set_width(9);
  req.mutable_filter()->set_height(9);
  req.set_examples(5);
  for (const char* moves : {"", "E5", "C3"}) {
    req.clear_moves();
    if (*moves) req.add_moves(moves);
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    qipu::v1::OpeningsResponse got;
    ASSERT_TRUE(stub_->Openings(&ctx, req, &got).ok());
    auto want = coord_->queries().Openings(req);
    ASSERT_TRUE(want.ok());
    EXPECT_EQ(got.SerializeAsString(), want->SerializeAsString()) << moves;
  }
  qipu::v1::Filter filter;
  filter.set_source(absl::StrCat("job:", job_));
  qipu::v1::KoRequest ko;
  *ko.mutable_filter() = filter;
  qipu::v1::KoResponse ko_got;
  grpc::ClientContext c1;
  SetDeadline(&c1);
  ASSERT_TRUE(stub_->Ko(&c1, ko, &ko_got).ok());
  EXPECT_EQ(ko_got.all().games(), kGames);
  EXPECT_EQ(ko_got.SerializeAsString(),
            coord_->queries().Ko(ko)->SerializeAsString());
  qipu::v1::CyclesRequest cy;
  *cy.mutable_filter() = filter;
  qipu::v1::CyclesResponse cy_got;
  grpc::ClientContext c2;
  SetDeadline(&c2);
  ASSERT_TRUE(stub_->Cycles(&c2, cy, &cy_got).ok());
  EXPECT_EQ(cy_got.games(), kGames);
  qipu::v1::ResultsRequest rs;
  *rs.mutable_filter() = filter;
  qipu::v1::ResultsResponse rs_got;
  grpc::ClientContext c3;
  SetDeadline(&c3);
  ASSERT_TRUE(stub_->Results(&c3, rs, &rs_got).ok());
  EXPECT_EQ(rs_got.outcomes().games(), kGames);
  EXPECT_EQ(rs_got.SerializeAsString(),
            coord_->queries().Results(rs)->SerializeAsString());
}

TEST_F(QueryServiceTest, ErrorsMapToCodes) {
  qipu::v1::OpeningsRequest bad_move;
  bad_move.mutable_filter()->set_width(9);
  bad_move.mutable_filter()->set_height(9);
  bad_move.add_moves("E5");
  bad_move.add_moves("E5");
  qipu::v1::OpeningsResponse resp;
  grpc::ClientContext c1;
  SetDeadline(&c1);
  grpc::Status s = stub_->Openings(&c1, bad_move, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(),
              HasSubstr("move 2 'E5' is illegal (occupied)"));

  qipu::v1::ResultsRequest bad_filter;
  bad_filter.mutable_filter()->set_rules("ko=sometimes");
  qipu::v1::ResultsResponse results;
  grpc::ClientContext c2;
  SetDeadline(&c2);
  s = stub_->Results(&c2, bad_filter, &results);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("filter.rules"));

  qipu::v1::GetGameRequest missing;
  missing.set_id(absl::StrCat("s", job_, "-", kGames + 5));
  qipu::v1::GetGameResponse game;
  grpc::ClientContext c3;
  SetDeadline(&c3);
  s = stub_->GetGame(&c3, missing, &game);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(s.error_message(), HasSubstr(missing.id()));

  qipu::v1::GetGameRequest malformed;
  malformed.set_id("game-7");
  grpc::ClientContext c4;
  SetDeadline(&c4);
  s = stub_->GetGame(&c4, malformed, &game);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("game-7"));
}

TEST_F(QueryServiceTest, GetGameRoundTrip) {
  for (uint64_t i : {uint64_t{0}, uint64_t{17}, kGames - 1}) {
    SCOPED_TRACE(i);
    const qipu::v1::Game& up = uploaded_[i];
    qipu::v1::GetGameRequest req;
    req.set_id(absl::StrCat("s", job_, "-", i));
    qipu::v1::GetGameResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_TRUE(stub_->GetGame(&ctx, req, &resp).ok());
    EXPECT_EQ(resp.id(), req.id());
    // The stored game is the upload plus what the coordinator stamps on it.
    qipu::v1::Game want = up;
    qipu::v1::Game got = resp.game();
    EXPECT_GT(got.provenance().stored_unix_micros(), 0);
    EXPECT_FALSE(got.provenance().qipu_version().empty());
    got.mutable_provenance()->clear_stored_unix_micros();
    got.mutable_provenance()->clear_qipu_version();
    want.mutable_provenance()->clear_qipu_version();
    EXPECT_EQ(got.SerializeAsString(), want.SerializeAsString());

    const rules::SgfCollection sgf = rules::ReadSgf(resp.sgf());
    ASSERT_TRUE(sgf.errors.empty()) << sgf.errors[0].reason;
    ASSERT_EQ(sgf.games.size(), 1u);
    const rules::GameRecord& back = sgf.games[0];
    const rules::GameRecord record = *wire::GameToRecord(up);
    EXPECT_EQ(back.width, 9);
    EXPECT_EQ(back.moves, record.moves);
    EXPECT_EQ(back.result.text,
              rules::ResultToSgf(*wire::ResultFromProto(up.result())));
    EXPECT_TRUE(back.has_komi);
    EXPECT_EQ(back.komi, 7.5);
    std::map<std::string, std::string> extra(back.extra.begin(),
                                             back.extra.end());
    EXPECT_EQ(extra["QJ"], absl::StrCat(job_));
    EXPECT_EQ(extra["QI"], absl::StrCat(i));
    EXPECT_EQ(extra["QS"], absl::StrCat(up.provenance().seed()));
    EXPECT_EQ(extra["QK"], absl::StrCat(up.ko_captures()));
  }

  const rules::GameRecord imported =
      RecordOf(9, "E5 C3 pass G7", "W+1.5", "2018-05-03");
  const store::GameId id = Import(*coord_, imported, "pro");
  qipu::v1::GetGameRequest req;
  req.set_id(store::GameIdText(id));
  qipu::v1::GetGameResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_TRUE(stub_->GetGame(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.game().provenance().source(), "pro");
  const rules::SgfCollection sgf = rules::ReadSgf(resp.sgf());
  ASSERT_EQ(sgf.games.size(), 1u);
  EXPECT_EQ(sgf.games[0].moves, imported.moves);
  EXPECT_EQ(sgf.games[0].result.text, "W+1.5");
  EXPECT_EQ(sgf.games[0].date, "2018-05-03");
}

}  // namespace
}  // namespace qipu::coordinator
