#include "tests/ops/ack_check.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "qipu/v1/game.pb.h"
#include "store/game_id.h"
#include "store/store.h"
#include "tests/common/stored_games.h"

namespace qipu::testing {
namespace {

std::string Time(int64_t micros) {
  return absl::FormatTime("%H:%M:%E6S", absl::FromUnixMicros(micros),
                          absl::UTCTimeZone());
}

}  // namespace

absl::StatusOr<std::vector<AckedGame>> ReadAckLog(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return absl::NotFoundError(absl::StrCat("ack log ", path, " is missing"));
  }
  std::ifstream in(path);
  if (!in) {
    return absl::InvalidArgumentError(
        absl::StrCat("ack log ", path, " cannot be read"));
  }
  std::vector<AckedGame> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = absl::StrCat(path, ":", number);
    // <id> <stored|duplicate> <micros> <worker>; the worker may hold
    // spaces, so it is the rest of the line.
    std::vector<std::string> f = absl::StrSplit(line, absl::MaxSplits(' ', 3));
    AckedGame a;
    a.where = where;
    auto bad = [&](const std::string& why) {
      return absl::InvalidArgumentError(
          absl::StrCat("ack log ", where, ": ", why, " in \"", line, "\""));
    };
    if (f.size() != 4) return bad("not 4 fields");
    if (!store::ParseGameId(f[0]).ok() || f[0][0] != 's') {
      return bad("not a self-play game id");
    }
    a.id = f[0];
    if (f[1] != "stored" && f[1] != "duplicate") {
      return bad("status is neither stored nor duplicate");
    }
    a.duplicate = f[1] == "duplicate";
    if (!absl::SimpleAtoi(f[2], &a.ack_unix_micros) || a.ack_unix_micros <= 0) {
      return bad("not a time in microseconds");
    }
    if (f[3].empty()) return bad("no worker name");
    a.worker = f[3];
    out.push_back(std::move(a));
  }
  if (in.bad()) {
    return absl::InvalidArgumentError(
        absl::StrCat("ack log ", path, ": read error"));
  }
  return out;
}

std::string AckCheck::Summary() const {
  std::string s = absl::StrCat(
      acks, " ack(s) of ", games, " game(s): ", missing.size(), " not stored, ",
      stored_after_ack.size(), " stored only after their ack");
  if (!missing.empty()) {
    absl::StrAppend(&s, "; not stored: ", absl::StrJoin(missing, " "));
  }
  if (!stored_after_ack.empty()) {
    absl::StrAppend(
        &s, "; stored after their ack: ", absl::StrJoin(stored_after_ack, " "));
  }
  for (const std::string& d : details) absl::StrAppend(&s, "\n  ", d);
  return s;
}

absl::StatusOr<AckCheck> CheckAckedGamesStored(
    const std::vector<AckedGame>& acks, const StoredTime& stored_time) {
  // The earliest ack of each game, in game order: a later one (a resend
  // acked as a duplicate) is not earlier than the stored copy if this one
  // is not.
  std::map<store::GameId, const AckedGame*> first;
  for (const AckedGame& a : acks) {
    absl::StatusOr<store::GameId> gid = store::ParseGameId(a.id);
    if (!gid.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("ack log ", a.where, ": ", gid.status().message()));
    }
    auto [it, fresh] = first.emplace(*gid, &a);
    if (!fresh && a.ack_unix_micros < it->second->ack_unix_micros) {
      it->second = &a;
    }
  }
  AckCheck c;
  c.acks = acks.size();
  c.games = first.size();
  for (const auto& [gid, a] : first) {
    const std::string& id = a->id;
    absl::StatusOr<std::optional<int64_t>> t = stored_time(id);
    if (!t.ok()) return t.status();
    const std::string ack = absl::StrCat(
        id, ": acked (", a->duplicate ? "duplicate" : "stored", ") to ",
        a->worker, " at ", Time(a->ack_unix_micros), " (", a->where, ")");
    if (!t->has_value()) {
      c.missing.push_back(id);
      c.details.push_back(absl::StrCat(ack, ", not stored"));
    } else if (**t > a->ack_unix_micros) {
      c.stored_after_ack.push_back(id);
      c.details.push_back(absl::StrCat(ack, ", stored at ", Time(**t), ", ",
                                       **t - a->ack_unix_micros,
                                       " us after its ack"));
    }
  }
  return c;
}

absl::StatusOr<AckCheck> CheckAckedGamesStoredIn(
    const std::string& db_dir, const std::vector<std::string>& ack_logs) {
  std::vector<AckedGame> acks;
  for (const std::string& path : ack_logs) {
    absl::StatusOr<std::vector<AckedGame>> lines = ReadAckLog(path);
    if (!lines.ok()) return lines.status();
    acks.insert(acks.end(), lines->begin(), lines->end());
  }
  store::StoreOptions options;
  options.create_if_missing = false;
  options.block_cache_bytes = 8u << 20;
  options.write_buffer_bytes = 4u << 20;
  options.total_write_buffer_bytes = 16u << 20;
  absl::StatusOr<std::unique_ptr<store::Store>> db =
      store::Store::Open(db_dir, options);
  if (!db.ok()) return db.status();
  const store::Store& s = **db;
  return CheckAckedGamesStored(
      acks,
      [&s](const std::string& id) -> absl::StatusOr<std::optional<int64_t>> {
        absl::StatusOr<store::GameId> gid = store::ParseGameId(id);
        if (!gid.ok()) return gid.status();
        absl::StatusOr<std::optional<std::string>> bytes =
            test_util::StoredGame(s, *gid);
        if (!bytes.ok()) return bytes.status();
        if (!bytes->has_value()) return std::optional<int64_t>();
        qipu::v1::Game g;
        if (!g.ParseFromString(**bytes)) {
          return absl::DataLossError(
              absl::StrCat("stored game ", id, " does not parse"));
        }
        return std::optional<int64_t>(g.provenance().stored_unix_micros());
      });
}

}  // namespace qipu::testing
