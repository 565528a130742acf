// The Boxoffice HTTP API as the web app uses it: JSON in and out, the bearer token of the signed-in
// fan, errors as ApiError with the service's error code, and the server's clock.

const SESSION_KEY = 'boxoffice.session';

/** A refusal or failure from the API: status, the service's error code and the whole JSON body. */
export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.error) || `HTTP_${status}`;
    this.body = body || {};
  }
}

let clockOffset = 0;
let clockLearned = false;

/** Now on the server's clock (milliseconds): holds and passes expire by it, not by the device's. */
export function serverNow() {
  return Date.now() + clockOffset;
}

/** How far the server's clock is ahead of this device's (milliseconds; negative if behind), as last learned. */
export function serverClockOffset() {
  return clockOffset;
}

/**
 * Starts from an offset learned before this page loaded (the gate page keeps one, for a reload without
 * network), until the service's first answer says what it is now.
 */
export function assumeServerClockOffset(offset) {
  if (!clockLearned && Number.isFinite(offset)) clockOffset = offset;
}

/**
 * Learns the server's clock from a response's Date header. The header has one-second resolution
 * (truncated) and was written somewhere between sending the request and receiving the answer, so
 * the server's time at that moment lies in [date, date + 1000) and in [sentAt, receivedAt] on our
 * clock if both clocks agree. Only a gap between those two windows is a real skew; a slow answer
 * on a busy machine is not.
 */
function learnClock(response, sentAt, receivedAt) {
  // a public read may come from the browser's cache or a CDN with an old Date: only answers that
  // nobody keeps (no-store) say what the server's clock reads now
  if (/\bpublic\b/.test(response.headers.get('Cache-Control') || '')) return;
  const date = Date.parse(response.headers.get('Date') || '');
  if (Number.isNaN(date)) return;
  clockLearned = true;
  if (date > receivedAt) clockOffset = date - receivedAt;             // the server is ahead
  else if (date + 1000 < sentAt) clockOffset = date + 1000 - sentAt;  // the server is behind
  else clockOffset = 0;
}

// ---- the signed-in fan ------------------------------------------------------------------------

const listeners = new Set();

export const session = {
  get() {
    try {
      const s = JSON.parse(localStorage.getItem(SESSION_KEY) || 'null');
      if (s && s.token && Date.parse(s.expiresAt) > Date.now() + 60_000) return s;
    } catch { /* a damaged entry counts as signed out */ }
    return null;
  },
  set(value) {
    localStorage.setItem(SESSION_KEY, JSON.stringify(value));
    listeners.forEach(fn => fn(value));
  },
  clear() {
    localStorage.removeItem(SESSION_KEY);
    listeners.forEach(fn => fn(null));
  },
  onChange(fn) {
    listeners.add(fn);
  },
};

let prompt = async () => { throw new ApiError(401, {error: 'UNAUTHORIZED', message: 'sign in first'}); };

/** The page layer registers how to ask the fan for a name (a dialog). */
export function setSignInPrompt(fn) {
  prompt = fn;
}

/** The current session, asking the fan to sign in first if needed; rejects if they cancel. */
export async function requireSession() {
  return session.get() || prompt();
}

/** Demo sign-in: the service issues a token for a name (POST /v1/dev/tokens), with roles if asked (door staff). */
export async function signIn(accountId, roles) {
  const body = await request('/v1/dev/tokens', {method: 'POST', body: roles ? {accountId, roles} : {accountId}});
  const value = {accountId: body.accountId, token: body.token, expiresAt: body.expiresAt};
  session.set(value);
  return value;
}

// ---- requests -----------------------------------------------------------------------------------

/**
 * Calls the API. Options: method, body (sent as JSON), auth (send the bearer token, asking the fan
 * to sign in if needed), headers, signal. Resolves to the parsed body (null for 204); rejects with
 * ApiError for any non-2xx answer. `withResponse` resolves to {status, body, headers} instead.
 */
export async function api(path, options = {}) {
  const {auth = false} = options;
  if (!auth) return request(path, options);
  let s = await requireSession();
  try {
    return await request(path, {...options, token: s.token});
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      // the token lapsed or the service's secret changed: sign in again once
      session.clear();
      s = await requireSession();
      return request(path, {...options, token: s.token});
    }
    throw e;
  }
}

/**
 * When a request whose connection was lost is sent again, in ms after the loss before: soon, then
 * backing off. A load balancer takes a dead member out within a second or so; until then a resend may
 * reach it again and be refused at once, which costs nothing, so a fan waits a tenth of a second, not
 * half of one, for the common case.
 */
const RESEND_AFTER_MS = [100, 200, 400, 800];

function networkError() {
  return new ApiError(0, {error: 'NETWORK', message: 'The service cannot be reached. Check your connection and try again.'});
}

async function request(path, {method = 'GET', body, token, headers = {}, signal, withResponse = false} = {}) {
  const h = {Accept: 'application/json', ...headers};
  if (body !== undefined) h['Content-Type'] = 'application/json';
  if (token) h.Authorization = `Bearer ${token}`;
  let response;
  let sentAt = Date.now();
  const send = () => fetch(path, {method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), signal});
  // A connection lost before the answer (a member stopped or died mid-request): a read, or a change that
  // carries an Idempotency-Key, is sent again on the schedule above, until the load balancer has moved on;
  // the key makes the service answer what the first one did if it had run.
  const resendable = method === 'GET' || method === 'HEAD' || Boolean(h['Idempotency-Key']);
  for (let resent = 0; ; resent++) {
    try {
      sentAt = Date.now();
      response = await send();
      break;
    } catch (e) {
      if (e.name === 'AbortError') throw e;
      if (!resendable || resent === RESEND_AFTER_MS.length) throw networkError();
      await new Promise(resolve => setTimeout(resolve, RESEND_AFTER_MS[resent]));
    }
  }
  learnClock(response, sentAt, Date.now());
  const text = response.status === 204 ? '' : await response.text();
  let parsed = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = {message: text};
    }
  }
  if (!response.ok && response.status !== 304) {
    throw new ApiError(response.status, parsed);
  }
  return withResponse ? {status: response.status, body: parsed, headers: response.headers} : parsed;
}

/** An image the API serves only with the bearer token (ticket QR codes), as an object URL. */
export async function imageUrl(path) {
  const s = await requireSession();
  const response = await fetch(path, {headers: {Authorization: `Bearer ${s.token}`}});
  if (!response.ok) throw new ApiError(response.status, null);
  return URL.createObjectURL(await response.blob());
}

/** A fresh idempotency key. */
export function newKey(prefix) {
  const random = crypto.randomUUID ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), b => b.toString(16).padStart(2, '0')).join('');
  return `${prefix}-${random}`;
}

// ---- waiting-room passes and queue tokens, per account and show ----------------------------------

function roomKey(kind, showId) {
  const s = session.get();
  return s ? `boxoffice.${kind}.${s.accountId}.${showId}` : null;
}

export const room = {
  /** The fan's valid pass for the show, or null. */
  pass(showId) {
    const key = roomKey('pass', showId);
    if (!key) return null;
    try {
      const p = JSON.parse(localStorage.getItem(key) || 'null');
      if (p && Date.parse(p.passExpiresAt) > serverNow() + 5_000) return p;
    } catch { /* fall through */ }
    return null;
  },
  keepPass(showId, pass, passExpiresAt) {
    const key = roomKey('pass', showId);
    if (key) localStorage.setItem(key, JSON.stringify({pass, passExpiresAt}));
  },
  dropPass(showId) {
    const key = roomKey('pass', showId);
    if (key) localStorage.removeItem(key);
  },
  queueToken(showId) {
    const key = roomKey('queue', showId);
    return key ? localStorage.getItem(key) : null;
  },
  keepQueueToken(showId, token) {
    const key = roomKey('queue', showId);
    if (key) localStorage.setItem(key, token);
  },
};
