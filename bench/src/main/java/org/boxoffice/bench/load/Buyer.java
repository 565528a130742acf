package org.boxoffice.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A simulated fan: an account of its own (so the per-account limit applies to each fan, as in a
 * real on-sale), its bearer token, and what it wants: how many seats together and which section.
 *
 * @param quantity  seats wanted side by side, 1..4
 * @param section  the name of the section wanted most
 */
public record Buyer(String accountId, String token, int quantity, String section) {

    /**
     * {@code count} fans with wishes drawn from {@code seed}: the same seed gives every system the
     * same crowd, so runs against different systems are the same scenario.
     *
     * @param tokens the bearer token for each account id (systems issue their own tokens)
     */
    public static List<Buyer> crowd(int count, long seed, ShowPlan plan, List<String> tokens) {
        if (tokens.size() != count) {
            throw new IllegalArgumentException(tokens.size() + " tokens for " + count + " buyers");
        }
        SeatChooser chooser = new SeatChooser(plan);
        SplittableRandom random = new SplittableRandom(seed);
        List<Buyer> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(new Buyer(accountId(i), tokens.get(i), SeatChooser.quantity(random), chooser.preferredSection(random).name()));
        }
        return out;
    }

    /** The crowd's account ids, the same for every system. */
    public static String accountId(int i) {
        return "buyer-" + i;
    }

    public static List<String> accountIds(int count) {
        List<String> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(accountId(i));
        }
        return ids;
    }
}
