package org.boxoffice.app.notify;

import org.boxoffice.app.http.Json;
import org.boxoffice.domain.MailOutbox.Message;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A page notice between members and as a page reads it, and whom it is told to. */
class PageNoticeTest {

    private static final PageNotice OFFER = new PageNotice("OFFER_MADE", "jazz-1", "W1", "ann", 1_900_000_000_000L,
            new Message.Offered(List.of(), "FLOOR", 2), "Admissions are held for you");

    @Test
    void aNotice_travelsBetweenMembersWhole_andReachesAPageWithoutItsAccount() throws Exception {
        assertEquals(OFFER, PageNotice.parse(OFFER.json()));
        var page = Json.MAPPER.readTree(OFFER.pageJson());
        assertFalse(page.has("accountId"), "a page that names a hold proves nothing about whose it is");
        assertEquals("FLOOR", page.get("area").asText());
        assertEquals(2, page.get("quantity").asInt());
        assertEquals(0, page.get("seatIds").size());
        assertEquals(1_900_000_000_000L, page.get("expiresAt").asLong());
    }

    @Test
    void anOfferMade_isToldToItsFansKeyedPagesAlone_whileALapseIsToldToItsHoldsPageToo() {
        assertNull(OFFER.holdPage(), "hold ids are not secrets: a page could name an offer's before it is made");
        PageNotice lapse = new PageNotice("HOLD_LAPSED", "jazz-1", "H7", "bob", 0, null, "back on sale");
        assertEquals("H7", lapse.holdPage());
        assertEquals(lapse, PageNotice.parse(lapse.json()));
    }
}
