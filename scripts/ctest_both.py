#!/usr/bin/env python3
"""ctest_both.py — one CTest project over both builds: writes OUT/CTestTestfile.cmake (scripts/test.sh runs it).

Usage: ctest_both.py OUT NORMAL_BUILD SANITIZER_BUILD CPU_SLOTS

One `ctest -j` over both trees lets the sanitizer build's tests run beside the normal build's browser tests
instead of after them. The trees' test files are copied under OUT/normal/ and OUT/asan/, every sanitizer test
renamed asan:NAME (CTest keys its resource allocation by name, so two tests of one name never run at once, and
their failures could not be told apart); each test still runs in its own build folder.
OUT/resources.json is CTest's resource spec: CPU_SLOTS `cpu` slots (tests/CMakeLists.txt says who takes them).

With ASOBI_TEST_TIMES=FILE in the environment, every test runs under this script's --time, which appends
"NAME WALL CPU" (seconds; CPU: user + system of the test and every process it waited for) to FILE: the CPU
seconds a test needs, whatever else the machine was doing.
"""
import json
import os
import re
import resource
import subprocess
import sys
import time

# add_test(NAME ...) and set_tests_properties(NAME PROPERTIES ...): NAME plain or in a bracket argument
TEST_LINE = re.compile(r"^(add_test|set_tests_properties)\((?:\[(=*)\[(.*?)\]\2\]|([^\s()]+))(.*)$", re.S)


def renamed(line, workdir, prefix, times):
    m = TEST_LINE.match(line)
    if not m:
        return line
    command, name, rest = m.group(1), m.group(3) if m.group(3) is not None else m.group(4), m.group(5)
    new = "[=[%s%s]=]" % (prefix, name)
    if command == "add_test" and times and not rest.startswith(" NOT_AVAILABLE"):
        rest = " [=[%s]=] [=[%s]=] --time [=[%s]=] [=[%s%s]=] --%s" % (sys.executable, os.path.abspath(__file__),
                                                                   times, prefix, name, rest)
    out = "%s(%s%s" % (command, new, rest)
    if command == "add_test":
        # CTest runs a test in the folder of its CTestTestfile.cmake: keep the build's (a later
        # WORKING_DIRECTORY of the test's own comes after this line and wins)
        out += "set_tests_properties(%s PROPERTIES WORKING_DIRECTORY [=[%s]=])\n" % (new, workdir)
    return out


def mirror(src_root, dst_root, prefix, times):
    count = 0
    for folder, _, files in os.walk(src_root):
        if "CTestTestfile.cmake" not in files:
            continue
        rel = os.path.relpath(folder, src_root)
        dst = os.path.normpath(os.path.join(dst_root, rel))
        os.makedirs(dst, exist_ok=True)
        with open(os.path.join(folder, "CTestTestfile.cmake")) as f:
            lines = f.readlines()
        text = "".join(renamed(line if line.endswith("\n") else line + "\n", folder, prefix, times) for line in lines)
        count += sum(1 for line in lines if line.startswith("add_test("))
        with open(os.path.join(dst, "CTestTestfile.cmake"), "w") as f:
            f.write(text)
    return count


def timed(log, name, command):
    """Runs command; appends its name, wall and CPU seconds to log; exits as it did."""
    start = time.monotonic()
    code = subprocess.call(command)
    wall = time.monotonic() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(log, "a") as f:
        f.write("%s %.2f %.2f\n" % (name, wall, usage.ru_utime + usage.ru_stime))
    sys.exit(code if code >= 0 else 128 - code)


def main():
    if len(sys.argv) > 4 and sys.argv[1] == "--time" and sys.argv[4] == "--":
        timed(sys.argv[2], sys.argv[3], sys.argv[5:])
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[2])
    out, normal, sanitized, slots = (os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]),
                                     os.path.abspath(sys.argv[3]), int(sys.argv[4]))
    os.makedirs(out, exist_ok=True)
    times = os.environ.get("ASOBI_TEST_TIMES")
    times = os.path.abspath(times) if times else None
    for sub, tree, prefix in (("normal", normal, ""), ("asan", sanitized, "asan:")):
        dst = os.path.join(out, sub)
        for folder, _, files in os.walk(dst):  # a test file gone from the tree goes here too
            if "CTestTestfile.cmake" in files:
                os.remove(os.path.join(folder, "CTestTestfile.cmake"))
        if mirror(tree, dst, prefix, times) == 0:
            sys.exit("ctest_both.py: %s registers no test" % tree)
    with open(os.path.join(out, "CTestTestfile.cmake"), "w") as f:
        f.write("# written by scripts/ctest_both.py: the normal build's tests, then the sanitizer build's (asan:NAME)\n")
        f.write("subdirs(\"normal\")\nsubdirs(\"asan\")\n")
    with open(os.path.join(out, "resources.json"), "w") as f:
        json.dump({"version": {"major": 1, "minor": 0}, "local": [{"cpu": [{"id": "cores", "slots": slots}]}]}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
