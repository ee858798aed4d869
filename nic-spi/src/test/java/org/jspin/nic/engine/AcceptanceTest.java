package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.SignatureHash;
import org.jspin.datatype.Signatures;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.match.MatchBits;
import org.junit.jupiter.api.Test;

/** What a receive takes of a matched message, decided alone: whole, truncated, or refused for its signature. */
class AcceptanceTest {
    private static final long BITS = MatchBits.select(3, 1, 7);

    private static MatchEntry receive(long count, Datatype type) {
        MemorySegment buf = MemorySegment.ofArray(new byte[(int) (count * type.extent())]);
        return new MatchEntry(1, BITS, 0, buf, count, type, type.cursor(count, buf), e -> { });
    }

    /** The refusal of a message of {@code count} x {@code type} by {@code r}, as its header carries it. */
    private static MpiException refusal(MatchEntry r, long count, Datatype type) {
        long elements = count * Signatures.basicElements(type);
        return Acceptance.refusal(r, r.capacity(), BITS, count * type.size(), SignatureHash.ofPrefix(type, elements),
                elements);
    }

    @Test
    void aMessageThatFitsWithTheSameSignatureIsTakenWhole() {
        MatchEntry r = receive(4, Datatype.INT);
        assertNull(refusal(r, 4, Datatype.INT));
        assertNull(refusal(r, 3, Datatype.INT), "a shorter message is a prefix");
        assertEquals(16, Acceptance.accepted(null, 16, r.capacity()));
        Datatype vector = Datatype.vector(2, 2, 3, Datatype.INT).commit();
        assertNull(refusal(r, 1, vector), "a vector received as contiguous ints: the same signature");
    }

    @Test
    void aLongerMessageIsTruncatedToWhatFits() {
        MatchEntry r = receive(4, Datatype.INT);
        MpiException e = refusal(r, 8, Datatype.INT);
        assertEquals(ErrorClass.ERR_TRUNCATE, e.errorClass());
        assertTrue(e.getMessage().contains("32 bytes from rank 1 with tag 7"), e.getMessage());
        assertEquals(16, Acceptance.accepted(e, 32, r.capacity()));
    }

    @Test
    void anotherSignatureIsRefusedWholeEvenWhereTheBytesFit() {
        MatchEntry doubles = receive(4, Datatype.DOUBLE);
        MpiException floats = refusal(doubles, 4, Datatype.FLOAT);
        assertEquals(ErrorClass.ERR_TYPE, floats.errorClass());
        assertEquals(0, Acceptance.accepted(floats, 16, doubles.capacity()));
        MpiException ints = refusal(doubles, 8, Datatype.INT);
        assertEquals(ErrorClass.ERR_TYPE, ints.errorClass(), "8 ints in the 32 bytes of 4 doubles");
        assertTrue(ints.getMessage().contains("8 basic elements in 32 bytes"), ints.getMessage());
    }

    @Test
    void bytesOnEitherSideMatchAnything() {
        assertNull(refusal(receive(16, Datatype.BYTE), 4, Datatype.INT));
        MatchEntry ints = receive(4, Datatype.INT);
        assertNull(Acceptance.refusal(ints, ints.capacity(), BITS, 16, 0, -1), "an untyped message");
    }
}
