// SGF writer: one GameRecord as an FF[4] SGF game tree, the inverse of the
// reader's main line: ReadSgf(WriteSgf(r)) gives back r's moves, setup and
// game information (not its notes, byte offset or game number).
#ifndef QIPU_RULES_SGF_WRITER_H_
#define QIPU_RULES_SGF_WRITER_H_

#include <string>

#include "rules/record.h"

namespace qipu::rules {

// Writes one game as FF[4] SGF, UTF-8: the root holds GM[1] FF[4]
// CA[UTF-8] SZ (SZ[w:h] when not square), then HA (when > 0), KM (when
// has_komi), RU, RE, PB, PW, BR, WR, DT, EV, GN, PC (when not empty), the
// `extra` properties in order, and the first setup step when it comes
// before any move (AB/AW/AE/PL). Other setup steps become setup nodes
// before the move they precede; moves follow as B[..]/W[..], passes as
// B[] and W[], each followed by its `move_extra` properties: qipu's own
// (two-letter names starting with 'Q'), read back by the reader, and
// SGF's time left (BL, WL, OB, OW) and comment (C), written for other
// tools and not read back (the reader keeps Q* only); other names, and
// entries out of move order, are skipped. Text values escape ']' and '\'.
//
// Written as given, without checks: strings should be UTF-8 and the
// simple-text fields free of line breaks (the reader turns those into
// spaces). Skipped, so that the output always reads back: `extra` entries
// whose name is not uppercase letters, names the writer writes itself, and
// repeated names (the first is written); moves and setup points that are
// not points of the width x height board (kPass is a move); moves whose
// colour is not Black or White; setup steps with nothing in them. A komi
// of 100 or more that is a whole number is written with ".0", so that
// readers do not take it for Fox's komi x100. Thread-safe.
std::string WriteSgf(const GameRecord& record);

}  // namespace qipu::rules

#endif  // QIPU_RULES_SGF_WRITER_H_
