#!/usr/bin/env python3
"""failed_tails.py — the last lines of every failed test's output in a CTest run, for the end of a CI log.

Usage: failed_tails.py BUILD [LINES]

CTest's --output-on-failure prints a failed test's output where it fails, in the middle of a long log; a CI
that keeps only the log's head and tail loses it (a web_table failure once said nothing but its name). This
prints, after everything else, the last LINES (default 30) of each failed test's output, read from
BUILD/Testing/Temporary/LastTest.log. It prints nothing when nothing failed, and never fails itself.
"""
import os
import sys


def outputs(log_text):
    """Each test's name and output in LastTest.log: {name: [lines]}."""
    found, name, lines, inside = {}, None, [], False
    for line in log_text.splitlines():
        if not inside and " Test: " in line and line.split(" Test: ", 1)[0].replace("/", "").isdigit():
            name = line.split(" Test: ", 1)[1].strip()
        elif not inside and line.startswith("Output:") and name:
            inside, lines = True, []
        elif inside and line.startswith("<end of output>"):
            found[name], inside = lines, False
        elif inside and not (not lines and set(line) == {"-"}):
            lines.append(line)
    return found


def failed(temporary):
    """The names in LastTestsFailed.log ("N:NAME" lines)."""
    path = os.path.join(temporary, "LastTestsFailed.log")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", errors="replace") as f:
        return [line.split(":", 1)[1].strip() for line in f if ":" in line]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    temporary = os.path.join(sys.argv[1], "Testing", "Temporary")
    keep = int(sys.argv[2]) if len(sys.argv) == 3 else 30
    names = failed(temporary)
    if not names:
        return
    try:
        with open(os.path.join(temporary, "LastTest.log"), encoding="utf-8", errors="replace") as f:
            told = outputs(f.read())
    except OSError:
        told = {}
    for name in names:
        lines = told.get(name, ["(no output kept)"])
        print("== the end of %s's output (%d of %d lines)" % (name, min(keep, len(lines)), len(lines)))
        for line in lines[-keep:]:
            print("   " + line)


if __name__ == "__main__":
    main()
