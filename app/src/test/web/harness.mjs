// What the browser tests share: Debian's Chromium driven by playwright-core, the running service's
// API for setting scenes (tokens, holds made "elsewhere", rush mode), seat-map helpers and screenshots.
//
// Environment: BASE_URL (the running service), SCREENSHOTS (folder for the step screenshots; default
// app/target/web-tests/screenshots),
// CHROMIUM (default /usr/bin/chromium), SEATMAP_PNG (optional: where to save the README's seat map).

import {chromium} from 'playwright-core';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const BASE = (process.env.BASE_URL || 'http://localhost:8080').replace(/\/$/, '');
export const SHOTS = process.env.SCREENSHOTS
  || fileURLToPath(new URL('../../../target/web-tests/screenshots', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// Without the networking switches Chromium reaches out to Google's services on start.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-default-apps', '--disable-extensions',
  '--metrics-recording-only', '--no-default-browser-check', '--disable-domain-reliability'];

fs.mkdirSync(SHOTS, {recursive: true});

/** Tells this run's fans apart from an earlier run's when the tests run again against the same service. */
export const RUN = Date.now().toString(36);

/** An account name unique to this run. */
export function fanName(name) {
  return `${name}-${RUN}`;
}

/** A headless Chromium; launch() gives it a fresh temporary profile (user data dir) of its own. */
export function launch() {
  return chromium.launch({executablePath: CHROMIUM, headless: true, args: ARGS});
}

/**
 * A fan in a browser context of their own. With `account`, the fan is already signed in (the demo
 * token is put where the web app keeps it), so a test can start on any page.
 */
export async function newFan(browser, {account, viewport = {width: 1360, height: 900}, phone = false} = {}) {
  const context = await browser.newContext({
    viewport, locale: 'en-GB', timezoneId: 'Europe/Berlin', reducedMotion: 'no-preference',
    ...(phone ? {isMobile: true, hasTouch: true, deviceScaleFactor: 2} : {}),
  });
  if (account) {
    const session = await signIn(account);
    await context.addInitScript(value => {
      if (!localStorage.getItem('boxoffice.session')) localStorage.setItem('boxoffice.session', value);
    }, JSON.stringify(session));
  }
  const page = await context.newPage();
  const errors = [];
  const fan = {context, page, errors, account};
  open.add(fan);
  page.on('pageerror', e => errors.push(`page error: ${e.message}`));
  page.on('console', m => {
    if (m.type() === 'error' && !/status of (403|409|402|404)/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  return fan;
}

const open = new Set();

/**
 * A test whose browser contexts are closed whatever happens, with a screenshot of each page that is
 * still open when it fails (FAILED-*.png next to the step screenshots).
 */
export function journey(test, name, options, body) {
  test(name, options, async () => {
    open.clear();
    try {
      await body();
    } catch (e) {
      let n = 0;
      for (const fan of open) {
        await fan.page.screenshot({path: path.join(SHOTS, `FAILED-${name.slice(0, 40).replace(/\W+/g, '-')}-${++n}.png`)})
          .catch(() => {});
      }
      throw e;
    } finally {
      for (const fan of open) await fan.context.close().catch(() => {});
      open.clear();
    }
  });
}

/** Fails if the page reported script errors. */
export function assertNoErrors(fan) {
  assert.deepEqual(fan.errors, [], `the page reported errors:\n${fan.errors.join('\n')}`);
}

let shotCount = 0;

/** Saves a screenshot of the viewport (or the whole page) under SCREENSHOTS, numbered in order. */
export async function shot(page, name, {fullPage = false} = {}) {
  const file = path.join(SHOTS, `${String(++shotCount).padStart(2, '0')}-${name}.png`);
  await page.screenshot({path: file, fullPage});
  return file;
}

// ---- the API, for setting scenes ----------------------------------------------------------------

export async function call(method, url, {token, body, headers = {}} = {}) {
  const h = {...headers};
  if (token) h.Authorization = `Bearer ${token}`;
  if (body !== undefined) h['Content-Type'] = 'application/json';
  const response = await fetch(BASE + url, {method, headers: h, body: body === undefined ? undefined : JSON.stringify(body)});
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = {text}; }
  return {status: response.status, body: json};
}

export async function signIn(accountId, roles) {
  const r = await call('POST', '/v1/dev/tokens', {body: roles ? {accountId, roles} : {accountId}});
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return {accountId: r.body.accountId, token: r.body.token, expiresAt: r.body.expiresAt};
}

export async function token(accountId, roles) {
  return (await signIn(accountId, roles)).token;
}

// ---- the seat map -------------------------------------------------------------------------------

/** Waits until the map has drawn the availability and its event stream is open. */
export async function mapReady(page) {
  await page.locator('#seatmap[data-loaded="true"][data-live="live"]').waitFor({timeout: 15_000});
}

/** Clicks a section's name on the whole-venue map, as a fan would, and waits for the zoom to settle. */
export async function openSection(page, name, {touch = false} = {}) {
  await page.locator('.seatmap__canvas').scrollIntoViewIfNeeded();
  const p = await page.evaluate(n => {
    const {map, model} = window.boxoffice.page;
    return map.sectionClientPoint(model.sectionByName(n));
  }, name);
  if (touch) await page.touchscreen.tap(p.x, p.y);
  else await page.mouse.click(p.x, p.y);
  await page.waitForFunction(n => {
    const {map} = window.boxoffice.page;
    return !map.animating && map.openSection && map.openSection.name === n;
  }, name);
}

/** Clicks (or taps) a seat where the map draws it. */
export async function clickSeat(page, seatId, {touch = false} = {}) {
  const p = await page.evaluate(id => {
    const {map, model} = window.boxoffice.page;
    const i = model.indexOf(id);
    if (i < 0) throw new Error(`no seat ${id}`);
    return map.clientPoint(i);
  }, seatId);
  if (touch) await page.touchscreen.tap(p.x, p.y);
  else await page.mouse.click(p.x, p.y);
}

/** What the page knows and draws of a seat: status index, selected, and the colour at its centre. */
export function seatState(page, seatId) {
  return page.evaluate(id => {
    const {map, model, selectedSet} = window.boxoffice.page;
    const i = model.indexOf(id);
    return {status: model.status[i], selected: selectedSet.has(i), rgb: map.sampleSeat(i), color: model.section(i).color};
  }, seatId);
}

/** `count` adjacent available seats in the given row of a section, nearest the row's middle. */
export function freeSeats(page, section, row, count) {
  return page.evaluate(([name, label, k]) => {
    const {model} = window.boxoffice.page;
    const r = model.rowByKey.get(`${name}-${label}`);
    const mid = Math.floor((r.count - k) / 2);
    for (let d = 0; d < r.count; d++) {
      for (const n of [mid - d, mid + d]) {
        if (n < 0 || n + k > r.count) continue;
        let ok = true;
        for (let j = 0; j < k; j++) ok = ok && model.status[r.start + n + j] === 0;
        if (ok) return Array.from({length: k}, (_, j) => model.seatId(r.start + n + j));
      }
    }
    return null;
  }, [section, String(row), count]);
}

export const GREY = {held: [0xc5, 0xca, 0xd3], sold: [0x8e, 0x96, 0xa4]};

export function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function sameColor(a, b, tolerance = 6) {
  return a.every((v, i) => Math.abs(v - b[i]) <= tolerance);
}
