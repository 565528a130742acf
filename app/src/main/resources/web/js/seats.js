// A show's seats on the client: the layout from GET /v1/shows/{id} turned into typed arrays, the
// live statuses, and the stream that keeps them current (Server-Sent Events, polling as fallback).

export const AVAILABLE = 0;
export const HELD = 1;
export const SOLD = 2;
export const BLOCKED = 3;
export const STATUS_NAMES = ['available', 'held', 'sold', 'not for sale'];

// Price tiers, most expensive first. None of them is grey: grey means taken.
const TIER_COLORS = ['#6d28d9', '#2563eb', '#0e9f8e', '#65a30d', '#d97706', '#db2777', '#0891b2', '#9333ea'];

/**
 * Seats in layout order (the order of the availability bits). Seat ids are section-row-number,
 * numbers counted from 1 in each row.
 */
export class ShowModel {
  constructor(show) {
    this.show = show;
    this.currency = show.currency;
    this.seatCount = show.layout.seatCount;
    this.status = new Uint8Array(this.seatCount);
    this.seatRow = new Uint32Array(this.seatCount);
    this.loaded = false;

    const prices = [...new Set(show.sections.map(s => Number(s.price)))].sort((a, b) => b - a);
    this.tiers = prices.map((price, i) => ({price, color: TIER_COLORS[i % TIER_COLORS.length], sections: []}));
    this.sections = show.sections
      .slice()
      .sort((a, b) => a.rank - b.rank)
      .map((s, index) => {
        const tier = this.tiers[prices.indexOf(Number(s.price))];
        const section = {index, name: s.name, rank: s.rank, price: Number(s.price), seats: s.seats,
          color: tier.color, tier, rows: [], width: 0, available: 0};
        tier.sections.push(section);
        return section;
      });
    const byName = new Map(this.sections.map(s => [s.name, s]));
    this.rows = [];
    this.rowByKey = new Map();
    let start = 0;
    for (const block of show.layout.blocks) {
      const section = byName.get(block.section);
      for (const r of block.rows) {
        const row = {index: this.rows.length, section, label: String(r.row), start, count: r.seats,
          ordinal: section.rows.length};
        this.seatRow.fill(row.index, start, start + r.seats);
        this.rows.push(row);
        section.rows.push(row);
        section.width = Math.max(section.width, r.seats);
        this.rowByKey.set(`${section.name}-${row.label}`, row);
        start += r.seats;
      }
    }
  }

  row(i) {
    return this.rows[this.seatRow[i]];
  }

  section(i) {
    return this.rows[this.seatRow[i]].section;
  }

  seatId(i) {
    const row = this.row(i);
    return `${row.section.name}-${row.label}-${i - row.start + 1}`;
  }

  seatNumber(i) {
    return i - this.row(i).start + 1;
  }

  /** The seat's index in layout order, or -1. */
  indexOf(seatId) {
    const last = seatId.lastIndexOf('-');
    const row = this.rowByKey.get(seatId.slice(0, last));
    const n = Number(seatId.slice(last + 1));
    if (!row || !Number.isInteger(n) || n < 1 || n > row.count) return -1;
    return row.start + n - 1;
  }

  sectionByName(name) {
    return this.sections.find(s => s.name === name);
  }

  price(i) {
    return this.section(i).price;
  }

  describe(i) {
    const row = this.row(i);
    return `Section ${row.section.name}, row ${row.label}, seat ${i - row.start + 1}`;
  }

  /** Replaces every status; answers the indexes that changed. */
  setAll(statuses) {
    const changed = [];
    for (let i = 0; i < this.seatCount; i++) {
      if (this.status[i] !== statuses[i]) {
        changed.push(i);
        this.status[i] = statuses[i];
      }
    }
    if (!this.loaded || changed.length) this.recount();
    this.loaded = true;
    return changed;
  }

  /** Applies [[index, status], ...]; answers the indexes that changed. */
  apply(changes) {
    const changed = [];
    for (const [i, s] of changes) {
      if (i >= 0 && i < this.seatCount && this.status[i] !== s) {
        const section = this.section(i);
        if (this.status[i] === AVAILABLE) section.available--;
        if (s === AVAILABLE) section.available++;
        this.status[i] = s;
        changed.push(i);
      }
    }
    return changed;
  }

  recount() {
    this.sections.forEach(s => { s.available = 0; });
    for (let i = 0; i < this.seatCount; i++) {
      if (this.status[i] === AVAILABLE) this.section(i).available++;
    }
  }

  get available() {
    return this.sections.reduce((n, s) => n + s.available, 0);
  }
}

/** Two bits per seat, four to a byte, first seat in the lowest bits (the service's encoding). */
export function decode(base64, seatCount) {
  const bytes = Uint8Array.from(atob(base64), c => c.charCodeAt(0));
  const out = new Uint8Array(seatCount);
  for (let i = 0; i < seatCount; i++) {
    out[i] = (bytes[i >> 2] >> ((i & 3) * 2)) & 3;
  }
  return out;
}

/** GET .../availability, with If-None-Match when the map at hand has this ETag. */
export function requestAvailability(showId, etag = null) {
  const headers = {Accept: 'application/json'};
  if (etag) headers['If-None-Match'] = etag;
  return fetch(`/v1/shows/${encodeURIComponent(showId)}/availability`, {headers, cache: 'no-store'});
}

/**
 * Keeps a ShowModel current: the availability map first (GET .../availability, so the map draws at
 * once), then the show's event stream (GET .../events). If the stream cannot be opened the map is
 * polled every two seconds with If-None-Match while the stream is retried.
 *
 * onLoad() runs once the first map is in, onChange(changedIndexes) after each change,
 * onState('connecting'|'live'|'reconnecting'|'polling') when the connection changes.
 * key() answers the signed-in fan's stream key (or null): the stream then also carries the fan's own
 * notices, each passed to onNotice(notice), and onKeyed(true) says so (onKeyed(false) when it went
 * down); rekey() opens the stream again when the key changed.
 */
export class LiveSeats {
  constructor(model, {onLoad = () => {}, onChange = () => {}, onState = () => {}, onNotice = () => {}, onKeyed = () => {},
    key = async () => null} = {}) {
    this.model = model;
    this.onLoad = onLoad;
    this.onChange = onChange;
    this.onState = onState;
    this.onNotice = onNotice;
    this.onKeyed = onKeyed;
    this.key = key;
    this.keyed = false;
    this.etag = null;
    this.source = null;
    this.pollTimer = null;
    this.retryTimer = null;
    this.stopped = false;
    this.state = 'connecting';
  }

  /**
   * Loads the map (from `first`, an availability request already on its way, if given), then
   * follows the stream (which also delivers the map should the first load fail).
   */
  async start(first = null) {
    try {
      await this.refresh(first);
    } finally {
      this.connect();
    }
  }

  setState(state) {
    if (this.state !== state) {
      this.state = state;
      this.onState(state);
    }
  }

  async refresh(request = null) {
    const response = await (request || requestAvailability(this.model.show.showId, this.etag));
    if (response.status === 304 || !response.ok) return;
    this.etag = response.headers.get('ETag');
    const body = await response.json();
    this.whole(body);
  }

  whole(body) {
    const first = !this.model.loaded;
    this.publish(this.model.setAll(decode(body.data, this.model.seatCount)));
    if (first) this.onLoad();
  }

  async connect() {
    if (this.stopped || typeof EventSource === 'undefined') {
      this.poll();
      return;
    }
    const id = encodeURIComponent(this.model.show.showId);
    // a key that cannot be had now (signed out, no answer) leaves the stream anonymous: the fan's
    // own notices then come by the waitlist's poll
    const key = await this.key().catch(() => null);
    if (this.stopped) return;
    if (this.source) this.source.close();
    const source = new EventSource(`/v1/shows/${id}/events${key ? `?key=${encodeURIComponent(key)}` : ''}`);
    this.source = source;
    this.keyed = false;
    source.addEventListener('open', () => {
      this.keyed = Boolean(key);
      this.onKeyed(this.keyed);
      this.setState('live');
      this.stopPolling();
    });
    source.addEventListener('notice', e => this.onNotice(JSON.parse(e.data)));
    source.addEventListener('availability', e => this.whole(JSON.parse(e.data)));
    source.addEventListener('changes', e => {
      this.publish(this.model.apply(JSON.parse(e.data).changes));
    });
    source.addEventListener('error', () => {
      if (this.stopped || source !== this.source) return;
      if (this.keyed) this.onKeyed(false);
      this.keyed = false;
      if (source.readyState === EventSource.CLOSED) {
        // not an event stream (an error answer, such as an expired key): poll, and try the stream
        // again later, with a fresh key
        this.setState('polling');
        this.poll();
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.connect(), 10_000);
      } else {
        this.setState('reconnecting'); // EventSource reconnects by itself
      }
    });
  }

  /** Opens the stream again, with the key as it is now (the fan signed in, joined a waitlist). */
  rekey() {
    if (this.stopped || typeof EventSource === 'undefined') return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  poll() {
    if (this.pollTimer || this.stopped) return;
    this.pollTimer = setInterval(() => this.refresh().catch(() => {}), 2000);
  }

  stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  publish(changed) {
    if (changed.length) this.onChange(changed);
  }

  stop() {
    this.stopped = true;
    if (this.source) this.source.close();
    this.stopPolling();
    clearTimeout(this.retryTimer);
  }
}
