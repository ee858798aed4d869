package org.jspin.nic.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Fabric;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which thread runs a rank's {@link ProtocolCore}: the rank's progress thread, or a caller
 * waiting on a request ({@link #doWork} from {@code Nic.progress()}), whichever holds the
 * {@code driving} flag. One at a time, so the core has a single owner at any moment and needs no
 * locks, and the flag's acquire/release hands its state over safely. A waiting caller driving the
 * core itself saves the hand-offs to and from the progress thread that otherwise dominate
 * small-message latency.
 *
 * <p>Callers on any thread hand work over as commands (closures over the core) through a
 * many-to-one queue; each round runs the commands, then one {@link ProtocolCore#round}. Everything
 * here is about threads: who may drive now, when to wake or park the progress thread, when it may
 * block in a poll-driven fabric, and how the rank ends.
 */
final class CoreDriver<S, R> implements Progress.Work {
    private static final Logger LOG = LoggerFactory.getLogger(CoreDriver.class);
    /**
     * How recently a caller must have run a round on a poll-driven fabric for the progress thread
     * to leave the next one to it. A caller between two blocking calls (a send, then a receive)
     * comes back within microseconds; a progress thread woken in that gap and polling the sockets
     * beside it took a core from the peer's process (docs/PERFORMANCE.md, "CoreDriver").
     */
    private static final long CALLER_GRACE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    /** {@link #tryRound}: the progress thread left the round to a caller. */
    private static final int DEFERRED = -2;

    private final ProtocolCore<S, R> core;
    private final Fabric fabric;
    private final Progress progress;
    private final ManyToOneConcurrentLinkedQueue<Runnable> commands = new ManyToOneConcurrentLinkedQueue<>();
    /** How this rank waits and its progress thread runs (read once, as the NIC starts). */
    private final ProgressSettings settings;
    /** How long a waiting caller spins before it blocks: nothing where the host's ranks outnumber its CPUs. */
    private final long spinNanos;
    /** The rank has one CPU: a progress thread spinning beside a driving caller would take it from the caller. */
    private final boolean oneCpu;

    /** Set while a thread runs the core. */
    private final AtomicBoolean driving = new AtomicBoolean();
    /** Callers spinning on their requests, driving the core between {@link #beginWait} and {@link #endWait}. */
    private final AtomicInteger waiters = new AtomicInteger();
    /** A thread blocks in {@link Fabric#await} (a poll-driven fabric) holding the core. */
    private volatile boolean awaiting;
    /** A caller blocked in {@link #block} on a fabric that is not poll-driven: arrivals unpark it. */
    private volatile Thread blockedCaller;
    /*
     * The two fields a round writes are written only when that matters: a volatile write on every
     * round costs a fence and takes this object's cache line away from the progress thread, which
     * reads the fields beside them on every spin (docs/PERFORMANCE.md, "CoreDriver").
     */
    /** When a caller (not the progress thread) last ran a round on a poll-driven fabric; 0 once the last one parked. */
    private volatile long lastCallerRound;
    /** Work left that no arrival will announce (backlog, queued sends, CTSs due): poll again soon. */
    private volatile boolean pending;
    /** Closing, and nothing is left to drain: the progress loop may end. */
    private volatile boolean drained;
    private volatile boolean closing;
    private volatile boolean stopped;

    /**
     * @param core     the core to drive
     * @param fabric   the core's fabric endpoint (for its wake-ups and, if poll-driven, its blocking wait)
     * @param oneCpu whether the rank has one CPU (bound to a core): its progress thread then parks,
     *               rather than spins, while a caller drives a poll-driven fabric
     * @param settings how the rank waits and its progress thread runs
     */
    CoreDriver(ProtocolCore<S, R> core, Fabric fabric, boolean oneCpu, ProgressSettings settings) {
        this.core = core;
        this.fabric = fabric;
        this.oneCpu = oneCpu;
        this.settings = settings;
        this.spinNanos = fabric.ranksOnHost() > HostCpus.count() ? 0 : settings.waitSpinNanos();
        this.progress = new Progress("jspin-progress-" + fabric.rank(), this, this::shutDown, settings);
    }

    /** Starts the progress thread. */
    void start() {
        fabric.onActivity(this::wakeIfUnattended);
        progress.start();
    }

    /** @return the progress thread (whatever the core reads, a user's buffer say, must be reachable from it) */
    Thread thread() {
        return progress.thread();
    }

    /**
     * Hands {@code command} to whichever thread drives next.
     *
     * @throws MpiException ERR_OTHER if the rank has stopped
     */
    void submit(Runnable command) {
        if (stopped) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + fabric.rank() + "'s NIC is closed");
        }
        commands.offer(command);
        if (awaiting) {
            fabric.wakeup(); // a thread blocked in the fabric holds the core: let it run the command
        }
        // on a poll-driven fabric the caller runs the command itself when the core is free: the
        // bytes leave from this thread, and the progress thread is not woken for every send
        if (fabric.pollDriven() && Thread.currentThread() != progress.thread() && tryRound() >= 0) {
            return;
        }
        wakeIfUnattended();
    }

    /**
     * Lets the core drain the sends it accepted, then stops it, failing what is left, and waits
     * for the progress thread to end (a little longer than the core's drain deadline).
     */
    void close() {
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

    // ---- callers waiting on requests ----------------------------------------------------------

    /** A caller starts spinning on its requests, driving the core (see {@code Nic.beginWait}). */
    void beginWait() {
        waiters.incrementAndGet();
        if (awaiting) {
            fabric.wakeup(); // the progress thread holds the core while it blocks in the fabric: let go
        }
    }

    /** The waiting caller parks: nobody polls the fabric now (see {@code Nic.parking}). */
    void parking() {
        lastCallerRound = 0; // nobody polls now: the progress thread may block in the fabric at once
        progress.wake();
    }

    /**
     * A waiting caller with nothing to do gives its CPU back (see {@code Nic.block}): on a
     * poll-driven fabric it blocks in the fabric holding the core, so that an arrival wakes this
     * very thread, which then handles it (no hand-off to the progress thread); elsewhere it parks
     * until an arrival, a command or its request's completion unparks it.
     */
    void block(long nanos) {
        if (fabric.pollDriven()) {
            if (!driving.compareAndSet(false, true)) {
                Thread.yield(); // another thread is in a round: it is brief
                return;
            }
            try {
                awaiting = true;
                if (commands.isEmpty() && !fabric.hasPending() && !stopped) {
                    fabric.await(nanos);
                }
            } finally {
                awaiting = false;
                driving.set(false);
            }
            return;
        }
        blockedCaller = Thread.currentThread();
        try {
            if (!hasWork() && !stopped) {
                LockSupport.parkNanos(this, nanos);
            }
        } finally {
            blockedCaller = null;
        }
    }

    /** @return how long a waiting caller spins before it blocks (see {@code Nic.spinNanos}) */
    long spinNanos() {
        return spinNanos;
    }

    /** The caller stops spinning (see {@code Nic.endWait}). */
    void endWait() {
        waiters.decrementAndGet();
        if (fabric.pollDriven() && hasWork()) {
            // what a completion leaves behind is usually small (the release of the packet that
            // completed it, a CTS due): this thread does it in one more round rather than waking
            // the progress thread, which would take a core from a spinning rank for it
            // (docs/PERFORMANCE.md, "CoreDriver")
            tryRound();
        }
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
        Thread blocked = blockedCaller;
        if (blocked != null) {
            LockSupport.unpark(blocked); // a blocked caller runs the round itself
        }
        if (waiters.get() == 0) {
            progress.wake();
            if (awaiting) {
                fabric.wakeup();
            }
        }
    }

    // ---- the progress loop's work -------------------------------------------------------------

    /**
     * The progress thread has nothing to do. A fabric that only moves data while polled
     * ({@link Fabric#pollDriven}) is then waited on inside a round of the core, so arrivals wake
     * this thread; but only while no caller drives, and briefly otherwise: a waiting caller polls
     * the fabric itself, and the progress thread must not hold the core it needs.
     */
    @Override
    public void idle(long nanos) {
        if (fabric.progressInCalls()) {
            // arrivals wake the callers blocked in the fabric, not this thread: it looks now and
            // then, for a rank that computes while a peer waits for its answer
            LockSupport.parkNanos(this, settings.idlePollNanos());
            return;
        }
        if (!fabric.pollDriven()) {
            LockSupport.parkNanos(this, nanos);
            return;
        }
        long sinceCaller = System.nanoTime() - lastCallerRound;
        boolean callersActive = waiters.get() > 0 || sinceCaller < settings.quietNanos();
        if (callersActive || !driving.compareAndSet(false, true)) {
            // as long as a caller waits (parking() and endWait() wake this thread when it must take
            // over), else until the callers' quiet period could have passed: every wake-up takes a
            // core from a spinning rank for a few microseconds (docs/PERFORMANCE.md, "CoreDriver")
            LockSupport.parkNanos(this, waiters.get() > 0 ? settings.waitedParkNanos()
                    : Math.max(settings.drivenParkNanos(), settings.quietNanos() - sinceCaller));
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

    /**
     * One round of the core, if no other thread is running it (any thread); -1 when a caller drives
     * it, so that the progress thread parks rather than spinning on a core the callers' peers need.
     */
    @Override
    public int doWork() {
        int work = tryRound();
        return work == DEFERRED ? -1 : Math.max(0, work);
    }

    /**
     * @return the work done in one round, -1 if another thread is driving (or the rank stopped), or
     *         {@link #DEFERRED} if this is the progress thread and a caller drives a poll-driven fabric
     */
    private int tryRound() {
        boolean mine = Thread.currentThread() == progress.thread();
        if (mine && fabric.pollDriven()
                && (waiters.get() > 0 || System.nanoTime() - lastCallerRound < CALLER_GRACE_NANOS)) {
            return DEFERRED; // a caller polls the fabric itself: competing for it would only cost a core
        }
        if (stopped || !driving.compareAndSet(false, true)) {
            // a caller is in a round (a long write, say): with one CPU, the progress thread of a
            // poll-driven fabric leaves it the fabric rather than spinning beside it, on the CPU the
            // caller needs; with two CPUs parking was slower, so there it still spins
            // (docs/PERFORMANCE.md, "CoreDriver")
            return mine && oneCpu && fabric.pollDriven() && !stopped ? DEFERRED : -1;
        }
        if (!mine && fabric.pollDriven() && !fabric.progressInCalls()) {
            lastCallerRound = System.nanoTime(); // only the idling of a poll-driven fabric reads it
        }
        int work;
        try {
            work = round();
            boolean left = core.hasPendingWork();
            if (left != pending) {
                pending = left;
            }
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
                LOG.error("rank {}: a command failed", fabric.rank(), e);
            }
            work++;
        }
        return work + core.round();
    }

    /** Where progress happens in the callers' calls, the progress thread only looks now and then. */
    @Override
    public boolean spinsWhenIdle() {
        return !fabric.progressInCalls();
    }

    @Override
    public boolean parksBesideDriver() {
        return oneCpu && fabric.pollDriven();
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
                LOG.debug("rank {}: command after close", fabric.rank(), e);
            }
        }
        core.dispose();
    }
}
