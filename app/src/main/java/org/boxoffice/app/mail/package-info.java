/**
 * Mail from an outbox: {@link org.boxoffice.app.mail.MailDispatcher} claims due mails of one kind,
 * sends them over SMTP with retries and backoff, and marks them sent; each kind of mail (tickets
 * after a booking, waitlist offers) contributes only a {@link org.boxoffice.app.mail.MailComposer}
 * that writes its mails. The kinds live with what they tell of ({@code checkout}, {@code waitlist});
 * where a fan's mail goes ({@link org.boxoffice.app.mail.Recipients}) is decided here for all of them, and the outboxes' backlog is metered here
 * ({@link org.boxoffice.app.mail.OutboxMeter}).
 */
package org.boxoffice.app.mail;
