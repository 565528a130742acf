package org.boxoffice.grid.catalog;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;

/** Field names double as the SQL columns of the {@code catalog_events} mapping. */
public final class EventListingSerializer implements CompactSerializer<EventListing> {
    @Override
    public EventListing read(CompactReader in) {
        return new EventListing(in.readString("eventId"), in.readString("title"), in.readString("artist"),
                in.readString("category"), in.readString("description"), in.readString("venueId"),
                in.readString("venueName"), in.readString("city"), in.readInt64("firstShowAt"),
                in.readInt64("lastShowAt"));
    }

    @Override
    public void write(CompactWriter out, EventListing e) {
        out.writeString("eventId", e.eventId());
        out.writeString("title", e.title());
        out.writeString("artist", e.artist());
        out.writeString("category", e.category());
        out.writeString("description", e.description());
        out.writeString("venueId", e.venueId());
        out.writeString("venueName", e.venueName());
        out.writeString("city", e.city());
        out.writeInt64("firstShowAt", e.firstShowAt());
        out.writeInt64("lastShowAt", e.lastShowAt());
    }

    @Override
    public String getTypeName() {
        return "EventListing";
    }

    @Override
    public Class<EventListing> getCompactClass() {
        return EventListing.class;
    }
}
