package org.jspin.nic;

import io.micrometer.core.instrument.MeterRegistry;

import org.jspin.nic.fabric.Fabric;

/** Finds a NIC backend by name through {@link java.util.ServiceLoader} ({@code host}, later {@code sim}). */
public interface NicProvider {
    /** @return the name users select the backend by */
    String name();

    /**
     * Opens the NIC of one rank, driving {@code fabric}; it owns the fabric from now on.
     *
     * @param meters where the NIC registers its meters (tagged with the rank and backend)
     */
    Nic open(Fabric fabric, NicConfig config, MeterRegistry meters);
}
