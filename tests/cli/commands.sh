#!/usr/bin/env bash
# commands.sh — the asobi subcommands end to end: output, exit codes, bad arguments, records.
# Usage: commands.sh PATH_TO_ASOBI   (run by CTest as cli_commands)
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

# every subcommand has --help and exits 0 with it
for cmd in play engine sim bench replay rules; do
  "$asobi" $cmd --help >"$tmp/help" 2>&1; check "$cmd --help exit" test $? -eq 0
  check "$cmd --help text" contains "$tmp/help" "usage: asobi $cmd"
done
"$asobi" >/dev/null 2>&1; check "no command exits 2" test $? -eq 2
"$asobi" frobnicate >/dev/null 2>"$tmp/err"; check "unknown command exits 2" test $? -eq 2
check "unknown command message" contains "$tmp/err" 'unknown command'
"$asobi" games >"$tmp/games"; check "games lists psycle" contains "$tmp/games" psycle
"$asobi" games --json | grep -q '"name":"psycle"'; check "games --json" test $? -eq 0
"$asobi" bots >"$tmp/bots"; check "bots lists random" contains "$tmp/bots" random

# play: bots against each other, with a record, then replay it
"$asobi" play psycle --bots random --seat none --players 3 --seed 11 --record "$tmp/game.json" >"$tmp/watch"
check "watched game exits 0" test $? -eq 0
check "watched game has a result" contains "$tmp/watch" "Winner"
check "record written" test -s "$tmp/game.json"
"$asobi" replay "$tmp/game.json" >"$tmp/replay"; check "replay exits 0" test $? -eq 0
check "replay lists actions, seats counted from 1" contains "$tmp/replay" "seat 1: play"
check "replay shows the result" contains "$tmp/replay" "Winner"
# issue 33: what each action made happen (its events), under it
check "watching tells each round's reveal" contains "$tmp/watch" "Round 1 of cycle 1 is revealed"
check "replay tells each round's reveal" contains "$tmp/replay" "Round 1 of cycle 1 is revealed"
check "replay tells the cycle's end" contains "$tmp/replay" "Cycle 1 ends"
# Time Masters: replay --seat 1 names the cards seat 2 drew only by count; the all-seeing replay names them
"$asobi" play timemasters --bots random --seat none --seed 4 --record "$tmp/tm.json" --quiet >/dev/null 2>&1
"$asobi" replay "$tmp/tm.json" >"$tmp/tm_all"
"$asobi" replay "$tmp/tm.json" --seat 0 >"$tmp/tm_seat"
check "replay (all-seeing) names seat 2's drawn cards" grep -qE 'Seat 2 draws [0-9]+ cards?: ' "$tmp/tm_all"
check "replay --seat 0 names its own drawn cards" grep -qE 'Seat 1 draws [0-9]+ cards?: ' "$tmp/tm_seat"
check "replay --seat 0 counts seat 2's drawn cards" grep -qE 'Seat 2 draws [0-9]+ cards?\.$' "$tmp/tm_seat"
check "replay --seat 0 never names seat 2's drawn cards" bash -c "! grep -qE 'Seat 2 draws [0-9]+ cards?: ' '$tmp/tm_seat'"
"$asobi" replay "$tmp/game.json" --at 0 --seat 1 --json >"$tmp/at0"
check "replay --at 0 --json is the start" contains "$tmp/at0" '"round": 1'
printf '\n\nb\nq\n' | "$asobi" replay "$tmp/game.json" --step >"$tmp/step"
check "replay --step" contains "$tmp/step" "after 1 of"
echo '{"game":"psycle"' >"$tmp/broken.json"
"$asobi" replay "$tmp/broken.json" >/dev/null 2>"$tmp/err"; check "broken record refused" test $? -eq 1

# play as a person: bad entries get a message and a new prompt, never a crash
printf 'play 9\nhello\nz\n99\nview\nhelp\n1\nquit\n' | "$asobi" play psycle --bots random --seed 3 >"$tmp/human" 2>&1
check "human session exits 0" test $? -eq 0
check "bad card refused" contains "$tmp/human" "no card 9"
check "bad text refused" contains "$tmp/human" "not a PSYCLE action"
check "bad menu letter refused" contains "$tmp/human" "There is no action z: choose from a to"
check "a bare number out of range is no card" contains "$tmp/human" "no card 99"
check "view shows JSON" contains "$tmp/human" '"victory_tiles"'
check "quit leaves" contains "$tmp/human" "You left the game"
check "the bot's choice is not shown" bash -c "! grep -q 'random): play' '$tmp/human'"

# issue 12, leaks: what play prints for a seat comes from its view and public texts only
# PSYCLE: 'record' lists the game as the first seat saw it (seat 1 on the screen: people count from 1), the
# bots' face-down choices as such
printf '3\nrecord\nquit\n' | "$asobi" play psycle --players 3 --bots random --seed 3 >"$tmp/leak" 2>&1
check "record at the prompt: the others' choices face down" contains "$tmp/leak" "seat 2: chooses face down"
check "record at the prompt: never the record itself" bash -c "! grep -q '\"action\"' '$tmp/leak'"
check "record at the prompt: no other seat's card" bash -c "! grep -qE '^ +[0-9]+\. seat [23]: play' '$tmp/leak'"
# the seed decides every hidden card: told at the end, not at the start
check "no seed at the start of a game with a person" bash -c "! head -1 '$tmp/leak' | grep -q seed"
check "the seed at the end" contains "$tmp/leak" "The seed was 3"
# terminal: a bare number is the card, not a menu line (issue 12)
check "a bare 3 plays the card 3" contains "$tmp/leak" "seat 1: play 3"
check "PSYCLE's menu uses letters" contains "$tmp/leak" "a) play 0"
# THE OCTAL (two people at one terminal, --seat 0,1): the second seat's record shows the first's discards face down
(for i in $(seq 1 12); do echo 1; done; echo record; echo quit) |
  "$asobi" play octal --bots random --seat 0,1 --seed 5 >"$tmp/leak_octal" 2>&1
sed -n '/The game so far, as seat 2/,/Your move/p' "$tmp/leak_octal" >"$tmp/leak_octal_log"
check "octal record: another seat's discard is face down" contains "$tmp/leak_octal_log" "seat 1: discard a card face down"
check "octal record: its own discards in full" grep -qE 'seat 2: discard [1-8A]' "$tmp/leak_octal_log"
check "octal record: never another seat's discarded card" bash -c "! grep -qE 'seat 1: discard [1-8A]' '$tmp/leak_octal_log'"
# Time Masters: a bot's delay card goes face down (public_text)
yes 1 | head -3000 | "$asobi" play timemasters --bots random --seed 5 --opt max_turns=40 >"$tmp/leak_tm" 2>&1
check "tm: a bot's delay card is announced face down" contains "$tmp/leak_tm" "seat 2 (random): puts a card face down under timer"
# (the negative check looks at the line after each delay: there must be one, or it could never fail)
check "tm: the bot delays a timer" contains "$tmp/leak_tm" "seat 2 (random): delay"
check "tm: never the delay card itself" bash -c "! grep -A1 'seat 2 (random): delay' '$tmp/leak_tm' | grep -q 'seat 2 (random): pick'"
# replay --seat K: only what seat K saw at each step
"$asobi" play octal --bots random --seat none --seed 3 --record "$tmp/octal.json" --quiet >/dev/null
"$asobi" replay "$tmp/octal.json" --seat 1 >"$tmp/replay_seat"
"$asobi" replay "$tmp/octal.json" >"$tmp/replay_all"
check "replay (all-seeing) shows discards" grep -qE 'seat [13]: discard [1-8A]' "$tmp/replay_all"
check "replay --seat 1: the others' discards face down" contains "$tmp/replay_seat" "discard a card face down"
check "replay --seat 1: no other seat's discarded card" bash -c "! grep -qE 'seat [13]: discard [1-8A]' '$tmp/replay_seat'"
check "replay --seat 1: no seed" bash -c "! head -1 '$tmp/replay_seat' | grep -q seed"
printf '\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\nq\n' |
  "$asobi" replay "$tmp/octal.json" --seat 1 --step >"$tmp/replay_step"
check "replay --seat 1 --step: it stepped" contains "$tmp/replay_step" "after 30 of"
check "replay --seat 1 --step: the others' discards face down" contains "$tmp/replay_step" "discard a card face down"
check "replay --seat 1 --step: no other seat's discarded card" bash -c "! grep -qE 'seat [13]: discard [1-8A]' '$tmp/replay_step'"
: | "$asobi" play psycle --bots random --seed 3 >/dev/null 2>&1; check "end of input ends the game quietly" test $? -eq 0
yes 1 | head -400 | "$asobi" play psycle --bots random --seed 4 --record "$tmp/human.json" >"$tmp/full" 2>&1
check "a full human game ends" contains "$tmp/full" "Result:"
check "human record replays" "$asobi" replay "$tmp/human.json" --at 3 >/dev/null

# issue 12, the terminal for people
# a legend on demand: asobi rules GAME [--lang], and help/rules at the prompt
"$asobi" rules psycle --lang en >"$tmp/rules_en"; check "rules psycle exits 0" test $? -eq 0
check "rules psycle: 1 beats 5" grep -qE '^ +1 +0 and 5 +3$' "$tmp/rules_en"
check "rules psycle: 0 beats nothing" grep -qE '^ +0 +nothing +0$' "$tmp/rules_en"
"$asobi" rules psycle --lang ja >"$tmp/rules_ja"; check "rules psycle --lang ja" contains "$tmp/rules_ja" "リソースジェム"
LANG=ja_JP.UTF-8 LC_ALL= LC_MESSAGES= "$asobi" rules octal >"$tmp/rules_env"; check "rules: the language from LANG" contains "$tmp/rules_env" "竜の問い掛け"
LANG=C LC_ALL= LC_MESSAGES= "$asobi" rules octal >"$tmp/rules_c"; check "rules: English otherwise" contains "$tmp/rules_c" "ASCII: G L S X M D"
for g in ninja timemasters; do
  "$asobi" rules $g --lang en >/dev/null; check "rules $g en" test $? -eq 0
  "$asobi" rules $g --lang ja >/dev/null; check "rules $g ja" test $? -eq 0
done
"$asobi" rules ninja --lang en >"$tmp/rules_ninja"; check "ninja legend: open cards of the led kind first" contains "$tmp/rules_ninja" "an open card"
"$asobi" rules timemasters --lang en >"$tmp/rules_tm"; check "tm legend: the phases" contains "$tmp/rules_tm" "sphere access"
"$asobi" rules nosuchgame >/dev/null 2>&1; check "rules of no game exits 2" test $? -eq 2
"$asobi" rules psycle --lang fr >/dev/null 2>&1; check "rules --lang fr exits 2" test $? -eq 2
printf 'rules\nhelp\nquit\n' | LANG=C LC_ALL= "$asobi" play psycle --bots random --seed 3 >"$tmp/help" 2>&1
check "rules at the prompt: the legend" contains "$tmp/help" "Strength: a card beats"
# THE OCTAL: menus in hand order, big groups folded, listed by their start; questions as cards
(echo 1; echo override; echo 'override 7小↑'; echo quit) | "$asobi" play octal --bots random --seed 5 >"$tmp/octal_menu" 2>&1
(echo 1; echo override; echo 'override 7大↑'; echo quit) | "$asobi" play octal --bots random --seed 23 >"$tmp/octal_fold" 2>&1
check "octal: the override group is folded" contains "$tmp/octal_fold" 'override ... (40 ways: type "override" to list them)'
check "octal: typing override lists its groups" contains "$tmp/octal_fold" "override 8異↕ ... (23 ways)"
check "octal: narrowing to the actions" grep -qE ' 1[0-9]\) override 7大↑ 4大↕ on 1$' "$tmp/octal_fold"
check "octal: the question in card notation" contains "$tmp/octal_menu" "Question 1: 4小 - answered by 1 2 3 or ALL"
check "octal: plays in the order of the hand" bash -c "grep -A4 ' 1) pass' '$tmp/octal_menu' | sed -n 2,4p | tr -d ' ' | tr '\n' ' ' | grep -q '2)play2同↑on1 3)play2倍↕on1 4)play2倍↕on1pointbelow'"
# NINJA: the others' tiles are a count; a new round starts without the last round's trick
yes 1 | head -2000 | "$asobi" play ninja --bots random --seed 2 --players 3 >"$tmp/ninja" 2>&1
check "ninja: 3 tiles in hand" contains "$tmp/ninja" "      3 tiles in hand"
check "ninja: never 'tiles in hand: 3'" bash -c "! grep -q 'tiles in hand: [0-9]' '$tmp/ninja'"
# (and the check saw boards of new rounds, outside the battle: an empty or reworded output would pass it)
check "ninja: the last trick is cleared at a new round" bash -c "[ \"\$(awk '/^NINJA SCROLL TRICK - round [0-9] of 3 - / { phase=\$10; n=NR; if (phase!=\"battle\" && phase!=\"over\") other++ } /^Last trick/ && NR==n+2 && phase!=\"battle\" && phase!=\"over\" { bad++ } END { print bad+0, (other>0) }' '$tmp/ninja')\" = '0 1' ]"

# the default opponents: the strongest practical bot (issue 6)
echo quit | "$asobi" play psycle --players 3 --seed 2 >"$tmp/default" 2>&1
check "default bots are ismcts at a second a move" contains "$tmp/default" "seat 2: strong bot (ismcts:time=1)"
# issue 43: the seat list says a strength; the spec is a detail after it
check "the seat list says a bot's strength" contains "$tmp/default" "seat 3: strong bot ("
echo quit | "$asobi" play ninja --players 3 --bots random,heuristic --seed 2 >"$tmp/strengths" 2>&1
check "random is easy, heuristic medium" contains "$tmp/strengths" "seat 2: easy bot (random), seat 3: medium bot (heuristic)"

# issue 43: letters name a numbered menu's lines too (PSYCLE's menu is lettered, NINJA's numbered): "a" in NINJA
# is line 1, as "1" is; a letter past the menu is refused with the menu's range
yes a | head -2000 | "$asobi" play ninja --bots random --seed 2 --players 3 >"$tmp/ninja_letters" 2>&1
check "ninja played by letters to the end" contains "$tmp/ninja_letters" "Result:"
check "ninja: a letter is never refused as an action text" bash -c "! grep -q 'Not accepted' '$tmp/ninja_letters'"
printf 'z\nquit\n' | "$asobi" play ninja --bots random --seed 2 --players 3 >"$tmp/ninja_z" 2>&1
check "ninja: a letter past the menu is refused" contains "$tmp/ninja_z" "There is no action z: choose from a to"
# ... and in a menu whose long groups are folded ("override ... (18 ways)"): the letters count the printed lines
# (OCTAL seed 11 reaches a 26-action menu at its 5th prompt; before, "a" there was read as an action text)
yes a | head -3000 | "$asobi" play octal --bots random --seed 11 --players 4 >"$tmp/octal_letters" 2>&1
check "octal: a folded menu is played by letters to the end" contains "$tmp/octal_letters" "Result:"
check "octal: the folded menu was met" contains "$tmp/octal_letters" "ways: type"
check "octal: a letter is never refused as an action text" bash -c "! grep -qE 'Not accepted|There is no action' '$tmp/octal_letters'"

# two people at one terminal (hot seat): both seats prompt in turn
yes 1 | head -3000 | "$asobi" play psycle --bots random --seat 0,1 --seed 5 >"$tmp/hotseat" 2>&1
check "hot seat game ends" contains "$tmp/hotseat" "Result:"
check "hot seat hands over to the second seat" contains "$tmp/hotseat" "Seat 2's turn"
check "hot seat prompts the second seat" contains "$tmp/hotseat" "Your move, seat 2"
"$asobi" play psycle --bots random --seat 0,7 </dev/null >/dev/null 2>&1; check "hot seat seat out of range" test $? -eq 2
# People count seats from 1 in all they read: the board, prompts, bots' moves, records at the prompt, replays
# and results (options, records and the engine protocol keep 0: --seat 0 is "seat 1"). Issue 29, point 3.
for f in watch replay tm_all tm_seat leak leak_octal leak_tm replay_seat replay_all replay_step full ninja default hotseat octal_menu strengths ninja_letters ninja_z octal_letters; do
  check "no 'seat 0' in what people read ($f)" bash -c "! grep -qiE 'seat 0\b' '$tmp/$f'"
done
"$asobi" replay "$tmp/octal.json" --seat 0 --at 5 >"$tmp/replay_first"
check "replay --seat 0 is the first seat, shown as seat 1" grep -qE '^  seat 1: [0-9]+ cards? - .*\(you\)$' "$tmp/replay_first"

# bad arguments: exit 2 with a message
for args in "play nosuchgame" "play psycle --players 9" "play psycle --seat 5" "play psycle --seed -1" \
            "play psycle --bots oracle" "play psycle --opt max_cycles=0" "sim psycle --games 0" \
            "sim psycle --games abc" "bench psycle --runs 0" "play psycle --opt nonsense" \
            "sim psycle --bots random:speed=3"; do
  "$asobi" $args </dev/null >/dev/null 2>"$tmp/err"; rc=$?
  check "'$args' exits 2" test $rc -eq 2
  check "'$args' says why" test -s "$tmp/err"
done

# sim and bench
"$asobi" sim psycle --games 200 --players 4 --seed 9 --jobs 2 >"$tmp/sim"
check "sim exits 0" test $? -eq 0
check "sim prints intervals" contains "$tmp/sim" "95% CI"
# people count seats from 1 here too (the --json output keeps the protocol's 0)
check "sim numbers its table's seats from 1" bash -c "awk '/^seat/{t=1; next} t && \$1 ~ /^[0-9]+\$/ {print \$1}' '$tmp/sim' | tr '\\n' ' ' | grep -qx '1 2 3 4 '"
"$asobi" sim psycle --games 50 --seed 9 --jobs 1 --json >"$tmp/sim1"
"$asobi" sim psycle --games 50 --seed 9 --jobs 2 --json >"$tmp/sim2"
check "sim results do not depend on jobs" bash -c "diff <(sed 's/\"seconds.*games_per_second\":[0-9.e+]*,//; s/\"ms_per_move\":[0-9.e+-]*//g' '$tmp/sim1') <(sed 's/\"seconds.*games_per_second\":[0-9.e+]*,//; s/\"ms_per_move\":[0-9.e+-]*//g' '$tmp/sim2')"
"$asobi" bench psycle --runs 1 --seconds 0.05 >"$tmp/bench"
check "bench reports playouts" contains "$tmp/bench" "playouts/s"
check "bench reports views" contains "$tmp/bench" "with views"
check "bench reports ns per decision" contains "$tmp/bench" "ns per decision"
"$asobi" bench octal --runs 1 --seconds 0.05 --no-views >"$tmp/bench"
check "bench --no-views reports playouts" contains "$tmp/bench" "playouts/s"
check "bench --no-views skips the views" bash -c "! grep -q 'with views' '$tmp/bench'"
"$asobi" bench psycle --runs 1 --games 2 --bot random --json >"$tmp/benchbot"
check "bench --bot" contains "$tmp/benchbot" "moves_per_second"

# arena: a round-robin; the JSON shape issue 6 fixes; results independent of --jobs
"$asobi" arena psycle --bots random,heuristic --games 40 --seed 3 >"$tmp/arena"
check "arena exits 0" test $? -eq 0
check "arena prints Elo" contains "$tmp/arena" "elo"
"$asobi" arena psycle --bots random,heuristic --games 40 --seed 3 --jobs 1 --json >"$tmp/arena1"
"$asobi" arena psycle --bots random,heuristic --games 40 --seed 3 --jobs 2 --json >"$tmp/arena2"
for field in '"game":"psycle"' '"players":2' '"games":40' '"bots":\[' '"spec":"random"' '"elo":' '"elo_ci95":\[' \
             '"wins":' '"avg_score":' '"ms_per_move":' '"pairs":\[' '"a":"random"' '"b":"heuristic"' '"a_wins":' \
             '"b_wins":' '"draws":'; do
  check "arena --json has $field" contains "$tmp/arena1" "$field"
done
check "arena results do not depend on jobs" bash -c "diff <(sed 's/\"ms_per_move\":[0-9.e+-]*//g' '$tmp/arena1') <(sed 's/\"ms_per_move\":[0-9.e+-]*//g' '$tmp/arena2') >/dev/null"
"$asobi" arena psycle --players 3 --bots random,heuristic,random:x=1 --games 3 >/dev/null 2>"$tmp/err"
check "arena refuses a bad spec" test $? -eq 2
"$asobi" arena psycle --bots random --games 3 >/dev/null 2>"$tmp/err"
check "arena needs two bots" test $? -eq 2
"$asobi" arena psycle --players 4 --bots random,heuristic --games 8 --json >"$tmp/arena4"
check "arena with fewer bots than seats" contains "$tmp/arena4" '"games":16'

# issue 45 §4: labels, a gauntlet, Elo intervals of a sweep, a sequential test
"$asobi" arena psycle --bots "h=heuristic,r=random" --games 20 --json >"$tmp/label"
check "arena --json gives a label and its spec" contains "$tmp/label" '"label":"h","spec":"heuristic"'
check "arena pairs are named by label" contains "$tmp/label" '"a":"h","b":"r"'
"$asobi" arena psycle --bots "h=heuristic,r=random" --games 20 >"$tmp/labeltext"
check "arena tables show the label" grep -Eq '^h +\+[0-9]+ ' "$tmp/labeltext"
# heuristic wins all 20 (PSYCLE's target card): the interval is not one point
check "a sweep's Elo interval has width" grep -Eq '^h +\+([0-9]+) +\[ *\+[0-9]+, +\+[0-9]+\]' "$tmp/labeltext"
check "a sweep's Elo interval is not one point" bash -c "! grep -Eq '\[ *([+-][0-9]+), +\\1\]' '$tmp/labeltext'"
"$asobi" arena psycle --bots "a=random,a=heuristic" --games 2 >/dev/null 2>"$tmp/err"
check "arena refuses a label listed twice" contains "$tmp/err" 'listed twice'
"$asobi" arena psycle --bots "random,ismcts:iters=20,c=0.7,r2=random" --gauntlet h=heuristic --games 12 --json \
  >"$tmp/gauntlet"
check "a gauntlet names its bot" contains "$tmp/gauntlet" '"gauntlet":"h"'
check "a gauntlet plays its bot against each other bot" test "$(grep -o '"a":"h"' "$tmp/gauntlet" | wc -l)" -eq 3
check "a gauntlet plays no other pair" test "$(grep -o '"a":"' "$tmp/gauntlet" | wc -l)" -eq 3
"$asobi" arena psycle --bots heuristic,random --sprt 0,100,0.05,0.05 --games 1000 --jobs 1 --json >"$tmp/sprt1"
"$asobi" arena psycle --bots heuristic,random --sprt 0,100,0.05,0.05 --games 1000 --jobs 2 --json >"$tmp/sprt2"
check "an SPRT accepts H1 for a stronger bot" contains "$tmp/sprt1" '"result":"H1"'
check "an SPRT counts the games up to its decision" grep -Eq '"sprt":\{[^}]*"games":[1-9][0-9]?,' "$tmp/sprt1"
check "an SPRT starts no game after its decision" grep -Eq '"sprt":\{[^}]*"played":[1-9][0-9]?,' "$tmp/sprt2"
check "an SPRT's decision does not depend on jobs" bash -c \
  "diff <(grep -o '\"sprt\":.*' '$tmp/sprt1' | sed 's/\"played\":[0-9]*//') \
        <(grep -o '\"sprt\":.*' '$tmp/sprt2' | sed 's/\"played\":[0-9]*//') >/dev/null"
"$asobi" arena psycle --bots r1=random,r2=random --sprt 0,150,0.05,0.05 --games 3000 >"$tmp/sprt0"
check "an SPRT accepts H0 between equals" contains "$tmp/sprt0" 'H0 accepted (r1 is not +150 Elo stronger)'
"$asobi" arena psycle --bots heuristic,random --sprt 50,0,0.05,0.05 >/dev/null 2>"$tmp/err"
check "a bad --sprt is refused" contains "$tmp/err" 'ELO0 < ELO1'
"$asobi" arena psycle --bots heuristic,random,h2=heuristic --sprt 0,50,0.05,0.05 >/dev/null 2>"$tmp/err"
check "an SPRT needs two bots" contains "$tmp/err" 'tests two bots'

# external bots (exec:cmd=COMMAND, docs/protocol.md): bad specs refused; a
# program answering garbage (cat echoes each request) forfeits every decision
"$asobi" arena psycle --bots exec:timeout=3,random --games 2 >/dev/null 2>"$tmp/err"
check "arena refuses exec: without cmd" test $? -eq 2
check "exec: without cmd says why" contains "$tmp/err" "needs cmd=COMMAND"
"$asobi" sim psycle --bots "exec:cmd=cat,timeout=0" --games 1 >/dev/null 2>"$tmp/err"
check "sim refuses a zero exec timeout" test $? -eq 2
"$asobi" arena psycle --bots exec:cmd=cat,random --games 2 >"$tmp/arenacat"
check "arena with a garbage program finishes" test $? -eq 0
check "arena counts the garbage program's forfeits" grep -Eq '^forfeits of exec:cmd=cat: ([1-9][0-9]*) of \1 decisions, [0-9]+ stray lines?$' "$tmp/arenacat"
"$asobi" sim psycle --bots random,exec:cmd=cat --games 2 --json >"$tmp/simcat"
check "sim --json counts forfeits" grep -Eq '"seat":1,[^}]*"forfeits":[1-9]' "$tmp/simcat"
"$asobi" arena psycle --players 3 --bots random,heuristic --games 6 --json >"$tmp/arena3"
check "arena gives no bot the majority of seats (ABA, BAB)" bash -c "[ \$(grep -o '\"games\":9' '$tmp/arena3' | wc -l) -eq 2 ]"

# --card-sets DIR: play picks a set by name; its record carries the set and replays without the folder
mkdir -p "$tmp/sets"
printf '%s' '{"title":"mini","sphere_size":3,"cards":[{"name":"Zap","type":"spell","level":0,"cost":1,"copies":8,"effects":[["draw",1]]},{"name":"A","type":"spell","level":1,"cost":1,"copies":4},{"name":"B","type":"focus","level":2,"copies":4,"effects":[["ready",2]]},{"name":"C","type":"timer","level":3,"copies":4,"slots":2,"trigger":"set","effects":[["ephemeral",1]]},{"name":"D","type":"spell","level":4,"cost":3,"copies":4,"effects":[["draw",2]]},{"name":"E","type":"spell","level":5,"cost":4,"copies":4,"effects":[["slow",2],["heavy",1]]}]}' >"$tmp/sets/mini.json"
"$asobi" play timemasters --seat none --bots random --seed 2 --card-sets "$tmp/sets" --opt cards=mini --quiet --record "$tmp/mini_game.json" >/dev/null
check "play --card-sets DIR --opt cards=NAME" test $? -eq 0
check "the record carries the set's content" contains "$tmp/mini_game.json" '"Zap"'
"$asobi" replay "$tmp/mini_game.json" >"$tmp/mini_replay"; check "the record replays without the folder" test $? -eq 0
"$asobi" play timemasters --seat none --bots random --card-sets "$tmp/sets" --opt cards=nope --quiet >/dev/null 2>"$tmp/err"
check "an unknown name is refused" test $? -ne 0
check "an unknown name lists the sets" contains "$tmp/err" 'the sets loaded: "mini"'
"$asobi" engine --card-sets "$tmp/nothing_here" </dev/null >/dev/null 2>"$tmp/err"
check "engine --card-sets with no folder fails" test $? -ne 0
printf '%s\n' '{"cmd":"new","game":"timemasters","options":{"cards":"mini"}}' | "$asobi" engine --card-sets "$tmp/sets" >"$tmp/eng"
check "engine --card-sets: new picks by name" contains "$tmp/eng" '"ok":true'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
