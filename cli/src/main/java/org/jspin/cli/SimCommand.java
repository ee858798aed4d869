package org.jspin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.json.DatatypeJson;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.OneMessage;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.work.WorkListener;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code jspin sim}: one message of a datatype through a sender's and a receiver's simulated sPIN
 * NIC in this process, and what every handler did. Functional only: counts, not time.
 */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = {"Sends one message of a datatype through a sender's and a receiver's simulated sPIN NIC in"
                + " this process and prints what the handlers did (packets, handlers, DMA commands and bytes, blocks"
                + " walked, checkpoints, resets, iovec refills, NIC memory, fallbacks).",
                "A strategy that does not apply to the type exits with status 2 and a message saying it is not"
                        + " applicable; --verify exits with status 1 if the receive buffer differs from the host path's."})
final class SimCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--type", paramLabel = "FILE.json", split = ",", description = "the datatype"
            + " (../shared/DATATYPE-JSON.md); several files, or a directory of them, give one line per type and strategy")
    private List<Path> types;

    @Option(names = "--count", defaultValue = "1", description = "elements of the type (default: ${DEFAULT-VALUE})")
    private long count;

    @Option(names = "--strategy", split = ",", description = "specialized, hpu-local, ro-cp, rw-cp, iovec, seek or"
            + " auto (default: auto); several give one line per type and strategy")
    private List<String> strategies;

    @Option(names = "--packet", paramLabel = "BYTES", description = "NIC packet payload (default: 2048)")
    private Integer packet;

    @Option(names = "--hpus", paramLabel = "P", description = "handler processing units (default: 32)")
    private Integer hpus;

    @Option(names = "--delta-r", paramLabel = "BYTES", description = "checkpoint interval of ro-cp and rw-cp"
            + " (default: 16 packets)")
    private Long deltaR;

    @Option(names = "--nic-memory", paramLabel = "BYTES", description = "handler memory (default: 4 MiB)")
    private Long nicMemory;

    @Option(names = "--iovec", paramLabel = "V", description = "iovec entries the NIC holds at once (default: 32)")
    private Integer iovec;

    @Option(names = "--ooo-window", paramLabel = "W", description = "permute the packets of each chunk within"
            + " windows of W packets (default: 1, in order)")
    private Integer oooWindow;

    @Option(names = "--seed", paramLabel = "N", description = "seed of the out-of-order permutation and of the"
            + " link's faults (default: 1)")
    private Long seed;

    @Option(names = "--drop", paramLabel = "P", description = "probability that the link loses a transmission of a"
            + " packet; lost packets are sent again (default: 0)")
    private Double drop;

    @Option(names = "--duplicate", paramLabel = "P", description = "probability that a packet arrives twice; the"
            + " NIC discards the copy (default: 0)")
    private Double duplicate;

    @Option(names = "--retransmits", paramLabel = "N", description = "retransmissions of a lost packet before the"
            + " message fails (default: 7, InfiniBand RC's limit)")
    private Integer retransmits;

    @Option(names = "--chunk", paramLabel = "BYTES", defaultValue = "262144",
            description = "bytes the fabric carries per chunk (default: ${DEFAULT-VALUE}, the in-JVM fabric's)")
    private int chunk;

    @Mixin
    private TimingOptions timingOptions;

    @Option(names = "--config", paramLabel = "FILE", description = "timing parameters, one key=value a line"
            + " (preset=... first); --print-config lists the keys")
    private Path configFile;


    @Option(names = "--verify", description = "compare the whole receive buffer with the host path's")
    private boolean verify;

    @Option(names = "--json", description = "print one JSON object")
    private boolean json;

    @Option(names = "--print-config", description = "print every parameter, its value and its source, and exit")
    private boolean printConfig;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        SimConfig config = config();
        if (printConfig) {
            config.describe().forEach((k, v) -> out.printf("%-18s %s%n", k, v));
            out.flush();
            return 0;
        }
        List<Path> files = typeFiles();
        if (files.size() > 1 || strategies != null && strategies.size() > 1) {
            return table(out, files, config);
        }
        Path type = files.getFirst();
        Datatype t = DatatypeJson.parse(Files.readString(type)).commit();
        OneMessage.Result r = OneMessage.run(t, count, config, chunk, WorkListener.NONE, verify);
        if (json) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("type", type.toString());
            o.put("count", count);
            o.put("bytes", t.packSize(count));
            o.put("config", configMap(config));
            o.put("timing_config", config.timing().values());
            o.put("receive", r.receive().toMap());
            o.put("send", r.send().toMap());
            o.put("verified", r.verified());
            o.put("identical", r.verified() ? r.identical() : null);
            out.println(DatatypeJson.mapper().writeValueAsString(o));
        } else {
            out.printf("%s, count %d: %,d bytes; %s%n", type, count, t.packSize(count),
                    config.describe().entrySet().stream().limit(7).map(e -> e.getKey() + " "
                            + e.getValue().split(" ")[0]).toList());
            print(out, "receive", r.receive().toMap());
            print(out, "send", r.send().toMap());
            if (r.verified()) {
                out.println(r.identical() ? "verify: receive buffer identical to the host path's (" + r.bufferBytes()
                        + " bytes, outside the type map included)"
                        : "verify: receive buffer DIFFERS from the host path's at byte " + r.mismatch());
            }
        }
        out.flush();
        return r.verified() && !r.identical() ? 1 : 0;
    }

    private List<Path> typeFiles() throws IOException {
        if (types == null || types.isEmpty()) {
            throw new MpiException(ErrorClass.ERR_ARG, "--type FILE.json is required");
        }
        List<Path> files = new ArrayList<>();
        for (Path p : types) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.list(p)) {
                    files.addAll(s.filter(f -> f.toString().endsWith(".json")).sorted().toList());
                }
            } else {
                files.add(p);
            }
        }
        if (files.isEmpty()) {
            throw new MpiException(ErrorClass.ERR_ARG, "no *.json datatype in " + types);
        }
        return files;
    }

    /**
     * Several types or strategies: one message each, one line each (JSON Lines with --json); a
     * strategy that does not apply to a type gets a line saying so, and the others still run.
     */
    private int table(PrintWriter out, List<Path> files, SimConfig config) throws IOException {
        List<String> names = strategies == null ? List.of(config.strategy()) : strategies;
        if (!json) {
            out.printf("%-28s %-11s %-11s %9s %11s %11s %11s %9s %9s %7s %9s  %s%n", "type", "strategy", "ran", "packets",
                    "blocks", "catch-up", "cp bytes", "divisions", "searches", "resets", "NIC B", "fallback / verify");
        }
        int status = 0;
        for (Path f : files) {
            Datatype t = DatatypeJson.parse(Files.readString(f)).commit();
            String name = f.getFileName().toString().replaceFirst("\\.json$", "");
            for (String strategy : names) {
                SimConfig c = config.withStrategy(strategy);
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("type", f.toString());
                line.put("count", count);
                line.put("bytes", t.packSize(count));
                line.put("config", configMap(c));
                line.put("timing_config", c.timing().values());
                OneMessage.Result r;
                try {
                    r = OneMessage.run(t, count, c, chunk, WorkListener.NONE, verify);
                } catch (MpiException e) {
                    line.put("error", e.getMessage());
                    if (json) {
                        out.println(DatatypeJson.mapper().writeValueAsString(line));
                    } else {
                        out.printf("%-28s %-11s %s%n", name, strategy, e.getMessage().contains("not applicable")
                                ? "not applicable" : e.getMessage());
                    }
                    continue;
                }
                if (r.verified() && !r.identical()) {
                    status = 1;
                }
                var w = r.receive();
                if (json) {
                    line.put("receive", w.toMap());
                    line.put("send", r.send().toMap());
                    line.put("verified", r.verified());
                    line.put("identical", r.verified() ? r.identical() : null);
                    out.println(DatatypeJson.mapper().writeValueAsString(line));
                } else {
                    out.printf("%-28s %-11s %-11s %,9d %,11d %,11d %,11d %,9d %,9d %,7d %,9d  %s%n", name, strategy,
                            w.strategy, w.packets, w.blocksWalked, w.catchUpBlocks, w.checkpointBytesCopied, w.divisions,
                            w.searchSteps, w.resets, w.nicMemoryBytes, w.fallback != null ? w.fallback
                                    : !r.verified() ? "" : r.identical() ? "identical" : "DIFFERS at " + r.mismatch());
                }
            }
        }
        out.flush();
        return status;
    }

    private static void print(PrintWriter out, String side, Map<String, Object> work) {
        out.println(side + ":");
        work.forEach((k, v) -> {
            if (v != null) {
                out.printf("  %-24s %s%n", k, v instanceof Long l ? String.format("%,d", l) : v);
            }
        });
    }

    private static Map<String, Object> configMap(SimConfig c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("strategy", c.strategy());
        m.put("packet", c.packetBytes());
        m.put("hpus", c.hpus());
        m.put("delta_r", c.deltaR());
        m.put("nic_memory", c.nicMemoryBytes());
        m.put("iovec", c.iovecEntries());
        m.put("ooo_window", c.oooWindow());
        m.put("seed", c.seed());
        m.put("drop", c.faults().drop());
        m.put("duplicate", c.faults().duplicate());
        m.put("retransmits", c.faults().retransmits());
        return m;
    }

    private SimConfig config() {
        if (timingOptions.preset != null && configFile != null) {
            throw new MpiException(ErrorClass.ERR_ARG, "give the preset in the --config file or with --preset,"
                    + " not both");
        }
        TimingConfig timing = timingOptions.over(configFile != null ? TimingConfig.load(configFile) : TimingConfig.PAPER);
        SimConfig c = SimConfig.DEFAULT.withTiming(timing);
        if (strategies != null && strategies.size() == 1) {
            c = c.withStrategy(strategies.getFirst());
        }
        if (packet != null) {
            c = c.withPacketBytes(packet);
        }
        if (hpus != null) {
            c = c.withHpus(hpus);
        }
        if (deltaR != null) {
            c = c.withDeltaR(deltaR);
        }
        if (nicMemory != null) {
            c = c.withNicMemory(nicMemory);
        }
        if (iovec != null) {
            c = c.withIovecEntries(iovec);
        }
        if (oooWindow != null || seed != null) {
            c = c.withOutOfOrder(oooWindow != null ? oooWindow : c.oooWindow(), seed != null ? seed : c.seed());
        }
        if (drop != null) {
            c = c.withFaults(c.faults().withDrop(drop));
        }
        if (duplicate != null) {
            c = c.withFaults(c.faults().withDuplicate(duplicate));
        }
        if (retransmits != null) {
            c = c.withFaults(c.faults().withRetransmits(retransmits));
        }
        return c;
    }
}
