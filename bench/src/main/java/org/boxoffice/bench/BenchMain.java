package org.boxoffice.bench;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code ./boxoffice bench}: parses the command line and runs {@link FlashSaleBench} (or, with
 * {@code --reads}, {@link ReadBench}; with {@code --members}, {@link ClusterBench}).
 * Exit codes: 0 done, 1 an invariant was violated or the run failed, 2 a bad command line.
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (BenchOptions.UsageException e) {
            System.err.println("bench: " + e.getMessage());
            System.err.println("bench: see ./boxoffice bench --help");
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.print(BenchOptions.usage());
            return;
        }
        // the embedded PostgreSQL and its helpers log at INFO; the bench's own output is what matters here
        Logger.getLogger("").setLevel(Level.WARNING);
        int code;
        try {
            if (options.aotTrain != null) {
                code = new WarmMembers(options).train();
            } else if (options.warmStart) {
                code = new WarmMembers(options).measure();
            } else if (options.members != null) {
                code = new ClusterBench(options).run();
            } else if (options.reads) {
                code = new ReadBench(options).run();
            } else {
                code = new FlashSaleBench(options).run();
            }
        } catch (Exception e) {
            System.err.println("bench: failed: " + e.getMessage());
            e.printStackTrace();
            code = 1;
        }
        System.exit(code);
    }
}
