package org.jspin.nic.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;

/** A packet's header, copied apart from its payload. */
class PacketTest {
    @Test
    void headerFromTakesEveryHeaderFieldAndNoPayload() {
        Packet p = new Packet();
        p.clear();
        p.kind = PacketKind.RTS;
        p.source = 3;
        p.target = 5;
        p.matchBits = 7;
        p.sendId = 11;
        p.recvId = 13;
        p.offset = 17;
        p.messageLength = 19;
        p.signatureHash = 23;
        p.signatureElements = 29;
        p.payload = MemorySegment.ofArray(new byte[4]);
        p.payloadLength = 4;
        Packet c = new Packet();
        c.clear();
        c.headerFrom(p);
        assertEquals(p.toString(), c.toString().replace("payload=0", "payload=4"));
        assertEquals(p.signatureHash, c.signatureHash);
        assertEquals(p.signatureElements, c.signatureElements);
        assertNull(c.payload);
        assertEquals(0, c.payloadLength);
    }
}
