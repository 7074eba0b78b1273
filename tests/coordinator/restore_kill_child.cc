// restore_kill_child BACKUP_DIR DB_DIR STEP: restores the latest backup of
// BACKUP_DIR into DB_DIR with --force and kills itself with SIGKILL right
// after the step named STEP (store::RestoreStepName), as a crash or an
// operator's kill -9 would: no destructor, no clean-up. restore_test.cc
// runs it once per step. Exit status 0: the step never came (restored);
// 1: the restore failed (the error on stderr); 2: bad arguments.
#include <signal.h>

#include <cstdio>
#include <string>

#include "store/restore.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s BACKUP_DIR DB_DIR STEP\n", argv[0]);
    return 2;
  }
  const std::string step = argv[3];
  qipu::store::RestoreOptions o;
  o.force = true;
  o.after_step = [&step](qipu::store::RestoreStep s) {
    if (step == qipu::store::RestoreStepName(s)) raise(SIGKILL);
    return absl::OkStatus();
  };
  auto r = qipu::store::RestoreBackup(argv[1], argv[2], o);
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", r.status().ToString().c_str());
    return 1;
  }
  return 0;
}
