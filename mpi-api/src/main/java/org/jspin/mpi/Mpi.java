package org.jspin.mpi;

import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Job;
import org.jspin.nic.Nic;
import org.jspin.nic.NicProvider;
import org.jspin.nic.Providers;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.FabricProvider;
import org.jspin.nic.launch.Launched;
import org.jspin.nic.launch.Launches;
import org.jspin.mpi.trace.TraceJob;
import org.jspin.mpi.trace.TracedProgram;
import org.jspin.mpi.trace.Tracer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rank's MPI library ({@code MPI_Init} to {@code MPI_Finalize}), to be used with
 * try-with-resources:
 *
 * <pre>{@code
 * try (Mpi mpi = Mpi.init()) {
 *     Comm world = mpi.world();
 *     ...
 * }
 * }</pre>
 *
 * {@link LocalRanks#run} starts several ranks as threads of this JVM. The backend and fabric are
 * found by name on the class path ({@link MpiOptions}).
 */
public final class Mpi implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Mpi.class);

    private final Job job;
    private final Nic nic;
    private final MeterRegistry meters;
    private final MpiOptions options;
    private final ContextIds contexts = new ContextIds();
    private final Comm world;
    private final Tracer tracer;
    private volatile boolean closed;
    private volatile boolean finalized;

    private Mpi(Job job, int rank, MpiOptions options) {
        this.job = job;
        this.options = options;
        // both names are resolved before the fabric is joined, so an unknown one leaves no trace
        FabricProvider fabrics = Providers.fabric(options.fabric());
        NicProvider backends = Providers.backend(options.backend());
        this.meters = options.meters().get();
        if (meters == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "the meter registry supplier of the options returned null");
        }
        // the trace file is opened first: a directory it cannot write fails the rank before it joins
        this.tracer = options.trace().isEmpty() ? null : Tracer.open(Path.of(options.trace()), rank, job.size());
        Fabric fabric;
        try {
            fabric = fabrics.open(job, rank);
        } catch (RuntimeException e) {
            closeTrace();
            throw e;
        }
        try {
            this.nic = backends.open(fabric, options.nic(), meters);
        } catch (RuntimeException e) {
            fabric.close();
            closeTrace();
            throw e;
        }
        int[] all = new int[job.size()];
        for (int r = 0; r < all.length; r++) {
            all[r] = r;
        }
        this.world = new Comm(this, all, rank, 0);
    }

    /**
     * {@code MPI_Init} for a program started on its own: a world of one rank, with the options the
     * environment gives ({@link MpiOptions#fromEnvironment()}).
     */
    public static Mpi init() {
        return init(MpiOptions.fromEnvironment());
    }

    /**
     * {@code MPI_Init}: joins the job of the launcher that started this process ({@code jspin run},
     * Hydra's {@code mpiexec}, Slurm, Open MPI's {@code mpirun}; see {@link Launches}) over the
     * fabric that launcher's job uses, or, for a program started on its own, a world of one rank.
     *
     * @throws MpiException ERR_OTHER if a launcher announced several ranks and joining them failed
     *                      (this process never carries on as a world of one)
     */
    public static Mpi init(MpiOptions options) {
        if (options == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "options must not be null");
        }
        Optional<Launched> launched = Launches.detect(System.getenv());
        if (launched.isPresent()) {
            Launched l = launched.get();
            // the launcher's fabric unless the user chose one (JSPIN_FABRIC, a program's --fabric):
            // threads' in-JVM fabric, the default elsewhere, cannot join processes
            boolean chosen = !options.fabric().equals(MpiOptions.defaults().fabric());
            if (Warmup.enabled()) {
                Warmup.inWorldOfOne(options); // before the job's clock starts: its barrier comes after
            }
            return join(l.job(), l.rank(), chosen ? options : options.withFabric(l.fabric()));
        }
        return join(new Job("singleton-" + UUID.randomUUID(), 1), 0, options);
    }

    /** @return whether a launcher started this process as a rank of a job ({@link #init} will join it) */
    public static boolean launched() {
        return Launches.announced(System.getenv());
    }

    /**
     * Joins {@code job} as rank {@code rank} (what runners and bootstraps call).
     *
     * @throws MpiException ERR_ARG for an unknown backend or fabric, ERR_RANK for a rank outside the job
     */
    public static Mpi join(Job job, int rank, MpiOptions options) {
        if (job == null || options == null) {
            throw new MpiException(ErrorClass.ERR_ARG, (job == null ? "job" : "options") + " must not be null");
        }
        if (rank < 0 || rank >= job.size()) {
            throw new MpiException(ErrorClass.ERR_RANK, "rank must be in [0, " + job.size() + "), got " + rank);
        }
        return new Mpi(job, rank, options);
    }

    /** @return {@code MPI_COMM_WORLD} */
    public Comm world() {
        return world;
    }

    /** @return this rank in the world */
    public int rank() {
        return world.rank();
    }

    /** @return ranks in the world */
    public int size() {
        return world.size();
    }

    /**
     * Marks an iteration boundary in this rank's trace; nothing when the rank is not traced. Call it on
     * every rank before the first iteration and after each one: {@code jspin project} then reports the
     * time of an iteration between the marks, beside the whole run's (docs/trace-format.md). The marks
     * are a jspin extension, as {@code MPI_Pcontrol}'s tool-defined levels are an MPI one.
     */
    public void markIteration() {
        if (tracer != null) {
            tracer.mark();
        }
    }

    /** @return the NIC this rank drives */
    public Nic nic() {
        return nic;
    }

    /** @return the registry this rank's meters are in (it may hold other ranks' of the same JVM) */
    public MeterRegistry meters() {
        return meters;
    }

    /**
     * @param name a meter's name ({@code jspin.cpu.bytes.packed}, say)
     * @return the value of this rank's meter {@code name}, summed over its measurements, or 0 if
     *         its backend has no such meter
     */
    public double meter(String name) {
        String rank = Integer.toString(rank());
        double sum = 0;
        for (Meter m : meters.getMeters()) {
            if (m.getId().getName().equals(name) && rank.equals(m.getId().getTag("rank"))) {
                for (Measurement x : m.measure()) {
                    sum += x.getValue();
                }
            }
        }
        return sum;
    }

    /** @return the job this rank belongs to */
    public Job job() {
        return job;
    }

    /** @return the options this rank started with */
    public MpiOptions options() {
        return options;
    }

    /** @return whether this rank has finalized or aborted (its communicators are then unusable) */
    public boolean finalized() {
        return finalized;
    }

    ContextIds contexts() {
        return contexts;
    }

    /** @return this rank's tracer, or null when it is not traced */
    Tracer tracer() {
        return tracer;
    }

    /** @return this rank's meters, one line each (messages, bytes, CPU bytes copied, memory traffic) */
    public String summary() {
        return nic.summary();
    }

    /**
     * {@code MPI_Finalize}: waits for every rank (a barrier), then stops the NIC once its sends have
     * left. If the barrier fails (a peer died), the NIC stops anyway and the failure is thrown.
     * A traced rank writes its trace file before the barrier (which is not traced), and rank 0 the
     * trace's job.json after it, when every rank's file is whole.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            closeTrace();
        } finally {
            try {
                world.barrier();
            } finally {
                stop();
            }
        }
        if (tracer != null && rank() == 0) {
            TracedProgram p = TracedProgram.current();
            new TraceJob(size(), p.program(), p.args(), options.backend(), options.fabric(),
                    options.fabric().equals(MpiOptions.DEFAULT_FABRIC)).write(Path.of(options.trace()));
        }
    }

    /**
     * Leaves at once, without the closing barrier: what a failed rank does, so its peers see it gone.
     * A traced rank writes out what it recorded (rank 0 writes no job.json: the trace is incomplete).
     */
    public void abort() {
        closed = true;
        if (!finalized) {
            try {
                closeTrace();
            } catch (RuntimeException e) {
                LOG.warn("rank {} could not write its trace while aborting: {}", rank(), e.getMessage());
            }
            stop();
        }
    }

    private void closeTrace() {
        if (tracer != null) {
            tracer.finish();
        }
    }

    private void stop() {
        finalized = true;
        if (options.summary()) {
            LOG.info("rank {} of job {} ({} backend):\n{}", rank(), job.id(), nic.backend(), nic.summary());
        }
        nic.close();
    }
}
