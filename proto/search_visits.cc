#include "proto/search_visits.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/varint.h"
#include "rules/coord.h"

namespace qipu::wire {
namespace {

// The packed form of `p` (0 for a pass), or -1 for anything else.
int64_t PackedPoint(rules::Point p, int width) {
  if (p == rules::kPass) return 0;
  if (p < 0 || p >= rules::kNumCells) return -1;
  const int x = p % rules::kStride - 1;
  const int y = p / rules::kStride - 1;
  if (x < 0 || x >= width || y < 0 || y >= rules::kMaxSize) return -1;
  return rules::DenseIndex(p, width) + 1;
}

}  // namespace

void AppendMoveSearch(const MoveSearch& search, int width, std::string* out) {
  std::vector<std::pair<uint64_t, uint32_t>> pairs;
  pairs.reserve(search.visits.size());
  for (const PointVisits& v : search.visits) {
    const int64_t packed = PackedPoint(v.point, width);
    if (packed < 0 || v.visits == 0) continue;
    pairs.emplace_back(static_cast<uint64_t>(packed), v.visits);
  }
  if (pairs.empty()) return;
  base::PutVarint64(out, search.move);
  base::PutVarint64(out, pairs.size());
  for (const auto& [point, visits] : pairs) {
    base::PutVarint64(out, point);
    base::PutVarint64(out, visits);
  }
}

std::string PackSearches(const std::vector<MoveSearch>& searches, int width) {
  std::string out;
  for (const MoveSearch& s : searches) AppendMoveSearch(s, width, &out);
  return out;
}

absl::StatusOr<std::vector<MoveSearch>> UnpackSearches(absl::string_view data,
                                                       int width, int height,
                                                       uint32_t num_moves) {
  std::vector<MoveSearch> out;
  const uint64_t points = static_cast<uint64_t>(width) * height;
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("search_visits entry ", out.size() + 1, ": ", why));
  };
  std::vector<uint64_t> seen;
  while (!data.empty()) {
    uint64_t move = 0;
    uint64_t n = 0;
    if (!base::GetVarint64(&data, &move) || !base::GetVarint64(&data, &n)) {
      return bad("truncated");
    }
    if (move >= num_moves) {
      return bad(absl::StrCat("move index ", move, " is not below the ",
                              num_moves, " moves"));
    }
    if (!out.empty() && move <= out.back().move) {
      return bad(absl::StrCat("move index ", move, " does not increase"));
    }
    // Each pair takes at least two bytes: a count beyond that is garbage.
    if (n == 0 || n > points + 1 || n > data.size() / 2) {
      return bad(absl::StrCat(n, " is not a count of (point, visits) pairs"));
    }
    MoveSearch s;
    s.move = static_cast<uint32_t>(move);
    s.visits.reserve(n);
    seen.clear();
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t point = 0;
      uint64_t visits = 0;
      if (!base::GetVarint64(&data, &point) ||
          !base::GetVarint64(&data, &visits)) {
        return bad("truncated");
      }
      if (point > points) {
        return bad(absl::StrCat("point ", point, " is off the ", width, "x",
                                height, " board"));
      }
      if (visits == 0 || visits > UINT32_MAX) {
        return bad(absl::StrCat(visits, " visits"));
      }
      if (std::find(seen.begin(), seen.end(), point) != seen.end()) {
        return bad(absl::StrCat("point ", point, " appears twice"));
      }
      seen.push_back(point);
      s.visits.push_back({point == 0 ? rules::kPass
                                     : rules::FromDenseIndex(
                                           static_cast<int>(point - 1), width),
                          static_cast<uint32_t>(visits)});
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace qipu::wire
