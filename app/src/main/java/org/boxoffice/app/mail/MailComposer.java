package org.boxoffice.app.mail;

import org.boxoffice.domain.MailOutbox;

/**
 * What one kind of mail adds to the {@link MailDispatcher} that sends it: its name and how a mail
 * is written. Called on the dispatcher's thread.
 *
 * @param <M> the kind of mail, as its outbox hands it out
 */
public interface MailComposer<M extends MailOutbox.Mail> {

    /** The kind's name in logs and in the dispatcher's thread name: {@code ticket}, {@code offer}. */
    String kind();

    /** What a mail is about, for the log: {@code booking 42}. */
    String about(M mail);

    /**
     * The mail's subject, text and attachments. Throws if what the mail tells of cannot be found;
     * that counts as a failed send, tried again later.
     */
    MailContent compose(M mail);
}
