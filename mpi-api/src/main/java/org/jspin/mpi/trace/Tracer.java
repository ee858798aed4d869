package org.jspin.mpi.trace;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongSupplier;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Records one rank's schedule in its trace file (docs/trace-format.md): the compute between its MPI
 * calls as thread CPU time, every send and receive it starts, and what its waits and tests saw
 * complete. The point-to-point path and {@code Request} call it (only when tracing is on); it is
 * driven by the rank's own thread and is not thread-safe. Lines are buffered in memory and written
 * when the buffer passes {@value #FLUSH_BYTES} bytes and at {@link #finish()}; after that every
 * call is ignored (label 0), so the closing barrier of {@code MPI_Finalize} is not recorded.
 */
public final class Tracer {
    /** What calc lines measure, as job.json names it. */
    public static final String CLOCK = "thread-cpu-ns";
    /** How much a rank buffers before it writes to its file (small: thread ranks of one JVM each hold one). */
    static final int FLUSH_BYTES = 1 << 20;

    private final TraceBuffer buffer;
    private final TraceWriter out;
    private final TraceTypes types;
    private final LongSupplier clock;
    private final OutputStream file;
    private Thread owner;
    private long mark;
    private long nextLabel = 1;
    private boolean finished;
    // the labels the wait in progress has seen complete
    private long[] waited = new long[8];
    private int waitedCount;
    // a blocking send or receive in progress (its wait writes no wait line; a receive's line waits for what matched)
    private long blockingLabel;
    private int blockingFrom;
    private int blockingTag;
    private int blockingCtx;
    private long blockingType;
    private long blockingCount;

    /**
     * @param file  where the text goes (closed by {@link #finish()})
     * @param where the file's name, for errors
     * @param clock the calling thread's CPU time in ns
     */
    Tracer(OutputStream file, String where, LongSupplier clock, int rank, int size) {
        this.file = file;
        this.buffer = new TraceBuffer(file, FLUSH_BYTES);
        this.out = new TraceWriter(buffer, where);
        this.types = new TraceTypes(out);
        this.clock = clock;
        out.header(rank, size);
        owner = Thread.currentThread();
        mark = clock.getAsLong();
    }

    /**
     * Opens {@code DIR/rank-<rank>.trace} for a rank of {@code size}, creating {@code dir} if needed.
     * Rank 0 removes an earlier run's job.json, so that one in the directory always speaks for whole files.
     *
     * @throws MpiException ERR_ARG naming {@code dir} if it cannot be created or the file cannot be written
     */
    public static Tracer open(Path dir, int rank, int size) {
        prepare(dir);
        Path path = rankFile(dir, rank);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isCurrentThreadCpuTimeSupported()) {
            throw new MpiException(ErrorClass.ERR_ARG, "cannot trace to " + dir + ": this JVM measures no thread CPU time");
        }
        try {
            if (rank == 0) {
                Files.deleteIfExists(dir.resolve(TraceJob.FILE));
            }
            return new Tracer(Files.newOutputStream(path), path.toString(), threads::getCurrentThreadCpuTime, rank, size);
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "cannot write the trace file " + path + " in trace directory "
                    + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Creates {@code dir} if needed and checks that files can be written in it (what a launcher
     * checks before it starts any rank).
     *
     * @throws MpiException ERR_ARG naming {@code dir}
     */
    public static void prepare(Path dir) {
        if (dir == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "trace directory must not be null");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "cannot create the trace directory " + dir + ": " + e, e);
        }
        if (!Files.isWritable(dir)) {
            throw new MpiException(ErrorClass.ERR_ARG, "cannot write in the trace directory " + dir);
        }
    }

    /** @return {@code DIR/rank-<rank>.trace} */
    public static Path rankFile(Path dir, int rank) {
        return dir.resolve("rank-" + rank + ".trace");
    }

    /**
     * A send starts: {@code to} is the world rank.
     *
     * @param blocking whether it is {@code MPI_Send} (its wait then writes no wait line)
     * @return its label, or 0 if the trace has finished
     */
    public long send(boolean blocking, int to, int tag, int ctx, long count, Datatype type) {
        if (finished) {
            return 0;
        }
        long label = begin(blocking);
        out.send(blocking, label, to, tag, ctx, count * type.size(), types.idOf(type), count);
        return label;
    }

    /**
     * A receive is posted: {@code from} is the world rank or -1 (ANY_SOURCE). A blocking one's line
     * is written when it completes, with what matched.
     *
     * @return its label, or 0 if the trace has finished
     */
    public long receive(boolean blocking, int from, int tag, int ctx, long count, Datatype type) {
        if (finished) {
            return 0;
        }
        long label = begin(blocking);
        long id = types.idOf(type);
        if (blocking) {
            blockingFrom = from;
            blockingTag = tag;
            blockingCtx = ctx;
            blockingType = id;
            blockingCount = count;
        } else {
            out.irecv(label, from, tag, ctx, count * type.size(), id, count);
        }
        return label;
    }

    /**
     * An iteration boundary: the compute before it is written, then a {@code mark} line, so that a
     * replay can time the iterations between the marks (docs/trace-format.md).
     */
    public void mark() {
        if (finished) {
            return;
        }
        calc();
        out.mark(nextLabel++);
    }

    /** A send or receive has been started (the CPU time it took is not the program's compute). */
    public void started() {
        mark = clock.getAsLong();
    }

    /** A wait or a successful test begins (a blocking operation's wait adds nothing). */
    public void enterWait() {
        if (!finished && blockingLabel == 0) {
            calc();
        }
    }

    /** The wait in progress saw send {@code label} complete. */
    public void completedSend(long label) {
        if (label == blockingLabel) {
            blockingLabel = 0;
        } else {
            waitedOn(label);
        }
    }

    /** The wait in progress saw receive {@code label} complete: {@code bytes} arrived from world rank {@code from} with {@code tag}. */
    public void completedReceive(long label, long bytes, int from, int tag) {
        if (finished) {
            return;
        }
        if (label == blockingLabel) {
            blockingLabel = 0;
            out.recv(label, blockingFrom, blockingTag, blockingCtx, bytes, blockingType, blockingCount, from, tag);
        } else {
            out.done(label, bytes, from, tag);
            waitedOn(label);
        }
    }

    /** The wait ends: it names what it saw complete (if anything), and the clock restarts. */
    public void leaveWait() {
        if (finished) {
            return;
        }
        if (waitedCount > 0) {
            out.waitOn(nextLabel++, waited, waitedCount);
            waitedCount = 0;
        }
        mark = clock.getAsLong();
    }

    /**
     * Writes what is buffered and closes the file; later calls are ignored.
     *
     * @throws MpiException ERR_OTHER naming the file if it cannot be written
     */
    public void finish() {
        if (finished) {
            return;
        }
        finished = true;
        try (OutputStream f = file) {
            out.drain();
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_OTHER, "cannot close a trace file: " + e.getMessage(), e);
        }
    }

    /** @return whether {@link #finish()} has run */
    public boolean finished() {
        return finished;
    }

    /** What every start does first: the compute before it is written and its label taken. */
    private long begin(boolean blocking) {
        calc();
        long label = nextLabel++;
        blockingLabel = blocking ? label : 0; // a blocking one whose start failed is never waited for
        return label;
    }

    private void waitedOn(long label) {
        if (finished) {
            return;
        }
        if (waitedCount == waited.length) {
            waited = Arrays.copyOf(waited, waitedCount * 2);
        }
        waited[waitedCount++] = label;
    }

    /** Writes the compute since the last call returned; another thread's clock cannot be compared with it. */
    private void calc() {
        long now = clock.getAsLong();
        Thread t = Thread.currentThread();
        if (t != owner) {
            owner = t;
        } else if (now > mark) {
            out.calc(nextLabel++, now - mark);
        }
        mark = now;
    }
}
