package org.jspin.nic.sim;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jspin.nic.MatchEntry;
import org.jspin.nic.NicConfig;
import org.jspin.nic.Put;
import org.jspin.nic.engine.DataPath;
import org.jspin.nic.engine.RecvOp;
import org.jspin.nic.engine.SendOp;
import org.jspin.nic.fabric.Packet;

/**
 * The sim backend's data path: a thin adapter from the engine's hooks to the simulated NIC's
 * handlers. A matched receive runs the header handler ({@link #receiveStarted}); each chunk the
 * fabric delivers goes through the payload handlers, which scatter it into the user's buffer by DMA
 * writes ({@link #deliver}); the completion handler runs at the end ({@link #finish}). A send's
 * outbound handlers gather each chunk from the user's buffer by DMA reads into the packet's buffer
 * (NIC packet memory), with no host pack.
 */
final class SimDataPath implements DataPath<SimNic.Message, SimNic.Message> {
    private final SimNic nic;
    private final int chunkSize;
    private final Arena arena = Arena.ofShared();

    SimDataPath(SimNic nic, NicConfig config) {
        this.nic = nic;
        this.chunkSize = config.chunkSize();
    }

    @Override
    public void sendStarted(SendOp<SimNic.Message> send) {
        Put put = send.put();
        if (put.length() > 0) {
            send.state(nic.send(put.type(), put.count(), put.buffer(), put.cursor()));
        }
    }

    @Override
    public void fill(SendOp<SimNic.Message> send, long offset, int length, Packet packet) {
        MemorySegment staging = packet.staging();
        if (staging == null) {
            staging = arena.allocate(chunkSize, 64);
            packet.staging(staging);
        }
        send.state().chunk(offset, length, staging, 0);
        packet.payload = staging;
        packet.payloadOffset = 0;
        packet.payloadLength = length;
    }

    @Override
    public void released(Packet packet) {
        // the staging buffer stays with the packet for its next use
    }

    @Override
    public void sendEnded(SendOp<SimNic.Message> send) {
        SimNic.Message m = send.state();
        if (m != null) {
            send.state(null);
            m.complete();
        }
    }

    @Override
    public void receiveStarted(RecvOp<SimNic.Message> recv) {
        MatchEntry e = recv.entry();
        recv.state(nic.receive(e.type(), e.count(), e.buffer(), e.cursor(), recv.accepted(), recv.fromOverflow()));
    }

    @Override
    public void deliver(RecvOp<SimNic.Message> recv, long offset, MemorySegment src, long srcOffset, long length) {
        recv.state().chunk(offset, length, src, srcOffset);
    }

    @Override
    public void finish(RecvOp<SimNic.Message> recv) {
        SimNic.Message m = recv.state();
        recv.state(null);
        m.complete();
    }

    @Override
    public void abandon(RecvOp<SimNic.Message> recv) {
        SimNic.Message m = recv.state();
        if (m != null) {
            recv.state(null);
            m.abandon();
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
