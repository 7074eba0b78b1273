// libqipu_sync_counter.so (sync_counter.cc): preloaded (LD_PRELOAD) into a
// qipu-coordinator process by tests/ops/coordinator_flags_test.cc, it counts
// the process's fsync() and fdatasync() calls on RocksDB write-ahead logs
// (files named
// *.log) and on anything else, and keeps the counts in the file named by
// $QIPU_SYNC_COUNT_FILE ("wal <n>\nother <m>\n", rewritten in place at
// every call, so the file is current however the process ends). The calls
// themselves go on to the C library unchanged.
//
// No dependencies beyond the C library, built without the sanitizers: it
// is loaded before everything else in the process.
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using SyncFn = int (*)(int);

std::atomic<long> wal_syncs{0};
std::atomic<long> other_syncs{0};
int count_fd = -1;

__attribute__((constructor)) void Init() {
  const char* path = getenv("QIPU_SYNC_COUNT_FILE");
  if (path != nullptr) {
    count_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  }
}

void Count(int fd) {
  char link[64];
  char target[4096];
  snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, target, sizeof(target) - 1);
  int wal = 0;
  if (n > 4) {
    target[n] = '\0';
    wal = strcmp(target + n - 4, ".log") == 0;
  }
  (wal ? wal_syncs : other_syncs).fetch_add(1);
  if (count_fd >= 0) {
    // Fixed-width fields: each rewrite covers the last one exactly.
    char line[64];
    const int len = snprintf(line, sizeof(line), "wal %12ld\nother %12ld\n",
                             wal_syncs.load(), other_syncs.load());
    if (len > 0) (void)!pwrite(count_fd, line, static_cast<size_t>(len), 0);
  }
}

SyncFn Next(const char* name) {
  return reinterpret_cast<SyncFn>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" int fsync(int fd) {
  static const SyncFn real = Next("fsync");
  Count(fd);
  return real(fd);
}

extern "C" int fdatasync(int fd) {
  static const SyncFn real = Next("fdatasync");
  Count(fd);
  return real(fd);
}
