// A ticket's live entry code: the QR of the ticket's signed code for the current 15-second step, with
// a countdown to the next. The service hands the holder ten minutes of signed codes at once (GET
// …/tickets/{seat}/rotating), each with its QR code as a grid of modules, so the code keeps changing
// with no network until they run out; the page fetches the next ten minutes in the background long
// before that. The page never encodes a QR code itself: it only draws the modules it was given.

import {api, serverNow} from './api.js';
import {h, clear} from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Fetch the next codes once fewer steps than this are left (5 minutes), and again every 30 s until it works. */
const REFILL_BELOW = 20;
const RETRY_MS = 30_000;

/** Draws a QR code's modules ({size, modules}: base64url bits, row by row) as an SVG with its quiet zone. */
export function qrSvg({size, modules}, label) {
  const bits = Uint8Array.from(atob(modules.replace(/-/g, '+').replace(/_/g, '/')), c => c.charCodeAt(0));
  const dark = i => (bits[i >> 3] & (0x80 >> (i & 7))) !== 0;
  let d = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size;) {
      if (!dark(y * size + x)) { x++; continue; }
      let run = 1;
      while (x + run < size && dark(y * size + x + run)) run++;
      d += `M${x + 4} ${y + 4}h${run}v1h-${run}z`;
      x += run;
    }
  }
  const svg = document.createElementNS(SVG, 'svg');
  const side = size + 8;
  for (const [k, v] of Object.entries({viewBox: `0 0 ${side} ${side}`, role: 'img', 'aria-label': label,
    'shape-rendering': 'crispEdges', class: 'livecode__qr'})) svg.setAttribute(k, v);
  const background = document.createElementNS(SVG, 'rect');
  for (const [k, v] of Object.entries({width: side, height: side, fill: '#fff'})) background.setAttribute(k, v);
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', d);
  path.setAttribute('fill', '#000');
  svg.append(background, path);
  return svg;
}

/**
 * One ticket's live code; `label` names the QR image for screen readers. Returns {element, tick}:
 * tick() redraws when the step changes and moves the countdown; the page calls it a few times a
 * second for all its tickets.
 */
export function liveCode(bookingId, seatId, label) {
  const path = `/v1/bookings/${encodeURIComponent(bookingId)}/tickets/${encodeURIComponent(seatId)}/rotating`;
  const box = h('div', {class: 'livecode__box is-loading'});
  const seconds = h('strong', {class: 'livecode__seconds'}, '');
  const bar = h('span', {class: 'livecode__bar'});
  const countdown = h('p', {class: 'livecode__countdown'}, 'New code in ', seconds);
  const note = h('p', {class: 'livecode__note small', role: 'status'});
  const element = h('div', {class: 'livecode'},
    h('p', {class: 'livecode__title'}, 'Live entry code'),
    box, h('span', {class: 'livecode__track', 'aria-hidden': 'true'}, bar), countdown, note);

  let answer = null;    // the last rotating answer: stepSeconds and the signed codes by step
  let byStep = new Map();
  let shown = null;     // the step on screen
  let fetching = false;
  let nextTry = 0;

  async function refill() {
    if (fetching || Date.now() < nextTry) return;
    fetching = true;
    try {
      answer = await api(path, {auth: true});
      byStep = new Map(answer.signed.map(s => [s.step, s]));
      nextTry = 0;
    } catch {
      nextTry = Date.now() + RETRY_MS;  // offline, or the service is away: the codes in hand still serve
    } finally {
      fetching = false;
    }
    tick();
  }

  function tick() {
    if (!answer) {
      refill();
      return;
    }
    const stepMillis = answer.stepSeconds * 1000;
    const now = serverNow();
    const step = Math.floor(now / stepMillis);
    const current = byStep.get(step);
    const last = answer.signed.length ? answer.signed[answer.signed.length - 1].step : step - 1;
    if (last - step < REFILL_BELOW) refill();
    if (!current) {
      if (shown !== null) {
        clear(box).classList.add('is-loading');
        shown = null;
        element.removeAttribute('data-step');
        element.removeAttribute('data-code');
      }
      countdown.hidden = true;
      note.textContent = 'Your live code needs the internet again: connect, and it comes back by itself.';
      return;
    }
    if (shown !== step) {
      clear(box).classList.remove('is-loading');
      box.append(qrSvg(current.qr, label));
      shown = step;
      element.dataset.step = String(step);
      element.dataset.code = current.code;
      countdown.hidden = false;
      note.textContent = '';
    }
    const left = stepMillis - (now - step * stepMillis);
    seconds.textContent = `${Math.ceil(left / 1000)} s`;
    bar.style.width = `${(100 * left / stepMillis).toFixed(1)}%`;
  }

  return {element, tick};
}
