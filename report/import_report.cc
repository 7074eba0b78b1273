#include "report/import_report.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace qipu::report {

namespace {

nlohmann::ordered_json Rows(const std::vector<qipu::v1::ImportError>& rows) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const qipu::v1::ImportError& e : rows) {
    out.push_back({{"file", e.file()},
                   {"game", e.game()},
                   {"byte_offset", e.byte_offset()},
                   {"move", e.move()},
                   {"reason", e.reason()}});
  }
  return out;
}

// "  a.sgf: game 2, move 7: why\n".
std::string RowText(const qipu::v1::ImportError& e) {
  std::string where = e.file();
  if (e.game() != 0) absl::StrAppend(&where, ": game ", e.game());
  if (e.move() != 0) {
    absl::StrAppend(&where, ", move ", e.move());
  } else if (e.game() != 0) {
    absl::StrAppend(&where, ", byte ", e.byte_offset());
  }
  return absl::StrCat("  ", where, ": ", e.reason(), "\n");
}

}  // namespace

nlohmann::ordered_json ImportJson(const engine::ImportSummary& s) {
  nlohmann::ordered_json errors = Rows(s.errors);
  nlohmann::ordered_json normalised = nlohmann::ordered_json::object();
  for (const auto& [kind, n] : s.normalised) normalised[kind] = n;
  return {{"files", s.files},
          {"games", s.games},
          {"imported", s.imported},
          {"duplicates", s.duplicates},
          {"rejected", s.rejected},
          {"skipped", s.skipped.size()},
          {"noted", s.noted},
          {"cut", s.cut},
          {"errors", std::move(errors)},
          {"kept", Rows(s.kept)},
          {"skipped_games", Rows(s.skipped)},
          {"normalised", std::move(normalised)},
          {"seconds", s.seconds},
          {"games_per_sec", s.seconds > 0 ? s.games / s.seconds : 0.0}};
}

std::string ImportText(const engine::ImportSummary& s, size_t max_errors) {
  std::string out = absl::StrFormat(
      "files %d  games %d  imported %d  duplicates %d  rejected %d%s%s  "
      "errors %d  (%.2f s, %.0f games/s)\n",
      s.files, s.games, s.imported, s.duplicates, s.rejected,
      s.skipped.empty() ? std::string()
                        : absl::StrCat("  skipped ", s.skipped.size()),
      s.noted + s.cut == 0
          ? std::string()
          : absl::StrCat("  stored with a note ", s.noted, "  cut ", s.cut),
      s.errors.size(), s.seconds, s.seconds > 0 ? s.games / s.seconds : 0.0);
  if (!s.normalised.empty()) {
    std::vector<std::pair<uint64_t, std::string>> kinds;
    for (const auto& [k, n] : s.normalised) kinds.emplace_back(n, k);
    std::stable_sort(
        kinds.begin(), kinds.end(),
        [](const auto& a, const auto& b) { return a.first > b.first; });
    out += "normalised:\n";
    for (const auto& [n, k] : kinds) {
      absl::StrAppendFormat(&out, "  %8d  %s\n", n, k);
    }
  }
  // Skipped games (not Go), then errors, each list cut at max_errors.
  const auto list = [&](const char* title,
                        const std::vector<qipu::v1::ImportError>& rows) {
    if (rows.empty()) return;
    absl::StrAppend(&out, title, ":\n");
    for (size_t i = 0; i < rows.size() && i < max_errors; ++i) {
      out += RowText(rows[i]);
    }
    if (rows.size() > max_errors) {
      absl::StrAppend(&out, "  ... ", rows.size() - max_errors,
                      " more (--json lists them all)\n");
    }
  };
  list("skipped (not Go)", s.skipped);
  list("kept against their rules (stored; --strict refuses them)", s.kept);
  list("errors", s.errors);
  return out;
}

std::string ImportProgressSuffix(const engine::ImportProgress& p,
                                 double seconds) {
  return absl::StrFormat(
      "files  %d games  %d new  %d dup  %d rejected  %.0f games/s", p.games,
      p.imported, p.duplicates, p.rejected,
      seconds > 0 ? p.games / seconds : 0.0);
}

}  // namespace qipu::report
