package org.boxoffice.app.secrets;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one rule every signing secret is held to outside demo mode, and the lines operators read. */
class SecretSettingTest {

    private static final SecretSetting TICKETS = new SecretSetting("boxoffice.tickets.secret", "the-public-demo-value");

    @Test
    void aMissingPublicOrShortSecret_isRefused_namingTheSettingAndItsEnvironmentVariable() {
        assertEquals(Optional.of("boxoffice.tickets.secret is not set (BOXOFFICE_TICKETS_SECRET)"), TICKETS.problem(null));
        assertEquals(Optional.of("boxoffice.tickets.secret is not set (BOXOFFICE_TICKETS_SECRET)"), TICKETS.problem(" "));
        assertEquals(Optional.of("boxoffice.tickets.secret is the public demo value; set your own secret "
                + "(BOXOFFICE_TICKETS_SECRET)"), TICKETS.problem("the-public-demo-value"));
        assertEquals(Optional.of("boxoffice.tickets.secret is shorter than 32 bytes (BOXOFFICE_TICKETS_SECRET)"),
                TICKETS.problem("x".repeat(31)));
    }

    @Test
    void aSecretOf32BytesOrMore_passes_countedInBytesNotCharacters() {
        assertEquals(Optional.empty(), TICKETS.problem("x".repeat(SecretSetting.MIN_BYTES)));
        assertEquals(Optional.empty(), TICKETS.problem("é".repeat(16)), "16 characters, 32 bytes in UTF-8");
    }

    @Test
    void onlyThePublicDemoValue_isReplaced_byTheDemosOwnSecretOfThatSetting() {
        assertEquals("own:boxoffice.tickets.secret", TICKETS.replacingDemoValue("the-public-demo-value", name -> "own:" + name));
        assertEquals("the-operators-own", TICKETS.replacingDemoValue("the-operators-own", name -> "own:" + name));
        assertEquals(null, TICKETS.replacingDemoValue(null, name -> "own:" + name), "an unset secret stays unset");
    }
}
