package org.jspin.bootstrap.pmi;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.bootstrap.EndpointExchange;
import org.slf4j.LoggerFactory;

/**
 * The endpoint allgather through Hydra's PMI-1 key-value space: each rank puts its endpoint under
 * {@code jspin-ep-<rank>}, all meet in a barrier, then each reads every rank's key. The timeout
 * bounds the three steps together.
 */
public final class Pmi1Exchange implements EndpointExchange {
    /** Keys are this prefix followed by the rank. */
    public static final String KEY_PREFIX = "jspin-ep-";

    private final Pmi1Client client;

    /** @param client a connected client; {@link #close()} finalizes and closes it */
    public Pmi1Exchange(Pmi1Client client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /** @return the client this exchange talks through */
    public Pmi1Client client() {
        return client;
    }

    /** @return the key rank {@code rank} publishes its endpoint under */
    public static String keyOf(int rank) {
        return KEY_PREFIX + rank;
    }

    /**
     * {@inheritDoc}
     *
     * @throws MpiException ERR_ARG when {@code rank} is not the client's rank, the timeout is not
     *                      positive, or the endpoint cannot travel in a PMI-1 line (spaces, '=', too
     *                      long); ERR_OTHER when the process manager refuses, breaks or the timeout
     *                      passes (a rank that never arrived)
     */
    @Override
    public List<String> exchange(int rank, String endpoint, Duration timeout) {
        Deadline deadline = Deadline.after(timeout);
        if (rank != client.rank()) {
            throw new MpiException(ErrorClass.ERR_ARG, "endpoint exchange for rank " + rank
                    + " over a PMI-1 client whose process manager says rank " + client.rank());
        }
        if (endpoint == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "the endpoint of rank " + rank + " must not be null");
        }
        client.put(keyOf(rank), endpoint, deadline);
        client.barrier(deadline);
        List<String> endpoints = new ArrayList<>(client.size());
        for (int r = 0; r < client.size(); r++) {
            endpoints.add(client.get(keyOf(r), deadline));
        }
        return List.copyOf(endpoints);
    }

    @Override
    public String toString() {
        return "Pmi1Exchange[" + client + "]";
    }

    /** The rank leaves: PMI-1 {@code finalize}, then the connection closes (a failed finalize is only logged). */
    @Override
    public void close() {
        try {
            client.finalizeJob();
        } catch (MpiException e) {
            LoggerFactory.getLogger(Pmi1Exchange.class).warn("PMI-1 finalize failed: {}", e.getMessage());
        } finally {
            client.close();
        }
    }
}
