// The keys of the terminal board and what they do, independent of the
// terminal library: printable keys are their character codes, the arrow
// keys and Enter the codes below (the view maps its library's codes to
// these). One table, so that the help line and the handling agree.
//
//   arrows, h j k l   move the cursor (left, down, up, right)
//   Enter, Space      play at the cursor; while counting, mark the chain
//                     under the cursor dead or alive, or finish on [done]
//   p                 pass
//   u                 take back the last move (human against human only)
//   r                 resign (press twice)
//   d                 finish marking dead stones and count
//   s                 save the game as SGF
//   q, Ctrl-C         quit (q asks again while the game goes on)
#ifndef QIPU_PLAY_KEYMAP_H_
#define QIPU_PLAY_KEYMAP_H_

namespace qipu::play {

// Key codes beyond Unicode, for the keys that are no character.
inline constexpr int kKeyUp = 0x110001;
inline constexpr int kKeyDown = 0x110002;
inline constexpr int kKeyLeft = 0x110003;
inline constexpr int kKeyRight = 0x110004;
inline constexpr int kKeyEnter = 0x110005;
// Ctrl-C as the terminal delivers it in raw mode.
inline constexpr int kKeyInterrupt = 3;

// What a key asks for.
enum class Action {
  kNone = 0,
  kUp,
  kDown,
  kLeft,
  kRight,
  // Play at the cursor (while counting: toggle the chain, or finish).
  kSelect,
  kPass,
  kUndo,
  kResign,
  // Finish marking dead stones.
  kDone,
  kSave,
  kQuit,
  // Quit at once, without asking (Ctrl-C).
  kInterrupt,
};

// The action of key code `key` (a character code or one of the kKey*
// constants); kNone for keys without one.
Action ActionForKey(int key);

// "up", "select", "pass", ... (for messages and tests).
const char* ActionName(Action a);

// One-line summaries of the keys for the help panel, for the game and
// for the counting phase.
inline constexpr const char* kPlayKeysHelp =
    "Keys: arrows/hjkl move, Enter/Space play, p pass, u take back, "
    "r resign, s save, q quit";
inline constexpr const char* kCountKeysHelp =
    "Keys: arrows/hjkl move, Enter marks a chain dead/alive (on [done]: "
    "count), d count, u resume play, s save, q quit";

}  // namespace qipu::play

#endif  // QIPU_PLAY_KEYMAP_H_
