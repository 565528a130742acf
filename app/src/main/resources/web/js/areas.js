// General-admission areas (a standing floor): sold by count, not seat by seat. What each has left
// comes with the show document, then from GET /v1/shows/{id}/areas, which is public and cacheable
// for a second: the seat map's event stream carries seats only, so the show page polls it (with
// If-None-Match, so an unchanged answer is a 304 without a body).

import {plural} from './dom.js';

const POLL_MS = 2000;

/** "FLOOR" -> "Floor": an area's name as a fan reads it. Short all-capital names (GA, VIP, PIT) stay as they are. */
export function areaLabel(name) {
  return /^[A-Z]{4,}$/.test(name) ? name[0] + name.slice(1).toLowerCase() : name;
}

/**
 * A ticket of an admission is named `AREA~n` (its area and its number in the booking); a seat's
 * ticket is named by its seat id. Answers {area, number} for an admission, null for a seat.
 */
export function admissionOf(ticketId) {
  const m = /^([A-Za-z0-9]{1,16})~([0-9]+)$/.exec(ticketId || '');
  return m ? {area: m[1], number: Number(m[2])} : null;
}

/** How a ticket is named in a sentence: "seat A-1-2" or "Floor admission 3". */
export function ticketName(ticketId) {
  const admission = admissionOf(ticketId);
  return admission ? `${areaLabel(admission.area)} admission ${admission.number}` : `seat ${ticketId}`;
}

/** The same at the start of a sentence: "Seat A-1-2", "Floor admission 3". */
export function ticketTitle(ticketId) {
  const name = ticketName(ticketId);
  return name[0].toUpperCase() + name.slice(1);
}

/** What a hold holds, for a sentence: "3 tickets for Floor" or "2 seats". */
export function holdWhat(hold) {
  return hold.area ? `${plural(hold.quantity, 'ticket', 'tickets')} for ${areaLabel(hold.area)}` : plural(hold.seatIds.length, 'seat', 'seats');
}

/**
 * Keeps a show's areas current: polls the areas' answer every two seconds while the page is
 * visible, and calls onChange(areas) when what they have left changed.
 */
export class LiveAreas {
  constructor(showId, areas, onChange) {
    this.path = `/v1/shows/${encodeURIComponent(showId)}/areas`;
    this.areas = areas;
    this.onChange = onChange;
    this.etag = null;
    this.timer = setInterval(() => this.refresh().catch(() => {}), POLL_MS);
  }

  async refresh() {
    if (document.hidden || this.stopped) return;
    const headers = {Accept: 'application/json'};
    if (this.etag) headers['If-None-Match'] = this.etag;
    const response = await fetch(this.path, {headers, cache: 'no-store'});
    if (response.status === 304 || !response.ok || this.stopped) return;
    this.etag = response.headers.get('ETag');
    const {areas} = await response.json();
    this.set(areas);
  }

  /** Takes a newer view of the areas (from a poll, or a refusal that said what is left). */
  set(areas) {
    const before = JSON.stringify(this.areas);
    this.areas = areas;
    if (JSON.stringify(areas) !== before) this.onChange(areas);
  }

  stop() {
    this.stopped = true;
    clearInterval(this.timer);
  }
}
