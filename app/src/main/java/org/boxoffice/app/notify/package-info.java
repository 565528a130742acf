/**
 * Messages beside the ticket mail, through channels: a fan's phone number ({@link
 * org.boxoffice.app.notify.PhoneService}), SMS providers ({@link org.boxoffice.app.notify.SmsProvider}:
 * the simulated one and {@link org.boxoffice.app.notify.HttpSmsProvider}), and the notices of a
 * lapsed hold or of a waitlist offer about to lapse, told on the fan's open page ({@link
 * org.boxoffice.app.notify.PageChannel}) and by SMS or email, and of a waitlist offer made, told on
 * the page (its mail is the offer mail). Everything here leaves through the
 * {@code messages} outbox, so no booking and no expiry waits for a channel. Wired by
 * {@link org.boxoffice.app.notify.NotifyModule}.
 */
package org.boxoffice.app.notify;
