#!/usr/bin/env bash
# review.sh — `asobi review`: the table, --json, the same review for any --jobs, bad arguments refused.
# Usage: review.sh PATH_TO_ASOBI   (run by CTest as cli_review)
set -u
asobi=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $name" >&2; fi
}
contains() { grep -q -- "$2" "$1"; }
judge="ismcts:iters=200" # small budgets: fast and the same on every machine

"$asobi" review --help >"$tmp/help"; check "review --help exits 0" test $? -eq 0
check "review --help text" contains "$tmp/help" "usage: asobi review RECORD --seat K"
"$asobi" --help | grep -q '^  review '; check "review in the command list" test $? -eq 0

"$asobi" play psycle --bots random --seat none --players 3 --seed 5 --record "$tmp/game.json" --quiet >/dev/null 2>&1
"$asobi" review "$tmp/game.json" --seat 1 --bot "$judge" --jobs 2 >"$tmp/table" 2>"$tmp/err"
check "review exits 0" test $? -eq 0
check "the table names seat 2 (seat 1 from 0)" contains "$tmp/table" "seat 2 reviewed by $judge"
check "the table has its columns" grep -qE '^ +# +played +value +best +value +loss' "$tmp/table"
check "a decision's line" grep -qE '^ +[0-9]+\.  play [0-9]+ +[01]\.[0-9]{2}  play [0-9]+ +[01]\.[0-9]{2} +[01]\.[0-9]{2}' "$tmp/table"
check "the summary" grep -qE '^[0-9]+ decisions, accuracy [0-9]+% \(a loss under 0\.05\), total loss' "$tmp/table"
check "no progress bar off a terminal" test ! -s "$tmp/err"

"$asobi" review "$tmp/game.json" --seat 1 --bot "$judge" --jobs 1 --json >"$tmp/one.json"
check "--json exits 0" test $? -eq 0
"$asobi" review "$tmp/game.json" --seat 1 --bot "$judge" --jobs 2 --json >"$tmp/two.json"
check "--jobs 1 and --jobs 2 give the same review" cmp -s "$tmp/one.json" "$tmp/two.json"
check "--json has the decisions" contains "$tmp/one.json" '"played_value"'
check "--json has the summary" contains "$tmp/one.json" '"accuracy"'
"$asobi" review "$tmp/game.json" --seat 1 --bot "$judge" --seed 2 --json >"$tmp/other.json"
check "another --seed, another search" bash -c "! cmp -s '$tmp/one.json' '$tmp/other.json'"

# refusals: exit 2 for bad arguments, 1 for a record that does not replay
"$asobi" review "$tmp/game.json" >/dev/null 2>"$tmp/err"; check "no --seat exits 2" test $? -eq 2
check "no --seat says so" contains "$tmp/err" "needs --seat K"
"$asobi" review "$tmp/game.json" --seat 3 --bot "$judge" >/dev/null 2>"$tmp/err"; check "a seat not in the game exits 2" test $? -eq 2
check "a seat not in the game says so" contains "$tmp/err" "seats are 0 to 2"
"$asobi" review "$tmp/game.json" --seat 0 --bot random >/dev/null 2>"$tmp/err"; check "a bot that cannot weigh exits 2" test $? -eq 2
check "a bot that cannot weigh says so" contains "$tmp/err" "cannot weigh moves"
"$asobi" review "$tmp/game.json" --seat 0 --jobs 0 >/dev/null 2>&1; check "--jobs 0 exits 2" test $? -eq 2
"$asobi" review "$tmp/missing.json" --seat 0 >/dev/null 2>&1; check "a missing record exits 1" test $? -eq 1
echo '{"game":"psycle"' >"$tmp/broken.json"
"$asobi" review "$tmp/broken.json" --seat 0 >/dev/null 2>"$tmp/err"; check "a broken record exits 1" test $? -eq 1
check "a broken record says so" contains "$tmp/err" "not a JSON record"

echo "review.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
