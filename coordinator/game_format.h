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
// The reader keeps unknown root properties as GameRecord::extra, so these
// survive a round trip as text; they never affect a game's identity.
//
// JSONL: one JSON object per game, keys in this order:
//   id, width, height, rules, rules_key, komi, handicap,
//   setup [{before_move, black, white, empty (GTP vertex lists), to_play}],
//   first_color ("B"/"W"), moves (GTP vertices, "pass"), same_color_moves
//   (0-based indices of moves played by the colour of the move before),
//   result (SGF RE), winner, reason, margin, cycles [{class, outcome,
//   first_move, period, point, black_captures, white_captures}],
//   ko_captures, provenance {...}, meta {...}.
// Colours of the moves: first_color, then alternating except at the
// indices in same_color_moves (as in qipu.v1.Game).
//
// All functions are pure and thread-safe.
#ifndef QIPU_COORDINATOR_GAME_FORMAT_H_
#define QIPU_COORDINATOR_GAME_FORMAT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/game.pb.h"
#include "rules/record.h"

namespace qipu::coordinator {

// The record a game exports as: moves, setup and metadata from the game,
// RE from its result (the record's raw RE when the result is unknown; for
// a win with a reason SGF does not define, "W+J", the reason as the raw RE
// wrote it), KM
// from its rules, RU as described above and qipu's Q* properties in
// `extra`. InvalidArgument when the stored game does not decode (bad
// size, points or move counts).
absl::StatusOr<rules::GameRecord> ExportRecord(const qipu::v1::Game& game);

// ExportRecord() written as one FF[4] SGF game tree (UTF-8, ends with a
// newline).
absl::StatusOr<std::string> GameToSgf(const qipu::v1::Game& game);

// The game as one JSON object on one line (no trailing newline). `id` is
// its text id (store::GameIdText). InvalidArgument as for ExportRecord().
absl::StatusOr<std::string> GameToJsonLine(const qipu::v1::Game& game,
                                           absl::string_view id);

// Reads one line written by GameToJsonLine() back into a record: size,
// setup, moves with their colours, handicap, komi, rules (as an SGF RU
// value), result (as an SGF RE value) and the meta fields. Fields it does
// not need (id, cycles, provenance, ...) are ignored, missing optional
// fields take their defaults. InvalidArgument names the first bad field
// (not JSON, a missing width/height/moves, a bad vertex or colour).
absl::StatusOr<rules::GameRecord> JsonLineToRecord(absl::string_view line);

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_GAME_FORMAT_H_
