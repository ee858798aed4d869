package org.jspin.nic.host;

import io.micrometer.core.instrument.MeterRegistry;

import org.jspin.nic.Nic;
import org.jspin.nic.NicConfig;
import org.jspin.nic.NicProvider;
import org.jspin.nic.engine.Meters;
import org.jspin.nic.engine.ProtocolEngine;
import org.jspin.nic.fabric.Fabric;

/** The {@code host} backend: the shared protocol engine with the CPU packing and unpacking. */
public final class HostNicProvider implements NicProvider {
    /** The name users select this backend by. */
    public static final String NAME = "host";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Nic open(Fabric fabric, NicConfig config, MeterRegistry meters) {
        Meters tagged = new Meters(meters, NAME, fabric.rank());
        HostDataPath path = new HostDataPath(config.over(fabric), tagged, fabric.rank(),
                fabric.peersReadPayloadsInPlace());
        return new ProtocolEngine<>(NAME, fabric, path, config, tagged);
    }
}
