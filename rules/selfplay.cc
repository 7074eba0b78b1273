#include "rules/selfplay.h"

#include "rules/coord.h"
#include "rules/playout.h"

namespace qipu::rules {

uint64_t GameSeedAttempt(uint64_t job_seed, uint64_t index, int attempt) {
  const uint64_t base = GameSeed(job_seed, index);
  if (attempt == 0) return base;
  Rng r(base ^ (0xA5A5A5A5A5A5A5A5ULL * static_cast<uint64_t>(attempt)));
  return r.Next();
}

bool VoidedByReplay(const Game& game) {
  return game.over() && game.result().reason == EndReason::kCycle &&
         game.rules().cycle == CycleRule::kReplay;
}

absl::Status PlaySelfPlay(const SelfPlaySpec& spec, Game* game,
                          SelfPlayOutcome* outcome) {
  if (absl::Status s = ValidateSize(spec.width, spec.height); !s.ok()) return s;
  if (absl::Status s = ValidateKomi(spec.rules.komi); !s.ok()) return s;
  if (game->width() != spec.width || game->height() != spec.height ||
      !(game->rules() == spec.rules)) {
    *game = Game(spec.width, spec.height, spec.rules);
  }
  *outcome = SelfPlayOutcome{};
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    game->Reset();
    if (spec.handicap > 0) {
      if (absl::Status s = game->PlaceHandicap(spec.handicap); !s.ok()) return s;
    }
    outcome->attempt = attempt;
    outcome->seed = GameSeedAttempt(spec.job_seed, spec.index, attempt);
    Rng rng(outcome->seed);
    FullPlayout(*game, rng);
    if (!VoidedByReplay(*game) || attempt + 1 == kMaxAttempts) break;
    outcome->voided_cycles.push_back(game->cycles().back());
  }
  return absl::OkStatus();
}

}  // namespace qipu::rules
