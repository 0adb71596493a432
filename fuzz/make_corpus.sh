#!/usr/bin/env bash
# make_corpus.sh — (re)makes the seed corpora of fuzz/corpus/ with the project's own tools (asobi play, asobi engine).
# Usage: fuzz/make_corpus.sh [ASOBI_BINARY]   (default build/asobi). Kept crash inputs (regress-*) are never touched.
set -euo pipefail
cd "$(dirname "$0")/.."
asobi=${1:-build/asobi}
c=fuzz/corpus
mkdir -p $c/{protocol,record,action,options,cards,http_api,ws_message,account_body}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mini='{"title":"mini","sphere_size":3,"cards":[{"name":"Zap","type":"spell","level":0,"cost":1,"copies":8,"effects":[["draw",1]]},{"name":"A","type":"spell","level":1,"cost":1,"copies":4},{"name":"B","type":"focus","level":2,"copies":4,"effects":[["ready",2]]},{"name":"C","type":"timer","level":3,"copies":4,"slots":2,"trigger":"set","effects":[["ephemeral",1]]},{"name":"D","type":"spell","level":4,"cost":3,"copies":4,"effects":[["access",2]]},{"name":"E","type":"spell","level":5,"cost":4,"copies":4,"effects":[["slow",2],["heavy",1]]}]}'
printf '%s' "$mini" > $c/cards/seed-mini.json
tr -d '\n' < tests/games/timemasters/cards_ours.json > $c/cards/seed-ours.json
printf '%s' "$mini" > "$tmp/mini.json"

# records: one short bot game per game and player count (compact, one line)
i=0
for spec in "psycle 2" "psycle 4" "ninja 2" "ninja 4" "octal 3" "octal 6" "timemasters 2" "timemasters 3"; do
  set -- $spec
  "$asobi" play "$1" --players "$2" --seat none --bots random --seed $((i + 1)) --quiet --record "$tmp/r.json" >/dev/null 2>&1 || true
  tr -d '\n ' < "$tmp/r.json" > "$c/record/seed-$1-$2.json"
  i=$((i + 1))
done
"$asobi" play timemasters --players 2 --seat none --bots random --seed 5 --quiet --opt cards="$tmp/mini.json" \
  --record "$tmp/r.json" >/dev/null 2>&1 || true
tr -d '\n' < "$tmp/r.json" > "$c/record/seed-timemasters-cardset.json"

# protocol sessions
printf '%s\n' '{"cmd":"games"}' '{"cmd":"new","game":"psycle","players":3,"seed":7}' '{"cmd":"legal","seat":0}' \
  '{"cmd":"act","seat":0,"action":"play 3"}' '{"cmd":"act","seat":1,"action":0}' '{"cmd":"view","seat":1}' \
  '{"cmd":"view","format":"text"}' '{"cmd":"suggest","seat":2,"bot":"heuristic"}' '{"cmd":"result"}' \
  '{"cmd":"record","id":5}' '{"cmd":"quit"}' > $c/protocol/seed-psycle.txt
printf '%s\n' '{"cmd":"new","game":"ninja","players":2,"seed":3}' '{"cmd":"view","seat":0}' \
  '{"cmd":"suggest","seat":0,"bot":"ismcts:iters=30"}' '{"cmd":"act","seat":5,"action":"x"}' \
  '{"cmd":"act","seat":0,"action":99999}' > $c/protocol/seed-ninja.txt
printf '%s\n' '{"cmd":"new","game":"octal","players":3,"options":{"mode":"single"}}' '{"cmd":"legal","seat":0}' \
  '{"cmd":"view"}' 'not json' '[1,2]' '{"cmd":5}' '{"cmd":"nope"}' > $c/protocol/seed-octal.txt
printf '%s\n' "{\"cmd\":\"new\",\"game\":\"timemasters\",\"players\":2,\"seed\":1,\"options\":{\"cards\":$mini}}" \
  '{"cmd":"legal","seat":0}' '{"cmd":"act","seat":0,"action":"play Zap"}' '{"cmd":"view","format":"text"}' \
  '{"cmd":"new","game":"timemasters","options":{"cards":"/etc/hostname"}}' > $c/protocol/seed-timemasters.txt
printf '%s\n' "{\"cmd\":\"load\",\"record\":$(cat $c/record/seed-psycle-2.json)}" '{"cmd":"record"}' \
  > $c/protocol/seed-load.txt
# taking back: a choice withdrawn after another seat's, refusals, a NINJA scroll tile
printf '%s\n' '{"cmd":"new","game":"psycle","players":3,"seed":4}' '{"cmd":"act","seat":0,"action":"play 3"}' \
  '{"cmd":"act","seat":1,"action":"play 0"}' '{"cmd":"undo","seat":0}' '{"cmd":"undo","seat":0}' \
  '{"cmd":"undo","seat":2}' '{"cmd":"undo"}' '{"cmd":"legal","seat":1}' '{"cmd":"record"}' > $c/protocol/seed-undo.txt

# options: byte 0 the game (registry order: ninja octal psycle timemasters), byte 1 the players
printf '\x00\x00{"start_player":1}' > $c/options/seed-ninja.bin
printf '\x01\x03{"mode":"single","ranks":2,"max_turns":50}' > $c/options/seed-octal.bin
printf '\x02\x01{"max_cycles":3}' > $c/options/seed-psycle.bin
printf '\x03\x00{"max_turns":20,"cards":%s}' "$mini" > $c/options/seed-timemasters.bin
printf '\x03\x00{"cards":null}' > $c/options/seed-timemasters-null.bin

# action texts: header (game, players, random steps, seed hi, seed lo) then texts, one a line
printf '\x00\x00\x05\x00\x07play 3\nlead 2\nR5\n' > $c/action/seed-ninja.bin
printf '\x01\x00\x03\x00\x02play 1\ndiscard 4\npass\n' > $c/action/seed-octal.bin
printf '\x02\x01\x00\x00\x01play 3\nplay 0\nplay 5\n' > $c/action/seed-psycle.bin
printf '\x03\x00\x02\x00\x03play Energy\nset Small Timer on 1\ndone\ntake 1 second\npass\n' > $c/action/seed-timemasters.bin
# the server's HTTP API: one request a line, method byte (P: POST), path, a space, the body
printf '%s\n' 'G/api/games' 'P/api/tables {"game":"psycle","players":2,"bots":[null,"random"]}' \
  'P/api/tables/1/join {"name":"Aki"}' 'G/api/tables/1' 'G/api/tables/1/record' 'G/api/tables' \
  'P/api/tables/1/join {"name":"Ben","seat":0}' 'G/api/tables/2' 'P/api/tables/1 {}' > $c/http_api/seed-psycle.txt
printf '%s\n' '!allow-chosen-seeds' 'P/api/tables {"game":"octal","players":4,"options":{"mode":"single"},"seed":5,"bots":[null,"random","heuristic",null],"clock":{"kind":"fischer","base":60,"increment":2}}' \
  'P/api/tables/1/join {"name":"こんにちは","seat":3}' 'P/api/tables/1/join {"name":"Aki"}' \
  'P/api/tables/1/join {"name":"Cy"}' 'G/api/tables/1' > $c/http_api/seed-octal.txt
printf '%s\n' 'P/api/tables {"game":"timemasters","players":2,"bots":["random","random"],"clock":{"kind":"move","seconds":5}}' \
  'G/api/tables/1/record' 'P/api/tables {"game":"ninja","players":3,"bots":["ismcts:iters=10",null,null]}' \
  'P/api/tables/2/join {"name":"x"}' 'P/api/tables {"game":"nope"}' 'P/api/tables [1]' 'P/api/tables {' \
  'X/api/tables/1/join' > $c/http_api/seed-mixed.txt
# issue 31: a seed refused, then allowed; a private table's seats joined with and without their codes
printf '%s\n' 'P/api/tables {"game":"ninja","players":2,"seed":9,"bots":["random","random"]}' 'G/api/tables' \
  '!allow-chosen-seeds' 'P/api/tables {"game":"ninja","players":2,"seed":9,"bots":["random","random"]}' \
  'G/api/tables/1' 'P/api/tables {"game":"psycle","players":2,"seed":null}' 'G/api/tables' > $c/http_api/seed-chosen.txt
printf '%s\n' 'P/api/tables {"game":"octal","players":3,"private":true,"bots":[null,null,"random"]}' 'G/api/tables' \
  'P/api/tables/1/join {"name":"Eve"}' 'P/api/tables/1/join {"name":"Eve","invite":"0123"}' \
  'P/api/tables/1/join {"name":"Eve","seat":1,"invite":"@I0"}' 'P/api/tables/1/join {"name":"Eve","invite":7}' \
  'P/api/tables/1/join {"name":"Aki","invite":"@I0"}' 'P/api/tables/1/join {"name":"Aki","invite":"@I0"}' \
  'P/api/tables/1/join {"name":"Ben","seat":1,"invite":"@I1"}' 'G/api/tables/1' \
  'P/api/tables {"game":"psycle","players":2,"private":"yes"}' > $c/http_api/seed-private.txt
# the list's pages (GET /api/tables?before=ID) and malformed befores
printf '%s\n' 'P/api/tables {"game":"psycle","players":2}' 'P/api/tables {"game":"octal","players":3}' \
  'P/api/tables {"game":"ninja","players":2,"bots":["random","random"]}' 'G/api/tables?before=3' \
  'G/api/tables?before=2&x=1' 'G/api/tables?before=x' 'G/api/tables?before=-1' 'G/api/tables?before=' \
  'G/api/tables?a=b' 'G/api/tables/1?before=1' > $c/http_api/seed-pages.txt

# WebSocket messages to one table: byte 0 the game and players, byte 1 the bot seats (bit k), then one
# message a line, its first byte the sender (s: a spectator; else byte % players), "#N": the N-th legal action
printf '\x02\x02\x00{"type":"act","action":"play 3","id":1}\ns{"type":"act","action":"play 1"}\n\x00#0\n\x00#2\n\x00{"type":"nope"}\n' \
  > $c/ws_message/seed-psycle.bin
printf '\x01\x06\x00#0\n\x00#1\n\x03{"type":"act","action":"pass","seat":0}\n\x00#3\n\x03#0\n' > $c/ws_message/seed-octal.bin
printf '\x00\x00\x00#0\n\x01#0\n\x00#0\n\x01#1\n\x00[1,2]\n\x01{"type":"act","action":99999}\n' > $c/ws_message/seed-ninja.bin
printf '\x03\x00\x00#0\n\x00#1\n\x01#0\n\x01{"type":"act","action":"done"}\n\x00#2\n' > $c/ws_message/seed-timemasters.bin
# taking back (issue 44): each seat in turn acts, takes back (refused when the move was final) and acts again:
# NINJA with 3 (scroll tiles, the trump), PSYCLE with 3 (a face-down choice withdrawn), Time Masters with 2
python3 - "$c/ws_message" <<'PY'
import sys
for name, pick, players, ks in (("ninja", 4, 3, [0]), ("psycle", 6, 3, [3, 0]), ("timemasters", 3, 2, [3, 0])):
    lines = []
    for r in range(12):
        for s in range(players):
            k = ks[(r * players + s) % len(ks)]
            lines += [bytes([s]) + b"#%d" % k, bytes([s]) + b'{"type":"undo"}', bytes([s]) + b"#%d" % k]
    open("%s/seed-undo-%s.bin" % (sys.argv[1], name), "wb").write(bytes([pick, 0]) + b"\n".join(lines[:90]) + b"\n")
PY
# ids a refusal echoes only in part (issue 31): a long string, a long array, a string cut inside a character
python3 - "$c/ws_message/seed-long-ids.bin" <<'PY'
import sys
lines = [b'0{"type":"dance","id":"' + b"x" * 200 + b'"}',
         b's{"type":"act","id":[' + b",".join(str(i).encode() for i in range(100)) + b']}',
         b'1{"type":"act","action":"fly","id":"' + "\u3042".encode() * 30 + b'"}',
         b'0{"type":"act","action":"pass","id":{"k":"' + b"y" * 70 + b'"}}',
         b'0{"type":"act","action":"pass","id":{"k":1}}']
open(sys.argv[1], "wb").write(b"\x00\x00" + b"\n".join(lines) + b"\n")
PY

echo "corpora in $c:" $(for d in $c/*; do echo "$(basename $d)=$(ls $d | wc -l)"; done)

# the accounts API's bodies (byte 0: the fields wanted, accounts.h's ACCOUNTS_WANT_*)
a=$c/account_body
printf '\x03{"name":"Aoi","password":"correct horse"}' > $a/seed-sign-up.txt
printf '\x03{"name":"aoi","password":"short"}' > $a/seed-short-password.txt
printf '\x03{"name":"a b","password":"correct horse"}' > $a/seed-bad-name.txt
printf '\x06{"password":"correct horse","new_password":"漢字漢字漢字漢字"}' > $a/seed-new-password.txt
printf '\x02{"password":"correct\\u0000horse"}' > $a/seed-nul.txt
printf '\x08{"tokens":["0123456789abcdef0123456789abcdef","xyz"]}' > $a/seed-claim.txt
printf '\x08{"tokens":["0123456789abcdef0123456789abcdef"]}' > $a/seed-claim-one.txt
printf '\x0f[1,2]' > $a/seed-array.txt
printf '\x01{"name":"Aoi","name":"Ben"}' > $a/seed-duplicate.txt
