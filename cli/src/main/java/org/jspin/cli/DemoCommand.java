package org.jspin.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.jspin.bench.pack.PackCase;
import org.jspin.bench.pack.PackCases;
import org.jspin.bench.pack.PackResult;
import org.jspin.bench.pack.PackSweep;
import org.jspin.bench.pack.SharedDir;
import org.jspin.datatype.Datatype;
import org.jspin.datatype.flat.RegionIterator;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code jspin demo}: builds every application datatype of shared/layouts and shows its layout and
 * how fast the engine packs and unpacks it (the multi-process halo exchange replaces this later).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Builds every datatype of shared/layouts and prints size, extent, regions and pack/unpack GB/s"
                + " (measured on this machine, median of the samples).")
final class DemoCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--samples", defaultValue = "3", description = "samples per layout (default: ${DEFAULT-VALUE})")
    private int samples;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Path dir = SharedDir.layouts();
        List<PackCase> cases = PackCases.layouts(dir);
        out.printf("jspin demo: %d application datatypes from %s (DDTBench), count 1 each%n", cases.size(), dir);
        out.printf("%-28s %12s %12s %9s %10s %10s %10s%n", "name", "size B", "extent B", "regions", "pack GB/s",
                "unpack GB/s", "copy GB/s");
        PackSweep.Options options = PackSweep.Options.defaults().withSamples(samples);
        for (PackCase c : cases) {
            PackResult r = PackSweep.measure(c, options);
            Datatype t = c.type();
            out.printf("%-28s %12d %12d %9d %10.2f %10.2f %10.2f%n", c.name(), t.size(), t.extent(),
                    regions(t, c.count()), r.packGbps(), r.unpackGbps(), r.copyGbps());
            out.flush();
        }
        return 0;
    }

    private static long regions(Datatype t, long count) {
        RegionIterator it = t.regions(count);
        long n = 0;
        while (it.advance()) {
            n++;
        }
        return n;
    }
}
