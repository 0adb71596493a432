// rules.js — a rules page: shows the section in the current language, offers the switch, and labels the way back to the lobby.
import { t, languageSwitch } from './i18n.js';

const back = document.querySelector('header a.back');
const label = () => { back.textContent = `← ${t('back_lobby')}`; };
label();
document.querySelector('header').append(languageSwitch(label));
