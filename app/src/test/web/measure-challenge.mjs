// What the waiting room's proof of work costs a fan's browser: a measurement, not a test. Prints the
// figures docs/web.md reports.
//
//   ./boxoffice run                                              # in one terminal
//   cd app/src/test/web && npm ci && node measure-challenge.mjs  # in another (BASE_URL, RUNS=20, DIFFICULTY=400, COST=1000)
//
// Each run draws a challenge as the service does (a random nonce and salt, the counter drawn from
// [D/2, 3D/2) for difficulty D, the key prefix derived with Node's PBKDF2) and has the web app's own
// solver (js/challenge.js: Web Workers, WebCrypto's PBKDF2) find it in Debian's Chromium, once with
// as many workers as the machine has cores (at most 4, as a fan's browser does) and once with one.
// Only the page's origin is needed (for the worker's script), no account and no room.

import crypto from 'node:crypto';
import os from 'node:os';
import {launch, BASE} from './harness.mjs';

const RUNS = Number(process.env.RUNS || 20);
const DIFFICULTY = Number(process.env.DIFFICULTY || 400);
const COST = Number(process.env.COST || 1000);

function challenge() {
  const nonce = crypto.randomBytes(16);
  const salt = crypto.randomBytes(16);
  const counter = Math.floor(DIFFICULTY / 2) + crypto.randomInt(DIFFICULTY);
  const password = Buffer.concat([nonce, Buffer.alloc(4)]);
  password.writeUInt32BE(counter, 16);
  const key = crypto.pbkdf2Sync(password, salt, COST, 32, 'sha256');
  return {parameters: {algorithm: 'PBKDF2/SHA-256', cost: COST, keyLength: 32, keyPrefix: key.subarray(0, 16).toString('hex'),
    nonce: nonce.toString('hex'), salt: salt.toString('hex')}, counter};
}

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)];

const browser = await launch();
try {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${BASE}/`);
  for (const workers of [null, 1]) {
    const took = [];
    const perDerivation = [];
    let used = 0;
    for (let i = 0; i < RUNS; i++) {
      const c = challenge();
      const solved = await page.evaluate(async ({c, workers}) => {
        if (workers) Object.defineProperty(navigator, 'hardwareConcurrency', {value: workers, configurable: true});
        const {solveChallenge} = await import('/js/challenge.js');
        return solveChallenge({parameters: c.parameters, signature: ''});
      }, {c, workers});
      if (solved.counter !== c.counter) throw new Error(`solved ${solved.counter}, drawn ${c.counter}`);
      took.push(solved.took);
      perDerivation.push(solved.took * solved.workers / (solved.counter + 1));
      used = solved.workers;
    }
    console.log(`difficulty ${DIFFICULTY}, cost ${COST}, ${used} worker(s), ${RUNS} challenges: solve time median `
      + `${Math.round(quantile(took, 0.5))} ms, p90 ${Math.round(quantile(took, 0.9))} ms, max ${Math.round(Math.max(...took))} ms; `
      + `${quantile(perDerivation, 0.5).toFixed(2)} ms per key derivation per worker (median)`);
  }
  console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0].model}), load average ${os.loadavg().map(l => l.toFixed(1)).join(' ')}`);
} finally {
  await browser.close();
}
