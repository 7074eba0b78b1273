// StoreTestPeer: the tests' way to Store's column families and the
// family-level operations behind its typed ones (Store befriends it), so
// that tests can write what no caller of the typed API could -- keys
// outside every layout, damaged values, older format versions. Only
// tests use it.
#ifndef QIPU_TESTS_COMMON_STORE_TEST_PEER_H_
#define QIPU_TESTS_COMMON_STORE_TEST_PEER_H_

#include <optional>
#include <string>
#include <vector>

#include "store/store.h"

namespace qipu::store {

class StoreTestPeer {
 public:
  using Cf = rocksdb::ColumnFamilyHandle*;
  static Cf meta(const Store& s) { return s.meta(); }
  static Cf games(const Store& s) { return s.games(); }
  static Cf positions(const Store& s) { return s.positions(); }
  static Cf aggregates(const Store& s) { return s.aggregates(); }
  static Cf jobs(const Store& s) { return s.jobs(); }
  static Cf patterns(const Store& s) { return s.patterns(); }
  static Cf players(const Store& s) { return s.players(); }

  static absl::Status Commit(Store& s, rocksdb::WriteBatch* batch,
                             Durability d = Durability::kDefault) {
    return s.Commit(batch, d);
  }
  static absl::Status Put(Store& s, Cf cf, absl::string_view key,
                          absl::string_view value,
                          Durability d = Durability::kDefault) {
    return s.Put(cf, key, value, d);
  }
  static absl::Status Delete(Store& s, Cf cf, absl::string_view key,
                             Durability d = Durability::kDefault) {
    return s.Delete(cf, key, d);
  }
  static absl::StatusOr<std::optional<std::string>> Get(const Store& s, Cf cf,
                                                        absl::string_view key) {
    return s.Get(cf, key);
  }
  static absl::StatusOr<std::vector<bool>> Contains(
      const Store& s, Cf cf, const std::vector<absl::string_view>& keys) {
    return s.Contains(cf, keys);
  }
  static Cursor NewCursor(const Store& s, Cf cf, const ScanOptions& o = {}) {
    return s.NewCursor(cf, o);
  }
  static absl::Status Compact(Store& s, Cf cf) { return s.Compact(cf); }
};

}  // namespace qipu::store

#endif  // QIPU_TESTS_COMMON_STORE_TEST_PEER_H_
