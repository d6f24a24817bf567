"""The reminder-tag fold: what each code point reads as when matching `<system-reminder>`.

Used by gen-unicode-tables.py; docs/output-safety.md ("Folding") describes the same pipeline and
holds the look-alike table below, which `gen-unicode-tables.py --check` compares with it.

A code point's fold is a string over ALPHABET: lowercase ASCII letters and `<`, `>`, `/`, `-`,
`_` for what it reads as, and `*` for anything else (which breaks a tag); empty when nothing of
it is left to see. It is computed as:
  1. compatibility decomposition (NFKD: the decompositions of UnicodeData.txt, applied
     recursively; Hangul syllables decompose to jamo, which are letters outside ALPHABET);
  2. removal of every character whose class is not `visible` (combining marks Mn and Me,
     spaces, controls and the hidden classes of unicode.hpp);
  3. full case folding (CaseFolding.txt statuses C and F);
  1-3 repeat until nothing changes (case folding can leave a base and a mark: U+0130 folds to
  `i` + U+0307, and decomposition can leave a capital);
  4. the look-alike table: each character left that is a key of LOOK_ALIKES, or is dash
     punctuation (Pd), becomes its ASCII look-alike;
  5. ASCII characters of ALPHABET stay; every other run of characters becomes one `*`.
"""

ALPHABET = set("abcdefghijklmnopqrstuvwxyz<>/-_")
BREAK = "*"

# Look-alikes that no decomposition or case folding reaches, by what they read as. Each key must
# be left unchanged by steps 1-3 (lowercase, no decomposition), or it could never apply; the
# generator checks this. UTS #39 confusables.txt would be the full list; Debian does not package it.
LOOK_ALIKES = {
    "<": [0x02C2, 0x1438, 0x2039, 0x2770, 0x276C, 0x276E, 0x27E8, 0x29FC, 0x3008],
    ">": [0x02C3, 0x1433, 0x203A, 0x2771, 0x276D, 0x276F, 0x27E9, 0x29FD, 0x3009],
    "/": [0x1735, 0x2044, 0x2215, 0x2571, 0x27CB, 0x29F8],
    "-": [0x02D7, 0x2043, 0x2212, 0x2796],
    # The letters of `system-reminder`: Cyrillic, Greek (after case folding, so Greek capitals
    # fold to these too) and Latin small capitals.
    "d": [0x0501, 0x1D05],
    "e": [0x03B5, 0x0435, 0x04BD, 0x1D07],
    "i": [0x0131, 0x0269, 0x026A, 0x03B9, 0x0456, 0x04CF],
    "m": [0x03BC, 0x043C, 0x1D0D],
    "n": [0x0274, 0x03B7, 0x03BD, 0x043F],
    "r": [0x0280, 0x0433],
    "s": [0x0455, 0xA731],
    "t": [0x03C4, 0x0442, 0x1D1B],
    "y": [0x028F, 0x03B3, 0x03C5, 0x0443, 0x04AF],
}


def read_case_folding(path):
    """Returns {code point: [code points]} for the C and F lines of CaseFolding.txt."""
    folding = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = [x.strip() for x in line.split(";")]
            if fields[1] in ("C", "F"):
                folding[int(fields[0], 16)] = [int(x, 16) for x in fields[2].split()]
    return folding


class Folder:
    """Computes folds. `decomposition` maps code points to UnicodeData.txt's field 5, `hidden`
    tells whether a code point's class is not visible, `category` gives general categories."""

    def __init__(self, decomposition, case_folding, hidden, category):
        self.decomposition = decomposition
        self.case_folding = case_folding
        self.hidden = hidden
        self.category = category
        self.look_alike = {}
        for target, cps in LOOK_ALIKES.items():
            for cp in cps:
                if cp in self.look_alike:
                    raise ValueError(f"U+{cp:04X} is listed twice in LOOK_ALIKES")
                if self.steps_1_to_3(cp) != [cp]:
                    raise ValueError(f"U+{cp:04X} in LOOK_ALIKES is changed by decomposition or case folding")
                self.look_alike[cp] = target

    def decompose(self, cp):
        parts = self.decomposition.get(cp)
        if parts is None:
            return [cp]
        fields = parts.split()
        if fields[0].startswith("<"):
            fields = fields[1:]
        out = []
        for field in fields:
            out += self.decompose(int(field, 16))
        return out

    def steps_1_to_3(self, cp):
        seq = [cp]
        for _ in range(8):
            folded = []
            for c in seq:
                for d in self.decompose(c):
                    if not self.hidden(d):
                        folded += self.case_folding.get(d, [d])
            if folded == seq:
                return seq
            seq = folded
        raise ValueError(f"the fold of U+{cp:04X} does not settle")

    def fold(self, cp):
        """The fold of `cp` as a string over ALPHABET and BREAK."""
        out = ""
        for c in self.steps_1_to_3(cp):
            if c in self.look_alike:
                ch = self.look_alike[c]
            elif self.category.get(c) == "Pd":
                ch = "-"
            elif c < 0x80 and chr(c) in ALPHABET:
                ch = chr(c)
            else:
                ch = BREAK
            if not (ch == BREAK and out.endswith(BREAK)):
                out += ch
        return out


def doc_look_alikes(path):
    """The look-alike table of docs/output-safety.md as {target: sorted code points}: the rows
    `| `X` | U+....` between the line `<!-- look-alikes -->` and the next blank line."""
    table = {}
    inside = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() == "<!-- look-alikes -->":
                inside = True
                continue
            if inside and not line.strip():
                break
            if inside and line.startswith("| `"):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                target = cells[0].strip("`")
                cps = [int(w[2:], 16) for w in cells[1].replace(",", " ").split() if w.startswith("U+")]
                table[target] = sorted(cps)
    return table
