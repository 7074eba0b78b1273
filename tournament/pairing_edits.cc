// The pairing edits of tournament.h: EditPairing() -- what a director
// changes by hand in the last round before it starts (swap two entrants,
// take a table apart and pair again, give the bye, fix colours, take the
// whole pairing back), under the checks the pairer keeps (no pair that met
// before, one bye each and one a round in a Swiss, the rotation table of a
// round robin and the bracket of an elimination), each refused with its
// reason or made with force, and every edit kept in the history.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "tournament/event_state.h"
#include "tournament/field.h"
#include "tournament/tournament.h"

namespace qipu::tournament {
namespace {

// Where an entrant stands in a round.
struct Place {
  enum class Kind { kNone, kTable, kBye, kUnpaired, kAbsent, kCut };
  Kind kind = Kind::kNone;
  int table = 0;  // 1-based, kTable only
  bool black = false;
};

bool Contains(const google::protobuf::RepeatedField<int32_t>& list, int e) {
  return std::find(list.begin(), list.end(), e) != list.end();
}

void Erase(google::protobuf::RepeatedField<int32_t>* list, int e) {
  list->erase(std::remove(list->begin(), list->end(), e), list->end());
}

Place PlaceOf(const v1::Round& r, int e) {
  Place place;
  for (const v1::Pairing& p : r.pairings()) {
    if (p.black() == e || p.white() == e) {
      place.kind = Place::Kind::kTable;
      place.table = static_cast<int>(p.table());
      place.black = p.black() == e;
      return place;
    }
  }
  if (Contains(r.byes(), e)) place.kind = Place::Kind::kBye;
  if (Contains(r.unpaired(), e)) place.kind = Place::Kind::kUnpaired;
  if (Contains(r.absent(), e)) place.kind = Place::Kind::kAbsent;
  if (Contains(r.cut(), e)) place.kind = Place::Kind::kCut;
  return place;
}

std::string PlaceText(const Place& p) {
  switch (p.kind) {
    case Place::Kind::kTable:
      return absl::StrCat("at table ", p.table);
    case Place::Kind::kBye:
      return "on the bye";
    case Place::Kind::kUnpaired:
      return "unpaired";
    case Place::Kind::kAbsent:
      return "sitting out";
    case Place::Kind::kCut:
      return "cut";
    default:
      return "not in the round";
  }
}

// The entrant called `name`: a player, or a team in a team event.
absl::StatusOr<int> EntrantIndex(const v1::Tournament& t,
                                 absl::string_view name) {
  if (t.teams_event()) {
    const int team = TeamIndex(t, name);
    if (team < 0) {
      return absl::NotFoundError(absl::StrCat("no team called '", name, "'"));
    }
    return team;
  }
  return FindPlayer(t, name);
}

bool HasResult(const v1::Pairing& p) {
  if (p.result() != v1::GAME_RESULT_UNKNOWN) return true;
  for (const v1::BoardGame& b : p.boards()) {
    if (b.result() != v1::GAME_RESULT_UNKNOWN) return true;
  }
  return false;
}

// Renumbers the tables 1..n after one was taken out.
void Renumber(v1::Round* r) {
  for (int i = 0; i < r->pairings_size(); ++i) {
    r->mutable_pairings(i)->set_table(i + 1);
  }
}

// The edit in progress: the tournament before, the one being changed,
// and what the checks found.
class Editor {
 public:
  Editor(const v1::Tournament& t, const PairingEdit& edit, int round)
      : edit_(edit), round_(round), next_(t) {
    v1::Tournament earlier = t;
    earlier.mutable_round()->RemoveLast();
    before_ = BuildField(earlier);
    now_ = BuildField(t);
  }

  absl::Status Run() {
    r_ = next_.mutable_round(round_ - 1);
    switch (edit_.kind) {
      case PairingEditKind::kUndoRound:
        return Undo();
      case PairingEditKind::kSwapColours:
        return SwapColours();
      case PairingEditKind::kUnpair:
        return Unpair();
      case PairingEditKind::kPair:
        return Pair();
      case PairingEditKind::kBye:
        return Bye();
      case PairingEditKind::kSwap:
        return Swap();
    }
    return absl::InvalidArgumentError("unknown pairing edit");
  }

  v1::Tournament& next() { return next_; }
  const std::vector<std::string>& reasons() const { return reasons_; }
  const std::string& what() const { return what_; }
  int table() const { return table_; }

 private:
  std::string Name(int e) const { return EntrantNameOf(next_, e); }

  // The table edited, which must exist and have no result.
  absl::StatusOr<v1::Pairing*> Table(int table) {
    if (table < 1 || table > r_->pairings_size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("round ", round_, " table ", table, ": no such table (",
                       r_->pairings_size(), " tables)"));
    }
    v1::Pairing* p = r_->mutable_pairings(table - 1);
    if (HasResult(*p)) {
      return absl::FailedPreconditionError(
          absl::StrCat("round ", round_, " table ", table, " has a result (",
                       GameResultText(p->result()),
                       "): a game that has started keeps its pairing"));
    }
    table_ = table;
    return p;
  }

  // The checks of the pairer for a new pair and for a bye.
  void CheckPair(int a, int b) {
    for (const Meeting& m : before_.entrants[a].meetings) {
      if (m.opponent == b) {
        reasons_.push_back(absl::StrCat("'", Name(a), "' and '", Name(b),
                                        "' met in round ", m.round,
                                        " (no pair meets twice)"));
        break;
      }
    }
    Structure();
  }
  void CheckBye(int e) {
    if (IsSwissFamily(next_.system())) {
      const auto& byes = before_.entrants[e].bye_rounds;
      if (!byes.empty()) {
        reasons_.push_back(absl::StrCat("'", Name(e), "' had the bye in round ",
                                        byes.front(), " (one bye each)"));
      }
      if (r_->byes_size() > 0) {
        reasons_.push_back(absl::StrCat("round ", round_,
                                        " has a bye already ('",
                                        Name(r_->byes(0)), "')"));
      }
    }
    Structure();
  }
  // A bye taken from `holder` once the round has started (a result is in)
  // is a result changed: refused without force, like a forfeit's.
  void CheckByeTaken(int holder) {
    for (const v1::Pairing& p : r_->pairings()) {
      if (HasResult(p) && !p.by_withdrawal()) {
        reasons_.push_back(
            absl::StrCat("round ", round_, " has started (table ", p.table(),
                         " has a result): the bye of '", Name(holder),
                         "' counts as a win already"));
        return;
      }
    }
  }
  void Structure() {
    if (structure_checked_) return;
    structure_checked_ = true;
    if (IsRoundRobin(next_.system())) {
      reasons_.push_back("a round robin's pairings follow its rotation table");
    } else if (!IsSwissRound(next_, round_)) {
      reasons_.push_back("an elimination's pairings follow its bracket");
    }
  }

  // An entrant that can be placed in the round: unpaired by an edit, or a
  // late entry registered after the round was paired.
  absl::StatusOr<int> Available(const std::string& name) {
    QIPU_ASSIGN_OR_RETURN(const int e, EntrantIndex(next_, name));
    const Place place = PlaceOf(*r_, e);
    if (place.kind == Place::Kind::kUnpaired) {
      Erase(r_->mutable_unpaired(), e);
      return e;
    }
    const bool late =
        !next_.teams_event() &&
        static_cast<int>(next_.players(e).entered_at_round()) == round_ + 1 &&
        place.kind == Place::Kind::kNone;
    if (late && now_.entrants[e].withdrawn_at_round == 0) {
      // Registered after the round was paired, placed in it now.
      next_.mutable_players(e)->set_entered_at_round(round_);
      return e;
    }
    return absl::FailedPreconditionError(
        absl::StrCat("'", name, "' is ", PlaceText(place), " in round ", round_,
                     ", not unpaired (unpair or swap instead)"));
  }

  absl::Status Undo() {
    for (const v1::Pairing& p : r_->pairings()) {
      if (HasResult(p) && !p.by_withdrawal()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "round ", round_, " has started (table ", p.table(),
            " has a result): its pairing can no longer be taken back"));
      }
    }
    next_.mutable_round()->RemoveLast();
    for (v1::TournamentPlayer& p : *next_.mutable_players()) {
      // Registered after the round was paired: in it when paired again.
      if (static_cast<int>(p.entered_at_round()) == round_ + 1) {
        p.set_entered_at_round(round_);
      }
    }
    what_ = absl::StrCat("round ", round_, "'s pairing taken back");
    return absl::OkStatus();
  }

  absl::Status SwapColours() {
    QIPU_ASSIGN_OR_RETURN(v1::Pairing * p, Table(edit_.table));
    const int black = p->black();
    p->set_black(p->white());
    p->set_white(black);
    if (next_.teams_event()) FillBoards(next_, round_, p);
    what_ = absl::StrCat("colours of table ", edit_.table, " swapped: '",
                         Name(p->black()), "' Black, '", Name(p->white()),
                         "' White");
    return absl::OkStatus();
  }

  absl::Status Unpair() {
    if (!edit_.first.empty()) {
      QIPU_ASSIGN_OR_RETURN(const int e, EntrantIndex(next_, edit_.first));
      if (PlaceOf(*r_, e).kind != Place::Kind::kBye) {
        return absl::FailedPreconditionError(
            absl::StrCat("'", edit_.first, "' is ", PlaceText(PlaceOf(*r_, e)),
                         " in round ", round_, ", not on the bye"));
      }
      CheckByeTaken(e);
      Erase(r_->mutable_byes(), e);
      r_->add_unpaired(e);
      what_ = absl::StrCat("bye of '", edit_.first, "' taken back");
      return absl::OkStatus();
    }
    QIPU_ASSIGN_OR_RETURN(v1::Pairing * p, Table(edit_.table));
    what_ = absl::StrCat("table ", edit_.table, " ('", Name(p->black()),
                         "' - '", Name(p->white()), "') taken apart");
    r_->add_unpaired(p->black());
    r_->add_unpaired(p->white());
    r_->mutable_pairings()->erase(r_->mutable_pairings()->begin() +
                                  (edit_.table - 1));
    Renumber(r_);
    return absl::OkStatus();
  }

  absl::Status Pair() {
    if (edit_.first == edit_.second) {
      return absl::InvalidArgumentError("a player cannot meet themselves");
    }
    QIPU_ASSIGN_OR_RETURN(const int a, Available(edit_.first));
    QIPU_ASSIGN_OR_RETURN(const int b, Available(edit_.second));
    CheckPair(a, b);
    v1::Pairing* p = r_->add_pairings();
    p->set_table(r_->pairings_size());
    p->set_black(a);
    p->set_white(b);
    if (next_.teams_event()) FillBoards(next_, round_, p);
    table_ = static_cast<int>(p->table());
    what_ = absl::StrCat("'", edit_.first, "' (B) - '", edit_.second,
                         "' (W) paired at table ", p->table());
    return absl::OkStatus();
  }

  absl::Status Bye() {
    QIPU_ASSIGN_OR_RETURN(const int e, Available(edit_.first));
    CheckBye(e);
    r_->add_byes(e);
    what_ = absl::StrCat("bye to '", edit_.first, "'");
    return absl::OkStatus();
  }

  absl::Status Swap() {
    QIPU_ASSIGN_OR_RETURN(const int a, EntrantIndex(next_, edit_.first));
    QIPU_ASSIGN_OR_RETURN(const int b, EntrantIndex(next_, edit_.second));
    const Place pa = PlaceOf(*r_, a);
    const Place pb = PlaceOf(*r_, b);
    for (const auto& [e, place] : {std::pair{a, pa}, std::pair{b, pb}}) {
      if (place.kind != Place::Kind::kTable &&
          place.kind != Place::Kind::kBye &&
          place.kind != Place::Kind::kUnpaired) {
        return absl::FailedPreconditionError(absl::StrCat(
            "'", Name(e), "' is ", PlaceText(place), " in round ", round_,
            ": only paired, bye or unpaired entrants swap"));
      }
    }
    if (a == b || (pa.kind == pb.kind && pa.kind != Place::Kind::kTable)) {
      return absl::FailedPreconditionError(
          absl::StrCat("'", edit_.first, "' and '", edit_.second, "' are both ",
                       PlaceText(pa), ": swapping them changes nothing"));
    }
    if (pa.kind == Place::Kind::kTable && pb.kind == Place::Kind::kTable &&
        pa.table == pb.table) {
      return absl::FailedPreconditionError(absl::StrCat(
          "'", edit_.first, "' and '", edit_.second, "' meet at table ",
          pa.table, ": swap their colours instead"));
    }
    // Every table touched must not have started.
    for (const Place& place : {pa, pb}) {
      if (place.kind == Place::Kind::kTable) {
        QIPU_RETURN_IF_ERROR(Table(place.table).status());
      }
    }
    if (pa.kind == Place::Kind::kBye) CheckByeTaken(a);
    if (pb.kind == Place::Kind::kBye) CheckByeTaken(b);
    Put(b, pa, a);
    Put(a, pb, b);
    // The checks on what the swap made.
    for (const auto& [e, place] : {std::pair{b, pa}, std::pair{a, pb}}) {
      if (place.kind == Place::Kind::kTable) {
        const v1::Pairing& p = r_->pairings(place.table - 1);
        CheckPair(p.black(), p.white());
      } else if (place.kind == Place::Kind::kBye) {
        Erase(r_->mutable_byes(), e);  // CheckBye counts the others
        CheckBye(e);
        r_->add_byes(e);
      }
    }
    what_ = absl::StrCat("'", edit_.first, "' (", PlaceText(pa), ") and '",
                         edit_.second, "' (", PlaceText(pb), ") swapped");
    return absl::OkStatus();
  }

  // Puts `e` where `place` says, in place of `holder`.
  void Put(int e, const Place& place, int holder) {
    if (place.kind == Place::Kind::kTable) {
      v1::Pairing* p = r_->mutable_pairings(place.table - 1);
      if (place.black) {
        p->set_black(e);
      } else {
        p->set_white(e);
      }
      if (next_.teams_event()) FillBoards(next_, round_, p);
      return;
    }
    auto* list = place.kind == Place::Kind::kBye ? r_->mutable_byes()
                                                 : r_->mutable_unpaired();
    std::replace(list->begin(), list->end(), holder, e);
  }

  const PairingEdit& edit_;
  const int round_;
  v1::Tournament next_;
  v1::Round* r_ = nullptr;
  // The records before this round (the pairer's view), and with it.
  Field before_;
  Field now_;
  std::vector<std::string> reasons_;
  bool structure_checked_ = false;
  std::string what_;
  int table_ = 0;
};

}  // namespace

absl::StatusOr<std::vector<std::string>> EditPairing(v1::Tournament* t,
                                                     const PairingEdit& edit) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t));
  if (t->round_size() == 0) {
    return absl::FailedPreconditionError("no round is paired yet");
  }
  const int round = edit.round == 0 ? t->round_size() : edit.round;
  if (round != t->round_size()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", round, " is not the last round paired (", t->round_size(),
        "): only the last round's pairing can be edited"));
  }
  if (t->system() == v1::TOURNAMENT_SYSTEM_BEST_OF ||
      t->system() == v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE) {
    return absl::FailedPreconditionError(
        absl::StrCat("a ", SystemName(t->system()),
                     " pairs its two sides by its own rule: nothing to edit"));
  }
  Editor editor(*t, edit, round);
  QIPU_RETURN_IF_ERROR(editor.Run());
  std::vector<std::string> notes;
  if (!editor.reasons().empty()) {
    const std::string why = absl::StrJoin(editor.reasons(), "; ");
    if (!edit.force) {
      return absl::FailedPreconditionError(
          absl::StrCat("round ", round, ": ", editor.what(),
                       " is refused: ", why, " (--force makes it)"));
    }
    notes.push_back(absl::StrCat(editor.what(), " (forced: ", why, ")"));
  }
  v1::Tournament& next = editor.next();
  if (edit.kind != PairingEditKind::kUndoRound) {
    next.mutable_round(round - 1)->set_edited(true);
  }
  v1::TournamentChange* c = AppendChange(&next, edit.actor, "pairing");
  c->set_round(round);
  c->set_table(editor.table());
  c->set_forced(!editor.reasons().empty());
  c->set_detail(notes.empty() ? editor.what() : notes.front());
  *t = std::move(next);
  return notes;
}

}  // namespace qipu::tournament
