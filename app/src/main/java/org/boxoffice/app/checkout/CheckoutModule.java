package org.boxoffice.app.checkout;

import com.hazelcast.core.HazelcastInstance;
import io.helidon.webserver.http.HttpRouting;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.gates.GateKeys;
import org.boxoffice.app.gates.GatesService;
import org.boxoffice.app.holds.Idempotency;
import org.boxoffice.app.mail.MailDispatcher;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.app.payments.PaymentProvider;
import org.boxoffice.app.payments.WebhookSignature;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.GateRepository;
import org.boxoffice.domain.PaymentGateway;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.MailOutbox;
import org.boxoffice.domain.MailOutbox.TicketMail;
import org.boxoffice.domain.TicketPolicyRepository;
import org.boxoffice.domain.TransferRepository;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.Seats;

import java.net.URI;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Checkout wired together: the payment provider {@code boxoffice.payments.provider} names,
 * settlement, bookings and tickets, the webhook, reconciliation and the ticket mailer, with their
 * HTTP services. Built once per member by {@code Boxoffice}; its background work (reconciliation,
 * mail, the provider's own) stops on {@link #close}.
 */
public final class CheckoutModule implements AutoCloseable {

    private final CheckoutSettings settings;
    private final Authenticator auth;
    private final Idempotency idempotency;
    private final BookingRepository bookings;
    private final PaymentProvider gateway;
    private final Settlement settlement;
    private final CheckoutManager checkout;
    private final BookingManager bookingManager;
    private final PaymentEvents events;
    private final Reconciliation reconciliation;
    private final MailDispatcher<TicketMail> mailer;
    private final TicketCodes codes;
    private final TicketTransfers transfers;
    private final OpsMetrics metrics;
    private final HazelcastInstance hz;
    private final LongSupplier clock;
    private final GateRepository gates;
    private final GateKeys gateKeys;
    private final ShowDirectory shows;

    /**
     * What checkout keeps in PostgreSQL, built by the wiring (one place builds each repository).
     *
     * @param ticketMails the ticket mails' outbox
     */
    public record Stores(BookingRepository bookings, TransferRepository transfers, GateRepository gates,
                         TicketPolicyRepository policies, MailOutbox<TicketMail> ticketMails) {
    }

    public CheckoutModule(CheckoutSettings settings, Stores stores, HazelcastInstance hz, ShowDirectory shows,
                          Seats seats, Admissions admissions, InventoryRepository holds, Authenticator auth, Idempotency idempotency, LongSupplier clock,
                          OpsMetrics metrics) {
        this.metrics = metrics;
        this.hz = hz;
        this.clock = clock;
        this.settings = settings;
        this.auth = auth;
        this.idempotency = idempotency;
        this.bookings = stores.bookings();
        this.gateway = settings.payments().provider().open(settings.payments(), clock);
        this.settlement = new Settlement(shows, seats, admissions, holds, bookings, gateway, settings, clock, metrics);
        this.checkout = new CheckoutManager(shows, seats, admissions, holds, bookings, gateway, settlement,
                settings, clock, metrics);
        this.codes = new TicketCodes(settings.ticketSecret());
        TransferRepository transferRepository = stores.transfers();
        this.gates = stores.gates();
        this.gateKeys = new GateKeys(gates, settings.ticketSecret(), clock);
        this.shows = shows;
        this.bookingManager = new BookingManager(shows, seats, admissions, bookings, settlement, codes, transferRepository,
                stores.policies(), gateKeys, clock);
        this.transfers = new TicketTransfers(shows, bookings, transferRepository, codes, settings.transfers(), clock);
        this.events = new PaymentEvents(bookings, settlement, gateway, clock);
        this.reconciliation = new Reconciliation(bookings, gateway, settlement, bookingManager, settings, clock, hz,
                metrics).start();
        this.mailer = new MailDispatcher<>(stores.ticketMails(),
                new TicketMailComposer(bookings, shows, codes, stores.policies()::printAtHome, settings.mail()),
                settings.mail(), clock).onGiveUp(() -> metrics.count(OpsMetrics.MESSAGES_GIVEN_UP, "email")).start();
    }

    /** Registers checkout's HTTP services under {@code /v1}. */
    public void routing(HttpRouting.Builder routing) {
        routing.register("/v1", new CheckoutService(checkout, auth, idempotency, settings.mail().recipient(), metrics))
                .register("/v1", new PaymentWebhookService(new WebhookSignature(settings.payments().webhookSecret()), events,
                        metrics))
                .register("/v1", new BookingsService(bookingManager, auth))
                .register("/v1", new TicketsService(bookingManager, shows, auth))
                .register("/v1", new TransfersService(transfers, auth))
                .register("/v1", new GatesService(shows, gateKeys, gates, auth, clock));
    }

    /** The web server listens on {@code port} of this machine: the provider learns where the webhook is. */
    public void serving(int port) {
        gateway.webhookAt(URI.create("http://127.0.0.1:" + port + "/v1/payments/webhook"));
    }

    /** The payment provider this member runs. */
    public PaymentProvider provider() {
        return gateway;
    }

    /** Each show's key pair for offline gates. */
    public GateKeys gateKeys() {
        return gateKeys;
    }

    /** How this member signs and checks ticket codes. */
    public TicketCodes codes() {
        return codes;
    }

    public BookingRepository bookings() {
        return bookings;
    }

    public Settlement settlement() {
        return settlement;
    }

    public Reconciliation reconciliation() {
        return reconciliation;
    }

    /**
     * Another reconciliation of this module's payments and bookings, over {@code provider} and waiting
     * at most {@code stepTimeout} for one repair; not started (tests: a provider that stops answering).
     */
    public Reconciliation reconciliationVia(PaymentGateway provider, Duration stepTimeout) {
        return new Reconciliation(bookings, provider, settlement, bookingManager, settings, clock, hz, metrics,
                stepTimeout);
    }

    @Override
    public void close() {
        reconciliation.close();
        mailer.close();
        checkout.close();
        gateway.close();
    }
}
