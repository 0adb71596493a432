// i18n.js — every string of the pages, one message table per language (ja, en), the log in words, and the language switch.

/* Helpers of the log's sentences: NINJA's cards ("fire-5") and kinds, THE OCTAL's placings. */
const KINDS_JA = { fire: '火', water: '水', wood: '木', metal: '金', earth: '土' };
const kindEn = k => k;
const kindJa = k => KINDS_JA[k] || k;
const cardEn = c => (c || '').replace(/^(\w+)-(\d)$/, '$1 $2');
const cardJa = c => (c || '').replace(/^(\w+)-(\d)$/, (_, k, n) => `${kindJa(k)}の${n}`);
/** THE OCTAL's placings as sentences: VERB (play, lay, override) and the rest of the text,
 * "5大↑ on 2 point below Octo!", "7大↑ on 1", "8小↑ 6同↕ 3異↑ on 1". */
const OCTAL_VERBS = {
  en: { play: 'plays', lay: 'lays', override: 'overrides with' },
  ja: { play: '出した', lay: '重ねた(最後の1枚)', override: 'で上書きした' },
};
const octalParts = rest => rest.match(/^(.+?) on (\d)( point below)?( Octo!)?$/);
function octalPlay(who, rest, lang, verb = 'play') {
  const m = octalParts(rest);
  if (!m) return `${who}: ${verb} ${rest}`;
  const [, cards, q, below, octo] = m;
  if (lang === 'ja') {
    const what = verb === 'override' ? `${cards}で竜の問い${q}を上書きした` : `${cards}を竜の問い${q}に${OCTAL_VERBS.ja[verb]}`;
    return `${who}が${what}${below ? '(下の数を指す)' : ''}${octo ? '、オクトー!' : ''}`;
  }
  return verb === 'override'
    ? `${who} overrides question ${q} with ${cards}${octo ? ', calling Octo!' : ''}`
    : `${who} ${OCTAL_VERBS.en[verb]} ${cards} on question ${q}${below ? ' (pointing below)' : ''}${octo ? ', calling Octo!' : ''}`;
}
/** The same placing as a choice (a button): "Play 5大↑ on question 1", "5大↑を竜の問い1に出す". */
function octalAct(rest, lang, verb = 'play') {
  const m = octalParts(rest);
  if (!m) return `${verb} ${rest}`;
  const [, cards, q, below, octo] = m;
  if (lang === 'ja') {
    const what = { play: `${cards}を竜の問い${q}に出す`, lay: `${cards}を竜の問い${q}に重ねる(最後の1枚)`,
      override: `${cards}で竜の問い${q}を上書きする` }[verb];
    return `${what}${below ? '(下の数を指す)' : ''}${octo ? '、オクトー!' : ''}`;
  }
  const what = { play: `Play ${cards} on question ${q}`, lay: `Lay ${cards} on question ${q} (your last card)`,
    override: `Override question ${q} with ${cards}` }[verb];
  return `${what}${below ? ' (pointing below)' : ''}${octo ? ', calling Octo!' : ''}`;
}
/** Time Masters' payment (ruling 10), the text after "pay": "2 gold 1 ephemeral" (also "1 ephemeral",
 * "2 gold") in words: "2 gold and 1 ephemeral Kè", "金のKè 2と一時的なKè 1". */
function tmPay(rest, lang) {
  const gold = (rest.match(/(\d+) gold/) || [])[1], eph = (rest.match(/(\d+) eph/) || [])[1];
  if (lang === 'ja') return [gold && `金のKè ${gold}`, eph && `一時的なKè ${eph}`].filter(Boolean).join('と');
  return [gold && `${gold} gold`, eph && `${eph} ephemeral`].filter(Boolean).join(' and ') + ' Kè';
}
/** The server's own words (English: an action's text, a log line's, the reason a game ended) for a tooltip, on the
 * English page only: the other page's tooltips say nothing in English (its own words are on the line itself). */
export const serverWords = text => (lang === 'en' ? text : null);
/** A Time Masters card, named in the protocol by its English name, as this page names it: the Japanese page's
 * name (tmcard.NAME: games/timemasters_names.js, loaded with the game's module), else its own (English, or a
 * loaded set's card we have no name for). */
export const tmCard = name => t(`tmcard.${name}`, name);
/** A game's title as this page names it: the seeds' own Japanese titles on the Japanese page (gametitle.NAME),
 * else the server's (G: an entry of GET /api/games). */
export const gameTitle = g => t(`gametitle.${g.name}`, g.title);
/** The title of the game named NAME among GAMES (GET /api/games's), or NAME when it is not there. */
export const titleIn = (games, name) => { const g = games?.find(x => x.name === name); return g ? gameTitle(g) : name; };

/* The lobby's and the rules pages' words (issue 33), kept together and merged into each language's table. */
const LOBBY = {
  en: {
    quick_title: 'Play against the computer', quick_play: 'Play now', level: 'Strength',
    'level.easy': 'easy', 'level.medium': 'medium', 'level.strong': 'strong',
    quick_hint: 'You take seat 1, the computer the others; the game starts at once.',
    friends_title: 'Play with friends', friends_play: 'Create a private table',
    friends_hint: 'A table only your friends can join: its page gives an invite link and a QR code for each seat.',
    my_tables: 'My tables', return_table: 'Back to the table', see_table: 'See the table', forget: 'Forget',
    leave: 'Leave', leave_playing: 'Leave (a bot plays on)', leave_ends: 'Leave (the table ends)', more_options: 'More options (safety limits)',
    back_lobby: 'Back to the lobby', examples: 'Worked examples', example: 'Example',
  },
  ja: {
    quick_title: 'コンピューターと遊ぶ', quick_play: 'すぐに遊ぶ', level: '強さ',
    'level.easy': 'やさしい', 'level.medium': 'ふつう', 'level.strong': 'つよい',
    quick_hint: 'あなたは1番の席、ほかの席はコンピューター。すぐに始まります。',
    friends_title: '友だちと遊ぶ', friends_play: '招待制のテーブルを作る',
    friends_hint: '友だちだけが参加できるテーブル。席ごとの招待リンクとQRコードがテーブルの画面に出ます。',
    my_tables: '自分のテーブル', return_table: 'テーブルに戻る', see_table: 'テーブルを見る', forget: '消す',
    leave: '抜ける', leave_playing: '抜ける(ボットが続けます)', leave_ends: '抜ける(テーブルは終わります)', more_options: 'そのほかのオプション(安全のための上限)',
    back_lobby: 'ロビーへ戻る', examples: '具体例', example: '例',
  },
};

/* The table's words of issue 43 (round two): ties, empty lists, the shadow's early end. */
const ROUND2 = {
  en: {
    'psycle.stars_n': '{n} stars', 'psycle.stars_n.one': '{n} star',
    'prompt.act': 'Your turn: choose an action.', 'prompt.thinking': '{who} is thinking…', 'prompt.waiting': 'Waiting for {who}.',
    'prompt.psycle': 'Your turn: choose a card {lo}-{hi} (you hold {gems}).',
    'prompt.ninja.trump': 'Name the trump suit.', 'prompt.ninja.open': 'Open a card of your hand.',
    'prompt.ninja.scroll': 'Lay a scroll tile on one of your open cards.', 'prompt.ninja.flip': 'Turn up one of your scroll tiles.',
    'prompt.ninja.lead': 'Lead the trick: play any card.', 'prompt.ninja.follow': 'Play a card: follow the led suit ({suit}) if you can.',
    'prompt.octal.play': 'Play a card on a dragon\'s question.', 'prompt.octal.play_pass': 'Play a card on a dragon\'s question, or pass.',
    'prompt.octal.pass': 'No card of yours fits a question: pass.', 'prompt.octal.discard': 'Discard a card.',
    'prompt.tm.pay': 'Pay {n} Kè: choose gold or ephemeral.', 'prompt.tm.choose': 'Choose {what}.',
    'prompt.tm.timer': 'Activate or delay your full timers, then the main phase begins.',
    'prompt.tm.main': 'Play cards or pass; then end the phase.',
    'prompt.tm.access': 'Take cards from the spheres ({n} access points), then end the phase.',
    'prompt.tm.pass_phase': 'Keep each full timer with a card face down under it, or drop it.',
    'hint.tm.pass': 'Pass: play nothing; all your Kè turns gold.',
    'hint.tm.done': 'End the phase: take from the spheres, one card per spell cast.',
    join_what: 'Type your name and sit at seat {n}.', leave_sure: 'Really leave?',
    'psycle.net': 'net {n}', offline_acts: 'Reconnecting: your moves can be made again once the table is back.',
    loopback: 'These links point to this computer ({host}): a phone cannot open them. To play on other devices, start the server on the network (scripts/serve.sh --host 0.0.0.0) and open this page at the computer\'s network address, or give it the address others reach (--public-url http://ADDRESS:PORT).',
    all_moves: 'All moves ({n})', fold_moves: 'Fewer moves',
    none: 'none', placed_tied: 'You tied for {n} of {m}.', rank_tied: 'tied {n}',
    'over.ninja.shadow': 'The shadow came first at the end of round {round}, which ends the game at once.',
    'octal.not_finished': 'did not finish', 'octal.cards_left': '{n} cards left', 'octal.cards_left.one': '{n} card left',
  },
  ja: {
    'psycle.stars_n': '★{n}',
    'prompt.act': 'あなたの番: 行動を選んでください。', 'prompt.thinking': '{who}が考えています…', 'prompt.waiting': '{who}を待っています。',
    'prompt.psycle': 'あなたの番: カード{lo}〜{hi}から1枚選んでください({gems})。',
    'prompt.ninja.trump': '切り札のスートを決めてください。', 'prompt.ninja.open': '手札から1枚公開してください。',
    'prompt.ninja.scroll': '公開したカードに巻物タイルを置いてください。', 'prompt.ninja.flip': '巻物タイルを1枚めくってください。',
    'prompt.ninja.lead': 'リードです: 好きなカードを出してください。', 'prompt.ninja.follow': 'カードを出してください: 出せるならリードのスート({suit})を。',
    'prompt.octal.play': '竜の問いにカードを出してください。', 'prompt.octal.play_pass': '竜の問いにカードを出すか、パスしてください。',
    'prompt.octal.pass': '問いに合うカードがありません: パスしてください。', 'prompt.octal.discard': 'カードを1枚捨ててください。',
    'prompt.tm.pay': 'Kè {n}を払います: 金か一時的なKèかを選んでください。', 'prompt.tm.choose': '{what}を選んでください。',
    'prompt.tm.timer': '満杯のタイマーを活性化するか遅延させてください。そのあとメインフェイズです。',
    'prompt.tm.main': 'カードを出すか、パスしてください。',
    'prompt.tm.access': 'スフィアからカードを取ってください(アクセスポイント{n})。終わったらフェイズを終えます。',
    'prompt.tm.pass_phase': '満杯のタイマーごとに、手札1枚を裏向きに置いて残すか、捨ててください。',
    'hint.tm.pass': 'パス: 何もせず、Kèが全部金に戻る。',
    'hint.tm.done': 'フェイズを終える: 唱えたスペルの数だけスフィアから取る。',
    join_what: '名前を入力して、{n}番の席に座ってください。', leave_sure: '本当に抜けますか?',
    'psycle.net': '差し引き{n}点', offline_acts: '再接続中です。テーブルに戻ると、また手を選べます。',
    loopback: 'これらのリンクはこのコンピューター({host})を指しているため、スマートフォンでは開けません。ほかの端末で遊ぶには、サーバーをネットワークで起動し(scripts/serve.sh --host 0.0.0.0)、このページをコンピューターのネットワークアドレスで開くか、ほかの端末から届くアドレスを指定してください(--public-url http://アドレス:ポート)。',
    all_moves: 'すべての手({n})', fold_moves: '手をたたむ',
    none: 'なし', placed_tied: '{m}人中{n}タイでした。', rank_tied: '{n}タイ',
    'over.ninja.shadow': '第{round}ラウンドの終わりに影が1位になり、ゲームはその場で終わりました。',
    'octal.not_finished': '上がれず', 'octal.cards_left': '残り{n}枚',
  },
};

/* A first game that teaches (issue 43, point 10: teach.js): one tip a turn, in the seeds' words. */
const TEACH = {
  en: {
    'teach.hide': 'Hide tips',
    'teach.psycle.beats': 'Tip: a card beats the cards listed after “>” on it; the cards before it beat it.',
    'teach.psycle.gems': 'Tip: at the round\'s end you pay as many gems as your card\'s number; a 0 pays nothing and takes as many gems as the highest card played.',
    'teach.psycle.cycle': 'Tip: the highest total of a cycle\'s 5 rounds wins the cycle; the first to win 2 cycles wins the game.',
    'teach.ninja.follow': 'Tip: you must follow the led element if you can; your open cards count as your hand.',
    'teach.ninja.trump': 'Tip: the trump element wins the trick (the highest number of it); without trump, the highest of the led element.',
    'teach.ninja.scroll': 'Tip: an open card played takes its scroll tile with it to whoever wins the trick.',
    'teach.octal.question': 'Tip: a dragon\'s question is the top card\'s number with the condition its arrow points at: 大 with a 4 asks for a number bigger than 4.',
    'teach.octal.wrap': 'Tip: the numbers wrap around: above 8 comes 1, below 1 comes 8.',
    'teach.octal.pass': 'Tip: with no card that fits a question, pass: you draw a card.',
    'teach.octal.octo': 'Tip: when a play takes your hand from 2 cards to 1, say Octo!; forgetting it costs 2 cards.',
    'teach.timemasters.access': 'Tip: each spell you play gives an access point; then you take one card from the spheres per point.',
    'teach.timemasters.pass': 'Tip: passing turns all your grey Kè gold, but ends your turn at once: nothing else this turn.',
    'teach.timemasters.goal': 'Tip: the cards taken from the spheres score; whoever has the most points wins.',
  },
  ja: {
    'teach.hide': 'ヒントを隠す',
    'teach.psycle.beats': 'ヒント: カードは「>」の後ろに書かれたカード(このカードより弱いカード)に勝ちます。',
    'teach.psycle.gems': 'ヒント: ラウンドの終わりに、出したカードの数字と同じ数のジェムを支払います。0は支払わず、ほかの人が出した最も大きい数字と同じ数のジェムを受け取ります。',
    'teach.psycle.cycle': 'ヒント: 5ラウンドの合計得点が最も高い人がサイクルの勝者です。先に2回勝った人がゲームの勝者です。',
    'teach.ninja.follow': 'ヒント: リードと同じ種類のカードがあれば、必ずそれを出します。公開したカードも手札の一部です。',
    'teach.ninja.trump': 'ヒント: 切り札と同じ種類を出した人が力比べに勝ちます(複数なら数字の大きい方)。なければリードと同じ種類で数字の大きい方です。',
    'teach.ninja.scroll': 'ヒント: 公開したカードを出すと、上に乗っている巻物も一緒に出ます。',
    'teach.octal.question': 'ヒント: 竜の問い掛けは、いちばん上のカードの数字と、その矢印が指すカードの条件で決まります(条件が[大]で数字が4なら「4より大きい数」)。',
    'teach.octal.wrap': 'ヒント: 数は両端がつながっています(8より大きい値は1、1より小さい値は8)。',
    'teach.octal.pass': 'ヒント: 条件を満たすカードがなければ、パスして1枚引きます。',
    'teach.octal.octo': 'ヒント: 手札が2枚から1枚になるときは「オクト!」を宣言します。忘れると2枚引きます。',
    'teach.timemasters.access': 'ヒント: スペルカードを1枚プレイするとアクセスポイントを1獲得し、その数だけ意識スフィアからカードを獲得します。',
    'teach.timemasters.pass': 'ヒント: パスすると灰色のKèが全て金色に戻りますが、ほかのアクションは実行できず、即座に手番が終了します。',
    'teach.timemasters.goal': 'ヒント: 意識スフィアから獲得したカードが勝利点になります。最も多く稼いだ人の勝ちです。',
  },
};

const messages = {
  en: {
    ...LOBBY.en,
    title: 'asobi — four card games', lobby: 'Lobby', games: 'Games', players: 'players', rules: 'Rules',
    create: 'Create a table', game: 'Game', options: 'Options', seats: 'Seats', person: 'a person',
    clock: 'Clock', clock_none: 'no clock', clock_move: 'seconds per move', clock_fischer: 'bank + increment',
    seconds: 'seconds', base: 'bank (s)', increment: 'increment (s)', your_name: 'Your name', sit: 'Create and sit at seat 1',
    open_tables: 'Open tables', none_open: 'No open tables.', more_tables: 'Older tables', table: 'Table', seat: 'Seat', free: 'free',
    join: 'Join', join_link: 'join link', watch: 'Watch', status_open: 'waiting for players', status_playing: 'playing',
    status_over: 'over', to_move: 'To move', your_move: 'Your move', you: 'you', spectator: 'You are watching (spectator).',
    your_seat: 'Your seat', legal: 'Your legal actions', no_legal: 'Nothing to do now.', log: 'Log',
    result: 'Result', rank: 'Rank', score: 'Score', winner: 'winner', rematch: 'Rematch', back: 'Back to the lobby',
    watch_rematch: 'Watch the rematch',
    players_label: 'Players',
    // Private tables and chosen deals (docs/server.md, "Deals and private tables")
    private_label: 'Invite only (play with friends): the join links carry a code, and the table is not listed',
    private_table: 'A private table: friends join with the links that carry its invite codes.',
    private_no_links: 'The join links of the free seats are on the page of the person who created the table.',
    watch_link: 'To watch (without a seat):',
    invite_needed: 'This table is private: join it with a link that carries its invite code.',
    seed_chosen: 'The deal was chosen by the table\'s creator, who may know every hand.',
    seed_chosen_short: 'deal chosen by its creator',
    // The lobby's options and bots (opt.GAME.OPTION, .help, .CHOICE; bot.NAME); the engine's own words when missing.
    'opt.psycle.max_cycles': 'Cycle limit',
    'opt.psycle.max_cycles.help': 'A safety cap: the game stops after this many cycles (replayed ties included), and the seats with the most victory tiles share the win.',
    'opt.ninja.start_player': 'Start player',
    'opt.ninja.start_player.help': 'Who leads round 1. The sheet says: whoever most recently watched or read a ninja story.',
    'opt.ninja.start_player.drawn': 'drawn by lot',
    'opt.octal.mode': 'Mode', 'opt.octal.mode.help': 'Twin: two dragon\'s questions (3-5 players, the easier mode). Single: one question (3-6 players).',
    'opt.octal.mode.twin': 'twin (two questions)', 'opt.octal.mode.single': 'single (one question)',
    'opt.octal.mode.auto': 'auto (twin for 3-5 players, single for 6)',
    'opt.octal.ranks': 'Places played for',
    'opt.octal.ranks.help': 'Play on until this many players have emptied their hands (2 or 3 with 5-6 players only).',
    'opt.octal.max_turns': 'Turn limit',
    'opt.octal.max_turns.help': 'A safety cap: the game stops after this many turns; fewer cards in hand then rank better.',
    'opt.octal.twin_same_condition': 'Twin questions alike',
    'opt.octal.twin_same_condition.help': 'In twin mode, when both questions come out the same (letter and number) at set-up: exchange question 2\'s condition card until they differ, or keep them.',
    'opt.octal.twin_same_condition.exchange': 'exchange question 2\'s card',
    'opt.octal.twin_same_condition.keep': 'keep them',
    'opt.timemasters.cards': 'Card set',
    'opt.timemasters.cards.help': 'Our own set, a set this server has loaded, or a card file of yours (JSON, in the format of docs/rules/timemasters.md).',
    'opt.timemasters.cards.ours': 'our own set', 'opt.timemasters.cards.file': 'from a file…',
    'opt.timemasters.max_turns': 'Turn limit',
    'opt.timemasters.max_turns.help': 'A safety cap: the game ends after this many turns (all players together) and is scored as usual.',
    'bot.random': 'random moves', 'bot.heuristic': 'rules of thumb', 'bot.ismcts': 'ISMCTS search',
    'bot.psycle-nash': 'Nash equilibrium',
    won: 'You won!', won_shared: 'You share the win!', placed: 'You placed {n} of {m}.',
    'ord.one': 'st', 'ord.two': 'nd', 'ord.few': 'rd', 'ord.other': 'th',
    connecting: 'connecting…', connected: 'connected', reconnecting: 'reconnecting…', bot: 'bot', away: 'away',
    waiting: 'Waiting for players to join. Share the join links (or let phones scan the codes):', qr_of: 'QR code of the join link,', copy: 'copy', choose: 'Choose an action',
    cancel: 'cancel', language: '日本語', error: 'Refused', name_default: 'Player',
    timeout: 'timeout', hand: 'Hand', cards: '{n} cards', 'cards.one': '{n} card',
    // PSYCLE
    'psycle.desc': 'Everyone picks a card 0-5 at the same time; each costs its number in gems.\nBeat the others for stars, match the target tile for the bonus; two victory tiles win.',
    'psycle.cycle': 'Cycle', 'psycle.round': 'Round', 'psycle.target': 'Target tile', 'psycle.bonus': 'Bonus tile',
    'psycle.gems': '{n} gems', 'psycle.gems.one': '{n} gem', 'psycle.points': '{n} points', 'psycle.points.one': '{n} point',
    'psycle.vt': '{n} victory tiles', 'psycle.vt.one': '{n} victory tile', 'psycle.supply': 'Gem supply',
    'psycle.chosen': 'has chosen', 'psycle.thinking': 'choosing', 'psycle.cost': 'cost', 'psycle.stars': 'stars',
    'psycle.beats': 'beats', 'psycle.reveal': 'Last reveal', 'psycle.revealed': 'Tiles so far',
    // NINJA
    'ninja.desc': 'Trick-taking with open cards: win tricks to take the scroll tiles lying on them.\nHidden scrolls (巻物) score, the trump (切り札) rules; 2 players face the shadow.',
    'ninja.trump': 'Trump (切り札)', 'ninja.round': 'Round', 'ninja.trick': 'Trick', 'ninja.last_trick': 'Last trick',
    'ninja.open': 'open cards', 'ninja.scrolls': 'Scrolls (巻物) in hand', 'ninja.won': 'won', 'ninja.points': 'points',
    'ninja.phase': 'Phase', 'ninja.pile': 'pile', 'ninja.void': 'void in', 'ninja.shadow': 'shadow',
    'ninja.shadow_won': 'The shadow won with {points} points: it is ranked with the players, so nobody at the table won.',
    'ninja.shadow_lost': 'The shadow, ranked with the players, made {points} points.',
    fire: 'fire', water: 'water', wood: 'wood', metal: 'metal', earth: 'earth',
    // OCTAL
    'octal.desc': 'Shed your hand onto the dragon\'s questions in a cyclic world of 1-8.\nMeet the condition (大小同異倍約), follow the arrows, call Octo!',
    'octal.question': 'Dragon\'s question', 'octal.condition': 'condition', 'octal.reference': 'reference',
    // What the next card must be (§④), and the last action in words (the view's last.action)
    'octal.rule.大': 'greater than {n}', 'octal.rule.小': 'smaller than {n}', 'octal.rule.同': 'the same as {n}',
    'octal.rule.異': 'different from {n}', 'octal.rule.倍': 'a multiple of {n}', 'octal.rule.約': 'a divisor of {n}',
    'octal.rule.all': 'any number card, laid on the ALL',
    'octal.arrow.↑': 'arrow up', 'octal.arrow.↕': 'arrow up and down',
    'octal.last.play': '{who} played on question {q}', 'octal.last.lay': '{who} laid their last card on question {q}',
    'octal.last.override': '{who} overrode question {q}', 'octal.last.pass': '{who} passed',
    'octal.last.discard': '{who} discarded a card', 'octal.last.octo': '{who} called Octo!',
    'octal.penalty': '{who} drew {n} for a forgotten Octo!',
    'octal.deck': 'deck', 'octal.discards': 'discards', 'octal.finished': 'finished, rank', 'octal.octo': 'Octo!',
    'octal.override': 'override', 'octal.passes': 'passes in a row', 'octal.mode': 'Mode',
    'cond.大': 'greater', 'cond.小': 'smaller', 'cond.同': 'same', 'cond.異': 'different', 'cond.倍': 'multiple', 'cond.約': 'divisor',
    // Time Masters
    'timemasters.desc': 'A deck-builder of wizards: spend Kè to cast spells, hold them on timers (タイマー) for combos.\nSpells cast open the five spheres (スフィア); their cards are your points.',
    'tm.sphere': 'Sphere', 'tm.spheres': 'Spheres (スフィア)', 'tm.level': 'level', 'tm.left': 'left', 'tm.ke': 'Kè',
    'tm.ke_ready': 'ready', 'tm.ke_spent': 'spent', 'tm.ke_eph': 'ephemeral', 'tm.timers': 'Timers (タイマー)',
    'tm.spell_zone': 'Spell zone', 'tm.access': 'access points', 'tm.deck': 'deck', 'tm.discard': 'discard',
    'tm.points': 'points', 'tm.turn': 'Turn', 'tm.phase': 'phase', 'tm.released': 'released', 'tm.delay': 'delay', 'tm.empty': 'empty',
    // phases and modes as the view names them
    'phase.ninja.trump': 'choosing the trump', 'phase.ninja.open': 'opening cards', 'phase.ninja.scroll': 'laying scrolls',
    'phase.ninja.flip': 'turning up scrolls', 'phase.ninja.battle': 'tricks', 'phase.ninja.over': 'over',
    'phase.timemasters.timer': 'timers', 'phase.timemasters.main': 'main', 'phase.timemasters.pass': 'after a pass',
    'phase.timemasters.access': 'access', 'phase.timemasters.over': 'over',
    'mode.octal.twin': 'twin (two questions)', 'mode.octal.single': 'single (one question)',
    'choice.timemasters.recover': 'a card to discard (recover)', 'choice.timemasters.remove': 'a card to remove',
    'choice.timemasters.delay': 'a card to put face down under the timer', 'choice.timemasters.focus_back': 'a card to take back (focus)',
    'choice.timemasters.pay': 'how gold and ephemeral Kè pay for',
    // the log in words: log.GAME.VERB, a template ({who}, {rest}: the text after the verb) or a function (who, rest)
    'log.psycle.play': '{who} plays {rest}', 'log.psycle.chooses': '{who} has chosen a card (face down)',
    'log.ninja.trump': (w, r) => `${w} names ${kindEn(r)} as trump`, 'log.ninja.open': (w, r) => `${w} opens ${cardEn(r)}`,
    'log.ninja.scroll': (w, r) => { const [v, c] = r.split(' on '); return `${w} lays the scroll ${v} on ${cardEn(c)}`; },
    'log.ninja.lays': (w, r) => `${w} lays a scroll face down on ${cardEn(r.split(' on ')[1])}`,
    'log.ninja.flip': (w, r) => `${w} turns up the scroll on ${cardEn(r)}`, 'log.ninja.play': (w, r) => `${w} plays ${cardEn(r)}`,
    'log.octal.play': (w, r) => octalPlay(w, r, 'en'), 'log.octal.pass': '{who} passes',
    'log.octal.discard': (w, r) => r === 'a card face down' ? `${w} discards a card face down` : `${w} discards ${r}`,
    'log.octal.Octo!': '{who} calls Octo!', 'log.octal.override': (w, r) => octalPlay(w, r, 'en', 'override'),
    'log.octal.lay': (w, r) => octalPlay(w, r, 'en', 'lay'),
    'log.timemasters.play': '{who} plays {rest}', 'log.timemasters.pick': '{who} picks {rest}',
    'log.timemasters.take': (w, r) => { const [n, second] = r.split(' '); return `${w} takes ${second ? 'the face-down second card' : 'the top card'} of sphere ${n}`; },
    'log.timemasters.activate': '{who} activates timer {rest}', 'log.timemasters.release': '{who} releases {rest}',
    'log.timemasters.set': (w, r) => { const [c, n] = r.split(' on '); return `${w} sets ${c} on timer ${n}`; },
    'log.timemasters.delay': '{who} delays timer {rest}', 'log.timemasters.drop': '{who} drops timer {rest} with its spells',
    'log.timemasters.recover': '{who} recovers (discards 2 cards to turn a grey Kè gold)', 'log.timemasters.done': '{who} ends the phase',
    'log.timemasters.end': '{who} ends the phase', 'log.timemasters.pass': '{who} passes', 'log.timemasters.puts': '{who} puts {rest}',
    'log.timemasters.pay': (w, r) => `${w} pays ${tmPay(r, 'en')}`,
    // Legal actions in words, for buttons and menus (act.GAME.VERB: a template of {rest} or a function of it).
    'act.psycle.play': 'Play {rest}',
    'act.ninja.trump': r => `Name ${kindEn(r)} as trump`, 'act.ninja.open': r => `Open ${cardEn(r)}`,
    'act.ninja.scroll': r => { const [v, c] = r.split(' on '); return `Lay the scroll ${v} on ${cardEn(c)}`; },
    'act.ninja.flip': r => `Turn up the scroll on ${cardEn(r)}`, 'act.ninja.play': r => `Play ${cardEn(r)}`,
    'act.octal.play': r => octalAct(r, 'en'), 'act.octal.lay': r => octalAct(r, 'en', 'lay'),
    'act.octal.override': r => octalAct(r, 'en', 'override'), 'act.octal.pass': 'Pass', 'act.octal.discard': 'Discard {rest}',
    'act.octal.Octo!': 'Call Octo!',
    'act.timemasters.play': 'Play {rest}', 'act.timemasters.pick': 'Pick {rest}',
    'act.timemasters.take': r => { const [n, second] = r.split(' '); return `Take the ${second ? 'face-down second card' : 'top card'} of sphere ${n}`; },
    'act.timemasters.activate': 'Activate timer {rest}', 'act.timemasters.release': 'Release {rest}',
    'act.timemasters.set': r => { const [c, n] = r.split(' on '); return `Set ${c} on timer ${n}`; },
    'act.timemasters.delay': 'Delay timer {rest}', 'act.timemasters.drop': 'Drop timer {rest} with its spells',
    'act.timemasters.recover': 'Recover (discard 2 cards to turn a grey Kè gold)', 'act.timemasters.done': 'End the phase',
    'act.timemasters.pass': 'Pass', 'act.timemasters.pay': r => `Pay ${tmPay(r, 'en')}`,
    // taking back and asking first (issue 44: undo.js, confirm.js)
    undo: 'Undo', 'undo.title': 'Take back your last move (Ctrl+Z)', 'undo.log': '{who} took back: {what}',
    'confirm.cancel': 'Cancel',
    'leave_playing.what': 'A bot plays your seat to the end of the game, and you cannot take it back.',
    'leave_ends.what': 'Nobody else plays at this table: it ends, and you cannot come back to it.',
    'leave.what': 'A bot plays your seat once the game starts, and you cannot take it back.',
    // chat (issue 44: chat.js)
    chat: 'Chat', chat_send: 'Send', chat_placeholder: 'Say something…', chat_unread: 'Chat ({n})',
    chat_seat: 'seat {n}', chat_spectator: 'spectator', chat_bot: 'bot', chat_spectators: 'spectators',
    chat_mute: 'Mute {who}', chat_unmute: 'Unmute {who}', chat_phrases: 'Quick phrases', chat_empty: 'Nothing said yet.',
    chat_turn_off: 'Turn chat off', chat_turn_on: 'Turn chat on', chat_is_off: 'Chat is off on this device.',
    chat_wall: 'Spectators’ lines reach the players once the game is over.', chat_replay: 'Chat up to move {k}',
    'phrase.hi': 'Hello!', 'phrase.gl': 'Good luck!', 'phrase.wp': 'Well played', 'phrase.ty': 'Thanks',
    'phrase.oops': 'Oops', 'phrase.think': 'Thinking…', 'phrase.gg': 'Good game',
  },
  ja: {
    ...LOBBY.ja,
    // the seeds' own titles: 巻物取りっく (NINJA's sheet), タイム・マスターズ (the wiki page), ～オクタル～ (THE OCTAL's)
    'gametitle.ninja': '巻物取りっく', 'gametitle.timemasters': 'タイム・マスターズ', 'gametitle.octal': 'THE OCTAL(オクタル)',
    title: 'asobi — 4つのカードゲーム', lobby: 'ロビー', games: 'ゲーム', players: '人', rules: 'ルール',
    create: 'テーブルを作る', game: 'ゲーム', options: 'オプション', seats: '席', person: '人間',
    clock: '持ち時間', clock_none: 'なし', clock_move: '1手ごとの秒数', clock_fischer: '持ち時間+加算',
    seconds: '秒', base: '持ち時間(秒)', increment: '加算(秒)', your_name: 'あなたの名前', sit: '作って1番の席に座る',
    open_tables: '募集中のテーブル', none_open: '募集中のテーブルはありません。', more_tables: 'もっと前のテーブル', table: 'テーブル', seat: '席', free: '空き',
    join: '参加', join_link: '参加リンク', watch: '観戦', status_open: '参加者待ち', status_playing: '対戦中',
    status_over: '終了', to_move: '手番', your_move: 'あなたの番', you: 'あなた', spectator: '観戦中です。',
    your_seat: 'あなたの席', legal: '選べる行動', no_legal: '今はすることがありません。', log: '記録',
    result: '結果', rank: '順位', score: '得点', winner: '勝者', rematch: 'もう一度', back: 'ロビーへ戻る',
    watch_rematch: '再戦を観戦する',
    players_label: '人数',
    private_label: '招待制(友だちと遊ぶ): 参加リンクに招待コードが付き、テーブルは一覧に出ません',
    private_table: '招待制のテーブルです。友だちは招待コード付きのリンクから参加します。',
    private_no_links: '空いている席の参加リンクは、テーブルを作った人の画面にあります。',
    watch_link: '観戦用リンク(席なし):',
    invite_needed: 'このテーブルは招待制です。招待コード付きのリンクから参加してください。',
    seed_chosen: '配り(シード)はテーブルを作った人が選びました。その人は全員の手札を知りえます。',
    seed_chosen_short: '作成者が配りを選択',
    'opt.psycle.max_cycles': 'サイクル上限',
    'opt.psycle.max_cycles.help': '安全のための上限: このサイクル数(同点のやり直しを含む)で終わり、勝利タイルが最も多い席が勝利を分け合います。',
    'opt.ninja.start_player': 'スタートプレイヤー',
    'opt.ninja.start_player.help': '第1ラウンドのスタートプレイヤー。ルールでは「1番最近忍者が出てくる作品を見たり読んだりした人」です。',
    'opt.ninja.start_player.drawn': 'くじで決める',
    'opt.octal.mode': 'モード', 'opt.octal.mode.help': 'ツイン: 竜の問い2つ(3-5人、やさしいモード)。シングル: 竜の問い1つ(3-6人)。',
    'opt.octal.mode.twin': 'ツイン(竜の問い2つ)', 'opt.octal.mode.single': 'シングル(竜の問い1つ)',
    'opt.octal.mode.auto': '自動(3-5人はツイン、6人はシングル)',
    'opt.octal.ranks': '何位まで決めるか',
    'opt.octal.ranks.help': 'この人数が手札を出し切るまで続けます(2位・3位まで決めるのは5-6人のときだけ)。',
    'opt.octal.max_turns': '手番の上限',
    'opt.octal.max_turns.help': '安全のための上限: この手番数で終わり、手札の少ない人ほど上位になります。',
    'opt.octal.twin_same_condition': 'ツインで問いが同じとき',
    'opt.octal.twin_same_condition.help': 'ツインモードの準備で2つの竜の問いが同じ(文字と数字)になったとき、違うものになるまで問い2の条件カードを交換するか、そのままにするか。',
    'opt.octal.twin_same_condition.exchange': '問い2のカードを交換',
    'opt.octal.twin_same_condition.keep': 'そのまま',
    'opt.timemasters.cards': 'カードセット',
    'opt.timemasters.cards.help': '私たちのオリジナルセット、このサーバーが読み込んだセット、または手元のカードファイル(JSON、形式は docs/rules/timemasters.md)。',
    'opt.timemasters.cards.ours': 'オリジナルセット', 'opt.timemasters.cards.file': 'ファイルから…',
    'opt.timemasters.max_turns': '手番の上限',
    'opt.timemasters.max_turns.help': '安全のための上限: この手番数(全員の合計)で終わり、通常どおり得点を数えます。',
    'bot.random': 'ランダム', 'bot.heuristic': '定石', 'bot.ismcts': 'ISMCTSの探索',
    'bot.psycle-nash': 'ナッシュ均衡',
    won: 'あなたの勝ち!', won_shared: 'あなたも勝者です(同点)!', placed: '{m}人中{n}でした。',
    connecting: '接続中…', connected: '接続済み', reconnecting: '再接続中…', bot: 'ボット', away: '離席',
    waiting: '参加者を待っています。参加リンクを送るか、スマートフォンでコードを読み取ってください:', qr_of: '参加リンクのQRコード:', copy: 'コピー', choose: '行動を選ぶ',
    cancel: 'やめる', language: 'English', error: '拒否されました', name_default: 'プレイヤー',
    timeout: '時間切れ', hand: '手札', cards: '{n}枚',
    'psycle.desc': '全員が同時に0〜5のカードを1枚選ぶ。数字と同じ数のジェムを払う。\n相手に勝って★を得て、ターゲットタイルと同じならボーナス。勝利タイル2枚で勝ち。',
    'psycle.cycle': 'サイクル', 'psycle.round': 'ラウンド', 'psycle.target': 'ターゲットタイル', 'psycle.bonus': 'ボーナスタイル',
    'psycle.gems': 'ジェム {n}', 'psycle.points': '得点 {n}', 'psycle.vt': '勝利タイル {n}枚', 'psycle.supply': 'ジェムのストック',
    'psycle.chosen': '選択済み', 'psycle.thinking': '選択中', 'psycle.cost': 'コスト', 'psycle.stars': '★',
    'psycle.beats': '勝つ相手', 'psycle.reveal': '直前の公開', 'psycle.revealed': 'めくられたタイル',
    'ninja.desc': '全員のカードが見えるトリックテイキング。トリックを取って上の巻物タイルを得る。\n裏向きの巻物が得点に、切り札が勝負を決める。2人では影と戦う。',
    'ninja.trump': '切り札', 'ninja.round': 'ラウンド', 'ninja.trick': 'トリック', 'ninja.last_trick': '直前のトリック',
    'ninja.open': '公開カード', 'ninja.scrolls': '手元の巻物', 'ninja.won': '獲得', 'ninja.points': '得点',
    'ninja.phase': 'フェイズ', 'ninja.pile': '山札', 'ninja.void': '欠けスート', 'ninja.shadow': '影',
    'ninja.shadow_won': '影が{points}点で勝ちました。影もプレイヤーと一緒に順位がつくので、卓の誰も勝者ではありません。',
    'ninja.shadow_lost': 'プレイヤーと一緒に順位がつく影は{points}点でした。',
    fire: '火', water: '水', wood: '木', metal: '金', earth: '土',
    'octal.desc': '1〜8がつながる世界で、竜の問いに手札を出し切るゲーム。\n条件(大小同異倍約)と矢印に従い、オクトー!を宣言しよう。',
    'octal.question': '竜の問い', 'octal.condition': '条件', 'octal.reference': '基準',
    'octal.rule.大': '{n}より大きい数', 'octal.rule.小': '{n}より小さい数', 'octal.rule.同': '{n}と同じ数',
    'octal.rule.異': '{n}と異なる数', 'octal.rule.倍': '{n}の倍数', 'octal.rule.約': '{n}の約数',
    'octal.rule.all': 'ALLの上に好きな数値カード',
    'octal.arrow.↑': '上向きの矢印', 'octal.arrow.↕': '上下の矢印',
    'octal.last.play': '{who}が竜の問い{q}に出した', 'octal.last.lay': '{who}が竜の問い{q}に最後の1枚を重ねた',
    'octal.last.override': '{who}が竜の問い{q}を上書きした', 'octal.last.pass': '{who}はパスした',
    'octal.last.discard': '{who}が1枚捨てた', 'octal.last.octo': '{who}がオクトー!を宣言した',
    'octal.penalty': '{who}がオクトー!を忘れて{n}枚引いた',
    'octal.deck': '山札', 'octal.discards': '捨て札', 'octal.finished': '上がり 順位', 'octal.octo': 'オクトー!',
    'octal.override': '上書き', 'octal.passes': '連続パス', 'octal.mode': 'モード',
    'cond.大': '大', 'cond.小': '小', 'cond.同': '同', 'cond.異': '異', 'cond.倍': '倍', 'cond.約': '約',
    'timemasters.desc': '魔法使いのデッキ構築。Kèを払って呪文を唱え、タイマーに置いてコンボ。\n唱えた呪文で5つのスフィアにアクセスし、得たカードが得点になる。',
    'tm.sphere': 'スフィア', 'tm.spheres': 'スフィア', 'tm.level': 'レベル', 'tm.left': '残り', 'tm.ke': 'Kè',
    'tm.ke_ready': '金', 'tm.ke_spent': '灰', 'tm.ke_eph': '一時', 'tm.timers': 'タイマー',
    'tm.spell_zone': 'スペルゾーン', 'tm.access': 'アクセスポイント', 'tm.deck': '山札', 'tm.discard': '捨て札',
    'tm.points': '得点', 'tm.turn': '手番', 'tm.phase': 'フェイズ', 'tm.released': '解放', 'tm.delay': '遅延', 'tm.empty': '空き',
    'phase.ninja.trump': '切り札を決める', 'phase.ninja.open': 'カードを公開', 'phase.ninja.scroll': '巻物を置く',
    'phase.ninja.flip': '巻物をめくる', 'phase.ninja.battle': 'トリック', 'phase.ninja.over': '終了',
    'phase.timemasters.timer': 'タイマー', 'phase.timemasters.main': 'メイン', 'phase.timemasters.pass': 'パスの後',
    'phase.timemasters.access': 'アクセス', 'phase.timemasters.over': '終了',
    'mode.octal.twin': 'ツイン(竜の問い2つ)', 'mode.octal.single': 'シングル(竜の問い1つ)',
    'choice.timemasters.recover': '捨てるカード(リカバー)', 'choice.timemasters.remove': '除外するカード',
    'choice.timemasters.delay': 'タイマーの下に伏せるカード', 'choice.timemasters.focus_back': '手札に戻すカード(フォーカス)',
    'choice.timemasters.pay': '金と一時的なKèでの払い方:',
    'log.psycle.play': '{who}が{rest}を出した', 'log.psycle.chooses': '{who}がカードを伏せて選んだ',
    'log.ninja.trump': (w, r) => `${w}が切り札を${kindJa(r)}にした`, 'log.ninja.open': (w, r) => `${w}が${cardJa(r)}を公開した`,
    'log.ninja.scroll': (w, r) => { const [v, c] = r.split(' on '); return `${w}が${cardJa(c)}に巻物${v}を置いた`; },
    'log.ninja.lays': (w, r) => `${w}が${cardJa(r.split(' on ')[1])}に巻物を裏向きに置いた`,
    'log.ninja.flip': (w, r) => `${w}が${cardJa(r)}の巻物をめくった`, 'log.ninja.play': (w, r) => `${w}が${cardJa(r)}を出した`,
    'log.octal.play': (w, r) => octalPlay(w, r, 'ja'), 'log.octal.pass': '{who}はパスした',
    'log.octal.discard': (w, r) => r === 'a card face down' ? `${w}がカードを1枚伏せて捨てた` : `${w}が${r}を捨てた`,
    'log.octal.Octo!': '{who}がオクトー!を宣言した', 'log.octal.override': (w, r) => octalPlay(w, r, 'ja', 'override'),
    'log.octal.lay': (w, r) => octalPlay(w, r, 'ja', 'lay'),
    'log.timemasters.play': (w, r) => `${w}が${tmCard(r)}を使った`, 'log.timemasters.pick': (w, r) => `${w}が${tmCard(r)}を選んだ`,
    'log.timemasters.take': (w, r) => { const [n, second] = r.split(' '); return `${w}がスフィア${n}の${second ? '裏向きの2枚目' : '一番上'}のカードを取った`; },
    'log.timemasters.activate': '{who}がタイマー{rest}を起動した', 'log.timemasters.release': (w, r) => `${w}が${tmCard(r)}を解放した`,
    'log.timemasters.set': (w, r) => { const [c, n] = r.split(' on '); return `${w}が${tmCard(c)}をタイマー${n}にセットした`; },
    'log.timemasters.delay': '{who}がタイマー{rest}を遅延させた', 'log.timemasters.drop': '{who}がタイマー{rest}を呪文ごと捨てた',
    'log.timemasters.recover': '{who}がリカバーした(手札2枚を捨てて灰のKèを金に)', 'log.timemasters.done': '{who}がフェイズを終えた',
    'log.timemasters.end': '{who}がフェイズを終えた', 'log.timemasters.pass': '{who}はパスした',
    'log.timemasters.puts': (w, r) => `${w}がタイマー${r.split(' ').pop()}の下にカードを1枚伏せて置いた`,
    'log.timemasters.pay': (w, r) => `${w}が${tmPay(r, 'ja')}で払った`,
    'act.psycle.play': '{rest}を出す',
    'act.ninja.trump': r => `切り札を${kindJa(r)}にする`, 'act.ninja.open': r => `${cardJa(r)}を公開する`,
    'act.ninja.scroll': r => { const [v, c] = r.split(' on '); return `${cardJa(c)}に巻物${v}を置く`; },
    'act.ninja.flip': r => `${cardJa(r)}の巻物をめくる`, 'act.ninja.play': r => `${cardJa(r)}を出す`,
    'act.octal.play': r => octalAct(r, 'ja'), 'act.octal.lay': r => octalAct(r, 'ja', 'lay'),
    'act.octal.override': r => octalAct(r, 'ja', 'override'), 'act.octal.pass': 'パスする', 'act.octal.discard': '{rest}を捨てる',
    'act.octal.Octo!': 'オクトー!を宣言する',
    'act.timemasters.play': r => `${tmCard(r)}を使う`, 'act.timemasters.pick': r => `${tmCard(r)}を選ぶ`,
    'act.timemasters.take': r => { const [n, second] = r.split(' '); return `スフィア${n}の${second ? '裏向きの2枚目' : '一番上'}のカードを取る`; },
    'act.timemasters.activate': 'タイマー{rest}を起動する', 'act.timemasters.release': r => `${tmCard(r)}を解放する`,
    'act.timemasters.set': r => { const [c, n] = r.split(' on '); return `${tmCard(c)}をタイマー${n}にセットする`; },
    'act.timemasters.delay': 'タイマー{rest}を遅延させる', 'act.timemasters.drop': 'タイマー{rest}を呪文ごと捨てる',
    'act.timemasters.recover': 'リカバーする(手札2枚を捨てて灰のKèを金に)', 'act.timemasters.done': 'フェイズを終える',
    'act.timemasters.pass': 'パスする', 'act.timemasters.pay': r => `${tmPay(r, 'ja')}で払う`,
    // taking back and asking first (issue 44: undo.js, confirm.js)
    undo: '取り消す', 'undo.title': '直前の手を取り消す(Ctrl+Z)', 'undo.log': '{who}が取り消した: {what}',
    'confirm.cancel': 'キャンセル',
    'leave_playing.what': 'ゲームの終わりまでボットがあなたの席でプレイします。席には戻れません。',
    'leave_ends.what': 'このテーブルでプレイする人はほかにいないため、テーブルは終わります。戻ることはできません。',
    'leave.what': 'ゲームが始まるとボットがあなたの席でプレイします。席には戻れません。',
    // chat (issue 44: chat.js)
    chat: 'チャット', chat_send: '送信', chat_placeholder: 'ひとこと…', chat_unread: 'チャット({n})',
    chat_seat: '席{n}', chat_spectator: '観戦者', chat_bot: 'ボット', chat_spectators: '観戦者',
    chat_mute: '{who}をミュート', chat_unmute: '{who}のミュートを解除', chat_phrases: '定型文', chat_empty: 'まだ発言はありません。',
    chat_turn_off: 'チャットを切る', chat_turn_on: 'チャットを表示する', chat_is_off: 'この端末ではチャットを切っています。',
    chat_wall: '観戦者の発言は、対局が終わるとプレイヤーにも届きます。', chat_replay: '{k}手目までのチャット',
    'phrase.hi': 'こんにちは!', 'phrase.gl': 'よろしくお願いします!', 'phrase.wp': 'お見事!', 'phrase.ty': 'ありがとう',
    'phrase.oops': 'おっと', 'phrase.think': '考え中…', 'phrase.gg': 'ありがとうございました',
  },
};

/* The table page's words (issue 33): joining, pacing and the live region, bots by level, leavers, why a game
 * ended and what its score means, Time Masters' cards in words, replay, sound; and the events of the log
 * (ev.GAME.TYPE, a function of the event's fields and a way to name seats: docs/protocol.md, "Events"). */
const nth = n => `${n}${{ one: 'st', two: 'nd', few: 'rd', other: 'th' }[new Intl.PluralRules('en', { type: 'ordinal' }).select(n)]}`;
const signed = n => (n > 0 ? `+${n}` : `${n}`);
const list = (xs, f = x => x) => xs.map(f).join(', ');
const listJa = (xs, f = x => x) => xs.map(f).join('、');
const tableMessages = {
  en: {
    'psycle.card_label': 'Card {n}: cost {n} gems, {stars} stars, beats {beats}',
    rules_link: 'Rules of this game', sit_here: 'Sit here', sit_at: 'Sit at seat {n}', name_remembered: 'remembered on this device',
    seat_taken: 'Seat {n} is already taken.', watch_instead: 'Watch the game', take_seat: 'Take seat {n}',
    join_failed: 'Could not sit down: {why}',
    bot_named: 'Bot {n} ({level})',   // level.easy|medium|strong: with the lobby's words
    away_for: 'away', grace_left: 'a bot plays for them in {s} s', handed_to_bot: 'a bot plays for them until they return',
    handed_notice: '{who} is away: a bot plays their seat until they come back.',
    left_notice: '{who} left the table: a bot plays their seat to the end.', left_badge: 'left: a bot plays for them',
    back_notice: 'Welcome back: your seat is yours again.',
    back_played: 'While you were away a bot played {n} moves for you. Your seat is yours again.', 'back_played.one': 'While you were away a bot played a move for you. Your seat is yours again.',
    your_turn_live: 'Your turn.', last_move: 'last move', event: 'event',
    sound: 'A soft sound when it is your turn (off by default)', sound_on: 'Sound on', sound_off: 'Sound off',
    why_over: 'Why it ended', score_means: 'What the score means',
    'score.psycle': 'The score is the victory tiles each player won: two win the game. A cycle\'s points only decide who takes that cycle\'s tile.',
    'score.ninja': 'The score is the scroll points of the tiles won in the tricks of the three rounds.',
    'score.octal': 'THE OCTAL is a race: the rank is the finishing order, first to empty their hand first.',
    'score.timemasters': 'The score is the points of the cards taken from the spheres (each card\'s level). Ties: more Kè, then more level-5 cards.',
    'over.psycle': '{who} won a second victory tile.', 'over.psycle.capped': 'The cycle limit was reached: the most victory tiles share the win.',
    'over.ninja': 'Three rounds were played.', 'over.octal': '{who} emptied their hand first: the places are decided.',
    'over.octal.capped': 'The turn limit was reached: fewer cards in hand ranked better.',
    'over.timemasters': 'A second sphere ran out, which ends the game at once.',
    'over.timemasters.capped': 'The turn limit was reached; the game was scored as usual.',
    replay: 'Replay', 'replay.first': 'First', 'replay.prev': 'Previous', 'replay.next': 'Next', 'replay.last': 'Last',
    'replay.step': 'Move {k} of {n}', 'replay.keys': 'Arrow keys step through the game.',
    // Time Masters' cards in words, from the effect primitives (docs/rules/timemasters.md)
    'tmc.spell': 'Spell', 'tmc.focus': 'Focus', 'tmc.timer': 'Timer', 'tmc.level': 'level {n}', 'tmc.cost': '{n} Kè',
    'tmc.free': 'free', 'tmc.slots': '{n} slots', 'tmc.slots.one': '{n} slot', 'tmc.on_set': 'when a spell is set on it: {e}', 'tmc.on_discard': 'when discarded: {e}',
    'tmc.no_effect': 'no effect', 'tmc.points': 'worth {n} points', 'tmc.points.one': 'worth {n} point',
    'eff.ephemeral': 'gain {n} ephemeral Kè', 'eff.ready': 'turn {n} spent (grey) Kè gold', 'eff.new_ke': 'gain {n} new recurrent Kè',
    'eff.draw': 'draw {n} cards', 'eff.draw.one': 'draw a card', 'eff.remove': 'remove {n} cards of your hand from the game', 'eff.remove.one': 'remove a card of your hand from the game',
    'eff.focus_back': 'take {n} focus cards from your discard into your hand', 'eff.focus_back.one': 'take a focus card from your discard into your hand', 'eff.heavy': 'each opponent\'s next spell costs {n} more Kè',
    'eff.slow': 'each opponent may spend at most {n} Kè next turn', 'eff.light': 'your next spell costs {n} less Kè',
    // events (docs/protocol.md, "Events"): N names a seat (the shadow too)
    'ev.game_over': (e, N) => (e.winners?.length ? `The game is over: ${list(e.winners, N)} win${e.winners.length > 1 ? '' : 's'}.` : 'The game is over: nobody won.'),
    'ev.psycle.reveal': (e, N) => `Round ${e.round} is revealed (target ${e.target}, bonus +${e.bonus}): ${list(e.cards.map((c, s) => `${N(s)} ${c}`))}.`,
    'ev.psycle.round_score': (e, N) => `${N(e.seat)} played ${e.card}: ${signed(e.gems)} gems, ${e.points} points (${e.total} this cycle).`,
    'ev.psycle.cycle_end': (e, N) => (e.replayed ? `Cycle ${e.cycle} ends in a tie: it is played again.`
      : `Cycle ${e.cycle} ends (scores ${list(e.scores)}): ${list(e.winners, N)} take${e.winners.length > 1 ? '' : 's'} a victory tile.`),
    'ev.psycle.round_start': e => `Round ${e.round} of cycle ${e.cycle}: target ${e.target}, bonus +${e.bonus}.`,
    'ev.ninja.shadow_row': (e, N, C) => `The shadow lays its row: ${list(e.cards, C)}; the tile on ${C(e.cards[0])} is ${signed(e.tile)}.`,
    'ev.ninja.shadow_plays': (e, N, C) => `The shadow plays ${C(e.card)}.`,
    'ev.ninja.flip_start': (e, N) => `${N(e.seat)} must turn up ${e.count === 1 ? '1 of their tiles' : `${e.count} of their tiles`} (${e.points} points).`,
    'ev.ninja.tile_flipped': (e, N, C) => `${N(e.seat)} turns up the tile on ${C(e.card)}: ${signed(e.tile)}.`,
    'ev.ninja.battle_start': (e, N) => `The tricks begin: ${N(e.seat)} leads.`,
    'ev.ninja.trick_won': (e, N, C) => `${e.shadow ? 'The shadow' : N(e.seat)} wins the trick with ${C(e.card)}${e.tiles?.length ? ` and takes ${list(e.tiles, signed)}` : ''} (${e.points} points).`,
    'ev.ninja.shadow_opens': (e, N, C) => `The shadow opens ${C(e.card)}${e.tile === null ? ' and lays a tile on it face down' : ''}.`,
    'ev.ninja.shadow_tile_up': (e, N, C) => `The shadow's tile on ${C(e.card)} is turned up: ${signed(e.tile)}.`,
    'ev.ninja.round_end': (e, N) => `Round ${e.round} ends: ${list(e.points.map((p, s) => `${N(s)} ${p}`))}${e.shadow_points !== undefined ? `, the shadow ${e.shadow_points}` : ''}.`,
    'ev.ninja.tiles_drawn': (e, N) => `${N(e.seat)} draws ${e.count === 1 ? 'a tile' : `${e.count} tiles`}${e.tiles ? `: ${list(e.tiles, signed)}` : ''}.`,
    'ev.ninja.round_start': (e, N) => `Round ${e.round} begins: ${N(e.seat)} chooses the trump.`,
    'ev.octal.penalty': (e, N) => `${N(e.seat)} forgot to call Octo! and draws ${e.count}${e.cards ? `: ${list(e.cards)}` : ''}.`,
    'ev.octal.draw': (e, N) => `${N(e.seat)} draws ${e.count === 1 ? 'a card' : `${e.count} cards`}${e.cards ? `: ${list(e.cards)}` : ''}.`,
    'ev.octal.refill': e => `The deck is refilled with ${e.count} cards (${e.deck} in the deck).`,
    'ev.octal.finish': (e, N) => `${N(e.seat)} has no cards left and finishes ${nth(e.place)}.`,
    'ev.timemasters.draw': (e, N) => `${N(e.seat)} draws ${e.count === 1 ? 'a card' : `${e.count} cards`}${e.cards ? `: ${list(e.cards)}` : ''}.`,
    'ev.timemasters.reshuffle': (e, N) => `${N(e.seat)} shuffles ${e.count} discarded cards into a new deck.`,
    'ev.timemasters.ke_gained': (e, N) => `${N(e.seat)} gains ${e.count} ${e.kind} Kè.`,
    'ev.timemasters.ke_readied': (e, N) => `${N(e.seat)} turns ${e.count} spent Kè gold.`,
    'ev.timemasters.ke_spent': (e, N) => `${N(e.seat)} pays ${[e.gold && `${e.gold} gold`, e.ephemeral && `${e.ephemeral} ephemeral`].filter(Boolean).join(' and ')} Kè.`,
    'ev.timemasters.reminder': (e, N) => (e.limit ? `${N(e.seat)} may spend at most ${e.limit} Kè next turn.`
      : `${N(e.seat)}'s next spell costs ${Math.abs(e.cost)} ${e.cost > 0 ? 'more' : 'less'} Kè.`),
    'ev.timemasters.reminder_used': (e, N) => (e.limit ? `${N(e.seat)}'s limit of ${e.limit} Kè ends with its turn.`
      : `${N(e.seat)}'s reminder (${Math.abs(e.cost)} ${e.cost > 0 ? 'more' : 'less'} Kè) is used up.`),
    'ev.timemasters.ke_lost': (e, N) => `${N(e.seat)} loses ${e.count} ${e.kind} Kè to the cap of ${e.cap}.`,
    'ev.timemasters.card_removed': (e, N) => `${N(e.seat)} removes ${e.card} from the game.`,
    'ev.timemasters.timer_released': (e, N) => `${N(e.seat)}'s timer ${e.timer} goes off: ${list(e.spells)} released.`,
    'ev.timemasters.timer_discarded': (e, N) => `${N(e.seat)} discards timer ${e.timer} (${e.card})${e.spells?.length ? ` with ${list(e.spells)}` : ''}.`,
    // points: the taker's, told to the taker only until the game is over (docs/protocol.md)
    'ev.timemasters.card_taken': (e, N) => `${N(e.seat)} takes ${e.card ?? 'the hidden second card'} from sphere ${e.level}${e.points === undefined ? '' : ` (${e.points} points)`}.`,
    'ev.timemasters.sphere_top': e => `Sphere ${e.level} now shows ${e.card}.`,
    'ev.timemasters.sphere_emptied': e => `Sphere ${e.level} is empty (${e.empty} empty).`,
    'ev.timemasters.turn_start': (e, N) => `Turn ${e.turn}: ${N(e.seat)} plays.`,
    // game review (issue 46: review.js)
    review: 'Review', 'review.ask': 'Review {name}\'s game', 'review.mine': 'Review my game', 'review.queued': 'The review is queued…',
    'review.running': 'The bot is reviewing the game…', 'review.progress': 'Reviewing: {k} of {n} decisions…',
    'review.failed': 'The review failed.', 'review.error': 'The review was refused ({code}).',
    'review.summary': 'Accuracy {accuracy}: {i}, {m}, {b}.', 'review.n_inaccuracy': '{n} inaccuracies',
    'review.n_inaccuracy.one': '{n} inaccuracy', 'review.n_mistake': '{n} mistakes', 'review.n_mistake.one': '{n} mistake',
    'review.n_blunder': '{n} blunders', 'review.n_blunder.one': '{n} blunder',
    'review.curve': '{name}\'s winning chances over the game, as the bot judged each decision',
    'review.inaccuracy': 'Inaccuracy', 'review.mistake': 'Mistake', 'review.blunder': 'Blunder',
    'review.at': 'Move {k}: {label} — {move}', 'review.clean': 'No inaccuracy: every decision agreed with the bot or nearly.',
    'review.hint': 'Step to one of the seat\'s decisions to see the bot\'s opinion.',
    'review.before': 'The board before move {k}, where the seat decided:',
    'review.played': 'Played: {move} ({value})', 'review.best': 'The bot\'s best: {move} ({value})',
    'review.moves': 'Every move the bot weighed, with the chance to win after it', 'review.move': 'Move',
    'review.value': 'Win chance',
    // the table in the page's language (tmja): NINJA's scroll tiles' tooltips, what parts a Time Masters card's effects
    'ninja.face_up': 'face up', 'ninja.face_down': 'face down', 'tmc.sep': ', ',
  },
  ja: {
    'psycle.card_label': 'カード{n}: コスト ジェム{n}、★{stars}、勝つ相手 {beats}',
    rules_link: 'このゲームのルール', sit_here: 'ここに座る', sit_at: '{n}番の席に座る', name_remembered: 'この端末に記憶されます',
    seat_taken: '{n}番の席はもう埋まっています。', watch_instead: '観戦する', take_seat: '{n}番の席に座る',
    join_failed: '座れませんでした: {why}',
    bot_named: 'ボット{n}({level})',
    away_for: '離席中', grace_left: 'あと{s}秒でボットが代わりに打ちます', handed_to_bot: '戻るまでボットが代わりに打ちます',
    handed_notice: '{who}が離席中: 戻るまでボットが代わりに打ちます。',
    left_notice: '{who}はテーブルを去りました。最後までボットが代わりに打ちます。', left_badge: '退席: ボットが代わりに打ちます',
    back_notice: 'おかえりなさい。席はあなたに戻りました。',
    back_played: '離席中にボットがあなたの代わりに{n}手打ちました。席はあなたに戻りました。',
    your_turn_live: 'あなたの番です。', last_move: '直前の手', event: 'できごと',
    sound: 'あなたの番になったら小さな音で知らせる(最初はオフ)', sound_on: '音あり', sound_off: '音なし',
    why_over: '終わった理由', score_means: '得点の意味',
    'score.psycle': '得点は獲得した勝利タイルの枚数です。2枚で勝ち。各サイクルの点数は、そのサイクルのタイルを誰が取るかだけを決めます。',
    'score.ninja': '得点は3ラウンドのトリックで獲得した巻物タイルの点数の合計です。',
    'score.octal': 'THE OCTALは競争です。順位は上がった順(最初に手札を出し切った人が1位)です。',
    'score.timemasters': '得点はスフィアから得たカードの点数(カードのレベル)の合計です。同点ならKèの多い人、次にレベル5のカードの多い人。',
    'over.psycle': '{who}が2枚目の勝利タイルを取りました。', 'over.psycle.capped': 'サイクル上限に達しました。勝利タイルが最も多い人が勝利を分け合います。',
    'over.ninja': '3ラウンドが終わりました。', 'over.octal': '{who}が最初に手札を出し切り、順位が決まりました。',
    'over.octal.capped': '手番の上限に達しました。手札の少ない人ほど上位です。',
    'over.timemasters': '2つ目のスフィアが空になり、ゲームはその場で終わりました。',
    'over.timemasters.capped': '手番の上限に達しました。通常どおり得点を数えました。',
    replay: 'リプレイ', 'replay.first': '最初', 'replay.prev': '前へ', 'replay.next': '次へ', 'replay.last': '最後',
    'replay.step': '{n}手中{k}手目', 'replay.keys': '矢印キーで1手ずつ進めます。',
    'tmc.spell': 'スペル', 'tmc.focus': 'フォーカス', 'tmc.timer': 'タイマー', 'tmc.level': 'レベル{n}', 'tmc.cost': 'Kè {n}',
    'tmc.free': '無料', 'tmc.slots': 'スロット{n}', 'tmc.on_set': 'スペルをセットしたとき: {e}', 'tmc.on_discard': '捨てたとき: {e}',
    'tmc.no_effect': '効果なし', 'tmc.points': '{n}点',
    'eff.ephemeral': '一時的なKèを{n}得る', 'eff.ready': '灰のKèを{n}つ金にする', 'eff.new_ke': '循環のKèを{n}つ増やす',
    'eff.draw': 'カードを{n}枚引く', 'eff.remove': '手札を{n}枚ゲームから除外する',
    'eff.focus_back': '捨て札のフォーカスを{n}枚手札に戻す', 'eff.heavy': '相手全員の次のスペルのコストが{n}増える',
    'eff.slow': '相手全員は次の手番にKèを{n}までしか使えない', 'eff.light': '自分の次のスペルのコストが{n}減る',
    'ev.game_over': (e, N) => (e.winners?.length ? `ゲーム終了: ${listJa(e.winners, N)}の勝ち。` : 'ゲーム終了: 勝者なし。'),
    'ev.psycle.reveal': (e, N) => `ラウンド${e.round}の公開(ターゲット${e.target}、ボーナス+${e.bonus}): ${listJa(e.cards.map((c, s) => `${N(s)} ${c}`))}。`,
    'ev.psycle.round_score': (e, N) => `${N(e.seat)}は${e.card}: ジェム${signed(e.gems)}、${e.points}点(このサイクル${e.total}点)。`,
    'ev.psycle.cycle_end': (e, N) => (e.replayed ? `サイクル${e.cycle}は同点: やり直します。`
      : `サイクル${e.cycle}終了(得点 ${listJa(e.scores)}): ${listJa(e.winners, N)}が勝利タイルを取った。`),
    'ev.psycle.round_start': e => `サイクル${e.cycle}のラウンド${e.round}: ターゲット${e.target}、ボーナス+${e.bonus}。`,
    'ev.ninja.shadow_row': (e, N, C) => `影の列: ${listJa(e.cards, C)}。${C(e.cards[0])}の巻物は${signed(e.tile)}。`,
    'ev.ninja.shadow_plays': (e, N, C) => `影が${C(e.card)}を出した。`,
    'ev.ninja.flip_start': (e, N) => `${N(e.seat)}は巻物を${e.count}枚めくる(${e.points}点)。`,
    'ev.ninja.tile_flipped': (e, N, C) => `${N(e.seat)}が${C(e.card)}の巻物をめくった: ${signed(e.tile)}。`,
    'ev.ninja.battle_start': (e, N) => `トリック開始: ${N(e.seat)}がリード。`,
    'ev.ninja.trick_won': (e, N, C) => `${e.shadow ? '影' : N(e.seat)}が${C(e.card)}でトリックを取った${e.tiles?.length ? `(巻物 ${listJa(e.tiles, signed)})` : ''}。${e.points}点。`,
    'ev.ninja.shadow_opens': (e, N, C) => `影が${C(e.card)}を公開した${e.tile === null ? '(巻物は裏向き)' : ''}。`,
    'ev.ninja.shadow_tile_up': (e, N, C) => `影の${C(e.card)}の巻物がめくられた: ${signed(e.tile)}。`,
    'ev.ninja.round_end': (e, N) => `ラウンド${e.round}終了: ${listJa(e.points.map((p, s) => `${N(s)} ${p}点`))}${e.shadow_points !== undefined ? `、影 ${e.shadow_points}点` : ''}。`,
    'ev.ninja.tiles_drawn': (e, N) => `${N(e.seat)}が巻物を${e.count}枚引いた${e.tiles ? `: ${listJa(e.tiles, signed)}` : ''}。`,
    'ev.ninja.round_start': (e, N) => `ラウンド${e.round}開始: ${N(e.seat)}が切り札を決める。`,
    'ev.octal.penalty': (e, N) => `${N(e.seat)}がオクトー!を忘れて${e.count}枚引いた${e.cards ? `: ${listJa(e.cards)}` : ''}。`,
    'ev.octal.draw': (e, N) => `${N(e.seat)}が${e.count}枚引いた${e.cards ? `: ${listJa(e.cards)}` : ''}。`,
    'ev.octal.refill': e => `山札を補充: ${e.count}枚(山札は${e.deck}枚)。`,
    'ev.octal.finish': (e, N) => `${N(e.seat)}が手札を出し切って${e.place}位で上がった。`,
    'ev.timemasters.draw': (e, N) => `${N(e.seat)}が${e.count}枚引いた${e.cards ? `: ${listJa(e.cards, tmCard)}` : ''}。`,
    'ev.timemasters.reshuffle': (e, N) => `${N(e.seat)}が捨て札${e.count}枚を切り直して山札にした。`,
    'ev.timemasters.ke_gained': (e, N) => `${N(e.seat)}が${e.kind === 'ephemeral' ? '一時的な' : '循環の'}Kèを${e.count}得た。`,
    'ev.timemasters.ke_readied': (e, N) => `${N(e.seat)}の灰のKè ${e.count}つが金に戻った。`,
    'ev.timemasters.ke_spent': (e, N) => `${N(e.seat)}が${[e.gold && `金のKè ${e.gold}`, e.ephemeral && `一時的なKè ${e.ephemeral}`].filter(Boolean).join('と')}を払った。`,
    'ev.timemasters.reminder': (e, N) => (e.limit ? `${N(e.seat)}は次の手番にKèを${e.limit}までしか使えない。`
      : `${N(e.seat)}の次のスペルのコストが${Math.abs(e.cost)}${e.cost > 0 ? '増える' : '減る'}。`),
    'ev.timemasters.reminder_used': (e, N) => (e.limit ? `${N(e.seat)}のKè ${e.limit}までの制限が手番とともに終わった。`
      : `${N(e.seat)}のリマインダー(コスト${Math.abs(e.cost)}${e.cost > 0 ? '増' : '減'})が使われた。`),
    'ev.timemasters.ke_lost': (e, N) => `${N(e.seat)}は${e.kind === 'ephemeral' ? '一時的な' : '循環の'}Kèを${e.count}失った(上限${e.cap})。`,
    'ev.timemasters.card_removed': (e, N) => `${N(e.seat)}が${tmCard(e.card)}をゲームから除外した。`,
    'ev.timemasters.timer_released': (e, N) => `${N(e.seat)}のタイマー${e.timer}が発動: ${listJa(e.spells, tmCard)}が解放された。`,
    'ev.timemasters.timer_discarded': (e, N) => `${N(e.seat)}がタイマー${e.timer}(${tmCard(e.card)})を捨てた${e.spells?.length ? `(${listJa(e.spells, tmCard)}も)` : ''}。`,
    'ev.timemasters.card_taken': (e, N) => `${N(e.seat)}がスフィア${e.level}から${e.card ? tmCard(e.card) : '裏向きの2枚目'}を取った${e.points === undefined ? '' : `(${e.points}点)`}。`,
    'ev.timemasters.sphere_top': e => `スフィア${e.level}の一番上は${tmCard(e.card)}になった。`,
    'ev.timemasters.sphere_emptied': e => `スフィア${e.level}が空になった(空は${e.empty}つ)。`,
    'ev.timemasters.turn_start': (e, N) => `手番${e.turn}: ${N(e.seat)}の番。`,
    // game review (issue 46: review.js)
    review: '振り返り', 'review.ask': '{name}の対局を振り返る', 'review.mine': '自分の対局を振り返る', 'review.queued': '振り返りの順番待ちです…',
    'review.running': 'ボットが対局を振り返っています…', 'review.progress': '振り返り中: {n}手中{k}手…',
    'review.failed': '振り返りに失敗しました。', 'review.error': '振り返りを受け付けられませんでした({code})。',
    'review.summary': '正確さ{accuracy}: {i}、{m}、{b}。', 'review.n_inaccuracy': '不正確{n}', 'review.n_mistake': '悪手{n}',
    'review.n_blunder': '大悪手{n}',
    'review.curve': '{name}の勝つ見込みの推移(ボットが各判断を評価)',
    'review.inaccuracy': '不正確', 'review.mistake': '悪手', 'review.blunder': '大悪手',
    'review.at': '{k}手目: {label} — {move}', 'review.clean': '不正確な手はありません: どの判断もボットとほぼ同じです。',
    'review.hint': 'この席の判断の手へ進むと、ボットの見立てが出ます。',
    'review.before': '{k}手目の直前、この席が判断した局面です:',
    'review.played': '指した手: {move}({value})', 'review.best': 'ボットの最善手: {move}({value})',
    'review.moves': 'ボットが検討した手と、その後の勝つ見込み', 'review.move': '手',
    'review.value': '勝つ見込み',
    // the table in the page's language (tmja): NINJA's scroll tiles' tooltips, what parts a Time Masters card's effects
    'ninja.face_up': '表向き', 'ninja.face_down': '裏向き', 'tmc.sep': '、',
  },
};
Object.assign(messages.en, tableMessages.en, ROUND2.en, TEACH.en);
Object.assign(messages.ja, tableMessages.ja, ROUND2.ja, TEACH.ja);

/* Accounts and ratings as the lobby and a table say them (issue 42: standing.js, seats.js, join.js, lobby.js);
 * the account pages' own words are in messages_accounts.js, loaded by those pages only. */
const ACCOUNTS = {
  en: {
    'acct.sign_in': 'Sign in', 'acct.signed_in_as': 'Signed in as',
    'acct.error.account_required': 'This table is rated: sign in (in the lobby) to sit at it.', rated: 'rated',
    rated_choice: 'Rated: every seat needs an account, and the result changes the ratings',
    'rating.provisional': 'provisional', 'seat.rating': 'rating {r}', 'board.title': 'Leaderboard',
    'board.nav': 'Pages',
  },
  ja: {
    'acct.sign_in': 'ログイン', 'acct.signed_in_as': 'ログイン中:',
    'acct.error.account_required': 'レーティング対象のテーブルです。座るには(ロビーで)ログインしてください。', rated: 'レーティング対象',
    rated_choice: 'レーティング対象: 全員にアカウントが必要で、結果がレーティングに反映されます', 'rating.provisional': '暫定', 'seat.rating': 'レーティング {r}',
    'board.title': 'ランキング', 'board.nav': 'ページ',
  },
};
Object.assign(messages.en, ACCOUNTS.en);
Object.assign(messages.ja, ACCOUNTS.ja);

const stored = localStorage.getItem('asobi.lang');
export let lang = stored || ((navigator.languages || [navigator.language]).find(l => /^(ja|en)/.test(l)) || 'en').slice(0, 2);
document.documentElement.lang = lang;

/** The message KEY in the current language (English, then FALLBACK, the key itself by default, when missing). */
/** A screen's own message tables ({en, ja}), added by the module of a page that alone uses them (the account
 * pages' words: messages_accounts.js), so that the other pages never load them. */
export function addMessages(tables) {
  Object.assign(messages.en, tables.en);
  Object.assign(messages.ja, tables.ja);
}

export function t(key, fallback = key) { return messages[lang][key] ?? messages.en[key] ?? fallback; }

/** The message KEY with its {NAME}s filled from VARS: tf('octal.last.play', { who: 'Aki', q: 1 }). */
export function tf(key, vars) { return fill(t(key), vars); }
const fill = (template, vars) => template.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? `${vars[name]}` : whole));

/** N things in words, from the language's template with {n}: "1 gem", "5 gems", "ジェム 5", "5枚". KEY.one,
 * in a language that has it (English), is the template for exactly one. SIGNED shows a gain with its plus. */
export function count(n, key, signed = false) {
  const template = (Math.abs(n) === 1 && messages[lang][`${key}.one`]) || t(key);
  return fill(template, { n: signed && n >= 0 ? `+${n}` : n });
}

/** A place among M, for the result: "You placed 2nd of 3." / "3人中2位でした。" (English ordinals by the
 * language's own rules, Intl.PluralRules). */
export function placed(n, m, tied = false) {
  return tf(tied ? 'placed_tied' : 'placed', { n: ordinal(n), m });
}

/** A place in words: "2nd" in English, "2位" in Japanese. */
export function ordinal(n) {
  return lang === 'en' ? `${n}${t(`ord.${new Intl.PluralRules('en', { type: 'ordinal' }).select(n)}`)}` : `${n}位`;
}

/** A log event in words: "Aki plays 3" / "Akiが3を出した". TEXT is the action as the server told this
 * viewer (its own in full, the others' public texts); its first word picks the sentence of GAME
 * (log.GAME.VERB); an unknown text is shown as it is, after the name. */
export function phrase(game, who, text) {
  const [form, rest] = formOf('log', game, text);
  if (!form) return `${who}: ${text}`;
  try {
    return typeof form === 'function' ? form(who, rest) : fill(form, { who, rest });
  } catch { return `${who}: ${text}`; }
}

/** A legal action in words, for its button or menu entry: "Open fire 1" / "火の1を公開する" (act.GAME.VERB).
 * The text itself stays what is sent (data-action); an unknown text is shown as it is. */
export function actionLabel(game, text) {
  const [form, rest] = formOf('act', game, text);
  if (!form) return text;
  try { return typeof form === 'function' ? form(rest) : fill(form, { rest }); } catch { return text; }
}

/** The message of TEXT under KIND (log, act) for GAME: the whole text's (PSYCLE's "chooses", "Octo!"), else
 * its first word's; and the rest of the text after that word. */
function formOf(kind, game, text) {
  const key = k => messages[lang][`${kind}.${game}.${k}`] ?? messages.en[`${kind}.${game}.${k}`];
  const space = text.indexOf(' ');
  const verb = space < 0 ? text : text.slice(0, space), rest = space < 0 ? '' : text.slice(space + 1);
  return [key(text) ?? key(verb), rest];
}

/** A button that switches the language and calls onChange to redraw. */
export function languageSwitch(onChange) {
  const b = document.createElement('button');
  b.className = 'lang'; b.id = 'lang-switch';
  const label = () => { b.textContent = t('language'); };
  label();
  b.addEventListener('click', () => {
    lang = lang === 'ja' ? 'en' : 'ja';
    localStorage.setItem('asobi.lang', lang);
    document.documentElement.lang = lang;
    label(); onChange();
  });
  return b;
}

/** An event of the log in words (docs/protocol.md, "Events"): ev.GAME.TYPE (or ev.TYPE for every game's)
 * from the event's fields; NAME names a seat (null: the shadow), CARD a card of the game. The event's own
 * text (English) for a type this page does not know, or when its fields are not as expected. */
export function eventPhrase(game, entry, name, card = c => c) {
  const e = entry.event ?? {};
  const form = t(`ev.${game}.${e.type}`, null) ?? t(`ev.${e.type}`, null);
  if (typeof form !== 'function') return entry.text;
  try { return form(e, name, card); } catch { return entry.text; }
}

/** NINJA's card ("fire-5") in the page's words: "fire 5", "火の5". */
export const cardWords = c => (lang === 'ja' ? cardJa(c) : cardEn(c));
