// The fan's place on a sold-out show's waitlist: joining (seats, or a quantity of a standing area),
// where they stand, leaving, and the offer once one is made. An offer is an ordinary hold the service
// made for the fan; taking it is its checkout (#/hold/<holdId>). The service tells the fan's open page
// of an offer as it is made, over the show's live stream opened with the fan's key (a notice); the
// page also asks for the fan's entry while it is live and visible: every few seconds while that
// stream is down, rarely while it is up.

import {api, ApiError, session, serverNow} from './api.js';
import {h, clear, icon, money, plural, clock, time, announce} from './dom.js';
import {areaLabel} from './areas.js';

/** How often the entry is asked for while the fan's stream is down: the offer is known by this. */
const POLL_MS = 5000;
/** ... and while the stream carries the fan's notices: only to catch what a notice could not say. */
const STREAMED_POLL_MS = 60_000;

/** The most seats or admissions one entry may wait for (the API's own bound, beside the show's limits). */
export const MOST = 10;

/** Entries that still wait, or whose offer is open; the rest have ended. */
const LIVE = new Set(['WAITING', 'OFFERING', 'OFFERED']);

export function isLive(entry) {
  return Boolean(entry && LIVE.has(entry.status));
}

/** What an entry waits for, in a sentence: "2 tickets for Floor", "2 seats together in section A". */
export function waitingFor(entry) {
  if (entry.area) return `${plural(entry.quantity, 'ticket', 'tickets')} for ${areaLabel(entry.area)}`;
  const seats = entry.quantity === 1 ? '1 seat' : `${entry.quantity} seats together`;
  return entry.section ? `${seats} in section ${entry.section}` : seats;
}

/** "1st", "2nd", "23rd": a place in line. */
function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({1: 'st', 2: 'nd', 3: 'rd'}[n % 10] || 'th');
  return `${n}${suffix}`;
}

/**
 * The signed-in fan's entry on one show's waitlist (GET …/waitlist/me), kept current while it is
 * live. onChange(entry, before) is called whenever what the service says about it changed.
 */
export class Waitlist {
  constructor(showId, onChange) {
    this.showId = showId;
    this.path = `/v1/shows/${encodeURIComponent(showId)}/waitlist`;
    this.onChange = onChange;
    this.entry = null;
    this.onVisible = () => { if (!document.hidden && isLive(this.entry)) this.load().catch(() => {}); };
    document.addEventListener('visibilitychange', this.onVisible);
  }

  /**
   * Whether the show's live stream carries this fan's notices now: then an offer arrives on it as
   * it is made, and the entry is asked for rarely; otherwise every POLL_MS.
   */
  streaming(on) {
    if (this.streamed === on) return;
    this.streamed = on;
    if (!on && isLive(this.entry)) this.load().catch(() => this.set(this.entry));
    else this.set(this.entry);
  }

  /**
   * A notice from the fan's stream: an offer made for them is shown at once, from the notice (what
   * it holds, until when), and then asked for; a lapse of their offer is asked for too.
   */
  notice(n) {
    if (!n || n.showId !== this.showId || this.stopped) return;
    const offered = this.entry?.offer?.holdId;
    if (n.kind === 'OFFER_MADE' && this.entry && offered !== n.holdId) {
      this.set({...this.entry, status: 'OFFERED', position: 0, offer: {holdId: n.holdId, seatIds: n.seatIds || [],
        expiresAt: new Date(n.expiresAt).toISOString(), checkout: `/v1/holds/${encodeURIComponent(n.holdId)}/checkout`}});
      this.load().catch(() => {});
    } else if (n.kind === 'OFFER_MADE' && !this.entry) {
      this.load().catch(() => {});
    } else if (n.kind === 'OFFER_LAPSING' && offered === n.holdId && this.entry.status === 'OFFERED') {
      announce(`Your waitlist offer lapses at ${time(new Date(n.expiresAt).toISOString())}. Buy it before then, or it goes to the next fan in line.`);
    } else if (n.kind === 'HOLD_LAPSED' && offered === n.holdId) {
      this.load().catch(() => {});
    }
  }

  /** Where this device notes that the signed-in fan is in this show's line. */
  key() {
    const s = session.get();
    return s ? `boxoffice.waitlist.${s.accountId}.${this.showId}` : null;
  }

  /** Whether this device saw the signed-in fan join this show's line, and not yet leave it. */
  remembered() {
    const key = this.key();
    return Boolean(key && localStorage.getItem(key));
  }

  /** Asks for the fan's entry; a fan who is not signed in, or never joined, has none. */
  async load() {
    if (!session.get() || this.stopped) return this.entry;
    try {
      this.set(await api(`${this.path}/me`, {auth: true}));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) this.set(null);
      else throw e;
    }
    return this.entry;
  }

  /** Joins with {area, quantity} or {quantity, section}; rejects with the API's refusal (ApiError). */
  async join(request) {
    const entry = await api(this.path, {method: 'POST', auth: true, body: request});
    this.set(entry);
    return entry;
  }

  /** Leaves the line; an open offer is declined with it and goes to the next fan in line. */
  async leave() {
    try {
      await api(this.path, {method: 'DELETE', auth: true});
    } catch (e) {
      // not in line any more (it ended meanwhile): what it became is what the fan should see
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
    return this.load();
  }

  set(entry) {
    const before = this.entry;
    this.entry = entry;
    const key = this.key();
    if (key && isLive(entry)) localStorage.setItem(key, '1');
    else if (key) localStorage.removeItem(key);
    clearTimeout(this.timer);
    if (isLive(entry) && !this.stopped) {
      this.timer = setTimeout(() => {
        if (document.hidden) return; // picked up again by onVisible
        this.load().catch(() => this.set(this.entry));
      }, this.streamed ? STREAMED_POLL_MS : POLL_MS);
    }
    if (JSON.stringify(entry) !== JSON.stringify(before)) this.onChange(entry, before);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    document.removeEventListener('visibilitychange', this.onVisible);
  }
}

/**
 * The panel that says where the fan stands: in line (their place, what they wait for, a way to
 * leave), an offer (what is held for them, until when, a way to take it and a way to decline it), or
 * how their last entry ended. Empty when there is nothing to say.
 */
export class WaitlistPanel {
  /**
   * @param options.price   (entry) => the offer's total, or null when unknown
   * @param options.leave   () => leaves the line / declines the offer
   * @param options.currency the show's currency
   */
  constructor({price, leave, currency}) {
    this.price = price;
    this.leave = leave;
    this.currency = currency;
    this.body = h('div', {class: 'waitlist__body'});
    this.el = h('section', {class: 'panel waitlist', id: 'waitlist', 'aria-labelledby': 'waitlist-title', hidden: true},
      h('h2', {class: 'panel__title', id: 'waitlist-title'}, 'Your waitlist place'), this.body);
  }

  render(entry, {busy = false} = {}) {
    clearInterval(this.ticker);
    const body = clear(this.body);
    const content = entry ? this.content(entry, busy) : null;
    this.el.hidden = !content;
    this.el.dataset.status = entry ? entry.status : '';
    if (content) body.append(...content);
  }

  content(entry, busy) {
    const leaveButton = label => h('button', {class: 'btn btn--ghost btn--block', type: 'button', disabled: busy,
      onclick: () => this.leave()}, busy ? 'Leaving…' : label);
    switch (entry.status) {
      case 'WAITING':
        return [
          h('p', {class: 'waitlist__place'}, icon('people'), h('span', {},
            entry.position === 1 ? 'You are next in line' : `You are ${ordinal(entry.position)} in line`,
            ` for ${waitingFor(entry)}.`)),
          h('p', {class: 'muted small'}, 'When enough come back, we hold them for you and tell you by email and here. '
            + 'You then have a few minutes to buy them. Your place only moves up.'),
          leaveButton('Leave the waitlist')];
      case 'OFFERING':
        return [h('p', {class: 'waitlist__place', role: 'status'}, icon('clock'),
          h('span', {}, `Tickets came back: we are holding ${waitingFor(entry)} for you…`))];
      case 'OFFERED': {
        const offer = entry.offer;
        const left = h('strong', {class: 'waitlist__left'});
        const tick = () => {
          const ms = Date.parse(offer.expiresAt) - serverNow();
          left.textContent = clock(ms / 1000);
          if (ms <= 0) clearInterval(this.ticker);
        };
        tick();
        this.ticker = setInterval(tick, 1000);
        const total = this.price(entry);
        const seats = offer.seatIds && offer.seatIds.length ? ` (${offer.seatIds.join(', ')})` : '';
        return [
          h('div', {class: 'waitlist__offer'},
            h('p', {class: 'waitlist__headline'}, icon('check'), h('strong', {}, 'Good news: tickets are held for you')),
            h('p', {}, `${waitingFor(entry)[0].toUpperCase()}${waitingFor(entry).slice(1)}${seats}`,
              total != null ? ` · ${money(total, this.currency)}` : '', '.'),
            h('p', {class: 'waitlist__expiry'}, `Yours until ${time(offer.expiresAt)} · `, left, ' left')),
          h('a', {class: 'btn btn--primary btn--block', href: `#/hold/${encodeURIComponent(offer.holdId)}`}, 'Buy now'),
          leaveButton('Decline the offer')];
      }
      case 'EXPIRED':
        return [h('p', {class: 'muted'}, 'Your waitlist offer lapsed and went to the next fan in line. You can join again.')];
      case 'CLOSED':
        return [h('p', {class: 'muted'}, 'Sales closed while you were on the waitlist.')];
      case 'REFUSED':
        return [h('p', {class: 'muted'}, 'Tickets came back, but they would have taken you past this show’s limit per fan, '
          + 'so they went to the next fan in line.')];
      default:
        return null; // left, declined, booked: nothing to say here
    }
  }

  stop() {
    clearInterval(this.ticker);
  }
}

/** Read to screen readers when the fan's entry changed while they look at the page. */
export function announceChange(entry, before) {
  if (!entry || !before || entry.status === before.status) return;
  if (entry.status === 'OFFERED') announce(`Tickets are held for you from the waitlist until ${time(entry.offer.expiresAt)}.`);
  else if (entry.status === 'EXPIRED') announce('Your waitlist offer lapsed.');
}
