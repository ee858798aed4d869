package org.jspin.bootstrap.rendezvous;

import java.time.Duration;
import java.util.List;

import org.jspin.bootstrap.EndpointExchange;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Rank 0's side of a rendezvous it serves itself ({@link RendezvousServer#servedByRankZero}): when
 * called, it binds a {@link RendezvousServer} on the agreed address, takes part as a client, waits
 * until the list has been sent to every rank, and closes the server.
 */
final class RankZeroRendezvous implements EndpointExchange {
    private final Wire.HostPort at;
    private final String jobId;
    private final String secret;
    private final int size;
    private final RendezvousClient client;

    /** @param client rank 0's client of the server at {@code at} */
    RankZeroRendezvous(Wire.HostPort at, String jobId, String secret, int size, RendezvousClient client) {
        this.at = at;
        this.jobId = jobId;
        this.secret = secret;
        this.size = size;
        this.client = client;
    }

    @Override
    public List<String> exchange(int rank, String endpoint, Duration timeout) {
        if (rank != 0) {
            throw new MpiException(ErrorClass.ERR_ARG, "this exchange serves the rendezvous as rank 0, called as rank " + rank);
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new MpiException(ErrorClass.ERR_ARG, "rendezvous timeout must be positive, got " + timeout);
        }
        long start = System.nanoTime();
        try (RendezvousServer server = RendezvousServer.start(at.host(), at.port(), jobId, secret, size, timeout)) {
            List<String> all;
            try {
                all = client.exchange(0, endpoint, timeout);
            } catch (MpiException e) {
                // our client's deadline and our server's are the same: say who was missing either way
                List<Integer> missing = server.missingRanks();
                if (missing.isEmpty() || e.reason().contains("waiting for ranks")) {
                    throw e;
                }
                throw new MpiException(e.errorClass(), e.reason() + "; ranks " + missing + " never arrived", e);
            }
            // our copy can arrive before the others' are written: closing now could cut them off
            Duration left = timeout.minusNanos(System.nanoTime() - start);
            server.awaitEndpoints(left.isNegative() || left.isZero() ? Duration.ofMillis(1) : left);
            return all;
        }
    }
}
