// The fan's account: their phone number for SMS (optional), given, changed and removed through
// PUT/GET/DELETE /v1/accounts/me/phone. The API refuses a number that is not E.164 (400
// INVALID_PHONE); its message is shown under the field and read out. The stored number is shown
// masked, as the service's logs write it: a shared screen or a screenshot does not give it away.

import {api, ApiError, session} from '../api.js';
import {h, clear, announce} from '../dom.js';

export async function render(main) {
  let phone;
  try {
    phone = await storedPhone();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      main.append(h('section', {class: 'empty'}, h('h1', {}, 'Your account'),
        h('p', {class: 'muted'}, 'Sign in to give a phone number for your tickets.'),
        h('p', {}, h('a', {class: 'btn btn--ghost', href: '#/'}, 'Find events'))));
      return null;
    }
    throw e;
  }
  main.append(
    h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'},
      h('a', {href: '#/bookings'}, 'My tickets'), h('span', {'aria-hidden': 'true'}, '/'),
      h('span', {'aria-current': 'page'}, 'Your account')),
    h('header', {class: 'page-head'}, h('h1', {}, 'Your account'),
      h('p', {class: 'muted account-page__who'}, 'Signed in as ', h('strong', {}, session.get()?.accountId || ''))),
    phonePanel(phone));
  return null;
}

/** The stored number in E.164 form, or null when the fan gave none (404). */
async function storedPhone() {
  try {
    return (await api('/v1/accounts/me/phone', {auth: true})).phone;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/** "+4915112345678" -> "+49•••••••••78": the first two digits and the last two, as the service's logs write it. */
export function maskPhone(e164) {
  if (!e164 || e164.length < 6) return '•••';
  return `${e164.slice(0, 3)}${'•'.repeat(e164.length - 5)}${e164.slice(-2)}`;
}

/** The masked number, read out as "a number starting +49 and ending 78" rather than a row of bullets. */
function maskedNumber(e164) {
  return h('strong', {class: 'phone__number'},
    h('span', {'aria-hidden': 'true'}, maskPhone(e164)),
    h('span', {class: 'visually-hidden'}, `a number starting ${e164.slice(0, 3)} and ending ${e164.slice(-2)}`));
}

function phonePanel(initial) {
  let phone = initial;
  const body = h('div', {class: 'phone__body'});
  // a live region that is on the page from the start, so that what changes in it is read out
  const said = h('p', {class: 'phone__said small', role: 'status', id: 'phone-status'});

  const show = () => {
    clear(body);
    if (!phone) {
      body.append(h('p', {id: 'phone-current'}, 'No phone number yet: your tickets and notices come by email.'));
      body.append(form({label: 'Add a phone number', submit: 'Save number'}));
      return;
    }
    body.append(h('p', {id: 'phone-current'}, 'Texts go to ', maskedNumber(phone), '.'),
      h('div', {class: 'phone__actions'},
        h('button', {class: 'btn btn--ghost btn--small', type: 'button', onclick: () => {
          said.textContent = '';
          clear(body).append(h('p', {id: 'phone-current'}, 'Texts go to ', maskedNumber(phone), ' until you save a new number.'),
            form({label: 'New phone number', submit: 'Save new number', cancel: true}));
          body.querySelector('input').focus();
        }}, 'Change number'),
        h('button', {class: 'btn btn--danger btn--small', type: 'button', onclick: e => remove(e.currentTarget)}, 'Remove number')));
  };

  const remove = async button => {
    button.disabled = true;
    try {
      await api('/v1/accounts/me/phone', {method: 'DELETE', auth: true});
      phone = null;
      show();
      said.textContent = 'Phone number removed. Tickets and notices come by email only.';
      body.querySelector('input').focus();
    } catch (err) {
      button.disabled = false;
      said.textContent = `Could not remove the number: ${sentence(err.message)}`;
    }
  };

  const form = ({label, submit, cancel = false}) => {
    const input = h('input', {id: 'phone-input', name: 'phone', type: 'tel', autocomplete: 'tel', inputmode: 'tel',
      maxlength: 40, spellcheck: 'false', 'aria-describedby': 'phone-hint phone-error'});
    const error = h('p', {class: 'field__error', id: 'phone-error', role: 'alert'});
    const save = h('button', {class: 'btn btn--primary btn--small', type: 'submit'}, submit);
    const refuse = text => {
      error.textContent = text;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    };
    return h('form', {class: 'phone__form', novalidate: true, onsubmit: async e => {
      e.preventDefault();
      error.textContent = '';
      input.removeAttribute('aria-invalid');
      said.textContent = '';
      save.disabled = true;
      try {
        const changed = Boolean(phone);
        phone = (await api('/v1/accounts/me/phone', {method: 'PUT', auth: true, body: {phone: input.value}})).phone;
        show();
        said.textContent = changed ? 'New phone number saved.' : 'Phone number saved. Your next tickets come by SMS as well as by email.';
        body.querySelector('button')?.focus();
      } catch (err) {
        save.disabled = false;
        if (err instanceof ApiError && err.code === 'INVALID_PHONE') refuse(sentence(err.message));
        else if (err instanceof ApiError && err.status === 401) refuse('Sign in to save a phone number.');
        else refuse(`The number was not saved: ${sentence(err.message)}`);
      }
    }},
    h('div', {class: 'field'},
      h('label', {class: 'field__label', for: 'phone-input'}, label),
      input,
      h('span', {class: 'field__hint', id: 'phone-hint'}, 'With + and the country code, e.g. +49 151 12345678. Spaces are fine.')),
    error,
    h('div', {class: 'phone__actions'}, save,
      cancel ? h('button', {class: 'btn btn--ghost btn--small', type: 'button', onclick: () => {
        show();
        body.querySelector('button')?.focus();
      }}, 'Keep the old number') : null));
  };

  show();
  return h('section', {class: 'panel phone', id: 'phone', 'aria-labelledby': 'phone-title'},
    h('h2', {class: 'panel__title', id: 'phone-title'}, 'Phone number for SMS ', h('span', {class: 'badge'}, 'optional')),
    h('p', {class: 'muted small'}, 'You do not need one. With a number, your tickets come by SMS as well as by email, and '
      + 'notices (a hold that lapsed, a waitlist offer about to lapse) come by SMS instead of email. Remove it at any time.'),
    body, said);
}

/** "a phone number is written…" -> "A phone number is written…." */
function sentence(text) {
  const t = String(text || '').trim();
  return t ? `${t[0].toUpperCase()}${t.slice(1)}${/[.!?)]$/.test(t) ? '' : '.'}` : '';
}
