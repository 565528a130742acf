package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PhoneNumberTest {

    @Test
    void parse_acceptsE164_withTheUsualSeparatorsRemoved() {
        assertEquals("+4915112345678", PhoneNumber.parse("+49 (151) 1234-5678").e164());
        assertEquals("+12025550123", PhoneNumber.parse("+1.202.555.0123").e164());
    }

    @Test
    void parse_refusesNumbersThatAreNotE164() {
        for (String bad : new String[] {null, "", "015112345678", "+0151123456", "+49", "+49151123456789012",
                "+49 151 abc", "49151123456"}) {
            assertThrows(IllegalArgumentException.class, () -> PhoneNumber.parse(bad), String.valueOf(bad));
        }
    }

    @Test
    void aNumber_isShownMasked_whereverItIsPrinted() {
        PhoneNumber n = PhoneNumber.parse("+4915112345678");
        assertEquals("+49*********78", n.masked());
        assertEquals(n.masked(), n.toString());
        assertFalse(String.valueOf(n).contains("12345"));
        assertEquals("***", PhoneNumber.mask("+49"));
    }
}
