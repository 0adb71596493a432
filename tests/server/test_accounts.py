# test_accounts.py — accounts and sessions in `asobi serve` (issue 42): the API and its refusals, the cookie, Argon2id in the database, the throttles (also behind a trusted proxy), claims and a signed-in seat.
#
# Usage: python3 test_accounts.py PATH/TO/asobi   (CTest runs it; ASOBI_ACCOUNTS_TESTS=name,... runs a subset)
# Clients bind other loopback addresses (127.0.0.2, ...) to stand for other people; the server listens on 127.0.0.1.
import asyncio
import glob
import hashlib
import http.client
import json
import os
import random
import signal
import sqlite3
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Client, Server, play_randomly, run_tests  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ASOBI_BINARY", "build/asobi")
signal.alarm(280)  # the whole file, whatever happens


def check(cond, *what):
    if not cond:
        raise AssertionError(" ".join(str(w) for w in what))


def call(srv, method, path, body=None, cookie=None, source="127.0.0.1", headers=None, raw=None):
    """(status, response, parsed JSON or text) of one request from the address `source`, with a session cookie."""
    con = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=20, source_address=(source, 0))
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    hdrs = {"Content-Type": "application/json"} if data is not None else {}
    if cookie:
        hdrs["Cookie"] = "asobi_session=" + cookie
    hdrs.update(headers or {})
    con.request(method, path, body=data, headers=hdrs)
    r = con.getresponse()
    text = r.read().decode(errors="replace")
    con.close()
    ctype = r.getheader("content-type", "")
    return r.status, r, (json.loads(text) if ctype.startswith("application/json") and text else text)


def session_of(response):
    """The session token a Set-Cookie gives ("" for one that ends it), and the cookie's attributes."""
    line = response.getheader("set-cookie")
    check(line, "no Set-Cookie")
    parts = [p.strip() for p in line.split(";")]
    name, _, value = parts[0].partition("=")
    check(name == "asobi_session", line)
    return value, {p.split("=")[0].lower(): (p.split("=", 1)[1] if "=" in p else True) for p in parts[1:]}


def sign_up(srv, name, password="correct horse", source="127.0.0.1"):
    status, r, reply = call(srv, "POST", "/api/accounts", {"name": name, "password": password}, source=source)
    check(status == 201 and reply == {"name": name}, status, reply)
    return session_of(r)[0]


def sign_in(srv, name, password="correct horse", source="127.0.0.1"):
    status, r, reply = call(srv, "POST", "/api/session", {"name": name, "password": password}, source=source)
    check(status == 200, status, reply)
    return session_of(r)[0]


def me(srv, cookie):
    status, _, reply = call(srv, "GET", "/api/me", cookie=cookie)
    return status, reply


async def test_sign_up_in_and_out():
    """The whole life of a session, and the cookie's flags: HttpOnly, SameSite=Lax, Path=/, 30 days, no Secure
    over plain http; a name keeps its spelling and is found ignoring case."""
    srv = Server(BINARY).start()
    try:
        status, r, reply = call(srv, "POST", "/api/accounts", {"name": "Aoi_1", "password": "correct horse"})
        check(status == 201 and reply == {"name": "Aoi_1"}, status, reply)
        token, attrs = session_of(r)
        check(len(token) == 64 and all(c in "0123456789abcdef" for c in token), token)
        check(attrs.get("httponly") is True and attrs.get("samesite") == "Lax" and attrs.get("path") == "/", attrs)
        check(attrs.get("max-age") == str(30 * 86400) and "secure" not in attrs, attrs)
        check(me(srv, token) == (200, {"name": "Aoi_1"}), me(srv, token))
        status, r, _ = call(srv, "GET", "/api/me", cookie=token)
        check(session_of(r)[0] == token, "GET /api/me starts the cookie's 30 days again")
        check(me(srv, None)[0] == 401 and me(srv, None)[1]["error"]["code"] == "not_signed_in", me(srv, None))
        check(me(srv, "f" * 64)[0] == 401, "a made-up session")
        other = sign_in(srv, "aoi_1")  # ignoring case
        check(other != token and me(srv, other) == (200, {"name": "Aoi_1"}), other)
        status, r, reply = call(srv, "DELETE", "/api/session", cookie=token)
        check(status == 200 and session_of(r)[0] == "" and session_of(r)[1].get("max-age") == "0", status, reply)
        check(me(srv, token)[0] == 401, "a revoked session")
        check(me(srv, other)[0] == 200, "another session of the same account lives on")
        # a session outlives the server (kept hashed; read back on a worker, not on the loop)
        srv.stop(remove=False)
        srv.start()
        check(me(srv, other) == (200, {"name": "Aoi_1"}), "after a restart", me(srv, other))
        check(me(srv, token)[0] == 401, "revoked stays revoked")
    finally:
        srv.stop()


async def test_refusals():
    """Every refusal of the accounts' API, with its code; and a wrong password and an unknown name are one
    answer."""
    srv = Server(BINARY).start()
    try:
        sign_up(srv, "Ben")
        cases = [
            ("POST", "/api/accounts", {"name": "B", "password": "correct horse"}, 400, "bad_name"),
            ("POST", "/api/accounts", {"name": "b" * 21, "password": "correct horse"}, 400, "bad_name"),
            ("POST", "/api/accounts", {"name": "two words", "password": "correct horse"}, 400, "bad_name"),
            ("POST", "/api/accounts", {"name": "名前", "password": "correct horse"}, 400, "bad_name"),
            ("POST", "/api/accounts", {"name": "Ben2", "password": "7 chars"}, 400, "bad_password"),
            ("POST", "/api/accounts", {"name": "Ben2", "password": "x" * 257}, 400, "bad_password"),
            ("POST", "/api/accounts", {"name": "Ben2"}, 400, "bad_request"),
            ("POST", "/api/accounts", {"name": 5, "password": "correct horse"}, 400, "bad_request"),
            ("POST", "/api/accounts", [1, 2], 400, "bad_request"),
            ("POST", "/api/accounts", {"name": "BEN", "password": "correct horse"}, 409, "name_taken"),
            ("POST", "/api/session", {"name": "Ben", "password": "wrong horse"}, 401, "bad_login"),
            ("POST", "/api/session", {"name": "Nobody", "password": "wrong horse"}, 401, "bad_login"),
            ("POST", "/api/me/password", {"password": "correct horse", "new_password": "new horse!"}, 401,
             "not_signed_in"),
            ("DELETE", "/api/me", {"password": "correct horse"}, 401, "not_signed_in"),
            ("DELETE", "/api/tables", None, 405, "method_not_allowed"),
            ("GET", "/api/session", None, 405, "method_not_allowed"),
        ]
        for method, path, body, want_status, want_code in cases:
            status, _, reply = call(srv, method, path, body)
            check(status == want_status and reply["error"]["code"] == want_code, method, path, body, status, reply)
        # 8 characters of any kind make a password (no composition rule): 8 kanji
        sign_up(srv, "Kanji", password="漢字漢字漢字漢字")
        check(sign_in(srv, "kanji", password="漢字漢字漢字漢字"), "kanji")
        # one answer for both, byte for byte
        wrong = call(srv, "POST", "/api/session", {"name": "Ben", "password": "wrong horse"})[2]
        unknown = call(srv, "POST", "/api/session", {"name": "Nobody", "password": "wrong horse"})[2]
        check(wrong == unknown, wrong, unknown)
        # another site's page cannot sign anyone in or out, nor send JSON as a form
        status, _, reply = call(srv, "DELETE", "/api/session", headers={"Origin": "https://evil.example"})
        check(status == 403 and reply["error"]["code"] == "bad_origin", status, reply)
        status, _, reply = call(srv, "POST", "/api/session", raw=b'{"name":"Ben","password":"correct horse"}',
                                headers={"Content-Type": "text/plain"})
        check(status == 415, status, reply)
        # a signed-in person's wrong password is refused as a sign-in's
        token = sign_in(srv, "Ben")
        status, _, reply = call(srv, "POST", "/api/me/password", {"password": "wrong horse", "new_password": "x" * 9},
                                cookie=token)
        check(status == 401 and reply["error"]["code"] == "bad_login", status, reply)
        status, _, reply = call(srv, "POST", "/api/me/password", {"password": "correct horse", "new_password": "short"},
                                cookie=token)
        check(status == 400 and reply["error"]["code"] == "bad_password", status, reply)
    finally:
        srv.stop()


async def test_unknown_names_cost_a_hash():
    """A sign-in to a name that does not exist spends a hash like a wrong password's: the time tells nobody which
    names exist. Not a speed test: without the dummy hash the unknown name answers in a millisecond, against
    tens for a hash; the bound only asks for a third of the known name's time."""
    srv = Server(BINARY).start()
    try:
        sign_up(srv, "Chie")
        times = {"known": [], "unknown": []}
        for i in range(6):
            for kind, name in (("known", "Chie"), ("unknown", "Chie%d" % i)):
                started = time.monotonic()
                status, _, _ = call(srv, "POST", "/api/session", {"name": name, "password": "wrong horse"})
                times[kind].append(time.monotonic() - started)
                check(status == 401, kind, status)
        known, unknown = statistics.median(times["known"]), statistics.median(times["unknown"])
        check(unknown > known / 3, "an unknown name answered faster", known, unknown)
        return "median %.1f ms (wrong password) and %.1f ms (unknown name)" % (known * 1000, unknown * 1000)
    finally:
        srv.stop()


async def test_password_change_and_closing():
    """A new password ends every other session; closing (with the password) ends them all, refuses sign-ins
    and keeps the name taken."""
    srv = Server(BINARY).start()
    try:
        a = sign_up(srv, "Dai")
        b = sign_in(srv, "Dai")
        status, _, reply = call(srv, "POST", "/api/me/password",
                                {"password": "correct horse", "new_password": "battery staple"}, cookie=a)
        check(status == 200 and reply == {"name": "Dai"}, status, reply)
        check(me(srv, a)[0] == 200 and me(srv, b)[0] == 401, "the other session ends", me(srv, a), me(srv, b))
        check(call(srv, "POST", "/api/session", {"name": "Dai", "password": "correct horse"})[0] == 401, "old")
        c = sign_in(srv, "dai", "battery staple")
        status, _, reply = call(srv, "DELETE", "/api/me", {"password": "correct horse"}, cookie=c)
        check(status == 401 and reply["error"]["code"] == "bad_login", status, reply)
        status, r, reply = call(srv, "DELETE", "/api/me", {"password": "battery staple"}, cookie=c)
        check(status == 200 and session_of(r)[0] == "", status, reply)
        check(me(srv, a)[0] == 401 and me(srv, c)[0] == 401, "every session ends")
        check(call(srv, "POST", "/api/session", {"name": "Dai", "password": "battery staple"})[2]["error"]["code"]
              == "bad_login", "a closed account signs in no more")
        check(call(srv, "POST", "/api/accounts", {"name": "DAI", "password": "correct horse"})[0] == 409,
              "a closed account's name stays taken")
    finally:
        srv.stop()


async def test_argon2id_in_the_database_and_never_a_password():
    """The database holds Argon2id strings at OWASP's parameters and SHA-256 hashes of sessions: never a password
    nor a session token, in any of its files."""
    srv = Server(BINARY).start()
    try:
        password = "Purple-Elephant-%d" % random.randrange(10**9)
        token = sign_up(srv, "Emi", password=password)
        sign_in(srv, "emi", password=password)
        call(srv, "POST", "/api/session", {"name": "emi", "password": password + "x"})  # a wrong one is not kept
        db = sqlite3.connect(srv.db)
        rows = db.execute("SELECT name, password FROM accounts").fetchall()
        check(len(rows) == 1 and rows[0][1].startswith("$argon2id$v=19$m=19456,t=2,p=1$"), rows)
        hashes = [h for (h,) in db.execute("SELECT hash FROM sessions")]
        check(hashlib.sha256(token.encode()).hexdigest() in hashes and token not in hashes, hashes)
        db.close()
        for path in glob.glob(srv.db + "*"):
            with open(path, "rb") as f:
                data = f.read()
            check(password.encode() not in data, "a password in", path)
            check((password + "x").encode() not in data, "a wrong password in", path)
            check(token.encode() not in data, "a session token in", path)
        check(password not in srv.log_text() and token not in srv.log_text(), "a secret in the log")
    finally:
        srv.stop()


async def test_secure_cookie_over_https():
    """With an https --public-url the cookie is Secure."""
    srv = Server(BINARY, args=["--public-url", "https://play.example"]).start()
    try:
        status, r, reply = call(srv, "POST", "/api/accounts", {"name": "Fumi", "password": "correct horse"})
        check(status == 201, status, reply)
        check(session_of(r)[1].get("secure") is True, r.getheader("set-cookie"))
    finally:
        srv.stop()


def refused_429(status, r, reply, option):
    check(status == 429 and reply["error"]["code"] == "rate_limited" and option in reply["error"]["message"],
          status, reply)
    check(int(r.getheader("retry-after")) >= 1, r.getheader("retry-after"))


async def test_throttles():
    """Sign-ins per address and per name, and sign-ups per address, each its own option: 429 with Retry-After,
    and the other addresses and names untouched."""
    srv = Server(BINARY, args=["--sign-ins-per-minute-per-address", "3", "--sign-ins-per-hour-per-name", "5",
                               "--sign-ups-per-hour-per-address", "2"]).start()
    try:
        sign_up(srv, "Gin")
        sign_up(srv, "Hana")
        refused_429(*call(srv, "POST", "/api/accounts", {"name": "Ito", "password": "correct horse"}),
                    "--sign-ups-per-hour-per-address")
        sign_up(srv, "Ito", source="127.0.0.2")  # another address
        for i in range(3):
            check(call(srv, "POST", "/api/session", {"name": "Gin", "password": "wrong horse"})[0] == 401, i)
        refused_429(*call(srv, "POST", "/api/session", {"name": "Hana", "password": "correct horse"}),
                    "--sign-ins-per-minute-per-address")
        sign_in(srv, "Hana", source="127.0.0.2")
        # the name: two more tries from two more addresses use its five, a sixth from a fresh address is refused
        check(call(srv, "POST", "/api/session", {"name": "gin", "password": "wrong"}, source="127.0.0.3")[0] == 400,
              "a password too short is refused before it counts")
        for source in ("127.0.0.3", "127.0.0.4"):
            check(call(srv, "POST", "/api/session", {"name": "gin", "password": "wrong horse"}, source=source)[0]
                  == 401, source)
        refused_429(*call(srv, "POST", "/api/session", {"name": "GIN", "password": "correct horse"},
                          source="127.0.0.5"), "--sign-ins-per-hour-per-name")
        sign_in(srv, "Ito", source="127.0.0.5")
    finally:
        srv.stop()


async def test_throttles_behind_a_trusted_proxy():
    """Behind --trusted-proxy the forwarded client is counted, not the proxy: one client's excess leaves the
    others through the same proxy untouched."""
    srv = Server(BINARY, args=["--trusted-proxy", "127.0.0.1", "--sign-ins-per-minute-per-address", "2"]).start()
    try:
        sign_up(srv, "Jun")
        via = lambda client: {"X-Forwarded-For": client}  # noqa: E731
        for i in range(2):
            check(call(srv, "POST", "/api/session", {"name": "Jun", "password": "wrong horse"},
                       headers=via("203.0.113.7"))[0] == 401, i)
        refused_429(*call(srv, "POST", "/api/session", {"name": "Jun", "password": "correct horse"},
                          headers=via("203.0.113.7")), "--sign-ins-per-minute-per-address")
        status, _, reply = call(srv, "POST", "/api/session", {"name": "Jun", "password": "correct horse"},
                                headers=via("203.0.113.8"))
        check(status == 200, "another client through the same proxy", status, reply)
    finally:
        srv.stop()


async def test_a_family_behind_one_address_is_untouched():
    """With the defaults, a family or a club behind one address (ten people signing up, signing in twice, with a
    typo each) meets no limit."""
    srv = Server(BINARY).start()
    try:
        for i in range(10):
            sign_up(srv, "Kin%d" % i)
        for i in range(10):
            check(call(srv, "POST", "/api/session", {"name": "Kin%d" % i, "password": "correct horsf"})[0] == 401, i)
            sign_in(srv, "kin%d" % i)
            sign_in(srv, "KIN%d" % i)
    finally:
        srv.stop()


async def test_a_signed_in_seat_and_a_claimed_guest_game():
    """A signed-in person's seat keeps the account; a guest's finished game joins the profile made afterwards
    by its seat token (once, marked claimed, so never rated); an unfinished one does not."""
    srv = Server(BINARY).start()
    try:
        token = sign_up(srv, "Mei")
        t = srv.create(game="psycle", players=2, bots=[None, "random"])
        status, _, joined = call(srv, "POST", "/api/tables/%d/join" % t, {"name": "Mei"}, cookie=token)
        check(status == 200, status, joined)
        # a guest plays a game to its end, and leaves another unfinished
        g = srv.create(game="psycle", players=2, bots=[None, "random"])
        guest = srv.join(g, "guest")
        c = await Client(srv, g, guest["token"]).connect()
        await asyncio.wait_for(play_randomly(c, random.Random(4)), 90)
        await c.close()
        u = srv.create(game="psycle", players=2, bots=[None, "random"])
        unfinished = srv.join(u, "guest")
        new = sign_up(srv, "Nao")
        body = {"tokens": [guest["token"], unfinished["token"], "0" * 32]}
        status, _, reply = call(srv, "POST", "/api/me/claim", body, cookie=new)
        check(status == 200 and reply == {"claimed": 1}, status, reply)
        status, _, reply = call(srv, "POST", "/api/me/claim", body, cookie=new)
        check(status == 200 and reply == {"claimed": 0}, "a seat is claimed once", status, reply)
        for bad in ({"tokens": []}, {"tokens": ["xyz"]}, {"tokens": ["0" * 32] * 201}, {}):
            status, _, reply = call(srv, "POST", "/api/me/claim", bad, cookie=new)
            check(status == 400 and reply["error"]["code"] == "bad_request", bad, status, reply)
        check(call(srv, "POST", "/api/me/claim", body)[0] == 401, "a guest claims nothing")
        db = sqlite3.connect(srv.db)
        ids = dict(db.execute("SELECT name, id FROM accounts").fetchall())
        rows = {(tid, seat): (acc, claimed) for tid, seat, acc, claimed in
                db.execute("SELECT table_id, seat, account_id, claimed FROM seats")}
        db.close()
        check(rows[(t, joined["seat"])] == (ids["Mei"], 0), "the signed-in seat", rows)
        check(rows[(g, guest["seat"])] == (ids["Nao"], 1), "the claimed seat", rows)
        check(rows[(u, unfinished["seat"])] == (None, 0), "an unfinished table's seat", rows)
    finally:
        srv.stop()


async def test_operators_command():
    """`asobi accounts --db FILE list|close NAME|reset-password NAME`, beside the running server."""
    import subprocess
    srv = Server(BINARY).start()
    try:
        sign_up(srv, "Oto")
        sign_up(srv, "Ren")

        def accounts(*args):
            return subprocess.run([BINARY, "accounts", "--db", srv.db] + list(args), capture_output=True, text=True,
                                  timeout=30)
        listed = accounts("list")
        check(listed.returncode == 0 and "Oto" in listed.stdout and "Ren" in listed.stdout, listed)
        reset = accounts("reset-password", "oto")
        check(reset.returncode == 0 and reset.stdout.startswith("Oto's new password: "), reset)
        new = reset.stdout.split(": ", 1)[1].strip()
        check(call(srv, "POST", "/api/session", {"name": "Oto", "password": "correct horse"})[0] == 401, "old")
        sign_in(srv, "Oto", password=new)
        closed = accounts("close", "REN")
        check(closed.returncode == 0 and "closed Ren" in closed.stdout, closed)
        check(call(srv, "POST", "/api/session", {"name": "Ren", "password": "correct horse"})[0] == 401, "closed")
        again = accounts("close", "Ren")
        check(again.returncode == 1 and "closed" in again.stderr, again)
        check(accounts("close", "Nobody").returncode == 1 and accounts("frobnicate").returncode == 2, "refusals")
        listed = accounts("list")
        check([line.split()[3] != "-" for line in listed.stdout.splitlines()[1:]] == [False, True], listed.stdout)
    finally:
        srv.stop()


async def main():
    tests = [test_sign_up_in_and_out, test_refusals, test_unknown_names_cost_a_hash, test_password_change_and_closing,
             test_argon2id_in_the_database_and_never_a_password, test_secure_cookie_over_https, test_throttles,
             test_throttles_behind_a_trusted_proxy, test_a_family_behind_one_address_is_untouched,
             test_a_signed_in_seat_and_a_claimed_guest_game, test_operators_command]
    return 1 if await run_tests(tests, "ASOBI_ACCOUNTS_TESTS") else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
