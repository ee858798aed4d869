package org.jspin.nic.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The loop of a rank's progress thread: do work while there is some; when there is none, spin a
 * little, then yield, then park until {@link #wake} (or a safety timeout). Spinning keeps latency
 * low while messages flow; parking keeps idle ranks off the CPU, which matters on a machine with
 * fewer cores than threads.
 */
final class Progress {
    /** What the loop drives. */
    interface Work {
        /**
         * @return units of work done (0 when idle), or -1 when another thread is doing this work
         *         now (the loop then parks at once rather than spinning beside it)
         */
        int doWork();

        /** @return whether work is waiting (checked after announcing the park, so no wake-up is lost) */
        boolean hasWork();

        /** @return whether the loop should end */
        boolean finished();

        /**
         * @return whether the loop parks as soon as another thread is doing the work ({@link #doWork}
         *         -1), even with work left, rather than only when there is none: where spinning
         *         beside that thread would take its CPU
         */
        default boolean parksBesideDriver() {
            return false;
        }

        /**
         * @return whether the loop spins and yields a while before it idles (to catch work that
         *         comes soon), rather than idling as soon as a round finds nothing it may do
         */
        default boolean spinsWhenIdle() {
            return true;
        }

        /** Waits, with nothing to do, at most {@code nanos}, until {@link Progress#wake} or new work. */
        default void idle(long nanos) {
            LockSupport.parkNanos(this, nanos);
        }
    }

    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Thread thread;
    /** Idle rounds spun before yielding, then yielded before parking ({@link ProgressSettings}). */
    private final int spinRounds;
    private final int yieldRounds;
    private volatile boolean parked;

    Progress(String name, Work work, Runnable exit, ProgressSettings settings) {
        this.spinRounds = settings.spins();
        this.yieldRounds = settings.yields();
        this.thread = Thread.ofPlatform().name(name).daemon(true).unstarted(() -> {
            try {
                loop(work);
            } finally {
                exit.run();
            }
        });
    }

    void start() {
        thread.start();
    }

    Thread thread() {
        return thread;
    }

    /** Makes a parked loop look for work; cheap when it is not parked. Any thread. */
    void wake() {
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    void join(long millis) throws InterruptedException {
        thread.join(millis);
    }

    // Not Agrona's BackoffIdleStrategy: its park can neither announce itself (parked) and look for
    // work again before it waits, nor hand the wait to Work.idle, and it adds a round without a
    // spin or a yield at the start of each phase
    private void loop(Work work) {
        boolean spins = work.spinsWhenIdle();
        int idle = 0;
        while (!work.finished()) {
            int done = work.doWork();
            if (done > 0) {
                idle = 0;
            } else if (done == 0 && idle < spinRounds && spins) {
                idle++;
                Thread.onSpinWait();
            } else if (done == 0 && idle < spinRounds + yieldRounds && spins) {
                idle++;
                Thread.yield();
            } else {
                parked = true;
                // where another thread doing the work (done < 0) should have the CPU, this one parks
                // whatever is left: that thread does it, or wakes this one when it stops with work left
                if (!work.finished() && (!spins || (done < 0 && work.parksBesideDriver()) || !work.hasWork())) {
                    work.idle(PARK_NANOS);
                }
                parked = false;
            }
        }
    }
}
