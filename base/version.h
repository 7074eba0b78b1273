// The version of qipu and the git commit it was built from.
#ifndef QIPU_BASE_VERSION_H_
#define QIPU_BASE_VERSION_H_

namespace qipu::base {

// Semantic version of this build, e.g. "0.1.0". Thread-safe; static storage.
const char* Version();

// Short git commit of the source tree, with "-dirty" when it had uncommitted
// changes, or "unknown" outside a git checkout. Thread-safe; static storage.
const char* GitCommit();

}  // namespace qipu::base

#endif  // QIPU_BASE_VERSION_H_
