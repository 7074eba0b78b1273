// The key map: arrows and vim keys move, Enter and Space select, and the
// letters of the game.
#include "play/keymap.h"

#include <initializer_list>

#include "gtest/gtest.h"

namespace qipu::play {
namespace {

TEST(Keymap, EveryKeyHasItsAction) {
  EXPECT_EQ(ActionForKey(kKeyUp), Action::kUp);
  EXPECT_EQ(ActionForKey('k'), Action::kUp);
  EXPECT_EQ(ActionForKey(kKeyDown), Action::kDown);
  EXPECT_EQ(ActionForKey('j'), Action::kDown);
  EXPECT_EQ(ActionForKey(kKeyLeft), Action::kLeft);
  EXPECT_EQ(ActionForKey('h'), Action::kLeft);
  EXPECT_EQ(ActionForKey(kKeyRight), Action::kRight);
  EXPECT_EQ(ActionForKey('l'), Action::kRight);
  EXPECT_EQ(ActionForKey(kKeyEnter), Action::kSelect);
  EXPECT_EQ(ActionForKey('\r'), Action::kSelect);
  EXPECT_EQ(ActionForKey('\n'), Action::kSelect);
  EXPECT_EQ(ActionForKey(' '), Action::kSelect);
  EXPECT_EQ(ActionForKey('p'), Action::kPass);
  EXPECT_EQ(ActionForKey('u'), Action::kUndo);
  EXPECT_EQ(ActionForKey('r'), Action::kResign);
  EXPECT_EQ(ActionForKey('d'), Action::kDone);
  EXPECT_EQ(ActionForKey('s'), Action::kSave);
  EXPECT_EQ(ActionForKey('q'), Action::kQuit);
  EXPECT_EQ(ActionForKey(kKeyInterrupt), Action::kInterrupt);
}

TEST(Keymap, OtherKeysDoNothing) {
  for (int key : std::initializer_list<int>{'a', 'z', 'P', 'Q', 'x', '0', 27, 0,
                                            -1, 0x10FFFF}) {
    EXPECT_EQ(ActionForKey(key), Action::kNone) << key;
  }
  EXPECT_STREQ(ActionName(Action::kSelect), "select");
  EXPECT_STREQ(ActionName(Action::kNone), "none");
}

}  // namespace
}  // namespace qipu::play
