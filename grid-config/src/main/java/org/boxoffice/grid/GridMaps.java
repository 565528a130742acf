package org.boxoffice.grid;

/** Names of the grid's data structures. */
public final class GridMaps {
    /** One entry per block of a show's seats; write-through to the referee. */
    public static final String INVENTORY = "inventory";
    /**
     * One entry per stripe of a general-admission area ({@link StripeKey}): write-through to the
     * referee, loaded from it on first use.
     */
    public static final String ADMISSIONS = "admission-stripes";
    /**
     * One entry per general-admission area ({@link SoldOutMark}): how few admissions it had, while
     * nothing has given any back since. A refusal of a sold-out area reads it and nothing else.
     */
    public static final String SOLD_OUT_MARKS = "sold-out-marks";
    /** One entry per account and show: seats held and bought, for the per-account limit. */
    public static final String ALLOWANCES = "allowances";
    /**
     * Shows whose every account with seats is in {@link #ALLOWANCES}, and until when (see
     * {@code Allowances#newShow}): an account missing there has no seats of the show.
     */
    public static final String ALLOWANCES_COMPLETE = "allowances-complete";
    /** Responses remembered under idempotency keys, for 24 hours. */
    public static final String IDEMPOTENCY = "idempotency";
    /** Denormalized events for search (SQL). */
    public static final String CATALOG_EVENTS = org.boxoffice.grid.catalog.CatalogSearch.MAP;
    /** The split-brain protection that seat writes need: a quorum of members. */
    public static final String QUORUM = "seat-writes";
    /** Facts about the running cluster, written once by its first member (such as when it started). */
    public static final String CLUSTER = "cluster";
    /**
     * Prefix of the maps a starting member rehearses the hold path on before it owns partitions: the
     * same processors and offloaded stores as {@link #INVENTORY} and {@link #ALLOWANCES}, no referee
     * behind them, no backups. They exist only in the member's private stage
     * ({@code GridMember.startStage}), never in the cluster.
     */
    public static final String REHEARSAL_PREFIX = "rehearsal-";

    /** The part of a member's rehearsal names that says whose they are: the start of its UUID. */
    public static String rehearsalTag(java.util.UUID member) {
        return member.toString().substring(0, 8);
    }

    /** Cluster-unique ids for holds. */
    public static final String HOLD_IDS = "hold-ids";

    /** The last invariant check's violation counts by kind, as the member that ran it found them. */
    public static final String INVARIANT_FINDINGS = "invariant-findings";

    private GridMaps() {
    }
}
