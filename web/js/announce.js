// announce.js — what the table says aloud: the live region (other players' moves, events, "your turn") and the optional soft cue for "your turn".
import { el } from './dom.js';
import { t } from './i18n.js';

/** The live region (aria-live) lives outside the redrawn page, in table.html: a screen reader hears each
 * message once, however often the page is drawn. */
const live = () => document.getElementById('live');

/** Says TEXT to screen readers (polite: after what they are reading). */
export function announce(text) {
  const region = live();
  if (!region || !text) return;
  region.append(el('p', {}, text));
  while (region.childElementCount > 5) region.firstElementChild.remove();
}

const SOUND_KEY = 'asobi.sound';
export const soundOn = () => localStorage.getItem(SOUND_KEY) === 'on';

/** The switch of the "your turn" cue: off by default, remembered on this device. */
export function soundSwitch(redraw) {
  const on = soundOn();
  return el('button', { class: 'sound', id: 'sound', 'aria-pressed': String(on), title: t('sound'),
    onclick: () => { localStorage.setItem(SOUND_KEY, on ? 'off' : 'on'); if (!on) cue(); redraw(); } },
  `♪ ${t(on ? 'sound_on' : 'sound_off')}`);
}

let audio = null;

/** A soft two-note chime (WebAudio oscillators, no sound file), when the player turned the cue on. */
export function cue() {
  if (!soundOn()) return;
  try {
    audio ??= new AudioContext();
    [660, 880].forEach((hz, k) => note(audio, hz, audio.currentTime + k * 0.16));
    document.body.dataset.cued = Number(document.body.dataset.cued ?? 0) + 1;   // tests count the cues
  } catch { /* no audio on this device: the title and the live region still say it */ }
}

function note(ctx, hz, at) {
  const osc = ctx.createOscillator(), gain = ctx.createGain();
  osc.type = 'sine';
  osc.frequency.value = hz;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(0.08, at + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + 0.32);
}
