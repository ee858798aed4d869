package org.jspin.cli;

import picocli.CommandLine.Command;

/** {@code jspin bench ...}: whole-system measurements. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Whole-system benchmarks (medians of several samples after warm-up; measured on this machine).",
        subcommands = {BenchPackCommand.class, BenchPingPongCommand.class, BenchTcpFloorCommand.class,
                BenchAnchorsCommand.class})
final class BenchCommand implements Runnable {
    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
