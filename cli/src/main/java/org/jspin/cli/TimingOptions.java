package org.jspin.cli;

import java.util.List;

import org.jspin.nic.sim.config.TimingConfig;

import picocli.CommandLine.Option;

/** The simulated NIC's timing, as every command that simulates it takes it: a preset, then single parameters. */
final class TimingOptions {
    @Option(names = "--preset", paramLabel = "NAME", description = "the simulated NIC's timing preset: paper (default)"
            + " or banked")
    String preset;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "a timing parameter, after the preset"
            + " (repeatable): --set memory-latency=10; jspin sim --print-config lists the keys")
    List<String> sets;

    /** @return {@code base}, or the preset named in its place, with every {@code --set} applied after it */
    TimingConfig over(TimingConfig base) {
        TimingConfig timing = preset == null ? base : TimingConfig.preset(preset);
        return sets == null ? timing : timing.with(sets.toArray(String[]::new));
    }
}
