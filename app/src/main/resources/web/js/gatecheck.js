// The check an offline gate runs in the browser: the same steps, in the same order and with the same
// verdicts, as the service's OfflineVerifier (org.boxoffice.app.gates), with the show's Ed25519 public
// key checked by WebCrypto. Nothing here touches the network.

/** How a verdict reads at the door (the last two are the online check's only: gate.js). */
export const VERDICTS = {
  ACCEPT: {admit: true, title: 'Admit', reason: 'A valid ticket for this show.'},
  ALREADY_SCANNED_HERE: {admit: false, title: 'Already in', reason: 'This gate admitted this ticket before.'},
  REVOKED: {admit: false, title: 'Refuse', reason: 'Cancelled, or passed on to someone else: this code was replaced.'},
  EXPIRED_WINDOW: {admit: false, title: 'Refuse', reason: 'An old code (a screenshot?). Ask for the live code on the phone.'},
  BAD_SIGNATURE: {admit: false, title: 'Refuse', reason: 'Not a ticket for this show.'},
  ALREADY_USED: {admit: false, title: 'Already in', reason: 'This ticket was admitted before, at this door or another.'},
  WRONG_SHOW: {admit: false, title: 'Refuse', reason: 'A ticket for another show.'},
};

const PREFIX = 'BXS.';
const MAX_CODE = 512;
const ID = /^[A-Za-z0-9._~@:-]{1,64}$/;
const NUMBER = /^[+-]?\d{1,19}$/;

function base64url(text) {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new Error('not base64url');
  return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), c => c.charCodeAt(0));
}

/** The show's public key (base64url of its X.509 SubjectPublicKeyInfo), ready for verify(). */
export function importKey(publicKey) {
  return crypto.subtle.importKey('spki', base64url(publicKey), {name: 'Ed25519'}, false, ['verify']);
}

/** Whether the text is a signed code at all (before any check). */
export function isSigned(code) {
  return typeof code === 'string' && code.startsWith(PREFIX);
}

/** What a signed code claims, if it is well formed and `key` signed it; null otherwise. */
export async function read(code, key) {
  if (!isSigned(code) || code.length > MAX_CODE) return null;
  const parts = code.slice(PREFIX.length).split('.');
  if (parts.length !== 2) return null;
  let payload;
  try {
    payload = base64url(parts[0]);
    const signature = base64url(parts[1]);
    if (!await crypto.subtle.verify({name: 'Ed25519'}, key, signature, payload)) return null;
  } catch {
    return null;
  }
  const f = new TextDecoder().decode(payload).split('/');
  if (f.length !== 5 || !ID.test(f[1]) || !ID.test(f[2]) || !NUMBER.test(f[0]) || !NUMBER.test(f[3]) || !NUMBER.test(f[4])) {
    return null;
  }
  const bookingId = BigInt(f[0]).toString();
  const version = Number(f[3]);
  return {bookingId, showId: f[1], seatId: f[2], version, step: Number(f[4]), ticket: `${bookingId}/${f[2]}`};
}

/**
 * The verdict on `code` for show `showId` at `nowMillis`: `revoked` is the bundle's list
 * (bookingId/seatId/version or bookingId/seatId/*), `scannedHere` the tickets (bookingId/seatId) this
 * gate admitted before. Resolves to {verdict, claim}; claim is null for BAD_SIGNATURE.
 */
export async function verify(code, {showId, key, revoked, stepSeconds, windowSteps}, nowMillis, scannedHere) {
  const claim = await read(code, key);
  if (!claim || claim.showId !== showId) return {verdict: 'BAD_SIGNATURE', claim: null};
  if (revoked.has(`${claim.ticket}/*`) || revoked.has(`${claim.ticket}/${claim.version}`)) return {verdict: 'REVOKED', claim};
  if (Math.abs(claim.step - Math.floor(nowMillis / (stepSeconds * 1000))) > windowSteps) return {verdict: 'EXPIRED_WINDOW', claim};
  if (scannedHere.has(claim.ticket)) return {verdict: 'ALREADY_SCANNED_HERE', claim};
  return {verdict: 'ACCEPT', claim};
}
