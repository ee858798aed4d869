package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.jspin.nic.NicConfig;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * While a caller is in a long round on a poll-driven fabric (a large write over TCP), the progress
 * thread of a rank with one CPU parks rather than spinning beside it: every spin would be taken
 * from the caller.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProgressBesideACallerTest {
    private static final long ROUND_MILLIS = 300;

    /** A poll-driven fabric whose next poll by a caller takes {@value #ROUND_MILLIS} ms, and that always has work pending. */
    private static final class SlowPollFabric implements Fabric {
        final AtomicBoolean slowNext = new AtomicBoolean();
        final AtomicBoolean inSlowPoll = new AtomicBoolean();
        final AtomicInteger progressLooksDuringSlowPoll = new AtomicInteger();

        @Override
        public int rank() {
            return 0;
        }

        @Override
        public int size() {
            return 1;
        }

        @Override
        public int maxPayload() {
            return 1 << 20;
        }

        @Override
        public boolean send(Packet packet) {
            return true;
        }

        @Override
        public int poll(PacketHandler handler, int limit) {
            if (!progressThread() && slowNext.compareAndSet(true, false)) {
                inSlowPoll.set(true);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ROUND_MILLIS));
                inSlowPoll.set(false);
            }
            return 0;
        }

        @Override
        public void release(Packet packet) {
        }

        /** Work is always pending: the case in which the progress thread used to spin without parking. */
        @Override
        public boolean hasPending() {
            if (progressThread() && inSlowPoll.get()) {
                progressLooksDuringSlowPoll.incrementAndGet();
            }
            return true;
        }

        @Override
        public void onActivity(Runnable wakeup) {
        }

        @Override
        public boolean pollDriven() {
            return true;
        }

        @Override
        public void await(long nanos) {
            LockSupport.parkNanos(nanos);
        }

        @Override
        public void close() {
        }

        private static boolean progressThread() {
            return Thread.currentThread().getName().startsWith("jspin-progress-");
        }
    }

    @Test
    void withOneCpuTheProgressThreadParksWhileACallerIsInALongRound() {
        SlowPollFabric fabric = new SlowPollFabric();
        ProtocolEngine<String, String> engine = new ProtocolEngine<>("test", fabric,
                new RecordingDataPath(NicConfig.DEFAULT.over(fabric).chunkSize()), NicConfig.DEFAULT,
                new Meters(new SimpleMeterRegistry(), "test", 0), true);
        try {
            fabric.slowNext.set(true);
            long t0 = System.nanoTime();
            while (fabric.slowNext.get() && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10)) {
                engine.progress(); // a caller's round; the slow one once the driving flag is ours
            }
            assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(ROUND_MILLIS), "the slow round ran");
            // parked, it looks at most once per wake-up (>= 1 ms apart); spinning, it looked
            // hundreds of thousands of times
            int looks = fabric.progressLooksDuringSlowPoll.get();
            assertTrue(looks < ROUND_MILLIS, "the progress thread looked for work " + looks + " times in "
                    + ROUND_MILLIS + " ms while the caller drove");
        } finally {
            engine.close();
        }
    }
}
