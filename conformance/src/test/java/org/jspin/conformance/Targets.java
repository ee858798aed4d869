package org.jspin.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.jspin.nic.NicConfig;
import org.jspin.nic.Providers;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The parameter sources of the suite: every backend on the class path times every fabric on it
 * ({@link Providers}), so a new backend or fabric is tested by putting it on the test class path.
 * The system properties {@code jspin.conformance.backends} and {@code jspin.conformance.fabrics}
 * (comma-separated names) narrow the run to some of them.
 *
 * <p>A fabric whose ranks can live in separate processes ({@link #PROCESS_FABRICS}) is tested
 * twice: with ranks as threads, and with ranks in separate JVMs ({@link Target#processes()},
 * named {@code host/netty-processes}). The system property {@code jspin.conformance.processes}
 * says which: {@code true} (the default) both, {@code false} threads only, {@code only} processes
 * only.
 *
 * <p>Use as {@code @MethodSource("org.jspin.conformance.Targets#targets")}, or
 * {@code #withProtocols} for tests that must see both the eager and the rendezvous protocol.
 */
public final class Targets {
    /** Small eager limit, small chunks and a small packet pool: most messages go by rendezvous, in many chunks. */
    public static final NicConfig SMALL = new NicConfig(128, 512, 8, true);
    /** As {@link #SMALL} but the receiver stages the whole message and unpacks it once. */
    public static final NicConfig STAGED = new NicConfig(256, 1024, 16, false);

    /** Fabrics whose ranks can be separate processes, so they also get a {@link Target#processes()} target. */
    public static final Set<String> PROCESS_FABRICS = Set.of("netty", "shm");
    /** The property that says whether process targets are tested ({@code true}, {@code false}, {@code only}). */
    public static final String PROCESSES_PROPERTY = "jspin.conformance.processes";

    private Targets() {
    }

    /** @return every backend x fabric pair */
    public static List<Target> all() {
        Set<String> backends = selected(Providers.backends(), "jspin.conformance.backends");
        Set<String> fabrics = selected(Providers.fabrics(), "jspin.conformance.fabrics");
        if (backends.isEmpty() || fabrics.isEmpty()) {
            throw new IllegalStateException("no backend or no fabric to test: backends " + Providers.backends()
                    + ", fabrics " + Providers.fabrics());
        }
        String processes = System.getProperty(PROCESSES_PROPERTY, "true").trim();
        if (!List.of("true", "false", "only").contains(processes)) {
            throw new IllegalStateException(PROCESSES_PROPERTY + " must be true, false or only, got '" + processes + "'");
        }
        List<Target> out = new ArrayList<>();
        for (String b : backends) {
            for (String f : fabrics) {
                if (!processes.equals("only")) {
                    out.add(new Target(b, f));
                }
                if (!processes.equals("false") && PROCESS_FABRICS.contains(f)) {
                    out.add(new Target(b, f, true));
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("no target to test: " + PROCESSES_PROPERTY + "=only, but none of the fabrics "
                    + fabrics + " runs ranks in separate processes " + PROCESS_FABRICS);
        }
        return out;
    }

    /** @return one argument per target, named by it */
    public static Stream<Arguments> targets() {
        return all().stream().map(t -> Arguments.of(Named.of(t.toString(), t)));
    }

    /**
     * The eager limit of {@code nic} for choosing message sizes around it: its own, or for the
     * default settings (the fabric's choice) the limit of a fabric with no preference, 16 KiB. Over
     * netty, whose choice is 64 KiB, such sizes all go eagerly; {@link #SMALL} and {@link #STAGED}
     * straddle their explicit limits on every fabric.
     */
    public static int eagerLimit(NicConfig nic) {
        return nic.eagerLimitOver(NicConfig.DEFAULT_EAGER_LIMIT);
    }

    /**
     * The chunk size of {@code nic} for choosing message sizes of a few chunks: its own, or for the
     * default settings (the fabric's choice) the chunk of a fabric with no preference, 256 KiB. Over
     * netty, whose choice is 512 KiB, such sizes span fewer chunks.
     */
    public static int chunkSize(NicConfig nic) {
        return nic.over(NicConfig.DEFAULT_CHUNK_SIZE).chunkSize();
    }

    /** @return the protocol settings a test that cares about eager and rendezvous runs with, named */
    public static List<Named<NicConfig>> protocols() {
        return List.of(Named.of("default", NicConfig.DEFAULT), Named.of("small-chunks", SMALL),
                Named.of("staged", STAGED));
    }

    /** @return every target with every protocol setting of {@link #protocols()} */
    public static Stream<Arguments> withProtocols() {
        return all().stream().flatMap(t -> protocols().stream()
                .map(p -> Arguments.of(Named.of(t.toString(), t), p)));
    }

    /** @return every target with every rank count in {@code ranks} */
    public static Stream<Arguments> withRanks(int... ranks) {
        return all().stream().flatMap(t -> Arrays.stream(ranks)
                .mapToObj(n -> Arguments.of(Named.of(t.toString(), t), n)));
    }

    private static Set<String> selected(TreeSet<String> available, String property) {
        String p = System.getProperty(property);
        if (p == null || p.isBlank()) {
            return available;
        }
        Set<String> wanted = new TreeSet<>();
        for (String s : p.split(",")) {
            if (!s.isBlank()) {
                if (!available.contains(s.trim())) {
                    throw new IllegalStateException(property + " names '" + s.trim() + "', not on the class path: "
                            + available);
                }
                wanted.add(s.trim());
            }
        }
        return wanted;
    }
}
