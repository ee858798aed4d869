package org.jspin.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jspin.bench.pack.SharedDir;
import org.jspin.bench.pingpong.CoreStates;
import org.jspin.datatype.kernel.KernelSettings;
import org.jspin.error.MpiException;
import org.jspin.mpi.MpiOptions;
import org.jspin.nic.NicSettings;
import org.jspin.nic.engine.ProgressSettings;
import org.jspin.nic.sim.SimNicProvider;
import org.jspin.settings.Setting;
import org.jspin.settings.Settings;
import org.jspin.transport.netty.NettySettings;
import org.jspin.transport.netty.join.LaunchSettings;
import org.jspin.transport.shm.ShmFabricProvider;

import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code jspin config}: every setting a user may give from outside a program, its value now, and where it came from. */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = {"Prints every setting read from system properties (-Djspin....) and JSPIN_* variables:"
                + " its effective value, where it came from (default, property or environment) and what it does.",
                "A malformed value is printed as its error, and the exit status is then 2."})
final class ConfigCommand implements Callable<Integer> {
    /** Every layer's settings, in the order the layers stack up. */
    static final Map<String, List<Setting<?>>> LAYERS = layers();

    @Spec
    private CommandSpec spec;

    private static Map<String, List<Setting<?>>> layers() {
        LinkedHashMap<String, List<Setting<?>>> m = new LinkedHashMap<>();
        m.put("program (MpiOptions)", MpiOptions.ALL);
        m.put("protocol (NicConfig)", NicSettings.ALL);
        m.put("progress and waiting", ProgressSettings.ALL);
        m.put("kernels", KernelSettings.ALL);
        m.put("launch (LaunchSettings)", LaunchSettings.ALL);
        m.put("netty fabric", NettySettings.ALL);
        m.put("shm fabric", ShmFabricProvider.ALL);
        m.put("simulated NIC", List.of(SimNicProvider.SETTINGS));
        m.put("benchmarks", List.of(CoreStates.NEAR_BELOW, SharedDir.LOCATION));
        return Collections.unmodifiableMap(m);
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Settings settings = Settings.current();
        boolean malformed = false;
        for (Map.Entry<String, List<Setting<?>>> layer : LAYERS.entrySet()) {
            out.println("# " + layer.getKey());
            List<String[]> rows = new ArrayList<>();
            for (Setting<?> s : layer.getValue()) {
                String value;
                String origin;
                try {
                    Settings.Effective<?> e = settings.effective(s);
                    value = e.value() == null ? "(not set)" : e.value().toString();
                    origin = e.origin().toString();
                } catch (MpiException e) {
                    value = "ERROR " + e.getMessage();
                    origin = "malformed";
                    malformed = true;
                }
                rows.add(new String[] {s.toString(), value, origin, s.description()});
            }
            int name = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
            int val = rows.stream().mapToInt(r -> r[1].startsWith("ERROR") ? 0 : r[1].length()).max().orElse(0);
            for (String[] r : rows) {
                out.printf("%-" + name + "s  %-" + Math.max(val, 1) + "s  %-11s  %s%n", r[0], r[1], r[2], r[3]);
            }
            out.println();
        }
        out.flush();
        return malformed ? 2 : 0;
    }
}
