package org.jspin.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashSet;
import java.util.Set;

import org.agrona.concurrent.UnsafeBuffer;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.Test;

/** The ring record's layout, named once: fields end to end, codes of its own per kind, headers that round-trip. */
class RingRecordTest {
    @Test
    void theHeaderFieldsLieEndToEnd() {
        int[][] fields = { // start, width
            {RingRecord.SOURCE_AT, 4}, {RingRecord.TARGET_AT, 4}, {RingRecord.MATCH_BITS_AT, 8},
            {RingRecord.SEND_ID_AT, 8}, {RingRecord.RECV_ID_AT, 8}, {RingRecord.OFFSET_AT, 8},
            {RingRecord.MESSAGE_LENGTH_AT, 8}, {RingRecord.SIGNATURE_HASH_AT, 8},
            {RingRecord.SIGNATURE_ELEMENTS_AT, 8}};
        int at = 0;
        for (int[] f : fields) {
            assertEquals(at, f[0]);
            at += f[1];
        }
        assertEquals(RingRecord.HEADER, at);
        assertEquals(0, RingRecord.HELLO_SOURCE_AT);
        assertEquals(4, RingRecord.HELLO_PROOF_AT);
        assertEquals(36, RingRecord.HELLO_BYTES, "rank and a 32-byte proof");
    }

    @Test
    void everyKindHasItsOwnCodeApartFromTheHello() {
        Set<Integer> codes = new HashSet<>();
        for (PacketKind k : PacketKind.values()) {
            int code = RingRecord.code(k);
            assertEquals(k, RingRecord.kind(code));
            codes.add(code);
        }
        assertEquals(PacketKind.values().length, codes.size());
        assertEquals(false, codes.contains(RingRecord.HELLO));
        assertEquals(4, RingRecord.code(PacketKind.DATA), "the codes do not move");
        assertNull(RingRecord.kind(RingRecord.HELLO));
        assertNull(RingRecord.kind(0));
    }

    @Test
    void aHeaderRoundTripsFieldByField() {
        Packet p = new Packet();
        p.clear();
        p.source = 6;
        p.target = 2;
        p.matchBits = -2;
        p.sendId = Long.MAX_VALUE;
        p.recvId = 1;
        p.offset = 3L << 40;
        p.messageLength = 5L << 40;
        p.signatureHash = Long.MIN_VALUE;
        p.signatureElements = 12;
        UnsafeBuffer b = new UnsafeBuffer(new byte[8 + RingRecord.HEADER]);
        RingRecord.writeHeader(b, 8, p);
        assertEquals(6, b.getInt(8 + RingRecord.SOURCE_AT));
        assertEquals(2, b.getInt(8 + RingRecord.TARGET_AT));
        Packet q = new Packet();
        q.clear();
        RingRecord.readHeader(b, 8, q);
        assertEquals(-2, q.matchBits);
        assertEquals(Long.MAX_VALUE, q.sendId);
        assertEquals(1, q.recvId);
        assertEquals(3L << 40, q.offset);
        assertEquals(5L << 40, q.messageLength);
        assertEquals(Long.MIN_VALUE, q.signatureHash);
        assertEquals(12, q.signatureElements);
    }
}
