# test_limits.py — `asobi serve` against hostile clients: each limit per client address played as an attack, and normal use untouched.
#
# Usage: python3 test_limits.py PATH/TO/asobi   (CTest runs it; every wait and loop is bounded in time and count)
# Clients bind other loopback addresses (127.0.0.2, ...) to stand for other people; the server listens on 127.0.0.1.
import asyncio
import http.client
import json
import os
import resource
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Server, run_tests  # noqa: E402

import websockets  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")
signal.alarm(200)  # the whole file, whatever happens


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def request(srv, method, path, body=None, source="127.0.0.1", headers=None, raw=None):
    """(status, headers, parsed JSON or text) of one request from the address `source`."""
    con = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10, source_address=(source, 0))
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    hdrs = {"Content-Type": "application/json"} if data is not None else {}
    hdrs.update(headers or {})
    con.request(method, path, body=data, headers=hdrs)
    r = con.getresponse()
    text = r.read().decode(errors="replace")
    con.close()
    ctype = r.getheader("content-type", "")
    return r.status, r, (json.loads(text) if ctype.startswith("application/json") and text else text)


def create(srv, source="127.0.0.1", **body):
    status, _, reply = request(srv, "POST", "/api/tables", body, source=source)
    check(status == 201, "create from", source, status, reply)
    return reply["table"]


def join(srv, table, name, source="127.0.0.1"):
    status, _, reply = request(srv, "POST", "/api/tables/%d/join" % table, {"name": name}, source=source)
    check(status == 200, "join", status, reply)
    return reply


async def ws(srv, table, token=None, source="127.0.0.1"):
    return await websockets.connect(srv.ws_url(table, token), local_addr=(source, 0), max_size=None,
                                    max_queue=None, close_timeout=1, open_timeout=5)


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def log_size(srv):
    return os.path.getsize(os.path.join(srv.dir, "server.log"))


def metric(srv, name):
    _, _, text = request(srv, "GET", "/metrics")
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


# ---------------------------------------------------------------------------
# Point 3: idle WebSockets from one address lock nobody else out
# ---------------------------------------------------------------------------
async def test_idle_sockets_lock_nobody_out():
    """600 idle WebSockets from one address against --max-connections 512: another address still creates a
    table, joins it and gets its first update within 5 s; meanwhile the server idles (under a third of a core)
    and its log grows under 200 KB in 3 s. Before: accept() failed with EMFILE at every turn of the loop
    (100% CPU, a log line each time) and nobody else got in."""
    srv = Server(BINARY, args=["--workers", "1", "--max-connections", "512"]).start()
    held = []
    try:
        t = create(srv, game="psycle")
        attempts = [ws(srv, t) for _ in range(600)]
        for result in await asyncio.gather(*attempts, return_exceptions=True):
            if not isinstance(result, BaseException):
                held.append(result)
        cpu0, log0, t0 = cpu_seconds(srv.proc.pid), log_size(srv), time.monotonic()
        started = time.monotonic()
        mine = create(srv, source="127.0.0.2", game="psycle")
        me = join(srv, mine, "Me", source="127.0.0.2")
        join(srv, mine, "Friend", source="127.0.0.2")
        sock = await ws(srv, mine, me["token"], source="127.0.0.2")
        first = json.loads(await asyncio.wait_for(sock.recv(), 5))
        check(first["type"] == "update" and first["status"] == "playing", first)
        first_at = time.monotonic() - started
        check(first_at < 5, "another address waited", first_at)
        await sock.close()
        await asyncio.sleep(max(0, 3 - (time.monotonic() - t0)))
        cpu = (cpu_seconds(srv.proc.pid) - cpu0) / (time.monotonic() - t0)
        grown = log_size(srv) - log0
        check(cpu < 0.33, "the server is busy while everyone idles: %.2f of a core" % cpu)
        check(grown < 200_000, "the log grew by %d bytes in 3 s" % grown)
        # the default per address: a quarter of --max-connections
        check(100 <= len(held) <= 128, "sockets held by one address", len(held))
        check(metric(srv, 'asobi_limited_total{limit="connections_per_address"}') >= 400, "refusals not counted")
        check("refused by the limits" in srv.log_text(), "no summary of the refusals in the log")
        return "%d sockets held, first update in %.2f s, %.3f of a core, log +%d bytes in 3 s" % (
            len(held), first_at, cpu, grown)
    finally:
        for s in held:
            s.transport.abort()
        srv.stop()


async def test_a_full_server_does_not_spin():
    """With no limit per address, 600 sockets fill --max-connections 512: the rest are closed at once, and
    the server neither spins on accept() failing with EMFILE nor fills its log (the descriptors under the
    file limit are kept; the library's lines come at most once a second)."""
    srv = Server(BINARY, args=["--workers", "1", "--max-connections", "512",
                               "--max-connections-per-address", "0", "--max-spectators-per-address", "0"]).start()
    held = []
    try:
        t = create(srv, game="psycle")
        for result in await asyncio.gather(*(ws(srv, t) for _ in range(600)), return_exceptions=True):
            if not isinstance(result, BaseException):
                held.append(result)
        check(len(held) <= 512, "sockets held", len(held))
        cpu0, log0, t0 = cpu_seconds(srv.proc.pid), log_size(srv), time.monotonic()
        await asyncio.sleep(2)
        cpu = (cpu_seconds(srv.proc.pid) - cpu0) / (time.monotonic() - t0)
        check(cpu < 0.33, "a full server is busy: %.2f of a core" % cpu)
        check(log_size(srv) - log0 < 100_000, "the log grew by %d bytes in 2 s" % (log_size(srv) - log0))
        for s in held[:50]:
            s.transport.abort()
        await asyncio.sleep(0.5)
        check(request(srv, "GET", "/healthz", source="127.0.0.2")[0] == 200, "room again once sockets closed")
        return "%d sockets held, %.3f of a core" % (len(held), cpu)
    finally:
        for s in held:
            s.transport.abort()
        srv.stop()


# ---------------------------------------------------------------------------
# Point 4: a table-creation loop
# ---------------------------------------------------------------------------
async def test_table_creation_loop_is_held_back():
    """One address looping on POST /api/tables for 5 s gets at most a few hundred tables, refused with
    429 rate_limited and a Retry-After header; another address is not held back; the list stays small.
    Before: 1,372 tables a second."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    try:
        made, refused, end = 0, None, time.monotonic() + 5
        con = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
        for _ in range(20000):  # bounded by count and by time
            if time.monotonic() > end:
                break
            con.request("POST", "/api/tables", body=b'{"game":"psycle"}',
                        headers={"Content-Type": "application/json"})
            r = con.getresponse()
            body = json.loads(r.read())
            if r.status == 201:
                made += 1
            else:
                check(r.status == 429 and body["error"]["code"] == "rate_limited", r.status, body)
                refused = r
        con.close()
        check(made <= 300, "one address made %d tables in 5 s" % made)
        check(refused is not None and int(refused.getheader("Retry-After")) >= 1, "no Retry-After")
        # a household elsewhere: a burst of 30 creations goes through
        for _ in range(30):
            create(srv, source="127.0.0.2", game="psycle")
        status, _, listing = request(srv, "GET", "/api/tables")
        check(len(json.dumps(listing)) < 500_000, "the table list is large")
        check("rate_limited" not in srv.log_text(), "a refusal of the limits was logged on its own line")
        return "%d tables made in 5 s, list %d bytes" % (made, len(json.dumps(listing)))
    finally:
        srv.stop()


# ---------------------------------------------------------------------------
# Point 5: all-bot tables per address
# ---------------------------------------------------------------------------
async def test_bot_tables_per_address():
    """An address may keep --max-bot-tables-per-address tables of bots only playing; one more is refused
    (429 too_many_bot_tables); a table with a person is not, nor another address's."""
    srv = Server(BINARY, args=["--workers", "1", "--max-bot-tables-per-address", "2"]).start()
    slow = ["ismcts:time=1", "ismcts:time=1"]
    try:
        create(srv, game="psycle", bots=slow)
        create(srv, game="psycle", bots=slow)
        status, r, body = request(srv, "POST", "/api/tables", {"game": "psycle", "bots": slow})
        check(status == 429 and body["error"]["code"] == "too_many_bot_tables", status, body)
        check(r.getheader("Retry-After"), "no Retry-After")
        create(srv, game="psycle", bots=[None, "random"])
        create(srv, source="127.0.0.2", game="psycle", bots=slow)
    finally:
        srv.stop()


# ---------------------------------------------------------------------------
# Point 6: spectators per address
# ---------------------------------------------------------------------------
async def test_spectators_per_address():
    """--max-spectators-per-address: one spectator's socket more from that address is told
    too_many_spectators and closed (1008); seats and other addresses are not counted against it."""
    srv = Server(BINARY, args=["--workers", "1", "--max-spectators-per-address", "3"]).start()
    socks = []
    try:
        t = create(srv, game="psycle")
        a = join(srv, t, "A")
        for _ in range(3):
            socks.append(await ws(srv, t))
            check(json.loads(await socks[-1].recv())["type"] == "update", "a spectator within the limit")
        extra = await ws(srv, t)
        m = json.loads(await asyncio.wait_for(extra.recv(), 5))
        check(m["type"] == "error" and m["error"]["code"] == "too_many_spectators", m)
        try:
            await asyncio.wait_for(extra.recv(), 5)
            check(False, "the connection stayed open")
        except websockets.ConnectionClosed as e:
            check(e.code == 1008, e.code)
        seat = await ws(srv, t, a["token"])
        check(json.loads(await seat.recv())["type"] == "update", "a seat is no spectator")
        socks.append(seat)
        other = await ws(srv, t, source="127.0.0.2")
        check(json.loads(await other.recv())["type"] == "update", "another address's spectator")
        socks.append(other)
        await socks[0].close()  # a place freed is a place again
        await asyncio.sleep(0.2)
        again = await ws(srv, t)
        check(json.loads(await again.recv())["type"] == "update", "a freed place")
        socks.append(again)
    finally:
        for s in socks:
            await s.close()
        srv.stop()


# ---------------------------------------------------------------------------
# Point 7: messages per seat and per address
# ---------------------------------------------------------------------------
async def answers(sock, n, timeout=5):
    """The next n messages that answer a message of ours (refusals), as error codes."""
    codes = []
    end = time.monotonic() + timeout
    while len(codes) < n and time.monotonic() < end:
        m = json.loads(await asyncio.wait_for(sock.recv(), max(0.1, end - time.monotonic())))
        if m["type"] == "error":
            codes.append(m["error"]["code"])
    return codes


def within_rate(burst, rate, started):
    """The most messages a token bucket (BURST, then RATE a second) may let through since STARTED: the
    time the sends and their answers took bounds the time the server took them in (on a loaded machine
    they spread out, and the bucket rightly refills meanwhile)."""
    return burst + int(rate * (time.monotonic() - started)) + 1


async def test_messages_per_seat_and_address():
    """Ten sockets of one seat sending 200 messages at once: the seat gets the handling of at most a
    second's worth (20), not 10 x 20; refusals are counted in /metrics and summed up in the log, not logged
    one by one. Before: 200 messages in 0.07 s were all handled."""
    srv = Server(BINARY, args=["--workers", "1", "--messages-per-second-per-address", "1000"]).start()
    socks = []
    try:
        t = create(srv, game="ninja", players=3)
        a = join(srv, t, "A")
        for _ in range(10):
            socks.append(await ws(srv, t, a["token"]))
        for s in socks:
            await s.recv()
        log0 = len(srv.log_text())
        started = time.monotonic()
        await asyncio.gather(*(s.send(json.dumps({"type": "act", "action": "fly", "id": i}))
                               for s in socks for i in range(20)))
        codes = [c for s in socks for c in await answers(s, 20)]
        check(len(codes) == 200, "every message answered", len(codes))
        handled = len([c for c in codes if c != "rate_limited"])
        check(handled <= within_rate(20, 20, started),
              "one seat's messages handled: %d of 200 in %.2f s" % (handled, time.monotonic() - started))
        check(metric(srv, 'asobi_limited_total{limit="messages_per_seat"}') >= 170, "not counted")
        await asyncio.sleep(1.2)  # the tick's summary
        log = srv.log_text()[log0:]
        check(log.count("rate_limited") == 0, "rate_limited refusals were logged one by one")
        check("messages_per_seat" in log, "no summary line", log[-500:])
    finally:
        for s in socks:
            await s.close()
        srv.stop()
    # per address: seats of different tables from one address share its budget
    srv = Server(BINARY, args=["--workers", "1", "--messages-per-second-per-address", "10"]).start()
    socks = []
    try:
        for k in range(4):
            t = create(srv, game="ninja", players=3)
            socks.append(await ws(srv, t, join(srv, t, "A")["token"]))
        other_t = create(srv, source="127.0.0.2", game="ninja", players=3)
        other = await ws(srv, other_t, join(srv, other_t, "B", source="127.0.0.2")["token"], source="127.0.0.2")
        for s in socks + [other]:
            await s.recv()
        started = time.monotonic()
        await asyncio.gather(*(s.send(json.dumps({"type": "act", "action": "fly", "id": i}))
                               for s in socks for i in range(10)))
        codes = [c for s in socks for c in await answers(s, 10)]
        handled = len([c for c in codes if c != "rate_limited"])
        check(handled <= within_rate(20, 10, started), "one address's 40 messages handled: %d in %.2f s (a burst of "
              "20 at 10 a second)" % (handled, time.monotonic() - started))
        await other.send(json.dumps({"type": "act", "action": "fly", "id": 1}))
        check(await answers(other, 1) == ["not_started"], "another address was held back")
        socks.append(other)
    finally:
        for s in socks:
            await s.close()
        srv.stop()


async def test_refusals_do_not_fill_the_log():
    """A loop of refused requests from one address writes --log-lines-per-second-per-address lines (a burst
    of five seconds' worth), then only counts them (summed up once a second); another address's refusals are
    still logged. Before: a line per refusal, as fast as the client asked."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    try:
        log0 = log_size(srv)
        con = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
        end = time.monotonic() + 1.5
        sent = 0
        for _ in range(3000):  # bounded by count and by time
            if time.monotonic() > end:
                break
            con.request("GET", "/api/nothing")
            r = con.getresponse()
            r.read()
            check(r.status == 404, r.status)
            sent += 1
        con.close()
        check(sent >= 300, "too few requests to mean anything", sent)
        status, _, _ = request(srv, "GET", "/api/elsewhere", source="127.0.0.2")
        await asyncio.sleep(1.2)  # the tick's summary
        log = srv.log_text()
        lines = log.count("refused GET /api/nothing")
        check(lines <= 80, "%d refusals, %d lines in the log" % (sent, lines))
        check(os.path.getsize(os.path.join(srv.dir, "server.log")) - log0 < 20_000, "the log grew")
        check("log_lines_per_address" in log, "no summary of the lines left out")
        check("refused GET /api/elsewhere" in log, "another address's refusal was not logged")
        return "%d refusals, %d lines" % (sent, lines)
    finally:
        srv.stop()


# ---------------------------------------------------------------------------
# Point 10: the smaller HTTP findings
# ---------------------------------------------------------------------------
def raw_exchange(srv, data, timeout=3):
    """Send raw bytes, read until the server closes (or the timeout): the bytes it sent."""
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=timeout)
    s.sendall(data)
    got = b""
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    except socket.timeout:
        pass
    s.close()
    return got


async def test_http_findings():
    srv = Server(BINARY, args=["--workers", "1"]).start()
    try:
        tables = lambda: len(request(srv, "GET", "/api/tables")[2]["tables"])  # noqa: E731
        before = tables()
        # a cross-site form's POST: text/plain, or another site's Origin
        status, _, body = request(srv, "POST", "/api/tables", raw=b'{"game":"psycle"}',
                               headers={"Content-Type": "text/plain"})
        check(status == 415 and body["error"]["code"] == "unsupported_media_type", status, body)
        status, _, body = request(srv, "POST", "/api/tables", {"game": "psycle"}, headers={"Origin": "http://evil.example"})
        check(status == 403 and body["error"]["code"] == "bad_origin", status, body)
        t = create(srv, game="psycle")
        status, _, body = request(srv, "POST", "/api/tables/%d/join" % t, raw=b'{"name":"X"}',
                               headers={"Content-Type": "application/x-www-form-urlencoded"})
        check(status == 415, "a form's join", status, body)
        check(tables() == before + 1, "a refused POST made a table")
        status, _, _ = request(srv, "POST", "/api/tables", {"game": "psycle"},
                            headers={"Origin": "http://127.0.0.1:%d" % srv.port,
                                     "Content-Type": "application/json; charset=utf-8"})
        check(status == 201, "our own page's POST", status)
        # a folder is no resource
        for path in ("/js", "/js/"):
            status, _, body = request(srv, "GET", path)
            check(status == 404, path, status)
        # Content-Length and Transfer-Encoding together: 400, and the connection closed
        got = raw_exchange(srv, b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                b"Content-Length: 22\r\nTransfer-Encoding: chunked\r\n\r\n"
                                b"11\r\n{\"game\":\"psycle\"}\r\n0\r\n\r\n")
        check(got.startswith(b"HTTP/1.1 400") and b"bad_request" in got and got.count(b"HTTP/1.1") == 1, got[:300])
        # a URL or headers over the limit: 414 / 431, not a dropped connection
        got = raw_exchange(srv, b"GET /" + b"a" * 3000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        check(got.startswith(b"HTTP/1.1 414"), got[:200])
        got = raw_exchange(srv, b"GET /api/tables?" + b"a" * 2000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        check(got.startswith(b"HTTP/1.1 414"), got[:200])
        got = raw_exchange(srv, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: " + b"c" * 10000 + b"\r\n\r\n")
        check(got.startswith(b"HTTP/1.1 431"), got[:200])
        check(request(srv, "GET", "/healthz")[0] == 200, "the server is still there")
        # a refusal echoes at most a part of a client's id
        a = join(srv, t, "A")
        sock = await ws(srv, t, a["token"])
        await sock.recv()
        await sock.send(json.dumps({"type": "dance", "id": "x" * 60000}))
        await sock.send(json.dumps({"type": "dance", "id": [list(range(5000))]}))
        await sock.send(json.dumps({"type": "dance", "id": "短い"}))
        echoed = []
        while len(echoed) < 3:
            m = json.loads(await asyncio.wait_for(sock.recv(), 5))
            if m["type"] == "error":
                echoed.append(m["id"])
        check(echoed[0] == "x" * 64 and echoed[1] is None and echoed[2] == "短い", [str(e)[:80] for e in echoed])
        await sock.close()
    finally:
        srv.stop()


# ---------------------------------------------------------------------------
# Normal use is never refused by the defaults
# ---------------------------------------------------------------------------
async def test_a_club_behind_one_address_is_untouched():
    """A club behind one address with the default limits: a burst of 30 tables, 30 people seated with a
    table socket and a lobby socket each, 10 friends watching, rematches: nothing refused."""
    srv = Server(BINARY, args=["--workers", "1"]).start()
    socks = []
    try:
        tables = [create(srv, game="psycle") for _ in range(30)]
        for t in tables[:15]:
            for name in ("A", "B"):
                socks.append(await ws(srv, t, join(srv, t, name)["token"]))
        for t in tables[:10]:
            socks.append(await ws(srv, t))
        lobby = [await websockets.connect("ws://127.0.0.1:%d/ws/lobby" % srv.port, close_timeout=1)
                 for _ in range(30)]
        socks += lobby
        for s in socks:
            m = json.loads(await asyncio.wait_for(s.recv(), 5))
            check(m["type"] in ("update", "tables"), m)
        check(metric(srv, "asobi_refusals_total") == 0, "normal use was refused")
        check(sum(metric(srv, 'asobi_limited_total{limit="%s"}' % k) for k in
                  ("connections_per_address", "tables_per_address", "spectators_per_address")) == 0, "limited")
    finally:
        for s in socks:
            await s.close()
        srv.stop()


async def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 4096), hard), hard))  # 600 sockets of our own
    tests = [test_idle_sockets_lock_nobody_out, test_a_full_server_does_not_spin, test_table_creation_loop_is_held_back, test_bot_tables_per_address,
             test_spectators_per_address, test_messages_per_seat_and_address, test_refusals_do_not_fill_the_log,
             test_http_findings,
             test_a_club_behind_one_address_is_untouched]
    # ASOBI_LIMITS_TESTS: a comma-separated subset, by name (a test may return its figures)
    return 1 if await run_tests(tests, "ASOBI_LIMITS_TESTS") else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
