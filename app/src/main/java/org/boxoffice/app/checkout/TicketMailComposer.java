package org.boxoffice.app.checkout;

import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.mail.MailComposer;
import org.boxoffice.app.mail.MailContent;
import org.boxoffice.domain.AdmissionTickets;
import org.boxoffice.domain.Booking;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.MailOutbox.TicketMail;
import org.boxoffice.domain.Show;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes ticket mails: a plain-text mail listing the booking's tickets, with one QR image per seat
 * attached. Who receives it: the address taken at checkout (the token's {@code email} claim, or
 * the configured pattern; see {@link org.boxoffice.app.mail.Recipients}).
 */
final class TicketMailComposer implements MailComposer<TicketMail> {

    private final BookingRepository bookings;
    private final ShowDirectory shows;
    private final TicketCodes codes;

    TicketMailComposer(BookingRepository bookings, ShowDirectory shows, TicketCodes codes) {
        this.bookings = bookings;
        this.shows = shows;
        this.codes = codes;
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
    public MailContent compose(TicketMail mail) {
        Booking b = bookings.booking(mail.bookingId()).orElseThrow();
        Show show = shows.find(b.showId()).orElseThrow();
        String title = shows.event(show.eventId()).map(Event::title).orElse(show.eventId());
        StringBuilder text = new StringBuilder()
                .append("Thank you for your booking.\n\n")
                .append(title).append(", ").append(Instant.ofEpochMilli(show.startsAt())).append('\n')
                .append("Booking ").append(b.bookingId()).append(", ").append(b.seatIds().size())
                .append(AdmissionTickets.areaOf(b).map(area -> " admission(s) to " + area).orElse(" seat(s)")).append("\n\n");
        List<MailContent.Attachment> qrCodes = new ArrayList<>();
        for (String seat : b.seatIds()) {
            String code = codes.code(b.bookingId(), b.showId(), seat);
            text.append(AdmissionTickets.area(seat).isPresent() ? "Admission " : "Seat ").append(seat).append("  ticket ").append(code).append('\n');
            qrCodes.add(new MailContent.Attachment("ticket-" + seat + ".png", "image/png", () -> QrCodes.png(code)));
        }
        text.append("\nShow the QR code of each seat at the gate (attached).\n");
        return new MailContent("Your tickets for " + title + " (booking " + b.bookingId() + ")", text.toString(), qrCodes);
    }
}
