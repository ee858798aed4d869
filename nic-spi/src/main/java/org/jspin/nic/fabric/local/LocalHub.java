package org.jspin.nic.fabric.local;

import java.util.concurrent.atomic.AtomicReferenceArray;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/** The endpoints of one job's in-JVM fabric, by rank. */
final class LocalHub {
    private final AtomicReferenceArray<LocalEndpoint> endpoints;
    private final int inboundCapacity;

    LocalHub(int size, int inboundCapacity) {
        this.endpoints = new AtomicReferenceArray<>(size);
        this.inboundCapacity = inboundCapacity;
    }

    int size() {
        return endpoints.length();
    }

    LocalEndpoint attach(int rank) {
        if (rank < 0 || rank >= endpoints.length()) {
            throw new MpiException(ErrorClass.ERR_RANK, "rank must be in [0, " + endpoints.length() + "), got " + rank);
        }
        LocalEndpoint e = new LocalEndpoint(this, rank, inboundCapacity);
        if (!endpoints.compareAndSet(rank, null, e)) {
            throw new MpiException(ErrorClass.ERR_RANK, "rank " + rank + " is already attached to this job's fabric");
        }
        for (int r = 0; r < endpoints.length(); r++) {
            if (endpoints.get(r) == LocalEndpoint.CLOSED) {
                e.peerGone(r); // left before this rank came: it must learn of it like the others did
            }
        }
        return e;
    }

    /** @return the endpoint of {@code rank}, null before it attaches, {@link LocalEndpoint#CLOSED} after it left */
    LocalEndpoint endpoint(int rank) {
        return endpoints.get(rank);
    }

    void detach(LocalEndpoint e) {
        endpoints.compareAndSet(e.rank(), e, LocalEndpoint.CLOSED);
        for (int r = 0; r < endpoints.length(); r++) {
            LocalEndpoint peer = endpoints.get(r);
            if (peer != null && peer != e && peer != LocalEndpoint.CLOSED) {
                peer.peerGone(e.rank());
            }
        }
    }
}
