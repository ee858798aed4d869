package org.jspin.replay.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

/** Measured, so only what must hold on any machine: real work takes time, nothing takes none. */
class PackTimerTest {
    @Test
    void aStridedVectorTakesTime() {
        PackTimer.Times t = new PackTimer(2, 3).time(Datatype.vector(4096, 1, 2, Datatype.DOUBLE).commit(), 4);
        assertTrue(t.packNs() > 0, t.toString());
        assertTrue(t.unpackNs() > 0, t.toString());
    }

    @Test
    void anEmptyMessageTakesNone() {
        assertEquals(new PackTimer.Times(0, 0), new PackTimer(2, 3).time(Datatype.DOUBLE, 0));
    }

    @Test
    void theMedianIsTheMiddleRun() {
        assertEquals(5, PackTimer.median(new long[] {9, 1, 5}));
        assertEquals(8, PackTimer.median(new long[] {7, 100, 2, 8}), "the upper middle of an even count");
    }

    @Test
    void noRunIsRefused() {
        MpiException e = assertThrows(MpiException.class, () -> new PackTimer(1, 0));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("1 and 0"), e.getMessage());
        assertThrows(MpiException.class, () -> new PackTimer(-1, 3));
    }
}
