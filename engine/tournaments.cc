#include "engine/tournaments.h"

#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/quote.h"
#include "store/keys.h"

namespace qipu::engine {

absl::StatusOr<uint64_t> ParseTournamentId(absl::string_view id) {
  uint64_t n = 0;
  if (!absl::SimpleAtoi(id, &n) || n == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("tournament id ", base::QuoteInput(id),
                     " is not a tournament number (1, 2, ...)"));
  }
  return n;
}

tournament::Actor ActorNow(const std::string& who) {
  return tournament::Actor{who, absl::ToUnixMillis(absl::Now())};
}

absl::StatusOr<qipu::v1::Tournament> Tournaments::Read(uint64_t id) const {
  auto value =
      store_->Get(store::Records::kTournaments, store::TournamentKey(id));
  if (!value.ok()) return value.status();
  if (!value->has_value()) {
    return absl::NotFoundError(absl::StrCat("no tournament ", id));
  }
  qipu::v1::Tournament t;
  if (!t.ParseFromString(**value)) {
    return absl::DataLossError(
        absl::StrCat("the record of tournament ", id, " does not decode"));
  }
  if (absl::Status s = tournament::ValidateTournament(t); !s.ok()) {
    return absl::DataLossError(absl::StrCat("the record of tournament ", id,
                                            " is inconsistent: ", s.message()));
  }
  return t;
}

absl::Status Tournaments::Write(uint64_t id, const qipu::v1::Tournament& t,
                                store::Durability durability) {
  return store_->Put(store::Records::kTournaments, store::TournamentKey(id),
                     t.SerializeAsString(), durability);
}

absl::StatusOr<qipu::v1::Tournament> Tournaments::Create(
    tournament::TournamentOptions options,
    const qipu::v1::ArenaSettings& arena) {
  absl::MutexLock lock(&mu_);
  // Validate before taking an id.
  options.id = "0";
  if (auto check = tournament::CreateTournament(options); !check.ok()) {
    return check.status();
  }
  auto id = store_->NextCounter("next_tournament");
  if (!id.ok()) return id.status();
  options.id = absl::StrCat(*id);
  auto t = tournament::CreateTournament(options);
  if (!t.ok()) return t.status();
  if (arena.ByteSizeLong() > 0) *t->mutable_arena() = arena;
  if (absl::Status s = Write(*id, *t); !s.ok()) return s;
  return t;
}

absl::StatusOr<qipu::v1::Tournament> Tournaments::Get(
    absl::string_view id) const {
  auto n = ParseTournamentId(id);
  if (!n.ok()) return n.status();
  return Read(*n);
}

absl::StatusOr<std::vector<qipu::v1::Tournament>> Tournaments::All() const {
  std::vector<qipu::v1::Tournament> out;
  store::Cursor it = store_->Scan(store::Records::kTournaments);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    auto id = store::DecodeTournamentKey(it.key());
    if (!id.has_value()) continue;  // not a key of this layout
    auto t = Read(*id);
    if (!t.ok()) return t.status();
    out.push_back(*std::move(t));
  }
  if (absl::Status s = it.status(); !s.ok()) return s;
  return out;
}

absl::StatusOr<qipu::v1::Tournament> Tournaments::Update(
    absl::string_view id, const Change& change, store::Durability durability) {
  auto n = ParseTournamentId(id);
  if (!n.ok()) return n.status();
  absl::MutexLock lock(&mu_);
  auto t = Read(*n);
  if (!t.ok()) return t.status();
  if (absl::Status s = change(&*t); !s.ok()) return s;
  if (absl::Status s = Write(*n, *t, durability); !s.ok()) return s;
  return t;
}

namespace {

absl::StatusOr<qipu::v1::TournamentResponse> Response(
    absl::StatusOr<qipu::v1::Tournament> t) {
  if (!t.ok()) return t.status();
  qipu::v1::TournamentResponse r;
  *r.mutable_tournament() = *std::move(t);
  return r;
}

}  // namespace

absl::StatusOr<qipu::v1::TournamentResponse> Tournaments::Create(
    const qipu::v1::CreateTournamentRequest& req) {
  tournament::TournamentOptions o;
  o.name = req.name();
  o.system = req.system();
  o.rounds = static_cast<int>(req.rounds());
  o.best_of = static_cast<int>(req.best_of());
  o.losses = static_cast<int>(req.losses());
  o.teams = req.teams();
  o.boards = static_cast<int>(req.boards());
  o.knockout_size = static_cast<int>(req.knockout_size());
  o.drawing_lots = req.drawing_lots();
  o.eliminate_after = static_cast<int>(req.eliminate_after());
  o.late_entry_points = static_cast<int>(req.late_entry_points());
  o.sit_out_points = static_cast<int>(req.sit_out_points());
  o.accelerated_rounds = static_cast<int>(req.accelerated_rounds());
  return Response(Create(std::move(o), req.arena()));
}

absl::StatusOr<qipu::v1::TournamentResponse> Tournaments::Get(
    const qipu::v1::TournamentRequest& req) const {
  return Response(Get(req.tournament()));
}

absl::StatusOr<qipu::v1::ListTournamentsResponse> Tournaments::List(
    const qipu::v1::ListTournamentsRequest&) const {
  auto all = All();
  if (!all.ok()) return all.status();
  qipu::v1::ListTournamentsResponse r;
  for (qipu::v1::Tournament& t : *all) *r.add_tournaments() = std::move(t);
  return r;
}

absl::StatusOr<qipu::v1::TournamentResponse> Tournaments::AddPlayer(
    const qipu::v1::AddPlayerRequest& req) {
  tournament::PlayerEntry e;
  e.name = req.name();
  e.rating = req.rating();
  e.rank = req.rank();
  e.club = req.club();
  e.team = req.team();
  e.board = static_cast<int>(req.board());
  e.alt_name = req.alt_name();
  e.seed = static_cast<int>(req.seed());
  return Response(Update(req.tournament(), [&](qipu::v1::Tournament* t) {
    return tournament::AddPlayer(t, e).status();
  }));
}

absl::StatusOr<qipu::v1::TournamentResponse> Tournaments::Withdraw(
    const qipu::v1::WithdrawRequest& req, const std::string& who) {
  const tournament::Actor actor = ActorNow(who);
  return Response(Update(req.tournament(), [&](qipu::v1::Tournament* t) {
    return req.team() ? tournament::WithdrawTeam(t, req.name(), actor)
                      : tournament::WithdrawPlayer(t, req.name(), actor);
  }));
}

absl::StatusOr<qipu::v1::TournamentResponse> Tournaments::EditPlayer(
    const qipu::v1::EditPlayerRequest& req) {
  tournament::PlayerEdit e;
  if (req.has_rating()) e.rating = req.rating();
  if (req.has_rank()) e.rank = req.rank();
  if (req.has_club()) e.club = req.club();
  if (req.has_alt_name()) e.alt_name = req.alt_name();
  if (req.has_seed()) e.seed = static_cast<int>(req.seed());
  return Response(Update(req.tournament(), [&](qipu::v1::Tournament* t) {
    return tournament::EditPlayer(t, req.name(), e);
  }));
}

absl::StatusOr<qipu::v1::TournamentResponse> Tournaments::SitOut(
    const qipu::v1::SitOutRequest& req) {
  return Response(Update(req.tournament(), [&](qipu::v1::Tournament* t) {
    return tournament::SitOut(t, req.name(), static_cast<int>(req.round()),
                              req.cancel());
  }));
}

absl::StatusOr<qipu::v1::TournamentResponse> Tournaments::EditPairing(
    const qipu::v1::EditPairingRequest& req, const std::string& who) {
  tournament::PairingEdit e;
  switch (req.kind()) {
    case qipu::v1::PAIRING_EDIT_SWAP:
      e.kind = tournament::PairingEditKind::kSwap;
      break;
    case qipu::v1::PAIRING_EDIT_UNPAIR:
      e.kind = tournament::PairingEditKind::kUnpair;
      break;
    case qipu::v1::PAIRING_EDIT_PAIR:
      e.kind = tournament::PairingEditKind::kPair;
      break;
    case qipu::v1::PAIRING_EDIT_BYE:
      e.kind = tournament::PairingEditKind::kBye;
      break;
    case qipu::v1::PAIRING_EDIT_SWAP_COLOURS:
      e.kind = tournament::PairingEditKind::kSwapColours;
      break;
    case qipu::v1::PAIRING_EDIT_UNDO_ROUND:
      e.kind = tournament::PairingEditKind::kUndoRound;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("pairing edit kind ", static_cast<int>(req.kind()),
                       " is not swap, unpair, pair, bye, colours or undo"));
  }
  e.round = static_cast<int>(req.round());
  e.first = req.first();
  e.second = req.second();
  e.table = static_cast<int>(req.table());
  e.force = req.force();
  e.actor = ActorNow(who);
  std::vector<std::string> notes;
  auto t = Update(req.tournament(), [&](qipu::v1::Tournament* t) {
    auto n = tournament::EditPairing(t, e);
    if (!n.ok()) return n.status();
    notes = *std::move(n);
    return absl::OkStatus();
  });
  auto r = Response(std::move(t));
  if (r.ok()) {
    for (std::string& n : notes) r->add_notes(std::move(n));
  }
  return r;
}

absl::StatusOr<qipu::v1::TournamentResponse> Tournaments::AddWarnings(
    const qipu::v1::WarningsRequest& req) {
  return Response(Update(req.tournament(), [&](qipu::v1::Tournament* t) {
    return tournament::AddWarnings(t, req.name(),
                                   static_cast<int>(req.count()));
  }));
}

absl::StatusOr<qipu::v1::PairResponse> Tournaments::Pair(
    const qipu::v1::PairRequest& req) {
  tournament::PairingOptions o;
  o.allow_repeats = req.allow_repeats();
  tournament::PairingReport report;
  auto t = Update(req.tournament(), [&](qipu::v1::Tournament* t) {
    auto r = tournament::PairNextRound(t, o);
    if (!r.ok()) return r.status();
    report = *std::move(r);
    return absl::OkStatus();
  });
  if (!t.ok()) return t.status();
  qipu::v1::PairResponse r;
  *r.mutable_tournament() = *std::move(t);
  r.set_round(static_cast<uint32_t>(report.round));
  r.set_paired(report.paired);
  r.set_repeat_free(report.repeat_free);
  r.set_repeats_needed(static_cast<uint32_t>(report.repeats_needed));
  *r.mutable_proposal() = std::move(report.proposal);
  return r;
}

absl::StatusOr<qipu::v1::TournamentResponse> Tournaments::SetResult(
    const qipu::v1::SetResultRequest& req, const std::string& who) {
  tournament::ResultOptions o;
  o.force = req.force();
  o.actor = ActorNow(who);
  std::vector<std::string> notes;
  auto t = Update(req.tournament(), [&](qipu::v1::Tournament* t) {
    const int round = static_cast<int>(req.round());
    const int table = static_cast<int>(req.table());
    const int board = static_cast<int>(req.board());
    auto n = tournament::EnterResult(t, round, table, board, req.result(), o);
    if (!n.ok()) return n.status();
    notes = *std::move(n);
    if (!req.game_id().empty()) {
      return tournament::AddGameId(t, round, table, board, req.game_id());
    }
    return absl::OkStatus();
  });
  auto r = Response(std::move(t));
  if (r.ok()) {
    for (std::string& n : notes) r->add_notes(std::move(n));
  }
  return r;
}

absl::StatusOr<qipu::v1::TournamentResponse> Tournaments::RecordGame(
    const qipu::v1::RecordGameRequest& req, const std::string& who) {
  const tournament::Actor actor = ActorNow(who);
  return Response(Update(
      req.tournament(),
      [&](qipu::v1::Tournament* t) { return RecordArenaGame(t, req, actor); },
      store::Durability::kNoSync));
}

namespace {

// The slot a RecordGameRequest names.
struct Slot {
  qipu::v1::GameResult result = qipu::v1::GAME_RESULT_UNKNOWN;
  const google::protobuf::RepeatedPtrField<std::string>* game_ids = nullptr;
  qipu::v1::PendingGame* pending = nullptr;
  int black = -1;  // player indexes
  int white = -1;
};

absl::StatusOr<Slot> FindSlot(qipu::v1::Tournament* t,
                              const qipu::v1::RecordGameRequest& req) {
  const std::string where = absl::StrCat("round ", req.round(), " table ",
                                         req.table(), " board ", req.board());
  if (req.round() < 1 || req.round() > static_cast<uint32_t>(t->round_size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": tournament ", t->id(), " has ", t->round_size(), " rounds"));
  }
  qipu::v1::Round* round = t->mutable_round(static_cast<int>(req.round()) - 1);
  for (qipu::v1::Pairing& p : *round->mutable_pairings()) {
    if (p.table() != req.table()) continue;
    Slot slot;
    if (t->teams_event()) {
      for (qipu::v1::BoardGame& b : *p.mutable_boards()) {
        if (b.board() != req.board() || req.board() == 0) continue;
        slot.result = b.result();
        slot.game_ids = &b.game_ids();
        slot.pending = b.mutable_pending();
        slot.black = b.black();
        slot.white = b.white();
        return slot;
      }
      break;
    }
    if (req.board() != 0) break;
    slot.result = p.result();
    slot.game_ids = &p.game_ids();
    slot.pending = p.mutable_pending();
    slot.black = p.black();
    slot.white = p.white();
    return slot;
  }
  return absl::InvalidArgumentError(
      absl::StrCat(where, ": no such game in tournament ", t->id()));
}

}  // namespace

absl::Status RecordArenaGame(qipu::v1::Tournament* t,
                             const qipu::v1::RecordGameRequest& req,
                             const tournament::Actor& actor) {
  auto slot = FindSlot(t, req);
  if (!slot.ok()) return slot.status();
  const qipu::v1::PendingGame& game = req.game();
  const std::string where = absl::StrCat("round ", req.round(), " table ",
                                         req.table(), " board ", req.board());
  if (game.result() == qipu::v1::GAME_RESULT_UNKNOWN) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": the arena's game has no result"));
  }
  if (slot->result != qipu::v1::GAME_RESULT_UNKNOWN) {
    if (req.complete() && slot->result == game.result() &&
        absl::c_linear_search(*slot->game_ids, game.game_id())) {
      return absl::OkStatus();  // completed before: nothing to do
    }
    return absl::FailedPreconditionError(
        absl::StrCat(where, " already has a result"));
  }
  if (!req.complete()) {
    if (game.sgf().empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": the arena's game has no SGF"));
    }
    *slot->pending = game;
    return absl::OkStatus();
  }
  if (game.game_id().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": the arena's game has no game id"));
  }
  const int round = static_cast<int>(req.round());
  const int table = static_cast<int>(req.table());
  const int board = static_cast<int>(req.board());
  const int black = slot->black;
  const int white = slot->white;
  slot->pending->Clear();
  tournament::ResultOptions o;
  o.actor = actor;
  if (absl::Status s =
          tournament::EnterResult(t, round, table, board, game.result(), o)
              .status();
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          tournament::AddGameId(t, round, table, board, game.game_id());
      !s.ok()) {
    return s;
  }
  const std::pair<int, uint32_t> warned[] = {{black, game.black_warnings()},
                                             {white, game.white_warnings()}};
  for (const auto& [player, count] : warned) {
    if (count == 0) continue;
    if (player < 0 || player >= t->players_size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": warnings for a player not in the game"));
    }
    if (absl::Status s = tournament::AddWarnings(t, t->players(player).name(),
                                                 static_cast<int>(count));
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace qipu::engine
