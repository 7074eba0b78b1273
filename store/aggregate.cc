#include "store/aggregate.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "proto/convert.h"
#include "store/keys.h"
#include "store/position_value.h"

namespace qipu::store {
namespace {

using RepeatedU64 = google::protobuf::RepeatedField<uint64_t>;

void Bump(RepeatedU64* h, int index, uint64_t by = 1) {
  if (index < 0) index = 0;
  while (h->size() <= index) h->Add(0);
  h->Set(index, h->Get(index) + by);
}

void AddHistogram(const RepeatedU64& from, RepeatedU64* to) {
  for (int i = 0; i < from.size(); ++i) {
    if (from.Get(i) != 0) Bump(to, i, from.Get(i));
  }
}

qipu::v1::CycleCell* FindCell(qipu::v1::AggregateStats* a,
                              qipu::v1::CycleClass cls,
                              qipu::v1::CycleOutcome outcome) {
  for (auto& cell : *a->mutable_cycles()) {
    if (cell.cls() == cls && cell.outcome() == outcome) return &cell;
  }
  auto* cell = a->add_cycles();
  cell->set_cls(cls);
  cell->set_outcome(outcome);
  return cell;
}

void AppendExamples(const google::protobuf::RepeatedPtrField<std::string>& from,
                    google::protobuf::RepeatedPtrField<std::string>* to) {
  for (const std::string& e : from) {
    if (to->size() >= kMaxExamples) return;
    if (std::find(to->begin(), to->end(), e) == to->end()) *to->Add() = e;
  }
}

}  // namespace

void AddOutcome(rules::Winner w, qipu::v1::OutcomeCounts* o) {
  o->set_games(o->games() + 1);
  switch (w) {
    case rules::Winner::kBlack:
      o->set_black_wins(o->black_wins() + 1);
      break;
    case rules::Winner::kWhite:
      o->set_white_wins(o->white_wins() + 1);
      break;
    case rules::Winner::kDraw:
      o->set_draws(o->draws() + 1);
      break;
    case rules::Winner::kNone:
      o->set_void_(o->void_() + 1);
      break;
  }
}

void AddOutcomes(const qipu::v1::OutcomeCounts& from,
                 qipu::v1::OutcomeCounts* to) {
  to->set_games(to->games() + from.games());
  to->set_black_wins(to->black_wins() + from.black_wins());
  to->set_white_wins(to->white_wins() + from.white_wins());
  to->set_draws(to->draws() + from.draws());
  to->set_void_(to->void_() + from.void_());
}

qipu::v1::AggregateStats AggregateFromGame(const GameFacts& f) {
  AggregateBuilder b;
  b.Add(f);
  return b.Build();
}

namespace {

// Index of `w` in the games/black/white/draws/void arrays.
int OutcomeSlot(rules::Winner w) {
  switch (w) {
    case rules::Winner::kBlack:
      return 1;
    case rules::Winner::kWhite:
      return 2;
    case rules::Winner::kDraw:
      return 3;
    case rules::Winner::kNone:
      return 4;
  }
  return 4;
}

void Count(rules::Winner w, uint64_t* counts) {
  ++counts[0];
  ++counts[OutcomeSlot(w)];
}

void BumpVector(std::vector<uint64_t>* h, int index) {
  if (index < 0) index = 0;
  if (static_cast<int>(h->size()) <= index) h->resize(index + 1, 0);
  ++(*h)[index];
}

void ToOutcome(const uint64_t* counts, qipu::v1::OutcomeCounts* o) {
  o->set_games(counts[0]);
  o->set_black_wins(counts[1]);
  o->set_white_wins(counts[2]);
  o->set_draws(counts[3]);
  o->set_void_(counts[4]);
}

void ToRepeated(const std::vector<uint64_t>& from, RepeatedU64* to) {
  to->Reserve(static_cast<int>(from.size()));
  for (uint64_t v : from) to->Add(v);
}

}  // namespace

void AggregateBuilder::Add(const GameFacts& f) {
  const rules::Winner w = f.result.winner;
  Count(w, outcomes_);
  BumpVector(&by_reason_, static_cast<int>(f.result.reason));
  if (f.result.reason == rules::EndReason::kScore && f.result.margin >= 0 &&
      (w == rules::Winner::kBlack || w == rules::Winner::kWhite)) {
    const int m = std::min(kMaxMarginPoints,
                           static_cast<int>(std::floor(f.result.margin)));
    BumpVector(w == rules::Winner::kBlack ? &black_margin_ : &white_margin_, m);
  }
  BumpVector(&length_,
             std::min(kMaxLengthBuckets - 1, f.moves / kLengthBucketMoves));
  total_moves_ += static_cast<uint64_t>(f.moves);
  const int ko = std::min(kMaxKoCaptures, f.ko_captures);
  BumpVector(&ko_histogram_, ko);
  ko_captures_ += static_cast<uint64_t>(f.ko_captures);
  if (f.ko_captures > 0) ++games_with_ko_;
  const uint32_t bucket = static_cast<uint32_t>(f.moves / kKoLengthBucketMoves);
  KoBucket* kb = nullptr;
  for (KoBucket& k : ko_by_length_) {
    if (k.bucket == bucket) kb = &k;
  }
  if (kb == nullptr) {
    ko_by_length_.push_back(KoBucket{bucket, {}});
    kb = &ko_by_length_.back();
  }
  BumpVector(&kb->histogram, ko);
  if (f.cycles.empty()) return;
  Count(w, with_cycle_);
  // A game counts once per cell however many of its cycles fall there.
  std::vector<bool> seen_here(cells_.size(), false);
  for (const rules::CycleRecord& c : f.cycles) {
    size_t i = 0;
    while (i < cells_.size() &&
           !(cells_[i].cls == c.cls && cells_[i].outcome == c.outcome)) {
      ++i;
    }
    if (i == cells_.size()) {
      Cell fresh;
      fresh.cls = c.cls;
      fresh.outcome = c.outcome;
      cells_.push_back(std::move(fresh));
      seen_here.push_back(false);
    }
    Cell& cell = cells_[i];
    ++cell.cycles;
    if (seen_here[i]) continue;
    seen_here[i] = true;
    ++cell.games;
    Count(w, cell.results);
    if (static_cast<int>(cell.examples.size()) < kMaxExamples) {
      std::string example = GameKey(f.id);
      if (std::find(cell.examples.begin(), cell.examples.end(), example) ==
          cell.examples.end()) {
        cell.examples.push_back(std::move(example));
      }
    }
  }
}

qipu::v1::AggregateStats AggregateBuilder::Build() const {
  qipu::v1::AggregateStats a;
  if (outcomes_[0] == 0) return a;
  ToOutcome(outcomes_, a.mutable_outcomes());
  ToRepeated(by_reason_, a.mutable_by_reason());
  ToRepeated(black_margin_, a.mutable_black_margin());
  ToRepeated(white_margin_, a.mutable_white_margin());
  ToRepeated(length_, a.mutable_length());
  a.set_total_moves(total_moves_);
  ToRepeated(ko_histogram_, a.mutable_ko_histogram());
  a.set_ko_captures(ko_captures_);
  a.set_games_with_ko(games_with_ko_);
  for (const KoBucket& k : ko_by_length_) {
    auto* kl = a.add_ko_by_length();
    kl->set_bucket(k.bucket);
    ToRepeated(k.histogram, kl->mutable_ko_histogram());
  }
  for (const Cell& c : cells_) {
    auto* cell = a.add_cycles();
    cell->set_cls(wire::CycleClassToProto(c.cls));
    cell->set_outcome(wire::CycleOutcomeToProto(c.outcome));
    cell->set_cycles(c.cycles);
    cell->set_games(c.games);
    ToOutcome(c.results, cell->mutable_results());
    for (const std::string& e : c.examples) *cell->add_examples() = e;
  }
  if (with_cycle_[0] > 0) {
    ToOutcome(with_cycle_, a.mutable_results_with_cycle());
  }
  return a;
}

void MergeAggregates(qipu::v1::AggregateStats* a,
                     const qipu::v1::AggregateStats& b) {
  AddOutcomes(b.outcomes(), a->mutable_outcomes());
  AddHistogram(b.by_reason(), a->mutable_by_reason());
  AddHistogram(b.black_margin(), a->mutable_black_margin());
  AddHistogram(b.white_margin(), a->mutable_white_margin());
  AddHistogram(b.length(), a->mutable_length());
  a->set_total_moves(a->total_moves() + b.total_moves());
  AddHistogram(b.ko_histogram(), a->mutable_ko_histogram());
  a->set_ko_captures(a->ko_captures() + b.ko_captures());
  a->set_games_with_ko(a->games_with_ko() + b.games_with_ko());
  for (const auto& kl : b.ko_by_length()) {
    qipu::v1::KoByLength* into = nullptr;
    for (auto& mine : *a->mutable_ko_by_length()) {
      if (mine.bucket() == kl.bucket()) into = &mine;
    }
    if (into == nullptr) {
      into = a->add_ko_by_length();
      into->set_bucket(kl.bucket());
    }
    AddHistogram(kl.ko_histogram(), into->mutable_ko_histogram());
  }
  for (const auto& cell : b.cycles()) {
    auto* into = FindCell(a, cell.cls(), cell.outcome());
    into->set_cycles(into->cycles() + cell.cycles());
    into->set_games(into->games() + cell.games());
    AddOutcomes(cell.results(), into->mutable_results());
    AppendExamples(cell.examples(), into->mutable_examples());
  }
  AddOutcomes(b.results_with_cycle(), a->mutable_results_with_cycle());
}

}  // namespace qipu::store
