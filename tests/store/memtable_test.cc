// The dual memtable of the positions CF (store/memtable.h) on a real
// RocksDB: prefix-bounded iterators, point lookups and total-order
// iterators see every entry of the live memtable, in order, and the same
// entries after the flush that sorts its vector.
#include "store/memtable.h"

#include <filesystem>
#include <map>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "rocksdb/iterator.h"
#include "store/keys.h"
#include "store/store.h"

namespace qipu::store {
namespace {

std::string Key(uint64_t position, uint32_t config, uint32_t day) {
  PositionKeyParts p;
  p.width = p.height = 9;
  p.position = rules::Hash128{position * 0x9E3779B97F4A7C15ull, position};
  p.config_id = config;
  p.day = day;
  return PositionKey(p);
}

class DualMemTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("qipu-memtable-" + std::to_string(std::random_device{}()));
    StoreOptions o;
    o.sync = false;
    o.write_buffer_bytes = 4u << 20;
    auto s = Store::Open(dir_.string(), o);
    ASSERT_TRUE(s.ok()) << s.status();
    store_ = *std::move(s);
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Every key with `prefix`, read with a prefix-bounded iterator.
  std::vector<std::string> PrefixScan(const std::string& prefix) {
    rocksdb::ReadOptions ro;
    ro.prefix_same_as_start = true;
    std::unique_ptr<rocksdb::Iterator> it(
        store_->db()->NewIterator(ro, store_->positions()));
    std::vector<std::string> keys;
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
         it->Next()) {
      keys.push_back(it->key().ToString());
    }
    EXPECT_TRUE(it->status().ok()) << it->status().ToString();
    return keys;
  }

  // Every key and value, in total order.
  std::map<std::string, std::string> FullScan() {
    rocksdb::ReadOptions ro;
    ro.total_order_seek = true;
    std::unique_ptr<rocksdb::Iterator> it(
        store_->db()->NewIterator(ro, store_->positions()));
    std::map<std::string, std::string> out;
    std::string last;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      EXPECT_LT(last, it->key().ToString()) << "total order broken";
      last = it->key().ToString();
      out[last] = it->value().ToString();
    }
    EXPECT_TRUE(it->status().ok()) << it->status().ToString();
    return out;
  }

  std::filesystem::path dir_;
  std::unique_ptr<Store> store_;
};

TEST_F(DualMemTableTest, LiveAndFlushedReadsAgree) {
  // 2,000 positions, each in 1..3 (config, day) buckets, written in a
  // shuffled order with overwrites.
  std::map<std::string, std::string> expected;
  std::vector<std::string> keys;
  for (uint64_t p = 0; p < 2000; ++p) {
    for (uint32_t b = 0; b <= p % 3; ++b)
      keys.push_back(Key(p, b + 1, 20260101 + b));
  }
  std::mt19937_64 rng(7);
  std::shuffle(keys.begin(), keys.end(), rng);
  for (size_t i = 0; i < keys.size(); ++i) {
    rocksdb::WriteBatch b;
    const std::string value = "v" + std::to_string(i);
    b.Put(store_->positions(), keys[i], value);
    expected[keys[i]] = value;
    if (i % 7 == 0) {  // Overwrite an earlier key.
      const std::string& k = keys[i / 2];
      b.Put(store_->positions(), k, value + "'");
      expected[k] = value + "'";
    }
    ASSERT_TRUE(store_->Commit(&b).ok());
  }
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round == 0 ? "live memtable" : "after flush");
    EXPECT_EQ(FullScan(), expected);
    for (uint64_t p : {0ull, 1ull, 2ull, 977ull, 1999ull}) {
      const std::string prefix = Key(p, 1, 0).substr(0, kPositionPrefixLength);
      std::vector<std::string> want;
      for (const auto& [k, v] : expected) {
        if (k.compare(0, prefix.size(), prefix) == 0) want.push_back(k);
      }
      EXPECT_EQ(PrefixScan(prefix), want) << "position " << p;
      EXPECT_EQ(want.size(), p % 3 + 1);
      auto got = store_->Get(store_->positions(), want.front());
      ASSERT_TRUE(got.ok() && got->has_value());
      EXPECT_EQ(**got, expected[want.front()]);
    }
    auto missing = store_->Get(store_->positions(), Key(5000, 1, 0));
    ASSERT_TRUE(missing.ok());
    EXPECT_FALSE(missing->has_value());
    ASSERT_TRUE(store_->Flush().ok());
  }
}

}  // namespace
}  // namespace qipu::store
