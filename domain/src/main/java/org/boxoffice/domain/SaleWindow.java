package org.boxoffice.domain;

/** When a show's seats may be held: from {@code opensAt} (inclusive) to {@code closesAt} (exclusive), epoch millis. */
public record SaleWindow(long opensAt, long closesAt) {

    public SaleWindow {
        if (closesAt <= opensAt) {
            throw new IllegalArgumentException("a sale closes after it opens");
        }
    }

    public boolean isOpen(long now) {
        return now >= opensAt && now < closesAt;
    }
}
