package org.boxoffice.bench.probe;

import org.boxoffice.bench.probe.StageProfile.Stage;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Stacks as Flight Recorder gives them, innermost frame first, cut down to the frames that matter. */
class StageProfileTest {

    private static final List<String> REQUEST = List.of("org.boxoffice.app.holds.HoldsService.create",
            "org.boxoffice.app.http.RequestGuard.filter", "io.helidon.webserver.http.Filters$FilterChainImpl.proceed",
            "org.boxoffice.app.http.Http1Guard$Guarded.handle", "jdk.internal.vm.Continuation.enterSpecial");

    private static List<String> under(List<String> callers, String... frames) {
        List<String> stack = new java.util.ArrayList<>(List.of(frames));
        stack.addAll(callers);
        return stack;
    }

    @Test
    void of_givesTheInnermostStageFrame_notTheRequestAroundIt() {
        assertEquals(Stage.TOKEN, StageProfile.of(under(REQUEST, "java.util.Base64$Decoder.decode",
                "org.boxoffice.app.auth.Hs256TokenReader.read", "org.boxoffice.app.auth.Authenticator.require")));
        assertEquals(Stage.REPLY, StageProfile.of(under(REQUEST, "io.helidon.webserver.http1.Http1ServerResponse.send",
                "org.boxoffice.app.http.Json.sendBytes", "org.boxoffice.app.holds.HoldsService.reply")));
        assertEquals(Stage.HTTP, StageProfile.of(under(REQUEST, "com.fasterxml.jackson.core.json.UTF8StreamJsonParser.nextToken",
                "org.boxoffice.app.http.Json.body")));
        assertEquals(Stage.HOLD_PATH, StageProfile.of(REQUEST));
    }

    @Test
    void of_countsLibraryAndDomainFrames_forTheStageThatCalledThem() {
        assertEquals(Stage.VELOCITY, StageProfile.of(under(REQUEST,
                "com.hazelcast.spi.impl.operationservice.impl.Invocation.invoke", "com.hazelcast.map.impl.proxy.MapProxyImpl.submitToKey",
                "org.boxoffice.grid.limits.VelocityLimits.takeAsync", "org.boxoffice.app.admission.AdmissionGate.holdPermit")));
        assertEquals(Stage.CLAIM, StageProfile.of(List.of("org.boxoffice.domain.SeatBlock.hold",
                "org.boxoffice.grid.BlockCommandProcessor.process", "com.hazelcast.map.impl.operation.EntryOperation.run",
                "com.hazelcast.spi.impl.operationexecutor.impl.OperationThread.loop")));
        assertEquals(Stage.ALLOWANCE, StageProfile.of(List.of("org.postgresql.jdbc.PgPreparedStatement.executeQuery",
                "org.boxoffice.mapstore.PostgresInventoryRepository.allowancesTogether", "org.boxoffice.mapstore.GroupLoad.loop")));
    }

    @Test
    void of_splitsTheRefereesWrite_intoPreparationStatementAndCommit() {
        List<String> committer = List.of("org.boxoffice.mapstore.PostgresInventoryRepository.applyTogether",
                "org.boxoffice.mapstore.GroupCommit.commit", "org.boxoffice.mapstore.GroupCommit.commitLoop", "java.lang.Thread.run");
        assertEquals(Stage.STORE, StageProfile.of(under(committer, "org.postgresql.jdbc.PgConnection.createArrayOf",
                "com.zaxxer.hikari.pool.HikariProxyConnection.createArrayOf")));
        assertEquals(Stage.STATEMENT, StageProfile.of(under(committer, "java.net.Socket$SocketInputStream.read",
                "org.postgresql.core.PGStream.receiveChar", "org.postgresql.core.v3.QueryExecutorImpl.processResults",
                "org.postgresql.jdbc.PgPreparedStatement.executeQuery")));
        assertEquals(Stage.COMMIT, StageProfile.of(under(committer, "org.postgresql.core.v3.QueryExecutorImpl.execute",
                "org.postgresql.jdbc.PgConnection.commit", "com.zaxxer.hikari.pool.HikariProxyConnection.commit",
                "org.boxoffice.mapstore.Transactions.run", "org.boxoffice.mapstore.Transactions.committedIf")));
        assertEquals(Stage.STORE, StageProfile.of(List.of("org.boxoffice.mapstore.GroupCommit.apply",
                "org.boxoffice.mapstore.InventoryMapStore.store", "com.hazelcast.map.impl.mapstore.writethrough.WriteThroughStore.add")));
    }

    @Test
    void of_fallsToTheLibraries_whenNoFrameOfOursNamesAStage() {
        assertEquals(Stage.HAZELCAST, StageProfile.of(List.of("com.hazelcast.internal.serialization.impl.compact.DefaultCompactWriter.writeInt32",
                "org.boxoffice.grid.serialization.SeatBlockSerializer.write", "com.hazelcast.spi.impl.operationexecutor.impl.OperationThread.loop")));
        assertEquals(Stage.HAZELCAST, StageProfile.of(List.of("com.hazelcast.internal.networking.nio.NioThread.run")));
        assertEquals(Stage.HTTP, StageProfile.of(List.of("io.helidon.http.Headers.containsToken",
                "io.helidon.webserver.http1.Http1Connection.handle", "jdk.internal.vm.Continuation.enterSpecial")));
        assertEquals(Stage.SCHEDULING, StageProfile.of(List.of("java.util.concurrent.ForkJoinPool.runWorker",
                "java.util.concurrent.ForkJoinWorkerThread.run")));
        assertEquals(Stage.OTHER, StageProfile.of(List.of("org.boxoffice.app.Boxoffice$$Lambda.0x8000000dc.getAsLong",
                "java.lang.Thread.run")));
    }

    @Test
    void breakdown_scalesEachStagesShare_byTheSampledCpu_andGivesUnsampledThreadsARowOfTheirOwn() {
        StageProfile profile = new StageProfile.Builder("CPU-time samples")
                .add(1_000, List.of("org.boxoffice.app.auth.Authenticator.require"))
                .add(1_500, List.of("org.boxoffice.grid.BlockCommandProcessor.process"))
                .add(2_000, List.of("org.boxoffice.grid.BlockCommandProcessor.process"))
                .add(9_000, List.of("org.boxoffice.app.auth.Authenticator.require"))
                .build();
        long[] early = profile.counts(1_000, 2_000);
        assertEquals(3, java.util.Arrays.stream(early).sum());
        assertEquals(2, early[Stage.CLAIM.ordinal()]);

        StageProfile.Breakdown b = StageProfile.breakdown("run", profile.source(), profile.counts(), 2.0,
                java.util.Map.of("JIT compiler", 2.0), 4_000, 1_000);
        assertEquals(List.of(new StageProfile.Row("token", 2, 0.25, 250, 1_000),
                new StageProfile.Row("claim processor", 2, 0.25, 250, 1_000),
                new StageProfile.Row("JIT compiler (not sampled)", 0, 0.5, 500, 2_000)), b.rows());
        assertEquals(4.0, b.serverCpuSeconds(), 1e-9);
        assertEquals(1_000, b.serverMicrosPerAttempt(), 1e-9);
        assertEquals(4_000, b.serverMicrosPerHold(), 1e-9);
        assertArrayEquals(new long[Stage.values().length], new StageProfile.Builder("CPU-time samples").build().counts());
    }
}
