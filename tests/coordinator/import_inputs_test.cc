// Importer (engine/importer.h) on the inputs of issue 16, from the
// files under tests/rules/sgf_corpus: results whose winner is plain but
// whose reason SGF does not define (stored as that side's win, the reason
// kept, the normalisation in the summary, counted by winner and reason in
// Results); UTF-16 files (the same games as their UTF-8 twin, noted);
// malformed UTF-16 (one row about the file); collections mixing Go with
// other games (the Go games imported, the others skipped in their place).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "engine/game_format.h"
#include "engine/importer.h"
#include "engine/queries.h"
#include "gtest/gtest.h"
#include "tests/coordinator/corpus_test_util.h"

namespace qipu::coordinator::testing {
namespace {

std::string Corpus(const std::string& name) {
  return std::string(QIPU_SOURCE_DIR) + "/tests/rules/sgf_corpus/" + name;
}

TEST(ImportInputs, PlainWinnersWithOtherReasonsAreWinsNoted) {
  TempDir tmp;
  CorpusDb db(tmp.Sub("db"));
  const engine::ImportSummary s =
      db.Import({Corpus("results_nonstandard.sgf")});
  // W+Illegal, B+Illegal, W+J, W, B, B+AW, ?, Void, (empty), garbage.
  ASSERT_EQ(s.imported, 10u) << (s.errors.empty() ? "" : s.errors[0].reason());
  EXPECT_TRUE(s.errors.empty());
  const std::map<std::string, uint64_t> want = {
      {"RE[W+Illegal] read as a win for White by an illegal move (not an SGF "
       "result reason)",
       1},
      {"RE[B+Illegal] read as a win for Black by an illegal move (not an SGF "
       "result reason)",
       1},
      {"RE[W+J] read as a win for White, reason 'J' kept as written (not an "
       "SGF result reason)",
       1},
      {"RE[B+AW] read as a win for Black, reason 'AW' kept as written (not "
       "an SGF result reason)",
       1},
      {"RE[W] read as a win for White, no reason given", 1},
      {"RE[B] read as a win for Black, no reason given", 1},
      {"RE[garbage] not understood; result unknown", 1},
  };
  for (const auto& [kind, n] : want) {
    ASSERT_EQ(s.normalised.count(kind), 1u) << kind;
    EXPECT_EQ(s.normalised.at(kind), n) << kind;
  }
  EXPECT_EQ(s.normalised.at("no CA[] charset given: text read as UTF-8"), 10u);
  EXPECT_EQ(s.normalised.size(), want.size() + 1);

  // Stored: winner and reason; the RE as written (Meta.record_result, the
  // only place of a reason's text); the note in Meta.normalised; exported
  // as the RE it was.
  std::map<std::string, qipu::v1::Game> by_re;
  for (const StoredGame& g : StoredGames(db.store())) {
    by_re[g.game.meta().record_result()] = g.game;
  }
  ASSERT_EQ(by_re.size(), 10u);
  struct Row {
    const char* re;
    qipu::v1::Winner winner;
    qipu::v1::EndReason reason;
    // RE of the exported SGF.
    const char* exported;
  };
  for (const Row& r : {
           Row{"W+Illegal", qipu::v1::WINNER_WHITE,
               qipu::v1::END_REASON_ILLEGAL, "W+Illegal"},
           Row{"B+Illegal", qipu::v1::WINNER_BLACK,
               qipu::v1::END_REASON_ILLEGAL, "B+Illegal"},
           Row{"W+J", qipu::v1::WINNER_WHITE, qipu::v1::END_REASON_OTHER,
               "W+J"},
           Row{"B+AW", qipu::v1::WINNER_BLACK, qipu::v1::END_REASON_OTHER,
               "B+AW"},
           Row{"W", qipu::v1::WINNER_WHITE, qipu::v1::END_REASON_OTHER, "W"},
           Row{"B", qipu::v1::WINNER_BLACK, qipu::v1::END_REASON_OTHER, "B"},
           Row{"?", qipu::v1::WINNER_NONE, qipu::v1::END_REASON_UNKNOWN, "?"},
           Row{"Void", qipu::v1::WINNER_NONE, qipu::v1::END_REASON_VOID,
               "Void"},
           Row{"", qipu::v1::WINNER_NONE, qipu::v1::END_REASON_UNKNOWN, "?"},
           Row{"garbage", qipu::v1::WINNER_NONE, qipu::v1::END_REASON_UNKNOWN,
               "garbage"},
       }) {
    SCOPED_TRACE(r.re);
    ASSERT_EQ(by_re.count(r.re), 1u);
    const qipu::v1::Game& g = by_re.at(r.re);
    EXPECT_EQ(g.result().winner(), r.winner);
    EXPECT_EQ(g.result().reason(), r.reason);
    EXPECT_EQ(g.result().margin(), 0);
    auto exported = engine::ExportRecord(g);
    ASSERT_TRUE(exported.ok()) << exported.status();
    EXPECT_EQ(exported->result.text, r.exported);
    // Exported as JSON Lines, it reads back as the same RE.
    auto line = engine::GameToJsonLine(g, "id");
    ASSERT_TRUE(line.ok()) << line.status();
    auto back = engine::JsonLineToRecord(*line);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->result.text, r.exported);
  }
  bool noted = false;
  for (const std::string& n : by_re.at("W+J").meta().normalised()) {
    noted = noted || absl::StartsWith(n, "RE[W+J] read as a win for White");
  }
  EXPECT_TRUE(noted);

  // Results counts them by winner and by reason.
  engine::QueryEngine engine(&db.store(), &db.configs());
  auto res = engine.Results(qipu::v1::ResultsRequest());
  ASSERT_TRUE(res.ok()) << res.status();
  EXPECT_EQ(Counts::Of(res->outcomes()), (Counts{10, 3, 3, 0, 4}));
  EXPECT_EQ(res->by_reason().at("illegal"), 2u);
  EXPECT_EQ(res->by_reason().at("other"), 4u);
  EXPECT_EQ(res->by_reason().at("unknown"), 3u);
  EXPECT_EQ(res->by_reason().at("void"), 1u);
  EXPECT_EQ(res->by_reason().size(), 4u);
}

TEST(ImportInputs, Utf16FilesImportAsTheirUtf8Twin) {
  TempDir tmp;
  CorpusDb db(tmp.Sub("db"));
  // The UTF-8 file first: the UTF-16 ones hold the same two games.
  const engine::ImportSummary s = db.Import(
      {Corpus("unicode_utf8.sgf"), Corpus("unicode_utf16le_bom.sgf"),
       Corpus("unicode_utf16be_bom.sgf"), Corpus("unicode_utf16le.sgf"),
       Corpus("unicode_utf16be_ca.sgf"), Corpus("utf16le_truncated.sgf")});
  EXPECT_EQ(s.files, 6u);
  EXPECT_EQ(s.games, 10u);
  EXPECT_EQ(s.imported, 2u);
  EXPECT_EQ(s.duplicates, 8u);
  EXPECT_EQ(s.rejected, 0u);
  EXPECT_EQ(
      s.normalised.at("the file is UTF-16LE (told by its byte order mark): "
                      "decoded to UTF-8 before reading"),
      2u);
  EXPECT_EQ(
      s.normalised.at("the file is UTF-16BE (told by its byte order mark): "
                      "decoded to UTF-8 before reading"),
      2u);
  EXPECT_EQ(s.normalised.at("the file is UTF-16LE (told by its zero bytes): "
                            "decoded to UTF-8 before reading"),
            2u);
  EXPECT_EQ(s.normalised.at("the file is UTF-16BE (told by CA[UTF-16BE]): "
                            "decoded to UTF-8 before reading"),
            2u);
  // The truncated file: one row about the file, with the byte.
  ASSERT_EQ(s.errors.size(), 1u);
  const qipu::v1::ImportError& e = s.errors[0];
  EXPECT_EQ(e.file(), Corpus("utf16le_truncated.sgf"));
  EXPECT_EQ(e.game(), 0u);
  EXPECT_EQ(e.byte_offset(), 100u);
  EXPECT_TRUE(absl::StrContains(e.reason(), "odd number of bytes"))
      << e.reason();
  // The names decoded.
  std::vector<std::string> players;
  for (const StoredGame& g : StoredGames(db.store())) {
    players.push_back(g.game.meta().black_player());
  }
  std::sort(players.begin(), players.end());
  EXPECT_EQ(players, (std::vector<std::string>{"柯洁", "黑"}));
}

TEST(ImportInputs, OtherGamesOfACollectionAreSkippedNotRejected) {
  TempDir tmp;
  CorpusDb db(tmp.Sub("db"));
  const std::string file = Corpus("mixed_games.sgf");
  const engine::ImportSummary s = db.Import({file});
  EXPECT_EQ(s.games, 4u);
  EXPECT_EQ(s.imported, 2u);
  EXPECT_EQ(s.rejected, 0u);
  EXPECT_TRUE(s.errors.empty());
  ASSERT_EQ(s.skipped.size(), 2u);
  EXPECT_EQ(s.imported + s.duplicates + s.rejected + s.skipped.size(), s.games);
  EXPECT_EQ(s.skipped[0].file(), file);
  EXPECT_EQ(s.skipped[0].game(), 2u);
  EXPECT_EQ(s.skipped[0].byte_offset(), 39u);
  EXPECT_EQ(s.skipped[0].reason(),
            "GM[19] at byte 41 (line 2, column 3): not a game of Go (Go is "
            "GM[1])");
  EXPECT_EQ(s.skipped[1].game(), 4u);
  EXPECT_TRUE(absl::StrContains(s.skipped[1].reason(), "GM[3]"));
  std::vector<uint32_t> numbers;
  for (const StoredGame& g : StoredGames(db.store())) {
    numbers.push_back(g.game.provenance().file_game());
  }
  std::sort(numbers.begin(), numbers.end());
  EXPECT_EQ(numbers, (std::vector<uint32_t>{1, 3}));
}

}  // namespace
}  // namespace qipu::coordinator::testing
