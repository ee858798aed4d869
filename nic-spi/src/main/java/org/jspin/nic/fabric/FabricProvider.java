package org.jspin.nic.fabric;

import org.jspin.nic.Job;

/** Finds a fabric by name through {@link java.util.ServiceLoader} ({@code local}, later {@code netty}). */
public interface FabricProvider {
    /** @return the name users select the fabric by */
    String name();

    /**
     * Opens rank {@code rank}'s endpoint of the job's fabric.
     *
     * @param job  what the ranks of one job share (size, attachments)
     * @param rank this endpoint's world rank
     */
    Fabric open(Job job, int rank);
}
