package org.boxoffice.bench.load;

/**
 * The system under load: where its HTTP API listens and the show being sold.
 *
 * @param name   how reports call it ({@code boxoffice}, {@code pg-conditional}, ...)
 * @param plan   the show's seats in the order of its availability map
 */
public record Target(String name, String host, int port, String showId, ShowPlan plan) {

    public String holdsPath() {
        return "/v1/shows/" + showId + "/holds";
    }

    public String availabilityPath() {
        return "/v1/shows/" + showId + "/availability";
    }
}
