"""test_package.py — finding the library, the examples of docs/python.md, and the Python bot over the engine protocol."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from _support import PYTHON_DIR, REPO, asobi

DOC = os.path.join(REPO, "docs", "python.md")


def run_python(code, env_changes):
    """Run code in a new python with this checkout's package; env_changes
    set variables (None removes one)."""
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    if "ASOBI_LIBRARY" in env:
        env["ASOBI_LIBRARY"] = asobi.library_path  # absolute: the child runs elsewhere
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=PYTHON_DIR,
                          capture_output=True, text=True, timeout=300)


class TestLibraryLookup(unittest.TestCase):
    def test_asobi_library_names_the_library(self):
        out = run_python("import asobi; print(asobi.library_path)", {"ASOBI_LIBRARY": asobi.library_path})
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), asobi.library_path)

    def test_a_missing_library_is_a_clear_import_error(self):
        out = run_python("import asobi", {"ASOBI_LIBRARY": "/nonexistent/libasobi.so"})
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("ImportError", out.stderr)
        self.assertIn("/nonexistent/libasobi.so", out.stderr)
        self.assertIn("ASOBI_LIBRARY", out.stderr)

    def test_a_library_next_to_the_package_is_found_first(self):
        with tempfile.TemporaryDirectory() as tmp:
            package = os.path.join(tmp, "asobi")
            shutil.copytree(os.path.join(PYTHON_DIR, "asobi"), package,
                            ignore=shutil.ignore_patterns("__pycache__", "*.so"))
            shutil.copy(asobi.library_path, os.path.join(package, "libasobi.so"))
            env = dict(os.environ, PYTHONPATH=tmp)
            env.pop("ASOBI_LIBRARY", None)
            out = subprocess.run([sys.executable, "-c", "import asobi; print(asobi.library_path); "
                                  "print(asobi.new_game('psycle', players=2, seed=1).legal_actions(0))"],
                                 env=env, cwd=tmp, capture_output=True, text=True, timeout=300)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(out.stdout.splitlines(), [os.path.join(package, "libasobi.so"), "[0, 1, 2, 3, 4, 5]"])

    def test_without_asobi_library_the_build_tree_is_found(self):
        build = os.path.join(REPO, "build", "libasobi.so")
        if not os.path.exists(build) or os.environ.get("ASOBI_SANITIZE"):
            self.skipTest("no normal build in build/")
        out = run_python("import asobi; print(asobi.library_path)", {"ASOBI_LIBRARY": None, "LD_PRELOAD": None})
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(os.path.realpath(out.stdout.strip()), os.path.realpath(build))


class TestDocumentation(unittest.TestCase):
    def test_every_python_example_of_the_manual_runs(self):
        with open(DOC, encoding="utf-8") as f:
            blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
        self.assertGreaterEqual(len(blocks), 3)
        for block in blocks:
            out = run_python(block, {})
            self.assertEqual(out.returncode, 0, "docs/python.md example failed:\n%s\n%s" % (block, out.stderr))
        first = blocks[0].splitlines()
        self.assertLessEqual(len(first), 25)  # "a 20-line example"


class TestEngineBot(unittest.TestCase):
    def test_the_python_bot_plays_through_asobi_engine(self):
        binary = os.environ.get("ASOBI_BINARY")
        if not binary:
            self.skipTest("ASOBI_BINARY is not set")
        for game, players in (("psycle", "2"), ("octal", "3")):
            out = subprocess.run([sys.executable, os.path.join(PYTHON_DIR, "examples", "engine_bot.py"), game,
                                  "--players", players, "--games", "2", "--opponent", "ismcts:iters=30",
                                  "--asobi", binary], capture_output=True, text=True, timeout=300)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(len(re.findall(r"^game \d+: the Python bot at seat \d ranks \d", out.stdout, re.M)), 2)
            self.assertIn("95% interval", out.stdout)


if __name__ == "__main__":
    unittest.main()
