package org.boxoffice.domain;

import java.util.regex.Pattern;

/**
 * A fan's phone number in E.164 form: a {@code +}, a country code that does not start with 0 and at
 * most 15 digits in all, with no spaces. Its {@link #toString} is masked, so a number that reaches a
 * log by accident shows only its country code's first digits and its last two.
 */
public record PhoneNumber(String e164) {

    private static final Pattern E164 = Pattern.compile("\\+[1-9][0-9]{6,14}");

    public PhoneNumber {
        if (e164 == null || !E164.matcher(e164).matches()) {
            throw new IllegalArgumentException("a phone number is written in international form: '+', the country "
                    + "code and the number, 7 to 15 digits in all (+49 151 12345678); spaces, dots, dashes and "
                    + "parentheses are fine");
        }
    }

    /** {@code number} read as a phone number, its spaces, dashes and parentheses removed first. */
    public static PhoneNumber parse(String number) {
        return new PhoneNumber(number == null ? null : number.replaceAll("[\\s().-]", ""));
    }

    /** {@code +49*********78}: the first two digits and the last two, for logs. */
    public static String mask(String number) {
        if (number == null || number.length() < 6) {
            return "***";
        }
        return number.substring(0, 3) + "*".repeat(number.length() - 5) + number.substring(number.length() - 2);
    }

    public String masked() {
        return mask(e164);
    }

    @Override
    public String toString() {
        return masked();
    }
}
