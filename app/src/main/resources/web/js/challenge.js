// The waiting room's door: a proof-of-work challenge the page solves by itself while it shows the
// room, so a fan never sees a puzzle. A few Web Workers (one per core, at most four) share the
// counters; the answer goes, base64-encoded, in the Challenge-Solution header of the join.

const MAX_WORKERS = 4;

/**
 * Solves a challenge from GET /v1/challenge. Resolves to {payload, counter, took, workers}; rejects
 * if aborted.
 */
export function solveChallenge(challenge, signal) {
  const workers = Math.max(1, Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 1));
  const began = performance.now();
  const pool = [];
  const stop = () => pool.forEach(w => w.terminate());
  return new Promise((resolve, reject) => {
    if (signal) {
      signal.addEventListener('abort', () => {
        stop();
        reject(new DOMException('aborted', 'AbortError'));
      }, {once: true});
    }
    for (let i = 0; i < workers; i++) {
      const worker = new Worker('/js/challenge-worker.js');
      pool.push(worker);
      worker.onerror = e => {
        stop();
        reject(new Error(e.message || 'the challenge worker failed'));
      };
      worker.onmessage = ({data}) => {
        stop();
        if (data.error) return reject(new Error(data.error));
        const solution = {counter: data.counter, derivedKey: data.derivedKey};
        resolve({
          payload: btoa(JSON.stringify({challenge, solution})),
          counter: data.counter,
          took: performance.now() - began,
          workers,
        });
      };
      worker.postMessage({parameters: challenge.parameters, start: i, step: workers});
    }
  });
}
