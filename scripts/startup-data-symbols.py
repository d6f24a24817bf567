#!/usr/bin/env python3
"""The data symbols (read-only data, relro, data, bss) a program touched, in first-touch order.

Usage: startup-data-symbols.py BINARY LACKEY_LOG...
Each LACKEY_LOG is valgrind --tool=lackey --trace-mem=yes output for a run of BINARY. Prints one
symbol name per line, each once. scripts/startup-order.sh appends them to cmake/startup-order.txt,
so that lld packs the data a command touches into as few pages as it packs the code.
"""
import bisect
import subprocess
import sys

DATA_TYPES = set("rRdDbBvV")


def data_symbols(binary):
    """(start, size, name) of every sized data symbol in `binary`, sorted by address."""
    out = subprocess.run(["nm", "-S", "-n", binary], capture_output=True, text=True, check=True).stdout
    symbols = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in DATA_TYPES and int(fields[1], 16) > 0:
            symbols.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
    symbols.sort()
    return symbols


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[2])
    symbols = data_symbols(sys.argv[1])
    starts = [s[0] for s in symbols]
    seen = set()
    for log in sys.argv[2:]:
        with open(log, encoding="utf-8", errors="replace") as f:
            for line in f:
                # Data accesses are " L addr,size", " S addr,size" and " M addr,size".
                if len(line) < 4 or line[0] != " " or line[1] not in "LSM":
                    continue
                address = int(line[3:].split(",", 1)[0], 16)
                i = bisect.bisect_right(starts, address) - 1
                if i < 0:
                    continue
                start, size, name = symbols[i]
                if address < start + size and name not in seen:
                    seen.add(name)
                    print(name)


if __name__ == "__main__":
    main()
