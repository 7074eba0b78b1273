// Helpers of the corpus import/export tests: an in-process database
// (Store, ConfigRegistry, Ingestor, Importer -- what `qipu import --db`
// wires up), file writing, and small self-play corpora written as SGF.
#ifndef QIPU_TESTS_COORDINATOR_CORPUS_TEST_UTIL_H_
#define QIPU_TESTS_COORDINATOR_CORPUS_TEST_UTIL_H_

#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/importer.h"
#include "engine/ingest.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "rules/scoring.h"
#include "rules/selfplay.h"
#include "rules/sgf_writer.h"
#include "store/configs.h"
#include "store/game_id.h"
#include "store/store.h"
#include "tests/common/corpus_dir.h"
#include "tests/common/temp_dir.h"
#include "tests/coordinator/query_fixture.h"

namespace qipu::coordinator::testing {

// The fox-pro corpus (679 games), or "" when neither the checkout's
// ../shared nor /work/shared has it (tests/common/corpus_dir.h).
inline std::string FoxCorpusDir() {
  return test_util::SharedCorpusDir("fox-pro");
}

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

// A database opened in-process with an Importer on it.
class CorpusDb {
 public:
  explicit CorpusDb(const std::string& dir,
                    engine::ImporterOptions options = {}) {
    store::StoreOptions so;
    so.sync = false;
    so.block_cache_bytes = 16u << 20;
    auto s = store::Store::Open(dir, so);
    EXPECT_TRUE(s.ok()) << s.status();
    store_ = *std::move(s);
    configs_ = std::make_unique<store::ConfigRegistry>(store_.get());
    EXPECT_TRUE(configs_->Load().ok());
    ingest_ = std::make_unique<engine::Ingestor>(
        store_.get(), engine::IngestOptions{}, nullptr);
    importer_ = std::make_unique<engine::Importer>(configs_.get(),
                                                   ingest_.get(), options);
  }
  ~CorpusDb() {
    importer_.reset();
    ingest_->Stop();
  }

  store::Store& store() { return *store_; }
  store::ConfigRegistry& configs() { return *configs_; }
  engine::Importer& importer() { return *importer_; }

  // ImportPaths() with default settings unless given.
  engine::ImportSummary Import(const std::vector<std::string>& paths,
                               const engine::ImportSettings& s = {}) {
    return importer_->ImportPaths(paths, s);
  }

  // The ids of every stored game.
  std::set<store::GameId> Ids() {
    std::set<store::GameId> ids;
    for (const StoredGame& g : StoredGames(*store_)) ids.insert(g.id);
    return ids;
  }

 private:
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<store::ConfigRegistry> configs_;
  std::unique_ptr<engine::Ingestor> ingest_;
  std::unique_ptr<engine::Importer> importer_;
};

inline void WriteFile(const std::string& path, const std::string& data) {
  std::filesystem::create_directories(
      std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

// Self-play game `index` of a seeded size x size chinese job as a record
// (handicap stones as root setup when `handicap` >= 2), with players and a
// date, as an external program might have written it.
inline rules::GameRecord PlayedRecord(int size, uint64_t seed, uint64_t index,
                                      int handicap = 0) {
  rules::SelfPlaySpec spec;
  spec.width = spec.height = size;
  spec.rules = *rules::PresetRules("chinese");
  spec.handicap = handicap;
  spec.job_seed = seed;
  spec.index = index;
  rules::Game game(size, size, spec.rules);
  rules::SelfPlayOutcome outcome;
  EXPECT_TRUE(rules::PlaySelfPlay(spec, &game, &outcome).ok());
  std::vector<rules::Point> stones;
  if (handicap >= 2) stones = *rules::FixedHandicap(size, size, handicap);
  rules::GameRecord r = wire::RecordOfGame(game, stones);
  r.result = rules::RecordResult::Of(game.result());
  r.rules = "chinese";
  r.komi = spec.rules.komi;
  r.has_komi = true;
  r.black_player = "Black " + std::to_string(index);
  r.white_player = "White " + std::to_string(index);
  r.date = "2020-01-" + std::to_string(10 + index % 20);
  return r;
}

// Ids of the records, as import computes them.
inline std::set<store::GameId> ContentIds(
    const std::vector<rules::GameRecord>& records) {
  std::set<store::GameId> ids;
  for (const auto& r : records) ids.insert(store::ContentId(r));
  return ids;
}

}  // namespace qipu::coordinator::testing

#endif  // QIPU_TESTS_COORDINATOR_CORPUS_TEST_UTIL_H_
