package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;

import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.SystemNanoClock;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.MatchedMessage;
import org.jspin.nic.Nic;
import org.jspin.nic.NicConfig;
import org.jspin.nic.ProbeListener;
import org.jspin.nic.Put;
import org.jspin.nic.fabric.Fabric;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every NIC shares: the {@link ProtocolCore} (matching, the eager/rendezvous protocol, flow
 * control and completion), run by one progress thread per rank or a waiting caller, one at a time
 * (no locks; callers hand work over through a queue). A backend supplies only the {@link DataPath}.
 *
 * <p>Who runs the core: the progress thread, or a caller waiting on a request
 * ({@link #progress()}), whichever holds the {@code driving} flag; one at a time, so the state
 * still has a single owner at any moment and needs no locks, and the flag's acquire/release
 * hands it over safely. A waiting caller driving the engine itself saves the hand-offs to and
 * from the progress thread that otherwise dominate small-message latency.
 */
public final class ProtocolEngine<S, R> implements Nic, Progress.Work {
    private static final Logger LOG = LoggerFactory.getLogger(ProtocolEngine.class);
    /**
     * How long the progress thread of a poll-driven fabric parks while callers drive (they poll the
     * fabric; when the last one stops, the progress thread must take over within this).
     */
    private static final long DRIVEN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(1000);
    /**
     * How long after a caller's last round the progress thread of a poll-driven fabric still keeps
     * out of the fabric: callers that send and wait in quick succession drive it themselves, and a
     * progress thread blocked in the fabric would have to be woken for each of them
     * ({@code -Djspin.progress.quiet.us}).
     */
    private static final long QUIET_NANOS = Long.getLong("jspin.progress.quiet.us", 2000) * 1000;

    private final String backend;
    private final Fabric fabric;
    private final NicConfig config;
    private final Meters meters;
    private final ProtocolCore<S, R> core;
    private final Progress progress;

    private final ManyToOneConcurrentLinkedQueue<Runnable> commands = new ManyToOneConcurrentLinkedQueue<>();

    /** Set while a thread runs the engine's state machine. */
    private final java.util.concurrent.atomic.AtomicBoolean driving = new java.util.concurrent.atomic.AtomicBoolean();
    /** Callers spinning on their requests, driving the engine between {@link #beginWait} and {@link #endWait}. */
    private final java.util.concurrent.atomic.AtomicInteger waiters = new java.util.concurrent.atomic.AtomicInteger();
    /** The progress thread blocks in {@link Fabric#await} (a poll-driven fabric, nobody else driving). */
    private volatile boolean awaiting;
    /** When a caller (not the progress thread) last ran a round; 0 once the last one parked. */
    private volatile long lastCallerRound;
    /** Work left that no arrival will announce (backlog, queued sends, CTSs due): poll again soon. */
    private volatile boolean pending;
    /** Closing, and nothing is left to drain: the progress loop may end. */
    private volatile boolean drained;
    private volatile boolean closing;
    private volatile boolean stopped;

    /**
     * Starts a rank's NIC over {@code fabric}.
     *
     * @throws MpiException ERR_ARG if the chunk size exceeds what the fabric carries
     */
    public ProtocolEngine(String backend, Fabric fabric, DataPath<S, R> path, NicConfig config, Meters meters) {
        this.core = new ProtocolCore<>(fabric, path, config, meters, SystemNanoClock.INSTANCE);
        this.backend = backend;
        this.fabric = fabric;
        this.config = config;
        this.meters = meters;
        this.progress = new Progress("jspin-progress-" + fabric.rank(), this, this::shutDown);
        fabric.onActivity(this::wakeIfUnattended);
        progress.start();
    }

    /** @return the tags every meter of this NIC carries (rank, backend) */
    public Tags tags() {
        return meters.tags();
    }

    // ---- the caller's side: every call becomes a command for the core's driver ---------------

    @Override
    public int rank() {
        return fabric.rank();
    }

    @Override
    public int size() {
        return fabric.size();
    }

    @Override
    public String backend() {
        return backend;
    }

    @Override
    public NicConfig config() {
        return config;
    }

    @Override
    public void post(MatchEntry entry) {
        RecvOp<R> op = new RecvOp<>(entry);
        submit(() -> core.startReceive(op));
    }

    @Override
    public void put(Put put) {
        SendOp<S> op = new SendOp<>(put);
        submit(() -> core.startSend(op));
    }

    @Override
    public void cancel(MatchEntry entry) {
        submit(() -> core.cancel(entry));
    }

    @Override
    public void probe(int peer, long match, long ignore, boolean take, boolean wait, ProbeListener listener) {
        submit(() -> core.probe(peer, match, ignore, take, wait, listener));
    }

    @Override
    public void receiveMatched(MatchedMessage message, MatchEntry entry) {
        Unexpected u = ProtocolCore.taken(message);
        RecvOp<R> op = new RecvOp<>(entry);
        submit(() -> core.receiveMatched(op, u));
    }

    @Override
    public boolean accessible(MemorySegment segment) {
        return segment.isAccessibleBy(progress.thread());
    }

    @Override
    public String summary() {
        StringBuilder s = new StringBuilder();
        String rank = Integer.toString(rank());
        for (Meter m : meters.registry().getMeters()) {
            Meter.Id id = m.getId();
            if (id.getName().startsWith("jspin.") && rank.equals(id.getTag("rank"))) {
                double v = m.measure().iterator().next().getValue();
                s.append(String.format("%-34s %,.0f%n", id.getName(), v));
            }
        }
        return s.toString();
    }

    @Override
    public void close() {
        if (closing) {
            return;
        }
        submit(() -> {
            closing = true;
            core.beginClose();
        });
        try {
            progress.join(ProtocolCore.CLOSE_DRAIN_MILLIS + 5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void submit(Runnable command) {
        if (stopped) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank() + "'s NIC is closed");
        }
        commands.offer(command);
        // on a poll-driven fabric the caller runs the command itself when the engine is free: the
        // bytes leave from this thread, and the progress thread is not woken for every send
        if (fabric.pollDriven() && Thread.currentThread() != progress.thread() && tryRound() >= 0) {
            return;
        }
        wakeIfUnattended();
    }

    // ---- the progress thread ----------------------------------------------------------------

    @Override
    public void beginWait() {
        waiters.incrementAndGet();
        if (awaiting) {
            fabric.wakeup(); // the progress thread holds the engine while it blocks in the fabric: let go
        }
    }

    @Override
    public void parking() {
        lastCallerRound = 0; // nobody polls now: the progress thread may block in the fabric at once
        progress.wake();
    }

    @Override
    public void endWait() {
        waiters.decrementAndGet();
        if (hasWork()) {
            wakeIfUnattended(); // announced before this re-check, so no arrival goes unnoticed
        }
    }

    /**
     * Wakes the progress thread unless a waiting caller is spinning on this NIC (it will see the
     * work in its next round). Waking a thread that then competes for a core with the spinning
     * caller costs more than the wake-up saves, on a machine with fewer cores than threads.
     */
    private void wakeIfUnattended() {
        if (waiters.get() == 0) {
            progress.wake();
            if (awaiting) {
                fabric.wakeup();
            }
        }
    }

    /**
     * The progress thread has nothing to do. A fabric that only moves data while polled
     * ({@link Fabric#pollDriven}) is then waited on inside a round of the engine, so arrivals wake
     * this thread; but only while no caller drives, and briefly otherwise: a waiting caller polls
     * the fabric itself, and the progress thread must not hold the engine it needs.
     */
    @Override
    public void idle(long nanos) {
        if (!fabric.pollDriven()) {
            LockSupport.parkNanos(this, nanos);
            return;
        }
        boolean callersActive = waiters.get() > 0 || System.nanoTime() - lastCallerRound < QUIET_NANOS;
        if (callersActive || !driving.compareAndSet(false, true)) {
            LockSupport.parkNanos(this, DRIVEN_PARK_NANOS);
            return;
        }
        try {
            awaiting = true;
            if (waiters.get() == 0 && !hasWork()) {
                fabric.await(nanos);
            }
        } finally {
            awaiting = false;
            driving.set(false);
        }
    }

    @Override
    public boolean progress() {
        return doWork() > 0;
    }

    /** One round of the state machine, if no other thread is running it (any thread). */
    @Override
    public int doWork() {
        return Math.max(0, tryRound());
    }

    /** @return the work done in one round, or -1 if another thread is driving (or the engine stopped) */
    private int tryRound() {
        boolean mine = Thread.currentThread() == progress.thread();
        if (mine && waiters.get() > 0 && fabric.pollDriven()) {
            return -1; // a waiting caller polls the fabric itself: competing for it would only cost a core
        }
        if (stopped || !driving.compareAndSet(false, true)) {
            return -1;
        }
        if (!mine) {
            lastCallerRound = System.nanoTime();
        }
        int work;
        try {
            work = round();
            pending = core.hasPendingWork();
            if (closing) {
                drained = core.isDrained();
            }
        } finally {
            driving.set(false);
        }
        if (pending && Thread.currentThread() != progress.thread()) {
            wakeIfUnattended(); // work is left: someone must come back for it
        }
        return work;
    }

    private int round() {
        int work = 0;
        Runnable c;
        while ((c = commands.poll()) != null) {
            try {
                c.run();
            } catch (RuntimeException e) {
                LOG.error("rank {}: a command failed", rank(), e);
            }
            work++;
        }
        return work + core.round();
    }

    @Override
    public boolean hasWork() {
        if (fabric.pollDriven() && waiters.get() > 0 && Thread.currentThread() == progress.thread()) {
            return false; // the waiting caller does this work; the progress thread would only spin beside it
        }
        return pending || !commands.isEmpty() || fabric.hasPending();
    }

    @Override
    public boolean finished() {
        return drained;
    }

    /** On the progress thread as it ends: fail whatever is left, free memory, leave the fabric. */
    private void shutDown() {
        while (!driving.compareAndSet(false, true)) {
            Thread.onSpinWait(); // a caller may be finishing a round
        }
        stopped = true;
        core.stop();
        Runnable c;
        while ((c = commands.poll()) != null) {
            try {
                c.run(); // commands that raced with close fail at once now that the core has stopped
            } catch (RuntimeException e) {
                LOG.debug("rank {}: command after close", rank(), e);
            }
        }
        core.dispose();
    }
}
