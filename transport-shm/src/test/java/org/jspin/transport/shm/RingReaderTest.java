package org.jspin.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;

import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records of rank 0's ring become packets for the engine, their payloads in the ring, once rank 1 proved itself. */
class RingReaderTest {
    @TempDir
    Path dir;
    private RingRig rig;
    private final RingRig.Told told = new RingRig.Told();
    private Departures departures;
    private RingHellos hellos;
    private RingReader reader;

    @BeforeEach
    void rings() {
        rig = new RingRig(dir);
        departures = new Departures(0, rig.rings, rig.boxes[0], Departures.LIVENESS_NANOS);
        hellos = new RingHellos(RingRig.JOB, 0, RingRig.SECRET, rig.rings);
        reader = new RingReader(0, rig.rings, rig.rings[0].segment(), hellos, departures);
        reader.handler = told;
    }

    @AfterEach
    void close() {
        rig.close();
    }

    private void prove() {
        new RingHellos(RingRig.JOB, 1, RingRig.SECRET, rig.rings).sayHello(rig.boxes);
        assertEquals(1, rig.boxes[0].read(reader));
        assertTrue(hellos.proven(1));
    }

    /** Writes a record from rank 1 to {@code target} into rank 0's ring. */
    private void write(PacketKind kind, int target, byte... payload) {
        Packet p = new Packet();
        p.clear();
        p.source = 1;
        p.target = target;
        p.sendId = 77;
        p.messageLength = payload.length;
        int at = rig.boxes[0].tryClaim(RingRecord.code(kind), RingRecord.HEADER + payload.length);
        RingRecord.writeHeader(rig.rings[0].ring(), at, p);
        rig.rings[0].ring().putBytes(at + RingRecord.HEADER, payload);
        rig.boxes[0].commit(at);
    }

    @Test
    void aProvenPeersPacketIsDeliveredWithItsPayloadInTheRing() {
        prove();
        write(PacketKind.EAGER, 0, (byte) 9, (byte) 8);
        MemorySegment[] seen = new MemorySegment[1];
        told.then = p -> {
            seen[0] = p.payload;
            assertEquals(9, p.payload.get(ValueLayout.JAVA_BYTE, p.payloadOffset));
            reader.released(p);
        };
        assertEquals(1, rig.boxes[0].read(reader));
        assertSame(rig.rings[0].segment(), seen[0], "unpacked straight from the ring");
    }

    @Test
    void aPacketTheEngineKeepsIsAnError() {
        prove();
        write(PacketKind.EAGER, 0, (byte) 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> rig.boxes[0].read(reader));
        assertTrue(e.getMessage().contains("kept"), e.getMessage());
    }

    @Test
    void anRtsWithPayloadIsCopiedAside() {
        prove();
        write(PacketKind.RTS, 0, (byte) 5, (byte) 6, (byte) 7);
        assertEquals(1, rig.boxes[0].read(reader));
        Packet p = told.packets.get(0);
        assertNotSame(rig.rings[0].segment(), p.payload);
        assertEquals(3, p.payloadLength);
        assertEquals(7, p.payload.get(ValueLayout.JAVA_BYTE, 2));
        assertEquals(77, p.sendId);
        assertEquals(1, p.source);
    }

    @Test
    void aPacketBeforeTheHelloFailsItsSenderAndLaterOnesAreDropped() {
        write(PacketKind.CTS, 0);
        write(PacketKind.CTS, 0);
        assertEquals(2, rig.boxes[0].read(reader));
        assertEquals(List.of("1: rank 1 wrote a packet before proving the job secret into rank 0's ring"), told.failed);
        assertTrue(told.packets.isEmpty());
    }

    @Test
    void aPacketForAnotherRankFailsItsSender() {
        prove();
        write(PacketKind.CTS, 1);
        rig.boxes[0].read(reader);
        assertEquals(List.of("1: rank 1 wrote a packet addressed to rank 1 into rank 0's ring"), told.failed);
    }
}
