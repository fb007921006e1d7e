// The messages over the views, as methods of the App (app.js mixes them in): the notice (what a
// link, a lesson or a launch got wrong; it stays until dismissed or something else loads) and
// the banner (the run's failure, redrawn each cycle). Text only, through textContent.
import { element, button } from './dom.js';

// Longest notice text shown (a link's or the model's message may be long).
const NOTICE_CHARS = 600;

const $ = (id) => document.getElementById(id);

export const messages = {
  // The notice under the top bar: what is wrong with a link, or the first step a kernel of your
  // own needs. Unlike the banner (the run's failure, redrawn each cycle) it stays until
  // dismissed (x) or until something else loads. Text only (textContent).
  makeNotice() {
    const n = element('div', 'notice');
    n.id = 'notice';
    n.setAttribute('role', 'alert');
    n.hidden = true;
    const text = element('span', 'notice-text');
    n.append(text, button('notice-close', '×', 'Dismiss', () => this.hideNotice()));
    $('banner').after(n);
    this.notice = { el: n, text };
  },

  showNotice(message) {
    const t = message.length > NOTICE_CHARS ? `${message.slice(0, NOTICE_CHARS)}…` : message;
    this.notice.text.textContent = t;
    this.notice.el.hidden = false;
    document.body.dataset.notice = t;
  },

  hideNotice() {
    this.notice.el.hidden = true;
    delete document.body.dataset.notice;
  },

  // The run's failure over the views; presenting, one line (its tooltip and a click show all).
  showBanner(text) {
    const b = $('banner');
    if (b.textContent !== text) {
      b.textContent = text;
      b.title = text;
      b.classList.remove('open');
    }
    b.onclick = () => b.classList.toggle('open');
    b.hidden = false;
  },

  hideBanner() {
    $('banner').hidden = true;
  },
};
