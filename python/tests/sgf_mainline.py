"""An independent reader of SGF main lines, for counts the query tests
compare qipu's answers with. It shares no code with qipu: it reads the
root's properties (first value each), the setup stones and the moves of
the main line (the first variation at every branch) of one-game files,
decoding bytes as UTF-8 with replacement as the fox-pro corpus needs.

Also the symmetry-folded class of a point ("4-4", "3-4": its lines from
the two nearest edges), which both the tests and the example's test count
first moves by.
"""

import glob
import hashlib
import os

GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Record:
    """One game: `props` (root property -> first value), `setup`
    ([(colour, sgf point)] from AB/AW of the nodes before the first move),
    `moves` ([(colour,
    sgf point)]; "" for a pass), `path`, `digest` (sha256 of the file)."""

    def __init__(self, path, digest, props, setup, moves):
        self.path = path
        self.digest = digest
        self.props = props
        self.setup = setup
        self.moves = moves

    def prop(self, name, default=""):
        return self.props.get(name, default)

    @property
    def size(self):
        return int(self.prop("SZ", "19").split(":")[0])


def _values(text, i):
    """The [values] at text[i:], and the index after them."""
    values = []
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i >= len(text) or text[i] != "[":
            return values, i
        i += 1
        out = []
        while i < len(text) and text[i] != "]":
            if text[i] == "\\" and i + 1 < len(text):
                i += 1
            out.append(text[i])
            i += 1
        values.append("".join(out))
        i += 1


def parse_mainline(text):
    """(root props, setup, moves) of the first game in `text`. The main line
    is every node met in text order until the first ')' (descending into
    the first variation at each '(')."""
    nodes = []
    i = text.find(";")
    if i < 0:
        raise ValueError("no node")
    node = None
    while i < len(text):
        c = text[i]
        if c == ")":
            break
        if c == ";":
            node = {}
            nodes.append(node)
            i += 1
        elif c.isalpha() and c.isupper():
            j = i
            while j < len(text) and text[j].isalpha():
                j += 1
            ident = text[i:j]
            values, i = _values(text, j)
            node.setdefault(ident, []).extend(values)
        else:
            i += 1
    root = {k: v[0] for k, v in nodes[0].items() if v}
    setup = []
    moves = []
    for n in nodes:
        if not moves:
            setup += [(c, p) for c in ("B", "W") for p in n.get("A" + c, [])]
        for c in ("B", "W"):
            if c in n:
                p = n[c][0]
                moves.append((c, "" if p in ("", "tt") else p))
    return root, setup, moves


def read_corpus(root):
    """Every *.sgf under `root` as Records, files with equal bytes once
    (qipu stores a game once), sorted by path."""
    seen = set()
    out = []
    for path in sorted(glob.glob(os.path.join(root, "**", "*.sgf"),
                                 recursive=True)):
        data = open(path, "rb").read()
        digest = hashlib.sha256(data).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        props, setup, moves = parse_mainline(data.decode("utf-8", "replace"))
        out.append(Record(path, digest, props, setup, moves))
    return out


def point_class(col, row, size=19):
    """"a-b" (a <= b): the lines of point (col, row), 0-based, from its two
    nearest edges; the same for all 8 symmetric images ("4-4", "3-4")."""
    a = min(col, size - 1 - col) + 1
    b = min(row, size - 1 - row) + 1
    return f"{min(a, b)}-{max(a, b)}"


def sgf_class(point, size=19):
    """point_class() of an SGF point "pd"; "pass" for ""."""
    if not point:
        return "pass"
    return point_class(ord(point[0]) - 97, ord(point[1]) - 97, size)


def gtp_class(vertex, size=19):
    """point_class() of a GTP vertex "Q16"; "pass" for "pass"."""
    if vertex.lower() == "pass":
        return "pass"
    col = GTP_LETTERS.index(vertex[0].upper())
    row = size - int(vertex[1:])
    return point_class(col, row, size)


def result_kind(re_value):
    """"B+", "W+", "draw" or "void" of an SGF RE value."""
    v = re_value.strip()
    if v[:2].upper() in ("B+", "W+"):
        return v[:2].upper()
    if v.lower() in ("draw", "0", "jigo"):
        return "draw"
    return "void"


def ymd(dt):
    """YYYYMMDD of the first day of an SGF DT ("2019-10-10"), 0 if none."""
    digits = dt[:10].replace("-", "")
    return int(digits) if len(digits) == 8 and digits.isdigit() else 0
