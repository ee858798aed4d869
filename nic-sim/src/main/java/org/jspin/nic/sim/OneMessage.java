package org.jspin.nic.sim;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.datatype.lower.Node;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.SimNic;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;

/**
 * One message of a type through a sender's and a receiver's simulated NIC in one process, without
 * the protocol engine: the sender's outbound handlers gather each chunk of the fabric into a packet
 * buffer, the receiver's payload handlers scatter it. What {@code jspin sim} runs, and what the
 * strategy tests check against the host path.
 *
 * <p>The send buffer holds random bytes, the receive buffer a different random background; with
 * {@code verify} the receive buffer is compared, whole (bytes outside the type map included), with
 * the host path's result: the same background with the message packed by the sender's cursor and
 * unpacked by the receiver's.
 */
public final class OneMessage {
    /** The fabric's chunk, as the engine's default rendezvous chunk. */
    public static final int DEFAULT_CHUNK = 256 << 10;

    /**
     * What happened.
     *
     * @param send      the sender NIC's work
     * @param receive   the receiver NIC's work
     * @param verified  whether the receive buffer was compared with the host path's
     * @param mismatch  the first byte where it differs, or -1 (also -1 when not verified)
     * @param bufferBytes the receive buffer's size (the type map's span)
     */
    public record Result(MessageWork send, MessageWork receive, boolean verified, long mismatch, long bufferBytes) {
        /** @return whether the buffers were compared and are identical */
        public boolean identical() {
            return verified && mismatch < 0;
        }
    }

    private OneMessage() {
    }

    /**
     * Sends {@code count} elements of {@code type} through two NICs of {@code config}.
     *
     * @param chunk    bytes the fabric carries per chunk
     * @param listener told of the receiver NIC's handlers and messages (the sender's are not reported)
     * @param verify   whether to compare the result with the host path's
     * @throws MpiException ERR_TYPE for an uncommitted type; ERR_ARG when the configured strategy (not
     *                      {@code auto}) does not apply, with a message containing "not applicable";
     *                      ERR_OTHER when the configured link loses a packet more often than it retransmits
     */
    public static Result run(Datatype type, long count, SimConfig config, int chunk, WorkListener listener,
                             boolean verify) {
        return run(new SimNic(config, WorkListener.NONE), new SimNic(config, listener), type, count, chunk, verify);
    }

    /**
     * Sends {@code count} elements of {@code type} from {@code sender} to {@code receiver}: NICs that
     * may have handled messages before (checkpoints made then are reused now).
     *
     * @see #run(Datatype, long, SimConfig, int, WorkListener, boolean)
     */
    public static Result run(SimNic sender, SimNic receiver, Datatype type, long count, int chunk, boolean verify) {
        try (Scratch scratch = new Scratch()) {
            return run(sender, receiver, type, count, chunk, verify, scratch);
        }
    }

    /**
     * Buffers a series of runs shares, grown as needed: the sweeps run thousands of messages, and
     * allocating and filling the buffers of each would cost more than simulating it. Without
     * {@code verify} the bytes in them do not matter (the NIC moves whatever is there).
     */
    public static final class Scratch implements AutoCloseable {
        private final Arena arena = Arena.ofShared();
        private MemorySegment send = MemorySegment.NULL;
        private MemorySegment recv = MemorySegment.NULL;
        private MemorySegment packet = MemorySegment.NULL;

        private MemorySegment grow(MemorySegment s, long bytes, long seed) {
            if (s.byteSize() >= bytes) {
                return s;
            }
            MemorySegment n = arena.allocate(Math.max(bytes, 2 * s.byteSize()), 64);
            fill(n, seed);
            return n;
        }

        @Override
        public void close() {
            arena.close();
        }
    }

    /**
     * As {@link #run(SimNic, SimNic, Datatype, long, int, boolean)}, in {@code scratch}'s buffers when
     * not verifying.
     */
    public static Result run(SimNic sender, SimNic receiver, Datatype type, long count, int chunk, boolean verify,
                             Scratch scratch) {
        SimConfig config = receiver.config();
        if (!type.isCommitted()) {
            throw new MpiException(ErrorClass.ERR_TYPE, "the type must be committed");
        }
        if (chunk < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "chunk must be positive, got " + chunk);
        }
        Node message = type.compiled().message(count);
        long origin = message == null ? 0 : Math.max(0, -message.minOffset());
        long span = message == null ? 0 : origin + message.maxOffset();
        long total = type.packSize(count);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sendBuf;
            MemorySegment recvBuf;
            MemorySegment packet;
            if (verify) {
                sendBuf = arena.allocate(Math.max(1, span), 64);
                recvBuf = arena.allocate(Math.max(1, span), 64);
                fill(sendBuf, 0x5EED_5E4DL);
                fill(recvBuf, 0xBAC6_6D0DL);
                packet = arena.allocate(Math.max(1, Math.min(chunk, total)), 64);
            } else {
                scratch.send = scratch.grow(scratch.send, Math.max(1, span), 0x5EED_5E4DL);
                scratch.recv = scratch.grow(scratch.recv, Math.max(1, span), 0xBAC6_6D0DL);
                scratch.packet = scratch.grow(scratch.packet, Math.max(1, Math.min(chunk, total)), 1);
                sendBuf = scratch.send.asSlice(0, Math.max(1, span));
                recvBuf = scratch.recv.asSlice(0, Math.max(1, span));
                packet = scratch.packet;
            }
            MemorySegment hostBuf = verify ? arena.allocate(Math.max(1, span), 64).copyFrom(recvBuf) : null;

            TypeCursor sendCursor = type.cursor(count, sendBuf, origin);
            TypeCursor recvCursor = type.cursor(count, recvBuf, origin);
            SimNic.Message out = sender.send(type, count, sendBuf, sendCursor);
            SimNic.Message in = receiver.receive(type, count, recvBuf, recvCursor, total, false);
            if (!config.strategy().equals("auto") && in.work().fallback != null
                    && in.work().fallback.contains("not applicable")) {
                throw new MpiException(ErrorClass.ERR_ARG, in.work().fallback + " (" + type + ", count " + count + ")");
            }
            try {
                for (long off = 0; off < total; off += chunk) {
                    long len = Math.min(chunk, total - off);
                    out.chunk(off, len, packet, 0);
                    in.chunk(off, len, packet, 0);
                }
            } catch (RuntimeException e) {
                out.abandon(); // a lost packet: both NICs give their memory back, as the engine has them do
                in.abandon();
                throw e;
            }
            out.complete();
            in.complete();

            long mismatch = -1;
            if (verify) {
                MemorySegment packed = arena.allocate(Math.max(1, total), 64);
                type.cursor(count, sendBuf, origin).pack(packed, 0, total);
                type.cursor(count, hostBuf, origin).unpack(packed, 0, total);
                mismatch = recvBuf.mismatch(hostBuf);
            }
            return new Result(out.work(), in.work(), verify, mismatch, span);
        }
    }

    private static void fill(MemorySegment s, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long n = s.byteSize();
        long i = 0;
        for (; i + 8 <= n; i += 8) {
            s.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i, r.nextLong());
        }
        for (; i < n; i++) {
            s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
        }
    }
}
