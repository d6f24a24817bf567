#!/usr/bin/env python3
"""Fails when a relative link in a committed Markdown file names a file that does not exist.

Checks [text](target) links outside fenced code: the file must exist, and a #anchor must be the
slug of one of its headings (GitHub's: lower case, punctuation dropped, spaces as hyphens). URLs
(scheme:) are skipped. Run from anywhere: paths are from the repository.
"""
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
files = subprocess.run(["git", "-C", root, "ls-files", "*.md"], capture_output=True, text=True,
                       check=True).stdout.split()
link = re.compile(r"\]\(<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\)")
dangling = 0


def anchors(path):
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"^```.*?^```", "", f.read(), flags=re.S | re.M)
    out = set()
    for heading in re.findall(r"^#+\s+(.*?)\s*#*$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


for name in files:
    with open(os.path.join(root, name), encoding="utf-8") as f:
        text = re.sub(r"^```.*?^```", "", f.read(), flags=re.S | re.M)
    for match in link.finditer(text):
        target = match.group(1)
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target):
            continue
        path, _, anchor = target.partition("#")
        full = os.path.join(root, os.path.dirname(name), path) if path else os.path.join(root, name)
        if not os.path.exists(full):
            print(f"{name}: the link {target} names nothing")
            dangling += 1
        elif anchor and full.endswith(".md") and anchor not in anchors(full):
            print(f"{name}: the link {target} names no heading of {os.path.relpath(full, root)}")
            dangling += 1
sys.exit(1 if dangling else 0)
