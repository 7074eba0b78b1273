// Cross-check against GNU Go (/usr/games/gnugo, GTP mode, Chinese rules,
// positional superko): for seeded games played by qipu's light policy
// under `chinese` with ko=positional (no cycle rule), GNU Go must find
// every move qipu plays legal, every sampled point qipu rejects (suicide,
// ko, superko; occupied points excluded) illegal, and a sample of points
// qipu accepts legal. Also fixed handicap placement. Skipped when GNU Go
// is not installed. Bounded to well under three minutes.
#include <algorithm>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "rules/coord.h"
#include "rules/game.h"
#include "rules/playout.h"
#include "rules/rules.h"
#include "rules/scoring.h"
#include "tests/rules/gtp_client.h"

namespace qipu::rules {
namespace {

constexpr char kGnuGo[] = "/usr/games/gnugo";

// What one cross-checked batch covered.
struct Coverage {
  int games = 0;
  int moves = 0;
  int queries = 0;
  // Rejected points asked, by qipu's reason.
  int suicides = 0;
  int kos = 0;
  int superkos = 0;
};

class GnuGo : public ::testing::Test {
 protected:
  void SetUp() override {
    auto client = GtpClient::Start(
        {kGnuGo, "--mode", "gtp", "--chinese-rules", "--positional-superko"},
        absl::Seconds(20));
    if (!client.ok()) GTEST_SKIP() << client.status();
    gtp_ = std::move(*client);
    ASSERT_EQ(gtp_->Must("protocol_version"), "2");
  }

  // Starts a new game on GNU Go's side.
  void NewGame(int size) {
    ASSERT_EQ(gtp_->Must(absl::StrCat("boardsize ", size)), "");
    ASSERT_EQ(gtp_->Must("clear_board"), "");
    ASSERT_EQ(gtp_->Must("komi 7.5"), "");
  }

  std::unique_ptr<GtpClient> gtp_;

  // How the cross-checked games are played.
  enum class Policy {
    // qipu's light policy (FullMove): what self-play plays.
    kLight,
    // Uniform among all legal points, own eyes included, among captures
    // half the time, passing now and then: positions repeat far more
    // often.
    kRandom,
  };

  // Plays `games` seeded games on size x size and checks legality with
  // GNU Go at every position: every point qipu rejects by ko or superko,
  // `illegal_samples` of its suicides, `legal_samples` of the points it
  // accepts, and the move played.
  void CrossCheck(int size, int games, Policy policy, int illegal_samples,
                  int legal_samples, Coverage* cov);
};

void GnuGo::CrossCheck(int size, int games, Policy policy, int illegal_samples,
                       int legal_samples, Coverage* cov) {
  Rules rules;
  rules.ko = KoRule::kPositional;
  rules.cycle = CycleRule::kNone;
  // Random games run longer, so that they repeat themselves more.
  if (policy == Policy::kRandom) rules.move_cap = 10 * size * size;
  for (int g = 0; g < games; ++g) {
    NewGame(size);
    if (::testing::Test::HasFatalFailure()) return;
    Game game(size, size, rules);
    Rng rng(GameSeed(size, static_cast<uint64_t>(g)));
    Rng sampler(GameSeed(size + 1000, static_cast<uint64_t>(g)));
    std::vector<std::string> record;
    while (!game.over()) {
      const Color c = game.to_play();
      auto where = [&] {
        return absl::StrCat(size, "x", size, " game ", g, " move ",
                            game.num_moves() + 1, " after ",
                            absl::StrJoin(record, " "));
      };
      // Every empty point by qipu's verdict.
      std::vector<Point> accepted;
      std::vector<Point> suicides;
      std::vector<Point> repetitions;  // ko and superko: all asked
      const Board& board = game.board();
      for (int i = 0; i < board.num_empty(); ++i) {
        const Point p = board.empty_point(i);
        const MoveVerdict v = game.Check(c, p);
        if (v.legal()) {
          accepted.push_back(p);
        } else if (v.reason == IllegalReason::kSuicide) {
          suicides.push_back(p);
        } else {
          repetitions.push_back(p);
        }
      }
      std::sort(accepted.begin(), accepted.end());
      std::sort(suicides.begin(), suicides.end());
      std::vector<Point> ask_illegal = repetitions;
      for (int k = 0; k < illegal_samples && !suicides.empty(); ++k) {
        const int i = static_cast<int>(
            sampler.Below(static_cast<uint32_t>(suicides.size())));
        ask_illegal.push_back(suicides[i]);
        suicides.erase(suicides.begin() + i);
      }
      std::vector<Point> ask_legal;
      for (int k = 0; k < legal_samples && !accepted.empty(); ++k) {
        ask_legal.push_back(
            accepted[sampler.Below(static_cast<uint32_t>(accepted.size()))]);
      }
      MoveVerdict v;
      Point p = kPass;
      if (policy == Policy::kLight) {
        p = FullMove(game, rng, &v);
      } else if (!accepted.empty() && rng.Below(4 * size) != 0) {
        // Captures half the time: ko fights and recaptures repeat
        // positions.
        std::vector<Point> captures;
        for (Point q : accepted) {
          if (board.Captures(q, c)) captures.push_back(q);
        }
        const std::vector<Point>& from =
            !captures.empty() && rng.Below(2) == 0 ? captures : accepted;
        p = from[rng.Below(static_cast<uint32_t>(from.size()))];
        v = game.Check(c, p);
      } else {
        v = game.Check(c, kPass);
      }
      ASSERT_TRUE(v.legal()) << where();
      if (p != kPass) ask_legal.push_back(p);

      // One pipelined round trip: the questions, then the move.
      const std::string color = c == Color::kBlack ? "b " : "w ";
      std::vector<std::string> commands;
      for (Point q : ask_illegal) {
        commands.push_back(absl::StrCat("is_legal ", color, GtpPoint(q, size)));
      }
      for (Point q : ask_legal) {
        commands.push_back(absl::StrCat("is_legal ", color, GtpPoint(q, size)));
      }
      const std::string vertex = GtpPoint(p, size);
      commands.push_back(absl::StrCat("play ", color, vertex));
      auto answers = gtp_->Batch(commands);
      ASSERT_TRUE(answers.ok()) << answers.status();
      cov->queries += static_cast<int>(commands.size()) - 1;
      for (size_t k = 0; k < ask_illegal.size(); ++k) {
        const MoveVerdict rejected = game.Check(c, ask_illegal[k]);
        cov->suicides += rejected.reason == IllegalReason::kSuicide;
        cov->kos += rejected.reason == IllegalReason::kKo;
        cov->superkos += rejected.reason == IllegalReason::kSuperko;
        const auto& a = (*answers)[k];
        EXPECT_TRUE(a.ok() && *a == "0")
            << where() << ": qipu rejects " << ColorName(c) << " "
            << GtpPoint(ask_illegal[k], size) << " ("
            << IllegalReasonName(rejected.reason) << "), GNU Go says "
            << (a.ok() ? *a : a.status().ToString());
      }
      for (size_t k = 0; k < ask_legal.size(); ++k) {
        const auto& a = (*answers)[ask_illegal.size() + k];
        EXPECT_TRUE(a.ok() && *a == "1")
            << where() << ": qipu "
            << (ask_legal[k] == p ? "plays " : "accepts ") << ColorName(c)
            << " " << GtpPoint(ask_legal[k], size) << ", GNU Go says "
            << (a.ok() ? *a : a.status().ToString());
      }
      const auto& played = answers->back();
      ASSERT_TRUE(played.ok() && played->empty())
          << where() << ": play " << vertex << ": "
          << (played.ok() ? *played : played.status().ToString());
      game.Play(c, p, v);
      record.push_back(vertex);
      ++cov->moves;
      if (::testing::Test::HasFailure()) return;
    }
    ++cov->games;
  }
}

TEST_F(GnuGo, AgreesOnLegality9x9) {
  const absl::Time start = absl::Now();
  Coverage cov;
  CrossCheck(9, 300, Policy::kLight, 4, 2, &cov);
  // The batch must have exercised the rules that can disagree.
  EXPECT_EQ(cov.games, 300);
  EXPECT_GT(cov.suicides, 1000);
  EXPECT_GT(cov.kos, 100);
  EXPECT_GT(cov.superkos, 0);
  std::cerr << "9x9: " << cov.games << " games, " << cov.moves << " moves, "
            << cov.queries << " is_legal queries (" << cov.suicides
            << " suicides, " << cov.kos << " kos, " << cov.superkos
            << " superkos) in " << absl::FormatDuration(absl::Now() - start)
            << "\n";
}

TEST_F(GnuGo, AgreesOnLegalityInRandomPlay4x4) {
  // Random play on a small board repeats positions far more often: the
  // superko checks.
  const absl::Time start = absl::Now();
  Coverage cov;
  CrossCheck(4, 150, Policy::kRandom, 4, 2, &cov);
  EXPECT_EQ(cov.games, 150);
  EXPECT_GT(cov.superkos, 50);
  EXPECT_GT(cov.kos, 100);
  std::cerr << "4x4: " << cov.games << " games, " << cov.moves << " moves, "
            << cov.queries << " is_legal queries (" << cov.suicides
            << " suicides, " << cov.kos << " kos, " << cov.superkos
            << " superkos) in " << absl::FormatDuration(absl::Now() - start)
            << "\n";
}

TEST_F(GnuGo, AgreesOnLegality19x19) {
  const absl::Time start = absl::Now();
  Coverage cov;
  CrossCheck(19, 200, Policy::kLight, 3, 1, &cov);
  EXPECT_EQ(cov.games, 200);
  EXPECT_GT(cov.suicides, 10000);
  EXPECT_GT(cov.kos, 100);
  std::cerr << "19x19: " << cov.games << " games, " << cov.moves << " moves, "
            << cov.queries << " is_legal queries (" << cov.suicides
            << " suicides, " << cov.kos << " kos, " << cov.superkos
            << " superkos) in " << absl::FormatDuration(absl::Now() - start)
            << "\n";
}

TEST_F(GnuGo, FixedHandicapMatches) {
  // GNU Go goes up to 19x19; qipu reads 0 stones as "no handicap" where
  // GTP (and GNU Go) reject it.
  for (int size = 2; size <= 19; ++size) {
    for (int stones = 1; stones <= 10; ++stones) {
      NewGame(size);
      auto gnugo = gtp_->Command(absl::StrCat("fixed_handicap ", stones));
      auto qipu = FixedHandicap(size, size, stones);
      ASSERT_EQ(gnugo.ok(), qipu.ok())
          << size << "/" << stones << ": GNU Go "
          << (gnugo.ok() ? *gnugo : gnugo.status().ToString()) << ", qipu "
          << (qipu.ok() ? "ok" : qipu.status().ToString());
      if (!qipu.ok()) continue;
      std::set<std::string> want;
      for (absl::string_view v : absl::StrSplit(*gnugo, ' ')) {
        want.emplace(v);
      }
      std::set<std::string> got;
      for (Point p : *qipu) got.insert(GtpPoint(p, size));
      EXPECT_EQ(got, want) << size << "/" << stones;
    }
  }
}

TEST_F(GnuGo, ClientReportsEngineErrors) {
  auto bad = gtp_->Command("play b Z99");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  auto unknown = gtp_->Command("no_such_command");
  EXPECT_FALSE(unknown.ok());
  EXPECT_EQ(gtp_->Must("name"), "GNU Go");
}

}  // namespace
}  // namespace qipu::rules
