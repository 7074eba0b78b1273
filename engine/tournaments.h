// Tournaments: the tournaments of a database -- each one qipu.v1.Tournament
// message (the whole state, tournament/tournament.h) under
// store::TournamentKey() in the jobs column family -- and the one way to
// change them: read, apply a tournament/ function, write back, under a
// lock, so that concurrent directors' commands (over gRPC, or on a
// database opened by one process) are serialised and a failed change
// leaves the stored state as it was. Ids are the database's counter
// "next_tournament" (1, 2, ...) written in decimal. The changes that the
// tournament's history keeps (results, withdrawals, pairing edits) take
// `who` -- the caller, as the service or the tool names it -- and are
// stamped with this process's clock.
//
// Thread-safe.
#ifndef QIPU_ENGINE_TOURNAMENTS_H_
#define QIPU_ENGINE_TOURNAMENTS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "qipu/v1/tournament.pb.h"
#include "qipu/v1/tournament_service.pb.h"
#include "store/store.h"
#include "tournament/tournament.h"

namespace qipu::engine {

class Tournaments {
 public:
  // Does not own `store`, which must outlive this.
  explicit Tournaments(store::Store* store) : store_(store) {}

  // The requests of TournamentService (tournament_service.proto), for the
  // service and for a database opened by the tool. Errors are those of the
  // tournament/ functions they call (InvalidArgument, FailedPrecondition,
  // NotFound naming what is wrong), NotFound for an unknown tournament,
  // DataLoss for a damaged record, the store's for a failed write. `who`
  // (Withdraw, SetResult, RecordGame, EditPairing) goes into the history.
  absl::StatusOr<qipu::v1::TournamentResponse> Create(
      const qipu::v1::CreateTournamentRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> Get(
      const qipu::v1::TournamentRequest& req) const;
  absl::StatusOr<qipu::v1::ListTournamentsResponse> List(
      const qipu::v1::ListTournamentsRequest& req) const;
  absl::StatusOr<qipu::v1::TournamentResponse> AddPlayer(
      const qipu::v1::AddPlayerRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> Withdraw(
      const qipu::v1::WithdrawRequest& req, const std::string& who = "");
  absl::StatusOr<qipu::v1::TournamentResponse> AddWarnings(
      const qipu::v1::WarningsRequest& req);
  absl::StatusOr<qipu::v1::PairResponse> Pair(const qipu::v1::PairRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> SetResult(
      const qipu::v1::SetResultRequest& req, const std::string& who = "");
  absl::StatusOr<qipu::v1::TournamentResponse> EditPlayer(
      const qipu::v1::EditPlayerRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> SitOut(
      const qipu::v1::SitOutRequest& req);
  absl::StatusOr<qipu::v1::TournamentResponse> EditPairing(
      const qipu::v1::EditPairingRequest& req, const std::string& who = "");
  // An arena's game, staged or completed (RecordGameRequest); see
  // RecordArenaGame(). Written without an fsync of its own: the arena's
  // next step, the synced import of the game into this database, makes
  // the staged game durable with it (RocksDB's write-ahead log is one
  // sequence, so syncing a later write syncs every earlier one), and a
  // completion lost to a power cut is redone from the durable pending
  // game when the arena runs again.
  absl::StatusOr<qipu::v1::TournamentResponse> RecordGame(
      const qipu::v1::RecordGameRequest& req, const std::string& who = "");

  // Creates a tournament (options.id is ignored: the database assigns
  // it) with `arena` as its arena settings (empty for events between
  // people) and stores it durably. InvalidArgument for bad options
  // (tournament::CreateTournament()).
  absl::StatusOr<qipu::v1::Tournament> Create(
      tournament::TournamentOptions options,
      const qipu::v1::ArenaSettings& arena = {});

  // The stored tournament `id`. InvalidArgument for an id that is not a
  // number, NotFound for an unknown one, DataLoss for a damaged record.
  absl::StatusOr<qipu::v1::Tournament> Get(absl::string_view id) const;

  // Every tournament, by id.
  absl::StatusOr<std::vector<qipu::v1::Tournament>> All() const;

  // Applies `change` to tournament `id` and stores the result durably when
  // it returns OK; returns the tournament as stored. The change's error
  // is returned unchanged (and nothing is written). Changes are
  // serialised.
  // `durability`: kSync unless the caller's protocol makes the write
  // durable otherwise (RecordGame).
  using Change = std::function<absl::Status(qipu::v1::Tournament*)>;
  absl::StatusOr<qipu::v1::Tournament> Update(
      absl::string_view id, const Change& change,
      store::Durability durability = store::Durability::kSync);

 private:
  absl::StatusOr<qipu::v1::Tournament> Read(uint64_t id) const;
  absl::Status Write(uint64_t id, const qipu::v1::Tournament& t,
                     store::Durability durability = store::Durability::kSync);

  store::Store* store_;
  absl::Mutex mu_;
};

// Applies `req` to `t` (RecordGameRequest): stages the game as the slot's
// pending game, or completes it -- result, game id and warnings entered and
// the pending game cleared. InvalidArgument for a slot that does not
// exist or a game without SGF / result / id; FailedPrecondition for a slot
// that already has another result.
absl::Status RecordArenaGame(qipu::v1::Tournament* t,
                             const qipu::v1::RecordGameRequest& req,
                             const tournament::Actor& actor = {});

// `who` now, for the history (tournament::Actor).
tournament::Actor ActorNow(const std::string& who);

// The numeric id of a tournament id text ("12" -> 12); InvalidArgument
// otherwise.
absl::StatusOr<uint64_t> ParseTournamentId(absl::string_view id);

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_TOURNAMENTS_H_
