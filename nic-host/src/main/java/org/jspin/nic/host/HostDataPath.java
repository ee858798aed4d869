package org.jspin.nic.host;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.nic.NicConfig;
import org.jspin.nic.engine.DataPath;
import org.jspin.nic.engine.RecvOp;
import org.jspin.nic.engine.SendOp;
import org.jspin.nic.engine.Tally;
import org.jspin.nic.fabric.Packet;

/**
 * The CPU data path, as MPI libraries have it. Send: a contiguous message goes out as windows on
 * the user's buffer (no copy); any other is packed chunk by chunk into the packets' staging
 * buffers, the next chunk packed while earlier ones are in flight. Receive: a contiguous receive
 * takes each payload straight into the user's buffer; any other is unpacked by the CPU with the
 * cursor, each chunk as it arrives (streaming) or, with streaming off, once the whole message has
 * landed in a staging buffer.
 *
 * <p>Besides bytes packed and unpacked it estimates main-memory traffic as a real host NIC would
 * cause it: the NIC reads every sent byte and writes every received one (DMA), the CPU reads and
 * writes every byte it packs or unpacks.
 */
final class HostDataPath implements DataPath {
    private final int chunkSize;
    private final boolean streaming;
    private final Arena arena = Arena.ofShared();

    private final Tally packed = new Tally();
    private final Tally unpacked = new Tally();
    private final Tally cpuRead = new Tally();
    private final Tally cpuWritten = new Tally();
    private final Tally nicRead = new Tally();
    private final Tally nicWritten = new Tally();
    private final Tally stagingInUse = new Tally();
    private final Tally stagingAllocated = new Tally();

    HostDataPath(NicConfig config, MeterRegistry meters, Tags tags) {
        this.chunkSize = config.chunkSize();
        this.streaming = config.streamingUnpack();
        counter(meters, tags, "jspin.cpu.bytes.packed", packed);
        counter(meters, tags, "jspin.cpu.bytes.unpacked", unpacked);
        counter(meters, tags, "jspin.memory.cpu.read", cpuRead);
        counter(meters, tags, "jspin.memory.cpu.written", cpuWritten);
        counter(meters, tags, "jspin.memory.nic.read", nicRead);
        counter(meters, tags, "jspin.memory.nic.written", nicWritten);
        Gauge.builder("jspin.staging.buffers.in.use", stagingInUse, Tally::get).tags(tags).register(meters);
        Gauge.builder("jspin.staging.buffers.allocated", stagingAllocated, Tally::get).tags(tags).register(meters);
    }

    private static void counter(MeterRegistry meters, Tags tags, String name, Tally tally) {
        FunctionCounter.builder(name, tally, Tally::get).baseUnit("bytes").tags(tags).register(meters);
    }

    @Override
    public void fill(SendOp send, long offset, int length, Packet packet) {
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
        cursor.pack(staging, 0, length);
        packet.payload = staging;
        packet.payloadOffset = 0;
        stagingInUse.add(1);
        packed.add(length);
        cpuRead.add(length);
        cpuWritten.add(length);
    }

    @Override
    public void released(Packet packet) {
        if (packet.payload != null && packet.payload == packet.staging()) {
            stagingInUse.add(-1);
        }
    }

    @Override
    public void deliver(RecvOp recv, long offset, MemorySegment src, long srcOffset, long length) {
        nicWritten.add(length);
        long dense = recv.denseOffset();
        if (dense >= 0) {
            MemorySegment.copy(src, srcOffset, recv.entry().buffer(), dense + offset, length);
            return;
        }
        if (streaming || (offset == 0 && length == recv.accepted())) {
            unpack(recv.entry().cursor(), offset, src, srcOffset, length);
            return;
        }
        Staged staged = (Staged) recv.pathState;
        if (staged == null) {
            staged = new Staged(recv.accepted());
            recv.pathState = staged;
            stagingInUse.add(1);
        }
        MemorySegment.copy(src, srcOffset, staged.buffer, offset, length);
    }

    @Override
    public void finish(RecvOp recv) {
        if (recv.pathState instanceof Staged staged) {
            try {
                unpack(recv.entry().cursor(), 0, staged.buffer, 0, recv.accepted());
            } finally {
                drop(recv);
            }
        }
    }

    @Override
    public void abandon(RecvOp recv) {
        drop(recv);
    }

    private void drop(RecvOp recv) {
        if (recv.pathState instanceof Staged staged) {
            recv.pathState = null;
            staged.arena.close();
            stagingInUse.add(-1);
        }
    }

    private void unpack(TypeCursor cursor, long offset, MemorySegment src, long srcOffset, long length) {
        if (cursor.position() != offset) {
            cursor.seek(offset);
        }
        cursor.unpack(src, srcOffset, length);
        unpacked.add(length);
        cpuRead.add(length);
        cpuWritten.add(length);
    }

    @Override
    public void close() {
        arena.close();
    }

    /** A whole message staged before one unpack (streaming off); freed as soon as it is unpacked. */
    private static final class Staged {
        final Arena arena = Arena.ofShared();
        final MemorySegment buffer;

        Staged(long bytes) {
            this.buffer = arena.allocate(Math.max(bytes, 1), 64);
        }
    }
}
