package org.jspin.replay.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

class LogGopsParametersTest {
    @Test
    void defaultsAreLogGopsimsWithThePapersBandwidth() {
        assertEquals("L=2500,o=1500,g=1000,G=0.04,O=0,S=65535", LogGopsParameters.defaults().toString());
    }

    @Test
    void overridesTakeFractionsOfNanosecondsPerByte() {
        LogGopsParameters p = LogGopsParameters.defaults().with("L=10, G=0.125,S=8");
        assertEquals(10, p.latency());
        assertEquals(125, p.gapPerBytePs());
        assertEquals(8, p.eagerLimit());
        assertEquals(1500, p.overhead());
        // 9 bytes after the first at 0.125 ns: 1.125, charged as whole ns (floor)
        assertEquals(1, p.gapBytes(10));
    }

    @Test
    void anEmptyMessageChargesMinusOneByteAsLogGopsimDoes() {
        LogGopsParameters p = LogGopsParameters.ofNanos(1, 1, 1, 6, 2, 1);
        assertEquals(-6, p.gapBytes(0));
        assertEquals(-2, p.overheadBytes(0));
    }

    @Test
    void badEntriesNameTheirValue() {
        LogGopsParameters d = LogGopsParameters.defaults();
        MpiException unknown = assertThrows(MpiException.class, () -> d.with("X=3"));
        assertEquals(ErrorClass.ERR_ARG, unknown.errorClass());
        assertTrue(unknown.getMessage().contains("'X'"));
        assertTrue(assertThrows(MpiException.class, () -> d.with("L=2.5")).getMessage().contains("L=2.5"));
        assertTrue(assertThrows(MpiException.class, () -> d.with("G=0.0001")).getMessage().contains("G=0.0001"));
        assertTrue(assertThrows(MpiException.class, () -> d.with("o")).getMessage().contains("'o'"));
        assertThrows(MpiException.class, () -> d.with("g=-1"));
    }
}
