package org.boxoffice.bench;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchOptionsTest {

    @Test
    void defaults_suitATwoCoreMachine() throws Exception {
        BenchOptions o = BenchOptions.parse();
        assertEquals(20_000, o.seats);
        assertEquals(10_000, o.buyers());
        assertEquals(64, o.connections);
        assertTrue(o.baselines);
        assertEquals(0, o.pay);
    }

    @Test
    void stampede_demandsTenTimesTheSeats_andKeepsWhatTheCommandLineGave() throws Exception {
        BenchOptions o = BenchOptions.parse("--stampede", "--sweep");
        assertEquals(10_000, o.seats);
        // 4 buyers a seat wanting 2.5 seats on average: 10x the seats in demand
        assertEquals(40_000, o.buyers());
        assertEquals(256, o.connections);
        assertEquals(2, o.retries, "each buyer tries at most 3 times");
        assertEquals(Duration.ofSeconds(20), o.duration);
        assertEquals(Duration.ofSeconds(30), o.warmup);
        assertTrue(o.sweep);

        BenchOptions given = BenchOptions.parse("--stampede", "--seats", "2000", "--connections", "64", "--retries", "1",
                "--rate", "1500");
        assertEquals(2_000, given.seats);
        assertEquals(8_000, given.buyers());
        assertEquals(64, given.connections);
        assertEquals(1, given.retries);
        assertEquals(1_500.0, given.rate);
    }

    @Test
    void generalAdmission_sellsTwentyThousandByDefault_toTheStampedesCrowd() throws Exception {
        BenchOptions o = BenchOptions.parse("--stampede", "--general-admission", "--sweep");
        assertEquals(20_000, o.generalAdmission);
        assertTrue(o.sweep, "an option after --general-admission is not taken for its capacity");
        // the seated stampede's crowd: 4 buyers per admission wanting 2.5 on average, 10x the capacity in demand
        assertEquals(80_000, o.buyers());
        assertEquals(256, o.connections);
        assertEquals(2, o.retries);
        assertEquals(Duration.ofSeconds(30), o.warmup);
    }

    @Test
    void generalAdmission_takesItsCapacity_andImpliesTheStampede() throws Exception {
        BenchOptions o = BenchOptions.parse("--general-admission", "2000", "--duration", "10", "--warmup", "5");
        assertTrue(o.stampede);
        assertEquals(2_000, o.generalAdmission);
        assertEquals(8_000, o.buyers());
        assertEquals(Duration.ofSeconds(10), o.duration);
        assertEquals(5_000, BenchOptions.parse("--stampede", "--general-admission=5000").generalAdmission);
        assertEquals(5_000, BenchOptions.parse("--stampede", "--general-admission", "5_000").generalAdmission);
        assertEquals(null, BenchOptions.parse("--stampede").generalAdmission, "a seated stampede by default");
    }

    @Test
    void generalAdmission_refusesWhatOnlyASeatedSaleOrOneMemberHas() {
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--general-admission", "10"),
                "fewer admissions than the smallest show");
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--general-admission", "2000", "--seats", "2000"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--general-admission", "--stadium"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--general-admission", "--waiting-room", "400"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--general-admission", "--members", "3"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--general-admission", "--pay", "0.5"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--general-admission", "--warmup", "auto"));
    }

    @Test
    void rateAndSweep_belongToTheStampede() {
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--rate", "100"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--sweep"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--stampede", "--rate", "0"));
    }

    @Test
    void severalMembers_refuseOptionsTheyWouldIgnore() throws Exception {
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--members", "3", "--sweep"),
                "the scaling curve needs a quota per member");
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--members", "3", "--sweep",
                "--cpu-quota", "0.4", "--kill-at", "60"), "the curve changes no member mid-sale");
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--members", "3", "--db-url",
                "jdbc:postgresql://localhost/x"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--members", "3", "--url",
                "http://localhost:8080"));
        assertEquals(0.4, BenchOptions.parse("--members", "3", "--sweep", "--cpu-quota", "0.4").cpuQuota);
        assertEquals(60, BenchOptions.parse("--members", "3", "--kill-at", "60", "--cpu-quota", "0.5").killAt);
    }

    @Test
    void bots_areAShareOfTheCrowd_atARoomsDoor() throws Exception {
        assertEquals(0.3, BenchOptions.parse("--stampede", "--waiting-room", "400", "--bots", "0.3").bots);
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--stampede", "--bots", "0.3"),
                "bots meet the room's door: no room, no bots");
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--waiting-room", "400", "--bots", "0.3"));
        assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse("--stampede", "--waiting-room", "400", "--bots", "1.5"));
    }

    @Test
    void pay_isAShareOfTheBuyersKeepingTheirHold() throws Exception {
        assertEquals(0.5, BenchOptions.parse("--pay", "0.5").pay);
        assertEquals(1.0, BenchOptions.parse("--pay=1").pay);
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--pay", "-0.1"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--pay", "half"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--pay"));
    }

    @Test
    void options_takeValuesSeparatelyOrAfterAnEqualsSign() throws Exception {
        BenchOptions o = BenchOptions.parse("--stadium", "--connections=32", "--duration", "30", "--no-baselines",
                "--abandon", "0.1");
        assertEquals(60_000, o.seats);
        assertEquals(30_000, o.buyers());
        assertEquals(32, o.connections);
        assertEquals(Duration.ofSeconds(30), o.duration);
        assertFalse(o.baselines);
        assertEquals(0.1, o.abandon);
    }

    @Test
    void badCommandLines_areUsageErrors() {
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--sets", "10"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--seats"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--seats", "many"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--connections", "0"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--abandon", "1.5"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--stadium=yes"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--url", "localhost:8080"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--db-url", "jdbc:mysql://x/y"));
    }

    @Test
    void usage_listsEveryOption() {
        String usage = BenchOptions.usage();
        for (String option : new String[]{"--url", "--db-url", "--seats", "--stadium", "--buyers", "--connections",
                "--duration", "--pay", "--no-baselines", "--out", "--help"}) {
            assertTrue(usage.contains(option), option);
        }
    }

    @Test
    void members_runTheStampede_andScalingBelongsToThem() throws Exception {
        BenchOptions o = BenchOptions.parse("--members", "3", "--scale-up-at", "15", "--scale-down-at", "40", "--rate", "800");
        assertEquals(3, o.members);
        assertTrue(o.stampede, "several members are measured under the stampede");
        assertEquals(10_000, o.seats);
        assertEquals(15, o.scaleUpAt);
        assertEquals(40, o.scaleDownAt);

        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--scale-up-at", "10"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--members", "0"));
        assertFalse(o.rehearsal, "members start without their rehearsal unless asked");
        assertTrue(BenchOptions.parse("--members", "3", "--scale-up-at", "15", "--rehearsal").rehearsal);
        assertEquals(100, BenchOptions.parse("--members", "3", "--cpu-quota", "0.4").cpuPeriodMillis,
                "the kernel's and Kubernetes' default period");
        assertEquals(10, BenchOptions.parse("--members", "3", "--cpu-quota", "0.4", "--cpu-period", "10").cpuPeriodMillis);
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--members", "3", "--cpu-period", "10"),
                "a period belongs to a quota");
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--rehearsal"));
    }

    @Test
    void smsOutage_paysByDefault_andRecoveryBelongsToIt() throws Exception {
        BenchOptions o = BenchOptions.parse("--sms-outage", "--seats", "2000");
        assertTrue(o.smsOutage);
        assertEquals(1, o.pay, "every keeper pays: a booking is what sends a text message");
        assertNull(o.smsRecoverAt, "the failing stub recovers once its sale is over");
        assertEquals(0.5, BenchOptions.parse("--sms-outage", "--pay", "0.5").pay);
        assertEquals(12, BenchOptions.parse("--sms-outage", "--sms-recover-at", "12").smsRecoverAt);

        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--sms-outage", "--pay", "0"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--sms-recover-at", "12"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--sms-outage", "--stampede"));
        assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse("--sms-outage", "--url", "http://h:1"));
    }

    @Test
    void smsOutage_givesEveryBuyerADistinctE164Number() {
        List<String> phones = SmsOutageBench.phones(1_000);
        assertEquals(1_000, new HashSet<>(phones).size());
        assertTrue(phones.stream().allMatch(p -> p.matches("\\+[1-9][0-9]{6,14}")), phones.get(999));
    }

    @Test
    void shownCommand_leavesOutThePathsTheLauncherPasses() throws Exception {
        BenchOptions o = BenchOptions.parse("--java", "/jdk/bin/java", "--app-jar=/x/boxoffice.jar", "--stampede",
                "--aot-cache", "/x/boxoffice.aot", "--rate", "1000");
        assertEquals("./boxoffice bench --stampede --rate 1000", o.shownCommand());
    }
}
