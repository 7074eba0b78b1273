#include "arena/arena_runner.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "arena/referee.h"
#include "backend/corpus_client.h"
#include "backend/tournament_client.h"
#include "engine/engine.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtp/time_settings.h"
#include "match/adjudication.h"
#include "match/player.h"
#include "rules/sgf_reader.h"
#include "store/game_id.h"
#include "tournament/tournament.h"

namespace qipu::arena {
namespace {

namespace fs = std::filesystem;
using qipu::v1::Tournament;

// One game of the current round still without a result.
struct Slot {
  int round = 0;
  int table = 0;
  int board = 0;   // team pairings; 0 otherwise
  int black = -1;  // player indexes
  int white = -1;
  qipu::v1::PendingGame pending;
};

std::vector<Slot> OpenSlots(const Tournament& t) {
  std::vector<Slot> out;
  if (t.round_size() == 0) return out;
  const qipu::v1::Round& r = t.round(t.round_size() - 1);
  for (const qipu::v1::Pairing& p : r.pairings()) {
    if (t.teams_event()) {
      for (const qipu::v1::BoardGame& b : p.boards()) {
        if (b.result() != qipu::v1::GAME_RESULT_UNKNOWN) continue;
        out.push_back({static_cast<int>(r.number()),
                       static_cast<int>(p.table()), static_cast<int>(b.board()),
                       b.black(), b.white(), b.pending()});
      }
      continue;
    }
    if (p.result() != qipu::v1::GAME_RESULT_UNKNOWN) continue;
    out.push_back({static_cast<int>(r.number()), static_cast<int>(p.table()), 0,
                   p.black(), p.white(), p.pending()});
  }
  return out;
}

std::string SlotName(const Slot& s) {
  return absl::StrCat("round ", s.round, " table ", s.table,
                      s.board > 0 ? absl::StrCat(" board ", s.board) : "");
}

// The id the games column family gives the SGF's game (store/game_id.h).
absl::StatusOr<std::string> GameIdOf(const std::string& sgf) {
  rules::SgfCollection c = rules::ReadSgf(sgf);
  if (c.games.size() != 1) {
    return absl::InternalError(absl::StrCat(
        "the referee's SGF does not read back as one game: ",
        c.errors.empty() ? std::string("no game") : c.errors[0].reason));
  }
  return store::GameIdText(store::ContentId(c.games[0]));
}

// Writes `data` to `path` through a temporary file and a rename.
absl::Status WriteFileAtomically(const fs::path& path,
                                 const std::string& data) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << data;
    out.flush();
    if (!out) {
      return absl::InternalError(absl::StrCat("cannot write ", tmp.string()));
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    return absl::InternalError(absl::StrCat("cannot rename ", tmp.string(),
                                            " to ", path.string(), ": ",
                                            ec.message()));
  }
  return absl::OkStatus();
}

class Runner {
 public:
  explicit Runner(const ArenaRunOptions& o) : options_(o) {}

  absl::StatusOr<ArenaRunSummary> Run();

 private:
  absl::Status OpenTournament();
  absl::Status AddMissingPlayers(const ArenaFile& file);
  absl::Status Reload();
  absl::Status PlayRound(std::vector<Slot> slots);
  // Plays one slot on worker `worker`'s players, then stores it.
  absl::Status PlaySlot(int worker, const Slot& slot);
  // The three durable steps of the file comment (the first skipped for a
  // pending game of an earlier run).
  absl::Status Store(const Slot& slot, qipu::v1::PendingGame game, bool staged);
  absl::Status Import(const Slot& slot, const std::string& sgf);
  absl::StatusOr<match::Player*> PlayerFor(int worker, int player);
  void Report(const ArenaGameEvent& e);

  const ArenaRunOptions& options_;
  std::unique_ptr<backend::TournamentClient> client_;
  Tournament t_;
  qipu::v1::ArenaSettings settings_;
  RefereeOptions referee_;
  std::string date_;
  ArenaRunSummary summary_;
  absl::Mutex mu_;
  // Per worker thread: the players of the entrants it has played, by
  // player index; kept for the run.
  std::vector<std::map<int, std::unique_ptr<match::Player>>> players_;
  int games_done_ ABSL_GUARDED_BY(mu_) = 0;
};

absl::Status Runner::Reload() {
  qipu::v1::TournamentRequest req;
  req.set_tournament(t_.id());
  auto r = client_->Get(req);
  if (!r.ok()) return r.status();
  t_ = r->tournament();
  return absl::OkStatus();
}

absl::Status Runner::OpenTournament() {
  if (!options_.file.has_value()) {
    if (options_.tournament_id.empty()) {
      return absl::InvalidArgumentError(
          "arena: give a tournament file or a tournament id");
    }
    qipu::v1::TournamentRequest req;
    req.set_tournament(options_.tournament_id);
    auto r = client_->Get(req);
    if (!r.ok()) return r.status();
    t_ = r->tournament();
    if (!t_.has_arena()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tournament ", t_.id(), " (", t_.name(),
          ") is not an arena's: its games are entered by its director "
          "(qipu tournament result)"));
    }
    summary_.resumed = true;
    return absl::OkStatus();
  }
  const ArenaFile& file = *options_.file;
  auto all = client_->List({});
  if (!all.ok()) return all.status();
  for (const Tournament& t : all->tournaments()) {
    if (t.name() != file.create.name() || !t.has_arena()) continue;
    auto finished = tournament::IsFinished(t);
    if (finished.ok() && *finished) continue;
    // Continue it, when it is the same tournament.
    qipu::v1::ArenaSettings a = t.arena();
    qipu::v1::ArenaSettings b = file.create.arena();
    a.clear_concurrency();
    b.clear_concurrency();
    if (!google::protobuf::util::MessageDifferencer::Equals(a, b) ||
        t.system() != file.create.system()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "tournament ", t.id(), " \"", t.name(),
          "\" is unfinished and was started with other settings (system, "
          "entrants, board, rules, clock or seed); finish it with "
          "`qipu arena run --tournament ",
          t.id(), "`, or give this file another name"));
    }
    t_ = t;
    summary_.resumed = true;
    return AddMissingPlayers(file);
  }
  auto created = client_->Create(file.create);
  if (!created.ok()) return created.status();
  t_ = created->tournament();
  return AddMissingPlayers(file);
}

absl::Status Runner::AddMissingPlayers(const ArenaFile& file) {
  if (t_.started()) return absl::OkStatus();
  for (const ArenaFileEntrant& e : file.entrants) {
    if (tournament::FindPlayer(t_, e.name).ok()) continue;
    qipu::v1::AddPlayerRequest req;
    req.set_tournament(t_.id());
    req.set_name(e.name);
    req.set_rating(e.rating);
    req.set_team(e.team);
    req.set_board(e.board);
    auto r = client_->AddPlayer(req);
    if (!r.ok()) return r.status();
    t_ = r->tournament();
  }
  return absl::OkStatus();
}

absl::StatusOr<match::Player*> Runner::PlayerFor(int worker, int player) {
  auto& cache = players_[worker];
  auto it = cache.find(player);
  if (it != cache.end()) return it->second.get();
  const std::string& name = t_.players(player).name();
  for (const qipu::v1::ArenaEntrant& e : settings_.entrants()) {
    if (e.name() != name) continue;
    const uint64_t seed = settings_.seed() * 1000003u +
                          static_cast<uint64_t>(worker) * 7919u +
                          static_cast<uint64_t>(player);
    auto p = match::MakePlayer(e.spec(), seed, options_.engine_log);
    if (!p.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "entrant \"", name, "\" (", e.spec(), "): ", p.status().message()));
    }
    match::Player* raw = p->get();
    cache.emplace(player, *std::move(p));
    return raw;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("tournament ", t_.id(), ": player \"", name,
                   "\" is not one of the arena's entrants"));
}

void Runner::Report(const ArenaGameEvent& e) {
  absl::MutexLock lock(&mu_);
  ++games_done_;
  if (e.recovered) {
    ++summary_.games_recovered;
  } else {
    ++summary_.games_played;
  }
  if (options_.on_game) options_.on_game(e);
}

absl::Status Runner::Import(const Slot& slot, const std::string& sgf) {
  engine::ImportSettings settings;
  settings.source = absl::StrCat("tournament:", t_.id());
  settings.index_depth = static_cast<int>(settings_.index_depth());
  const std::string name = absl::StrCat(
      t_.id(), "-r", slot.round, "-t", slot.table,
      slot.board > 0 ? absl::StrCat("-b", slot.board) : "", ".sgf");
  if (engine::Engine* db = client_->database(); db != nullptr) {
    absl::Notification done;
    qipu::v1::ImportResponse response;
    auto importer = db->importer();
    if (!importer.ok()) return importer.status();
    (*importer)->ImportBytes(name, sgf, settings,
                             [&](qipu::v1::ImportResponse r) {
                               response = std::move(r);
                               done.Notify();
                             });
    done.WaitForNotification();
    if (response.imported() + response.duplicates() == 1) {
      return absl::OkStatus();
    }
    return absl::InternalError(
        absl::StrCat(SlotName(slot), ": the game was not stored: ",
                     response.errors_size() > 0 ? response.errors(0).reason()
                                                : "no game in its SGF"));
  }
  // A server: the import stream reads files; write one.
  const fs::path dir = options_.sgf_dir.empty() ? fs::temp_directory_path()
                                                : fs::path(options_.sgf_dir);
  const fs::path path = dir / absl::StrCat(".import-", ::getpid(), "-", name);
  if (absl::Status s = WriteFileAtomically(path, sgf); !s.ok()) return s;
  backend::ImportOptions io;
  io.settings = settings;
  io.timeout = absl::Minutes(5);
  auto summary = backend::Import(options_.target, {path.string()}, io);
  std::error_code ec;
  fs::remove(path, ec);
  if (!summary.ok()) return summary.status();
  if (summary->imported + summary->duplicates == 1) return absl::OkStatus();
  return absl::InternalError(
      absl::StrCat(SlotName(slot), ": the game was not stored: ",
                   summary->errors.empty() ? "no game in its SGF"
                                           : summary->errors[0].reason()));
}

absl::Status Runner::Store(const Slot& slot, qipu::v1::PendingGame game,
                           bool staged) {
  qipu::v1::RecordGameRequest req;
  req.set_tournament(t_.id());
  req.set_round(slot.round);
  req.set_table(slot.table);
  req.set_board(slot.board);
  *req.mutable_game() = game;
  if (!staged) {
    if (auto r = client_->RecordGame(req); !r.ok()) return r.status();
  }
  if (absl::Status s = Import(slot, game.sgf()); !s.ok()) return s;
  if (!options_.sgf_dir.empty()) {
    const fs::path path =
        fs::path(options_.sgf_dir) /
        absl::StrCat(t_.id(), "-r", slot.round, "-t", slot.table,
                     slot.board > 0 ? absl::StrCat("-b", slot.board) : "",
                     ".sgf");
    if (absl::Status s = WriteFileAtomically(path, game.sgf()); !s.ok()) {
      return s;
    }
  }
  req.set_complete(true);
  req.mutable_game()->clear_sgf();
  if (auto r = client_->RecordGame(req); !r.ok()) return r.status();
  return absl::OkStatus();
}

absl::Status Runner::PlaySlot(int worker, const Slot& slot) {
  auto black = PlayerFor(worker, slot.black);
  if (!black.ok()) return black.status();
  auto white = PlayerFor(worker, slot.white);
  if (!white.ok()) return white.status();
  Entrant b{t_.players(slot.black).name(), *black};
  Entrant w{t_.players(slot.white).name(), *white};
  RefereeOptions ro = referee_;
  ro.game_name =
      absl::StrCat("Round ", slot.round, ", table ", slot.table,
                   slot.board > 0 ? absl::StrCat(", board ", slot.board) : "");
  const absl::Time start = absl::Now();
  auto g = PlayGame(b, w, ro);
  if (!g.ok()) {
    return absl::Status(g.status().code(), absl::StrCat(SlotName(slot), ": ",
                                                        g.status().message()));
  }
  qipu::v1::PendingGame game;
  game.set_sgf(g->sgf);
  game.set_result(tournament::TournamentResult(g->result, g->moves()));
  auto id = GameIdOf(g->sgf);
  if (!id.ok()) return id.status();
  game.set_game_id(*id);
  game.set_black_warnings(g->warnings_of(rules::Color::kBlack));
  game.set_white_warnings(g->warnings_of(rules::Color::kWhite));
  if (absl::Status s = Store(slot, game, /*staged=*/false); !s.ok()) return s;
  ArenaGameEvent e;
  e.round = slot.round;
  e.table = slot.table;
  e.board = slot.board;
  e.black = b.name;
  e.white = w.name;
  e.result = rules::ResultToSgf(g->result);
  e.detail = g->detail;
  e.moves = g->moves();
  e.game_id = *id;
  e.wall = absl::Now() - start;
  Report(e);
  return absl::OkStatus();
}

absl::Status Runner::PlayRound(std::vector<Slot> slots) {
  // Pending games of an earlier run first: stored, not played again.
  std::vector<Slot> to_play;
  for (Slot& s : slots) {
    if (s.pending.sgf().empty()) {
      to_play.push_back(std::move(s));
      continue;
    }
    if (absl::Status st = Store(s, s.pending, /*staged=*/true); !st.ok()) {
      return st;
    }
    ArenaGameEvent e;
    e.round = s.round;
    e.table = s.table;
    e.board = s.board;
    e.black = t_.players(s.black).name();
    e.white = t_.players(s.white).name();
    rules::SgfCollection c = rules::ReadSgf(s.pending.sgf());
    if (!c.games.empty()) {
      e.result = c.games[0].result.text;
      e.moves = static_cast<int>(c.games[0].moves.size());
    }
    e.game_id = s.pending.game_id();
    e.recovered = true;
    Report(e);
  }
  const int threads =
      std::min<int>(static_cast<int>(players_.size()), to_play.size());
  std::atomic<size_t> next{0};
  absl::Mutex error_mu;
  absl::Status error;
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&, i] {
      while (true) {
        {
          absl::MutexLock lock(&error_mu);
          if (!error.ok()) return;
        }
        const size_t k = next.fetch_add(1);
        if (k >= to_play.size()) return;
        if (absl::Status s = PlaySlot(i, to_play[k]); !s.ok()) {
          absl::MutexLock lock(&error_mu);
          if (error.ok()) error = s;
          return;
        }
      }
    });
  }
  for (std::thread& th : pool) th.join();
  return error;
}

absl::StatusOr<ArenaRunSummary> Runner::Run() {
  const absl::Time start = absl::Now();
  auto c = backend::TournamentClient::Open(options_.target, /*create=*/true);
  if (!c.ok()) return c.status();
  client_ = *std::move(c);
  if (absl::Status s = OpenTournament(); !s.ok()) return s;
  settings_ = t_.arena();
  auto rules = rules::PresetRules(settings_.rules());
  if (!rules.ok()) return rules.status();
  rules->komi = settings_.komi();
  referee_.size = static_cast<int>(settings_.size());
  referee_.rules = *rules;
  referee_.rules_name = settings_.rules();
  referee_.handicap = static_cast<int>(settings_.handicap());
  auto time = gtp::ParseTimeSettings(settings_.time());
  if (!time.ok()) return time.status();
  referee_.time = *time;
  auto illegal = match::ParseIllegalMovePolicy(settings_.illegal());
  if (!illegal.ok()) return illegal.status();
  referee_.illegal = *illegal;
  referee_.event = t_.name();
  referee_.date =
      absl::FormatTime("%Y-%m-%d", absl::Now(), absl::UTCTimeZone());
  const int concurrency = options_.concurrency > 0
                              ? options_.concurrency
                              : std::max<int>(1, settings_.concurrency());
  players_.resize(concurrency);

  while (true) {
    if (absl::Status s = Reload(); !s.ok()) return s;
    auto finished = tournament::IsFinished(t_);
    if (!finished.ok()) return finished.status();
    if (*finished) break;
    std::vector<Slot> slots = OpenSlots(t_);
    if (slots.empty()) {
      qipu::v1::PairRequest req;
      req.set_tournament(t_.id());
      auto r = client_->Pair(req);
      if (!r.ok()) return r.status();
      if (!r->paired()) {
        // No repeat-free Swiss pairing: an arena goes on with the fewest
        // repeats (the round says so).
        req.set_allow_repeats(true);
        r = client_->Pair(req);
        if (!r.ok()) return r.status();
      }
      if (options_.on_round) {
        absl::MutexLock lock(&mu_);
        options_.on_round(r->tournament(), static_cast<int>(r->round()));
      }
      continue;
    }
    if (absl::Status s = PlayRound(std::move(slots)); !s.ok()) return s;
  }
  summary_.tournament = t_;
  summary_.wall = absl::Now() - start;
  return summary_;
}

}  // namespace

absl::StatusOr<ArenaRunSummary> RunArena(const ArenaRunOptions& options) {
  Runner runner(options);
  return runner.Run();
}

}  // namespace qipu::arena
