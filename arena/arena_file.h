// ArenaFile: the tournament file of `qipu arena run` -- who plays (qipu
// policies and GTP engines), by which system, on what board, under which
// rules, clock and illegal-move policy, and how many games at once. JSON,
// read with nlohmann-json; every error names the file, the key and why.
//
//   {
//     "name": "9x9 gauntlet",              required
//     "system": "round-robin",             tournament::ParseSystem() spellings
//     "rounds": 0, "best_of": 0,           as `qipu tournament new`
//     "losses": 0, "knockout_size": 0,
//     "teams": false, "boards": 0,         team events
//     "board_size": 9, "rules": "chinese", "komi": 7.5, "handicap": 0,
//     "clock": "byoyomi:60+3x10",          gtp/time_settings.h ("none")
//     "illegal_moves": "chinese",          "forfeit" or "chinese"
//     "concurrency": 2,                    games played at once
//     "seed": 1, "index_depth": 60,
//     "entrants": [
//       {"name": "mcts-2k", "spec": "mcts:playouts=2000", "rating": 0},
//       {"name": "gnugo", "spec": "gtp:/usr/games/gnugo --mode gtp"},
//       ...                                team events: "team", "board"
//     ]
//   }
#ifndef QIPU_ARENA_ARENA_FILE_H_
#define QIPU_ARENA_ARENA_FILE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/tournament_service.pb.h"

namespace qipu::arena {

// One entrant of the file.
struct ArenaFileEntrant {
  std::string name;
  std::string spec;
  int rating = 0;
  std::string team;
  int board = 0;
};

// The file, validated. Plain value.
struct ArenaFile {
  // The tournament as CreateTournamentRequest (arena settings included).
  qipu::v1::CreateTournamentRequest create;
  std::vector<ArenaFileEntrant> entrants;
};

// Parses the file's text; `name` (the path) prefixes every error.
// InvalidArgument for malformed JSON (line and column), an unknown key, a
// value of the wrong type or out of range, an unknown system, rules preset,
// clock or illegal-move policy, a policy spec qipu cannot make, fewer than
// two entrants or two of one name. Thread-safe.
absl::StatusOr<ArenaFile> ParseArenaFile(absl::string_view text,
                                         absl::string_view name);

// Reads and parses the file at `path`; NotFound / InvalidArgument naming
// it.
absl::StatusOr<ArenaFile> ReadArenaFile(const std::string& path);

}  // namespace qipu::arena

#endif  // QIPU_ARENA_ARENA_FILE_H_
