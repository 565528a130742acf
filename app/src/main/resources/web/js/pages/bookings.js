// The fan's bookings, and what is held for them from waitlists.

import {api, ApiError, session} from '../api.js';
import {h, clear, icon, money, plural, dateTime, dateBadge, time, announce} from '../dom.js';
import {liveCode} from '../livecode.js';
import {admissionOf, ticketName, ticketTitle, areaLabel} from '../areas.js';

const shows = new Map();

/** A show's details, fetched once per page load. */
export function showInfo(showId) {
  if (!shows.has(showId)) {
    const p = api(`/v1/shows/${encodeURIComponent(showId)}`).catch(e => {
      shows.delete(showId);
      throw e;
    });
    shows.set(showId, p);
  }
  return shows.get(showId);
}

export async function render(main) {
  let list;
  try {
    ({bookings: list} = await api('/v1/accounts/me/bookings', {auth: true}));
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      main.append(h('section', {class: 'empty'}, h('h1', {}, 'My tickets'),
        h('p', {class: 'muted'}, 'Sign in to see the tickets you booked.'),
        h('p', {}, h('a', {class: 'btn btn--ghost', href: '#/'}, 'Find events'))));
      return null;
    }
    throw e;
  }
  const infos = await Promise.all(list.map(b => showInfo(b.showId).catch(() => ({}))));
  const [{transfers}, {tickets: given}, {offers: held}] = await Promise.all([
    api('/v1/accounts/me/transfers', {auth: true}), api('/v1/accounts/me/tickets', {auth: true}),
    api('/v1/accounts/me/offers', {auth: true}).catch(() => ({offers: []}))]);
  const heldShows = await Promise.all(held.map(o => showInfo(o.showId).catch(() => ({}))));
  const me = session.get()?.accountId;
  const codes = [];
  // Element.append writes null as the text "null": the parts this fan lacks are left out first
  main.append(...[h('header', {class: 'page-head'}, h('h1', {}, 'My tickets')),
    h('p', {class: 'tickets-sms small muted'}, 'Tickets by SMS too? ', h('a', {href: '#/account'}, 'Give a phone number'), ' (optional).'),
    waitlistOffers(held, heldShows),
    offers(transfers.filter(t => t.toAccountId === me && t.status === 'OFFERED')),
    passedOn(given, codes),
    list.length
      ? h('ul', {class: 'bookings', role: 'list'}, list.map((b, n) => {
        const show = infos[n];
        return h('li', {}, h('a', {class: 'card booking-card', href: `#/booking/${encodeURIComponent(b.bookingId)}`},
          show.startsAt ? dateBadge(show.startsAt) : null,
          h('div', {class: 'booking-card__body'},
            h('strong', {}, show.title || b.showId),
            h('span', {class: 'muted small'}, show.startsAt ? dateTime(show.startsAt) : '', show.venue ? ` · ${show.venue.name}` : ''),
            h('span', {class: 'small'}, b.seats.some(admissionOf) ? plural(b.seats.length, 'ticket', 'tickets')
              : plural(b.seats.length, 'seat', 'seats'), ' · ', money(b.totalAmount, b.currency))),
          h('span', {class: `badge ${b.status === 'CONFIRMED' ? 'badge--ok' : ''}`}, b.status.toLowerCase()),
          icon('ticket')));
      }))
      : h('div', {class: 'empty empty--inline'}, h('p', {}, given.length ? 'No bookings of your own yet.' : 'No tickets yet.'), h('a', {class: 'btn btn--primary', href: '#/'}, 'Find events'))]
    .filter(Boolean));
  if (!codes.length) return null;
  const tick = () => codes.forEach(c => c.tick());
  tick();
  const timer = setInterval(tick, 250);
  return () => clearInterval(timer);
}

/**
 * Holds the service made for this fan from a show's waitlist (GET /v1/accounts/me/offers): each is
 * bought at its checkout before it lapses, or declined on the show page.
 */
function waitlistOffers(held, infos) {
  if (!held.length) return null;
  return h('section', {class: 'panel transfers', id: 'waitlist-offers'},
    h('h2', {class: 'panel__title'}, 'Held for you from the waitlist'),
    h('ul', {role: 'list'}, held.map((o, n) => {
      const title = infos[n].title || o.showId;
      const what = o.area ? `${plural(o.quantity, 'ticket', 'tickets')} for ${areaLabel(o.area)}` : plural(o.quantity, 'seat', 'seats');
      return h('li', {class: 'transfer__offer'},
        h('span', {}, h('strong', {}, title), ` · ${what} · ${money(o.totalAmount, o.currency)} · until ${time(o.expiresAt)}`),
        h('a', {class: 'btn btn--primary btn--small', href: `#/hold/${encodeURIComponent(o.holdId)}`},
          'Buy now', h('span', {class: 'visually-hidden'}, ` ${what} for ${title}`)));
    })));
}

/** Tickets offered to this fan: accepting makes them theirs, with a new code. */
function offers(incoming) {
  if (!incoming.length) return null;
  return h('section', {class: 'panel transfers'},
    h('h2', {class: 'panel__title'}, 'Offered to you'),
    h('ul', {role: 'list'}, incoming.map(t => {
      const item = h('li', {class: 'transfer__offer'},
        h('span', {}, `${t.fromAccountId} offers you ${ticketName(t.seatId)} (${t.showId})`),
        h('button', {class: 'btn btn--primary btn--small', type: 'button', onclick: async e => {
          e.target.disabled = true;
          try {
            await api(`/v1/transfers/${encodeURIComponent(t.transferId)}/accept`, {method: 'POST', auth: true});
            announce(`${ticketTitle(t.seatId)} is yours.`);
            dispatchEvent(new HashChangeEvent('hashchange'));
          } catch (err) {
            clear(item).append(h('p', {class: 'field__error', role: 'alert'}, err.message));
          }
        }}, `Accept ${ticketName(t.seatId)}`));
      return item;
    })));
}

/** Tickets of others' bookings that were passed on to this fan, with their live codes and printed codes. */
function passedOn(given, codes) {
  if (!given.length) return null;
  return h('section', {class: 'panel transfers'},
    h('h2', {class: 'panel__title'}, 'Passed on to you'),
    h('ul', {role: 'list', 'aria-label': 'Tickets passed on to you'}, given.map(t => {
      const code = liveCode(t.bookingId, t.seatId, `Live entry code for ${ticketName(t.seatId)} of ${t.showId}`);
      codes.push(code);
      return h('li', {class: 'transfer__given'}, h('span', {}, `${ticketTitle(t.seatId)} (${t.showId})`), code.element,
        h('span', {class: 'ticket__code', title: t.code}, t.code));
    })));
}
