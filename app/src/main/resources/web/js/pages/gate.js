// The door staff's gate page (#/gate/{showId}, role staff): checks the fans' live codes online while
// there is a connection and with no network when there is none. While online it downloads the show's
// bundle (public key and revocation list) and keeps it in localStorage. Each code is first put to the
// service (POST /v1/tickets/verify): its answer is authoritative (a ticket admitted at another door a
// second ago is refused) and the service records the admission itself. When the browser is offline, or
// the request fails or takes longer than ONLINE_WAIT_MS, the code is checked in the browser
// (gatecheck.js) and the scan kept in localStorage with its own scan id; kept scans are uploaded
// whenever the network is there (each scan id once: the service keeps a scan once per id anyway), and
// the duplicates the service reports (a ticket admitted at more than one gate, or twice) are shown.
// The camera reads codes with the browser's BarcodeDetector where it has one and with jsQR elsewhere
// (in qr-worker.js, or on this thread where the worker does not start); typing or pasting a code
// always works.

import {api, ApiError, session, serverNow, serverClockOffset, assumeServerClockOffset, signIn} from '../api.js';
import {h, clear, time, plural} from '../dom.js';
import {VERDICTS, importKey, isSigned, verify} from '../gatecheck.js';

const SYNC_EVERY_MS = 15_000;
const MAX_UPLOAD = 500;
/** How long a scan waits for the service before the gate decides offline: a queue at the door waits too. */
const ONLINE_WAIT_MS = 2000;

// ---- what the gate keeps (localStorage) ---------------------------------------------------------

const store = {
  read(key, fallback) {
    try {
      const v = JSON.parse(localStorage.getItem(key) || 'null');
      return v == null ? fallback : v;
    } catch {
      return fallback;
    }
  },
  write(key, value) {
    localStorage.setItem(key, JSON.stringify(value));
  },
};

/** This browser's own id: scan ids start with it, so two devices never make the same one. */
function deviceId() {
  let id = localStorage.getItem('boxoffice.gate.device');
  if (!id) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(6)), b => b.toString(36).padStart(2, '0')).join('').slice(0, 10);
    localStorage.setItem('boxoffice.gate.device', id);
  }
  return id;
}

function nextScanId() {
  const n = Number(localStorage.getItem('boxoffice.gate.seq') || '0') + 1;
  localStorage.setItem('boxoffice.gate.seq', String(n));
  return `${deviceId()}-${n}`;
}

const GATE_ID = /^[A-Za-z0-9._~@:-]{1,64}$/;
/** The service's clock as this device last learned it: a reload offline checks codes' steps by it, not by a phone's wrong clock. */
const CLOCK_KEY = 'boxoffice.gate.clockOffset';

// ---- the page -----------------------------------------------------------------------------------

export async function render(main, [showId], query) {
  const keys = {
    bundle: `boxoffice.gate.bundle.${showId}`,
    scans: `boxoffice.gate.scans.${showId}`,
    duplicates: `boxoffice.gate.duplicates.${showId}`,
  };
  if (query.get('gate') && GATE_ID.test(query.get('gate'))) localStorage.setItem('boxoffice.gate.name', query.get('gate'));
  const gateId = localStorage.getItem('boxoffice.gate.name') || `gate-${deviceId()}`;

  const head = h('header', {class: 'page-head gate__head'},
    h('p', {class: 'eyebrow'}, `Door check · ${gateId}`),
    h('h1', {}, 'Gate'),
    h('p', {class: 'muted gate__show'}, `Show ${showId}`));

  if (!session.get()) {
    main.append(head, staffSignIn(showId));
    return null;
  }

  assumeServerClockOffset(store.read(CLOCK_KEY, null));
  let bundle = store.read(keys.bundle, null);
  let key = bundle ? await importKey(bundle.publicKey).catch(() => null) : null;
  let scans = store.read(keys.scans, []);
  let duplicates = store.read(keys.duplicates, []);
  let syncing = false;
  let left = false;

  const verdictBox = h('div', {class: 'verdict verdict--idle', role: 'status', 'aria-live': 'assertive', 'aria-atomic': 'true'},
    h('p', {class: 'verdict__title'}, 'Ready'), h('p', {class: 'verdict__reason'}, 'Scan or type a ticket code.'));
  const input = h('input', {id: 'gate-code', name: 'code', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
    required: true, maxlength: 600, 'aria-describedby': 'gate-code-hint'});
  const form = h('form', {class: 'gate__form', 'aria-label': 'Check a code', onsubmit: e => {
    e.preventDefault();
    const code = input.value.trim();
    input.value = '';
    if (code) check(code).finally(() => input.focus());
  }},
  h('label', {class: 'field__label', for: 'gate-code'}, 'Ticket code'),
  h('span', {class: 'gate__row'}, input, h('button', {class: 'btn btn--primary', type: 'submit'}, 'Check')),
  h('span', {class: 'field__hint', id: 'gate-code-hint'}, 'Type or paste the code under the fan\u2019s QR, or scan it with the camera.'));
  const camera = cameraBox(code => check(code));
  const network = h('p', {class: 'gate__network'});
  const bundleLine = h('p', {class: 'small'});
  const scansLine = h('p', {class: 'small'});
  const reloadLine = h('p', {class: 'small'});
  let offlineReady = null;  // null while the service worker is being set up
  const syncError = h('p', {class: 'field__error', role: 'alert'});
  const syncButton = h('button', {class: 'btn btn--ghost btn--small', type: 'button', onclick: () => sync(true)}, 'Sync now');
  const duplicatesBox = h('section', {class: 'panel gate__duplicates', 'aria-labelledby': 'gate-dup-title'});
  const history = h('ol', {class: 'gate__history', 'aria-label': 'Last scans at this gate'});

  main.append(head, verdictBox,
    h('section', {class: 'panel gate__check'}, form, camera),
    h('section', {class: 'panel gate__status', 'aria-label': 'Bundle and uploads'},
      network, bundleLine, scansLine, reloadLine, syncError, syncButton),
    duplicatesBox,
    h('section', {class: 'panel'}, h('h2', {class: 'panel__title'}, 'Last scans'), history));

  function scannedHere() {
    return new Set(scans.filter(s => s.verdict === 'ACCEPT').map(s => s.ticket));
  }

  function show(verdict, claim, extra, checked) {
    const v = VERDICTS[verdict];
    verdictBox.className = `verdict ${v.admit ? 'verdict--admit' : 'verdict--refuse'}`;
    verdictBox.dataset.verdict = verdict;
    verdictBox.dataset.checked = checked;
    clear(verdictBox).append(
      h('p', {class: 'verdict__title'}, v.title),
      claim ? h('p', {class: 'verdict__seat'}, `Seat ${claim.seatId} \u00b7 booking ${claim.bookingId}`) : null,
      h('p', {class: 'verdict__reason'}, v.reason + extra),
      h('p', {class: 'verdict__code small'}, `${verdict} \u00b7 ${checked === 'online' ? 'checked online' : 'checked offline with the stored key'}`));
  }

  async function check(code) {
    if (!isSigned(code)) {
      await checkOnline(code);
      return;
    }
    const online = navigator.onLine ? await askService(code) : null;
    if (online) {
      keepOnlineScan(code, online);
      return;
    }
    await checkOffline(code);
  }

  /**
   * The service's verdict on a signed code, or null when it could not give one in time (no network,
   * a failed request, an error answer, or ONLINE_WAIT_MS passed): the gate then decides offline. A
   * request given up on may still reach the service; if it admitted the ticket there, the offline scan
   * uploaded later is reported as a duplicate with the gate "online", never lost.
   */
  async function askService(code) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), ONLINE_WAIT_MS);
    try {
      return await api('/v1/tickets/verify', {method: 'POST', auth: true, body: {code, showId}, signal: abort.signal});
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Shows the service's verdict; an answer that names a ticket is kept in the history, never uploaded. */
  function keepOnlineScan(code, r) {
    const verdict = VERDICTS[r.verdict] ? r.verdict : 'BAD_SIGNATURE';
    const claim = r.bookingId != null && r.seatId
      ? {bookingId: String(r.bookingId), seatId: r.seatId, ticket: `${r.bookingId}/${r.seatId}`} : null;
    let extra = '';
    if (verdict === 'ALREADY_USED' && r.usedAt) extra = ` First at ${time(r.usedAt)}.`;
    if (claim && verdict !== 'WRONG_SHOW') {
      // the service recorded an admission itself (gate "online"): kept here as already uploaded, so this
      // gate still refuses the ticket a second time if the network goes later
      scans.push({scanId: nextScanId(), code, verdict, scannedAt: new Date(serverNow()).toISOString(), ticket: claim.ticket,
        seatId: claim.seatId, bookingId: claim.bookingId, uploaded: true, online: true});
      store.write(keys.scans, scans);
    }
    show(verdict, claim, extra, 'online');
    drawStatus();
  }

  async function checkOffline(code) {
    if (!bundle || !key) {
      verdictBox.className = 'verdict verdict--refuse';
      verdictBox.dataset.verdict = 'NO_BUNDLE';
      verdictBox.dataset.checked = 'offline';
      clear(verdictBox).append(h('p', {class: 'verdict__title'}, 'Cannot check'),
        h('p', {class: 'verdict__reason'}, 'This gate has not downloaded the show\u2019s key yet: connect to the internet once.'));
      return;
    }
    const now = serverNow();
    const {verdict, claim} = await verify(code, {showId, key, revoked: new Set(bundle.revoked), stepSeconds: bundle.stepSeconds,
      windowSteps: bundle.windowSteps}, now, scannedHere());
    let extra = '';
    if (verdict === 'ALREADY_SCANNED_HERE') {
      const first = scans.find(s => s.ticket === claim.ticket && s.verdict === 'ACCEPT');
      extra = ` First at ${time(first.scannedAt)}.`;
    }
    // a code that is no ticket of this show names no ticket: the service takes no such scan
    if (claim) {
      scans.push({scanId: nextScanId(), code, verdict, scannedAt: new Date(now).toISOString(), ticket: claim.ticket,
        seatId: claim.seatId, bookingId: claim.bookingId, uploaded: false});
      store.write(keys.scans, scans);
    }
    show(verdict, claim, extra, 'offline');  // the verdict box is a live region: it is read out as it changes
    drawStatus();
    if (navigator.onLine) sync(false);
  }

  /** A printed or app code (BX1, BXR): only the service can check it, and marks it used. */
  async function checkOnline(code) {
    try {
      const r = await api('/v1/tickets/verify', {method: 'POST', auth: true, body: {code}});
      const admit = r.status === 'VALID';
      verdictBox.className = `verdict ${admit ? 'verdict--admit' : 'verdict--refuse'}`;
      verdictBox.dataset.verdict = `ONLINE_${r.status}`;
      verdictBox.dataset.checked = 'online';
      clear(verdictBox).append(h('p', {class: 'verdict__title'}, admit ? 'Admit' : 'Refuse'),
        r.seatId ? h('p', {class: 'verdict__seat'}, `Seat ${r.seatId} \u00b7 booking ${r.bookingId}`) : null,
        h('p', {class: 'verdict__reason'}, admit ? 'A valid ticket (checked online).' : (r.reason || r.status)),
        h('p', {class: 'verdict__code small'}, r.status));
    } catch (e) {
      verdictBox.className = 'verdict verdict--refuse';
      verdictBox.dataset.verdict = 'NEEDS_NETWORK';
      verdictBox.dataset.checked = 'online';
      clear(verdictBox).append(h('p', {class: 'verdict__title'}, 'Cannot check'),
        h('p', {class: 'verdict__reason'}, e instanceof ApiError && e.status === 0
          ? 'Printed tickets are checked online only. Ask for the live code on the phone, or try again with a network.'
          : e.message));
    }
  }

  function drawStatus() {
    network.textContent = navigator.onLine ? 'Online: the service checks each code' : 'Offline: checking with the stored key';
    network.className = `gate__network ${navigator.onLine ? 'is-online' : 'is-offline'}`;
    const age = bundle ? Math.floor((serverNow() - Date.parse(bundle.generatedAt)) / 60_000) : 0;
    bundleLine.textContent = bundle
      ? `Key and revocations from ${time(bundle.generatedAt)}${age >= 1 ? ` (${plural(age, 'minute', 'minutes')} ago)` : ''}: `
        + `${plural(bundle.revoked.length, 'ticket', 'tickets')} revoked.`
      : 'No key yet: connect to the internet to download it.';
    reloadLine.textContent = offlineReady == null ? 'Getting this page ready to open without network\u2026'
      : offlineReady ? 'This page opens without network too: a reload keeps checking codes.'
        : 'This browser cannot keep this page: do not reload it without network.';
    reloadLine.dataset.offlineReady = String(Boolean(offlineReady));
    const waiting = scans.filter(s => !s.uploaded).length;
    scansLine.textContent = `${plural(scans.length, 'scan', 'scans')} here, ${waiting ? `${waiting} waiting to upload` : 'all uploaded'}.`;
    scansLine.dataset.waiting = String(waiting);
    clear(history).append(...scans.slice(-8).reverse().map(s => h('li', {class: `gate__scan ${VERDICTS[s.verdict].admit ? 'is-admit' : 'is-refuse'}`},
      h('span', {}, `${time(s.scannedAt)} \u00b7 seat ${s.seatId}`), h('strong', {}, VERDICTS[s.verdict].title))));
    if (!scans.length) history.append(h('li', {class: 'muted small'}, 'No scans yet.'));
    clear(duplicatesBox).append(h('h2', {class: 'panel__title', id: 'gate-dup-title'}, 'Seen more than once'));
    if (!duplicates.length) {
      duplicatesBox.append(h('p', {class: 'muted small'}, 'No ticket has been admitted twice (as of the last upload).'));
    } else {
      duplicatesBox.append(h('ul', {class: 'gate__duplist', role: 'list'}, duplicates.map(d => h('li', {class: 'gate__dup'},
        h('strong', {}, `Seat ${d.seatId} \u00b7 booking ${d.bookingId}`),
        h('span', {class: 'small'}, `${plural(d.scans.length, 'scan', 'scans')} at ${d.gates.join(', ')}`)))));
    }
  }

  /** Downloads the bundle and uploads waiting scans; quietly does nothing offline unless asked. */
  async function sync(asked) {
    if (syncing || left) return;
    syncing = true;
    syncError.textContent = '';
    try {
      const fresh = await api(`/v1/gates/${encodeURIComponent(showId)}/bundle`, {auth: true});
      const freshKey = await importKey(fresh.publicKey);
      bundle = fresh;
      key = freshKey;
      store.write(keys.bundle, bundle);
      store.write(CLOCK_KEY, serverClockOffset());
      const waiting = scans.filter(s => !s.uploaded).slice(0, MAX_UPLOAD);
      if (waiting.length) {
        const r = await api(`/v1/gates/${encodeURIComponent(showId)}/scans`, {method: 'POST', auth: true,
          body: {gateId, scans: waiting.map(({scanId, code, verdict, scannedAt}) => ({scanId, code, verdict, scannedAt}))}});
        const sent = new Set(waiting.map(s => s.scanId));
        // the list may have grown meanwhile: mark exactly what was sent
        scans = store.read(keys.scans, scans).map(s => (sent.has(s.scanId) ? {...s, uploaded: true} : s));
        store.write(keys.scans, scans);
        duplicates = r.duplicates;
      } else {
        duplicates = (await api(`/v1/gates/${encodeURIComponent(showId)}/duplicates`, {auth: true})).duplicates;
      }
      store.write(keys.duplicates, duplicates);
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) {
        syncError.textContent = 'This account is not door staff: sign out, and sign in on this page as door staff.';
      } else if (e instanceof ApiError && e.status === 404) {
        syncError.textContent = `There is no show ${showId}.`;
      } else if (asked || !(e instanceof ApiError && e.status === 0)) {
        syncError.textContent = e.message;
      }
    } finally {
      syncing = false;
      if (!left) drawStatus();
    }
  }

  const onNetwork = () => {
    drawStatus();
    if (navigator.onLine) sync(false);
  };
  addEventListener('online', onNetwork);
  addEventListener('offline', onNetwork);
  const timer = setInterval(() => {
    if (navigator.onLine) sync(false);
    else drawStatus();  // the bundle's age
  }, SYNC_EVERY_MS);
  drawStatus();
  keepForOffline().then(ready => {
    offlineReady = ready;
    if (!left) drawStatus();
  });
  await sync(false);
  window.boxoffice.page = {gate: {gateId, showId, sync: () => sync(true), scans: () => scans, bundle: () => bundle}};
  return () => {
    left = true;
    clearInterval(timer);
    removeEventListener('online', onNetwork);
    removeEventListener('offline', onNetwork);
    camera.stop?.();
  };
}

/**
 * Has the gate's service worker (gate/sw.js) keep this page, so that a phone reloading it without
 * network gets it back, with the bundle and scans it kept in localStorage. Resolves to whether a reload
 * offline will open the page. Only at /gate/, the worker's scope (app.js sends the gate page there).
 */
async function keepForOffline() {
  if (!('serviceWorker' in navigator) || location.pathname !== '/gate/') return false;
  const kept = Boolean(navigator.serviceWorker.controller);  // this very load came through it
  try {
    await navigator.serviceWorker.register('/gate/sw.js', {scope: '/gate/'});
    await navigator.serviceWorker.ready;
    return true;
  } catch {
    // offline the worker cannot be checked for an update: the one already there still serves the page
    return kept || Boolean((await navigator.serviceWorker.getRegistration('/gate/').catch(() => null))?.active);
  }
}

/** Signing in as door staff (the demo's tokens; a real deployment signs staff in through its provider). */
function staffSignIn(showId) {
  const input = h('input', {id: 'staff-name', name: 'accountId', autocomplete: 'username', required: true, maxlength: 64});
  const error = h('p', {class: 'field__error', role: 'alert'});
  return h('section', {class: 'panel gate__signin'},
    h('h2', {class: 'panel__title'}, 'Door staff only'),
    h('p', {class: 'muted'}, 'Sign in as door staff to download this show\u2019s key and check tickets.'),
    h('form', {onsubmit: async e => {
      e.preventDefault();
      try {
        await signIn(input.value.trim(), ['staff']);
        dispatchEvent(new HashChangeEvent('hashchange'));
      } catch (err) {
        error.textContent = err.message;
      }
    }},
    h('label', {class: 'field__label', for: 'staff-name'}, 'Your name'),
    h('span', {class: 'gate__row'}, input, h('button', {class: 'btn btn--primary', type: 'submit'}, 'Sign in')),
    error));
}

/** The longest side a camera frame is scaled down to before jsQR reads it: a live code a third as wide still has 5 px a module. */
const MAX_FRAME = 800;

/**
 * What reads a QR code from the camera's video: the browser's own BarcodeDetector where it reads QR
 * codes (Chrome on Android, Safari on a Mac), and jsQR everywhere else: in a worker (qr-worker.js), or
 * on the page's own thread where the worker does not start (in Chromium offline, after a reload from
 * the service worker, the worker's script is not loaded: its requests miss the service worker's copy,
 * while the page's own module requests get it). `read(video)` resolves to the code's text or null.
 */
async function codeReader() {
  if ('BarcodeDetector' in window && (await window.BarcodeDetector.getSupportedFormats().catch(() => [])).includes('qr_code')) {
    const detector = new window.BarcodeDetector({formats: ['qr_code']});
    return {kind: 'barcode-detector', read: video => detector.detect(video).then(found => found[0]?.rawValue || null, () => null), close() {}};
  }
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', {willReadFrequently: true});
  /** The video's current frame, scaled down to MAX_FRAME, or null before the first frame. */
  const frameOf = video => {
    const scale = Math.min(1, MAX_FRAME / Math.max(video.videoWidth, video.videoHeight));
    const width = Math.round(video.videoWidth * scale);
    const height = Math.round(video.videoHeight * scale);
    if (!width || !height) return null;
    canvas.width = width;
    canvas.height = height;
    context.drawImage(video, 0, 0, width, height);
    return {width, height, pixels: context.getImageData(0, 0, width, height).data.buffer};
  };
  const worker = await startedWorker();
  if (worker) {
    return {
      kind: 'jsqr-worker',
      read(video) {
        const frame = frameOf(video);
        return frame ? ask(worker, frame) : Promise.resolve(null);
      },
      close: () => worker.terminate(),
    };
  }
  await import('../vendor/jsQR.js');  // not a module: it sets self.jsQR, as in the worker
  return {
    kind: 'jsqr-page',
    async read(video) {
      const frame = frameOf(video);
      const found = frame && window.jsQR(new Uint8ClampedArray(frame.pixels), frame.width, frame.height, {inversionAttempts: 'dontInvert'});
      return found ? found.data : null;
    },
    close() {},
  };
}

/** The worker's answer to one frame: the code's text or null. */
function ask(worker, frame) {
  return new Promise(resolve => {
    worker.onmessage = e => resolve(e.data);
    worker.onerror = () => resolve(null);
    worker.postMessage(frame, [frame.pixels]);
  });
}

/** qr-worker.js once it has read a first (empty) frame, or null if it does not start. */
async function startedWorker() {
  let worker;
  try {
    worker = new Worker('/js/qr-worker.js');
  } catch {
    return null;
  }
  const answered = await new Promise(resolve => {
    worker.onmessage = () => resolve(true);
    worker.onerror = () => resolve(false);
    const pixels = new Uint8ClampedArray(4).buffer;
    worker.postMessage({width: 1, height: 1, pixels}, [pixels]);
  });
  if (answered) return worker;
  worker.terminate();
  return null;
}

/**
 * How long the camera must have seen a code missing before the code counts as taken away, so that held
 * up again it is checked again. A fan who keeps the phone up after the green Admit is not checked a
 * second time (offline, such a second check would be uploaded as a second admission at this gate, and
 * reported as a duplicate).
 */
const GONE_MS = 1000;

/** The camera: checks each code held up to it once (see codeReader); typing a code works whatever happens here. */
function cameraBox(onCode) {
  if (!navigator.mediaDevices?.getUserMedia) {
    return h('p', {class: 'muted small'}, 'This browser cannot use the camera here: type the code instead.');
  }
  const video = h('video', {class: 'gate__video', muted: true, playsinline: true, hidden: true, 'aria-label': 'Camera view'});
  const error = h('p', {class: 'field__error', role: 'alert'});
  let stream = null;
  let reader = null;
  let timer = null;
  let inView = '';  // the code in front of the camera, checked once
  let missingSince = null;  // since when the camera has not seen it
  const stop = () => {
    clearInterval(timer);
    stream?.getTracks().forEach(t => t.stop());
    reader?.close();
    stream = null;
    reader = null;
    inView = '';  // started again, the camera checks what it sees
    video.hidden = true;
    delete box.dataset.reader;
    button.textContent = 'Scan with the camera';
  };
  const start = async () => {
    try {
      reader = await codeReader();
      stream = await navigator.mediaDevices.getUserMedia({video: {facingMode: 'environment'}});
      video.srcObject = stream;
      video.hidden = false;
      await video.play();
      button.textContent = 'Stop the camera';
      box.dataset.reader = reader.kind;
      const current = reader;
      // this camera's own: a read cut short by stop() never settles, and must not hold up the next start
      let busy = false;
      timer = setInterval(async () => {
        if (busy) return;  // a slow phone reads every frame it can, never two at once
        busy = true;
        const code = await current.read(video).finally(() => { busy = false; });
        if (reader !== current) return;
        if (!code) {
          // taken away only once frames without it span GONE_MS: a phone too busy to read frames for a
          // while (a long check, the page drawing) has not seen the code go
          missingSince ??= Date.now();
          if (Date.now() - missingSince >= GONE_MS) inView = '';
          return;
        }
        missingSince = null;
        if (code === inView) return;
        inView = code;
        box.dataset.reads = String(Number(box.dataset.reads || 0) + 1);  // for the browser tests: when each code was taken
        onCode(code);
      }, 250);
    } catch (e) {
      stop();
      error.textContent = `The camera could not be started: ${e.message}`;
    }
  };
  const button = h('button', {class: 'btn btn--ghost', type: 'button', onclick: () => (stream ? stop() : start())}, 'Scan with the camera');
  const box = h('div', {class: 'gate__camera'}, button, video, error);
  box.stop = stop;
  return box;
}
