package org.jspin.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jspin.datatype.Datatype;
import org.junit.jupiter.api.Test;

/**
 * Over the Netty fabric, contiguous messages around the size whose data phase goes as one packet
 * (1 MiB after the RTS's 64 KiB) arrive intact, whether the receive lands them in place
 * (contiguous) or unpacks them (a vector of the same bytes), and a packed vector send still goes
 * in chunks into a contiguous receive.
 */
class NettyWholeDataTest {
    /** Around the boundary: data phases of 1 byte, just under, at and just over 1 MiB, and 3 MiB. */
    private static final int[] SIZES = {(64 << 10) + 1, (1 << 20), (1 << 20) + (64 << 10) - 1,
            (1 << 20) + (64 << 10), (1 << 20) + (64 << 10) + 1, 3 << 20};

    @Test
    void contiguousMessagesAroundOnePacketArriveIntactLandedOrUnpacked() {
        LocalRanks.run(2, MpiOptions.defaults().withFabric("netty"), 120, mpi -> {
            Comm w = mpi.world();
            try (Arena arena = Arena.ofShared()) {
                int max = SIZES[SIZES.length - 1];
                MemorySegment dense = arena.allocate(max);
                MemorySegment sparse = arena.allocate(2L * max); // 8-byte blocks at a 16-byte stride
                for (int i = 0; i < SIZES.length; i++) {
                    int n = SIZES[i] & ~7; // whole 8-byte blocks for the vector
                    Datatype blocks = Datatype.vector(n / 8, 8, 16, Datatype.BYTE).commit();
                    if (w.rank() == 0) {
                        fill(dense, n, i);
                        w.send(dense, n, Datatype.BYTE, 1, 1);     // into a contiguous receive: lands
                        w.send(dense, n, Datatype.BYTE, 1, 2);     // into a vector: unpacked
                        spread(dense, sparse, n);
                        w.send(sparse, 1, blocks, 1, 3);           // packed, in chunks, into a contiguous receive
                    } else {
                        dense.fill((byte) 0);
                        assertEquals(n, w.recv(dense, n, Datatype.BYTE, 0, 1).count(Datatype.BYTE));
                        check(dense, n, i, "landed");
                        sparse.fill((byte) 0);
                        assertEquals(1, w.recv(sparse, 1, blocks, 0, 2).count(blocks));
                        MemorySegment gathered = arena.allocate(n);
                        gather(sparse, gathered, n);
                        check(gathered, n, i, "unpacked");
                        dense.fill((byte) 0);
                        assertEquals(n, w.recv(dense, n, Datatype.BYTE, 0, 3).count(Datatype.BYTE));
                        check(dense, n, i, "from a vector");
                    }
                }
            }
        });
    }

    private static void fill(MemorySegment s, int n, int seed) {
        for (int i = 0; i < n; i += 8) {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, i, seed * 0x9E3779B97F4A7C15L + i);
        }
    }

    private static void check(MemorySegment s, int n, int seed, String how) {
        for (int i = 0; i < n; i += 8) {
            long want = seed * 0x9E3779B97F4A7C15L + i;
            long got = s.get(ValueLayout.JAVA_LONG_UNALIGNED, i);
            if (got != want) {
                throw new AssertionError(how + ", message " + seed + " (" + n + " bytes): byte " + i + " is " + got
                        + ", expected " + want);
            }
        }
    }

    private static void spread(MemorySegment from, MemorySegment to, int n) {
        for (int i = 0; i < n; i += 8) {
            to.set(ValueLayout.JAVA_LONG_UNALIGNED, 2L * i, from.get(ValueLayout.JAVA_LONG_UNALIGNED, i));
        }
    }

    private static void gather(MemorySegment from, MemorySegment to, int n) {
        for (int i = 0; i < n; i += 8) {
            to.set(ValueLayout.JAVA_LONG_UNALIGNED, i, from.get(ValueLayout.JAVA_LONG_UNALIGNED, 2L * i));
        }
    }
}
