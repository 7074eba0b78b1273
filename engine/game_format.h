// Exchange formats of stored games: SGF and JSON Lines. `qipu export`
// writes them, `qipu import` reads both back, and a game written in either
// form re-imports as the same game (same board size, setup and main-line
// moves with their colours, hence the same store::ContentId).
//
// SGF: rules::WriteSgf() of the game's record (proto/convert.h
// GameToRecord) with the game's own result (RE), komi (KM), rules (RU: the
// name of the preset the rules are, komi aside, or the RulesKey of custom
// rules), players, ranks, date and event, plus qipu's root properties:
//   QJ job, QI game index, QS seed, QA attempt   (self-play only)
//   QP policy, QO import source, QC cycles, QK ko captures, QV version
//   QB, QW Black's and White's policy specs, when they differ (then QP is
//          "<black> vs <white>", a display form)
// The reader keeps unknown root properties as GameRecord::extra, so these
// survive a round trip as text; they never affect a game's identity.
//
// Searches (Game.search_visits): the node of each searched move carries
// QM, the root visits of the search that chose that move, most visited
// first, as space-separated point:visits pairs with SGF points and "pass":
//   ;B[dd]QM[dd:20 cc:6 pass:1]
// (like Leela Zero's and KataGo's per-move analysis data, in qipu's own
// property so that other tools ignore it). The reader keeps a move node's
// Q* properties (GameRecord::move_extra) and import stores them again as
// the game's search_visits: export then import keeps the visits.
//
// JSON: a game has one JSON shape, written by GameJson() alone: each line
// of a JSONL export, `qipu query game --json` and /api/v1/game/ID
// (report::GameJson) and the base of the explorer's replay
// (web::GameReplayJson, which adds its per-move extras). One object,
// keys in this order:
//   id, width, height, rules (as RU above), rules_key (rules::RulesKey),
//   komi, handicap,
//   setup [{before_move, black, white, empty (GTP vertex lists), to_play}],
//   first_color ("B"/"W"), moves (GTP vertices, "pass"), same_color_moves
//   (0-based indices of moves played by the colour of the move before),
//   result (SGF RE: rules::RecordResult::Sgf()), winner, reason, margin,
//   detail (Result.detail, "" for none), illegal_point (GTP vertex of
//   Result.illegal_point, "" for none), area {black, white, dame} (the
//   stored count), cycles [{class, outcome, first_move, period, point,
//   black_captures, white_captures}], voided_cycles [the same],
//   ko_captures, record ("" whole within its rules, "noted", "cut"),
//   record_notes [{move, colour, vertex, rule, cut, text}] (KeptNotes()),
//   searches [{move (0-based), points (GTP vertices,
//   "pass"), visits (one count per point)}] (the root visits of each
//   searched move, as QM in SGF), provenance {job, game_index, seed,
//   attempt, worker, policy, black_policy, white_policy, source, file,
//   file_game, qipu_version, stored_unix_micros}, meta {black_player,
//   white_player, black_rank, white_rank, date, date_ymd, event,
//   record_result, normalised}. Import reads `searches` back (as it reads
//   QM), with the same checks, and ignores what it does not need.
// Colours of the moves: first_color, then alternating except at the
// indices in same_color_moves (as in qipu.v1.Game).
//
// All functions are pure and thread-safe.
#ifndef QIPU_ENGINE_GAME_FORMAT_H_
#define QIPU_ENGINE_GAME_FORMAT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/game.pb.h"
#include "rules/record.h"

namespace qipu::engine {

// The record a game exports as: moves, setup and metadata from the game,
// RE from its result (rules::RecordResult::Sgf(): the record's raw RE when
// the result is unknown; for a win with a reason SGF does not define,
// "W+J", the reason as the raw RE wrote it), KM
// from its rules, RU as described above and qipu's Q* properties in
// `extra`. InvalidArgument when the stored game does not decode (bad
// size, points or move counts).
absl::StatusOr<rules::GameRecord> ExportRecord(const qipu::v1::Game& game);

// The SGF move property of a search's root visits (see above).
inline constexpr absl::string_view kSearchProperty = "QM";

// The QM properties of a game's search_visits, one per searched move.
// InvalidArgument when search_visits does not decode.
absl::StatusOr<std::vector<rules::MoveProperty>> SearchProperties(
    const qipu::v1::Game& game);

// A record's QM properties packed as Game.search_visits ("" when it has
// none). InvalidArgument naming the move for a value that is not
// point:visits pairs, a point off the board, a point twice, zero visits.
absl::StatusOr<std::string> SearchVisitsOf(const rules::GameRecord& record);

// ExportRecord() written as one FF[4] SGF game tree (UTF-8, ends with a
// newline).
absl::StatusOr<std::string> GameToSgf(const qipu::v1::Game& game);

// One note of an imported record kept against its rules (prepare.h).
struct KeptNote {
  // 1-based move number, colour ("B"/"W") and vertex (GTP, "pass"; empty
  // for a cut move that is not a point).
  int move = 0;
  std::string colour;
  std::string vertex;
  // A breach's rule ("ko", "superko", "cycle", "suicide", "game-end") or
  // the cut's reason ("occupied", "off-board").
  std::string rule;
  // True for the cut (the last note).
  bool cut = false;
  // In words: rules::RuleBreachText(), or rules::RecordCutText() and how
  // many moves were stored.
  std::string text;
};

// Game.breaches then Game.cut as notes, in that order (empty for a game
// stored whole within its rules). Pure.
std::vector<KeptNote> KeptNotes(const qipu::v1::Game& game);

// The game as one JSON object, the shape above: the one writer of a
// stored game's JSON. `id` is its text id (store::GameIdText).
// InvalidArgument as for ExportRecord().
absl::StatusOr<nlohmann::ordered_json> GameJson(const qipu::v1::Game& game,
                                                absl::string_view id);

// GameJson() on one line (no trailing newline), invalid UTF-8 replaced.
absl::StatusOr<std::string> GameToJsonLine(const qipu::v1::Game& game,
                                           absl::string_view id);

// Reads one line written by GameToJsonLine() back into a record: size,
// setup, moves with their colours, handicap, komi, rules (as an SGF RU
// value), result (as an SGF RE value) and the meta fields. Fields it does
// not need (id, cycles, provenance, ...) are ignored, missing optional
// fields take their defaults. InvalidArgument names the first bad field
// (not JSON, a missing width/height/moves, a bad vertex or colour).
absl::StatusOr<rules::GameRecord> JsonLineToRecord(absl::string_view line);

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_GAME_FORMAT_H_
