package org.jspin.bench.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class CoreStatesTest {
    @Test
    void blocksAfterAProbeNearTheFastestAreNearAndTheOthersFar() {
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
        assertEquals(100, s.fastestProbe());
        CoreSplit c = s.split(100);
        assertEquals(0.5, c.nearShare());
        assertEquals(25 / 2.0, c.p50NearMicros(), "median of 10, 20, 30, 40, halved");
        assertEquals(250 / 2.0, c.p50FarMicros());
        assertEquals(105, c.probeNearNanos());
        assertEquals(455, c.probeFarNanos());
    }

    @Test
    void theBoundIsTwiceTheFastestProbe() {
        CoreStates s = new CoreStates(2, 1);
        s.startBlock(200);
        s.record(5);
        s.startBlock(201);
        s.record(7);
        CoreSplit c = s.split(100);
        assertEquals(0.5, c.nearShare(), "200 ns is within twice 100 ns, 201 ns is not");
        assertEquals(5, c.p50NearMicros());
        assertEquals(7, c.p50FarMicros());
    }

    @Test
    void aCaseThatOnlySawTheFarStateIsFarWhenAnotherCaseSawTheNearOne() {
        CoreStates slow = new CoreStates(1, 1);
        slow.startBlock(450);
        slow.record(9);
        CoreStates fast = new CoreStates(1, 1);
        fast.startBlock(100);
        fast.record(3);
        List<PingPongResult> r = CoreStates.split(List.of(result("slow"), result("fast")), List.of(slow, fast));
        assertEquals(0, r.get(0).cores().nearShare());
        assertEquals(9, r.get(0).cores().p50FarMicros());
        assertEquals(0, r.get(0).cores().p50NearMicros(), "no near round trips");
        assertEquals(1, r.get(1).cores().nearShare());
        assertEquals("slow", r.get(0).name(), "the rest of the result is kept");
        assertEquals(1.5, r.get(0).p50Micros());

        List<PingPongResult> alone = CoreStates.split(List.of(result("slow")), List.of(slow));
        assertEquals(1, alone.get(0).cores().nearShare(), "a run that saw one state calls it near");
        assertEquals(450, alone.get(0).cores().probeNearNanos(), "and its probe says which state that was");
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
