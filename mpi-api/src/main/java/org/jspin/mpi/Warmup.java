package org.jspin.mpi;

import java.lang.foreign.MemorySegment;

import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.jspin.datatype.Datatype;
import org.jspin.nic.Job;
import org.jspin.settings.Settings;

/**
 * Takes a launched rank's message path through once before it joins its job: messages to itself,
 * eager and rendezvous, contiguous and of a vector type, in a world of its own (one rank, the
 * in-JVM fabric, the job's backend and protocol settings, meters of its own, so the job's meters
 * count only the program's messages). The JVM loads, links and initialises the classes of the API,
 * the engine, the backend's data path and the datatype engine's kernel generator here, rather than
 * inside the program's first timed exchange (docs/one-host.md). {@code JSPIN_WARMUP=0} (or {@code -Djspin.warmup=false}) leaves it out.
 */
final class Warmup {
    private static final int ROUNDS = 8;
    /** Beyond every fabric's eager limit, so that the rendezvous path runs too. */
    private static final int LARGE = 256 * 1024 + 64;

    private Warmup() {
    }

    /** @return whether the environment and system properties leave the warm-up on ({@link MpiOptions#WARMUP}) */
    static boolean enabled() {
        String v = Settings.current().get(MpiOptions.WARMUP);
        return !v.equals("false") && !v.equals("0");
    }

    /** Runs the warm-up in a world of one rank with {@code options}' backend and protocol settings. */
    static void inWorldOfOne(MpiOptions options) {
        // never traced: these messages are not the program's
        MpiOptions alone = options.withFabric("local").withSummary(false).withMeters(new SimpleMeterRegistry())
                .withTrace("");
        try (Mpi mpi = Mpi.join(new Job("warmup-" + UUID.randomUUID(), 1), 0, alone)) {
            run(mpi.world());
        }
    }

    /** Exchanges messages with itself on {@code self}, a communicator of this rank alone. */
    static void run(Comm self) {
        double[] small = new double[64];
        double[] into = new double[64];
        byte[] large = new byte[LARGE];
        byte[] largeInto = new byte[LARGE];
        Datatype column = Datatype.vector(8, 1, 8, Datatype.DOUBLE).commit();
        MemorySegment s = MemorySegment.ofArray(small);
        MemorySegment r = MemorySegment.ofArray(into);
        for (int i = 0; i < ROUNDS; i++) {
            small[i] = i;
            Request.waitAll(self.irecv(r, 64, Datatype.DOUBLE, 0, 1), self.isend(s, 64, Datatype.DOUBLE, 0, 1));
            Request.waitAll(self.irecv(r, 1, column, 0, 2), self.isend(s, 1, column, 0, 2));
            self.sendrecv(s, 8, Datatype.DOUBLE, 0, 3, r, 8, Datatype.DOUBLE, 0, 3);
        }
        Request.waitAll(self.irecv(MemorySegment.ofArray(largeInto), LARGE, Datatype.BYTE, 0, 4),
                self.isend(MemorySegment.ofArray(large), LARGE, Datatype.BYTE, 0, 4));
    }
}
