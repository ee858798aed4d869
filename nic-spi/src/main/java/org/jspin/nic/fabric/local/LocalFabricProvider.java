package org.jspin.nic.fabric.local;

import org.jspin.nic.Job;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.FabricProvider;

/** The in-JVM fabric ({@code local}): ranks are threads of one JVM sharing a {@link Job}. */
public final class LocalFabricProvider implements FabricProvider {
    /** Inbound queue capacity per rank, in packets. */
    static final int INBOUND_CAPACITY = 4096;

    @Override
    public String name() {
        return "local";
    }

    @Override
    public Fabric open(Job job, int rank) {
        LocalHub hub = job.attachment("fabric.local", LocalHub.class, () -> new LocalHub(job.size(), INBOUND_CAPACITY));
        return hub.attach(rank);
    }
}
