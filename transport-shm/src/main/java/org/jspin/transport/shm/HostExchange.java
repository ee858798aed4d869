package org.jspin.transport.shm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.jspin.bootstrap.EndpointExchange;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * The one endpoint exchange of a job that spans hosts, shared by its two fabrics: each rank gives
 * its host's key and its ring beside the TCP endpoint the Netty fabric gives, so that one allgather
 * tells every rank which peers share its host (reached through rings) and where the others listen.
 * To the Netty fabric it answers with the TCP endpoints of the ranks on other hosts only (null for
 * those of this host), which it then neither connects to nor waits for.
 */
final class HostExchange implements EndpointExchange {
    private static final char SEPARATOR = '|';
    /** The ring field of a rank that has none (its shared memory could not be used). */
    private static final String NO_RING = "-";

    private final EndpointExchange inner;
    private final String hostKey;
    private final String ring;
    private List<String> rings;
    private boolean closesInner = true;

    /**
     * @param inner   the launch's exchange
     * @param hostKey this rank's {@link HostIdentity}
     * @param ring    this rank's ring file, or null if it has none
     */
    HostExchange(EndpointExchange inner, String hostKey, String ring) {
        this.inner = inner;
        this.hostKey = hostKey;
        this.ring = ring == null ? NO_RING : ring;
    }

    /**
     * @return the TCP endpoints of the ranks on other hosts, indexed by rank; null for this host's
     *         others (this rank's own stays)
     * @throws MpiException ERR_OTHER when a rank's entry is not {@code host|ring|endpoint}, or what
     *                      the launch's exchange throws
     */
    @Override
    public List<String> exchange(int rank, String endpoint, Duration timeout) {
        List<String> all = inner.exchange(rank, hostKey + SEPARATOR + ring + SEPARATOR + endpoint, timeout);
        String[] tcp = new String[all.size()];
        List<String> paths = new ArrayList<>(all.size());
        for (int r = 0; r < all.size(); r++) {
            String e = all.get(r);
            int a = e == null ? -1 : e.indexOf(SEPARATOR);
            int b = a < 0 ? -1 : e.indexOf(SEPARATOR, a + 1);
            if (b < 0) {
                throw new MpiException(ErrorClass.ERR_OTHER, "rank " + r + "'s entry in the endpoint exchange, '" + e
                        + "', is not host|ring|endpoint (does every rank run the same jspin with the same fabric?)");
            }
            String host = e.substring(0, a);
            String theirRing = e.substring(a + 1, b);
            boolean shared = r != rank && host.equals(hostKey) && !theirRing.equals(NO_RING) && !ring.equals(NO_RING);
            paths.add(shared ? theirRing : null);
            tcp[r] = shared ? null : e.substring(b + 1);
        }
        this.rings = Collections.unmodifiableList(paths);
        return Collections.unmodifiableList(Arrays.asList(tcp));
    }

    /** @return every rank's ring, indexed by rank: those of this host's other ranks, null for the rest */
    List<String> rings() {
        if (rings == null) {
            throw new IllegalStateException("no exchange yet");
        }
        return rings;
    }

    /** From now on {@link #close} leaves the launch's exchange open: the shm fabric closes it. */
    void keepInnerOpen() {
        closesInner = false;
    }

    @Override
    public void close() {
        if (closesInner) {
            inner.close();
        }
    }
}
