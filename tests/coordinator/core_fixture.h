// A fresh store, config registry and job manager in a temp dir, plus
// helpers that play valid self-play games of a job.
#ifndef QIPU_TESTS_COORDINATOR_CORE_FIXTURE_H_
#define QIPU_TESTS_COORDINATOR_CORE_FIXTURE_H_

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "engine/jobs.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "rules/selfplay.h"
#include "store/configs.h"
#include "store/store.h"

namespace qipu::coordinator {

class CoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("qipu-core-" + std::to_string(std::random_device{}()));
    Open();
  }
  void TearDown() override {
    Close();
    std::filesystem::remove_all(dir_);
  }
  void Open() {
    store::StoreOptions so;
    so.sync = false;
    auto s = store::Store::Open(dir_.string(), so);
    ASSERT_TRUE(s.ok()) << s.status();
    store_ = *std::move(s);
    configs_ = std::make_unique<store::ConfigRegistry>(store_.get());
    ASSERT_TRUE(configs_->Load().ok());
    jobs_ = std::make_unique<engine::JobManager>(store_.get(), configs_.get(),
                                                 job_options_);
    ASSERT_TRUE(jobs_->Load().ok());
  }
  void Close() {
    jobs_.reset();
    configs_.reset();
    store_.reset();
  }
  static qipu::v1::JobConfig Config(int size, const char* preset = "chinese") {
    qipu::v1::JobConfig c;
    c.set_width(size);
    c.set_height(size);
    *c.mutable_rules() = wire::RulesToProto(*rules::PresetRules(preset));
    c.set_policy("random");
    c.set_index_depth(20);
    c.set_seed(42);
    return c;
  }
  // The game `index` of `job` as a worker would upload it.
  qipu::v1::Game Play(uint64_t job, uint64_t index) {
    auto info = jobs_->Find(job);
    EXPECT_TRUE(info.ok());
    rules::SelfPlaySpec spec;
    spec.width = static_cast<int>(info->config.width());
    spec.height = static_cast<int>(info->config.height());
    spec.rules = info->rules;
    spec.handicap = static_cast<int>(info->config.handicap());
    spec.job_seed = info->config.seed();
    spec.index = index;
    rules::Game g(spec.width, spec.height, spec.rules);
    rules::SelfPlayOutcome outcome;
    EXPECT_TRUE(rules::PlaySelfPlay(spec, &g, &outcome).ok());
    qipu::v1::Game out;
    wire::SelfPlayToProto(g, spec, outcome, job, "test", &out);
    return out;
  }

  std::filesystem::path dir_;
  engine::JobManagerOptions job_options_;
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<store::ConfigRegistry> configs_;
  std::unique_ptr<engine::JobManager> jobs_;
};

}  // namespace qipu::coordinator

#endif  // QIPU_TESTS_COORDINATOR_CORE_FIXTURE_H_
