# test_fronts.py — `asobi serve` behind a reverse proxy (issue 39): the client address a trusted front names, a header nobody else may use, and Debian's real nginx in front.
#
# Usage: python3 test_fronts.py PATH/TO/asobi   (CTest runs it; every wait is bounded)
# Loopback addresses stand for hosts: the server and nginx listen on 127.0.0.1, clients bind 127.0.0.2, ...
import asyncio
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Server, run_tests  # noqa: E402

import websockets  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")
signal.alarm(200)


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def request(port, method, path, body=None, source="127.0.0.1", forwarded_for=None, headers=None):
    """(status, parsed JSON or text) of one request to port from the address `source`."""
    con = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    data = json.dumps(body).encode() if body is not None else None
    hdrs = {"Content-Type": "application/json"} if data is not None else {}
    if forwarded_for is not None:
        hdrs["X-Forwarded-For"] = forwarded_for
    hdrs.update(headers or {})
    con.request(method, path, body=data, headers=hdrs)
    r = con.getresponse()
    text = r.read().decode(errors="replace")
    con.close()
    ctype = r.getheader("content-type", "")
    return r.status, (json.loads(text) if ctype.startswith("application/json") and text else text)


def create_status(port, source="127.0.0.1", forwarded_for=None):
    status, _ = request(port, "POST", "/api/tables", {"game": "octal", "players": 3, "bots": [None, "random", "random"]},
                        source=source, forwarded_for=forwarded_for)
    return status


async def ws(port, path, source="127.0.0.1", forwarded_for=None):
    return await websockets.connect("ws://127.0.0.1:%d%s" % (port, path), local_addr=(source, 0), max_size=None,
                                    max_queue=None, close_timeout=1, open_timeout=5,
                                    extra_headers={"X-Forwarded-For": forwarded_for} if forwarded_for else None)


def refused_by_address(srv, name):
    """Has the log's summary of the limits' refusals named this address as the last one refused?"""
    end = time.monotonic() + 5
    while time.monotonic() < end:
        if "(the last from %s)" % name in srv.log_text():
            return True
        time.sleep(0.2)
    return False


# ---------------------------------------------------------------------------
# --trusted-proxy: the front's header names the client; anyone else's header is ignored.
# ---------------------------------------------------------------------------
async def test_a_trusted_front_names_its_clients():
    """Through the front (127.0.0.1, trusted), an attacker that used up its creations and its connections
    leaves another client of the same front untouched (before: every client was the front, and the victim
    was refused too). A client that writes its own X-Forwarded-For in front of the front's is still
    counted under the address the front saw."""
    srv = Server(BINARY, args=["--trusted-proxy", "127.0.0.1", "--table-burst-per-address", "3",
                               "--tables-per-minute-per-address", "1", "--max-connections-per-address", "4"]).start()
    held = []
    try:
        for _ in range(3):
            check(create_status(srv.port, forwarded_for="198.51.100.66") == 201, "the attacker's first tables")
        check(create_status(srv.port, forwarded_for="198.51.100.66") == 429, "the attacker is held back")
        # a client's own header in front of the front's counts for nothing
        check(create_status(srv.port, forwarded_for="203.0.113.9, 198.51.100.66") == 429,
              "a chosen address in front of the front's")
        check(create_status(srv.port, forwarded_for="198.51.100.7") == 201, "the victim behind the same front")
        check(refused_by_address(srv, "198.51.100.66"), "the log names the attacker, not the front")
        # connections: the attacker's fill its share, the victim's still come in
        table = srv.create(game="octal", players=3, bots=[None, "random", "random"])
        for _ in range(4):
            held.append(await ws(srv.port, "/ws/tables/%d" % table, forwarded_for="198.51.100.66"))
        try:
            extra = await ws(srv.port, "/ws/tables/%d" % table, forwarded_for="198.51.100.66")
            await extra.recv()
            await asyncio.wait_for(extra.recv(), 3)
            raise AssertionError("a fifth connection of the attacker's was taken")
        except (websockets.exceptions.InvalidStatusCode, websockets.exceptions.ConnectionClosed, OSError):
            pass
        victim = await ws(srv.port, "/ws/tables/%d" % table, forwarded_for="198.51.100.7")
        first = json.loads(await asyncio.wait_for(victim.recv(), 5))
        check(first["type"] == "update", "the victim spectates", first)
        await victim.close()
        _, metrics = request(srv.port, "GET", "/metrics")
        check("asobi_limit_refusals_total" not in metrics or 'limit="connections_per_address"' in metrics,
              "the connection refusal is in /metrics")
    finally:
        for w in held:
            await w.close()
        srv.stop()


async def test_anyone_else_cannot_choose_an_address():
    """A client that is no trusted front (127.0.0.2) writes a new X-Forwarded-For each time: it is counted
    under its own address all the same."""
    srv = Server(BINARY, args=["--trusted-proxy", "127.0.0.1", "--table-burst-per-address", "3",
                               "--tables-per-minute-per-address", "1"]).start()
    try:
        statuses = [create_status(srv.port, source="127.0.0.2", forwarded_for="192.0.2.%d" % i) for i in range(6)]
        check(statuses == [201, 201, 201, 429, 429, 429], "an untrusted client's header chose its address", statuses)
        check(refused_by_address(srv, "127.0.0.2"), "the log names the client's own address")
        check(create_status(srv.port, source="127.0.0.3") == 201, "another client")
    finally:
        srv.stop()


# ---------------------------------------------------------------------------
# Debian's nginx in front, as docs/deploy.md sets it up.
# ---------------------------------------------------------------------------
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    """nginx in the foreground (no daemon, no master process) with a prefix and config of its own in a
    temporary folder, proxying 127.0.0.1:PORT to a backend as docs/deploy.md says: WebSockets upgraded,
    X-Forwarded-For set to the address it heard from. Its access log is access_log_path."""

    def __init__(self, backend_port):
        self.binary = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
        self.backend_port = backend_port
        self.dir = tempfile.mkdtemp(prefix="asobi-nginx-test-")
        self.access_log_path = os.path.join(self.dir, "access.log")
        self.proc = None

    def start(self):
        for _ in range(5):  # the port picked may be taken meanwhile: pick another
            self.port = free_port()
            conf = os.path.join(self.dir, "nginx.conf")
            with open(conf, "w") as f:
                f.write("""daemon off;
master_process off;
pid %(d)s/nginx.pid;
error_log %(d)s/error.log warn;
events { worker_connections 512; }
http {
    access_log %(d)s/access.log;
    client_body_temp_path %(d)s/body;
    proxy_temp_path %(d)s/proxy;
    fastcgi_temp_path %(d)s/fastcgi;
    uwsgi_temp_path %(d)s/uwsgi;
    scgi_temp_path %(d)s/scgi;
    map $http_upgrade $connection_upgrade { default upgrade; '' close; }
    server {
        listen 127.0.0.1:%(port)d;
        location / {
            proxy_pass http://127.0.0.1:%(backend)d;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_read_timeout 1h;
        }
    }
}
""" % {"d": self.dir, "port": self.port, "backend": self.backend_port})
            self.proc = subprocess.Popen([self.binary, "-p", self.dir, "-c", conf], stdout=subprocess.DEVNULL,
                                         stderr=open(os.path.join(self.dir, "stderr.log"), "wb"))
            end = time.monotonic() + 10
            while time.monotonic() < end and self.proc.poll() is None:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    return self
                except OSError:
                    time.sleep(0.05)
            self.stop(remove=False)
        raise RuntimeError("nginx did not start: " + self.text("error.log") + self.text("stderr.log"))

    def text(self, name):
        path = os.path.join(self.dir, name)
        return open(path, errors="replace").read() if os.path.exists(path) else ""

    def stop(self, remove=True):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # graceful: the access log is written
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)


def nginx_missing():
    """None when nginx is here; else why the test is skipped (outside CI only: scripts/setup.sh installs it)."""
    if shutil.which("nginx") or os.path.exists("/usr/sbin/nginx"):
        return None
    if os.environ.get("CI") == "true":
        raise AssertionError("nginx is missing (scripts/setup.sh installs it)")
    return "skipped: nginx is not installed (scripts/setup.sh installs it)"


async def test_nginx_in_front():
    """docs/deploy.md's front: nginx on 127.0.0.1 with X-Forwarded-For $remote_addr, asobi serve
    --trusted-proxy 127.0.0.1. An attacker (127.0.0.2) uses up its creations through nginx; a victim
    (127.0.0.3) behind the same nginx still creates, takes a seat and plays over a WebSocket through it."""
    skip = nginx_missing()
    if skip:
        return skip
    srv = Server(BINARY, args=["--trusted-proxy", "127.0.0.1", "--table-burst-per-address", "3",
                               "--tables-per-minute-per-address", "1"]).start()
    front = None
    try:
        front = Nginx(srv.port).start()
        statuses = [create_status(front.port, source="127.0.0.2") for _ in range(5)]
        check(statuses == [201, 201, 201, 429, 429], "the attacker through nginx", statuses)
        check(refused_by_address(srv, "127.0.0.2"), "the server counts the attacker's own address")
        status, made = request(front.port, "POST", "/api/tables",
                               {"game": "octal", "players": 3, "bots": [None, "random", "random"]}, source="127.0.0.3")
        check(status == 201, "the victim creates through the same nginx", status, made)
        status, seat = request(front.port, "POST", "/api/tables/%d/join" % made["table"], {"name": "Victim"},
                               source="127.0.0.3")
        check(status == 200, "the victim joins through nginx", status, seat)
        made["token"] = seat["token"]
        sock = await ws(front.port, "/ws/tables/%d" % made["table"], source="127.0.0.3")
        await sock.send(json.dumps({"type": "hello", "token": made["token"]}))
        while True:
            msg = json.loads(await asyncio.wait_for(sock.recv(), 10))
            if msg["type"] == "update" and msg["legal"]:
                break
        check(msg["seat"] == 0, "the seat through nginx", msg)
        await sock.send(json.dumps({"type": "act", "action": msg["legal"][0]["id"], "id": 1}))
        while True:
            done = json.loads(await asyncio.wait_for(sock.recv(), 10))
            check(done["type"] != "error", "the move through nginx", done)
            if done["type"] == "update" and any(ev["kind"] == "action" for ev in done["log"]):
                break
        await sock.close()
        front.stop(remove=False)
        log = front.text("access.log")
        check("/ws/tables/%d" % made["table"] in log and made["token"] not in log,
              "the seat's token stayed out of nginx's access log", log[-1000:])
    finally:
        if front:
            front.stop()
        srv.stop()


if __name__ == "__main__":
    sys.exit(asyncio.run(run_tests([test_a_trusted_front_names_its_clients, test_anyone_else_cannot_choose_an_address,
                                    test_nginx_in_front], timeout=120)) and 1)
