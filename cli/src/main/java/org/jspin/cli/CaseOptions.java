package org.jspin.cli;

import picocli.CommandLine.Option;

/**
 * The options the commands running the ping-pong cases share (a picocli mixin): which cases, how
 * many round trips, how the ranks are bound, how the results are printed.
 */
final class CaseOptions {
    @Option(names = "--scale", defaultValue = "1",
            description = "multiplies the round trips per case (default: ${DEFAULT-VALUE})")
    double scale;

    @Option(names = "--filter", description = "only cases whose name matches (substring or regex: bw_4MiB$ is the"
            + " contiguous 4 MiB case alone)")
    String filter;

    @Option(names = "--json", description = "print one JSON array instead of a table")
    boolean json;

    @Option(names = "--bind-to", defaultValue = "none", converter = BindingConverter.class,
            description = "none (default), or core (rank r on CPU r, as mpirun's --bind-to core); for bench pingpong,"
                    + " with --fabric shm or netty")
    Binding binding;
}
