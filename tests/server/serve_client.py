# serve_client.py — starts `asobi serve` on a free loopback port and talks to it (HTTP and WebSockets), for tests and bench/.
import asyncio
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import websockets


class Server:
    """An `asobi serve` process on 127.0.0.1 and a port the OS chose (--port 0)."""

    def __init__(self, binary, db=None, args=(), preexec_fn=None):
        self.binary = binary
        self.preexec_fn = preexec_fn  # run in the child before exec (a resource limit, a signal ignored)
        self.dir = tempfile.mkdtemp(prefix="asobi-serve-test-")
        self.db = db or os.path.join(self.dir, "asobi.db")
        # ASOBI_SERVE_ARGS: options every server of a test run gets (e.g. --event-loop=poll)
        self.args = list(args) + os.environ.get("ASOBI_SERVE_ARGS", "").split()
        self.proc = None
        self.port = None

    def start(self):
        self.log = open(os.path.join(self.dir, "server.log"), "ab")
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--host", "127.0.0.1", "--port", "0", "--db", self.db] + self.args,
            stdout=subprocess.PIPE, stderr=self.log, preexec_fn=self.preexec_fn)
        line = self.proc.stdout.readline().decode()
        if "listening on http://127.0.0.1:" not in line:
            raise RuntimeError("asobi serve did not start: " + line + self.log_text())
        self.port = int(line.split("127.0.0.1:")[1].split()[0])
        # the event loop asked for is the one serving: libev by default (the plugins are installed by
        # scripts/setup.sh; a missing one would fall back to the next quietly but for the log)
        want = "libev"
        for arg in self.args:
            if arg.startswith("--event-loop="):
                want = arg.split("=", 1)[1]
        if "%s loop)" % want not in line:
            raise RuntimeError("asobi serve runs another event loop than %s: %s" % (want, line))
        return self

    def log_text(self):
        with open(os.path.join(self.dir, "server.log"), "rb") as f:
            return f.read().decode(errors="replace")

    def kill9(self):
        self.proc.kill()  # SIGKILL: no chance to flush or close anything
        self.proc.wait()

    def stop(self, remove=True, sig=signal.SIGTERM):
        """SIGTERM (or sig), then the sanitizers' verdict (an ASan build reports in the log), then clean up."""
        died = None
        if self.proc and self.proc.poll() is not None and self.proc.returncode != -9:
            died = "the server died by itself (exit status %d)" % self.proc.returncode
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            if self.proc.returncode != 0:
                died = "the server stopped badly on %s (exit status %d)" % (signal.Signals(sig).name,
                                                                          self.proc.returncode)
        log = self.log_text() if os.path.exists(os.path.join(self.dir, "server.log")) else ""
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)
        for bad in ("AddressSanitizer", "LeakSanitizer", "runtime error:"):
            if bad in log:
                raise AssertionError("the server reported: " + log[log.index(bad) - 200:][:3000])
        if died:
            raise AssertionError(died + "\n" + log[-2000:])

    def stop_with(self, again):
        """Stops this server, or when it was restarted on its database as again (a Server or None), stops
        that one and removes this one's folder (which holds the database)."""
        if again:
            again.stop()
            shutil.rmtree(self.dir, ignore_errors=True)
        else:
            self.stop()

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def ws_url(self, table, token=None):
        return "ws://127.0.0.1:%d/ws/tables/%d%s" % (self.port, table, "?token=" + token if token else "")

    def request(self, method, path, body=None, raw=None, headers=None):
        """(status, parsed JSON or text) of one HTTP request (a body is declared JSON, as the server wants)."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.url(path), data=data, method=method,
                                     headers=dict({"Content-Type": "application/json"}, **(headers or {})))
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                status, text, ctype = r.status, r.read().decode(), r.headers.get("content-type", "")
        except urllib.error.HTTPError as e:
            status, text, ctype = e.code, e.read().decode(), e.headers.get("content-type", "")
        return status, (json.loads(text) if ctype.startswith("application/json") else text)

    def create(self, **body):
        status, reply = self.request("POST", "/api/tables", body)
        assert status == 201, (status, reply)
        return reply["table"]

    def join(self, table, name, seat=None):
        body = {"name": name}
        if seat is not None:
            body["seat"] = seat
        status, reply = self.request("POST", "/api/tables/%d/join" % table, body)
        assert status == 200, (status, reply)
        return reply


class Client:
    """One WebSocket: a seat (with its token) or a spectator. Keeps every message."""

    def __init__(self, server, table, token=None, **kw):
        self.server, self.table, self.token, self.kw = server, table, token, kw
        self.received = []   # every message, parsed
        self.raw = []        # every message as sent (text)
        self.events = {}     # log index -> the action's entry, as this client was told
        self.happened = {}   # log index -> the entries of its events ("kind": "event"), in order
        self.last = None     # the latest update
        self.on_update = None  # called with (client, update, new events in it) the instant an update is read

    async def connect(self):
        # max_queue=None: a client that reads nothing still drains the socket, so
        # closing it never waits behind unread updates
        self.ws = await websockets.connect(self.server.ws_url(self.table, self.token), max_size=None,
                                           max_queue=None, close_timeout=2, **self.kw)
        return self

    async def recv(self, timeout=20):
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text)
        msg = json.loads(text)
        self.received.append(msg)
        if msg.get("type") == "update":
            self.last = msg
            actions = [ev for ev in msg["log"] if ev["kind"] == "action"]
            fresh = sum(ev["index"] not in self.events for ev in actions)
            for ev in actions:
                if ev["index"] in self.events:
                    assert self.events[ev["index"]] == ev, ("an event changed", ev)
                self.events[ev["index"]] = ev
            # what each action made happen ("kind": "event"), after it, carrying its index
            happened = {}
            for ev in msg["log"]:
                if ev["kind"] == "event":
                    happened.setdefault(ev["index"], []).append(ev)
            for index, told in happened.items():
                if index in self.happened:
                    assert self.happened[index] == told, ("an action's events changed", told)
                self.happened[index] = told
            if self.on_update:
                self.on_update(self, msg, fresh)
        return msg

    async def until(self, pred, timeout=30):
        """Messages until one satisfies pred; that one."""
        end = time.monotonic() + timeout
        while True:
            msg = await self.recv(max(0.1, end - time.monotonic()))
            if pred(msg):
                return msg

    async def send(self, msg):
        await self.ws.send(json.dumps(msg) if not isinstance(msg, (str, bytes)) else msg)

    async def close(self):
        await self.ws.close()


async def play_randomly(client, rng, stop=lambda c: False, send_text=False):
    """Play random legal moves from this seat's own updates until the game is over."""
    acted_at = -1
    msg_id = 0
    while True:
        u = client.last
        if u is None or u["type"] != "update":
            await client.recv()
            continue
        if u["status"] == "over" or stop(client):
            return u
        known = len(client.events)
        if u["legal"] and acted_at != known:
            pick = rng.choice(u["legal"])
            msg_id += 1
            await client.send({"type": "act", "action": pick["text"] if send_text and msg_id % 2 else pick["id"],
                               "id": msg_id})
            acted_at = known
        msg = await client.recv(60)
        if msg["type"] == "error":
            # a move of ours that crossed a bot's, a timeout's or the end of
            # the game; or faster than the server's 20 messages a second
            assert msg["error"]["code"] in ("not_your_turn", "illegal_action", "game_over", "rate_limited"), msg
            if msg["error"]["code"] == "rate_limited":
                await asyncio.sleep(0.25)
            acted_at = -1


async def run_tests(tests, only_variable="ASOBI_SERVE_TESTS", timeout=None):
    """Run each test of a test program, in order: a test is a coroutine function, or a pair of one and
    its argument. Prints "ok NAME (s)" (with the figures a test returns as a string) or "FAIL NAME" and
    its traceback; a test still running after timeout seconds (None: no limit) fails. The variable
    only_variable may name a comma-separated subset; a name in it that is
    no test fails the run, since it would silently run nothing. Returns the number of failures."""
    import traceback
    tests = [t if isinstance(t, tuple) else (t,) for t in tests]
    only = os.environ.get(only_variable)
    if only:
        wanted = set(only.split(","))
        unknown = wanted - {t[0].__name__ for t in tests}
        if unknown:
            print("FAIL %s names no such test: %s" % (only_variable, ", ".join(sorted(unknown))), flush=True)
            return 1
        tests = [t for t in tests if t[0].__name__ in wanted]
    failures = 0
    for fn, *args in tests:
        started = time.monotonic()
        try:
            figures = await asyncio.wait_for(fn(*args), timeout)
            print("ok   %s (%.1f s)%s" % (fn.__name__, time.monotonic() - started,
                                        ": " + figures if isinstance(figures, str) and figures else ""),
                  flush=True)
        except Exception:
            failures += 1
            print("FAIL %s" % fn.__name__, flush=True)
            traceback.print_exc()
    return failures
