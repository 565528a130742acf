// Solves the waiting room door's proof of work (ALTCHA v2, PBKDF2/SHA-256, deterministic mode) with
// the browser's own crypto, off the page's thread. Tries counters start, start + step, … : each
// worker of a page takes its own share, and the first to find the key wins.

const hex = s => Uint8Array.from(s.match(/../g) || [], b => parseInt(b, 16));
const toHex = bytes => Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');

self.onmessage = async ({data: {parameters, start, step}}) => {
  const nonce = hex(parameters.nonce);
  const salt = hex(parameters.salt);
  const prefix = hex(parameters.keyPrefix);
  const password = new Uint8Array(nonce.length + 4);
  password.set(nonce);
  const counterAt = new DataView(password.buffer);
  const began = performance.now();
  for (let counter = start; counter <= 0xffffffff; counter += step) {
    counterAt.setUint32(nonce.length, counter, false);
    const key = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
    const derived = new Uint8Array(await crypto.subtle.deriveBits(
      {name: 'PBKDF2', salt, iterations: parameters.cost, hash: 'SHA-256'}, key, parameters.keyLength * 8));
    if (prefix.every((b, i) => derived[i] === b)) {
      self.postMessage({counter, derivedKey: toHex(derived), took: performance.now() - began});
      return;
    }
  }
  self.postMessage({error: 'no solution'});
};
