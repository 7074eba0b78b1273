"""The list of skips allowed under CI=true, kept in tests/README.md between
the lines

    <!-- allowed-skips: begin -->
    <!-- allowed-skips: end -->

Each entry is a Markdown list item that starts with two code spans, a
glob over ctest test names and a text the skip's reason must contain,
then says why the skip is legitimate:

    - `LimitsTest.*` `no IPv6 listener` -- why ...

Other lines in the section are prose. Read by run_pytest.py (Python
tests); tests/common/gtest_main.cc reads the same section the same way.
"""

import fnmatch
import re

BEGIN = "<!-- allowed-skips: begin -->"
END = "<!-- allowed-skips: end -->"
_ENTRY = re.compile(r"-\s+`([^`]+)`\s+`([^`]+)`")


class Error(Exception):
    """The list cannot be read or is malformed."""


def read(path):
    """[(test glob, reason text)] of the section in `path`. Raises Error
    when the file cannot be read or the markers are missing or out of
    order."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise Error(f"the list of allowed skips cannot be read: {e}")
    try:
        begin = lines.index(BEGIN)
        end = lines.index(END, begin + 1)
    except ValueError:
        raise Error(f"{path} has no section between {BEGIN!r} and {END!r}")
    entries = []
    for line in lines[begin + 1:end]:
        m = _ENTRY.match(line.strip())
        if m:
            entries.append((m.group(1), m.group(2)))
    return entries


def allowed(entries, test, reason):
    """True when an entry's glob matches `test` (the ctest name) and its
    text is in `reason`."""
    return any(fnmatch.fnmatchcase(test, glob) and text in reason
               for glob, text in entries)
