#include "local/local_report.h"

#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/console.h"
#include "base/signals.h"
#include "proto/convert.h"
#include "proto/job_policies.h"

namespace qipu::local {
namespace {

// "policies: Black mcts:playouts=50, White random\n", or "policy:
// random (both colours)\n".
std::string PoliciesLine(const qipu::v1::JobConfig& config) {
  const wire::ColourPolicies p = wire::JobPolicies(config);
  if (p.same()) return absl::StrCat("policy: ", p.black, " (both colours)\n");
  return absl::StrCat("policies: Black ", p.black, ", White ", p.white, "\n");
}

std::string Pct(uint64_t n, uint64_t of) {
  return of == 0 ? "-" : absl::StrFormat("%.1f%%", 100.0 * n / of);
}

}  // namespace

nlohmann::json SummaryJson(const LocalSummary& s) {
  const qipu::v1::Outcomes& out = s.results.outcomes();
  nlohmann::json cyc = nlohmann::json::array();
  for (const auto& row : s.cycles.rows()) {
    cyc.push_back({{"class", wire::CycleClassName(row.cls())},
                   {"outcome", wire::CycleOutcomeName(row.outcome())},
                   {"cycles", row.cycles()},
                   {"games", row.games()}});
  }
  nlohmann::json op = nlohmann::json::array();
  for (const auto& cont : s.openings.continuations()) {
    op.push_back({{"move", cont.move()},
                  {"games", cont.outcomes().games()},
                  {"black_wins", cont.outcomes().black_wins()}});
  }
  const wire::ColourPolicies policies = wire::JobPolicies(s.config);
  nlohmann::json j = {{"job", s.job},
                      {"seed", s.config.seed()},
                      {"black_policy", policies.black},
                      {"white_policy", policies.white},
                      {"games", out.games()},
                      {"seconds", s.seconds},
                      {"games_per_sec", s.games_per_sec},
                      {"black_wins", out.black_wins()},
                      {"white_wins", out.white_wins()},
                      {"draws", out.draws()},
                      {"void", out.void_()},
                      {"ko_captures_mean", s.ko.all().mean()},
                      {"games_with_ko", s.ko.all().games_with_ko()},
                      {"cycles", cyc},
                      {"top_openings", op},
                      {"db", s.db}};
  if (s.interrupted_by > 0) {
    j["interrupted"] = base::SignalName(s.interrupted_by);
    j["requested"] = s.requested;
  }
  if (s.cancelled) {
    j["cancelled"] = true;
    j["requested"] = s.requested;
  }
  return j;
}

std::string SummaryText(const LocalSummary& s) {
  const qipu::v1::Outcomes& out = s.results.outcomes();
  const qipu::v1::KoGroup& ko = s.ko.all();
  std::string t;
  if (s.cancelled) {
    absl::StrAppendFormat(
        &t,
        "\nqipu local: job %d was cancelled: %d of its %d games are "
        "stored\n",
        s.job, out.games(), s.requested);
  }
  if (s.interrupted_by > 0) {
    absl::StrAppendFormat(
        &t,
        "\nqipu local: interrupted (%s): %d of the %d games of job %d are "
        "stored; the others stay queued in the job\n",
        base::SignalName(s.interrupted_by), out.games(), s.requested, s.job);
  }
  absl::StrAppendFormat(
      &t,
      "\nqipu local: job %d, %d games of %dx%d %s (seed %d) in %.1f s "
      "(%.0f games/s), database %s\n",
      s.job, out.games(), s.config.width(), s.config.height(),
      s.config.rules().preset(), s.config.seed(), s.seconds, s.games_per_sec,
      s.db);
  t += PoliciesLine(s.config);
  absl::StrAppendFormat(
      &t,
      "results: Black %d (%s), White %d (%s), draws %d, void %d; mean "
      "length %.1f moves\n",
      out.black_wins(), Pct(out.black_wins(), out.games()), out.white_wins(),
      Pct(out.white_wins(), out.games()), out.draws(), out.void_(),
      s.results.mean_length());
  absl::StrAppendFormat(
      &t,
      "ko: %.2f ko captures per game (median %.0f, p99 %.0f), %s of games "
      "with at least one\n",
      ko.mean(), ko.p50(), ko.p99(), Pct(ko.games_with_ko(), ko.games()));
  if (s.cycles.rows().empty()) {
    t += "cycles: none\n";
  } else {
    t += "cycles:\n";
    for (const auto& row : s.cycles.rows()) {
      absl::StrAppendFormat(&t,
                            "  %-26s %-21s %6d in %d games (%.1f per 10,000)\n",
                            wire::CycleClassName(row.cls()),
                            wire::CycleOutcomeName(row.outcome()), row.cycles(),
                            row.games(), row.per_10k());
    }
  }
  t += "top openings (first move, all symmetries folded):\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& cont : s.openings.continuations()) {
    const auto& oc = cont.outcomes();
    rows.push_back({"  " + cont.move(), absl::StrCat(oc.games()),
                    Pct(oc.black_wins(), oc.games())});
  }
  t += base::FormatTable({"  move", "games", "Black wins"}, rows);
  absl::StrAppendFormat(
      &t, "ask more: qipu query openings --db %s --size %d --moves \"%s\"\n",
      s.db, s.config.width(),
      s.openings.continuations().empty() ? ""
                                         : s.openings.continuations(0).move());
  return t;
}

std::string StartLine(uint64_t job, uint64_t requested,
                      const qipu::v1::JobConfig& config,
                      const std::string& db) {
  return absl::StrFormat(
      "qipu local: job %d started: %d games of %dx%d %s, %s, database %s\n",
      job, requested, config.width(), config.height(), config.rules().preset(),
      wire::PolicyDisplay(wire::JobPolicies(config)), db);
}

std::string UnfinishedJobNote(const qipu::v1::JobStatus& st,
                              const std::string& db) {
  return absl::StrFormat(
      "qipu local: job %d of an earlier run has %d of %d games stored; it is "
      "left as it is (qipu local --job %d continues it, qipu job cancel --db "
      "%s --job %d ends it)\n",
      st.job(), st.done(), st.requested(), st.job(), db, st.job());
}

}  // namespace qipu::local
