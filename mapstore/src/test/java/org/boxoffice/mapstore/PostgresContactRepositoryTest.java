package org.boxoffice.mapstore;

import static org.boxoffice.mapstore.TestShows.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.boxoffice.domain.MailOutbox.Message;
import org.boxoffice.domain.PhoneNumber;
import org.boxoffice.domain.WaitlistEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Phone numbers, and notices written once by PostgreSQL however many members find the same fact. */
class PostgresContactRepositoryTest {

    private static HikariDataSource db;
    private static PostgresContactRepository contacts;
    private static PostgresWaitlistRepository waitlist;

    @BeforeAll
    static void database() {
        db = TestDatabase.newDataSource(10);
        PostgresCatalogRepository catalog = new PostgresCatalogRepository(db);
        for (String show : List.of("ct-1", "ct-2")) {
            TestShows.save(catalog, TestShows.small(show));
        }
        contacts = new PostgresContactRepository(db);
        waitlist = new PostgresWaitlistRepository(db);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void aPhoneNumber_isKeptReplacedAndForgotten() {
        assertTrue(contacts.phone("pia").isEmpty());
        contacts.setPhone("pia", new PhoneNumber("+4915112345678"), T0);
        contacts.setPhone("pia", new PhoneNumber("+4915187654321"), T0 + 1);
        assertEquals("+4915187654321", contacts.phone("pia").orElseThrow().e164());
        assertTrue(contacts.removePhone("pia"));
        assertFalse(contacts.removePhone("pia"));
    }

    @Test
    void aLapse_isNotedOncePerChannel_byWhicheverOfManyConcurrentExpiriesWins() throws Exception {
        contacts.setPhone("lea", new PhoneNumber("+4915100000001"), T0);
        hold("H-lapse", "lea");
        hold("H-released", "lea");
        hold("H-lapse~100009", "lea");

        List<Callable<Integer>> expiries = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            expiries.add(() -> update("UPDATE holds SET status = 'EXPIRED' WHERE hold_id = 'H-lapse' AND status = 'ACTIVE'"));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        int won = 0;
        try {
            for (Future<Integer> f : pool.invokeAll(expiries)) {
                won += f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        update("UPDATE holds SET status = 'RELEASED' WHERE hold_id = 'H-released'");
        update("UPDATE holds SET status = 'EXPIRED' WHERE hold_id = 'H-lapse~100009'");

        assertEquals(1, won, "PostgreSQL lets one expiry through");
        assertEquals(List.of("PAGE", "SMS +4915100000001"), strings(
                "SELECT channel || coalesce(' ' || recipient, '') FROM messages WHERE subject LIKE 'H-%' ORDER BY 1"));
        List<Message> sms = PostgresMailOutbox.messages(db, Message.Channel.SMS, a -> a + "@x").claim(10,
                System.currentTimeMillis() + 1_000, 30_000).stream().filter(m -> m.subject().startsWith("H-")).toList();
        assertEquals(1, sms.size());
        assertEquals(Message.Kind.HOLD_LAPSED, sms.get(0).kind());
        assertEquals("H-lapse", sms.get(0).subject());
        assertEquals("ct-1", sms.get(0).showId());
    }

    @Test
    void offersAboutToLapse_areNotedOnce_byTheFansChannel_withinTheLeadTime() throws Exception {
        offer("ct-2", "ola", "W-soon", T0 + 60_000);
        offer("ct-2", "ivo", "W-later", T0 + 600_000);
        contacts.setPhone("ivo", new PhoneNumber("+4915100000002"), T0);

        assertEquals(2, contacts.noteLapsingOffers(T0, T0 + 120_000), "the page's and the mail's");
        assertEquals(0, contacts.noteLapsingOffers(T0 + 1, T0 + 120_001), "another member's look adds nothing");
        List<Message> mail = PostgresMailOutbox.messages(db, Message.Channel.EMAIL, a -> a + "@default")
                .claim(10, T0 + 2, 30_000);
        assertEquals(1, mail.size());
        assertEquals(Message.Kind.OFFER_LAPSING, mail.get(0).kind());
        assertEquals("ola@example.test", mail.get(0).recipient(), "the address the offer went to");
        assertEquals(T0 + 60_000, mail.get(0).expiresAt());

        assertEquals(2, contacts.noteLapsingOffers(T0 + 500_000, T0 + 620_000));
        assertEquals(List.of("PAGE", "SMS +4915100000002"), strings("SELECT channel || coalesce(' ' || recipient, '') "
                + "FROM messages WHERE subject = 'W-later' AND kind = 'OFFER_LAPSING' ORDER BY 1"));
    }

    @Test
    void anOffer_isNotedForTheFansPageAlone_byTheStatementThatRecordsIt_withWhatItHolds() throws Exception {
        // lapsing long after the other test's look at offers about to lapse
        offer("ct-2", "uma", "W-made", T0 + 3_600_000);

        assertEquals(List.of("OFFER_MADE PAGE uma"), strings("SELECT kind || ' ' || channel || ' ' || account_id "
                + "FROM messages WHERE subject = 'W-made'"), "the page's notice, and no other channel's (the offer is mailed)");
        List<Message> page = PostgresMailOutbox.messages(db, Message.Channel.PAGE, a -> a).claim(50, T0 + 1, 30_000)
                .stream().filter(m -> m.subject().equals("W-made")).toList();
        assertEquals(1, page.size());
        assertEquals(Message.Kind.OFFER_MADE, page.get(0).kind());
        assertEquals("ct-2", page.get(0).showId());
        assertEquals(T0 + 3_600_000, page.get(0).expiresAt());
        assertEquals(new Message.Offered(List.of("A-1-1"), null, 1), page.get(0).offer());

        long id = Math.abs((long) "W-undone".hashCode()) + 1;
        waitlist.enqueue(id, new WaitlistEntry(id, "ct-2", "vic", 1, null, T0, "vic@example.test"));
        assertTrue(waitlist.beginOffer(id, "W-undone", T0));
        assertTrue(waitlist.abandonOffer(id, "W-undone", T0));
        assertFalse(waitlist.offered(id, "W-undone", List.of("A-1-2"), T0 + 600_000, T0));
        assertEquals(0, strings("SELECT kind FROM messages WHERE subject = 'W-undone'").size(), "no offer, no notice");
    }

    private static void offer(String show, String account, String holdId, long expiresAt) {
        long id = Math.abs((long) holdId.hashCode()) + 1;
        waitlist.enqueue(id, new WaitlistEntry(id, show, account, 1, null, T0, account + "@example.test"));
        assertTrue(waitlist.beginOffer(id, holdId, T0));
        assertTrue(waitlist.offered(id, holdId, List.of("A-1-1"), expiresAt, T0));
    }

    private static void hold(String holdId, String account) throws SQLException {
        update("INSERT INTO holds (hold_id, show_id, account_id, seat_ids, expires_at, status, created_at, total_cents, "
                + "currency) VALUES ('" + holdId + "', 'ct-1', '" + account + "', '{A-1-1}', now(), 'ACTIVE', now(), 500, 'EUR')");
    }

    private static int update(String sql) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            return ps.executeUpdate();
        }
    }

    private static List<String> strings(String sql) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }
}
