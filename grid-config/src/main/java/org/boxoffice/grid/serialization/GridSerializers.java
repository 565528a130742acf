package org.boxoffice.grid.serialization;

import com.hazelcast.config.CompactSerializationConfig;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import org.boxoffice.grid.catalog.EventListingSerializer;

import java.util.List;

/** Every compact serializer the grid uses. Members and clients register exactly this list. */
public final class GridSerializers {

    private GridSerializers() {
    }

    public static List<CompactSerializer<?>> all() {
        return List.of(
                new BlockKeySerializer(),
                new SeatBlockSerializer(),
                new TransitionSerializer(),
                new BlockCommandProcessorSerializer(),
                new BlockClaimsProcessorSerializer(),
                new BlockOutcomeSerializer(),
                new AllowanceKeySerializer(),
                new AccountAllowanceSerializer(),
                new AllowanceProcessorSerializer(),
                new LapsedHoldsPredicateSerializer(),
                new StoredResponseSerializer(),
                new EventListingSerializer(),
                new org.boxoffice.grid.room.WaitingRoomSerializer(),
                new org.boxoffice.grid.room.RoomViewSerializer(),
                new org.boxoffice.grid.room.RoomProcessorSerializer(),
                new org.boxoffice.grid.waitlist.WaitlistEntrySerializer(),
                new org.boxoffice.grid.waitlist.SeatsReturnedPredicateSerializer(),
                new org.boxoffice.grid.waitlist.AdmissionsReturnedPredicateSerializer(),
                new org.boxoffice.grid.waitlist.SeatsReturnedTaskSerializer(),
                new org.boxoffice.grid.limits.RateBucketSerializer(),
                new org.boxoffice.grid.limits.TakeTokenProcessorSerializer(),
                new StripeKeySerializer(),
                new AdmissionStripeSerializer(),
                new StripeProcessorSerializer(),
                new StripeTakesProcessorSerializer(),
                new SoldOutMarkSerializer(),
                new StripeCountSerializer(),
                new StripeCountProcessorSerializer(),
                new StripeExpiryProcessorSerializer());
    }

    public static void register(CompactSerializationConfig config) {
        all().forEach(config::addSerializer);
    }
}
