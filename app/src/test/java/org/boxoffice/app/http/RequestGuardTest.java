package org.boxoffice.app.http;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The guard's loops agree with the patterns they stand for (the patterns are the documentation). */
class RequestGuardTest {

    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");
    private static final String ALPHABET = "aZ09._~@:-/%+ \u0000\u001f\u007f\u0080é€";

    @Test
    void isIdAndHasControl_answerAsTheIdPatternAndTheControlClass() {
        Random random = new Random(11);
        for (int trial = 0; trial < 20_000; trial++) {
            int length = random.nextInt(70);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < length; i++) {
                sb.append(random.nextInt(3) == 0 ? ALPHABET.charAt(random.nextInt(ALPHABET.length()))
                        : (char) ('a' + random.nextInt(26)));
            }
            String s = sb.toString();
            assertEquals(RequestGuard.ID.matcher(s).matches(), RequestGuard.isId(s, 0, s.length()), s);
            assertEquals(CONTROL.matcher(s).find(), RequestGuard.hasControl(s), s);
        }
    }
}
