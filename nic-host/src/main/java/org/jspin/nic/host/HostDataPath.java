package org.jspin.nic.host;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.datatype.kernel.BulkCopy;
import org.jspin.nic.NicConfig;
import org.jspin.nic.engine.DataPath;
import org.jspin.nic.engine.Meters;
import org.jspin.nic.engine.RecvOp;
import org.jspin.nic.engine.SendOp;
import org.jspin.nic.engine.Tally;
import org.jspin.nic.events.PackEvent;
import org.jspin.nic.events.UnpackEvent;
import org.jspin.nic.fabric.Packet;

/**
 * The CPU data path, as MPI libraries have it. Send: a contiguous message goes out as windows on
 * the user's buffer (no copy); any other is packed chunk by chunk into the packets' staging
 * buffers, the next chunk packed while earlier ones are in flight. Receive: a contiguous receive
 * takes each payload straight into the user's buffer; any other is unpacked by the CPU with the
 * cursor, each chunk as it arrives (streaming) or, with streaming off, once the whole message has
 * landed in a staging buffer. A fabric that reads from a socket may land a contiguous receive's
 * chunks straight in its buffer ({@link #landing}): the kernel's copy is then the only one. A
 * payload copied whole (into a contiguous receive, or into staging) goes through {@link BulkCopy},
 * which on the in-JVM fabric, where it is the sending rank's memory, copies it two to three times
 * as fast as {@code MemorySegment.copy} when the two CPUs are far apart.
 *
 * <p>Besides bytes packed and unpacked it counts the time the CPU spent packing and unpacking them
 * (wall-clock nanoseconds of the kernels' calls, one pair of clock reads per packet), which gives
 * the rate the kernels reach in place, with the cache contents a real exchange leaves them, rather
 * than in a benchmark's loop; and it estimates main-memory traffic as a real host NIC would cause
 * it: the NIC reads every sent byte and writes every received one (DMA), the CPU reads and writes
 * every byte it packs or unpacks. Each pack and unpack is also a flight-recorder event
 * ({@link PackEvent}, {@link UnpackEvent}) when a recording enables them.
 */
final class HostDataPath implements DataPath<Void, HostDataPath.Staged> {
    private final int rank;
    private final int chunkSize;
    private final boolean streaming;
    private final Arena arena = Arena.ofShared();
    /**
     * Whether a chunk may be packed into {@link #aside}, then copied into the packet's staging:
     * where the receiving CPU reads a packet in place (the in-JVM fabric), the staging buffer's
     * lines are in its cache when the next chunk is packed into them, and the kernels' stores then
     * wait on that CPU for each line. Packing into memory no other CPU touches and copying with
     * {@link BulkCopy} (whose stores do not wait so) won with the CPUs far apart and lost with them
     * near (docs/PERFORMANCE.md). So each chunk goes the way measured faster so far
     * ({@link #packRoute}).
     */
    private final boolean packAside;
    /** The chunk-sized buffer packed into when a chunk goes {@link #ASIDE}; allocated on first use. */
    private MemorySegment aside;
    /** Chooses, chunk by chunk, between packing {@link #DIRECT}ly and {@link #ASIDE}. */
    private final FasterOfTwo packRoute = new FasterOfTwo();
    private static final int DIRECT = 0;
    private static final int ASIDE = 1;

    private final Tally packed;
    private final Tally unpacked;
    private final Tally packTime;
    private final Tally unpackTime;
    private final Tally cpuRead;
    private final Tally cpuWritten;
    private final Tally nicRead;
    private final Tally nicWritten;
    private final Tally stagingInUse;
    private final Tally stagingAllocated;

    /**
     * @param packAside whether to pack a chunk aside and copy it into its packet ({@link #fill}):
     *                  where the receiving rank's CPU reads the packet in place
     */
    HostDataPath(NicConfig config, Meters meters, int rank, boolean packAside) {
        this.rank = rank;
        this.packAside = packAside;
        this.chunkSize = config.chunkSize();
        this.streaming = config.streamingUnpack();
        this.packed = meters.counter("jspin.cpu.bytes.packed", "bytes");
        this.unpacked = meters.counter("jspin.cpu.bytes.unpacked", "bytes");
        this.packTime = meters.counter("jspin.cpu.pack.time", "ns");
        this.unpackTime = meters.counter("jspin.cpu.unpack.time", "ns");
        this.cpuRead = meters.counter("jspin.memory.cpu.read", "bytes");
        this.cpuWritten = meters.counter("jspin.memory.cpu.written", "bytes");
        this.nicRead = meters.counter("jspin.memory.nic.read", "bytes");
        this.nicWritten = meters.counter("jspin.memory.nic.written", "bytes");
        this.stagingInUse = meters.gauge("jspin.staging.buffers.in.use");
        this.stagingAllocated = meters.gauge("jspin.staging.buffers.allocated");
    }

    @Override
    public void fill(SendOp<Void> send, long offset, int length, Packet packet) {
        packet.payloadLength = length;
        nicRead.add(length);
        long dense = send.denseOffset();
        if (dense >= 0) {
            packet.payload = send.put().buffer();
            packet.payloadOffset = dense + offset;
            return;
        }
        MemorySegment staging = packet.staging();
        if (staging == null) {
            staging = arena.allocate(chunkSize, 64);
            packet.staging(staging);
            stagingAllocated.add(1);
        }
        TypeCursor cursor = send.put().cursor();
        if (cursor.position() != offset) {
            cursor.seek(offset);
        }
        PackEvent event = new PackEvent();
        event.begin();
        long start = System.nanoTime();
        // shorter chunks BulkCopy would copy as MemorySegment.copy does, which gains nothing
        int way = packAside && length >= BulkCopy.MIN_BYTES ? packRoute.choose() : DIRECT;
        if (way == ASIDE) {
            if (aside == null) {
                aside = arena.allocate(chunkSize, 64);
            }
            cursor.pack(aside, 0, length);
            BulkCopy.copy(aside, 0, staging, 0, length);
        } else {
            cursor.pack(staging, 0, length);
        }
        long took = System.nanoTime() - start;
        packTime.add(took);
        if (packAside) {
            packRoute.record(way, took, length);
        }
        event.commit(rank, offset, length, start);
        packet.payload = staging;
        packet.payloadOffset = 0;
        stagingInUse.add(1);
        packed.add(length);
        cpuRead.add(length);
        cpuWritten.add(length);
    }

    /** Packs straight into the fabric's memory: the receiver reads it there, so nothing is packed aside. */
    @Override
    public boolean fillLent(SendOp<Void> send, long offset, int length, Packet packet) {
        TypeCursor cursor = send.put().cursor();
        if (cursor.position() != offset) {
            cursor.seek(offset);
        }
        PackEvent event = new PackEvent();
        event.begin();
        long start = System.nanoTime();
        cursor.pack(packet.payload, packet.payloadOffset, length);
        long took = System.nanoTime() - start;
        packTime.add(took);
        event.commit(rank, offset, length, start);
        nicRead.add(length);
        packed.add(length);
        cpuRead.add(length);
        cpuWritten.add(length);
        return true;
    }

    /** A contiguous send's packets are windows on its buffer. */
    @Override
    public boolean sendsInPlace(SendOp<Void> send) {
        return send.denseOffset() >= 0;
    }

    /**
     * A packed send's first DATA chunk is packed while the CTS is on its way: the CPU would
     * otherwise wait out that round trip and then pack before its first write.
     */
    @Override
    public boolean packsAhead(SendOp<Void> send) {
        return send.denseOffset() < 0;
    }

    @Override
    public void released(Packet packet) {
        if (packet.payload != null && packet.payload == packet.staging()) {
            stagingInUse.add(-1);
        }
    }

    @Override
    public MemorySegment landing(RecvOp<Staged> recv, long offset, int length) {
        long dense = recv.denseOffset();
        MemorySegment buffer = recv.entry().buffer();
        if (dense < 0 || !buffer.isNative()) {
            return null;
        }
        nicWritten.add(length);
        return buffer.asSlice(dense + offset, length);
    }

    @Override
    public void deliver(RecvOp<Staged> recv, long offset, MemorySegment src, long srcOffset, long length) {
        nicWritten.add(length);
        long dense = recv.denseOffset();
        if (dense >= 0) {
            BulkCopy.copy(src, srcOffset, recv.entry().buffer(), dense + offset, length);
            return;
        }
        if (streaming || (offset == 0 && length == recv.accepted())) {
            unpack(recv.entry().cursor(), offset, src, srcOffset, length);
            return;
        }
        Staged staged = recv.state();
        if (staged == null) {
            staged = new Staged(recv.accepted());
            recv.state(staged);
            stagingInUse.add(1);
        }
        BulkCopy.copy(src, srcOffset, staged.buffer, offset, length);
    }

    @Override
    public void finish(RecvOp<Staged> recv) {
        Staged staged = recv.state();
        if (staged != null) {
            try {
                unpack(recv.entry().cursor(), 0, staged.buffer, 0, recv.accepted());
            } finally {
                drop(recv);
            }
        }
    }

    @Override
    public void abandon(RecvOp<Staged> recv) {
        drop(recv);
    }

    private void drop(RecvOp<Staged> recv) {
        Staged staged = recv.state();
        if (staged != null) {
            recv.state(null);
            staged.arena.close();
            stagingInUse.add(-1);
        }
    }

    private void unpack(TypeCursor cursor, long offset, MemorySegment src, long srcOffset, long length) {
        if (cursor.position() != offset) {
            cursor.seek(offset);
        }
        UnpackEvent event = new UnpackEvent();
        event.begin();
        long start = System.nanoTime();
        cursor.unpack(src, srcOffset, length);
        unpackTime.add(System.nanoTime() - start);
        event.commit(rank, offset, length, start);
        unpacked.add(length);
        cpuRead.add(length);
        cpuWritten.add(length);
    }

    @Override
    public void close() {
        arena.close();
    }

    /** A whole message staged before one unpack (streaming off); freed as soon as it is unpacked. */
    static final class Staged {
        final Arena arena = Arena.ofShared();
        final MemorySegment buffer;

        Staged(long bytes) {
            this.buffer = arena.allocate(Math.max(bytes, 1), 64);
        }
    }
}
