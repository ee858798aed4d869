package org.jspin.conformance;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Request;
import org.jspin.mpi.Status;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Many outstanding sends, and big messages (contiguous and strided) checked byte for byte. */
class VolumeTest {
    private static final int OUTSTANDING = 10_000;

    /**
     * 10,000 isends to one peer are all outstanding before the peer posts a receive; the peer then
     * receives them in order (wildcard tag, so order is the only thing that decides).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("org.jspin.conformance.Targets#withProtocols")
    void tenThousandOutstandingIsends(Target target, NicConfig nic) {
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                Request[] sends = new Request[OUTSTANDING];
                long[][] data = new long[OUTSTANDING][];
                for (int i = 0; i < OUTSTANDING; i++) {
                    data[i] = new long[] {i, ~(long) i};
                    sends[i] = w.isend(MemorySegment.ofArray(data[i]), 1 + i % 2, Datatype.LONG, 1, i % 7);
                }
                w.barrier(); // the peer posts nothing before this
                Request.waitAll(sends);
                return;
            }
            w.barrier();
            long[] got = new long[2];
            MemorySegment buf = MemorySegment.ofArray(got);
            for (int i = 0; i < OUTSTANDING; i++) {
                got[1] = 0;
                Status s = w.recv(buf, 2, Datatype.LONG, 0, Comm.ANY_TAG);
                assertEquals(i, got[0], "message order");
                assertEquals(i % 7, s.tag());
                assertEquals(8L * (1 + i % 2), s.byteCount());
                if (i % 2 == 1) {
                    assertEquals(~(long) i, got[1]);
                }
            }
            assertEquals(null, w.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG));
        });
    }

    /** The same with the receives all posted first (10,000 posted receives, filled in order). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.jspin.conformance.Targets#targets")
    void tenThousandPostedReceives(Target target) {
        target.run(2, Targets.SMALL, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                w.barrier();
                Request[] sends = new Request[OUTSTANDING];
                for (int i = 0; i < OUTSTANDING; i++) {
                    sends[i] = w.isend(MemorySegment.ofArray(new int[] {i}), 1, Datatype.INT, 1, 3);
                }
                Request.waitAll(sends);
                return;
            }
            int[] got = new int[OUTSTANDING];
            Request[] recvs = new Request[OUTSTANDING];
            MemorySegment all = MemorySegment.ofArray(got);
            for (int i = 0; i < OUTSTANDING; i++) {
                recvs[i] = w.irecv(all.asSlice(4L * i, 4), 1, Datatype.INT, 0, 3);
            }
            w.barrier();
            Request.waitAll(recvs);
            for (int i = 0; i < OUTSTANDING; i++) {
                assertEquals(i, got[i], "receive " + i);
            }
        });
    }

    /** One contiguous message of 256 MiB between off-heap buffers. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.jspin.conformance.Targets#targets")
    void contiguous256MiB(Target target) {
        long bytes = 256L << 20;
        long seed = 0x5EED;
        target.run(2, mpi -> {
            Comm w = mpi.world();
            try (Arena arena = Arena.ofShared()) {
                MemorySegment buf = arena.allocate(bytes, 64);
                if (w.rank() == 0) {
                    Bytes.fillLongs(buf, seed);
                    w.send(buf, bytes, Datatype.BYTE, 1, 1);
                } else {
                    buf.fill((byte) 0);
                    Status s = w.recv(buf, bytes / 8, Datatype.LONG, 0, 1);
                    assertEquals(bytes, s.byteCount());
                    for (long i = 0; i < bytes / 8; i++) {
                        long v = buf.get(JAVA_LONG_UNALIGNED, 8 * i);
                        if (v != Bytes.word(seed, i)) {
                            throw new AssertionError("long " + i + " of the 256 MiB message: expected "
                                    + Bytes.word(seed, i) + ", got " + v);
                        }
                    }
                }
            }
        });
    }

    /**
     * 64 MiB in 64-byte blocks at a 128-byte stride, received into 32-byte blocks at a 48-byte
     * stride: every block where the packed stream puts it, every gap untouched.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("org.jspin.conformance.Targets#withProtocols")
    void strided64MiB(Target target, NicConfig nic) {
        long blocks = 1L << 20; // of 64 bytes: 64 MiB
        Datatype sendType = Datatype.vector(blocks, 64, 128, Datatype.BYTE).commit();
        Datatype recvType = Datatype.vector(2 * blocks, 32, 48, Datatype.BYTE).commit();
        long seed = 0xB10C;
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            try (Arena arena = Arena.ofShared()) {
                MemorySegment sent = arena.allocate(sendType.extent(), 64);
                Bytes.fillLongs(sent, seed);
                if (w.rank() == 0) {
                    w.send(sent, 1, sendType, 1, 2);
                    return;
                }
                MemorySegment buf = arena.allocate(recvType.extent() + 64, 64);
                buf.fill(Bytes.SENTINEL);
                Status s = w.recv(buf, 1, recvType, 0, 2);
                assertEquals(64L << 20, s.byteCount());
                MemorySegment gap = Bytes.sentinels(16);
                for (long j = 0; j < blocks; j++) {
                    for (int half = 0; half < 2; half++) {
                        long from = 128 * j + 32 * half;
                        long to = 96 * j + 48 * half;
                        if (sent.asSlice(from, 32).mismatch(buf.asSlice(to, 32)) >= 0) {
                            throw new AssertionError("64-byte block " + j + " half " + half + ": expected "
                                    + Bytes.around(sent, from) + ", got " + Bytes.around(buf, to));
                        }
                        if (gap.mismatch(buf.asSlice(to + 32, 16)) >= 0) {
                            throw new AssertionError("gap after receive block " + (2 * j + half) + " was written: "
                                    + Bytes.around(buf, to + 32));
                        }
                    }
                }
                Bytes.assertSameBytes(Bytes.sentinels(64), buf.asSlice(recvType.extent(), 64),
                        "bytes after the receive type map");
            }
        });
    }
}
