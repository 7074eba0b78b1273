// The record of a match (match/match.h) as an SGF game record
// (rules::WriteSgf): SZ, KM, RU (the rules' name), HA with the handicap
// stones as AB, RE (the referee's result, rules::ResultToSgf: "B+3.5",
// "W+R", "B+T" on time, "W+Illegal" for a forfeited illegal move, "B+F"
// for a second warning or a player's failure), PB/PW, EV, GN, DT, TM
// (main time, seconds) and OT ("3x30 byo-yomi", "25/600 Canadian"), GC
// (how the game ended and was scored: the dead stones taken off, the
// disputes, the warnings), QB/QW (the players' specs); on each move BL or
// WL, the mover's time left after it, and OB/OW, the stones or periods
// left in byo-yomi; the match's comments as C (a voided illegal move, art.
// 22.5's pass, the first move of a play-out).
#ifndef QIPU_MATCH_MATCH_RECORD_H_
#define QIPU_MATCH_MATCH_RECORD_H_

#include <string>

#include "match/match.h"
#include "rules/record.h"

namespace qipu::match {

// What the record names besides the match. Plain value.
struct RecordInfo {
  std::string black_name;
  std::string white_name;
  std::string black_spec;
  std::string white_spec;
  // RU: the rules' name.
  std::string rules_name;
  // EV, GN, DT (when not empty).
  std::string event;
  std::string game_name;
  std::string date;
};

// The record of `m` (see the file comment). Thread-safe.
rules::GameRecord MatchRecord(const MatchOutcome& m, const RecordInfo& info);

// GC's text: "count: two passes; dead stones agreed: ..., counted B+3.5;
// Black 1 warning".
std::string MatchComment(const MatchOutcome& m);

}  // namespace qipu::match

#endif  // QIPU_MATCH_MATCH_RECORD_H_
