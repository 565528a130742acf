package org.boxoffice.app.notify;

import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.checkout.TicketCodes;
import org.boxoffice.app.mail.MailComposer;
import org.boxoffice.app.mail.MailContent;
import org.boxoffice.app.mail.MailSettings;
import org.boxoffice.domain.Booking;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.MailOutbox.Message;
import org.boxoffice.domain.Show;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Writes the messages of one channel: a booking's tickets (short, for SMS: the seats and their
 * codes where the show admits printed codes, else a link to the fan's tickets in the web app, whose
 * live code is the only one the gate takes), a lapsed hold's notice (a waitlist offer's lapse says
 * so), a waitlist offer made (for a page only: its mail is the offer mail) and an offer's coming lapse
 * (for a page: a {@link PageNotice}).
 */
final class MessageComposer implements MailComposer<Message> {

    private final Message.Channel channel;
    private final ShowDirectory shows;
    private final BookingRepository bookings;
    private final TicketCodes codes;
    private final Function<String, Optional<Boolean>> printAtHome;
    private final MailSettings mail;

    /**
     * @param printAtHome whether a show admits printed codes, by its id (empty: no such show, taken as yes)
     * @param mail        the web app's address, for links
     */
    MessageComposer(Message.Channel channel, ShowDirectory shows, BookingRepository bookings, TicketCodes codes,
                    Function<String, Optional<Boolean>> printAtHome, MailSettings mail) {
        this.channel = channel;
        this.shows = shows;
        this.bookings = bookings;
        this.codes = codes;
        this.printAtHome = printAtHome;
        this.mail = mail;
    }

    @Override
    public String kind() {
        return channel.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String about(Message m) {
        return (m.kind() == Message.Kind.TICKETS ? "booking " : "hold ") + m.subject() + " ("
                + m.kind().name().toLowerCase(Locale.ROOT) + ")";
    }

    @Override
    public MailContent compose(Message m) {
        Show show = shows.find(m.showId()).orElseThrow();
        String title = shows.event(show.eventId()).map(Event::title).orElse(show.eventId());
        String when = title + ", " + Instant.ofEpochMilli(show.startsAt());
        return switch (m.kind()) {
            case TICKETS -> tickets(m, title, when);
            case HOLD_LAPSED -> m.offer() != null
                    ? content(m, "Your waitlist offer for " + title + " lapsed",
                            "The waitlist offer for " + when + " (" + offered(m) + ") was held for you until now and "
                                    + "was not bought in time, so it has lapsed: the tickets go to the next fan on the "
                                    + "waitlist, or back on sale. Join the waitlist again if you still want to go.")
                    : content(m, "Your hold for " + title + " lapsed",
                            "Your seats for " + when + " were held for you until now and are back on sale. "
                                    + "Pick seats again if you still want to go.");
            case OFFER_MADE -> content(m, (m.offer() != null && m.offer().area() != null ? "Admissions" : "Seats")
                            + " are held for you: " + title,
                    "Tickets came back for " + when + " and you were next on the waitlist: " + offered(m)
                            + " held for you until " + Instant.ofEpochMilli(m.expiresAt())
                            + ". Buy or decline them before then, or they go to the next fan in line.");
            case OFFER_LAPSING -> content(m, "Your waitlist offer for " + title + " lapses soon",
                    "The seats offered to you for " + when + " are held until " + Instant.ofEpochMilli(m.expiresAt())
                            + ". Buy or decline them before then, or they go to the next fan in line.");
        };
    }

    /** "A-1-1, A-1-2" or "2 admissions to FLOOR"; "tickets" when the entry is not known any more. */
    private static String offered(Message m) {
        if (m.offer() == null) {
            return "tickets";
        }
        if (m.offer().area() != null) {
            return m.offer().quantity() + (m.offer().quantity() == 1 ? " admission" : " admissions") + " to " + m.offer().area();
        }
        return String.join(", ", m.offer().seatIds());
    }

    private MailContent tickets(Message m, String title, String when) {
        Booking b = bookings.booking(Long.parseLong(m.subject())).orElseThrow();
        StringBuilder text = new StringBuilder("Boxoffice: booking ").append(b.bookingId()).append(", ").append(when);
        if (!printAtHome.apply(b.showId()).orElse(true)) {
            text.append("\n").append(String.join(", ", b.seatIds()))
                    .append("\nThis show admits only the live code in the web app (a screenshot will not do). ")
                    .append("Your tickets: ").append(mail.ticketsLink(b.bookingId()));
            return new MailContent("Your tickets for " + title, text.toString(), List.of());
        }
        for (String seat : b.seatIds()) {
            text.append("\n").append(seat).append(' ').append(codes.code(b.bookingId(), b.showId(), seat));
        }
        return new MailContent("Your tickets for " + title, text.toString(), List.of());
    }

    private MailContent content(Message m, String subject, String text) {
        if (channel == Message.Channel.PAGE) {
            // a page hears of a lapsed offer as of any lapsed hold, as before: no offer fields
            return new MailContent(subject, new PageNotice(m.kind().name(), m.showId(), m.subject(), m.accountId(),
                    m.expiresAt(), m.kind() == Message.Kind.HOLD_LAPSED ? null : m.offer(), text).json(), List.of());
        }
        return new MailContent(subject, text, List.of());
    }
}
