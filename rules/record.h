// GameRecord: one game as a record holds it (SGF main line and metadata),
// independent of any rule checking. The SGF reader produces it, the writer
// consumes it, Replay() (replay.h) checks it against a rule set.
#ifndef QIPU_RULES_RECORD_H_
#define QIPU_RULES_RECORD_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "rules/record_note.h"
#include "rules/result.h"
#include "rules/types.h"

namespace qipu::rules {

// Stones placed outside the move sequence (SGF AB/AW/AE and PL).
struct SetupStep {
  // Number of main-line moves played before this setup (0 = root).
  int before_move = 0;
  std::vector<Point> black;
  std::vector<Point> white;
  std::vector<Point> empty;
  // Side to move afterwards (SGF PL); kEmpty when not given.
  Color to_play = Color::kEmpty;
};

// A property of one move's node that qipu keeps: its own two-letter `Q*`
// properties (QM, the root visits of the search that chose the move; see
// engine/game_format.h). The writer also takes SGF's BL, WL, OB, OW
// and C here (the arena's time left and rulings), which the reader does not
// keep.
struct MoveProperty {
  // 0-based index of the move in GameRecord::moves.
  int move = 0;
  std::string name;
  std::string value;

  friend bool operator==(const MoveProperty&, const MoveProperty&) = default;
};

// A main-line move the reader could not read as a point of the board.
struct UnreadMove {
  // 1-based move number; 0 when every move was read.
  int move = 0;
  Color color = Color::kEmpty;
  // The property value as written (trimmed), and why it is not a point.
  std::string value;
  // True when it names a point outside the board (two letters beyond the
  // size); false when it is no SGF point at all.
  bool off_board = false;
  std::string reason;

  friend bool operator==(const UnreadMove&, const UnreadMove&) = default;
};

// A game record. Plain value type.
struct GameRecord {
  int width = 19;
  int height = 19;
  // Setup steps in main-line order; a root AB with HA is the handicap.
  std::vector<SetupStep> setup;
  // Main-line moves in order. point is a board point or kPass; colours are
  // as recorded (records may have two moves of one colour in a row).
  std::vector<Move> moves;
  // The main line's first move whose value is not a point of the board
  // (B[zz] on 19x19, B[4d]), when there is one: `moves` ends before it and
  // the rest of the main line is not read (engine/prepare.h keeps such a
  // record cut there, or refuses it under --strict).
  UnreadMove unread;

  // HA (0 when absent).
  int handicap = 0;
  // KM in points after normalisation; has_komi false when absent.
  double komi = 0;
  bool has_komi = false;
  // RU as written.
  std::string rules;
  // RE: its text as written (trimmed) and what it means, read once
  // (RecordResult::Read) where the record is read or made.
  RecordResult result;
  // PB, PW, BR, WR, DT, EV, GN, PC (UTF-8).
  std::string black_player;
  std::string white_player;
  std::string black_rank;
  std::string white_rank;
  std::string date;
  std::string event;
  std::string game_name;
  std::string place;
  // qipu's own root properties (QS seed, QJ job, QI index, QC cycles,
  // QK ko captures, QV version, QP policy) and any other root property
  // that has no field above, as (name, first value) in file order.
  std::vector<std::pair<std::string, std::string>> extra;
  // qipu's properties of move nodes, in move order (the reader keeps the
  // two-letter names starting with 'Q' of a node that has a move).
  std::vector<MoveProperty> move_extra;

  // Where the game starts in its file (byte offset of its '(' or first
  // node) and its 1-based number within the file.
  size_t byte_offset = 0;
  int game_number = 1;
  // Normalisations applied while reading, in the order they were made
  // (record_note.h: a kind and its facts, e.g. a Fox KM[650] read as komi
  // 6.5; NoteText() renders one for reports).
  std::vector<RecordNote> notes;
};

}  // namespace qipu::rules

#endif  // QIPU_RULES_RECORD_H_
