// One event and all its shows.

import {api, ApiError} from '../api.js';
import {h} from '../dom.js';
import {eventCard} from './browse.js';

export async function render(main, [eventId]) {
  const {events} = await api('/v1/events');
  const event = events.find(e => e.eventId === eventId);
  if (!event) throw new ApiError(404, {error: 'NOT_FOUND', message: 'no such event'});
  main.append(
    h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'}, h('a', {href: '#/'}, 'All events'), h('span', {'aria-hidden': 'true'}, '/'),
      h('span', {'aria-current': 'page'}, event.title)),
    h('section', {class: 'event-page'},
      h('h1', {class: 'visually-hidden'}, event.title),
      eventCard(event, {heading: 'h2', link: false})));
}
