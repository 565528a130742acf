// The fan's bookings.

import {api, ApiError} from '../api.js';
import {h, icon, money, plural, dateTime, dateBadge} from '../dom.js';

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
  main.append(h('header', {class: 'page-head'}, h('h1', {}, 'My tickets')),
    list.length
      ? h('ul', {class: 'bookings', role: 'list'}, list.map((b, n) => {
        const show = infos[n];
        return h('li', {}, h('a', {class: 'card booking-card', href: `#/booking/${encodeURIComponent(b.bookingId)}`},
          show.startsAt ? dateBadge(show.startsAt) : null,
          h('div', {class: 'booking-card__body'},
            h('strong', {}, show.title || b.showId),
            h('span', {class: 'muted small'}, show.startsAt ? dateTime(show.startsAt) : '', show.venue ? ` · ${show.venue.name}` : ''),
            h('span', {class: 'small'}, plural(b.seats.length, 'seat', 'seats'), ' · ', money(b.totalAmount, b.currency))),
          h('span', {class: `badge ${b.status === 'CONFIRMED' ? 'badge--ok' : ''}`}, b.status.toLowerCase()),
          icon('ticket')));
      }))
      : h('div', {class: 'empty empty--inline'}, h('p', {}, 'No tickets yet.'), h('a', {class: 'btn btn--primary', href: '#/'}, 'Find events')));
}
