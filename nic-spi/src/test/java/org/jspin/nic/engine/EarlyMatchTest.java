package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.Test;

/**
 * Early matching alone: a DATA chunk lands in its receive's memory only inside what that receive
 * accepted; an RTS's or eager header matches a posted receive as it arrives only if the receive
 * takes the whole message (an eager one only into memory the data path has).
 */
class EarlyMatchTest {
    private static final byte[] NONE = new byte[0];

    @Test
    void aDataChunkLandsInItsReceivesMemoryOnlyInsideWhatItAccepted() {
        Parts parts = new Parts(3);
        parts.path.lands = true;
        Req r = parts.recv(1, 5, new byte[600]);
        parts.receiver.onRts(Parts.from(PacketKind.RTS, 1, 5, 9, 600, NONE), null);
        long id = r.recv.id;
        MemorySegment place = parts.early.data(Parts.data(1, 9, id, 256, new byte[256]));
        assertNotNull(place);
        assertEquals(256, place.byteSize());
        assertNull(parts.early.data(Parts.data(2, 9, id, 256, new byte[256])), "another rank's");
        assertNull(parts.early.data(Parts.data(1, 8, id, 256, new byte[256])), "another send's");
        assertNull(parts.early.data(Parts.data(1, 9, id, 512, new byte[256])), "past the end");
        assertNull(parts.early.data(Parts.data(1, 9, id, -1, new byte[256])), "before the start");
        assertNull(parts.early.data(Parts.data(1, 9, id + 1, 0, new byte[256])), "no such receive");
        parts.path.lands = false;
        assertNull(parts.early.data(Parts.data(1, 9, id, 256, new byte[256])), "no memory to land in");
    }

    @Test
    void anRtsHeaderMatchesAReceiveTakingItWholeAndItsCtsIsDueAtOnce() {
        Parts parts = new Parts(2);
        parts.path.lands = true;
        Req r = parts.recv(1, 5, new byte[600]);
        Packet h = Parts.from(PacketKind.RTS, 1, 5, 9, 600, new byte[100]);
        MemorySegment place = parts.early.rts(h);
        assertEquals(100, place.byteSize());
        assertEquals(0, parts.matcher.postedCount());
        assertEquals(100, r.recv.landingWithRts);
        assertEquals(1, parts.receiver.pump());
        assertEquals(100, parts.sent().offset, "DATA goes on after what the RTS carries");
        assertSame(r.recv, parts.early.claim(h));
        assertNull(parts.early.claim(h), "claimed once");
    }

    @Test
    void aReceiveThatWouldTruncateIsLeftToTheReceiver() {
        Parts parts = new Parts(2);
        parts.path.lands = true;
        parts.recv(1, 5, new byte[300]);
        assertNull(parts.early.rts(Parts.from(PacketKind.RTS, 1, 5, 9, 600, new byte[100])));
        assertEquals(1, parts.matcher.postedCount(), "still posted");
        assertFalse(parts.receiver.hasCtsDue());
    }

    @Test
    void anEagerHeaderMatchesOnlyWhereItsPayloadCanLand() {
        Parts parts = new Parts(2);
        Req r = parts.recv(1, 5, new byte[64]);
        Packet h = Parts.from(PacketKind.EAGER, 1, 5, 9, 40, new byte[40]);
        assertNull(parts.early.eager(h), "a receive the CPU unpacks gains nothing");
        assertEquals(1, parts.matcher.postedCount());
        parts.path.lands = true;
        assertEquals(40, parts.early.eager(h).byteSize());
        assertEquals(0, parts.matcher.postedCount());
        assertSame(r.recv, parts.early.claim(h));
    }

    @Test
    void nothingFromADepartedRankMatchesEarlyAndWhatDidFails() {
        Parts parts = new Parts(3);
        parts.path.lands = true;
        Req fromOne = parts.recv(1, 5, new byte[64]);
        Packet h = Parts.from(PacketKind.EAGER, 1, 5, 9, 40, new byte[40]);
        assertNotNull(parts.early.eager(h));
        parts.early.failFrom(1, new MpiException(ErrorClass.ERR_PROC_FAILED, "gone"));
        assertEquals(ErrorClass.ERR_PROC_FAILED, fromOne.error());
        assertNull(parts.early.claim(h));

        parts.failedRanks.set(2);
        parts.recv(2, 5, new byte[64]);
        assertNull(parts.early.eager(Parts.from(PacketKind.EAGER, 2, 5, 9, 40, new byte[40])));
        assertEquals(1, parts.matcher.postedCount(), "still posted");
    }
}
