// TimeSettings: a time control (spec section 6; arts. 12 and 22 of the
// Chinese competition rules in ../shared/seeds/) as GTP, the arena's
// tournament files and `qipu play` give it, and its text forms.
//
// Systems (whole seconds):
//   - none: no limit;
//   - absolute (包干): main time only;
//   - Japanese byo-yomi (讀秒): main time, then `stones` periods of
//     `period_s` seconds, one move each;
//   - Canadian (定時限步制): main time, then `stones` moves in every
//     `period_s` seconds, time left over carried into the next block.
// `last_period` says what art. 22.5 makes of a player whose last byo-yomi
// period runs out: a loss, or -- where the event allows it -- the move
// becomes a pass and play goes on under the same byo-yomi.
//
// Text form (tournament files, reports, `qipu arena`): "none",
// "absolute:M", "byoyomi:M+PxT", "canadian:M+S/T", with ",pass" after a
// byo-yomi for art. 22.5's pass ("byoyomi:60+3x10,pass").
//
// Pure functions and a plain value type; thread-safe.
#ifndef QIPU_GTP_TIME_SETTINGS_H_
#define QIPU_GTP_TIME_SETTINGS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qipu::gtp {

enum class TimeSystem { kNone, kAbsolute, kCanadian, kJapanese };

// Art. 22.5: the last byo-yomi period run out.
enum class LastPeriod : uint8_t {
  // The player loses on time (the rule "in principle").
  kLoses = 0,
  // The move becomes a pass (棄權一次) and play goes on with the same
  // byo-yomi: a Japanese player keeps its last period, a Canadian one
  // starts a new block.
  kPass,
};

// A time system with its settings, in whole seconds as GTP says them.
// Plain value.
struct TimeSettings {
  TimeSystem system = TimeSystem::kNone;
  // Main time (0 for none: byo-yomi from the first move).
  int main_s = 0;
  // Canadian and Japanese: the byo-yomi period; 0 otherwise.
  int period_s = 0;
  // Canadian: moves per period; Japanese: periods; 0 otherwise.
  int stones = 0;
  // Byo-yomi only (kLoses otherwise): see LastPeriod.
  LastPeriod last_period = LastPeriod::kLoses;

  // True for the byo-yomi systems (Japanese and Canadian).
  bool byoyomi() const {
    return system == TimeSystem::kJapanese || system == TimeSystem::kCanadian;
  }

  friend bool operator==(const TimeSettings&, const TimeSettings&) = default;
};

// OK when `t` is a time control a referee can run: absolute with main
// time > 0; byo-yomi and Canadian with a period >= 1 s and >= 1
// periods/stones; every value in 0..864000 (ten days); the pass of art.
// 22.5 only with byo-yomi. InvalidArgument says what is wrong.
absl::Status ValidateTimeSettings(const TimeSettings& t);

// Parses the text form (see the file comment); M, P, S, T whole numbers of
// seconds (or counts). InvalidArgument naming the text and the form
// expected; the result passes ValidateTimeSettings().
absl::StatusOr<TimeSettings> ParseTimeSettings(absl::string_view text);

// The text form ParseTimeSettings() reads back.
std::string TimeSettingsText(const TimeSettings& t);

// SGF's OT (overtime) text: "3x30 byo-yomi", "25/600 Canadian" (", a pass
// when the last period runs out" with art. 22.5's pass); "" for none and
// absolute time.
std::string OvertimeText(const TimeSettings& t);

}  // namespace qipu::gtp

#endif  // QIPU_GTP_TIME_SETTINGS_H_
