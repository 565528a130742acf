import crypto from 'node:crypto';
// What the browser tests share: Debian's Chromium driven by playwright-core, the running service's
// API for setting scenes (tokens, holds made "elsewhere", rush mode), seat-map helpers and screenshots.
//
// Environment: BASE_URL (the running service), SCREENSHOTS (folder for the step screenshots; default
// app/target/web-tests/screenshots),
// CHROMIUM (default /usr/bin/chromium), SEATMAP_PNG (optional: where to save the README's seat map),
// DOCS_PNG (optional: a folder where the docs' phone-header screenshots are saved).

import {chromium} from 'playwright-core';
import {AxeBuilder} from '@axe-core/playwright';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
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

// ---- fonts --------------------------------------------------------------------------------------

/**
 * The fonts pages are measured with, each from one named Debian package (.ci/run installs both).
 * A fan's phone picks its own fonts, so the tests do not take whatever this machine has: the
 * browser sees only the pinned font, and every family the stylesheet asks for (Inter, system-ui,
 * Arial, sans-serif, monospace...) falls back to it.
 *
 * - TYPICAL: Liberation Sans, with Arial's metrics: about as wide as Roboto, Helvetica and San
 *   Francisco, the fonts most phones draw with. Every journey runs with it.
 * - WIDE: DejaVu Sans (Verdana's proportions), about 13% wider than Arial in regular text and 20%
 *   wider in bold: the widest sans-serif a fan's device plausibly falls back to. The phone journey
 *   runs again with it on the narrowest supported screen, so a layout that only fits narrow fonts
 *   fails here.
 */
export const FONTS = {
  typical: {family: 'Liberation Sans', pkg: 'fonts-liberation', file: '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf'},
  wide: {family: 'DejaVu Sans', pkg: 'fonts-dejavu-core', file: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'},
};

const fontConfigs = new Map();

/**
 * A fontconfig file that offers Chromium the font's folder and nothing else, with the font put
 * first for every family asked for; Chromium reads it through FONTCONFIG_FILE.
 */
function fontConfig(font) {
  if (fontConfigs.has(font)) return fontConfigs.get(font);
  assert.ok(fs.existsSync(font.file), `the browser tests pin the font ${font.family}: install the Debian package ${font.pkg}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boxoffice-fonts-'));
  process.on('exit', () => fs.rmSync(dir, {recursive: true, force: true}));
  const xml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  fs.writeFileSync(path.join(dir, 'fonts.conf'), `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${xml(path.dirname(font.file))}</dir>
  <cachedir>${xml(path.join(dir, 'cache'))}</cachedir>
  <match target="pattern">
    <edit name="family" mode="prepend" binding="strong"><string>${xml(font.family)}</string></edit>
  </match>
</fontconfig>
`);
  const file = path.join(dir, 'fonts.conf');
  fontConfigs.set(font, file);
  return file;
}

/**
 * A headless Chromium that draws every text in `font` (one of FONTS); launch() gives it a fresh
 * temporary profile (user data dir) of its own. `args` are added to Chromium's command line (a camera
 * that films a file: cameraFilming()).
 */
export function launch({font = FONTS.typical, args = []} = {}) {
  return chromium.launch({executablePath: CHROMIUM, headless: true, args: [...ARGS, ...args],
    env: {...process.env, FONTCONFIG_FILE: fontConfig(font)}});
}

/**
 * Chromium's switches for a camera that films `y4mFile` over and over (qrVideo() writes one), granted
 * to every page without asking: getUserMedia gets it as a real camera, and the page's code reads it as
 * it reads a phone's.
 */
export function cameraFilming(y4mFile) {
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${y4mFile}`];
}

/**
 * Writes a Y4M video (YUV 4:2:0, the format Chromium's fake camera plays, over and over) of a QR code
 * held up to the camera for `shownSeconds`, then taken away for `awaySeconds`: `qr` as the service
 * hands it out ({size, modules: base64url of the modules row by row, the first in the high bit, 1
 * dark}), black on white, `moduleSize` pixels a module, centred with a quiet zone in a grey frame.
 * Without `qr`, nothing is held up.
 */
export function qrVideo(file, qr, {width = 480, height = 360, moduleSize = 6, fps = 5, shownSeconds = 3.5, awaySeconds = 2} = {}) {
  const chroma = Buffer.alloc((width >> 1) * (height >> 1) * 2, 128);  // no colour: U and V at their middle
  const frame = luma => Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const away = Buffer.alloc(width * height, 96);  // the grey of whatever is behind the phone
  const frames = [];
  if (qr) {
    const bits = Buffer.from(qr.modules, 'base64url');
    const side = qr.size * moduleSize;
    const quiet = 4 * moduleSize;
    assert.ok(side + 2 * quiet <= Math.min(width, height), `a ${qr.size}-module code fits the ${width}x${height} frame`);
    const shown = Buffer.from(away);
    const left = (width - side) >> 1;
    const top = (height - side) >> 1;
    for (let y = top - quiet; y < top + side + quiet; y++) shown.fill(255, y * width + left - quiet, y * width + left + side + quiet);
    for (let row = 0; row < qr.size; row++) {
      for (let col = 0; col < qr.size; col++) {
        const i = row * qr.size + col;
        if (!((bits[i >> 3] >> (7 - (i & 7))) & 1)) continue;
        for (let y = 0; y < moduleSize; y++) {
          const at = (top + row * moduleSize + y) * width + left + col * moduleSize;
          shown.fill(0, at, at + moduleSize);
        }
      }
    }
    frames.push(...Array(Math.round(shownSeconds * fps)).fill(frame(shown)));
  }
  frames.push(...Array(Math.max(1, Math.round(awaySeconds * fps))).fill(frame(away)));
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`), ...frames]));
  return file;
}

/** Fails unless the element's text is drawn in the given font family (as Chromium reports it, not as CSS asks). */
export async function assertDrawnIn(page, selector, family) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const {root} = await cdp.send('DOM.getDocument', {depth: 0});
    const {nodeId} = await cdp.send('DOM.querySelector', {nodeId: root.nodeId, selector});
    assert.ok(nodeId, `no element ${selector}`);
    const {fonts} = await cdp.send('CSS.getPlatformFontsForNode', {nodeId});
    assert.deepEqual([...new Set(fonts.map(f => f.familyName))], [family], `${selector} is drawn in the pinned font`);
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/**
 * A fan in a browser context of their own. With `account`, the fan is already signed in (the demo
 * token, with `roles` if given, e.g. ['staff'] for door staff, is put where the web app keeps it), so a
 * test can start on any page.
 */
export async function newFan(browser, {account, roles, viewport = {width: 1360, height: 900}, phone = false} = {}) {
  const context = await browser.newContext({
    viewport, locale: 'en-GB', timezoneId: 'Europe/Berlin', reducedMotion: 'no-preference',
    ...(phone ? {isMobile: true, hasTouch: true, deviceScaleFactor: 2} : {}),
  });
  if (account) {
    const session = await signIn(account, roles);
    await context.addInitScript(value => {
      if (!localStorage.getItem('boxoffice.session')) localStorage.setItem('boxoffice.session', value);
    }, JSON.stringify(session));
  }
  // the server's Content Security Policy allows only what the app loads: anything it refuses is an
  // error of the journey (Chromium logs most refusals; this catches each one, whatever it was)
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', e => {
      console.error(`CSP violation: ${e.effectiveDirective} refused ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
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
export async function shot(page, name, {fullPage = false, clip} = {}) {
  const file = path.join(SHOTS, `${String(++shotCount).padStart(2, '0')}-${name}.png`);
  await page.screenshot({path: file, fullPage, clip});
  return file;
}

// ---- layout and accessibility checks ------------------------------------------------------------

/**
 * Fails unless the page fits its screen's width: no sideways scrolling (a phone browser widens its
 * layout viewport to fit content that is too wide), and every control, heading and line of text in
 * the header and the page lies within the screen (a wide row cut off by an overflow rule scrolls
 * nothing, yet its right end cannot be reached).
 */
export async function assertFits(page, what) {
  const report = await page.evaluate(() => {
    const width = window.innerWidth;
    const scroll = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    const outside = [];
    const name = el => el.tagName.toLowerCase() + (el.id ? `#${el.id}` : '')
      + (typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '')
      + ` "${(el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    const selector = '.topbar a, .topbar button, main a, main button, main input, main select, main h1, main h2, main h3, '
      + 'main p, main li, main dd, main dt, main label, main .badge, .selbar, .selbar button';
    for (const el of document.querySelectorAll(selector)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || el.closest('.visually-hidden, [hidden], dialog:not([open])')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.position === 'absolute' && r.width <= 1) continue;
      if (r.left < -0.5 || r.right > width + 0.5) outside.push(`${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return {width, scroll, outside};
  });
  assert.equal(report.scroll, report.width, `${what} fits a ${report.width} px screen without sideways scrolling`);
  assert.deepEqual(report.outside, [], `${what}: everything lies within the ${report.width} px screen`);
}

/** The WCAG 2.2 A and AA rules that axe-core checks (2.0 and 2.1 included). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const AXE_LOG = path.join(SHOTS, '..', 'axe.log');
let axeLogOpen = false;

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation of the
 * WCAG A/AA rules. Every audit's outcome (including minor and moderate findings, which do not fail)
 * goes to target/web-tests/axe.log.
 */
export async function audit(page, what) {
  const result = await new AxeBuilder({page}).withTags(WCAG_TAGS).analyze();
  const width = page.viewportSize()?.width;
  const line = (v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map(n => n.target.join(' ')).slice(0, 6).join(', ')}`
    + (v.nodes.length > 6 ? ` (+${v.nodes.length - 6} more)` : '');
  const all = result.violations.map(line);
  if (!axeLogOpen) fs.writeFileSync(AXE_LOG, '');
  axeLogOpen = true;
  fs.appendFileSync(AXE_LOG, `${what} @ ${width} px: ${result.passes.length} rules pass, ${all.length} violated\n`
    + all.map(l => `  ${l}\n`).join(''));
  const blocking = result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(blocking.map(line), [], `axe finds no serious or critical WCAG A/AA violation on ${what} (${width} px)`);
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

/**
 * Joins a show's waiting room through its door as a script would: asks for the challenge (if the room
 * wants one), solves it with Node's PBKDF2 and joins with the solution. Returns the join's answer.
 */
export async function joinRoom(showId, fanToken) {
  const headers = {};
  const c = await call('GET', `/v1/challenge?showId=${encodeURIComponent(showId)}`, {token: fanToken});
  if (c.status === 200) {
    const {nonce, salt, keyPrefix, cost, keyLength} = c.body.parameters;
    const password = Buffer.alloc(nonce.length / 2 + 4);
    Buffer.from(nonce, 'hex').copy(password);
    for (let counter = 0; ; counter++) {
      password.writeUInt32BE(counter, nonce.length / 2);
      const key = crypto.pbkdf2Sync(password, Buffer.from(salt, 'hex'), cost, keyLength, 'sha256').toString('hex');
      if (key.startsWith(keyPrefix)) {
        const solution = {counter, derivedKey: key};
        headers['Challenge-Solution'] = Buffer.from(JSON.stringify({challenge: c.body, solution})).toString('base64');
        break;
      }
    }
  } else {
    assert.equal(c.status, 409, JSON.stringify(c.body));
  }
  return call('POST', `/v1/shows/${encodeURIComponent(showId)}/queue`, {token: fanToken, headers});
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
