package org.boxoffice.bench;

/**
 * One process of a {@link Cluster}: its name and {@code index} (its grid port) stay the same when
 * it is started again in its place; its process and HTTP port are new each time.
 */
record Member(String name, int index, ChildProcess process, int httpPort) {
    long pid() {
        return process.pid();
    }
}
