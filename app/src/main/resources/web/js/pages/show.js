// The show page: live seat map, prices, legend, the fan's selection, best available, standing
// areas sold by count, holding, and the waitlist when seats or an area are sold out.

import {api, ApiError, newKey, requireSession, room, session, serverNow} from '../api.js';
import {h, clear, icon, money, count, plural, dateTime, date, announce, toast} from '../dom.js';
import {ShowModel, LiveSeats, AVAILABLE, STATUS_NAMES, requestAvailability} from '../seats.js';
import {SeatMap, SEAT_COLORS} from '../seatmap.js';
import {rememberHold} from './hold.js';
import {LiveAreas, areaLabel, holdWhat} from '../areas.js';
import {Waitlist, WaitlistPanel, MOST, isLive, waitingFor, announceChange} from '../waitlist.js';

export async function render(main, [showId]) {
  const id = encodeURIComponent(showId);
  // the seats' statuses are asked for with the layout, not after it: the first draw comes sooner
  const availability = requestAvailability(showId);
  availability.catch(() => {}); // a failure shows when the map is loaded
  const [show, summary] = await Promise.all([
    api(`/v1/shows/${id}`),
    api(`/v1/shows/${id}/queue/summary`).catch(() => ({active: false})),
  ]);
  if (summary.active && !room.pass(showId)) {
    // rush mode: seats are sold through the waiting room
    location.replace(`#/show/${id}/queue`);
    return null;
  }
  return new ShowPage(main, show, summary, availability).cleanup;
}

class ShowPage {
  constructor(main, show, summary, availability) {
    this.show = show;
    this.rush = summary.active;
    this.model = new ShowModel(show);
    this.selected = [];           // seat indexes, in the order chosen
    this.selectedSet = new Set();
    this.inFlight = new Set();    // seats of a hold request on its way (their change is ours)
    this.limit = show.maxSeatsPerHold;
    this.timers = [];
    // a show may be standing only: then there is no seat map, only its areas
    this.seated = show.layout.seatCount > 0;
    this.areaCards = new Map();
    this.waitlist = new Waitlist(show.showId, (entry, before) => this.waitlistChanged(entry, before));
    this.waitlistPanel = new WaitlistPanel({currency: show.currency, price: entry => this.offerPrice(entry),
      leave: () => this.leaveWaitlist()});
    this.build(main);
    this.liveAreas = show.areas && show.areas.length
      ? new LiveAreas(show.showId, show.areas, areas => this.renderAreas(areas)) : null;
    window.boxoffice.page = this;
    this.askWaitlist();
    const stopAreas = () => {
      this.liveAreas?.stop();
      this.waitlist.stop();
      this.waitlistPanel.stop();
      this.live?.stop(); // a standing-only page's stream, followed while the fan is in line
    };
    if (!this.seated) {
      this.cleanup = stopAreas;
      return;
    }

    this.map = new SeatMap(this.mapBox, this.model, {
      isSelected: i => this.selectedSet.has(i),
      onSeat: i => this.toggle(i),
      onSectionChange: s => this.sectionChanged(s),
      announce,
      describe: i => this.describeSeat(i),
      describeSection: s => this.describeSection(s),
      label: `Seat map of ${show.title || show.showId}`,
      describedBy: 'map-help',
    });
    this.live = new LiveSeats(this.model, {
      onLoad: () => this.loaded(),
      onChange: changed => this.changed(changed),
      onState: state => this.liveState(state),
      ...this.fansNotices(),
    });
    this.live.start(availability).catch(e => this.notice({kind: 'error', title: 'The seat map could not be loaded yet', text: e.message}));

    this.cleanup = () => {
      stopAreas();
      this.live.stop();
      this.map.destroy();
      this.timers.forEach(clearTimeout);
    };
  }

  // ---- structure ----------------------------------------------------------------------------------

  build(main) {
    const show = this.show;
    const event = show.eventId ? `#/event/${encodeURIComponent(show.eventId)}` : '#/';
    this.noticeBox = h('div', {class: 'notices'});
    this.mapBox = h('div', {class: 'seatmap', id: 'seatmap'});
    this.mapTitle = h('span', {class: 'maptools__title'}, 'Whole venue');
    this.backButton = h('button', {class: 'btn btn--small btn--ghost', type: 'button', hidden: true, 'aria-label': 'Whole venue',
      onclick: () => { this.map.fit(); this.map.canvas.focus(); }}, icon('back'), h('span', {class: 'wide-only'}, 'Whole venue'));
    this.liveBadge = h('span', {class: 'live live--connecting', role: 'status'}, h('span', {class: 'live__dot'}),
      h('span', {class: 'live__text'}, 'Connecting…'));
    this.selectionBox = h('div', {class: 'selection'});
    this.pricesBox = h('div', {class: 'prices'});
    this.barBox = h('div', {class: 'selbar', 'aria-hidden': 'true'});
    const areas = show.areas && show.areas.length ? this.areasPanel() : null;
    const layout = this.seated
      ? h('div', {class: 'show-layout'},
        this.mapPanel(),
        h('aside', {class: 'sidebar', 'aria-label': areas ? 'Your tickets and prices' : 'Your seats and prices'},
          this.noticeBox,
          this.waitlistPanel.el,
          this.seatsWaitlistPanel(),
          areas,
          h('section', {class: 'panel'}, h('h2', {class: 'panel__title'}, 'Your seats'), this.selectionBox),
          this.bestAvailable(),
          h('section', {class: 'panel'}, h('h2', {class: 'panel__title'}, 'Prices'), this.pricesBox)))
      : h('div', {class: 'standing-only'}, this.noticeBox, this.waitlistPanel.el,
        areas || h('p', {class: 'notice notice--info'}, 'This show has nothing on sale yet.'));

    main.append(
      h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'},
        h('a', {href: '#/'}, 'All events'), h('span', {'aria-hidden': 'true'}, '/'),
        h('a', {href: event}, show.title || show.eventId), h('span', {'aria-hidden': 'true'}, '/'),
        h('span', {'aria-current': 'page'}, date(show.startsAt))),
      h('header', {class: 'show-head'},
        h('div', {},
          h('p', {class: 'eyebrow'}, show.artist || ''),
          h('h1', {}, show.title || show.showId),
          h('p', {class: 'show-head__meta'},
            h('span', {}, icon('calendar'), dateTime(show.startsAt)),
            show.venue ? h('span', {}, icon('pin'), `${show.venue.name}, ${show.venue.city}`) : null)),
        h('div', {class: 'show-head__badges'},
          show.onSale ? h('span', {class: 'badge badge--ok'}, 'On sale')
            : h('span', {class: 'badge badge--warn'}, `Sale opens ${dateTime(show.saleOpensAt)}`),
          this.rush ? h('span', {class: 'badge badge--rush'}, icon('people'), 'Waiting room passed') : null)),
      layout,
      this.barBox);
    if (areas) this.renderAreas(show.areas);
    if (!this.seated) return;
    this.renderSelection();
    this.renderPrices();
  }

  mapPanel() {
    return h('section', {class: 'panel mappanel', 'aria-label': 'Seat map'},
      h('div', {class: 'maptools'},
        h('div', {class: 'maptools__left'}, this.backButton, this.mapTitle),
        h('div', {class: 'maptools__right'},
          this.liveBadge,
          h('div', {class: 'zoom', role: 'group', 'aria-label': 'Zoom'},
            h('button', {class: 'iconbtn', type: 'button', 'aria-label': 'Zoom out', onclick: () => this.map.zoomBy(1 / 1.5)}, icon('minus')),
            h('button', {class: 'iconbtn', type: 'button', 'aria-label': 'Zoom in', onclick: () => this.map.zoomBy(1.5)}, icon('plus')),
            h('button', {class: 'iconbtn', type: 'button', 'aria-label': 'Show the whole venue', onclick: () => this.map.fit()}, icon('fit'))))),
      this.mapBox,
      h('p', {class: 'maphelp', id: 'map-help'},
        'Click a section to zoom in, then click seats to select them. Drag to move, scroll or pinch to zoom. ',
        'Keyboard: arrow keys move between sections, Enter opens one; in a section arrows move between seats, ',
        'Space selects, Escape returns to the whole venue.'),
      this.legend());
  }

  legend() {
    const swatch = (color, label, extra = '') => h('li', {}, h('span', {class: `swatch ${extra}`, style: `background:${color}`}), label);
    return h('ul', {class: 'legend', 'aria-label': 'Legend'},
      h('li', {}, h('span', {class: 'swatch swatch--tiers', 'aria-hidden': 'true'},
        this.model.tiers.slice(0, 4).map(t => h('span', {style: `background:${t.color}`}))), 'Available (colour = price)'),
      swatch(SEAT_COLORS.selected, 'Your selection', 'swatch--selected'),
      swatch(SEAT_COLORS.held, 'Held by someone'),
      swatch(SEAT_COLORS.sold, 'Sold'),
      swatch(SEAT_COLORS.blocked, 'Not for sale'),
      // the layout gives standing areas no place on the map: the legend points to their panel
      (this.show.areas || []).map(a => h('li', {}, h('button', {class: 'chip chip--area', type: 'button',
        onclick: () => this.focusArea(a.name)}, icon('people'), `${areaLabel(a.name)}: standing tickets`))));
  }

  // ---- standing areas (general admission) ---------------------------------------------------------

  /** The show's standing areas: each with its price, what it has left (live) and how many to hold. */
  areasPanel() {
    this.areasList = h('ul', {class: 'areas', role: 'list'});
    return h('section', {class: 'panel', id: 'areas', 'aria-labelledby': 'areas-title'},
      h('h2', {class: 'panel__title', id: 'areas-title'}, 'Standing'),
      h('p', {class: 'muted small'}, 'No seat numbers: a ticket lets you in to the area, first come, first served.'),
      this.areasList);
  }

  /** Shows what each area has left; builds an area's card the first time it is seen. */
  renderAreas(areas) {
    const names = areas.map(a => a.name).join('|');
    if (names !== [...this.areaCards.keys()].join('|')) {
      this.areaCards.clear();
      clear(this.areasList).append(...areas.map(a => {
        const card = this.areaCard(a);
        this.areaCards.set(a.name, card);
        return card.el;
      }));
    }
    for (const a of areas) {
      const card = this.areaCards.get(a.name);
      if (card.area && card.area.left > 0 && a.left === 0) announce(`${areaLabel(a.name)} is sold out.`);
      card.area = a;
      this.updateArea(card);
    }
    this.askWaitlist();
  }

  areaCard(area) {
    const label = areaLabel(area.name);
    const id = `area-qty-${area.name}`;
    const card = {
      name: area.name, label, max: -1,
      left: h('p', {class: 'area__left', id: `area-left-${area.name}`}),
      hint: h('p', {class: 'muted small area__hint', hidden: true},
        'When tickets come back, we hold them for the first fan in line on the waitlist.'),
      select: h('select', {id, name: 'quantity', 'aria-describedby': `area-left-${area.name}`}),
      total: h('strong', {class: 'area__sum'}),
      button: h('button', {class: 'btn btn--primary btn--block', type: 'submit'}),
    };
    card.select.addEventListener('change', () => this.updateArea(card));
    card.el = h('li', {class: 'area', dataset: {area: area.name}},
      h('div', {class: 'area__head'},
        h('span', {class: 'area__icon', 'aria-hidden': 'true'}, icon('people')),
        h('h3', {class: 'area__name'}, label),
        h('span', {class: 'area__price'}, money(area.price, this.show.currency), h('span', {class: 'muted small'}, ' each'))),
      card.left,
      card.hint,
      h('form', {class: 'area__form', 'aria-label': `Standing tickets for ${label}`, onsubmit: e => {
        e.preventDefault();
        const request = {area: area.name, quantity: Number(card.select.value)};
        // sold out, the card's button joins the waitlist for that many instead
        if (card.area.left === 0) this.joinWaitlist(request);
        else this.hold(request);
      }},
      h('div', {class: 'field field--inline'}, h('label', {class: 'field__label', for: id}, 'Tickets'), card.select),
      h('p', {class: 'area__total'}, h('span', {class: 'muted small'}, 'Total'), card.total),
      card.button));
    return card;
  }

  /**
   * An area's card after what it has left, the fan's choice, the fan's waitlist entry or a request on
   * its way changed: up to the show's tickets per hold and per account, and no more than are left.
   * Sold out while on sale, the card offers the waitlist for as many as a hold may take.
   */
  updateArea(card) {
    const {area, select, button} = card;
    const soldOut = area.left === 0;
    const entry = this.waitlist.entry;
    const joinable = soldOut && this.show.onSale;
    // while some are left the fan may hold them, waiting or not
    const waiting = joinable && isLive(entry) && entry.area === area.name;
    const max = Math.max(0, Math.min(this.limit, this.show.maxPerAccount, joinable ? MOST : area.left));
    if (max !== card.max) {
      const wanted = select.value ? Number(select.value) : 2;
      card.max = max;
      clear(select).append(...Array.from({length: max}, (_, i) => h('option', {value: i + 1}, i + 1)));
      select.value = String(Math.max(1, Math.min(wanted, max)));
    }
    const quantity = Number(select.value) || 0;
    card.el.classList.toggle('area--soldout', soldOut);
    card.hint.hidden = !joinable || waiting;
    clear(card.left).append(soldOut
      ? h('span', {class: 'badge badge--soldout'}, 'Sold out')
      : h('span', {}, h('strong', {}, count(area.left)), ` of ${count(area.capacity)} left`));
    card.total.textContent = money(area.price * quantity, this.show.currency);
    select.disabled = !this.show.onSale || waiting;
    button.disabled = !this.show.onSale || this.busy || waiting;
    button.classList.toggle('btn--primary', !joinable);
    button.classList.toggle('btn--secondary', joinable);
    const forArea = h('span', {class: 'visually-hidden'}, ` for ${card.label}`);
    clear(button).append(...(!this.show.onSale ? [`On sale ${dateTime(this.show.saleOpensAt)}`]
      : waiting ? ['You are on the waitlist', forArea]
        : this.busy ? [joinable ? 'Joining…' : 'Holding…']
          : joinable ? ['Join the waitlist', forArea]
            : [`Hold ${plural(quantity, 'ticket', 'tickets')}`, forArea]));
  }

  /** From the legend: brings an area's card into view with its quantity ready to choose. */
  focusArea(name) {
    const card = this.areaCards.get(name);
    if (!card) return;
    card.el.scrollIntoView({block: 'center', behavior: 'smooth'});
    (card.select.disabled ? card.button : card.select).focus({preventScroll: true});
  }

  bestAvailable() {
    const quantity = h('select', {name: 'quantity', id: 'best-qty'},
      Array.from({length: this.limit}, (_, i) => h('option', {value: i + 1, selected: i === 1}, i + 1)));
    const section = h('select', {name: 'section', id: 'best-section'},
      h('option', {value: ''}, 'Best in the venue'),
      this.model.sections.map(s => h('option', {value: s.name}, `Section ${s.name} · ${money(s.price, this.model.currency)}`)));
    this.bestForm = h('form', {class: 'best', onsubmit: e => {
      e.preventDefault();
      this.hold({bestAvailable: {quantity: Number(quantity.value), ...(section.value ? {section: section.value} : {})}});
    }},
    h('div', {class: 'field field--inline'}, h('label', {class: 'field__label', for: 'best-qty'}, 'Seats'), quantity),
    h('div', {class: 'field field--grow'}, h('label', {class: 'field__label', for: 'best-section'}, 'Where'), section),
    h('button', {class: 'btn btn--secondary', type: 'submit', disabled: !this.show.onSale}, icon('spark'), 'Find seats'));
    return h('section', {class: 'panel'},
      h('h2', {class: 'panel__title'}, 'Best available'),
      h('p', {class: 'muted small'}, 'We pick adjacent seats in one row, nearest the stage, and hold them for you.'),
      this.bestForm);
  }

  // ---- the waitlist ---------------------------------------------------------------------------------

  /**
   * Joining the waitlist for seats: shown while every seat is taken (held, sold or not for sale), the
   * sale is on and the fan is not in line already. Seats come back when holds end or bookings are
   * cancelled; the waitlist holds them for the first fan in line they fit.
   */
  seatsWaitlistPanel() {
    const quantity = h('select', {name: 'quantity', id: 'waitlist-qty'},
      Array.from({length: Math.min(this.limit, MOST)}, (_, i) => h('option', {value: i + 1, selected: i === 1}, i + 1)));
    const section = h('select', {name: 'section', id: 'waitlist-section'},
      h('option', {value: ''}, 'Any section'),
      this.model.sections.map(s => h('option', {value: s.name}, `Section ${s.name} · ${money(s.price, this.model.currency)}`)));
    this.seatsWaitlistButton = h('button', {class: 'btn btn--secondary btn--block', type: 'submit'}, 'Join the waitlist');
    this.seatsWaitlistBox = h('section', {class: 'panel', id: 'waitlist-join', 'aria-labelledby': 'waitlist-join-title', hidden: true},
      h('h2', {class: 'panel__title', id: 'waitlist-join-title'}, 'Sold out: join the waitlist'),
      h('p', {class: 'muted small'}, 'When seats come back, we hold them for the first fan in line they fit and tell you '
        + 'by email and here. You then have a few minutes to buy them.'),
      h('form', {class: 'best', onsubmit: e => {
        e.preventDefault();
        this.joinWaitlist({quantity: Number(quantity.value), ...(section.value ? {section: section.value} : {})});
      }},
      h('div', {class: 'field field--inline'}, h('label', {class: 'field__label', for: 'waitlist-qty'}, 'Seats together'), quantity),
      h('div', {class: 'field field--grow'}, h('label', {class: 'field__label', for: 'waitlist-section'}, 'In section'), section),
      this.seatsWaitlistButton));
    return this.seatsWaitlistBox;
  }

  renderSeatsWaitlist() {
    if (!this.seatsWaitlistBox) return;
    this.askWaitlist();
    const m = this.model;
    this.seatsWaitlistBox.hidden = !(m.loaded && m.available === 0 && this.show.onSale && !isLive(this.waitlist.entry));
    this.seatsWaitlistButton.disabled = Boolean(this.busy);
    this.seatsWaitlistButton.textContent = this.busy ? 'Joining…' : 'Join the waitlist';
  }

  /**
   * Asks for the fan's place on the waitlist once there is a reason to: something is sold out, or
   * this device saw them join. Not on every view of a show on sale, which would cost the service a
   * read of its database per page view during an on-sale.
   */
  askWaitlist() {
    if (this.waitlistAsked || !this.waitlist) return;
    const soldOut = [...this.areaCards.values()].some(card => card.area && card.area.left === 0)
      || (this.seated && this.model.loaded && this.model.available === 0);
    if (!soldOut && !this.waitlist.remembered()) return;
    this.waitlistAsked = true;
    this.waitlist.load().catch(() => { this.waitlistAsked = false; });
  }

  /** A fan on the waitlist follows the stream with their key: an offer made for them comes on it. */
  fansNotices() {
    return {key: () => this.streamKey(), onNotice: n => this.waitlist.notice(n), onKeyed: on => this.waitlist.streaming(on)};
  }

  /**
   * The signed-in fan's key for this show's stream, while they are on its waitlist (else null: the
   * stream stays anonymous, as every other fan's). Asked for once and again shortly before it expires.
   */
  async streamKey() {
    const s = session.get();
    if (!s || !(isLive(this.waitlist.entry) || this.waitlist.remembered())) return null;
    const kept = this.keptKey;
    if (kept && kept.accountId === s.accountId && Date.parse(kept.expiresAt) - serverNow() > 60_000) return kept.key;
    const fresh = await api(`/v1/shows/${encodeURIComponent(this.show.showId)}/events/key`, {method: 'POST', auth: true});
    this.keptKey = {...fresh, accountId: s.accountId};
    return fresh.key;
  }

  /** The fan's entry changed (joined, moved up, offered, ended): every place that shows it follows. */
  waitlistChanged(entry, before) {
    if (!this.seated && !this.live && isLive(entry)) {
      // a show of standing areas only has no seat map to follow: while the fan is in line its
      // stream (an empty map) is followed for the fan's notices, so an offer comes at once there too
      this.live = new LiveSeats(this.model, this.fansNotices());
      this.live.start().catch(() => {});
    } else if (this.live && isLive(entry) && !this.live.keyed && !isLive(before)) {
      // joined (or found in line) while the stream is anonymous: open it again with the fan's key
      this.live.rekey();
    }
    this.waitlistPanel.render(entry, {busy: this.leaving});
    this.areaCards.forEach(card => this.updateArea(card));
    this.renderSeatsWaitlist();
    announceChange(entry, before);
  }

  /** What an offer costs: its admissions at the area's price, or its seats at their sections' prices. */
  offerPrice(entry) {
    if (entry.area) {
      const area = (this.show.areas || []).find(a => a.name === entry.area);
      return area ? area.price * entry.quantity : null;
    }
    const seats = (entry.offer?.seatIds || []).map(id => this.model.indexOf(id));
    return seats.length && seats.every(i => i >= 0) ? seats.reduce((sum, i) => sum + this.model.price(i), 0) : null;
  }

  async joinWaitlist(request) {
    if (this.busy) return;
    try {
      await requireSession();
    } catch {
      return;
    }
    this.busy = true;
    this.clearNotices();
    this.renderBusy();
    try {
      const entry = await this.waitlist.join(request);
      announce(`You are on the waitlist for ${waitingFor(entry)}.`);
      this.waitlistPanel.el.scrollIntoView({block: 'nearest', behavior: 'smooth'});
    } catch (e) {
      this.waitlistRefused(e, request);
    } finally {
      this.busy = false;
      if (this.noticeBox.isConnected) this.renderBusy();
    }
  }

  waitlistRefused(e, request) {
    if (!(e instanceof ApiError)) throw e;
    const label = request.area ? areaLabel(request.area) : null;
    switch (e.code) {
      case 'SEATS_AVAILABLE': {
        // not sold out for this request any more: buy instead of waiting
        if (request.area) {
          const left = Number(e.body.left) || 0;
          if (this.liveAreas) this.liveAreas.set(this.liveAreas.areas.map(a => a.name === request.area ? {...a, left} : a));
          this.notice({kind: 'info', title: `Tickets for ${label} are back on sale`,
            text: `${count(left)} left right now, so there is no need to wait: hold them before someone else does.`,
            actions: [{label: `Hold ${plural(request.quantity, 'ticket', 'tickets')} for ${label}`, primary: true,
              onClick: () => this.hold({area: request.area, quantity: request.quantity})}]});
          return;
        }
        const seatIds = e.body.seatIds || [];
        this.live?.refresh().catch(() => {});
        this.notice({kind: 'info', title: 'Seats are back on sale',
          text: `There is no need to wait: ${seatIds.length ? this.describeRun(seatIds) : 'seats'} ${seatIds.length === 1 ? 'is' : 'are'} free right now.`,
          actions: seatIds.length ? [{label: `Hold ${plural(seatIds.length, 'seat', 'seats')}`, primary: true,
            onClick: () => this.hold({seatIds})}] : []});
        return;
      }
      case 'ALREADY_ON_WAITLIST':
        if (e.body.entry) this.waitlist.set(e.body.entry);
        else this.waitlist.load().catch(() => {});
        this.notice({kind: 'warn', title: 'You are already on this show’s waitlist',
          text: e.body.entry && e.body.entry.status === 'OFFERED'
            ? 'Tickets are held for you: buy or decline them first.'
            : `You wait for ${e.body.entry ? waitingFor(e.body.entry) : 'something else'}. Leave the waitlist first to ask for something else.`});
        return;
      case 'TOO_MANY_SEATS': {
        const most = e.body.maxQuantity || e.body.maxSeatsPerHold;
        this.notice({kind: 'warn', title: 'That is more than one fan can wait for',
          text: most ? `Choose ${count(most)} or fewer.` : e.message});
        return;
      }
      case 'WAITLIST_UNAVAILABLE':
        this.notice({kind: 'error', title: 'The waitlist cannot be joined right now',
          text: `Nothing was changed. Please try again in ${e.body.retryAfterSeconds || 'a few'} seconds.`});
        return;
      case 'UNAUTHORIZED':
        return;
      default:
        this.notice({kind: 'error', title: 'Could not join the waitlist', text: e.message});
    }
  }

  async leaveWaitlist() {
    if (this.leaving) return;
    const offered = this.waitlist.entry?.status === 'OFFERED';
    this.leaving = true;
    this.waitlistPanel.render(this.waitlist.entry, {busy: true});
    try {
      await this.waitlist.leave();
      announce(offered ? 'You declined the offer; the tickets go to the next fan in line.' : 'You left the waitlist.');
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.code === 'HOLD_CONFIRMED') {
        this.notice({kind: 'info', title: 'You already bought these tickets', text: 'They are under “My tickets”.'});
      } else if (e.code === 'PAYMENT_IN_PROGRESS') {
        this.notice({kind: 'warn', title: 'A payment for this offer is under way',
          text: 'It cannot be declined until your bank decides.'});
      } else if (e.code !== 'UNAUTHORIZED') {
        this.notice({kind: 'error', title: 'Could not leave the waitlist', text: e.message});
      }
      this.waitlist.load().catch(() => {});
    } finally {
      this.leaving = false;
      this.waitlistPanel.render(this.waitlist.entry);
    }
  }

  // ---- describing seats -------------------------------------------------------------------------

  describeSeat(i) {
    const m = this.model;
    const row = m.row(i);
    const parts = [`Section ${row.section.name}`, `Row ${row.label}`, `Seat ${i - row.start + 1}`,
      money(row.section.price, m.currency), this.selectedSet.has(i) ? 'selected' : STATUS_NAMES[m.status[i]]];
    return parts.join(' · ');
  }

  describeSection(s) {
    return `Section ${s.name} · ${money(s.price, this.model.currency)} · ${count(s.available)} of ${count(s.seats)} available`;
  }

  sectionChanged(section) {
    this.mapTitle.textContent = section ? this.describeSection(section) : 'Whole venue';
    this.backButton.hidden = !section;
  }

  liveState(state) {
    const text = {live: 'Live', reconnecting: 'Reconnecting…', polling: 'Updating every 2 s', connecting: 'Connecting…'}[state];
    this.liveBadge.className = `live live--${state}`;
    this.liveBadge.lastChild.textContent = text;
    this.liveBadge.title = state === 'live' ? 'Seats update as they are taken' : '';
    this.mapBox.dataset.live = state;
  }

  // ---- selection ----------------------------------------------------------------------------------

  toggle(i) {
    const m = this.model;
    if (this.selectedSet.has(i)) {
      this.unselect([i]);
      announce(`${m.describe(i)} removed. ${plural(this.selected.length, 'seat', 'seats')} selected.`);
      return;
    }
    if (!this.show.onSale) {
      toast(`Tickets go on sale ${dateTime(this.show.saleOpensAt)}.`);
      return;
    }
    if (m.status[i] !== AVAILABLE) {
      announce(`${m.describe(i)} is ${STATUS_NAMES[m.status[i]]}.`);
      return;
    }
    if (this.selected.length >= this.limit) {
      this.notice({kind: 'warn', title: `Up to ${this.limit} seats at a time`,
        text: 'Remove a seat from your selection to choose another.'});
      return;
    }
    this.selected.push(i);
    this.selectedSet.add(i);
    this.map.updateSeats([i]);
    this.renderSelection();
    announce(`${m.describe(i)} selected, ${money(m.price(i), m.currency)}. ${plural(this.selected.length, 'seat', 'seats')} selected.`);
  }

  unselect(indexes) {
    for (const i of indexes) this.selectedSet.delete(i);
    this.selected = this.selected.filter(i => this.selectedSet.has(i));
    this.map.updateSeats(indexes);
    this.renderSelection();
  }

  renderSelection() {
    const m = this.model;
    const box = clear(this.selectionBox);
    const total = this.selected.reduce((sum, i) => sum + m.price(i), 0);
    if (!this.selected.length) {
      box.append(h('p', {class: 'muted'}, this.show.onSale
        ? `Pick up to ${this.limit} seats on the map, or let us find the best ones below.`
        : `Tickets go on sale ${dateTime(this.show.saleOpensAt)}.`));
    } else {
      box.append(h('ul', {class: 'seatlist', role: 'list'}, this.selected.map(i => {
        const row = m.row(i);
        return h('li', {class: 'seatlist__item'},
          h('span', {class: 'seatlist__swatch', style: `background:${row.section.color}`}),
          h('span', {class: 'seatlist__what'}, h('strong', {}, `Section ${row.section.name}`),
            ` · Row ${row.label} · Seat ${i - row.start + 1}`),
          h('span', {class: 'seatlist__price'}, money(row.section.price, m.currency)),
          h('button', {class: 'iconbtn iconbtn--small', type: 'button', 'aria-label': `Remove ${m.describe(i)}`,
            onclick: () => this.toggle(i)}, icon('close')));
      })));
    }
    const button = h('button', {class: 'btn btn--primary btn--block', type: 'button', id: 'hold-button',
      disabled: !this.selected.length || this.busy,
      onclick: () => this.hold({seatIds: this.selected.map(i => m.seatId(i))})},
    this.busy ? 'Holding…' : this.selected.length ? `Hold ${plural(this.selected.length, 'seat', 'seats')}` : 'Hold seats');
    box.append(
      h('div', {class: 'total'}, h('span', {}, 'Total'), h('strong', {}, money(total, m.currency))),
      button,
      h('p', {class: 'muted small'}, `Held seats are yours for ${Math.round(this.show.holdSeconds / 60)} minutes while you pay.`));

    // the phone-sized bar at the bottom of the screen
    const bar = clear(this.barBox);
    bar.classList.toggle('selbar--visible', this.selected.length > 0);
    bar.append(
      h('span', {class: 'selbar__what'}, plural(this.selected.length, 'seat', 'seats'), ' · ', h('strong', {}, money(total, m.currency))),
      h('button', {class: 'btn btn--primary', type: 'button', tabindex: '-1', disabled: this.busy,
        onclick: () => this.hold({seatIds: this.selected.map(i => m.seatId(i))})}, 'Hold'));
  }

  renderPrices() {
    const m = this.model;
    const box = clear(this.pricesBox);
    box.append(h('ul', {class: 'tiers', role: 'list'}, m.tiers.map(t => h('li', {class: 'tier'},
      h('div', {class: 'tier__head'},
        h('span', {class: 'swatch', style: `background:${t.color}`}),
        h('strong', {class: 'tier__price'}, money(t.price, m.currency)),
        h('span', {class: 'muted small'}, m.loaded
          ? `${count(t.sections.reduce((n, s) => n + s.available, 0))} left` : '')),
      h('div', {class: 'tier__sections'}, t.sections.map(s => h('button', {
        class: 'chip', type: 'button', title: `Show section ${s.name}`,
        onclick: () => { this.map.zoomToSection(s); this.map.canvas.focus({preventScroll: true}); },
      }, // read as "Section A: 2,480 of 2,500 seats available"; the name holds the visible text, as WCAG 2.5.3 asks
      h('span', {class: 'visually-hidden'}, 'Section '), h('span', {class: 'chip__name'}, s.name),
      h('span', {class: 'visually-hidden'}, ': '),
      h('span', {class: 'chip__count'}, m.loaded ? count(s.available) : '…'),
      h('span', {class: 'visually-hidden'}, m.loaded ? ` of ${count(s.seats)} seats available` : ' seats available'))))))));
    if (m.loaded) {
      box.append(h('p', {class: 'muted small prices__total'},
        `${count(m.available)} of ${count(m.seatCount)} seats available`));
    }
    this.renderSeatsWaitlist();
  }

  // ---- live changes -------------------------------------------------------------------------------

  /** The first availability map is in (from GET .../availability, or from the stream if that failed). */
  loaded() {
    this.mapBox.dataset.loaded = 'true';
    this.renderPrices();
  }

  changed(indexes) {
    this.map.updateSeats(indexes);
    if (this.map.openSection) this.sectionChanged(this.map.openSection);
    const lost = indexes.filter(i => this.selectedSet.has(i) && this.model.status[i] !== AVAILABLE && !this.inFlight.has(i));
    if (lost.length) {
      const section = this.model.section(lost[0]);
      const wanted = this.selected.length;
      this.unselect(lost);
      this.notice({kind: 'warn', title: lost.length === 1 ? 'A seat you picked was just taken' : 'Seats you picked were just taken',
        text: `${lost.map(i => this.model.seatId(i)).join(', ')} ${lost.length === 1 ? 'was' : 'were'} taken by someone else a moment ago.`,
        actions: [{label: `Find ${plural(wanted, 'seat', 'seats')} nearby in section ${section.name}`, primary: true,
          onClick: () => this.hold({bestAvailable: {quantity: wanted, section: section.name}})}]});
    }
    if (!this.pricesTimer) {
      this.pricesTimer = setTimeout(() => {
        this.pricesTimer = 0;
        this.renderPrices();
      }, 400);
      this.timers.push(this.pricesTimer);
    }
  }

  // ---- holding ------------------------------------------------------------------------------------

  async hold(request) {
    if (this.busy) return;
    try {
      await requireSession();
    } catch {
      return;
    }
    const headers = {'Idempotency-Key': newKey('hold')};
    if (this.rush) {
      const pass = room.pass(this.show.showId);
      if (!pass) {
        location.hash = `#/show/${encodeURIComponent(this.show.showId)}/queue`;
        return;
      }
      headers['Queue-Pass'] = pass.pass;
    }
    this.busy = true;
    this.clearNotices();
    this.renderBusy();
    const asked = request.seatIds ? request.seatIds.map(id => this.model.indexOf(id)).filter(i => i >= 0) : [];
    asked.forEach(i => this.inFlight.add(i));
    try {
      const held = await api(`/v1/shows/${encodeURIComponent(this.show.showId)}/holds`,
        {method: 'POST', auth: true, body: request, headers});
      rememberHold(held);
      announce(`Held ${holdWhat(held)}.`);
      location.hash = `#/hold/${encodeURIComponent(held.holdId)}`;
    } catch (e) {
      this.refused(e, request);
    } finally {
      asked.forEach(i => this.inFlight.delete(i));
      this.busy = false;
      if (this.noticeBox.isConnected) this.renderBusy();
    }
  }

  /** The hold buttons say whether a hold is on its way. */
  renderBusy() {
    if (this.seated) this.renderSelection();
    this.areaCards.forEach(card => this.updateArea(card));
    this.renderSeatsWaitlist();
  }

  refused(e, request) {
    if (!(e instanceof ApiError)) throw e;
    const m = this.model;
    switch (e.code) {
      case 'SEATS_UNAVAILABLE': {
        const taken = (e.body.unavailable || []).map(id => m.indexOf(id)).filter(i => i >= 0);
        // the snapshot said so: mark them now, the stream confirms within a moment
        this.changed(m.apply(taken.map(i => [i, 1])));
        this.unselect(taken.filter(i => this.selectedSet.has(i)));
        this.live.refresh().catch(() => {});
        const alternatives = (e.body.alternatives || []).filter(a => a.length);
        if (request.bestAvailable) {
          const {quantity, section} = request.bestAvailable;
          this.notice({kind: 'warn', title: 'Not enough seats together',
            text: `There are no ${quantity} adjacent seats left${section ? ` in section ${section}` : ''}. `
              + 'Try fewer seats or another section, or wait for seats to come back.',
            actions: this.show.onSale ? [{label: `Join the waitlist for ${quantity} seats together${section ? ` in section ${section}` : ''}`,
              onClick: () => this.joinWaitlist(section ? {quantity, section} : {quantity})}] : []});
          return;
        }
        this.notice({kind: 'warn', title: taken.length === 1 ? 'That seat was just taken' : 'Those seats were just taken',
          text: `${(e.body.unavailable || []).join(', ')} ${taken.length === 1 ? 'is' : 'are'} no longer available. `
            + (alternatives.length ? 'These are free right now:' : 'Pick other seats on the map.'),
          actions: alternatives.map((alt, n) => ({
            label: `Hold ${this.describeRun(alt)}`, primary: n === 0,
            onClick: () => this.hold({seatIds: alt}),
          }))});
        return;
      }
      case 'PASS_REQUIRED':
      case 'PASS_INVALID':
        room.dropPass(this.show.showId);
        location.hash = `#/show/${encodeURIComponent(this.show.showId)}/queue`;
        return;
      case 'SOLD_OUT': {
        // a hold by count: the area has fewer left than asked (the answer says how many)
        const left = Number(e.body.left) || 0;
        const label = areaLabel(request.area);
        if (this.liveAreas) {
          this.liveAreas.set(this.liveAreas.areas.map(a => a.name === request.area ? {...a, left} : a));
        }
        this.notice({kind: 'warn', title: left ? `Only ${plural(left, 'ticket', 'tickets')} left for ${label}` : `${label} is sold out`,
          text: left ? `Nothing was held. Choose ${count(left)} or fewer and try again, or wait for more to come back.`
            : 'Nothing was held. Tickets come back when other fans’ holds end: join the waitlist and we hold them for you.',
          actions: [{label: `Join the waitlist for ${plural(request.quantity, 'ticket', 'tickets')}`, primary: !left,
            onClick: () => this.joinWaitlist({area: request.area, quantity: request.quantity})}]});
        return;
      }
      case 'ACCOUNT_LIMIT':
        this.notice({kind: 'error', title: 'You have reached the limit for this show',
          text: `Each fan can have up to ${plural(this.show.maxPerAccount, 'ticket', 'tickets')} for this show, seats and standing together, held or booked.`});
        return;
      case 'RATE_LIMITED':
        this.notice({kind: 'error', title: 'Too many tries', text: `Please wait ${e.body.retryAfterSeconds || 'a few'} seconds and try again.`});
        return;
      case 'UNAUTHORIZED':
        return;
      default:
        this.notice({kind: 'error', title: e.status >= 500 || e.status === 0 ? 'Nothing was held — please try again'
          : request.area ? 'Could not hold these tickets' : 'Could not hold these seats',
          text: e.message});
    }
  }

  /** "Section A, row 1, seats 5–6 (€378.00)" for a run of seat ids. */
  describeRun(ids) {
    const m = this.model;
    const idx = ids.map(id => m.indexOf(id)).filter(i => i >= 0);
    if (!idx.length) return ids.join(', ');
    const row = m.row(idx[0]);
    const numbers = idx.map(i => m.seatNumber(i)).sort((a, b) => a - b);
    const seats = numbers.length === 1 ? `seat ${numbers[0]}` : `seats ${numbers[0]}–${numbers[numbers.length - 1]}`;
    const total = idx.reduce((n, i) => n + m.price(i), 0);
    return `section ${row.section.name}, row ${row.label}, ${seats} (${money(total, m.currency)})`;
  }

  // ---- notices ------------------------------------------------------------------------------------

  notice({kind = 'info', title, text, actions = []}) {
    const box = clear(this.noticeBox);
    const el = h('div', {class: `notice notice--${kind}`, role: 'alert'},
      h('div', {class: 'notice__text'}, h('strong', {}, title), text ? h('p', {}, text) : null),
      actions.length ? h('div', {class: 'notice__actions'}, actions.map(a =>
        h('button', {class: `btn btn--small ${a.primary ? 'btn--primary' : 'btn--ghost'}`, type: 'button',
          onclick: a.onClick}, a.label))) : null,
      h('button', {class: 'iconbtn iconbtn--small notice__close', type: 'button', 'aria-label': 'Dismiss',
        onclick: () => el.remove()}, icon('close')));
    box.append(el);
    if (window.matchMedia('(max-width: 900px)').matches) el.scrollIntoView({block: 'nearest', behavior: 'smooth'});
  }

  clearNotices() {
    clear(this.noticeBox);
  }
}
