package org.boxoffice.app.checkout;

import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.mail.MailComposer;
import org.boxoffice.app.mail.MailContent;
import org.boxoffice.app.mail.MailSettings;
import org.boxoffice.domain.AdmissionTickets;
import org.boxoffice.domain.Booking;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.MailOutbox.TicketMail;
import org.boxoffice.domain.Show;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Writes ticket mails: a plain-text mail listing the booking's tickets. Where the show admits printed
 * tickets, with each ticket's code and one QR image per seat attached; where it admits the web app's
 * live codes only (print-at-home off, so the gate refuses a fixed code), with no code at all but a
 * link to the fan's tickets in the web app, which shows the live code. Who receives it: the address
 * taken at checkout (the token's {@code email} claim, or the configured pattern; see
 * {@link org.boxoffice.app.mail.Recipients}).
 */
final class TicketMailComposer implements MailComposer<TicketMail> {

    private final BookingRepository bookings;
    private final ShowDirectory shows;
    private final TicketCodes codes;
    private final Function<String, Optional<Boolean>> printAtHome;
    private final MailSettings mail;

    /** @param printAtHome whether a show admits printed codes, by its id (empty: no such show, taken as yes) */
    TicketMailComposer(BookingRepository bookings, ShowDirectory shows, TicketCodes codes,
                       Function<String, Optional<Boolean>> printAtHome, MailSettings mail) {
        this.bookings = bookings;
        this.shows = shows;
        this.codes = codes;
        this.printAtHome = printAtHome;
        this.mail = mail;
    }

    @Override
    public String kind() {
        return "ticket";
    }

    @Override
    public String about(TicketMail mail) {
        return "booking " + mail.bookingId();
    }

    @Override
    public MailContent compose(TicketMail m) {
        Booking b = bookings.booking(m.bookingId()).orElseThrow();
        Show show = shows.find(b.showId()).orElseThrow();
        String title = shows.event(show.eventId()).map(Event::title).orElse(show.eventId());
        StringBuilder text = new StringBuilder()
                .append("Thank you for your booking.\n\n")
                .append(title).append(", ").append(Instant.ofEpochMilli(show.startsAt())).append('\n')
                .append("Booking ").append(b.bookingId()).append(", ").append(b.seatIds().size())
                .append(AdmissionTickets.areaOf(b).map(area -> " admission(s) to " + area).orElse(" seat(s)")).append("\n\n");
        String subject = "Your tickets for " + title + " (booking " + b.bookingId() + ")";
        if (!printAtHome.apply(b.showId()).orElse(true)) {
            for (String seat : b.seatIds()) {
                text.append(AdmissionTickets.area(seat).isPresent() ? "Admission " : "Seat ").append(seat).append('\n');
            }
            text.append("\nThis show admits the live ticket code of the Boxoffice web app only: it changes every few ")
                    .append("seconds, so a printout or a screenshot will not get you in. At the gate, open your tickets ")
                    .append("and show the live code of each seat:\n").append(mail.ticketsLink(b.bookingId())).append('\n');
            return new MailContent(subject, text.toString(), List.of());
        }
        List<MailContent.Attachment> qrCodes = new ArrayList<>();
        for (String seat : b.seatIds()) {
            String code = codes.code(b.bookingId(), b.showId(), seat);
            text.append(AdmissionTickets.area(seat).isPresent() ? "Admission " : "Seat ").append(seat).append("  ticket ").append(code).append('\n');
            qrCodes.add(new MailContent.Attachment("ticket-" + seat + ".png", "image/png", () -> QrCodes.png(code)));
        }
        text.append("\nShow the QR code of each seat at the gate (attached).\n");
        return new MailContent(subject, text.toString(), qrCodes);
    }
}
