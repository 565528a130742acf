// A booking: one ticket per seat (or per admission to a standing area) with its live entry code (a QR that changes every 15 seconds, from
// codes signed ahead: livecode.js) and, where the show admits printed tickets, the printed QR code
// (fetched with the bearer token, shown from a blob URL).

import {api, ApiError, imageUrl} from '../api.js';
import {h, clear, icon, money, plural, dateTime, date, announce} from '../dom.js';
import {splitSeat} from './hold.js';
import {showInfo} from './bookings.js';
import {liveCode} from '../livecode.js';
import {admissionOf, areaLabel, ticketTitle} from '../areas.js';

export async function render(main, [bookingId], query) {
  let booking;
  try {
    booking = await api(`/v1/bookings/${encodeURIComponent(bookingId)}`, {auth: true});
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      main.append(h('section', {class: 'empty'}, h('h1', {}, 'Sign in to see your tickets'),
        h('p', {}, h('a', {class: 'btn btn--ghost', href: '#/'}, 'Back to all events'))));
      return null;
    }
    throw e;
  }
  const show = await showInfo(booking.showId);
  const urls = [];
  const fresh = query.get('new') === '1';

  const live = booking.status === 'CONFIRMED';
  const codes = [];
  const tickets = (booking.tickets || []).map(t => {
    // a ticket of a standing area is named AREA~n: the area and the admission's number, no seat
    const admission = admissionOf(t.seatId);
    const [section, row, number] = admission ? [] : splitSeat(t.seatId);
    const what = admission ? `${areaLabel(admission.area)}, standing, admission ${admission.number}`
      : `section ${section}, row ${row}, seat ${number}`;
    const img = h('img', {class: 'ticket__qr', alt: `Printed QR code of the ticket for ${what}`,
      width: 164, height: 164});
    const frame = h('div', {class: 'ticket__qrbox is-loading'}, img);
    const printed = h('details', {class: 'ticket__printed'},
      h('summary', {}, 'Printed ticket'),
      h('p', {class: 'muted small'}, 'The same code every time: print it, or show it where the door has no scanner for live codes.'),
      frame, h('p', {class: 'ticket__code', title: t.code}, t.code));
    imageUrl(t.qr).then(url => {
      urls.push(url);
      img.src = url;
      img.addEventListener('load', () => frame.classList.remove('is-loading'), {once: true});
    }).catch(e => {
      // a show that admits live codes only has no printed ticket (409 PRINT_AT_HOME_OFF), nor has a
      // booking being cancelled (409 TICKET_CANCELLING) or cancelled since the page was drawn (410)
      if (e instanceof ApiError && (e.status === 409 || e.status === 410)) {
        printed.remove();
        return;
      }
      frame.classList.remove('is-loading');
      frame.append(h('p', {class: 'muted small'}, 'The QR code could not be loaded. Reload the page to try again.'));
    });
    const code = live ? liveCode(booking.bookingId, t.seatId,
      `Live entry code for ${what}`) : null;
    if (code) codes.push(code);
    return h('li', {class: 'ticket', 'aria-label': `Ticket for ${what}`},
      h('div', {class: 'ticket__main'},
        h('p', {class: 'eyebrow'}, show.artist || 'Ticket'),
        h('h3', {class: 'ticket__title'}, show.title || booking.showId),
        h('p', {class: 'ticket__when'}, dateTime(show.startsAt)),
        show.venue ? h('p', {class: 'muted small'}, `${show.venue.name}, ${show.venue.city}`) : null,
        admission
          ? h('dl', {class: 'ticket__seat'},
            h('div', {}, h('dt', {}, 'Standing'), h('dd', {}, areaLabel(admission.area))),
            h('div', {}, h('dt', {}, 'Admission'), h('dd', {}, admission.number)))
          : h('dl', {class: 'ticket__seat'},
            h('div', {}, h('dt', {}, 'Section'), h('dd', {}, section)),
            h('div', {}, h('dt', {}, 'Row'), h('dd', {}, row)),
            h('div', {}, h('dt', {}, 'Seat'), h('dd', {}, number)))),
      h('div', {class: 'ticket__stub'}, code?.element, printed,
        transferBox(booking, t.seatId, what)));
  });
  const statusText = {CONFIRMED: 'Confirmed', REFUNDED: 'Refunded', CANCELLED: 'Cancelled'}[booking.status] || booking.status;
  // Element.append writes null as the text "null": the parts a booking lacks are left out first
  main.append(...[
    h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'},
      h('a', {href: '#/bookings'}, 'My tickets'), h('span', {'aria-hidden': 'true'}, '/'),
      h('span', {'aria-current': 'page'}, `Booking ${booking.bookingId}`)),
    fresh && live ? h('div', {class: 'success', role: 'status'},
      h('span', {class: 'success__icon', 'aria-hidden': 'true'}, icon('check')),
      h('div', {}, h('strong', {}, 'You’re going!'),
        h('p', {}, `Payment complete. ${plural(tickets.length, 'ticket is', 'tickets are')} below, and on their way by email.`))) : null,
    h('header', {class: 'booking-head'},
      h('div', {},
        h('p', {class: 'eyebrow'}, `Booking ${booking.bookingId}`),
        h('h1', {}, show.title || booking.showId),
        h('p', {class: 'muted'}, dateTime(show.startsAt), show.venue ? ` · ${show.venue.name}, ${show.venue.city}` : ''),
        // where the booking came from: the fan's own hold, or a waitlist offer held for them
        booking.origin === 'waitlist-offer'
          ? h('p', {class: 'small', id: 'booking-origin'}, icon('people'), ' Booked from a waitlist offer')
          : h('p', {class: 'small', id: 'booking-origin'}, 'Booked by you')),
      h('div', {class: 'booking-head__side'},
        h('span', {class: `badge ${live ? 'badge--ok' : ''}`}, statusText),
        h('strong', {class: 'booking-head__total'}, money(booking.totalAmount, booking.currency)))),
    live
      ? h('ul', {class: 'tickets', role: 'list', 'aria-label': 'Tickets'}, tickets)
      : h('p', {class: 'notice notice--info'}, 'This booking no longer has valid tickets.'),
    history(booking),
    live ? cancelBox(booking, main) : null].filter(Boolean));
  if (fresh && live) announce(`You're going! ${plural(tickets.length, 'ticket', 'tickets')} booked.`);
  window.boxoffice.page = {booking, tickets: booking.tickets};
  const tick = () => codes.forEach(c => c.tick());
  tick();
  const timer = setInterval(tick, 250);
  return () => {
    clearInterval(timer);
    urls.forEach(u => URL.revokeObjectURL(u));
  };
}

/**
 * Hands a ticket to a friend: their name, then an offer they accept from their own "My tickets"
 * (the ticket is theirs then, with a new code; this one stops working). An open offer can be taken back.
 */
function transferBox(booking, seatId, seatName) {
  const box = h('div', {class: 'transfer'});
  const open = (booking.transfers || []).find(t => t.seatId === seatId && t.status === 'OFFERED');
  const offered = transfer => clear(box).append(
    h('p', {class: 'small', role: 'status'}, `Offered to ${transfer.toAccountId}`),
    h('button', {class: 'btn btn--ghost btn--small', type: 'button', onclick: async e => {
      e.target.disabled = true;
      try {
        await api(`/v1/transfers/${encodeURIComponent(transfer.transferId)}`, {method: 'DELETE', auth: true});
        announce('Offer taken back.');
        form();
      } catch (err) {
        e.target.disabled = false;
        box.append(h('p', {class: 'field__error', role: 'alert'}, err.message));
      }
    }}, 'Take back'));
  const form = () => {
    const id = `transfer-${seatId}`;
    const input = h('input', {id, name: 'to', autocomplete: 'off', maxlength: 64, required: true});
    const error = h('p', {class: 'field__error', role: 'alert'});
    clear(box).append(h('form', {class: 'transfer__form', 'aria-label': `Send the ticket for ${seatName}`,
      onsubmit: async e => {
        e.preventDefault();
        error.textContent = '';
        try {
          const transfer = await api(`/v1/bookings/${encodeURIComponent(booking.bookingId)}/tickets/${encodeURIComponent(seatId)}/transfers`,
            {method: 'POST', auth: true, body: {toAccountId: input.value.trim()}});
          announce(`Ticket offered to ${transfer.toAccountId}.`);
          offered(transfer);
        } catch (err) {
          error.textContent = err.message;
        }
      }},
      h('label', {class: 'field__label', for: id}, 'Send to a friend (their name)'),
      h('span', {class: 'transfer__row'}, input, h('button', {class: 'btn btn--ghost btn--small', type: 'submit'}, 'Send')),
      error));
  };
  if (open) offered(open); else form();
  return box;
}

/** The booking's tickets that changed hands. */
function history(booking) {
  const moved = booking.transfers || [];
  if (!moved.length) return null;
  const words = {OFFERED: 'offered to', ACCEPTED: 'now held by', CANCELLED: 'offer taken back from', REFUSED: 'not passed to'};
  return h('section', {class: 'panel transfers'},
    h('h2', {class: 'panel__title'}, 'Passed on'),
    h('ul', {role: 'list'}, moved.map(t => h('li', {class: 'small'}, `${ticketTitle(t.seatId)} ${words[t.status] || t.status} ${t.toAccountId}`))));
}

function cancelBox(booking, main) {
  const until = booking.cancellableUntil ? Date.parse(booking.cancellableUntil) : 0;
  if (!until || until < Date.now()) return null;
  const box = h('section', {class: 'panel cancel'},
    h('h2', {class: 'panel__title'}, 'Changed your plans?'),
    h('p', {class: 'muted'}, `You can cancel for a full refund until ${date(booking.cancellableUntil)}.`),
    h('button', {class: 'btn btn--danger', type: 'button', onclick: async e => {
      if (!confirm('Cancel this booking and get a refund? The seats go back on sale.')) return;
      e.target.disabled = true;
      try {
        await api(`/v1/bookings/${encodeURIComponent(booking.bookingId)}`, {method: 'DELETE', auth: true});
        announce('Booking cancelled. Your refund is on its way.');
        dispatchEvent(new HashChangeEvent('hashchange'));
      } catch (err) {
        e.target.disabled = false;
        clear(box).append(h('p', {class: 'notice notice--error', role: 'alert'}, err.message));
      }
    }}, 'Cancel booking'));
  return box;
}
