// undo.js — taking back a move (docs/protocol.md, "Taking back"): the Undo button by the prompt line while the server allows it (the update's "undo": true), and Ctrl+Z.
import { el } from './dom.js';
import { t } from './i18n.js';

/** The Undo button of update LAST, or '' when nothing may be taken back. The server alone judges (a move that
 * showed a card or ended the turn is final), so the page only shows what the update says. */
export function undoButton(last, disabled, onUndo) {
  if (!last?.undo || last.status !== 'playing') return '';
  return el('button', { type: 'button', class: 'undo', 'data-undo': '', 'aria-keyshortcuts': 'Control+Z',
    title: t('undo.title'), disabled, onclick: onUndo }, t('undo'));
}

/** Ctrl+Z (⌘Z on a Mac) takes back while ALLOWED() says so; in a text field it stays the field's own undo. */
export function undoKeys(allowed, onUndo) {
  document.addEventListener('keydown', e => {
    if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'z') return;
    if (e.target.closest?.('input, textarea, [contenteditable="true"]') || !allowed()) return;
    e.preventDefault();
    onUndo();
  });
}
