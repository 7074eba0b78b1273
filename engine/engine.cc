#include "engine/engine.h"

#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "proto/convert.h"
#include "rules/rules_key.h"
#include "spdlog/spdlog.h"
#include "store/keys.h"
#include "store/player_index.h"

namespace qipu::engine {
namespace {

// Writes the player index of a database opened before it existed
// (store/player_index.h): each game's configuration is its job's, or for
// an import the one its dimensions intern to (as PrepareImport() made it),
// indexed to the import depth (60).
absl::Status BackfillPlayers(store::Store* store,
                             store::ConfigRegistry* configs) {
  absl::flat_hash_map<uint64_t, store::GameBucket> jobs;
  auto bucket_of =
      [&](const qipu::v1::Game& g) -> absl::StatusOr<store::GameBucket> {
    const qipu::v1::Provenance& p = g.provenance();
    if (p.job() != 0) {
      if (auto it = jobs.find(p.job()); it != jobs.end()) return it->second;
      auto v = store->Get(store::Records::kJobs, store::JobKey(p.job()));
      if (!v.ok()) return v.status();
      qipu::v1::JobRecord job;
      if (!v->has_value() || !job.ParseFromString(**v)) {
        return absl::NotFoundError(absl::StrCat("job ", p.job()));
      }
      store::GameBucket b{job.config_id(),
                          static_cast<int>(job.config().index_depth())};
      jobs[p.job()] = b;
      return b;
    }
    auto r = wire::RulesFromProto(g.rules());
    if (!r.ok()) return r.status();
    qipu::v1::ConfigRecord dims;
    dims.set_width(g.width());
    dims.set_height(g.height());
    dims.set_rules_key(rules::RulesKey(*r).Text());
    dims.set_preset(rules::PresetName(*r));
    dims.set_komi(r->komi);
    dims.set_handicap(g.handicap());
    dims.set_source(p.source());
    dims.set_policy("import");
    dims.set_record(g.has_cut() ? "cut" : g.breaches_size() > 0 ? "noted" : "");
    auto id = configs->Intern(dims);
    if (!id.ok()) return id.status();
    return store::GameBucket{*id, 60};
  };
  spdlog::info("database {}: writing the player index", store->dir());
  auto n = store::BackfillPlayerIndex(store, bucket_of);
  if (!n.ok()) {
    return absl::Status(
        n.status().code(),
        absl::StrCat("database ", store->dir(),
                     ": writing the player index: ", n.status().message()));
  }
  spdlog::info("database {}: player index written for {} games", store->dir(),
               *n);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Engine>> Engine::Open(
    const std::string& dir, const EngineOptions& options) {
  std::unique_ptr<Engine> e(new Engine(options));
  e->dir_ = dir;
  store::StoreOptions so = options.store;
  so.create_if_missing = options.create;
  auto st = store::Store::Open(dir, so);
  if (!st.ok()) {
    if (!options.eager && absl::IsUnavailable(st.status()) &&
        absl::StrContains(absl::AsciiStrToLower(st.status().message()),
                          "lock")) {
      return absl::FailedPreconditionError(
          absl::StrCat(st.status().message(),
                       " (a running coordinator holds it: use --server ADDR)"));
    }
    return st.status();
  }
  e->store_ = *std::move(st);
  e->configs_ = std::make_unique<store::ConfigRegistry>(e->store_.get());
  if (absl::Status s = e->configs_->Load(); !s.ok()) return s;
  auto has_players = store::HasPlayerIndex(*e->store_);
  if (!has_players.ok()) return has_players.status();
  if (!*has_players) {
    if (absl::Status s = BackfillPlayers(e->store_.get(), e->configs_.get());
        !s.ok()) {
      return s;
    }
  }
  e->queries_ =
      std::make_unique<QueryEngine>(e->store_.get(), e->configs_.get());
  e->tournaments_ = std::make_unique<Tournaments>(e->store_.get());
  auto tokens = TokenRegistry::Load(e->store_.get());
  if (!tokens.ok()) return tokens.status();
  e->tokens_ = *std::move(tokens);
  if (options.eager) {
    auto importer = e->importer();
    if (!importer.ok()) return importer.status();
  }
  return e;
}

Engine::~Engine() { Close(); }

void Engine::Close() {
  absl::MutexLock lock(&mu_);
  importer_.reset();
  if (ingest_ != nullptr) ingest_->Stop();
  ingest_.reset();
  jobs_.reset();
  tokens_.reset();
  tournaments_.reset();
  queries_.reset();
  configs_.reset();
  store_.reset();
}

absl::StatusOr<JobManager*> Engine::JobsLocked() {
  if (jobs_ == nullptr) {
    auto jobs = std::make_unique<JobManager>(store_.get(), configs_.get(),
                                             options_.jobs);
    if (absl::Status s = jobs->Load(); !s.ok()) return s;
    jobs_ = std::move(jobs);
  }
  return jobs_.get();
}

absl::StatusOr<JobManager*> Engine::jobs() {
  absl::MutexLock lock(&mu_);
  return JobsLocked();
}

absl::StatusOr<Ingestor*> Engine::IngestorLocked() {
  if (ingest_ == nullptr) {
    auto jobs = JobsLocked();
    if (!jobs.ok()) return jobs.status();
    JobManager* j = *jobs;
    // Self-play games are checked for duplicates against the job manager's
    // record of stored games, not looked up in the database.
    ingest_ = std::make_unique<Ingestor>(
        store_.get(), options_.ingest,
        [j](const PreparedGame& g) {
          if (g.job != 0) j->MarkStored(g.job, g.index);
        },
        [j](const PreparedGame& g) -> std::optional<bool> {
          if (g.job == 0) return std::nullopt;
          return j->IsStored(g.job, g.index);
        });
  }
  return ingest_.get();
}

absl::StatusOr<Ingestor*> Engine::ingestor() {
  absl::MutexLock lock(&mu_);
  return IngestorLocked();
}

absl::StatusOr<Importer*> Engine::importer() {
  absl::MutexLock lock(&mu_);
  if (importer_ == nullptr) {
    auto ingest = IngestorLocked();
    if (!ingest.ok()) return ingest.status();
    importer_ =
        std::make_unique<Importer>(configs_.get(), *ingest, options_.importer);
  }
  return importer_.get();
}

}  // namespace qipu::engine
