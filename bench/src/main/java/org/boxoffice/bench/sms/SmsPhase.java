package org.boxoffice.bench.sms;

import org.boxoffice.bench.load.Latency;

/**
 * One phase of the SMS outage scenario: a sale with checkouts on a fresh show while the stub
 * provider answers one way, then the provider's recovery and the wait until the show's messages are
 * delivered.
 *
 * @param name     {@code prompt}, {@code slow} or {@code failing}
 * @param stub     how the stub answered during the phase, in words
 * @param sale     the sale's figures
 * @param messages the show's text messages, at the sale's end and after the recovery
 */
public record SmsPhase(String name, String stub, Sale sale, Messages messages) {

    /**
     * @param holds      every hold attempt's latency (409s included)
     * @param checkouts  every checkout request's latency
     * @param held       holds granted
     * @param booked     buyers who got a booking (at once or after a pending payment)
     * @param seconds    the sale's length
     * @param soldOut    whether it sold out before {@code --duration}
     * @param violations the invariant and booking checks' findings against PostgreSQL (must be 0)
     */
    public record Sale(Latency holds, Latency checkouts, long held, long booked, double seconds, boolean soldOut,
                       long violations) {
    }

    /**
     * @param queued              SMS written for the show
     * @param sentAtSaleEnd       of those, marked sent when the sale ended
     * @param deliveredAtSaleEnd  of those, delivered at the stub when the sale ended
     * @param recoveredAt         seconds into the sale at which the stub answered at once again (0 for the prompt phase)
     * @param sent                marked sent once the wait after the recovery ended
     * @param givenUp             given up by the service
     * @param delivered           delivered at the stub (first call with their id) once the wait ended
     * @param attempts            the service's sends of them (a claim counts one)
     * @param lastDelivery        seconds from the recovery (or the sale's end, if later) to the last delivery; null if some never came
     * @param allSent             seconds from the same moment until every one was marked sent; null if not within the wait
     * @param calls               the calls the stub answered from the phase's start to the wait's end
     */
    public record Messages(long queued, long sentAtSaleEnd, long deliveredAtSaleEnd, double recoveredAt, long sent,
                           long givenUp, long delivered, long attempts, Double lastDelivery, Double allSent,
                           SmsStub.Calls calls) {

        public long missing() {
            return queued - delivered;
        }
    }
}
