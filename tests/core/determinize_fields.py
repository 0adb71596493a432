#!/usr/bin/env python3
"""determinize_fields.py — every shuffle or draw of a game's determinize names its own field of test_hidden_fields.c.

Usage: determinize_fields.py [SOURCE_DIR]   (CTest: tests/CMakeLists.txt, determinize_fields)

test_hidden_fields.c checks that each hidden field it lists changes when determinize resamples. It cannot see a
zone it does not list: with PSYCLE's two rows of tiles in one field, deleting the bonus tiles' shuffle left every
test green (issue 41). So the rule is read from the source, statically: in each game's determinize (the function
its game_def names in `.determinize = FN`) and every function of the game's files it calls that takes the
generator (`asobi_rng *`), each call of the generator (asobi_rng_shuffle, asobi_rng_below, ...) carries a marker,
on its line or in the comment lines right above it:

    /* hidden field: "the bonus tiles not yet face up (their order)" */
    /* hidden field: drawn with determinize_cards's shuffle */

The first names the fields of the game's table in test_hidden_fields.c (psycle_fields, ...) that the call
resamples, one or more, in quotes. Each call must name at least one field that no other call names: a field
shared by two calls is one field for two zones, which passes while one of them keeps the truth. The second form
is for a draw that only finishes another call's resampling (NINJA's deal gives each shuffled card a holder): it
names that call's function, which must hold a call with fields. A new shuffle without a marker fails here.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../.."))
GAMES = {"psycle": "psycle_fields", "ninja": "ninja_fields", "octal": "octal_fields", "timemasters": "tm_fields"}
RNG_CALL = re.compile(r"\basobi_rng_\w+\s*\(")
MARKER = re.compile(r"hidden field:\s*(.*?)\s*\*/")
failures = []


def functions(text):
    """Each function defined at the file's top level: name -> (first line number, its lines, its parameters)."""
    found, lines = {}, text.split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"^(?:static\s+)?[A-Za-z_][\w\s\*]*?\b(\w+)\s*\(([^;{]*)\)\s*$", line)
        if not m or i + 1 >= len(lines) or lines[i + 1] != "{":
            continue
        depth, j = 0, i + 1
        while j < len(lines):
            depth += lines[j].count("{") - lines[j].count("}")
            if depth == 0:
                break
            j += 1
        found[m.group(1)] = (i + 1, lines[i:j + 1], m.group(2))
    return found


def marker_of(body, k):
    """The marker of the call on body[k]: on its line, or in the comment lines right above (a marker may run
    over several lines of its comment)."""
    j = k
    while j > 0 and re.match(r"^\s*(/\*|\*|//)", body[j - 1]):
        j -= 1
    text = " ".join(re.sub(r"^\s*(/\*|\*(?!/)|//)?", "", line).strip() for line in body[j:k + 1])
    m = MARKER.search(text)
    return m.group(1) if m else None


def fields_of_table(game, table):
    """The names of the fields in test_hidden_fields.c's TABLE."""
    with open(os.path.join(ROOT, "tests/core/test_hidden_fields.c")) as f:
        text = f.read()
    m = re.search(r"static const hidden_field %s\[\] = \{(.*?)\n\};" % table, text, re.S)
    if not m:
        failures.append("%s: no table %s in tests/core/test_hidden_fields.c" % (game, table))
        return set()
    return set(re.findall(r'\{"([^"]+)"', m.group(1)))


def check_game(game, table):
    folder = os.path.join(ROOT, "src/games", game)
    defined, where = {}, {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".c"):
            with open(os.path.join(folder, name)) as f:
                for fn, found in functions(f.read()).items():
                    defined[fn] = found
                    where[fn] = "src/games/%s/%s" % (game, name)
    entries = []
    for fn in defined:
        for line in defined[fn][1]:
            m = re.search(r"\.determinize\s*=\s*(\w+)", line)
            if m:
                entries.append(m.group(1))
    if not entries:   # the game_def is a file-level initializer, not inside a function
        for name in os.listdir(folder):
            if name.endswith(".c"):
                with open(os.path.join(folder, name)) as f:
                    entries += re.findall(r"\.determinize\s*=\s*(\w+)", f.read())
    if not entries:
        failures.append("%s: no `.determinize = FN` in src/games/%s" % (game, game))
        return 0
    # the determinize and every function of the game's that it calls with the generator, and theirs
    reached, todo = [], list(entries)
    while todo:
        fn = todo.pop()
        if fn in reached or fn not in defined:
            continue
        reached.append(fn)
        for line in defined[fn][1][2:]:
            for callee in re.findall(r"\b(\w+)\s*\(", line):
                if callee in defined and "asobi_rng" in defined[callee][2] and callee not in reached:
                    todo.append(callee)
    known = fields_of_table(game, table)
    calls = []   # (function, place, fields or None, drawn-with function)
    for fn in reached:
        first, body, _ = defined[fn]
        for k, line in enumerate(body[2:], start=2):
            code = re.sub(r"/\*.*?\*/|//.*$", "", line)
            if not RNG_CALL.search(code):
                continue
            place = "%s:%d (%s)" % (where[fn], first + k, fn)
            marker = marker_of(body, k)
            if marker is None:
                failures.append("%s: %s draws from the generator without a `hidden field:` marker naming its field "
                                "of %s in tests/core/test_hidden_fields.c" % (game, place, table))
                continue
            with_fn = re.match(r"drawn with (\w+)'s", marker)
            names = re.findall(r'"([^"]+)"', marker)
            if not with_fn and not names:
                failures.append("%s: %s: the marker names no field (\"NAME\") and no \"drawn with FN's\"" % (game, place))
                continue
            for n in names:
                if n not in known:
                    failures.append("%s: %s names \"%s\", not a field of %s (%s)" % (game, place, n, table,
                                                                               "; ".join(sorted(known))))
            calls.append((fn, place, names, with_fn.group(1) if with_fn else None))
    for fn, place, names, with_fn in calls:
        if with_fn:
            if not any(c[0] == with_fn and c[2] for c in calls):
                failures.append("%s: %s is drawn with %s's call, which names no field" % (game, place, with_fn))
            continue
        own = [n for n in names if not any(c[2] and n in c[2] for c in calls if c[1] != place)]
        if not own:
            failures.append("%s: %s names no field of its own (%s: each is another call's too): a zone resampled "
                            "apart needs its own field in %s" % (game, place, ", ".join(names), table))
    return len(calls)


def main():
    for game, table in GAMES.items():
        n = check_game(game, table)
        print("%s: %d draws of the generator in its determinize" % (game, n))
    missing = sorted(set(os.listdir(os.path.join(ROOT, "src/games"))) - set(GAMES))
    for game in missing:
        if os.path.isdir(os.path.join(ROOT, "src/games", game)):
            failures.append("%s: a game this check does not know (add it to GAMES with its table)" % game)
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    sys.exit(1 if failures else 0)


main()
