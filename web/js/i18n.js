// i18n.js — every string of the pages, one message table per language (ja, en), and the language switch.
const messages = {
  en: {
    title: 'asobi — four card games', lobby: 'Lobby', games: 'Games', players: 'players', rules: 'Rules',
    create: 'Create a table', game: 'Game', options: 'Options', seats: 'Seats', person: 'a person',
    clock: 'Clock', clock_none: 'no clock', clock_move: 'seconds per move', clock_fischer: 'bank + increment',
    seconds: 'seconds', base: 'bank (s)', increment: 'increment (s)', your_name: 'Your name', sit: 'Create and sit at seat 1',
    open_tables: 'Open tables', none_open: 'No open tables.', table: 'Table', seat: 'Seat', free: 'free',
    join: 'Join', join_link: 'join link', watch: 'Watch', status_open: 'waiting for players', status_playing: 'playing',
    status_over: 'over', to_move: 'To move', you: 'you', spectator: 'You are watching (spectator).',
    your_seat: 'Your seat', legal: 'Your legal actions', no_legal: 'Nothing to do now.', log: 'Log',
    result: 'Result', rank: 'rank', score: 'score', winner: 'winner', rematch: 'Rematch', back: 'Back to the lobby',
    connecting: 'connecting…', connected: 'connected', reconnecting: 'reconnecting…', bot: 'bot', away: 'away',
    waiting: 'Waiting for players to join. Share the join links:', copy: 'copy', choose: 'Choose an action',
    cancel: 'cancel', language: '日本語', error: 'Refused', name_default: 'Player',
    timeout: 'timeout', hand: 'Hand', cards: 'cards',
    // PSYCLE
    'psycle.desc': 'Everyone picks a card 0-5 at the same time; each costs its number in gems.\nBeat the others for stars, match the target tile for the bonus; two victory tiles win.',
    'psycle.cycle': 'Cycle', 'psycle.round': 'Round', 'psycle.target': 'Target tile', 'psycle.bonus': 'Bonus tile',
    'psycle.gems': 'gems', 'psycle.points': 'points', 'psycle.vt': 'victory tiles', 'psycle.supply': 'Gem supply',
    'psycle.chosen': 'has chosen', 'psycle.thinking': 'choosing', 'psycle.cost': 'cost', 'psycle.stars': 'stars',
    'psycle.beats': 'beats', 'psycle.reveal': 'Last reveal', 'psycle.revealed': 'Tiles so far',
    // NINJA
    'ninja.desc': 'Trick-taking with open cards: win tricks to take the scroll tiles lying on them.\nHidden scrolls (巻物) score, the trump (切り札) rules; 2 players face the shadow.',
    'ninja.trump': 'Trump (切り札)', 'ninja.round': 'Round', 'ninja.trick': 'Trick', 'ninja.last_trick': 'Last trick',
    'ninja.open': 'open cards', 'ninja.scrolls': 'Scrolls (巻物) in hand', 'ninja.won': 'won', 'ninja.points': 'points',
    'ninja.phase': 'Phase', 'ninja.pile': 'pile', 'ninja.void': 'void in', 'ninja.shadow': 'shadow',
    fire: 'fire', water: 'water', wood: 'wood', metal: 'metal', earth: 'earth',
    // OCTAL
    'octal.desc': 'Shed your hand onto the dragon\'s questions in a cyclic world of 1-8.\nMeet the condition (大小同異倍約), follow the arrows, call Octo!',
    'octal.question': 'Dragon\'s question', 'octal.condition': 'condition', 'octal.reference': 'reference',
    'octal.deck': 'deck', 'octal.discards': 'discards', 'octal.finished': 'finished, rank', 'octal.octo': 'Octo!',
    'octal.override': 'override', 'octal.passes': 'passes in a row', 'octal.mode': 'mode',
    'cond.大': 'greater', 'cond.小': 'smaller', 'cond.同': 'same', 'cond.異': 'different', 'cond.倍': 'multiple', 'cond.約': 'divisor',
    // Time Masters
    'timemasters.desc': 'A deck-builder of wizards: spend Kè to cast spells, hold them on timers (タイマー) for combos.\nSpells cast open the five spheres (スフィア); their cards are your points.',
    'tm.sphere': 'Sphere', 'tm.spheres': 'Spheres (スフィア)', 'tm.level': 'level', 'tm.left': 'left', 'tm.ke': 'Kè',
    'tm.ke_ready': 'ready', 'tm.ke_spent': 'spent', 'tm.ke_eph': 'ephemeral', 'tm.timers': 'Timers (タイマー)',
    'tm.spell_zone': 'Spell zone', 'tm.access': 'access points', 'tm.deck': 'deck', 'tm.discard': 'discard',
    'tm.points': 'points', 'tm.turn': 'Turn', 'tm.phase': 'phase', 'tm.released': 'released', 'tm.empty': 'empty',
  },
  ja: {
    title: 'asobi — 4つのカードゲーム', lobby: 'ロビー', games: 'ゲーム', players: '人', rules: 'ルール',
    create: 'テーブルを作る', game: 'ゲーム', options: 'オプション', seats: '席', person: '人間',
    clock: '持ち時間', clock_none: 'なし', clock_move: '1手ごとの秒数', clock_fischer: '持ち時間+加算',
    seconds: '秒', base: '持ち時間(秒)', increment: '加算(秒)', your_name: 'あなたの名前', sit: '作って1番の席に座る',
    open_tables: '募集中のテーブル', none_open: '募集中のテーブルはありません。', table: 'テーブル', seat: '席', free: '空き',
    join: '参加', join_link: '参加リンク', watch: '観戦', status_open: '参加者待ち', status_playing: '対戦中',
    status_over: '終了', to_move: '手番', you: 'あなた', spectator: '観戦中です。',
    your_seat: 'あなたの席', legal: '選べる行動', no_legal: '今はすることがありません。', log: '記録',
    result: '結果', rank: '順位', score: '得点', winner: '勝者', rematch: 'もう一度', back: 'ロビーへ戻る',
    connecting: '接続中…', connected: '接続済み', reconnecting: '再接続中…', bot: 'ボット', away: '離席',
    waiting: '参加者を待っています。参加リンクを送ってください:', copy: 'コピー', choose: '行動を選ぶ',
    cancel: 'やめる', language: 'English', error: '拒否されました', name_default: 'プレイヤー',
    timeout: '時間切れ', hand: '手札', cards: '枚',
    'psycle.desc': '全員が同時に0〜5のカードを1枚選ぶ。数字と同じ数のジェムを払う。\n相手に勝って★を得て、ターゲットタイルと同じならボーナス。勝利タイル2枚で勝ち。',
    'psycle.cycle': 'サイクル', 'psycle.round': 'ラウンド', 'psycle.target': 'ターゲットタイル', 'psycle.bonus': 'ボーナスタイル',
    'psycle.gems': 'ジェム', 'psycle.points': '得点', 'psycle.vt': '勝利タイル', 'psycle.supply': 'ジェムのストック',
    'psycle.chosen': '選択済み', 'psycle.thinking': '選択中', 'psycle.cost': 'コスト', 'psycle.stars': '★',
    'psycle.beats': '勝つ相手', 'psycle.reveal': '直前の公開', 'psycle.revealed': 'めくられたタイル',
    'ninja.desc': '全員のカードが見えるトリックテイキング。トリックを取って上の巻物タイルを得る。\n裏向きの巻物が得点に、切り札が勝負を決める。2人では影と戦う。',
    'ninja.trump': '切り札', 'ninja.round': 'ラウンド', 'ninja.trick': 'トリック', 'ninja.last_trick': '直前のトリック',
    'ninja.open': '公開カード', 'ninja.scrolls': '手元の巻物', 'ninja.won': '獲得', 'ninja.points': '得点',
    'ninja.phase': 'フェイズ', 'ninja.pile': '山札', 'ninja.void': '欠けスート', 'ninja.shadow': '影',
    fire: '火', water: '水', wood: '木', metal: '金', earth: '土',
    'octal.desc': '1〜8がつながる世界で、竜の問いに手札を出し切るゲーム。\n条件(大小同異倍約)と矢印に従い、オクトー!を宣言しよう。',
    'octal.question': '竜の問い', 'octal.condition': '条件', 'octal.reference': '基準',
    'octal.deck': '山札', 'octal.discards': '捨て札', 'octal.finished': '上がり 順位', 'octal.octo': 'オクトー!',
    'octal.override': '上書き', 'octal.passes': '連続パス', 'octal.mode': 'モード',
    'cond.大': '大', 'cond.小': '小', 'cond.同': '同', 'cond.異': '異', 'cond.倍': '倍', 'cond.約': '約',
    'timemasters.desc': '魔法使いのデッキ構築。Kèを払って呪文を唱え、タイマーに置いてコンボ。\n唱えた呪文で5つのスフィアにアクセスし、得たカードが得点になる。',
    'tm.sphere': 'スフィア', 'tm.spheres': 'スフィア', 'tm.level': 'レベル', 'tm.left': '残り', 'tm.ke': 'Kè',
    'tm.ke_ready': '金', 'tm.ke_spent': '灰', 'tm.ke_eph': '一時', 'tm.timers': 'タイマー',
    'tm.spell_zone': 'スペルゾーン', 'tm.access': 'アクセスポイント', 'tm.deck': '山札', 'tm.discard': '捨て札',
    'tm.points': '得点', 'tm.turn': '手番', 'tm.phase': 'フェイズ', 'tm.released': '解放', 'tm.empty': '空き',
  },
};

const stored = localStorage.getItem('asobi.lang');
export let lang = stored || ((navigator.languages || [navigator.language]).find(l => /^(ja|en)/.test(l)) || 'en').slice(0, 2);
document.documentElement.lang = lang;

/** The message KEY in the current language (English, then the key itself, when missing). */
export function t(key) { return messages[lang][key] ?? messages.en[key] ?? key; }

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
