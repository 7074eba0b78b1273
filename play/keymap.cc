#include "play/keymap.h"

namespace qipu::play {

Action ActionForKey(int key) {
  switch (key) {
    case kKeyUp:
    case 'k':
      return Action::kUp;
    case kKeyDown:
    case 'j':
      return Action::kDown;
    case kKeyLeft:
    case 'h':
      return Action::kLeft;
    case kKeyRight:
    case 'l':
      return Action::kRight;
    case kKeyEnter:
    case '\n':
    case '\r':
    case ' ':
      return Action::kSelect;
    case 'p':
      return Action::kPass;
    case 'u':
      return Action::kUndo;
    case 'r':
      return Action::kResign;
    case 'd':
      return Action::kDone;
    case 's':
      return Action::kSave;
    case 'q':
      return Action::kQuit;
    case kKeyInterrupt:
      return Action::kInterrupt;
    default:
      return Action::kNone;
  }
}

const char* ActionName(Action a) {
  switch (a) {
    case Action::kNone:
      return "none";
    case Action::kUp:
      return "up";
    case Action::kDown:
      return "down";
    case Action::kLeft:
      return "left";
    case Action::kRight:
      return "right";
    case Action::kSelect:
      return "select";
    case Action::kPass:
      return "pass";
    case Action::kUndo:
      return "undo";
    case Action::kResign:
      return "resign";
    case Action::kDone:
      return "done";
    case Action::kSave:
      return "save";
    case Action::kQuit:
      return "quit";
    case Action::kInterrupt:
      return "interrupt";
  }
  return "?";
}

}  // namespace qipu::play
