package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashSet;
import java.util.Set;

import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.Test;

/** The header's layout and wire codes, named once: fields end to end, and every kind's code its own. */
class FrameFormatTest {
    @Test
    void everyKindHasItsOwnCodeAndComesBackFromIt() {
        Set<Byte> codes = new HashSet<>();
        for (PacketKind k : PacketKind.values()) {
            byte code = FrameFormat.code(k);
            assertEquals(k, FrameFormat.kind(code));
            codes.add(code);
        }
        assertEquals(PacketKind.values().length, codes.size());
        assertEquals(PacketKind.DATA, FrameFormat.kind(3), "version 1's codes do not move");
        assertNull(FrameFormat.kind(PacketKind.values().length));
        assertNull(FrameFormat.kind(-1));
    }

    @Test
    void theFieldsLieEndToEnd() {
        int[][] fields = { // start, width
            {FrameFormat.MAGIC_AT, 4}, {FrameFormat.VERSION_AT, 1}, {FrameFormat.KIND_AT, 1}, {FrameFormat.FLAGS_AT, 2},
            {FrameFormat.SOURCE_AT, 4}, {FrameFormat.TARGET_AT, 4}, {FrameFormat.MATCH_BITS_AT, 8},
            {FrameFormat.SEND_ID_AT, 8}, {FrameFormat.RECV_ID_AT, 8}, {FrameFormat.OFFSET_AT, 8},
            {FrameFormat.MESSAGE_LENGTH_AT, 8}, {FrameFormat.SIGNATURE_HASH_AT, 8}, {FrameFormat.SIGNATURE_ELEMENTS_AT, 8},
            {FrameFormat.PAYLOAD_LENGTH_AT, 4}};
        int at = 0;
        for (int[] f : fields) {
            assertEquals(at, f[0]);
            at += f[1];
        }
        assertEquals(FrameFormat.HEADER_BYTES, at);
    }
}
