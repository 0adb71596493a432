// timemasters_names.js — Time Masters' card names on the Japanese page (our set, src/games/timemasters/timemasters_cards.c), loaded with the game's module only.
import { addMessages } from '../i18n.js';

/* The protocol names a card in English (action texts, view fields, events: contracts); a page shows the name of
 * its language. English needs no table: a card's own name is its English one. A card not listed here (one of a
 * set loaded from a file, the `cards` option) keeps its own name on both pages. Where each name comes from (the
 * seed's wording, or ours): docs/rules/timemasters.md, "Card names in Japanese". One card a line, as
 * 'English': 'Japanese' (tests/games/timemasters/test_timemasters_names.c reads this file: every card of our
 * set has its name here). */
export const CARD_NAMES_JA = {
  // level 0, the starting deck (the seed: "スペル[Suggestion]…フォーカス…タイマー(スロット1)")
  'Suggestion': 'サジェスチョン',
  'Recovery': 'リカバリー',
  'Energy': 'エナジー',
  'Concentration': 'フォーカス',
  'Small Timer': '小さなタイマー',
  // level 1
  'Cerebral Cleaning': 'セレブラル・クリーニング',
  'Insight': '洞察',
  'Spark': '火花',
  'Second Wind': '息継ぎ',
  'Time Lightness': 'タイム・ライトネス',
  'Glimmer': '微光',
  'Meditation': '瞑想',
  'Calm Focus': '静かなフォーカス',
  'Hourglass': '砂時計',
  'Sandglass': '二連砂時計',
  // level 2
  'Time Heaviness': 'タイム・ヘヴィネス',
  'Acceleration': '加速',
  'Clarity': '明晰',
  'Wellspring': '源泉',
  'Surge': '高揚',
  'Reminiscence': '追憶',
  'Deep Cleaning': 'ディープ・クリーニング',
  'Bright Focus': '輝くフォーカス',
  'Clock': '時計',
  'Pendulum': '振り子',
  // level 3
  'Slow Down': 'スローダウン',
  'Time Warp': 'タイム・ワープ',
  'Flow': '流れ',
  'Renewal': '再生',
  'Vision': '幻視',
  'Heavy Hours': '重い時間',
  'Recollection': '回想',
  'Deep Focus': '深いフォーカス',
  'Chronometer': 'クロノメーター',
  'Sundial': '日時計',
  // level 4
  'Stasis': '停滞',
  'Leap': '跳躍',
  'Torrent': '奔流',
  'Mastery': '熟達',
  'Revelation': '啓示',
  'Purge': '浄化',
  'Gravity': '重力',
  'Pure Focus': '純粋なフォーカス',
  'Great Clock': '大時計',
  'Water Clock': '水時計',
  // level 5
  'Eternity': '永遠',
  'Time Stop': '時間停止',
  'Omniscience': '全知',
  'Infinity': '無限',
  'Oblivion': '忘却',
  'Chronomancy': '時間魔術',
  'Zenith': '天頂',
  'Featherweight': '羽根の軽さ',
};

// as messages (tmcard.NAME), which i18n.js's tmCard() reads for the log, the buttons, the events and the review
addMessages({ en: {}, ja: Object.fromEntries(Object.entries(CARD_NAMES_JA).map(([en, ja]) => [`tmcard.${en}`, ja])) });
