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
        p.source = 3;
        p.target = 5;
        p.matchBits = 0x1234_5678_9abc_def0L;
        p.sendId = 42;
        p.recvId = 43;
        p.offset = 1L << 33;
        p.messageLength = 1L << 34;
        p.signatureHash = -7;
        p.signatureElements = -1;
        UnsafeBuffer b = new UnsafeBuffer(new byte[8 + RingRecord.HEADER]);
        RingRecord.writeHeader(b, 8, p);
        assertEquals(3, b.getInt(8 + RingRecord.SOURCE_AT));
        assertEquals(5, b.getInt(8 + RingRecord.TARGET_AT));
        Packet q = new Packet();
        q.clear();
        RingRecord.readHeader(b, 8, q);
        assertEquals(p.matchBits, q.matchBits);
        assertEquals(42, q.sendId);
        assertEquals(43, q.recvId);
        assertEquals(1L << 33, q.offset);
        assertEquals(1L << 34, q.messageLength);
        assertEquals(-7, q.signatureHash);
        assertEquals(-1, q.signatureElements);
    }
}
