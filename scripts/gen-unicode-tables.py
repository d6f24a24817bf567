#!/usr/bin/env python3
"""Generates internal/text/unicode_data.cpp from Debian's Unicode data files.

Usage: scripts/gen-unicode-tables.py [UNICODE_DIR] > internal/text/unicode_data.cpp

UNICODE_DIR defaults to /usr/share/unicode (Debian package `unicode-data`, 15.0.0 in bookworm).
Files read:
  UnicodeData.txt                  general category (Cc, Cf, Mn, Me, Zs, Zl, Zp, Pd), decompositions
  PropList.txt                     Bidi_Control, Variation_Selector, Ideographic, Noncharacter_Code_Point
  DerivedCoreProperties.txt        Default_Ignorable_Code_Point
  extracted/DerivedEastAsianWidth.txt   W and F, including the @missing defaults for unassigned CJK
  HangulSyllableType.txt           V and T jamo (they join the preceding jamo: zero columns)
  StandardizedVariants.txt         bases of standardized variation sequences
  emoji/emoji-data.txt             Emoji, Emoji_Presentation, Emoji_Modifier, Extended_Pictographic

The output is data only: four sorted range tables and accessor functions declared in
internal/text/unicode_data.hpp. Rerun after a Unicode update and commit the result.
"""

import os
import sys

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

# Look-alikes of '<', '>' and '/' that have no compatibility decomposition. UTS #39's
# confusables.txt would be the full list, but Debian does not package it.
EXTRA_FOLDS = {
    0x02C2: "<", 0x02C3: ">",      # modifier letter left/right arrowhead
    0x1438: "<", 0x1433: ">",      # Canadian syllabics pa, po
    0x2039: "<", 0x203A: ">",      # single angle quotation marks
    0x2329: "<", 0x232A: ">",      # angle brackets (canonically 3008/3009)
    0x3008: "<", 0x3009: ">",      # CJK angle brackets
    0x27E8: "<", 0x27E9: ">",      # mathematical angle brackets
    0x276C: "<", 0x276D: ">",      # medium angle bracket ornaments
    0x276E: "<", 0x276F: ">",      # heavy angle quotation mark ornaments
    0x29FC: "<", 0x29FD: ">",      # curved angle brackets
    0xFE3F: "<", 0xFE40: ">",      # vertical angle bracket presentation forms
    0x2044: "/", 0x2215: "/", 0x29F8: "/",  # fraction slash, division slash, big solidus
}
FOLD_TARGETS = set("abcdefghijklmnopqrstuvwxyz<>/-_")


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


def fold_of(cp, decomposition, depth=0):
    """The one ASCII character `cp` decomposes to (compatibility or canonical), or None."""
    if cp < 0x80:
        c = chr(cp).lower()
        return c if c in FOLD_TARGETS else None
    if depth > 8 or cp not in decomposition:
        return None
    parts = decomposition[cp].split()
    if parts and parts[0].startswith("<"):
        parts = parts[1:]
    if len(parts) != 1:
        return None
    return fold_of(int(parts[0], 16), decomposition, depth + 1)


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


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
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

    # Folds for matching reminder tags: one ASCII character per code point, in runs where both
    # sides advance by one.
    fold = {}
    for cp in range(0x80, MAX_CP + 1):
        f = fold_of(cp, decomposition)
        if f is None and category.get(cp) == "Pd":
            f = "-"
        if f is not None:
            fold[cp] = f
    fold.update(EXTRA_FOLDS)
    fold_runs = []
    for cp in sorted(fold):
        target = ord(fold[cp])
        if fold_runs:
            first, last, start = fold_runs[-1]
            if cp == last + 1 and target == start + (cp - first):
                fold_runs[-1] = (first, cp, start)
                continue
        fold_runs.append((cp, cp, target))

    emit(class_runs, width_runs, base_runs, fold_runs)


def emit(class_runs, width_runs, base_runs, fold_runs):
    w = sys.stdout.write
    w("// Generated by scripts/gen-unicode-tables.py from Debian's unicode-data (Unicode 15.0.0):\n")
    w("// UnicodeData.txt, PropList.txt, DerivedCoreProperties.txt, DerivedEastAsianWidth.txt,\n")
    w("// HangulSyllableType.txt, StandardizedVariants.txt and emoji/emoji-data.txt. Do not edit.\n\n")
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
    table("ValueRange", "k_folds", [f"{{0x{a:04X}, 0x{b:04X}, 0x{v:02X}}}" for a, b, v in fold_runs], 4)
    w("} // namespace\n\n")
    for name, table, kind in (("class_ranges", "k_classes", "ClassRange"), ("width_ranges", "k_widths", "ValueRange"),
                              ("base_ranges", "k_bases", "ValueRange"), ("fold_ranges", "k_folds", "ValueRange")):
        w(f"std::span<const {kind}> {name}()\n{{\n  return {table};\n}}\n\n")
    w("} // namespace mailroom::text::unicode_data\n")
    w("// clang-format on\n")


if __name__ == "__main__":
    main()
