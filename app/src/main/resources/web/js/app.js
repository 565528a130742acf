// Entry point: the shell (header, sign-in dialog) and the hash router. Each page module exports
// render(main, params, query) and may return a cleanup function, called when the fan leaves the page.

import {session, setSignInPrompt, signIn, ApiError} from './api.js';
import {h, clear, focusHeading, icon} from './dom.js';
import * as browse from './pages/browse.js';
import * as event from './pages/event.js';
import * as show from './pages/show.js';
import * as queue from './pages/queue.js';
import * as hold from './pages/hold.js';
import * as booking from './pages/booking.js';
import * as bookings from './pages/bookings.js';
import * as gate from './pages/gate.js';
import * as account from './pages/account.js';

const routes = [
  {pattern: /^\/?$/, page: browse, nav: 'browse'},
  {pattern: /^\/event\/([^/]+)$/, page: event, nav: 'browse'},
  {pattern: /^\/show\/([^/]+)$/, page: show, nav: 'browse'},
  {pattern: /^\/show\/([^/]+)\/queue$/, page: queue, nav: 'browse'},
  {pattern: /^\/hold\/([^/]+)$/, page: hold, nav: 'browse'},
  {pattern: /^\/booking\/([^/]+)$/, page: booking, nav: 'bookings'},
  {pattern: /^\/bookings$/, page: bookings, nav: 'bookings'},
  {pattern: /^\/account$/, page: account, nav: 'account'},
  {pattern: /^\/gate\/([^/]+)$/, page: gate, nav: 'gate'},
];

/**
 * Where the gate page is served: its own path, so its service worker (/gate/sw.js, scope /gate/) keeps
 * it for a reload without network while no service worker ever answers for the fan's pages at /.
 */
const GATE_PATH = '/gate/';

const main = document.getElementById('main');
let cleanup = null;
let renderCount = 0;

/** Test and debugging hooks: the current page's objects (the seat map among them). */
window.boxoffice = {page: null, ready: false};

async function route() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, search = ''] = hash.split('?');
  const query = new URLSearchParams(search);
  const match = routes.map(r => ({r, m: path.match(r.pattern)})).find(x => x.m);
  const gatePage = match?.r.page === gate;
  if (gatePage !== (location.pathname === GATE_PATH)) {
    location.replace(`${gatePage ? GATE_PATH : '/'}${location.hash}`);
    return;
  }
  if (cleanup) {
    try { cleanup(); } catch { /* a page that fails to clean up must not block the next */ }
    cleanup = null;
  }
  window.boxoffice.page = null;
  window.boxoffice.ready = false;
  document.querySelectorAll('[data-nav]').forEach(a => {
    if (match && a.dataset.nav === match.r.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  const count = ++renderCount;
  clear(main);
  if (!match) {
    main.append(h('section', {class: 'empty'}, h('h1', {}, 'Page not found'),
      h('p', {}, h('a', {href: '#/'}, 'See all events'))));
    focusHeading(main);
    return;
  }
  try {
    const params = match.m.slice(1).map(decodeURIComponent);
    const result = await match.r.page.render(main, params, query);
    if (count !== renderCount) {
      // the fan moved on while this page loaded
      if (typeof result === 'function') result();
      return;
    }
    cleanup = typeof result === 'function' ? result : null;
    window.boxoffice.ready = true;
    document.dispatchEvent(new CustomEvent('boxoffice:page', {detail: path}));
  } catch (e) {
    if (count !== renderCount) return;
    clear(main);
    main.append(errorPage(e));
  }
  if (!main.contains(document.activeElement) || document.activeElement === main) focusHeading(main);
}

function errorPage(e) {
  const notFound = e instanceof ApiError && e.status === 404;
  return h('section', {class: 'empty'},
    h('h1', {}, notFound ? 'Not found' : 'Something went wrong'),
    h('p', {class: 'muted'}, notFound ? 'It may have been removed, or the link is mistyped.' : e.message),
    h('p', {}, h('a', {class: 'btn btn--ghost', href: '#/'}, 'Back to all events')));
}

// ---- header: who is signed in -----------------------------------------------------------------

// Signed in, the header holds one button for the account (the avatar, and the name where there is
// room) that opens a small panel with the name and "Sign out", so the header's row is as short on a
// 320 px phone with a wide font as when signed out. A disclosure, not an ARIA menu: the panel holds
// ordinary text and an ordinary button.

let closeAccountMenu = () => {};

function renderAccount() {
  closeAccountMenu();
  const box = clear(document.getElementById('account'));
  const s = session.get();
  if (!s) {
    box.append(h('button', {class: 'btn btn--small btn--light', type: 'button',
      onclick: () => askName().catch(() => {})}, 'Sign in'));
    return;
  }
  const panel = h('div', {class: 'account__panel', id: 'account-panel', hidden: true},
    h('p', {class: 'account__who'}, 'Signed in as ', h('strong', {}, s.accountId)),
    h('a', {class: 'account__link', href: '#/account'}, 'Phone number for SMS'),
    h('button', {class: 'btn btn--small btn--ghost btn--block', type: 'button', onclick: () => {
      session.clear();
      location.hash = '#/';
    }}, 'Sign out'));
  // the name is read as "Account menu for alice"; on a phone only the avatar shows
  const button = h('button', {class: 'account__button', type: 'button', 'aria-expanded': 'false', 'aria-controls': 'account-panel'},
    h('span', {class: 'account__avatar', 'aria-hidden': 'true'}, s.accountId.slice(0, 1).toUpperCase()),
    h('span', {class: 'visually-hidden'}, 'Account menu for '),
    h('span', {class: 'account__id'}, s.accountId),
    icon('chevron'));
  const onOutside = e => { if (!box.contains(e.target)) toggle(false); };
  const onKey = e => {
    if (e.key === 'Escape') {
      toggle(false);
      button.focus();
    }
  };
  const toggle = open => {
    if (open === !panel.hidden) return;
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) {
      document.addEventListener('pointerdown', onOutside, true);
      document.addEventListener('focusin', onOutside, true);
      document.addEventListener('keydown', onKey);
    } else {
      document.removeEventListener('pointerdown', onOutside, true);
      document.removeEventListener('focusin', onOutside, true);
      document.removeEventListener('keydown', onKey);
    }
  };
  button.addEventListener('click', () => toggle(panel.hidden));
  closeAccountMenu = () => toggle(false);
  box.append(button, panel);
}

// ---- the sign-in dialog -----------------------------------------------------------------------

const dialog = document.getElementById('signin');
const form = document.getElementById('signin-form');
const input = form.elements.accountId;
const error = document.getElementById('signin-error');
let pending = null;

/** Asks for a name and signs in; resolves to the session, rejects if the fan cancels. */
function askName() {
  if (pending) return pending.promise;
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
  pending = {promise, resolve, reject};
  error.hidden = true;
  input.value = '';
  dialog.showModal();
  input.focus();
  return promise;
}

form.addEventListener('submit', async e => {
  e.preventDefault();
  const name = input.value.trim();
  if (!/^[A-Za-z0-9._@-]{1,64}$/.test(name)) {
    error.textContent = 'Please use 1 to 64 letters, digits, dots, dashes, underscores or @.';
    error.hidden = false;
    input.focus();
    return;
  }
  try {
    const s = await signIn(name);
    dialog.close('ok');
    const p = pending;
    pending = null;
    p?.resolve(s);
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
  }
});

document.getElementById('signin-cancel').addEventListener('click', () => dialog.close('cancel'));
dialog.addEventListener('close', () => {
  if (pending && dialog.returnValue !== 'ok') {
    const p = pending;
    pending = null;
    p.reject(new ApiError(401, {error: 'UNAUTHORIZED', message: 'Sign in to continue.'}));
  }
});

setSignInPrompt(askName);
session.onChange(renderAccount);
renderAccount();
window.addEventListener('hashchange', () => {
  closeAccountMenu();
  route();
});
route();
