// RowLayout: the shape of a training row and the channel numbers qipu
// fills, following KataGo's .npz conventions (inputs version 7, global
// targets data format 3) wherever the same quantity exists, so that a
// KataGo-style loader reads qipu's files. See train/README.md for the table
// of every channel: what qipu fills and what stays zero.
//
// Coordinates: a board of width x height sits in the top-left corner of a
// pos_len x pos_len square; point (x, y) (x from the left, y from the top)
// has index y * pos_len + x; the policy's pass is index pos_len * pos_len.
#ifndef QIPU_TRAIN_ROW_LAYOUT_H_
#define QIPU_TRAIN_ROW_LAYOUT_H_

#include <cstdint>
#include <utility>

namespace qipu::train {

// Default side of the square rows are padded to.
inline constexpr int kDefaultPosLen = 19;
// Largest pos_len (the rules' largest board side).
inline constexpr int kMaxPosLen = 25;

// binaryInputNCHWPacked: spatial input channels (KataGo inputs version 7).
inline constexpr int kNumBinaryChannels = 22;
namespace bin {
inline constexpr int kOnBoard = 0;
inline constexpr int kOwnStone = 1;
inline constexpr int kOpponentStone = 2;
inline constexpr int kLiberties1 = 3;
inline constexpr int kLiberties2 = 4;
// Chains of exactly three liberties (KataGo's plane 5).
inline constexpr int kLiberties3 = 5;
// Points the ko rules forbid the side to move now.
inline constexpr int kKoBan = 6;
// The last move (the opponent's), then the four before it: 9..13.
inline constexpr int kLastMove1 = 9;
inline constexpr int kNumLastMoves = 5;
// KataGo's ladder planes: stones of laddered chains now, one move ago and
// two moves ago (14, 15, 16), and the moves that ladder an opponent chain
// of 2 liberties (17). See train/ladder.h.
inline constexpr int kLadderedNow = 14;
inline constexpr int kLadderedBefore1 = 15;
inline constexpr int kLadderedBefore2 = 16;
inline constexpr int kLadderWorkingMoves = 17;
// Area if the game were counted now.
inline constexpr int kOwnArea = 18;
inline constexpr int kOpponentArea = 19;
}  // namespace bin

// globalInputNC: global input channels (KataGo inputs version 7).
inline constexpr int kNumGlobalInputs = 19;
namespace gin {
// 1 when the i-th last move (i = 0..4) was a pass.
inline constexpr int kPass1 = 0;
// Komi from the side to move's view (handicap compensation included) / 20.
inline constexpr int kSelfKomi = 5;
// Ko rule: (0, 0) simple, (1, 0.5) positional, (1, -0.5) situational.
inline constexpr int kSuperko = 6;
inline constexpr int kSuperkoKind = 7;
inline constexpr int kSuicide = 8;
// 1 when a pass by the side to move would end the game now.
inline constexpr int kPassEndsGame = 14;
// KataGo's komi parity wave (area scoring): a triangle wave of the self
// komi with period 2, rising through the komi values that can draw.
inline constexpr int kKomiParityWave = 18;
}  // namespace gin

// qipuGlobalInputNC: qipu's own global inputs, which KataGo has no channel
// for (kept out of globalInputNC so that its width stays KataGo's).
inline constexpr int kNumQipuGlobalInputs = 6;
namespace qin {
inline constexpr int kHandicapStones = 0;
inline constexpr int kMovesPlayed = 1;
// 1 when the art. 20 cycle rule is in force (cycle != none).
inline constexpr int kCycleRule = 2;
// 1 when a balanced cycle is a draw (cycle=draw), 0 otherwise.
inline constexpr int kCycleDraw = 3;
// 1 when dame count half a point to each side (dame=half).
inline constexpr int kDameHalf = 4;
// 1 when multi-stone suicide is legal (also gin::kSuicide).
inline constexpr int kSuicide = 5;
}  // namespace qin

// policyTargetsNCMove: C0 the move played, C1 the opponent's next move.
inline constexpr int kNumPolicyChannels = 2;

// globalTargetsNC: KataGo's 80 channels (data format 3).
inline constexpr int kNumGlobalTargets = 80;
namespace gtg {
inline constexpr int kWin = 0;
inline constexpr int kLoss = 1;
inline constexpr int kNoResult = 2;
inline constexpr int kScore = 3;
// KataGo's TD-like targets: 4 groups of (win, loss, no result, score) at
// 4..7, 8..11, 12..15, 16..19.
inline constexpr int kTdTargets = 4;
inline constexpr int kNumTdGroups = 4;
inline constexpr int kFinalScore = 20;
inline constexpr int kTdWeightComplement = 24;
inline constexpr int kRowWeight = 25;
inline constexpr int kPolicyWeight = 26;
inline constexpr int kOwnershipWeight = 27;
inline constexpr int kNextPolicyWeight = 28;
inline constexpr int kAreaWeight = 34;
// Row's history masks, 36..40 (1 = use the i-th last move).
inline constexpr int kHistoryMask1 = 36;
// The game's 128-bit id in chunks of 22, 22, 20, 22, 22, 20 bits, 41..46.
inline constexpr int kGameHash = 41;
inline constexpr int kSelfKomi = 47;
inline constexpr int kAreaScoring = 48;
inline constexpr int kTurn = 51;
inline constexpr int kHitMoveCap = 52;
inline constexpr int kHandicapStones = 54;
inline constexpr int kMode = 55;
inline constexpr int kGameFinished = 62;
inline constexpr int kDataVersion = 63;
}  // namespace gtg
// KataGo's mode for a handicap game (globalTargetsNC C55).
inline constexpr float kModeHandicap = 3.0f;
// The data format version globalTargetsNC C63 declares.
inline constexpr float kGlobalTargetsVersion = 3.0f;

// qValueTargetsNCMove (int16): per move, C0 win-loss * 32000, C1 score *
// 60, C2 visits; a move with 0 visits carries no target (KataGo's loss
// masks it out), so a row without a search teaches nothing here.
inline constexpr int kNumQValueChannels = 3;

// valueTargetsNCHW: C0 final ownership, C4 final area scoring (+-120).
inline constexpr int kNumValueChannels = 5;
namespace vtg {
inline constexpr int kOwnership = 0;
inline constexpr int kAreaScoring = 4;
}  // namespace vtg

// scoreDistrN: bins of one point beyond +-(board area) on each side.
inline constexpr int kExtraScoreRadius = 60;

// qipuRowIdNC (uint64): game id kind (1 self-play, 2 imported), hi, lo,
// the turn (moves played before the row's position) and the symmetry.
inline constexpr int kNumRowIdColumns = 5;
namespace rid {
inline constexpr int kKind = 0;
inline constexpr int kHi = 1;
inline constexpr int kLo = 2;
inline constexpr int kTurn = 3;
inline constexpr int kSymmetry = 4;
}  // namespace rid

// Sizes of one row's arrays for a given pos_len.
struct RowShape {
  int pos_len = kDefaultPosLen;

  int area() const { return pos_len * pos_len; }
  // Bytes of one packed channel: the area padded to whole bytes.
  int packed_channel_bytes() const { return (area() + 7) / 8; }
  int packed_row_bytes() const {
    return kNumBinaryChannels * packed_channel_bytes();
  }
  // Policy entries per channel: every point, then the pass.
  int policy_size() const { return area() + 1; }
  int score_bins() const { return 2 * area() + 2 * kExtraScoreRadius; }
  // Entries of one row's qValueTargetsNCMove.
  int q_value_size() const { return kNumQValueChannels * policy_size(); }
  // Bytes of one whole row over all members.
  int row_bytes() const {
    return packed_row_bytes() + 4 * kNumGlobalInputs +
           4 * kNumQipuGlobalInputs + 2 * kNumPolicyChannels * policy_size() +
           4 * kNumGlobalTargets + score_bins() + kNumValueChannels * area() +
           2 * q_value_size() + 8 * kNumRowIdColumns;
  }
};

// Board symmetry t in [0, 8) on a width x height board, as rules/symmetry.h
// numbers them: bit 2 transposes first, then bit 0 mirrors x and bit 1
// mirrors y (each mirror across the board as it stands after the
// transposition). On a square board this is rules::TransformPoint(); on a
// rectangular one the transposed board (height x width) still sits in the
// top-left corner. (IN/OUT) x, y.
inline void TransformXY(int t, int width, int height, int* x, int* y) {
  if (t & 4) {
    std::swap(*x, *y);
    std::swap(width, height);
  }
  if (t & 1) *x = width - 1 - *x;
  if (t & 2) *y = height - 1 - *y;
}

}  // namespace qipu::train

#endif  // QIPU_TRAIN_ROW_LAYOUT_H_
