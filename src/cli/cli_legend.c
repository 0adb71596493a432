/* cli_legend.c — each game's short legend for the terminal (`help` at the prompt, `asobi rules`), in English and Japanese. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Each text is checked against the game's seed (/work/shared/seeds, quoted
 * in docs/rules/GAME.md) and the reconstructed tables; the legend is a
 * reminder at the table, docs/rules/GAME.md is the whole story. */
typedef struct legend {
    const char *game;
    const char *en, *ja;
} legend;

static const legend legends[] = {
    {"psycle",
     "PSYCLE - everyone chooses a card 0-5 face down at the same time; then all are revealed.\n"
     "  Cost: card N costs N gems (you cannot choose a card above your gems). Whoever played 0\n"
     "  takes as many gems as the highest card played.\n"
     "  Strength: a card beats the cards listed; equal cards beat nobody.\n"
     "    card  beats        stars\n"
     "     0    nothing        0\n"
     "     1    0 and 5        3\n"
     "     2    0, 1           3\n"
     "     3    0, 1, 2        2\n"
     "     4    0, 1, 2, 3     1\n"
     "     5    0, 2, 3, 4     1\n"
     "  Points: the card's stars once per opponent it beat; if it is the target tile's number and\n"
     "  beat someone, the bonus tile's points once more.\n"
     "  A cycle is 5 rounds; then each gem left costs 1 point and the highest score takes a\n"
     "  victory tile (2 players: a tie replays the cycle). 2 victory tiles win.\n"
     "  Type: play N (or just N: a bare number is always that card).\n",
     "サイクル - 全員が0～5のカードを1枚同時に裏向きで出し、一斉に公開します。\n"
     "  コスト: カードNはリソースジェムN個（持っているジェムより大きい数字は出せません）。\n"
     "  『0』を出したプレイヤーは、出された最も大きい数字と同じ数のジェムを受け取ります。\n"
     "  強さ: 各カードは右の数字に勝ちます。同じ数字同士はどちらも勝ちません。\n"
     "    カード  勝つ相手      ★\n"
     "     0     なし          0\n"
     "     1     0と5          3\n"
     "     2     0、1          3\n"
     "     3     0、1、2       2\n"
     "     4     0、1、2、3    1\n"
     "     5     0、2、3、4    1\n"
     "  得点: 勝った相手1人につきカードの★の数。ターゲットタイルと同じ数字で勝てば、\n"
     "  ボーナスタイルの★を1回追加。\n"
     "  5ラウンドで1サイクル。残ったジェム1個につき1点を失い、最高得点が勝利タイルを得ます\n"
     "  （2人で同点ならサイクルをやり直し）。勝利タイル2枚で勝ち。\n"
     "  入力: play N（数字だけでもそのカード）。\n"},
    {"octal",
     "THE OCTAL - empty your hand by answering the dragon's questions.\n"
     "  A card: number 1-8, condition, arrow (4大↕). A question: the condition the top card's\n"
     "  arrow points at, applied to the top card's number N. The world is cyclic at its ends:\n"
     "    大 greater   above N; on 8: only 1        小 less     below N; on 1: only 8\n"
     "    同 same      exactly N                    異 different any number but N\n"
     "    倍 multiple  N, 2N, ... up to 8           約 divisor  the numbers that divide N\n"
     "  Arrows: ↑ points at the condition of the card it covers; ↕ at that one or at the card\n"
     "  beneath it (add: point below).\n"
     "  ALL answers any question but may not be your last card; the covered card's condition\n"
     "  stays in force and the next player may lay any number card exactly on the ALL.\n"
     "  A turn: play a card, or pass (draw 1). With exactly 5 cards: override, 2-4 cards that\n"
     "  answer the same question, highest first. Leaving 1 card in hand: say Octo! (add Octo!);\n"
     "  forgotten, say it (Octo!) before another player puts out a card or you act again,\n"
     "  or draw 2. Above 5 cards: discard one face down at once.\n"
     "  ASCII: G L S X M D for 大 小 同 異 倍 約, ^ for ↑, | for ↕ (4G| is 4大↕).\n",
     "オクタル - 竜の問い掛けに答えて手札をなくしましょう。\n"
     "  竜札: 数字1～8、条件、矢印（4大↕）。問い掛け: 一番上のカードの矢印が指す条件と、\n"
     "  一番上のカードの数字N。世界は端でつながっています:\n"
     "    大 Nより大きい（8なら1のみ）      小 Nより小さい（1なら8のみ）\n"
     "    同 Nと同じ                        異 N以外\n"
     "    倍 Nの倍数（8まで）               約 Nの約数\n"
     "  矢印: ↑は重ねたカードの条件を、↕はそのカードかもう1枚下のカードの条件を指します\n"
     "  （下を指すときは point below）。\n"
     "  ALLはどの問い掛けにも答えますが、最後の1枚にはできません。見えている条件がそのまま\n"
     "  使われ、次のプレイヤーは好きな数値カードをALLにぴったり重ねて置けます。\n"
     "  手番: 1枚配置するか、パス（1枚引く）。手札がちょうど5枚ならオーバーライド: 同じ\n"
     "  問い掛けを満たす2～4枚を大きい順に。残り1枚になる配置では「オクト！」（Octo!）、\n"
     "  忘れたら、他のプレイヤーがカードを出すか自分が次に行動するまでに宣言（Octo!）しないと\n"
     "  2枚引きます。手札が5枚を超えたら即座に1枚を裏向きで捨てます。\n"
     "  ASCII: 大小同異倍約 = G L S X M D、↑ = ^、↕ = |（4G| は 4大↕）。\n"},
    {"ninja",
     "NINJA SCROLL TRICK - 3 rounds of 7 tricks; win tricks to take the scroll tiles on the cards.\n"
     "  Each round the start player chooses the trump kind. Each player opens 3 cards of the hand\n"
     "  and lays a scroll tile face down on each (open cards are still in the hand; a tile goes\n"
     "  with its card).\n"
     "  Following: the leader plays any card. The others must follow the led kind: an open card\n"
     "  of that kind first; only without one, a closed card of that kind; only with neither,\n"
     "  any card.\n"
     "  Winning: the highest trump takes the trick; with no trump played, the highest card of\n"
     "  the led kind. The winner takes the tiles on the played cards and leads next.\n"
     "  Tiles: +1 +3 +5 +7 +10 -1 -3 -5. After 3 rounds the most points win.\n"
     "  2 players: the shadow plays too, by rule; if it beats both of you, both lose.\n",
     "巻物取りっく - 3ラウンド、各7回の力比べ。勝ってカードの上の巻物タイルを取ります。\n"
     "  各ラウンド、スタートプレイヤーが切り札を選びます。各プレイヤーは手札を3枚開き、\n"
     "  その上に巻物タイルを1枚ずつ裏向きに置きます（開いたカードも手札の一部。巻物は\n"
     "  カードと一緒に出ます）。\n"
     "  出し方: スタートプレイヤーは好きなカード。続くプレイヤーは同じ種類を出さなければ\n"
     "  なりません: 開いたカードにあればそれを先に、なければ手札の同じ種類を、どちらも\n"
     "  なければ好きなカードを。\n"
     "  勝敗: 切り札の種類を出した人が勝ち（複数なら数字の大きい方）。切り札がなければ\n"
     "  最初に出された種類で一番大きい数字。勝者は出されたカードの巻物を取り、次に先に出します。\n"
     "  巻物: +1 +3 +5 +7 +10 -1 -3 -5。3ラウンド後、得点の最も高い人の勝ち。\n"
     "  2人: 影も決まりどおりに出します。影が2人より多く得点したら2人とも負けです。\n"},
    {"timemasters",
     "Time Masters - cast spells to gain access to the five spheres; their cards are points.\n"
     "  Kè pays for spells: gold recurrent Kè (grey once spent) and ephemeral Kè (blue, at most 4,\n"
     "  gone once used). Grey Kè turns gold only by a pass, focuses, recover or effects.\n"
     "  A turn, in order:\n"
     "    1 timer phase: each full timer is activated (its spells are played this turn, free)\n"
     "      or delayed (a card from your hand face down under it)\n"
     "    2 main phase: pass (all your Kè turns gold, the turn ends at once) or, in any order:\n"
     "      play a timer, a spell (pay its Kè; into the spell zone, or set on a timer), a focus;\n"
     "      activate a timer; recover (discard 2 cards: 1 grey Kè turns gold); then done.\n"
     "      When gold and ephemeral Kè could both pay a spell, you say how: pay 1 gold 1 ephemeral\n"
     "    3 sphere access: each spell played into the spell zone is 1 access point; sphere N's\n"
     "      top card costs N points, its unseen second card N+1; one card per sphere\n"
     "    4 end phase: draw up to 5 cards minus your delay cards\n"
     "  The game ends the moment a second sphere runs empty (nothing more is taken); each card\n"
     "  is worth its level. Ties: most Kè, then most level-5 cards.\n",
     "タイムマスターズ - スペルをプレイして意識スフィアにアクセスし、カードの勝利点を集めます。\n"
     "  Kè(ケー)でスペルのコストを払います: 金色の循環のKè（使うと灰色）と一時的なKè（青、\n"
     "  4つまで、使うとなくなる）。灰色のKèが金色に戻るのはパス、フォーカス、Kè回復、効果だけ。\n"
     "  手番は順に:\n"
     "    1 タイマーフェイズ: 空きスロットのないタイマーごとに、活性化（セットしたスペルを\n"
     "      この手番中にコストなしでプレイ）か遅延（手札1枚を裏向きで下に置く）\n"
     "    2 メインフェイズ: パス（循環のKèが全て回復し、即座に手番終了）か、任意の順で:\n"
     "      タイマー、スペル（Kèを払いスペルゾーンへ、またはタイマーにセット）、フォーカスの\n"
     "      プレイ、タイマー活性化、Kè回復（手札2枚を捨てて1回復）。最後に done。\n"
     "      金色と一時的なKèのどちらでも払えるときは、払い方を選びます: pay 1 gold 1 ephemeral\n"
     "    3 スフィアアクセスフェイズ: スペルゾーンにプレイしたスペル1枚につき1アクセス\n"
     "      ポイント。レベルNの一番上はNポイント、見えない2番目はN+1。1スフィア1枚まで\n"
     "    4 エンドフェイズ: 手札を「5枚 - 遅延カードの枚数」まで補充\n"
     "  2つ目の意識スフィアの山札が尽きたら即座に終了（それ以上は獲得しない）。勝利点はレベル。\n"
     "  同点: Kèの多い方、次にレベル5のカードの多い方。\n"},
};

const char *cli_default_lang(void)
{
    /* the POSIX order: LC_ALL overrides LC_MESSAGES overrides LANG */
    const char *names[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v)
            return strncmp(v, "ja", 2) == 0 ? "ja" : "en";
    }
    return "en";
}

bool cli_print_legend(FILE *out, const char *game, const char *lang)
{
    for (size_t i = 0; i < sizeof legends / sizeof legends[0]; i++)
        if (strcmp(legends[i].game, game) == 0) {
            fputs(strcmp(lang, "ja") == 0 ? legends[i].ja : legends[i].en, out);
            return true;
        }
    return false;
}
