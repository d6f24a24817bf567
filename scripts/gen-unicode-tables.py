#!/usr/bin/env python3
"""Generates internal/text/unicode_data.cpp from Debian's Unicode data files.

Usage: scripts/gen-unicode-tables.py [UNICODE_DIR] > internal/text/unicode_data.cpp
       scripts/gen-unicode-tables.py --check internal/text/unicode_data.cpp docs/output-safety.md [UNICODE_DIR]
         (exit 1 unless the file is exactly what the first form writes and the document's
         look-alike table is exactly scripts/unicode_folds.py's)

UNICODE_DIR defaults to /usr/share/unicode (Debian package `unicode-data`, 15.0.0 in bookworm).
Files read:
  UnicodeData.txt                  general category (Cc, Cf, Mn, Me, Zs, Zl, Zp, Pd), decompositions
  CaseFolding.txt                  full case folding (statuses C and F), for the reminder-tag fold
  PropList.txt                     Bidi_Control, Variation_Selector, Ideographic, Noncharacter_Code_Point
  DerivedCoreProperties.txt        Default_Ignorable_Code_Point
  extracted/DerivedEastAsianWidth.txt   W and F, including the @missing defaults for unassigned CJK
  HangulSyllableType.txt           V and T jamo (they join the preceding jamo: zero columns)
  StandardizedVariants.txt         bases of standardized variation sequences
  emoji/emoji-data.txt             Emoji, Emoji_Presentation, Emoji_Modifier, Extended_Pictographic

The output is data only: sorted tables and accessor functions declared in
internal/text/unicode_data.hpp; the reminder-tag fold is computed by scripts/unicode_folds.py.
The output depends only on the data files (no dates, no hash order). Rerun after a Unicode update and commit the result.
"""

import os
import sys

import unicode_folds
from unicode_folds import read_case_folding

DEFAULT_ROOT = "/usr/share/unicode"

MAX_CP = 0x10FFFF

# CharClass values, in the order of `enum class CharClass` in internal/text/unicode.hpp.
CLASSES = ["visible", "mark", "space", "control", "bidi", "format", "tag",
           "variation_selector", "ignorable", "separator", "noncharacter"]

# Base flags, as the k_base_* constants in internal/text/unicode_data.hpp.
BASE_EMOJI = 1
BASE_PICTOGRAPHIC = 2
BASE_MODIFIER = 4
BASE_STANDARDIZED = 8
BASE_IDEOGRAPHIC = 16

def ranges_in(path, wanted):
    """Yields (first, last, property) for each data line of a UCD property file."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = [x.strip() for x in line.split(";")]
            if wanted is not None and fields[1] not in wanted:
                continue
            cps = fields[0].split("..")
            first = int(cps[0], 16)
            last = int(cps[-1], 16)
            yield first, last, fields[1]


def missing_defaults(path, value):
    """Yields (first, last) of the `# @missing: a..b; value` lines of a derived file."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# @missing:"):
                span, prop = [x.strip() for x in line[len("# @missing:"):].split(";")]
                if prop == value:
                    first, last = span.split("..")
                    yield int(first, 16), int(last, 16)


def read_unicode_data(path):
    """Returns (category by code point, decomposition by code point)."""
    category = {}
    decomposition = {}
    with open(path, encoding="utf-8") as f:
        pending_first = None
        for line in f:
            fields = line.rstrip("\n").split(";")
            cp = int(fields[0], 16)
            name, gc = fields[1], fields[2]
            if name.endswith(", First>"):
                pending_first = cp
                continue
            if name.endswith(", Last>"):
                for c in range(pending_first, cp + 1):
                    category[c] = gc
                pending_first = None
                continue
            category[cp] = gc
            if fields[5]:
                decomposition[cp] = fields[5]
    return category, decomposition


def runs(values, default):
    """Merges a dense list into (first, last, value) runs, leaving out `default`."""
    out = []
    start = 0
    for cp in range(1, MAX_CP + 2):
        if cp == MAX_CP + 1 or values[cp] != values[start]:
            if values[start] != default:
                out.append((start, cp - 1, values[start]))
            start = cp
    return out


def generate(root):
    """The text of unicode_data.cpp, from the data files under `root`."""
    p = lambda name: os.path.join(root, name)
    category, decomposition = read_unicode_data(p("UnicodeData.txt"))

    # Character classes: later assignments win, so the most specific class is applied last.
    cls = [0] * (MAX_CP + 1)
    c = CLASSES.index
    for cp, gc in category.items():
        if gc in ("Mn", "Me"):
            cls[cp] = c("mark")
        elif gc == "Zs":
            cls[cp] = c("space")
        elif gc == "Cc":
            cls[cp] = c("control")
        elif gc == "Cf":
            cls[cp] = c("format")
        elif gc in ("Zl", "Zp"):
            cls[cp] = c("separator")
    for first, last, _ in ranges_in(p("DerivedCoreProperties.txt"), {"Default_Ignorable_Code_Point"}):
        for cp in range(first, last + 1):
            if cls[cp] != c("format"):
                cls[cp] = c("ignorable")
    for first, last, _ in ranges_in(p("PropList.txt"), {"Noncharacter_Code_Point"}):
        for cp in range(first, last + 1):
            cls[cp] = c("noncharacter")
    for first, last, _ in ranges_in(p("PropList.txt"), {"Variation_Selector"}):
        for cp in range(first, last + 1):
            cls[cp] = c("variation_selector")
    for first, last, _ in ranges_in(p("PropList.txt"), {"Bidi_Control"}):
        for cp in range(first, last + 1):
            cls[cp] = c("bidi")
    for cp in range(0xE0000, 0xE0080):  # the whole Tags block, assigned or not
        cls[cp] = c("tag")
    class_runs = runs(cls, 0)

    # Display width: 2 for East Asian Wide/Fullwidth and emoji presentation, 0 for conjoining
    # jamo; classes other than visible and space are handled in code.
    width = [1] * (MAX_CP + 1)
    eaw = p("extracted/DerivedEastAsianWidth.txt")
    for first, last in missing_defaults(eaw, "Wide"):
        for cp in range(first, last + 1):
            width[cp] = 2
    for first, last, value in ranges_in(eaw, None):
        for cp in range(first, last + 1):
            width[cp] = 2 if value in ("W", "F") else 1
    emoji = p("emoji/emoji-data.txt")
    for first, last, _ in ranges_in(emoji, {"Emoji_Presentation"}):
        for cp in range(first, last + 1):
            width[cp] = 2
    for first, last, _ in ranges_in(p("HangulSyllableType.txt"), {"V", "T"}):
        for cp in range(first, last + 1):
            width[cp] = 0
    width_runs = runs(width, 1)

    # Bases that a variation selector or an emoji ZWJ may follow.
    base = [0] * (MAX_CP + 1)
    for prop, flag in (("Emoji", BASE_EMOJI), ("Extended_Pictographic", BASE_PICTOGRAPHIC),
                       ("Emoji_Modifier", BASE_MODIFIER)):
        for first, last, _ in ranges_in(emoji, {prop}):
            for cp in range(first, last + 1):
                base[cp] |= flag
    for first, last, _ in ranges_in(p("PropList.txt"), {"Ideographic"}):
        for cp in range(first, last + 1):
            base[cp] |= BASE_IDEOGRAPHIC
    with open(p("StandardizedVariants.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                cp = int(line.split(";")[0].split()[0], 16)
                if not base[cp] & BASE_IDEOGRAPHIC:
                    base[cp] |= BASE_STANDARDIZED
    base_runs = runs(base, 0)

    # Folds for matching reminder tags (unicode_folds.py): code points whose fold is one
    # character, in runs; the others (several characters, or
    # none) one by one. A fold that is only a break is the default and is left out.
    folder = unicode_folds.Folder(decomposition, read_case_folding(p("CaseFolding.txt")),
                                  lambda cp: cls[cp] != 0, category)
    fold_runs = []
    fold_texts = []
    for cp in range(0x80, MAX_CP + 1):
        if cls[cp] != 0 or (cp not in category and cp not in folder.look_alike):
            continue  # hidden: ignorable in code; unassigned: a break
        f = folder.fold(cp)
        if f == unicode_folds.BREAK:
            continue
        if ("<" in f or ">" in f) and len(f) != 1:
            raise ValueError(f"U+{cp:04X} folds to {f!r}: a bracket must be a whole fold")
        if len(f) != 1:
            fold_texts.append((cp, f))
            continue
        if fold_runs:
            first, last, start, step = fold_runs[-1]
            if cp == last + 1:
                # A run either keeps its character (accented forms of one letter) or advances it
                # by one per code point (styled alphabets); a run of one may become either.
                if step != 0 and ord(f) == ord(start) + (cp - first):
                    fold_runs[-1] = (first, cp, start, 1)
                    continue
                if step != 1 and f == start:
                    fold_runs[-1] = (first, cp, start, 0)
                    continue
        fold_runs.append((cp, cp, f, None))

    return emit(class_runs, width_runs, base_runs, fold_runs, fold_texts)


def emit(class_runs, width_runs, base_runs, fold_runs, fold_texts):
    out = []
    w = out.append
    w("// Generated by scripts/gen-unicode-tables.py from Debian's unicode-data (Unicode 15.0.0):\n")
    w("// UnicodeData.txt, CaseFolding.txt, PropList.txt, DerivedCoreProperties.txt,\n")
    w("// DerivedEastAsianWidth.txt, HangulSyllableType.txt, StandardizedVariants.txt and\n")
    w("// emoji/emoji-data.txt, and the look-alikes of scripts/unicode_folds.py. Do not edit.\n\n")
    w('#include "text/unicode_data.hpp"\n\n')
    w("// clang-format off\n")
    w("namespace mailroom::text::unicode_data {\n\nnamespace {\n\nusing C = CharClass;\n\n")

    def table(kind, name, entries, per_line):
        w(f"constexpr {kind} {name}[] = {{\n")
        for i in range(0, len(entries), per_line):
            w("  " + " ".join(e + "," for e in entries[i:i + per_line]) + "\n")
        w("};\n\n")

    # Several ranges to a line: the tables are data, and one range a line made the file 1,188 lines.
    table("ClassRange", "k_classes", [f"{{0x{a:04X}, 0x{b:04X}, C::{CLASSES[v]}}}" for a, b, v in class_runs], 3)
    table("ValueRange", "k_widths", [f"{{0x{a:04X}, 0x{b:04X}, {v}}}" for a, b, v in width_runs], 4)
    table("ValueRange", "k_bases", [f"{{0x{a:04X}, 0x{b:04X}, {v}}}" for a, b, v in base_runs], 4)
    table("FoldRange", "k_folds", [f"{{0x{a:04X}, 0x{b:04X}, '{v}', {step or 0}}}" for a, b, v, step in fold_runs], 4)
    table("FoldText", "k_fold_texts", [f'{{0x{a:04X}, "{t}"}}' for a, t in fold_texts], 5)
    w("} // namespace\n\n")
    for name, table, kind in (("class_ranges", "k_classes", "ClassRange"), ("width_ranges", "k_widths", "ValueRange"),
                              ("base_ranges", "k_bases", "ValueRange"), ("fold_ranges", "k_folds", "FoldRange"),
                              ("fold_texts", "k_fold_texts", "FoldText")):
        w(f"std::span<const {kind}> {name}()\n{{\n  return {table};\n}}\n\n")
    w("} // namespace mailroom::text::unicode_data\n")
    w("// clang-format on\n")
    return "".join(out)


def check(generated_path, doc_path, root):
    """Exit status 0 when `generated_path` holds exactly what this script writes and the
    look-alike table of `doc_path` lists exactly unicode_folds.LOOK_ALIKES; else 1, saying why."""
    ok = True
    with open(generated_path, encoding="utf-8") as f:
        if f.read() != generate(root):
            print(f"{generated_path} differs from what scripts/gen-unicode-tables.py writes", file=sys.stderr)
            ok = False
    documented = unicode_folds.doc_look_alikes(doc_path)
    wanted = {t: sorted(cps) for t, cps in unicode_folds.LOOK_ALIKES.items()}
    if documented != wanted:
        print(f"the look-alike table of {doc_path} differs from scripts/unicode_folds.py:", file=sys.stderr)
        for t in sorted(set(documented) | set(wanted)):
            if documented.get(t) != wanted.get(t):
                doc = " ".join(f"U+{c:04X}" for c in documented.get(t, []))
                code = " ".join(f"U+{c:04X}" for c in wanted.get(t, []))
                print(f"  {t!r}: documented [{doc}], code [{code}]", file=sys.stderr)
        ok = False
    return 0 if ok else 1


def main():
    args = sys.argv[1:]
    if args and args[0] == "--check":
        if len(args) not in (3, 4):
            print(__doc__, file=sys.stderr)
            return 2
        return check(args[1], args[2], args[3] if len(args) > 3 else DEFAULT_ROOT)
    sys.stdout.write(generate(args[0] if args else DEFAULT_ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
