#include "train/batch_message.h"

#include <bit>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "train/npz_writer.h"
#include "train/row_builder.h"
#include "train/row_stream.h"

namespace qipu::train {
namespace {

static_assert(std::endian::native == std::endian::little,
              "training batches carry the arrays in host order");

// The batch message's field of each .npz member.
struct Member {
  const char* name;
  std::string* (qipu::v1::TrainingBatch::*mutable_bytes)();
  const std::string& (qipu::v1::TrainingBatch::*bytes)() const;
};
using TB = qipu::v1::TrainingBatch;
constexpr Member kMembers[] = {
    {"binaryInputNCHWPacked", &TB::mutable_binary_input_nchw_packed,
     &TB::binary_input_nchw_packed},
    {"globalInputNC", &TB::mutable_global_input_nc, &TB::global_input_nc},
    {"qipuGlobalInputNC", &TB::mutable_qipu_global_input_nc,
     &TB::qipu_global_input_nc},
    {"policyTargetsNCMove", &TB::mutable_policy_targets_ncmove,
     &TB::policy_targets_ncmove},
    {"globalTargetsNC", &TB::mutable_global_targets_nc, &TB::global_targets_nc},
    {"scoreDistrN", &TB::mutable_score_distr_n, &TB::score_distr_n},
    {"valueTargetsNCHW", &TB::mutable_value_targets_nchw,
     &TB::value_targets_nchw},
    {"qipuRowIdNC", &TB::mutable_qipu_row_id_nc, &TB::qipu_row_id_nc},
};

const Member* FindMember(absl::string_view name) {
  for (const Member& m : kMembers) {
    if (name == m.name) return &m;
  }
  return nullptr;
}

}  // namespace

void BatchToMessage(const RowBatch& rows, const std::string& cursor,
                    uint64_t games_done, qipu::v1::TrainingBatch* out) {
  out->Clear();
  out->set_rows(static_cast<uint32_t>(rows.rows()));
  out->set_pos_len(static_cast<uint32_t>(rows.pos_len()));
  for (const NpyArray& a : BatchArrays(rows)) {
    if (const Member* m = FindMember(a.name); m != nullptr) {
      (out->*m->mutable_bytes)()->assign(
          reinterpret_cast<const char*>(a.data.data()), a.data.size());
    }
  }
  out->set_cursor(cursor);
  out->set_games_done(games_done);
}

absl::Status BatchFromMessage(const qipu::v1::TrainingBatch& batch,
                              RowBatch* rows) {
  const int pos_len = static_cast<int>(batch.pos_len());
  if (pos_len < 2 || pos_len > kMaxPosLen ||
      batch.rows() > static_cast<uint32_t>(kMaxBatchRows)) {
    return absl::InvalidArgumentError(
        absl::StrCat("training batch: pos_len ", batch.pos_len(), ", rows ",
                     batch.rows(), " out of range"));
  }
  *rows = RowBatch(pos_len);
  rows->Resize(static_cast<int>(batch.rows()));
  for (const NpyArray& a : BatchArrays(*rows)) {
    const Member* m = FindMember(a.name);
    if (m == nullptr) continue;
    const std::string& field = (batch.*m->bytes)();
    if (field.size() != a.data.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "training batch: ", a.name, " has ", field.size(), " bytes, not the ",
          a.data.size(), " of ", batch.rows(), " rows at pos_len ", pos_len));
    }
    // BatchArrays() points into *rows: write through it.
    std::memcpy(const_cast<uint8_t*>(a.data.data()), field.data(),
                field.size());
  }
  return absl::OkStatus();
}

}  // namespace qipu::train
