package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.nic.fabric.Packet;

/**
 * A data path for tests: packs every chunk into the packet's staging buffer and unpacks every
 * chunk with the datatype cursor, as the host path does for a non-contiguous message, and records
 * each hook call as a line: {@code sendStarted s1}, {@code fill s1 0+256}, {@code released s1},
 * {@code sendEnded s1}, {@code receiveStarted r2 overflow=false}, {@code deliver r2 0+256},
 * {@code finish r2}, {@code abandon r2}, {@code close} (s: a send's id, r: a receive's).
 */
final class RecordingDataPath implements DataPath<String, String> {
    final List<String> calls = new ArrayList<>();
    private final int chunkSize;
    /** Whether contiguous receives offer their memory for chunks to land in ({@link #landing}). */
    boolean lands;
    /** Whether contiguous sends' packets are windows on their buffers ({@link #sendsInPlace}), as the host path's are. */
    boolean inPlace;
    /** Whether packed sends' first DATA chunk is packed while the CTS is awaited ({@link #packsAhead}). */
    boolean packsAhead;
    /** Whether packed bytes go straight into memory the fabric lends ({@link #fillLent}). */
    boolean packsIntoLent;
    /** A fill from this offset fails (a data path that cannot pack those bytes); -1: none. */
    long refuseFillFrom = -1;
    /** Sends of this many bytes have their set-up fail (a data path that cannot take them); -1: none. */
    long refuseSendsOf = -1;

    RecordingDataPath(int chunkSize) {
        this.chunkSize = chunkSize;
    }

    /** @return the calls that start with one of {@code hooks} ("fill", "deliver", ...), in order */
    List<String> calls(String... hooks) {
        List<String> out = new ArrayList<>();
        for (String c : calls) {
            for (String h : hooks) {
                if (c.startsWith(h + " ") || c.equals(h)) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    @Override
    public void sendStarted(SendOp<String> send) {
        calls.add("sendStarted s" + send.id());
        if (send.length() == refuseSendsOf) {
            throw new IllegalStateException("no room for a send of " + refuseSendsOf + " bytes");
        }
        send.state("state of s" + send.id());
    }

    @Override
    public void fill(SendOp<String> send, long offset, int length, Packet packet) {
        if (!("state of s" + send.id()).equals(send.state())) {
            throw new AssertionError("fill before sendStarted for s" + send.id());
        }
        calls.add("fill s" + send.id() + " " + offset + "+" + length);
        if (offset == refuseFillFrom) {
            throw new IllegalStateException("cannot pack from " + offset);
        }
        if (sendsInPlace(send)) {
            packet.payload = send.put().buffer();
            packet.payloadOffset = send.denseOffset() + offset;
            packet.payloadLength = length;
            return;
        }
        MemorySegment staging = packet.staging();
        if (staging == null) {
            staging = MemorySegment.ofArray(new byte[chunkSize]);
            packet.staging(staging);
        }
        TypeCursor cursor = send.put().cursor();
        if (cursor.position() != offset) {
            cursor.seek(offset);
        }
        cursor.pack(staging, 0, length);
        packet.payload = staging;
        packet.payloadOffset = 0;
        packet.payloadLength = length;
    }

    @Override
    public boolean fillLent(SendOp<String> send, long offset, int length, Packet packet) {
        if (!packsIntoLent) {
            return false;
        }
        calls.add("fillLent s" + send.id() + " " + offset + "+" + length);
        if (offset == refuseFillFrom) {
            throw new IllegalStateException("cannot pack from " + offset);
        }
        TypeCursor cursor = send.put().cursor();
        if (cursor.position() != offset) {
            cursor.seek(offset);
        }
        cursor.pack(packet.payload, packet.payloadOffset, length);
        return true;
    }

    @Override
    public boolean sendsInPlace(SendOp<String> send) {
        return inPlace && send.denseOffset() >= 0;
    }

    @Override
    public boolean packsAhead(SendOp<String> send) {
        return packsAhead && !sendsInPlace(send);
    }

    @Override
    public void released(Packet packet) {
        calls.add("released s" + packet.sendId);
    }

    @Override
    public void sendEnded(SendOp<String> send) {
        calls.add("sendEnded s" + send.id());
    }

    @Override
    public MemorySegment landing(RecvOp<String> recv, long offset, int length) {
        if (!lands || recv.denseOffset() < 0) {
            return null;
        }
        calls.add("landing r" + recv.id() + " " + offset + "+" + length);
        return recv.entry().buffer().asSlice(recv.denseOffset() + offset, length);
    }

    @Override
    public void receiveStarted(RecvOp<String> recv) {
        calls.add("receiveStarted r" + recv.id() + " overflow=" + recv.fromOverflow());
        recv.state("state of r" + recv.id());
    }

    @Override
    public void deliver(RecvOp<String> recv, long offset, MemorySegment src, long srcOffset, long length) {
        if (!("state of r" + recv.id()).equals(recv.state())) {
            throw new AssertionError("deliver before receiveStarted for r" + recv.id());
        }
        calls.add("deliver r" + recv.id() + " " + offset + "+" + length);
        TypeCursor cursor = recv.entry().cursor();
        if (cursor.position() != offset) {
            cursor.seek(offset);
        }
        cursor.unpack(src, srcOffset, length);
    }

    @Override
    public void finish(RecvOp<String> recv) {
        calls.add("finish r" + recv.id());
    }

    @Override
    public void abandon(RecvOp<String> recv) {
        calls.add("abandon r" + recv.id());
    }

    @Override
    public void close() {
        calls.add("close");
    }
}
