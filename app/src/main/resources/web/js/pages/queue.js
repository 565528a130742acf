// The waiting room of a show in rush mode: join, watch your place, move on to the seat map with the
// pass once admitted. Admission is a long poll (queue/status?wait=20); between its answers the place
// is kept current from the public counters (queue/summary), which a CDN may cache for a second.
// When the room asks for a proof of work (summary.challengeDifficulty > 0) the page fetches a
// challenge and solves it in Web Workers while it shows the room, then joins with the solution.

import {api, ApiError, session, requireSession, room} from '../api.js';
import {h, clear, icon, count, roughDuration, dateTime, time, announce} from '../dom.js';
import {solveChallenge} from '../challenge.js';

const LONG_POLL_SECONDS = 20;

export async function render(main, [showId]) {
  const id = encodeURIComponent(showId);
  const [show, summary] = await Promise.all([api(`/v1/shows/${id}`), api(`/v1/shows/${id}/queue/summary`)]);
  if (!summary.active || room.pass(showId)) {
    location.replace(`#/show/${id}`);
    return null;
  }
  return new QueuePage(main, show, summary.challengeDifficulty > 0).cleanup;
}

/** Joins with a fresh challenge at most this many times when one is refused (expired, say). */
const CHALLENGE_TRIES = 3;
/** How many times a fan asks a busy door again before the page gives up (a second or so apart). */
const BUSY_TRIES = 30;

class QueuePage {
  constructor(main, show, challenged) {
    this.show = show;
    this.challenged = challenged;
    this.id = encodeURIComponent(show.showId);
    this.abort = new AbortController();
    this.first = null;
    this.build(main);
    this.cleanup = () => {
      this.left = true;
      this.abort.abort();
      clearInterval(this.summaryTimer);
      clearTimeout(this.retryTimer);
    };
    window.boxoffice.page = this;
    if (session.get()) this.join();
  }

  build(main) {
    const show = this.show;
    this.body = h('div', {class: 'room__body', 'aria-live': 'polite'});
    main.append(h('section', {class: 'room', 'aria-labelledby': 'room-title'},
      h('div', {class: 'room__card panel'},
        h('span', {class: 'room__icon', 'aria-hidden': 'true'}, icon('people')),
        h('p', {class: 'eyebrow'}, 'Waiting room'),
        h('h1', {id: 'room-title'}, show.title || show.showId),
        h('p', {class: 'muted'}, dateTime(show.startsAt), show.venue ? ` · ${show.venue.name}, ${show.venue.city}` : ''),
        this.body)));
    this.renderIntro();
  }

  renderIntro() {
    clear(this.body).append(
      h('p', {}, 'So many fans want tickets right now that we let them in a few at a time, in a fair order.'),
      h('button', {class: 'btn btn--primary btn--large', type: 'button', onclick: () => this.join()}, 'Join the queue'));
  }

  async join() {
    try {
      await requireSession();
    } catch {
      return;
    }
    try {
      const place = await this.enter();
      room.keepQueueToken(this.show.showId, place.queueToken);
      this.update(place);
      this.summaryTimer = setInterval(() => this.refreshFromSummary(), 2000);
      this.wait();
    } catch (e) {
      this.failed(e);
    }
  }

  /** Joins the room, solving the door's challenge first when the room asks for one. */
  async enter() {
    for (let tries = 1; ; tries++) {
      const headers = {};
      if (this.challenged) {
        clear(this.body).append(h('p', {class: 'room__big', id: 'queue-door'}, 'Getting you a place in line…'),
          h('p', {class: 'muted'}, 'This takes a moment while your browser checks in.'));
        let challenge;
        try {
          challenge = await api(`/v1/challenge?showId=${this.id}`, {auth: true, signal: this.abort.signal});
        } catch (e) {
          if (e instanceof ApiError && e.status === 429 && tries < BUSY_TRIES) {
            // the door is busy (or this network asked a lot): wait as told, then ask again
            const seconds = Number(e.body.retryAfterSeconds) || 1;
            await new Promise(resolve => { this.retryTimer = setTimeout(resolve, seconds * 1000); });
            continue;
          }
          if (!(e instanceof ApiError && e.code === 'CHALLENGE_NOT_REQUIRED')) throw e;
          this.challenged = false;
          continue;
        }
        const solved = await solveChallenge(challenge, this.abort.signal);
        // what the browser test reads to report the cost a fan's device pays
        window.boxoffice.challenge = {counter: solved.counter, took: solved.took, workers: solved.workers,
          cost: challenge.parameters.cost};
        headers['Challenge-Solution'] = solved.payload;
      }
      try {
        return await api(`/v1/shows/${this.id}/queue`, {method: 'POST', auth: true, headers, signal: this.abort.signal});
      } catch (e) {
        const refused = e instanceof ApiError && e.code.startsWith('CHALLENGE_');
        if (!refused || tries >= CHALLENGE_TRIES) throw e;
        this.challenged = true;
      }
    }
  }

  /** Long-polls until admitted; each answer also refreshes the place. */
  async wait() {
    while (!this.left) {
      const token = room.queueToken(this.show.showId);
      let status;
      try {
        status = await api(`/v1/shows/${this.id}/queue/status?wait=${LONG_POLL_SECONDS}`, {auth: true,
          headers: {'Queue-Token': token}, signal: this.abort.signal});
      } catch (e) {
        if (e.name === 'AbortError' || this.left) return;
        if (e instanceof ApiError && e.code === 'QUEUE_TOKEN_INVALID') {
          return this.join();
        }
        if (e instanceof ApiError && e.status !== 0 && e.status < 500) return this.failed(e);
        await new Promise(resolve => { this.retryTimer = setTimeout(resolve, 2000); });
        continue;
      }
      if (status.queueToken) room.keepQueueToken(this.show.showId, status.queueToken);
      if (status.admitted && status.pass) {
        return this.admitted(status);
      }
      this.update(status);
    }
  }

  async refreshFromSummary() {
    if (!this.place || !this.place.position) return;
    try {
      const s = await api(`/v1/shows/${this.id}/queue/summary`, {signal: this.abort.signal});
      if (!s.active) return;
      const ahead = Math.max(0, this.place.position - s.admittedUpTo - 1);
      this.update({...this.place, ahead, estimatedWaitSeconds: Math.ceil(ahead / Math.max(0.1, s.admissionRate))});
    } catch { /* the long poll carries on */ }
  }

  update(place) {
    this.place = place;
    if (this.first == null && place.position) this.first = Math.max(1, place.ahead + 1);
    const preQueue = place.status === 'PRE_QUEUE';
    const progress = this.first ? Math.min(1, Math.max(0.04, 1 - place.ahead / this.first)) : 0.04;
    const box = clear(this.body);
    box.dataset.status = place.status;
    if (preQueue) {
      box.append(
        h('p', {class: 'room__big'}, 'You’re in the pre-queue'),
        h('p', {}, `The sale opens at ${time(place.opensAt)}. Everyone here before then gets a random place in line at that moment — arriving early gives no advantage.`),
        h('p', {class: 'muted'}, `${count(place.ahead)} fans are waiting with you.`));
    } else {
      box.append(
        h('dl', {class: 'room__stats'},
          h('div', {}, h('dt', {}, 'Your place'), h('dd', {class: 'room__position', id: 'queue-position'}, `#${count(place.position)}`)),
          h('div', {}, h('dt', {}, 'Ahead of you'), h('dd', {id: 'queue-ahead'}, count(place.ahead))),
          h('div', {}, h('dt', {}, 'Estimated wait'), h('dd', {id: 'queue-wait'}, roughDuration(place.estimatedWaitSeconds)))),
        h('div', {class: 'progress', role: 'progressbar', 'aria-label': 'Progress through the queue',
          'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': Math.round(progress * 100)},
        h('span', {class: 'progress__bar', style: `transform:scaleX(${progress})`})));
    }
    box.append(h('p', {class: 'muted small room__note'},
      'Keep this page open: it moves on by itself when it is your turn. Reloading keeps your place.'));
  }

  admitted(status) {
    room.keepPass(this.show.showId, status.pass, status.passExpiresAt);
    clearInterval(this.summaryTimer);
    clear(this.body).append(
      h('p', {class: 'room__big room__big--go'}, icon('check'), 'It’s your turn!'),
      h('p', {}, `Choose your seats now. Your pass is valid until ${time(status.passExpiresAt)}.`));
    this.body.dataset.status = 'ADMITTED';
    announce('It is your turn. Taking you to the seat map.');
    setTimeout(() => {
      if (!this.left) location.hash = `#/show/${this.id}`;
    }, 1200);
  }

  failed(e) {
    if (e.name === 'AbortError') return;
    if (e instanceof ApiError && e.code === 'QUEUE_NOT_ACTIVE') {
      location.replace(`#/show/${this.id}`);
      return;
    }
    if (e instanceof ApiError && e.status === 401) {
      this.renderIntro();
      return;
    }
    clear(this.body).append(h('p', {class: 'notice notice--error', role: 'alert'}, e.message),
      h('button', {class: 'btn btn--primary', type: 'button', onclick: () => this.join()}, 'Try again'));
  }
}
