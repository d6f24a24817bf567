#!/usr/bin/env python3
"""Fails when a relative link in a committed Markdown file names a file that does not exist.

Checks [text](target) links outside fenced code; URLs (scheme:) and in-page anchors (#...) are
skipped, and a target's own #anchor is ignored. Run from anywhere: paths are from the repository.
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
for name in files:
    with open(os.path.join(root, name), encoding="utf-8") as f:
        text = re.sub(r"^```.*?^```", "", f.read(), flags=re.S | re.M)
    for match in link.finditer(text):
        target = match.group(1)
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if path and not os.path.exists(os.path.join(root, os.path.dirname(name), path)):
            print(f"{name}: the link {target} names nothing")
            dangling += 1
sys.exit(1 if dangling else 0)
