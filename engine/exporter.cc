#include "engine/exporter.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/status_macros.h"
#include "base/varint.h"
#include "engine/filter.h"
#include "engine/prepare.h"
#include "engine/queries.h"
#include "proto/convert.h"
#include "proto/job_policies.h"
#include "rules/rules.h"
#include "rules/rules_key.h"
#include "spdlog/spdlog.h"
#include "store/keys.h"

namespace qipu::engine {
namespace {

// The handicap PrepareImport() files an import under: the stones of a
// root, Black-only setup of a record with HA >= 2, when there are at least
// two (rules::Replay() places them as a free handicap), else 0.
uint32_t ImportHandicap(const qipu::v1::Game& g) {
  if (g.handicap() < 2 || g.setup_size() == 0) return 0;
  const qipu::v1::Setup& s = g.setup(0);
  if (s.before_move() != 0 || !s.white().empty() || !s.empty().empty()) {
    return 0;
  }
  // Points in the packed list: one varint each.
  const uint32_t stones = static_cast<uint32_t>(base::CountVarints(s.black()));
  return stones >= 2 ? stones : 0;
}

}  // namespace

qipu::v1::ConfigRecord GameDimensions(const qipu::v1::Game& game) {
  qipu::v1::ConfigRecord c;
  c.set_width(game.width());
  c.set_height(game.height());
  if (auto r = wire::RulesFromProto(game.rules()); r.ok()) {
    c.set_rules_key(rules::RulesKey(*r).Text());
    c.set_preset(rules::PresetName(*r));
  }
  c.set_komi(game.rules().komi());
  const qipu::v1::Provenance& p = game.provenance();
  if (p.job() != 0) {
    c.set_handicap(game.handicap());
    c.set_source(absl::StrCat("job:", p.job()));
  } else {
    c.set_handicap(ImportHandicap(game));
    c.set_source(p.source());
  }
  if (p.job() != 0) {
    const wire::ColourPolicies pol = wire::GamePolicies(p);
    c.set_policy(pol.black);
    if (!pol.same()) c.set_white_policy(pol.white);
  } else {
    c.set_policy(p.policy());
  }
  // How an imported record was kept (engine/prepare.h).
  if (game.has_cut()) {
    c.set_record("cut");
  } else if (game.breaches_size() > 0) {
    c.set_record("noted");
  }
  return c;
}

uint32_t GameDay(const qipu::v1::Game& game) {
  if (game.provenance().job() == 0) return game.meta().date_ymd();
  return DayOf(absl::FromUnixMicros(game.provenance().stored_unix_micros()));
}

absl::StatusOr<store::GameId> GameIdOf(const qipu::v1::Game& game) {
  const qipu::v1::Provenance& p = game.provenance();
  if (p.job() != 0) return store::GameId::SelfPlay(p.job(), p.game_index());
  if (!p.content_id().empty()) return store::ParseGameId(p.content_id());
  auto record = wire::GameToRecord(game);
  if (!record.ok()) return record.status();
  return store::ContentId(*record);
}

absl::StatusOr<ExportStats> Exporter::Export(const qipu::v1::ExportRequest& req,
                                             const Sink& sink,
                                             absl::Time deadline) const {
  auto filter = Filter::Compile(req.filter());
  if (!filter.ok()) return filter.status();
  std::string start;
  if (!req.after().empty()) {
    auto after = store::ParseGameId(req.after());
    if (!after.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("after: ", after.status().message()));
    }
    start = store::GameKey(*after);
  }
  // One pass over the whole family: read ahead, keep the cache for others.
  store::ScanOptions scan;
  scan.fill_cache = false;
  scan.readahead_bytes = 2u << 20;
  store::Cursor it = store_->Scan(store::Records::kGames, scan);
  ExportStats stats;
  qipu::v1::Game game;
  if (start.empty()) {
    it.SeekToFirst();
  } else {
    it.Seek(start);
    if (it.Valid() && it.key() == start) it.Next();
  }
  for (; it.Valid(); it.Next()) {
    if (req.limit() != 0 && stats.games >= req.limit()) break;
    // The clock every 256 games read.
    if ((stats.scanned & 255) == 255 && absl::Now() > deadline) {
      stats.timed_out = true;
      break;
    }
    ++stats.scanned;
    const absl::string_view k = it.key();
    const absl::string_view v = it.value();
    auto id = store::DecodeGameKey(k);
    if (id.has_value()) stats.last_read = *id;
    if (!id.has_value() ||
        !game.ParseFromArray(v.data(), static_cast<int>(v.size()))) {
      ++stats.damaged;
      spdlog::warn("export: skipping a damaged game record (key {} bytes)",
                   k.size());
      continue;
    }
    if (!filter->MatchesDay(GameDay(game)) ||
        !filter->MatchesConfig(GameDimensions(game))) {
      continue;
    }
    ++stats.games;
    if (!sink(*id, game)) return stats;
  }
  QIPU_RETURN_IF_ERROR(it.status());
  return stats;
}

}  // namespace qipu::engine
