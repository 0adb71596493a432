#!/usr/bin/python3
"""pg_fixture.py — a throwaway PostgreSQL for the tests: initdb in a temporary folder, a unix socket only, removed after.

As a program: pg_fixture.py COMMAND [ARGS...] runs COMMAND with ASOBI_TEST_PG set to the server's URI and
returns its exit status. From a Python test: `with pg_fixture.postgres() as uri: ...`.

The server runs as an unprivileged user (PostgreSQL refuses to run as root): when we are root (CI, containers),
as `nobody` through runuser; otherwise as ourselves. It listens on no TCP address (listen_addresses=''),
only on a unix socket in the temporary folder, keeps nothing on disk that matters (fsync off: a test's data
need not survive a power cut), and takes about 3 s to start, serve and go.
"""
import contextlib
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile

USER = "nobody"
DB = "asobi"


def bin_dir():
    """The newest installed PostgreSQL's binaries (/usr/lib/postgresql/VERSION/bin on Debian)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if not found:
        raise RuntimeError("no PostgreSQL server binaries under /usr/lib/postgresql (Debian package postgresql)")
    return os.path.dirname(found[-1])


def _as_server_user(argv):
    if os.geteuid() == 0:
        return ["runuser", "-u", USER, "--"] + argv
    return argv


def _run(argv, **kw):
    subprocess.run(_as_server_user(argv), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)


@contextlib.contextmanager
def postgres():
    """A running PostgreSQL with an empty database `asobi`; yields its libpq URI."""
    bins = bin_dir()
    base = tempfile.mkdtemp(prefix="asobi-pg-")
    os.chmod(base, 0o755)
    if os.geteuid() == 0:
        shutil.chown(base, USER)
    data = os.path.join(base, "data")
    started = False
    try:
        _run([bins + "/initdb", "-D", data, "-U", DB, "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"])
        opts = "-c listen_addresses='' -c unix_socket_directories=%s -c fsync=off -c synchronous_commit=on " \
               "-c full_page_writes=off -c max_connections=200" % base
        _run([bins + "/pg_ctl", "-D", data, "-l", os.path.join(base, "log"), "-o", opts, "-w", "start"])
        started = True
        _run([bins + "/createdb", "-h", base, "-U", DB, DB])
        yield "postgresql:///%s?host=%s&user=%s" % (DB, base, DB)
    finally:
        if started:
            subprocess.run(_as_server_user([bins + "/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"]),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(base, ignore_errors=True)


def exit_on_signals():
    """SIGTERM and SIGINT end the program through SystemExit, so that postgres()'s `finally` still stops
    the server and removes its folder."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: sys.exit(128 + signum))


def main(argv):
    if len(argv) < 2:
        print("usage: pg_fixture.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    exit_on_signals()
    with postgres() as uri:
        env = dict(os.environ, ASOBI_TEST_PG=uri)
        return subprocess.run(argv[1:], env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
