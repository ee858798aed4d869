package org.jspin.bootstrap;

import java.time.Duration;
import java.util.List;

import org.jspin.error.MpiException;

/**
 * How the ranks of a job learn each other's listening endpoints before they connect: an allgather
 * of one string per rank, done once at start-up. Implementations: a rendezvous server (our own
 * launcher, or rank 0 under Slurm and Open MPI), Hydra's PMI-1 key-value space, and an in-JVM one
 * for ranks that are threads of one process.
 */
public interface EndpointExchange {
    /**
     * Contributes this rank's endpoint and waits for everyone's.
     *
     * @param rank     this rank
     * @param endpoint where this rank listens ({@code host:port})
     * @param timeout  how long to wait for the slowest rank
     * @return every rank's endpoint, indexed by rank (this rank's included)
     * @throws MpiException ERR_OTHER naming what failed (a rank that never arrived, a refused or
     *                      broken connection to the exchange, a timeout): bootstrap never
     *                      silently continues alone
     */
    List<String> exchange(int rank, String endpoint, Duration timeout);

    /**
     * This rank is leaving the job: the exchange lets go of what it holds (for PMI-1, tells the
     * process manager it is done). Called once, when the rank's fabric closes.
     */
    default void close() {
    }
}
