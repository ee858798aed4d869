package org.jspin.bench.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

class CoreStatesTest {
    @Test
    void blocksAfterAProbeUnderTheBoundAreNearAndTheOthersFar() {
        CoreStates s = new CoreStates(8, 2);
        s.startBlock(100);
        s.record(10);
        s.record(20);
        s.startBlock(450);
        s.record(100);
        s.record(200);
        s.startBlock(110);
        s.record(30);
        s.record(40);
        s.startBlock(460);
        s.record(300);
        s.record(400);
        CoreSplit c = s.split(300);
        assertEquals(0.5, c.nearShare());
        assertEquals(25 / 2.0, c.p50NearMicros(), "median of 10, 20, 30, 40, halved");
        assertEquals(250 / 2.0, c.p50FarMicros());
        assertEquals(105, c.probeNearNanos());
        assertEquals(455, c.probeFarNanos());
    }

    @Test
    void aProbeAtTheBoundIsFar() {
        CoreStates s = new CoreStates(2, 1);
        s.startBlock(299);
        s.record(5);
        s.startBlock(300);
        s.record(7);
        CoreSplit c = s.split(300);
        assertEquals(0.5, c.nearShare(), "near means under the bound");
        assertEquals(5, c.p50NearMicros());
        assertEquals(7, c.p50FarMicros());
    }

    @Test
    void theRunIsSplitAtTheDefaultBoundOrTheOneGiven() {
        CoreStates middle = new CoreStates(1, 1);
        middle.startBlock(190);
        middle.record(9);
        CoreStates fast = new CoreStates(1, 1);
        fast.startBlock(70);
        fast.record(3);
        List<PingPongResult> r = CoreStates.split(List.of(result("middle"), result("fast")), List.of(middle, fast));
        assertEquals(1, r.get(0).cores().nearShare(), "190 ns is near at the default 300 ns, whatever else the run saw");
        assertEquals(9, r.get(0).cores().p50NearMicros());
        assertEquals("middle", r.get(0).name(), "the rest of the result is kept");
        assertEquals(1.5, r.get(0).p50Micros());
        String before = System.getProperty(CoreStates.NEAR_BELOW_PROPERTY);
        try {
            System.setProperty(CoreStates.NEAR_BELOW_PROPERTY, "150");
            List<PingPongResult> moved = CoreStates.split(List.of(result("middle")), List.of(middle));
            assertEquals(0, moved.get(0).cores().nearShare());
            assertEquals(9, moved.get(0).cores().p50FarMicros());
            assertEquals(190, moved.get(0).cores().probeFarNanos(), "and its probe says where it was");
            for (String bad : new String[] {"0", "-5", "fast", "Infinity"}) {
                System.setProperty(CoreStates.NEAR_BELOW_PROPERTY, bad);
                MpiException e = assertThrows(MpiException.class, CoreStates::nearBelowNanos);
                assertEquals(ErrorClass.ERR_ARG, e.errorClass());
                assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
            }
        } finally {
            if (before == null) {
                System.clearProperty(CoreStates.NEAR_BELOW_PROPERTY);
            } else {
                System.setProperty(CoreStates.NEAR_BELOW_PROPERTY, before);
            }
        }
    }

    @Test
    void roundTripsOutsideTheirBlocksAreRefused() {
        CoreStates s = new CoreStates(1, 1);
        assertThrows(IllegalStateException.class, () -> s.record(1), "before the first block");
        s.startBlock(100);
        s.record(1);
        assertThrows(IllegalStateException.class, () -> s.record(2), "past the rounds given");
        assertThrows(IllegalArgumentException.class, () -> CoreStates.split(List.of(), List.of(s)));
    }

    @Test
    void fortyBlocksPerCase() {
        assertEquals(500, CoreStates.blockRounds(20_000));
        assertEquals(2, CoreStates.blockRounds(41));
        assertEquals(1, CoreStates.blockRounds(40));
        assertEquals(1, CoreStates.blockRounds(1));
        assertEquals(1, CoreStates.blockRounds(0));
    }

    private static PingPongResult result(String name) {
        return new PingPongResult(name, 1, 1, 1.5, 2, 3, 0.1);
    }
}
