// Backups of a qipu database: RocksDB's BackupEngine over a backup
// directory that holds numbered backups. Backups are incremental (a table
// file already in the directory is not copied again; files are shared by
// name, size and checksum) and checksummed (VerifyBackup() re-reads every
// file against the checksum recorded when it was copied).
//
// Taking a backup is Store::Backup() (store.h), online: it copies a
// consistent point of the live database -- every column family and the
// write-ahead log up to one sequence number -- while games keep being
// committed. What the position index holds in memory is flushed first, and
// any batch committed after that flush is in the backup as its games and
// its unindexed-batch record (position_index.h): opening the restored
// database re-indexes exactly those games. So a restored database holds
// exactly the games committed before the backup's point, all readable and
// indexed.
//
// Store::Backup() refuses a backup directory that overlaps the database
// directory, comparing real paths (a symbolic link into the database does
// not get past it).
//
// This file: the offline half -- listing and verifying backups, for
// `qipu backup list|verify`, and copying a backup's files for
// store/restore.h (`qipu restore`).
//
// Thread-safety: free functions; two of them must not write the same
// backup directory at once (BackupEngine has no lock across processes).
#ifndef QIPU_STORE_BACKUP_H_
#define QIPU_STORE_BACKUP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace qipu::store {

// One backup in a backup directory. Plain value.
struct BackupEntry {
  // Numbered from 1 in the directory, in the order they were taken.
  uint32_t id = 0;
  // When it was taken (second resolution).
  absl::Time time = absl::UnixEpoch();
  // Bytes of its files (shared files counted in every backup holding
  // them) and how many.
  uint64_t bytes = 0;
  uint32_t files = 0;
  // "qipu format <version>" for backups taken by qipu.
  std::string metadata;
};

// The application metadata qipu stores with each backup.
std::string BackupMetadata();

// The backups in `backup_dir`, oldest first. NotFound when the directory
// does not exist; an empty list when it holds none.
absl::StatusOr<std::vector<BackupEntry>> ListBackups(
    const std::string& backup_dir);

// Checks backup `id` of `backup_dir` (0: the latest): its metadata parses,
// every file present, of its recorded size and checksum. DataLoss naming
// the problem (a damaged latest backup is reported, never passed over for
// an older one); NotFound for an unknown id.
absl::StatusOr<BackupEntry> VerifyBackup(const std::string& backup_dir,
                                         uint32_t id);

// Copies the files of backup `id` of `backup_dir` (0: the latest) into
// the directory `dir` (RocksDB's restore: any RocksDB files already in
// `dir` are replaced) and returns the backup's entry. Only for
// store/restore.cc, which restores into a fresh staging directory; use
// RestoreBackup() (store/restore.h). DataLoss for a file whose checksum
// does not match; NotFound for an unknown id.
absl::StatusOr<BackupEntry> CopyBackupInto(const std::string& backup_dir,
                                           uint32_t id, const std::string& dir);

}  // namespace qipu::store

#endif  // QIPU_STORE_BACKUP_H_
