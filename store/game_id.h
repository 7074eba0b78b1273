// GameId in store/: the identity of a stored game is rules::GameId
// (rules/game_id.h: the value type and its one text form,
// "s<job>-<index>" and "i<32 hex digits>", which the worker uses too);
// store/ names it store::GameId and adds ContentId(), the hash that is an
// imported game's identity (a data format: it keys the games column
// family).
#ifndef QIPU_STORE_GAME_ID_H_
#define QIPU_STORE_GAME_ID_H_

#include "rules/game_id.h"
#include "rules/record.h"

namespace qipu::store {

using GameId = rules::GameId;
using rules::GameIdText;
using rules::ParseGameId;

// The identity of an imported game: a stable 128-bit hash (a data format:
// pinned by tests) of width, height, the setup steps and the main-line
// moves with their colours. Metadata does not count.
GameId ContentId(const rules::GameRecord& record);

}  // namespace qipu::store

#endif  // QIPU_STORE_GAME_ID_H_
