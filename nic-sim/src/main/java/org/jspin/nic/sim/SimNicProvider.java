package org.jspin.nic.sim;

import io.micrometer.core.instrument.MeterRegistry;

import org.jspin.nic.Nic;
import org.jspin.nic.NicConfig;
import org.jspin.nic.NicProvider;
import org.jspin.nic.engine.Meters;
import org.jspin.nic.engine.ProtocolEngine;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.work.WorkListener;
import org.jspin.settings.Setting;
import org.jspin.settings.Settings;

/**
 * The {@code sim} backend: the shared protocol engine (whose matching is Portals 4's: posted list =
 * priority list, unexpected list = overflow list) with a simulated sPIN NIC as its data path. Its
 * settings come from {@code JSPIN_SIM} (or {@code -Djspin.sim}), e.g.
 * {@code strategy=rw-cp,packet=1024}, read and validated once per NIC ({@link SimConfig#parse}).
 */
public final class SimNicProvider implements NicProvider {
    /** The name users select this backend by. */
    public static final String NAME = "sim";
    /** The variable (and system property {@code jspin.sim}) holding the sim's settings. */
    public static final String SETTINGS_ENV = "JSPIN_SIM";
    /** {@code -Djspin.sim} or {@code JSPIN_SIM}: a list such as {@code strategy=seek,hpus=16} ({@link SimConfig#parse}). */
    public static final Setting<String> SETTINGS = Setting.text("jspin.sim", null,
            "the simulated NIC's parameters, a list such as strategy=seek,hpus=16 (jspin sim --help lists them)")
            .orEnvironment(SETTINGS_ENV);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Nic open(Fabric fabric, NicConfig config, MeterRegistry meters) {
        String spec = Settings.current().get(SETTINGS);
        return open(fabric, config, meters, SimConfig.parse(spec), WorkListener.NONE);
    }

    /**
     * Opens a rank's sim NIC with explicit settings.
     *
     * @param listener told of every handler and finished message (after the meters)
     */
    public static Nic open(Fabric fabric, NicConfig config, MeterRegistry meters, SimConfig sim, WorkListener listener) {
        Meters tagged = new Meters(meters, NAME, fabric.rank());
        SimNic nic = new SimNic(sim, new SimMeters(tagged, listener));
        return new ProtocolEngine<>(NAME, fabric, new SimDataPath(nic, config.over(fabric)), config, tagged);
    }
}
