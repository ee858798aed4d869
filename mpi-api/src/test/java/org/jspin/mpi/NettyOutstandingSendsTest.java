package org.jspin.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.PooledByteBufAllocator;

import org.jspin.datatype.Datatype;
import org.junit.jupiter.api.Test;

/**
 * Over the Netty fabric, 10,000 outstanding isends to a rank that has not posted its receives yet
 * hold bounded memory: rendezvous keeps the payloads in the sender's buffers, and what the
 * fabric buffers (Netty's pooled direct memory, both ranks) stays far below the 640 MiB sent.
 */
class NettyOutstandingSendsTest {
    private static final int SENDS = 10_000;
    private static final int BYTES = 64 << 10;
    private static final long BOUND = 64L << 20;

    @Test
    void tenThousandOutstandingSendsHoldBoundedMemory() {
        CountDownLatch issued = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        AtomicLong peak = new AtomicLong();
        MpiOptions options = MpiOptions.defaults().withFabric("netty");
        LocalRanks.run(2, options, 120, mpi -> {
            Comm w = mpi.world();
            try (Arena arena = Arena.ofShared()) {
                MemorySegment buf = arena.allocate(BYTES);
                if (w.rank() == 0) {
                    Request[] sends = new Request[SENDS];
                    buf.fill((byte) 7);
                    for (int i = 0; i < SENDS; i++) {
                        sends[i] = w.isend(buf, BYTES, Datatype.BYTE, 1, 5);
                    }
                    issued.countDown();
                    // while nothing is received, watch what the fabric holds
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                    while (System.nanoTime() < until) {
                        peak.accumulateAndGet(PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory(), Math::max);
                        Thread.sleep(20);
                    }
                    measured.countDown();
                    Request.waitAll(sends);
                } else {
                    issued.await();
                    measured.await();
                    for (int i = 0; i < SENDS; i++) {
                        buf.fill((byte) 0);
                        Status s = w.recv(buf, BYTES, Datatype.BYTE, 0, 5);
                        assertEquals(BYTES, s.count(Datatype.BYTE));
                        assertEquals(7, buf.get(ValueLayout.JAVA_BYTE, BYTES - 1), "message " + i);
                    }
                }
            }
        });
        assertTrue(peak.get() > 0, "the fabric's allocator (Netty's pooled one) showed no use at all: wrong allocator?");
        assertTrue(peak.get() < BOUND, "Netty held " + peak.get() + " bytes of direct memory for "
                + (long) SENDS * BYTES + " bytes outstanding (bound " + BOUND + ")");
    }
}
