package org.jspin.bootstrap;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/** The endpoint exchange of ranks that are threads of one JVM (over TCP all the same). */
public final class InJvmExchange implements EndpointExchange {
    private final String[] endpoints;
    private final CountDownLatch arrived;

    /** @param size ranks in the job */
    public InJvmExchange(int size) {
        this.endpoints = new String[size];
        this.arrived = new CountDownLatch(size);
    }

    @Override
    public List<String> exchange(int rank, String endpoint, Duration timeout) {
        if (rank < 0 || rank >= endpoints.length) {
            throw new MpiException(ErrorClass.ERR_RANK, "rank must be in [0, " + endpoints.length + "), got " + rank);
        }
        synchronized (endpoints) {
            if (endpoints[rank] != null) {
                throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " took part in the exchange twice");
            }
            endpoints[rank] = endpoint;
        }
        arrived.countDown();
        try {
            if (!arrived.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                List<Integer> missing = new ArrayList<>();
                synchronized (endpoints) {
                    for (int r = 0; r < endpoints.length; r++) {
                        if (endpoints[r] == null) {
                            missing.add(r);
                        }
                    }
                }
                throw new MpiException(ErrorClass.ERR_OTHER, "ranks " + missing + " did not join within "
                        + timeout.toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " was interrupted in the endpoint exchange");
        }
        synchronized (endpoints) {
            return List.copyOf(Arrays.asList(endpoints));
        }
    }
}
