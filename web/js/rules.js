// rules.js — a rules page: shows the section in the current language and offers the switch.
import { languageSwitch } from './i18n.js';
document.querySelector('header').append(languageSwitch(() => {}));
