package org.jspin.nic.sim.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.timing.HandlerScheduler;
import org.jspin.nic.sim.work.MessageWork;
import org.junit.jupiter.api.Test;

/** The untimed scheduler runs each handler at once, in order, on the HPU it is given. */
class ImmediateSchedulerTest {
    @Test
    void eachHandlerRunsAtOnceOnItsHpuWithCleanWork() {
        ImmediateScheduler s = new ImmediateScheduler();
        List<String> runs = new ArrayList<>();
        HandlerScheduler.Runner runner = (slot, hpu, work) -> {
            runs.add(slot + "@" + hpu + " blocks " + work.blocks);
            work.blocks = 5; // left behind: the next handler must not see it
        };
        s.arrive(2, 100, 1, runner);
        assertEquals(List.of("2@1 blocks 0"), runs, "ran on arrival");
        s.nack();
        s.wasted(100);
        s.arrive(0, 100, 3, runner);
        s.drain(runner);
        MessageWork totals = new MessageWork(false);
        s.complete(runner, totals);
        assertEquals(List.of("2@1 blocks 0", "0@3 blocks 0"), runs, "in order, nothing run twice");
        assertNull(totals.timing, "no clock, no timing");
    }

    @Test
    void aHandlerWithoutAnHpuIsRefused() {
        ImmediateScheduler s = new ImmediateScheduler();
        MpiException e = assertThrows(MpiException.class, () -> s.arrive(0, 100, -1, (slot, hpu, work) -> { }));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
    }
}
