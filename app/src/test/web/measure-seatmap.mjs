// How the 60,000-seat map behaves on a phone-class device: a measurement, not a test (it asserts
// nothing; a shared, noisy machine makes timings a poor pass/fail signal). Prints the figures that
// docs/web.md reports.
//
//   ./boxoffice run                                   # in one terminal
//   cd app/src/test/web && npm ci && npm run measure  # in another (BASE_URL=http://localhost:8080 by default)
//
// The phone: Debian's Chromium at 390 x 844 CSS px, 2 device pixels per CSS px, touch, with its CPU
// slowed down 4x (Chromium's CPU throttling, as DevTools' "4x slowdown"), the typical pinned font.
// RUNS (default 3) repeats everything in a fresh context; the median and the best of the runs are
// printed last. On a busy machine, `nice -n -10 npm run measure` (as root) keeps the other
// processes from being measured along with the map.
//
// - first draw: from the start of navigation to /#/show/echoes-berlin-1 until the frame after the
//   availability of all 60,000 seats is on the map (the page's scripts, the layout, the seat
//   bitmaps, the availability request and its decoding, the drawing);
// - pan and zoom: touch gestures that Chromium synthesises as a finger would make them (a drag over
//   the whole venue, a pinch from the whole venue to single seats, a drag at the smallest zoom that
//   draws seats one by one, where the most seats are drawn). For each gesture: the intervals
//   between the frames the page drew while it ran (requestAnimationFrame timestamps), their median,
//   95th percentile and maximum, and the time spent in the map's draw() per frame.

import os from 'node:os';
import {launch, newFan, BASE, mapReady} from './harness.mjs';

const RUNS = Number(process.env.RUNS || 3);
const THROTTLE = Number(process.env.CPU_THROTTLE || 4);
const SHOW = process.env.SHOW || 'echoes-berlin-1';

const quantile = (values, q) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const median = values => quantile(values, 0.5);
const ms = v => `${v.toFixed(1)} ms`;

/** Watches the page from its first script on: when the map first shows availability, and every frame. */
function instrument() {
  window.__measure = {loadedAt: null, drawnAt: null, frames: [], work: [], draws: [], recording: false};
  const m = window.__measure;
  new MutationObserver((_, observer) => {
    const box = document.getElementById('seatmap');
    if (box?.dataset.loaded === 'true' && m.loadedAt === null) {
      m.loadedAt = performance.now();
      // the map redraws in the next animation frame; the one after it comes once that frame is done
      requestAnimationFrame(() => requestAnimationFrame(() => { m.drawnAt = performance.now(); }));
      observer.disconnect();
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-loaded']});
  // a message posted during the animation frame is handled once the frame's rendering (script,
  // style, layout, paint) is done: from the frame's start to then is the main thread's work on it
  const channel = new MessageChannel();
  let frameStart = null;
  channel.port1.onmessage = () => {
    if (frameStart !== null && m.recording) m.work.push(performance.now() - frameStart);
    frameStart = null;
  };
  const tick = t => {
    if (m.recording) {
      m.frames.push(t);
      frameStart = t;
      channel.port2.postMessage(0);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

async function gesture(page, name, run) {
  await page.evaluate(() => {
    const m = window.__measure;
    const map = window.boxoffice.page.map;
    if (!map.__timed) {
      const draw = map.draw.bind(map);
      map.draw = () => {
        const t = performance.now();
        draw();
        if (m.recording) m.draws.push(performance.now() - t);
      };
      map.__timed = true;
    }
    m.frames = [];
    m.work = [];
    m.draws = [];
    m.recording = true;
  });
  await run();
  await page.waitForFunction(() => !window.boxoffice.page.map.animating);
  const {frames, work, draws} = await page.evaluate(() => {
    const m = window.__measure;
    m.recording = false;
    return {frames: m.frames, work: m.work, draws: m.draws};
  });
  const intervals = frames.slice(1).map((t, i) => t - frames[i]);
  return {name, frames: intervals.length, p50: median(intervals), p95: quantile(intervals, 0.95),
    max: Math.max(...intervals), workP95: quantile(work, 0.95), drawP95: quantile(draws, 0.95), draws: draws.length};
}

async function once(browser) {
  const fan = await newFan(browser, {viewport: {width: 390, height: 844}, phone: true});
  const {page, context} = fan;
  await context.addInitScript(instrument);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', {rate: THROTTLE});

  await page.goto(`${BASE}/#/show/${SHOW}`);
  await mapReady(page);
  await page.waitForFunction(() => window.__measure.drawnAt !== null);
  const firstDraw = await page.evaluate(() => window.__measure.drawnAt);

  await page.locator('.seatmap__canvas').scrollIntoViewIfNeeded();
  const box = await page.locator('.seatmap__canvas').boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const drag = (dx, dy) => cdp.send('Input.synthesizeScrollGesture', {
    x: Math.round(cx), y: Math.round(cy), xDistance: dx, yDistance: dy, gestureSourceType: 'touch',
    speed: 600, repeatCount: 1, preventFling: true});
  const gestures = [];
  gestures.push(await gesture(page, 'pan, whole venue', async () => {
    await drag(-120, -160);
    await drag(120, 160);
  }));
  gestures.push(await gesture(page, 'pinch zoom in, whole venue to seats', async () => {
    await cdp.send('Input.synthesizePinchGesture', {x: Math.round(cx), y: Math.round(cy), scaleFactor: 6,
      relativeSpeed: 400, gestureSourceType: 'touch'});
  }));
  // the smallest zoom that draws seats one by one: the most seats drawn per frame
  await page.evaluate(() => {
    const {map} = window.boxoffice.page;
    map.moveCamera({...map.camera, s: 6.05}, false);
  });
  gestures.push(await gesture(page, 'pan, seats one by one', async () => {
    await drag(-150, -250);
    await drag(150, 250);
  }));
  const zoom = await page.evaluate(() => window.boxoffice.page.map.camera.s);
  await context.close();
  return {firstDraw, gestures, zoom};
}

const browser = await launch();
const runs = [];
try {
  for (let n = 1; n <= RUNS; n++) {
    const r = await once(browser);
    runs.push(r);
    console.log(`run ${n}: first draw ${ms(r.firstDraw)}`);
    for (const g of r.gestures) {
      console.log(`  ${g.name.padEnd(36)} ${String(g.frames).padStart(4)} frames: median ${ms(g.p50)}, p95 ${ms(g.p95)}, `
        + `max ${ms(g.max)}; main thread per frame p95 ${ms(g.workP95)}; draw() p95 ${ms(g.drawP95)} (${g.draws} draws)`);
    }
  }
} finally {
  await browser.close();
}
// Other processes on the machine only ever add time, so the best run is the nearest to the phone
// alone; the median shows what this machine made of it.
const summary = (label, pick) => {
  console.log(`\n${SHOW} at 390 px, CPU ${THROTTLE}x slower, ${label} of ${RUNS} runs `
    + `(load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores):`);
  console.log(`  first draw                           ${ms(pick(runs.map(r => r.firstDraw)))}`);
  runs[0].gestures.forEach((g, i) => {
    const all = runs.map(r => r.gestures[i]);
    console.log(`  ${g.name.padEnd(36)} frame p95 ${ms(pick(all.map(x => x.p95)))}, median ${ms(pick(all.map(x => x.p50)))}; `
      + `main thread per frame p95 ${ms(pick(all.map(x => x.workP95)))}; draw() p95 ${ms(pick(all.map(x => x.drawP95)))}`);
  });
};
summary('median', median);
summary('best', values => Math.min(...values));
