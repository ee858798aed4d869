package org.jspin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jspin.bench.NameFilter;
import org.jspin.bench.anchors.AnchorCase;
import org.jspin.bench.anchors.AnchorResults;
import org.jspin.bench.anchors.ByState;
import org.jspin.bench.anchors.FloorRounds;
import org.jspin.bench.anchors.PackVersus;
import org.jspin.bench.anchors.Versus;
import org.jspin.bench.pingpong.CorePairProbe;
import org.jspin.bench.pingpong.PingPongResult;
import org.jspin.error.MpiException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jspin bench anchors}: jspin beside MPICH and Open MPI, round by round: the ping-pong over
 * Netty against theirs over TCP, over shared memory against their defaults on one host, or the pack
 * sweep against their {@code MPI_Pack}.
 */
@Command(name = "anchors", mixinStandardHelpOptions = true,
        description = {"jspin beside Open MPI and MPICH (the anchors' run.sh) in interleaved rounds, measured on this"
                + " machine.",
                "pingpong (the default): each round runs the anchors' ping-pong over TCP (ranks bound), then 'bench"
                        + " pingpong --fabric netty' once per --bind-to. Prints per case the median of each figure over"
                        + " the rounds and the median of the ratios taken within each round (above 1: jspin ahead), the"
                        + " 4 MiB vector over the contiguous 4 MiB, the latency tails, and the per-round ratios to Open"
                        + " MPI. With jspin bound, each round also runs 'bench tcpfloor' bound: the floor's vector over"
                        + " its contiguous message, and jspin over the floor per case.",
                "--fabric shm: each round runs the anchors' ping-pong with each MPI's default on one host (run.sh"
                        + " pingpong-shm: shared memory), then 'bench pingpong --fabric shm'; no floor.",
                "pack: each round runs the anchors' MPI_Pack/MPI_Unpack sweep, then 'bench pack' on the vector sweep in"
                        + " a fresh JVM. Prints per block size each one's rate as a fraction of its own contiguous copy,"
                        + " jspin's over the better MPI's (per round, then the median), and how far jspin's rates and"
                        + " fractions spread over the rounds.",
                "The anchors build their programs with mpicc.openmpi and mpicc.mpich (Debian's libopenmpi-dev and"
                        + " libmpich-dev); ./jspin installs them for this command."})
final class BenchAnchorsCommand implements Callable<Integer> {
    /** The labels of the anchors' shared-memory ping-pong (run.sh pingpong-shm). */
    private static final String OPEN_MPI_SHM = "ompi-shm";
    private static final String MPICH_SHM = "mpich-shm";

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", defaultValue = "pingpong", paramLabel = "WHAT",
            description = "pingpong or pack (default: ${DEFAULT-VALUE})")
    private String what;

    @Option(names = "--rounds", defaultValue = "3", description = "interleaved rounds (default: ${DEFAULT-VALUE})")
    private int rounds;

    @Option(names = "--bind-to", split = ",", defaultValue = "core,none", converter = BindingConverter.class,
            description = "jspin's bindings, each measured every round (default: ${DEFAULT-VALUE})")
    private List<Binding> bindings;

    @Option(names = "--scale", defaultValue = "1",
            description = "multiplies jspin's round trips per case (default: ${DEFAULT-VALUE})")
    private double scale;

    @Option(names = "--filter", description = "only jspin's cases whose name matches (substring or regex)")
    private String filter;

    @Option(names = "--fabric", defaultValue = "netty",
            description = "pingpong: netty (default; the anchors over TCP) or shm (the anchors' defaults on one host,"
                    + " shared memory: run.sh pingpong-shm)")
    private String fabric;

    @Option(names = "--anchors", paramLabel = "RUN_SH",
            description = "the anchors' script (default: anchors/run.sh of the shared directory)")
    private Path script;

    @Override
    public Integer call() throws IOException, InterruptedException {
        AnchorsPlan plan = new AnchorsPlan(what, rounds, scale, fabric, script, filter);
        AnchorsScript anchors = new AnchorsScript(plan.runSh(), AnchorsScript.TIMEOUT);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (plan.packs()) {
            PackAnchorsReport.print(out, packRounds(plan, anchors, err));
            return 0;
        }
        List<Binding> order = bindings.stream().distinct().toList();
        Versus versus = new Versus(order.stream().map(BenchAnchorsCommand::name).toList());
        ByState byState = new ByState();
        FloorRounds floors = new FloorRounds();
        for (int r = 1; r <= rounds; r++) {
            err.printf("jspin bench anchors: round %d of %d: the anchors%n", r, rounds);
            double before = probe(err);
            AnchorResults theirs = plan.sharedMemory()
                    ? anchors.run("pingpong-shm", List.of(OPEN_MPI_SHM, MPICH_SHM))
                            .relabeled(OPEN_MPI_SHM, AnchorCase.OPEN_MPI).relabeled(MPICH_SHM, AnchorCase.MPICH)
                    : anchors.run(AnchorsPlan.PINGPONG, Versus.LABELS);
            double after = probe(err);
            Map<String, List<PingPongResult>> ours = new LinkedHashMap<>();
            for (Binding b : order) {
                err.printf("jspin bench anchors: round %d of %d: jspin, %s%n", r, rounds, name(b));
                ours.put(name(b), ProcessPingPong.run(fabric, "host", scale, filter, null, null, b, System.err));
            }
            versus.add(theirs, ours);
            if (ours.containsKey(name(Binding.CORE))) {
                byState.add(theirs, before, after, ours.get(name(Binding.CORE)));
                if (plan.sharedMemory()) {
                    continue; // the floor is a bare TCP socket's
                }
                err.printf("jspin bench anchors: round %d of %d: the floor (bench tcpfloor), bound%n", r, rounds);
                floors.add(BenchTcpFloorCommand.measure(scale, filter, Binding.CORE), ours.get(name(Binding.CORE)));
            }
        }
        NameFilter cases = plan.cases();
        PingPongAnchorsReport.print(out, versus, cases, plan.sharedMemory(),
                plan.sharedMemory() ? null : PingPongAnchorsReport.Congestion.ofThisHost());
        PingPongAnchorsReport.floor(out, floors, cases);
        if (order.contains(Binding.CORE)) {
            PingPongAnchorsReport.byState(out, byState, cases);
        }
        return 0;
    }

    /** Each round: the anchors' pack sweep, then jspin's vector sweep in a fresh JVM. */
    private PackVersus packRounds(AnchorsPlan plan, AnchorsScript anchors, PrintWriter err)
            throws IOException, InterruptedException {
        PackVersus versus = new PackVersus();
        for (int r = 1; r <= rounds; r++) {
            err.printf("jspin bench anchors pack: round %d of %d: the anchors%n", r, rounds);
            AnchorResults theirs = anchors.run(AnchorsPlan.PACK, PackVersus.IMPLS);
            err.printf("jspin bench anchors pack: round %d of %d: jspin%n", r, rounds);
            versus.add(theirs, FreshPackJvm.run(filter == null ? "vector_" : filter, AnchorsScript.TIMEOUT));
        }
        return versus;
    }

    /**
     * The machine's state just now: a cache line's round trip between threads pinned to CPUs 0 and
     * 1 ({@link CorePairProbe#betweenCpus}, the median of 3 probes), or NaN on a machine with one
     * CPU or where the threads cannot be pinned (said on {@code err}).
     */
    private static double probe(PrintWriter err) {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return Double.NaN;
        }
        try {
            return CorePairProbe.betweenCpus(0, 1, 3);
        } catch (MpiException e) {
            err.printf("jspin bench anchors: no cross-core probe (%s); the anchors' state is unknown%n", e.getMessage());
            return Double.NaN;
        }
    }

    private static String name(Binding b) {
        return b == Binding.NONE ? "unbound" : "bound";
    }
}
