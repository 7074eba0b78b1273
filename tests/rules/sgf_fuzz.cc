// Fuzz target for the SGF reader and writer. For any bytes: ReadSgf()
// returns (no crash, no sanitizer report, no hang) at least one game, one
// error or one skipped game (not Go); every error and skipped game has an
// offset inside the input and a reason; an error about the whole input
// (game 0, e.g. malformed UTF-16) is the only outcome; every game is well
// formed (size, points on the board, valid UTF-8 text) and
// survives WriteSgf() + ReadSgf() unchanged. A broken property abort()s.
//
// Built two ways (tests/rules/CMakeLists.txt): with clang as the libFuzzer
// binary `sgf_fuzzer` (ops/fuzz runs it), and with any compiler linked to
// sgf_fuzz_main.cc, a small driver that ctest runs over the seed corpus
// (tests/rules/sgf_corpus/) plus deterministic mutations.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "rules/charset.h"
#include "rules/record.h"
#include "rules/sgf_reader.h"
#include "rules/sgf_writer.h"
#include "rules/types.h"

namespace qipu::rules {
namespace {

// Aborts with a message when a property of the reader does not hold.
void Check(bool ok, const char* what, absl::string_view input) {
  if (ok) return;
  std::fprintf(stderr, "sgf_fuzz: %s (input of %zu bytes)\n", what,
               input.size());
  std::abort();
}

bool OnBoard(Point p, const GameRecord& g) {
  if (p < 0 || p >= kNumCells) return false;
  const int x = p % kStride - 1;
  const int y = p / kStride - 1;
  return x >= 0 && x < g.width && y >= 0 && y < g.height;
}

void CheckWellFormed(const GameRecord& g, absl::string_view input) {
  Check(g.width >= kMinSize && g.width <= kMaxSize && g.height >= kMinSize &&
            g.height <= kMaxSize,
        "board size out of range", input);
  Check(g.byte_offset < input.size(), "game offset outside the input", input);
  for (const Move& m : g.moves) {
    Check(m.color == Color::kBlack || m.color == Color::kWhite,
          "move without a colour", input);
    Check(m.point == kPass || OnBoard(m.point, g), "move off the board", input);
  }
  for (const SetupStep& s : g.setup) {
    Check(
        s.before_move >= 0 && s.before_move <= static_cast<int>(g.moves.size()),
        "setup step out of order", input);
    for (const std::vector<Point>* list : {&s.black, &s.white, &s.empty}) {
      for (Point p : *list) Check(OnBoard(p, g), "setup off the board", input);
    }
  }
  for (const std::string* text : {&g.rules, &g.result.text, &g.black_player,
                                  &g.white_player, &g.black_rank, &g.white_rank,
                                  &g.date, &g.event, &g.game_name, &g.place}) {
    Check(IsValidUtf8(*text), "text is not valid UTF-8", input);
  }
  for (const auto& [id, value] : g.extra) {
    Check(!id.empty() && IsValidUtf8(value), "bad extra property", input);
  }
}

bool SameSetup(const SetupStep& a, const SetupStep& b) {
  return a.before_move == b.before_move && a.black == b.black &&
         a.white == b.white && a.empty == b.empty && a.to_play == b.to_play;
}

bool SameGame(const GameRecord& a, const GameRecord& b) {
  if (a.setup.size() != b.setup.size()) return false;
  for (size_t i = 0; i < a.setup.size(); ++i) {
    if (!SameSetup(a.setup[i], b.setup[i])) return false;
  }
  return a.width == b.width && a.height == b.height && a.moves == b.moves &&
         a.handicap == b.handicap && a.has_komi == b.has_komi &&
         (a.komi == b.komi || (a.komi != a.komi && b.komi != b.komi)) &&
         a.rules == b.rules && a.result == b.result &&
         a.black_player == b.black_player && a.white_player == b.white_player &&
         a.black_rank == b.black_rank && a.white_rank == b.white_rank &&
         a.date == b.date && a.event == b.event && a.game_name == b.game_name &&
         a.place == b.place && a.extra == b.extra;
}

// Runs every check on one input.
void FuzzOne(absl::string_view input) {
  const SgfCollection c = ReadSgf(input);
  Check(!c.games.empty() || !c.errors.empty() || !c.skipped.empty(),
        "neither games nor errors nor skipped games", input);
  int last_number = 0;
  for (const SgfError& e : c.errors) {
    Check(e.byte_offset <= input.size(), "error offset outside the input",
          input);
    Check(!e.reason.empty(), "error without a reason", input);
    Check(e.game_number >= 0, "error with a negative game number", input);
    // Game 0 is the input as a whole: then it is the only outcome.
    Check(e.game_number != 0 ||
              (c.errors.size() == 1 && c.games.empty() && c.skipped.empty()),
          "an error about the whole input beside other outcomes", input);
  }
  for (const SgfSkippedGame& s : c.skipped) {
    Check(s.byte_offset < input.size(), "skipped game outside the input",
          input);
    Check(s.game_number >= 1 && s.game_type != 1 && !s.reason.empty(),
          "bad skipped game", input);
  }
  for (const GameRecord& g : c.games) {
    Check(g.game_number > last_number, "games out of order", input);
    last_number = g.game_number;
    CheckWellFormed(g, input);
    const std::string sgf = WriteSgf(g);
    const SgfCollection again = ReadSgf(sgf);
    Check(again.errors.empty(), "written game does not read back", input);
    Check(again.games.size() == 1, "written game is not one game", input);
    Check(SameGame(g, again.games[0]), "written game reads back different",
          input);
  }
}

}  // namespace
}  // namespace qipu::rules

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  qipu::rules::FuzzOne(
      absl::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
