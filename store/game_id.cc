#include "store/game_id.h"

#include <algorithm>
#include <vector>

#include "rules/coord.h"

namespace qipu::store {
namespace {

// A stable 64-bit mix (the SplitMix64 finaliser).
uint64_t Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Two independent 64-bit lanes over a stream of 32-bit words.
struct Hasher128 {
  uint64_t a = 0x6a09e667f3bcc908ULL;
  uint64_t b = 0xbb67ae8584caa73bULL;
  uint64_t n = 0;
  void Add(uint32_t w) {
    ++n;
    a = Mix(a ^ (uint64_t{w} + 0x9E3779B97F4A7C15ULL * n));
    b = Mix(b + (uint64_t{w} ^ 0xC2B2AE3D27D4EB4FULL) * (2 * n + 1));
  }
};

}  // namespace

GameId ContentId(const rules::GameRecord& record) {
  Hasher128 h;
  h.Add(0x71697075);  // "qipu"
  h.Add(static_cast<uint32_t>(record.width));
  h.Add(static_cast<uint32_t>(record.height));
  auto add_point = [&](rules::Point p) {
    h.Add(p == rules::kPass
              ? 0u
              : static_cast<uint32_t>(rules::DenseIndex(p, record.width) + 1));
  };
  h.Add(static_cast<uint32_t>(record.setup.size()));
  for (const rules::SetupStep& s : record.setup) {
    h.Add(static_cast<uint32_t>(s.before_move));
    for (const auto* list : {&s.black, &s.white, &s.empty}) {
      // Order inside a list is not part of the game.
      std::vector<uint32_t> pts;
      for (rules::Point p : *list) {
        pts.push_back(
            static_cast<uint32_t>(rules::DenseIndex(p, record.width)));
      }
      std::sort(pts.begin(), pts.end());
      h.Add(static_cast<uint32_t>(pts.size()));
      for (uint32_t p : pts) h.Add(p);
    }
    h.Add(static_cast<uint32_t>(s.to_play));
  }
  h.Add(static_cast<uint32_t>(record.moves.size()));
  for (const rules::Move& m : record.moves) {
    h.Add(static_cast<uint32_t>(m.color));
    add_point(m.point);
  }
  return GameId{GameId::Kind::kImported, Mix(h.a ^ h.n), Mix(h.b + h.n)};
}

}  // namespace qipu::store
