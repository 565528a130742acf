package org.boxoffice.app;

import com.hazelcast.internal.util.ConcurrencyUtil;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member in a container limited to one processor runs its peers' callbacks on a pool, not on a
 * new thread each: the service's start gives the common fork-join pool two threads, which both
 * the JDK's {@code CompletableFuture} and Hazelcast use for asynchronous callbacks only when it has
 * more than one. Checked in a JVM of its own that sees one processor.
 */
class OneProcessorTest {

    @Test
    void withOneProcessor_asyncCallbacksRunOnTheCommonPool() throws Exception {
        assertEquals("parallelism 2, hazelcast uses the common pool: true", runWithOneProcessor(true));
    }

    @Test
    void withOneProcessor_andWithoutTheServicesStart_hazelcastWouldStartAThreadPerCallback() throws Exception {
        // what the start above prevents: the JVM's own choice with one processor
        assertEquals("parallelism 1, hazelcast uses the common pool: false", runWithOneProcessor(false));
    }

    private static String runWithOneProcessor(boolean asTheServiceStarts) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(List.of(java.toString(), "-XX:ActiveProcessorCount=1", "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), Probe.class.getName(), Boolean.toString(asTheServiceStarts)))
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, p.exitValue(), out);
        return out.lines().reduce((a, b) -> b).orElse("");
    }

    /** Run in the child JVM: what the common pool and Hazelcast's callback executor are. */
    public static final class Probe {
        public static void main(String[] args) {
            if (Boolean.parseBoolean(args[0])) {
                Main.callbacksOnThePool();
            }
            System.out.println("parallelism " + ForkJoinPool.getCommonPoolParallelism() + ", hazelcast uses the common pool: "
                    + (ConcurrencyUtil.getDefaultAsyncExecutor() == ForkJoinPool.commonPool()));
        }
    }
}
