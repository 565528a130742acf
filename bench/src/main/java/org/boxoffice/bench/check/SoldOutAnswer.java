package org.boxoffice.bench.check;

/**
 * A {@code SOLD_OUT} answer of a general-admission sale, as the load generator received it.
 *
 * @param atMillis epoch millis when it arrived: the system decided before
 * @param quantity admissions the fan asked for
 * @param left     what the answer said was left (-1 if it did not say)
 */
public record SoldOutAnswer(long atMillis, int quantity, int left) {
}
