// Small DOM and formatting helpers shared by every page.

/**
 * Creates an element: h('button', {class: 'btn', onclick: fn, 'aria-label': 'Close'}, 'text', child).
 * Attributes starting with "on" become listeners; null/false attributes and children are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'class') {
      el.className = value;
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (key === 'style') {
      el.style.cssText = value; // through the CSSOM: the Content Security Policy refuses style attributes
    } else if (key === 'html') {
      el.innerHTML = value; // only ever used with constant markup (icons)
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child == null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Reads text to screen-reader users (polite). */
export function announce(text) {
  const region = document.getElementById('announcer');
  region.textContent = '';
  // a fresh text node makes repeated identical messages be read again
  requestAnimationFrame(() => { region.textContent = text; });
}

/** A short message in the corner that goes away by itself. */
export function toast(text, kind = 'info', millis = 4000) {
  const box = document.getElementById('toasts');
  const el = h('div', {class: `toast toast--${kind}`, role: kind === 'error' ? 'alert' : 'status'}, text);
  box.append(el);
  setTimeout(() => el.classList.add('toast--leaving'), millis);
  setTimeout(() => el.remove(), millis + 400);
}

const moneyFormats = new Map();

export function money(amount, currency) {
  let f = moneyFormats.get(currency);
  if (!f) {
    f = new Intl.NumberFormat(undefined, {style: 'currency', currency: currency || 'EUR'});
    moneyFormats.set(currency, f);
  }
  return f.format(Number(amount));
}

export function count(n) {
  return new Intl.NumberFormat().format(n);
}

export function plural(n, one, many) {
  return `${count(n)} ${n === 1 ? one : many}`;
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit',
});
const dateFormat = new Intl.DateTimeFormat(undefined, {weekday: 'short', day: 'numeric', month: 'short', year: 'numeric'});
const timeFormat = new Intl.DateTimeFormat(undefined, {hour: '2-digit', minute: '2-digit'});
const monthFormat = new Intl.DateTimeFormat(undefined, {month: 'short'});

export function dateTime(iso) {
  return dateTimeFormat.format(new Date(iso));
}

export function date(iso) {
  return dateFormat.format(new Date(iso));
}

export function time(iso) {
  return timeFormat.format(new Date(iso));
}

/** A calendar leaf: month and day, for show lists. */
export function dateBadge(iso) {
  const d = new Date(iso);
  return h('span', {class: 'datebadge', 'aria-hidden': 'true'},
    h('span', {class: 'datebadge__month'}, monthFormat.format(d)),
    h('span', {class: 'datebadge__day'}, d.getDate()));
}

/** "4:05" or "1:02:03" for a number of seconds. */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** "about 3 minutes", for estimates. */
export function roughDuration(seconds) {
  if (seconds < 60) return seconds <= 5 ? 'a few seconds' : `about ${Math.ceil(seconds / 5) * 5} seconds`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `about ${Math.round(minutes / 60)} hours`;
}

export function icon(name) {
  const paths = {
    pin: '<path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21z"/><circle cx="12" cy="9.5" r="2.5"/>',
    calendar: '<rect x="3.5" y="5" width="17" height="15" rx="2"/><path d="M3.5 10h17M8 3v4M16 3v4"/>',
    search: '<circle cx="11" cy="11" r="6.5"/><path d="M20 20l-4.2-4.2"/>',
    plus: '<path d="M12 5v14M5 12h14"/>',
    minus: '<path d="M5 12h14"/>',
    fit: '<path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5"/>',
    back: '<path d="M15 5l-7 7 7 7"/>',
    close: '<path d="M6 6l12 12M18 6L6 18"/>',
    clock: '<circle cx="12" cy="12" r="8.5"/><path d="M12 7.5V12l3 2"/>',
    ticket: '<path d="M4 8a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v2a2 2 0 0 0 0 4v2a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-2a2 2 0 0 0 0-4z"/>',
    spark: '<path d="M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5L18 18M6 18l2.5-2.5M15.5 8.5L18 6"/>',
    people: '<circle cx="9" cy="8" r="3"/><path d="M3 19a6 6 0 0 1 12 0"/><circle cx="17" cy="9" r="2.5"/><path d="M16 14.2A5 5 0 0 1 21 19"/>',
    check: '<path d="M5 12.5l4.5 4.5L19 7.5"/>',
    chevron: '<path d="M7 10l5 5 5-5"/>',
  };
  // parsed by a template so that the elements get the SVG namespace
  const t = document.createElement('template');
  t.innerHTML = `<svg class="icon icon--${name}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${paths[name] || ''}</svg>`;
  return t.content.firstChild;
}

/** Moves keyboard focus to the page's heading after a navigation, so screen readers start there. */
export function focusHeading(root) {
  const heading = root.querySelector('h1');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus({preventScroll: true});
  }
}
