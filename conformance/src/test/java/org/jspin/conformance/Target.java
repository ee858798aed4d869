package org.jspin.conformance;

import org.jspin.mpi.LocalRanks;
import org.jspin.mpi.MpiOptions;
import org.jspin.nic.NicConfig;

/**
 * One backend on one fabric: what every conformance test runs on. {@link #run} is the one place
 * that starts ranks, so a fabric that needs another way of starting them (separate processes, say)
 * changes it here and every test follows.
 *
 * @param backend backend name, as {@code Providers.backends()} lists it
 * @param fabric  fabric name, as {@code Providers.fabrics()} lists it
 */
public record Target(String backend, String fabric) {
    /** A job that takes longer than this has hung: it fails instead of blocking the build. */
    public static final long TIMEOUT_SECONDS = 60;

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
        LocalRanks.run(n, options(nic), TIMEOUT_SECONDS, body);
    }

    @Override
    public String toString() {
        return backend + "/" + fabric;
    }
}
