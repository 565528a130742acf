package org.boxoffice.mapstore;

import org.boxoffice.domain.AdmissionRepository;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.WaitlistRepository;
import org.boxoffice.grid.member.GridMember;

/** The grid member's stores on the durable referee: what {@code GridMember.start} loads from and writes through to. */
public final class GridStores {

    private GridStores() {
    }

    /** Stores over these repositories (the PostgreSQL ones, or wrappers of them). */
    public static GridMember.Stores of(InventoryRepository inventory, CatalogRepository catalog, WaitlistRepository waitlist) {
        return of(inventory, catalog, waitlist, null);
    }

    /** As above, with general admission's stripes written through to {@code admissions} (null: in memory only). */
    public static GridMember.Stores of(InventoryRepository inventory, CatalogRepository catalog, WaitlistRepository waitlist,
                                       AdmissionRepository admissions) {
        return new GridMember.Stores(new InventoryMapStore(inventory),
                new EventListingLoader(catalog), WaitlistQueueStore.factory(waitlist),
                admissions == null ? null : new AdmissionMapStore(admissions));
    }
}
