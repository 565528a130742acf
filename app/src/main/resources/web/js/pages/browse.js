// Browse: search events by city, text and dates; each event with its shows.

import {api} from '../api.js';
import {h, icon, dateTime, dateBadge, date, plural, announce} from '../dom.js';

let cities = null;

async function knownCities() {
  if (!cities) {
    const all = await api('/v1/events');
    cities = [...new Set(all.events.map(e => e.venue.city))].sort();
  }
  return cities;
}

export async function render(main, params, query) {
  const criteria = {
    city: query.get('city') || '',
    q: query.get('q') || '',
    from: query.get('from') || '',
    to: query.get('to') || '',
  };
  const search = new URLSearchParams(Object.entries(criteria).filter(([, v]) => v));
  const [cityList, result] = await Promise.all([knownCities(), api(`/v1/events?${search}`)]);

  const form = h('form', {class: 'search', role: 'search', 'aria-label': 'Find events', onsubmit: e => {
    e.preventDefault();
    const data = new FormData(form);
    const next = new URLSearchParams([...data.entries()].filter(([, v]) => String(v).trim()));
    const hash = `#/${next.toString() ? `?${next}` : ''}`;
    if (location.hash === hash || (!location.hash && hash === '#/')) announce('Results are up to date');
    location.hash = hash;
  }},
  h('div', {class: 'field search__text'},
    h('label', {class: 'field__label', for: 'search-q'}, 'Artist, event or venue'),
    h('span', {class: 'input-icon'}, icon('search'),
      h('input', {id: 'search-q', name: 'q', type: 'search', value: criteria.q, placeholder: 'Try “echoes” or “jazz”', maxlength: 200}))),
  h('div', {class: 'field'},
    h('label', {class: 'field__label', for: 'search-city'}, 'City'),
    h('select', {id: 'search-city', name: 'city'},
      h('option', {value: ''}, 'All cities'),
      cityList.map(c => h('option', {value: c, selected: c === criteria.city}, c)))),
  h('div', {class: 'field'},
    h('label', {class: 'field__label', for: 'search-from'}, 'From'),
    h('input', {id: 'search-from', name: 'from', type: 'date', value: criteria.from})),
  h('div', {class: 'field'},
    h('label', {class: 'field__label', for: 'search-to'}, 'Until'),
    h('input', {id: 'search-to', name: 'to', type: 'date', value: criteria.to})),
  h('button', {class: 'btn btn--primary search__go', type: 'submit'}, 'Search'));

  const filtered = Object.values(criteria).some(Boolean);
  main.append(
    h('section', {class: 'hero'},
      h('div', {class: 'hero__inner'},
        h('h1', {}, 'Find your seats'),
        h('p', {class: 'hero__lead'}, 'Concerts, classical, comedy and jazz — pick exactly where you sit on a live seat map.'),
        form)),
    h('section', {class: 'results', 'aria-labelledby': 'results-title'},
      h('div', {class: 'results__head'},
        h('h2', {id: 'results-title'}, filtered ? plural(result.events.length, 'event found', 'events found') : 'All events'),
        filtered ? h('a', {href: '#/', class: 'link'}, 'Clear search') : null),
      result.events.length
        ? h('ul', {class: 'cards', role: 'list'}, result.events.map(e => h('li', {}, eventCard(e))))
        : h('div', {class: 'empty empty--inline'},
          h('p', {}, 'No events match. Try another city, fewer words or other dates.'))));
  if (filtered) announce(plural(result.events.length, 'event found', 'events found'));
}

export function eventCard(e, {heading = 'h3', link = true} = {}) {
  const title = link ? h('a', {href: `#/event/${encodeURIComponent(e.eventId)}`}, e.title) : e.title;
  return h('article', {class: 'card event', 'aria-label': e.title},
    h('div', {class: `event__art event__art--${e.category}`, 'aria-hidden': 'true'},
      h('span', {}, e.category)),
    h('div', {class: 'event__body'},
      h('p', {class: 'eyebrow'}, e.category),
      h(heading, {class: 'event__title'}, title),
      h('p', {class: 'event__meta'}, h('span', {}, e.artist), ' · ', icon('pin'), `${e.venue.name}, ${e.venue.city}`),
      e.description ? h('p', {class: 'event__desc'}, e.description) : null,
      h('ul', {class: 'shows', role: 'list', 'aria-label': `Shows of ${e.title}`}, e.shows.map(showRow))));
}

export function showRow(s) {
  return h('li', {class: 'show-row'},
    dateBadge(s.startsAt),
    h('div', {class: 'show-row__when'},
      h('span', {class: 'show-row__date'}, dateTime(s.startsAt)),
      s.onSale
        ? h('span', {class: 'badge badge--ok'}, 'On sale')
        : h('span', {class: 'badge'}, `Sale opens ${date(s.saleOpensAt)}`)),
    h('a', {class: `btn ${s.onSale ? 'btn--primary' : 'btn--ghost'} btn--small`,
      href: `#/show/${encodeURIComponent(s.showId)}`,
      'aria-label': `${s.onSale ? 'Choose seats' : 'See seat map'} for ${dateTime(s.startsAt)}`},
    s.onSale ? 'Choose seats' : 'See seat map'));
}
