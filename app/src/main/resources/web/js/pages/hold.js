// The hold: the seats (or the admissions to a standing area), a countdown to the server's expiresAt, payment (the simulated provider), release.
// A hold the waitlist made for the fan (origin "waitlist-offer") says so, counts down to the offer's
// lapse, and when it lapses or is declined says that it passed to the next fan in line.

import {api, ApiError, newKey, serverNow} from '../api.js';
import {h, clear, icon, money, plural, clock, dateTime, time, announce} from '../dom.js';
import {areaLabel} from '../areas.js';

const PAYMENT_METHODS = [
  {value: 'card_ok', label: 'Test card — approved', hint: 'Paid at once'},
  {value: 'card_pending', label: 'Test card — bank confirms later', hint: 'Confirmed a few seconds later'},
  {value: 'card_declined', label: 'Test card — declined', hint: what => `Your ${what} stay held; try again`},
];

/** Keeps a just-made hold for the hold page, which then needs no round trip to show it. */
export function rememberHold(hold) {
  sessionStorage.setItem(`boxoffice.hold.${hold.holdId}`, JSON.stringify(hold));
}

export async function render(main, [holdId]) {
  const path = `/v1/holds/${encodeURIComponent(holdId)}`;
  let hold;
  try {
    hold = JSON.parse(sessionStorage.getItem(`boxoffice.hold.${holdId}`) || 'null') || await api(path, {auth: true});
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return signInFirst(main);
    throw e;
  }
  const show = await api(`/v1/shows/${encodeURIComponent(hold.showId)}`);
  return new HoldPage(main, hold, show, path).cleanup;
}

function signInFirst(main) {
  main.append(h('section', {class: 'empty'}, h('h1', {}, 'Sign in to see this hold'),
    h('p', {class: 'muted'}, 'Holds belong to the name you signed in with.'),
    h('p', {}, h('a', {class: 'btn btn--ghost', href: '#/'}, 'Back to all events'))));
  return null;
}

class HoldPage {
  constructor(main, hold, show, path) {
    this.hold = hold;
    this.show = show;
    this.path = path;
    this.what = hold.area ? 'tickets' : 'seats'; // a hold of admissions to a standing area has no seats
    this.offer = hold.origin === 'waitlist-offer';
    this.attemptKey = null; // the idempotency key of the payment attempt without an answer yet
    this.build(main);
    this.tick();
    this.timer = setInterval(() => this.tick(), 250);
    // the stored copy may be stale (another tab paid or released it): ask the service once
    api(path, {auth: true}).then(fresh => this.update(fresh)).catch(() => {});
    window.boxoffice.page = this;
    this.notices = this.follow();
    this.cleanup = () => {
      clearInterval(this.timer);
      clearTimeout(this.pollTimer);
      if (this.notices) this.notices.close();
      this.left = true;
    };
  }

  /**
   * The show's live stream, naming this hold with the fan's stream key (a hold's notices are the
   * fan's alone): the service says on it when the hold lapsed (at once, whatever this tab's clock
   * says) and when a waitlist offer is about to. Without a key (the service cannot be asked now) the
   * countdown and the hold's own answer still end the page.
   */
  follow() {
    if (this.done || typeof EventSource === 'undefined') return null;
    const stream = {source: null, closed: false, close() { this.closed = true; if (this.source) this.source.close(); }};
    api(`/v1/shows/${encodeURIComponent(this.hold.showId)}/events/key`, {method: 'POST', auth: true})
      .then(key => { if (!stream.closed && !this.done) stream.source = this.listen(`${key.events}&hold=${encodeURIComponent(this.hold.holdId)}`); })
      .catch(() => {});
    return stream;
  }

  listen(url) {
    const source = new EventSource(url);
    source.addEventListener('notice', e => {
      const notice = JSON.parse(e.data);
      if (notice.holdId !== this.hold.holdId) return;
      if (notice.kind === 'HOLD_LAPSED' && !this.paying) {
        // the notice's message is the one the fan's SMS or mail says (with the show's start as an
        // instant): the page says it in its own words, with the time the hold ran to
        this.lapsed(`Your ${this.what} were held for you until ${time(this.hold.expiresAt)} and are back on sale. You can choose again.`);
        source.close();
      } else if (notice.kind === 'OFFER_LAPSING' && !this.done && !this.paying) {
        this.status('warn', 'Your offer lapses soon', `Pay before ${time(this.hold.expiresAt)}, or the ${this.what} go to the next fan in line.`);
      }
    });
    return source;
  }

  build(main) {
    const {hold, show} = this;
    const sections = new Map(show.sections.map(s => [s.name, s]));
    this.countdown = h('span', {class: 'countdown__time', id: 'countdown'}, '–:––');
    this.countdownBar = h('span', {class: 'countdown__bar'});
    this.countdownBox = h('div', {class: 'countdown', role: 'timer', 'aria-live': 'off', 'aria-labelledby': 'countdown-label'},
      icon('clock'),
      h('div', {},
        h('span', {class: 'countdown__label', id: 'countdown-label'}, this.offer ? 'Your offer lapses in' : `Your ${this.what} are held for`),
        this.countdown),
      h('span', {class: 'countdown__track', 'aria-hidden': 'true'}, this.countdownBar));
    this.statusBox = h('div', {class: 'notices'});
    this.payButton = h('button', {class: 'btn btn--primary btn--block btn--large', type: 'submit', id: 'pay-button'},
      `Pay ${money(hold.totalAmount, hold.currency)}`);
    this.releaseButton = h('button', {class: 'btn btn--ghost btn--block', type: 'button', onclick: () => this.release()},
      this.offer ? 'Decline the offer' : `Release these ${this.what}`);
    this.form = h('form', {class: 'pay', onsubmit: e => {
      e.preventDefault();
      this.pay(new FormData(this.form).get('method'));
    }},
    h('fieldset', {class: 'methods'},
      h('legend', {}, 'Payment method'),
      PAYMENT_METHODS.map((m, n) => h('label', {class: 'method'},
        h('input', {type: 'radio', name: 'method', value: m.value, checked: n === 0}),
        h('span', {class: 'method__card', 'aria-hidden': 'true'}, icon('ticket')),
        h('span', {class: 'method__text'}, h('strong', {}, m.label), h('span', {class: 'muted small'}, typeof m.hint === 'function' ? m.hint(this.what) : m.hint))))),
    this.payButton,
    this.releaseButton);

    const seatRows = hold.area ? [h('li', {class: 'seatlist__item'},
      h('span', {class: 'seatlist__what'}, h('strong', {}, `${areaLabel(hold.area)} × ${hold.quantity}`), ' · standing'),
      h('span', {class: 'seatlist__price'}, money(hold.totalAmount, hold.currency)))] : hold.seatIds.map(id => {
      const [section, row, number] = splitSeat(id);
      const price = sections.get(section)?.price;
      return h('li', {class: 'seatlist__item'},
        h('span', {class: 'seatlist__what'}, h('strong', {}, `Section ${section}`), ` · Row ${row} · Seat ${number}`),
        h('span', {class: 'seatlist__price'}, price != null ? money(price, hold.currency) : ''));
    });

    main.append(
      h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'},
        h('a', {href: '#/'}, 'All events'), h('span', {'aria-hidden': 'true'}, '/'),
        h('a', {href: `#/show/${encodeURIComponent(show.showId)}`}, show.title || show.showId), h('span', {'aria-hidden': 'true'}, '/'),
        h('span', {'aria-current': 'page'}, 'Checkout')),
      h('div', {class: 'checkout'},
        h('section', {class: 'panel checkout__main'},
          h('p', {class: 'eyebrow'}, 'Checkout'),
          this.offer ? h('div', {class: 'offer-origin', id: 'offer-origin'},
            h('p', {class: 'offer-origin__title'}, icon('people'), h('strong', {}, 'Offered from the waitlist')),
            this.offerNote = h('p', {class: 'small'}, `You were next in line, so these ${this.what} are held for you until ${time(hold.expiresAt)}. `
              + 'If you do not buy them by then, they go to the next fan on the waitlist.')) : null,
          h('h1', {}, hold.area ? plural(hold.quantity, 'standing ticket', 'standing tickets') : plural(hold.seatIds.length, 'seat', 'seats'),
            ' for ', show.title || show.showId),
          h('p', {class: 'muted'}, dateTime(show.startsAt), show.venue ? ` · ${show.venue.name}, ${show.venue.city}` : ''),
          this.countdownBox,
          this.statusBox,
          this.form),
        h('aside', {class: 'panel checkout__summary', 'aria-label': 'Order summary'},
          h('h2', {class: 'panel__title'}, 'Order summary'),
          h('ul', {class: 'seatlist', role: 'list'}, seatRows),
          h('div', {class: 'total'}, h('span', {}, 'Total'), h('strong', {}, money(hold.totalAmount, hold.currency))),
          h('p', {class: 'muted small'}, `Hold ${hold.holdId}`))));
  }

  update(fresh) {
    this.hold = {...this.hold, ...fresh};
    if (fresh.status === 'CONFIRMED') this.findBooking();
    else if (fresh.status === 'RELEASED') this.released();
    else if (fresh.status === 'EXPIRED' && !this.paying) this.lapsed(`The ${this.what} went back on sale. You can choose again.`);
    this.tick();
  }

  tick() {
    if (this.done) return;
    const left = Date.parse(this.hold.expiresAt) - serverNow();
    // an offer lasts its own window (the waitlist's, not the show's hold time): the bar starts full
    this.total = this.total || (this.offer ? Math.max(left, 1000) : this.show.holdSeconds * 1000);
    const total = this.total;
    this.countdown.textContent = clock(left / 1000);
    this.countdownBar.style.transform = `scaleX(${Math.max(0, Math.min(1, left / total))})`;
    this.countdownBox.classList.toggle('countdown--low', left < 60_000);
    if (left <= 60_000 && !this.warned) {
      this.warned = true;
      announce(`One minute left to pay for your ${this.what}.`);
    }
    if (left <= 0 && !this.paying) {
      this.lapsed(`The ${this.what} went back on sale. You can choose again.`);
    }
  }

  /** The hold lapsed: a fan's hold went back on sale; an offer passed to the next fan in line. */
  lapsed(text) {
    if (this.offer) {
      this.ended('Your offer passed to the next fan', `It lapsed before it was bought: the ${this.what} go to the next fan `
        + 'on the waitlist (back on sale if nobody else is waiting). You can join the waitlist again from the show page.');
    } else {
      this.ended('Your hold expired', text);
    }
  }

  /** The hold was released (here or elsewhere): an offer then went to the next fan in line. */
  released() {
    if (this.offer) this.ended('You declined the offer', `The ${this.what} went to the next fan on the waitlist.`);
    else this.ended(`These ${this.what} were released`, 'They are back on sale.');
  }

  /** The hold cannot be paid any more: say why and offer the way back. */
  ended(title, text) {
    if (this.done) return;
    this.done = true;
    clearInterval(this.timer);
    if (this.notices) this.notices.close();
    this.countdown.textContent = '0:00';
    this.countdownBar.style.transform = 'scaleX(0)';
    // a fan on the Pay button or a payment method would be left on nothing: focus goes to the way back
    const hadFocus = this.form.contains(document.activeElement);
    this.form.hidden = true;
    if (this.offerNote) this.offerNote.hidden = true; // "held for you until …" is over
    this.status('error', title, text, h('a', {class: 'btn btn--primary btn--small', href: `#/show/${encodeURIComponent(this.show.showId)}`},
      this.hold.area || this.offer ? 'Back to the show' : 'Back to the seat map'));
    if (hadFocus) this.statusBox.querySelector('a').focus();
  }

  status(kind, title, text, action) {
    clear(this.statusBox).append(h('div', {class: `notice notice--${kind}`, role: kind === 'error' || kind === 'warn' ? 'alert' : 'status'},
      h('div', {class: 'notice__text'}, h('strong', {}, title), text ? h('p', {}, text) : null),
      action ? h('div', {class: 'notice__actions'}, action) : null));
  }

  busy(on, label) {
    this.paying = on;
    this.payButton.disabled = on;
    this.releaseButton.disabled = on;
    this.payButton.textContent = on ? label : `Pay ${money(this.hold.totalAmount, this.hold.currency)}`;
  }

  async pay(method) {
    if (this.paying || this.done) return;
    // a retry after no answer reuses the key: the service answers it without charging twice
    this.attemptKey = this.attemptKey || newKey('pay');
    this.busy(true, 'Paying…');
    clear(this.statusBox);
    let reply;
    try {
      reply = await api(`${this.path}/checkout`, {method: 'POST', auth: true, body: {paymentMethod: method},
        headers: {'Idempotency-Key': this.attemptKey}, withResponse: true});
    } catch (e) {
      this.busy(false);
      if (e instanceof ApiError && e.status !== 0 && e.status < 500) this.attemptKey = null;
      return this.refused(e);
    }
    this.attemptKey = null;
    if (reply.body.status === 'BOOKED') {
      this.booked(reply.body.bookingId);
    } else {
      this.busy(true, 'Waiting for your bank…');
      this.status('info', 'Your bank is confirming the payment', 'This usually takes a few seconds. Please keep this page open.');
      this.waitForBooking(Date.now() + 60_000);
    }
  }

  refused(e) {
    if (!(e instanceof ApiError)) throw e;
    api(this.path, {auth: true}).then(fresh => { this.hold = {...this.hold, ...fresh}; this.tick(); }).catch(() => {});
    switch (e.code) {
      case 'PAYMENT_DECLINED':
        this.status('warn', 'Your payment was declined', `Your ${this.what} are still held. Try another payment method.`);
        break;
      case 'HOLD_EXPIRED':
        if (this.offer) this.lapsed();
        else this.ended('Your hold expired', e.body.refunded ? 'Any money taken has been refunded. You can choose again.' : 'You can choose again.');
        break;
      case 'HOLD_RELEASED':
        if (this.offer) this.released();
        else this.ended(`These ${this.what} were released`, 'You can choose again.');
        break;
      case 'NOT_ALLOWED':
        // the service does not take payment for this hold (standing tickets, until checkout sells them): nothing was charged
        this.status('error', this.hold.area ? 'Standing tickets cannot be paid for here yet' : 'This hold cannot be paid for',
          `Nothing was charged.${this.hold.area ? '' : ` ${sentence(e.message)}`} Your ${this.what} stay held until the countdown ends, or release them now for other fans.`);
        break;
      case 'PAYMENT_IN_PROGRESS':
        // another tab (or an earlier try) is paying for this hold: follow it, never charge again
        this.busy(true, 'Waiting for your bank…');
        this.status('info', `A payment for these ${this.what} is already under way`, 'You will not be charged twice. Please keep this page open.');
        this.waitForBooking(Date.now() + 60_000);
        break;
      case 'UNAUTHORIZED':
        break;
      default:
        this.status('error', e.status === 0 || e.status >= 500 ? 'No answer from the payment service' : 'Payment failed',
          e.status === 0 || e.status >= 500 ? 'You have not been charged twice: pressing Pay again continues the same payment.' : e.message);
    }
  }

  async waitForBooking(deadline) {
    if (this.left) return;
    try {
      const {bookings} = await api('/v1/accounts/me/bookings', {auth: true});
      const booking = bookings.find(b => b.holdId === this.hold.holdId);
      if (booking) return this.booked(booking.bookingId);
      const fresh = await api(this.path, {auth: true});
      if (fresh.status === 'EXPIRED' || fresh.status === 'RELEASED') {
        this.busy(false);
        return this.ended('The payment did not go through in time', 'Your hold ended and any money taken is refunded.');
      }
    } catch { /* keep waiting */ }
    if (Date.now() > deadline) {
      this.busy(false);
      this.status('warn', 'Still waiting for your bank', 'We will email your tickets once it confirms. Your bookings are under “My tickets”.');
      return;
    }
    this.pollTimer = setTimeout(() => this.waitForBooking(deadline), 1000);
  }

  async findBooking() {
    try {
      const {bookings} = await api('/v1/accounts/me/bookings', {auth: true});
      const booking = bookings.find(b => b.holdId === this.hold.holdId);
      if (booking) this.booked(booking.bookingId);
    } catch { /* stay */ }
  }

  booked(bookingId) {
    this.done = true;
    clearInterval(this.timer);
    sessionStorage.removeItem(`boxoffice.hold.${this.hold.holdId}`);
    announce('Payment complete. Here are your tickets.');
    location.hash = `#/booking/${encodeURIComponent(bookingId)}?new=1`;
  }

  async release() {
    this.busy(true, 'Releasing…');
    try {
      await api(this.path, {method: 'DELETE', auth: true});
      sessionStorage.removeItem(`boxoffice.hold.${this.hold.holdId}`);
      announce(this.offer ? `You declined the offer; the ${this.what} go to the next fan in line.` : `Your ${this.what} were released.`);
      location.hash = `#/show/${encodeURIComponent(this.show.showId)}`;
    } catch (e) {
      this.busy(false);
      if (e instanceof ApiError && e.code === 'HOLD_CONFIRMED') return this.findBooking();
      if (e instanceof ApiError && e.code === 'PAYMENT_IN_PROGRESS') {
        // money may be moving: the seats stay with this payment until the bank decides
        this.busy(true, 'Waiting for your bank…');
        this.status('info', `A payment for these ${this.what} is under way`, `They cannot be released until your bank decides. Please keep this page open.`);
        return this.waitForBooking(Date.now() + 60_000);
      }
      this.status('error', `Could not release the ${this.what}`, e.message);
    }
  }
}

/** "a hold of admissions cannot be paid for yet" -> "A hold of admissions cannot be paid for yet." */
function sentence(text) {
  const t = String(text || '').trim();
  return t ? `${t[0].toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}` : '';
}

/** "A-12-7" -> ["A", "12", "7"]; section names may contain dashes, rows and numbers do not. */
export function splitSeat(id) {
  const last = id.lastIndexOf('-');
  const middle = id.lastIndexOf('-', last - 1);
  return [id.slice(0, middle), id.slice(middle + 1, last), id.slice(last + 1)];
}
