#include "report/import_report.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace qipu::report {

nlohmann::ordered_json ImportJson(const coordinator::ImportSummary& s) {
  nlohmann::ordered_json errors = nlohmann::ordered_json::array();
  for (const qipu::v1::ImportError& e : s.errors) {
    errors.push_back({{"file", e.file()},
                      {"game", e.game()},
                      {"byte_offset", e.byte_offset()},
                      {"move", e.move()},
                      {"reason", e.reason()}});
  }
  nlohmann::ordered_json normalised = nlohmann::ordered_json::object();
  for (const auto& [kind, n] : s.normalised) normalised[kind] = n;
  return {{"files", s.files},
          {"games", s.games},
          {"imported", s.imported},
          {"duplicates", s.duplicates},
          {"rejected", s.rejected},
          {"errors", std::move(errors)},
          {"normalised", std::move(normalised)},
          {"seconds", s.seconds},
          {"games_per_sec", s.seconds > 0 ? s.games / s.seconds : 0.0}};
}

std::string ImportText(const coordinator::ImportSummary& s, size_t max_errors) {
  std::string out = absl::StrFormat(
      "files %d  games %d  imported %d  duplicates %d  rejected %d  errors "
      "%d  (%.2f s, %.0f games/s)\n",
      s.files, s.games, s.imported, s.duplicates, s.rejected, s.errors.size(),
      s.seconds, s.seconds > 0 ? s.games / s.seconds : 0.0);
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
  if (!s.errors.empty()) out += "errors:\n";
  for (size_t i = 0; i < s.errors.size() && i < max_errors; ++i) {
    const qipu::v1::ImportError& e = s.errors[i];
    std::string where = e.file();
    if (e.game() != 0) absl::StrAppend(&where, ": game ", e.game());
    if (e.move() != 0) {
      absl::StrAppend(&where, ", move ", e.move());
    } else if (e.game() != 0) {
      absl::StrAppend(&where, ", byte ", e.byte_offset());
    }
    absl::StrAppend(&out, "  ", where, ": ", e.reason(), "\n");
  }
  if (s.errors.size() > max_errors) {
    absl::StrAppend(&out, "  ... ", s.errors.size() - max_errors,
                    " more (--json lists them all)\n");
  }
  return out;
}

std::string ImportProgressSuffix(const coordinator::ImportProgress& p,
                                 double seconds) {
  return absl::StrFormat(
      "files  %d games  %d new  %d dup  %d rejected  %.0f games/s", p.games,
      p.imported, p.duplicates, p.rejected,
      seconds > 0 ? p.games / seconds : 0.0);
}

}  // namespace qipu::report
