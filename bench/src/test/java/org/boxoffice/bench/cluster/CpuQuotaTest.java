package org.boxoffice.bench.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Members' CPU groups on this machine (cgroup v1's cpu controller, writable by root): a member
 * started while the others serve has the lowest weight beside its quota until it serves, and every
 * group is gone once the quota is closed. Skipped where the controller cannot be written.
 */
class CpuQuotaTest {

    private static final Path V1 = Path.of("/sys/fs/cgroup/cpu");

    @Test
    void aNewcomer_hasTheLowestWeightUntilItServes_andNoGroupOutlivesTheQuota() throws Exception {
        assumeTrue(Files.isRegularFile(V1.resolve("cpu.cfs_quota_us")) && Files.isWritable(V1),
                "needs a writable cgroup v1 cpu controller");
        Path first;
        Path newcomer;
        try (CpuQuota quota = CpuQuota.open(0.5, CpuQuota.DEFAULT_PERIOD_MILLIS)) {
            List<String> command = quota.wrap("c1-member-1", List.of("true"));
            quota.wrap("c1-member-2", List.of("true"), true);
            first = group("c1-member-1");
            newcomer = group("c1-member-2");
            assertTrue(String.join(" ", command).contains(first.resolve("cgroup.procs").toString()), command.toString());
            assertEquals("50000", read(first, "cpu.cfs_quota_us"));
            assertEquals("100000", read(first, "cpu.cfs_period_us"));
            assertEquals("1024", read(first, "cpu.shares"));
            assertEquals("2", read(newcomer, "cpu.shares"));
            assertEquals("50000", read(newcomer, "cpu.cfs_quota_us"), "the quota stays the same");

            quota.fullWeight("c1-member-2");
            assertEquals("1024", read(newcomer, "cpu.shares"));
            // started again while the others serve: a newcomer once more, in the same group
            quota.wrap("c1-member-2", List.of("true"), true);
            assertEquals("2", read(newcomer, "cpu.shares"));
        }
        assertFalse(Files.exists(first), first.toString());
        assertFalse(Files.exists(newcomer), newcomer.toString());
    }

    private static Path group(String member) throws Exception {
        try (var groups = Files.list(V1)) {
            return groups.filter(g -> g.getFileName().toString().startsWith("boxoffice-bench-")
                    && g.getFileName().toString().endsWith("-" + member)).findFirst().orElseThrow();
        }
    }

    private static String read(Path group, String file) throws Exception {
        return Files.readString(group.resolve(file)).trim();
    }
}
