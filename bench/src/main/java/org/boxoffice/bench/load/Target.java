package org.boxoffice.bench.load;

/**
 * The system under load: where its HTTP API listens and the show being sold.
 *
 * @param name   how reports call it ({@code boxoffice}, {@code pg-conditional}, ...)
 * @param plan   the show's seats in the order of its availability map; for a general-admission
 *               sale, a plan of as many seats as the area's capacity, for the crowd's wishes only
 * @param area   the general-admission area sold by count ({@code --general-admission}), or null: seats
 */
public record Target(String name, String host, int port, String showId, ShowPlan plan, String area) {

    public Target(String name, String host, int port, String showId, ShowPlan plan) {
        this(name, host, port, showId, plan, null);
    }

    public String holdsPath() {
        return "/v1/shows/" + showId + "/holds";
    }

    public String availabilityPath() {
        return "/v1/shows/" + showId + "/availability";
    }

    /** What each general-admission area of the show has left. */
    public String areasPath() {
        return "/v1/shows/" + showId + "/areas";
    }

    /** The body of a hold of {@code quantity} admissions of {@link #area}. */
    public String admissionsBody(int quantity) {
        return "{\"area\":\"" + area + "\",\"quantity\":" + quantity + "}";
    }
}
