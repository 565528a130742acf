package org.boxoffice.app.waitlist;

import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.mail.MailComposer;
import org.boxoffice.app.mail.MailContent;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.MailOutbox.OfferMail;
import org.boxoffice.domain.Show;

import java.time.Instant;
import java.util.List;

/**
 * Writes offer mails, which tell a waiter that seats (or admissions to an area) are held for them: until when, and how to buy
 * or decline them. Only the waiter offered seats gets a mail; nobody else in line is woken.
 */
final class OfferMailComposer implements MailComposer<OfferMail> {

    private final ShowDirectory shows;

    OfferMailComposer(ShowDirectory shows) {
        this.shows = shows;
    }

    @Override
    public String kind() {
        return "offer";
    }

    @Override
    public String about(OfferMail mail) {
        return "hold " + mail.holdId();
    }

    @Override
    public MailContent compose(OfferMail mail) {
        Show show = shows.find(mail.showId()).orElseThrow();
        String title = shows.event(show.eventId()).map(Event::title).orElse(show.eventId());
        boolean byCount = mail.area() != null;
        String what = byCount ? mail.quantity() + (mail.quantity() == 1 ? " admission" : " admissions") + " to " + mail.area()
                : String.join(", ", mail.seatIds());
        String text = (byCount ? "Admissions" : "Seats") + " came back for " + title + ", "
                + Instant.ofEpochMilli(show.startsAt()) + ", and you were next on the waitlist.\n\n"
                + "Held for you until " + Instant.ofEpochMilli(mail.expiresAt()) + ": " + what
                + "\n\nBuy them:      POST /v1/holds/" + mail.holdId() + "/checkout"
                + "\nDecline them:  DELETE /v1/holds/" + mail.holdId()
                + "\n\nIf you do neither, they go to the next person waiting when the time is up.\n";
        return new MailContent((byCount ? "Admissions" : "Seats") + " are held for you: " + title, text, List.of());
    }
}
