// confirm.js — asking before what cannot be undone (leaving a table): a modal <dialog> with a title, what will happen, and two buttons, in the page's language.
import { el } from './dom.js';
import { t } from './i18n.js';

/** Asks TITLE with the sentence BODY; resolves true when the person chose OK (its words: the key OK), false on
 * Cancel or Escape. The native modal dialog keeps the keyboard inside it and is announced as a dialog by its
 * title (aria-labelledby) and sentence (aria-describedby); Cancel has the focus first, so a stray Enter keeps
 * things as they are. The focus goes back where it was. */
export function confirmDialog(title, body, ok) {
  const back = document.activeElement;
  return new Promise(resolve => {
    const cancel = el('button', { type: 'button', class: 'cancel', value: 'cancel' }, t('confirm.cancel'));
    const yes = el('button', { type: 'button', class: 'confirm', value: 'ok' }, t(ok));
    const dialog = el('dialog', { class: 'confirm-dialog', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-body' },
      el('h2', { id: 'confirm-title' }, title), el('p', { id: 'confirm-body' }, body),
      el('p', { class: 'buttons' }, cancel, yes));
    const done = answer => {
      dialog.close();
      dialog.remove();
      back?.focus?.({ preventScroll: true });
      resolve(answer);
    };
    cancel.addEventListener('click', () => done(false));
    yes.addEventListener('click', () => done(true));
    dialog.addEventListener('cancel', e => { e.preventDefault(); done(false); });   // Escape
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}
