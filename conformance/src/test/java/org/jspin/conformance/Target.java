package org.jspin.conformance;

import org.jspin.mpi.LocalRanks;
import org.jspin.mpi.MpiOptions;
import org.jspin.nic.NicConfig;

/**
 * One backend on one fabric: what every conformance test runs on. {@link #run} is the one place
 * that starts ranks, so a fabric that needs another way of starting them changes it here and every
 * test follows.
 *
 * <p>Ranks are threads of this JVM ({@link LocalRanks}), or, for a {@code processes} target,
 * separate processes: rank 0 on the calling thread, ranks 1..n-1 in worker JVMs
 * ({@link ProcessRanks}), each of which runs the same test up to the same {@code run} call and
 * then only its own rank's body. Failures come back the same way in both modes, so a test must
 * not read after {@code run} what the bodies left in its variables (a worker's ranks never fill
 * them in): it asserts inside the body, or on the failure {@code run} throws.
 *
 * @param backend   backend name, as {@code Providers.backends()} lists it
 * @param fabric    fabric name, as {@code Providers.fabrics()} lists it
 * @param processes whether ranks 1..n-1 run in separate processes (only for fabrics that cross
 *                  processes: netty, shm)
 */
public record Target(String backend, String fabric, boolean processes) {
    /** A job that takes longer than this has hung: it fails instead of blocking the build. */
    public static final long TIMEOUT_SECONDS = 60;

    /** A target whose ranks are threads of this JVM. */
    public Target(String backend, String fabric) {
        this(backend, fabric, false);
    }

    /** @return the options of this target with the default protocol settings */
    public MpiOptions options() {
        return MpiOptions.defaults().withBackend(backend).withFabric(fabric);
    }

    /** @return the options of this target with the protocol settings {@code nic} */
    public MpiOptions options(NicConfig nic) {
        return options().withNic(nic);
    }

    /** Runs {@code body} on {@code n} ranks with the default protocol settings. */
    public void run(int n, LocalRanks.RankBody body) {
        run(n, NicConfig.DEFAULT, body);
    }

    /** Runs {@code body} on {@code n} ranks with the protocol settings {@code nic}, within the timeout. */
    public void run(int n, NicConfig nic, LocalRanks.RankBody body) {
        if (processes) {
            ProcessRanks.run(this, n, nic, TIMEOUT_SECONDS, body);
        } else {
            LocalRanks.run(n, options(nic), TIMEOUT_SECONDS, body);
        }
    }

    @Override
    public String toString() {
        return backend + "/" + fabric + (processes ? "-processes" : "");
    }
}
