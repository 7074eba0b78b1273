#include "rules/game_id.h"

#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/quote.h"

namespace qipu::rules {

std::string GameIdText(const GameId& id) {
  if (id.kind == GameId::Kind::kSelfPlay) {
    return absl::StrCat("s", id.hi, "-", id.lo);
  }
  char buf[34];
  std::snprintf(buf, sizeof(buf), "i%016llx%016llx",
                static_cast<unsigned long long>(id.hi),
                static_cast<unsigned long long>(id.lo));
  return buf;
}

absl::StatusOr<GameId> ParseGameId(absl::string_view text) {
  auto bad = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat(base::QuoteInput(text),
                     " is not a game id (s<job>-<index> or i<32 hex digits>)"));
  };
  if (text.size() < 2) return bad();
  if (text[0] == 's') {
    const size_t dash = text.find('-');
    if (dash == absl::string_view::npos) return bad();
    uint64_t job = 0;
    uint64_t index = 0;
    if (!absl::SimpleAtoi(text.substr(1, dash - 1), &job) ||
        !absl::SimpleAtoi(text.substr(dash + 1), &index)) {
      return bad();
    }
    return GameId::SelfPlay(job, index);
  }
  if (text[0] == 'i' && text.size() == 33) {
    uint64_t hi = 0;
    uint64_t lo = 0;
    if (!absl::SimpleHexAtoi(text.substr(1, 16), &hi) ||
        !absl::SimpleHexAtoi(text.substr(17, 16), &lo)) {
      return bad();
    }
    return GameId{GameId::Kind::kImported, hi, lo};
  }
  return bad();
}

}  // namespace qipu::rules
